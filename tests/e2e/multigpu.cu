// The kernels of test_multigpu.c and the extern "C" wrappers the C test calls.  No __managed__
// variable here: a module with one is loaded as soon as a context starts, and the test checks
// that this one is loaded only at its first launch on each device.
__device__ int multigpu_value = 3;

extern "C" __global__ void multigpu_fill(int *out, int base, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = base + i;
}

extern "C" void e2e_launch_fill(int *out, int base, int n, cudaStream_t stream)
{
    multigpu_fill<<<(n + 255) / 256, 256, 0, stream>>>(out, base, n);
}

extern "C" cudaError_t e2e_set_value(int value)
{
    return cudaMemcpyToSymbol(multigpu_value, &value, sizeof value);
}

extern "C" cudaError_t e2e_get_value(int *value)
{
    return cudaMemcpyFromSymbol(value, multigpu_value, sizeof *value);
}
