// Kernels of the function-area tests (tests/api/function): their host stubs are what the tests
// hand to cudaFuncGetAttributes, the occupancy queries and the launches.
__global__ void fn_plain(int *p, int v)
{
    if (p)
        p[threadIdx.x] = v;
}

__global__ void __launch_bounds__(256) fn_bounded(float *p)
{
    if (p)
        p[threadIdx.x] = 1.0f;
}

__global__ void fn_shared(int *p)
{
    __shared__ int buffer[1024];
    buffer[threadIdx.x] = threadIdx.x;
    __syncthreads();
    if (p)
        p[threadIdx.x] = buffer[1023 - threadIdx.x];
}

extern "C" const void *fn_plain_stub(void) { return (const void *)fn_plain; }
extern "C" const void *fn_bounded_stub(void) { return (const void *)fn_bounded; }
extern "C" const void *fn_shared_stub(void) { return (const void *)fn_shared; }
