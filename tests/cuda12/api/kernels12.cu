// kernels12.cu - the kernel the CUDA 12 face's device tests launch through
// cudaLaunchCooperativeKernelMultiDevice (test_device12.c).  Compiled by the project's nvcc:
// the host stub and the registration nvcc emits are the same calls in CUDA 12 and 13
// (CUDA12.md section 5), so the program registers it with libcudart.so.12 as a CUDA 12 one would.

__global__ void coop_fill(int *p, int value)
{
    p[blockIdx.x * blockDim.x + threadIdx.x] = value;
}

extern "C" const void *cuda12_coop_fill(void)
{
    return (const void *)coop_fill;
}
