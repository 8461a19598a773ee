/*
 * graph_ids.c - what CUDA 13.5 added to graphs: identities for tools, the generic parameter
 * getter, conditional handles of a named context, and recapture into an existing graph.
 *
 * Each is a driver entry point of 13.1 to 13.3 first.  On an older driver (580 is 13.0) NVIDIA's
 * 13.5 runtime refuses them all with cudaErrorCallRequiresNewerDriver (H200), before it looks at
 * the arguments; minicudart answers those it can from what driver 580 does have, and says so in
 * the trace, and refuses the others in NVIDIA's order:
 *
 *   cudaGraphNodeGetParams           the node's type (cuGraphNodeGetType) and the getter of that
 *                                    kind (cuGraphKernelNodeGetParams, ...), in the generic form;
 *                                    conditional nodes have no getter there, and batch nodes none
 *                                    that the runtime uses: refused
 *   cudaGraphGetId                   the driver numbers every graph, and cudaGraphDebugDotPrint
 *                                    shows the number as the graph's cluster label "graph_<id>":
 *                                    which is the id 13.5 documents ("matches that referenced by
 *                                    cudaGraphDebugDotPrint").  The runtime prints the graph's DOT
 *                                    into an anonymous in-memory file and reads the label back
 *   the others                       a node's graph, its local and tools ids, an executable
 *                                    graph's id and recapture have nothing to be derived from
 *                                    (the DOT names a graph, and no query finds a node's graph or
 *                                    an executable graph's): refused as NVIDIA's runtime does
 *
 * cudaGraphConditionalHandleCreate_v2 needs nothing new from the driver: the 12.3 entry point
 * already takes the context, which is what an execution context is (exec_ctx.c).
 *
 * Whether the driver has an entry point is whether its field of rt_drv is non-NULL: driver.c asks
 * cuGetProcAddress for each at the ABI version of its signature (driver_graph.def) and drops
 * every optional one above the driver's own version (rt_driver_drop_newer), so on driver 580 all
 * of 13.1 to 13.4 are NULL and none is called with a signature the driver does not have.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "graph/graph.h"

/* The first form with a context of the caller's choosing, a green context's, say: a conditional
 * node, its handle and the kernels of its bodies share one context (cuda.h).  NULL is the current
 * device's, as in the first form (NVIDIA's 13.5 runtime accepts it on driver 580:
 * ../shared/reference/CUDA135.md). */
RT_API cudaError_t cudaGraphConditionalHandleCreate_v2(cudaGraphConditionalHandle *pHandle_out,
                                                       cudaGraph_t graph,
                                                       cudaExecutionContext_t ctx,
                                                       unsigned int defaultLaunchValue,
                                                       unsigned int flags)
{
    RT_ENTER();
    if (!pHandle_out)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    CUcontext context = ctx ? (CUcontext)ctx
                            : atomic_load_explicit(&d->context, memory_order_acquire);
    CUgraphConditionalHandle handle = 0;
    cudaError_t e = rt_driver_result(d, rt_drv.cuGraphConditionalHandleCreate(
                                            &handle, graph, context, defaultLaunchValue, flags));
    if (e == cudaSuccess)
        *pHandle_out = (cudaGraphConditionalHandle)handle;
    RT_RETURN(e);
}

/* ---- identities ----------------------------------------------------------------------------- */

/* The driver's number of graph, from its DOT: the first cluster label, `label="graph_<id>"`
 * (the outermost graph's; child graphs come later).  Returns cudaErrorCallRequiresNewerDriver
 * when the DOT cannot be made or read, with the reason in the trace. */
static cudaError_t rt_graph_dot_id(CUgraph graph, unsigned *id)
{
    if (!rt_drv.cuGraphDebugDotPrint)
        return rt_driver_newer(false, "cuGraphGetId or cuGraphDebugDotPrint");
    /* The driver writes the DOT to a path it opens itself.  An anonymous in-memory file gives it
     * one (/proc/self/fd/N) with no name in any directory, so it collides with no other file and
     * needs no writable one, and it vanishes with the last descriptor: nothing is left behind. */
    int fd = memfd_create("minicudart-graph-id", MFD_CLOEXEC);
    if (fd < 0) {
        RT_TRACE("cudaGraphGetId: no memfd for the driver's DOT");
        return rt_driver_newer(false, "cuGraphGetId");
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    /* Flags 0, not verbose: the cluster label is in that DOT too (conf_cuda135_served.cu prints
     * its graph's DOT with 0 and finds the label). */
    CUresult r = rt_drv.cuGraphDebugDotPrint(graph, path, 0);
    cudaError_t e = rt_error_from_cu(r);
    /* Only the beginning is read: the outermost graph's label is the first one.  pread from
     * offset 0, whatever this descriptor's offset: the driver wrote through its own. */
    char head[4096];
    ssize_t got = e == cudaSuccess ? pread(fd, head, sizeof head - 1, 0) : -1;
    close(fd);
    if (e != cudaSuccess)
        return e;                 /* an invalid graph: the driver's answer */
    head[got > 0 ? got : 0] = '\0';
    static const char label[] = "label=\"graph_";
    const char *at = strstr(head, label);
    char *end = NULL;
    unsigned long value = at ? strtoul(at + sizeof label - 1, &end, 10) : 0;
    /* Digits and then the closing quote, in an unsigned int: anything else is a DOT of a form this
     * code does not know, and the answer is then that of a driver without cuGraphGetId. */
    if (!at || !end || *end != '"' || value > UINT32_MAX) {
        RT_TRACE("cudaGraphGetId: the driver's DOT has no graph label where expected");
        return rt_driver_newer(false, "cuGraphGetId");
    }
    *id = (unsigned)value;
    RT_TRACE("cudaGraphGetId(%p): %u, from the driver's DOT (no cuGraphGetId)", (void *)graph, *id);
    return cudaSuccess;
}

/* On the H200 the ids read from the DOT were distinct for distinct graphs, the same when asked
 * again, and the label of the graph's own DOT (tests/gpu/conf_cuda135_served.cu, under
 * minicudart; NVIDIA's 13.5 runtime answers cudaErrorCallRequiresNewerDriver there).  The
 * arguments come first, on any driver: this function is answered, not refused, on driver 580. */
RT_API cudaError_t cudaGraphGetId(cudaGraph_t hGraph, unsigned int *graphID)
{
    RT_ENTER();
    if (!hGraph || !graphID)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    if (rt_drv.cuGraphGetId)
        RT_RETURN(rt_driver_result(d, rt_drv.cuGraphGetId(hGraph, graphID)));
    RT_RETURN(rt_graph_dot_id(hGraph, graphID));
}

/* The four below need the driver's own entry point, and check in NVIDIA's order: the driver's
 * age before the arguments, so that on driver 580 even NULL arguments are answered with
 * cudaErrorCallRequiresNewerDriver, as NVIDIA's 13.5 runtime answers them (conf_misuse_cuda135.cu
 * compares the two on the H200). */
RT_API cudaError_t cudaGraphExecGetId(cudaGraphExec_t hGraphExec, unsigned int *graphID)
{
    RT_ENTER();
    RT_GRAPH_ENTER(d);
    cudaError_t e = rt_driver_newer(rt_drv.cuGraphExecGetId != NULL, "cuGraphExecGetId");
    if (e != cudaSuccess)
        RT_RETURN(e);
    if (!hGraphExec || !graphID)
        RT_RETURN(cudaErrorInvalidValue);
    /* An executable graph that a cudaDeviceReset destroyed is refused before the driver sees it
     * (graph.h: rt_graph_exec_enter). */
    if ((e = rt_graph_exec_enter(hGraphExec, &d)) != cudaSuccess)
        RT_RETURN(e);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphExecGetId(hGraphExec, graphID)));
}

RT_API cudaError_t cudaGraphNodeGetLocalId(cudaGraphNode_t hNode, unsigned int *nodeId)
{
    RT_ENTER();
    RT_GRAPH_ENTER(d);
    cudaError_t e = rt_driver_newer(rt_drv.cuGraphNodeGetLocalId != NULL,
                                    "cuGraphNodeGetLocalId");
    if (e != cudaSuccess)
        RT_RETURN(e);
    if (!hNode || !nodeId)
        RT_RETURN(cudaErrorInvalidValue);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphNodeGetLocalId(hNode, nodeId)));
}

RT_API cudaError_t cudaGraphNodeGetToolsId(cudaGraphNode_t hNode, unsigned long long *toolsNodeId)
{
    RT_ENTER();
    RT_GRAPH_ENTER(d);
    cudaError_t e = rt_driver_newer(rt_drv.cuGraphNodeGetToolsId != NULL,
                                    "cuGraphNodeGetToolsId");
    if (e != cudaSuccess)
        RT_RETURN(e);
    if (!hNode || !toolsNodeId)
        RT_RETURN(cudaErrorInvalidValue);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphNodeGetToolsId(hNode, toolsNodeId)));
}

RT_API cudaError_t cudaGraphNodeGetContainingGraph(cudaGraphNode_t hNode, cudaGraph_t *phGraph)
{
    RT_ENTER();
    RT_GRAPH_ENTER(d);
    cudaError_t e = rt_driver_newer(rt_drv.cuGraphNodeGetContainingGraph != NULL,
                                    "cuGraphNodeGetContainingGraph");
    if (e != cudaSuccess)
        RT_RETURN(e);
    if (!hNode || !phGraph)
        RT_RETURN(cudaErrorInvalidValue);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphNodeGetContainingGraph(hNode,
                                                                       (CUgraph *)phGraph)));
}

/* ---- the generic getter --------------------------------------------------------------------- */

/* A node's parameters from the getter of its kind, in the driver's generic form (what
 * cuGraphNodeGetParams of 13.2 would give).  cudaErrorNotSupported for the kinds without one. */
static cudaError_t rt_node_params_by_kind(CUgraphNode node, CUgraphNodeParams *out)
{
    CUgraphNodeType type;
    CUresult r = rt_drv.cuGraphNodeGetType(node, &type);
    if (r != CUDA_SUCCESS)
        return rt_error_from_cu(r);
    memset(out, 0, sizeof *out);
    out->type = type;
    switch ((int)type) {
    case CU_GRAPH_NODE_TYPE_KERNEL: {
        /* The getter's form has the generic one's members, the context included. */
        _Static_assert(sizeof(CUDA_KERNEL_NODE_PARAMS) == sizeof(CUDA_KERNEL_NODE_PARAMS_v3) &&
                           offsetof(CUDA_KERNEL_NODE_PARAMS, ctx) ==
                               offsetof(CUDA_KERNEL_NODE_PARAMS_v3, ctx),
                       "kernel node parameter versions differ");
        CUDA_KERNEL_NODE_PARAMS k;
        memset(&k, 0, sizeof k);
        r = rt_drv.cuGraphKernelNodeGetParams(node, &k);
        memcpy(&out->kernel, &k, sizeof k);
        break;
    }
    case CU_GRAPH_NODE_TYPE_MEMCPY:
        /* The copy only: the per-kind getter names no context, so copyCtx stays NULL. */
        r = rt_drv.cuGraphMemcpyNodeGetParams(node, &out->memcpy.copyParams);
        break;
    case CU_GRAPH_NODE_TYPE_MEMSET: {
        /* The first form's six members, the beginning of the generic one's; no context. */
        CUDA_MEMSET_NODE_PARAMS set;
        r = rt_drv.cuGraphMemsetNodeGetParams(node, &set);
        memcpy(&out->memset, &set, sizeof set);
        break;
    }
    case CU_GRAPH_NODE_TYPE_HOST: {
        /* fn and userData; 13.5's sync mode and context stay zero: a driver without the generic
         * getter took neither for a host node (13.4's cuGraphAddNode_v3 brought them). */
        CUDA_HOST_NODE_PARAMS host;
        r = rt_drv.cuGraphHostNodeGetParams(node, &host);
        out->host.fn = host.fn;
        out->host.userData = host.userData;
        break;
    }
    case CU_GRAPH_NODE_TYPE_GRAPH:
        r = rt_drv.cuGraphChildGraphNodeGetGraph(node, &out->graph.graph);
        break;
    case CU_GRAPH_NODE_TYPE_EMPTY:
        break;
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
        r = rt_drv.cuGraphEventWaitNodeGetEvent(node, &out->eventWait.event);
        break;
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
        r = rt_drv.cuGraphEventRecordNodeGetEvent(node, &out->eventRecord.event);
        break;
    case CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL:
        /* The first form's three members begin the generic one's, so the getter writes in
         * place; extSemArray and paramsArray are the node's, valid until it is destroyed or set
         * (cuda.h). */
        r = rt_drv.cuGraphExternalSemaphoresSignalNodeGetParams(
            node, (CUDA_EXT_SEM_SIGNAL_NODE_PARAMS *)&out->extSemSignal);
        break;
    case CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT:
        r = rt_drv.cuGraphExternalSemaphoresWaitNodeGetParams(
            node, (CUDA_EXT_SEM_WAIT_NODE_PARAMS *)&out->extSemWait);
        break;
    case CU_GRAPH_NODE_TYPE_MEM_ALLOC: {
        CUDA_MEM_ALLOC_NODE_PARAMS alloc;
        memset(&alloc, 0, sizeof alloc);
        r = rt_drv.cuGraphMemAllocNodeGetParams(node, &alloc);
        memcpy(&out->alloc, &alloc, sizeof alloc);
        break;
    }
    case CU_GRAPH_NODE_TYPE_MEM_FREE:
        r = rt_drv.cuGraphMemFreeNodeGetParams(node, &out->free.dptr);
        break;
    default:
        /* The rest: a conditional node, which has no getter of its own in the driver; type 12, the
         * driver's batch of memory operations, which the runtime's API does not name; 14, 13.5's
         * batch of copies.  cudaErrorNotSupported is among the function's documented codes. */
        RT_TRACE("cudaGraphNodeGetParams: a node of type %d has no getter of its own in this "
                 "driver (%d): not implemented", (int)type, rt_drv.version);
        return cudaErrorNotSupported;
    }
    return rt_error_from_cu(r);
}

/* The driver's generic getter where it has one (13.2), else the node's type and the getter of
 * that kind.  Either way the driver's answer is then given as 13.5's runtime gives it
 * (rt_graph_node_params_back): a kernel named by its host stub, a copy as cudaMemcpy3DParms. */
RT_API cudaError_t cudaGraphNodeGetParams(cudaGraphNode_t node,
                                          struct cudaGraphNodeParams *nodeParams)
{
    RT_ENTER();
    if (!node || !nodeParams)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    CUgraphNodeParams params;
    cudaError_t e;
    if (rt_drv.cuGraphNodeGetParams) {
        memset(&params, 0, sizeof params);
        e = rt_driver_result(d, rt_drv.cuGraphNodeGetParams(node, &params));
    } else {
        e = rt_node_params_by_kind(node, &params);
        RT_TRACE("cudaGraphNodeGetParams(%p): the driver has no cuGraphNodeGetParams; answered "
                 "from the getter of the node's kind (type %d): %s", (void *)node,
                 (int)params.type, rt_error_name(e));
    }
    if (e == cudaSuccess)
        e = rt_graph_node_params_back(&params, d, nodeParams);
    RT_RETURN(e);
}

/* ---- recapture ------------------------------------------------------------------------------ */

/*
 * cudaStreamBeginRecaptureToGraph's callback takes the runtime's cudaGraphNodeParams, the
 * driver's takes CUgraphNodeParams: a trampoline translates both sets of parameters
 * (rt_graph_node_params_back) for the user's function.  Its record lives until the capture on
 * that stream ends (rt_recapture_end, from cudaStreamEndCapture) or another recapture begins on
 * it.
 */
typedef struct rt_recapture {
    CUstream stream;
    cudaGraphRecaptureCallback_t fn;
    void *user;
    rt_device *d;
    struct rt_recapture *next;
} rt_recapture;

static pthread_mutex_t rt_recapture_lock = PTHREAD_MUTEX_INITIALIZER;
static rt_recapture *rt_recaptures;

/* Called by the driver for every node whose parameters the recapture changed (cuda135.h); data
 * is the stream's record. */
static CUresult CUDA_CB rt_recapture_trampoline(void *data, CUgraphNode node,
                                                const CUgraphNodeParams *original,
                                                const CUgraphNodeParams *recaptured,
                                                CUgraphRecaptureStatus status)
{
    const rt_recapture *rc = data;
    struct cudaGraphNodeParams before, after;
    /* Parameters the runtime cannot give in its own terms end the recapture too, as a failure
     * of the callback's would. */
    if (rt_graph_node_params_back(original, rc->d, &before) != cudaSuccess ||
        rt_graph_node_params_back(recaptured, rc->d, &after) != cudaSuccess)
        return CUDA_ERROR_GRAPH_RECAPTURE_FAILURE;
    cudaError_t e = rc->fn(rc->user, (cudaGraphNode_t)node, &before, &after,
                           (enum cudaGraphRecaptureStatus)status);
    /* Any failure ends the recapture (documented); the driver is told it failed. */
    return e == cudaSuccess ? CUDA_SUCCESS : CUDA_ERROR_GRAPH_RECAPTURE_FAILURE;
}

/* Unlinks and frees the record of stream s, if any.  Lock held. */
static void rt_recapture_drop_locked(CUstream s)
{
    for (rt_recapture **link = &rt_recaptures; *link; link = &(*link)->next)
        if ((*link)->stream == s) {
            rt_recapture *gone = *link;
            *link = gone->next;
            free(gone);
            return;
        }
}

/* Called from every cudaStreamEndCapture, so the check without the lock comes first: the list
 * only ever becomes non-empty under the lock, with a release store. */
void rt_recapture_end(CUstream stream)
{
    if (!__atomic_load_n(&rt_recaptures, __ATOMIC_ACQUIRE))
        return;                   /* the common case: no recapture ever began */
    pthread_mutex_lock(&rt_recapture_lock);
    rt_recapture_drop_locked(stream);
    pthread_mutex_unlock(&rt_recapture_lock);
}

static cudaError_t rt_begin_recapture(cudaStream_t stream, enum cudaStreamCaptureMode mode,
                                      cudaGraph_t graph,
                                      struct cudaGraphRecaptureCallbackData *callback,
                                      bool per_thread)
{
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e == cudaSuccess)         /* before the arguments, as NVIDIA's runtime on driver 580 */
        e = rt_driver_newer(rt_drv.cuStreamBeginRecaptureToGraph != NULL,
                            "cuStreamBeginRecaptureToGraph");
    if (e != cudaSuccess)
        return e;
    if (!graph)
        return cudaErrorInvalidValue;
    /* Stream 0 of a _ptsz call is the thread's per-thread stream (core.h: rt_stream). */
    CUstream s = rt_stream(stream, per_thread);
    /* The record exists only when there is a callback to call: without one the driver is given
     * no trampoline, and nothing needs freeing at the end. */
    rt_recapture *rc = NULL;
    if (callback && callback->callbackFunc) {
        if (!(rc = calloc(1, sizeof *rc)))
            return cudaErrorMemoryAllocation;
        *rc = (rt_recapture){ s, callback->callbackFunc, callback->userData, d, NULL };
    }
    /* Under the lock from the old record's removal to the new one's publication, so that an
     * end of capture on another thread sees one or the other. */
    pthread_mutex_lock(&rt_recapture_lock);
    rt_recapture_drop_locked(s);
    CUresult r = rt_drv.cuStreamBeginRecaptureToGraph(s, (CUstreamCaptureMode)mode, graph,
                                                      rc ? rt_recapture_trampoline : NULL, rc);
    if (r == CUDA_SUCCESS && rc) {
        rc->next = rt_recaptures;
        __atomic_store_n(&rt_recaptures, rc, __ATOMIC_RELEASE);
    } else {
        free(rc);
    }
    pthread_mutex_unlock(&rt_recapture_lock);
    return rt_driver_result(d, r);
}

/* The one body of cudaStreamBeginRecaptureToGraph and cudaStreamBeginRecaptureToGraph_ptsz
 * (RT_FORWARD). */
static cudaError_t rt_begin_recapture_api(cudaStream_t stream, enum cudaStreamCaptureMode mode,
                                          cudaGraph_t graph,
                                          struct cudaGraphRecaptureCallbackData *callback,
                                          bool per_thread, rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_begin_recapture(stream, mode, graph, callback, per_thread));
}

RT_API cudaError_t cudaStreamBeginRecaptureToGraph(
    cudaStream_t stream, enum cudaStreamCaptureMode mode, cudaGraph_t graph,
    struct cudaGraphRecaptureCallbackData *callbackData)
{
    RT_FORWARD(rt_begin_recapture_api(stream, mode, graph, callbackData, false, RT_SELF));
}

RT_API cudaError_t cudaStreamBeginRecaptureToGraph_ptsz(
    cudaStream_t stream, enum cudaStreamCaptureMode mode, cudaGraph_t graph,
    struct cudaGraphRecaptureCallbackData *callbackData)
{
    RT_FORWARD(rt_begin_recapture_api(stream, mode, graph, callbackData, true, RT_SELF));
}
