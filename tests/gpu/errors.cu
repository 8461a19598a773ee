// errors.cu - error codes and the per-thread last error, as NVIDIA's runtime gives them on the
// H200 (reference/SEMANTICS.md section 0).  Every code is printed as number, name and message.
#include "gpu_check.h"

__global__ void noop(int *p)
{
    if (p)
        *p = 1;
}

static void never_registered(void) {}

static void show(const char *what, cudaError_t e)
{
    printf("%-44s -> " ERR_FMT " (%s)\n", what, ERR_ARGS(e), cudaGetErrorString(e));
}

static int expect(const char *what, cudaError_t got, cudaError_t want)
{
    show(what, got);
    if (got != want)
        printf("  expected " ERR_FMT "\n", ERR_ARGS(want));
    return got == want;
}

int main(void)
{
    gpu_require("errors");
    int ok = 1;
    int *d = NULL;
    CHECK(cudaMalloc((void **)&d, 4096));

    // Too many threads per block: CUDA 13's runtime passes on the driver's invalid value, CUDA
    // 12's answered invalid configuration (both NVIDIA's, H200).
    int version = 0;
    CHECK(cudaRuntimeGetVersion(&version));
    cudaError_t bad_shape = version < 13000 ? cudaErrorInvalidConfiguration : cudaErrorInvalidValue;
    noop<<<1, 2048>>>(d);
    ok &= expect("launch <<<1, 2048>>>: cudaPeekAtLastError", cudaPeekAtLastError(), bad_shape);
    ok &= expect("cudaMemset (succeeds)", cudaMemset(d, 0, 4096), cudaSuccess);
    ok &= expect("cudaGetLastError", cudaGetLastError(), bad_shape);
    ok &= expect("cudaGetLastError again", cudaGetLastError(), cudaSuccess);

    void *args[1] = {&d};
    ok &= expect("cudaLaunchKernel(never registered)",
                 cudaLaunchKernel((const void *)never_registered, dim3(1), dim3(1), args, 0, 0),
                 cudaErrorInvalidResourceHandle);
    ok &= expect("cudaGetLastError", cudaGetLastError(), cudaErrorInvalidResourceHandle);

    ok &= expect("cudaLaunchKernel(noop) (registered)",
                 cudaLaunchKernel((const void *)noop, dim3(1), dim3(1), args, 0, 0), cudaSuccess);
    ok &= expect("cudaDeviceSynchronize", cudaDeviceSynchronize(), cudaSuccess);

    ok &= expect("cudaSetDevice(99)", cudaSetDevice(99), cudaErrorInvalidDevice);
    show("cudaGetLastError", cudaGetLastError());
    int dev = -1;
    ok &= expect("cudaGetDevice", cudaGetDevice(&dev), cudaSuccess);
    printf("current device %d\n", dev);

    ok &= expect("cudaFree(NULL)", cudaFree(NULL), cudaSuccess);
    ok &= expect("cudaMemcpy(NULL host dst, D2H)", cudaMemcpy(NULL, d, 16, cudaMemcpyDeviceToHost),
                 cudaErrorInvalidValue);
    show("cudaGetLastError", cudaGetLastError());
    show("cudaGetLastError again", cudaGetLastError());

    noop<<<1, 32>>>(d);  // the context is still healthy
    ok &= expect("launch <<<1, 32>>> then cudaGetLastError", cudaGetLastError(), cudaSuccess);
    ok &= expect("cudaDeviceSynchronize", cudaDeviceSynchronize(), cudaSuccess);
    int v = 0;
    CHECK(cudaMemcpy(&v, d, sizeof v, cudaMemcpyDeviceToHost));
    printf("kernel wrote %d\n", v);
    ok &= v == 1;
    CHECK(cudaFree(d));

    printf("errors: %s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
