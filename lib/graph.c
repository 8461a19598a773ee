/*
 * graph.c - CUDA graphs: stream capture, explicit nodes, executable graphs.
 *
 * Graphs are the driver's: cudaGraph_t is a CUgraph, cudaGraphNode_t a CUgraphNode and
 * cudaGraphExec_t a CUgraphExec, handed out unchanged, so a graph captured from cuBLAS calls (its
 * own runtime, same driver) is a graph here too.  Capture is the driver's as well: a kernel
 * launched with <<<>>> into a capturing stream reaches cuLaunchKernel, and the driver records it
 * instead of running it.  What this file adds is translation where the runtime's structures
 * differ from the driver's:
 *
 *   cudaKernelNodeParams  func is a host stub (or cudaKernel_t): resolved to the CUfunction of
 *                         the current device, as a launch would; GetParams maps it back
 *   cudaMemcpy3DParms     becomes CUDA_MEMCPY3D plus the current context (pointers only)
 *   cudaMemsetParams      becomes CUDA_MEMSET_NODE_PARAMS plus the current context
 *   cudaHostNodeParams    is CUDA_HOST_NODE_PARAMS (same layout, same callback signature)
 *
 * In the _ptsz variants stream 0 means the thread's per-thread stream.
 */
#include <string.h>

#include "function.h"
#include "graph.h"

_Static_assert(sizeof(struct cudaHostNodeParams) == sizeof(CUDA_HOST_NODE_PARAMS),
               "host node parameters differ");
_Static_assert(sizeof(struct cudaMemsetParams) == sizeof(CUDA_MEMSET_NODE_PARAMS),
               "memset node parameters differ");
_Static_assert(sizeof(cudaGraphInstantiateParams) == sizeof(CUDA_GRAPH_INSTANTIATE_PARAMS),
               "instantiate parameters differ");
_Static_assert(sizeof(cudaGraphExecUpdateResultInfo) == sizeof(CUgraphExecUpdateResultInfo),
               "exec update result differs");
_Static_assert(sizeof(cudaGraphEdgeData) == sizeof(CUgraphEdgeData), "edge data differs");
_Static_assert((int)cudaStreamCaptureModeRelaxed == (int)CU_STREAM_CAPTURE_MODE_RELAXED,
               "capture modes differ");

/* Enters the thread's context; the common first step of every entry point here. */
#define RT_GRAPH_ENTER(d)                                                                     \
    rt_device *d;                                                                             \
    do {                                                                                      \
        cudaError_t enter_err_ = rt_context_enter(&d);                                        \
        if (enter_err_ != cudaSuccess)                                                        \
            RT_RETURN(enter_err_);                                                            \
    } while (0)

/* Enters the thread's context for a call on exec, refusing one that a cudaDeviceReset destroyed
 * (handles.c): NVIDIA's runtime crashes on it (H200). */
static cudaError_t rt_exec_enter(cudaGraphExec_t exec, rt_device **d)
{
    cudaError_t e = rt_context_enter(d);
    if (e == cudaSuccess && rt_handle_stale(RT_HANDLE_GRAPH_EXEC, exec))
        e = cudaErrorInvalidResourceHandle;
    return e;
}

/* ---- stream capture ------------------------------------------------------------------------- */

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
    RT_RETURN(rt_begin_capture(stream, mode, false));
}

RT_API cudaError_t cudaStreamBeginCapture_ptsz(cudaStream_t stream,
                                               enum cudaStreamCaptureMode mode)
{
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
    RT_RETURN(rt_begin_capture_to_graph(stream, graph, dependencies, dependencyData,
                                        numDependencies, mode, false));
}

RT_API cudaError_t cudaStreamBeginCaptureToGraph_ptsz(cudaStream_t stream, cudaGraph_t graph,
                                                      const cudaGraphNode_t *dependencies,
                                                      const cudaGraphEdgeData *dependencyData,
                                                      size_t numDependencies,
                                                      enum cudaStreamCaptureMode mode)
{
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
    e = rt_driver_result(d, rt_drv.cuStreamEndCapture(rt_stream(stream, per_thread),
                                                      pGraph ? pGraph : &dropped));
    if (dropped)
        rt_drv.cuGraphDestroy(dropped);
    return e;
}

RT_API cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *pGraph)
{
    RT_RETURN(rt_end_capture(stream, pGraph, false));
}

RT_API cudaError_t cudaStreamEndCapture_ptsz(cudaStream_t stream, cudaGraph_t *pGraph)
{
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
    RT_RETURN(rt_is_capturing(stream, pCaptureStatus, false));
}

RT_API cudaError_t cudaStreamIsCapturing_ptsz(cudaStream_t stream,
                                              enum cudaStreamCaptureStatus *pCaptureStatus)
{
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
    RT_RETURN(rt_update_capture_deps(stream, dependencies, dependencyData, numDependencies,
                                     flags, false));
}

RT_API cudaError_t cudaStreamUpdateCaptureDependencies_ptsz(cudaStream_t stream,
                                                            cudaGraphNode_t *dependencies,
                                                            const cudaGraphEdgeData *dependencyData,
                                                            size_t numDependencies,
                                                            unsigned int flags)
{
    RT_RETURN(rt_update_capture_deps(stream, dependencies, dependencyData, numDependencies,
                                     flags, true));
}

RT_API cudaError_t cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode *mode)
{
    if (!mode)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    CUstreamCaptureMode cu_mode = (CUstreamCaptureMode)*mode;
    cudaError_t e = rt_driver_result(d, rt_drv.cuThreadExchangeStreamCaptureMode(&cu_mode));
    if (e == cudaSuccess)
        *mode = (enum cudaStreamCaptureMode)cu_mode;
    RT_RETURN(e);
}

/* ---- graphs --------------------------------------------------------------------------------- */

RT_API cudaError_t cudaGraphCreate(cudaGraph_t *pGraph, unsigned int flags)
{
    if (!pGraph)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphCreate(pGraph, flags)));
}

RT_API cudaError_t cudaGraphDestroy(cudaGraph_t graph)
{
    RT_GRAPH_ENTER(d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphDestroy(graph)));
}

RT_API cudaError_t cudaGraphClone(cudaGraph_t *pGraphClone, cudaGraph_t originalGraph)
{
    if (!pGraphClone)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphClone(pGraphClone, originalGraph)));
}

RT_API cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *numNodes)
{
    if (!numNodes)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphGetNodes(graph, nodes, numNodes)));
}

RT_API cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t *pRootNodes,
                                         size_t *pNumRootNodes)
{
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
    RT_GRAPH_ENTER(d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphAddDependencies(
                                     graph, from, to, (const CUgraphEdgeData *)edgeData,
                                     numDependencies)));
}

RT_API cudaError_t cudaGraphDebugDotPrint(cudaGraph_t graph, const char *path, unsigned int flags)
{
    if (!path)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    if (!rt_drv.cuGraphDebugDotPrint) {
        RT_TRACE("cudaGraphDebugDotPrint: the driver has no cuGraphDebugDotPrint: not implemented");
        RT_RETURN(cudaErrorNotSupported);
    }
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphDebugDotPrint(graph, path, flags)));
}

/* ---- kernel nodes --------------------------------------------------------------------------- */

/* The driver's kernel node parameters for the runtime's: func (a host stub or a cudaKernel_t)
 * resolved to the CUfunction of device d, as a launch would; kernelParams and extra passed
 * through (the driver copies the arguments when the node is created or set). */
static cudaError_t rt_kernel_node_params(const struct cudaKernelNodeParams *p, rt_device *d,
                                         CUDA_KERNEL_NODE_PARAMS *out)
{
    if (!p)
        return cudaErrorInvalidValue;
    rt_kernel *k = rt_kernel_find(p->func);
    if (!k) {
        /* The answers NVIDIA's runtime gives a launch of an unregistered pointer or of NULL. */
        RT_TRACE("kernel node: %p is not a registered kernel", p->func);
        return rt_kernel_unknown(p->func);
    }
    rt_kernel_dev *kd;
    cudaError_t e = rt_kernel_resolve(k, d, &kd);
    if (e == cudaSuccess)
        e = rt_function_apply(k, d, kd);     /* cudaFuncSetAttribute's settings, per device */
    if (e != cudaSuccess)
        return e;
    memset(out, 0, sizeof *out);
    out->func = atomic_load_explicit(&kd->function, memory_order_relaxed);
    out->gridDimX = p->gridDim.x;
    out->gridDimY = p->gridDim.y;
    out->gridDimZ = p->gridDim.z;
    out->blockDimX = p->blockDim.x;
    out->blockDimY = p->blockDim.y;
    out->blockDimZ = p->blockDim.z;
    out->sharedMemBytes = p->sharedMemBytes;
    out->kernelParams = p->kernelParams;
    out->extra = p->extra;
    return cudaSuccess;
}

RT_API cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                          const cudaGraphNode_t *pDependencies,
                                          size_t numDependencies,
                                          const struct cudaKernelNodeParams *pNodeParams)
{
    if (!pGraphNode || !pNodeParams)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    CUDA_KERNEL_NODE_PARAMS params;
    cudaError_t e = rt_kernel_node_params(pNodeParams, d, &params);
    if (e == cudaSuccess)
        e = rt_driver_result(d, rt_drv.cuGraphAddKernelNode(pGraphNode, graph, pDependencies,
                                                           numDependencies, &params));
    RT_RETURN(e);
}

RT_API cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node,
                                                const struct cudaKernelNodeParams *pNodeParams)
{
    if (!pNodeParams)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    CUDA_KERNEL_NODE_PARAMS params;
    cudaError_t e = rt_kernel_node_params(pNodeParams, d, &params);
    if (e == cudaSuccess)
        e = rt_driver_result(d, rt_drv.cuGraphKernelNodeSetParams(node, &params));
    RT_RETURN(e);
}

RT_API cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t hGraphExec,
                                                    cudaGraphNode_t node,
                                                    const struct cudaKernelNodeParams *pNodeParams)
{
    if (!pNodeParams)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = rt_exec_enter(hGraphExec, &d);
    CUDA_KERNEL_NODE_PARAMS params;
    if (e == cudaSuccess)
        e = rt_kernel_node_params(pNodeParams, d, &params);
    if (e == cudaSuccess)
        e = rt_driver_result(d, rt_drv.cuGraphExecKernelNodeSetParams(hGraphExec, node, &params));
    RT_RETURN(e);
}

struct rt_function_search {
    CUfunction function;
    size_t device;
    const void *host_fun;
};

static void rt_function_search_module(rt_module *m, void *user)
{
    struct rt_function_search *s = user;
    for (rt_kernel *k = m->kernels; k && !s->host_fun; k = k->next) {
        rt_kernel_dev *devs = atomic_load_explicit(&k->dev, memory_order_acquire);
        if (devs && devs[s->device].generation &&
            atomic_load_explicit(&devs[s->device].function, memory_order_acquire) == s->function)
            s->host_fun = k->host_fun;
    }
}

/* The host stub registered for a CUfunction of device d, or NULL: the runtime's name for the
 * kernel of a node, which is what users compare with their own kernel pointers. */
static const void *rt_host_function_of(CUfunction f, rt_device *d)
{
    struct rt_function_search s = { f, (size_t)(d - rt_devices), NULL };
    if (f)
        rt_module_foreach(rt_function_search_module, &s);
    return s.host_fun;
}

RT_API cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node,
                                                struct cudaKernelNodeParams *pNodeParams)
{
    if (!pNodeParams)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    CUDA_KERNEL_NODE_PARAMS params;
    memset(&params, 0, sizeof params);
    cudaError_t e = rt_driver_result(d, rt_drv.cuGraphKernelNodeGetParams(node, &params));
    if (e != cudaSuccess)
        RT_RETURN(e);
    const void *host_fun = rt_host_function_of(params.func, d);
    /* A kernel that was not registered with this runtime (captured from a library, say) keeps
     * the driver's handle: the only name it has. */
    pNodeParams->func = host_fun ? (void *)host_fun : (void *)params.func;
    pNodeParams->gridDim = (dim3){ params.gridDimX, params.gridDimY, params.gridDimZ };
    pNodeParams->blockDim = (dim3){ params.blockDimX, params.blockDimY, params.blockDimZ };
    pNodeParams->sharedMemBytes = params.sharedMemBytes;
    pNodeParams->kernelParams = params.kernelParams;
    pNodeParams->extra = params.extra;
    RT_RETURN(cudaSuccess);
}

/* ---- memcpy, memset, host, child and empty nodes -------------------------------------------- */

/* One side of a copy: the memory type follows the copy kind, as cudaMemcpy3D's does. */
static void rt_copy_side(const struct cudaPitchedPtr *ptr, const struct cudaPos *pos,
                         bool on_host, bool unified, CUmemorytype *type, const void **host,
                         CUdeviceptr *device, size_t *x, size_t *y, size_t *z, size_t *pitch,
                         size_t *height)
{
    *type = unified ? CU_MEMORYTYPE_UNIFIED : on_host ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
    if (*type == CU_MEMORYTYPE_HOST)
        *host = ptr->ptr;
    else
        *device = (CUdeviceptr)(uintptr_t)ptr->ptr;
    *x = pos->x;
    *y = pos->y;
    *z = pos->z;
    *pitch = ptr->pitch;
    *height = ptr->ysize;
}

/* cudaMemcpy3DParms -> CUDA_MEMCPY3D, for pitched pointers.  Arrays are not translated: their
 * positions and extent count elements, whose size needs the array's format. */
static cudaError_t rt_memcpy3d_params(const struct cudaMemcpy3DParms *p, CUDA_MEMCPY3D *out)
{
    if (!p)
        return cudaErrorInvalidValue;
    if (p->srcArray || p->dstArray) {
        RT_TRACE("memcpy node: array operands not implemented");
        return cudaErrorNotSupported;
    }
    bool src_host, dst_host, unified = p->kind == cudaMemcpyDefault;
    switch (p->kind) {
    case cudaMemcpyHostToHost: src_host = true, dst_host = true; break;
    case cudaMemcpyHostToDevice: src_host = true, dst_host = false; break;
    case cudaMemcpyDeviceToHost: src_host = false, dst_host = true; break;
    case cudaMemcpyDeviceToDevice: src_host = false, dst_host = false; break;
    case cudaMemcpyDefault: src_host = false, dst_host = false; break;
    default: return cudaErrorInvalidMemcpyDirection;
    }
    memset(out, 0, sizeof *out);
    const void *ignored_host = NULL;
    rt_copy_side(&p->srcPtr, &p->srcPos, src_host, unified, &out->srcMemoryType, &out->srcHost,
                 &out->srcDevice, &out->srcXInBytes, &out->srcY, &out->srcZ, &out->srcPitch,
                 &out->srcHeight);
    rt_copy_side(&p->dstPtr, &p->dstPos, dst_host, unified, &out->dstMemoryType, &ignored_host,
                 &out->dstDevice, &out->dstXInBytes, &out->dstY, &out->dstZ, &out->dstPitch,
                 &out->dstHeight);
    if (out->dstMemoryType == CU_MEMORYTYPE_HOST)
        out->dstHost = p->dstPtr.ptr;
    out->WidthInBytes = p->extent.width;
    out->Height = p->extent.height;
    out->Depth = p->extent.depth;
    return cudaSuccess;
}

RT_API cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                          const cudaGraphNode_t *pDependencies,
                                          size_t numDependencies,
                                          const struct cudaMemcpy3DParms *pCopyParams)
{
    if (!pGraphNode || !pCopyParams)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    CUDA_MEMCPY3D copy;
    cudaError_t e = rt_memcpy3d_params(pCopyParams, &copy);
    if (e == cudaSuccess)
        e = rt_driver_result(d, rt_drv.cuGraphAddMemcpyNode(pGraphNode, graph, pDependencies,
                                                           numDependencies, &copy, d->context));
    RT_RETURN(e);
}

RT_API cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                            const cudaGraphNode_t *pDependencies,
                                            size_t numDependencies, void *dst, const void *src,
                                            size_t count, enum cudaMemcpyKind kind)
{
    struct cudaMemcpy3DParms p;
    memset(&p, 0, sizeof p);
    p.srcPtr = (struct cudaPitchedPtr){ .ptr = (void *)src, .pitch = count, .xsize = count,
                                        .ysize = 1 };
    p.dstPtr = (struct cudaPitchedPtr){ .ptr = dst, .pitch = count, .xsize = count, .ysize = 1 };
    p.extent = (struct cudaExtent){ .width = count, .height = 1, .depth = 1 };
    p.kind = kind;
    if (!pGraphNode)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    CUDA_MEMCPY3D copy;
    cudaError_t e = rt_memcpy3d_params(&p, &copy);
    if (e == cudaSuccess)
        e = rt_driver_result(d, rt_drv.cuGraphAddMemcpyNode(pGraphNode, graph, pDependencies,
                                                           numDependencies, &copy, d->context));
    RT_RETURN(e);
}

RT_API cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                          const cudaGraphNode_t *pDependencies,
                                          size_t numDependencies,
                                          const struct cudaMemsetParams *pMemsetParams)
{
    if (!pGraphNode || !pMemsetParams)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    CUDA_MEMSET_NODE_PARAMS set = {
        .dst = (CUdeviceptr)(uintptr_t)pMemsetParams->dst,
        .pitch = pMemsetParams->pitch,
        .value = pMemsetParams->value,
        .elementSize = pMemsetParams->elementSize,
        .width = pMemsetParams->width,
        .height = pMemsetParams->height,
    };
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphAddMemsetNode(pGraphNode, graph, pDependencies,
                                                             numDependencies, &set, d->context)));
}

RT_API cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                        const cudaGraphNode_t *pDependencies,
                                        size_t numDependencies,
                                        const struct cudaHostNodeParams *pNodeParams)
{
    if (!pGraphNode || !pNodeParams)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    /* cudaHostFn_t and CUhostFn are both void (*)(void *). */
    CUDA_HOST_NODE_PARAMS host = { .fn = pNodeParams->fn, .userData = pNodeParams->userData };
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphAddHostNode(pGraphNode, graph, pDependencies,
                                                           numDependencies, &host)));
}

RT_API cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                              const cudaGraphNode_t *pDependencies,
                                              size_t numDependencies, cudaGraph_t childGraph)
{
    if (!pGraphNode)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphAddChildGraphNode(pGraphNode, graph, pDependencies,
                                                                 numDependencies, childGraph)));
}

RT_API cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                         const cudaGraphNode_t *pDependencies,
                                         size_t numDependencies)
{
    if (!pGraphNode)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphAddEmptyNode(pGraphNode, graph, pDependencies,
                                                            numDependencies)));
}

/* ---- executable graphs ---------------------------------------------------------------------- */

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
    if (!pGraphExec)
        RT_RETURN(cudaErrorInvalidValue);
    RT_GRAPH_ENTER(d);
    RT_RETURN(rt_instantiated(d, rt_drv.cuGraphInstantiateWithFlags(pGraphExec, graph, flags),
                              pGraphExec));
}

RT_API cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                                 unsigned long long flags)
{
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
    RT_RETURN(rt_instantiate_with_params(pGraphExec, graph, instantiateParams, false));
}

RT_API cudaError_t cudaGraphInstantiateWithParams_ptsz(cudaGraphExec_t *pGraphExec,
                                                       cudaGraph_t graph,
                                                       cudaGraphInstantiateParams *instantiateParams)
{
    RT_RETURN(rt_instantiate_with_params(pGraphExec, graph, instantiateParams, true));
}

static cudaError_t rt_graph_launch(cudaGraphExec_t exec, cudaStream_t stream, bool per_thread)
{
    rt_device *d;
    cudaError_t e = rt_exec_enter(exec, &d);
    if (e != cudaSuccess)
        return e;
    return rt_driver_result(d, rt_drv.cuGraphLaunch(exec, rt_stream(stream, per_thread)));
}

RT_API cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream)
{
    RT_RETURN(rt_graph_launch(graphExec, stream, false));
}

RT_API cudaError_t cudaGraphLaunch_ptsz(cudaGraphExec_t graphExec, cudaStream_t stream)
{
    RT_RETURN(rt_graph_launch(graphExec, stream, true));
}

static cudaError_t rt_graph_upload(cudaGraphExec_t exec, cudaStream_t stream, bool per_thread)
{
    rt_device *d;
    cudaError_t e = rt_exec_enter(exec, &d);
    if (e != cudaSuccess)
        return e;
    return rt_driver_result(d, rt_drv.cuGraphUpload(exec, rt_stream(stream, per_thread)));
}

RT_API cudaError_t cudaGraphUpload(cudaGraphExec_t graphExec, cudaStream_t stream)
{
    RT_RETURN(rt_graph_upload(graphExec, stream, false));
}

RT_API cudaError_t cudaGraphUpload_ptsz(cudaGraphExec_t graphExec, cudaStream_t stream)
{
    RT_RETURN(rt_graph_upload(graphExec, stream, true));
}

RT_API cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec)
{
    rt_device *d;
    cudaError_t e = rt_exec_enter(graphExec, &d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    rt_handle_remove(graphExec);       /* first: the address may come back at once */
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphExecDestroy(graphExec)));
}

/* resultInfo may be NULL: the update is made all the same, as NVIDIA's runtime does (H200). */
RT_API cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
                                       cudaGraphExecUpdateResultInfo *resultInfo)
{
    rt_device *d;
    cudaError_t e = rt_exec_enter(hGraphExec, &d);
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
