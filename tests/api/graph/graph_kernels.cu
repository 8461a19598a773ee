// Kernels for the graph and memory-pool tests; the tests (C) reach them through these wrappers.
#include <cuda_runtime.h>

__global__ void add_one(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] += 1;
}

__global__ void scale(int *p, int n, int factor)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] *= factor;
}

extern "C" const void *graph_add_one(void) { return (const void *)add_one; }
extern "C" const void *graph_scale(void) { return (const void *)scale; }
