/*
 * graph.c - the graph itself: creating, destroying and cloning it, its nodes and edges (queried
 * and edited), and the user objects whose lifetime it carries.
 *
 * Every call is the driver's (graph.h says why the handles pass unchanged).  Edges carry
 * cudaGraphEdgeData, which has CUgraphEdgeData's layout; the node lists follow the driver's
 * protocol: a NULL array asks for the count, otherwise *count is the array's capacity on the way
 * in and the number written on the way out.  The queries work on a graph that a stream capture
 * is still building too (graph_capture.c).
 *
 * A user object (cudaUserObjectCreate) is a reference-counted destructor: graphs and executable
 * graphs retain it so that resources a graph uses outlive every launch of it.  The driver runs
 * the destructor when the last reference goes, on a thread of its own; it may not call CUDA.
 */
#include "graph/graph.h"

_Static_assert(sizeof(cudaGraphEdgeData) == sizeof(CUgraphEdgeData), "edge data differs");
_Static_assert((int)cudaUserObjectNoDestructorSync == (int)CU_USER_OBJECT_NO_DESTRUCTOR_SYNC &&
                   (int)cudaGraphUserObjectMove == (int)CU_GRAPH_USER_OBJECT_MOVE,
               "user object flags differ");

/* ---- graphs --------------------------------------------------------------------------------- */

RT_API cudaError_t cudaGraphCreate(cudaGraph_t *pGraph, unsigned int flags)
{
    RT_ENTER();
    if (!pGraph)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphCreate(pGraph, flags)));
}

RT_API cudaError_t cudaGraphDestroy(cudaGraph_t graph)
{
    RT_ENTER();
    RT_GRAPH_ENTER(d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphDestroy(graph)));
}

RT_API cudaError_t cudaGraphClone(cudaGraph_t *pGraphClone, cudaGraph_t originalGraph)
{
    RT_ENTER();
    if (!pGraphClone)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphClone(pGraphClone, originalGraph)));
}

RT_API cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *numNodes)
{
    RT_ENTER();
    if (!numNodes)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphGetNodes(graph, nodes, numNodes)));
}

RT_API cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t *pRootNodes,
                                         size_t *pNumRootNodes)
{
    RT_ENTER();
    if (!pNumRootNodes)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphGetRootNodes(graph, pRootNodes, pNumRootNodes)));
}

RT_API cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                            const cudaGraphNode_t *to,
                                            const cudaGraphEdgeData *edgeData,
                                            size_t numDependencies)
{
    RT_ENTER();
    RT_GRAPH_ENTER(d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphAddDependencies(
                                     graph, from, to, (const CUgraphEdgeData *)edgeData,
                                     numDependencies)));
}

RT_API cudaError_t cudaGraphDebugDotPrint(cudaGraph_t graph, const char *path, unsigned int flags)
{
    RT_ENTER();
    if (!path)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    cudaError_t e = rt_driver_optional(rt_drv.cuGraphDebugDotPrint != NULL, __func__,
                                       "cuGraphDebugDotPrint");
    if (e == cudaSuccess)
        e = rt_driver_result(d, rt_drv.cuGraphDebugDotPrint(graph, path, flags));
    RT_RETURN(e);
}


RT_API cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to,
                                     cudaGraphEdgeData *edgeData, size_t *numEdges)
{
    RT_ENTER();
    if (!numEdges)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphGetEdges(graph, from, to,
                                                        (CUgraphEdgeData *)edgeData, numEdges)));
}

RT_API cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node,
                                                cudaGraphNode_t *pDependencies,
                                                cudaGraphEdgeData *edgeData,
                                                size_t *pNumDependencies)
{
    RT_ENTER();
    if (!pNumDependencies)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphNodeGetDependencies(
                                     node, pDependencies, (CUgraphEdgeData *)edgeData,
                                     pNumDependencies)));
}

RT_API cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t node,
                                                  cudaGraphNode_t *pDependentNodes,
                                                  cudaGraphEdgeData *edgeData,
                                                  size_t *pNumDependentNodes)
{
    RT_ENTER();
    if (!pNumDependentNodes)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphNodeGetDependentNodes(
                                     node, pDependentNodes, (CUgraphEdgeData *)edgeData,
                                     pNumDependentNodes)));
}

RT_API cudaError_t cudaGraphRemoveDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                               const cudaGraphNode_t *to,
                                               const cudaGraphEdgeData *edgeData,
                                               size_t numDependencies)
{
    RT_ENTER();
    RT_GRAPH_ENTER(d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphRemoveDependencies(
                                     graph, from, to, (const CUgraphEdgeData *)edgeData,
                                     numDependencies)));
}

RT_API cudaError_t cudaGraphDestroyNode(cudaGraphNode_t node)
{
    RT_ENTER();
    RT_GRAPH_ENTER(d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphDestroyNode(node)));
}

RT_API cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, enum cudaGraphNodeType *pType)
{
    RT_ENTER();
    if (!pType)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    CUgraphNodeType type;
    cudaError_t e = rt_driver_result(d, rt_drv.cuGraphNodeGetType(node, &type));
    if (e == cudaSuccess)
        *pType = (enum cudaGraphNodeType)type;      /* the same numbers (graph_params.c) */
    RT_RETURN(e);
}

RT_API cudaError_t cudaGraphNodeFindInClone(cudaGraphNode_t *pNode, cudaGraphNode_t originalNode,
                                            cudaGraph_t clonedGraph)
{
    RT_ENTER();
    if (!pNode)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphNodeFindInClone(pNode, originalNode,
                                                               clonedGraph)));
}

/* ---- user objects --------------------------------------------------------------------------- */

RT_API cudaError_t cudaUserObjectCreate(cudaUserObject_t *object_out, void *ptr,
                                        cudaHostFn_t destroy, unsigned int initialRefcount,
                                        unsigned int flags)
{
    RT_ENTER();
    if (!object_out)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    /* cudaHostFn_t and CUhostFn are both void (*)(void *). */
    RT_RETURN(rt_driver_result(d, rt_drv.cuUserObjectCreate(object_out, ptr, destroy,
                                                           initialRefcount, flags)));
}

RT_API cudaError_t cudaUserObjectRetain(cudaUserObject_t object, unsigned int count)
{
    RT_ENTER();
    RT_GRAPH_ENTER(d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuUserObjectRetain(object, count)));
}

RT_API cudaError_t cudaUserObjectRelease(cudaUserObject_t object, unsigned int count)
{
    RT_ENTER();
    RT_GRAPH_ENTER(d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuUserObjectRelease(object, count)));
}

RT_API cudaError_t cudaGraphRetainUserObject(cudaGraph_t graph, cudaUserObject_t object,
                                             unsigned int count, unsigned int flags)
{
    RT_ENTER();
    RT_GRAPH_ENTER(d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphRetainUserObject(graph, object, count, flags)));
}

RT_API cudaError_t cudaGraphReleaseUserObject(cudaGraph_t graph, cudaUserObject_t object,
                                              unsigned int count)
{
    RT_ENTER();
    RT_GRAPH_ENTER(d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphReleaseUserObject(graph, object, count)));
}
