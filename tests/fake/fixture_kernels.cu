// Kernels and variables the fake driver's self-test loads as a cubin and as PTX.
struct S3 { char c; double d; int i; };

__device__ int dvar = 7;
__device__ int zvar;
__constant__ float cvar[4] = {1.0f, 2.0f, 3.0f, 4.0f};

__global__ void add(int *a, const int *b, int n)
{
    a[threadIdx.x] += b[threadIdx.x] + n + dvar + zvar + (int)cvar[threadIdx.x & 3];
}

__global__ void noargs() {}

__global__ void kstruct(S3 s, char c, double *out) { *out = s.d + c + s.i + s.c; }
