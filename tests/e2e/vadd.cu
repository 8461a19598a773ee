// The vector-add kernel and the extern "C" wrappers the C test calls.
__global__ void vadd(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

extern "C" void e2e_launch_vadd(const float *a, const float *b, float *c, int n, unsigned grid,
                                unsigned block)
{
    vadd<<<grid, block>>>(a, b, c, n);
}
