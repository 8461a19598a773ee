/*
 * cuda12/abi12.h - the structs whose CUDA 12.9 layout differs from 13's, as 12.9 lays them out.
 *
 * A CUDA 12 program hands libcudart.so.12 these structs, or a buffer of their size to fill.  The
 * runtime's bodies know only the 13 layouts (the headers they are compiled with), so the face
 * (cuda12/) converts between the two through these declarations.  They use only types whose
 * layout is the same in 12.9 and 13 (cudaUUID_t, the enums, cudaChannelFormatDesc, cudaExtent,
 * the handles), so tests/cuda12/layout12.c compiles this header against NVIDIA's 12.9
 * driver_types.h and checks every member's offset and size, and each struct's size, against it.
 *
 * All but rt12_device_prop and the semaphores' _v1 parameters are a prefix of their 13 twin: 13
 * only appended reserved words (or, for cudaResourceDesc, grew the union and appended a flags
 * word), so the face copies the 12.9 bytes into a zeroed 13 struct, or the first bytes of a 13
 * struct out.  rt12_device_prop lost 8 fields in 13 and the later ones moved: it is copied
 * field by field (cuda12/device12.c).
 */
#ifndef MINICUDART_CUDA12_ABI12_H
#define MINICUDART_CUDA12_ABI12_H

#include <stddef.h>

/* cudaDeviceProp, 1032 bytes.  NVIDIA's cudaGetDeviceProperties_v2 writes its first 780 bytes
 * (to unifiedFunctionPointers), the legacy plain-named export its first 728 (CUDA 11's struct,
 * to reservedSharedMemPerBlock); neither touches `reserved`. */
struct rt12_device_prop {
    char name[256];
    cudaUUID_t uuid;
    char luid[8];
    unsigned int luidDeviceNodeMask;
    size_t totalGlobalMem;
    size_t sharedMemPerBlock;
    int regsPerBlock;
    int warpSize;
    size_t memPitch;
    int maxThreadsPerBlock;
    int maxThreadsDim[3];
    int maxGridSize[3];
    int clockRate;                              /* gone in 13 */
    size_t totalConstMem;
    int major;
    int minor;
    size_t textureAlignment;
    size_t texturePitchAlignment;
    int deviceOverlap;                          /* gone in 13 */
    int multiProcessorCount;
    int kernelExecTimeoutEnabled;               /* gone in 13 */
    int integrated;
    int canMapHostMemory;
    int computeMode;                            /* gone in 13 */
    int maxTexture1D;
    int maxTexture1DMipmap;
    int maxTexture1DLinear;                     /* gone in 13 */
    int maxTexture2D[2];
    int maxTexture2DMipmap[2];
    int maxTexture2DLinear[3];
    int maxTexture2DGather[2];
    int maxTexture3D[3];
    int maxTexture3DAlt[3];
    int maxTextureCubemap;
    int maxTexture1DLayered[2];
    int maxTexture2DLayered[3];
    int maxTextureCubemapLayered[2];
    int maxSurface1D;
    int maxSurface2D[2];
    int maxSurface3D[3];
    int maxSurface1DLayered[2];
    int maxSurface2DLayered[3];
    int maxSurfaceCubemap;
    int maxSurfaceCubemapLayered[2];
    size_t surfaceAlignment;
    int concurrentKernels;
    int ECCEnabled;
    int pciBusID;
    int pciDeviceID;
    int pciDomainID;
    int tccDriver;
    int asyncEngineCount;
    int unifiedAddressing;
    int memoryClockRate;                        /* gone in 13 */
    int memoryBusWidth;
    int l2CacheSize;
    int persistingL2CacheMaxSize;
    int maxThreadsPerMultiProcessor;
    int streamPrioritiesSupported;
    int globalL1CacheSupported;
    int localL1CacheSupported;
    size_t sharedMemPerMultiprocessor;
    int regsPerMultiprocessor;
    int managedMemory;
    int isMultiGpuBoard;
    int multiGpuBoardGroupID;
    int hostNativeAtomicSupported;
    int singleToDoublePrecisionPerfRatio;       /* gone in 13 */
    int pageableMemoryAccess;
    int concurrentManagedAccess;
    int computePreemptionSupported;
    int canUseHostPointerForRegisteredMem;
    int cooperativeLaunch;
    int cooperativeMultiDeviceLaunch;           /* gone in 13 */
    size_t sharedMemPerBlockOptin;
    int pageableMemoryAccessUsesHostPageTables;
    int directManagedMemAccessFromHost;
    int maxBlocksPerMultiProcessor;
    int accessPolicyMaxWindowSize;
    size_t reservedSharedMemPerBlock;
    int hostRegisterSupported;
    int sparseCudaArraySupported;
    int hostRegisterReadOnlySupported;
    int timelineSemaphoreInteropSupported;
    int memoryPoolsSupported;
    int gpuDirectRDMASupported;
    unsigned int gpuDirectRDMAFlushWritesOptions;
    int gpuDirectRDMAWritesOrdering;
    unsigned int memoryPoolSupportedHandleTypes;
    int deferredMappingCudaArraySupported;
    int ipcEventSupported;
    int clusterLaunch;
    int unifiedFunctionPointers;
    int reserved[63];
};
/* The bytes NVIDIA's two 12.9 entry points write (read from its code, and counted on the H200:
 * tests/gpu/conf_cuda12.cu). */
#define RT12_DEVICE_PROP_V2_BYTES offsetof(struct rt12_device_prop, reserved)   /* 780 */
#define RT12_DEVICE_PROP_V1_BYTES offsetof(struct rt12_device_prop, hostRegisterSupported) /* 728 */

/* cudaPointerAttributes, 24 bytes: 13 appended `long reserved[8]`. */
struct rt12_pointer_attributes {
    enum cudaMemoryType type;
    int device;
    void *devicePointer;
    void *hostPointer;
};

/* cudaResourceDesc, 64 bytes: 13 grew the union to 128 bytes and appended `unsigned flags`. */
struct rt12_resource_desc {
    enum cudaResourceType resType;
    union {
        struct {
            cudaArray_t array;
        } array;
        struct {
            cudaMipmappedArray_t mipmap;
        } mipmap;
        struct {
            void *devPtr;
            struct cudaChannelFormatDesc desc;
            size_t sizeInBytes;
        } linear;
        struct {
            void *devPtr;
            struct cudaChannelFormatDesc desc;
            size_t width;
            size_t height;
            size_t pitchInBytes;
        } pitch2D;
    } res;
};

/* cudaResourceViewDesc, 48 bytes: 13 appended `unsigned reserved[16]`. */
struct rt12_resource_view_desc {
    enum cudaResourceViewFormat format;
    size_t width;
    size_t height;
    size_t depth;
    unsigned int firstMipmapLevel;
    unsigned int lastMipmapLevel;
    unsigned int firstLayer;
    unsigned int lastLayer;
};

/* cudaExternalMemoryHandleDesc, 40 bytes: 13 put `unsigned reserved[16]` after flags. */
struct rt12_external_memory_handle_desc {
    enum cudaExternalMemoryHandleType type;
    union {
        int fd;
        struct {
            void *handle;
            const void *name;
        } win32;
        const void *nvSciBufObject;
    } handle;
    unsigned long long size;
    unsigned int flags;
};

/* cudaExternalMemoryBufferDesc, 24 bytes (13: reserved[16] after flags). */
struct rt12_external_memory_buffer_desc {
    unsigned long long offset;
    unsigned long long size;
    unsigned int flags;
};

/* cudaExternalMemoryMipmappedArrayDesc, 64 bytes (13: reserved[16] after numLevels). */
struct rt12_external_memory_mipmapped_array_desc {
    unsigned long long offset;
    struct cudaChannelFormatDesc formatDesc;
    struct cudaExtent extent;
    unsigned int flags;
    unsigned int numLevels;
};

/* cudaExternalSemaphoreHandleDesc, 32 bytes (13: reserved[16] after flags). */
struct rt12_external_semaphore_handle_desc {
    enum cudaExternalSemaphoreHandleType type;
    union {
        int fd;
        struct {
            void *handle;
            const void *name;
        } win32;
        const void *nvSciSyncObj;
    } handle;
    unsigned int flags;
};

/* cudaExternalSemaphoreSignalParams_v1 (32 bytes) and ..WaitParams_v1 (40): what the legacy
 * plain-named cudaSignal/WaitExternalSemaphoresAsync of 12.9 take, an array of them.  13's
 * params (144 bytes) begin with the same members and then have reserved words. */
struct rt12_external_semaphore_signal_params_v1 {
    struct {
        struct {
            unsigned long long value;
        } fence;
        union {
            void *fence;
            unsigned long long reserved;
        } nvSciSync;
        struct {
            unsigned long long key;
        } keyedMutex;
    } params;
    unsigned int flags;
};
struct rt12_external_semaphore_wait_params_v1 {
    struct {
        struct {
            unsigned long long value;
        } fence;
        union {
            void *fence;
            unsigned long long reserved;
        } nvSciSync;
        struct {
            unsigned long long key;
            unsigned int timeoutMs;
        } keyedMutex;
    } params;
    unsigned int flags;
};

/* cudaLaunchParams, 56 bytes: one device's launch of cudaLaunchCooperativeKernelMultiDevice
 * (12-only).  The same layout as the driver's CUDA_LAUNCH_PARAMS but for func, a host stub. */
struct rt12_launch_params {
    void *func;
    dim3 gridDim;
    dim3 blockDim;
    void **args;
    size_t sharedMem;
    cudaStream_t stream;
};

#endif
