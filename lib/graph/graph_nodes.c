/*
 * graph_nodes.c - building a graph node by node: for each kind of node its Add, its GetParams and
 * its SetParams, and the generic form (cudaGraphAddNode, cudaGraphNodeSetParams) that takes any
 * kind through one struct.
 *
 * The parameters are translated by graph_params.c; what stays here is the protocol of each call.
 * The driver copies what it is given when a node is created or set (kernel arguments included),
 * so nothing the caller passed needs to outlive the call.  A few nodes hand something back:
 *
 *   memory allocation  the address of the allocation, fixed when the node is created (the graph
 *                      reserves the range; each launch maps it), so that later nodes can use it
 *   conditional        the body graphs the driver made for the node, which the caller fills
 *                      (cudaGraphConditionalHandleCreate made the handle that picks among them)
 *
 * Nodes of the current device: kernels resolve to the CUfunction of the thread's device, and
 * copies, sets and conditionals run in its context.
 */
#include <string.h>

#include "graph/graph.h"

_Static_assert(sizeof(struct cudaMemAllocNodeParams) == sizeof(CUDA_MEM_ALLOC_NODE_PARAMS) &&
                   offsetof(struct cudaMemAllocNodeParams, dptr) ==
                       offsetof(CUDA_MEM_ALLOC_NODE_PARAMS, dptr),
               "memory allocation node parameters differ");
_Static_assert(sizeof(cudaLaunchAttributeValue) == sizeof(CUkernelNodeAttrValue),
               "kernel node attribute values differ");

/* ---- the generic form ----------------------------------------------------------------------- */

RT_API cudaError_t cudaGraphAddNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                    const cudaGraphNode_t *pDependencies,
                                    const cudaGraphEdgeData *dependencyData,
                                    size_t numDependencies, struct cudaGraphNodeParams *nodeParams)
{
    RT_ENTER();
    if (!pGraphNode || !nodeParams)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    CUgraphNodeParams params;
    cudaError_t e = rt_graph_node_params(nodeParams, d, &params);
    /* 13.4's form knows 13.5's members; the 12.3 one reads them as bytes that must be zero. */
    if (e == cudaSuccess && rt_drv.cuGraphAddNode_v3)
        e = rt_driver_result(d, rt_drv.cuGraphAddNode_v3(pGraphNode, graph, pDependencies,
                                                         (const CUgraphEdgeData *)dependencyData,
                                                         numDependencies, &params));
    else if (e == cudaSuccess)
        e = rt_driver_result(d, rt_drv.cuGraphAddNode(pGraphNode, graph, pDependencies,
                                                      (const CUgraphEdgeData *)dependencyData,
                                                      numDependencies, &params));
    if (e == cudaSuccess)
        rt_graph_node_params_outputs(&params, nodeParams);
    RT_RETURN(e);
}

RT_API cudaError_t cudaGraphNodeSetParams(cudaGraphNode_t node,
                                          struct cudaGraphNodeParams *nodeParams)
{
    RT_ENTER();
    if (!nodeParams)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    CUgraphNodeParams params;
    cudaError_t e = rt_graph_node_params(nodeParams, d, &params);
    if (e == cudaSuccess && rt_drv.cuGraphNodeSetParams_v2)
        e = rt_driver_result(d, rt_drv.cuGraphNodeSetParams_v2(node, &params));
    else if (e == cudaSuccess)
        e = rt_driver_result(d, rt_drv.cuGraphNodeSetParams(node, &params));
    RT_RETURN(e);
}

/* A conditional node's handle belongs to the graph and to the current context; its value is set
 * from device code (cudaGraphSetConditional) or, at each launch, to defaultLaunchValue when
 * flags has cudaGraphCondAssignDefault. */
RT_API cudaError_t cudaGraphConditionalHandleCreate(cudaGraphConditionalHandle *pHandle_out,
                                                    cudaGraph_t graph,
                                                    unsigned int defaultLaunchValue,
                                                    unsigned int flags)
{
    RT_ENTER();
    if (!pHandle_out)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    CUcontext ctx = atomic_load_explicit(&d->context, memory_order_acquire);
    CUgraphConditionalHandle handle = 0;
    cudaError_t e = rt_driver_result(d, rt_drv.cuGraphConditionalHandleCreate(
                                            &handle, graph, ctx, defaultLaunchValue, flags));
    if (e == cudaSuccess)
        *pHandle_out = (cudaGraphConditionalHandle)handle;
    RT_RETURN(e);
}

/* ---- kernel nodes --------------------------------------------------------------------------- */

RT_API cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                          const cudaGraphNode_t *pDependencies,
                                          size_t numDependencies,
                                          const struct cudaKernelNodeParams *pNodeParams)
{
    RT_ENTER();
    if (!pGraphNode || !pNodeParams)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    CUDA_KERNEL_NODE_PARAMS params;
    cudaError_t e = rt_graph_kernel_params(pNodeParams, d, &params);
    if (e == cudaSuccess)
        e = rt_driver_result(d, rt_drv.cuGraphAddKernelNode(pGraphNode, graph, pDependencies,
                                                           numDependencies, &params));
    RT_RETURN(e);
}

RT_API cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node,
                                                struct cudaKernelNodeParams *pNodeParams)
{
    RT_ENTER();
    if (!pNodeParams)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    CUDA_KERNEL_NODE_PARAMS params;
    memset(&params, 0, sizeof params);
    cudaError_t e = rt_driver_result(d, rt_drv.cuGraphKernelNodeGetParams(node, &params));
    if (e == cudaSuccess)
        rt_graph_kernel_params_back(&params, d, pNodeParams);
    RT_RETURN(e);
}

RT_API cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node,
                                                const struct cudaKernelNodeParams *pNodeParams)
{
    RT_ENTER();
    if (!pNodeParams)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    CUDA_KERNEL_NODE_PARAMS params;
    cudaError_t e = rt_graph_kernel_params(pNodeParams, d, &params);
    if (e == cudaSuccess)
        e = rt_driver_result(d, rt_drv.cuGraphKernelNodeSetParams(node, &params));
    RT_RETURN(e);
}

/* Kernel node attributes are launch attributes: the same IDs and value layout (launch_ex.c). */
RT_API cudaError_t cudaGraphKernelNodeGetAttribute(cudaGraphNode_t hNode,
                                                   cudaLaunchAttributeID attr,
                                                   cudaLaunchAttributeValue *value_out)
{
    RT_ENTER();
    if (!value_out)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphKernelNodeGetAttribute(
                                     hNode, (CUkernelNodeAttrID)attr,
                                     (CUkernelNodeAttrValue *)value_out)));
}

RT_API cudaError_t cudaGraphKernelNodeSetAttribute(cudaGraphNode_t hNode,
                                                   cudaLaunchAttributeID attr,
                                                   const cudaLaunchAttributeValue *value)
{
    RT_ENTER();
    if (!value)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphKernelNodeSetAttribute(
                                     hNode, (CUkernelNodeAttrID)attr,
                                     (const CUkernelNodeAttrValue *)value)));
}

RT_API cudaError_t cudaGraphKernelNodeCopyAttributes(cudaGraphNode_t hDst, cudaGraphNode_t hSrc)
{
    RT_ENTER();
    RT_GRAPH_ENTER(d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphKernelNodeCopyAttributes(hDst, hSrc)));
}

/* ---- memcpy nodes --------------------------------------------------------------------------- */

/* Adds a memcpy node whose copy is already translated (or whose translation failed: e). */
static cudaError_t rt_add_memcpy(cudaError_t e, rt_device *d, cudaGraphNode_t *node,
                                 cudaGraph_t graph, const cudaGraphNode_t *deps, size_t count,
                                 const CUDA_MEMCPY3D *copy)
{
    if (e != cudaSuccess)
        return e;
    CUcontext ctx = atomic_load_explicit(&d->context, memory_order_acquire);
    return rt_driver_result(d, rt_drv.cuGraphAddMemcpyNode(node, graph, deps, count, copy, ctx));
}

RT_API cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                          const cudaGraphNode_t *pDependencies,
                                          size_t numDependencies,
                                          const struct cudaMemcpy3DParms *pCopyParams)
{
    RT_ENTER();
    if (!pGraphNode || !pCopyParams)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    CUDA_MEMCPY3D copy;
    cudaError_t e = rt_graph_memcpy_params(pCopyParams, &copy);
    RT_RETURN(rt_add_memcpy(e, d, pGraphNode, graph, pDependencies, numDependencies, &copy));
}

RT_API cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                            const cudaGraphNode_t *pDependencies,
                                            size_t numDependencies, void *dst, const void *src,
                                            size_t count, enum cudaMemcpyKind kind)
{
    RT_ENTER();
    if (!pGraphNode)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    CUDA_MEMCPY3D copy;
    cudaError_t e = rt_graph_memcpy_1d(dst, src, count, kind, &copy);
    RT_RETURN(rt_add_memcpy(e, d, pGraphNode, graph, pDependencies, numDependencies, &copy));
}

/* A copy to or from a __device__ / __constant__ variable: the variable's address on the current
 * device, found as cudaMemcpyToSymbol finds it, then an ordinary 1D copy node. */
RT_API cudaError_t cudaGraphAddMemcpyNodeToSymbol(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                  const cudaGraphNode_t *pDependencies,
                                                  size_t numDependencies, const void *symbol,
                                                  const void *src, size_t count, size_t offset,
                                                  enum cudaMemcpyKind kind)
{
    RT_ENTER();
    if (!pGraphNode)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    CUDA_MEMCPY3D copy;
    cudaError_t e = rt_graph_memcpy_symbol(symbol, src, count, offset, kind, true, &copy);
    RT_RETURN(rt_add_memcpy(e, d, pGraphNode, graph, pDependencies, numDependencies, &copy));
}

RT_API cudaError_t cudaGraphAddMemcpyNodeFromSymbol(cudaGraphNode_t *pGraphNode,
                                                    cudaGraph_t graph,
                                                    const cudaGraphNode_t *pDependencies,
                                                    size_t numDependencies, void *dst,
                                                    const void *symbol, size_t count,
                                                    size_t offset, enum cudaMemcpyKind kind)
{
    RT_ENTER();
    if (!pGraphNode)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    CUDA_MEMCPY3D copy;
    cudaError_t e = rt_graph_memcpy_symbol(symbol, dst, count, offset, kind, false, &copy);
    RT_RETURN(rt_add_memcpy(e, d, pGraphNode, graph, pDependencies, numDependencies, &copy));
}

RT_API cudaError_t cudaGraphMemcpyNodeGetParams(cudaGraphNode_t node,
                                                struct cudaMemcpy3DParms *pNodeParams)
{
    RT_ENTER();
    if (!pNodeParams)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    CUDA_MEMCPY3D copy;
    memset(&copy, 0, sizeof copy);
    cudaError_t e = rt_driver_result(d, rt_drv.cuGraphMemcpyNodeGetParams(node, &copy));
    if (e == cudaSuccess)
        e = rt_graph_memcpy_params_back(&copy, pNodeParams);
    RT_RETURN(e);
}

/* Sets a memcpy node to a copy already translated (or whose translation failed: e). */
static cudaError_t rt_set_memcpy(cudaError_t e, rt_device *d, cudaGraphNode_t node,
                                 const CUDA_MEMCPY3D *copy)
{
    if (e != cudaSuccess)
        return e;
    return rt_driver_result(d, rt_drv.cuGraphMemcpyNodeSetParams(node, copy));
}

RT_API cudaError_t cudaGraphMemcpyNodeSetParams(cudaGraphNode_t node,
                                                const struct cudaMemcpy3DParms *pNodeParams)
{
    RT_ENTER();
    if (!pNodeParams)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    CUDA_MEMCPY3D copy;
    cudaError_t e = rt_graph_memcpy_params(pNodeParams, &copy);
    RT_RETURN(rt_set_memcpy(e, d, node, &copy));
}

RT_API cudaError_t cudaGraphMemcpyNodeSetParams1D(cudaGraphNode_t node, void *dst,
                                                  const void *src, size_t count,
                                                  enum cudaMemcpyKind kind)
{
    RT_ENTER();
    RT_GRAPH_ENTER(d);
    CUDA_MEMCPY3D copy;
    cudaError_t e = rt_graph_memcpy_1d(dst, src, count, kind, &copy);
    RT_RETURN(rt_set_memcpy(e, d, node, &copy));
}

RT_API cudaError_t cudaGraphMemcpyNodeSetParamsToSymbol(cudaGraphNode_t node, const void *symbol,
                                                        const void *src, size_t count,
                                                        size_t offset, enum cudaMemcpyKind kind)
{
    RT_ENTER();
    RT_GRAPH_ENTER(d);
    CUDA_MEMCPY3D copy;
    cudaError_t e = rt_graph_memcpy_symbol(symbol, src, count, offset, kind, true, &copy);
    RT_RETURN(rt_set_memcpy(e, d, node, &copy));
}

RT_API cudaError_t cudaGraphMemcpyNodeSetParamsFromSymbol(cudaGraphNode_t node, void *dst,
                                                          const void *symbol, size_t count,
                                                          size_t offset, enum cudaMemcpyKind kind)
{
    RT_ENTER();
    RT_GRAPH_ENTER(d);
    CUDA_MEMCPY3D copy;
    cudaError_t e = rt_graph_memcpy_symbol(symbol, dst, count, offset, kind, false, &copy);
    RT_RETURN(rt_set_memcpy(e, d, node, &copy));
}

/* ---- memset nodes --------------------------------------------------------------------------- */

RT_API cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                          const cudaGraphNode_t *pDependencies,
                                          size_t numDependencies,
                                          const struct cudaMemsetParams *pMemsetParams)
{
    RT_ENTER();
    if (!pGraphNode || !pMemsetParams)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    CUDA_MEMSET_NODE_PARAMS set;
    rt_graph_memset_params(pMemsetParams, &set);
    CUcontext ctx = atomic_load_explicit(&d->context, memory_order_acquire);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphAddMemsetNode(pGraphNode, graph, pDependencies,
                                                             numDependencies, &set, ctx)));
}

RT_API cudaError_t cudaGraphMemsetNodeGetParams(cudaGraphNode_t node,
                                                struct cudaMemsetParams *pNodeParams)
{
    RT_ENTER();
    if (!pNodeParams)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    CUDA_MEMSET_NODE_PARAMS set;
    memset(&set, 0, sizeof set);
    cudaError_t e = rt_driver_result(d, rt_drv.cuGraphMemsetNodeGetParams(node, &set));
    if (e == cudaSuccess)
        rt_graph_memset_params_back(&set, pNodeParams);
    RT_RETURN(e);
}

RT_API cudaError_t cudaGraphMemsetNodeSetParams(cudaGraphNode_t node,
                                                const struct cudaMemsetParams *pNodeParams)
{
    RT_ENTER();
    if (!pNodeParams)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    CUDA_MEMSET_NODE_PARAMS set;
    rt_graph_memset_params(pNodeParams, &set);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphMemsetNodeSetParams(node, &set)));
}

/* ---- host nodes: cudaHostNodeParams is CUDA_HOST_NODE_PARAMS (graph_params.c) --------------- */

RT_API cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                        const cudaGraphNode_t *pDependencies,
                                        size_t numDependencies,
                                        const struct cudaHostNodeParams *pNodeParams)
{
    RT_ENTER();
    if (!pGraphNode || !pNodeParams)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphAddHostNode(
                                     pGraphNode, graph, pDependencies, numDependencies,
                                     (const CUDA_HOST_NODE_PARAMS *)pNodeParams)));
}

RT_API cudaError_t cudaGraphHostNodeGetParams(cudaGraphNode_t node,
                                              struct cudaHostNodeParams *pNodeParams)
{
    RT_ENTER();
    if (!pNodeParams)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphHostNodeGetParams(
                                     node, (CUDA_HOST_NODE_PARAMS *)pNodeParams)));
}

RT_API cudaError_t cudaGraphHostNodeSetParams(cudaGraphNode_t node,
                                              const struct cudaHostNodeParams *pNodeParams)
{
    RT_ENTER();
    if (!pNodeParams)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphHostNodeSetParams(
                                     node, (const CUDA_HOST_NODE_PARAMS *)pNodeParams)));
}

/* ---- child graph and empty nodes ------------------------------------------------------------ */

/* The node holds a clone of childGraph: later changes to childGraph do not reach it. */
RT_API cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                              const cudaGraphNode_t *pDependencies,
                                              size_t numDependencies, cudaGraph_t childGraph)
{
    RT_ENTER();
    if (!pGraphNode)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphAddChildGraphNode(pGraphNode, graph, pDependencies,
                                                                 numDependencies, childGraph)));
}

/* The graph the node owns (not the one it was made from): editing it edits the node. */
RT_API cudaError_t cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t node, cudaGraph_t *pGraph)
{
    RT_ENTER();
    if (!pGraph)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphChildGraphNodeGetGraph(node, pGraph)));
}

RT_API cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                         const cudaGraphNode_t *pDependencies,
                                         size_t numDependencies)
{
    RT_ENTER();
    if (!pGraphNode)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphAddEmptyNode(pGraphNode, graph, pDependencies,
                                                            numDependencies)));
}

/* ---- event record and wait nodes ------------------------------------------------------------ */

RT_API cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                               const cudaGraphNode_t *pDependencies,
                                               size_t numDependencies, cudaEvent_t event)
{
    RT_ENTER();
    if (!pGraphNode)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphAddEventRecordNode(pGraphNode, graph,
                                                                  pDependencies,
                                                                  numDependencies, event)));
}

RT_API cudaError_t cudaGraphEventRecordNodeGetEvent(cudaGraphNode_t node, cudaEvent_t *event_out)
{
    RT_ENTER();
    if (!event_out)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphEventRecordNodeGetEvent(node, event_out)));
}

RT_API cudaError_t cudaGraphEventRecordNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event)
{
    RT_ENTER();
    RT_GRAPH_ENTER(d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphEventRecordNodeSetEvent(node, event)));
}

RT_API cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                             const cudaGraphNode_t *pDependencies,
                                             size_t numDependencies, cudaEvent_t event)
{
    RT_ENTER();
    if (!pGraphNode)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphAddEventWaitNode(pGraphNode, graph,
                                                                pDependencies, numDependencies,
                                                                event)));
}

RT_API cudaError_t cudaGraphEventWaitNodeGetEvent(cudaGraphNode_t node, cudaEvent_t *event_out)
{
    RT_ENTER();
    if (!event_out)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphEventWaitNodeGetEvent(node, event_out)));
}

RT_API cudaError_t cudaGraphEventWaitNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event)
{
    RT_ENTER();
    RT_GRAPH_ENTER(d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphEventWaitNodeSetEvent(node, event)));
}

/* ---- memory allocation and free nodes ------------------------------------------------------- */

/* cudaMemAllocNodeParams is CUDA_MEM_ALLOC_NODE_PARAMS with a void * for the address: the driver
 * writes the address into its copy, which goes back to the caller's dptr. */
RT_API cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                            const cudaGraphNode_t *pDependencies,
                                            size_t numDependencies,
                                            struct cudaMemAllocNodeParams *nodeParams)
{
    RT_ENTER();
    /* A count of access descriptors without the array: the driver would read through NULL
     * (NVIDIA's runtime crashes there, H200). */
    if (!pGraphNode || !nodeParams || (nodeParams->accessDescCount && !nodeParams->accessDescs))
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    CUDA_MEM_ALLOC_NODE_PARAMS params;
    memcpy(&params, nodeParams, sizeof params);
    cudaError_t e = rt_driver_result(d, rt_drv.cuGraphAddMemAllocNode(
                                            pGraphNode, graph, pDependencies, numDependencies,
                                            &params));
    if (e == cudaSuccess)
        nodeParams->dptr = (void *)(uintptr_t)params.dptr;
    RT_RETURN(e);
}

/* accessDescs of the answer points into the driver's node: valid while the node lives. */
RT_API cudaError_t cudaGraphMemAllocNodeGetParams(cudaGraphNode_t node,
                                                  struct cudaMemAllocNodeParams *params_out)
{
    RT_ENTER();
    if (!params_out)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    CUDA_MEM_ALLOC_NODE_PARAMS params;
    memset(&params, 0, sizeof params);
    cudaError_t e = rt_driver_result(d, rt_drv.cuGraphMemAllocNodeGetParams(node, &params));
    if (e == cudaSuccess)
        memcpy(params_out, &params, sizeof params);
    RT_RETURN(e);
}

RT_API cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                           const cudaGraphNode_t *pDependencies,
                                           size_t numDependencies, void *dptr)
{
    RT_ENTER();
    if (!pGraphNode)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphAddMemFreeNode(pGraphNode, graph, pDependencies,
                                                              numDependencies,
                                                              (CUdeviceptr)(uintptr_t)dptr)));
}

/* dptr_out points to a void *, which receives the address the node frees. */
RT_API cudaError_t cudaGraphMemFreeNodeGetParams(cudaGraphNode_t node, void *dptr_out)
{
    RT_ENTER();
    if (!dptr_out)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    CUdeviceptr address = 0;
    cudaError_t e = rt_driver_result(d, rt_drv.cuGraphMemFreeNodeGetParams(node, &address));
    if (e == cudaSuccess)
        *(void **)dptr_out = (void *)(uintptr_t)address;
    RT_RETURN(e);
}
