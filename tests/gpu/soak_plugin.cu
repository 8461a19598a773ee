// soak_plugin.cu - a shared library with a kernel and 4 MB of __device__ memory, for
// soak_api.cu, which opens and closes it every iteration: each dlopen registers its fatbin and
// loads its module (taking the 4 MB on the device), each dlclose must unload it and give the
// memory back.  Built like stress_plugin.cu (tests/gpu/run.sh, tests/e2e): against NVIDIA's
// runtime with -cudart=shared, for minicudart with no runtime (it binds to the program's).
// A plugin of its own, not stress_plugin: run.sh builds each program's plugin in that program's
// build job, so two programs sharing one would write the same files at once.
#include <cuda_runtime.h>

__device__ unsigned soak_plugin_table[1 << 20];

// One step: data[i] = (data[i] ^ mul) + 3 * add + i (soak_api.cu checks it on the host); the
// table's elements are 0 (never written): adding one changes nothing, and uses the array.
extern "C" __global__ void soak_plugin_step(unsigned *data, int n, unsigned mul, unsigned add)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] = (data[i] ^ mul) + 3u * add + (unsigned)i + soak_plugin_table[i & 1023];
}

// Launches soak_plugin_step on stream s; returns the launch's error (the thread's last error,
// which this reads and clears).
extern "C" int soak_plugin_launch(unsigned *data, int n, unsigned mul, unsigned add,
                                  cudaStream_t s)
{
    soak_plugin_step<<<(n + 255) / 256, 256, 0, s>>>(data, n, mul, add);
    return (int)cudaGetLastError();
}
