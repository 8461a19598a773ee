/*
 * library.c - libraries the program loads itself: cudaLibraryLoadData, cudaLibraryLoadFromFile,
 * cudaLibraryUnload, their kernels (cudaLibraryGetKernel, cudaLibraryGetKernelCount,
 * cudaLibraryEnumerateKernels), globals, managed variables and unified functions, and
 * cudaKernelSetAttributeForDevice.
 *
 * A library is the driver's: cudaLibrary_t is the CUlibrary (both are `struct CUlib_st *`), and
 * every call forwards to the cuLibrary* entry point, which checks the handle and the names.
 *
 * A library's kernel is the driver's CUkernel too, as with NVIDIA's runtime, whose documentation
 * lets a program cast a cudaKernel_t to a CUkernel.  To launch one through cudaLaunchKernel,
 * cudaLaunchKernelExC, a graph node or cudaFuncGetAttributes like a registered kernel, each
 * CUkernel handed out gets an rt_kernel record (module NULL, library_kernel set), published in
 * register.c's pointer table under the CUkernel itself.  So:
 *   - a launch still finds its kernel with one lock-free probe of one table, the registered ones
 *     exactly as fast as before (a library kernel costs one more compare, on the path where the
 *     record has no module);
 *   - module.c resolves a library kernel per device and context generation like any other, with
 *     cuKernelGetFunction in the current context instead of loading a module, so cudaDeviceReset,
 *     cudaFuncSetAttribute's remembered settings and the launch on another device's stream all
 *     work unchanged;
 *   - cudaLibraryUnload withdraws the library's CUkernels from the table (later uses answer
 *     cudaErrorInvalidResourceHandle) and keeps their records, never freed: another thread may
 *     still hold one it found just before.  A program that loads and unloads libraries in a
 *     loop costs one small record and one table slot per kernel it asked for, per load.
 *   - a launch of a library kernel holds the use lock (rt_library_use, below) for reading from
 *     the look-up of its CUfunction to the driver's return, and the unload holds it for
 *     writing: a launch racing the unload runs on a live library or is refused, never hands the
 *     driver a CUfunction it freed.
 * A CUkernel the program got from the driver directly (cuLibraryGetKernel) is not in the table:
 * the runtime API takes the kernels the runtime API handed out.
 *
 * What the driver does with a library (its documentation of cuLibraryLoadData): the code is a
 * cubin, a fatbin or NUL-terminated PTX, and the library belongs to no context.  Under
 * CUDA_MODULE_LOADING=EAGER it is loaded into every context at once and into each later one as
 * it is created; under LAZY (the default) into a context when a function of it is first needed
 * there, so an image with no code for the device loads "successfully" and the error appears at
 * cuLibraryGetKernel or the first use (PROTOCOL.md section 7.3).  The runtime's own registered
 * fatbins are loaded per context instead (module.c says why).  Every call enters the thread's
 * context before it asks the driver, as any runtime call that does CUDA work: the lazy start,
 * and a sticky error answered without the driver.
 */
#define _GNU_SOURCE             /* PTHREAD_RWLOCK_WRITER_NONRECURSIVE_INITIALIZER_NP */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "load/load.h"

/* ---- option translation --------------------------------------------------------------------- */

/* cudaJitOption values equal the CUjit_option values they name; the runtime has a subset. */
_Static_assert((int)cudaJitMaxRegisters == (int)CU_JIT_MAX_REGISTERS &&
               (int)cudaJitOptimizationLevel == (int)CU_JIT_OPTIMIZATION_LEVEL &&
               (int)cudaJitFallbackStrategy == (int)CU_JIT_FALLBACK_STRATEGY &&
               (int)cudaJitCacheMode == (int)CU_JIT_CACHE_MODE &&
               (int)cudaJitPositionIndependentCode == (int)CU_JIT_POSITION_INDEPENDENT_CODE &&
               (int)cudaJitOverrideDirectiveValues == (int)CU_JIT_OVERRIDE_DIRECTIVE_VALUES,
               "JIT options differ");
_Static_assert((int)cudaPreferBinary == (int)CU_PREFER_BINARY &&
               (int)cudaJitCacheOptionCA == (int)CU_JIT_CACHE_OPTION_CA,
               "JIT option values differ");
/* The table option's value is a pointer to a CUlibraryHostUniversalFunctionAndDataTable, the
 * same four fields __cudaRegisterUnifiedTable gives a registered module (register.c). */
_Static_assert((int)cudaLibraryHostUniversalFunctionAndDataTable ==
                   (int)CU_LIBRARY_HOST_UNIVERSAL_FUNCTION_AND_DATA_TABLE &&
               (int)cudaLibraryBinaryIsPreserved == (int)CU_LIBRARY_BINARY_IS_PRESERVED,
               "library options differ");

/* Loads pass a handful of options; longer lists go to the heap. */
#define RT_OPTIONS_ON_STACK 16

/* Whether o is an option the driver knows.  The runtime names only 0-7, 10-14 and 30-33, but
 * NVIDIA's runtime passes the driver's others through too (CU_JIT_TARGET, 8, loads on the
 * H200); past the driver's last one it answers cudaErrorInvalidValue. */
static bool rt_jit_option_known(int o)
{
    return o >= 0 && o < CU_JIT_NUM_OPTIONS;
}

/* The options of a load, translated for the driver.  The value arrays go through as they are:
 * the driver writes its outputs (log sizes, wall time) into the caller's. */
typedef struct rt_library_options {
    CUjit_option jit_stack[RT_OPTIONS_ON_STACK];
    CUlibraryOption lib_stack[RT_OPTIONS_ON_STACK];
    CUjit_option *jit;
    CUlibraryOption *lib;
} rt_library_options;

static cudaError_t rt_library_options_make(rt_library_options *o, const enum cudaJitOption *jit,
                                        void **jit_values, unsigned num_jit,
                                        const enum cudaLibraryOption *lib, void **lib_values,
                                        unsigned num_lib)
{
    o->jit = o->jit_stack;
    o->lib = o->lib_stack;
    /* Library option values may be NULL: NVIDIA's runtime loads with
     * cudaLibraryBinaryIsPreserved and no values (H200); the driver reads what it needs. */
    if ((num_jit && (!jit || !jit_values)) || (num_lib && !lib))
        return cudaErrorInvalidValue;
    for (unsigned i = 0; i < num_jit; i++)
        if (!rt_jit_option_known((int)jit[i]))
            return cudaErrorInvalidValue;
    /* The driver's two library options (CU_LIBRARY_NUM_OPTIONS is 2 in 13.0); nothing else. */
    for (unsigned i = 0; i < num_lib; i++)
        if ((int)lib[i] != cudaLibraryHostUniversalFunctionAndDataTable &&
            (int)lib[i] != cudaLibraryBinaryIsPreserved)
            return cudaErrorInvalidValue;
    if (num_jit > RT_OPTIONS_ON_STACK && !(o->jit = malloc(num_jit * sizeof *o->jit)))
        return cudaErrorMemoryAllocation;
    if (num_lib > RT_OPTIONS_ON_STACK && !(o->lib = malloc(num_lib * sizeof *o->lib))) {
        if (o->jit != o->jit_stack)
            free(o->jit);
        return cudaErrorMemoryAllocation;
    }
    /* Equal values (the asserts above), but distinct C enum types: copied into arrays of the
     * driver's types rather than cast. */
    for (unsigned i = 0; i < num_jit; i++)
        o->jit[i] = (CUjit_option)jit[i];
    for (unsigned i = 0; i < num_lib; i++)
        o->lib[i] = (CUlibraryOption)lib[i];
    return cudaSuccess;
}

static void rt_library_options_free(rt_library_options *o)
{
    if (o->jit != o->jit_stack)
        free(o->jit);
    if (o->lib != o->lib_stack)
        free(o->lib);
}

/* ---- the libraries and their kernels -------------------------------------------------------- */

/* A library whose kernels the runtime handed out, with their records. */
typedef struct rt_library {
    CUlibrary library;
    rt_kernel *kernels;
    struct rt_library *next;
} rt_library;

static pthread_mutex_t rt_library_lock = PTHREAD_MUTEX_INITIALIZER;
static rt_library *rt_libraries;
static rt_kernel *rt_library_retired;    /* kernels of unloaded libraries: kept, see above */

/* The libraries' use lock: launches of library kernels read, cudaLibraryUnload writes (load.h,
 * rt_library_kernel_hold).  Writers first: with glibc's default, readers first, threads that
 * launch without a pause would keep an unload waiting for ever.  No reader takes it twice (a
 * launch calls no runtime function while it holds it), which that kind requires. */
#ifdef PTHREAD_RWLOCK_WRITER_NONRECURSIVE_INITIALIZER_NP
static pthread_rwlock_t rt_library_use = PTHREAD_RWLOCK_WRITER_NONRECURSIVE_INITIALIZER_NP;
#else
static pthread_rwlock_t rt_library_use = PTHREAD_RWLOCK_INITIALIZER;
#endif

bool rt_library_kernel_hold(const rt_kernel *k)
{
    pthread_rwlock_rdlock(&rt_library_use);
    /* Withdrawn under the write lock: a record its key no longer finds is one of an unloaded
     * library (the key may name a newer library's kernel by now: another record). */
    if (rt_kernel_find(k->library_kernel) == k)
        return true;
    pthread_rwlock_unlock(&rt_library_use);
    RT_TRACE("launch %s: its library was unloaded", k->name);
    return false;
}

void rt_library_kernel_release(void)
{
    pthread_rwlock_unlock(&rt_library_use);
}

/* Handles of the libraries unloaded through the runtime.  The driver crashes on a stale
 * CUlibrary, and so does NVIDIA's runtime (H200: unloading twice, counting the kernels of an
 * unloaded library); minicudart answers cudaErrorInvalidResourceHandle for one instead.  A
 * handle leaves the set when the driver hands the same address out for a new library.
 * (cuLibraryGetKernel answers a stale handle safely: it is passed on.)
 * Under rt_library_lock. */
static CUlibrary *rt_library_gone;
static size_t rt_library_gone_count, rt_library_gone_capacity;

static size_t rt_library_gone_index(CUlibrary library)
{
    for (size_t i = 0; i < rt_library_gone_count; i++)
        if (rt_library_gone[i] == library)
            return i;
    return SIZE_MAX;
}

/* cudaErrorInvalidResourceHandle for a library the runtime unloaded, else cudaSuccess. */
static cudaError_t rt_library_check(CUlibrary library)
{
    pthread_mutex_lock(&rt_library_lock);
    bool gone = rt_library_gone_index(library) != SIZE_MAX;
    pthread_mutex_unlock(&rt_library_lock);
    if (gone)
        RT_TRACE("library %p was unloaded", (void *)library);
    return gone ? cudaErrorInvalidResourceHandle : cudaSuccess;
}

/* Notes a library as gone (unloaded) or alive (just loaded).  Called with rt_library_lock held.
 * A new library may get the address of an unloaded one: it must leave the set then, or every
 * call on the new library would be refused. */
static void rt_library_note(CUlibrary library, bool gone)
{
    size_t i = rt_library_gone_index(library);
    if (!gone && i != SIZE_MAX) {
        rt_library_gone[i] = rt_library_gone[--rt_library_gone_count];
    } else if (gone && i == SIZE_MAX) {
        if (rt_library_gone_count == rt_library_gone_capacity) {
            size_t capacity = rt_library_gone_capacity ? 2 * rt_library_gone_capacity : 16;
            CUlibrary *bigger = realloc(rt_library_gone, capacity * sizeof *bigger);
            if (!bigger)
                return;                 /* out of memory: that handle is not remembered */
            rt_library_gone = bigger;
            rt_library_gone_capacity = capacity;
        }
        rt_library_gone[rt_library_gone_count++] = library;
    }
}

/* The record of `library`, created if asked.  Called with rt_library_lock held.  Only a library
 * whose kernels were handed out has one: a library loaded and never asked for a kernel has no
 * record, and nothing to withdraw at its unload. */
static rt_library *rt_library_of(CUlibrary library, bool create)
{
    for (rt_library *l = rt_libraries; l; l = l->next)
        if (l->library == library)
            return l;
    rt_library *l = create ? calloc(1, sizeof *l) : NULL;
    if (l) {
        l->library = library;
        l->next = rt_libraries;
        rt_libraries = l;
    }
    return l;
}

/* Gives the CUkernel `kernel` of `library` a record (once) so that rt_kernel_find finds it.
 * name: what the program asked for, or NULL (then the driver's name is used). */
static cudaError_t rt_library_publish(CUlibrary library, CUkernel kernel, const char *name)
{
    pthread_mutex_lock(&rt_library_lock);
    cudaError_t e = cudaSuccess;
    /* One record per CUkernel: asked for by name again, or enumerated, it is found here. */
    rt_kernel *known = rt_kernel_find(kernel);
    if (known && known->library_kernel == kernel)
        goto done;
    const char *driver_name = NULL;
    if (!name && rt_drv.cuKernelGetName(&driver_name, kernel) == CUDA_SUCCESS)
        name = driver_name;
    /* The name is copied: the driver's is valid only while the kernel handle is (its
     * documentation of cuKernelGetName), and the record outlives the library. */
    rt_library *l = rt_library_of(library, true);
    rt_kernel *k = l ? calloc(1, sizeof *k) : NULL;
    char *copy = k ? strdup(name ? name : "(library kernel)") : NULL;
    /* rt_kernel_publish fails only when memory ran out (register.c may have to grow its table). */
    if (!copy || !rt_kernel_publish(kernel, k)) {
        free(copy);
        free(k);
        e = cudaErrorMemoryAllocation;
        goto done;
    }
    k->magic = RT_KERNEL_MAGIC;
    k->name = copy;
    k->library_kernel = kernel;
    k->next = l->kernels;
    l->kernels = k;
    RT_TRACE("library %p: kernel %s is %p", (void *)library, copy, (void *)kernel);
done:
    pthread_mutex_unlock(&rt_library_lock);
    return e;
}

/* Unloads `library` and withdraws its kernels, under the lock so that no kernel of it is being
 * published meanwhile. */
static cudaError_t rt_library_unload(CUlibrary library)
{
    pthread_rwlock_wrlock(&rt_library_use);     /* no launch of a library kernel in flight */
    pthread_mutex_lock(&rt_library_lock);
    if (rt_library_gone_index(library) != SIZE_MAX) {
        pthread_mutex_unlock(&rt_library_lock);
        pthread_rwlock_unlock(&rt_library_use);
        RT_TRACE("library %p was unloaded already", (void *)library);
        return cudaErrorInvalidResourceHandle;
    }
    /* The driver unloads the library from every context it was loaded into; its CUkernels are
     * invalid from here on (the driver's documentation of cuLibraryEnumerateKernels), so they
     * leave the table before anyone can launch one of them again. */
    CUresult r = rt_drv.cuLibraryUnload(library);
    size_t kernels = 0;
    if (r == CUDA_SUCCESS) {
        rt_library_note(library, true);
        for (rt_library **p = &rt_libraries; *p; p = &(*p)->next) {
            rt_library *l = *p;
            if (l->library != library)
                continue;
            while (l->kernels) {
                rt_kernel *k = l->kernels;
                l->kernels = k->next;
                /* Its key now answers NULL: a launch with the stale CUkernel is refused with
                 * cudaErrorInvalidResourceHandle (rt_kernel_unknown). */
                rt_kernel_withdraw(k->library_kernel);
                k->next = rt_library_retired;
                rt_library_retired = k;
                kernels++;
            }
            *p = l->next;
            free(l);
            break;
        }
    }
    pthread_mutex_unlock(&rt_library_lock);
    pthread_rwlock_unlock(&rt_library_use);
    RT_TRACE("library %p unloaded (%d), %zu kernels withdrawn", (void *)library, (int)r, kernels);
    return rt_error_from_cu(r);
}

/* ---- loading and unloading ------------------------------------------------------------------- */

/* The common load: from memory (code) or from a file. */
static cudaError_t rt_library_load(cudaLibrary_t *library, const void *code, const char *file,
                                   enum cudaJitOption *jit, void **jit_values, unsigned num_jit,
                                   enum cudaLibraryOption *lib, void **lib_values,
                                   unsigned num_lib)
{
    if (!library || (!code && !file))
        return cudaErrorInvalidValue;
    /* The context first, as NVIDIA's runtime initialises first: with no driver, the options
     * (whose counts may be anything then) are not read. */
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        return e;
    rt_library_options o;
    e = rt_library_options_make(&o, jit, jit_values, num_jit, lib, lib_values, num_lib);
    if (e != cudaSuccess)
        return e;
    /* cuLibraryLoadFromFile reads the file itself (cubin, PTX or fatbin); with it
     * CU_LIBRARY_BINARY_IS_PRESERVED is invalid, which the driver answers. */
    uint64_t span = rt_span_begin();
    CUlibrary out = NULL;
    CUresult r = code ? rt_drv.cuLibraryLoadData(&out, code, o.jit, jit_values, num_jit, o.lib,
                                                 lib_values, num_lib)
                      : rt_drv.cuLibraryLoadFromFile(&out, file, o.jit, jit_values, num_jit,
                                                     o.lib, lib_values, num_lib);
    rt_library_options_free(&o);
    RT_SPAN_END(span, "library load", "\"from\":\"%s\",\"result\":%d", code ? "memory" : "file",
                (int)r);
    RT_TRACE("library loaded from %s: %p (%d)", code ? "memory" : file, (void *)out, (int)r);
    /* Translated, and recorded against the device when sticky (device.h). */
    e = rt_driver_result(d, r);
    if (e == cudaSuccess) {
        pthread_mutex_lock(&rt_library_lock);
        rt_library_note(out, false);
        pthread_mutex_unlock(&rt_library_lock);
        *library = (cudaLibrary_t)out;
    }
    return e;
}

RT_API cudaError_t cudaLibraryLoadData(cudaLibrary_t *library, const void *code,
                                       enum cudaJitOption *jitOptions, void **jitOptionsValues,
                                       unsigned int numJitOptions,
                                       enum cudaLibraryOption *libraryOptions,
                                       void **libraryOptionValues, unsigned int numLibraryOptions)
{
    RT_ENTER();
    if (!code)
        RT_RETURN(cudaErrorInvalidValue);
    RT_RETURN(rt_library_load(library, code, NULL, jitOptions, jitOptionsValues, numJitOptions,
                              libraryOptions, libraryOptionValues, numLibraryOptions));
}

RT_API cudaError_t cudaLibraryLoadFromFile(cudaLibrary_t *library, const char *fileName,
                                           enum cudaJitOption *jitOptions,
                                           void **jitOptionsValues, unsigned int numJitOptions,
                                           enum cudaLibraryOption *libraryOptions,
                                           void **libraryOptionValues,
                                           unsigned int numLibraryOptions)
{
    RT_ENTER();
    if (!fileName)
        RT_RETURN(cudaErrorInvalidValue);
    RT_RETURN(rt_library_load(library, NULL, fileName, jitOptions, jitOptionsValues,
                              numJitOptions, libraryOptions, libraryOptionValues,
                              numLibraryOptions));
}

RT_API cudaError_t cudaLibraryUnload(cudaLibrary_t library)
{
    RT_ENTER();
    /* NULL is documented as cudaErrorInvalidValue, but NVIDIA's runtime answers
     * cudaErrorInvalidResourceHandle (measured on the H200); any other handle is the driver's. */
    if (!library)
        RT_RETURN(cudaErrorInvalidResourceHandle);
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    RT_RETURN(rt_library_unload((CUlibrary)library));
}

/* ---- kernels --------------------------------------------------------------------------------- */

RT_API cudaError_t cudaLibraryGetKernel(cudaKernel_t *pKernel, cudaLibrary_t library,
                                        const char *name)
{
    RT_ENTER();
    if (!pKernel || !name)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    CUkernel kernel = NULL;
    /* No rt_library_check: for an unloaded library the driver answers CUDA_ERROR_NOT_FOUND
     * (cudaErrorSymbolNotFound, as NVIDIA's runtime on the H200) without crashing. */
    /* Under lazy loading "no code for this device" is answered here (PROTOCOL.md 7.3).  The
     * CUkernel is context-independent: it stays the kernel's handle on every device. */
    e = rt_driver_result(d, rt_drv.cuLibraryGetKernel(&kernel, (CUlibrary)library, name));
    /* Published before it is handed out, so that the launches find it (header). */
    if (e == cudaSuccess)
        e = rt_library_publish((CUlibrary)library, kernel, name);
    if (e == cudaSuccess)
        *pKernel = (cudaKernel_t)kernel;
    RT_RETURN(e);
}

RT_API cudaError_t cudaLibraryGetKernelCount(unsigned int *count, cudaLibrary_t lib)
{
    RT_ENTER();
    if (!count)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    /* The driver would crash on an unloaded library (rt_library_gone). */
    e = rt_library_check((CUlibrary)lib);
    if (e != cudaSuccess)
        RT_RETURN(e);
    RT_RETURN(rt_driver_result(d, rt_drv.cuLibraryGetKernelCount(count, (CUlibrary)lib)));
}

RT_API cudaError_t cudaLibraryEnumerateKernels(cudaKernel_t *kernels, unsigned int numKernels,
                                               cudaLibrary_t lib)
{
    RT_ENTER();
    if (!kernels)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    /* The driver fills at most numKernels, and fewer when the library has fewer: the count says
     * how many of them to publish. */
    unsigned count = 0;
    e = rt_library_check((CUlibrary)lib);
    if (e == cudaSuccess)
        e = rt_driver_result(d, rt_drv.cuLibraryGetKernelCount(&count, (CUlibrary)lib));
    if (e == cudaSuccess)
        e = rt_driver_result(d, rt_drv.cuLibraryEnumerateKernels((CUkernel *)kernels, numKernels,
                                                                 (CUlibrary)lib));
    unsigned filled = count < numKernels ? count : numKernels;
    for (unsigned i = 0; e == cudaSuccess && i < filled; i++)
        e = rt_library_publish((CUlibrary)lib, (CUkernel)kernels[i], NULL);
    RT_RETURN(e);
}

RT_API cudaError_t cudaKernelSetAttributeForDevice(cudaKernel_t kernel,
                                                   enum cudaFuncAttribute attr, int value,
                                                   int device)
{
    RT_ENTER();
    if (!rt_fn_attr_settable((int)attr))
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *current, *d;
    cudaError_t e = rt_context_enter(&current);
    if (e == cudaSuccess)
        e = rt_device_lookup(device, &d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    rt_kernel *k = rt_kernel_find(kernel);
    if (!rt_kernel_usable(k)) {
        /* NULL too is cudaErrorInvalidResourceHandle here (NVIDIA on the H200), unlike the
         * launches' cudaErrorInvalidDeviceFunction. */
        RT_TRACE("cudaKernelSetAttributeForDevice: %p is not a kernel", (void *)kernel);
        RT_RETURN(cudaErrorInvalidResourceHandle);
    }
    /* A library's kernel: the driver's device-wide setting.  A registered one: function.c.
     * cuKernelSetAttribute sets the attribute of the CUkernel for device d, whatever context is
     * current, so the runtime records nothing for it.  The driver documents that a
     * cuFuncSetAttribute on one of the kernel's functions overrides it, whichever came first.
     * (The attribute numbers are the driver's but for 13.5's shared memory mode: load.h.) */
    if (k->library_kernel) {
        CUresult r = rt_drv.cuKernelSetAttribute(rt_fn_driver_attr((int)attr), value,
                                                 k->library_kernel, d->cu);
        RT_TRACE("kernel %s: attribute %d = %d for device %d (%d)", k->name, (int)attr, value,
                 device, (int)r);
        RT_RETURN(rt_error_from_cu(r));
    }
    RT_RETURN(rt_function_set_for_device(k, d, (int)attr, value));
}

/* ---- globals, managed variables, unified functions ------------------------------------------- */

/* cudaLibraryGetGlobal and cudaLibraryGetManaged: either output may be NULL, not both.  A
 * global is the current context's instance; managed memory is one instance shared across
 * devices (the driver's documentation of both). */
static cudaError_t rt_library_variable(void **dptr, size_t *bytes, cudaLibrary_t library,
                                       const char *name, bool managed)
{
    if ((!dptr && !bytes) || !name)
        return cudaErrorInvalidValue;
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        return e;
    e = rt_library_check((CUlibrary)library);
    if (e != cudaSuccess)
        return e;
    CUdeviceptr ptr = 0;
    size_t size = 0;
    CUresult r = managed ? rt_drv.cuLibraryGetManaged(&ptr, &size, (CUlibrary)library, name)
                         : rt_drv.cuLibraryGetGlobal(&ptr, &size, (CUlibrary)library, name);
    e = rt_driver_result(d, r);
    if (e != cudaSuccess)
        return e;
    /* The driver's CUdeviceptr is the pointer itself, valid in every runtime instance of the
     * context (SEMANTICS.md 7.6). */
    if (dptr)
        *dptr = (void *)(uintptr_t)ptr;
    if (bytes)
        *bytes = size;
    return cudaSuccess;
}

/* The one body of cudaLibraryGetGlobal and cudaLibraryGetManaged (RT_FORWARD). */
static cudaError_t rt_library_variable_api(void **dptr, size_t *bytes, cudaLibrary_t library,
                                           const char *name, bool managed, rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_library_variable(dptr, bytes, library, name, managed));
}

RT_API cudaError_t cudaLibraryGetGlobal(void **dptr, size_t *bytes, cudaLibrary_t library,
                                        const char *name)
{
    RT_FORWARD(rt_library_variable_api(dptr, bytes, library, name, false, RT_SELF));
}

RT_API cudaError_t cudaLibraryGetManaged(void **dptr, size_t *bytes, cudaLibrary_t library,
                                         const char *name)
{
    RT_FORWARD(rt_library_variable_api(dptr, bytes, library, name, true, RT_SELF));
}

RT_API cudaError_t cudaLibraryGetUnifiedFunction(void **fptr, cudaLibrary_t library,
                                                 const char *symbol)
{
    RT_ENTER();
    if (!fptr || !symbol)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    e = rt_library_check((CUlibrary)library);
    if (e != cudaSuccess)
        RT_RETURN(e);
    /* The function's unified pointer; CUDA_ERROR_NOT_FOUND (cudaErrorSymbolNotFound) for a name
     * the library lacks, and possibly too where no device has unified function pointers
     * (CU_DEVICE_ATTRIBUTE_UNIFIED_FUNCTION_POINTERS), the driver documents. */
    RT_RETURN(rt_driver_result(d, rt_drv.cuLibraryGetUnifiedFunction(fptr, (CUlibrary)library,
                                                                     symbol)));
}
