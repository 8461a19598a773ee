/* ptsz12.c - see ptsz12.h: a translation unit of a CUDA 12 program built for the per-thread
 * default stream, whose calls 12.9's header renames to the _ptsz exports. */
#define CUDA_API_PER_THREAD_DEFAULT_STREAM 1
#include "ptsz12.h"

/* The renames this file relies on, as 12.9's cuda_runtime_api.h makes them. */
#if !defined(cudaMemPrefetchAsync) || !defined(cudaMemcpyBatchAsync) ||                     \
    !defined(cudaStreamGetCaptureInfo) || !defined(cudaStreamUpdateCaptureDependencies_v2)
#error "12.9's header renames these calls for the per-thread default stream"
#endif

cudaError_t ptsz_mem_prefetch(const void *p, size_t count, int device, cudaStream_t stream)
{
    return cudaMemPrefetchAsync(p, count, device, stream);
}

cudaError_t ptsz_mem_prefetch_v2(const void *p, size_t count, struct cudaMemLocation location,
                                 unsigned flags, cudaStream_t stream)
{
    return cudaMemPrefetchAsync_v2(p, count, location, flags, stream);
}

cudaError_t ptsz_memcpy_batch(void **dsts, void **srcs, size_t *sizes, size_t count,
                              struct cudaMemcpyAttributes *attrs, size_t *attrsIdxs,
                              size_t numAttrs, size_t *failIdx, cudaStream_t stream)
{
    return cudaMemcpyBatchAsync(dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, failIdx,
                                stream);
}

cudaError_t ptsz_memcpy_3d_batch(size_t numOps, struct cudaMemcpy3DBatchOp *ops,
                                 size_t *failIdx, unsigned long long flags, cudaStream_t stream)
{
    return cudaMemcpy3DBatchAsync(numOps, ops, failIdx, flags, stream);
}

cudaError_t ptsz_begin_capture(cudaStream_t stream, enum cudaStreamCaptureMode mode)
{
    return cudaStreamBeginCapture(stream, mode);
}

cudaError_t ptsz_end_capture(cudaStream_t stream, cudaGraph_t *graph)
{
    return cudaStreamEndCapture(stream, graph);
}

cudaError_t ptsz_get_capture_info(cudaStream_t stream, enum cudaStreamCaptureStatus *status,
                                  unsigned long long *id, cudaGraph_t *graph,
                                  const cudaGraphNode_t **deps, size_t *count)
{
    return cudaStreamGetCaptureInfo(stream, status, id, graph, deps, count);
}

cudaError_t ptsz_update_capture_dependencies(cudaStream_t stream, cudaGraphNode_t *deps,
                                             size_t count, unsigned flags)
{
    return cudaStreamUpdateCaptureDependencies(stream, deps, count, flags);
}

cudaError_t ptsz_update_capture_dependencies_v2(cudaStream_t stream, cudaGraphNode_t *deps,
                                                const cudaGraphEdgeData *edges, size_t count,
                                                unsigned flags)
{
    return cudaStreamUpdateCaptureDependencies_v2(stream, deps, edges, count, flags);
}

cudaError_t ptsz_signal_semaphores(const cudaExternalSemaphore_t *sems,
                                   const struct cudaExternalSemaphoreSignalParams *params,
                                   unsigned count, cudaStream_t stream)
{
    return cudaSignalExternalSemaphoresAsync(sems, params, count, stream);
}

cudaError_t ptsz_wait_semaphores(const cudaExternalSemaphore_t *sems,
                                 const struct cudaExternalSemaphoreWaitParams *params,
                                 unsigned count, cudaStream_t stream)
{
    return cudaWaitExternalSemaphoresAsync(sems, params, count, stream);
}
