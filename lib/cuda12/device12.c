/*
 * cuda12/device12.c - devices as CUDA 12.9 sees them: cudaDeviceProp in its 12.9 layout, and the
 * functions 13 removed (cudaThread*, cudaSetDouble*).  cudaDeviceGetAttribute is the body's: 12.9
 * passes every attribute to the driver as 13 does (144-147, new in 13's enum, answered on the
 * H200; 96 is the driver's cooperative multi-device attribute).
 */
#include <string.h>

#include "cuda12/cuda12.h"

void rt12_trace_called(cudaError_t e)
{
    RT_TRACE("error %s (%d) answered to %s", rt_error_name(e), (int)e,
             rt_call_name());
}

/* The eight fields 13 removed, each a driver attribute (13.0's release notes name them), asked
 * of the driver directly: an attribute a driver no longer answers is 0 here, and a call of the
 * public cudaDeviceGetAttribute would leave its error as the thread's last one. */
static cudaError_t rt12_removed_fields(struct rt12_device_prop *p, CUdevice dev)
{
    static const struct {
        unsigned short offset;
        unsigned char attr;
    } removed[] = {
        {offsetof(struct rt12_device_prop, clockRate), CU_DEVICE_ATTRIBUTE_CLOCK_RATE},
        {offsetof(struct rt12_device_prop, deviceOverlap), CU_DEVICE_ATTRIBUTE_GPU_OVERLAP},
        {offsetof(struct rt12_device_prop, kernelExecTimeoutEnabled),
         CU_DEVICE_ATTRIBUTE_KERNEL_EXEC_TIMEOUT},
        {offsetof(struct rt12_device_prop, computeMode), CU_DEVICE_ATTRIBUTE_COMPUTE_MODE},
        {offsetof(struct rt12_device_prop, maxTexture1DLinear),
         CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH},
        {offsetof(struct rt12_device_prop, memoryClockRate), CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE},
        {offsetof(struct rt12_device_prop, singleToDoublePrecisionPerfRatio),
         CU_DEVICE_ATTRIBUTE_SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO},
        {offsetof(struct rt12_device_prop, cooperativeMultiDeviceLaunch),
         CU_DEVICE_ATTRIBUTE_COOPERATIVE_MULTI_DEVICE_LAUNCH},
    };
    for (size_t i = 0; i < sizeof removed / sizeof removed[0]; i++) {
        int v = 0;
        CUresult r = rt_drv.cuDeviceGetAttribute(&v, (CUdevice_attribute)removed[i].attr, dev);
        if (r == CUDA_ERROR_INVALID_VALUE)
            v = 0;
        else if (r != CUDA_SUCCESS)
            return rt_error_from_cu(r);
        memcpy((char *)p + removed[i].offset, &v, sizeof v);
    }
    return cudaSuccess;
}

/* The fields 12.9 and 13 share lie in nine runs, each laid out alike in both structs (13 removed
 * eight fields and added others between them): a run, named by its first and last field, is one
 * copy.  Whatever else it spans in 12.9's struct is padding or a removed field, which
 * rt12_removed_fields writes afterwards (12.9's struct is the 85 shared fields, the 8 removed and
 * `reserved`).  That each run is laid out alike is asserted at its ends below, and
 * tests/cuda12/api/test_device12.c reads every field at its 12.9 offset. */
#define RT12_SHARED_RUNS(X)                                                                       \
    X(name, texturePitchAlignment) X(multiProcessorCount, multiProcessorCount)                    \
    X(integrated, canMapHostMemory) X(maxTexture1D, maxTexture1DMipmap)                           \
    X(maxTexture2D, unifiedAddressing) X(memoryBusWidth, localL1CacheSupported)                   \
    X(sharedMemPerMultiprocessor, hostNativeAtomicSupported)                                      \
    X(pageableMemoryAccess, cooperativeLaunch) X(sharedMemPerBlockOptin, unifiedFunctionPointers)
#define RT12_AT(field) offsetof(struct rt12_device_prop, field)
#define RT13_AT(field) offsetof(struct cudaDeviceProp, field)
#define RT12_END(field) (RT12_AT(field) + sizeof(((struct rt12_device_prop *)0)->field))
#define RT12_ALIKE(first, last)                                                                   \
    _Static_assert(RT12_AT(last) - RT12_AT(first) == RT13_AT(last) - RT13_AT(first) &&          \
                   sizeof(((struct rt12_device_prop *)0)->last) ==                               \
                   sizeof(((struct cudaDeviceProp *)0)->last), #first ".." #last " alike");
RT12_SHARED_RUNS(RT12_ALIKE)
#undef RT12_ALIKE

static void rt12_shared_fields(struct rt12_device_prop *o, const struct cudaDeviceProp *p)
{
    static const struct {
        uint16_t to, from, size;
    } runs[] = {
#define RT12_RUN(first, last) {RT12_AT(first), RT13_AT(first), RT12_END(last) - RT12_AT(first)},
        RT12_SHARED_RUNS(RT12_RUN)
#undef RT12_RUN
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++)
        memcpy((char *)o + runs[i].to, (const char *)p + runs[i].from, runs[i].size);
}

/* The one body of cudaGetDeviceProperties_v2 and the legacy cudaGetDeviceProperties
 * (RT_FORWARD): fills the first `bytes` of the caller's 12.9 struct, and not one byte more (the
 * legacy export was built for CUDA 11's smaller struct). */
static cudaError_t rt12_device_properties_api(struct rt12_device_prop *prop, int device,
                                              size_t bytes, rt_api self)
{
    RT_ENTER_AS(self);
    if (!prop)
        RT_RETURN(cudaErrorInvalidValue);
    struct cudaDeviceProp p13;
    cudaError_t e = rt_v13_cudaGetDeviceProperties(&p13, device);
    if (e != cudaSuccess)
        RT12_RETURN_CALLED(e);
    struct rt12_device_prop p12;
    memset(&p12, 0, sizeof p12);
    rt12_shared_fields(&p12, &p13);
    e = rt12_removed_fields(&p12, rt_devices[device].cu);   /* the body checked the number */
    if (e == cudaSuccess)
        memcpy(prop, &p12, bytes);
    RT_RETURN(e);
}

/* What every CUDA 12 program calls: 12.9's header turns cudaGetDeviceProperties into this. */
RT_API cudaError_t cudaGetDeviceProperties_v2(struct rt12_device_prop *prop, int device)
{
    RT_FORWARD(rt12_device_properties_api(prop, device, RT12_DEVICE_PROP_V2_BYTES, RT_SELF));
}

/* The plain name, which only a caller that bypasses the header reaches (dlsym, bindings): CUDA
 * 11's prefix of the struct, 728 bytes, as NVIDIA's 12.9 library writes. */
RT_API cudaError_t cudaGetDeviceProperties(struct rt12_device_prop *prop, int device)
{
    RT_FORWARD(rt12_device_properties_api(prop, device, RT12_DEVICE_PROP_V1_BYTES, RT_SELF));
}

/* Only the compute capability counts (device_config.c says the rule), at 12.9's offsets. */
RT_API cudaError_t cudaChooseDevice(int *device, const struct rt12_device_prop *prop)
{
    RT_ENTER();
    if (!device || !prop)
        RT_RETURN(cudaErrorInvalidValue);
    struct cudaDeviceProp p13;
    memset(&p13, 0, sizeof p13);
    p13.major = prop->major;
    p13.minor = prop->minor;
    RT12_RETURN_CALLED(rt_v13_cudaChooseDevice(device, &p13));
}

/* ---- removed in 13: each identical to its cudaDevice* successor, as 12.9's header says ------ */

RT_API cudaError_t cudaThreadExit(void)
{
    RT_ENTER();
    RT12_RETURN_CALLED(cudaDeviceReset());
}

RT_API cudaError_t cudaThreadSynchronize(void)
{
    RT_ENTER();
    RT12_RETURN_CALLED(cudaDeviceSynchronize());
}

RT_API cudaError_t cudaThreadSetLimit(enum cudaLimit limit, size_t value)
{
    RT_ENTER();
    RT12_RETURN_CALLED(cudaDeviceSetLimit(limit, value));
}

RT_API cudaError_t cudaThreadGetLimit(size_t *pValue, enum cudaLimit limit)
{
    RT_ENTER();
    RT12_RETURN_CALLED(cudaDeviceGetLimit(pValue, limit));
}

RT_API cudaError_t cudaThreadGetCacheConfig(enum cudaFuncCache *pCacheConfig)
{
    RT_ENTER();
    RT12_RETURN_CALLED(cudaDeviceGetCacheConfig(pCacheConfig));
}

RT_API cudaError_t cudaThreadSetCacheConfig(enum cudaFuncCache cacheConfig)
{
    RT_ENTER();
    RT12_RETURN_CALLED(cudaDeviceSetCacheConfig(cacheConfig));
}

/* "If the device does natively support doubles, then this function does nothing" (12.9's
 * header), and every device a 12.9 runtime supports does: NVIDIA's 12.9 library answers
 * cudaSuccess even for NULL (H200, tests/gpu/conf_cuda12.cu), once the driver is initialised;
 * with no driver its failure, as from every call (core/exit.c). */
RT_API cudaError_t cudaSetDoubleForDevice(double *d)
{
    RT_ENTER();
    RT_RETURN(rt_driver_failure());
}

RT_API cudaError_t cudaSetDoubleForHost(double *d)
{
    RT_ENTER();
    RT_RETURN(rt_driver_failure());
}
