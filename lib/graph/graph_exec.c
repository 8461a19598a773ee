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
 * In the _ptsz variants stream 0 means the thread's per-thread stream.
 */
#include <string.h>

#include "graph/graph.h"

_Static_assert(sizeof(cudaGraphInstantiateParams) == sizeof(CUDA_GRAPH_INSTANTIATE_PARAMS),
               "instantiate parameters differ");
_Static_assert(sizeof(cudaGraphExecUpdateResultInfo) == sizeof(CUgraphExecUpdateResultInfo),
               "exec update result differs");

cudaError_t rt_graph_exec_enter(cudaGraphExec_t exec, rt_device **d)
{
    cudaError_t e = rt_context_enter(d);
    if (e == cudaSuccess && rt_handle_stale(RT_HANDLE_GRAPH_EXEC, exec))
        e = cudaErrorInvalidResourceHandle;
    return e;
}

/* ---- instantiating, launching, updating ----------------------------------------------------- */

/* The result of an instantiation: a new executable graph is recorded (handles.c). */
static cudaError_t rt_instantiated(rt_device *d, CUresult r, cudaGraphExec_t *exec)
{
    cudaError_t e = rt_driver_result(d, r);
    if (e == cudaSuccess)
        rt_handle_add(RT_HANDLE_GRAPH_EXEC, *exec, d);
    return e;
}

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

RT_API cudaError_t cudaGraphInstantiateWithParams(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                                  cudaGraphInstantiateParams *instantiateParams)
{
    RT_ENTER();
    RT_RETURN(rt_instantiate_with_params(pGraphExec, graph, instantiateParams, false));
}

RT_API cudaError_t cudaGraphInstantiateWithParams_ptsz(cudaGraphExec_t *pGraphExec,
                                                       cudaGraph_t graph,
                                                       cudaGraphInstantiateParams *instantiateParams)
{
    RT_ENTER();
    RT_RETURN(rt_instantiate_with_params(pGraphExec, graph, instantiateParams, true));
}

static cudaError_t rt_graph_launch(cudaGraphExec_t exec, cudaStream_t stream, bool per_thread)
{
    rt_device *d;
    cudaError_t e = rt_graph_exec_enter(exec, &d);
    if (e != cudaSuccess)
        return e;
    return rt_driver_result(d, rt_drv.cuGraphLaunch(exec, rt_stream(stream, per_thread)));
}

RT_API cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream)
{
    RT_ENTER();
    RT_RETURN(rt_graph_launch(graphExec, stream, false));
}

RT_API cudaError_t cudaGraphLaunch_ptsz(cudaGraphExec_t graphExec, cudaStream_t stream)
{
    RT_ENTER();
    RT_RETURN(rt_graph_launch(graphExec, stream, true));
}

static cudaError_t rt_graph_upload(cudaGraphExec_t exec, cudaStream_t stream, bool per_thread)
{
    rt_device *d;
    cudaError_t e = rt_graph_exec_enter(exec, &d);
    if (e != cudaSuccess)
        return e;
    return rt_driver_result(d, rt_drv.cuGraphUpload(exec, rt_stream(stream, per_thread)));
}

RT_API cudaError_t cudaGraphUpload(cudaGraphExec_t graphExec, cudaStream_t stream)
{
    RT_ENTER();
    RT_RETURN(rt_graph_upload(graphExec, stream, false));
}

RT_API cudaError_t cudaGraphUpload_ptsz(cudaGraphExec_t graphExec, cudaStream_t stream)
{
    RT_ENTER();
    RT_RETURN(rt_graph_upload(graphExec, stream, true));
}

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

/* resultInfo may be NULL: the update is made all the same, as NVIDIA's runtime does (H200). */
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

/* ---- editing one node of an executable graph ------------------------------------------------ */

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

/* Sets a memcpy node of exec to a copy already translated (or whose translation failed: e). */
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

/* childGraph must have the shape of the node's graph: only parameters change. */
RT_API cudaError_t cudaGraphExecChildGraphNodeSetParams(cudaGraphExec_t hGraphExec,
                                                        cudaGraphNode_t node,
                                                        cudaGraph_t childGraph)
{
    RT_ENTER();
    RT_EXEC_ENTER(hGraphExec, d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphExecChildGraphNodeSetParams(hGraphExec, node,
                                                                           childGraph)));
}

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
 * memcpy and memset nodes. */
RT_API cudaError_t cudaGraphNodeSetEnabled(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
                                           unsigned int isEnabled)
{
    RT_ENTER();
    RT_EXEC_ENTER(hGraphExec, d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphNodeSetEnabled(hGraphExec, hNode, isEnabled)));
}

RT_API cudaError_t cudaGraphNodeGetEnabled(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
                                           unsigned int *isEnabled)
{
    RT_ENTER();
    if (!isEnabled)
        RT_RETURN(cudaErrorInvalidValue);
    RT_EXEC_ENTER(hGraphExec, d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphNodeGetEnabled(hGraphExec, hNode, isEnabled)));
}
