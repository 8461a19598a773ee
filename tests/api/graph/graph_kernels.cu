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

// A WHILE conditional node's body: counts *left down and keeps the loop going while it is > 0.
__global__ void countdown(int *left, cudaGraphConditionalHandle handle)
{
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        *left -= 1;
        cudaGraphSetConditional(handle, *left > 0);
    }
}

// The target of the symbol memcpy nodes.
__device__ int graph_table[8];

extern "C" const void *graph_countdown(void) { return (const void *)countdown; }
extern "C" const void *graph_table_symbol(void) { return (const void *)&graph_table; }
