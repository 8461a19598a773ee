/*
 * device_props.c - what a device is: cudaDeviceGetAttribute and cudaGetDeviceProperties.
 *
 * Both are the driver's device attributes, asked of the device without its context (no device
 * is initialised for them, as with NVIDIA's runtime): cudaDeviceAttr and CUdevice_attribute
 * share their values, and each int-like member of cudaDeviceProp is one attribute (the table
 * below), the name, UUID and memory size three calls of their own.
 */
#include <string.h>

#include "device/device.h"

RT_API cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device)
{
    RT_ENTER();
    if (!value)
        RT_RETURN(cudaErrorInvalidValue);
    cudaError_t e = rt_devices_init();
    if (e != cudaSuccess)
        RT_RETURN(e);
    if (device < 0 || device >= rt_device_count)
        RT_RETURN(cudaErrorInvalidDevice);
    /* cudaDeviceAttr and CUdevice_attribute share their values. */
    CUresult r = rt_drv.cuDeviceGetAttribute(value, (CUdevice_attribute)attr,
                                             rt_devices[device].cu);
    RT_RETURN(rt_error_from_cu(r));
}

/* Where each int-like field of cudaDeviceProp comes from.  width: 4 (int) or 8 (size_t).  Six
 * bytes a row: the struct's offsets and the attributes' values fit in 16 bits. */
struct rt_prop_field {
    uint16_t offset;
    uint16_t attr;                  /* CUdevice_attribute */
    uint8_t width;
};
_Static_assert(sizeof(struct cudaDeviceProp) <= UINT16_MAX && CU_DEVICE_ATTRIBUTE_MAX <= UINT16_MAX,
               "rt_prop_field's 16-bit offsets and attributes");

#define PROP(field, attr) { offsetof(struct cudaDeviceProp, field), attr, \
                            sizeof(((struct cudaDeviceProp *)0)->field) }
#define PROP_AT(field, i, attr) \
    { offsetof(struct cudaDeviceProp, field) + (i) * sizeof(int), attr, sizeof(int) }

static const struct rt_prop_field rt_prop_fields[] = {
    PROP(sharedMemPerBlock, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK),
    PROP(regsPerBlock, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK),
    PROP(warpSize, CU_DEVICE_ATTRIBUTE_WARP_SIZE),
    PROP(memPitch, CU_DEVICE_ATTRIBUTE_MAX_PITCH),
    PROP(maxThreadsPerBlock, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK),
    PROP_AT(maxThreadsDim, 0, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X),
    PROP_AT(maxThreadsDim, 1, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y),
    PROP_AT(maxThreadsDim, 2, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z),
    PROP_AT(maxGridSize, 0, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X),
    PROP_AT(maxGridSize, 1, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y),
    PROP_AT(maxGridSize, 2, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z),
    PROP(totalConstMem, CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY),
    PROP(major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
    PROP(minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR),
    PROP(textureAlignment, CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT),
    PROP(texturePitchAlignment, CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT),
    PROP(multiProcessorCount, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT),
    PROP(integrated, CU_DEVICE_ATTRIBUTE_INTEGRATED),
    PROP(canMapHostMemory, CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY),
    PROP(maxTexture1D, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_WIDTH),
    PROP(maxTexture1DMipmap, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_MIPMAPPED_WIDTH),
    PROP_AT(maxTexture2D, 0, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_WIDTH),
    PROP_AT(maxTexture2D, 1, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_HEIGHT),
    PROP_AT(maxTexture2DMipmap, 0, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_WIDTH),
    PROP_AT(maxTexture2DMipmap, 1, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_HEIGHT),
    PROP_AT(maxTexture2DLinear, 0, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_WIDTH),
    PROP_AT(maxTexture2DLinear, 1, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_HEIGHT),
    PROP_AT(maxTexture2DLinear, 2, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_PITCH),
    PROP_AT(maxTexture2DGather, 0, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_WIDTH),
    PROP_AT(maxTexture2DGather, 1, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_HEIGHT),
    PROP_AT(maxTexture3D, 0, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH),
    PROP_AT(maxTexture3D, 1, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT),
    PROP_AT(maxTexture3D, 2, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH),
    PROP_AT(maxTexture3DAlt, 0, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH_ALTERNATE),
    PROP_AT(maxTexture3DAlt, 1, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT_ALTERNATE),
    PROP_AT(maxTexture3DAlt, 2, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH_ALTERNATE),
    PROP(maxTextureCubemap, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_WIDTH),
    PROP_AT(maxTexture1DLayered, 0, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_WIDTH),
    PROP_AT(maxTexture1DLayered, 1, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_LAYERS),
    PROP_AT(maxTexture2DLayered, 0, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_WIDTH),
    PROP_AT(maxTexture2DLayered, 1, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_HEIGHT),
    PROP_AT(maxTexture2DLayered, 2, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_LAYERS),
    PROP_AT(maxTextureCubemapLayered, 0, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_WIDTH),
    PROP_AT(maxTextureCubemapLayered, 1, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_LAYERS),
    PROP(maxSurface1D, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_WIDTH),
    PROP_AT(maxSurface2D, 0, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_WIDTH),
    PROP_AT(maxSurface2D, 1, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_HEIGHT),
    PROP_AT(maxSurface3D, 0, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_WIDTH),
    PROP_AT(maxSurface3D, 1, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_HEIGHT),
    PROP_AT(maxSurface3D, 2, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_DEPTH),
    PROP_AT(maxSurface1DLayered, 0, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_WIDTH),
    PROP_AT(maxSurface1DLayered, 1, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_LAYERS),
    PROP_AT(maxSurface2DLayered, 0, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_WIDTH),
    PROP_AT(maxSurface2DLayered, 1, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_HEIGHT),
    PROP_AT(maxSurface2DLayered, 2, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_LAYERS),
    PROP(maxSurfaceCubemap, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_WIDTH),
    PROP_AT(maxSurfaceCubemapLayered, 0, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_WIDTH),
    PROP_AT(maxSurfaceCubemapLayered, 1, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_LAYERS),
    PROP(surfaceAlignment, CU_DEVICE_ATTRIBUTE_SURFACE_ALIGNMENT),
    PROP(concurrentKernels, CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS),
    PROP(ECCEnabled, CU_DEVICE_ATTRIBUTE_ECC_ENABLED),
    PROP(pciBusID, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID),
    PROP(pciDeviceID, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID),
    PROP(pciDomainID, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID),
    PROP(tccDriver, CU_DEVICE_ATTRIBUTE_TCC_DRIVER),
    PROP(asyncEngineCount, CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT),
    PROP(unifiedAddressing, CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING),
    PROP(memoryBusWidth, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH),
    PROP(l2CacheSize, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE),
    PROP(persistingL2CacheMaxSize, CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE),
    PROP(maxThreadsPerMultiProcessor, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR),
    PROP(streamPrioritiesSupported, CU_DEVICE_ATTRIBUTE_STREAM_PRIORITIES_SUPPORTED),
    PROP(globalL1CacheSupported, CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED),
    PROP(localL1CacheSupported, CU_DEVICE_ATTRIBUTE_LOCAL_L1_CACHE_SUPPORTED),
    PROP(sharedMemPerMultiprocessor, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR),
    PROP(regsPerMultiprocessor, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR),
    PROP(managedMemory, CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY),
    PROP(isMultiGpuBoard, CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD),
    PROP(multiGpuBoardGroupID, CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD_GROUP_ID),
    PROP(hostNativeAtomicSupported, CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED),
    PROP(pageableMemoryAccess, CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS),
    PROP(concurrentManagedAccess, CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS),
    PROP(computePreemptionSupported, CU_DEVICE_ATTRIBUTE_COMPUTE_PREEMPTION_SUPPORTED),
    PROP(canUseHostPointerForRegisteredMem,
         CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM),
    PROP(cooperativeLaunch, CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH),
    PROP(sharedMemPerBlockOptin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN),
    PROP(pageableMemoryAccessUsesHostPageTables,
         CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES),
    PROP(directManagedMemAccessFromHost, CU_DEVICE_ATTRIBUTE_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST),
    PROP(maxBlocksPerMultiProcessor, CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR),
    PROP(accessPolicyMaxWindowSize, CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE),
    PROP(reservedSharedMemPerBlock, CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK),
    PROP(hostRegisterSupported, CU_DEVICE_ATTRIBUTE_HOST_REGISTER_SUPPORTED),
    PROP(sparseCudaArraySupported, CU_DEVICE_ATTRIBUTE_SPARSE_CUDA_ARRAY_SUPPORTED),
    PROP(hostRegisterReadOnlySupported, CU_DEVICE_ATTRIBUTE_READ_ONLY_HOST_REGISTER_SUPPORTED),
    PROP(timelineSemaphoreInteropSupported,
         CU_DEVICE_ATTRIBUTE_TIMELINE_SEMAPHORE_INTEROP_SUPPORTED),
    PROP(memoryPoolsSupported, CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED),
    PROP(gpuDirectRDMASupported, CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_SUPPORTED),
    PROP(gpuDirectRDMAFlushWritesOptions,
         CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS),
    PROP(gpuDirectRDMAWritesOrdering, CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WRITES_ORDERING),
    PROP(memoryPoolSupportedHandleTypes, CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES),
    PROP(deferredMappingCudaArraySupported,
         CU_DEVICE_ATTRIBUTE_DEFERRED_MAPPING_CUDA_ARRAY_SUPPORTED),
    PROP(ipcEventSupported, CU_DEVICE_ATTRIBUTE_IPC_EVENT_SUPPORTED),
    PROP(clusterLaunch, CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH),
    PROP(unifiedFunctionPointers, CU_DEVICE_ATTRIBUTE_UNIFIED_FUNCTION_POINTERS),
    PROP(deviceNumaConfig, CU_DEVICE_ATTRIBUTE_NUMA_CONFIG),
    PROP(deviceNumaId, CU_DEVICE_ATTRIBUTE_NUMA_ID),
    PROP(mpsEnabled, CU_DEVICE_ATTRIBUTE_MPS_ENABLED),
    PROP(hostNumaId, CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID),
    PROP(gpuPciDeviceID, CU_DEVICE_ATTRIBUTE_GPU_PCI_DEVICE_ID),
    PROP(gpuPciSubsystemID, CU_DEVICE_ATTRIBUTE_GPU_PCI_SUBSYSTEM_ID),
    PROP(hostNumaMultinodeIpcSupported, CU_DEVICE_ATTRIBUTE_HOST_NUMA_MULTINODE_IPC_SUPPORTED),
};

RT_API cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)
{
    RT_ENTER();
    if (!prop)
        RT_RETURN(cudaErrorInvalidValue);
    cudaError_t e = rt_devices_init();
    if (e != cudaSuccess)
        RT_RETURN(e);
    if (device < 0 || device >= rt_device_count)
        RT_RETURN(cudaErrorInvalidDevice);
    CUdevice dev = rt_devices[device].cu;

    struct cudaDeviceProp p;
    memset(&p, 0, sizeof p);
    CUresult r = rt_drv.cuDeviceGetName(p.name, (int)sizeof p.name, dev);
    if (r == CUDA_SUCCESS)
        r = rt_drv.cuDeviceGetUuid((CUuuid *)&p.uuid, dev);
    if (r == CUDA_SUCCESS)
        r = rt_drv.cuDeviceTotalMem(&p.totalGlobalMem, dev);
    for (size_t i = 0; r == CUDA_SUCCESS && i < sizeof rt_prop_fields / sizeof rt_prop_fields[0];
         i++) {
        const struct rt_prop_field *f = &rt_prop_fields[i];
        int v = 0;
        r = rt_drv.cuDeviceGetAttribute(&v, (CUdevice_attribute)f->attr, dev);
        if (r == CUDA_ERROR_INVALID_VALUE) {      /* an attribute this driver does not know */
            v = 0;
            r = CUDA_SUCCESS;
        }
        if (f->width == sizeof(size_t)) {
            size_t wide = (size_t)(unsigned)v;
            memcpy((char *)&p + f->offset, &wide, sizeof wide);
        } else {
            memcpy((char *)&p + f->offset, &v, sizeof v);
        }
    }
    if (r != CUDA_SUCCESS)
        RT_RETURN(rt_error_from_cu(r));
    *prop = p;
    RT_RETURN(cudaSuccess);
}
