// gpu-cuda: 13.5
// conf_cuda135_served.cu - the CUDA 13.5 functions that NVIDIA's 13.5 runtime refuses on driver
// 580 (CUDA 13.0) with cudaErrorCallRequiresNewerDriver, because the driver lacks their entry
// points, and that minicudart answers itself from what it already knows (a kernel's parameters
// from its image, a copy as a batch of one, its own records of graphs and nodes).
//
// The program checks itself: a call that succeeds must give the right answer (data copied,
// counts, node parameters equal to what was set, ids distinct where they must be); a call that
// answers cudaErrorCallRequiresNewerDriver passes, with nothing to check; any other code fails.
// So it exits 0 under NVIDIA's runtime and, if minicudart's answers are right, under minicudart,
// while the transcripts differ: tests/gpu/expected_differences.txt lists it.  Handles and ids
// are never printed.  Exit 0 pass, 1 fail, 2 no GPU.
#include "probe.h"

#if CUDART_VERSION < 13050
#error "needs CUDA 13.5's headers (the gpu-cuda mark: run.sh and the CMake trees build it only with nvcc 13.5)"
#endif

#include <atomic>

// The per-thread-default-stream forms; the toolkit declares them only in such builds.
extern "C" {
cudaError_t CUDARTAPI cudaLaunchHostFunc_v2_ptsz(cudaStream_t stream, cudaHostFn_t fn,
                                                 void *userData, unsigned int syncMode);
cudaError_t CUDARTAPI cudaMemcpyWithAttributesAsync_ptsz(void *dst, const void *src, size_t size,
                                                         struct cudaMemcpyAttributes *attr,
                                                         cudaStream_t stream);
}

// The call answered (true: check its answer), or said the driver is too old (false: nothing
// to check).  Anything else is a failure.
static bool answered(const char *what, cudaError_t e)
{
    probe(what, e);
    if (e == cudaSuccess)
        return true;
    if (e != cudaErrorCallRequiresNewerDriver) {
        printf("  expected cudaSuccess or 36 cudaErrorCallRequiresNewerDriver\n");
        ok = 0;
    }
    return false;
}

static const int N = 4096;
static const unsigned long long MS = 1000000ull;

__device__ unsigned long long global_ns(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__global__ void spin(unsigned long long ns)
{
    unsigned long long start = global_ns();
    while (global_ns() - start < ns) {
    }
}

__global__ void add(int *p, int n, int value)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] += value;
}

// Kernels of 0, 1, 3 and 7 parameters, a struct passed by value, and a template.
struct Wide {
    int values[20];
    double scale;
};
__global__ void params0(void) {}
__global__ void params1(int *out)
{
    *out = 1;
}
__global__ void params3(int *out, float f, char c)
{
    *out = (int)f + c;
}
__global__ void params7(int *out, int a, int b, short c, long long d, float e, double f)
{
    *out = a + b + c + (int)d + (int)e + (int)f;
}
__global__ void params_struct(Wide w, int *out)
{
    *out = w.values[3] + (int)w.scale;
}
template <typename T> __global__ void params_template(T *out, T value, int n)
{
    if (n > 0)
        *out = value;
}

// ---- cudaFuncGetParamCount ------------------------------------------------------------------

static void param_counts(void)
{
    cudaKernel_t kernel3 = NULL, kernel7 = NULL;
    CHECK(cudaGetKernel(&kernel3, params3));
    CHECK(cudaGetKernel(&kernel7, params7));
    struct {
        const char *what;
        const void *func;
        size_t want;
    } cases[] = {
        {"cudaFuncGetParamCount(params0)", (const void *)params0, 0},
        {"cudaFuncGetParamCount(params1)", (const void *)params1, 1},
        {"cudaFuncGetParamCount(params3)", (const void *)params3, 3},
        {"cudaFuncGetParamCount(params7)", (const void *)params7, 7},
        {"cudaFuncGetParamCount(params_struct)", (const void *)params_struct, 2},
        {"cudaFuncGetParamCount(params_template<double>)",
         (const void *)params_template<double>, 3},
        {"cudaFuncGetParamCount(cudaKernel_t of params3)", (const void *)kernel3, 3},
        {"cudaFuncGetParamCount(cudaKernel_t of params7)", (const void *)kernel7, 7},
    };
    for (auto &c : cases) {
        size_t count = 999;
        if (answered(c.what, cudaFuncGetParamCount(c.func, &count))) {
            printf("  count %zu\n", count);
            ok &= count == c.want;
        }
    }
}

// ---- cudaMemcpyWithAttributesAsync, cudaMemcpy3DWithAttributesAsync -------------------------

static int count_wrong(const int *got, const int *want, int n)
{
    int wrong = 0;
    for (int i = 0; i < n; i++)
        wrong += got[i] != want[i];
    return wrong;
}

static void copies(cudaStream_t s)
{
    const size_t bytes = N * sizeof(int);
    int *src = NULL, *dst = NULL, *d1 = NULL, *d2 = NULL;
    static int check_buffer[N];
    CHECK(cudaMallocHost((void **)&src, bytes));
    CHECK(cudaMallocHost((void **)&dst, bytes));
    CHECK(cudaMalloc((void **)&d1, bytes));
    CHECK(cudaMalloc((void **)&d2, bytes));
    for (int i = 0; i < N; i++)
        src[i] = 7 * i + 3;
    cudaMemcpyAttributes attr;
    memset(&attr, 0, sizeof attr);
    attr.srcAccessOrder = cudaMemcpySrcAccessOrderStream;

    // Each direction on its own, its operands set (and checked) by plain copies.
    CHECK(cudaMemset(d1, 0, bytes));
    if (answered("cudaMemcpyWithAttributesAsync(H2D, stream order)",
                 cudaMemcpyWithAttributesAsync(d1, src, bytes, &attr, s))) {
        CHECK(cudaStreamSynchronize(s));
        CHECK(cudaMemcpy(check_buffer, d1, bytes, cudaMemcpyDeviceToHost));
        printf("  H2D: %d wrong\n", count_wrong(check_buffer, src, N));
        ok &= count_wrong(check_buffer, src, N) == 0;
    }
    CHECK(cudaMemcpy(d1, src, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d2, 0, bytes));
    if (answered("cudaMemcpyWithAttributesAsync(D2D, stream order)",
                 cudaMemcpyWithAttributesAsync(d2, d1, bytes, &attr, s))) {
        CHECK(cudaStreamSynchronize(s));
        CHECK(cudaMemcpy(check_buffer, d2, bytes, cudaMemcpyDeviceToHost));
        printf("  D2D: %d wrong\n", count_wrong(check_buffer, src, N));
        ok &= count_wrong(check_buffer, src, N) == 0;
    }
    CHECK(cudaMemcpy(d2, src, bytes, cudaMemcpyHostToDevice));
    memset(dst, 0, bytes);
    if (answered("cudaMemcpyWithAttributesAsync_ptsz(D2H, 0: the per-thread stream)",
                 cudaMemcpyWithAttributesAsync_ptsz(dst, d2, bytes, &attr, 0))) {
        CHECK(cudaStreamSynchronize(cudaStreamPerThread));
        printf("  D2H on the per-thread stream: %d wrong\n", count_wrong(dst, src, N));
        ok &= count_wrong(dst, src, N) == 0;
    }
    memset(dst, 0, bytes);
    if (answered("cudaMemcpyWithAttributesAsync(D2H, stream order)",
                 cudaMemcpyWithAttributesAsync(dst, d2, bytes, &attr, s))) {
        CHECK(cudaStreamSynchronize(s));
        printf("  D2H: %d wrong\n", count_wrong(dst, src, N));
        ok &= count_wrong(dst, src, N) == 0;
    }
    // An ephemeral source (the stack), read before the call returns.
    {
        int stack[64];
        for (int i = 0; i < 64; i++)
            stack[i] = 1000 + i;
        attr.srcAccessOrder = cudaMemcpySrcAccessOrderDuringApiCall;
        bool done = answered("cudaMemcpyWithAttributesAsync(H2D from the stack, during call)",
                             cudaMemcpyWithAttributesAsync(d1, stack, sizeof stack, &attr, s));
        for (int i = 0; i < 64; i++)
            stack[i] = -1;   // the copy read it already
        if (done) {
            CHECK(cudaStreamSynchronize(s));
            CHECK(cudaMemcpy(check_buffer, d1, 64 * sizeof(int), cudaMemcpyDeviceToHost));
            int wrong = 0;
            for (int i = 0; i < 64; i++)
                wrong += check_buffer[i] != 1000 + i;
            printf("  H2D from the stack: %d wrong\n", wrong);
            ok &= wrong == 0;
        }
    }

    // A pitched 3D region: host (tight rows) to device (pitched) and back.
    const size_t width = 40, height = 12, depth = 5;   // bytes, rows, layers
    cudaPitchedPtr pitched;
    CHECK(cudaMalloc3D(&pitched, make_cudaExtent(width, height, depth)));
    CHECK(cudaMemset3D(pitched, 0, make_cudaExtent(width, height, depth)));
    static unsigned char host3d[40 * 12 * 5], back3d[40 * 12 * 5];
    for (size_t i = 0; i < sizeof host3d; i++)
        host3d[i] = (unsigned char)(i * 13 + 1);
    cudaMemcpy3DBatchOp op;
    memset(&op, 0, sizeof op);
    op.src.type = cudaMemcpyOperandTypePointer;
    op.src.op.ptr.ptr = host3d;
    op.src.op.ptr.rowLength = width;
    op.src.op.ptr.layerHeight = height;
    op.dst.type = cudaMemcpyOperandTypePointer;
    op.dst.op.ptr.ptr = pitched.ptr;
    op.dst.op.ptr.rowLength = pitched.pitch;
    op.dst.op.ptr.layerHeight = height;
    op.extent = make_cudaExtent(width, height, depth);
    op.srcAccessOrder = cudaMemcpySrcAccessOrderStream;
    if (answered("cudaMemcpy3DWithAttributesAsync(host to pitched device)",
                 cudaMemcpy3DWithAttributesAsync(&op, 0, s))) {
        CHECK(cudaStreamSynchronize(s));
        cudaMemcpy3DParms p;
        memset(&p, 0, sizeof p);
        p.srcPtr = pitched;
        p.dstPtr = make_cudaPitchedPtr(back3d, width, width, height);
        p.extent = make_cudaExtent(width, height, depth);
        p.kind = cudaMemcpyDeviceToHost;
        memset(back3d, 0, sizeof back3d);
        CHECK(cudaMemcpy3D(&p));
        int wrong = memcmp(back3d, host3d, sizeof host3d) != 0;
        printf("  host to pitched device: %s\n", wrong ? "DIFFERENT" : "equal");
        ok &= !wrong;
    }
    cudaMemcpy3DParms up;
    memset(&up, 0, sizeof up);
    up.srcPtr = make_cudaPitchedPtr(host3d, width, width, height);
    up.dstPtr = pitched;
    up.extent = make_cudaExtent(width, height, depth);
    up.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&up));
    cudaMemcpy3DBatchOp down = op;
    down.src = op.dst;
    down.dst = op.src;
    down.dst.op.ptr.ptr = back3d;
    memset(back3d, 0, sizeof back3d);
    if (answered("cudaMemcpy3DWithAttributesAsync(pitched device to host)",
                 cudaMemcpy3DWithAttributesAsync(&down, 0, s))) {
        CHECK(cudaStreamSynchronize(s));
        int wrong = memcmp(back3d, host3d, sizeof host3d) != 0;
        printf("  pitched device to host: %s\n", wrong ? "DIFFERENT" : "equal");
        ok &= !wrong;
    }
    CHECK(cudaFree(pitched.ptr));
    CHECK(cudaFreeHost(src));
    CHECK(cudaFreeHost(dst));
    CHECK(cudaFree(d1));
    CHECK(cudaFree(d2));
}

// ---- cudaGraphNodeGetParams -----------------------------------------------------------------

static int host_node_calls;
static void CUDART_CB host_node_fn(void *user)
{
    (*(int *)user)++;
}

static const char *type_name(cudaGraphNodeType t)
{
    static const char *const names[] = {"kernel", "memcpy", "memset", "host", "graph", "empty",
                                        "wait_event", "event_record", "ext_sem_signal",
                                        "ext_sem_wait", "mem_alloc", "mem_free", "?12",
                                        "conditional", "memcpy_batch"};
    return (unsigned)t < sizeof names / sizeof names[0] ? names[t] : "?";
}

// Fetches a node's parameters: false when the runtime does not answer (or answered wrongly).
// `may_refuse`: cudaErrorNotSupported (one of the function's documented codes) passes too, for
// a node type beyond those the runtime is asked to describe.
static bool params_of(const char *label, cudaGraphNode_t node, cudaGraphNodeType want,
                      cudaGraphNodeParams *p, bool may_refuse = false)
{
    char what[96];
    snprintf(what, sizeof what, "cudaGraphNodeGetParams(%s)", label);
    *p = {};
    cudaError_t e = cudaGraphNodeGetParams(node, p);
    if (may_refuse && e == cudaErrorNotSupported) {
        probe(what, e);
        return false;
    }
    if (!answered(what, e))
        return false;
    printf("  type %s\n", type_name(p->type));
    if (p->type != want) {
        printf("  expected the type %s\n", type_name(want));
        ok = 0;
        return false;
    }
    return true;
}

static void node_params(void)
{
    int *d = NULL, *d2 = NULL, n = N, five = 5;
    CHECK(cudaMalloc((void **)&d, N * sizeof(int)));
    CHECK(cudaMalloc((void **)&d2, N * sizeof(int)));
    cudaEvent_t event;
    CHECK(cudaEventCreate(&event));
    cudaKernel_t add_kernel = NULL;
    CHECK(cudaGetKernel(&add_kernel, add));
    cudaGraph_t g = NULL, child = NULL;
    CHECK(cudaGraphCreate(&g, 0));
    CHECK(cudaGraphCreate(&child, 0));
    cudaGraphNode_t child_empty;
    CHECK(cudaGraphAddEmptyNode(&child_empty, child, NULL, 0));

    cudaGraphNode_t kernel, copy, set, host, empty, record, wait, sub, alloc, freed, cond;
    void *args[] = {&d, &n, &five};
    cudaKernelNodeParams kp;
    memset(&kp, 0, sizeof kp);
    kp.func = (void *)add;
    kp.gridDim = dim3(N / 64, 1, 1);
    kp.blockDim = dim3(64, 1, 1);
    kp.sharedMemBytes = 128;
    kp.kernelParams = args;
    CHECK(cudaGraphAddKernelNode(&kernel, g, NULL, 0, &kp));
    CHECK(cudaGraphAddMemcpyNode1D(&copy, g, NULL, 0, d2, d, N * sizeof(int),
                                   cudaMemcpyDeviceToDevice));
    cudaMemsetParams mp;
    memset(&mp, 0, sizeof mp);
    mp.dst = d2;
    mp.value = 7;
    mp.elementSize = 4;
    mp.width = N;
    mp.height = 1;
    CHECK(cudaGraphAddMemsetNode(&set, g, NULL, 0, &mp));
    cudaHostNodeParams hp = {host_node_fn, &host_node_calls};
    CHECK(cudaGraphAddHostNode(&host, g, NULL, 0, &hp));
    CHECK(cudaGraphAddEmptyNode(&empty, g, NULL, 0));
    CHECK(cudaGraphAddEventRecordNode(&record, g, NULL, 0, event));
    CHECK(cudaGraphAddEventWaitNode(&wait, g, NULL, 0, event));
    CHECK(cudaGraphAddChildGraphNode(&sub, g, NULL, 0, child));
    cudaMemAllocNodeParams ap;
    memset(&ap, 0, sizeof ap);
    ap.poolProps.allocType = cudaMemAllocationTypePinned;
    ap.poolProps.location.type = cudaMemLocationTypeDevice;
    ap.poolProps.location.id = 0;
    ap.bytesize = 1 << 20;
    CHECK(cudaGraphAddMemAllocNode(&alloc, g, NULL, 0, &ap));
    CHECK(cudaGraphAddMemFreeNode(&freed, g, &alloc, 1, ap.dptr));
    cudaGraphConditionalHandle handle = 0;
    CHECK(cudaGraphConditionalHandleCreate(&handle, g, 1, cudaGraphCondAssignDefault));
    cudaGraphNodeParams cp = {};
    cp.type = cudaGraphNodeTypeConditional;
    cp.conditional.handle = handle;
    cp.conditional.type = cudaGraphCondTypeIf;
    cp.conditional.size = 1;
    CHECK(cudaGraphAddNode(&cond, g, NULL, NULL, 0, &cp));

    cudaGraphNodeParams p = {};
    if (params_of("kernel", kernel, cudaGraphNodeTypeKernel, &p)) {
        bool func = p.kernel.functionType == cudaKernelFunctionTypeKernel
                        ? p.kernel.kern == add_kernel
                        : p.kernel.func == (void *)add;
        bool values = p.kernel.kernelParams && *(int **)p.kernel.kernelParams[0] == d &&
                      *(int *)p.kernel.kernelParams[1] == N &&
                      *(int *)p.kernel.kernelParams[2] == 5;
        printf("  function is add: %s; grid %u %u %u, block %u %u %u, shared %u; "
               "parameter values as set: %s\n",
               func ? "yes" : "NO", p.kernel.gridDim.x, p.kernel.gridDim.y, p.kernel.gridDim.z,
               p.kernel.blockDim.x, p.kernel.blockDim.y, p.kernel.blockDim.z,
               p.kernel.sharedMemBytes, values ? "yes" : "NO");
        ok &= func && values && p.kernel.gridDim.x == N / 64 && p.kernel.blockDim.x == 64 &&
              p.kernel.sharedMemBytes == 128;
    }
    if (params_of("memcpy 1D", copy, cudaGraphNodeTypeMemcpy, &p)) {
        const cudaMemcpy3DParms &c = p.memcpy.copyParams;
        bool same = c.srcPtr.ptr == d && c.dstPtr.ptr == d2 &&
                    c.extent.width == N * sizeof(int) && c.extent.height == 1 &&
                    c.extent.depth == 1;
        printf("  pointers and extent as set: %s; kind %d\n", same ? "yes" : "NO", (int)c.kind);
        ok &= same;
    }
    if (params_of("memset", set, cudaGraphNodeTypeMemset, &p)) {
        bool same = p.memset.dst == d2 && p.memset.value == 7 && p.memset.elementSize == 4 &&
                    p.memset.width == N && p.memset.height == 1;
        printf("  dst, value %u, elementSize %u, width %zu, height %zu as set: %s\n",
               p.memset.value, p.memset.elementSize, p.memset.width, p.memset.height,
               same ? "yes" : "NO");
        ok &= same;
    }
    if (params_of("host", host, cudaGraphNodeTypeHost, &p)) {
        bool same = p.host.fn == host_node_fn && p.host.userData == &host_node_calls;
        printf("  fn and userData as set: %s; syncMode %u\n", same ? "yes" : "NO",
               p.host.syncMode);
        ok &= same && p.host.syncMode == 0;
    }
    params_of("empty", empty, cudaGraphNodeTypeEmpty, &p);
    if (params_of("event record", record, cudaGraphNodeTypeEventRecord, &p))
        check("  event as set", p.eventRecord.event == event);
    if (params_of("event wait", wait, cudaGraphNodeTypeWaitEvent, &p))
        check("  event as set", p.eventWait.event == event);
    if (params_of("child graph", sub, cudaGraphNodeTypeGraph, &p)) {
        cudaGraph_t embedded = NULL;
        CHECK(cudaGraphChildGraphNodeGetGraph(sub, &embedded));
        check("  graph is the node's (cudaGraphChildGraphNodeGetGraph)",
              p.graph.graph == embedded);
        printf("  ownership %d\n", (int)p.graph.ownership);
    }
    if (params_of("mem alloc", alloc, cudaGraphNodeTypeMemAlloc, &p)) {
        bool same = p.alloc.bytesize == ap.bytesize && p.alloc.dptr == ap.dptr &&
                    p.alloc.poolProps.location.type == cudaMemLocationTypeDevice &&
                    p.alloc.poolProps.location.id == 0;
        printf("  bytesize %zu, location type %d id %d, address as returned: %s\n",
               p.alloc.bytesize, (int)p.alloc.poolProps.location.type,
               p.alloc.poolProps.location.id, p.alloc.dptr == ap.dptr ? "yes" : "NO");
        ok &= same;
    }
    if (params_of("mem free", freed, cudaGraphNodeTypeMemFree, &p))
        check("  address as set", p.free.dptr == ap.dptr);
    if (params_of("conditional", cond, cudaGraphNodeTypeConditional, &p, true)) {
        bool same = p.conditional.handle == handle &&
                    p.conditional.type == cudaGraphCondTypeIf && p.conditional.size == 1;
        printf("  handle, type %d, size %u as set: %s\n", (int)p.conditional.type,
               p.conditional.size, same ? "yes" : "NO");
        ok &= same;
    }
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaGraphDestroy(child));
    CHECK(cudaEventDestroy(event));
    CHECK(cudaFree(d));
    CHECK(cudaFree(d2));
}

// ---- cudaLaunchHostFunc_v2 ------------------------------------------------------------------

static std::atomic<int> calls;
static char order[16];
static void CUDART_CB note(void *user)
{
    int i = calls.fetch_add(1);
    if (i < 15)
        order[i] = (char)(intptr_t)user;
}

static void host_funcs(cudaStream_t s)
{
    char want[16] = "";
    size_t wanted = 0;
    spin<<<1, 1, 0, s>>>(10 * MS);
    if (answered("cudaLaunchHostFunc_v2(s, A, syncMode 0)",
                 cudaLaunchHostFunc_v2(s, note, (void *)(intptr_t)'A', 0)))
        want[wanted++] = 'A';
    CHECK(cudaLaunchHostFunc(s, note, (void *)(intptr_t)'B'));
    want[wanted++] = 'B';
    spin<<<1, 1, 0, s>>>(1 * MS);
    if (answered("cudaLaunchHostFunc_v2(s, C, syncMode 0)",
                 cudaLaunchHostFunc_v2(s, note, (void *)(intptr_t)'C', cudaHostTaskBlocking)))
        want[wanted++] = 'C';
    // The spin-wait mode: a runtime may refuse it (the code is printed); if it takes it, the
    // function must run in order like the others.
    cudaError_t e = probe("cudaLaunchHostFunc_v2(s, D, syncMode 1)",
                          cudaLaunchHostFunc_v2(s, note, (void *)(intptr_t)'D',
                                                cudaHostTaskSpinWait));
    if (e == cudaSuccess)
        want[wanted++] = 'D';
    CHECK(cudaStreamSynchronize(s));
    int n = calls.load();
    printf("host functions ran: %d, in the order queued: %s\n", n,
           n == (int)wanted && memcmp(order, want, wanted) == 0 ? "yes" : "NO");
    ok &= n == (int)wanted && memcmp(order, want, wanted) == 0;

    calls.store(0);
    if (answered("cudaLaunchHostFunc_v2_ptsz(0, E, syncMode 0)",
                 cudaLaunchHostFunc_v2_ptsz(0, note, (void *)(intptr_t)'E', 0))) {
        CHECK(cudaStreamSynchronize(cudaStreamPerThread));
        check("  ran on the per-thread stream", calls.load() == 1 && order[0] == 'E');
    }
}

// ---- graph ids, node ids, containing graphs -------------------------------------------------

static void ids(void)
{
    cudaGraph_t g1 = NULL, g2 = NULL, child = NULL, embedded = NULL;
    CHECK(cudaGraphCreate(&g1, 0));
    CHECK(cudaGraphCreate(&g2, 0));
    CHECK(cudaGraphCreate(&child, 0));
    cudaGraphNode_t a, b, c, sub, inner;
    CHECK(cudaGraphAddEmptyNode(&c, child, NULL, 0));
    CHECK(cudaGraphAddEmptyNode(&a, g1, NULL, 0));
    CHECK(cudaGraphAddEmptyNode(&b, g1, &a, 1));
    CHECK(cudaGraphAddChildGraphNode(&sub, g1, &b, 1, child));
    CHECK(cudaGraphChildGraphNodeGetGraph(sub, &embedded));
    size_t count = 1;
    CHECK(cudaGraphGetNodes(embedded, &inner, &count));
    cudaGraphNode_t other;
    CHECK(cudaGraphAddEmptyNode(&other, g2, NULL, 0));
    cudaGraphExec_t e1 = NULL, e2 = NULL;
    CHECK(cudaGraphInstantiate(&e1, g1, 0));
    CHECK(cudaGraphInstantiate(&e2, g2, 0));

    unsigned id1 = 0, id2 = 0, id_child = 0;
    bool got1 = answered("cudaGraphGetId(g1)", cudaGraphGetId(g1, &id1));
    bool got2 = answered("cudaGraphGetId(g2)", cudaGraphGetId(g2, &id2));
    bool got3 = answered("cudaGraphGetId(graph embedded in g1)", cudaGraphGetId(embedded,
                                                                                &id_child));
    if (got1 && got2 && got3)
        check("  graph ids distinct", id1 != id2 && id1 != id_child && id2 != id_child);
    // 13.5 documents the id as the one cudaGraphDebugDotPrint shows: the graph's cluster label.
    // Asked again in the other order, the ids stay (they are the graphs', not the askings').
    unsigned again2 = 0, again1 = 0;
    if (got1 && got2 && answered("cudaGraphGetId(g2), again", cudaGraphGetId(g2, &again2)) &&
        answered("cudaGraphGetId(g1), again", cudaGraphGetId(g1, &again1)))
        check("  graph ids stable", again1 == id1 && again2 == id2);
    if (got1) {
        const char *dot = "/tmp/conf_cuda135_served.dot";
        char text[8192] = "", label[64];
        if (cudaGraphDebugDotPrint(g1, dot, 0) == cudaSuccess) {
            FILE *f = fopen(dot, "r");
            size_t got = f ? fread(text, 1, sizeof text - 1, f) : 0;
            if (f)
                fclose(f);
            text[got] = '\0';
            remove(dot);
        }
        snprintf(label, sizeof label, "label=\"graph_%u\"", id1);
        check("  g1's id is the label of its DOT", strstr(text, label) != NULL);
    }

    unsigned exec1 = 0, exec2 = 0;
    got1 = answered("cudaGraphExecGetId(exec of g1)", cudaGraphExecGetId(e1, &exec1));
    got2 = answered("cudaGraphExecGetId(exec of g2)", cudaGraphExecGetId(e2, &exec2));
    if (got1 && got2)
        check("  exec ids distinct", exec1 != exec2);

    unsigned local_a = 0, local_b = 0, local_sub = 0;
    got1 = answered("cudaGraphNodeGetLocalId(a)", cudaGraphNodeGetLocalId(a, &local_a));
    got2 = answered("cudaGraphNodeGetLocalId(b)", cudaGraphNodeGetLocalId(b, &local_b));
    got3 = answered("cudaGraphNodeGetLocalId(child graph node)",
                    cudaGraphNodeGetLocalId(sub, &local_sub));
    if (got1 && got2 && got3)
        check("  local ids of one graph's nodes distinct",
              local_a != local_b && local_a != local_sub && local_b != local_sub);

    unsigned long long tools_a = 0, tools_b = 0, tools_inner = 0, tools_other = 0;
    got1 = answered("cudaGraphNodeGetToolsId(a)", cudaGraphNodeGetToolsId(a, &tools_a));
    got2 = answered("cudaGraphNodeGetToolsId(b)", cudaGraphNodeGetToolsId(b, &tools_b));
    got3 = answered("cudaGraphNodeGetToolsId(node of the embedded graph)",
                    cudaGraphNodeGetToolsId(inner, &tools_inner));
    bool got4 = answered("cudaGraphNodeGetToolsId(node of g2)",
                         cudaGraphNodeGetToolsId(other, &tools_other));
    if (got1 && got2 && got3 && got4)
        check("  tools ids distinct", tools_a != tools_b && tools_a != tools_inner &&
                                          tools_a != tools_other && tools_b != tools_inner &&
                                          tools_b != tools_other && tools_inner != tools_other);

    cudaGraph_t containing = NULL;
    if (answered("cudaGraphNodeGetContainingGraph(a)", cudaGraphNodeGetContainingGraph(a,
                                                                                    &containing)))
        check("  g1", containing == g1);
    containing = NULL;
    if (answered("cudaGraphNodeGetContainingGraph(node of the embedded graph)",
                 cudaGraphNodeGetContainingGraph(inner, &containing)))
        check("  the embedded graph", containing == embedded);
    containing = NULL;
    if (answered("cudaGraphNodeGetContainingGraph(node of g2)",
                 cudaGraphNodeGetContainingGraph(other, &containing)))
        check("  g2", containing == g2);

    CHECK(cudaGraphExecDestroy(e1));
    CHECK(cudaGraphExecDestroy(e2));
    CHECK(cudaGraphDestroy(g1));
    CHECK(cudaGraphDestroy(g2));
    CHECK(cudaGraphDestroy(child));
}

// ---- cudaStreamBeginRecaptureToGraph --------------------------------------------------------

static int recapture_calls;
static cudaError_t CUDART_CB on_mismatch(void *data, cudaGraphNode_t, const cudaGraphNodeParams *,
                                         const cudaGraphNodeParams *, cudaGraphRecaptureStatus)
{
    (*(int *)data)++;
    return cudaSuccess;
}

static void recapture(cudaStream_t s)
{
    int *d = NULL, n = N;
    static int h[N];
    CHECK(cudaMalloc((void **)&d, N * sizeof(int)));
    CHECK(cudaMemset(d, 0, N * sizeof(int)));
    cudaGraph_t g = NULL, again = NULL;
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    add<<<N / 256, 256, 0, s>>>(d, n, 1);
    CHECK(cudaStreamEndCapture(s, &g));

    cudaGraphRecaptureCallbackData callback = {on_mismatch, &recapture_calls};
    if (!answered("cudaStreamBeginRecaptureToGraph(s, Global, g, callback)",
                  cudaStreamBeginRecaptureToGraph(s, cudaStreamCaptureModeGlobal, g,
                                                  &callback))) {
        cudaStreamCaptureStatus status = cudaStreamCaptureStatusActive;
        CHECK(cudaStreamIsCapturing(s, &status));
        check("  the stream is not capturing", status == cudaStreamCaptureStatusNone);
        CHECK(cudaGraphDestroy(g));
        CHECK(cudaFree(d));
        return;
    }
    add<<<N / 256, 256, 0, s>>>(d, n, 5);   // the same node, another parameter
    cudaError_t e = probe("cudaStreamEndCapture after the recapture", cudaStreamEndCapture(s,
                                                                                      &again));
    ok &= e == cudaSuccess;
    check("  the graph captured into is the one returned", again == g);
    size_t nodes = 0;
    CHECK(cudaGraphGetNodes(g, NULL, &nodes));
    printf("  nodes %zu\n", nodes);
    check("  the callback saw the changed parameter", recapture_calls >= 1);
    cudaGraphExec_t exec = NULL;
    CHECK(cudaGraphInstantiate(&exec, g, 0));
    CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    int wrong = 0;
    for (int i = 0; i < N; i++)
        wrong += h[i] != 5;
    printf("  recaptured graph launched: %d wrong (want 5 each)\n", wrong);
    ok &= nodes == 1 && wrong == 0;
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaFree(d));
}

// ---- cudaMemGetLocationInfo -----------------------------------------------------------------

static void location_info(cudaStream_t s)
{
    const size_t size = 4 << 20, summary = 2 << 20;
    void *managed = NULL;
    CHECK(cudaMallocManaged(&managed, size));
    memset(managed, 1, size);
    cudaMemLocation device = {}, host = {};
    device.type = cudaMemLocationTypeDevice;
    device.id = 0;
    host.type = cudaMemLocationTypeHost;
    CHECK(cudaMemPrefetchAsync(managed, size, device, 0, s));
    CHECK(cudaStreamSynchronize(s));
    cudaMemLocation where[2];
    memset(where, 0, sizeof where);
    cudaError_t e = probe("cudaMemGetLocationInfo(managed, prefetched to device 0)",
                          cudaMemGetLocationInfo(managed, size, summary, 0, where));
    if (e == cudaSuccess) {
        printf("  regions: type %d id %d, type %d id %d\n", (int)where[0].type, where[0].id,
               (int)where[1].type, where[1].id);
        ok &= where[0].type == cudaMemLocationTypeDevice && where[0].id == 0 &&
              where[1].type == cudaMemLocationTypeDevice && where[1].id == 0;
    } else if (e != cudaErrorCallRequiresNewerDriver && e != cudaErrorNotSupported) {
        ok = 0;
    }
    CHECK(cudaMemPrefetchAsync(managed, size, host, 0, s));
    CHECK(cudaStreamSynchronize(s));
    memset(where, 0, sizeof where);
    e = probe("cudaMemGetLocationInfo(managed, prefetched to the host)",
              cudaMemGetLocationInfo(managed, size, summary, 0, where));
    if (e == cudaSuccess) {
        printf("  regions: type %d, type %d\n", (int)where[0].type, (int)where[1].type);
        for (int i = 0; i < 2; i++)
            ok &= where[i].type == cudaMemLocationTypeHost ||
                  where[i].type == cudaMemLocationTypeHostNuma;
    } else if (e != cudaErrorCallRequiresNewerDriver && e != cudaErrorNotSupported) {
        ok = 0;
    }
    CHECK(cudaFree(managed));
}

int main(void)
{
    gpu_require("conf_cuda135_served");
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    param_counts();
    copies(s);
    node_params();
    host_funcs(s);
    ids();
    recapture(s);
    location_info(s);
    CHECK(cudaStreamDestroy(s));
    probe("cudaGetLastError at the end", cudaGetLastError());
    printf("conf_cuda135_served: %s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
