// variables.cu - __managed__, __constant__ and __device__ variables.
//
// Host reads of a managed variable go through __cudaInitModule, which fills the host pointer
// with the variable's unified address; constant and device variables are reached through the
// symbol APIs with the host shadow's address.
#include "gpu_check.h"

__managed__ int mv = 42;
__constant__ float coeffs[16];
__device__ int dv = 5;
__device__ float dresult[16];

__global__ void bump(void)
{
    mv += 1;
}

__global__ void use_constants(int scale)
{
    int i = threadIdx.x;
    dresult[i] = coeffs[i] * scale;
    if (i == 0)
        dv = dv * 100 + scale;
}

int main(void)
{
    gpu_require("variables");
    int ok = 1;

    printf("managed mv before: %d\n", mv);
    ok &= mv == 42;
    bump<<<1, 1>>>();
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    printf("managed mv after one kernel: %d\n", mv);
    ok &= mv == 43;
    mv = 1000;  // a host write, seen by the next kernel
    bump<<<1, 1>>>();
    CHECK(cudaDeviceSynchronize());
    printf("managed mv after host write 1000 and a kernel: %d\n", mv);
    ok &= mv == 1001;

    float host_coeffs[16], back[16];
    for (int i = 0; i < 16; i++)
        host_coeffs[i] = 0.5f * i - 2.0f;
    CHECK(cudaMemcpyToSymbol(coeffs, host_coeffs, sizeof host_coeffs));
    float half[8] = {9, 9, 9, 9, 9, 9, 9, 9};
    CHECK(cudaMemcpyToSymbol(coeffs, half, sizeof half, 8 * sizeof(float)));  // offset form
    use_constants<<<1, 16>>>(3);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpyFromSymbol(back, dresult, sizeof back));
    int wrong = 0;
    double sum = 0;
    for (int i = 0; i < 16; i++) {
        float want = (i < 8 ? host_coeffs[i] : 9.0f) * 3;
        sum += back[i];
        wrong += back[i] != want;
    }
    printf("constant coeffs[16] * 3: sum %.2f, wrong %d\n", sum, wrong);
    ok &= wrong == 0;

    int d = 0;
    CHECK(cudaMemcpyFromSymbol(&d, dv, sizeof d));
    printf("device dv: %d\n", d);
    ok &= d == 503;
    float c15 = 0;
    CHECK(cudaMemcpyFromSymbol(&c15, coeffs, sizeof c15, 15 * sizeof(float)));
    printf("constant coeffs[15] read back: %g\n", c15);
    ok &= c15 == 9.0f;

    printf("variables: %s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
