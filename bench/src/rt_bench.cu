// rt_bench.cu - the runtime-API benchmarks, built three ways from this one source: minicudart
// (-cudart=none + libminicudart.a), NVIDIA static (-cudart=static), NVIDIA shared
// (-cudart=shared).  drv_bench.c is the same with the driver API alone.
//
// usage: rt_bench launch|mem|graph|startup|threads|capture|threads_pairs|capture_pairs
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
//   threads_pairs  the runtime against the driver in one process, per thread: 1, 4, 16, 64
//            host threads, own streams or the legacy stream as in threads; each thread times
//            pairs of batches of 100 k4 launches, one batch through <<<>>>, one through
//            cuLaunchKernel on the same CUfunction (the order alternating), synchronised between
//            pairs outside the timed part: the median of all threads' per-pair ratios
//   capture_pairs  the same for capture, cudaGraphInstantiate and cudaGraphExecUpdate of 1,000
//            and 10,000 k4 launches against the driver's cuStreamBeginCapture..cuStreamEndCapture,
//            cuGraphInstantiateWithFlags and cuGraphExecUpdate: medians of per-pair ratios
#define BENCH_MODES "launch|mem|graph|startup|threads|capture|threads_pairs|capture_pairs"
#include "kernels.cuh"
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>
#include <pthread.h>

#define CHECK_CU(call)                                                                        \
    do {                                                                                      \
        CUresult r_ = (call);                                                                 \
        if (r_ != CUDA_SUCCESS) {                                                             \
            printf("FAIL %s:%d: %s -> %d\n", __FILE__, __LINE__, #call, (int)r_);              \
            exit(1);                                                                          \
        }                                                                                     \
    } while (0)

// A driver entry point from the runtime under test (cudaGetDriverEntryPointByVersion).
static void *driver_entry(const char *name, int version)
{
    void *fn = NULL;
    enum cudaDriverEntryPointQueryResult q;
    CHECK(cudaGetDriverEntryPointByVersion(name, &fn, version, cudaEnableDefault, &q));
    if (!fn || q != cudaDriverEntryPointSuccess) {
        printf("FAIL cudaGetDriverEntryPointByVersion(%s): %d\n", name, (int)q);
        exit(1);
    }
    return fn;
}

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
    graph_launch_fn drv = (graph_launch_fn)driver_entry("cuGraphLaunch", 10000);
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

// ---- threads_pairs, capture_pairs: the runtime against the driver, in one process ------------
// Separate processes differ by 10-30% (docs/performance.md), more than the runtime adds to the
// driver, so these measure each runtime call against the driver call it makes, taking turns in
// one process: the ratio of each pair, then their median.  The driver's functions are its entry
// points through the runtime under test; handles (streams, graphs, executables) are the
// driver's under every runtime measured here.
static PFN_cuLaunchKernel_v4000 drv_launch;
static CUfunction k4_function;  // k4's CUfunction (cudaGetFuncBySymbol)

static void driver_launch_init(void)
{
    drv_launch = (PFN_cuLaunchKernel_v4000)driver_entry("cuLaunchKernel", 4000);
    CHECK(cudaGetFuncBySymbol((cudaFunction_t *)&k4_function, (const void *)k4));
}

// Each thread: its stream (own) and one batch each way before the start barrier; then its
// pairs, each a batch of TPAIRS_BATCH k4 launches through <<<>>> and one through
// cuLaunchKernel with the argument array (the order alternating from pair to pair), host time
// only, with a cudaStreamSynchronize after each pair outside the timed part.
struct pair_thread {
    pthread_t tid;
    pthread_barrier_t *start;
    int own, pairs;
    double *ratio;  // this thread's pairs' ratios, <<<>>> / cuLaunchKernel
    double med;     // their median
};

static double tpairs_batch(cudaStream_t s, int drv, void **args)
{
    double t0 = now_ns();
    if (drv)
        for (int i = 0; i < TPAIRS_BATCH; i++)
            CHECK_CU(drv_launch(k4_function, 1, 1, 1, 32, 1, 1, 0, (CUstream)s, args, NULL));
    else
        for (int i = 0; i < TPAIRS_BATCH; i++)
            k4<<<1, 32, 0, s>>>(1, 2, 3, 4);
    double t1 = now_ns();
    CHECK(cudaGetLastError());
    return t1 - t0;
}

static void *pair_thread_main(void *p)
{
    pair_thread *l = (pair_thread *)p;
    cudaStream_t s = 0;  // legacy: the legacy default stream
    int a = 1, b = 2, c = 3, d = 4;
    void *args[4] = {&a, &b, &c, &d};
    if (l->own)
        CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    tpairs_batch(s, 0, args);  // warm both ways
    tpairs_batch(s, 1, args);
    CHECK(cudaStreamSynchronize(s));
    pthread_barrier_wait(l->start);
    for (int p = 0; p < l->pairs; p++) {
        double rt, cu;
        if (p % 2) {
            cu = tpairs_batch(s, 1, args);
            rt = tpairs_batch(s, 0, args);
        } else {
            rt = tpairs_batch(s, 0, args);
            cu = tpairs_batch(s, 1, args);
        }
        CHECK(cudaStreamSynchronize(s));
        l->ratio[p] = rt / cu;
    }
    l->med = median(l->ratio, l->pairs);
    if (l->own)
        CHECK(cudaStreamDestroy(s));
    return NULL;
}

static void threads_pairs_config(int nthreads, int own)
{
    static pair_thread l[THREADS_MAX];
    static double all[THREADS_MAX * TPAIRS_MAX];
    pthread_barrier_t start;
    int pairs = TPAIRS_TOTAL / nthreads, rc;
    if (pairs > TPAIRS_MAX)
        pairs = TPAIRS_MAX;
    if (pairs < TPAIRS_MIN)
        pairs = TPAIRS_MIN;
    if (pthread_barrier_init(&start, NULL, nthreads)) {
        printf("FAIL pthread_barrier_init\n");
        exit(1);
    }
    for (int i = 0; i < nthreads; i++) {
        l[i].start = &start;
        l[i].own = own;
        l[i].pairs = pairs;
        l[i].ratio = all + i * pairs;
        if ((rc = pthread_create(&l[i].tid, NULL, pair_thread_main, &l[i])) != 0) {
            printf("FAIL pthread_create: %d\n", rc);
            exit(1);
        }
    }
    double lo = 0, hi = 0;
    for (int i = 0; i < nthreads; i++) {
        pthread_join(l[i].tid, NULL);
        if (i == 0 || l[i].med < lo)
            lo = l[i].med;
        if (i == 0 || l[i].med > hi)
            hi = l[i].med;
    }
    pthread_barrier_destroy(&start);
    char name[64];
    snprintf(name, sizeof name, "threads_%s_%d_rt_over_cu", own ? "own" : "legacy", nthreads);
    result(name, median(all, nthreads * pairs), "x");
    if (nthreads > 1) {  // the spread among the threads: the lowest and highest thread's median
        snprintf(name, sizeof name, "threads_%s_%d_rt_over_cu_min", own ? "own" : "legacy",
                 nthreads);
        result(name, lo, "x");
        snprintf(name, sizeof name, "threads_%s_%d_rt_over_cu_max", own ? "own" : "legacy",
                 nthreads);
        result(name, hi, "x");
    }
}

static void bench_threads_pairs(void)
{
    static const int counts[4] = {1, 4, 16, THREADS_MAX};
    driver_launch_init();
    for (int own = 1; own >= 0; own--)
        for (int c = 0; c < 4; c++)
            threads_pairs_config(counts[c], own);
}

// capture_pairs: per pair, n k4 launches captured (global mode) through the runtime and through
// the driver on the same stream, the order alternating; each of the two graphs instantiated
// both ways (cudaGraphInstantiate, cuGraphInstantiateWithFlags; ABBA, the order alternating);
// the four executables launched once, then each updated both ways from one capture of the same
// launches with other arguments (cudaGraphExecUpdate, cuGraphExecUpdate; ABBA again), which must
// answer success.  Ratios per pair: capture time, the instantiations' and the updates' sums.
static PFN_cuStreamBeginCapture_v10010 drv_begin_capture;
static PFN_cuStreamEndCapture_v10000 drv_end_capture;
static PFN_cuGraphInstantiateWithFlags_v11040 drv_instantiate;
static PFN_cuGraphExecUpdate_v12000 drv_exec_update;
static PFN_cuGraphExecDestroy_v10000 drv_exec_destroy;
static PFN_cuGraphDestroy_v10000 drv_graph_destroy;

static cudaGraph_t cpairs_capture(cudaStream_t s, int n, int drv, int other, double *ms)
{
    cudaGraph_t g;
    double t0 = now_ns();
    if (drv) {
        CUgraph cg;
        int a, b = other ? 1000 + other : 2, c, d = other ? 5 : 4;
        void *args[4] = {&a, &b, &c, &d};
        CHECK_CU(drv_begin_capture((CUstream)s, CU_STREAM_CAPTURE_MODE_GLOBAL));
        for (int i = 0; i < n; i++) {
            a = other && i == n - 1 ? SINK_MAGIC : i;
            c = other ? i : 3;
            CHECK_CU(drv_launch(k4_function, 1, 1, 1, 32, 1, 1, 0, (CUstream)s, args, NULL));
        }
        CHECK_CU(drv_end_capture((CUstream)s, &cg));
        g = (cudaGraph_t)cg;
    } else {
        CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
        if (other)
            for (int i = 0; i < n; i++)
                k4<<<1, 32, 0, s>>>(i < n - 1 ? i : SINK_MAGIC, 1000 + other, i, 5);
        else
            for (int i = 0; i < n; i++)
                k4<<<1, 32, 0, s>>>(i, 2, 3, 4);
        CHECK(cudaGetLastError());
        CHECK(cudaStreamEndCapture(s, &g));
    }
    *ms = (now_ns() - t0) / 1e6;
    return g;
}

static double cpairs_instantiate(cudaGraphExec_t *ge, cudaGraph_t g, int drv)
{
    double t0 = now_ns();
    if (drv)
        CHECK_CU(drv_instantiate((CUgraphExec *)ge, (CUgraph)g, 0));
    else
        CHECK(cudaGraphInstantiate(ge, g, 0));
    return (now_ns() - t0) / 1e6;
}

static double cpairs_update(cudaGraphExec_t ge, cudaGraph_t g, int drv)
{
    double t0, t1;
    if (drv) {
        CUgraphExecUpdateResultInfo info;
        t0 = now_ns();
        CHECK_CU(drv_exec_update((CUgraphExec)ge, (CUgraph)g, &info));
        t1 = now_ns();
        if (info.result != CU_GRAPH_EXEC_UPDATE_SUCCESS) {
            printf("FAIL cuGraphExecUpdate: result %d\n", (int)info.result);
            exit(1);
        }
    } else {
        cudaGraphExecUpdateResultInfo info;
        t0 = now_ns();
        CHECK(cudaGraphExecUpdate(ge, g, &info));
        t1 = now_ns();
        if (info.result != cudaGraphExecUpdateSuccess) {
            printf("FAIL cudaGraphExecUpdate: result %d\n", (int)info.result);
            exit(1);
        }
    }
    return (t1 - t0) / 1e6;
}

static void capture_pairs_size(cudaStream_t s, int n, int pairs)
{
    enum { MAXP = CPAIRS_1K > CPAIRS_10K ? CPAIRS_1K : CPAIRS_10K };
    double cap[MAXP], inst[MAXP], upd[MAXP];
    if (pairs > MAXP)
        pairs = MAXP;
    for (int p = 0; p < pairs; p++) {
        int o = p % 2;  // 0: the runtime first (ABBA), 1: the driver first (BAAB)
        double t[2] = {0, 0}, ti[2] = {0, 0}, tu[2] = {0, 0}, ms;
        cudaGraph_t g[2], g2;
        cudaGraphExec_t e[4];
        int way[4] = {o, !o, !o, o};  // per executable: 1 = the driver's
        g[o] = cpairs_capture(s, n, o, 0, &t[o]);
        g[!o] = cpairs_capture(s, n, !o, 0, &t[!o]);
        for (int k = 0; k < 2; k++) {  // both ways captured every launch
            size_t nodes = 0;
            CHECK(cudaGraphGetNodes(g[k], NULL, &nodes));
            if (nodes != (size_t)n) {
                printf("FAIL capture_pairs %d: %zu nodes captured %s\n", n, nodes,
                       k ? "through the driver" : "through the runtime");
                exit(1);
            }
        }
        for (int k = 0; k < 4; k++)  // e[0], e[1] from the runtime's graph, e[2], e[3] the driver's
            ti[way[k]] += cpairs_instantiate(&e[k], g[k / 2], way[k]);
        for (int k = 0; k < 4; k++)
            CHECK(cudaGraphLaunch(e[k], s));
        CHECK(cudaStreamSynchronize(s));
        g2 = cpairs_capture(s, n, 0, p + 1, &ms);
        for (int k = 0; k < 4; k++)
            tu[way[k]] += cpairs_update(e[k], g2, way[k]);
        CHECK(cudaGraphLaunch(e[0], s));  // the updated executables run, one of each way
        CHECK(cudaGraphLaunch(e[1], s));
        CHECK(cudaStreamSynchronize(s));
        cap[p] = t[0] / t[1];
        inst[p] = ti[0] / ti[1];
        upd[p] = tu[0] / tu[1];
        for (int k = 0; k < 4; k++)
            if (way[k])
                CHECK_CU(drv_exec_destroy((CUgraphExec)e[k]));
            else
                CHECK(cudaGraphExecDestroy(e[k]));
        CHECK(cudaGraphDestroy(g[0]));
        CHECK_CU(drv_graph_destroy((CUgraph)g[1]));
        CHECK(cudaGraphDestroy(g2));
    }
    char name[64];
    snprintf(name, sizeof name, "capture_%d_rt_over_cu", n);
    result(name, median(cap, pairs), "x");
    snprintf(name, sizeof name, "instantiate_%d_rt_over_cu", n);
    result(name, median(inst, pairs), "x");
    snprintf(name, sizeof name, "update_%d_rt_over_cu", n);
    result(name, median(upd, pairs), "x");
}

static void bench_capture_pairs(void)
{
    cudaStream_t s;
    double ms;
    driver_launch_init();
    drv_begin_capture =
        (PFN_cuStreamBeginCapture_v10010)driver_entry("cuStreamBeginCapture", 10010);
    drv_end_capture = (PFN_cuStreamEndCapture_v10000)driver_entry("cuStreamEndCapture", 10000);
    drv_instantiate =
        (PFN_cuGraphInstantiateWithFlags_v11040)driver_entry("cuGraphInstantiateWithFlags", 11040);
    drv_exec_update = (PFN_cuGraphExecUpdate_v12000)driver_entry("cuGraphExecUpdate", 12000);
    drv_exec_destroy = (PFN_cuGraphExecDestroy_v10000)driver_entry("cuGraphExecDestroy", 10000);
    drv_graph_destroy = (PFN_cuGraphDestroy_v10000)driver_entry("cuGraphDestroy", 10000);
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    k4<<<1, 32, 0, s>>>(1, 2, 3, 4);  // load the module before capture
    CHECK(cudaGetLastError());
    CHECK(cudaStreamSynchronize(s));
    for (int drv = 0; drv < 2; drv++)  // warm both capture paths
        CHECK(cudaGraphDestroy(cpairs_capture(s, 100, drv, 0, &ms)));
    capture_pairs_size(s, 1000, CPAIRS_1K);
    capture_pairs_size(s, 10000, CPAIRS_10K);
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
        strcmp(mode, "startup") && strcmp(mode, "threads") && strcmp(mode, "capture") &&
        strcmp(mode, "threads_pairs") && strcmp(mode, "capture_pairs"))
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
    else if (!strcmp(mode, "threads_pairs"))
        bench_threads_pairs();
    else if (!strcmp(mode, "capture_pairs"))
        bench_capture_pairs();
    else
        bench_startup();
    return 0;
}
