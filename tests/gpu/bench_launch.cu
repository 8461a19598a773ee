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
// With BENCH_PARTS=1 the batches take turns among six ways of launching the same kernel, to take
// the runtime's cost apart (bench/run.sh and docs/performance.md, "Where the time goes"):
//   chevron          <<<>>> through the runtime under test (stub, configuration, runtime, driver)
//   cudaLaunchKernel the runtime's public launch with nvcc's argument array (no stub)
//   drv-array        cuLaunchKernel with the argument array (kernelParams): the floor
//   drv-buffer       cuLaunchKernel with the arguments packed into one buffer (`extra`)
//   drv-ctx-array    cuCtxGetCurrent, then cuLaunchKernel with the array
//   drv-ctx-buffer   cuCtxGetCurrent, packing, cuLaunchKernel with the buffer: what minicudart
//                    hands the driver per launch, without the rest of the runtime
// Output: "bench_launch <label> <steady ns> <queued ns> <launches> <check>" per line.
#include "gpu_check.h"
#include <cuda.h>
#include <cudaTypedefs.h>
#include "bench_kernel.cuh"
#include <string.h>
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
static PFN_cuCtxGetCurrent_v4000 driver_get_current;
static CUfunction driver_function;

enum way { CHEVRON, RUNTIME_API, DRV_ARRAY, DRV_BUFFER, DRV_CTX_ARRAY, DRV_CTX_BUFFER, WAYS };
static const char *const way_names[WAYS] = {"chevron", "cudaLaunchKernel", "drv-array",
                                            "drv-buffer", "drv-ctx-array", "drv-ctx-buffer"};
static enum way way = CHEVRON;

// The kernel's parameter layout as the driver reports it (cuFuncGetParamInfo), for the packed
// buffer ways.
static size_t param_offset[5], param_size[5], param_total;

static void launch_batch(int n)
{
    int a = 1;
    float b = 2.0f;
    BenchParams p = params;
    long long c = 3;
    void *args[5] = {&dout, &a, &b, &p, &c};
    alignas(16) unsigned char buffer[64];
    size_t size = param_total;
    void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, buffer, CU_LAUNCH_PARAM_BUFFER_SIZE, &size,
                     CU_LAUNCH_PARAM_END};
    CUcontext ctx;
    switch (way) {
    case CHEVRON:
        for (int i = 0; i < n; i++)
            bench_kernel<<<1, 32>>>(dout, 1, 2.0f, params, 3LL);
        break;
    case RUNTIME_API:
        for (int i = 0; i < n; i++)
            cudaLaunchKernel((const void *)bench_kernel, dim3(1), dim3(32), args, 0, 0);
        break;
    case DRV_ARRAY:
        for (int i = 0; i < n; i++)
            driver_launch(driver_function, 1, 1, 1, 32, 1, 1, 0, NULL, args, NULL);
        break;
    case DRV_BUFFER:
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < 5; j++)
                memcpy(buffer + param_offset[j], args[j], param_size[j]);
            driver_launch(driver_function, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, extra);
        }
        break;
    case DRV_CTX_ARRAY:
        for (int i = 0; i < n; i++) {
            driver_get_current(&ctx);
            driver_launch(driver_function, 1, 1, 1, 32, 1, 1, 0, NULL, args, NULL);
        }
        break;
    case DRV_CTX_BUFFER:
        for (int i = 0; i < n; i++) {
            driver_get_current(&ctx);
            for (int j = 0; j < 5; j++)
                memcpy(buffer + param_offset[j], args[j], param_size[j]);
            driver_launch(driver_function, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, extra);
        }
        break;
    default:
        break;
    }
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

// BENCH_PARTS: every way in turn, batch by batch, steady then queued; one line per way.
static int run_parts(int launches, int batch, int queued_batch, const char *label)
{
    timing t[WAYS] = {};
    int total = 2 * batch;   // the warm-up's launches
    for (int round = 0; round < 3 * WAYS; round++) {   // warm every way up once more, untimed
        way = (enum way)(round % WAYS);
        launch_batch(batch / 4);
        total += batch / 4;
    }
    CHECK(cudaDeviceSynchronize());
    for (int done = 0, round = 0; done < WAYS * launches; done += batch, round++) {
        way = (enum way)(round % WAYS);
        time_steady_batch(&t[way], batch);
        total += batch;
    }
    for (int done = 0, round = 0; done < WAYS * launches / 4; done += queued_batch, round++) {
        way = (enum way)(round % WAYS);
        time_queued_batch(&t[way], queued_batch);
        total += queued_batch;
    }
    CHECK(cudaGetLastError());
    int result = 0;
    CHECK(cudaMemcpy(&result, dout, sizeof result, cudaMemcpyDeviceToHost));
    const bool ok = result == total * (1 + 2 + 1 + 4 + 3);
    for (int i = 0; i < WAYS; i++)
        printf("bench_launch %s-parts-%s %.1f %.1f %d %s\n", label, way_names[i],
               t[i].steady_ns / t[i].steady_n, t[i].queued_ns / t[i].queued_n, t[i].steady_n,
               ok ? "ok" : "WRONG");
    return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
    gpu_require("bench_launch");
    const int launches = argc > 1 ? atoi(argv[1]) : 20000;
    const int batch = 500, queued_batch = 200;
    const bool parts = getenv("BENCH_PARTS") != NULL;
    const bool vs_driver = getenv("BENCH_VS_DRIVER") != NULL || parts;
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
        CHECK(cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", (void **)&driver_get_current,
                                               4000, cudaEnableDefault, &status));
        CHECK(cudaGetFuncBySymbol((cudaFunction_t *)&driver_function, (const void *)bench_kernel));
        PFN_cuFuncGetParamInfo_v12040 param_info;
        CHECK(cudaGetDriverEntryPointByVersion("cuFuncGetParamInfo", (void **)&param_info, 12040,
                                               cudaEnableDefault, &status));
        for (int j = 0; j < 5; j++) {
            if (param_info(driver_function, j, &param_offset[j], &param_size[j]) != CUDA_SUCCESS ||
                param_offset[j] + param_size[j] > 64) {
                printf("FAIL: cuFuncGetParamInfo(%d)\n", j);
                return 1;
            }
            param_total = param_offset[j] + param_size[j];
        }
    }
    if (parts)
        return run_parts(launches, batch, queued_batch, label);

    // In paired mode the modes take turns: timing[0] array (or the runtime), timing[1] buffer
    // (or the driver).
    timing t[2] = {};
    const char *const modes[2] = {"array", "buffer"};
    const char *const vs_names[2] = {"runtime", "driver"};
    int total = 2 * batch, round = 0;
    for (int done = 0; done < launches; done += batch, round++) {
        int which = paired ? round % 2 : 0;
        way = vs_driver && which == 1 ? DRV_ARRAY : CHEVRON;
        if (paired && !vs_driver)
            set_mode(modes[which]);
        time_steady_batch(&t[which], batch);
        total += batch;
    }
    round = 0;
    for (int done = 0; done < launches / 4; done += queued_batch, round++) {
        int which = paired ? round % 2 : 0;
        way = vs_driver && which == 1 ? DRV_ARRAY : CHEVRON;
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
