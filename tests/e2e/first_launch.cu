// first_launch.cu - kernels that no one has launched yet, for test_first_launch.c: 32 instances of
// one template, in one fatbin (one module), each launched by index through nvcc's <<<>>> stub
// (__cudaGetKernel, __cudaLaunchKernel) or through cudaLaunchKernel with its host stub.
#include <cuda_runtime_api.h>

template <int N> __global__ void first(unsigned *out, unsigned tag)
{
    out[N] = tag;
}

#define FIRST_KERNELS 32
typedef void (*first_launcher)(unsigned *, unsigned);
static first_launcher launchers[FIRST_KERNELS];
static const void *stubs[FIRST_KERNELS];

template <int N> static void launch_first(unsigned *out, unsigned tag)
{
    first<N><<<1, 1>>>(out, tag);
}

template <int N> struct fill {
    static void run()
    {
        launchers[N - 1] = launch_first<N - 1>;
        stubs[N - 1] = (const void *)first<N - 1>;
        fill<N - 1>::run();
    }
};
template <> struct fill<0> {
    static void run() {}
};

static int filled = (fill<FIRST_KERNELS>::run(), 1);

extern "C" int e2e_first_kernel_count(void)
{
    return filled ? FIRST_KERNELS : 0;
}

// Launches kernel `which` with <<<>>>; returns what the launch left as the last error.
extern "C" cudaError_t e2e_first_launch_stub(int which, unsigned *out, unsigned tag)
{
    launchers[which](out, tag);
    return cudaGetLastError();
}

// Launches kernel `which` with cudaLaunchKernel and its host stub (the registry's look-up).
extern "C" cudaError_t e2e_first_launch_api(int which, unsigned *out, unsigned tag)
{
    void *args[] = {&out, &tag};
    return cudaLaunchKernel(stubs[which], dim3(1), dim3(1), args, 0, 0);
}
