/*
 * ptsz12.h - calls made from a translation unit built for the per-thread default stream
 * (ptsz12.c: CUDA_API_PER_THREAD_DEFAULT_STREAM, what nvcc --default-stream per-thread defines),
 * where 12.9's header sends each to its _ptsz export.  Stream 0 there is the per-thread stream,
 * which reaches the driver as CU_STREAM_PER_THREAD (0x2).
 */
#ifndef MINICUDART_CUDA12_PTSZ12_H
#define MINICUDART_CUDA12_PTSZ12_H

#include <cuda_runtime_api.h>

/* cudaMemPrefetchAsync -> cudaMemPrefetchAsync_ptsz (a device number) */
cudaError_t ptsz_mem_prefetch(const void *p, size_t count, int device, cudaStream_t stream);
/* cudaMemPrefetchAsync_v2 -> cudaMemPrefetchAsync_v2_ptsz (a location) */
cudaError_t ptsz_mem_prefetch_v2(const void *p, size_t count, struct cudaMemLocation location,
                                 unsigned flags, cudaStream_t stream);
/* cudaMemcpyBatchAsync -> cudaMemcpyBatchAsync_ptsz (with failIdx) */
cudaError_t ptsz_memcpy_batch(void **dsts, void **srcs, size_t *sizes, size_t count,
                              struct cudaMemcpyAttributes *attrs, size_t *attrsIdxs,
                              size_t numAttrs, size_t *failIdx, cudaStream_t stream);
/* cudaMemcpy3DBatchAsync -> cudaMemcpy3DBatchAsync_ptsz (with failIdx) */
cudaError_t ptsz_memcpy_3d_batch(size_t numOps, struct cudaMemcpy3DBatchOp *ops,
                                 size_t *failIdx, unsigned long long flags, cudaStream_t stream);
/* cudaStreamBeginCapture, cudaStreamEndCapture -> their _ptsz */
cudaError_t ptsz_begin_capture(cudaStream_t stream, enum cudaStreamCaptureMode mode);
cudaError_t ptsz_end_capture(cudaStream_t stream, cudaGraph_t *graph);
/* cudaStreamGetCaptureInfo -> cudaStreamGetCaptureInfo_v2_ptsz (6 arguments) */
cudaError_t ptsz_get_capture_info(cudaStream_t stream, enum cudaStreamCaptureStatus *status,
                                  unsigned long long *id, cudaGraph_t *graph,
                                  const cudaGraphNode_t **deps, size_t *count);
/* cudaStreamUpdateCaptureDependencies -> cudaStreamUpdateCaptureDependencies_ptsz (no edge
 * data), and _v2 -> cudaStreamUpdateCaptureDependencies_v2_ptsz */
cudaError_t ptsz_update_capture_dependencies(cudaStream_t stream, cudaGraphNode_t *deps,
                                             size_t count, unsigned flags);
cudaError_t ptsz_update_capture_dependencies_v2(cudaStream_t stream, cudaGraphNode_t *deps,
                                                const cudaGraphEdgeData *edges, size_t count,
                                                unsigned flags);
/* cudaSignal/WaitExternalSemaphoresAsync -> cudaSignal/WaitExternalSemaphoresAsync_v2_ptsz */
cudaError_t ptsz_signal_semaphores(const cudaExternalSemaphore_t *sems,
                                   const struct cudaExternalSemaphoreSignalParams *params,
                                   unsigned count, cudaStream_t stream);
cudaError_t ptsz_wait_semaphores(const cudaExternalSemaphore_t *sems,
                                 const struct cudaExternalSemaphoreWaitParams *params,
                                 unsigned count, cudaStream_t stream);

#endif
