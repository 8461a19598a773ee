/*
 * graph_capture.c - stream capture: a stream whose work becomes the nodes of a graph.
 *
 * Capture is the driver's: a kernel launched with <<<>>> into a capturing stream reaches
 * cuLaunchKernel, and the driver records it instead of running it; so do copies, sets, host
 * functions, event records and waits (which fork and join other streams into the capture) and
 * stream-ordered allocations (which become memory nodes).  The graph being built is an ordinary
 * graph: cudaStreamGetCaptureInfo hands it out, and the topology queries of graph.c work on it
 * while the capture goes on (PyTorch's caching allocator walks it to decide which blocks a
 * later node may reuse).  Capture modes and the capture status are the driver's enums.
 *
 * In the _ptsz variants stream 0 means the thread's per-thread stream.
 */
#include "graph/graph.h"

_Static_assert((int)cudaStreamCaptureModeRelaxed == (int)CU_STREAM_CAPTURE_MODE_RELAXED,
               "capture modes differ");
_Static_assert((int)cudaStreamCaptureStatusInvalidated == (int)CU_STREAM_CAPTURE_STATUS_INVALIDATED,
               "capture statuses differ");
_Static_assert(sizeof(cudaGraphEdgeData) == sizeof(CUgraphEdgeData), "edge data differs");

static cudaError_t rt_begin_capture(cudaStream_t stream, enum cudaStreamCaptureMode mode,
                                    bool per_thread)
{
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        return e;
    return rt_driver_result(d, rt_drv.cuStreamBeginCapture(rt_stream(stream, per_thread),
                                                          (CUstreamCaptureMode)mode));
}

RT_API cudaError_t cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode)
{
    RT_ENTER();
    RT_RETURN(rt_begin_capture(stream, mode, false));
}

RT_API cudaError_t cudaStreamBeginCapture_ptsz(cudaStream_t stream,
                                               enum cudaStreamCaptureMode mode)
{
    RT_ENTER();
    RT_RETURN(rt_begin_capture(stream, mode, true));
}

static cudaError_t rt_begin_capture_to_graph(cudaStream_t stream, cudaGraph_t graph,
                                             const cudaGraphNode_t *dependencies,
                                             const cudaGraphEdgeData *dependencyData,
                                             size_t numDependencies,
                                             enum cudaStreamCaptureMode mode, bool per_thread)
{
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        return e;
    return rt_driver_result(d, rt_drv.cuStreamBeginCaptureToGraph(
                                  rt_stream(stream, per_thread), graph, dependencies,
                                  (const CUgraphEdgeData *)dependencyData, numDependencies,
                                  (CUstreamCaptureMode)mode));
}

RT_API cudaError_t cudaStreamBeginCaptureToGraph(cudaStream_t stream, cudaGraph_t graph,
                                                 const cudaGraphNode_t *dependencies,
                                                 const cudaGraphEdgeData *dependencyData,
                                                 size_t numDependencies,
                                                 enum cudaStreamCaptureMode mode)
{
    RT_ENTER();
    RT_RETURN(rt_begin_capture_to_graph(stream, graph, dependencies, dependencyData,
                                        numDependencies, mode, false));
}

RT_API cudaError_t cudaStreamBeginCaptureToGraph_ptsz(cudaStream_t stream, cudaGraph_t graph,
                                                      const cudaGraphNode_t *dependencies,
                                                      const cudaGraphEdgeData *dependencyData,
                                                      size_t numDependencies,
                                                      enum cudaStreamCaptureMode mode)
{
    RT_ENTER();
    RT_RETURN(rt_begin_capture_to_graph(stream, graph, dependencies, dependencyData,
                                        numDependencies, mode, true));
}

/* Without pGraph the capture still ends and the graph is dropped: NVIDIA's runtime succeeds
 * there (H200). */
static cudaError_t rt_end_capture(cudaStream_t stream, cudaGraph_t *pGraph, bool per_thread)
{
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        return e;
    CUgraph dropped = NULL;
    CUstream s = rt_stream(stream, per_thread);
    e = rt_driver_result(d, rt_drv.cuStreamEndCapture(s, pGraph ? pGraph : &dropped));
    rt_recapture_end(s);          /* its callback is no longer called */
    if (dropped)
        rt_drv.cuGraphDestroy(dropped);
    return e;
}

RT_API cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *pGraph)
{
    RT_ENTER();
    RT_RETURN(rt_end_capture(stream, pGraph, false));
}

RT_API cudaError_t cudaStreamEndCapture_ptsz(cudaStream_t stream, cudaGraph_t *pGraph)
{
    RT_ENTER();
    RT_RETURN(rt_end_capture(stream, pGraph, true));
}

static cudaError_t rt_is_capturing(cudaStream_t stream, enum cudaStreamCaptureStatus *status,
                                   bool per_thread)
{
    if (!status)
        return cudaErrorInvalidValue;
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        return e;
    CUstreamCaptureStatus cu_status = CU_STREAM_CAPTURE_STATUS_NONE;
    e = rt_driver_result(d, rt_drv.cuStreamIsCapturing(rt_stream(stream, per_thread),
                                                       &cu_status));
    if (e == cudaSuccess)
        *status = (enum cudaStreamCaptureStatus)cu_status;
    return e;
}

RT_API cudaError_t cudaStreamIsCapturing(cudaStream_t stream,
                                         enum cudaStreamCaptureStatus *pCaptureStatus)
{
    RT_ENTER();
    RT_RETURN(rt_is_capturing(stream, pCaptureStatus, false));
}

RT_API cudaError_t cudaStreamIsCapturing_ptsz(cudaStream_t stream,
                                              enum cudaStreamCaptureStatus *pCaptureStatus)
{
    RT_ENTER();
    RT_RETURN(rt_is_capturing(stream, pCaptureStatus, true));
}

/* The 13.0 form, with edge data: the driver's cuStreamGetCaptureInfo of 12.3. */
static cudaError_t rt_get_capture_info(cudaStream_t stream,
                                       enum cudaStreamCaptureStatus *status_out,
                                       unsigned long long *id_out, cudaGraph_t *graph_out,
                                       const cudaGraphNode_t **dependencies_out,
                                       const cudaGraphEdgeData **edge_data_out,
                                       size_t *count_out, bool per_thread)
{
    if (!status_out)
        return cudaErrorInvalidValue;
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        return e;
    CUstreamCaptureStatus cu_status = CU_STREAM_CAPTURE_STATUS_NONE;
    cuuint64_t id = 0;
    e = rt_driver_result(d, rt_drv.cuStreamGetCaptureInfo(
                               rt_stream(stream, per_thread), &cu_status, id_out ? &id : NULL,
                               graph_out, dependencies_out,
                               (const CUgraphEdgeData **)edge_data_out, count_out));
    if (e == cudaSuccess) {
        *status_out = (enum cudaStreamCaptureStatus)cu_status;
        if (id_out)
            *id_out = (unsigned long long)id;
    }
    return e;
}

RT_API cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream,
                                            enum cudaStreamCaptureStatus *captureStatus_out,
                                            unsigned long long *id_out, cudaGraph_t *graph_out,
                                            const cudaGraphNode_t **dependencies_out,
                                            const cudaGraphEdgeData **edgeData_out,
                                            size_t *numDependencies_out)
{
    RT_ENTER();
    RT_RETURN(rt_get_capture_info(stream, captureStatus_out, id_out, graph_out,
                                  dependencies_out, edgeData_out, numDependencies_out, false));
}

RT_API cudaError_t cudaStreamGetCaptureInfo_ptsz(cudaStream_t stream,
                                                 enum cudaStreamCaptureStatus *captureStatus_out,
                                                 unsigned long long *id_out,
                                                 cudaGraph_t *graph_out,
                                                 const cudaGraphNode_t **dependencies_out,
                                                 const cudaGraphEdgeData **edgeData_out,
                                                 size_t *numDependencies_out)
{
    RT_ENTER();
    RT_RETURN(rt_get_capture_info(stream, captureStatus_out, id_out, graph_out,
                                  dependencies_out, edgeData_out, numDependencies_out, true));
}

static cudaError_t rt_update_capture_deps(cudaStream_t stream, cudaGraphNode_t *dependencies,
                                          const cudaGraphEdgeData *dependencyData,
                                          size_t numDependencies, unsigned flags,
                                          bool per_thread)
{
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        return e;
    return rt_driver_result(d, rt_drv.cuStreamUpdateCaptureDependencies(
                                  rt_stream(stream, per_thread), dependencies,
                                  (const CUgraphEdgeData *)dependencyData, numDependencies,
                                  flags));
}

RT_API cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t stream,
                                                       cudaGraphNode_t *dependencies,
                                                       const cudaGraphEdgeData *dependencyData,
                                                       size_t numDependencies,
                                                       unsigned int flags)
{
    RT_ENTER();
    RT_RETURN(rt_update_capture_deps(stream, dependencies, dependencyData, numDependencies,
                                     flags, false));
}

RT_API cudaError_t cudaStreamUpdateCaptureDependencies_ptsz(cudaStream_t stream,
                                                            cudaGraphNode_t *dependencies,
                                                            const cudaGraphEdgeData *dependencyData,
                                                            size_t numDependencies,
                                                            unsigned int flags)
{
    RT_ENTER();
    RT_RETURN(rt_update_capture_deps(stream, dependencies, dependencyData, numDependencies,
                                     flags, true));
}

RT_API cudaError_t cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode *mode)
{
    RT_ENTER();
    if (!mode)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    CUstreamCaptureMode cu_mode = (CUstreamCaptureMode)*mode;
    cudaError_t e = rt_driver_result(d, rt_drv.cuThreadExchangeStreamCaptureMode(&cu_mode));
    if (e == cudaSuccess)
        *mode = (enum cudaStreamCaptureMode)cu_mode;
    RT_RETURN(e);
}
