// rt_bench.cu - the runtime-API benchmarks, built three ways from this one source: minicudart
// (-cudart=none + libminicudart.a), NVIDIA static (-cudart=static), NVIDIA shared
// (-cudart=shared).  drv_bench.c is the same with the driver API alone.
//
// usage: rt_bench launch|mem|graph|startup|threads|capture
//   launch   host ns per <<<1,32>>> launch of k0/k4/k32/kbig, bursts of 256 with a sync between
//            bursts outside the timed part (median of 64 bursts); then 200,000 launches of k4
//            with one sync at the end, wall ns per launch
//   mem      cudaMemcpy 64 B HtoD and DtoH, median of 1000 (us); 64 MiB pageable HtoD (GB/s)
//   graph    100 k4 launches captured into a graph, launched 20 times + sync: ns per kernel;
//            host us per cudaGraphLaunch call; then pairs of batches, cudaGraphLaunch against
//            the driver's cuGraphLaunch on the same graph: host us each and their ratio
//   startup  one k4 launch + sync (run.sh times the whole process); prints VmRSS afterwards
//   threads  16,000 k4 <<<1,32>>> launches shared among 1, 4, 16, 64 host threads, each on its
//            own cudaStreamNonBlocking stream (own) or all on the legacy default stream
//            (legacy): thousands of launches per second from the start barrier's release to the
//            last thread's last launch + cudaDeviceSynchronize (median of 3)
//   capture  as PyTorch's CUDA graphs: 1,000 and 10,000 k4 launches stream-captured (ms),
//            cudaGraphInstantiate (ms), a capture of the same launches with other arguments
//            brought in by cudaGraphExecUpdate (ms), replay = cudaGraphLaunch + sync (ms);
//            medians of 5; the last kernel's write after the update is checked
#include "kernels.cuh"
#include <cuda.h>
#include <cuda_runtime.h>
#include <pthread.h>

#define CHECK(call)                                                                           \
    do {                                                                                      \
        cudaError_t e_ = (call);                                                              \
        if (e_ != cudaSuccess) {                                                              \
            printf("FAIL %s:%d: %s -> %d %s\n", __FILE__, __LINE__, #call, (int)e_,            \
                   cudaGetErrorName(e_));                                                     \
            exit(1);                                                                          \
        }                                                                                     \
    } while (0)

static void require_gpu(void)
{
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e == cudaErrorInsufficientDriver || e == cudaErrorNoDevice ||
        (e == cudaSuccess && count < 1)) {
        printf("rt_bench: no CUDA driver or GPU here: %d %s\n", (int)e, cudaGetErrorName(e));
        exit(2);
    }
    CHECK(e);
}

static big4k big;

#define ARGS32 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, \
               23, 24, 25, 26, 27, 28, 29, 30, 31, 32

static void launch_n(int which, int n)
{
    switch (which) {
    case 0: for (int i = 0; i < n; i++) k0<<<1, 32>>>(); break;
    case 1: for (int i = 0; i < n; i++) k4<<<1, 32>>>(1, 2, 3, 4); break;
    case 2: for (int i = 0; i < n; i++) k32<<<1, 32>>>(ARGS32); break;
    default: for (int i = 0; i < n; i++) kbig<<<1, 32>>>(big); break;
    }
}

static void bench_launch(void)
{
    static const char *const names[4] = {"launch_p0_ns", "launch_p4_ns", "launch_p32_ns",
                                         "launch_s4k_ns"};
    static double t[BURSTS];
    for (int k = 0; k < 4; k++) {  // warm-up: module load, first-launch paths
        launch_n(k, BURST);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
    }
    for (int k = 0; k < 4; k++) {
        for (int b = 0; b < BURSTS; b++) {
            double t0 = now_ns();
            launch_n(k, BURST);
            t[b] = (now_ns() - t0) / BURST;
            CHECK(cudaDeviceSynchronize());
        }
        CHECK(cudaGetLastError());
        result(names[k], median(t, BURSTS), "ns");
    }
    double t0 = now_ns();
    launch_n(1, E2E_LAUNCHES);
    CHECK(cudaDeviceSynchronize());
    double dt = now_ns() - t0;
    CHECK(cudaGetLastError());
    result("launch_e2e_200k_ns", dt / E2E_LAUNCHES, "ns");
}

static void bench_mem(void)
{
    static double t[MEMCPY_REPS];
    char small[64] = {1};
    char *d;
    CHECK(cudaMalloc((void **)&d, BW_BYTES));
    for (int i = 0; i < 10; i++) {
        CHECK(cudaMemcpy(d, small, sizeof small, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(small, d, sizeof small, cudaMemcpyDeviceToHost));
    }
    for (int i = 0; i < MEMCPY_REPS; i++) {
        double t0 = now_ns();
        CHECK(cudaMemcpy(d, small, sizeof small, cudaMemcpyHostToDevice));
        t[i] = (now_ns() - t0) / 1e3;
    }
    result("memcpy_h2d_64B_us", median(t, MEMCPY_REPS), "us");
    for (int i = 0; i < MEMCPY_REPS; i++) {
        double t0 = now_ns();
        CHECK(cudaMemcpy(small, d, sizeof small, cudaMemcpyDeviceToHost));
        t[i] = (now_ns() - t0) / 1e3;
    }
    result("memcpy_d2h_64B_us", median(t, MEMCPY_REPS), "us");
    char *h = (char *)malloc(BW_BYTES);
    if (!h) { printf("FAIL malloc\n"); exit(1); }
    memset(h, 7, BW_BYTES);
    CHECK(cudaMemcpy(d, h, BW_BYTES, cudaMemcpyHostToDevice));
    for (int i = 0; i < BW_REPS; i++) {
        double t0 = now_ns();
        CHECK(cudaMemcpy(d, h, BW_BYTES, cudaMemcpyHostToDevice));
        t[i] = BW_BYTES / (now_ns() - t0);  // bytes/ns = GB/s
    }
    result("h2d_64MiB_pageable_GBps", median(t, BW_REPS), "GB/s");
    free(h);
    CHECK(cudaFree(d));
}

// The runtime's cudaGraphLaunch against the driver's cuGraphLaunch on the same executable graph
// and stream, in one process: GRAPH_PAIRS pairs of batches of GRAPH_LAUNCHES launches, one batch
// each way (the order alternating from pair to pair), synchronised outside the timed part.
// Separate processes differ by more than the runtimes do (docs/performance.md), so the target
// (cudaGraphLaunch <= 1.05x cuGraphLaunch) is judged by the per-pair ratio.  cudaGraphExec_t and
// cudaStream_t are the driver's handles under every runtime measured here; the driver's entry
// point comes from the runtime under test (cudaGetDriverEntryPointByVersion).
typedef CUresult (*graph_launch_fn)(CUgraphExec, CUstream);

static double graph_batch(cudaGraphExec_t ge, cudaStream_t s, graph_launch_fn drv)
{
    double t0 = now_ns();
    if (drv) {
        for (int i = 0; i < GRAPH_LAUNCHES; i++)
            if (drv((CUgraphExec)ge, (CUstream)s) != CUDA_SUCCESS) {
                printf("FAIL cuGraphLaunch\n");
                exit(1);
            }
    } else {
        for (int i = 0; i < GRAPH_LAUNCHES; i++)
            CHECK(cudaGraphLaunch(ge, s));
    }
    double t1 = now_ns();
    CHECK(cudaStreamSynchronize(s));
    return (t1 - t0) / GRAPH_LAUNCHES / 1e3;
}

static void graph_pairs(cudaGraphExec_t ge, cudaStream_t s)
{
    static double rt[GRAPH_PAIRS], cu[GRAPH_PAIRS], ratio[GRAPH_PAIRS];
    graph_launch_fn drv = NULL;
    enum cudaDriverEntryPointQueryResult q;
    CHECK(cudaGetDriverEntryPointByVersion("cuGraphLaunch", (void **)&drv, 10000,
                                           cudaEnableDefault, &q));
    if (!drv || q != cudaDriverEntryPointSuccess) {
        printf("FAIL cudaGetDriverEntryPointByVersion(cuGraphLaunch): %d\n", (int)q);
        exit(1);
    }
    graph_batch(ge, s, NULL);  // warm both paths
    graph_batch(ge, s, drv);
    for (int p = 0; p < GRAPH_PAIRS; p++) {
        if (p % 2) {
            cu[p] = graph_batch(ge, s, drv);
            rt[p] = graph_batch(ge, s, NULL);
        } else {
            rt[p] = graph_batch(ge, s, NULL);
            cu[p] = graph_batch(ge, s, drv);
        }
        ratio[p] = rt[p] / cu[p];
    }
    result("graph_pair_rt_host_us", median(rt, GRAPH_PAIRS), "us");
    result("graph_pair_cu_host_us", median(cu, GRAPH_PAIRS), "us");
    result("graph_rt_over_cu", median(ratio, GRAPH_PAIRS), "x");
}

static void bench_graph(void)
{
    cudaStream_t s;
    cudaGraph_t g;
    cudaGraphExec_t ge;
    static double per_kernel[GRAPH_REPS], host[GRAPH_REPS];
    CHECK(cudaStreamCreate(&s));
    k4<<<1, 32, 0, s>>>(1, 2, 3, 4);  // load the module before capture
    CHECK(cudaGetLastError());
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    for (int i = 0; i < GRAPH_NODES; i++)
        k4<<<1, 32, 0, s>>>(i, 2, 3, 4);
    CHECK(cudaGetLastError());
    CHECK(cudaStreamEndCapture(s, &g));
    CHECK(cudaGraphInstantiate(&ge, g, 0));
    CHECK(cudaGraphLaunch(ge, s));  // warm-up (upload)
    CHECK(cudaStreamSynchronize(s));
    for (int r = 0; r < GRAPH_REPS; r++) {
        double t0 = now_ns();
        for (int i = 0; i < GRAPH_LAUNCHES; i++)
            CHECK(cudaGraphLaunch(ge, s));
        double t1 = now_ns();
        CHECK(cudaStreamSynchronize(s));
        double t2 = now_ns();
        host[r] = (t1 - t0) / GRAPH_LAUNCHES / 1e3;
        per_kernel[r] = (t2 - t0) / (GRAPH_LAUNCHES * GRAPH_NODES);
    }
    result("graph_per_kernel_ns", median(per_kernel, GRAPH_REPS), "ns");
    result("graph_launch_host_us", median(host, GRAPH_REPS), "us");
    graph_pairs(ge, s);
    CHECK(cudaGraphExecDestroy(ge));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaStreamDestroy(s));
}

// ---- threads: launches per second from several host threads ---------------------------------
// Each thread makes its stream (own) and its first launch before the first start barrier; then,
// per repetition, start barrier, its share of the launches, done barrier.  The time runs from the
// earliest thread's release to the end of the main thread's cudaDeviceSynchronize.
struct launcher {
    pthread_t tid;
    pthread_barrier_t *start, *done;
    int own, n;
    double t0;  // when this thread left the start barrier, this repetition
};

static void *launcher_main(void *p)
{
    launcher *l = (launcher *)p;
    cudaStream_t s = 0;  // legacy: the legacy default stream
    if (l->own)
        CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    k4<<<1, 32, 0, s>>>(1, 2, 3, 4);
    CHECK(cudaGetLastError());
    CHECK(cudaStreamSynchronize(s));
    for (int r = 0; r < THREADS_REPS; r++) {
        pthread_barrier_wait(l->start);
        l->t0 = now_ns();
        for (int i = 0; i < l->n; i++)
            k4<<<1, 32, 0, s>>>(1, 2, 3, 4);
        CHECK(cudaGetLastError());
        pthread_barrier_wait(l->done);
    }
    if (l->own)
        CHECK(cudaStreamDestroy(s));
    return NULL;
}

static void threads_config(int nthreads, int own)
{
    static launcher l[THREADS_MAX];
    double v[THREADS_REPS];
    pthread_barrier_t start, done;
    int n = THREADS_LAUNCHES / nthreads, rc;
    if (pthread_barrier_init(&start, NULL, nthreads + 1) ||
        pthread_barrier_init(&done, NULL, nthreads + 1)) {
        printf("FAIL pthread_barrier_init\n");
        exit(1);
    }
    for (int i = 0; i < nthreads; i++) {
        l[i].start = &start;
        l[i].done = &done;
        l[i].own = own;
        l[i].n = n;
        if ((rc = pthread_create(&l[i].tid, NULL, launcher_main, &l[i])) != 0) {
            printf("FAIL pthread_create: %d\n", rc);
            exit(1);
        }
    }
    for (int r = 0; r < THREADS_REPS; r++) {
        pthread_barrier_wait(&start);
        double t0 = now_ns();
        pthread_barrier_wait(&done);
        CHECK(cudaDeviceSynchronize());
        double t1 = now_ns();
        for (int i = 0; i < nthreads; i++)
            if (l[i].t0 < t0)
                t0 = l[i].t0;
        v[r] = (double)n * nthreads / (t1 - t0) * 1e6;  // launches per ns -> thousands per s
    }
    for (int i = 0; i < nthreads; i++)
        pthread_join(l[i].tid, NULL);
    pthread_barrier_destroy(&start);
    pthread_barrier_destroy(&done);
    char name[64];
    snprintf(name, sizeof name, "threads_%s_%d_klps", own ? "own" : "legacy", nthreads);
    result(name, median(v, THREADS_REPS), "klaunch/s");
}

static void bench_threads(void)
{
    static const int counts[4] = {1, 4, 16, THREADS_MAX};
    for (int own = 1; own >= 0; own--)
        for (int c = 0; c < 4; c++)
            threads_config(counts[c], own);
}

// ---- capture: CUDA graphs at scale, made as PyTorch makes them --------------------------------
// Per repetition: capture n launches (timed), instantiate (timed), one replay (upload), capture
// them again with other arguments, cudaGraphExecUpdate (timed), one replay, timed replays.  The
// second capture's last launch has k4 write bench_sink, which the replays must show.
static cudaGraph_t capture_k4(cudaStream_t s, int n, int rep)  // rep < 0: the first capture
{
    cudaGraph_t g;
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    if (rep < 0)
        for (int i = 0; i < n; i++)
            k4<<<1, 32, 0, s>>>(i, 2, 3, 4);
    else
        for (int i = 0; i < n; i++)
            k4<<<1, 32, 0, s>>>(i < n - 1 ? i : SINK_MAGIC, 1000 + rep, i, 5);
    CHECK(cudaGetLastError());
    CHECK(cudaStreamEndCapture(s, &g));
    return g;
}

static void capture_size(cudaStream_t s, int n)
{
    static double cap[CAPTURE_REPS], inst[CAPTURE_REPS], upd[CAPTURE_REPS];
    static double replay[CAPTURE_REPS * CAPTURE_REPLAYS];
    int bad = 0, sink = 0, want = 0;
    for (int r = 0; r < CAPTURE_REPS; r++) {
        cudaGraphExec_t ge;
        cudaGraphExecUpdateResultInfo info;
        double t0 = now_ns();
        cudaGraph_t g = capture_k4(s, n, -1);
        double t1 = now_ns();
        CHECK(cudaGraphInstantiate(&ge, g, 0));
        double t2 = now_ns();
        cap[r] = (t1 - t0) / 1e6;
        inst[r] = (t2 - t1) / 1e6;
        int zero = 0;
        CHECK(cudaMemcpyToSymbol(bench_sink, &zero, sizeof zero));
        CHECK(cudaGraphLaunch(ge, s));
        CHECK(cudaStreamSynchronize(s));
        cudaGraph_t g2 = capture_k4(s, n, r);
        t0 = now_ns();
        CHECK(cudaGraphExecUpdate(ge, g2, &info));
        upd[r] = (now_ns() - t0) / 1e6;
        if (info.result != cudaGraphExecUpdateSuccess) {
            printf("FAIL cudaGraphExecUpdate: result %d\n", (int)info.result);
            exit(1);
        }
        CHECK(cudaGraphLaunch(ge, s));
        CHECK(cudaStreamSynchronize(s));
        for (int p = 0; p < CAPTURE_REPLAYS; p++) {
            t0 = now_ns();
            CHECK(cudaGraphLaunch(ge, s));
            CHECK(cudaStreamSynchronize(s));
            replay[r * CAPTURE_REPLAYS + p] = (now_ns() - t0) / 1e6;
        }
        CHECK(cudaMemcpyFromSymbol(&sink, bench_sink, sizeof sink));
        want = 1000 + r + (n - 1) + 5;
        bad += sink != want;
        CHECK(cudaGraphExecDestroy(ge));
        CHECK(cudaGraphDestroy(g));
        CHECK(cudaGraphDestroy(g2));
    }
    char name[64];
    snprintf(name, sizeof name, "capture_%d_ms", n);
    result(name, median(cap, CAPTURE_REPS), "ms");
    snprintf(name, sizeof name, "instantiate_%d_ms", n);
    result(name, median(inst, CAPTURE_REPS), "ms");
    snprintf(name, sizeof name, "update_%d_ms", n);
    result(name, median(upd, CAPTURE_REPS), "ms");
    snprintf(name, sizeof name, "replay_%d_ms", n);
    result(name, median(replay, CAPTURE_REPS * CAPTURE_REPLAYS), "ms");
    if (bad) {
        printf("FAIL capture %d: bench_sink %d after the updated replays, expected %d (%d of %d)\n",
               n, sink, want, bad, CAPTURE_REPS);
        exit(1);
    }
}

static void bench_capture(void)
{
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    k4<<<1, 32, 0, s>>>(1, 2, 3, 4);  // load the module before capture
    CHECK(cudaGetLastError());
    CHECK(cudaStreamSynchronize(s));
    capture_size(s, 1000);
    capture_size(s, 10000);
    CHECK(cudaStreamDestroy(s));
}

static void bench_startup(void)
{
    k4<<<1, 32>>>(1, 2, 3, 4);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    result("rss_kb", (double)rss_kb(), "kB");
}

int main(int argc, char **argv)
{
    if (argc < 2)
        usage_exit(argv[0]);
    const char *mode = argv[1];
    if (strcmp(mode, "launch") && strcmp(mode, "mem") && strcmp(mode, "graph") &&
        strcmp(mode, "startup") && strcmp(mode, "threads") && strcmp(mode, "capture"))
        usage_exit(argv[0]);
    require_gpu();
    for (int i = 0; i < 1024; i++)
        big.v[i] = i + 1;
    if (!strcmp(mode, "launch"))
        bench_launch();
    else if (!strcmp(mode, "mem"))
        bench_mem();
    else if (!strcmp(mode, "graph"))
        bench_graph();
    else if (!strcmp(mode, "threads"))
        bench_threads();
    else if (!strcmp(mode, "capture"))
        bench_capture();
    else
        bench_startup();
    return 0;
}
