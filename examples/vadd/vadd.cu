// vadd.cu - the seed program: add two vectors of 1,048,576 floats on the GPU and check every
// element against the CPU.
//
// Built by nvcc, it links minicudart instead of NVIDIA's runtime (see CMakeLists.txt).  Run it
// with MINICUDART_TRACE=1 to watch registration, image choice and the launch on stderr.
//
// Exit codes: 0 pass, 1 a CUDA call failed or a result is wrong, 2 no CUDA driver or GPU here.
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                                           \
    do {                                                                                      \
        cudaError_t check_err_ = (call);                                                      \
        if (check_err_ != cudaSuccess) {                                                      \
            printf("vadd: %s failed: %s (%d): %s\n", #call, cudaGetErrorName(check_err_),     \
                   (int)check_err_, cudaGetErrorString(check_err_));                          \
            exit(1);                                                                          \
        }                                                                                     \
    } while (0)

__global__ void vadd(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

int main(void)
{
    const int n = 1 << 20;
    const size_t bytes = n * sizeof(float);

    // The first CUDA call tells "no driver / no GPU on this machine" apart from real failures.
    int devices = 0;
    cudaError_t err = cudaGetDeviceCount(&devices);
    if (err == cudaErrorInsufficientDriver || err == cudaErrorNoDevice) {
        printf("vadd: no CUDA driver or GPU here: %s (%s)\n", cudaGetErrorName(err),
               cudaGetErrorString(err));
        return 2;
    }
    CHECK(err);

    float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes), *c = (float *)malloc(bytes);
    if (!a || !b || !c) {
        printf("vadd: out of host memory\n");
        return 1;
    }
    // Deterministic, non-trivial data: exact in float, so the GPU sum must match bit for bit.
    for (int i = 0; i < n; i++) {
        a[i] = i * 0.5f;
        b[i] = (float)((i * 7919LL) % 1000) * 0.25f - 100.0f;
        c[i] = -1.0f;
    }

    float *da, *db, *dc;
    CHECK(cudaMalloc((void **)&da, bytes));
    CHECK(cudaMalloc((void **)&db, bytes));
    CHECK(cudaMalloc((void **)&dc, bytes));
    CHECK(cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dc, 0xff, bytes));  // NaN everywhere: a missed element cannot pass

    vadd<<<4096, 256>>>(da, db, dc, n);
    CHECK(cudaGetLastError());  // launch errors surface only here: the <<<>>> stub drops them
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost));

    double max_err = 0.0;
    int wrong = 0;
    for (int i = 0; i < n; i++) {
        double e = fabs((double)c[i] - ((double)a[i] + (double)b[i]));
        if (!(e <= max_err))  // also catches NaN
            max_err = isnan(e) ? INFINITY : e;
        if (c[i] != a[i] + b[i]) {
            if (wrong < 5)
                printf("vadd: c[%d] = %g, expected %g\n", i, c[i], a[i] + b[i]);
            wrong++;
        }
    }

    CHECK(cudaFree(da));
    CHECK(cudaFree(db));
    CHECK(cudaFree(dc));
    free(a);
    free(b);
    free(c);

    printf("vadd: %d elements, max abs error %g, %s\n", n, max_err, wrong ? "FAIL" : "PASS");
    return wrong ? 1 : 0;
}
