// first_run.cu - the first moments of a CUDA program: the first CUDA call, an allocation, the
// first launch of a small kernel (which, with lazy loading, loads the module), the second launch
// of the same kernel, each waited for and checked.
//
// Built twice from this file (CMakeLists.txt): first_run_sass carries SASS for sm_90 only,
// first_run_ptx carries PTX for compute_90 only, so its first launch JIT-compiles the kernel
// (or takes it from the driver's JIT cache).  run.sh runs both in fresh processes with
// MINICUDART_TRACE=FILE.json and breaks the time down through the trace's spans; this program
// adds what the trace cannot see, timed on its own clock, one "FIRST_RUN <metric> <us>" line each:
//
//   start_to_main     the exec() in run.sh to the first line of main: loading, dynamic linking,
//                     the constructors that register the fatbin (needs FIRST_RUN_T0, the shell's
//                     $EPOCHREALTIME just before exec; absent without it)
//   device_count      cudaGetDeviceCount, the first CUDA call: loads and initialises the driver
//   malloc            the first cudaMalloc: the primary context, then the allocation
//   launch1_call      the first <<<>>> until it returns: with lazy loading, the module load
//   launch1_done      the first <<<>>> until cudaDeviceSynchronize returns
//   launch2_call      the second <<<>>> of the same kernel until it returns
//   launch2_done      the second <<<>>> until cudaDeviceSynchronize returns
//   main_to_done1     main's first line until the first kernel is done
//
// Exit codes: 0 pass, 1 a CUDA call failed or a result is wrong, 2 no CUDA driver or GPU here.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CHECK(call)                                                                           \
    do {                                                                                      \
        cudaError_t check_err_ = (call);                                                      \
        if (check_err_ != cudaSuccess) {                                                      \
            printf("first_run: %s failed: %s (%d): %s\n", #call, cudaGetErrorName(check_err_), \
                   (int)check_err_, cudaGetErrorString(check_err_));                          \
            exit(1);                                                                          \
        }                                                                                     \
    } while (0)

#define N 1024

__global__ void fill(int *out, int n, int value)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = value * 1000 + i;
}

static double clock_us(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static double now_us(void) { return clock_us(CLOCK_MONOTONIC); }

static void report(const char *metric, double us) { printf("FIRST_RUN %s %.3f\n", metric, us); }

// Checks out[i] == value * 1000 + i; returns the number of wrong elements (the first few printed).
static int check(const int *out, int value)
{
    int wrong = 0;
    for (int i = 0; i < N; i++)
        if (out[i] != value * 1000 + i && wrong++ < 5)
            printf("first_run: launch %d: out[%d] = %d, expected %d\n", value, i, out[i],
                   value * 1000 + i);
    return wrong;
}

int main(void)
{
    // The realtime clock first: FIRST_RUN_T0 is the shell's $EPOCHREALTIME ("s.us").
    double main_real = clock_us(CLOCK_REALTIME);
    double main_us = now_us();
    const char *t0 = getenv("FIRST_RUN_T0");
    if (t0 && *t0)
        report("start_to_main", main_real - atof(t0) * 1e6);

    int devices = 0;
    double t = now_us();
    cudaError_t err = cudaGetDeviceCount(&devices);
    if (err == cudaErrorInsufficientDriver || err == cudaErrorNoDevice ||
        (err == cudaSuccess && devices < 1)) {
        printf("first_run: no CUDA driver or GPU here: %s (%s)\n", cudaGetErrorName(err),
               cudaGetErrorString(err));
        return 2;
    }
    CHECK(err);
    report("device_count", now_us() - t);

    int *d_out[2];
    t = now_us();
    CHECK(cudaMalloc((void **)&d_out[0], N * sizeof(int)));
    report("malloc", now_us() - t);
    CHECK(cudaMalloc((void **)&d_out[1], N * sizeof(int)));

    for (int launch = 1; launch <= 2; launch++) {
        t = now_us();
        fill<<<(N + 255) / 256, 256>>>(d_out[launch - 1], N, launch);
        double called = now_us();
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        double done = now_us();
        report(launch == 1 ? "launch1_call" : "launch2_call", called - t);
        report(launch == 1 ? "launch1_done" : "launch2_done", done - t);
        if (launch == 1)
            report("main_to_done1", done - main_us);
    }

    static int out[N];
    int wrong = 0;
    for (int launch = 1; launch <= 2; launch++) {
        CHECK(cudaMemcpy(out, d_out[launch - 1], sizeof out, cudaMemcpyDeviceToHost));
        wrong += check(out, launch);
    }
    CHECK(cudaFree(d_out[0]));
    CHECK(cudaFree(d_out[1]));
    printf("first_run: %s\n", wrong ? "FAIL" : "PASS");
    return wrong ? 1 : 0;
}
