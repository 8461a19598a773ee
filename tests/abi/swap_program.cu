// swap_program.cu - built like any program for NVIDIA's shared runtime (-cudart=shared), then run
// once on NVIDIA's libcudart.so.13 and once on minicudart's: the CUDA answers must be the same.
// The first line says which runtime answered (the only line allowed to differ).
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <stdio.h>

__global__ void scale(float *x, float f, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= f;
}

static void show(const char *what, cudaError_t e)
{
    printf("%-28s -> %d %s (%s)\n", what, (int)e, cudaGetErrorName(e), cudaGetErrorString(e));
}

int main(void)
{
    printf("runtime: %s\n", dlsym(RTLD_DEFAULT, "minicudart_set_trace_hook") ? "minicudart" : "NVIDIA");
    int count = -1, version = -1;
    show("cudaGetDeviceCount", cudaGetDeviceCount(&count));
    show("cudaRuntimeGetVersion", cudaRuntimeGetVersion(&version));
    printf("runtime version %d\n", version);
    show("cudaGetLastError", cudaGetLastError());
    float *x = NULL;
    cudaError_t e = cudaMalloc(&x, 256 * sizeof(float));
    show("cudaMalloc", e);
    scale<<<1, 256>>>(x, 2.0f, 256);
    show("launch, cudaGetLastError", cudaGetLastError());
    show("cudaDeviceSynchronize", cudaDeviceSynchronize());
    if (e == cudaSuccess)
        show("cudaFree", cudaFree(x));
    show("cudaGetErrorName(9999)", (cudaError_t)9999);
    return 0;
}
