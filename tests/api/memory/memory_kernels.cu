// Variables and the per-thread-stream wrappers for test_memory.c: the C test cannot reach the
// template symbol APIs or the _ptsz/_ptds renaming, so these extern "C" wrappers do.
#include <cuda_runtime.h>

__device__ int mem_dvar = 5;
__constant__ float mem_cvar[8] = {1.0f, 2.0f, 3.0f};

__global__ void mem_touch(float *out) { out[threadIdx.x] = mem_cvar[threadIdx.x] + mem_dvar; }

extern "C" const void *mem_dvar_symbol(void) { return (const void *)&mem_dvar; }
extern "C" const void *mem_cvar_symbol(void) { return (const void *)&mem_cvar; }

// Compiled with -default-stream per-thread these call the _ptsz / _ptds entry points.
extern "C" cudaError_t mem_copy_async(void *dst, const void *src, size_t n, cudaStream_t s)
{
    return cudaMemcpyAsync(dst, src, n, cudaMemcpyDefault, s);
}
extern "C" cudaError_t mem_set_async(void *p, int v, size_t n, cudaStream_t s)
{
    return cudaMemsetAsync(p, v, n, s);
}
extern "C" cudaError_t mem_copy_2d(void *dst, size_t dp, const void *src, size_t sp, size_t w,
                                   size_t h)
{
    return cudaMemcpy2D(dst, dp, src, sp, w, h, cudaMemcpyDefault);
}
extern "C" cudaError_t mem_copy_2d_async(void *dst, size_t dp, const void *src, size_t sp,
                                         size_t w, size_t h, cudaStream_t s)
{
    return cudaMemcpy2DAsync(dst, dp, src, sp, w, h, cudaMemcpyDefault, s);
}
extern "C" cudaError_t mem_set_2d(void *p, size_t pitch, int v, size_t w, size_t h)
{
    return cudaMemset2D(p, pitch, v, w, h);
}
extern "C" cudaError_t mem_set_2d_async(void *p, size_t pitch, int v, size_t w, size_t h,
                                        cudaStream_t s)
{
    return cudaMemset2DAsync(p, pitch, v, w, h, s);
}
extern "C" cudaError_t mem_copy_3d(const cudaMemcpy3DParms *p) { return cudaMemcpy3D(p); }
extern "C" cudaError_t mem_copy_3d_async(const cudaMemcpy3DParms *p, cudaStream_t s)
{
    return cudaMemcpy3DAsync(p, s);
}
extern "C" cudaError_t mem_set_3d(cudaPitchedPtr p, int v, cudaExtent e)
{
    return cudaMemset3D(p, v, e);
}
extern "C" cudaError_t mem_set_3d_async(cudaPitchedPtr p, int v, cudaExtent e, cudaStream_t s)
{
    return cudaMemset3DAsync(p, v, e, s);
}
extern "C" cudaError_t mem_copy_3d_peer(const cudaMemcpy3DPeerParms *p)
{
    return cudaMemcpy3DPeer(p);
}
extern "C" cudaError_t mem_copy_3d_peer_async(const cudaMemcpy3DPeerParms *p, cudaStream_t s)
{
    return cudaMemcpy3DPeerAsync(p, s);
}
extern "C" cudaError_t mem_to_symbol_async(const void *src, size_t n, cudaStream_t s)
{
    return cudaMemcpyToSymbolAsync(mem_dvar, src, n, 0, cudaMemcpyHostToDevice, s);
}
extern "C" cudaError_t mem_from_symbol_async(void *dst, size_t n, cudaStream_t s)
{
    return cudaMemcpyFromSymbolAsync(dst, mem_dvar, n, 0, cudaMemcpyDeviceToHost, s);
}
extern "C" cudaError_t mem_prefetch(const void *p, size_t n, cudaStream_t s)
{
    cudaMemLocation loc = {cudaMemLocationTypeDevice, 0};
    return cudaMemPrefetchAsync(p, n, loc, 0, s);
}
extern "C" cudaError_t mem_attach(cudaStream_t s, void *p)
{
    return cudaStreamAttachMemAsync(s, p, 0, cudaMemAttachSingle);
}
