// gpu-cuda: 13.5
// conf_green.cu - CUDA 13.5's green contexts and execution contexts end to end, compared line by
// line between NVIDIA's runtime and minicudart: SM resources and their splits, a green context
// of 16 SMs, streams made in it and in the device's primary execution context, kernels, copies
// and graphs run on them, events between the contexts, and the thread's current device and
// context left as they were.  SM counts are printed exactly (they are the driver's answers);
// handles and ids never (only "nonzero", "distinct"), except the primary context's id, which is
// 1 under NVIDIA's runtime (measured on the H200).  Exit 0 pass, 1 fail, 2 no GPU.
#include "probe.h"

#if CUDART_VERSION < 13050
#error "needs CUDA 13.5's headers (the gpu-cuda mark: run.sh and the CMake trees build it only with nvcc 13.5)"
#endif

// The per-thread-default-stream form; the toolkit declares it only in such builds.
extern "C" cudaError_t CUDARTAPI cudaStreamGetDevResource_ptsz(cudaStream_t hStream,
                                                               cudaDevResource *resource,
                                                               enum cudaDevResourceType type);

static const int N = 1 << 14;
static const unsigned long long MS = 1000000ull;

__device__ unsigned long long global_ns(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__global__ void spin_then_store(unsigned long long ns, int *out, int value)
{
    unsigned long long start = global_ns();
    while (global_ns() - start < ns) {
    }
    if (out)
        *out = value;
}

__global__ void fill(int *out, int n, int base)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = base + i;
}

__global__ void add(int *p, int n, int value)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] += value;
}

// *out = *in + plus: reads what an earlier kernel on another stream (or context) stored.
__global__ void copy_plus(const int *in, int *out, int plus)
{
    *out = *in + plus;
}

// Marks the SM each block ran on, after holding it for `ns`, so that the blocks of one launch
// spread over every SM the stream's context may use.
static const int SM_WORDS = 16;   // %smid below 512
__global__ void mark_sms(unsigned *seen, unsigned long long ns)
{
    unsigned sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    if (threadIdx.x == 0 && sm < SM_WORDS * 32)
        atomicOr(&seen[sm / 32], 1u << (sm % 32));
    unsigned long long start = global_ns();
    while (global_ns() - start < ns) {
    }
}

// How many SMs the blocks of one wide launch on `stream` ran on.
static int sms_used(cudaStream_t stream)
{
    unsigned *seen = NULL, host[SM_WORDS];
    CHECK(cudaMalloc((void **)&seen, sizeof host));
    CHECK(cudaMemsetAsync(seen, 0, sizeof host, stream));
    mark_sms<<<2048, 32, 0, stream>>>(seen, 20000);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpyAsync(host, seen, sizeof host, cudaMemcpyDeviceToHost, stream));
    CHECK(cudaStreamSynchronize(stream));
    CHECK(cudaFree(seen));
    int count = 0;
    for (int i = 0; i < SM_WORDS; i++)
        count += __builtin_popcount(host[i]);
    return count;
}

// Every element of d[0..N) is base + i + plus.
static void expect_filled(const char *what, const int *d, int base, int plus)
{
    static int h[N];
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    int wrong = 0;
    for (int i = 0; i < N; i++)
        wrong += h[i] != base + i + plus;
    printf("%-62s: %d wrong\n", what, wrong);
    ok &= wrong == 0;
}

static void print_sm(const char *what, const cudaDevResource &r)
{
    printf("%s: type %d, smCount %u, minSmPartitionSize %u, smCoscheduledAlignment %u\n", what,
           (int)r.type, r.sm.smCount, r.sm.minSmPartitionSize, r.sm.smCoscheduledAlignment);
}

// What the sections share: the device's SM resource, the two green contexts (16 SMs each),
// the primary execution context, and streams in each.
static cudaDevResource device_sm;
static cudaExecutionContext_t green, green2, primary;
static cudaStream_t green_stream, green_stream2, primary_stream, plain_stream;
static int *d;

// ---- resources, splits, descriptors, green contexts ----------------------------------------

static void resources(void)
{
    int mp = 0;
    CHECK(cudaDeviceGetAttribute(&mp, cudaDevAttrMultiProcessorCount, 0));
    memset(&device_sm, 0, sizeof device_sm);
    CHECK(cudaDeviceGetDevResource(0, &device_sm, cudaDevResourceTypeSm));
    print_sm("cudaDeviceGetDevResource(0, SM)", device_sm);
    check("smCount equals cudaDevAttrMultiProcessorCount", device_sm.sm.smCount == (unsigned)mp);

    unsigned groups_possible = 0;
    expect("cudaDevSmResourceSplitByCount(NULL result, min 16): query",
           cudaDevSmResourceSplitByCount(NULL, &groups_possible, &device_sm, NULL, 0, 16),
           cudaSuccess);
    printf("  groups of >= 16 SMs possible: %u\n", groups_possible);

    cudaDevResource groups[2], rest;
    memset(groups, 0, sizeof groups);
    memset(&rest, 0, sizeof rest);
    unsigned count = 2;
    CHECK(cudaDevSmResourceSplitByCount(groups, &count, &device_sm, &rest, 0, 16));
    printf("split by count (2 groups of >= 16): %u groups of %u and %u SMs, remainder %u "
           "(type %d)\n",
           count, groups[0].sm.smCount, groups[1].sm.smCount, rest.sm.smCount, (int)rest.type);
    check("split by count: 2 groups, each >= 16, all SMs accounted for",
          count == 2 && groups[0].sm.smCount >= 16 && groups[1].sm.smCount >= 16 &&
              groups[0].sm.smCount + groups[1].sm.smCount + rest.sm.smCount ==
                  device_sm.sm.smCount);

    // A structured group (driver 13.1's cuDevSmResourceSplit): driver 580 may not have it.
    cudaDevSmResourceGroupParams params;
    memset(&params, 0, sizeof params);
    params.smCount = 16;
    cudaDevResource structured, structured_rest;
    memset(&structured, 0, sizeof structured);
    memset(&structured_rest, 0, sizeof structured_rest);
    cudaError_t e = probe("cudaDevSmResourceSplit(1 group of 16, remainder)",
                          cudaDevSmResourceSplit(&structured, 1, &device_sm, &structured_rest,
                                                 0, &params));
    if (e == cudaSuccess) {
        printf("  group %u SMs, remainder %u SMs, params smCount %u\n", structured.sm.smCount,
               structured_rest.sm.smCount, params.smCount);
        check("  structured split: 16 + remainder = all SMs",
              structured.sm.smCount == 16 &&
                  structured.sm.smCount + structured_rest.sm.smCount == device_sm.sm.smCount);
    }

    cudaDevResourceDesc_t desc = NULL, desc2 = NULL;
    expect("cudaDevResourceGenerateDesc(group 0)",
           cudaDevResourceGenerateDesc(&desc, &groups[0], 1), cudaSuccess);
    expect("cudaDevResourceGenerateDesc(group 1)",
           cudaDevResourceGenerateDesc(&desc2, &groups[1], 1), cudaSuccess);
    check("descriptors nonzero", desc != NULL && desc2 != NULL);
    CHECK(cudaGreenCtxCreate(&green, desc, 0, 0));
    CHECK(cudaGreenCtxCreate(&green2, desc2, 0, 0));
    check("green contexts nonzero and distinct", green && green2 && green != green2);
}

// ---- execution contexts: device, ids, resources ---------------------------------------------

static void contexts(void)
{
    CHECK(cudaDeviceGetExecutionCtx(&primary, 0));
    check("primary execution context nonzero", primary != NULL);
    cudaExecutionContext_t again = NULL;
    CHECK(cudaDeviceGetExecutionCtx(&again, 0));

    int device = -1;
    expect("cudaExecutionCtxGetDevice(primary)", cudaExecutionCtxGetDevice(&device, primary),
           cudaSuccess);
    printf("  device %d\n", device);
    device = -1;
    expect("cudaExecutionCtxGetDevice(green)", cudaExecutionCtxGetDevice(&device, green),
           cudaSuccess);
    printf("  device %d\n", device);

    unsigned long long id_primary = 0, id_again = 0, id_green = 0, id_green2 = 0;
    CHECK(cudaExecutionCtxGetId(primary, &id_primary));
    CHECK(cudaExecutionCtxGetId(again, &id_again));
    CHECK(cudaExecutionCtxGetId(green, &id_green));
    CHECK(cudaExecutionCtxGetId(green2, &id_green2));
    printf("primary execution context id: %llu\n", id_primary);
    check("cudaDeviceGetExecutionCtx twice: the same context (same id)", id_again == id_primary);
    check("green context ids nonzero", id_green != 0 && id_green2 != 0);
    check("ids of primary and both green contexts distinct",
          id_green != id_primary && id_green2 != id_primary && id_green != id_green2);

    cudaDevResource r;
    memset(&r, 0, sizeof r);
    CHECK(cudaExecutionCtxGetDevResource(green, &r, cudaDevResourceTypeSm));
    print_sm("cudaExecutionCtxGetDevResource(green, SM)", r);
    check("green context has 16 SMs", r.sm.smCount == 16);
    memset(&r, 0, sizeof r);
    CHECK(cudaExecutionCtxGetDevResource(green2, &r, cudaDevResourceTypeSm));
    printf("cudaExecutionCtxGetDevResource(green2, SM): smCount %u\n", r.sm.smCount);
    memset(&r, 0, sizeof r);
    CHECK(cudaExecutionCtxGetDevResource(primary, &r, cudaDevResourceTypeSm));
    printf("cudaExecutionCtxGetDevResource(primary, SM): smCount %u\n", r.sm.smCount);
    check("primary context has all the device's SMs", r.sm.smCount == device_sm.sm.smCount);
}

// ---- streams in the contexts ----------------------------------------------------------------

static void show_stream(const char *what, cudaStream_t s)
{
    unsigned flags = 99;
    int priority = 99, device = -1;
    CHECK(cudaStreamGetFlags(s, &flags));
    CHECK(cudaStreamGetPriority(s, &priority));
    CHECK(cudaStreamGetDevice(s, &device));
    printf("%s: flags %u, priority %d, device %d\n", what, flags, priority, device);
}

static void streams(void)
{
    int least = 0, greatest = 0;
    CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    expect("cudaExecutionCtxStreamCreate(green, Default, 0)",
           cudaExecutionCtxStreamCreate(&green_stream, green, cudaStreamDefault, 0), cudaSuccess);
    expect("cudaExecutionCtxStreamCreate(green, NonBlocking, greatest - 100)",
           cudaExecutionCtxStreamCreate(&green_stream2, green, cudaStreamNonBlocking,
                                        greatest - 100),
           cudaSuccess);
    expect("cudaExecutionCtxStreamCreate(primary, Default, least)",
           cudaExecutionCtxStreamCreate(&primary_stream, primary, cudaStreamDefault, least),
           cudaSuccess);
    CHECK(cudaStreamCreate(&plain_stream));
    show_stream("green stream (Default)", green_stream);
    show_stream("green stream (NonBlocking, clamped priority)", green_stream2);
    show_stream("primary context stream (Default, least priority)", primary_stream);
    int priority = 0;
    CHECK(cudaStreamGetPriority(green_stream2, &priority));
    check("green stream priority clamped to the greatest", priority == greatest);
    unsigned long long id[4];
    cudaStream_t all[4] = {green_stream, green_stream2, primary_stream, plain_stream};
    for (int i = 0; i < 4; i++)
        CHECK(cudaStreamGetId(all[i], &id[i]));
    check("stream ids distinct", id[0] != id[1] && id[0] != id[2] && id[0] != id[3] &&
                                     id[1] != id[2] && id[1] != id[3] && id[2] != id[3]);
}

// ---- work on the green stream ---------------------------------------------------------------

static void work(void)
{
    int n = N, five = 5, seven = 7;
    CHECK(cudaMalloc((void **)&d, N * sizeof(int)));
    fill<<<N / 256, 256, 0, green_stream>>>(d, N, 100);
    probe("<<<>>> fill on the green stream", cudaGetLastError());
    void *args5[] = {&d, &n, &five};
    expect("cudaLaunchKernel(add 5) on the green stream",
           cudaLaunchKernel((const void *)add, dim3(N / 256), dim3(256), args5, 0, green_stream),
           cudaSuccess);
    cudaLaunchConfig_t config;
    memset(&config, 0, sizeof config);
    config.gridDim = dim3(N / 256);
    config.blockDim = dim3(256);
    config.stream = green_stream;
    void *args7[] = {&d, &n, &seven};
    expect("cudaLaunchKernelExC(add 7) on the green stream",
           cudaLaunchKernelExC(&config, (const void *)add, args7), cudaSuccess);
    CHECK(cudaStreamSynchronize(green_stream));
    expect_filled("green stream: fill 100, add 5, add 7", d, 100, 12);

    // Copies and a memset on the green stream, from pinned host memory and back.
    int *pinned = NULL, *d2 = NULL;
    CHECK(cudaMallocHost((void **)&pinned, N * sizeof(int)));
    CHECK(cudaMalloc((void **)&d2, N * sizeof(int)));
    expect("cudaMemsetAsync(0x01) on the green stream",
           cudaMemsetAsync(d2, 1, N * sizeof(int), green_stream), cudaSuccess);
    expect("cudaMemcpyAsync(D2H) on the green stream",
           cudaMemcpyAsync(pinned, d2, N * sizeof(int), cudaMemcpyDeviceToHost, green_stream),
           cudaSuccess);
    CHECK(cudaStreamSynchronize(green_stream));
    int wrong = 0;
    for (int i = 0; i < N; i++)
        wrong += pinned[i] != 0x01010101;
    printf("memset on the green stream: %d wrong\n", wrong);
    ok &= wrong == 0;
    for (int i = 0; i < N; i++)
        pinned[i] = 3 * i + 1;
    expect("cudaMemcpyAsync(H2D) on the green stream",
           cudaMemcpyAsync(d2, pinned, N * sizeof(int), cudaMemcpyHostToDevice, green_stream),
           cudaSuccess);
    expect("cudaMemcpyAsync(D2D) on the green stream",
           cudaMemcpyAsync(d, d2, N * sizeof(int), cudaMemcpyDeviceToDevice, green_stream),
           cudaSuccess);
    memset(pinned, 0, N * sizeof(int));
    CHECK(cudaMemcpyAsync(pinned, d, N * sizeof(int), cudaMemcpyDeviceToHost, green_stream));
    CHECK(cudaStreamSynchronize(green_stream));
    wrong = 0;
    for (int i = 0; i < N; i++)
        wrong += pinned[i] != 3 * i + 1;
    printf("H2D, D2D, D2H on the green stream: %d wrong\n", wrong);
    ok &= wrong == 0;
    CHECK(cudaFreeHost(pinned));
    CHECK(cudaFree(d2));

    // The green context's 16 SMs, and not more, ran the green stream's blocks.
    int used = sms_used(green_stream);
    check("green stream: blocks ran on at most 16 SMs", used >= 1 && used <= 16);
    used = sms_used(primary_stream);
    check("primary context stream: blocks ran on more than 16 SMs", used > 16);
}

// ---- cudaStreamGetDevResource ---------------------------------------------------------------

static void stream_resources(void)
{
    struct {
        const char *what;
        cudaStream_t stream;
    } cases[] = {
        {"cudaStreamGetDevResource(green stream, SM)", green_stream},
        {"cudaStreamGetDevResource(primary context stream, SM)", primary_stream},
        {"cudaStreamGetDevResource(cudaStreamCreate stream, SM)", plain_stream},
        {"cudaStreamGetDevResource(0, SM)", 0},
        {"cudaStreamGetDevResource(cudaStreamLegacy, SM)", cudaStreamLegacy},
        {"cudaStreamGetDevResource(cudaStreamPerThread, SM)", cudaStreamPerThread},
    };
    for (auto &c : cases) {
        cudaDevResource r;
        memset(&r, 0, sizeof r);
        cudaError_t e = probe(c.what, cudaStreamGetDevResource(c.stream, &r,
                                                               cudaDevResourceTypeSm));
        if (e == cudaSuccess)
            printf("  type %d, smCount %u\n", (int)r.type, r.sm.smCount);
        if (c.stream == green_stream)
            ok &= e == cudaSuccess && r.sm.smCount == 16;
    }
    cudaDevResource r;
    memset(&r, 0, sizeof r);
    if (probe("cudaStreamGetDevResource_ptsz(0: the per-thread stream, SM)",
              cudaStreamGetDevResource_ptsz(0, &r, cudaDevResourceTypeSm)) == cudaSuccess)
        printf("  type %d, smCount %u\n", (int)r.type, r.sm.smCount);
}

// ---- events between the contexts ------------------------------------------------------------

static void events(void)
{
    int *flag = NULL, h[8];
    CHECK(cudaMalloc((void **)&flag, sizeof h));
    CHECK(cudaMemset(flag, 0, sizeof h));
    cudaEvent_t e1, e2, e3;
    CHECK(cudaEventCreateWithFlags(&e1, cudaEventDisableTiming));
    CHECK(cudaEventCreateWithFlags(&e2, cudaEventDisableTiming));
    CHECK(cudaEventCreate(&e3));

    // green -> primary: the primary context's stream reads what the green one stored.
    spin_then_store<<<1, 1, 0, green_stream>>>(30 * MS, &flag[0], 1);
    expect("cudaExecutionCtxRecordEvent(green, e1)", cudaExecutionCtxRecordEvent(green, e1),
           cudaSuccess);
    expect("cudaExecutionCtxWaitEvent(primary, e1)", cudaExecutionCtxWaitEvent(primary, e1),
           cudaSuccess);
    copy_plus<<<1, 1, 0, primary_stream>>>(&flag[0], &flag[1], 1);
    CHECK(cudaGetLastError());
    CHECK(cudaStreamSynchronize(primary_stream));
    expect("cudaEventSynchronize(e1)", cudaEventSynchronize(e1), cudaSuccess);
    expect("cudaEventQuery(e1) after it", cudaEventQuery(e1), cudaSuccess);

    // primary -> green: an event of the primary context covers its streams' work.
    spin_then_store<<<1, 1, 0, primary_stream>>>(30 * MS, &flag[2], 1);
    expect("cudaExecutionCtxRecordEvent(primary, e2)", cudaExecutionCtxRecordEvent(primary, e2),
           cudaSuccess);
    expect("cudaExecutionCtxWaitEvent(green, e2)", cudaExecutionCtxWaitEvent(green, e2),
           cudaSuccess);
    copy_plus<<<1, 1, 0, green_stream>>>(&flag[2], &flag[3], 1);
    CHECK(cudaGetLastError());
    CHECK(cudaStreamSynchronize(green_stream));
    expect("cudaEventSynchronize(e2)", cudaEventSynchronize(e2), cudaSuccess);
    expect("cudaEventQuery(e2) after it", cudaEventQuery(e2), cudaSuccess);

    // The stream API across contexts: recorded on the green stream, waited on by another.
    spin_then_store<<<1, 1, 0, green_stream>>>(30 * MS, &flag[4], 1);
    expect("cudaEventRecord(e3, green stream)", cudaEventRecord(e3, green_stream), cudaSuccess);
    expect("cudaStreamWaitEvent(cudaStreamCreate stream, e3)",
           cudaStreamWaitEvent(plain_stream, e3, 0), cudaSuccess);
    copy_plus<<<1, 1, 0, plain_stream>>>(&flag[4], &flag[5], 1);
    CHECK(cudaStreamSynchronize(plain_stream));

    CHECK(cudaMemcpy(h, flag, sizeof h, cudaMemcpyDeviceToHost));
    check("primary context waited for the green one", h[1] == 2);
    check("green context waited for the primary one", h[3] == 2);
    check("ordinary stream waited for an event of the green stream", h[5] == 2);

    // cudaExecutionCtxSynchronize: of the green context, then of the primary one, which
    // covers the green contexts too.
    CHECK(cudaMemset(flag, 0, sizeof h));
    spin_then_store<<<1, 1, 0, green_stream>>>(20 * MS, &flag[0], 7);
    expect("cudaExecutionCtxSynchronize(green)", cudaExecutionCtxSynchronize(green),
           cudaSuccess);
    expect("cudaStreamQuery(green stream) after it", cudaStreamQuery(green_stream),
           cudaSuccess);
    spin_then_store<<<1, 1, 0, green_stream>>>(20 * MS, &flag[1], 8);
    spin_then_store<<<1, 1, 0, primary_stream>>>(20 * MS, &flag[2], 9);
    expect("cudaExecutionCtxSynchronize(primary)", cudaExecutionCtxSynchronize(primary),
           cudaSuccess);
    expect("cudaStreamQuery(green stream) after it", cudaStreamQuery(green_stream),
           cudaSuccess);
    expect("cudaStreamQuery(primary context stream) after it", cudaStreamQuery(primary_stream),
           cudaSuccess);
    CHECK(cudaMemcpy(h, flag, sizeof h, cudaMemcpyDeviceToHost));
    printf("stored before the synchronizations returned: %d %d %d\n", h[0], h[1], h[2]);
    ok &= h[0] == 7 && h[1] == 8 && h[2] == 9;

    CHECK(cudaEventDestroy(e1));
    CHECK(cudaEventDestroy(e2));
    CHECK(cudaEventDestroy(e3));
    CHECK(cudaFree(flag));
}

// ---- conditional handles and graphs ---------------------------------------------------------

// A graph of one IF node whose body adds 3 to d, its handle made for `ctx` (NULL: the current
// context) with default 1, launched twice on `stream`: d gains 6.  With NULL every step must
// work (it does on driver 580); with a green context a step may be refused, which the line
// shows (both runtimes' codes are compared), and only what was built is checked.
static void if_graph(const char *label, cudaExecutionContext_t ctx, cudaStream_t stream)
{
    char what[120];
    int n = N, three = 3;
    cudaGraph_t g = NULL;
    CHECK(cudaGraphCreate(&g, 0));
    // Each step: its code printed, a failure fatal to the check only without a context.
    auto step = [&](const char *name, cudaError_t e) {
        snprintf(what, sizeof what, "%s (%s)", name, label);
        probe(what, e);
        if (e != cudaSuccess && ctx == NULL)
            ok = 0;
        return e == cudaSuccess;
    };
    cudaGraphConditionalHandle handle = 0;
    cudaGraphNodeParams cond = {};
    cudaGraphNode_t cond_node = NULL, body_node = NULL;
    cudaGraphExec_t exec = NULL;
    cudaError_t launched;
    void *args[] = {&d, &n, &three};
    cudaGraphNodeParams kernel = {};
    kernel.type = cudaGraphNodeTypeKernel;
    kernel.kernel.func = (void *)add;
    kernel.kernel.gridDim = dim3(N / 256);
    kernel.kernel.blockDim = dim3(256);
    kernel.kernel.kernelParams = args;
    kernel.kernel.ctx = ctx;
    if (!step("cudaGraphConditionalHandleCreate_v2(1, AssignDefault)",
              cudaGraphConditionalHandleCreate_v2(&handle, g, ctx, 1,
                                                  cudaGraphCondAssignDefault)))
        goto done;
    cond.type = cudaGraphNodeTypeConditional;
    cond.conditional.handle = handle;
    cond.conditional.type = cudaGraphCondTypeIf;
    cond.conditional.size = 1;
    cond.conditional.ctx = ctx;
    if (!step("cudaGraphAddNode(IF)", cudaGraphAddNode(&cond_node, g, NULL, NULL, 0, &cond)) ||
        !step("cudaGraphAddNode(kernel in the IF body)",
              cudaGraphAddNode(&body_node, cond.conditional.phGraph_out[0], NULL, NULL, 0,
                               &kernel)))
        goto done;
    fill<<<N / 256, 256>>>(d, N, 0);
    CHECK(cudaDeviceSynchronize());
    if (!step("cudaGraphInstantiate(IF graph)", cudaGraphInstantiate(&exec, g, 0)))
        goto done;
    launched = cudaGraphLaunch(exec, stream);
    if (launched == cudaSuccess)
        launched = cudaGraphLaunch(exec, stream);
    if (step("cudaGraphLaunch(IF graph), twice", launched) &&
        step("cudaStreamSynchronize after them", cudaStreamSynchronize(stream))) {
        snprintf(what, sizeof what, "IF graph (%s) launched twice: body ran twice", label);
        expect_filled(what, d, 0, 6);
    }
    CHECK(cudaGraphExecDestroy(exec));
done:
    CHECK(cudaGraphDestroy(g));
}

static void graphs(void)
{
    if_graph("NULL ctx", NULL, 0);
    if_graph("green ctx", green, green_stream);

    // Captured on the green stream, launched on it.
    int n = N;
    CHECK(cudaMemset(d, 0, N * sizeof(int)));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaStreamBeginCapture(green_stream, cudaStreamCaptureModeGlobal));
    add<<<N / 256, 256, 0, green_stream>>>(d, n, 1);
    CHECK(cudaMemsetAsync(d + N - 1, 0, sizeof(int), green_stream));
    add<<<N / 256, 256, 0, green_stream>>>(d, n, 10);
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    CHECK(cudaStreamIsCapturing(green_stream, &status));
    printf("green stream capture status while capturing: %d\n", (int)status);
    cudaGraph_t g = NULL;
    CHECK(cudaStreamEndCapture(green_stream, &g));
    size_t nodes = 0;
    CHECK(cudaGraphGetNodes(g, NULL, &nodes));
    printf("graph captured on the green stream: %zu nodes\n", nodes);
    cudaGraphExec_t exec = NULL;
    CHECK(cudaGraphInstantiate(&exec, g, 0));
    CHECK(cudaGraphLaunch(exec, green_stream));
    CHECK(cudaGraphLaunch(exec, green_stream));
    CHECK(cudaStreamSynchronize(green_stream));
    static int h[N];
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    int wrong = 0;
    for (int i = 0; i < N - 1; i++)
        wrong += h[i] != 22;
    printf("captured graph launched twice on the green stream: %d wrong, last %d\n", wrong,
           h[N - 1]);
    ok &= wrong == 0 && h[N - 1] == 10;
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(g));
}

// ---- the thread's device and current context, untouched -------------------------------------

static void current_context(void)
{
    int device = -1;
    CHECK(cudaGetDevice(&device));
    printf("cudaGetDevice after the green work: %d\n", device);
    expect("cudaSetDevice(0)", cudaSetDevice(0), cudaSuccess);
    CHECK(cudaGetDevice(&device));
    printf("cudaGetDevice after cudaSetDevice(0): %d\n", device);
    fill<<<N / 256, 256>>>(d, N, 42);
    probe("<<<>>> fill on stream 0", cudaGetLastError());
    expect_filled("stream 0 after the green work: fill 42", d, 42, 0);
    int used = sms_used(0);
    check("stream 0: blocks ran on more than 16 SMs (the primary context)", used > 16);
}

static void teardown(void)
{
    expect("cudaStreamDestroy(green stream)", cudaStreamDestroy(green_stream), cudaSuccess);
    expect("cudaStreamDestroy(second green stream)", cudaStreamDestroy(green_stream2),
           cudaSuccess);
    expect("cudaStreamDestroy(primary context stream)", cudaStreamDestroy(primary_stream),
           cudaSuccess);
    expect("cudaStreamDestroy(cudaStreamCreate stream)", cudaStreamDestroy(plain_stream),
           cudaSuccess);
    expect("cudaExecutionCtxDestroy(green)", cudaExecutionCtxDestroy(green), cudaSuccess);
    expect("cudaExecutionCtxDestroy(green2)", cudaExecutionCtxDestroy(green2), cudaSuccess);
    fill<<<N / 256, 256>>>(d, N, 9);
    expect_filled("stream 0 after the green contexts are gone: fill 9", d, 9, 0);
    CHECK(cudaFree(d));
    expect("cudaDeviceSynchronize at the end", cudaDeviceSynchronize(), cudaSuccess);
    expect("cudaGetLastError at the end", cudaGetLastError(), cudaSuccess);
}

int main(void)
{
    gpu_require("conf_green");
    resources();
    contexts();
    streams();
    work();
    stream_resources();
    events();
    graphs();
    current_context();
    teardown();
    printf("conf_green: %s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
