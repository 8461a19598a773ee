/*
 * cuda12/launch12.c - kernels as CUDA 12.9 answers for them: a host pointer that is no registered
 * kernel is cudaErrorInvalidDeviceFunction to cudaFuncSetCacheConfig and
 * cudaFuncSetSharedMemConfig, where 13 answers cudaErrorInvalidResourceHandle (both measured on
 * the H200 by tests/gpu/conf_misuse_launch.cu).  The launch path itself is the 13 one; only the
 * error of a shape no device runs differs, and that is RT_LAUNCH_BAD_SHAPE (cuda12/names12.h).
 */
#include "cuda12/cuda12.h"

/* The 12.9 answer for a pointer the registry does not know; NULL, unknown to both, is the body's
 * (cudaErrorInvalidDeviceFunction in both). */
static bool rt12_not_a_kernel(const void *func)
{
    return func && !rt_kernel_find(func);
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
