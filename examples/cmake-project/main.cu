// saxpy over a kernel that calls a __device__ function from another file, run through minicudart.
// Prints PASS and exits 0; exits 2 when there is no GPU or no driver; 1 on any failure.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>
#include <minicudart.h>

#include "device_math.cuh"

__global__ void saxpy(int n, float a, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = axpy_element(a, x[i], y[i]);
}

#define CHECK(call)                                                                    \
    do {                                                                               \
        cudaError_t e_ = (call);                                                       \
        if (e_ != cudaSuccess) {                                                       \
            std::fprintf(stderr, "FAIL: %s: %s (%s)\n", #call, cudaGetErrorName(e_),    \
                         cudaGetErrorString(e_));                                      \
            return 1;                                                                  \
        }                                                                              \
    } while (0)

int main()
{
    // minicudart's own API (minicudart.h): an unknown mode is refused and changes nothing.  It
    // would not link against NVIDIA's runtime.
    if (minicudart_set_launch_params("no-such-mode") != -1) {
        std::fprintf(stderr, "FAIL: minicudart_set_launch_params accepted an unknown mode\n");
        return 1;
    }

    int devices = 0;
    cudaError_t e = cudaGetDeviceCount(&devices);
    if (e == cudaErrorInsufficientDriver || e == cudaErrorNoDevice ||
        (e == cudaSuccess && devices == 0)) {
        std::fprintf(stderr, "no GPU: cudaGetDeviceCount: %s (%s); nothing to run\n",
                     cudaGetErrorName(e), cudaGetErrorString(e));
        return 2;
    }
    CHECK(e);

    const int n = 1 << 20;
    const float a = 2.0f;
    std::vector<float> x(n), y(n);
    for (int i = 0; i < n; i++) {
        x[i] = float(i % 1000);
        y[i] = 1.0f;
    }
    float *dx = nullptr, *dy = nullptr;
    CHECK(cudaMalloc(&dx, n * sizeof(float)));
    CHECK(cudaMalloc(&dy, n * sizeof(float)));
    CHECK(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    saxpy<<<(n + 255) / 256, 256>>>(n, a, dx, dy);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(dx));
    CHECK(cudaFree(dy));

    for (int i = 0; i < n; i++) {
        float want = a * float(i % 1000) + 1.0f;
        if (y[i] != want) {
            std::fprintf(stderr, "FAIL: y[%d] = %g, want %g\n", i, y[i], want);
            return 1;
        }
    }
    std::printf("PASS: saxpy over %d elements on %d device(s)\n", n, devices);
    return 0;
}
