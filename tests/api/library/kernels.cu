// A registered kernel of the library-area tests (tests/api/library): what
// cudaKernelSetAttributeForDevice gets as an ordinary kernel's cudaKernel_t, next to a library's.
__global__ void lib_registered(int *p)
{
    if (p)
        p[threadIdx.x] = 1;
}

extern "C" const void *lib_registered_stub(void) { return (const void *)lib_registered; }
