// multi.cu - the fixture kernels: struct, many, >4 KB (V1 and V2) parameters, shared memory
// with launch bounds, templates, no parameters.  Parameter lists mirror params.h.
#include "params.h"

extern "C" __global__ void k_struct(int a, struct pair p, double *out)
{
    out[threadIdx.x] = a + p.tag + p.value + p.small;
}

extern "C" __global__ void k_many(char c0, int i1, double d2, short s3, float *p4, char c5,
                                  long long l6, float f7, int i8, struct pair p9, char c10,
                                  double d11, int i12, int i13, unsigned char u14, void *p15)
{
    p4[threadIdx.x] = c0 + i1 + d2 + s3 + c5 + l6 + f7 + i8 + p9.value + c10 + d11 + i12 + i13 +
                      u14 + (p15 != 0);
}

extern "C" __global__ void k_big4k(struct block4k b, int x)
{
    if (b.bytes[x] == 7)
        __trap();
}

extern "C" __global__ void k_v2(int *p, struct block4400 b)
{
    p[threadIdx.x] = b.bytes[threadIdx.x] + b.bytes[4399];
}

extern "C" __global__ void __launch_bounds__(BOUND_THREADS) k_shared(float *out)
{
    __shared__ float buf[SHARED_FLOATS];
    buf[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = buf[(threadIdx.x + 1) % SHARED_FLOATS];
}

extern "C" __global__ void k_noargs(void) {}

template <typename T> __global__ void k_tmpl(T *out, T v) { out[threadIdx.x] = v; }
template __global__ void k_tmpl<float>(float *, float);
template __global__ void k_tmpl<int>(int *, int);
