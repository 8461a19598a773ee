// check_app.cu - one tiny CUDA program, linked three ways for `fatbin check` (shared runtime,
// NVIDIA's static runtime, minicudart's static library).  Never run: the tests only inspect it.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void k_check_scale(float *x, float f)
{
    x[threadIdx.x] *= f;
}

int main(void)
{
    float *d = NULL;
    if (cudaMalloc((void **)&d, 32 * sizeof(float)) != cudaSuccess) {
        printf("no device\n");
        return 1;
    }
    k_check_scale<<<1, 32>>>(d, 2.0f);
    cudaError_t rc = cudaDeviceSynchronize();
    cudaFree(d);
    printf("%s\n", cudaGetErrorString(rc));
    return rc == cudaSuccess ? 0 : 1;
}
