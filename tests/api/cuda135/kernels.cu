// Kernels of the CUDA 13.5 tests (tests/api/cuda135): a kernel with three parameters of three
// sizes, for cudaFuncGetParamCount, the kernel nodes and the launches on a green context's stream.
#include <cuda_runtime.h>

__global__ void k135_three(int *p, int n, double scale)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (p && i < n)
        p[i] = (int)(p[i] * scale);
}

__global__ void k135_none(void) {}

extern "C" const void *k135_three_stub(void) { return (const void *)k135_three; }
extern "C" const void *k135_none_stub(void) { return (const void *)k135_none; }
