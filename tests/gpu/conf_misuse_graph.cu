// conf_misuse_graph.cu - invalid inputs to stream capture, graphs, graph nodes and executable
// graphs, one case each (the runner and the line format: misuse.h).  Cases that add nodes or
// dependencies work on a graph of their own (made_graph), so that the fixtures stay as made.
#include "misuse.h"

// The per-thread-default-stream variants; the toolkit declares them only in such builds.
extern "C" {
cudaError_t CUDARTAPI cudaStreamBeginCapture_ptsz(cudaStream_t stream,
                                                  enum cudaStreamCaptureMode mode);
cudaError_t CUDARTAPI cudaStreamBeginCaptureToGraph_ptsz(cudaStream_t stream, cudaGraph_t graph,
                                                         const cudaGraphNode_t *dependencies,
                                                         const cudaGraphEdgeData *dependencyData,
                                                         size_t numDependencies,
                                                         enum cudaStreamCaptureMode mode);
cudaError_t CUDARTAPI cudaStreamEndCapture_ptsz(cudaStream_t stream, cudaGraph_t *pGraph);
cudaError_t CUDARTAPI cudaStreamIsCapturing_ptsz(cudaStream_t stream,
                                                 enum cudaStreamCaptureStatus *pCaptureStatus);
cudaError_t CUDARTAPI cudaStreamGetCaptureInfo_ptsz(
    cudaStream_t stream, enum cudaStreamCaptureStatus *captureStatus_out,
    unsigned long long *id_out, cudaGraph_t *graph_out, const cudaGraphNode_t **dependencies_out,
    const cudaGraphEdgeData **edgeData_out, size_t *numDependencies_out);
cudaError_t CUDARTAPI cudaStreamUpdateCaptureDependencies_ptsz(
    cudaStream_t stream, cudaGraphNode_t *dependencies, const cudaGraphEdgeData *dependencyData,
    size_t numDependencies, unsigned int flags);
cudaError_t CUDARTAPI cudaGraphInstantiateWithParams_ptsz(
    cudaGraphExec_t *pGraphExec, cudaGraph_t graph, cudaGraphInstantiateParams *instantiateParams);
cudaError_t CUDARTAPI cudaGraphLaunch_ptsz(cudaGraphExec_t graphExec, cudaStream_t stream);
cudaError_t CUDARTAPI cudaGraphUpload_ptsz(cudaGraphExec_t graphExec, cudaStream_t stream);
}

__global__ void k_params(int *p, int v)
{
    if (p)
        *p = v;
}

static const void *const K = (const void *)k_params;
static int *null_pointer = NULL;
static int one = 1;
static void *args[] = {&null_pointer, &one};

// Fixtures, made at every start: graph g (an empty node and a kernel node after it) and its
// executable, graph g2 (one empty node), device memory d.
static cudaGraph_t g, g2;
static cudaGraphNode_t empty, knode, other_empty;
static cudaGraphExec_t exec;
static char *d;

// What a case made, for its cleanup.
static cudaStream_t made_stream;      // capturing, maybe
static bool capturing_per_thread;
static cudaGraph_t made_graph, made_graph2;
static cudaGraphNode_t na, nb;        // two empty nodes of made_graph
static cudaGraphExec_t made_exec;

static cudaGraph_t out_graph;
static cudaGraphNode_t out_node;
static cudaGraphNode_t nodes[8];
static size_t n;
static cudaStreamCaptureStatus status;
static cudaKernelNodeParams out_kp;
static cudaMemcpy3DParms p3;
static cudaMemsetParams mp;
static cudaHostNodeParams hp;
static cudaGraphInstantiateParams ip;
static cudaGraphExecUpdateResultInfo info;
static cudaStreamCaptureMode saved_mode;

static void CUDART_CB host_fn(void *) {}

static cudaKernelNodeParams kernel_params(const void *func, dim3 block)
{
    cudaKernelNodeParams kp;
    memset(&kp, 0, sizeof kp);
    kp.func = (void *)func;
    kp.gridDim = dim3(1);
    kp.blockDim = block;
    kp.kernelParams = args;
    return kp;
}

static void setup(void)
{
    CHECK(cudaMalloc((void **)&d, 4096));
    CHECK(cudaGraphCreate(&g, 0));
    CHECK(cudaGraphAddEmptyNode(&empty, g, NULL, 0));
    cudaKernelNodeParams kp = kernel_params(K, dim3(32));
    CHECK(cudaGraphAddKernelNode(&knode, g, &empty, 1, &kp));
    CHECK(cudaGraphInstantiate(&exec, g, 0));
    CHECK(cudaGraphCreate(&g2, 0));
    CHECK(cudaGraphAddEmptyNode(&other_empty, g2, NULL, 0));
}

// A graph of the case's own with two unconnected empty nodes, na and nb.
static cudaGraph_t fresh_graph(void)
{
    CHECK(cudaGraphCreate(&made_graph, 0));
    CHECK(cudaGraphAddEmptyNode(&na, made_graph, NULL, 0));
    CHECK(cudaGraphAddEmptyNode(&nb, made_graph, NULL, 0));
    return made_graph;
}

// A new non-blocking stream in capture of mode `mode`, or the per-thread stream.
static cudaStream_t begin_capture(bool per_thread, cudaStreamCaptureMode mode)
{
    cudaStream_t stream = cudaStreamPerThread;
    if (per_thread) {
        capturing_per_thread = true;
    } else {
        CHECK(cudaStreamCreateWithFlags(&made_stream, cudaStreamNonBlocking));
        stream = made_stream;
    }
    CHECK(cudaStreamBeginCapture(stream, mode));
    misuse_clear();
    return stream;
}

// Ends any capture a case began (its call may have invalidated it) and destroys what it made.
static void clean(void)
{
    cudaStream_t streams[2] = {made_stream, capturing_per_thread ? cudaStreamPerThread : NULL};
    for (int i = 0; i < 2; i++) {
        cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
        if (streams[i] && cudaStreamIsCapturing(streams[i], &st) == cudaSuccess &&
            st != cudaStreamCaptureStatusNone) {
            cudaGraph_t captured = NULL;
            cudaStreamEndCapture(streams[i], &captured);
            if (captured && captured != made_graph)
                cudaGraphDestroy(captured);
        }
    }
    if (made_stream)
        cudaStreamDestroy(made_stream);
    if (made_exec)
        cudaGraphExecDestroy(made_exec);
    if (made_graph)
        cudaGraphDestroy(made_graph);
    if (made_graph2)
        cudaGraphDestroy(made_graph2);
    made_stream = NULL;
    capturing_per_thread = false;
    made_exec = NULL;
    made_graph = made_graph2 = NULL;
}

static cudaMemcpy3DParms *copy_params(cudaMemcpyKind kind)
{
    memset(&p3, 0, sizeof p3);
    p3.srcPtr = make_cudaPitchedPtr(d, 64, 64, 1);
    p3.dstPtr = make_cudaPitchedPtr(d + 1024, 64, 64, 1);
    p3.extent = make_cudaExtent(64, 1, 1);
    p3.kind = kind;
    return &p3;
}

static cudaMemsetParams *memset_params(void *dst, unsigned element_size)
{
    memset(&mp, 0, sizeof mp);
    mp.dst = dst;
    mp.elementSize = element_size;
    mp.width = 16;
    mp.height = 1;
    mp.pitch = 64;
    return &mp;
}

static cudaGraphInstantiateParams *instantiate_params(unsigned long long flags)
{
    memset(&ip, 0, sizeof ip);
    ip.flags = flags;
    return &ip;
}

static const misuse_case cases[] = {
    // ---- beginning and ending a capture ----
    {"cudaStreamBeginCapture.legacy_stream",
     [] { return cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal); }, clean},
    {"cudaStreamBeginCapture.unknown_mode",
     [] {
         CHECK(cudaStreamCreateWithFlags(&made_stream, cudaStreamNonBlocking));
         return cudaStreamBeginCapture(made_stream, (cudaStreamCaptureMode)99);
     },
     clean},
    {"cudaStreamBeginCapture.already_capturing",
     [] {
         cudaStream_t stream = begin_capture(false, cudaStreamCaptureModeRelaxed);
         return cudaStreamBeginCapture(stream, cudaStreamCaptureModeRelaxed);
     },
     clean},
    {"cudaStreamBeginCapture_ptsz.unknown_mode",
     [] {
         capturing_per_thread = true;
         return cudaStreamBeginCapture_ptsz(0, (cudaStreamCaptureMode)99);
     },
     clean},
    {"cudaStreamBeginCapture_ptsz.already_capturing",
     [] {
         begin_capture(true, cudaStreamCaptureModeRelaxed);
         return cudaStreamBeginCapture_ptsz(0, cudaStreamCaptureModeRelaxed);
     },
     clean},
    {"cudaStreamBeginCaptureToGraph.null_graph",
     [] {
         CHECK(cudaStreamCreateWithFlags(&made_stream, cudaStreamNonBlocking));
         return cudaStreamBeginCaptureToGraph(made_stream, NULL, NULL, NULL, 0,
                                              cudaStreamCaptureModeRelaxed);
     },
     clean},
    {"cudaStreamBeginCaptureToGraph.legacy_stream",
     [] {
         return cudaStreamBeginCaptureToGraph(0, fresh_graph(), NULL, NULL, 0,
                                              cudaStreamCaptureModeRelaxed);
     },
     clean},
    {"cudaStreamBeginCaptureToGraph.dependencies_null_with_count",
     [] {
         CHECK(cudaStreamCreateWithFlags(&made_stream, cudaStreamNonBlocking));
         return cudaStreamBeginCaptureToGraph(made_stream, fresh_graph(), NULL, NULL, 1,
                                              cudaStreamCaptureModeRelaxed);
     },
     clean},
    {"cudaStreamBeginCaptureToGraph.dependency_of_other_graph",
     [] {
         CHECK(cudaStreamCreateWithFlags(&made_stream, cudaStreamNonBlocking));
         return cudaStreamBeginCaptureToGraph(made_stream, fresh_graph(), &other_empty, NULL, 1,
                                              cudaStreamCaptureModeRelaxed);
     },
     clean},
    {"cudaStreamBeginCaptureToGraph_ptsz.null_graph",
     [] {
         capturing_per_thread = true;
         return cudaStreamBeginCaptureToGraph_ptsz(0, NULL, NULL, NULL, 0,
                                                   cudaStreamCaptureModeRelaxed);
     },
     clean},
    {"cudaStreamEndCapture.not_capturing",
     [] {
         CHECK(cudaStreamCreateWithFlags(&made_stream, cudaStreamNonBlocking));
         return cudaStreamEndCapture(made_stream, &out_graph);
     },
     clean},
    {"cudaStreamEndCapture.legacy_stream", [] { return cudaStreamEndCapture(0, &out_graph); }},
    {"cudaStreamEndCapture.null_out",
     [] { return cudaStreamEndCapture(begin_capture(false, cudaStreamCaptureModeRelaxed), NULL); },
     clean},
    {"cudaStreamEndCapture_ptsz.not_capturing",
     [] { return cudaStreamEndCapture_ptsz(0, &out_graph); }},
    {"cudaStreamEndCapture_ptsz.null_out",
     [] {
         begin_capture(true, cudaStreamCaptureModeRelaxed);
         return cudaStreamEndCapture_ptsz(0, NULL);
     },
     clean},

    // ---- capture state ----
    {"cudaStreamIsCapturing.null_out", [] { return cudaStreamIsCapturing(0, NULL); }},
    {"cudaStreamIsCapturing.legacy_during_global_capture",
     [] {
         begin_capture(false, cudaStreamCaptureModeGlobal);
         cudaError_t e = cudaStreamIsCapturing(0, &status);
         return e;
     },
     clean},
    {"cudaStreamIsCapturing_ptsz.null_out", [] { return cudaStreamIsCapturing_ptsz(0, NULL); }},
    {"cudaStreamGetCaptureInfo.null_status",
     [] { return cudaStreamGetCaptureInfo(0, NULL, NULL, NULL, NULL, NULL, NULL); }},
    {"cudaStreamGetCaptureInfo.capturing_null_graph_out",
     [] {
         cudaStream_t stream = begin_capture(false, cudaStreamCaptureModeRelaxed);
         cudaError_t e = cudaStreamGetCaptureInfo(stream, &status, NULL, NULL, NULL, NULL, &n);
         misuse_note("status_%d_dependencies_%zu", (int)status, n);
         return e;
     },
     clean},
    {"cudaStreamGetCaptureInfo_ptsz.null_status",
     [] { return cudaStreamGetCaptureInfo_ptsz(0, NULL, NULL, NULL, NULL, NULL, NULL); }},
    {"cudaStreamUpdateCaptureDependencies.not_capturing",
     [] {
         CHECK(cudaStreamCreateWithFlags(&made_stream, cudaStreamNonBlocking));
         return cudaStreamUpdateCaptureDependencies(made_stream, NULL, NULL, 0,
                                                    cudaStreamSetCaptureDependencies);
     },
     clean},
    {"cudaStreamUpdateCaptureDependencies.unknown_flags",
     [] {
         cudaStream_t stream = begin_capture(false, cudaStreamCaptureModeRelaxed);
         return cudaStreamUpdateCaptureDependencies(stream, NULL, NULL, 0, 99);
     },
     clean},
    {"cudaStreamUpdateCaptureDependencies.null_with_count",
     [] {
         cudaStream_t stream = begin_capture(false, cudaStreamCaptureModeRelaxed);
         return cudaStreamUpdateCaptureDependencies(stream, NULL, NULL, 1,
                                                    cudaStreamAddCaptureDependencies);
     },
     clean},
    {"cudaStreamUpdateCaptureDependencies_ptsz.not_capturing",
     [] {
         return cudaStreamUpdateCaptureDependencies_ptsz(0, NULL, NULL, 0,
                                                         cudaStreamSetCaptureDependencies);
     }},
    {"cudaThreadExchangeStreamCaptureMode.null",
     [] { return cudaThreadExchangeStreamCaptureMode(NULL); }},
    {"cudaThreadExchangeStreamCaptureMode.unknown_mode",
     [] {
         saved_mode = (cudaStreamCaptureMode)99;
         return cudaThreadExchangeStreamCaptureMode(&saved_mode);
     },
     [] {
         // Puts back what the call swapped out, if it accepted the mode.
         if (saved_mode != (cudaStreamCaptureMode)99)
             cudaThreadExchangeStreamCaptureMode(&saved_mode);
     }},

    // ---- graphs ----
    {"cudaGraphCreate.null_out", [] { return cudaGraphCreate(NULL, 0); }},
    {"cudaGraphCreate.flags_1", [] { return cudaGraphCreate(&made_graph, 1); }, clean},
    {"cudaGraphDestroy.null", [] { return cudaGraphDestroy(NULL); }},
    {"cudaGraphClone.null_out", [] { return cudaGraphClone(NULL, g); }},
    {"cudaGraphClone.null_graph", [] { return cudaGraphClone(&made_graph, NULL); }, clean},
    {"cudaGraphGetNodes.null_count", [] { return cudaGraphGetNodes(g, NULL, NULL); }},
    {"cudaGraphGetNodes.null_graph", [] { return cudaGraphGetNodes(NULL, NULL, &n); }},
    {"cudaGraphGetNodes.array_smaller_than_graph",
     [] {
         n = 1;
         cudaError_t e = cudaGraphGetNodes(g, nodes, &n);
         misuse_note("count_%zu", n);
         return e;
     }},
    {"cudaGraphGetRootNodes.null_count", [] { return cudaGraphGetRootNodes(g, NULL, NULL); }},
    {"cudaGraphGetRootNodes.null_graph", [] { return cudaGraphGetRootNodes(NULL, NULL, &n); }},
    {"cudaGraphAddDependencies.null_graph",
     [] {
         fresh_graph();
         return cudaGraphAddDependencies(NULL, &na, &nb, NULL, 1);
     },
     clean},
    {"cudaGraphAddDependencies.null_arrays_with_count",
     [] { return cudaGraphAddDependencies(fresh_graph(), NULL, NULL, NULL, 1); }, clean},
    {"cudaGraphAddDependencies.self",
     [] { return cudaGraphAddDependencies(fresh_graph(), &na, &na, NULL, 1); }, clean},
    {"cudaGraphAddDependencies.twice",
     [] {
         CHECK(cudaGraphAddDependencies(fresh_graph(), &na, &nb, NULL, 1));
         return cudaGraphAddDependencies(made_graph, &na, &nb, NULL, 1);
     },
     clean},
    {"cudaGraphAddDependencies.cycle",
     [] {
         CHECK(cudaGraphAddDependencies(fresh_graph(), &na, &nb, NULL, 1));
         return cudaGraphAddDependencies(made_graph, &nb, &na, NULL, 1);
     },
     clean},
    {"cudaGraphAddDependencies.node_of_other_graph",
     [] { return cudaGraphAddDependencies(fresh_graph(), &na, &other_empty, NULL, 1); }, clean},
    {"cudaGraphDebugDotPrint.null_path", [] { return cudaGraphDebugDotPrint(g, NULL, 0); }},
    {"cudaGraphDebugDotPrint.null_graph",
     [] { return cudaGraphDebugDotPrint(NULL, "/tmp/conf_misuse_graph.dot", 0); }},
    {"cudaGraphDebugDotPrint.unwritable_path",
     [] { return cudaGraphDebugDotPrint(g, "/nonexistent-directory/graph.dot", 0); }},

    // ---- kernel nodes ----
    {"cudaGraphAddKernelNode.null_out",
     [] {
         cudaKernelNodeParams kp = kernel_params(K, dim3(32));
         return cudaGraphAddKernelNode(NULL, fresh_graph(), NULL, 0, &kp);
     },
     clean},
    {"cudaGraphAddKernelNode.null_params",
     [] { return cudaGraphAddKernelNode(&out_node, fresh_graph(), NULL, 0, NULL); }, clean},
    {"cudaGraphAddKernelNode.null_graph",
     [] {
         cudaKernelNodeParams kp = kernel_params(K, dim3(32));
         return cudaGraphAddKernelNode(&out_node, NULL, NULL, 0, &kp);
     }},
    {"cudaGraphAddKernelNode.not_a_kernel",
     [] {
         cudaKernelNodeParams kp = kernel_params(MISUSE_NOT_A_KERNEL, dim3(32));
         return cudaGraphAddKernelNode(&out_node, fresh_graph(), NULL, 0, &kp);
     },
     clean},
    {"cudaGraphAddKernelNode.null_function",
     [] {
         cudaKernelNodeParams kp = kernel_params(NULL, dim3(32));
         return cudaGraphAddKernelNode(&out_node, fresh_graph(), NULL, 0, &kp);
     },
     clean},
    {"cudaGraphAddKernelNode.block_2048",
     [] {
         cudaKernelNodeParams kp = kernel_params(K, dim3(2048));
         return cudaGraphAddKernelNode(&out_node, fresh_graph(), NULL, 0, &kp);
     },
     clean},
    {"cudaGraphAddKernelNode.grid_0",
     [] {
         cudaKernelNodeParams kp = kernel_params(K, dim3(32));
         kp.gridDim = dim3(0);
         return cudaGraphAddKernelNode(&out_node, fresh_graph(), NULL, 0, &kp);
     },
     clean},
    {"cudaGraphAddKernelNode.no_arguments",
     [] {
         cudaKernelNodeParams kp = kernel_params(K, dim3(32));
         kp.kernelParams = NULL;
         return cudaGraphAddKernelNode(&out_node, fresh_graph(), NULL, 0, &kp);
     },
     clean},
    {"cudaGraphAddKernelNode.dependencies_null_with_count",
     [] {
         cudaKernelNodeParams kp = kernel_params(K, dim3(32));
         return cudaGraphAddKernelNode(&out_node, fresh_graph(), NULL, 1, &kp);
     },
     clean},
    {"cudaGraphKernelNodeSetParams.null_params",
     [] { return cudaGraphKernelNodeSetParams(knode, NULL); }},
    {"cudaGraphKernelNodeSetParams.null_node",
     [] {
         cudaKernelNodeParams kp = kernel_params(K, dim3(32));
         return cudaGraphKernelNodeSetParams(NULL, &kp);
     }},
    {"cudaGraphKernelNodeSetParams.empty_node",
     [] {
         cudaKernelNodeParams kp = kernel_params(K, dim3(32));
         return cudaGraphKernelNodeSetParams(empty, &kp);
     }},
    {"cudaGraphKernelNodeSetParams.not_a_kernel",
     [] {
         cudaKernelNodeParams kp = kernel_params(MISUSE_NOT_A_KERNEL, dim3(32));
         return cudaGraphKernelNodeSetParams(knode, &kp);
     }},
    {"cudaGraphExecKernelNodeSetParams.null_params",
     [] { return cudaGraphExecKernelNodeSetParams(exec, knode, NULL); }},
    {"cudaGraphExecKernelNodeSetParams.null_exec",
     [] {
         cudaKernelNodeParams kp = kernel_params(K, dim3(32));
         return cudaGraphExecKernelNodeSetParams(NULL, knode, &kp);
     }},
    {"cudaGraphExecKernelNodeSetParams.node_of_other_graph",
     [] {
         cudaKernelNodeParams kp = kernel_params(K, dim3(32));
         return cudaGraphExecKernelNodeSetParams(exec, other_empty, &kp);
     }},
    {"cudaGraphExecKernelNodeSetParams.empty_node",
     [] {
         cudaKernelNodeParams kp = kernel_params(K, dim3(32));
         return cudaGraphExecKernelNodeSetParams(exec, empty, &kp);
     }},
    {"cudaGraphExecKernelNodeSetParams.not_a_kernel",
     [] {
         cudaKernelNodeParams kp = kernel_params(MISUSE_NOT_A_KERNEL, dim3(32));
         return cudaGraphExecKernelNodeSetParams(exec, knode, &kp);
     }},
    {"cudaGraphKernelNodeGetParams.null_out",
     [] { return cudaGraphKernelNodeGetParams(knode, NULL); }},
    {"cudaGraphKernelNodeGetParams.null_node",
     [] { return cudaGraphKernelNodeGetParams(NULL, &out_kp); }},
    {"cudaGraphKernelNodeGetParams.empty_node",
     [] { return cudaGraphKernelNodeGetParams(empty, &out_kp); }},

    // ---- memcpy, memset, host, child and empty nodes ----
    {"cudaGraphAddMemcpyNode.null_out",
     [] {
         return cudaGraphAddMemcpyNode(NULL, fresh_graph(), NULL, 0,
                                       copy_params(cudaMemcpyDeviceToDevice));
     },
     clean},
    {"cudaGraphAddMemcpyNode.null_params",
     [] { return cudaGraphAddMemcpyNode(&out_node, fresh_graph(), NULL, 0, NULL); }, clean},
    {"cudaGraphAddMemcpyNode.null_graph",
     [] {
         return cudaGraphAddMemcpyNode(&out_node, NULL, NULL, 0,
                                       copy_params(cudaMemcpyDeviceToDevice));
     }},
    {"cudaGraphAddMemcpyNode.unknown_kind",
     [] {
         return cudaGraphAddMemcpyNode(&out_node, fresh_graph(), NULL, 0,
                                       copy_params((cudaMemcpyKind)99));
     },
     clean},
    {"cudaGraphAddMemcpyNode.null_pointers",
     [] {
         cudaMemcpy3DParms *p = copy_params(cudaMemcpyDeviceToDevice);
         p->srcPtr.ptr = NULL;
         p->dstPtr.ptr = NULL;
         return cudaGraphAddMemcpyNode(&out_node, fresh_graph(), NULL, 0, p);
     },
     clean},
    {"cudaGraphAddMemcpyNode1D.null_out",
     [] {
         return cudaGraphAddMemcpyNode1D(NULL, fresh_graph(), NULL, 0, d, d + 1024, 64,
                                         cudaMemcpyDeviceToDevice);
     },
     clean},
    {"cudaGraphAddMemcpyNode1D.null_dst",
     [] {
         return cudaGraphAddMemcpyNode1D(&out_node, fresh_graph(), NULL, 0, NULL, d, 64,
                                         cudaMemcpyDeviceToDevice);
     },
     clean},
    {"cudaGraphAddMemcpyNode1D.unknown_kind",
     [] {
         return cudaGraphAddMemcpyNode1D(&out_node, fresh_graph(), NULL, 0, d, d + 1024, 64,
                                         (cudaMemcpyKind)99);
     },
     clean},
    {"cudaGraphAddMemcpyNode1D.null_graph",
     [] {
         return cudaGraphAddMemcpyNode1D(&out_node, NULL, NULL, 0, d, d + 1024, 64,
                                         cudaMemcpyDeviceToDevice);
     }},
    {"cudaGraphAddMemsetNode.null_out",
     [] { return cudaGraphAddMemsetNode(NULL, fresh_graph(), NULL, 0, memset_params(d, 4)); },
     clean},
    {"cudaGraphAddMemsetNode.null_params",
     [] { return cudaGraphAddMemsetNode(&out_node, fresh_graph(), NULL, 0, NULL); }, clean},
    {"cudaGraphAddMemsetNode.element_size_3",
     [] {
         return cudaGraphAddMemsetNode(&out_node, fresh_graph(), NULL, 0, memset_params(d, 3));
     },
     clean},
    {"cudaGraphAddMemsetNode.null_dst",
     [] {
         return cudaGraphAddMemsetNode(&out_node, fresh_graph(), NULL, 0, memset_params(NULL, 4));
     },
     clean},
    {"cudaGraphAddMemsetNode.null_graph",
     [] { return cudaGraphAddMemsetNode(&out_node, NULL, NULL, 0, memset_params(d, 4)); }},
    {"cudaGraphAddHostNode.null_out",
     [] {
         hp.fn = host_fn;
         hp.userData = NULL;
         return cudaGraphAddHostNode(NULL, fresh_graph(), NULL, 0, &hp);
     },
     clean},
    {"cudaGraphAddHostNode.null_params",
     [] { return cudaGraphAddHostNode(&out_node, fresh_graph(), NULL, 0, NULL); }, clean},
    {"cudaGraphAddHostNode.null_fn",
     [] {
         hp.fn = NULL;
         hp.userData = NULL;
         return cudaGraphAddHostNode(&out_node, fresh_graph(), NULL, 0, &hp);
     },
     clean},
    {"cudaGraphAddHostNode.null_graph",
     [] {
         hp.fn = host_fn;
         hp.userData = NULL;
         return cudaGraphAddHostNode(&out_node, NULL, NULL, 0, &hp);
     }},
    {"cudaGraphAddChildGraphNode.null_out",
     [] { return cudaGraphAddChildGraphNode(NULL, fresh_graph(), NULL, 0, g2); }, clean},
    {"cudaGraphAddChildGraphNode.null_child",
     [] { return cudaGraphAddChildGraphNode(&out_node, fresh_graph(), NULL, 0, NULL); }, clean},
    {"cudaGraphAddChildGraphNode.itself",
     [] { return cudaGraphAddChildGraphNode(&out_node, fresh_graph(), NULL, 0, made_graph); },
     clean},
    {"cudaGraphAddChildGraphNode.null_graph",
     [] { return cudaGraphAddChildGraphNode(&out_node, NULL, NULL, 0, g2); }},
    {"cudaGraphAddEmptyNode.null_out",
     [] { return cudaGraphAddEmptyNode(NULL, fresh_graph(), NULL, 0); }, clean},
    {"cudaGraphAddEmptyNode.null_graph",
     [] { return cudaGraphAddEmptyNode(&out_node, NULL, NULL, 0); }},
    {"cudaGraphAddEmptyNode.dependencies_null_with_count",
     [] { return cudaGraphAddEmptyNode(&out_node, fresh_graph(), NULL, 1); }, clean},
    {"cudaGraphAddEmptyNode.dependency_of_other_graph",
     [] { return cudaGraphAddEmptyNode(&out_node, fresh_graph(), &other_empty, 1); }, clean},

    // ---- executable graphs ----
    {"cudaGraphInstantiate.null_out", [] { return cudaGraphInstantiate(NULL, g, 0); }},
    {"cudaGraphInstantiate.null_graph", [] { return cudaGraphInstantiate(&made_exec, NULL, 0); },
     clean},
    {"cudaGraphInstantiate.unknown_flags",
     [] { return cudaGraphInstantiate(&made_exec, g, 0x10000); }, clean},
    {"cudaGraphInstantiateWithFlags.null_out",
     [] { return cudaGraphInstantiateWithFlags(NULL, g, 0); }},
    {"cudaGraphInstantiateWithFlags.null_graph",
     [] { return cudaGraphInstantiateWithFlags(&made_exec, NULL, 0); }, clean},
    {"cudaGraphInstantiateWithFlags.unknown_flags",
     [] { return cudaGraphInstantiateWithFlags(&made_exec, g, 0x10000); }, clean},
    {"cudaGraphInstantiateWithFlags.device_launch_alone",
     [] {
         return cudaGraphInstantiateWithFlags(&made_exec, g, cudaGraphInstantiateFlagDeviceLaunch);
     },
     clean},
    {"cudaGraphInstantiateWithParams.null_out",
     [] { return cudaGraphInstantiateWithParams(NULL, g, instantiate_params(0)); }},
    {"cudaGraphInstantiateWithParams.null_params",
     [] { return cudaGraphInstantiateWithParams(&made_exec, g, NULL); }, clean},
    {"cudaGraphInstantiateWithParams.null_graph",
     [] {
         cudaGraphInstantiateParams *p = instantiate_params(0);
         cudaError_t e = cudaGraphInstantiateWithParams(&made_exec, NULL, p);
         misuse_note("result_%d", (int)p->result_out);
         return e;
     },
     clean},
    {"cudaGraphInstantiateWithParams.unknown_flags",
     [] {
         cudaGraphInstantiateParams *p = instantiate_params(0x10000);
         cudaError_t e = cudaGraphInstantiateWithParams(&made_exec, g, p);
         misuse_note("result_%d", (int)p->result_out);
         return e;
     },
     clean},
    {"cudaGraphInstantiateWithParams_ptsz.null_params",
     [] { return cudaGraphInstantiateWithParams_ptsz(&made_exec, g, NULL); }, clean},
    {"cudaGraphInstantiateWithParams_ptsz.unknown_flags",
     [] { return cudaGraphInstantiateWithParams_ptsz(&made_exec, g, instantiate_params(0x10000)); },
     clean},
    {"cudaGraphLaunch.null_exec", [] { return cudaGraphLaunch(NULL, 0); }},
    {"cudaGraphLaunch_ptsz.null_exec", [] { return cudaGraphLaunch_ptsz(NULL, 0); }},
    {"cudaGraphUpload.null_exec", [] { return cudaGraphUpload(NULL, 0); }},
    {"cudaGraphUpload_ptsz.null_exec", [] { return cudaGraphUpload_ptsz(NULL, 0); }},
    {"cudaGraphExecDestroy.null", [] { return cudaGraphExecDestroy(NULL); }},
    {"cudaGraphExecUpdate.null_result", [] { return cudaGraphExecUpdate(exec, g, NULL); }},
    {"cudaGraphExecUpdate.null_exec", [] { return cudaGraphExecUpdate(NULL, g, &info); }},
    {"cudaGraphExecUpdate.null_graph", [] { return cudaGraphExecUpdate(exec, NULL, &info); }},
    {"cudaGraphExecUpdate.other_topology",
     [] {
         CHECK(cudaGraphInstantiate(&made_exec, g, 0));
         memset(&info, 0, sizeof info);
         cudaError_t e = cudaGraphExecUpdate(made_exec, g2, &info);
         misuse_note("result_%d_error_node_%s", (int)info.result,
                     info.errorNode ? "set" : "null");
         return e;
     },
     clean},
};

int main(int argc, char **argv)
{
    int rc = misuse_main("conf_misuse_graph", argc, argv, setup, cases, MISUSE_COUNT(cases));
    cudaDeviceSynchronize();
    return rc;
}
