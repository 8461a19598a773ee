// life_plugin.cu - a shared library with a kernel and 64 MB of __device__ arrays, for
// life_dlclose.cu: loading its module takes that memory on the device, unloading it (dlclose)
// must give it back.  Built like stress_plugin.cu (tests/gpu/run.sh, tests/e2e).
#include <cuda_runtime.h>

__device__ unsigned char life_big_bytes[32 << 20];
__device__ unsigned life_big_words[8 << 20];

// out[i] = i * 3 + 1, and one element of each array touched, so that neither is dropped.
extern "C" __global__ void life_fill(unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = (unsigned)i * 3u + 1u + life_big_bytes[i] + life_big_words[i];
        life_big_words[(unsigned)i * 4099u % (8u << 20)] = 0;
    }
}

// Launches life_fill; returns the launch's error (the thread's last error, read and cleared).
extern "C" int life_plugin_launch(unsigned *out, int n)
{
    life_fill<<<(n + 255) / 256, 256>>>(out, n);
    return (int)cudaGetLastError();
}

// The host stub of life_fill: what <<<>>> and cudaFuncGetAttributes know the kernel by.
extern "C" const void *life_plugin_kernel(void)
{
    return (const void *)life_fill;
}

// Clears both arrays through their symbols (which also makes the fake driver materialise them:
// it keeps a module's globals in host memory from their first use).
extern "C" int life_plugin_clear(void)
{
    void *bytes = NULL, *words = NULL;
    cudaError_t e = cudaGetSymbolAddress(&bytes, life_big_bytes);
    if (e == cudaSuccess)
        e = cudaGetSymbolAddress(&words, life_big_words);
    if (e == cudaSuccess)
        e = cudaMemset(bytes, 0, sizeof life_big_bytes);
    if (e == cudaSuccess)
        e = cudaMemset(words, 0, sizeof life_big_words);
    return (int)e;
}
