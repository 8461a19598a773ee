// stress_plugin.cu - a shared library with a kernel of its own, for stress_threads.cu: the
// program dlopens it while 16 threads are at work, so its constructor registers one more fatbin
// while other threads look kernels up and launch them, and its kernel then loads lazily under
// the same load.  Built with -cudart=shared against NVIDIA's runtime and without any runtime
// for minicudart: its runtime calls bind to the program's (which exports them).
#include <cuda_runtime.h>

// One step: data[i] = (data[i] ^ mul) + 3 * add + i.  Host check: stress_threads.cu.
extern "C" __global__ void plugin_step(unsigned *data, int n, unsigned mul, unsigned add)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] = (data[i] ^ mul) + 3u * add + (unsigned)i;
}

// Launches plugin_step on stream s; returns the launch's error (the thread's last error,
// which this reads and clears).
extern "C" int stress_plugin_launch(unsigned *data, int n, unsigned mul, unsigned add,
                                    cudaStream_t s)
{
    plugin_step<<<(n + 255) / 256, 256, 0, s>>>(data, n, mul, add);
    return (int)cudaGetLastError();
}
