/*
 * drv_bench.c - rt_bench.cu with the driver API alone (-lcuda): the floor.  Same modes, same
 * kernels (kernels.fatbin, embedded), same timing, same RESULT lines.
 * usage: drv_bench launch|mem|graph|startup|threads|capture
 * threads: every thread makes the primary context current first; own streams are
 * cuStreamCreate(CU_STREAM_NON_BLOCKING), the legacy stream is the NULL stream.
 */
#include "drv_common.h"
#include <pthread.h>

static CUfunction fn[4];
static struct big4k big;
static int a32[32];
static int a4[4] = {1, 2, 3, 4};
static void *params[4][32];
static CUcontext primary;
static CUmodule module;

static void launch_n(int k, int n, CUstream s)
{
    for (int i = 0; i < n; i++)
        CHECK_CU(cuLaunchKernel(fn[k], 1, 1, 1, 32, 1, 1, 0, s, params[k], NULL));
}

static void bench_launch(void)
{
    static const char *const names[4] = {"launch_p0_ns", "launch_p4_ns", "launch_p32_ns",
                                         "launch_s4k_ns"};
    static double t[BURSTS];
    for (int k = 0; k < 4; k++) {
        launch_n(k, BURST, NULL);
        CHECK_CU(cuCtxSynchronize());
    }
    for (int k = 0; k < 4; k++) {
        for (int b = 0; b < BURSTS; b++) {
            double t0 = now_ns();
            launch_n(k, BURST, NULL);
            t[b] = (now_ns() - t0) / BURST;
            CHECK_CU(cuCtxSynchronize());
        }
        result(names[k], median(t, BURSTS), "ns");
    }
    double t0 = now_ns();
    launch_n(1, E2E_LAUNCHES, NULL);
    CHECK_CU(cuCtxSynchronize());
    result("launch_e2e_200k_ns", (now_ns() - t0) / E2E_LAUNCHES, "ns");
}

static void bench_mem(void)
{
    static double t[MEMCPY_REPS];
    char small[64] = {1};
    CUdeviceptr d;
    CHECK_CU(cuMemAlloc(&d, BW_BYTES));
    for (int i = 0; i < 10; i++) {
        CHECK_CU(cuMemcpyHtoD(d, small, sizeof small));
        CHECK_CU(cuMemcpyDtoH(small, d, sizeof small));
    }
    for (int i = 0; i < MEMCPY_REPS; i++) {
        double t0 = now_ns();
        CHECK_CU(cuMemcpyHtoD(d, small, sizeof small));
        t[i] = (now_ns() - t0) / 1e3;
    }
    result("memcpy_h2d_64B_us", median(t, MEMCPY_REPS), "us");
    for (int i = 0; i < MEMCPY_REPS; i++) {
        double t0 = now_ns();
        CHECK_CU(cuMemcpyDtoH(small, d, sizeof small));
        t[i] = (now_ns() - t0) / 1e3;
    }
    result("memcpy_d2h_64B_us", median(t, MEMCPY_REPS), "us");
    char *h = (char *)malloc(BW_BYTES);
    if (!h) { printf("FAIL malloc\n"); exit(1); }
    memset(h, 7, BW_BYTES);
    CHECK_CU(cuMemcpyHtoD(d, h, BW_BYTES));
    for (int i = 0; i < BW_REPS; i++) {
        double t0 = now_ns();
        CHECK_CU(cuMemcpyHtoD(d, h, BW_BYTES));
        t[i] = BW_BYTES / (now_ns() - t0);
    }
    result("h2d_64MiB_pageable_GBps", median(t, BW_REPS), "GB/s");
    free(h);
    CHECK_CU(cuMemFree(d));
}

static void bench_graph(void)
{
    CUstream s;
    CUgraph g;
    CUgraphExec ge;
    static double per_kernel[GRAPH_REPS], host[GRAPH_REPS];
    int vals[GRAPH_NODES];
    CHECK_CU(cuStreamCreate(&s, CU_STREAM_DEFAULT));
    launch_n(1, 1, s);
    CHECK_CU(cuStreamSynchronize(s));
    CHECK_CU(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    for (int i = 0; i < GRAPH_NODES; i++) {
        vals[i] = i;
        void *p[4] = {&vals[i], &a4[1], &a4[2], &a4[3]};
        CHECK_CU(cuLaunchKernel(fn[1], 1, 1, 1, 32, 1, 1, 0, s, p, NULL));
    }
    CHECK_CU(cuStreamEndCapture(s, &g));
    CHECK_CU(cuGraphInstantiate(&ge, g, 0));
    CHECK_CU(cuGraphLaunch(ge, s));
    CHECK_CU(cuStreamSynchronize(s));
    for (int r = 0; r < GRAPH_REPS; r++) {
        double t0 = now_ns();
        for (int i = 0; i < GRAPH_LAUNCHES; i++)
            CHECK_CU(cuGraphLaunch(ge, s));
        double t1 = now_ns();
        CHECK_CU(cuStreamSynchronize(s));
        double t2 = now_ns();
        host[r] = (t1 - t0) / GRAPH_LAUNCHES / 1e3;
        per_kernel[r] = (t2 - t0) / (GRAPH_LAUNCHES * GRAPH_NODES);
    }
    result("graph_per_kernel_ns", median(per_kernel, GRAPH_REPS), "ns");
    result("graph_launch_host_us", median(host, GRAPH_REPS), "us");
    CHECK_CU(cuGraphExecDestroy(ge));
    CHECK_CU(cuGraphDestroy(g));
    CHECK_CU(cuStreamDestroy(s));
}

/* ---- threads: launches per second from several host threads (rt_bench.cu's, same timing) ---- */
struct launcher {
    pthread_t tid;
    pthread_barrier_t *start, *done;
    int own, n;
    double t0; /* when this thread left the start barrier, this repetition */
};

static void *launcher_main(void *p)
{
    struct launcher *l = (struct launcher *)p;
    CUstream s = NULL; /* legacy: the NULL stream */
    CHECK_CU(cuCtxSetCurrent(primary));
    if (l->own)
        CHECK_CU(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    launch_n(1, 1, s);
    CHECK_CU(cuStreamSynchronize(s));
    for (int r = 0; r < THREADS_REPS; r++) {
        pthread_barrier_wait(l->start);
        l->t0 = now_ns();
        launch_n(1, l->n, s);
        pthread_barrier_wait(l->done);
    }
    if (l->own)
        CHECK_CU(cuStreamDestroy(s));
    return NULL;
}

static void threads_config(int nthreads, int own)
{
    static struct launcher l[THREADS_MAX];
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
        CHECK_CU(cuCtxSynchronize());
        double t1 = now_ns();
        for (int i = 0; i < nthreads; i++)
            if (l[i].t0 < t0)
                t0 = l[i].t0;
        v[r] = (double)n * nthreads / (t1 - t0) * 1e6;
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

/* ---- capture: CUDA graphs at scale (rt_bench.cu's, same steps) ------------------------------- */
static CUgraph capture_k4(CUstream s, int n, int rep) /* rep < 0: the first capture */
{
    CUgraph g;
    int a, b, c, d;
    void *p[4] = {&a, &b, &c, &d};
    CHECK_CU(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    for (int i = 0; i < n; i++) {
        if (rep < 0) {
            a = i, b = 2, c = 3, d = 4;
        } else {
            a = i < n - 1 ? i : SINK_MAGIC, b = 1000 + rep, c = i, d = 5;
        }
        CHECK_CU(cuLaunchKernel(fn[1], 1, 1, 1, 32, 1, 1, 0, s, p, NULL));
    }
    CHECK_CU(cuStreamEndCapture(s, &g));
    return g;
}

static void capture_size(CUstream s, int n, CUdeviceptr sink_ptr)
{
    static double cap[CAPTURE_REPS], inst[CAPTURE_REPS], upd[CAPTURE_REPS];
    static double replay[CAPTURE_REPS * CAPTURE_REPLAYS];
    int bad = 0, sink = 0, want = 0;
    for (int r = 0; r < CAPTURE_REPS; r++) {
        CUgraphExec ge;
        CUgraphExecUpdateResultInfo info;
        double t0 = now_ns();
        CUgraph g = capture_k4(s, n, -1);
        double t1 = now_ns();
        CHECK_CU(cuGraphInstantiate(&ge, g, 0));
        double t2 = now_ns();
        cap[r] = (t1 - t0) / 1e6;
        inst[r] = (t2 - t1) / 1e6;
        int zero = 0;
        CHECK_CU(cuMemcpyHtoD(sink_ptr, &zero, sizeof zero));
        CHECK_CU(cuGraphLaunch(ge, s));
        CHECK_CU(cuStreamSynchronize(s));
        CUgraph g2 = capture_k4(s, n, r);
        t0 = now_ns();
        CHECK_CU(cuGraphExecUpdate(ge, g2, &info));
        upd[r] = (now_ns() - t0) / 1e6;
        if (info.result != CU_GRAPH_EXEC_UPDATE_SUCCESS) {
            printf("FAIL cuGraphExecUpdate: result %d\n", (int)info.result);
            exit(1);
        }
        CHECK_CU(cuGraphLaunch(ge, s));
        CHECK_CU(cuStreamSynchronize(s));
        for (int p = 0; p < CAPTURE_REPLAYS; p++) {
            t0 = now_ns();
            CHECK_CU(cuGraphLaunch(ge, s));
            CHECK_CU(cuStreamSynchronize(s));
            replay[r * CAPTURE_REPLAYS + p] = (now_ns() - t0) / 1e6;
        }
        CHECK_CU(cuMemcpyDtoH(&sink, sink_ptr, sizeof sink));
        want = 1000 + r + (n - 1) + 5;
        bad += sink != want;
        CHECK_CU(cuGraphExecDestroy(ge));
        CHECK_CU(cuGraphDestroy(g));
        CHECK_CU(cuGraphDestroy(g2));
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
    CUstream s;
    CUdeviceptr sink_ptr;
    size_t size;
    CHECK_CU(cuModuleGetGlobal(&sink_ptr, &size, module, "bench_sink"));
    CHECK_CU(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    launch_n(1, 1, s);
    CHECK_CU(cuStreamSynchronize(s));
    capture_size(s, 1000, sink_ptr);
    capture_size(s, 10000, sink_ptr);
    CHECK_CU(cuStreamDestroy(s));
}

static void bench_startup(void)
{
    launch_n(1, 1, NULL);
    CHECK_CU(cuCtxSynchronize());
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
    CUmodule mod = module = drv_start("drv_bench");
    if (!strcmp(mode, "threads"))
        CHECK_CU(cuCtxGetCurrent(&primary)); /* drv_start's primary context, for every thread */
    static const char *const names[4] = {"k0", "k4", "k32", "kbig"};
    /* startup needs k4 only: look up no more than the runtime variants load */
    for (int k = 0; k < 4; k++)
        if (strcmp(mode, "startup") == 0 ? k == 1 : 1)
            CHECK_CU(cuModuleGetFunction(&fn[k], mod, names[k]));
    for (int i = 0; i < 1024; i++)
        big.v[i] = i + 1;
    for (int i = 0; i < 32; i++) {
        a32[i] = i + 1;
        params[2][i] = &a32[i];
    }
    for (int i = 0; i < 4; i++)
        params[1][i] = &a4[i];
    params[3][0] = &big;
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
