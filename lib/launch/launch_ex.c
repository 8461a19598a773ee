/*
 * launch_ex.c - the launches beyond <<<>>>: cudaLaunchCooperativeKernel and cudaLaunchKernelExC.
 *
 * Both share launch.c's steps 7-8 (context, kernel resolution, parameter packing) through
 * rt_launch_with and differ only in the driver call at step 9: cuLaunchCooperativeKernel
 * (grid-wide synchronisation; a grid larger than can be co-resident fails with
 * cudaErrorCooperativeLaunchTooLarge) and cuLaunchKernelEx (a list of launch attributes:
 * cooperative, cluster dimensions, priority, programmatic serialisation, ...).
 *
 * cudaLaunchAttribute has the layout of CUlaunchAttribute (checked below), so the caller's array
 * goes to the driver as it is; only cudaLaunchConfig_t, whose dynamicSmemBytes is a size_t, is
 * copied into a CUlaunchConfig.  Failures land in the thread's last error like any launch.
 */
#include "launch/launch.h"

_Static_assert(sizeof(cudaLaunchAttribute) == sizeof(CUlaunchAttribute),
               "cudaLaunchAttribute and CUlaunchAttribute differ in size");
_Static_assert(offsetof(cudaLaunchAttribute, id) == offsetof(CUlaunchAttribute, id) &&
               offsetof(cudaLaunchAttribute, val) == offsetof(CUlaunchAttribute, value),
               "cudaLaunchAttribute and CUlaunchAttribute differ in layout");
_Static_assert(sizeof(cudaLaunchAttributeValue) == sizeof(CUlaunchAttributeValue),
               "launch attribute values differ in size");
_Static_assert((int)cudaLaunchAttributeCooperative == (int)CU_LAUNCH_ATTRIBUTE_COOPERATIVE &&
               (int)cudaLaunchAttributeClusterDimension ==
                   (int)CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION &&
               (int)cudaLaunchAttributePriority == (int)CU_LAUNCH_ATTRIBUTE_PRIORITY &&
               (int)cudaLaunchAttributeProgrammaticStreamSerialization ==
                   (int)CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION,
               "launch attribute ids differ");

static cudaError_t rt_launch_cooperative(const void *func, dim3 grid, dim3 block, void **args,
                                         size_t shared, cudaStream_t stream, bool per_thread)
{
    rt_launch_options opt = { .cooperative = true };
    return rt_launch_with(rt_kernel_find(func), grid, block, args, shared, stream, per_thread,
                          &opt);
}

RT_API cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim,
                                               void **args, size_t sharedMem,
                                               cudaStream_t stream)
{
    RT_ENTER();
    RT_RETURN_LAUNCH(func, rt_launch_cooperative(func, gridDim, blockDim, args,
                                                 sharedMem, stream, false));
}

RT_API cudaError_t cudaLaunchCooperativeKernel_ptsz(const void *func, dim3 gridDim,
                                                    dim3 blockDim, void **args, size_t sharedMem,
                                                    cudaStream_t stream)
{
    RT_ENTER();
    RT_RETURN_LAUNCH(func, rt_launch_cooperative(func, gridDim, blockDim, args,
                                                 sharedMem, stream, true));
}

static cudaError_t rt_launch_ex(const cudaLaunchConfig_t *config, const void *func, void **args,
                                bool per_thread)
{
    if (!config || (config->numAttrs && !config->attrs))
        return cudaErrorInvalidValue;
    rt_launch_options opt = {
        .extended = true,
        .attrs = (const CUlaunchAttribute *)config->attrs,
        .num_attrs = config->numAttrs,
    };
    return rt_launch_with(rt_kernel_find(func), config->gridDim, config->blockDim, args,
                          config->dynamicSmemBytes, config->stream, per_thread, &opt);
}

RT_API cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func,
                                       void **args)
{
    RT_ENTER_HOT();
    RT_RETURN_LAUNCH(func, rt_launch_ex(config, func, args, false));
}

RT_API cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *config, const void *func,
                                            void **args)
{
    RT_ENTER_HOT();
    RT_RETURN_LAUNCH(func, rt_launch_ex(config, func, args, true));
}
