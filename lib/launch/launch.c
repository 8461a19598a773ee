/*
 * launch.c - what `k<<<grid, block, shared, stream>>>(a, b, c)` does, step by step.
 *
 * nvcc turns the triple-chevron call into host code that calls this file:
 *
 *   1. the call site runs __cudaPushCallConfiguration(grid, block, shared, stream); a non-zero
 *      answer skips the call (and no pop follows);
 *   2. the arguments are evaluated (they may launch kernels themselves: the configuration is
 *      a per-thread stack, not a slot), then the kernel's host stub is called;
 *   3. the stub builds args[i] = &parameter_i;
 *   4. on its first execution only, the stub calls __cudaGetKernel(&handle, stub) and keeps the
 *      handle for the life of the process, for every thread and device;
 *   5. __cudaPopCallConfiguration hands the configuration back;
 *   6. __cudaLaunchKernel(handle, grid, block, args, shared, stream) (or _ptsz when built with
 *      --default-stream per-thread), whose return value the stub throws away: every failure
 *      must therefore land in the thread's last error;
 *   7. the runtime makes sure the thread has a context, that the kernel's module is loaded on
 *      this device and the kernel resolved (module.c);
 *   8. it packs the arguments into one buffer at the offsets the driver reported (or passes
 *      nvcc's argument array through when no layout is known);
 *   9. cuLaunchKernel: the driver writes the work into the stream's queue and rings the GPU.
 *      (cudaLaunchCooperativeKernel and cudaLaunchKernelExC, in launch_ex.c, share steps 7-8
 *      and end in cuLaunchCooperativeKernel / cuLaunchKernelEx instead.)
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "launch/launch.h"
#include "minicudart.h"

/* The external definition of these inline helpers of launch/launch.h (RT_INLINE, core/core.h). */
extern inline cudaError_t rt_launch_exit(const void *func, cudaError_t e);

/* ---- steps 1 and 5: the per-thread configuration stack ------------------------------------ */

#define RT_CONFIG_DEPTH 64

struct rt_config {
    dim3 grid, block;
    size_t shared;
    cudaStream_t stream;
};

static _Thread_local struct rt_config rt_config_stack[RT_CONFIG_DEPTH];
static _Thread_local unsigned rt_config_depth;

RT_API unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                            struct CUstream_st *stream)
{
    RT_ENTER_HOT();
    if (rt_config_depth == RT_CONFIG_DEPTH) {
        /* Non-zero makes the call site skip the launch, and then no pop follows. */
        rt_error_record(cudaErrorInvalidConfiguration);
        RT_RETURN_VALUE(1);
    }
    rt_config_stack[rt_config_depth++] =
        (struct rt_config){ gridDim, blockDim, sharedMem, (cudaStream_t)stream };
    RT_RETURN_VALUE(0);
}

RT_API cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem,
                                              void *stream)
{
    RT_ENTER_HOT();
    if (rt_config_depth == 0)
        RT_RETURN(cudaErrorMissingConfiguration);    /* NVIDIA's answer (H200) */
    const struct rt_config *c = &rt_config_stack[--rt_config_depth];
    if (!gridDim || !blockDim || !sharedMem || !stream)
        RT_RETURN(cudaErrorInvalidValue);      /* popped all the same: pushes and pops pair up */
    *gridDim = c->grid;
    *blockDim = c->block;
    *sharedMem = c->shared;
    *(cudaStream_t *)stream = c->stream;
    RT_RETURN(cudaSuccess);
}

/* ---- step 4: the process-wide kernel handle ------------------------------------------------ */

RT_API cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *hostFun)
{
    RT_ENTER_HOT();
    /* The handle is our kernel record: it needs no device, no context, not even a driver, so
     * this cannot fail for a registered kernel, and the stub's never-retried call is safe. */
    if (!kernel)
        RT_RETURN_UNINIT(cudaErrorInvalidValue);      /* before the driver, as NVIDIA's */
    rt_kernel *k = rt_kernel_find(hostFun);
    *kernel = k ? rt_kernel_hand_out(k) : NULL;
    if (!k) {
        /* NVIDIA's answer for NULL and for any other pointer alike (H200). */
        RT_TRACE("__cudaGetKernel: host function %p is not registered", hostFun);
        RT_RETURN(cudaErrorInvalidDeviceFunction);
    }
    RT_RETURN(cudaSuccess);
}

/* ---- steps 7-9 ------------------------------------------------------------------------------ */

enum rt_param_mode { RT_PARAMS_UNREAD, RT_PARAMS_BUFFER, RT_PARAMS_ARRAY };

static _Atomic int rt_param_mode = RT_PARAMS_UNREAD;

/* MINICUDART_LAUNCH_PARAMS=array|buffer.  Buffer is the default.  On an H200 (driver 580) the
 * two forms were within 1% of each other, compared batch by batch in one process
 * (tests/gpu/bench_launch.cu): the buffer ahead by 5-11 ns of about 3 us in one run, the array
 * by about 50 ns in another; see README.md, "Measurements".  The array stays for kernels whose
 * layout is unknown and for drivers that refuse `extra`. */
static enum rt_param_mode rt_params(void)
{
    int mode = atomic_load_explicit(&rt_param_mode, memory_order_relaxed);
    if (mode == RT_PARAMS_UNREAD) {
        const char *v = getenv("MINICUDART_LAUNCH_PARAMS");
        mode = v && strcmp(v, "array") == 0 ? RT_PARAMS_ARRAY : RT_PARAMS_BUFFER;
        atomic_store_explicit(&rt_param_mode, mode, memory_order_relaxed);
    }
    return (enum rt_param_mode)mode;
}

RT_API int minicudart_set_launch_params(const char *mode)
{
    if (!mode || (strcmp(mode, "array") != 0 && strcmp(mode, "buffer") != 0))
        return -1;
    atomic_store(&rt_param_mode, strcmp(mode, "array") == 0 ? RT_PARAMS_ARRAY : RT_PARAMS_BUFFER);
    return 0;
}

/* The packed parameter buffer: 32764 bytes is the parameter space limit since CUDA 12.1.  One per
 * thread, allocated at the thread's first packed launch and freed when the thread ends.  As
 * thread-local storage it was 32 KB that every thread of the process paid at its creation,
 * launching or not (a framework starts dozens of threads, few of which launch). */
enum { RT_PARAM_BUFFER = 32768 };
static _Thread_local unsigned char *rt_param_buffer;
static pthread_key_t rt_param_key;
static pthread_once_t rt_param_once = PTHREAD_ONCE_INIT;
static bool rt_param_key_ok;

/* At the thread's end.  The pointer is cleared too: a destructor that runs after this one (a
 * C++ thread_local's, another key's) and launches gets a new buffer, which the key frees in its
 * next round, instead of the freed one. */
static void rt_param_buffer_free(void *p)
{
    if (rt_param_buffer == p)
        rt_param_buffer = NULL;
    free(p);
}

static void rt_param_key_create(void)
{
    rt_param_key_ok = pthread_key_create(&rt_param_key, rt_param_buffer_free) == 0;
}

/* When the library is unloaded (dlclose of libcudart.so.13) or the process ends: no thread that
 * ends later may call rt_param_buffer_free, whose code may be gone by then.  Its buffer is left
 * to the process. */
__attribute__((destructor)) static void rt_param_key_delete(void)
{
    if (rt_param_key_ok) {
        rt_param_key_ok = false;
        pthread_key_delete(rt_param_key);
    }
}

/* This thread's buffer, allocated now; NULL when memory ran out (the launch then passes nvcc's
 * argument array instead, which needs no buffer). */
static __attribute__((noinline)) unsigned char *rt_param_buffer_new(void)
{
    pthread_once(&rt_param_once, rt_param_key_create);
    unsigned char *b = aligned_alloc(16, RT_PARAM_BUFFER);
    if (!b)
        return NULL;
    if (rt_param_key_ok)
        pthread_setspecific(rt_param_key, b);      /* freed by the key's destructor at exit */
    rt_param_buffer = b;
    return b;
}

static inline unsigned char *rt_param_buffer_get(void)
{
    unsigned char *b = rt_param_buffer;
    return b ? b : rt_param_buffer_new();
}

/* Copies one argument into the buffer.  Most parameters are 4 or 8 bytes: those become one
 * load and one store instead of a call to memcpy. */
static inline void rt_pack(unsigned char *dst, const void *src, uint32_t size)
{
    switch (size) {
    case 4:
        memcpy(dst, src, 4);
        break;
    case 8:
        memcpy(dst, src, 8);
        break;
    default:
        memcpy(dst, src, size);
        break;
    }
}

/* The launch in the text trace, and as the "launch" span of the timeline (from t0). */
static void rt_trace_launch(uint64_t t0, const rt_kernel *k, const rt_kernel_dev *kd, dim3 grid,
                            dim3 block, size_t shared, CUstream stream, bool packed, CUresult r)
{
    char text[400] = "";
    size_t used = 0;
    const rt_param_layout *layout = kd->layout;
    for (uint32_t i = 0; layout && i < layout->count && used < sizeof text - 40; i++)
        used += (size_t)snprintf(text + used, sizeof text - used, "%s%u@%u+%u", i ? " " : "", i,
                                 layout->param[i].offset, layout->param[i].size);
    const char *more = used >= sizeof text - 40 ? " ..." : "";
    const char *mode = packed ? "packed buffer" : "argument array";
    const char *result = rt_error_name(rt_error_from_cu(r));
    if (t0) {
        rt_span_emit(t0, "launch", "\"kernel\":\"%s\",\"grid\":[%u,%u,%u],\"block\":[%u,%u,%u],"
                     "\"shared\":%zu,\"stream\":\"%p\",\"params\":\"%s%s\",\"mode\":\"%s\","
                     "\"result\":\"%s\"", k->name, grid.x, grid.y, grid.z, block.x, block.y,
                     block.z, shared, (void *)stream, text, more, mode, result);
        return;      /* the span says it all; no instant event besides */
    }
    RT_TRACE("launch %s grid (%u,%u,%u) block (%u,%u,%u) shared %zu stream %p params [%s%s] "
             "%s -> %s", k->name, grid.x, grid.y, grid.z, block.x, block.y, block.z, shared,
             (void *)stream, text, more, mode, result);
}

/* Step 9: hands the launch to the driver entry point the options ask for.  The cooperative
 * entry point takes only an argument array; the others take the packed buffer too. */
static CUresult rt_launch_driver(CUfunction f, dim3 grid, dim3 block, size_t shared, CUstream s,
                                 void **params, void **extra, const rt_launch_options *opt)
{
    if (!opt || (!opt->extended && !opt->cooperative))
        return rt_drv.cuLaunchKernel(f, grid.x, grid.y, grid.z, block.x, block.y, block.z,
                                     (unsigned)shared, s, params, extra);
    if (!opt->extended)
        return rt_drv.cuLaunchCooperativeKernel(f, grid.x, grid.y, grid.z, block.x, block.y,
                                                block.z, (unsigned)shared, s, params);
    CUlaunchConfig config = {
        .gridDimX = grid.x, .gridDimY = grid.y, .gridDimZ = grid.z,
        .blockDimX = block.x, .blockDimY = block.y, .blockDimZ = block.z,
        .sharedMemBytes = (unsigned)shared, .hStream = s,
        .attrs = (CUlaunchAttribute *)opt->attrs, .numAttrs = opt->num_attrs,
    };
    return rt_drv.cuLaunchKernelEx(&config, f, params, extra);
}

/* MINICUDART_SUMMARY's count of a launch: the total (core/summary.c) and the kernel's own, with
 * its last shape as a hint (two launches racing may mix theirs, which a summary tolerates).
 * Kept out of line, as it was in summary.c: inlined, it grew rt_launch_with's frame for a path
 * taken only with the summary on. */
static __attribute__((noinline)) void rt_summary_launch(rt_kernel *k, dim3 grid, dim3 block)
{
    rt_summary_launch_count();
    atomic_fetch_add_explicit(&k->launches, 1, memory_order_relaxed);
    k->last_grid = grid;
    k->last_block = block;
}

/* A stream of another device than the current one: the driver refuses the current device's
 * CUfunction on it (CUDA_ERROR_INVALID_HANDLE), NVIDIA's runtime launches on the stream's device
 * (measured on two H200s, tests/gpu/conf_multigpu.cu).  So does this, on the error path only:
 * the stream's device's primary context is made current for the load and the launch, and the
 * thread's own context is given back after. */
static CUresult rt_launch_on_stream_device(rt_kernel *k, rt_device *current, CUstream s,
                                           dim3 grid, dim3 block, size_t shared, void **params,
                                           void **extra, const rt_launch_options *opt)
{
    CUdevice cu;
    if (!s || s == CU_STREAM_LEGACY || s == CU_STREAM_PER_THREAD ||
        rt_drv.cuStreamGetDevice(s, &cu) != CUDA_SUCCESS)
        return CUDA_ERROR_INVALID_HANDLE;
    int index = rt_device_of_cu(cu);
    rt_device *d = index >= 0 ? &rt_devices[index] : NULL;
    if (!d || d == current || rt_device_activate(d) != cudaSuccess)
        return CUDA_ERROR_INVALID_HANDLE;
    CUcontext mine = NULL;
    rt_drv.cuCtxGetCurrent(&mine);
    if (rt_drv.cuCtxSetCurrent(d->context) != CUDA_SUCCESS)
        return CUDA_ERROR_INVALID_HANDLE;
    rt_kernel_dev *kd;
    CUresult r = CUDA_ERROR_INVALID_HANDLE;
    if (rt_kernel_resolve(k, d, &kd) == cudaSuccess && rt_function_apply(k, d, kd) == cudaSuccess)
        r = rt_launch_driver(atomic_load_explicit(&kd->function, memory_order_acquire), grid,
                             block, shared, s, params, extra, opt);
    rt_drv.cuCtxSetCurrent(mine);
    RT_TRACE_LAZY("launch %s: on device %d, the device of stream %p (result %d)", k->name,
                  d->ordinal, (void *)s, (int)r);
    return r;
}

/* A shape no device runs: a zero dimension, a block over 1024 threads or over (1024, 1024, 64), a
 * grid over 65535 in y or z (the limits of every device CUDA 12 and 13 support). */
static inline bool rt_launch_shape_bad(dim3 grid, dim3 block)
{
    return !grid.x || !grid.y || !grid.z || !block.x || !block.y || !block.z ||
           block.x > 1024 || block.y > 1024 || block.z > 64 ||
           (unsigned long long)block.x * block.y * block.z > 1024 || grid.y > 65535 ||
           grid.z > 65535 || grid.x > 0x7fffffffu;
}

/* Steps 7 to 9 for a kernel that can be launched: a registered one, or a library's kernel whose
 * library the caller holds (rt_launch_library_kernel). */
static cudaError_t rt_launch_resolved(rt_kernel *k, dim3 grid, dim3 block, void **args,
                                      size_t shared, cudaStream_t stream, bool per_thread,
                                      const rt_launch_options *opt)
{
    /* Step 7. */
    uint64_t span = rt_span_begin();
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        return e;
    rt_kernel_dev *kd;
    e = rt_kernel_resolve(k, d, &kd);
    if (e == cudaSuccess)
        e = rt_function_apply(k, d, kd);     /* cudaFuncSetAttribute's settings, per device */
    if (e != cudaSuccess)
        return e;
    CUfunction f = atomic_load_explicit(&kd->function, memory_order_relaxed);

    CUstream s = rt_stream(stream, per_thread);

    /* Step 8.  A shared limit above what the driver's unsigned can hold is refused here rather
     * than truncated into a valid-looking size. */
    if (shared > UINT32_MAX)
        return cudaErrorInvalidValue;
    const rt_param_layout *layout = kd->layout;
    bool cooperative_only = opt && opt->cooperative && !opt->extended;
    unsigned char *buffer = NULL;
    bool packed = layout && layout->count > 0 && rt_params() == RT_PARAMS_BUFFER &&
                  !cooperative_only && (buffer = rt_param_buffer_get()) != NULL;
    if (layout && layout->count > 0 && !args)
        return cudaErrorInvalidValue;
    CUresult r;
    /* A NULL argument pointer would be read, by the packing here or by the driver: refused. */
    if (packed) {
        for (uint32_t i = 0; i < layout->count; i++) {
            if (!args[i])
                return cudaErrorInvalidValue;
            rt_pack(buffer + layout->param[i].offset, args[i], layout->param[i].size);
        }
        size_t size = layout->size;
        void *extra[] = { CU_LAUNCH_PARAM_BUFFER_POINTER, buffer,
                          CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_END };
        r = rt_launch_driver(f, grid, block, shared, s, NULL, extra, opt);
        if (r == CUDA_ERROR_INVALID_HANDLE)
            r = rt_launch_on_stream_device(k, d, s, grid, block, shared, NULL, extra, opt);
    } else {
        for (uint32_t i = 0; layout && i < layout->count; i++)
            if (!args[i])
                return cudaErrorInvalidValue;
        /* Step 9. */
        r = rt_launch_driver(f, grid, block, shared, s, args, NULL, opt);
        if (r == CUDA_ERROR_INVALID_HANDLE)
            r = rt_launch_on_stream_device(k, d, s, grid, block, shared, args, NULL, opt);
    }
    if (rt_tracing())
        rt_trace_launch(span, k, kd, grid, block, shared, s, packed, r);
    if (r == CUDA_SUCCESS) {
        if (rt_summary_on())
            rt_summary_launch(k, grid, block);
        return cudaSuccess;
    }
    e = rt_error_from_cu(r);
    /* The shape's error is an ABI's choice (RT_LAUNCH_BAD_SHAPE, core/core.h): where it is not the
     * driver's own, a refused launch of a shape no device runs is told apart here, on the error
     * path only. */
    if (RT_LAUNCH_BAD_SHAPE != cudaErrorInvalidValue && e == cudaErrorInvalidValue &&
        rt_launch_shape_bad(grid, block))
        e = RT_LAUNCH_BAD_SHAPE;
    rt_device_note_error(d, e);
    return e;
}

/* A kernel of a library the program loaded (load/library.c), launched under the libraries' use
 * lock: cudaLibraryUnload frees the kernel's CUfunction, and waits for this launch to return
 * from the driver before it does (load.h, rt_library_kernel_hold).  Out of line, so that the
 * registered kernels' path carries none of it. */
static __attribute__((noinline)) cudaError_t
rt_launch_library_kernel(rt_kernel *k, dim3 grid, dim3 block, void **args, size_t shared,
                         cudaStream_t stream, bool per_thread, const rt_launch_options *opt)
{
    if (!k || !k->library_kernel) {
        RT_TRACE("launch: %p is not a registered kernel", (void *)k);
        return cudaErrorInvalidResourceHandle;
    }
    if (!rt_library_kernel_hold(k))
        return cudaErrorInvalidResourceHandle;
    cudaError_t e = rt_launch_resolved(k, grid, block, args, shared, stream, per_thread, opt);
    rt_library_kernel_release();
    return e;
}

cudaError_t rt_launch_with(rt_kernel *k, dim3 grid, dim3 block, void **args, size_t shared,
                           cudaStream_t stream, bool per_thread, const rt_launch_options *opt)
{
    /* A registered kernel has its module; a library's kernel (library.c) has none, and is asked
     * for only then, so the common case pays nothing for it. */
    rt_module *m = k ? __atomic_load_n(&k->module, __ATOMIC_ACQUIRE) : NULL;
    if (!m)
        return rt_launch_library_kernel(k, grid, block, args, shared, stream, per_thread, opt);
    /* The module stays loaded until the driver has the launch: a dlclose of the kernel's
     * library on another thread waits for it (load/module_use.c). */
    rt_module_held held;
    cudaError_t e = rt_module_hold(m, &held);
    if (e != cudaSuccess)
        return e;
    e = rt_launch_resolved(k, grid, block, args, shared, stream, per_thread, opt);
    rt_module_release(&held);
    return e;
}

cudaError_t rt_launch(rt_kernel *k, dim3 grid, dim3 block, void **args, size_t shared,
                      cudaStream_t stream, bool per_thread)
{
    return rt_launch_with(k, grid, block, args, shared, stream, per_thread, NULL);
}

/* ---- step 6 and the public launches --------------------------------------------------------- */

RT_API cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
                                      void **args, size_t sharedMem, cudaStream_t stream)
{
    RT_ENTER_HOT();
    RT_RETURN_LAUNCH(kernel, rt_launch(rt_kernel_find(kernel), gridDim, blockDim,
                                       args, sharedMem, stream, false));
}

RT_API cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
                                           void **args, size_t sharedMem, cudaStream_t stream)
{
    RT_ENTER_HOT();
    RT_RETURN_LAUNCH(kernel, rt_launch(rt_kernel_find(kernel), gridDim, blockDim,
                                       args, sharedMem, stream, true));
}

/* func: a host stub pointer (what <<<>>> and the C++ templates pass) or a cudaKernel_t. */
RT_API cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                    size_t sharedMem, cudaStream_t stream)
{
    RT_ENTER_HOT();
    RT_RETURN_LAUNCH(func, rt_launch(rt_kernel_find(func), gridDim, blockDim, args,
                                     sharedMem, stream, false));
}

RT_API cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim,
                                         void **args, size_t sharedMem, cudaStream_t stream)
{
    RT_ENTER_HOT();
    RT_RETURN_LAUNCH(func, rt_launch(rt_kernel_find(func), gridDim, blockDim, args,
                                     sharedMem, stream, true));
}
