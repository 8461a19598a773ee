// rdc_b.cu - the other half of the -rdc test: a __device__ function and a __device__ variable
// used from rdc_a.cu, and a kernel of its own.
#include <cuda_runtime.h>

__device__ int rdc_offset = 7;

__device__ int rdc_scale(int x)
{
    return 3 * x + rdc_offset;
}

__global__ void kern_b(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = 2 * i + rdc_offset;
}

void launch_b(int *out, int n)
{
    kern_b<<<(n + 255) / 256, 256>>>(out, n);
}
