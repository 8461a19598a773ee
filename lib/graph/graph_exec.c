/*
 * graph_exec.c - executable graphs: instantiating a graph, launching and uploading it, updating
 * it from a graph of the same shape, and editing one node of it in place.
 *
 * An executable graph is the driver's CUgraphExec.  Instantiation copies the graph: later edits
 * of the graph do not reach the executable, and edits of the executable (cudaGraphExec...
 * SetParams, cudaGraphNodeSetEnabled) name the node by its handle in the graph it was made
 * from.  Each edit takes the runtime's parameters, translated as for the graph's own nodes
 * (graph_params.c).  The runtime records every executable it makes (handles.c), so that one a
 * cudaDeviceReset destroyed is refused instead of handed to the driver.
 *
 * The driver's steps.  Instantiation checks what adding nodes did not (the structure: a cycle,
 * for one) and builds the executable; a graph with memory allocation or free nodes, or with
 * device-updatable kernel nodes, may have only one executable at a time.  cudaGraphUpload puts
 * an executable on the device without running it, and cudaGraphLaunch runs all of it as one
 * piece of work in a stream: behind the earlier work there and behind earlier launches of the
 * same executable, one launch at a time (a graph runs concurrently with itself only as several
 * executables).  cudaGraphExecUpdate brings an executable in line with a graph of the same
 * topology, and the per-node edits do that for one node, for later launches only: never one
 * already enqueued or running.
 *
 * The launch path is the context check, the stale-handle check (one inline load until some device
 * has been reset: device.h), the stream translation and the driver call.  In one process on the
 * H200, cudaGraphLaunch took 1.027 times the host time of cuGraphLaunch itself (the median of
 * 200 pairs: docs/performance.md).
 *
 * In the _ptsz variants (instantiation with parameters, upload, launch: PROTOCOL.md 3.6) stream 0
 * means the thread's per-thread stream; the other calls take no stream.
 */
#include <string.h>

#include "graph/graph.h"

_Static_assert(sizeof(cudaGraphInstantiateParams) == sizeof(CUDA_GRAPH_INSTANTIATE_PARAMS),
               "instantiate parameters differ");
_Static_assert(sizeof(cudaGraphExecUpdateResultInfo) == sizeof(CUgraphExecUpdateResultInfo),
               "exec update result differs");

/* A cudaDeviceReset destroys every executable made in the reset context, and NVIDIA's runtime
 * crashes on one used afterwards (measured on the H200: tests/gpu/conf_misuse_reset.cu, the crash
 * listed in tests/gpu/expected_differences.txt).  minicudart answers
 * cudaErrorInvalidResourceHandle instead, NVIDIA's answer for a stream from before a reset.  An
 * executable this runtime did not make, or made in a foreign context, is never stale. */
cudaError_t rt_graph_exec_enter(cudaGraphExec_t exec, rt_device **d)
{
    cudaError_t e = rt_context_enter(d);
    if (e == cudaSuccess && rt_handle_stale(RT_HANDLE_GRAPH_EXEC, exec))
        e = cudaErrorInvalidResourceHandle;
    return e;
}

/* ---- instantiating, launching, updating ----------------------------------------------------- */

/* The result of an instantiation: a new executable graph is recorded (handles.c), with the slot
 * of the context it was made in and that context's generation, which a reset moves on (not in a
 * foreign context, which cudaDeviceReset does not destroy).  A failed instantiation has nothing to
 * record. */
static cudaError_t rt_instantiated(rt_device *d, CUresult r, cudaGraphExec_t *exec)
{
    cudaError_t e = rt_driver_result(d, r);
    if (e == cudaSuccess)
        rt_handle_add(RT_HANDLE_GRAPH_EXEC, *exec, d);
    return e;
}

/* cudaGraphInstantiate and ...WithFlags take the same arguments in the 13 headers, and cuda.h
 * defines cuGraphInstantiate as cuGraphInstantiateWithFlags: one driver call serves both.  The
 * flags are the driver's numbers: free on launch what the last launch left allocated (1), launch
 * from the device too (4), kernel nodes' own priorities (8); upload (2) belongs to WithParams,
 * which names the stream. */
RT_API cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                        unsigned long long flags)
{
    RT_ENTER();
    if (!pGraphExec)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    RT_RETURN(rt_instantiated(d, rt_drv.cuGraphInstantiateWithFlags(pGraphExec, graph, flags),
                              pGraphExec));
}

RT_API cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                                 unsigned long long flags)
{
    RT_ENTER();
    if (!pGraphExec)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    RT_RETURN(rt_instantiated(d, rt_drv.cuGraphInstantiateWithFlags(pGraphExec, graph, flags),
                              pGraphExec));
}

/* The runtime's parameters mirror the driver's (sizes asserted above) but are copied, not cast:
 * the upload stream of a _ptsz call must become CU_STREAM_PER_THREAD for 0.  That stream matters
 * only with cudaGraphInstantiateFlagUpload, whose upload follows the instantiation in it.  The
 * driver's answers go back whatever the call answered, since they explain a failure
 * (cudaGraphInstantiateInvalidStructure and one of the offending nodes, for one); the result
 * codes are the driver's numbers, and `cu` starts zeroed, so one the driver did not write reads
 * as 0 and NULL. */
static cudaError_t rt_instantiate_with_params(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                              cudaGraphInstantiateParams *params,
                                              bool per_thread)
{
    if (!pGraphExec || !params)
        return cudaErrorInvalidValue;
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        return e;
    CUDA_GRAPH_INSTANTIATE_PARAMS cu = {
        .flags = params->flags,
        .hUploadStream = rt_stream(params->uploadStream, per_thread),
    };
    e = rt_instantiated(d, rt_drv.cuGraphInstantiateWithParams(pGraphExec, graph, &cu),
                        pGraphExec);
    params->errNode_out = cu.hErrNode_out;
    params->result_out = (cudaGraphInstantiateResult)cu.result_out;
    return e;
}

/* The one body of cudaGraphInstantiateWithParams and cudaGraphInstantiateWithParams_ptsz
 * (RT_FORWARD). */
static cudaError_t rt_instantiate_with_params_api(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                                  cudaGraphInstantiateParams *params,
                                                  bool per_thread, rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_instantiate_with_params(pGraphExec, graph, params, per_thread));
}

RT_API cudaError_t cudaGraphInstantiateWithParams(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                                  cudaGraphInstantiateParams *instantiateParams)
{
    RT_FORWARD(rt_instantiate_with_params_api(pGraphExec, graph, instantiateParams, false,
                                              RT_SELF));
}

RT_API cudaError_t cudaGraphInstantiateWithParams_ptsz(cudaGraphExec_t *pGraphExec,
                                                       cudaGraph_t graph,
                                                       cudaGraphInstantiateParams *instantiateParams)
{
    RT_FORWARD(rt_instantiate_with_params_api(pGraphExec, graph, instantiateParams, true, RT_SELF));
}

/* The whole executable as one piece of work in the stream (above).  If an earlier launch left
 * allocations unfreed and the executable was not instantiated with
 * cudaGraphInstantiateFlagAutoFreeOnLaunch, the driver refuses the launch
 * (cudaErrorInvalidValue). */
static cudaError_t rt_graph_launch(cudaGraphExec_t exec, cudaStream_t stream, bool per_thread)
{
    rt_device *d;
    cudaError_t e = rt_graph_exec_enter(exec, &d);
    if (e != cudaSuccess)
        return e;
    return rt_driver_result(d, rt_drv.cuGraphLaunch(exec, rt_stream(stream, per_thread)));
}

/* The one body of cudaGraphLaunch and cudaGraphLaunch_ptsz (RT_FORWARD). */
static cudaError_t rt_graph_launch_api(cudaGraphExec_t exec, cudaStream_t stream, bool per_thread,
                                       rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_graph_launch(exec, stream, per_thread));
}

RT_API cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream)
{
    RT_FORWARD(rt_graph_launch_api(graphExec, stream, false, RT_SELF));
}

RT_API cudaError_t cudaGraphLaunch_ptsz(cudaGraphExec_t graphExec, cudaStream_t stream)
{
    RT_FORWARD(rt_graph_launch_api(graphExec, stream, true, RT_SELF));
}

/* The executable put on the device in stream order, behind the stream's work and the earlier
 * launches, without running it; uploads of one executable are serialised.  Memory the stream
 * has cached backs the executable's allocations. */
static cudaError_t rt_graph_upload(cudaGraphExec_t exec, cudaStream_t stream, bool per_thread)
{
    rt_device *d;
    cudaError_t e = rt_graph_exec_enter(exec, &d);
    if (e != cudaSuccess)
        return e;
    return rt_driver_result(d, rt_drv.cuGraphUpload(exec, rt_stream(stream, per_thread)));
}

/* The one body of cudaGraphUpload and cudaGraphUpload_ptsz (RT_FORWARD). */
static cudaError_t rt_graph_upload_api(cudaGraphExec_t exec, cudaStream_t stream, bool per_thread,
                                       rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_graph_upload(exec, stream, per_thread));
}

RT_API cudaError_t cudaGraphUpload(cudaGraphExec_t graphExec, cudaStream_t stream)
{
    RT_FORWARD(rt_graph_upload_api(graphExec, stream, false, RT_SELF));
}

RT_API cudaError_t cudaGraphUpload_ptsz(cudaGraphExec_t graphExec, cudaStream_t stream)
{
    RT_FORWARD(rt_graph_upload_api(graphExec, stream, true, RT_SELF));
}

/* A launch still running is not stopped: the driver frees the executable when it completes.  The
 * record goes first because once the driver has freed it, another thread's instantiation may get
 * the same address, whose new record a later removal would take.  One from before a reset is
 * refused like every call on it; its record stays until the address is handed out again. */
RT_API cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec)
{
    RT_ENTER();
    rt_device *d;
    cudaError_t e = rt_graph_exec_enter(graphExec, &d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    rt_handle_remove(graphExec);       /* first: the address may come back at once */
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphExecDestroy(graphExec)));
}

/* Every node of hGraphExec takes the parameters of the node paired with it in hGraph, which must
 * have the same topology.  Where that is impossible the driver updates nothing and answers
 * cudaErrorGraphExecUpdateFailure, with the reason in result (the topology, a node's type, its
 * function, parameters or attributes changed in a way the executable cannot follow, or something
 * unsupported), the node in errorNode, and for a dependency that does not match, that dependency
 * in errorFromNode.  resultInfo may be NULL: the update is made all the same, as NVIDIA's runtime
 * does (H200).  So the driver writes into a zeroed copy of its own, handed over field by field. */
RT_API cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
                                       cudaGraphExecUpdateResultInfo *resultInfo)
{
    RT_ENTER();
    rt_device *d;
    cudaError_t e = rt_graph_exec_enter(hGraphExec, &d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    CUgraphExecUpdateResultInfo info;
    memset(&info, 0, sizeof info);
    e = rt_driver_result(d, rt_drv.cuGraphExecUpdate(hGraphExec, hGraph, &info));
    if (resultInfo) {
        resultInfo->result = (enum cudaGraphExecUpdateResult)info.result;
        resultInfo->errorNode = info.errorNode;
        resultInfo->errorFromNode = info.errorFromNode;
    }
    RT_RETURN(e);
}

/* The flags of the instantiation, less cudaGraphInstantiateFlagUpload, which does not change the
 * executable.  They come through a cuuint64_t: uint64_t, a type other than unsigned long long. */
RT_API cudaError_t cudaGraphExecGetFlags(cudaGraphExec_t graphExec, unsigned long long *flags)
{
    RT_ENTER();
    if (!flags)
        RT_RETURN(cudaErrorInvalidValue);
    RT_EXEC_ENTER(graphExec, d);
    cuuint64_t cu_flags = 0;
    cudaError_t e = rt_driver_result(d, rt_drv.cuGraphExecGetFlags(graphExec, &cu_flags));
    if (e == cudaSuccess)
        *flags = (unsigned long long)cu_flags;
    RT_RETURN(e);
}

/* ---- editing one node of an executable graph ------------------------------------------------
 *
 * The node is named by its handle in the graph the executable was instantiated from, and must
 * still be in it; the edit reaches later launches only, and leaves that graph's node as it was.
 * What may change depends on the kind (the driver's table, at cuGraphExecNodeSetParams): a kernel
 * node anything but its function's context (nor may a new function start using dynamic
 * parallelism or device-side graph calls); a memcpy or memset node its 1D operands, from the same
 * contexts as before (a memset its value too); host and event nodes anything; an external
 * semaphore node anything but the number of semaphores (graph_extsem.c); a child graph node its
 * parameters, topology kept; memory allocation and free nodes nothing.
 */

/* The generic form (CUDA 12.2): cudaGraphNodeParams translated as for cudaGraphAddNode
 * (graph_params.c). */
RT_API cudaError_t cudaGraphExecNodeSetParams(cudaGraphExec_t graphExec, cudaGraphNode_t node,
                                              struct cudaGraphNodeParams *nodeParams)
{
    RT_ENTER();
    if (!nodeParams)
        RT_RETURN(cudaErrorInvalidValue);
    RT_EXEC_ENTER(graphExec, d);
    CUgraphNodeParams params;
    cudaError_t e = rt_graph_node_params(nodeParams, d, &params);
    if (e == cudaSuccess)
        e = rt_driver_result(d, rt_drv.cuGraphExecNodeSetParams(graphExec, node, &params));
    RT_RETURN(e);
}

/* func, a host stub or a cudaKernel_t, is resolved to this device's CUfunction as a launch would
 * resolve it (graph_params.c); the driver copies the arguments during the call.  For NULL
 * pNodeParams NVIDIA's runtime crashes (H200, tests/gpu/expected_differences.txt); minicudart
 * answers cudaErrorInvalidValue. */
RT_API cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t hGraphExec,
                                                    cudaGraphNode_t node,
                                                    const struct cudaKernelNodeParams *pNodeParams)
{
    RT_ENTER();
    if (!pNodeParams)
        RT_RETURN(cudaErrorInvalidValue);
    RT_EXEC_ENTER(hGraphExec, d);
    CUDA_KERNEL_NODE_PARAMS params;
    cudaError_t e = rt_graph_kernel_params(pNodeParams, d, &params);
    if (e == cudaSuccess)
        e = rt_driver_result(d, rt_drv.cuGraphExecKernelNodeSetParams(hGraphExec, node, &params));
    RT_RETURN(e);
}

/* Sets a memcpy node of exec to a copy already translated (or whose translation failed: e).  The
 * driver's call also takes the context the copy runs in, which the runtime's does not name: the
 * context this thread works in, d->context (the device's primary context, or the foreign one the
 * program made current). */
static cudaError_t rt_exec_set_memcpy(cudaError_t e, rt_device *d, cudaGraphExec_t exec,
                                      cudaGraphNode_t node, const CUDA_MEMCPY3D *copy)
{
    if (e != cudaSuccess)
        return e;
    CUcontext ctx = atomic_load_explicit(&d->context, memory_order_acquire);
    return rt_driver_result(d, rt_drv.cuGraphExecMemcpyNodeSetParams(exec, node, copy, ctx));
}

RT_API cudaError_t cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t hGraphExec,
                                                    cudaGraphNode_t node,
                                                    const struct cudaMemcpy3DParms *pNodeParams)
{
    RT_ENTER();
    if (!pNodeParams)
        RT_RETURN(cudaErrorInvalidValue);
    RT_EXEC_ENTER(hGraphExec, d);
    CUDA_MEMCPY3D copy;
    cudaError_t e = rt_graph_memcpy_params(pNodeParams, &copy);
    RT_RETURN(rt_exec_set_memcpy(e, d, hGraphExec, node, &copy));
}

/* The three forms below build the CUDA_MEMCPY3D as their cudaGraphAddMemcpyNode... counterparts
 * do (graph_params.c): a 1D copy of count bytes, then copies to and from a __device__ or
 * __constant__ variable, offset bytes into it, at its address on this device. */
RT_API cudaError_t cudaGraphExecMemcpyNodeSetParams1D(cudaGraphExec_t hGraphExec,
                                                      cudaGraphNode_t node, void *dst,
                                                      const void *src, size_t count,
                                                      enum cudaMemcpyKind kind)
{
    RT_ENTER();
    RT_EXEC_ENTER(hGraphExec, d);
    CUDA_MEMCPY3D copy;
    cudaError_t e = rt_graph_memcpy_1d(dst, src, count, kind, &copy);
    RT_RETURN(rt_exec_set_memcpy(e, d, hGraphExec, node, &copy));
}

RT_API cudaError_t cudaGraphExecMemcpyNodeSetParamsToSymbol(cudaGraphExec_t hGraphExec,
                                                            cudaGraphNode_t node,
                                                            const void *symbol, const void *src,
                                                            size_t count, size_t offset,
                                                            enum cudaMemcpyKind kind)
{
    RT_ENTER();
    RT_EXEC_ENTER(hGraphExec, d);
    CUDA_MEMCPY3D copy;
    cudaError_t e = rt_graph_memcpy_symbol(symbol, src, count, offset, kind, true, &copy);
    RT_RETURN(rt_exec_set_memcpy(e, d, hGraphExec, node, &copy));
}

RT_API cudaError_t cudaGraphExecMemcpyNodeSetParamsFromSymbol(cudaGraphExec_t hGraphExec,
                                                              cudaGraphNode_t node, void *dst,
                                                              const void *symbol, size_t count,
                                                              size_t offset,
                                                              enum cudaMemcpyKind kind)
{
    RT_ENTER();
    RT_EXEC_ENTER(hGraphExec, d);
    CUDA_MEMCPY3D copy;
    cudaError_t e = rt_graph_memcpy_symbol(symbol, dst, count, offset, kind, false, &copy);
    RT_RETURN(rt_exec_set_memcpy(e, d, hGraphExec, node, &copy));
}

/* The new destination must be memory of the same kind, context and device as the old; a 2D
 * memset keeps its dimensions.  The context argument is the one a copy gets (above). */
RT_API cudaError_t cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t hGraphExec,
                                                    cudaGraphNode_t node,
                                                    const struct cudaMemsetParams *pNodeParams)
{
    RT_ENTER();
    if (!pNodeParams)
        RT_RETURN(cudaErrorInvalidValue);
    RT_EXEC_ENTER(hGraphExec, d);
    CUDA_MEMSET_NODE_PARAMS set;
    rt_graph_memset_params(pNodeParams, &set);
    CUcontext ctx = atomic_load_explicit(&d->context, memory_order_acquire);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphExecMemsetNodeSetParams(hGraphExec, node, &set,
                                                                       ctx)));
}

/* cudaHostNodeParams and CUDA_HOST_NODE_PARAMS are the same two members, a function and its
 * argument, of the same size (asserted in graph_params.c): cast. */
RT_API cudaError_t cudaGraphExecHostNodeSetParams(cudaGraphExec_t hGraphExec,
                                                  cudaGraphNode_t node,
                                                  const struct cudaHostNodeParams *pNodeParams)
{
    RT_ENTER();
    if (!pNodeParams)
        RT_RETURN(cudaErrorInvalidValue);
    RT_EXEC_ENTER(hGraphExec, d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphExecHostNodeSetParams(
                                     hGraphExec, node,
                                     (const CUDA_HOST_NODE_PARAMS *)pNodeParams)));
}

/* childGraph must have the shape of the node's graph: only parameters change.  Its topology and
 * the order its nodes were added in must match, and the update goes down into the child graph's
 * own child graphs, under cudaGraphExecUpdate's rules. */
RT_API cudaError_t cudaGraphExecChildGraphNodeSetParams(cudaGraphExec_t hGraphExec,
                                                        cudaGraphNode_t node,
                                                        cudaGraph_t childGraph)
{
    RT_ENTER();
    RT_EXEC_ENTER(hGraphExec, d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphExecChildGraphNodeSetParams(hGraphExec, node,
                                                                           childGraph)));
}

/* The event a node records, or below waits for, at later launches (events are the driver's CUevent
 * handles: stream.h). */
RT_API cudaError_t cudaGraphExecEventRecordNodeSetEvent(cudaGraphExec_t hGraphExec,
                                                        cudaGraphNode_t hNode, cudaEvent_t event)
{
    RT_ENTER();
    RT_EXEC_ENTER(hGraphExec, d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphExecEventRecordNodeSetEvent(hGraphExec, hNode,
                                                                           event)));
}

RT_API cudaError_t cudaGraphExecEventWaitNodeSetEvent(cudaGraphExec_t hGraphExec,
                                                      cudaGraphNode_t hNode, cudaEvent_t event)
{
    RT_ENTER();
    RT_EXEC_ENTER(hGraphExec, d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphExecEventWaitNodeSetEvent(hGraphExec, hNode,
                                                                         event)));
}

/* A disabled node does nothing at launch, as if it were empty; the driver allows it for kernel,
 * memcpy and memset nodes.  The node keeps its parameters, and enabling it again restores it. */
RT_API cudaError_t cudaGraphNodeSetEnabled(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
                                           unsigned int isEnabled)
{
    RT_ENTER();
    RT_EXEC_ENTER(hGraphExec, d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphNodeSetEnabled(hGraphExec, hNode, isEnabled)));
}

/* 1 for an enabled node, 0 for a disabled one, for the same three kinds. */
RT_API cudaError_t cudaGraphNodeGetEnabled(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
                                           unsigned int *isEnabled)
{
    RT_ENTER();
    if (!isEnabled)
        RT_RETURN(cudaErrorInvalidValue);
    RT_EXEC_ENTER(hGraphExec, d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphNodeGetEnabled(hGraphExec, hNode, isEnabled)));
}
