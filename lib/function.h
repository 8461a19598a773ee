/*
 * function.h - what the files of the "function" area share (function.c, launch.c, launch_ex.c,
 * device.c, device_config.c, entry_point.c): kernel attributes remembered across devices, the
 * general launch, device lookup, and the prototypes of the _ptsz entry points (the toolkit
 * declares them only under CUDA_API_PER_THREAD_DEFAULT_STREAM).
 */
#ifndef MINICUDART_FUNCTION_H
#define MINICUDART_FUNCTION_H

#include "internal.h"

/* ---- function.c ------------------------------------------------------------------------------ */

/* The cudaFuncAttribute values a program may set: 8..15 equal the CUfunction_attribute values
 * they set (function.c checks it); 13.5's cudaFuncAttributeSharedMemoryMode (16) sets the
 * driver's CU_FUNC_ATTRIBUTE_SHARED_MEMORY_MODE, which is 17 (the driver's 16 is the read-only
 * CU_FUNC_ATTRIBUTE_DEVICE_NODE_UPDATE_SUPPORTED). */
static inline bool rt_fn_attr_settable(int attr)
{
    return attr >= cudaFuncAttributeMaxDynamicSharedMemorySize &&
           attr <= (int)cudaFuncAttributeSharedMemoryMode;
}
static inline CUfunction_attribute rt_fn_driver_attr(int attr)
{
    return attr == (int)cudaFuncAttributeSharedMemoryMode ? CU_FUNC_ATTRIBUTE_SHARED_MEMORY_MODE
                                                          : (CUfunction_attribute)attr;
}

/* Applies the attributes cudaFuncSetAttribute / cudaFuncSetCacheConfig recorded for k to its
 * CUfunction on device d, once per context generation.  NVIDIA applies them to the kernel on
 * every device; minicudart resolves a kernel per device lazily, so every path that resolves one
 * calls this before using the function.  Cheap when nothing was ever set. */
cudaError_t rt_function_apply(rt_kernel *k, rt_device *d, rt_kernel_dev *kd);

/* cudaKernelSetAttributeForDevice on a registered kernel: sets attribute attr (a settable
 * cudaFuncAttribute, checked by the caller) on k's function on device d (a primary-context slot),
 * and remembers it for d below cudaFuncSetAttribute's settings. */
cudaError_t rt_function_set_for_device(rt_kernel *k, rt_device *d, int attr, int value);

/* What NVIDIA's runtime answers for a `func` that names no registered kernel, in the launches and
 * the attribute, occupancy and graph functions: cudaErrorInvalidDeviceFunction for NULL,
 * cudaErrorInvalidResourceHandle for any other pointer (both measured on the H200).
 * (cudaGetKernel, __cudaGetKernel and cudaGetFuncBySymbol answer the former for both.) */
static inline cudaError_t rt_kernel_unknown(const void *func)
{
    return func ? cudaErrorInvalidResourceHandle : cudaErrorInvalidDeviceFunction;
}

/* Resolves the kernel behind `func` (a host stub or a cudaKernel_t) on the thread's device, with
 * its remembered attributes applied.  An unknown `func` is rt_kernel_unknown's answer. */
cudaError_t rt_function_resolve(const void *func, rt_device **d, rt_kernel **k, CUfunction *f);

/* ---- launch.c -------------------------------------------------------------------------------- */

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
static inline cudaError_t rt_launch_exit(const char *api, const void *func, cudaError_t e)
{
    if (e == cudaSuccess)
        return e;
    if (e == cudaErrorInvalidResourceHandle && !func)
        e = cudaErrorInvalidDeviceFunction;
    return rt_exit_error(api, e);
}

/* ---- device.c -------------------------------------------------------------------------------- */

/* Validates an ordinal (initialising the device table first): cudaErrorInvalidDevice when out of
 * range, or the initialisation error. */
cudaError_t rt_device_lookup(int device, rt_device **out);
/* The device whose primary context is current on this thread, or the thread's chosen one, or
 * 0 — without initialising anything beyond the device table. */
cudaError_t rt_device_current(rt_device **out);

/* ---- device_config.c ------------------------------------------------------------------------- */

/* The calling thread's cudaSetValidDevices list: sets *list and returns its length, 0 when the
 * thread set none (then device 0 is its default). */
int rt_valid_devices(const int **list);

/* ---- the _ptsz entry points of this area ------------------------------------------------------ */

RT_API cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *config, const void *func,
                                            void **args);
RT_API cudaError_t cudaLaunchCooperativeKernel_ptsz(const void *func, dim3 gridDim,
                                                    dim3 blockDim, void **args, size_t sharedMem,
                                                    cudaStream_t stream);
RT_API cudaError_t cudaGetDriverEntryPoint_ptsz(const char *symbol, void **funcPtr,
                                                unsigned long long flags,
                                                enum cudaDriverEntryPointQueryResult *status);
RT_API cudaError_t cudaGetDriverEntryPointByVersion_ptsz(
    const char *symbol, void **funcPtr, unsigned int cudaVersion, unsigned long long flags,
    enum cudaDriverEntryPointQueryResult *status);

#endif
