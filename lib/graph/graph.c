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
 *
 * No handle is translated, not even by a cast: the toolkit declares cudaGraph_t and CUgraph both
 * as pointers to struct CUgraph_st, cudaGraphNode_t and CUgraphNode to struct CUgraphNode_st,
 * cudaUserObject_t and CUuserObject to struct CUuserObject_st.  A graph that driver-API code or
 * a library with a runtime of its own made in this process is therefore a graph here as well.
 *
 * Every entry point has the same shape: RT_ENTER (the call's record for MINICUDART_SUMMARY),
 * the output pointers checked (NULL is cudaErrorInvalidValue before the driver is touched), then
 * RT_GRAPH_ENTER, the runtime's lazy start (rt_context_enter, device.h): a graph call may be a
 * program's first CUDA call, and after it the driver is loaded and a context current on the
 * thread (the device's primary context, unless the program made another one current).  The
 * driver's CUresult comes back through rt_driver_result, which translates it and records a sticky
 * error against the device; RT_RETURN leaves any failure as the thread's last error.  Graphs are
 * not in handles.c's table (executable graphs are: graph_exec.c), so a graph handle reaches the
 * driver as it comes, and the driver judges it.
 */
#include "graph/graph.h"

_Static_assert(sizeof(cudaGraphEdgeData) == sizeof(CUgraphEdgeData), "edge data differs");
_Static_assert((int)cudaUserObjectNoDestructorSync == (int)CU_USER_OBJECT_NO_DESTRUCTOR_SYNC &&
                   (int)cudaGraphUserObjectMove == (int)CU_GRAPH_USER_OBJECT_MOVE,
               "user object flags differ");

/* ---- graphs --------------------------------------------------------------------------------- */

/* An empty graph.  flags pass on as they come: the driver documents them as "must be 0". */
RT_API cudaError_t cudaGraphCreate(cudaGraph_t *pGraph, unsigned int flags)
{
    RT_ENTER();
    if (!pGraph)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphCreate(pGraph, flags)));
}

/* The graph and all its nodes.  Executable graphs made from it live on: instantiation copied
 * the graph (graph_exec.c).  A graph a capture is still building is the capture's until
 * cudaStreamEndCapture, and the driver allows every operation on it but destroying it and
 * removing its nodes. */
RT_API cudaError_t cudaGraphDestroy(cudaGraph_t graph)
{
    RT_ENTER();
    RT_GRAPH_ENTER(d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphDestroy(graph)));
}

/* A deep copy, child graphs included, that later edits of either graph do not reach.  The driver
 * refuses to clone a graph with memory allocation, memory free or conditional nodes. */
RT_API cudaError_t cudaGraphClone(cudaGraph_t *pGraphClone, cudaGraph_t originalGraph)
{
    RT_ENTER();
    if (!pGraphClone)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphClone(pGraphClone, originalGraph)));
}

/* Every node of the graph; cudaGraphGetRootNodes below gives those without dependencies.
 * Where the array is larger than the graph, the driver sets the entries past the last to NULL. */
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

/* Edges from[i] -> to[i], both nodes of graph.  edgeData NULL means default (zeroed) data, an
 * ordinary dependency; non-zero data (ports and a type, CUDA 12.3) makes a programmatic one
 * between kernel nodes.  An edge that already exists is an error, the driver's. */
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

/* The graph in DOT, written to path by the driver.  cuGraphDebugDotPrint is an optional entry of
 * the driver table (driver_graph.def): a driver without it, like the tests' fake driver (its
 * trace in docs/anatomy.md), leaves the rest of the runtime working, and only this call answers
 * cudaErrorNotSupported, with the reason in the trace.  graph_ids.c reads the same DOT for
 * cudaGraphGetId. */
RT_API cudaError_t cudaGraphDebugDotPrint(cudaGraph_t graph, const char *path, unsigned int flags)
{
    RT_ENTER();
    if (!path)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    cudaError_t e = rt_driver_optional(rt_drv.cuGraphDebugDotPrint != NULL,
                                       "cuGraphDebugDotPrint");
    if (e == cudaSuccess)
        e = rt_driver_result(d, rt_drv.cuGraphDebugDotPrint(graph, path, flags));
    RT_RETURN(e);
}


/* from[i] -> to[i] with edgeData[i].  edgeData may be NULL alone only while every edge has
 * default data: the driver refuses a query that would lose data (cudaErrorLossyQuery).  The
 * per-node queries below follow the same rule. */
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

/* An edge is named by its two nodes and its data (NULL: default data).  The driver refuses to
 * remove edges, and below to destroy nodes, in a graph with memory allocation or free nodes. */
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

/* The node of a clone (cudaGraphClone) that was originalNode when the clone was made. */
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

/* initialRefcount references, owned by the caller.  The flags the static assertion above checks
 * are the driver's: cudaUserObjectNoDestructorSync, which the driver requires, says that no CUDA
 * call can wait for the destructor (a program that must know it ran signals that itself). */
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

/* At zero references the driver runs the destructor.  Releasing references the caller does not
 * own is undefined (documented); count must be nonzero and at most INT_MAX, here as in Retain. */
RT_API cudaError_t cudaUserObjectRelease(cudaUserObject_t object, unsigned int count)
{
    RT_ENTER();
    RT_GRAPH_ENTER(d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuUserObjectRelease(object, count)));
}

/* Gives graph count references: new ones, or with cudaGraphUserObjectMove the caller's own, which
 * the caller then no longer owns.  The graph gives its references back when it is destroyed. */
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
