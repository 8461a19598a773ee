/*
 * memory.c - device memory and the variables nvcc registered.
 *
 * Pointers are the driver's own (cudaMalloc returns the CUdeviceptr of cuMemAlloc unchanged), so
 * a pointer from minicudart is valid in every library that shares the primary context.  Copies
 * honour their `kind`, as NVIDIA's runtime does (rt_copy_1d): the side a kind calls device memory
 * goes to the driver as device memory, and only cudaMemcpyDefault and cudaMemcpyHostToHost let
 * the driver work out the direction from the pointers (cuMemcpy, unified addressing).
 *
 * The asynchronous forms take a stream, passed to the driver unchanged (rt_stream): in a _ptsz
 * entry point stream 0 is the per-thread stream.  Peer copies are the driver's, between the two
 * devices' primary contexts (rt_memcpy_peer).
 * Host, pinned and managed memory live in memory_host.c; pitched 2D/3D memory in memcpy.c.
 *
 * Symbols: nvcc keeps a host "shadow" for every __device__ / __constant__ variable and passes its
 * address to cudaMemcpyToSymbol and friends; register.c maps it to (module, name), and the
 * device address comes from cuModuleGetGlobal in the module loaded on this device.
 */
#include <string.h>

#include "memory/memory.h"

RT_API cudaError_t cudaMalloc(void **devPtr, size_t size)
{
    RT_ENTER();
    if (!devPtr)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    if (size == 0) {
        *devPtr = NULL;
        RT_RETURN(cudaSuccess);
    }
    CUdeviceptr p = 0;
    e = rt_error_from_cu(rt_drv.cuMemAlloc(&p, size));
    rt_device_note_error(d, e);
    if (e == cudaSuccess) {
        *devPtr = (void *)(uintptr_t)p;
        if (rt_summary_on())
            rt_summary_alloc(size);
    }
    RT_RETURN(e);
}

RT_API cudaError_t cudaFree(void *devPtr)
{
    RT_ENTER();
    /* cudaFree(NULL) is the customary way to initialise the runtime: it still needs a context. */
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess || !devPtr)
        RT_RETURN(e);
    /* The exit summary counts the bytes held: the block's size, from the driver. */
    size_t bytes = 0;
    bool counted = rt_summary_on() && rt_drv.cuMemGetAddressRange &&
                   rt_drv.cuMemGetAddressRange(NULL, &bytes, (CUdeviceptr)(uintptr_t)devPtr) ==
                       CUDA_SUCCESS;
    e = rt_error_from_cu(rt_drv.cuMemFree((CUdeviceptr)(uintptr_t)devPtr));
    rt_device_note_error(d, e);
    if (e == cudaSuccess && counted)
        rt_summary_free(bytes);
    RT_RETURN(e);
}

/*
 * The driver copy of `count` bytes that `kind` names.  NVIDIA's runtime honours the kind
 * (measured on the H200, tests/gpu/conf_misuse_memory.cu): a device-to-host copy from pageable
 * or freed memory is cudaErrorInvalidValue, where cuMemcpy, which works out the direction from
 * the pointers, would take an address it does not know for host memory and read or write it.
 * The device side may be any memory the device addresses (device, managed, page-locked).
 * HostToHost copies device pointers without complaint in NVIDIA's runtime: it infers, like
 * cudaMemcpyDefault.  async: on `stream`; otherwise synchronous, on the per-thread stream when
 * per_thread (_ptds).  kind is one of the five values.
 */
static CUresult rt_copy_1d(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                           bool async, bool per_thread, CUstream stream)
{
    CUdeviceptr to = rt_dptr(dst), from = rt_dptr(src);
    switch (kind) {
    case cudaMemcpyHostToDevice:
        return async ? rt_drv.cuMemcpyHtoDAsync(to, src, count, stream)
               : per_thread ? rt_drv.cuMemcpyHtoD_ptds(to, src, count)
                            : rt_drv.cuMemcpyHtoD(to, src, count);
    case cudaMemcpyDeviceToHost:
        return async ? rt_drv.cuMemcpyDtoHAsync(dst, from, count, stream)
               : per_thread ? rt_drv.cuMemcpyDtoH_ptds(dst, from, count)
                            : rt_drv.cuMemcpyDtoH(dst, from, count);
    case cudaMemcpyDeviceToDevice:
        return async ? rt_drv.cuMemcpyDtoDAsync(to, from, count, stream)
               : per_thread ? rt_drv.cuMemcpyDtoD_ptds(to, from, count)
                            : rt_drv.cuMemcpyDtoD(to, from, count);
    default:
        return async ? rt_drv.cuMemcpyAsync(to, from, count, stream)
               : per_thread ? rt_drv.cuMemcpy_ptds(to, from, count)
                            : rt_drv.cuMemcpy(to, from, count);
    }
}

/* The checks every 1D copy makes, in NVIDIA's order: nothing to copy succeeds whatever the kind
 * and pointers; then the kind; then the pointers. */
static cudaError_t rt_copy_1d_checks(void *dst, const void *src, size_t count,
                                     enum cudaMemcpyKind kind, rt_device **d)
{
    cudaError_t e = rt_context_enter(d);
    if (e != cudaSuccess || count == 0)
        return e;
    if (!rt_memcpy_kind_valid(kind))
        return cudaErrorInvalidMemcpyDirection;
    if (!dst || !src)
        return cudaErrorInvalidValue;
    return cudaSuccess;
}

/* The synchronous copy; per_thread: the _ptds entry point, ordered on the per-thread stream. */
static cudaError_t rt_memcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                             bool per_thread)
{
    rt_device *d;
    cudaError_t e = rt_copy_1d_checks(dst, src, count, kind, &d);
    if (e != cudaSuccess || count == 0)
        return e;
    return rt_driver_result(d, rt_copy_1d(dst, src, count, kind, false, per_thread, NULL));
}

/* The one body of cudaMemcpy and cudaMemcpy_ptds (RT_FORWARD). */
static cudaError_t rt_memcpy_api(void *dst, const void *src, size_t count,
                                 enum cudaMemcpyKind kind, bool per_thread, rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_memcpy(dst, src, count, kind, per_thread));
}

RT_API cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
    RT_FORWARD(rt_memcpy_api(dst, src, count, kind, false, RT_SELF));
}

RT_API cudaError_t cudaMemcpy_ptds(void *dst, const void *src, size_t count,
                                   enum cudaMemcpyKind kind)
{
    RT_FORWARD(rt_memcpy_api(dst, src, count, kind, true, RT_SELF));
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

/* The one body of cudaMemset and cudaMemset_ptds (RT_FORWARD). */
static cudaError_t rt_memset_api(void *devPtr, int value, size_t count, bool per_thread,
                                 rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_memset(devPtr, value, count, per_thread));
}

RT_API cudaError_t cudaMemset(void *devPtr, int value, size_t count)
{
    RT_FORWARD(rt_memset_api(devPtr, value, count, false, RT_SELF));
}

RT_API cudaError_t cudaMemset_ptds(void *devPtr, int value, size_t count)
{
    RT_FORWARD(rt_memset_api(devPtr, value, count, true, RT_SELF));
}

/* ---- asynchronous and peer copies ----------------------------------------------------------- */

/* The asynchronous copy: checks as rt_memcpy, then the kind's copy on the driver stream. */
static cudaError_t rt_memcpy_async(void *dst, const void *src, size_t count,
                                   enum cudaMemcpyKind kind, CUstream stream)
{
    rt_device *d;
    cudaError_t e = rt_copy_1d_checks(dst, src, count, kind, &d);
    if (e != cudaSuccess || count == 0)
        return e;
    return rt_driver_result(d, rt_copy_1d(dst, src, count, kind, true, false, stream));
}

/* The one body of cudaMemcpyAsync and cudaMemcpyAsync_ptsz (RT_FORWARD). */
static cudaError_t rt_memcpy_async_api(void *dst, const void *src, size_t count,
                                       enum cudaMemcpyKind kind, CUstream stream, rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_memcpy_async(dst, src, count, kind, stream));
}

RT_API cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count,
                                   enum cudaMemcpyKind kind, cudaStream_t stream)
{
    RT_FORWARD(rt_memcpy_async_api(dst, src, count, kind, rt_stream(stream, false), RT_SELF));
}

RT_API cudaError_t cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t count,
                                        enum cudaMemcpyKind kind, cudaStream_t stream)
{
    RT_FORWARD(rt_memcpy_async_api(dst, src, count, kind, rt_stream(stream, true), RT_SELF));
}

static cudaError_t rt_memset_async(void *devPtr, int value, size_t count, CUstream stream)
{
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess || count == 0)
        return e;
    if (!devPtr)
        return cudaErrorInvalidValue;
    return rt_driver_result(d, rt_drv.cuMemsetD8Async(rt_dptr(devPtr), (unsigned char)value,
                                                      count, stream));
}

/* The one body of cudaMemsetAsync and cudaMemsetAsync_ptsz (RT_FORWARD). */
static cudaError_t rt_memset_async_api(void *devPtr, int value, size_t count, CUstream stream,
                                       rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_memset_async(devPtr, value, count, stream));
}

RT_API cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream)
{
    RT_FORWARD(rt_memset_async_api(devPtr, value, count, rt_stream(stream, false), RT_SELF));
}

RT_API cudaError_t cudaMemsetAsync_ptsz(void *devPtr, int value, size_t count,
                                        cudaStream_t stream)
{
    RT_FORWARD(rt_memset_async_api(devPtr, value, count, rt_stream(stream, true), RT_SELF));
}

/*
 * A copy between devices: cuMemcpyPeer(Async) with the two devices' primary contexts, initialised
 * if need be (not made current).  NVIDIA documents cudaMemcpyPeer as serialised with all pending
 * and future asynchronous work of the current device, srcDevice and dstDevice, and
 * cudaMemcpyPeerAsync as ordered on `stream` only; the driver's peer copies, which name both
 * contexts, give exactly that (a device-to-device copy in the current context would not wait for
 * the other devices' legacy streams).  Both sides must be memory a device addresses: the driver
 * refuses pageable memory with CUDA_ERROR_INVALID_VALUE and takes page-locked memory, as NVIDIA's
 * runtime does (H200, conf_misuse_memory.cu).
 */
static cudaError_t rt_memcpy_peer(void *dst, int dstDevice, const void *src, int srcDevice,
                                  size_t count, bool async, CUstream stream)
{
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        return e;
    if (dstDevice < 0 || dstDevice >= rt_device_count || srcDevice < 0 ||
        srcDevice >= rt_device_count)
        return cudaErrorInvalidDevice;
    if (count == 0)
        return cudaSuccess;
    if (!dst || !src)
        return cudaErrorInvalidValue;
    rt_device *to = &rt_devices[dstDevice], *from = &rt_devices[srcDevice];
    e = rt_device_activate(to);
    if (e == cudaSuccess)
        e = rt_device_activate(from);
    if (e != cudaSuccess)
        return e;
    CUcontext to_ctx = atomic_load(&to->context), from_ctx = atomic_load(&from->context);
    CUresult r = async ? rt_drv.cuMemcpyPeerAsync(rt_dptr(dst), to_ctx, rt_dptr(src), from_ctx,
                                                  count, stream)
                       : rt_drv.cuMemcpyPeer(rt_dptr(dst), to_ctx, rt_dptr(src), from_ctx, count);
    return rt_driver_result(d, r);
}

/* The one body of cudaMemcpyPeer and cudaMemcpyPeerAsync (RT_FORWARD). */
static cudaError_t rt_memcpy_peer_api(void *dst, int dstDevice, const void *src, int srcDevice,
                                      size_t count, bool async, CUstream stream, rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_memcpy_peer(dst, dstDevice, src, srcDevice, count, async, stream));
}

RT_API cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice,
                                  size_t count)
{
    RT_FORWARD(rt_memcpy_peer_api(dst, dstDevice, src, srcDevice, count, false, NULL, RT_SELF));
}

RT_API cudaError_t cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src, int srcDevice,
                                       size_t count, cudaStream_t stream)
{
    RT_FORWARD(rt_memcpy_peer_api(dst, dstDevice, src, srcDevice, count, true,
                                  rt_stream(stream, false), RT_SELF));
}

/* Either output may be NULL: that value is not returned (NVIDIA's runtime succeeds, H200). */
RT_API cudaError_t cudaMemGetInfo(size_t *free, size_t *total)
{
    RT_ENTER();
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    size_t free_bytes = 0, total_bytes = 0;
    e = rt_driver_result(d, rt_drv.cuMemGetInfo(&free_bytes, &total_bytes));
    if (e == cudaSuccess && free)
        *free = free_bytes;
    if (e == cudaSuccess && total)
        *total = total_bytes;
    RT_RETURN(e);
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

cudaError_t rt_symbol_side(const void *symbol, size_t count, size_t offset,
                                  enum cudaMemcpyKind kind, bool to_symbol, CUdeviceptr *out)
{
    enum cudaMemcpyKind other_side = to_symbol ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
    if (kind != other_side && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        return cudaErrorInvalidMemcpyDirection;
    return rt_symbol_span(symbol, count, offset, out);
}

/* A symbol copy of nothing succeeds before its symbol and its direction are looked at, once the
 * context is entered (NVIDIA's runtime, H200: cudaMemcpyToSymbol(NULL, NULL, 0, 0,
 * cudaMemcpyHostToHost) is cudaSuccess). */
static cudaError_t rt_symbol_copy_nothing(void)
{
    rt_device *d;
    return rt_context_enter(&d);
}

static cudaError_t rt_memcpy_to_symbol(const void *symbol, const void *src, size_t count,
                                       size_t offset, enum cudaMemcpyKind kind, bool per_thread)
{
    if (count == 0)
        return rt_symbol_copy_nothing();
    CUdeviceptr dst = 0;
    cudaError_t e = rt_symbol_side(symbol, count, offset, kind, true, &dst);
    return e != cudaSuccess ? e : rt_memcpy((void *)(uintptr_t)dst, src, count, kind, per_thread);
}

/* The one body of cudaMemcpyToSymbol and cudaMemcpyToSymbol_ptds (RT_FORWARD). */
static cudaError_t rt_memcpy_to_symbol_api(const void *symbol, const void *src, size_t count,
                                           size_t offset, enum cudaMemcpyKind kind,
                                           bool per_thread, rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_memcpy_to_symbol(symbol, src, count, offset, kind, per_thread));
}

static cudaError_t rt_memcpy_from_symbol(void *dst, const void *symbol, size_t count,
                                         size_t offset, enum cudaMemcpyKind kind,
                                         bool per_thread)
{
    if (count == 0)
        return rt_symbol_copy_nothing();
    CUdeviceptr src = 0;
    cudaError_t e = rt_symbol_side(symbol, count, offset, kind, false, &src);
    return e != cudaSuccess ? e
                            : rt_memcpy(dst, (const void *)(uintptr_t)src, count, kind, per_thread);
}

/* The one body of cudaMemcpyFromSymbol and cudaMemcpyFromSymbol_ptds (RT_FORWARD). */
static cudaError_t rt_memcpy_from_symbol_api(void *dst, const void *symbol, size_t count,
                                             size_t offset, enum cudaMemcpyKind kind,
                                             bool per_thread, rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_memcpy_from_symbol(dst, symbol, count, offset, kind, per_thread));
}

RT_API cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count,
                                      size_t offset, enum cudaMemcpyKind kind)
{
    RT_FORWARD(rt_memcpy_to_symbol_api(symbol, src, count, offset, kind, false, RT_SELF));
}

RT_API cudaError_t cudaMemcpyToSymbol_ptds(const void *symbol, const void *src, size_t count,
                                           size_t offset, enum cudaMemcpyKind kind)
{
    RT_FORWARD(rt_memcpy_to_symbol_api(symbol, src, count, offset, kind, true, RT_SELF));
}

RT_API cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count,
                                        size_t offset, enum cudaMemcpyKind kind)
{
    RT_FORWARD(rt_memcpy_from_symbol_api(dst, symbol, count, offset, kind, false, RT_SELF));
}

RT_API cudaError_t cudaMemcpyFromSymbol_ptds(void *dst, const void *symbol, size_t count,
                                             size_t offset, enum cudaMemcpyKind kind)
{
    RT_FORWARD(rt_memcpy_from_symbol_api(dst, symbol, count, offset, kind, true, RT_SELF));
}

/* The asynchronous symbol copies: the same side, then rt_memcpy_async on the stream. */
static cudaError_t rt_memcpy_to_symbol_async(const void *symbol, const void *src, size_t count,
                                             size_t offset, enum cudaMemcpyKind kind,
                                             CUstream stream)
{
    if (count == 0)
        return rt_symbol_copy_nothing();
    CUdeviceptr dst = 0;
    cudaError_t e = rt_symbol_side(symbol, count, offset, kind, true, &dst);
    return e != cudaSuccess ? e
                            : rt_memcpy_async((void *)(uintptr_t)dst, src, count, kind, stream);
}

/* The one body of cudaMemcpyToSymbolAsync and cudaMemcpyToSymbolAsync_ptsz (RT_FORWARD). */
static cudaError_t rt_memcpy_to_symbol_async_api(const void *symbol, const void *src, size_t count,
                                                 size_t offset, enum cudaMemcpyKind kind,
                                                 CUstream stream, rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_memcpy_to_symbol_async(symbol, src, count, offset, kind, stream));
}

static cudaError_t rt_memcpy_from_symbol_async(void *dst, const void *symbol, size_t count,
                                               size_t offset, enum cudaMemcpyKind kind,
                                               CUstream stream)
{
    if (count == 0)
        return rt_symbol_copy_nothing();
    CUdeviceptr src = 0;
    cudaError_t e = rt_symbol_side(symbol, count, offset, kind, false, &src);
    return e != cudaSuccess ? e
                            : rt_memcpy_async(dst, (const void *)(uintptr_t)src, count, kind, stream);
}

/* The one body of cudaMemcpyFromSymbolAsync and cudaMemcpyFromSymbolAsync_ptsz (RT_FORWARD). */
static cudaError_t rt_memcpy_from_symbol_async_api(void *dst, const void *symbol, size_t count,
                                                   size_t offset, enum cudaMemcpyKind kind,
                                                   CUstream stream, rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_memcpy_from_symbol_async(dst, symbol, count, offset, kind, stream));
}

RT_API cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count,
                                           size_t offset, enum cudaMemcpyKind kind,
                                           cudaStream_t stream)
{
    RT_FORWARD(rt_memcpy_to_symbol_async_api(symbol, src, count, offset, kind,
                                             rt_stream(stream, false), RT_SELF));
}

RT_API cudaError_t cudaMemcpyToSymbolAsync_ptsz(const void *symbol, const void *src, size_t count,
                                                size_t offset, enum cudaMemcpyKind kind,
                                                cudaStream_t stream)
{
    RT_FORWARD(rt_memcpy_to_symbol_async_api(symbol, src, count, offset, kind,
                                             rt_stream(stream, true), RT_SELF));
}

RT_API cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count,
                                             size_t offset, enum cudaMemcpyKind kind,
                                             cudaStream_t stream)
{
    RT_FORWARD(rt_memcpy_from_symbol_async_api(dst, symbol, count, offset, kind,
                                               rt_stream(stream, false), RT_SELF));
}

RT_API cudaError_t cudaMemcpyFromSymbolAsync_ptsz(void *dst, const void *symbol, size_t count,
                                                  size_t offset, enum cudaMemcpyKind kind,
                                                  cudaStream_t stream)
{
    RT_FORWARD(rt_memcpy_from_symbol_async_api(dst, symbol, count, offset, kind,
                                               rt_stream(stream, true), RT_SELF));
}

RT_API cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol)
{
    RT_ENTER();
    /* The symbol before the pointer: an unknown one is cudaErrorInvalidSymbol even with a NULL
     * devPtr (NVIDIA's runtime, H200), and so in cudaGetSymbolSize. */
    if (!devPtr)
        RT_RETURN(rt_var_find(symbol) ? cudaErrorInvalidValue : cudaErrorInvalidSymbol);
    CUdeviceptr address = 0;
    cudaError_t e = rt_symbol_span(symbol, 0, 0, &address);
    if (e == cudaSuccess)
        *devPtr = (void *)(uintptr_t)address;
    RT_RETURN(e);
}

RT_API cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol)
{
    RT_ENTER();
    rt_var *v = rt_var_find(symbol);
    if (!v)
        RT_RETURN(cudaErrorInvalidSymbol);
    if (!size)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    CUdeviceptr base = 0;
    size_t bytes = 0;
    e = rt_var_address(v, d, &base, &bytes);
    if (e == cudaSuccess)
        *size = bytes;
    RT_RETURN(e);
}
