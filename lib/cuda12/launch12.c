/*
 * cuda12/launch12.c - kernels as CUDA 12.9 answers for them.  A host pointer that is no
 * registered kernel is cudaErrorInvalidDeviceFunction to cudaFuncSetCacheConfig and
 * cudaFuncSetSharedMemConfig, where 13 answers cudaErrorInvalidResourceHandle, and no error to
 * __cudaGetKernel, where 13 answers cudaErrorInvalidDeviceFunction (NVIDIA's libraries on the
 * H200, tests/gpu/conf_misuse_launch.cu).  The launch path itself is the 13 one; only the error of
 * a shape no device runs differs, and that is RT_LAUNCH_BAD_SHAPE (cuda12/names12.h).
 */
#include "cuda12/cuda12.h"

/* The 12.9 answer for a pointer the registry does not know; NULL, unknown to both, is the body's
 * (cudaErrorInvalidDeviceFunction in both). */
static bool rt12_not_a_kernel(const void *func)
{
    return func && !rt_kernel_find(func);
}

/* nvcc's stub asks once for its kernel's handle.  For a pointer that is no kernel 12.9 answers
 * cudaSuccess; the handle it writes then was not seen, so this writes the body's (NULL), which a
 * launch refuses. */
RT_API cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *hostFun)
{
    RT_ENTER();
    if (kernel && rt12_not_a_kernel(hostFun)) {
        *kernel = NULL;
        RT_TRACE("__cudaGetKernel: host function %p is not registered", hostFun);
        RT_RETURN(cudaSuccess);
    }
    RT12_RETURN_CALLED(rt_v13___cudaGetKernel(kernel, hostFun));
}

RT_API cudaError_t cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache cacheConfig)
{
    RT_ENTER();
    if (rt12_not_a_kernel(func))
        RT_RETURN(cudaErrorInvalidDeviceFunction);
    RT12_RETURN_CALLED(rt_v13_cudaFuncSetCacheConfig(func, cacheConfig));
}

/* The header marks the function deprecated; calling its body is no use of it by a program. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
RT_API cudaError_t cudaFuncSetSharedMemConfig(const void *func, enum cudaSharedMemConfig config)
{
    RT_ENTER();
    if (rt12_not_a_kernel(func))
        RT_RETURN(cudaErrorInvalidDeviceFunction);
    RT12_RETURN_CALLED(rt_v13_cudaFuncSetSharedMemConfig(func, config));
}
#pragma GCC diagnostic pop
