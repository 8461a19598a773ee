/*
 * stream.h - what stream.c and event.c share, and the prototypes of their _ptsz entry points
 * (the toolkit declares those only under CUDA_API_PER_THREAD_DEFAULT_STREAM).
 *
 * Streams and events are the driver's own handles: cudaStream_t is CUstream and cudaEvent_t is
 * CUevent, never wrapped, so a stream made here can be handed to cuBLAS or to driver-API code.
 * 0, cudaStreamLegacy (0x1) and cudaStreamPerThread (0x2) reach the driver unchanged; in a _ptsz
 * entry point 0 becomes CU_STREAM_PER_THREAD (rt_stream in core/core.h).
 */
#ifndef MINICUDART_STREAM_H
#define MINICUDART_STREAM_H

#include "device/device.h"

/*
 * The exit of the query functions (cudaStreamQuery, cudaEventQuery, cudaEventElapsedTime).
 * cudaErrorNotReady is an answer, not a failure: measured on an H200 with NVIDIA's runtime,
 * cudaStreamQuery / cudaEventQuery on busy work return it and leave the thread's last error at
 * cudaSuccess (SEMANTICS.md section 0).  Every other code leaves through rt_exit as usual.
 */
RT_INLINE cudaError_t rt_exit_query(cudaError_t e)
{
    if (e == cudaErrorNotReady) {
        RT_TRACE_LAZY("%s: not ready (not stored as the last error)", rt_call_name());
        rt_call_end();
        return e;
    }
    return rt_exit(e);
}
#define RT_RETURN_QUERY(e) return rt_exit_query(e)

/* ---- the per-thread-default-stream variants (PROTOCOL.md section 3.6) ------------------------ */

RT_API cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t stream);
RT_API cudaError_t cudaStreamQuery_ptsz(cudaStream_t stream);
RT_API cudaError_t cudaStreamWaitEvent_ptsz(cudaStream_t stream, cudaEvent_t event,
                                            unsigned int flags);
RT_API cudaError_t cudaStreamAddCallback_ptsz(cudaStream_t stream,
                                              cudaStreamCallback_t callback, void *userData,
                                              unsigned int flags);
RT_API cudaError_t cudaLaunchHostFunc_ptsz(cudaStream_t stream, cudaHostFn_t fn, void *userData);
RT_API cudaError_t cudaStreamGetFlags_ptsz(cudaStream_t hStream, unsigned int *flags);
RT_API cudaError_t cudaStreamGetPriority_ptsz(cudaStream_t hStream, int *priority);
RT_API cudaError_t cudaStreamGetDevice_ptsz(cudaStream_t hStream, int *device);
RT_API cudaError_t cudaStreamGetId_ptsz(cudaStream_t hStream, unsigned long long *streamId);
RT_API cudaError_t cudaStreamSetAttribute_ptsz(cudaStream_t stream, cudaStreamAttrID attr,
                                               const cudaStreamAttrValue *value);
RT_API cudaError_t cudaStreamGetAttribute_ptsz(cudaStream_t stream, cudaStreamAttrID attr,
                                               cudaStreamAttrValue *value);
RT_API cudaError_t cudaStreamCopyAttributes_ptsz(cudaStream_t dst, cudaStream_t src);
RT_API cudaError_t cudaEventRecord_ptsz(cudaEvent_t event, cudaStream_t stream);
RT_API cudaError_t cudaEventRecordWithFlags_ptsz(cudaEvent_t event, cudaStream_t stream,
                                                 unsigned int flags);

#endif
