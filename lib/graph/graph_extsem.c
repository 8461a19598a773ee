/*
 * graph_extsem.c - graph nodes that signal or wait on external semaphores (external.c imports
 * them): Add, GetParams and SetParams of each kind, and their edits in an executable graph.
 *
 * The runtime's node parameters are the driver's (an array of semaphores, an array of
 * cudaExternalSemaphoreSignalParams or ...WaitParams with the driver's layout, and their count),
 * checked below, so they pass through.  The driver copies both arrays when a node is created or
 * set; GetParams hands back arrays the node owns, valid until its parameters change.
 *
 * The generic form (cudaGraphAddNode with cudaGraphNodeTypeExtSemaphoreSignal / ...Wait) passes
 * through graph_params.c the same way; stream capture of cudaSignalExternalSemaphoresAsync and
 * cudaWaitExternalSemaphoresAsync makes these nodes in the driver.
 *
 * At launch a signal node signals its semaphores once every node it depends on has completed,
 * and the nodes after a wait node start once its waits are satisfied.  Each semaphore is paired
 * with the parameters of the same index, of which the semaphore's type picks the member that
 * counts: a fence value, the key of a keyed mutex (with a timeout for a wait), or an NvSciSync
 * fence.  cudaExternalSemaphore_t is the driver's CUexternalSemaphore, handed out unchanged
 * (external.c), although the toolkit names the struct it points to otherwise (CUextSemaphore_st
 * in cuda.h, CUexternalSemaphore_st in driver_types.h): the parameters pass by a cast of the
 * whole struct, which the assertions below make safe.
 */
#include "graph/graph.h"

/* Same size, and numExtSems where the driver's is (both arrays come first, in the same order); the
 * node types have the driver's numbers, for cudaGraphNodeGetType (graph.c). */
_Static_assert(sizeof(struct cudaExternalSemaphoreSignalNodeParams) ==
                       sizeof(CUDA_EXT_SEM_SIGNAL_NODE_PARAMS) &&
                   offsetof(struct cudaExternalSemaphoreSignalNodeParams, numExtSems) ==
                       offsetof(CUDA_EXT_SEM_SIGNAL_NODE_PARAMS, numExtSems),
               "external semaphore signal node parameters differ");
_Static_assert(sizeof(struct cudaExternalSemaphoreWaitNodeParams) ==
                       sizeof(CUDA_EXT_SEM_WAIT_NODE_PARAMS) &&
                   offsetof(struct cudaExternalSemaphoreWaitNodeParams, numExtSems) ==
                       offsetof(CUDA_EXT_SEM_WAIT_NODE_PARAMS, numExtSems),
               "external semaphore wait node parameters differ");
_Static_assert((int)cudaGraphNodeTypeExtSemaphoreSignal ==
                       (int)CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL &&
                   (int)cudaGraphNodeTypeExtSemaphoreWait == (int)CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT,
               "external semaphore node types differ");

/* Parameters the driver can read: present, and arrays wherever there is a semaphore.  With a
 * count and NULL arrays NVIDIA's runtime crashes in both Add calls (H200,
 * tests/gpu/expected_differences.txt); minicudart answers cudaErrorInvalidValue in every call
 * here.  The semaphores themselves are not looked at: cudaSignalExternalSemaphoresAsync and
 * cudaWaitExternalSemaphoresAsync (external.c) refuse a NULL one and one a reset destroyed, but
 * these calls hand each entry to the driver as it is. */
static bool rt_extsem_params_ok(const void *params, const void *sems, const void *values,
                                unsigned count)
{
    return params && (!count || (sems && values));
}
/* For either kind of parameters, whose members share their names; for a NULL p no member is
 * read. */
#define RT_EXTSEM_OK(p) \
    rt_extsem_params_ok((p), (p) ? (p)->extSemArray : NULL, (p) ? (p)->paramsArray : NULL, \
                        (p) ? (p)->numExtSems : 0)

/* ---- signal nodes --------------------------------------------------------------------------- */

RT_API cudaError_t cudaGraphAddExternalSemaphoresSignalNode(
    cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
    size_t numDependencies, const struct cudaExternalSemaphoreSignalNodeParams *nodeParams)
{
    RT_ENTER();
    if (!pGraphNode || !RT_EXTSEM_OK(nodeParams))
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphAddExternalSemaphoresSignalNode(
                                     pGraphNode, graph, pDependencies, numDependencies,
                                     (const CUDA_EXT_SEM_SIGNAL_NODE_PARAMS *)nodeParams)));
}

/* The arrays that come back are the node's own (above); a node of another kind is the driver's to
 * refuse.  The wait node's getter below works the same way. */
RT_API cudaError_t cudaGraphExternalSemaphoresSignalNodeGetParams(
    cudaGraphNode_t hNode, struct cudaExternalSemaphoreSignalNodeParams *params_out)
{
    RT_ENTER();
    if (!params_out)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphExternalSemaphoresSignalNodeGetParams(
                                     hNode, (CUDA_EXT_SEM_SIGNAL_NODE_PARAMS *)params_out)));
}

RT_API cudaError_t cudaGraphExternalSemaphoresSignalNodeSetParams(
    cudaGraphNode_t hNode, const struct cudaExternalSemaphoreSignalNodeParams *nodeParams)
{
    RT_ENTER();
    if (!RT_EXTSEM_OK(nodeParams))
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphExternalSemaphoresSignalNodeSetParams(
                                     hNode, (const CUDA_EXT_SEM_SIGNAL_NODE_PARAMS *)nodeParams)));
}

/* In an executable graph (graph_exec.c) the semaphores and their parameters may change, for later
 * launches, but not their number: the driver does not support that. */
RT_API cudaError_t cudaGraphExecExternalSemaphoresSignalNodeSetParams(
    cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
    const struct cudaExternalSemaphoreSignalNodeParams *nodeParams)
{
    RT_ENTER();
    if (!RT_EXTSEM_OK(nodeParams))
        RT_RETURN(cudaErrorInvalidValue);
    RT_EXEC_ENTER(hGraphExec, d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphExecExternalSemaphoresSignalNodeSetParams(
                                     hGraphExec, hNode,
                                     (const CUDA_EXT_SEM_SIGNAL_NODE_PARAMS *)nodeParams)));
}

/* ---- wait nodes ----------------------------------------------------------------------------- */

RT_API cudaError_t cudaGraphAddExternalSemaphoresWaitNode(
    cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
    size_t numDependencies, const struct cudaExternalSemaphoreWaitNodeParams *nodeParams)
{
    RT_ENTER();
    if (!pGraphNode || !RT_EXTSEM_OK(nodeParams))
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphAddExternalSemaphoresWaitNode(
                                     pGraphNode, graph, pDependencies, numDependencies,
                                     (const CUDA_EXT_SEM_WAIT_NODE_PARAMS *)nodeParams)));
}

RT_API cudaError_t cudaGraphExternalSemaphoresWaitNodeGetParams(
    cudaGraphNode_t hNode, struct cudaExternalSemaphoreWaitNodeParams *params_out)
{
    RT_ENTER();
    if (!params_out)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphExternalSemaphoresWaitNodeGetParams(
                                     hNode, (CUDA_EXT_SEM_WAIT_NODE_PARAMS *)params_out)));
}

RT_API cudaError_t cudaGraphExternalSemaphoresWaitNodeSetParams(
    cudaGraphNode_t hNode, const struct cudaExternalSemaphoreWaitNodeParams *nodeParams)
{
    RT_ENTER();
    if (!RT_EXTSEM_OK(nodeParams))
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphExternalSemaphoresWaitNodeSetParams(
                                     hNode, (const CUDA_EXT_SEM_WAIT_NODE_PARAMS *)nodeParams)));
}

RT_API cudaError_t cudaGraphExecExternalSemaphoresWaitNodeSetParams(
    cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
    const struct cudaExternalSemaphoreWaitNodeParams *nodeParams)
{
    RT_ENTER();
    if (!RT_EXTSEM_OK(nodeParams))
        RT_RETURN(cudaErrorInvalidValue);
    RT_EXEC_ENTER(hGraphExec, d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphExecExternalSemaphoresWaitNodeSetParams(
                                     hGraphExec, hNode,
                                     (const CUDA_EXT_SEM_WAIT_NODE_PARAMS *)nodeParams)));
}
