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
 * A capture also guards against calls that would make a wrong graph.  A cudaMalloc, for one, is
 * not stream-ordered, so the capture does not see it, and a graph that needs the allocation made
 * anew at every launch would not get it.  Where such "potentially unsafe" calls are refused is
 * the driver's rule, from two modes: the mode a capture begins with, and the calling thread's
 * own (cudaThreadExchangeStreamCaptureMode; global unless changed).  A thread in global mode is
 * refused them while it has a capture of its own that was not begun relaxed, or while any thread
 * has a global capture going; in thread-local mode only in the first case; in relaxed mode never
 * (calls that truly conflict with a capture, such as querying an event recorded in it, still
 * fail).  A capture not begun relaxed must end on the thread that began it, or the end answers
 * cudaErrorStreamCaptureWrongThread.  Measured on the H200 (tests/gpu/fault_capture.cu, results
 * in docs/reliability.md): cudaMalloc in a global capture and cudaStreamSynchronize of the
 * capturing stream both answer cudaErrorStreamCaptureUnsupported and invalidate the capture,
 * whose end then answers cudaErrorStreamCaptureInvalidated with no graph; cudaMalloc in relaxed
 * mode is allowed, and so, on driver 580, is a synchronous cudaMemcpy in global mode.
 *
 * The legacy stream cannot be captured, and in a plain entry point stream 0 is that stream.  In
 * the _ptsz variants stream 0 means the thread's per-thread stream, which can be: nvcc's
 * --default-stream per-thread defines CUDA_API_PER_THREAD_DEFAULT_STREAM, under which the
 * toolkit's header renames these calls to their _ptsz names (PROTOCOL.md 3.6).  Each pair below
 * shares one function; the _ptsz one hands the driver's ordinary entry point CU_STREAM_PER_THREAD
 * for 0 (rt_stream, core.h), so no per-thread driver variant is needed (driver_graph.def).
 */
#include "graph/graph.h"

/* The modes, statuses and edge data pass to the driver and back as they are (both enums count up
 * from 0 on each side, so their last values are checked): */
_Static_assert((int)cudaStreamCaptureModeRelaxed == (int)CU_STREAM_CAPTURE_MODE_RELAXED,
               "capture modes differ");
_Static_assert((int)cudaStreamCaptureStatusInvalidated == (int)CU_STREAM_CAPTURE_STATUS_INVALIDATED,
               "capture statuses differ");
_Static_assert(sizeof(cudaGraphEdgeData) == sizeof(CUgraphEdgeData), "edge data differs");

/* From here on the driver records what stream receives instead of running it.  The legacy stream,
 * a stream that is already capturing and a mode the driver does not know are the driver's to
 * refuse. */
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

/* The one body of cudaStreamBeginCapture and cudaStreamBeginCapture_ptsz (RT_FORWARD). */
static cudaError_t rt_begin_capture_api(cudaStream_t stream, enum cudaStreamCaptureMode mode,
                                        bool per_thread, rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_begin_capture(stream, mode, per_thread));
}

RT_API cudaError_t cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode)
{
    RT_FORWARD(rt_begin_capture_api(stream, mode, false, RT_SELF));
}

RT_API cudaError_t cudaStreamBeginCapture_ptsz(cudaStream_t stream,
                                               enum cudaStreamCaptureMode mode)
{
    RT_FORWARD(rt_begin_capture_api(stream, mode, true, RT_SELF));
}

/* The same, with the nodes added to an existing graph instead of a new one (CUDA 12.3): the first
 * node captured depends on `dependencies` (NULL when numDependencies is 0), with their edge data
 * (NULL: default).  The graph cannot be instantiated until the capture has ended. */
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

/* The one body of cudaStreamBeginCaptureToGraph and cudaStreamBeginCaptureToGraph_ptsz
 * (RT_FORWARD). */
static cudaError_t rt_begin_capture_to_graph_api(cudaStream_t stream, cudaGraph_t graph,
                                                 const cudaGraphNode_t *dependencies,
                                                 const cudaGraphEdgeData *dependencyData,
                                                 size_t numDependencies,
                                                 enum cudaStreamCaptureMode mode, bool per_thread,
                                                 rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_begin_capture_to_graph(stream,
                                               graph,
                                               dependencies,
                                               dependencyData,
                                               numDependencies,
                                               mode,
                                               per_thread));
}

RT_API cudaError_t cudaStreamBeginCaptureToGraph(cudaStream_t stream, cudaGraph_t graph,
                                                 const cudaGraphNode_t *dependencies,
                                                 const cudaGraphEdgeData *dependencyData,
                                                 size_t numDependencies,
                                                 enum cudaStreamCaptureMode mode)
{
    RT_FORWARD(rt_begin_capture_to_graph_api(stream, graph, dependencies, dependencyData,
                                             numDependencies, mode, false, RT_SELF));
}

RT_API cudaError_t cudaStreamBeginCaptureToGraph_ptsz(cudaStream_t stream, cudaGraph_t graph,
                                                      const cudaGraphNode_t *dependencies,
                                                      const cudaGraphEdgeData *dependencyData,
                                                      size_t numDependencies,
                                                      enum cudaStreamCaptureMode mode)
{
    RT_FORWARD(rt_begin_capture_to_graph_api(stream, graph, dependencies, dependencyData,
                                             numDependencies, mode, true, RT_SELF));
}

/* Ends the capture begun on this same stream.  The graph being built passes to the caller, who
 * owns it from then on (cudaGraphDestroy); for an invalidated capture the driver gives a NULL
 * graph and cudaErrorStreamCaptureInvalidated, and a fork into another stream that was never
 * joined back is cudaErrorStreamCaptureUnjoined.  Without pGraph the capture still ends and the
 * graph is dropped: NVIDIA's runtime succeeds there (H200).  The driver is given `dropped` to
 * put the graph in then, and the runtime destroys what comes back in it. */
static cudaError_t rt_end_capture(cudaStream_t stream, cudaGraph_t *pGraph, bool per_thread)
{
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        return e;
    CUgraph dropped = NULL;
    CUstream s = rt_stream(stream, per_thread);
    e = rt_driver_result(d, rt_drv.cuStreamEndCapture(s, pGraph ? pGraph : &dropped));
    rt_recapture_end(s);          /* a recapture's callback is no longer called (graph_ids.c) */
    if (dropped)
        rt_drv.cuGraphDestroy(dropped);
    return e;
}

/* The one body of cudaStreamEndCapture and cudaStreamEndCapture_ptsz (RT_FORWARD). */
static cudaError_t rt_end_capture_api(cudaStream_t stream, cudaGraph_t *pGraph, bool per_thread,
                                      rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_end_capture(stream, pGraph, per_thread));
}

RT_API cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *pGraph)
{
    RT_FORWARD(rt_end_capture_api(stream, pGraph, false, RT_SELF));
}

RT_API cudaError_t cudaStreamEndCapture_ptsz(cudaStream_t stream, cudaGraph_t *pGraph)
{
    RT_FORWARD(rt_end_capture_api(stream, pGraph, true, RT_SELF));
}

/* None, active or invalidated; an invalidated capture must still be ended on its stream before
 * the stream can be used again.  Asked of the legacy stream while a blocking stream captures, the
 * driver answers cudaErrorStreamCaptureImplicit, leaves the status unspecified and the capture
 * intact (the legacy stream waits on blocking streams, so it is unusable until the capture
 * ends): *status is therefore written only on success. */
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

/* The one body of cudaStreamIsCapturing and cudaStreamIsCapturing_ptsz (RT_FORWARD). */
static cudaError_t rt_is_capturing_api(cudaStream_t stream, enum cudaStreamCaptureStatus *status,
                                       bool per_thread, rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_is_capturing(stream, status, per_thread));
}

RT_API cudaError_t cudaStreamIsCapturing(cudaStream_t stream,
                                         enum cudaStreamCaptureStatus *pCaptureStatus)
{
    RT_FORWARD(rt_is_capturing_api(stream, pCaptureStatus, false, RT_SELF));
}

RT_API cudaError_t cudaStreamIsCapturing_ptsz(cudaStream_t stream,
                                              enum cudaStreamCaptureStatus *pCaptureStatus)
{
    RT_FORWARD(rt_is_capturing_api(stream, pCaptureStatus, true, RT_SELF));
}

/* The 13.0 form, with edge data: the driver's cuStreamGetCaptureInfo of 12.3.  Only the status
 * is required.  The rest is valid only on success with an active capture: the id, unique over the
 * process's lifetime; the graph being built (still the capture's, graph.c); and the set of nodes
 * the next captured node will depend on, in an array the driver owns, valid until the next call
 * on the stream.  Without edge_data_out the driver refuses (cudaErrorLossyQuery) if any of those
 * edges carries data.  The node array and the edge data pass through: the handle types are the
 * driver's and the edge data has its layout (asserted above). */
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
    cuuint64_t id = 0;            /* uint64_t, a type other than the caller's unsigned long long */
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

/* The one body of cudaStreamGetCaptureInfo and cudaStreamGetCaptureInfo_ptsz (RT_FORWARD). */
static cudaError_t rt_get_capture_info_api(cudaStream_t stream,
                                           enum cudaStreamCaptureStatus *status_out,
                                           unsigned long long *id_out, cudaGraph_t *graph_out,
                                           const cudaGraphNode_t **dependencies_out,
                                           const cudaGraphEdgeData **edge_data_out,
                                           size_t *count_out, bool per_thread, rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_get_capture_info(stream,
                                         status_out,
                                         id_out,
                                         graph_out,
                                         dependencies_out,
                                         edge_data_out,
                                         count_out,
                                         per_thread));
}

RT_API cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream,
                                            enum cudaStreamCaptureStatus *captureStatus_out,
                                            unsigned long long *id_out, cudaGraph_t *graph_out,
                                            const cudaGraphNode_t **dependencies_out,
                                            const cudaGraphEdgeData **edgeData_out,
                                            size_t *numDependencies_out)
{
    RT_FORWARD(rt_get_capture_info_api(stream, captureStatus_out, id_out, graph_out,
                                       dependencies_out, edgeData_out, numDependencies_out, false,
                                       RT_SELF));
}

RT_API cudaError_t cudaStreamGetCaptureInfo_ptsz(cudaStream_t stream,
                                                 enum cudaStreamCaptureStatus *captureStatus_out,
                                                 unsigned long long *id_out,
                                                 cudaGraph_t *graph_out,
                                                 const cudaGraphNode_t **dependencies_out,
                                                 const cudaGraphEdgeData **edgeData_out,
                                                 size_t *numDependencies_out)
{
    RT_FORWARD(rt_get_capture_info_api(stream, captureStatus_out, id_out, graph_out,
                                       dependencies_out, edgeData_out, numDependencies_out, true,
                                       RT_SELF));
}

/* Replaces (cudaStreamSetCaptureDependencies) or extends (cudaStreamAddCaptureDependencies, what
 * flags 0 means too) the set of nodes the next captured node will depend on, for instance after
 * the program added nodes to the capture's graph itself.  A node taken out of the set this way
 * does not make the end fail as unjoined.  cudaErrorIllegalState when the stream is not
 * capturing. */
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

/* The one body of cudaStreamUpdateCaptureDependencies and
 * cudaStreamUpdateCaptureDependencies_ptsz (RT_FORWARD). */
static cudaError_t rt_update_capture_deps_api(cudaStream_t stream, cudaGraphNode_t *dependencies,
                                              const cudaGraphEdgeData *dependencyData,
                                              size_t numDependencies, unsigned flags,
                                              bool per_thread, rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_update_capture_deps(stream,
                                            dependencies,
                                            dependencyData,
                                            numDependencies,
                                            flags,
                                            per_thread));
}

RT_API cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t stream,
                                                       cudaGraphNode_t *dependencies,
                                                       const cudaGraphEdgeData *dependencyData,
                                                       size_t numDependencies,
                                                       unsigned int flags)
{
    RT_FORWARD(rt_update_capture_deps_api(stream, dependencies, dependencyData, numDependencies,
                                          flags, false, RT_SELF));
}

RT_API cudaError_t cudaStreamUpdateCaptureDependencies_ptsz(cudaStream_t stream,
                                                            cudaGraphNode_t *dependencies,
                                                            const cudaGraphEdgeData *dependencyData,
                                                            size_t numDependencies,
                                                            unsigned int flags)
{
    RT_FORWARD(rt_update_capture_deps_api(stream, dependencies, dependencyData, numDependencies,
                                          flags, true, RT_SELF));
}

/* Sets the calling thread's mode (above) and hands back the one it had: the driver suggests
 * using it push-pop, around code that must be allowed, or refused, unsafe calls.  For NULL,
 * NVIDIA's runtime crashes (H200, tests/gpu/expected_differences.txt) and minicudart answers
 * cudaErrorInvalidValue.  The swap goes through a copy of the driver's type: the two enums agree
 * in their values (asserted above) but are different types. */
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
