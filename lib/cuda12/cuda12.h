/*
 * cuda12/cuda12.h - the face of CUDA 12.9's runtime ABI: the whole difference between
 * libcudart.so.12 and libcudart.so.13, in one room.
 *
 * The CUDA 12 build (lib/CMakeLists.txt: libcudart.so.12, libminicudart12.a) is the one runtime
 * compiled again with cuda12/names12.h put first, plus these files.  names12.h gives the bodies
 * that 12.9 names otherwise their 12.9 names; the face defines what 12.9 has and 13 does not:
 *
 *   device12.c     cudaDeviceProp in 12.9's layout (cudaGetDeviceProperties_v2, and the legacy
 *                  plain name), cudaChooseDevice reading it, the cudaThread* and cudaSetDouble*
 *                  functions CUDA 12 still exports
 *   launch12.c     12.9's answer for a host pointer that is no kernel
 *   memory12.c     cudaMemAdvise and cudaMemPrefetchAsync with a device number, the batch copies
 *                  with failIdx, cudaPointerAttributes of 24 bytes, textures' and surfaces'
 *                  resource descriptors of 64 and 48 bytes
 *   graph12.c      graph edges and stream capture without edge data, cudaStreamGetCaptureInfo's
 *                  legacy 3- and 6-argument forms
 *   interop12.c    external memory and semaphore descriptors, the semaphores' _v1 parameter
 *                  arrays, cudaLaunchCooperativeKernelMultiDevice
 *   libcudart12.map  exactly the 435 names NVIDIA's 12.9 library exports, under its version node
 *
 * A face function converts 12.9's arguments and structs, calls the body (by its names12.h name)
 * and converts back; it is a public function like any other: RT_ENTER, RT_RETURN for an error
 * of its own, RT12_RETURN_CALLED (below) for what the body answered.  Registration, loading and
 * the launch path are the same objects in both libraries.  docs/cuda12.md has the story.
 *
 * The face sits above every layer (it may call any room) and no room calls it.
 */
#ifndef MINICUDART_CUDA12_H
#define MINICUDART_CUDA12_H

#if !defined(RT_ABI12)
#error "cuda12/ is compiled only for the CUDA 12 build, with -include cuda12/names12.h"
#endif

#include "graph/graph.h"
#include "interop/graphics.h"
#include "launch/launch.h"
#include "memory/memory.h"
#include "stream/stream.h"
#include "cuda12/abi12.h"

/* The face's return of a result that a public function it called produced (a body, or a
 * cudaDevice* successor): that call recorded its error already (the thread's last error, the
 * summary's count, a trace line), so only this call's clock closes and nothing is counted twice.
 * The body's trace line names the body: in libcudart.so.12 a body renamed rt_v13_* is local, and
 * reads "a runtime call" there; so the face's own name follows in a second line.  An error the
 * face finds itself leaves through RT_RETURN. */
void rt12_trace_called(cudaError_t e);
#define RT12_RETURN_CALLED(e)                                                                     \
    do {                                                                                          \
        cudaError_t rt12_called_ = (e);                                                           \
        if (rt12_called_ != cudaSuccess)                                                          \
            rt12_trace_called(rt12_called_);                                                      \
        rt_call_end();                                                                            \
        return rt12_called_;                                                                      \
    } while (0)

/* The face defines the plain names; from here on a body is called by the name names12.h gave it
 * (cudaMemAdvise_v2, rt_v13_cudaGetDeviceProperties). */
#undef cudaMemAdvise
#undef cudaMemPrefetchAsync
#undef cudaMemPrefetchAsync_ptsz
#undef cudaGraphAddNode
#undef cudaGraphAddDependencies
#undef cudaGraphRemoveDependencies
#undef cudaGraphGetEdges
#undef cudaGraphNodeGetDependencies
#undef cudaGraphNodeGetDependentNodes
#undef cudaStreamUpdateCaptureDependencies
#undef cudaStreamUpdateCaptureDependencies_ptsz
#undef cudaStreamGetCaptureInfo
#undef cudaStreamGetCaptureInfo_ptsz
#undef cudaSignalExternalSemaphoresAsync
#undef cudaSignalExternalSemaphoresAsync_ptsz
#undef cudaWaitExternalSemaphoresAsync
#undef cudaWaitExternalSemaphoresAsync_ptsz
#undef cudaEventElapsedTime
#undef cudaGetDeviceProperties
#undef cudaChooseDevice
#undef cudaPointerGetAttributes
#undef cudaMemcpyBatchAsync
#undef cudaMemcpyBatchAsync_ptsz
#undef cudaMemcpy3DBatchAsync
#undef cudaMemcpy3DBatchAsync_ptsz
#undef __cudaGetKernel
#undef cudaFuncSetCacheConfig
#undef cudaFuncSetSharedMemConfig
#undef cudaCreateTextureObject
#undef cudaCreateSurfaceObject
#undef cudaGetTextureObjectResourceDesc
#undef cudaGetSurfaceObjectResourceDesc
#undef cudaGetTextureObjectResourceViewDesc
#undef cudaImportExternalMemory
#undef cudaExternalMemoryGetMappedBuffer
#undef cudaExternalMemoryGetMappedMipmappedArray
#undef cudaImportExternalSemaphore

/* ---- the public functions of 12.9's ABI that the face defines (their 12.9 prototypes) ------- */

/* device12.c */
RT_API cudaError_t cudaGetDeviceProperties_v2(struct rt12_device_prop *prop, int device);
RT_API cudaError_t cudaGetDeviceProperties(struct rt12_device_prop *prop, int device);
RT_API cudaError_t cudaChooseDevice(int *device, const struct rt12_device_prop *prop);
RT_API cudaError_t cudaThreadExit(void);
RT_API cudaError_t cudaThreadSynchronize(void);
RT_API cudaError_t cudaThreadSetLimit(enum cudaLimit limit, size_t value);
RT_API cudaError_t cudaThreadGetLimit(size_t *pValue, enum cudaLimit limit);
RT_API cudaError_t cudaThreadGetCacheConfig(enum cudaFuncCache *pCacheConfig);
RT_API cudaError_t cudaThreadSetCacheConfig(enum cudaFuncCache cacheConfig);
RT_API cudaError_t cudaSetDoubleForDevice(double *d);
RT_API cudaError_t cudaSetDoubleForHost(double *d);

/* memory12.c */
RT_API cudaError_t cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice,
                                 int device);
RT_API cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, int dstDevice,
                                        cudaStream_t stream);
RT_API cudaError_t cudaMemPrefetchAsync_ptsz(const void *devPtr, size_t count, int dstDevice,
                                             cudaStream_t stream);
RT_API cudaError_t cudaMemcpyBatchAsync(void **dsts, void **srcs, size_t *sizes, size_t count,
                                        struct cudaMemcpyAttributes *attrs, size_t *attrsIdxs,
                                        size_t numAttrs, size_t *failIdx, cudaStream_t stream);
RT_API cudaError_t cudaMemcpyBatchAsync_ptsz(void **dsts, void **srcs, size_t *sizes,
                                             size_t count, struct cudaMemcpyAttributes *attrs,
                                             size_t *attrsIdxs, size_t numAttrs,
                                             size_t *failIdx, cudaStream_t stream);
RT_API cudaError_t cudaMemcpy3DBatchAsync(size_t numOps, struct cudaMemcpy3DBatchOp *opList,
                                          size_t *failIdx, unsigned long long flags,
                                          cudaStream_t stream);
RT_API cudaError_t cudaMemcpy3DBatchAsync_ptsz(size_t numOps, struct cudaMemcpy3DBatchOp *opList,
                                               size_t *failIdx, unsigned long long flags,
                                               cudaStream_t stream);
RT_API cudaError_t cudaPointerGetAttributes(struct rt12_pointer_attributes *attributes,
                                            const void *ptr);
RT_API cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject,
                                           const struct rt12_resource_desc *pResDesc,
                                           const struct cudaTextureDesc *pTexDesc,
                                           const struct rt12_resource_view_desc *pResViewDesc);
RT_API cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject,
                                           const struct rt12_resource_desc *pResDesc);
RT_API cudaError_t cudaGetTextureObjectResourceDesc(struct rt12_resource_desc *pResDesc,
                                                    cudaTextureObject_t texObject);
RT_API cudaError_t cudaGetSurfaceObjectResourceDesc(struct rt12_resource_desc *pResDesc,
                                                    cudaSurfaceObject_t surfObject);
RT_API cudaError_t cudaGetTextureObjectResourceViewDesc(
    struct rt12_resource_view_desc *pResViewDesc, cudaTextureObject_t texObject);

/* launch12.c */
RT_API cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *hostFun);
RT_API cudaError_t cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache cacheConfig);
RT_API cudaError_t cudaFuncSetSharedMemConfig(const void *func, enum cudaSharedMemConfig config);

/* graph12.c */
RT_API cudaError_t cudaGraphAddNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                    const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                    struct cudaGraphNodeParams *nodeParams);
RT_API cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                            const cudaGraphNode_t *to, size_t numDependencies);
RT_API cudaError_t cudaGraphRemoveDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                               const cudaGraphNode_t *to, size_t numDependencies);
RT_API cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to,
                                     size_t *numEdges);
RT_API cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node,
                                                cudaGraphNode_t *pDependencies,
                                                size_t *pNumDependencies);
RT_API cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t node,
                                                  cudaGraphNode_t *pDependentNodes,
                                                  size_t *pNumDependentNodes);
RT_API cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t stream,
                                                       cudaGraphNode_t *dependencies,
                                                       size_t numDependencies, unsigned int flags);
RT_API cudaError_t cudaStreamUpdateCaptureDependencies_ptsz(cudaStream_t stream,
                                                            cudaGraphNode_t *dependencies,
                                                            size_t numDependencies,
                                                            unsigned int flags);
RT_API cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream,
                                            enum cudaStreamCaptureStatus *captureStatus_out,
                                            unsigned long long *id_out);
RT_API cudaError_t cudaStreamGetCaptureInfo_ptsz(cudaStream_t stream,
                                                 enum cudaStreamCaptureStatus *captureStatus_out,
                                                 unsigned long long *id_out);
RT_API cudaError_t cudaStreamGetCaptureInfo_v2(cudaStream_t stream,
                                               enum cudaStreamCaptureStatus *captureStatus_out,
                                               unsigned long long *id_out, cudaGraph_t *graph_out,
                                               const cudaGraphNode_t **dependencies_out,
                                               size_t *numDependencies_out);
RT_API cudaError_t cudaStreamGetCaptureInfo_v2_ptsz(
    cudaStream_t stream, enum cudaStreamCaptureStatus *captureStatus_out,
    unsigned long long *id_out, cudaGraph_t *graph_out, const cudaGraphNode_t **dependencies_out,
    size_t *numDependencies_out);
RT_API cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);

/* interop12.c */
RT_API cudaError_t cudaImportExternalMemory(
    cudaExternalMemory_t *extMem_out, const struct rt12_external_memory_handle_desc *memHandleDesc);
RT_API cudaError_t cudaExternalMemoryGetMappedBuffer(
    void **devPtr, cudaExternalMemory_t extMem,
    const struct rt12_external_memory_buffer_desc *bufferDesc);
RT_API cudaError_t cudaExternalMemoryGetMappedMipmappedArray(
    cudaMipmappedArray_t *mipmap, cudaExternalMemory_t extMem,
    const struct rt12_external_memory_mipmapped_array_desc *mipmapDesc);
RT_API cudaError_t cudaImportExternalSemaphore(
    cudaExternalSemaphore_t *extSem_out,
    const struct rt12_external_semaphore_handle_desc *semHandleDesc);
RT_API cudaError_t cudaSignalExternalSemaphoresAsync(
    const cudaExternalSemaphore_t *extSemArray,
    const struct rt12_external_semaphore_signal_params_v1 *paramsArray, unsigned int numExtSems,
    cudaStream_t stream);
RT_API cudaError_t cudaSignalExternalSemaphoresAsync_ptsz(
    const cudaExternalSemaphore_t *extSemArray,
    const struct rt12_external_semaphore_signal_params_v1 *paramsArray, unsigned int numExtSems,
    cudaStream_t stream);
RT_API cudaError_t cudaWaitExternalSemaphoresAsync(
    const cudaExternalSemaphore_t *extSemArray,
    const struct rt12_external_semaphore_wait_params_v1 *paramsArray, unsigned int numExtSems,
    cudaStream_t stream);
RT_API cudaError_t cudaWaitExternalSemaphoresAsync_ptsz(
    const cudaExternalSemaphore_t *extSemArray,
    const struct rt12_external_semaphore_wait_params_v1 *paramsArray, unsigned int numExtSems,
    cudaStream_t stream);
RT_API cudaError_t cudaLaunchCooperativeKernelMultiDevice(
    struct rt12_launch_params *launchParamsList, unsigned int numDevices, unsigned int flags);

#endif
