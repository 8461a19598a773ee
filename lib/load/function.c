/*
 * function.c - kernel attributes and occupancy: cudaFuncGetAttributes, cudaFuncSetAttribute,
 * cudaFuncSetCacheConfig, cudaFuncGetName, cudaFuncGetParamInfo, cudaGetKernel and the
 * cudaOccupancy* queries.
 *
 * `func` is what a program has in hand: a kernel's host stub (what <<<>>> and the C++ templates
 * pass) or a cudaKernel_t from cudaGetKernel; rt_kernel_find takes both.  Anything else is
 * cudaErrorInvalidResourceHandle, as NVIDIA's runtime answers for cudaFuncGetAttributes on an
 * unregistered pointer (SEMANTICS.md section 0), except NULL: cudaErrorInvalidDeviceFunction
 * (rt_kernel_unknown; measured on the H200 by tests/gpu/conf_misuse_launch.cu).
 *
 * Settings are per kernel and device: on two H200s a cudaFuncSetAttribute made on device 0 left
 * device 1 at its default with NVIDIA's runtime (tests/gpu/conf_multigpu.cu).  minicudart
 * resolves a CUfunction per device and context generation, lazily, so it remembers every setting
 * here (rt_fn_settings, one record per kernel and device that ever had one) and applies the
 * record whenever the kernel's CUfunction on that device has not seen its latest version, e.g.
 * after cudaDeviceReset (rt_function_apply, called from every path that resolves a kernel).
 *
 * What the driver holds: cudaFuncSetAttribute ends in cuFuncSetAttribute, cudaFuncSetCacheConfig
 * in cuFuncSetCacheConfig, both on a CUfunction, which belongs to one context: the function of
 * the module loaded there (module.c), or the one cuKernelGetFunction gives a library's kernel in
 * it.  A reset destroys the context with its modules and functions, and with them every setting;
 * the next resolve makes a new function, which starts at the defaults.  Hence the records: each
 * change bumps the record's version, and each slot remembers which (generation, version) its
 * function last got, so that applying costs a look-up and two compares once done.  Each setting
 * is made on the current function at once too, so that a bad value fails in the call that set
 * it, with the driver's code.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "load/load.h"

/* ---- remembered settings --------------------------------------------------------------------- */

/* The settable cudaFuncAttribute values (rt_fn_attr_settable), indices of the arrays below. */
#define RT_FN_ATTR_FIRST cudaFuncAttributeMaxDynamicSharedMemorySize
#define RT_FN_ATTR_LAST 16                    /* cudaFuncAttributeSharedMemoryMode (13.5) */
/* The cache configuration's bit in `set`, clear of the attribute bits (8..16). */
#define RT_FN_CACHE_BIT 31u

/* The settable attributes and the cache configurations go to the driver as numbers unchanged
 * (all but 13.5's shared memory mode, which rt_fn_driver_attr maps: load.h). */

_Static_assert((int)cudaFuncAttributeMaxDynamicSharedMemorySize ==
               (int)CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, "attribute values differ");
_Static_assert((int)cudaFuncAttributePreferredSharedMemoryCarveout ==
               (int)CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, "attribute values differ");
_Static_assert((int)cudaFuncAttributeClusterDimMustBeSet ==
               (int)CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET, "attribute values differ");
_Static_assert((int)cudaFuncAttributeClusterSchedulingPolicyPreference ==
               (int)CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE,
               "attribute values differ");
_Static_assert((int)cudaFuncCachePreferEqual == (int)CU_FUNC_CACHE_PREFER_EQUAL,
               "cache configurations differ");

/* Which (generation, version) of a record one device's CUfunction has seen: the context
 * generation the function was resolved in, and the record's version it was given. */
typedef struct rt_fn_applied {
    _Atomic uint64_t generation;
    _Atomic uint64_t version;
} rt_fn_applied;

typedef struct rt_fn_settings {
    _Atomic(const rt_kernel *) kernel;    /* NULL once the kernel's record is freed */
    size_t slot;                          /* the device (rt_slot_index) the settings are for */
    _Atomic unsigned set;                 /* bit a: attribute a set; RT_FN_CACHE_BIT: cache */
    _Atomic int value[RT_FN_ATTR_LAST + 1];      /* cudaFuncSetAttribute's, by attribute */
    /* What cudaKernelSetAttributeForDevice set.  Of the two settings of one attribute the later
     * wins (NVIDIA's runtime on the H200: cudaFuncSetAttribute, then ForDevice, leaves
     * ForDevice's value), so each clears the other's bit. */
    _Atomic unsigned device_set;
    _Atomic int device_value[RT_FN_ATTR_LAST + 1];
    _Atomic int cache;                    /* cudaFuncSetCacheConfig's, a CUfunc_cache */
    _Atomic uint64_t version;             /* bumped by every change */
    rt_fn_applied *applied;               /* [rt_slot_count] */
    struct rt_fn_settings *next;
} rt_fn_settings;

/* Records are only ever added (at the head, under the lock) and never freed, so readers walk the
 * list without a lock; the launch path pays one atomic load while the list is empty. */
static _Atomic(rt_fn_settings *) rt_fn_list;
/* Serialises the writers, and the driver calls that apply a record to a function. */
static pthread_mutex_t rt_fn_lock = PTHREAD_MUTEX_INITIALIZER;

/* A record's kernel and slot never change once it is on the list (but for the kernel's clearing
 * by rt_function_forget), so the walk needs no lock. */
static rt_fn_settings *rt_fn_find(const rt_kernel *k, size_t slot)
{
    for (rt_fn_settings *s = atomic_load_explicit(&rt_fn_list, memory_order_acquire); s;
         s = s->next)
        if (atomic_load_explicit(&s->kernel, memory_order_relaxed) == k && s->slot == slot)
            return s;
    return NULL;
}

/* The record of a closed library's kernel is about to be freed (register.c, through the hook
 * rt_fn_get installs with the first settings): its settings must not pass to a new record that
 * gets the same address.  The settings record itself stays, as every record here does. */
static void rt_function_forget(const rt_kernel *k)
{
    pthread_mutex_lock(&rt_fn_lock);
    for (rt_fn_settings *s = atomic_load(&rt_fn_list); s; s = s->next)
        if (atomic_load(&s->kernel) == k)
            atomic_store(&s->kernel, NULL);
    pthread_mutex_unlock(&rt_fn_lock);
}

/* The record of k, created if needed.  Needs rt_device_count (a context was entered). */
static rt_fn_settings *rt_fn_get(rt_kernel *k, size_t slot)
{
    pthread_mutex_lock(&rt_fn_lock);
    rt_fn_settings *s = rt_fn_find(k, slot);
    /* The record is filled before it is published (release): a reader that finds it on the
     * list finds its kernel, slot and array. */
    if (!s && (s = calloc(1, sizeof *s)) != NULL) {
        rt_registry_set_forget_hook(rt_function_forget);   /* before any kernel has settings */
        s->applied = calloc((size_t)rt_slot_count, sizeof *s->applied);
        if (!s->applied) {
            free(s);
            s = NULL;
        } else {
            atomic_store(&s->kernel, k);
            s->slot = slot;
            s->next = atomic_load(&rt_fn_list);
            atomic_store_explicit(&rt_fn_list, s, memory_order_release);
        }
    }
    pthread_mutex_unlock(&rt_fn_lock);
    return s;
}

/* Sets every remembered setting of s on f.  Called with rt_fn_lock held. */
static CUresult rt_fn_set_all(const rt_fn_settings *s, CUfunction f)
{
    unsigned set = atomic_load(&s->set), device_set = atomic_load(&s->device_set);
    CUresult r = CUDA_SUCCESS;
    /* At most one of the two bits is set for an attribute (each setter clears the other's). */
    for (int a = RT_FN_ATTR_FIRST; r == CUDA_SUCCESS && a <= RT_FN_ATTR_LAST; a++) {
        if (set & (1u << a))
            r = rt_drv.cuFuncSetAttribute(f, rt_fn_driver_attr(a), atomic_load(&s->value[a]));
        else if (device_set & (1u << a))
            r = rt_drv.cuFuncSetAttribute(f, rt_fn_driver_attr(a),
                                          atomic_load(&s->device_value[a]));
    }
    if (r == CUDA_SUCCESS && (set & (1u << RT_FN_CACHE_BIT)))
        r = rt_drv.cuFuncSetCacheConfig(f, (CUfunc_cache)atomic_load(&s->cache));
    return r;
}

/* The launch path's cost: one load while nothing was ever set, else a walk of the records and
 * two compares for a function that has its settings already. */
cudaError_t rt_function_apply(rt_kernel *k, rt_device *d, rt_kernel_dev *kd)
{
    if (!atomic_load_explicit(&rt_fn_list, memory_order_acquire))
        return cudaSuccess;
    rt_fn_settings *s = rt_fn_find(k, rt_slot_index(d));
    if (!s)
        return cudaSuccess;
    rt_fn_applied *seen = &s->applied[d - rt_devices];
    uint64_t generation = atomic_load(&d->generation);
    if (atomic_load(&seen->generation) == generation &&
        atomic_load(&seen->version) == atomic_load(&s->version))
        return cudaSuccess;

    /* Two threads may both get here: the same values are then set twice, which is harmless.
     * On failure nothing is marked, so the next resolve tries again. */
    pthread_mutex_lock(&rt_fn_lock);
    uint64_t version = atomic_load(&s->version);
    CUfunction f = atomic_load(&kd->function);
    CUresult r = rt_fn_set_all(s, f);
    if (r == CUDA_SUCCESS) {
        atomic_store(&seen->version, version);
        atomic_store(&seen->generation, generation);
    }
    pthread_mutex_unlock(&rt_fn_lock);
    RT_TRACE("kernel %s: remembered attributes applied on device %d (%s)", k->name,
             (int)(d - rt_devices), rt_error_name(rt_error_from_cu(r)));
    return rt_error_from_cu(r);
}

/* The kernel is looked up before any context is entered: an unknown `func` is refused without
 * initialising anything. */
cudaError_t rt_function_resolve(const void *func, rt_device **d, rt_kernel **k, CUfunction *f)
{
    rt_kernel *kernel = rt_kernel_find(func);
    if (!rt_kernel_usable(kernel)) {
        RT_TRACE("function %p is not a registered kernel", func);
        return rt_kernel_unknown(func);
    }
    rt_device *dev;
    cudaError_t e = rt_context_enter(&dev);
    if (e != cudaSuccess)
        return e;
    rt_kernel_dev *kd;
    e = rt_kernel_resolve(kernel, dev, &kd);
    if (e == cudaSuccess)
        e = rt_function_apply(kernel, dev, kd);
    if (e != cudaSuccess)
        return e;
    *d = dev;
    *k = kernel;
    *f = atomic_load_explicit(&kd->function, memory_order_acquire);
    return cudaSuccess;
}

/* After a setting was made on the function of device d directly: that function has every
 * setting of s (rt_function_resolve applied the earlier ones), so its next launch has nothing to
 * apply. */
static void rt_fn_mark_applied(rt_fn_settings *s, rt_device *d)
{
    pthread_mutex_lock(&rt_fn_lock);
    uint64_t version = atomic_fetch_add(&s->version, 1) + 1;
    rt_fn_applied *seen = &s->applied[rt_slot_index(d)];
    atomic_store(&seen->version, version);
    atomic_store(&seen->generation, atomic_load(&d->generation));
    pthread_mutex_unlock(&rt_fn_lock);
}

/* Sets one setting on the current device now (so that a bad value fails here, with the driver's
 * code), then remembers it for that device, to be set again after a reset.  Only that device:
 * on two H200s NVIDIA's runtime kept the other device's default (tests/gpu/conf_multigpu.cu). */
static cudaError_t rt_fn_remember(const void *func, int attr, int value, bool cache)
{
    rt_device *d;
    rt_kernel *k;
    CUfunction f;
    cudaError_t e = rt_function_resolve(func, &d, &k, &f);
    if (e != cudaSuccess)
        return e;
    /* The cache configuration and the carveout are preferences only: the driver may choose
     * otherwise where the kernel needs it (its documentation of both). */
    CUresult r = cache ? rt_drv.cuFuncSetCacheConfig(f, (CUfunc_cache)value)
                       : rt_drv.cuFuncSetAttribute(f, rt_fn_driver_attr(attr), value);
    e = rt_error_from_cu(r);
    rt_device_note_error(d, e);
    if (e != cudaSuccess)
        return e;
    rt_fn_settings *s = rt_fn_get(k, rt_slot_index(d));
    if (!s)
        return cudaErrorMemoryAllocation;
    unsigned bit = cache ? RT_FN_CACHE_BIT : (unsigned)attr;
    if (cache)
        atomic_store(&s->cache, value);
    else
        atomic_store(&s->value[attr], value);
    atomic_fetch_or(&s->set, 1u << bit);
    /* The later setting wins over cudaKernelSetAttributeForDevice's (rt_fn_settings). */
    if (!cache)
        atomic_fetch_and(&s->device_set, ~(1u << bit));
    /* This function has it already; a function of a later generation gets it when resolved. */
    rt_fn_mark_applied(s, d);
    RT_TRACE("kernel %s: %s %d = %d remembered for device %d", k->name,
             cache ? "cache config" : "attribute", attr, value, (int)rt_slot_index(d));
    return cudaSuccess;
}

/* The device-wide setting of cudaKernelSetAttributeForDevice, on a registered kernel.  NVIDIA's
 * runtime sets it on the driver's CUkernel, for every context of the device; a registered
 * kernel here has a CUfunction per context instead, so the setting is made on the function in
 * the device's primary context (activated and made current for the call if it is not) and
 * remembered for that device like cudaFuncSetAttribute's; the later of the two wins. */
cudaError_t rt_function_set_for_device(rt_kernel *k, rt_device *d, int attr, int value)
{
    cudaError_t e = rt_device_activate(d);
    if (e != cudaSuccess)
        return e;
    CUcontext mine = NULL;
    rt_drv.cuCtxGetCurrent(&mine);
    bool switched = mine != d->context;
    if (switched && rt_drv.cuCtxSetCurrent(d->context) != CUDA_SUCCESS)
        return cudaErrorDeviceUninitialized;
    /* The function in d's context, with the earlier settings applied first, so that the one
     * made below is the latest it got. */
    rt_kernel_dev *kd;
    e = rt_kernel_resolve(k, d, &kd);
    if (e == cudaSuccess)
        e = rt_function_apply(k, d, kd);
    rt_fn_settings *s = NULL;
    CUfunction f = e == cudaSuccess ? atomic_load_explicit(&kd->function, memory_order_acquire)
                                    : NULL;
    if (e == cudaSuccess) {
        /* Set now, so that a bad value fails here with the driver's code. */
        e = rt_error_from_cu(rt_drv.cuFuncSetAttribute(f, rt_fn_driver_attr(attr), value));
        rt_device_note_error(d, e);
    }
    if (e == cudaSuccess && !(s = rt_fn_get(k, rt_slot_index(d))))
        e = cudaErrorMemoryAllocation;
    if (e == cudaSuccess) {
        atomic_store(&s->device_value[attr], value);
        atomic_fetch_or(&s->device_set, 1u << attr);
        atomic_fetch_and(&s->set, ~(1u << attr));        /* the later setting wins */
        rt_fn_mark_applied(s, d);
        RT_TRACE("kernel %s: attribute %d = %d set for device %d", k->name, attr, value,
                 d->ordinal);
    }
    /* The thread's own context back, whatever happened. */
    if (switched)
        rt_drv.cuCtxSetCurrent(mine);
    return e;
}

/* ---- the API --------------------------------------------------------------------------------- */

RT_API cudaError_t cudaGetKernel(cudaKernel_t *kernelPtr, const void *entryFuncAddr)
{
    RT_ENTER();
    if (!kernelPtr)
        RT_RETURN(cudaErrorInvalidValue);
    /* The same process-wide handle __cudaGetKernel hands nvcc's stubs, and the same answer for
     * a pointer that is no kernel. */
    rt_kernel *k = rt_kernel_find(entryFuncAddr);
    /* A library kernel's handle is no entry function: NVIDIA answers
     * cudaErrorInvalidDeviceFunction for it (measured on the H200). */
    if (!k || k->library_kernel)
        RT_RETURN(cudaErrorInvalidDeviceFunction);
    *kernelPtr = rt_kernel_hand_out(k);
    RT_RETURN(cudaSuccess);
}

/* The CUfunction of a kernel in the current context (cudaFunction_t is the driver's CUfunction):
 * loaded and resolved like a launch would, with cudaFuncSetAttribute's settings applied.  As
 * measured with NVIDIA's runtime (H200): a pointer that is no kernel, NULL included, is
 * cudaErrorInvalidDeviceFunction, and a NULL output succeeds (the kernel is resolved, nothing is
 * written). */
RT_API cudaError_t cudaGetFuncBySymbol(cudaFunction_t *functionPtr, const void *symbolPtr)
{
    RT_ENTER();
    /* A library kernel's handle names no symbol: cudaErrorInvalidDeviceFunction, as NVIDIA
     * answers on the H200 (the library's functions come from cuKernelGetFunction instead). */
    rt_kernel *known = rt_kernel_find(symbolPtr);
    if (!rt_kernel_usable(known) || known->library_kernel)
        RT_RETURN(cudaErrorInvalidDeviceFunction);
    rt_device *d;
    rt_kernel *k;
    CUfunction f;
    cudaError_t e = rt_function_resolve(symbolPtr, &d, &k, &f);
    if (e == cudaSuccess && functionPtr)
        *functionPtr = (cudaFunction_t)f;
    RT_RETURN(e);
}

/* Where each field of cudaFuncAttributes comes from: one cuFuncGetAttribute each, an int that
 * a size_t field takes as unsigned. */
static const struct {
    size_t offset;
    bool wide;                   /* size_t field */
    CUfunction_attribute attr;
} rt_func_fields[] = {
#define FIELD(name, attr) { offsetof(struct cudaFuncAttributes, name), \
                            sizeof(((struct cudaFuncAttributes *)0)->name) == sizeof(size_t), attr }
    FIELD(sharedSizeBytes, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES),
    FIELD(constSizeBytes, CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES),
    FIELD(localSizeBytes, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES),
    FIELD(maxThreadsPerBlock, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK),
    FIELD(numRegs, CU_FUNC_ATTRIBUTE_NUM_REGS),
    FIELD(ptxVersion, CU_FUNC_ATTRIBUTE_PTX_VERSION),
    FIELD(binaryVersion, CU_FUNC_ATTRIBUTE_BINARY_VERSION),
    FIELD(cacheModeCA, CU_FUNC_ATTRIBUTE_CACHE_MODE_CA),
    FIELD(maxDynamicSharedSizeBytes, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES),
    FIELD(preferredShmemCarveout, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT),
    FIELD(clusterDimMustBeSet, CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET),
    FIELD(requiredClusterWidth, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH),
    FIELD(requiredClusterHeight, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT),
    FIELD(requiredClusterDepth, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH),
    FIELD(clusterSchedulingPolicyPreference, CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE),
    FIELD(nonPortableClusterSizeAllowed, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED),
#undef FIELD
};

RT_API cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func)
{
    RT_ENTER();
    if (!attr)
        RT_RETURN(cudaErrorInvalidValue);
    /* Resolving loads the module if needed (a documented way to preload under lazy loading:
     * SEMANTICS.md 6.4) and applies the remembered settings, so maxDynamicSharedSizeBytes and
     * preferredShmemCarveout read back what the program set on this device. */
    rt_device *d;
    rt_kernel *k;
    CUfunction f;
    cudaError_t e = rt_function_resolve(func, &d, &k, &f);
    if (e != cudaSuccess)
        RT_RETURN(e);
    /* Filled whole before *attr is written: a failure leaves the caller's struct as it was. */
    struct cudaFuncAttributes out;
    memset(&out, 0, sizeof out);
    CUresult r = CUDA_SUCCESS;
    for (size_t i = 0; r == CUDA_SUCCESS && i < sizeof rt_func_fields / sizeof *rt_func_fields;
         i++) {
        int v = 0;
        r = rt_drv.cuFuncGetAttribute(&v, rt_func_fields[i].attr, f);
        if (rt_func_fields[i].wide) {
            size_t wide = (size_t)(unsigned)v;
            memcpy((char *)&out + rt_func_fields[i].offset, &wide, sizeof wide);
        } else {
            memcpy((char *)&out + rt_func_fields[i].offset, &v, sizeof v);
        }
    }
    /* 13.5's two members, from drivers that know the attributes; an older one knows neither,
     * and its answer is 0 for both: "unsupported, or the driver is too old to check" and the
     * default shared memory mode (the members are reserved ints of 13.0's layout). */
    static const struct { size_t offset; CUfunction_attribute attr; } newer[] = {
        { RT135_FUNC_ATTR_DEVICE_NODE_UPDATE_STATUS,
          CU_FUNC_ATTRIBUTE_DEVICE_NODE_UPDATE_SUPPORTED },
        { RT135_FUNC_ATTR_SHARED_MEMORY_MODE, CU_FUNC_ATTRIBUTE_SHARED_MEMORY_MODE },
    };
    for (size_t i = 0; r == CUDA_SUCCESS && i < sizeof newer / sizeof *newer; i++) {
        int v = 0;
        if (rt_drv.cuFuncGetAttribute(&v, newer[i].attr, f) != CUDA_SUCCESS)
            v = 0;
        memcpy((char *)&out + newer[i].offset, &v, sizeof v);
    }
    e = rt_error_from_cu(r);
    rt_device_note_error(d, e);
    if (e == cudaSuccess)
        *attr = out;
    RT_RETURN(e);
}

RT_API cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value)
{
    RT_ENTER();
    /* Only 8..16 can be set (the driver's attributes below 8 are read-only: registers, sizes,
     * versions, which cudaFuncGetAttributes reads); anything else is refused before the driver. */
    if (!rt_fn_attr_settable((int)attr))
        RT_RETURN(cudaErrorInvalidValue);
    RT_RETURN(rt_fn_remember(func, (int)attr, value, false));
}

RT_API cudaError_t cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache cacheConfig)
{
    RT_ENTER();
    /* PreferNone is a setting too: the driver then uses the context-wide preference
     * (cudaDeviceSetCacheConfig, cuCtxSetCacheConfig) instead of a per-function one. */
    if ((int)cacheConfig < cudaFuncCachePreferNone || (int)cacheConfig > cudaFuncCachePreferEqual)
        RT_RETURN(cudaErrorInvalidValue);
    RT_RETURN(rt_fn_remember(func, 0, (int)cacheConfig, true));
}

/* Deprecated: bank size is fixed on every device CUDA 13 supports, and NVIDIA documents that
 * there the call "has no effect".  The kernel and the value are still checked. */
RT_API cudaError_t cudaFuncSetSharedMemConfig(const void *func, enum cudaSharedMemConfig config)
{
    RT_ENTER();
    if ((int)config < cudaSharedMemBankSizeDefault || (int)config > cudaSharedMemBankSizeEightByte)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    rt_kernel *k;
    CUfunction f;
    cudaError_t e = rt_function_resolve(func, &d, &k, &f);
    if (e == cudaSuccess)
        RT_TRACE("cudaFuncSetSharedMemConfig(%s, %d): no effect on this device", k->name,
                 (int)config);
    RT_RETURN(e);
}

RT_API cudaError_t cudaFuncGetName(const char **name, const void *func)
{
    RT_ENTER();
    if (!name)
        RT_RETURN(cudaErrorInvalidValue);
    /* No context needed: the name is the registry's (a library kernel's: library.c's copy). */
    rt_kernel *k = rt_kernel_find(func);
    if (!k)
        RT_RETURN(rt_kernel_unknown(func));
    *name = k->name;            /* the mangled device name, as registered */
    RT_RETURN(cudaSuccess);
}

RT_API cudaError_t cudaFuncGetParamInfo(const void *func, size_t paramIndex, size_t *paramOffset,
                                        size_t *paramSize)
{
    RT_ENTER();
    rt_kernel *k = rt_kernel_find(func);
    if (!rt_kernel_usable(k))
        RT_RETURN(rt_kernel_unknown(func));
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    rt_kernel_dev *kd;
    e = rt_kernel_resolve(k, d, &kd);
    if (e != cudaSuccess)
        RT_RETURN(e);
    /* The layout module.c read for the launch (cuFuncGetParamInfo or the cubin's .nv.info). */
    const rt_param_layout *layout = kd->layout;
    if (!layout) {
        RT_TRACE("cudaFuncGetParamInfo: no parameter layout known for %s: not implemented",
                 k->name);
        RT_RETURN(cudaErrorNotSupported);
    }
    /* Both outputs are required: NVIDIA's runtime refuses NULL ones (H200). */
    if (paramIndex >= layout->count || !paramOffset || !paramSize)
        RT_RETURN(cudaErrorInvalidValue);
    *paramOffset = layout->param[paramIndex].offset;
    *paramSize = layout->param[paramIndex].size;
    RT_RETURN(cudaSuccess);
}

/*
 * CUDA 13.5.  The driver's cuFuncGetParamCount (cuKernelGetParamCount for a library's kernel)
 * is 13.2's; on an older driver the runtime answers from the parameter layout it read for the
 * launch (cuFuncGetParamInfo, the cubin's .nv.info or the PTX entry), which is the same count.
 * NVIDIA's 13.5 runtime answers cudaErrorCallRequiresNewerDriver there.
 */
RT_API cudaError_t cudaFuncGetParamCount(const void *func, size_t *paramCount)
{
    RT_ENTER();
    rt_kernel *k = rt_kernel_find(func);
    if (!rt_kernel_usable(k))
        RT_RETURN(rt_kernel_unknown(func));
    if (!paramCount)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    /* A library's kernel is asked through its CUkernel, which needs no function resolved. */
    if (k->library_kernel && rt_drv.cuKernelGetParamCount)
        RT_RETURN(rt_driver_result(d, rt_drv.cuKernelGetParamCount(k->library_kernel,
                                                                   paramCount)));
    rt_kernel_dev *kd;
    e = rt_kernel_resolve(k, d, &kd);
    if (e != cudaSuccess)
        RT_RETURN(e);
    if (rt_drv.cuFuncGetParamCount)
        RT_RETURN(rt_driver_result(d, rt_drv.cuFuncGetParamCount(
                                          atomic_load_explicit(&kd->function,
                                                               memory_order_acquire),
                                          paramCount)));
    const rt_param_layout *layout = kd->layout;
    if (!layout) {
        RT_TRACE("cudaFuncGetParamCount: no parameter layout known for %s: not implemented",
                 k->name);
        RT_RETURN(cudaErrorNotSupported);
    }
    *paramCount = layout->count;
    RT_TRACE("cudaFuncGetParamCount(%s): %u, from the parameter layout (no "
             "cuFuncGetParamCount)", k->name, layout->count);
    RT_RETURN(cudaSuccess);
}

/* ---- occupancy ------------------------------------------------------------------------------- */

RT_API cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks,
                                                                          const void *func,
                                                                          int blockSize,
                                                                          size_t dynamicSMemSize,
                                                                          unsigned int flags)
{
    RT_ENTER();
    _Static_assert(cudaOccupancyDisableCachingOverride == CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE,
                   "occupancy flags differ");
    /* The function before the other arguments: NVIDIA's runtime answers an unknown one (NULL
     * included) with cudaErrorInvalidDeviceFunction even when numBlocks is NULL too (H200), and
     * so in cudaOccupancyAvailableDynamicSMemPerBlock. */
    rt_device *d;
    rt_kernel *k;
    CUfunction f;
    cudaError_t e = rt_function_resolve(func, &d, &k, &f);
    if (e != cudaSuccess)
        RT_RETURN(e);
    if (!numBlocks || (flags & ~(unsigned)cudaOccupancyDisableCachingOverride))
        RT_RETURN(cudaErrorInvalidValue);
    /* The function has the program's settings applied (rt_function_resolve): the driver notes
     * that a kernel's attributes may change its occupancy. */
    CUresult r = rt_drv.cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
        numBlocks, f, blockSize, dynamicSMemSize, flags);
    e = rt_error_from_cu(r);
    rt_device_note_error(d, e);
    RT_RETURN(e);
}

RT_API cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func,
                                                                 int blockSize,
                                                                 size_t dynamicSMemSize)
{
    RT_ENTER();
    /* The C++ occupancy template of the toolkit's headers calls the WithFlags form directly
     * (PROTOCOL.md section 3.10); this entry point serves calls with a plain pointer. */
    RT_RETURN_VALUE(cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
        numBlocks, func, blockSize, dynamicSMemSize, cudaOccupancyDefault));
}

RT_API cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize,
                                                             const void *func, int numBlocks,
                                                             int blockSize)
{
    RT_ENTER();
    rt_device *d;
    rt_kernel *k;
    CUfunction f;
    cudaError_t e = rt_function_resolve(func, &d, &k, &f);
    if (e != cudaSuccess)
        RT_RETURN(e);
    if (!dynamicSmemSize)
        RT_RETURN(cudaErrorInvalidValue);
    /* The most dynamic shared memory a block may ask for so that numBlocks blocks of blockSize
     * threads still fit on one SM, in the current context. */
    CUresult r = rt_drv.cuOccupancyAvailableDynamicSMemPerBlock(dynamicSmemSize, f, numBlocks,
                                                                blockSize);
    e = rt_error_from_cu(r);
    rt_device_note_error(d, e);
    RT_RETURN(e);
}

/* The cluster queries take a whole launch configuration; its attributes have the driver's layout
 * (checked in launch_ex.c), the rest is copied field by field.  The driver's sharedMemBytes is
 * 32 bits, so a larger size is refused rather than truncated.  The context of the calculation is
 * the stream's (the current one for NULL), as the driver documents. */
static cudaError_t rt_cluster_query(int *out, const void *func, const cudaLaunchConfig_t *config,
                                    bool potential_size)
{
    if (!out || !config || config->dynamicSmemBytes > UINT32_MAX ||
        (config->numAttrs && !config->attrs))
        return cudaErrorInvalidValue;
    rt_device *d;
    rt_kernel *k;
    CUfunction f;
    cudaError_t e = rt_function_resolve(func, &d, &k, &f);
    if (e != cudaSuccess)
        return e;
    CUlaunchConfig c = {
        .gridDimX = config->gridDim.x, .gridDimY = config->gridDim.y,
        .gridDimZ = config->gridDim.z, .blockDimX = config->blockDim.x,
        .blockDimY = config->blockDim.y, .blockDimZ = config->blockDim.z,
        .sharedMemBytes = (unsigned)config->dynamicSmemBytes,
        .hStream = (CUstream)config->stream,
        .attrs = (CUlaunchAttribute *)config->attrs, .numAttrs = config->numAttrs,
    };
    /* MaxPotentialClusterSize ignores the cluster dimensions of the configuration;
     * MaxActiveClusters needs them there unless the kernel has a required cluster size, which
     * they must then match (the driver's documentation of both). */
    CUresult r = potential_size ? rt_drv.cuOccupancyMaxPotentialClusterSize(out, f, &c)
                                : rt_drv.cuOccupancyMaxActiveClusters(out, f, &c);
    e = rt_error_from_cu(r);
    rt_device_note_error(d, e);
    return e;
}

/* The one body of cudaOccupancyMaxPotentialClusterSize and cudaOccupancyMaxActiveClusters
 * (RT_FORWARD). */
static cudaError_t rt_cluster_query_api(int *out, const void *func,
                                        const cudaLaunchConfig_t *config, bool potential_size,
                                        rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_cluster_query(out, func, config, potential_size));
}

RT_API cudaError_t cudaOccupancyMaxPotentialClusterSize(int *clusterSize, const void *func,
                                                        const cudaLaunchConfig_t *launchConfig)
{
    RT_FORWARD(rt_cluster_query_api(clusterSize, func, launchConfig, true, RT_SELF));
}

RT_API cudaError_t cudaOccupancyMaxActiveClusters(int *numClusters, const void *func,
                                                  const cudaLaunchConfig_t *launchConfig)
{
    RT_FORWARD(rt_cluster_query_api(numClusters, func, launchConfig, false, RT_SELF));
}
