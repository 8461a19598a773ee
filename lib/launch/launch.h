/*
 * launch/launch.h - the launch path, one layer above loading: what a `k<<<g, b, shm, s>>>(args)`
 * walks after registration (load/register.c) and before the driver's queue.
 *
 *   launch.c     push/pop the configuration, __cudaGetKernel, __cudaLaunchKernel, the packing
 *                of the arguments and cuLaunchKernel: steps 1-9, in one room
 *   launch_ex.c  cudaLaunchKernelExC, cooperative launches: the same path with options
 *
 * Below: load/ (the kernel, its module and layout), device/, core/.
 */
#ifndef MINICUDART_LAUNCH_H
#define MINICUDART_LAUNCH_H

#include "load/load.h"

/* ---- launch.c -------------------------------------------------------------------------------- */

/* The common launch: validates, resolves the kernel on the current device, lays out the
 * parameters and calls cuLaunchKernel.  per_thread: stream 0 means the per-thread stream. */
cudaError_t rt_launch(rt_kernel *k, dim3 grid, dim3 block, void **args, size_t shared,
                      cudaStream_t stream, bool per_thread);

/* ---- with options ---------------------------------------------------------------------------- */

/* What a launch adds to <<<>>>: the cooperative flag and launch attributes (cuLaunchKernelEx). */
typedef struct rt_launch_options {
    bool cooperative;                   /* cuLaunchCooperativeKernel */
    const CUlaunchAttribute *attrs;     /* non-NULL (or num_attrs > 0): cuLaunchKernelEx */
    unsigned num_attrs;
    bool extended;                      /* go through cuLaunchKernelEx */
} rt_launch_options;

/* rt_launch with options (NULL: a plain cuLaunchKernel). */
cudaError_t rt_launch_with(rt_kernel *k, dim3 grid, dim3 block, void **args, size_t shared,
                           cudaStream_t stream, bool per_thread, const rt_launch_options *opt);

/* The exit of the public launches.  rt_launch_with answers cudaErrorInvalidResourceHandle for a
 * kernel it cannot find; for a NULL `func` NVIDIA's answer is cudaErrorInvalidDeviceFunction
 * (rt_kernel_unknown).  Only a failure pays for telling the two apart. */
RT_INLINE cudaError_t rt_launch_exit(const void *func, cudaError_t e)
{
    if (e == cudaErrorInvalidResourceHandle && !func)
        e = cudaErrorInvalidDeviceFunction;
    return rt_exit(e);
}
#define RT_RETURN_LAUNCH(func, e) return rt_launch_exit((func), (e))

/* ---- the entry points nvcc emits at a call site (crt/host_runtime.h), and the _ptsz ones ---- */

RT_API unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                            struct CUstream_st *stream);
RT_API cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem,
                                              void *stream);
RT_API cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *hostFun);
RT_API cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
                                      void **args, size_t sharedMem, cudaStream_t stream);
RT_API cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
                                           void **args, size_t sharedMem, cudaStream_t stream);
RT_API cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim,
                                         void **args, size_t sharedMem, cudaStream_t stream);
RT_API cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *config, const void *func,
                                            void **args);
RT_API cudaError_t cudaLaunchCooperativeKernel_ptsz(const void *func, dim3 gridDim,
                                                    dim3 blockDim, void **args, size_t sharedMem,
                                                    cudaStream_t stream);

#endif
