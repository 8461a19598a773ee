/*
 * bench_launch_driver.c - the raw-driver baseline for bench_launch.cu: the same kernel, loaded
 * from a cubin and launched with cuLaunchKernel, timed the same way.  Linked with -lcuda.
 *
 * usage: bench_launch_driver FILE.cubin [launches]
 * Output: "bench_launch driver <ns per launch> <launches> <check>".
 */
#define _POSIX_C_SOURCE 199309L
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

struct bench_params {  /* BenchParams of bench_kernel.cuh */
    int x, y, z, w;
};

#define CHECK_CU(call)                                                                        \
    do {                                                                                      \
        CUresult check_res_ = (call);                                                         \
        if (check_res_ != CUDA_SUCCESS) {                                                     \
            const char *check_name_ = "?";                                                    \
            cuGetErrorName(check_res_, &check_name_);                                         \
            printf("FAIL %s:%d: %s -> %d %s\n", __FILE__, __LINE__, #call, (int)check_res_,   \
                   check_name_);                                                              \
            exit(check_res_ == CUDA_ERROR_NO_DEVICE ? 2 : 1);                                 \
        }                                                                                     \
    } while (0)

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE.cubin [launches]\n", argv[0]);
        return 1;
    }
    const int launches = argc > 2 ? atoi(argv[2]) : 20000;
    const int batch = 500;

    CUdevice dev;
    CUcontext ctx;
    CUmodule mod;
    CUfunction fn;
    CUdeviceptr dout;
    CHECK_CU(cuInit(0));
    CHECK_CU(cuDeviceGet(&dev, 0));
    CHECK_CU(cuDevicePrimaryCtxRetain(&ctx, dev));
    CHECK_CU(cuCtxSetCurrent(ctx));
    CHECK_CU(cuModuleLoad(&mod, argv[1]));
    CHECK_CU(cuModuleGetFunction(&fn, mod, "bench_kernel"));
    CUfunction spin;
    CHECK_CU(cuModuleGetFunction(&spin, mod, "spin_kernel"));
    CHECK_CU(cuMemAlloc(&dout, sizeof(int)));
    CHECK_CU(cuMemsetD32(dout, 0, 1));

    int a = 1;
    float b = 2.0f;
    struct bench_params p = {1, 2, 3, 4};
    long long c = 3;
    void *params[5] = {&dout, &a, &b, &p, &c};
    for (int i = 0; i < 2 * batch; i++)
        CHECK_CU(cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, NULL, params, NULL));
    CHECK_CU(cuStreamSynchronize(NULL));

    double timed = 0;
    int done = 0;
    while (done < launches) {
        int n = launches - done < batch ? launches - done : batch;
        double t0 = now_ns();
        for (int i = 0; i < n; i++)
            cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, NULL, params, NULL);
        timed += now_ns() - t0;
        CHECK_CU(cuStreamSynchronize(NULL));
        done += n;
    }
    long long spin_ns = 5000000LL;
    void *spin_params[1] = {&spin_ns};
    const int queued_batch = 200;
    double queued = 0;
    int queued_done = 0;
    while (queued_done < launches / 4) {
        CHECK_CU(cuLaunchKernel(spin, 1, 1, 1, 1, 1, 1, 0, NULL, spin_params, NULL));
        double t0 = now_ns();
        for (int i = 0; i < queued_batch; i++)
            cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, NULL, params, NULL);
        queued += now_ns() - t0;
        CHECK_CU(cuStreamSynchronize(NULL));
        queued_done += queued_batch;
    }
    int result = 0;
    CHECK_CU(cuMemcpyDtoH(&result, dout, sizeof result));
    int want = (2 * batch + launches + queued_done) * (1 + 2 + 1 + 4 + 3);
    printf("bench_launch driver %.1f %.1f %d %s\n", timed / launches, queued / queued_done,
           launches, result == want ? "ok" : "WRONG");
    return result == want ? 0 : 1;
}
