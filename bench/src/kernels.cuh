// kernels.cuh - the benchmark kernels, extern "C" so that the raw-driver variant finds them by
// name in kernels.fatbin (nvcc -fatbin kernels.cu).  Each has a side effect the compiler cannot
// drop, taken only for impossible arguments: the launch is what is measured, not the kernel.
#include "common.h"

__device__ int bench_sink;

extern "C" __global__ void k0(void) {}

extern "C" __global__ void k4(int a, int b, int c, int d)
{
    if (a == 123456789)
        bench_sink = b + c + d;
}

extern "C" __global__ void k32(int a0, int a1, int a2, int a3, int a4, int a5, int a6, int a7,
                               int a8, int a9, int a10, int a11, int a12, int a13, int a14,
                               int a15, int a16, int a17, int a18, int a19, int a20, int a21,
                               int a22, int a23, int a24, int a25, int a26, int a27, int a28,
                               int a29, int a30, int a31)
{
    if (a0 == 123456789)
        bench_sink = a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9 + a10 + a11 + a12 + a13 + a14 +
                     a15 + a16 + a17 + a18 + a19 + a20 + a21 + a22 + a23 + a24 + a25 + a26 +
                     a27 + a28 + a29 + a30 + a31;
}

extern "C" __global__ void kbig(big4k s)
{
    if (s.v[0] == 123456789)
        bench_sink = s.v[threadIdx.x] + s.v[1023];
}
