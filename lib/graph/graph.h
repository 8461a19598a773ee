/*
 * graph.h - what the graph rooms share, and the per-thread-stream (_ptsz) variants of their
 * entry points, which the toolkit declares only under CUDA_API_PER_THREAD_DEFAULT_STREAM.
 *
 * Graphs are the driver's: cudaGraph_t is a CUgraph, cudaGraphNode_t a CUgraphNode,
 * cudaGraphExec_t a CUgraphExec and cudaUserObject_t a CUuserObject, handed out unchanged, so a
 * graph captured from cuBLAS calls (its own runtime, same driver) is a graph here too.  The rooms:
 *
 *   graph.c          the graph itself: create, destroy, clone, its nodes and edges, user objects
 *   graph_nodes.c    building nodes: one Add/Get/Set family per node kind, and the generic
 *                    cudaGraphAddNode / cudaGraphNodeSetParams form
 *   graph_params.c   the runtime's node parameters translated to the driver's and back
 *   graph_extsem.c   nodes that signal and wait on external semaphores (external.c)
 *   graph_exec.c     executable graphs: instantiate, launch, upload, update, per-node edits
 *   graph_capture.c  stream capture
 *   mempool.c        the stream-ordered allocator, memory pools and the graph memory pool
 */
#ifndef MINICUDART_GRAPH_H
#define MINICUDART_GRAPH_H

#include "launch/launch.h"
#include "memory/memory.h"
#include "stream/stream.h"

/* Enters the thread's context; the common first step of every graph entry point. */
#define RT_GRAPH_ENTER(d)                                                                     \
    rt_device *d;                                                                             \
    do {                                                                                      \
        cudaError_t enter_err_ = rt_context_enter(&d);                                        \
        if (enter_err_ != cudaSuccess)                                                        \
            RT_RETURN(enter_err_);                                                            \
    } while (0)

/* ---- graph_params.c ------------------------------------------------------------------------- */

/* cudaKernelNodeParams -> the driver's: func (a host stub or a cudaKernel_t) resolved to the
 * CUfunction of device d, as a launch would; kernelParams and extra passed through (the driver
 * copies the arguments when the node is created or set). */
cudaError_t rt_graph_kernel_params(const struct cudaKernelNodeParams *p, rt_device *d,
                                   CUDA_KERNEL_NODE_PARAMS *out);
/* ... and back: the CUfunction named by the host stub registered for it on d. */
void rt_graph_kernel_params_back(const CUDA_KERNEL_NODE_PARAMS *in, rt_device *d,
                                 struct cudaKernelNodeParams *out);
/* cudaMemcpy3DParms -> CUDA_MEMCPY3D (pitched pointers and arrays), and back. */
cudaError_t rt_graph_memcpy_params(const struct cudaMemcpy3DParms *p, CUDA_MEMCPY3D *out);
cudaError_t rt_graph_memcpy_params_back(const CUDA_MEMCPY3D *c, struct cudaMemcpy3DParms *out);
/* A 1D copy of count bytes as the CUDA_MEMCPY3D of a memcpy node. */
cudaError_t rt_graph_memcpy_1d(void *dst, const void *src, size_t count,
                               enum cudaMemcpyKind kind, CUDA_MEMCPY3D *out);
/* A copy to (to_symbol) or from a __device__/__constant__ variable, at offset bytes into it. */
cudaError_t rt_graph_memcpy_symbol(const void *symbol, const void *other, size_t count,
                                   size_t offset, enum cudaMemcpyKind kind, bool to_symbol,
                                   CUDA_MEMCPY3D *out);
/* cudaMemsetParams -> CUDA_MEMSET_NODE_PARAMS, and back. */
void rt_graph_memset_params(const struct cudaMemsetParams *p, CUDA_MEMSET_NODE_PARAMS *out);
void rt_graph_memset_params_back(const CUDA_MEMSET_NODE_PARAMS *in, struct cudaMemsetParams *out);
/* The generic cudaGraphNodeParams -> CUgraphNodeParams, for the context of device d. */
cudaError_t rt_graph_node_params(const struct cudaGraphNodeParams *p, rt_device *d,
                                 CUgraphNodeParams *out);
/* What the driver hands back in a CUgraphNodeParams it was given (an allocation's address, a
 * conditional node's body graphs), copied into the caller's cudaGraphNodeParams. */
void rt_graph_node_params_outputs(const CUgraphNodeParams *in, struct cudaGraphNodeParams *out);
/* The driver's CUgraphNodeParams of a node (cuGraphNodeGetParams, or built from the per-kind
 * getters) as the runtime gives them, in 13.5's layout: a kernel named by its host stub. */
cudaError_t rt_graph_node_params_back(const CUgraphNodeParams *in, rt_device *d,
                                      struct cudaGraphNodeParams *out);

/* ---- graph_ids.c ---------------------------------------------------------------------------- */

/* The capture on stream s has ended: a recapture's callback record, if it had one, is freed. */
void rt_recapture_end(CUstream s);

/* ---- graph_exec.c --------------------------------------------------------------------------- */

/* Enters the thread's context for a call on exec, refusing one that a cudaDeviceReset destroyed
 * (handles.c): NVIDIA's runtime crashes on it (H200). */
cudaError_t rt_graph_exec_enter(cudaGraphExec_t exec, rt_device **d);
/* Enters for a call on exec, or returns its error. */
#define RT_EXEC_ENTER(exec, d)                                                                \
    rt_device *d;                                                                             \
    do {                                                                                      \
        cudaError_t enter_err_ = rt_graph_exec_enter((exec), &d);                             \
        if (enter_err_ != cudaSuccess)                                                        \
            RT_RETURN(enter_err_);                                                            \
    } while (0)

/* ---- the _ptsz variants --------------------------------------------------------------------- */

RT_API cudaError_t cudaStreamBeginCapture_ptsz(cudaStream_t stream,
                                               enum cudaStreamCaptureMode mode);
RT_API cudaError_t cudaStreamBeginCaptureToGraph_ptsz(cudaStream_t stream, cudaGraph_t graph,
                                                      const cudaGraphNode_t *dependencies,
                                                      const cudaGraphEdgeData *dependencyData,
                                                      size_t numDependencies,
                                                      enum cudaStreamCaptureMode mode);
RT_API cudaError_t cudaStreamEndCapture_ptsz(cudaStream_t stream, cudaGraph_t *pGraph);
RT_API cudaError_t cudaStreamIsCapturing_ptsz(cudaStream_t stream,
                                              enum cudaStreamCaptureStatus *pCaptureStatus);
RT_API cudaError_t cudaStreamGetCaptureInfo_ptsz(cudaStream_t stream,
                                                 enum cudaStreamCaptureStatus *captureStatus_out,
                                                 unsigned long long *id_out,
                                                 cudaGraph_t *graph_out,
                                                 const cudaGraphNode_t **dependencies_out,
                                                 const cudaGraphEdgeData **edgeData_out,
                                                 size_t *numDependencies_out);
RT_API cudaError_t cudaStreamUpdateCaptureDependencies_ptsz(cudaStream_t stream,
                                                            cudaGraphNode_t *dependencies,
                                                            const cudaGraphEdgeData *dependencyData,
                                                            size_t numDependencies,
                                                            unsigned int flags);
RT_API cudaError_t cudaGraphInstantiateWithParams_ptsz(cudaGraphExec_t *pGraphExec,
                                                       cudaGraph_t graph,
                                                       cudaGraphInstantiateParams *instantiateParams);
RT_API cudaError_t cudaGraphUpload_ptsz(cudaGraphExec_t graphExec, cudaStream_t stream);
RT_API cudaError_t cudaGraphLaunch_ptsz(cudaGraphExec_t graphExec, cudaStream_t stream);

#endif
