// bench_launch.cu - host time per <<<>>> launch.
//
// usage: bench_launch [launches]   (default 20000)
// Two figures per run, in ns per launch:
//   steady  batches of 500 launches, cudaDeviceSynchronize between batches outside the timed part,
//           the GPU running the launches as they come;
//   queued  batches of 200 launches made while the GPU is kept busy by a 5 ms kernel, so they only
//           queue: the time is the host's (runtime + driver) alone.
// The label comes from MINICUDART_LAUNCH_PARAMS (array / buffer) or BENCH_LABEL.
// With BENCH_PAIRED=1, linked to minicudart, one process alternates batch by batch between the
// two ways minicudart hands arguments to the driver (minicudart_set_launch_params), so that both
// see the same machine state; it prints one line for each, labelled paired-array and
// paired-buffer.  (Separate processes on the GPU machine differ by up to 15% from one another.)
// Output: "bench_launch <label> <steady ns> <queued ns> <launches> <check>" per line.
#include "gpu_check.h"
#include <cuda.h>
#include <cudaTypedefs.h>
#include "bench_kernel.cuh"
#include <time.h>

// Defined by minicudart only (include/minicudart.h); NULL when linked to NVIDIA's runtime.
extern "C" int minicudart_set_launch_params(const char *mode) __attribute__((weak));

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

struct timing {
    double steady_ns, queued_ns;
    int steady_n, queued_n;
};

static int *dout;
static const BenchParams params = {1, 2, 3, 4};

// With BENCH_VS_DRIVER=1 the batches alternate between <<<>>> (through the runtime under test)
// and cuLaunchKernel on the same kernel's CUfunction (cudaGetFuncBySymbol), called through
// cudaGetDriverEntryPoint: the runtime's own cost, measured against the driver in one process.
static PFN_cuLaunchKernel_v4000 driver_launch;
static CUfunction driver_function;
static bool use_driver;

static void launch_batch(int n)
{
    if (use_driver) {
        int a = 1;
        float b = 2.0f;
        BenchParams p = params;
        long long c = 3;
        void *args[5] = {&dout, &a, &b, &p, &c};
        for (int i = 0; i < n; i++)
            driver_launch(driver_function, 1, 1, 1, 32, 1, 1, 0, NULL, args, NULL);
        return;
    }
    for (int i = 0; i < n; i++)
        bench_kernel<<<1, 32>>>(dout, 1, 2.0f, params, 3LL);
}

static void time_steady_batch(timing *t, int n)
{
    double t0 = now_ns();
    launch_batch(n);
    t->steady_ns += now_ns() - t0;
    t->steady_n += n;
    CHECK(cudaDeviceSynchronize());
}

static void time_queued_batch(timing *t, int n)
{
    spin_kernel<<<1, 1>>>(5000000LL);
    double t0 = now_ns();
    launch_batch(n);
    t->queued_ns += now_ns() - t0;
    t->queued_n += n;
    CHECK(cudaDeviceSynchronize());
}

static void set_mode(const char *mode)
{
    if (minicudart_set_launch_params(mode) != 0) {
        printf("FAIL: minicudart_set_launch_params(%s)\n", mode);
        exit(1);
    }
}

int main(int argc, char **argv)
{
    gpu_require("bench_launch");
    const int launches = argc > 1 ? atoi(argv[1]) : 20000;
    const int batch = 500, queued_batch = 200;
    const bool vs_driver = getenv("BENCH_VS_DRIVER") != NULL;
    const bool paired = vs_driver || (getenv("BENCH_PAIRED") && minicudart_set_launch_params);
    const char *label = getenv("BENCH_LABEL");
    if (!label)
        label = getenv("MINICUDART_LAUNCH_PARAMS");
    if (!label)
        label = "default";

    CHECK(cudaMalloc((void **)&dout, sizeof(int)));
    CHECK(cudaMemset(dout, 0, sizeof(int)));
    launch_batch(2 * batch);  // warm-up: module load, first-launch paths, caches
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    if (vs_driver) {
        enum cudaDriverEntryPointQueryResult status;
        CHECK(cudaGetDriverEntryPointByVersion("cuLaunchKernel", (void **)&driver_launch, 4000,
                                               cudaEnableDefault, &status));
        CHECK(cudaGetFuncBySymbol((cudaFunction_t *)&driver_function, (const void *)bench_kernel));
    }

    // In paired mode the modes take turns: timing[0] array (or the runtime), timing[1] buffer
    // (or the driver).
    timing t[2] = {};
    const char *const modes[2] = {"array", "buffer"};
    const char *const vs_names[2] = {"runtime", "driver"};
    int total = 2 * batch, round = 0;
    for (int done = 0; done < launches; done += batch, round++) {
        int which = paired ? round % 2 : 0;
        use_driver = vs_driver && which == 1;
        if (paired && !vs_driver)
            set_mode(modes[which]);
        time_steady_batch(&t[which], batch);
        total += batch;
    }
    round = 0;
    for (int done = 0; done < launches / 4; done += queued_batch, round++) {
        int which = paired ? round % 2 : 0;
        use_driver = vs_driver && which == 1;
        if (paired && !vs_driver)
            set_mode(modes[which]);
        time_queued_batch(&t[which], queued_batch);
        total += queued_batch;
    }
    CHECK(cudaGetLastError());

    int result = 0;
    CHECK(cudaMemcpy(&result, dout, sizeof result, cudaMemcpyDeviceToHost));
    const bool ok = result == total * (1 + 2 + 1 + 4 + 3);
    for (int i = 0; i < (paired ? 2 : 1); i++) {
        char name[64];
        if (vs_driver)
            snprintf(name, sizeof name, "%s-vs-driver-%s", label, vs_names[i]);
        else
            snprintf(name, sizeof name, "%s%s", paired ? "paired-" : "", paired ? modes[i] : label);
        printf("bench_launch %s %.1f %.1f %d %s\n", name, t[i].steady_ns / t[i].steady_n,
               t[i].queued_ns / t[i].queued_n, t[i].steady_n, ok ? "ok" : "WRONG");
    }
    return ok ? 0 : 1;
}
