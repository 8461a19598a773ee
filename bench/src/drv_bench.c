/*
 * drv_bench.c - rt_bench.cu with the driver API alone (-lcuda): the floor.  Same modes, same
 * kernels (kernels.fatbin, embedded), same timing, same RESULT lines.
 * usage: drv_bench launch|mem|graph|startup
 */
#include "drv_common.h"

static CUfunction fn[4];
static struct big4k big;
static int a32[32];
static int a4[4] = {1, 2, 3, 4};
static void *params[4][32];

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
        strcmp(mode, "startup"))
        usage_exit(argv[0]);
    CUmodule mod = drv_start("drv_bench");
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
    else
        bench_startup();
    return 0;
}
