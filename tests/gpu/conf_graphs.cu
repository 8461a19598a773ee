// conf_graphs.cu - CUDA graphs under both runtimes: stream capture, explicit nodes (kernel,
// memcpy, memset, host, child, empty), dependencies, exec set-params, exec update, upload,
// clone, and invalid-argument probes.  Only results, counts and error codes are printed.
// Capture runs on cudaStreamPerThread (the legacy stream cannot be captured), so that the
// program needs no stream API beyond graphs.
#include "graph_conf.h"

__global__ void add_one(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] += 1;
}

__global__ void scale(int *p, int n, int factor)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] *= factor;
}

static void host_count(void *user)
{
    (*(int *)user)++;
}

static void capture(void)
{
    int *d = NULL, n = N;
    CHECK(cudaMalloc((void **)&d, N * sizeof(int)));
    CHECK(cudaMemset(d, 0, N * sizeof(int)));
    cudaStream_t s = cudaStreamPerThread;
    enum cudaStreamCaptureStatus status = cudaStreamCaptureStatusInvalidated;
    CHECK(cudaStreamIsCapturing(s, &status));
    printf("capture status before begin: %d\n", (int)status);

    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    add_one<<<(N + 127) / 128, 128, 0, s>>>(d, n);
    scale<<<(N + 127) / 128, 128, 0, s>>>(d, n, 2);
    CHECK(cudaStreamIsCapturing(s, &status));
    printf("capture status while capturing: %d\n", (int)status);
    cudaGraph_t during = NULL;
    const cudaGraphNode_t *deps = NULL;
    size_t ndeps = 0;
    unsigned long long id = 0;
    CHECK(cudaStreamGetCaptureInfo(s, &status, &id, &during, &deps, NULL, &ndeps));
    printf("capture info: status %d, id nonzero %d, dependencies %zu\n", (int)status, id != 0,
           ndeps);
    cudaGraph_t graph = NULL;
    CHECK(cudaStreamEndCapture(s, &graph));
    printf("captured graph is the one being built: %d\n", graph == during);
    CHECK(cudaStreamIsCapturing(s, &status));
    printf("capture status after end: %d\n", (int)status);
    printf("captured nodes: %zu\n", node_count(graph));
    printf("last error after capture: " ERR_FMT "\n", ERR_ARGS(cudaGetLastError()));

    cudaGraphExec_t exec = NULL;
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    int want = 0;
    for (int round = 1; round <= 3; round++) {
        CHECK(cudaGraphLaunch(exec, s));
        want = (want + 1) * 2;
        char what[64];
        snprintf(what, sizeof what, "captured graph, launch %d", round);
        expect_all(what, d, want);
    }
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(graph));
    CHECK(cudaFree(d));
}

static void explicit_graph(void)
{
    int *a = NULL, *b = NULL, n = N, factor = 3, host_calls = 0;
    CHECK(cudaMalloc((void **)&a, N * sizeof(int)));
    CHECK(cudaMalloc((void **)&b, N * sizeof(int)));

    /* child: b *= 3 */
    cudaGraph_t child = NULL;
    cudaGraphNode_t child_scale;
    void *child_args[] = { &b, &n, &factor };
    cudaKernelNodeParams kp;
    memset(&kp, 0, sizeof kp);
    kp.func = (void *)scale;
    kp.gridDim = dim3((N + 127) / 128);
    kp.blockDim = dim3(128);
    kp.kernelParams = child_args;
    CHECK(cudaGraphCreate(&child, 0));
    CHECK(cudaGraphAddKernelNode(&child_scale, child, NULL, 0, &kp));

    /* memset a = 7 -> add_one(a) -> copy a to b -> child (b *= 3) -> host; empty joins. */
    cudaGraph_t g = NULL;
    cudaGraphNode_t set, kernel, copy, sub, host, join;
    CHECK(cudaGraphCreate(&g, 0));
    cudaMemsetParams mp;
    memset(&mp, 0, sizeof mp);
    mp.dst = a;
    mp.value = 7;
    mp.elementSize = 4;
    mp.width = N;
    mp.height = 1;
    CHECK(cudaGraphAddMemsetNode(&set, g, NULL, 0, &mp));
    void *add_args[] = { &a, &n };
    kp.func = (void *)add_one;
    kp.kernelParams = add_args;
    CHECK(cudaGraphAddKernelNode(&kernel, g, &set, 1, &kp));
    CHECK(cudaGraphAddMemcpyNode1D(&copy, g, &kernel, 1, b, a, N * sizeof(int),
                                   cudaMemcpyDeviceToDevice));
    CHECK(cudaGraphAddChildGraphNode(&sub, g, NULL, 0, child));
    CHECK(cudaGraphAddDependencies(g, &copy, &sub, NULL, 1));
    cudaHostNodeParams hp = { host_count, &host_calls };
    CHECK(cudaGraphAddHostNode(&host, g, &sub, 1, &hp));
    cudaGraphNode_t ends[2] = { host, kernel };
    CHECK(cudaGraphAddEmptyNode(&join, g, ends, 2));

    size_t roots = 0;
    CHECK(cudaGraphGetRootNodes(g, NULL, &roots));
    printf("explicit graph: %zu nodes, %zu roots\n", node_count(g), roots);

    cudaKernelNodeParams back;
    memset(&back, 0, sizeof back);
    CHECK(cudaGraphKernelNodeGetParams(kernel, &back));
    printf("kernel node: func is add_one %d, grid %u, block %u, shared %u\n",
           back.func == (void *)add_one, back.gridDim.x, back.blockDim.x, back.sharedMemBytes);

    cudaGraphExec_t exec = NULL;
    CHECK(cudaGraphInstantiate(&exec, g, 0));
    CHECK(cudaGraphUpload(exec, cudaStreamPerThread));
    for (int round = 1; round <= 2; round++) {
        CHECK(cudaGraphLaunch(exec, cudaStreamPerThread));
        expect_all("explicit graph: a", a, 8);
        expect_all("explicit graph: b", b, 24);
    }
    printf("host node ran %d times\n", host_calls);
    ok &= host_calls == 2;

    /* Exec kernel node set params: the add_one node becomes scale(a, 5): a = 35, b = 105. */
    int five = 5;
    void *scale_args[] = { &a, &n, &five };
    kp.func = (void *)scale;
    kp.kernelParams = scale_args;
    CHECK(cudaGraphExecKernelNodeSetParams(exec, kernel, &kp));
    CHECK(cudaGraphLaunch(exec, cudaStreamPerThread));
    expect_all("after exec set params: a", a, 35);
    expect_all("after exec set params: b", b, 105);

    /* Exec update from the graph, whose kernel node now scales a by 2: a = 14, b = 42. */
    int two = 2;
    void *two_args[] = { &a, &n, &two };
    kp.kernelParams = two_args;
    CHECK(cudaGraphKernelNodeSetParams(kernel, &kp));
    cudaGraphExecUpdateResultInfo info;
    memset(&info, 0, sizeof info);
    cudaError_t e = cudaGraphExecUpdate(exec, g, &info);
    printf("exec update (same topology) -> " ERR_FMT ", result %d\n", ERR_ARGS(e),
           (int)info.result);
    ok &= e == cudaSuccess;
    CHECK(cudaGraphLaunch(exec, cudaStreamPerThread));
    expect_all("after exec update: a", a, 14);
    expect_all("after exec update: b", b, 42);

    cudaGraph_t clone = NULL;
    CHECK(cudaGraphClone(&clone, g));
    printf("clone: %zu nodes\n", node_count(clone));
    cudaGraphNode_t extra;
    CHECK(cudaGraphAddEmptyNode(&extra, clone, NULL, 0));
    memset(&info, 0, sizeof info);
    e = cudaGraphExecUpdate(exec, clone, &info);
    cudaError_t last = cudaGetLastError();
    printf("exec update (node added) -> " ERR_FMT ", result %d, last error " ERR_FMT "\n",
           ERR_ARGS(e), (int)info.result, ERR_ARGS(last));

    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(clone));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaGraphDestroy(child));
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
}

static void capture_modes(void)
{
    enum cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
    CHECK(cudaThreadExchangeStreamCaptureMode(&mode));
    printf("capture mode exchange: previous %d\n", (int)mode);
    CHECK(cudaThreadExchangeStreamCaptureMode(&mode));
    printf("capture mode exchange back: previous %d\n", (int)mode);
}

static void probes(void)
{
    cudaGraph_t g = NULL, out = NULL;
    cudaGraphExec_t exec = NULL;
    CHECK(cudaGraphCreate(&g, 0));
    probe("cudaStreamEndCapture(not capturing)", cudaStreamEndCapture(cudaStreamPerThread, &out));
    probe("cudaStreamBeginCapture(legacy stream)",
          cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal));
    probe("cudaStreamIsCapturing(status NULL)", cudaStreamIsCapturing(cudaStreamPerThread, NULL));
    probe("cudaGraphCreate(NULL)", cudaGraphCreate(NULL, 0));
    probe("cudaGraphGetNodes(count NULL)", cudaGraphGetNodes(g, NULL, NULL));
    probe("cudaGraphInstantiate(exec NULL)", cudaGraphInstantiate(NULL, g, 0));
    probe("cudaGraphLaunch(NULL exec)", cudaGraphLaunch(NULL, cudaStreamPerThread));
    cudaKernelNodeParams kp;
    memset(&kp, 0, sizeof kp);
    kp.func = (void *)add_one;
    kp.gridDim = dim3(1);
    kp.blockDim = dim3(1);
    cudaGraphNode_t node;
    probe("cudaGraphAddKernelNode(params NULL)", cudaGraphAddKernelNode(&node, g, NULL, 0, NULL));
    /* An empty graph instantiates and launches. */
    CHECK(cudaGraphInstantiate(&exec, g, 0));
    probe("cudaGraphLaunch(empty graph)", cudaGraphLaunch(exec, cudaStreamPerThread));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(g));
}

int main(void)
{
    gpu_require("conf_graphs");
    capture();
    explicit_graph();
    capture_modes();
    probes();
    printf("conf_graphs: %s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
