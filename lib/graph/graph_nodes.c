/*
 * graph_nodes.c - building a graph node by node: for each kind of node its Add, its GetParams and
 * its SetParams, and the generic form (cudaGraphAddNode, cudaGraphNodeSetParams) that takes any
 * kind through one struct.
 *
 * Graphs are the driver's (graph.h): every call here ends in one cuGraph* call of the driver (the
 * 1D and symbol copies in its memcpy node calls, which take a 3D copy), and graph, node and event
 * handles reach it as they are.  What an entry point adds:
 *
 *   1. the NULL checks of the caller's pointers, first: cudaErrorInvalidValue, which is NVIDIA's
 *      answer too where it answers at all (tests/gpu/expected_differences.txt lists the NULL
 *      outputs on which its runtime crashes instead);
 *   2. RT_GRAPH_ENTER: the thread's current context, made on first use as by every call that
 *      does CUDA work (a graph call may be the program's first); kernels are resolved in it,
 *      and copies and sets run in it;
 *   3. the parameters translated where the runtime's struct is not the driver's (graph_params.c);
 *   4. the driver's CUresult as the runtime's error (rt_driver_result, which records a sticky
 *      one against the device), left as the thread's last error by RT_RETURN.
 *
 * What the driver checks itself -- the graph, the dependencies and their edge data, whether a node
 * is of the kind that a Get or a Set names -- is left to it, so the caller gets its answer.
 *
 * The runtime keeps no record of the nodes it helped make: a Get asks the driver and translates
 * its answer back (a kernel's host stub looked up again, a copy's kind rebuilt from its memory
 * types), so nodes made by the driver API, or captured from a library's stream, read the same.
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

/* The two structs this file hands to the driver by copy or by cast, without translation. */
_Static_assert(sizeof(struct cudaMemAllocNodeParams) == sizeof(CUDA_MEM_ALLOC_NODE_PARAMS) &&
                   offsetof(struct cudaMemAllocNodeParams, dptr) ==
                       offsetof(CUDA_MEM_ALLOC_NODE_PARAMS, dptr),
               "memory allocation node parameters differ");
_Static_assert(sizeof(cudaLaunchAttributeValue) == sizeof(CUkernelNodeAttrValue),
               "kernel node attribute values differ");

/* ---- the generic form ----------------------------------------------------------------------- */

/* cudaGraphNodeParams has CUgraphNodeParams' size and its union in the same place (graph_params.c
 * checks both), but it cannot be cast: a kernel is named by a host stub, a copy is a
 * cudaMemcpy3DParms, and a program built by nvcc 13.5 may fill 13.5's members (a context in most
 * kinds).  So the struct is translated whole, reserved bytes included, for the driver to check.
 * cudaGraphEdgeData has CUgraphEdgeData's members and size (graph.c checks the size) and goes as
 * it is. */
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
    /* 13.4's form knows 13.5's members; the 12.3 one reads them as bytes that must be zero, so
     * on driver 580 (13.0) a host node with 13.5's sync mode or context is refused, as it is
     * under NVIDIA's 13.5 runtime there (docs/cuda135.md). */
    if (e == cudaSuccess && rt_drv.cuGraphAddNode_v3)
        e = rt_driver_result(d, rt_drv.cuGraphAddNode_v3(pGraphNode, graph, pDependencies,
                                                         (const CUgraphEdgeData *)dependencyData,
                                                         numDependencies, &params));
    else if (e == cudaSuccess)
        e = rt_driver_result(d, rt_drv.cuGraphAddNode(pGraphNode, graph, pDependencies,
                                                      (const CUgraphEdgeData *)dependencyData,
                                                      numDependencies, &params));
    /* The driver wrote its outputs into the translated copy: an allocation's address, a
     * conditional node's body graphs.  The caller reads them from its own struct. */
    if (e == cudaSuccess)
        rt_graph_node_params_outputs(&params, nodeParams);
    RT_RETURN(e);
}

/* The same translation as cudaGraphAddNode.  NVIDIA's documentation asks for a type equal to the
 * node's (checked by the driver: cudaGraphNodeSetParams.type_mismatch in
 * conf_misuse_graph_nodes.cu) and supports no change to allocation and free nodes. */
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
    /* The driver's entry point takes the context explicitly; this first form of the runtime's
     * names none, so it is the thread's current one (for another one:
     * cudaGraphConditionalHandleCreate_v2). */
    CUcontext ctx = atomic_load_explicit(&d->context, memory_order_acquire);
    CUgraphConditionalHandle handle = 0;
    cudaError_t e = rt_driver_result(d, rt_drv.cuGraphConditionalHandleCreate(
                                            &handle, graph, ctx, defaultLaunchValue, flags));
    if (e == cudaSuccess)
        *pHandle_out = (cudaGraphConditionalHandle)handle;
    RT_RETURN(e);
}

/* ---- kernel nodes --------------------------------------------------------------------------- */

/*
 * A kernel node names its kernel as a launch does: func is the host stub nvcc emitted for the
 * kernel (or a cudaKernel_t), which the driver has never heard of.  rt_graph_kernel_params finds
 * the registered kernel, loads its module on the current device if this is the kernel's first use
 * there (so an image missing for this device is reported here, when the node is made), applies
 * what cudaFuncSetAttribute recorded, and puts the CUfunction in the driver's struct.  A pointer
 * that is no kernel gets NVIDIA's 13.5 answer (graph_params.c: rt_graph_kernel_unknown).
 *
 * kernelParams and extra go through unchanged: the driver reads the parameters' count, offsets
 * and sizes from the kernel's image and copies the argument values during the call (NVIDIA's
 * documentation), so the runtime's packed parameter buffer of launch.c has no part here.
 */
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
    /* The driver answers with a CUfunction; the caller compares func with its own kernel
     * pointers, so the host stub registered for that function replaces it.  kernelParams and
     * extra point into the node's own copy, valid until the node is destroyed or set again. */
    if (e == cudaSuccess)
        rt_graph_kernel_params_back(&params, d, pNodeParams);
    RT_RETURN(e);
}

/* Resolved as for a new node: the kernel may be another one, first used on this device here. */
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
    /* NVIDIA's runtime crashes on a NULL value here and in the setter below (the
     * cudaGraphKernelNode*Attribute cases of conf_misuse_graph_params.cu and
     * tests/gpu/expected_differences.txt); an error is the answer a caller can handle. */
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

/* Every attribute of hSrc onto hDst.  NVIDIA's documentation asks that both nodes have the same
 * context (cudaErrorInvalidContext otherwise). */
RT_API cudaError_t cudaGraphKernelNodeCopyAttributes(cudaGraphNode_t hDst, cudaGraphNode_t hSrc)
{
    RT_ENTER();
    RT_GRAPH_ENTER(d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphKernelNodeCopyAttributes(hDst, hSrc)));
}

/* ---- memcpy nodes --------------------------------------------------------------------------- */

/*
 * Every form of copy node becomes one CUDA_MEMCPY3D (graph_params.c): the 3D parameters
 * translated, a 1D copy as one row of count bytes, a symbol copy as a 1D copy to or from the
 * variable's address.  The driver's node also names the context the copy runs in, which the
 * runtime's calls leave implicit: the current device's.  A Get translates back, so the caller
 * sees a cudaMemcpy3DParms whatever form made the node.
 */

/* Adds a memcpy node whose copy is already translated (or whose translation failed: e). */
static cudaError_t rt_add_memcpy(cudaError_t e, rt_device *d, cudaGraphNode_t *node,
                                 cudaGraph_t graph, const cudaGraphNode_t *deps, size_t count,
                                 const CUDA_MEMCPY3D *copy)
{
    if (e != cudaSuccess)
        return e;
    /* The context the copy runs in: the thread's current one, which RT_GRAPH_ENTER made sure of. */
    CUcontext ctx = atomic_load_explicit(&d->context, memory_order_acquire);
    return rt_driver_result(d, rt_drv.cuGraphAddMemcpyNode(node, graph, deps, count, copy, ctx));
}

/* Each side an array or a pitched pointer, as cudaMemcpy3D takes them: an array side's position
 * and, when an array takes part, the width count elements (graph_params.c scales them to bytes). */
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

/* count bytes from src to dst, in the direction kind names; with cudaMemcpyDefault the direction
 * is inferred from the pointers, which needs unified addressing (NVIDIA's documentation). */
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
 * device, found as cudaMemcpyToSymbol finds it, then an ordinary 1D copy node.  The driver knows
 * addresses, not the host shadows nvcc registers, so the lookup is the runtime's, once, here, and
 * every launch of the node uses that address: the variable's instance in the current device's
 * context (module.c: rt_var_address).  An unknown symbol is cudaErrorInvalidSymbol, a
 * span past the variable's end cudaErrorInvalidValue, a kind that names the host on the
 * variable's side cudaErrorInvalidMemcpyDirection (memory.c: rt_symbol_side). */
RT_API cudaError_t cudaGraphAddMemcpyNodeToSymbol(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                  const cudaGraphNode_t *pDependencies,
                                                  size_t numDependencies, const void *symbol,
                                                  const void *src, size_t count, size_t offset,
                                                  enum cudaMemcpyKind kind)
{
    RT_ENTER();
    /* An unknown symbol comes before a NULL node: NVIDIA's runtime answers
     * cudaErrorInvalidSymbol with every other argument NULL (H200); the setters check it first
     * through rt_graph_memcpy_symbol (graph_params.c). */
    if (!rt_var_find(symbol))
        RT_RETURN(cudaErrorInvalidSymbol);
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
    if (!rt_var_find(symbol))
        RT_RETURN(cudaErrorInvalidSymbol);
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
    /* Back to elements and a kind; an array operand's element size is asked of the driver
     * again, so this can fail after the driver's call succeeded. */
    if (e == cudaSuccess)
        e = rt_graph_memcpy_params_back(&copy, pNodeParams);
    RT_RETURN(e);
}

/* Sets a memcpy node to a copy already translated (or whose translation failed: e).  The driver's
 * setter takes the copy only, no context. */
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

/* The setters that take no pointer of the caller's to read have no NULL check of their own: dst
 * and src are addresses of the copy, and the driver judges them. */
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

/* cudaMemsetParams is CUDA_MEMSET_NODE_PARAMS member for member, with a void * where the driver
 * has a CUdeviceptr: width counts elements of elementSize bytes (1, 2 or 4, as cuda.h requires;
 * the driver judges other sizes), each element is set to value, and pitch separates the height
 * rows.  As for a copy, the driver's Add names the context the node runs in. */

/* The translation cannot fail: NULL dst, bad sizes and pitches are the driver's to answer. */
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
    /* The driver's struct first, then back to the runtime's (dst as a pointer). */
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

/* fn and userData, in the same places: a cast, and the driver calls fn(userData) when the node
 * runs.  A NULL fn is left to the driver to judge (cudaGraphHostNodeSetParams.null_fn in
 * conf_misuse_graph_params.cu compares its answer with NVIDIA's runtime's). */

/* The driver copies fn and userData; what userData points to stays the caller's, and must live
 * as long as the node may run. */
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

/* Nothing to translate: the child is a CUgraph, and an empty node has no parameters (it only
 * orders: it waits for its dependencies and then releases the nodes after it). */

/* The node holds a clone of childGraph: later changes to childGraph do not reach it.  (Only the
 * generic form, with cudaGraphChildGraphOwnershipMove, can hand the graph itself over.) */
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

/* A cudaEvent_t is the driver's CUevent (event.c), so these pass straight through.  A wait node
 * waits for all the work the event captured when it was last recorded, and the event may belong
 * to another context or device; neither kind of node may sit in a loop or a conditional body
 * (NVIDIA's documentation).  A NULL event and a node of the other kind are left to the driver
 * (conf_misuse_graph_nodes.cu compares those cases with NVIDIA's runtime). */

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
     * (NVIDIA's runtime crashes there, H200: cudaGraphAddMemAllocNode.access_descs_null_with_count
     * in conf_misuse_graph_nodes.cu). */
    if (!pGraphNode || !nodeParams || (nodeParams->accessDescCount && !nodeParams->accessDescs))
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    /* Copied, not cast: the caller's struct is only written back after a success. */
    CUDA_MEM_ALLOC_NODE_PARAMS params;
    memcpy(&params, nodeParams, sizeof params);
    cudaError_t e = rt_driver_result(d, rt_drv.cuGraphAddMemAllocNode(
                                            pGraphNode, graph, pDependencies, numDependencies,
                                            &params));
    if (e == cudaSuccess)
        nodeParams->dptr = (void *)(uintptr_t)params.dptr;
    RT_RETURN(e);
}

/* accessDescs of the answer points into the driver's node: valid while the node lives.  NVIDIA's
 * documentation has the node own what poolProps and accessDescs hold, not to be modified.  The
 * answer is the driver's struct, copied as it is, dptr included. */
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

/* dptr must be an address an allocation node returned, freed once: NVIDIA's documentation lists
 * cudaErrorInvalidValue for a second free, an address no allocation node returned and an invalid
 * address, and the driver answers each (the cudaGraphAddMemFreeNode cases of
 * conf_misuse_graph_nodes.cu). */
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
