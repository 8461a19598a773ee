/*
 * memcpy.c - pitched memory: cudaMallocPitch / cudaMalloc3D, and the 2D and 3D copies and sets.
 *
 * Both sides of a copy are handed to the driver as CU_MEMORYTYPE_UNIFIED (or _ARRAY for a CUDA
 * array): with unified addressing the driver finds out from the pointer where the memory lives,
 * as cuMemcpy does for cudaMemcpy, so a `kind` that contradicts the pointers still copies, as
 * with NVIDIA's runtime; the kind is only checked to be one of the five values.
 *
 * Every operation has three modes: synchronous (legacy stream), synchronous on the per-thread
 * stream (the _ptds entry points, through the driver's _ptds functions) and asynchronous on a
 * stream (the driver's *Async functions; in a _ptsz entry point stream 0 is the per-thread
 * stream).
 */
#include <string.h>

#include "memory/memory.h"

/* The external definition of these inline helpers of memory/memory.h (RT_INLINE, core/core.h). */
extern inline bool rt_memcpy_kind_valid(enum cudaMemcpyKind kind);
extern inline CUdeviceptr rt_dptr(const void *p);

/* How an operation is ordered. */
typedef struct rt_order {
    bool async;                 /* on `stream`, through the driver's *Async entry point */
    bool per_thread;            /* synchronous on the per-thread stream (_ptds) */
    CUstream stream;
} rt_order;

static const rt_order rt_sync = {false, false, NULL};
static const rt_order rt_sync_ptds = {false, true, NULL};

static rt_order rt_async(cudaStream_t stream, bool per_thread)
{
    rt_order o = {true, false, rt_stream(stream, per_thread)};
    return o;
}

/* cuMemAllocPitch's ElementSizeBytes: the widest access a kernel may make (4, 8 or 16); 16 gives
 * a pitch that suits every element type. */
#define RT_PITCH_ELEMENT_SIZE 16

/* ---- pitched allocations -------------------------------------------------------------------- */

static cudaError_t rt_alloc_pitch(size_t width, size_t rows, CUdeviceptr *ptr, size_t *pitch)
{
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        return e;
    *ptr = 0;
    *pitch = 0;
    if (width == 0 || rows == 0)
        return cudaSuccess;     /* as cudaMalloc(0): nothing allocated, a NULL pointer */
    return rt_driver_result(d, rt_drv.cuMemAllocPitch(ptr, pitch, width, rows,
                                                      RT_PITCH_ELEMENT_SIZE));
}

RT_API cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height)
{
    RT_ENTER();
    if (!devPtr || !pitch)
        RT_RETURN(cudaErrorInvalidValue);
    CUdeviceptr p = 0;
    size_t row = 0;
    cudaError_t e = rt_alloc_pitch(width, height, &p, &row);
    if (e == cudaSuccess) {
        *devPtr = (void *)(uintptr_t)p;
        *pitch = row;
    }
    RT_RETURN(e);
}

RT_API cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr, struct cudaExtent extent)
{
    RT_ENTER();
    if (!pitchedDevPtr)
        RT_RETURN(cudaErrorInvalidValue);
    if (extent.depth && extent.height > SIZE_MAX / extent.depth)
        RT_RETURN(cudaErrorMemoryAllocation);
    CUdeviceptr p = 0;
    size_t row = 0;
    cudaError_t e = rt_alloc_pitch(extent.width, extent.height * extent.depth, &p, &row);
    if (e == cudaSuccess) {
        pitchedDevPtr->ptr = (void *)(uintptr_t)p;
        pitchedDevPtr->pitch = row;
        pitchedDevPtr->xsize = extent.width;
        pitchedDevPtr->ysize = extent.height;
    }
    RT_RETURN(e);
}

/* ---- 2D copies and sets --------------------------------------------------------------------- */

static cudaError_t rt_memcpy2d(void *dst, size_t dpitch, const void *src, size_t spitch,
                               size_t width, size_t height, enum cudaMemcpyKind kind, rt_order o)
{
    if (!rt_memcpy_kind_valid(kind))
        return cudaErrorInvalidMemcpyDirection;
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess || width == 0 || height == 0)
        return e;
    if (!dst || !src)
        return cudaErrorInvalidValue;
    if (width > dpitch || width > spitch)
        return cudaErrorInvalidPitchValue;
    CUDA_MEMCPY2D c = {
        .srcMemoryType = CU_MEMORYTYPE_UNIFIED, .srcDevice = rt_dptr(src), .srcPitch = spitch,
        .dstMemoryType = CU_MEMORYTYPE_UNIFIED, .dstDevice = rt_dptr(dst), .dstPitch = dpitch,
        .WidthInBytes = width, .Height = height,
    };
    /* cuMemcpy2D may refuse pitches that cuMemAllocPitch would not give; the unaligned form
     * takes any.  The asynchronous form has no such variant. */
    CUresult r = o.async ? rt_drv.cuMemcpy2DAsync(&c, o.stream)
                 : o.per_thread ? rt_drv.cuMemcpy2DUnaligned_ptds(&c)
                                : rt_drv.cuMemcpy2DUnaligned(&c);
    return rt_driver_result(d, r);
}

/* The one body of cudaMemcpy2D, cudaMemcpy2D_ptds, cudaMemcpy2DAsync and cudaMemcpy2DAsync_ptsz
 * (RT_FORWARD). */
static cudaError_t rt_memcpy2d_api(void *dst, size_t dpitch, const void *src, size_t spitch,
                                   size_t width, size_t height, enum cudaMemcpyKind kind,
                                   rt_order o, rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_memcpy2d(dst, dpitch, src, spitch, width, height, kind, o));
}

RT_API cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch,
                                size_t width, size_t height, enum cudaMemcpyKind kind)
{
    RT_FORWARD(rt_memcpy2d_api(dst, dpitch, src, spitch, width, height, kind, rt_sync, RT_SELF));
}

RT_API cudaError_t cudaMemcpy2D_ptds(void *dst, size_t dpitch, const void *src, size_t spitch,
                                     size_t width, size_t height, enum cudaMemcpyKind kind)
{
    RT_FORWARD(rt_memcpy2d_api(dst, dpitch, src, spitch, width, height, kind, rt_sync_ptds,
                               RT_SELF));
}

RT_API cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                                     size_t width, size_t height, enum cudaMemcpyKind kind,
                                     cudaStream_t stream)
{
    RT_FORWARD(rt_memcpy2d_api(dst, dpitch, src, spitch, width, height, kind,
                               rt_async(stream, false), RT_SELF));
}

RT_API cudaError_t cudaMemcpy2DAsync_ptsz(void *dst, size_t dpitch, const void *src,
                                          size_t spitch, size_t width, size_t height,
                                          enum cudaMemcpyKind kind, cudaStream_t stream)
{
    RT_FORWARD(rt_memcpy2d_api(dst, dpitch, src, spitch, width, height, kind,
                               rt_async(stream, true), RT_SELF));
}

/* Sets `rows` rows of `width` bytes, `pitch` apart.  The caller entered the context. */
static CUresult rt_set_rows(CUdeviceptr p, size_t pitch, unsigned char value, size_t width,
                            size_t rows, rt_order o)
{
    if (rows == 1)
        pitch = width;          /* the pitch is unused for one row: any value is accepted */
    return o.async ? rt_drv.cuMemsetD2D8Async(p, pitch, value, width, rows, o.stream)
           : o.per_thread ? rt_drv.cuMemsetD2D8_ptds(p, pitch, value, width, rows)
                          : rt_drv.cuMemsetD2D8(p, pitch, value, width, rows);
}

static cudaError_t rt_memset2d(void *devPtr, size_t pitch, int value, size_t width,
                               size_t height, rt_order o)
{
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess || width == 0 || height == 0)
        return e;
    if (!devPtr || (height > 1 && width > pitch))
        return cudaErrorInvalidValue;
    return rt_driver_result(d, rt_set_rows(rt_dptr(devPtr), pitch, (unsigned char)value, width,
                                           height, o));
}

/* The one body of cudaMemset2D, cudaMemset2D_ptds, cudaMemset2DAsync and cudaMemset2DAsync_ptsz
 * (RT_FORWARD). */
static cudaError_t rt_memset2d_api(void *devPtr, size_t pitch, int value, size_t width,
                                   size_t height, rt_order o, rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_memset2d(devPtr, pitch, value, width, height, o));
}

RT_API cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width,
                                size_t height)
{
    RT_FORWARD(rt_memset2d_api(devPtr, pitch, value, width, height, rt_sync, RT_SELF));
}

RT_API cudaError_t cudaMemset2D_ptds(void *devPtr, size_t pitch, int value, size_t width,
                                     size_t height)
{
    RT_FORWARD(rt_memset2d_api(devPtr, pitch, value, width, height, rt_sync_ptds, RT_SELF));
}

RT_API cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width,
                                     size_t height, cudaStream_t stream)
{
    RT_FORWARD(rt_memset2d_api(devPtr, pitch, value, width, height, rt_async(stream, false),
                               RT_SELF));
}

RT_API cudaError_t cudaMemset2DAsync_ptsz(void *devPtr, size_t pitch, int value, size_t width,
                                          size_t height, cudaStream_t stream)
{
    RT_FORWARD(rt_memset2d_api(devPtr, pitch, value, width, height, rt_async(stream, true),
                               RT_SELF));
}

/* ---- 3D sets -------------------------------------------------------------------------------- */

/* extent.width is in bytes; slices are pitch * ysize bytes apart. */
static cudaError_t rt_memset3d(struct cudaPitchedPtr p, int value, struct cudaExtent extent,
                               rt_order o)
{
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess || extent.width == 0 || extent.height == 0 || extent.depth == 0)
        return e;
    bool one_row = extent.height == 1 && extent.depth == 1;
    if (!p.ptr || (!one_row && extent.width > p.pitch) ||
        (extent.depth > 1 && extent.height > p.ysize))
        return cudaErrorInvalidValue;
    unsigned char byte = (unsigned char)value;
    CUdeviceptr base = rt_dptr(p.ptr);
    if (extent.depth == 1 || extent.height == p.ysize) {
        /* the slices are contiguous rows: one call */
        if (extent.height > SIZE_MAX / extent.depth)
            return cudaErrorInvalidValue;
        return rt_driver_result(d, rt_set_rows(base, p.pitch, byte, extent.width,
                                               extent.height * extent.depth, o));
    }
    size_t slice = p.pitch * p.ysize;
    for (size_t z = 0; z < extent.depth; z++) {
        e = rt_driver_result(d, rt_set_rows(base + z * slice, p.pitch, byte, extent.width,
                                            extent.height, o));
        if (e != cudaSuccess)
            return e;
    }
    return cudaSuccess;
}

/* The one body of cudaMemset3D, cudaMemset3D_ptds, cudaMemset3DAsync and cudaMemset3DAsync_ptsz
 * (RT_FORWARD). */
static cudaError_t rt_memset3d_api(struct cudaPitchedPtr p, int value, struct cudaExtent extent,
                                   rt_order o, rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_memset3d(p, value, extent, o));
}

RT_API cudaError_t cudaMemset3D(struct cudaPitchedPtr pitchedDevPtr, int value,
                                struct cudaExtent extent)
{
    RT_FORWARD(rt_memset3d_api(pitchedDevPtr, value, extent, rt_sync, RT_SELF));
}

RT_API cudaError_t cudaMemset3D_ptds(struct cudaPitchedPtr pitchedDevPtr, int value,
                                     struct cudaExtent extent)
{
    RT_FORWARD(rt_memset3d_api(pitchedDevPtr, value, extent, rt_sync_ptds, RT_SELF));
}

RT_API cudaError_t cudaMemset3DAsync(struct cudaPitchedPtr pitchedDevPtr, int value,
                                     struct cudaExtent extent, cudaStream_t stream)
{
    RT_FORWARD(rt_memset3d_api(pitchedDevPtr, value, extent, rt_async(stream, false), RT_SELF));
}

RT_API cudaError_t cudaMemset3DAsync_ptsz(struct cudaPitchedPtr pitchedDevPtr, int value,
                                          struct cudaExtent extent, cudaStream_t stream)
{
    RT_FORWARD(rt_memset3d_api(pitchedDevPtr, value, extent, rt_async(stream, true), RT_SELF));
}

/* ---- 3D copies ------------------------------------------------------------------------------ */

size_t rt_array_element_size(const CUDA_ARRAY3D_DESCRIPTOR *desc)
{
    size_t component;
    switch (desc->Format) {
    case CU_AD_FORMAT_UNSIGNED_INT8: case CU_AD_FORMAT_SIGNED_INT8:
    case CU_AD_FORMAT_UNORM_INT8X1: case CU_AD_FORMAT_UNORM_INT8X2:
    case CU_AD_FORMAT_UNORM_INT8X4: case CU_AD_FORMAT_SNORM_INT8X1:
    case CU_AD_FORMAT_SNORM_INT8X2: case CU_AD_FORMAT_SNORM_INT8X4:
        component = 1;
        break;
    case CU_AD_FORMAT_UNSIGNED_INT16: case CU_AD_FORMAT_SIGNED_INT16: case CU_AD_FORMAT_HALF:
    case CU_AD_FORMAT_UNORM_INT16X1: case CU_AD_FORMAT_UNORM_INT16X2:
    case CU_AD_FORMAT_UNORM_INT16X4: case CU_AD_FORMAT_SNORM_INT16X1:
    case CU_AD_FORMAT_SNORM_INT16X2: case CU_AD_FORMAT_SNORM_INT16X4:
        component = 2;
        break;
    case CU_AD_FORMAT_UNSIGNED_INT32: case CU_AD_FORMAT_SIGNED_INT32: case CU_AD_FORMAT_FLOAT:
        component = 4;
        break;
    default:
        return 0;
    }
    return component * desc->NumChannels;
}

/* Fills one side of a CUDA_MEMCPY3D from (array or pitched pointer, position).  Positions count
 * elements of the array when one takes part, bytes otherwise: `element` is that size. */
static void rt_copy_side(CUarray array, struct cudaPitchedPtr ptr, struct cudaPos pos,
                         size_t element, CUmemorytype *type, CUdeviceptr *device,
                         CUarray *cu_array, size_t *pitch, size_t *height, size_t *x, size_t *y,
                         size_t *z)
{
    if (array) {
        *type = CU_MEMORYTYPE_ARRAY;
        *cu_array = array;
        *x = pos.x * element;
    } else {
        *type = CU_MEMORYTYPE_UNIFIED;
        *device = rt_dptr(ptr.ptr);
        *pitch = ptr.pitch;
        *height = ptr.ysize;
        *x = pos.x;
    }
    *y = pos.y;
    *z = pos.z;
}

/* Translates cudaMemcpy3DParms into the driver's CUDA_MEMCPY3D (the context is current). */
static cudaError_t rt_memcpy3d_parms(const struct cudaMemcpy3DParms *p, CUDA_MEMCPY3D *c)
{
    if ((p->srcArray && p->srcPtr.ptr) || (p->dstArray && p->dstPtr.ptr) ||
        (!p->srcArray && !p->srcPtr.ptr) || (!p->dstArray && !p->dstPtr.ptr))
        return cudaErrorInvalidValue;
    size_t element = 1;
    CUarray array = p->srcArray ? (CUarray)p->srcArray : (CUarray)p->dstArray;
    if (array) {
        CUDA_ARRAY3D_DESCRIPTOR desc;
        cudaError_t e = rt_error_from_cu(rt_drv.cuArray3DGetDescriptor(&desc, array));
        if (e != cudaSuccess)
            return e;
        element = rt_array_element_size(&desc);
        if (element == 0) {
            RT_TRACE("cudaMemcpy3D: array format 0x%x: copies of it not implemented",
                     (unsigned)desc.Format);
            return cudaErrorNotSupported;
        }
    }
    memset(c, 0, sizeof *c);
    rt_copy_side((CUarray)p->srcArray, p->srcPtr, p->srcPos, element, &c->srcMemoryType,
                 &c->srcDevice, &c->srcArray, &c->srcPitch, &c->srcHeight, &c->srcXInBytes,
                 &c->srcY, &c->srcZ);
    rt_copy_side((CUarray)p->dstArray, p->dstPtr, p->dstPos, element, &c->dstMemoryType,
                 &c->dstDevice, &c->dstArray, &c->dstPitch, &c->dstHeight, &c->dstXInBytes,
                 &c->dstY, &c->dstZ);
    c->WidthInBytes = p->extent.width * element;
    c->Height = p->extent.height;
    c->Depth = p->extent.depth;
    return cudaSuccess;
}

static cudaError_t rt_memcpy3d(const struct cudaMemcpy3DParms *p, rt_order o)
{
    if (!p)
        return cudaErrorInvalidValue;
    if (!rt_memcpy_kind_valid(p->kind))
        return cudaErrorInvalidMemcpyDirection;
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        return e;
    CUDA_MEMCPY3D c;
    e = rt_memcpy3d_parms(p, &c);
    if (e != cudaSuccess)
        return e;
    if (c.WidthInBytes == 0 || c.Height == 0 || c.Depth == 0)
        return cudaSuccess;
    /* A row wider than a pointer side's pitch: NVIDIA's runtime answers as cudaMemcpy2D does
     * (H200), where the driver would say cudaErrorInvalidValue. */
    if ((c.srcMemoryType != CU_MEMORYTYPE_ARRAY && c.WidthInBytes > c.srcPitch) ||
        (c.dstMemoryType != CU_MEMORYTYPE_ARRAY && c.WidthInBytes > c.dstPitch))
        return cudaErrorInvalidPitchValue;
    CUresult r = o.async ? rt_drv.cuMemcpy3DAsync(&c, o.stream)
                 : o.per_thread ? rt_drv.cuMemcpy3D_ptds(&c) : rt_drv.cuMemcpy3D(&c);
    return rt_driver_result(d, r);
}

/* The one body of cudaMemcpy3D, cudaMemcpy3D_ptds, cudaMemcpy3DAsync and cudaMemcpy3DAsync_ptsz
 * (RT_FORWARD). */
static cudaError_t rt_memcpy3d_api(const struct cudaMemcpy3DParms *p, rt_order o, rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_memcpy3d(p, o));
}

RT_API cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p)
{
    RT_FORWARD(rt_memcpy3d_api(p, rt_sync, RT_SELF));
}

RT_API cudaError_t cudaMemcpy3D_ptds(const struct cudaMemcpy3DParms *p)
{
    RT_FORWARD(rt_memcpy3d_api(p, rt_sync_ptds, RT_SELF));
}

RT_API cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t stream)
{
    RT_FORWARD(rt_memcpy3d_api(p, rt_async(stream, false), RT_SELF));
}

RT_API cudaError_t cudaMemcpy3DAsync_ptsz(const struct cudaMemcpy3DParms *p, cudaStream_t stream)
{
    RT_FORWARD(rt_memcpy3d_api(p, rt_async(stream, true), RT_SELF));
}

/* A 3D copy between devices: with unified addressing the pointers (and arrays) name their
 * devices, so once the ordinals are checked it is a 3D copy of inferred direction. */
static cudaError_t rt_memcpy3d_peer(const struct cudaMemcpy3DPeerParms *p, rt_order o)
{
    if (!p)
        return cudaErrorInvalidValue;
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        return e;
    if (p->srcDevice < 0 || p->srcDevice >= rt_device_count || p->dstDevice < 0 ||
        p->dstDevice >= rt_device_count)
        return cudaErrorInvalidDevice;
    struct cudaMemcpy3DParms q = {
        .srcArray = p->srcArray, .srcPos = p->srcPos, .srcPtr = p->srcPtr,
        .dstArray = p->dstArray, .dstPos = p->dstPos, .dstPtr = p->dstPtr,
        .extent = p->extent, .kind = cudaMemcpyDefault,
    };
    return rt_memcpy3d(&q, o);
}

/* The one body of cudaMemcpy3DPeer, cudaMemcpy3DPeer_ptds, cudaMemcpy3DPeerAsync and
 * cudaMemcpy3DPeerAsync_ptsz (RT_FORWARD). */
static cudaError_t rt_memcpy3d_peer_api(const struct cudaMemcpy3DPeerParms *p, rt_order o,
                                        rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_memcpy3d_peer(p, o));
}

RT_API cudaError_t cudaMemcpy3DPeer(const struct cudaMemcpy3DPeerParms *p)
{
    RT_FORWARD(rt_memcpy3d_peer_api(p, rt_sync, RT_SELF));
}

RT_API cudaError_t cudaMemcpy3DPeer_ptds(const struct cudaMemcpy3DPeerParms *p)
{
    RT_FORWARD(rt_memcpy3d_peer_api(p, rt_sync_ptds, RT_SELF));
}

RT_API cudaError_t cudaMemcpy3DPeerAsync(const struct cudaMemcpy3DPeerParms *p,
                                         cudaStream_t stream)
{
    RT_FORWARD(rt_memcpy3d_peer_api(p, rt_async(stream, false), RT_SELF));
}

RT_API cudaError_t cudaMemcpy3DPeerAsync_ptsz(const struct cudaMemcpy3DPeerParms *p,
                                              cudaStream_t stream)
{
    RT_FORWARD(rt_memcpy3d_peer_api(p, rt_async(stream, true), RT_SELF));
}
