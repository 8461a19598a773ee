// life_fork.cu - fork and the runtime.  A child forked before the runtime was first used uses
// CUDA like a new process; a child forked after it gets an error at once (NVIDIA's runtime answers
// cudaErrorInitializationError to cudaMalloc there), never a hang; the parent goes on working.
//
// Each child prints its own lines and exits; the parent waits for it (at most 60 s, then kills
// it and fails), so the lines come in a fixed order.  Exit 0 pass, 1 fail, 2 no GPU.
#include "gpu_check.h"

#include <dlfcn.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern "C" __global__ void fork_fill(int *out, int n, int base)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = base + i;
}

static const int N = 1024;

// Against the fake driver (tests/e2e): the kernel as a host function.  Looked up, not loaded:
// loading the fake here would not initialise the runtime, but keep the first fork honest anyway.
static void register_fake_kernel(void)
{
    if (fake_register_fn reg = gpu_fake_registrar())
        reg("fork_fill", gpu_fake_fill);
}

// Allocates, launches, copies back and checks; returns the first failing call's error.
static cudaError_t round_trip(int base)
{
    int *d = NULL, h[N];
    cudaError_t e = cudaMalloc((void **)&d, sizeof h);
    if (e != cudaSuccess)
        return e;
    fork_fill<<<N / 256, 256>>>(d, N, base);
    e = cudaGetLastError();
    if (e == cudaSuccess)
        e = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    for (int i = 0; e == cudaSuccess && i < N; i++)
        if (h[i] != base + i)
            e = cudaErrorUnknown;
    cudaFree(d);
    return e;
}

// Waits for the child at most 60 s; returns its exit code, or -1 when it hung or crashed.
static int wait_child(pid_t child)
{
    for (int waited_ms = 0; waited_ms < 60000; waited_ms += 10) {
        int status = 0;
        pid_t r = waitpid(child, &status, WNOHANG);
        if (r == child)
            return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        struct timespec ten_ms = {0, 10 * 1000 * 1000};
        nanosleep(&ten_ms, NULL);
    }
    printf("FAIL: the child hangs\n");
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    return -1;
}

int main(void)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    register_fake_kernel();

    // 1. Before the runtime's first use: the child initialises CUDA for itself.
    pid_t child = fork();
    if (child == 0) {
        cudaError_t e = round_trip(100);
        printf("child forked before initialisation: round trip -> " ERR_FMT "\n", ERR_ARGS(e));
        _exit(e == cudaSuccess ? 0 : e == cudaErrorInsufficientDriver || e == cudaErrorNoDevice
                                             ? 2 : 1);
    }
    int early = wait_child(child);

    gpu_require("life_fork");
    bool ok = early == 0;
    cudaError_t e = round_trip(200);
    printf("parent before fork: round trip -> " ERR_FMT "\n", ERR_ARGS(e));
    ok &= e == cudaSuccess;

    // 2. After: every call that needs the driver fails at once in the child.
    child = fork();
    if (child == 0) {
        int *d = NULL, count = -1;
        cudaError_t malloc_result = cudaMalloc((void **)&d, 64);
        printf("child forked after initialisation: cudaMalloc -> " ERR_FMT "\n",
               ERR_ARGS(malloc_result));
        cudaError_t last = cudaGetLastError();
        printf("  cudaGetLastError -> " ERR_FMT "\n", ERR_ARGS(last));
        cudaError_t sync = cudaDeviceSynchronize();
        printf("  cudaDeviceSynchronize -> " ERR_FMT "\n", ERR_ARGS(sync));
        cudaError_t again = round_trip(300);
        printf("  round trip -> " ERR_FMT "\n", ERR_ARGS(again));
        cudaError_t count_result = cudaGetDeviceCount(&count);
        printf("  cudaGetDeviceCount -> " ERR_FMT "\n", ERR_ARGS(count_result));
        _exit(malloc_result == cudaErrorInitializationError ? 0 : 1);
    }
    int late = wait_child(child);
    printf("child forked after initialisation: exit %d\n", late);
    ok &= late == 0;

    e = round_trip(400);
    printf("parent after fork: round trip -> " ERR_FMT "\n", ERR_ARGS(e));
    ok &= e == cudaSuccess;
    printf("life_fork: %s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
