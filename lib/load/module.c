/*
 * module.c - first use of a module on a device: choose, decompress, load, resolve; and the
 * unload of a closed library's modules.
 *
 * Under lazy loading (the default, as in NVIDIA's runtime) nothing is loaded until a kernel or
 * variable of the module is first used on a device.  Then:
 *
 *   1. choose the image for the device's SM with the fatbin library: the best SASS, else PTX to
 *      JIT (MINICUDART_FORCE_PTX=1 skips SASS), else cudaErrorNoKernelImageForDevice (image.c);
 *   2. decompress it (zstd, LZ4, zlib) unless it is stored plain (image.c);
 *   3. load it into the device's primary context with cuModuleLoadDataEx (here);
 *   4. per kernel, at its first launch: cuModuleGetFunction (here), then its parameter layout
 *      (image.c).
 *
 * Why cuModuleLoadDataEx and not cuLibraryLoadData: the runtime chooses the image itself (so it
 * can say which and why, and report "no image" at the first launch with the right code), so the
 * library API's main gift, letting the driver choose and share one library across devices, buys
 * nothing here.  A module belongs to one context, which is exactly the lifetime the runtime
 * needs: cudaDeviceReset destroys it with the context, and the generation counter reloads it on
 * next use.  cuModuleLoadDataEx also takes the JIT options that bring the JIT's error log back.
 * Two kinds of module do need the library (module_link.c): those with __managed__ variables (one
 * instance shared by every device) and those given a unified table.  An -rdc image with nothing
 * for the device is JIT-linked from its objects first (module_link.c too).
 *
 * CUDA_MODULE_LOADING=EAGER loads every module (and resolves every kernel) when a device's
 * context is initialised; modules with __managed__ variables are always loaded then, because
 * host code may read those variables before any launch.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "load/module.h"

/* The external definition of these inline helpers of load/load.h (RT_INLINE, core/core.h). */
extern inline bool rt_kernel_usable(const rt_kernel *k);
extern inline cudaKernel_t rt_kernel_handle(const rt_kernel *k);
extern inline cudaError_t rt_kernel_resolve(rt_kernel *k, rt_device *d, rt_kernel_dev **out);
extern inline bool rt_fn_attr_settable(int attr);
extern inline CUfunction_attribute rt_fn_driver_attr(int attr);
extern inline cudaError_t rt_kernel_unknown(const void *func);

/* One lock for every load and resolve, and for the parameter layouts built then (image.c):
 * loads are rare (once per module, context and generation), and the launch path checks without
 * it (rt_kernel_resolve, load.h). */
static pthread_mutex_t rt_load_lock = PTHREAD_MUTEX_INITIALIZER;

/* Step 3: loads the image into the current (primary) context.  A JIT failure's log goes to the
 * trace.  *what names the image for the timeline ("SASS sm_90", "PTX compute_90"). */
static cudaError_t rt_module_load_image(rt_module *m, rt_device *d, rt_module_dev *md,
                                        char *what, size_t what_size)
{
    fatbin_entry entry = { .kind = FATBIN_KIND_ELF, .offset = RT_IMAGE_LINKED };
    const void *image = NULL;
    size_t size = 0;
    rt_load_options o;
    cudaError_t e = rt_load_options_init(&o, m);
    if (e != cudaSuccess)
        return e;
    e = rt_module_image(m, d, md, &entry, &image, &size);
    char arch[32];
    /* An -rdc image has SASS for its -arch list only and no PTX; for any other device the
     * objects it was linked from are linked again, by the driver's JIT (module_link.c). */
    if (e == cudaErrorNoKernelImageForDevice && rt_module_linkable(m)) {
        e = rt_module_link(m, d, md, &o, &image, &size);
        snprintf(arch, sizeof arch, "sm_%u (JIT-linked)", d->sm);
    } else if (e == cudaSuccess) {
        fatbin_arch_name(&entry, arch, sizeof arch);
    }
    if (e != cudaSuccess) {
        rt_load_options_free(&o);
        return e;
    }
    snprintf(what, what_size, "%s %s", entry.kind == FATBIN_KIND_PTX ? "PTX" : "SASS", arch);

    /* cuModuleLoadDataEx into the current context, or the module of the module's library
     * (module_link.c).  For PTX this is where the driver JIT-compiles, and where a PTX ISA newer
     * than the driver's fails (CUDA_ERROR_UNSUPPORTED_PTX_VERSION). */
    uint64_t t0 = rt_now_ns();
    uint64_t span = rt_span_begin();
    CUresult r = rt_module_load_driver(m, md, image, entry.offset, &o);
    RT_SPAN_END(span, entry.kind == FATBIN_KIND_PTX ? "JIT PTX" : "cuModuleLoadData",
                "\"image\":\"%s\",\"bytes\":%zu,\"result\":%d", what, size, (int)r);
    uint64_t load_ns = rt_now_ns() - t0;
    double ms = (double)load_ns / 1e6;
    if (r != CUDA_SUCCESS) {
        e = rt_error_from_cu(r);
        RT_TRACE("module %p: loading %s %s failed: %s (%d)%s%s", m->wrapper,
                 entry.kind == FATBIN_KIND_PTX ? "PTX" : "cubin", arch, rt_error_name(e),
                 (int)r, o.log[0] ? "; JIT log: " : "", o.log);
        rt_load_options_free(&o);
        md->module = NULL;
        return e;
    }
    rt_load_options_free(&o);
    if (rt_summary_on())
        rt_summary_load(entry.kind == FATBIN_KIND_PTX ? 1 : entry.offset == RT_IMAGE_LINKED ? 2 : 0,
                        load_ns);
    RT_TRACE("module %p: loaded %s %s (%zu bytes) in %.3f ms%s%s", m->wrapper,
             entry.kind == FATBIN_KIND_PTX ? "PTX" : "cubin", arch, size, ms,
             entry.kind == FATBIN_KIND_PTX ? " (JIT-compiled by the driver)" : "",
             md->from_library ? " into the module's library" : "");
    /* Kept for the parameter layouts of its kernels (image.c), read at each one's first launch. */
    if (entry.kind == FATBIN_KIND_ELF) {
        md->cubin = image;
        md->cubin_size = size;
    } else if (entry.kind == FATBIN_KIND_PTX) {
        md->ptx = image;            /* md->image, or the payload inside the registered fatbin */
        md->ptx_size = size;
    }
    return cudaSuccess;
}

static cudaError_t rt_module_load(rt_module *m, rt_device *d, rt_module_dev *md)
{
    uint64_t span = rt_span_begin();
    char what[48] = "none";
    cudaError_t e = rt_module_load_image(m, d, md, what, sizeof what);
    RT_SPAN_END(span, "module load", "\"module\":\"%p\",\"device\":%d,\"image\":\"%s\","
                "\"result\":\"%s\"", m->wrapper, d->ordinal, what, rt_error_name(e));
    return e;
}

/* Stores each managed variable's unified address in its host pointer slot: host code reads
 * and writes __managed__ variables through those slots.  The module was loaded through its
 * library, which has one instance of each (cuLibraryGetManaged), shared by the host and every
 * device, as with NVIDIA's runtime; the slot is the same whichever device binds it.  (Only a
 * device that chose another image than the library's has a module, and instance, of its own.) */
static cudaError_t rt_module_bind_managed(rt_module *m, rt_module_dev *md)
{
    for (rt_var *v = m->vars; v; v = v->next) {
        if (!v->managed)
            continue;
        CUdeviceptr ptr = 0;
        size_t bytes = 0;
        CUresult r = rt_module_managed_address(m, md, v, &ptr, &bytes);
        if (r != CUDA_SUCCESS) {
            RT_TRACE("managed variable %s: %s", v->name, rt_error_name(rt_error_from_cu(r)));
            return rt_error_from_cu(r);
        }
        *(void **)(uintptr_t)v->host_var = (void *)(uintptr_t)ptr;
        RT_TRACE("managed variable %s bound at %p (%zu bytes)", v->name, (void *)(uintptr_t)ptr,
                 bytes);
    }
    return cudaSuccess;
}

/* rt_module_ensure with rt_load_lock held. */
static cudaError_t rt_module_ensure_locked(rt_module *m, rt_device *d, rt_module_dev **out)
{
    uint64_t generation = atomic_load(&d->generation);
    /* A closed library's image is unmapped: never loaded again (a kernel looked up before the
     * close, outside a launch, gets here). */
    if (atomic_load(&m->unloaded))
        return cudaErrorInvalidResourceHandle;
    if (!m->dev) {
        m->dev = calloc((size_t)rt_slot_count, sizeof *m->dev);
        if (!m->dev)
            return cudaErrorMemoryAllocation;
    }
    rt_module_dev *md = &m->dev[rt_slot_index(d)];
    if (out)
        *out = md;
    /* Loaded in this context already, or failed there: the same answer, without the driver.  A
     * module that failed to load is tried again only after the context is reset. */
    if (md->generation == generation)
        return md->error;

    /* First use in this context (or the context was reset, which destroyed the old module). */
    rt_module_dev_release(md);
    *md = (rt_module_dev){ .generation = generation };
    md->error = rt_module_load(m, d, md);
    if (md->error == cudaSuccess && m->has_managed)
        md->error = rt_module_bind_managed(m, md);
    return md->error;
}

void rt_module_dev_release(rt_module_dev *md)
{
    free(md->image);
    md->image = NULL;
    ptx_entries_free(&md->ptx_index);
    md->ptx_indexed = false;
    cubin_kernels_free(&md->cubin_index);
    md->cubin_view = (cubin){ 0 };
    md->cubin_indexed = false;
    md->module = NULL;
    md->cubin = NULL;
    md->cubin_size = 0;
    md->ptx = NULL;
    md->ptx_size = 0;
}

cudaError_t rt_module_ensure(rt_module *m, rt_device *d, rt_module_dev **out)
{
    pthread_mutex_lock(&rt_load_lock);
    cudaError_t e = rt_module_ensure_locked(m, d, out);
    pthread_mutex_unlock(&rt_load_lock);
    return e;
}

cudaError_t rt_kernel_context_free(rt_kernel *k, rt_device *d, CUkernel *out)
{
    if (k->library_kernel) {
        *out = k->library_kernel;
        return cudaSuccess;
    }
    /* cuLibraryLoadData loads the image independently of any context, and its CUkernel is valid
     * in every context: the driver picks the function per context itself.  One library per
     * module, from the image the first device that asked had chosen. */
    rt_module *m = k->module;
    pthread_mutex_lock(&rt_load_lock);
    rt_module_dev *md;
    cudaError_t e = rt_module_ensure_locked(m, d, &md);
    /* The image the module was loaded from: the chosen cubin (linked, for -rdc), or the PTX. */
    const void *image = e == cudaSuccess ? (md->cubin ? (const void *)md->cubin
                                                      : (const void *)md->ptx)
                                         : NULL;
    if (e == cudaSuccess && !m->kernel_library) {
        if (!image) {
            RT_TRACE("kernel %s: no image to load as a library: not implemented", k->name);
            e = cudaErrorNotSupported;
        } else {
            e = rt_error_from_cu(rt_drv.cuLibraryLoadData(&m->kernel_library, image, NULL,
                                                          NULL, 0, NULL, NULL, 0));
            RT_TRACE("module %p: loaded as a library for kernel nodes of other contexts: %s",
                     m->wrapper, rt_error_name(e));
            if (e != cudaSuccess)
                m->kernel_library = NULL;
        }
    }
    CUlibrary library = m->kernel_library;
    pthread_mutex_unlock(&rt_load_lock);
    if (e != cudaSuccess)
        return e;
    /* Under lazy loading the driver judges the image against the device here, not at
     * cuLibraryLoadData (PROTOCOL.md section 7.3). */
    return rt_error_from_cu(rt_drv.cuLibraryGetKernel(out, library, k->name));
}

/* rt_kernel_resolve (load.h) checks without the lock; this loads and resolves under it. */
cudaError_t rt_kernel_resolve_slow(rt_kernel *k, rt_device *d, rt_kernel_dev **out)
{
    pthread_mutex_lock(&rt_load_lock);
    uint64_t generation = atomic_load(&d->generation);
    cudaError_t e = cudaSuccess;
    rt_kernel_dev *all = atomic_load(&k->dev);
    if (!all) {
        all = calloc((size_t)rt_slot_count, sizeof *all);
        if (!all) {
            e = cudaErrorMemoryAllocation;
            goto done;
        }
        atomic_store_explicit(&k->dev, all, memory_order_release);
    }
    rt_kernel_dev *kd = &all[rt_slot_index(d)];
    if (atomic_load(&kd->function) && atomic_load(&kd->generation) == generation) {
        *out = kd;
        goto done;
    }

    /* A library's kernel (library.c): the driver loads the library into the current context
     * itself and hands out the kernel's function there; no module of ours, no cubin to read the
     * layout or the parameter count from (the driver's cuFuncGetParamInfo still knows the
     * layout, asked until its first error: rt_layout_build). */
    rt_module_dev *md = NULL;
    if (!k->library_kernel) {
        e = rt_module_ensure_locked(k->module, d, &md);
        if (e != cudaSuccess)
            goto done;
    }
    uint64_t span = rt_span_begin();
    CUfunction f = NULL;
    CUresult r = k->library_kernel ? rt_drv.cuKernelGetFunction(&f, k->library_kernel)
                                   : rt_drv.cuModuleGetFunction(&f, md->module, k->name);
    if (r != CUDA_SUCCESS) {
        RT_SPAN_END(span, "kernel resolve", "\"kernel\":\"%s\",\"result\":%d", k->name, (int)r);
        /* NOT_FOUND: the loaded image has no entry of that name (registered, but not in the
         * image chosen for this device). */
        e = r == CUDA_ERROR_NOT_FOUND ? cudaErrorInvalidDeviceFunction : rt_error_from_cu(r);
        RT_TRACE("kernel %s: not in the loaded image: %s", k->name, rt_error_name(e));
        goto done;
    }
    /* The layout from before a reset is kept one more generation, not freed: a launch on another
     * thread may still be packing with it.  The function is cleared first, so that a launch
     * that checks meanwhile takes the slow path and waits for the lock. */
    atomic_store(&kd->function, NULL);
    free(kd->retired);
    kd->retired = kd->layout;
    kd->layout = rt_layout_build(k, f, md);
    RT_SPAN_END(span, "kernel resolve", "\"kernel\":\"%s\",\"params\":%d", k->name,
                kd->layout ? (int)kd->layout->count : -1);
    /* Layout and generation first, the function last with release: a launch that sees the
     * function (acquire, load.h) sees the rest. */
    atomic_store(&kd->generation, generation);
    atomic_store_explicit(&kd->function, f, memory_order_release);
    *out = kd;
done:
    pthread_mutex_unlock(&rt_load_lock);
    return e;
}

cudaError_t rt_var_address(rt_var *v, rt_device *d, CUdeviceptr *ptr, size_t *size)
{
    rt_module_dev *md;
    cudaError_t e = rt_module_ensure(v->module, d, &md);
    if (e != cudaSuccess)
        return e;
    /* The variable of this context's module: a __device__ variable has one instance per device
     * (per context), found by its name even as a whole-program cubin's local symbol. */
    CUresult r = rt_drv.cuModuleGetGlobal(ptr, size, md->module, v->name);
    if (r == CUDA_ERROR_NOT_FOUND)
        return cudaErrorInvalidSymbol;
    return rt_error_from_cu(r);
}

/* ---- dlclose: a closed library's modules ---------------------------------------------------
 *
 * register.c calls rt_module_unload when a library that registered fatbins unregisters them
 * while the program goes on (core/lifetime.c says what exit, dlclose and fork each take away). */

/* Unloads m's module from the context of slot `slot`, with that context made current for the
 * call and the thread's own context given back after. */
static void rt_module_unload_from(rt_module *m, size_t slot)
{
    rt_module_dev *md = &m->dev[slot];
    rt_device *d = &rt_devices[slot];
    /* A module of the module's library is the library's: it goes with cuLibraryUnload (the
     * driver refuses cuModuleUnload of one from cuLibraryGetModule: CUDA_ERROR_NOT_PERMITTED).
     * cuModuleUnload works on the current context, hence the switch. */
    if (md->module && !md->from_library && md->generation == atomic_load(&d->generation) &&
        d->context) {
        CUcontext current = NULL;
        rt_drv.cuCtxGetCurrent(&current);
        bool switched = current != d->context &&
                        rt_drv.cuCtxSetCurrent(d->context) == CUDA_SUCCESS;
        CUresult r = rt_drv.cuModuleUnload(md->module);
        if (switched)
            rt_drv.cuCtxSetCurrent(current);
        RT_TRACE("module %p unloaded from device %d (%d)", m->wrapper, d->ordinal, (int)r);
    }
    /* A kernel or variable of m reached through a pointer kept from before finds this error
     * instead of loading again from an image that is gone. */
    rt_module_dev_release(md);
    md->error = cudaErrorInvalidResourceHandle;
}

/* Never loaded anywhere: nothing to do.  In a forked child the parent's driver state is gone,
 * and no driver call may be made (core/lifetime.c). */
void rt_module_unload(rt_module *m)
{
    if (atomic_load(&rt_forked))
        return;
    /* m->unloaded is set: no launch begins on m from here, and those in flight (one may be
     * loading m right now) are waited for, before the driver frees what they use. */
    rt_module_wait_users(m);
    if (!m->dev)
        return;
    for (int slot = 0; slot < rt_slot_count; slot++)
        rt_module_unload_from(m, (size_t)slot);
    rt_module_drop_library(m);
    /* No launch may use a function of the unloaded module: one through a record kept from
     * before finds none and takes the slow path instead. */
    for (rt_kernel *k = m->kernels; k; k = k->next) {
        rt_kernel_dev *all = atomic_load(&k->dev);
        for (int slot = 0; all && slot < rt_slot_count; slot++)
            atomic_store(&all[slot].function, NULL);
    }
}
