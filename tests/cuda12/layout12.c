/*
 * layout12.c - lib/cuda12/abi12.h against NVIDIA's CUDA 12.9 headers: each rt12_ struct has the
 * size of the 12.9 struct it stands for, and each of its members (nested ones by their path, and
 * the unions and structs that hold them) the offset and size of the 12.9 member of that name.
 * Compiled with 12.9's include directories only (tests/cuda12/CMakeLists.txt); a build failure is
 * the test.  layout12_members.py checks that every struct and member of abi12.h has its line here.
 */
#include <cuda_runtime_api.h>
#include <stddef.h>

#if CUDART_VERSION != 12090
#error "layout12.c must be compiled against CUDA 12.9's headers"
#endif

#include "cuda12/abi12.h"

#define MEMBER_SIZE(type, member) sizeof(((type *)0)->member)
/* The struct's size. */
#define CHECK_SIZE(ours, theirs)                                                            \
    _Static_assert(sizeof(struct ours) == sizeof(struct theirs), #ours ": size of " #theirs);
/* A member's offset and size. */
#define CHECK(ours, theirs, member)                                                         \
    _Static_assert(offsetof(struct ours, member) == offsetof(struct theirs, member),        \
                   #ours "." #member ": offset in " #theirs);                                \
    _Static_assert(MEMBER_SIZE(struct ours, member) == MEMBER_SIZE(struct theirs, member),  \
                   #ours "." #member ": size in " #theirs);

/* The sizes abi12.h's comments give, and the prefixes of cudaDeviceProp that NVIDIA's two entry
 * points write (docs/cuda12.md). */
_Static_assert(sizeof(struct cudaDeviceProp) == 1032, "cudaDeviceProp: 1032 bytes");
_Static_assert(RT12_DEVICE_PROP_V2_BYTES == 780, "cudaGetDeviceProperties_v2 writes 780 bytes");
_Static_assert(RT12_DEVICE_PROP_V1_BYTES == 728, "cudaGetDeviceProperties writes 728 bytes");
_Static_assert(sizeof(struct cudaPointerAttributes) == 24, "cudaPointerAttributes: 24 bytes");
_Static_assert(sizeof(struct cudaResourceDesc) == 64, "cudaResourceDesc: 64 bytes");
_Static_assert(sizeof(struct cudaResourceViewDesc) == 48, "cudaResourceViewDesc: 48 bytes");
_Static_assert(sizeof(struct cudaExternalSemaphoreSignalParams_v1) == 32, "signal _v1: 32 bytes");
_Static_assert(sizeof(struct cudaExternalSemaphoreWaitParams_v1) == 40, "wait _v1: 40 bytes");
_Static_assert(sizeof(struct cudaLaunchParams) == 56, "cudaLaunchParams: 56 bytes");

/* rt12_device_prop = 12.9's struct cudaDeviceProp */
CHECK_SIZE(rt12_device_prop, cudaDeviceProp)
CHECK(rt12_device_prop, cudaDeviceProp, name)
CHECK(rt12_device_prop, cudaDeviceProp, uuid)
CHECK(rt12_device_prop, cudaDeviceProp, luid)
CHECK(rt12_device_prop, cudaDeviceProp, luidDeviceNodeMask)
CHECK(rt12_device_prop, cudaDeviceProp, totalGlobalMem)
CHECK(rt12_device_prop, cudaDeviceProp, sharedMemPerBlock)
CHECK(rt12_device_prop, cudaDeviceProp, regsPerBlock)
CHECK(rt12_device_prop, cudaDeviceProp, warpSize)
CHECK(rt12_device_prop, cudaDeviceProp, memPitch)
CHECK(rt12_device_prop, cudaDeviceProp, maxThreadsPerBlock)
CHECK(rt12_device_prop, cudaDeviceProp, maxThreadsDim)
CHECK(rt12_device_prop, cudaDeviceProp, maxGridSize)
CHECK(rt12_device_prop, cudaDeviceProp, clockRate)
CHECK(rt12_device_prop, cudaDeviceProp, totalConstMem)
CHECK(rt12_device_prop, cudaDeviceProp, major)
CHECK(rt12_device_prop, cudaDeviceProp, minor)
CHECK(rt12_device_prop, cudaDeviceProp, textureAlignment)
CHECK(rt12_device_prop, cudaDeviceProp, texturePitchAlignment)
CHECK(rt12_device_prop, cudaDeviceProp, deviceOverlap)
CHECK(rt12_device_prop, cudaDeviceProp, multiProcessorCount)
CHECK(rt12_device_prop, cudaDeviceProp, kernelExecTimeoutEnabled)
CHECK(rt12_device_prop, cudaDeviceProp, integrated)
CHECK(rt12_device_prop, cudaDeviceProp, canMapHostMemory)
CHECK(rt12_device_prop, cudaDeviceProp, computeMode)
CHECK(rt12_device_prop, cudaDeviceProp, maxTexture1D)
CHECK(rt12_device_prop, cudaDeviceProp, maxTexture1DMipmap)
CHECK(rt12_device_prop, cudaDeviceProp, maxTexture1DLinear)
CHECK(rt12_device_prop, cudaDeviceProp, maxTexture2D)
CHECK(rt12_device_prop, cudaDeviceProp, maxTexture2DMipmap)
CHECK(rt12_device_prop, cudaDeviceProp, maxTexture2DLinear)
CHECK(rt12_device_prop, cudaDeviceProp, maxTexture2DGather)
CHECK(rt12_device_prop, cudaDeviceProp, maxTexture3D)
CHECK(rt12_device_prop, cudaDeviceProp, maxTexture3DAlt)
CHECK(rt12_device_prop, cudaDeviceProp, maxTextureCubemap)
CHECK(rt12_device_prop, cudaDeviceProp, maxTexture1DLayered)
CHECK(rt12_device_prop, cudaDeviceProp, maxTexture2DLayered)
CHECK(rt12_device_prop, cudaDeviceProp, maxTextureCubemapLayered)
CHECK(rt12_device_prop, cudaDeviceProp, maxSurface1D)
CHECK(rt12_device_prop, cudaDeviceProp, maxSurface2D)
CHECK(rt12_device_prop, cudaDeviceProp, maxSurface3D)
CHECK(rt12_device_prop, cudaDeviceProp, maxSurface1DLayered)
CHECK(rt12_device_prop, cudaDeviceProp, maxSurface2DLayered)
CHECK(rt12_device_prop, cudaDeviceProp, maxSurfaceCubemap)
CHECK(rt12_device_prop, cudaDeviceProp, maxSurfaceCubemapLayered)
CHECK(rt12_device_prop, cudaDeviceProp, surfaceAlignment)
CHECK(rt12_device_prop, cudaDeviceProp, concurrentKernels)
CHECK(rt12_device_prop, cudaDeviceProp, ECCEnabled)
CHECK(rt12_device_prop, cudaDeviceProp, pciBusID)
CHECK(rt12_device_prop, cudaDeviceProp, pciDeviceID)
CHECK(rt12_device_prop, cudaDeviceProp, pciDomainID)
CHECK(rt12_device_prop, cudaDeviceProp, tccDriver)
CHECK(rt12_device_prop, cudaDeviceProp, asyncEngineCount)
CHECK(rt12_device_prop, cudaDeviceProp, unifiedAddressing)
CHECK(rt12_device_prop, cudaDeviceProp, memoryClockRate)
CHECK(rt12_device_prop, cudaDeviceProp, memoryBusWidth)
CHECK(rt12_device_prop, cudaDeviceProp, l2CacheSize)
CHECK(rt12_device_prop, cudaDeviceProp, persistingL2CacheMaxSize)
CHECK(rt12_device_prop, cudaDeviceProp, maxThreadsPerMultiProcessor)
CHECK(rt12_device_prop, cudaDeviceProp, streamPrioritiesSupported)
CHECK(rt12_device_prop, cudaDeviceProp, globalL1CacheSupported)
CHECK(rt12_device_prop, cudaDeviceProp, localL1CacheSupported)
CHECK(rt12_device_prop, cudaDeviceProp, sharedMemPerMultiprocessor)
CHECK(rt12_device_prop, cudaDeviceProp, regsPerMultiprocessor)
CHECK(rt12_device_prop, cudaDeviceProp, managedMemory)
CHECK(rt12_device_prop, cudaDeviceProp, isMultiGpuBoard)
CHECK(rt12_device_prop, cudaDeviceProp, multiGpuBoardGroupID)
CHECK(rt12_device_prop, cudaDeviceProp, hostNativeAtomicSupported)
CHECK(rt12_device_prop, cudaDeviceProp, singleToDoublePrecisionPerfRatio)
CHECK(rt12_device_prop, cudaDeviceProp, pageableMemoryAccess)
CHECK(rt12_device_prop, cudaDeviceProp, concurrentManagedAccess)
CHECK(rt12_device_prop, cudaDeviceProp, computePreemptionSupported)
CHECK(rt12_device_prop, cudaDeviceProp, canUseHostPointerForRegisteredMem)
CHECK(rt12_device_prop, cudaDeviceProp, cooperativeLaunch)
CHECK(rt12_device_prop, cudaDeviceProp, cooperativeMultiDeviceLaunch)
CHECK(rt12_device_prop, cudaDeviceProp, sharedMemPerBlockOptin)
CHECK(rt12_device_prop, cudaDeviceProp, pageableMemoryAccessUsesHostPageTables)
CHECK(rt12_device_prop, cudaDeviceProp, directManagedMemAccessFromHost)
CHECK(rt12_device_prop, cudaDeviceProp, maxBlocksPerMultiProcessor)
CHECK(rt12_device_prop, cudaDeviceProp, accessPolicyMaxWindowSize)
CHECK(rt12_device_prop, cudaDeviceProp, reservedSharedMemPerBlock)
CHECK(rt12_device_prop, cudaDeviceProp, hostRegisterSupported)
CHECK(rt12_device_prop, cudaDeviceProp, sparseCudaArraySupported)
CHECK(rt12_device_prop, cudaDeviceProp, hostRegisterReadOnlySupported)
CHECK(rt12_device_prop, cudaDeviceProp, timelineSemaphoreInteropSupported)
CHECK(rt12_device_prop, cudaDeviceProp, memoryPoolsSupported)
CHECK(rt12_device_prop, cudaDeviceProp, gpuDirectRDMASupported)
CHECK(rt12_device_prop, cudaDeviceProp, gpuDirectRDMAFlushWritesOptions)
CHECK(rt12_device_prop, cudaDeviceProp, gpuDirectRDMAWritesOrdering)
CHECK(rt12_device_prop, cudaDeviceProp, memoryPoolSupportedHandleTypes)
CHECK(rt12_device_prop, cudaDeviceProp, deferredMappingCudaArraySupported)
CHECK(rt12_device_prop, cudaDeviceProp, ipcEventSupported)
CHECK(rt12_device_prop, cudaDeviceProp, clusterLaunch)
CHECK(rt12_device_prop, cudaDeviceProp, unifiedFunctionPointers)
CHECK(rt12_device_prop, cudaDeviceProp, reserved)

/* rt12_pointer_attributes = 12.9's struct cudaPointerAttributes */
CHECK_SIZE(rt12_pointer_attributes, cudaPointerAttributes)
CHECK(rt12_pointer_attributes, cudaPointerAttributes, type)
CHECK(rt12_pointer_attributes, cudaPointerAttributes, device)
CHECK(rt12_pointer_attributes, cudaPointerAttributes, devicePointer)
CHECK(rt12_pointer_attributes, cudaPointerAttributes, hostPointer)

/* rt12_resource_desc = 12.9's struct cudaResourceDesc */
CHECK_SIZE(rt12_resource_desc, cudaResourceDesc)
CHECK(rt12_resource_desc, cudaResourceDesc, resType)
CHECK(rt12_resource_desc, cudaResourceDesc, res)
CHECK(rt12_resource_desc, cudaResourceDesc, res.array)
CHECK(rt12_resource_desc, cudaResourceDesc, res.array.array)
CHECK(rt12_resource_desc, cudaResourceDesc, res.mipmap)
CHECK(rt12_resource_desc, cudaResourceDesc, res.mipmap.mipmap)
CHECK(rt12_resource_desc, cudaResourceDesc, res.linear)
CHECK(rt12_resource_desc, cudaResourceDesc, res.linear.devPtr)
CHECK(rt12_resource_desc, cudaResourceDesc, res.linear.desc)
CHECK(rt12_resource_desc, cudaResourceDesc, res.linear.sizeInBytes)
CHECK(rt12_resource_desc, cudaResourceDesc, res.pitch2D)
CHECK(rt12_resource_desc, cudaResourceDesc, res.pitch2D.devPtr)
CHECK(rt12_resource_desc, cudaResourceDesc, res.pitch2D.desc)
CHECK(rt12_resource_desc, cudaResourceDesc, res.pitch2D.width)
CHECK(rt12_resource_desc, cudaResourceDesc, res.pitch2D.height)
CHECK(rt12_resource_desc, cudaResourceDesc, res.pitch2D.pitchInBytes)

/* rt12_resource_view_desc = 12.9's struct cudaResourceViewDesc */
CHECK_SIZE(rt12_resource_view_desc, cudaResourceViewDesc)
CHECK(rt12_resource_view_desc, cudaResourceViewDesc, format)
CHECK(rt12_resource_view_desc, cudaResourceViewDesc, width)
CHECK(rt12_resource_view_desc, cudaResourceViewDesc, height)
CHECK(rt12_resource_view_desc, cudaResourceViewDesc, depth)
CHECK(rt12_resource_view_desc, cudaResourceViewDesc, firstMipmapLevel)
CHECK(rt12_resource_view_desc, cudaResourceViewDesc, lastMipmapLevel)
CHECK(rt12_resource_view_desc, cudaResourceViewDesc, firstLayer)
CHECK(rt12_resource_view_desc, cudaResourceViewDesc, lastLayer)

/* rt12_external_memory_handle_desc = 12.9's struct cudaExternalMemoryHandleDesc */
CHECK_SIZE(rt12_external_memory_handle_desc, cudaExternalMemoryHandleDesc)
CHECK(rt12_external_memory_handle_desc, cudaExternalMemoryHandleDesc, type)
CHECK(rt12_external_memory_handle_desc, cudaExternalMemoryHandleDesc, handle)
CHECK(rt12_external_memory_handle_desc, cudaExternalMemoryHandleDesc, handle.fd)
CHECK(rt12_external_memory_handle_desc, cudaExternalMemoryHandleDesc, handle.win32)
CHECK(rt12_external_memory_handle_desc, cudaExternalMemoryHandleDesc, handle.win32.handle)
CHECK(rt12_external_memory_handle_desc, cudaExternalMemoryHandleDesc, handle.win32.name)
CHECK(rt12_external_memory_handle_desc, cudaExternalMemoryHandleDesc, handle.nvSciBufObject)
CHECK(rt12_external_memory_handle_desc, cudaExternalMemoryHandleDesc, size)
CHECK(rt12_external_memory_handle_desc, cudaExternalMemoryHandleDesc, flags)

/* rt12_external_memory_buffer_desc = 12.9's struct cudaExternalMemoryBufferDesc */
CHECK_SIZE(rt12_external_memory_buffer_desc, cudaExternalMemoryBufferDesc)
CHECK(rt12_external_memory_buffer_desc, cudaExternalMemoryBufferDesc, offset)
CHECK(rt12_external_memory_buffer_desc, cudaExternalMemoryBufferDesc, size)
CHECK(rt12_external_memory_buffer_desc, cudaExternalMemoryBufferDesc, flags)

/* rt12_external_memory_mipmapped_array_desc = 12.9's struct cudaExternalMemoryMipmappedArrayDesc */
CHECK_SIZE(rt12_external_memory_mipmapped_array_desc, cudaExternalMemoryMipmappedArrayDesc)
CHECK(rt12_external_memory_mipmapped_array_desc, cudaExternalMemoryMipmappedArrayDesc, offset)
CHECK(rt12_external_memory_mipmapped_array_desc, cudaExternalMemoryMipmappedArrayDesc, formatDesc)
CHECK(rt12_external_memory_mipmapped_array_desc, cudaExternalMemoryMipmappedArrayDesc, extent)
CHECK(rt12_external_memory_mipmapped_array_desc, cudaExternalMemoryMipmappedArrayDesc, flags)
CHECK(rt12_external_memory_mipmapped_array_desc, cudaExternalMemoryMipmappedArrayDesc, numLevels)

/* rt12_external_semaphore_handle_desc = 12.9's struct cudaExternalSemaphoreHandleDesc */
CHECK_SIZE(rt12_external_semaphore_handle_desc, cudaExternalSemaphoreHandleDesc)
CHECK(rt12_external_semaphore_handle_desc, cudaExternalSemaphoreHandleDesc, type)
CHECK(rt12_external_semaphore_handle_desc, cudaExternalSemaphoreHandleDesc, handle)
CHECK(rt12_external_semaphore_handle_desc, cudaExternalSemaphoreHandleDesc, handle.fd)
CHECK(rt12_external_semaphore_handle_desc, cudaExternalSemaphoreHandleDesc, handle.win32)
CHECK(rt12_external_semaphore_handle_desc, cudaExternalSemaphoreHandleDesc, handle.win32.handle)
CHECK(rt12_external_semaphore_handle_desc, cudaExternalSemaphoreHandleDesc, handle.win32.name)
CHECK(rt12_external_semaphore_handle_desc, cudaExternalSemaphoreHandleDesc, handle.nvSciSyncObj)
CHECK(rt12_external_semaphore_handle_desc, cudaExternalSemaphoreHandleDesc, flags)

/* rt12_external_semaphore_signal_params_v1 = 12.9's struct cudaExternalSemaphoreSignalParams_v1 */
CHECK_SIZE(rt12_external_semaphore_signal_params_v1, cudaExternalSemaphoreSignalParams_v1)
CHECK(rt12_external_semaphore_signal_params_v1, cudaExternalSemaphoreSignalParams_v1, params)
CHECK(rt12_external_semaphore_signal_params_v1, cudaExternalSemaphoreSignalParams_v1, params.fence)
CHECK(rt12_external_semaphore_signal_params_v1, cudaExternalSemaphoreSignalParams_v1, params.fence.value)
CHECK(rt12_external_semaphore_signal_params_v1, cudaExternalSemaphoreSignalParams_v1, params.nvSciSync)
CHECK(rt12_external_semaphore_signal_params_v1, cudaExternalSemaphoreSignalParams_v1, params.nvSciSync.fence)
CHECK(rt12_external_semaphore_signal_params_v1, cudaExternalSemaphoreSignalParams_v1, params.nvSciSync.reserved)
CHECK(rt12_external_semaphore_signal_params_v1, cudaExternalSemaphoreSignalParams_v1, params.keyedMutex)
CHECK(rt12_external_semaphore_signal_params_v1, cudaExternalSemaphoreSignalParams_v1, params.keyedMutex.key)
CHECK(rt12_external_semaphore_signal_params_v1, cudaExternalSemaphoreSignalParams_v1, flags)

/* rt12_external_semaphore_wait_params_v1 = 12.9's struct cudaExternalSemaphoreWaitParams_v1 */
CHECK_SIZE(rt12_external_semaphore_wait_params_v1, cudaExternalSemaphoreWaitParams_v1)
CHECK(rt12_external_semaphore_wait_params_v1, cudaExternalSemaphoreWaitParams_v1, params)
CHECK(rt12_external_semaphore_wait_params_v1, cudaExternalSemaphoreWaitParams_v1, params.fence)
CHECK(rt12_external_semaphore_wait_params_v1, cudaExternalSemaphoreWaitParams_v1, params.fence.value)
CHECK(rt12_external_semaphore_wait_params_v1, cudaExternalSemaphoreWaitParams_v1, params.nvSciSync)
CHECK(rt12_external_semaphore_wait_params_v1, cudaExternalSemaphoreWaitParams_v1, params.nvSciSync.fence)
CHECK(rt12_external_semaphore_wait_params_v1, cudaExternalSemaphoreWaitParams_v1, params.nvSciSync.reserved)
CHECK(rt12_external_semaphore_wait_params_v1, cudaExternalSemaphoreWaitParams_v1, params.keyedMutex)
CHECK(rt12_external_semaphore_wait_params_v1, cudaExternalSemaphoreWaitParams_v1, params.keyedMutex.key)
CHECK(rt12_external_semaphore_wait_params_v1, cudaExternalSemaphoreWaitParams_v1, params.keyedMutex.timeoutMs)
CHECK(rt12_external_semaphore_wait_params_v1, cudaExternalSemaphoreWaitParams_v1, flags)

/* rt12_launch_params = 12.9's struct cudaLaunchParams */
CHECK_SIZE(rt12_launch_params, cudaLaunchParams)
CHECK(rt12_launch_params, cudaLaunchParams, func)
CHECK(rt12_launch_params, cudaLaunchParams, gridDim)
CHECK(rt12_launch_params, cudaLaunchParams, blockDim)
CHECK(rt12_launch_params, cudaLaunchParams, args)
CHECK(rt12_launch_params, cudaLaunchParams, sharedMem)
CHECK(rt12_launch_params, cudaLaunchParams, stream)

/* An object file must not be empty (ISO C). */
int layout12_checked(void);
int layout12_checked(void)
{
    return 1;
}
