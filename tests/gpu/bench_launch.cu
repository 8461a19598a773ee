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

static void launch_batch(int n)
{
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
    const bool paired = getenv("BENCH_PAIRED") && minicudart_set_launch_params;
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

    // In paired mode the modes take turns: timing[0] array, timing[1] buffer.
    timing t[2] = {};
    const char *const modes[2] = {"array", "buffer"};
    int total = 2 * batch, round = 0;
    for (int done = 0; done < launches; done += batch, round++) {
        int which = paired ? round % 2 : 0;
        if (paired)
            set_mode(modes[which]);
        time_steady_batch(&t[which], batch);
        total += batch;
    }
    round = 0;
    for (int done = 0; done < launches / 4; done += queued_batch, round++) {
        int which = paired ? round % 2 : 0;
        if (paired)
            set_mode(modes[which]);
        time_queued_batch(&t[which], queued_batch);
        total += queued_batch;
    }
    CHECK(cudaGetLastError());

    int result = 0;
    CHECK(cudaMemcpy(&result, dout, sizeof result, cudaMemcpyDeviceToHost));
    const bool ok = result == total * (1 + 2 + 1 + 4 + 3);
    for (int i = 0; i < (paired ? 2 : 1); i++) {
        char name[32];
        snprintf(name, sizeof name, "%s%s", paired ? "paired-" : "", paired ? modes[i] : label);
        printf("bench_launch %s %.1f %.1f %d %s\n", name, t[i].steady_ns / t[i].steady_n,
               t[i].queued_ns / t[i].queued_n, t[i].steady_n, ok ? "ok" : "WRONG");
    }
    return ok ? 0 : 1;
}
