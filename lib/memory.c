/*
 * memory.c - device memory and the variables nvcc registered.
 *
 * Pointers are the driver's own (cudaMalloc returns the CUdeviceptr of cuMemAlloc unchanged), so
 * a pointer from minicudart is valid in every library that shares the primary context.  Copies go
 * through cuMemcpy, which with unified addressing works out the direction from the pointers; the
 * `kind` argument is still checked, as NVIDIA's runtime does.
 *
 * Symbols: nvcc keeps a host "shadow" for every __device__ / __constant__ variable and passes its
 * address to cudaMemcpyToSymbol and friends; register.c maps it to (module, name), and the
 * device address comes from cuModuleGetGlobal in the module loaded on this device.
 */
#include <string.h>

#include "internal.h"

RT_API cudaError_t cudaMalloc(void **devPtr, size_t size)
{
    if (!devPtr)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    if (size == 0) {
        *devPtr = NULL;
        return cudaSuccess;
    }
    CUdeviceptr p = 0;
    e = rt_error_from_cu(rt_drv.cuMemAlloc(&p, size));
    rt_device_note_error(d, e);
    if (e == cudaSuccess)
        *devPtr = (void *)(uintptr_t)p;
    RT_RETURN(e);
}

RT_API cudaError_t cudaFree(void *devPtr)
{
    /* cudaFree(NULL) is the customary way to initialise the runtime: it still needs a context. */
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess || !devPtr)
        RT_RETURN(e);
    e = rt_error_from_cu(rt_drv.cuMemFree((CUdeviceptr)(uintptr_t)devPtr));
    rt_device_note_error(d, e);
    RT_RETURN(e);
}

static bool rt_memcpy_kind_valid(enum cudaMemcpyKind kind)
{
    return kind == cudaMemcpyHostToHost || kind == cudaMemcpyHostToDevice ||
           kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice ||
           kind == cudaMemcpyDefault;
}

/* The synchronous copy; per_thread: the _ptds entry point, ordered on the per-thread stream. */
static cudaError_t rt_memcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                             bool per_thread)
{
    if (!rt_memcpy_kind_valid(kind))
        return cudaErrorInvalidMemcpyDirection;
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess || count == 0)
        return e;
    if (!dst || !src)
        return cudaErrorInvalidValue;
    PFN_cuMemcpy_v4000 copy = per_thread ? rt_drv.cuMemcpy_ptds : rt_drv.cuMemcpy;
    e = rt_error_from_cu(copy((CUdeviceptr)(uintptr_t)dst, (CUdeviceptr)(uintptr_t)src, count));
    rt_device_note_error(d, e);
    return e;
}

RT_API cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
    RT_RETURN(rt_memcpy(dst, src, count, kind, false));
}

RT_API cudaError_t cudaMemcpy_ptds(void *dst, const void *src, size_t count,
                                   enum cudaMemcpyKind kind)
{
    RT_RETURN(rt_memcpy(dst, src, count, kind, true));
}

static cudaError_t rt_memset(void *devPtr, int value, size_t count, bool per_thread)
{
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess || count == 0)
        return e;
    if (!devPtr)
        return cudaErrorInvalidValue;
    PFN_cuMemsetD8_v3020 set = per_thread ? rt_drv.cuMemsetD8_ptds : rt_drv.cuMemsetD8;
    e = rt_error_from_cu(set((CUdeviceptr)(uintptr_t)devPtr, (unsigned char)value, count));
    rt_device_note_error(d, e);
    return e;
}

RT_API cudaError_t cudaMemset(void *devPtr, int value, size_t count)
{
    RT_RETURN(rt_memset(devPtr, value, count, false));
}

RT_API cudaError_t cudaMemset_ptds(void *devPtr, int value, size_t count)
{
    RT_RETURN(rt_memset(devPtr, value, count, true));
}

/* ---- symbols -------------------------------------------------------------------------------- */

/* Resolves a host shadow to [device address + offset, count) on the current device. */
static cudaError_t rt_symbol_span(const void *symbol, size_t count, size_t offset,
                                  CUdeviceptr *out)
{
    rt_var *v = rt_var_find(symbol);
    if (!v)
        return cudaErrorInvalidSymbol;
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        return e;
    CUdeviceptr base = 0;
    size_t size = 0;
    e = rt_var_address(v, d, &base, &size);
    if (e != cudaSuccess)
        return e;
    if (offset > size || count > size - offset)
        return cudaErrorInvalidValue;
    *out = base + offset;
    return cudaSuccess;
}

static cudaError_t rt_memcpy_to_symbol(const void *symbol, const void *src, size_t count,
                                       size_t offset, enum cudaMemcpyKind kind, bool per_thread)
{
    if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice &&
        kind != cudaMemcpyDefault)
        return cudaErrorInvalidMemcpyDirection;
    CUdeviceptr dst = 0;
    cudaError_t e = rt_symbol_span(symbol, count, offset, &dst);
    if (e != cudaSuccess)
        return e;
    return rt_memcpy((void *)(uintptr_t)dst, src, count, kind, per_thread);
}

static cudaError_t rt_memcpy_from_symbol(void *dst, const void *symbol, size_t count,
                                         size_t offset, enum cudaMemcpyKind kind,
                                         bool per_thread)
{
    if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice &&
        kind != cudaMemcpyDefault)
        return cudaErrorInvalidMemcpyDirection;
    CUdeviceptr src = 0;
    cudaError_t e = rt_symbol_span(symbol, count, offset, &src);
    if (e != cudaSuccess)
        return e;
    return rt_memcpy(dst, (const void *)(uintptr_t)src, count, kind, per_thread);
}

RT_API cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count,
                                      size_t offset, enum cudaMemcpyKind kind)
{
    RT_RETURN(rt_memcpy_to_symbol(symbol, src, count, offset, kind, false));
}

RT_API cudaError_t cudaMemcpyToSymbol_ptds(const void *symbol, const void *src, size_t count,
                                           size_t offset, enum cudaMemcpyKind kind)
{
    RT_RETURN(rt_memcpy_to_symbol(symbol, src, count, offset, kind, true));
}

RT_API cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count,
                                        size_t offset, enum cudaMemcpyKind kind)
{
    RT_RETURN(rt_memcpy_from_symbol(dst, symbol, count, offset, kind, false));
}

RT_API cudaError_t cudaMemcpyFromSymbol_ptds(void *dst, const void *symbol, size_t count,
                                             size_t offset, enum cudaMemcpyKind kind)
{
    RT_RETURN(rt_memcpy_from_symbol(dst, symbol, count, offset, kind, true));
}
