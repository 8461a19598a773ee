// bench_launch.cu - host time per <<<>>> launch, one round per process.
//
// usage: bench_launch [launches]   (default 20000)
// Launches run in batches of 500 with cudaDeviceSynchronize between batches, outside the timed
// part, so the driver's queue never fills and the time is the host's cost of a launch.  The label
// comes from MINICUDART_LAUNCH_PARAMS (array / buffer) or BENCH_LABEL; tests/gpu/run.sh alternates
// processes and takes medians.  Output: "bench_launch <label> <ns per launch> <launches> <check>".
#include "gpu_check.h"
#include "bench_kernel.cuh"
#include <time.h>

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
    gpu_require("bench_launch");
    const int launches = argc > 1 ? atoi(argv[1]) : 20000;
    const int batch = 500;
    const char *label = getenv("BENCH_LABEL");
    if (!label)
        label = getenv("MINICUDART_LAUNCH_PARAMS");
    if (!label)
        label = "default";

    int *dout;
    CHECK(cudaMalloc((void **)&dout, sizeof(int)));
    CHECK(cudaMemset(dout, 0, sizeof(int)));
    BenchParams p = {1, 2, 3, 4};
    for (int i = 0; i < 2 * batch; i++)  // warm-up: module load, first-launch paths, caches
        bench_kernel<<<1, 32>>>(dout, 1, 2.0f, p, 3LL);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    double timed = 0;
    int done = 0;
    while (done < launches) {
        int n = launches - done < batch ? launches - done : batch;
        double t0 = now_ns();
        for (int i = 0; i < n; i++)
            bench_kernel<<<1, 32>>>(dout, 1, 2.0f, p, 3LL);
        timed += now_ns() - t0;
        CHECK(cudaDeviceSynchronize());
        done += n;
    }
    CHECK(cudaGetLastError());
    int result = 0;
    CHECK(cudaMemcpy(&result, dout, sizeof result, cudaMemcpyDeviceToHost));
    int want = (2 * batch + launches) * (1 + 2 + 1 + 4 + 3);
    printf("bench_launch %s %.1f %d %s\n", label, timed / launches, launches,
           result == want ? "ok" : "WRONG");
    return result == want ? 0 : 1;
}
