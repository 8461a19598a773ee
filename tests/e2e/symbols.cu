// __device__ and __constant__ variables reached through the symbol APIs.
#include <cuda_runtime.h>

__device__ int dvar = 7;
__constant__ float cvar[16] = {1.0f, 2.0f};

__global__ void use_symbols(float *out) { out[threadIdx.x] = cvar[threadIdx.x] + dvar; }

extern "C" cudaError_t e2e_dvar_read(int *out) { return cudaMemcpyFromSymbol(out, dvar, sizeof *out); }
extern "C" cudaError_t e2e_dvar_write(int v) { return cudaMemcpyToSymbol(dvar, &v, sizeof v); }
extern "C" cudaError_t e2e_cvar_write(const float *v, size_t n, size_t offset)
{
    return cudaMemcpyToSymbol(cvar, v, n * sizeof *v, offset * sizeof *v);
}
extern "C" cudaError_t e2e_cvar_read(float *v, size_t n) { return cudaMemcpyFromSymbol(v, cvar, n * sizeof *v); }
extern "C" void e2e_use_symbols(float *out) { use_symbols<<<1, 16>>>(out); }
