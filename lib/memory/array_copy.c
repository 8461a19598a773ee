/*
 * array_copy.c - copies to, from and between CUDA arrays: the cudaMemcpy*Array family, each in
 * its synchronous, _ptds, asynchronous and _ptsz form.
 *
 * The 2D ones are one CUDA_MEMCPY2D with a CU_MEMORYTYPE_ARRAY operand.  The legacy "1D" ones
 * (cudaMemcpyToArray, ...) copy `count` bytes row after row from (wOffset, hOffset): at most
 * three 2D copies (the rest of the first row, the whole rows, the start of the last).  Offsets
 * and widths are bytes, as the runtime's documentation says; the driver's srcXInBytes and
 * WidthInBytes take them unchanged.
 */
#include <string.h>

#include "memory/array.h"

/* ---- copies --------------------------------------------------------------------------------- */

/* How a copy is issued: synchronously (on the legacy or, for _ptds, the per-thread stream) or
 * on a stream (for _ptsz, stream 0 is the per-thread stream). */
typedef struct rt_copy_mode {
    bool async;
    bool per_thread;
    cudaStream_t stream;
} rt_copy_mode;

static const rt_copy_mode rt_sync = {false, false, NULL};
static const rt_copy_mode rt_sync_ptds = {false, true, NULL};

static rt_copy_mode rt_async(cudaStream_t stream, bool per_thread)
{
    rt_copy_mode m = {true, per_thread, stream};
    return m;
}

/* The memory type of the linear operand of a copy to (to_array) or from an array, from the
 * kind: host, device, or unified (cudaMemcpyDefault: the driver tells from the pointer).  A kind
 * that puts the array on the host side is cudaErrorInvalidMemcpyDirection; a value that is no
 * kind at all copies as cudaMemcpyDefault, as NVIDIA's runtime does (cudaMemcpyToArray and
 * cudaMemcpyFromArrayAsync with kind 99 succeeded on the H200). */
static cudaError_t rt_linear_type(enum cudaMemcpyKind kind, bool to_array, CUmemorytype *type)
{
    if (kind == cudaMemcpyDeviceToDevice)
        *type = CU_MEMORYTYPE_DEVICE;
    else if (kind == (to_array ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost))
        *type = CU_MEMORYTYPE_HOST;
    else if (kind == cudaMemcpyHostToHost ||
             kind == (to_array ? cudaMemcpyDeviceToHost : cudaMemcpyHostToDevice))
        return cudaErrorInvalidMemcpyDirection;
    else
        *type = CU_MEMORYTYPE_UNIFIED;
    return cudaSuccess;
}

/* Points one side of a copy at linear memory. */
static void rt_set_linear(CUDA_MEMCPY2D *c, bool source, CUmemorytype type, const void *ptr,
                          size_t pitch)
{
    if (source) {
        c->srcMemoryType = type;
        c->srcHost = type == CU_MEMORYTYPE_HOST ? ptr : NULL;
        c->srcDevice = type == CU_MEMORYTYPE_HOST ? 0 : (CUdeviceptr)(uintptr_t)ptr;
        c->srcPitch = pitch;
    } else {
        c->dstMemoryType = type;
        c->dstHost = type == CU_MEMORYTYPE_HOST ? (void *)(uintptr_t)ptr : NULL;
        c->dstDevice = type == CU_MEMORYTYPE_HOST ? 0 : (CUdeviceptr)(uintptr_t)ptr;
        c->dstPitch = pitch;
    }
}

static void rt_set_array(CUDA_MEMCPY2D *c, bool source, cudaArray_const_t array, size_t x_bytes,
                         size_t y)
{
    if (source) {
        c->srcMemoryType = CU_MEMORYTYPE_ARRAY;
        c->srcArray = (CUarray)array;
        c->srcXInBytes = x_bytes;
        c->srcY = y;
    } else {
        c->dstMemoryType = CU_MEMORYTYPE_ARRAY;
        c->dstArray = (CUarray)array;
        c->dstXInBytes = x_bytes;
        c->dstY = y;
    }
}

/* Issues one 2D copy (the context is current). */
static cudaError_t rt_copy2d(rt_device *d, const CUDA_MEMCPY2D *c, const rt_copy_mode *m)
{
    CUresult r;
    if (m->async)
        r = rt_drv.cuMemcpy2DAsync(c, rt_stream(m->stream, m->per_thread));
    else if (m->per_thread)
        r = rt_drv.cuMemcpy2DUnaligned_ptds(c);
    else
        r = rt_drv.cuMemcpy2DUnaligned(c);
    cudaError_t e = rt_error_from_cu(r);
    rt_device_note_error(d, e);
    return e;
}

/* cudaMemcpy2DToArray and cudaMemcpy2DFromArray: one 2D copy between linear memory (pitch
 * bytes per row) and the array at (x_bytes, y). */
static cudaError_t rt_memcpy_2d_array(cudaArray_const_t array, size_t x_bytes, size_t y,
                                      const void *linear, size_t pitch, size_t width,
                                      size_t height, enum cudaMemcpyKind kind, bool to_array,
                                      const rt_copy_mode *m)
{
    /* A copy of nothing succeeds before its direction is looked at (NVIDIA's runtime, H200). */
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess || width == 0 || height == 0)
        return e;
    CUmemorytype type;
    if ((e = rt_linear_type(kind, to_array, &type)) != cudaSuccess)
        return e;
    if (!array)
        return cudaErrorInvalidResourceHandle;
    if (!linear)
        return cudaErrorInvalidValue;
    if (pitch < width)
        return cudaErrorInvalidPitchValue;
    CUDA_MEMCPY2D c;
    memset(&c, 0, sizeof c);
    rt_set_linear(&c, to_array, type, linear, pitch);
    rt_set_array(&c, !to_array, array, x_bytes, y);
    c.WidthInBytes = width;
    c.Height = height;
    return rt_copy2d(d, &c, m);
}

/* The one body of cudaMemcpy2DToArray, cudaMemcpy2DToArray_ptds, cudaMemcpy2DFromArray and
 * cudaMemcpy2DFromArray_ptds (RT_FORWARD). */
static cudaError_t rt_memcpy_2d_array_api(cudaArray_const_t array, size_t x_bytes, size_t y,
                                          const void *linear, size_t pitch, size_t width,
                                          size_t height, enum cudaMemcpyKind kind, bool to_array,
                                          const rt_copy_mode *m, rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_memcpy_2d_array(array,
                                        x_bytes,
                                        y,
                                        linear,
                                        pitch,
                                        width,
                                        height,
                                        kind,
                                        to_array,
                                        m));
}

/* Bytes per element of an array format; 0 when the legacy byte-count copies cannot address it
 * (block-compressed and planar video formats). */
static size_t rt_element_size(const CUDA_ARRAY3D_DESCRIPTOR *ad)
{
    struct cudaChannelFormatDesc c = rt_channel_from_format(ad->Format, ad->NumChannels);
    if (c.f == cudaChannelFormatKindNone || c.f == cudaChannelFormatKindNV12 ||
        (c.f >= cudaChannelFormatKindUnsignedBlockCompressed1 &&
         c.f <= cudaChannelFormatKindUnsignedBlockCompressed7SRGB))
        return 0;
    return (size_t)(c.x + c.y + c.z + c.w) / 8;
}

/* The row size in bytes and the number of rows of an array's first slice, for the legacy copies
 * that address it as one run of bytes. */
static cudaError_t rt_array_rows(cudaArray_const_t array, size_t *row_bytes, size_t *rows)
{
    if (!array)
        return cudaErrorInvalidResourceHandle;
    CUDA_ARRAY3D_DESCRIPTOR ad;
    cudaError_t e = rt_array_descriptor(array, &ad);
    if (e != cudaSuccess)
        return e;
    size_t element = rt_element_size(&ad);
    if (!element) {
        RT_TRACE("byte-count copies of an array of format 0x%x: not implemented",
                 (unsigned)ad.Format);
        return cudaErrorNotSupported;
    }
    *row_bytes = ad.Width * element;
    *rows = ad.Height ? ad.Height : 1;
    return cudaSuccess;
}

/* cudaMemcpyToArray and cudaMemcpyFromArray: `count` bytes from (x, y), row after row, as the
 * rest of the first row, the whole rows, and the start of the last row. */
static cudaError_t rt_memcpy_array_run(cudaArray_const_t array, size_t x, size_t y,
                                       const void *linear, size_t count,
                                       enum cudaMemcpyKind kind, bool to_array,
                                       const rt_copy_mode *m)
{
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess || count == 0)        /* as above: nothing to copy comes first */
        return e;
    CUmemorytype type;
    if ((e = rt_linear_type(kind, to_array, &type)) != cudaSuccess)
        return e;
    size_t row_bytes = 0, rows = 0;
    e = rt_array_rows(array, &row_bytes, &rows);
    if (e != cudaSuccess)
        return e;
    if (!linear)
        return cudaErrorInvalidValue;
    /* The run must end inside the slice: y * row + x + count <= rows * row, without overflow. */
    if (x > row_bytes || y >= rows || count > (rows - y) * row_bytes - x)
        return cudaErrorInvalidValue;
    if (x == row_bytes) {                   /* starting at the very end of a row */
        x = 0;
        y++;
    }

    size_t done = 0;
    while (done < count && e == cudaSuccess) {
        size_t width, height;
        if (x != 0 || count - done < row_bytes) {
            width = row_bytes - x < count - done ? row_bytes - x : count - done;
            height = 1;
        } else {
            width = row_bytes;
            height = (count - done) / row_bytes;
        }
        CUDA_MEMCPY2D c;
        memset(&c, 0, sizeof c);
        rt_set_linear(&c, to_array, type, (const unsigned char *)linear + done, width);
        rt_set_array(&c, !to_array, array, x, y);
        c.WidthInBytes = width;
        c.Height = height;
        e = rt_copy2d(d, &c, m);
        done += width * height;
        x = 0;
        y += height;
    }
    return e;
}

/* The one body of cudaMemcpyToArray, cudaMemcpyToArray_ptds, cudaMemcpyFromArray and
 * cudaMemcpyFromArray_ptds (RT_FORWARD). */
static cudaError_t rt_memcpy_array_run_api(cudaArray_const_t array, size_t x, size_t y,
                                           const void *linear, size_t count,
                                           enum cudaMemcpyKind kind, bool to_array,
                                           const rt_copy_mode *m, rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_memcpy_array_run(array, x, y, linear, count, kind, to_array, m));
}

/* cudaMemcpy2DArrayToArray: one 2D copy between two arrays. */
static cudaError_t rt_memcpy_2d_array_array(cudaArray_t dst, size_t xd, size_t yd,
                                            cudaArray_const_t src, size_t xs, size_t ys,
                                            size_t width, size_t height,
                                            enum cudaMemcpyKind kind, const rt_copy_mode *m)
{
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess || width == 0 || height == 0)
        return e;
    if (kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        return cudaErrorInvalidMemcpyDirection;
    /* NVIDIA's answers (H200): a NULL destination is an invalid value, a NULL source an invalid
     * handle. */
    if (!dst)
        return cudaErrorInvalidValue;
    if (!src)
        return cudaErrorInvalidResourceHandle;
    CUDA_MEMCPY2D c;
    memset(&c, 0, sizeof c);
    rt_set_array(&c, true, src, xs, ys);
    rt_set_array(&c, false, dst, xd, yd);
    c.WidthInBytes = width;
    c.Height = height;
    return rt_copy2d(d, &c, m);
}

/* The one body of cudaMemcpy2DArrayToArray and cudaMemcpy2DArrayToArray_ptds (RT_FORWARD). */
static cudaError_t rt_memcpy_2d_array_array_api(cudaArray_t dst, size_t xd, size_t yd,
                                                cudaArray_const_t src, size_t xs, size_t ys,
                                                size_t width, size_t height,
                                                enum cudaMemcpyKind kind, const rt_copy_mode *m,
                                                rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_memcpy_2d_array_array(dst, xd, yd, src, xs, ys, width, height, kind, m));
}

/* cudaMemcpyArrayToArray: `count` bytes row after row in both arrays, whose rows may differ in
 * length; one copy per stretch that stays inside a row of each. */
static cudaError_t rt_memcpy_array_array_run(cudaArray_t dst, size_t xd, size_t yd,
                                             cudaArray_const_t src, size_t xs, size_t ys,
                                             size_t count, enum cudaMemcpyKind kind,
                                             const rt_copy_mode *m)
{
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess || count == 0)
        return e;
    if (kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        return cudaErrorInvalidMemcpyDirection;
    size_t dst_row = 0, dst_rows = 0, src_row = 0, src_rows = 0;
    e = rt_array_rows(dst, &dst_row, &dst_rows);
    if (e == cudaSuccess)
        e = rt_array_rows(src, &src_row, &src_rows);
    if (e != cudaSuccess)
        return e;
    if (xd > dst_row || yd >= dst_rows || count > (dst_rows - yd) * dst_row - xd ||
        xs > src_row || ys >= src_rows || count > (src_rows - ys) * src_row - xs)
        return cudaErrorInvalidValue;
    for (size_t done = 0; done < count && e == cudaSuccess;) {
        size_t width = count - done;
        if (dst_row - xd < width)
            width = dst_row - xd;
        if (src_row - xs < width)
            width = src_row - xs;
        CUDA_MEMCPY2D c;
        memset(&c, 0, sizeof c);
        rt_set_array(&c, true, src, xs, ys);
        rt_set_array(&c, false, dst, xd, yd);
        c.WidthInBytes = width;
        c.Height = 1;
        e = rt_copy2d(d, &c, m);
        done += width;
        xd += width;
        xs += width;
        if (xd == dst_row) {
            xd = 0;
            yd++;
        }
        if (xs == src_row) {
            xs = 0;
            ys++;
        }
    }
    return e;
}

/* The one body of cudaMemcpyArrayToArray and cudaMemcpyArrayToArray_ptds (RT_FORWARD). */
static cudaError_t rt_memcpy_array_array_run_api(cudaArray_t dst, size_t xd, size_t yd,
                                                 cudaArray_const_t src, size_t xs, size_t ys,
                                                 size_t count, enum cudaMemcpyKind kind,
                                                 const rt_copy_mode *m, rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_memcpy_array_array_run(dst, xd, yd, src, xs, ys, count, kind, m));
}

RT_API cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                     const void *src, size_t count, enum cudaMemcpyKind kind)
{
    RT_FORWARD(rt_memcpy_array_run_api(dst, wOffset, hOffset, src, count, kind, true, &rt_sync,
                                       RT_SELF));
}

RT_API cudaError_t cudaMemcpyToArray_ptds(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                          const void *src, size_t count, enum cudaMemcpyKind kind)
{
    RT_FORWARD(rt_memcpy_array_run_api(dst, wOffset, hOffset, src, count, kind, true, &rt_sync_ptds,
                                       RT_SELF));
}

RT_API cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t src, size_t wOffset,
                                       size_t hOffset, size_t count, enum cudaMemcpyKind kind)
{
    RT_FORWARD(rt_memcpy_array_run_api(src, wOffset, hOffset, dst, count, kind, false, &rt_sync,
                                       RT_SELF));
}

RT_API cudaError_t cudaMemcpyFromArray_ptds(void *dst, cudaArray_const_t src, size_t wOffset,
                                            size_t hOffset, size_t count,
                                            enum cudaMemcpyKind kind)
{
    RT_FORWARD(rt_memcpy_array_run_api(src, wOffset, hOffset, dst, count, kind, false,
                                       &rt_sync_ptds, RT_SELF));
}

RT_API cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                       const void *src, size_t spitch, size_t width,
                                       size_t height, enum cudaMemcpyKind kind)
{
    RT_FORWARD(rt_memcpy_2d_array_api(dst, wOffset, hOffset, src, spitch, width, height, kind, true,
                                      &rt_sync, RT_SELF));
}

RT_API cudaError_t cudaMemcpy2DToArray_ptds(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                            const void *src, size_t spitch, size_t width,
                                            size_t height, enum cudaMemcpyKind kind)
{
    RT_FORWARD(rt_memcpy_2d_array_api(dst, wOffset, hOffset, src, spitch, width, height, kind, true,
                                      &rt_sync_ptds, RT_SELF));
}

RT_API cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src,
                                         size_t wOffset, size_t hOffset, size_t width,
                                         size_t height, enum cudaMemcpyKind kind)
{
    RT_FORWARD(rt_memcpy_2d_array_api(src, wOffset, hOffset, dst, dpitch, width, height, kind,
                                      false, &rt_sync, RT_SELF));
}

RT_API cudaError_t cudaMemcpy2DFromArray_ptds(void *dst, size_t dpitch, cudaArray_const_t src,
                                              size_t wOffset, size_t hOffset, size_t width,
                                              size_t height, enum cudaMemcpyKind kind)
{
    RT_FORWARD(rt_memcpy_2d_array_api(src, wOffset, hOffset, dst, dpitch, width, height, kind,
                                      false, &rt_sync_ptds, RT_SELF));
}

RT_API cudaError_t cudaMemcpyArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                          cudaArray_const_t src, size_t wOffsetSrc,
                                          size_t hOffsetSrc, size_t count,
                                          enum cudaMemcpyKind kind)
{
    RT_FORWARD(rt_memcpy_array_array_run_api(dst, wOffsetDst, hOffsetDst, src, wOffsetSrc,
                                             hOffsetSrc, count, kind, &rt_sync, RT_SELF));
}

RT_API cudaError_t cudaMemcpyArrayToArray_ptds(cudaArray_t dst, size_t wOffsetDst,
                                               size_t hOffsetDst, cudaArray_const_t src,
                                               size_t wOffsetSrc, size_t hOffsetSrc,
                                               size_t count, enum cudaMemcpyKind kind)
{
    RT_FORWARD(rt_memcpy_array_array_run_api(dst, wOffsetDst, hOffsetDst, src, wOffsetSrc,
                                             hOffsetSrc, count, kind, &rt_sync_ptds, RT_SELF));
}

RT_API cudaError_t cudaMemcpy2DArrayToArray(cudaArray_t dst, size_t wOffsetDst,
                                            size_t hOffsetDst, cudaArray_const_t src,
                                            size_t wOffsetSrc, size_t hOffsetSrc, size_t width,
                                            size_t height, enum cudaMemcpyKind kind)
{
    RT_FORWARD(rt_memcpy_2d_array_array_api(dst, wOffsetDst, hOffsetDst, src, wOffsetSrc,
                                            hOffsetSrc, width, height, kind, &rt_sync, RT_SELF));
}

RT_API cudaError_t cudaMemcpy2DArrayToArray_ptds(cudaArray_t dst, size_t wOffsetDst,
                                                 size_t hOffsetDst, cudaArray_const_t src,
                                                 size_t wOffsetSrc, size_t hOffsetSrc,
                                                 size_t width, size_t height,
                                                 enum cudaMemcpyKind kind)
{
    RT_FORWARD(rt_memcpy_2d_array_array_api(dst, wOffsetDst, hOffsetDst, src, wOffsetSrc,
                                            hOffsetSrc, width, height, kind, &rt_sync_ptds,
                                            RT_SELF));
}

RT_API cudaError_t cudaMemcpyToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                          const void *src, size_t count,
                                          enum cudaMemcpyKind kind, cudaStream_t stream)
{
    RT_ENTER();
    rt_copy_mode m = rt_async(stream, false);
    RT_RETURN(rt_memcpy_array_run(dst, wOffset, hOffset, src, count, kind, true, &m));
}

RT_API cudaError_t cudaMemcpyToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                               const void *src, size_t count,
                                               enum cudaMemcpyKind kind, cudaStream_t stream)
{
    RT_ENTER();
    rt_copy_mode m = rt_async(stream, true);
    RT_RETURN(rt_memcpy_array_run(dst, wOffset, hOffset, src, count, kind, true, &m));
}

RT_API cudaError_t cudaMemcpyFromArrayAsync(void *dst, cudaArray_const_t src, size_t wOffset,
                                            size_t hOffset, size_t count,
                                            enum cudaMemcpyKind kind, cudaStream_t stream)
{
    RT_ENTER();
    rt_copy_mode m = rt_async(stream, false);
    RT_RETURN(rt_memcpy_array_run(src, wOffset, hOffset, dst, count, kind, false, &m));
}

RT_API cudaError_t cudaMemcpyFromArrayAsync_ptsz(void *dst, cudaArray_const_t src,
                                                 size_t wOffset, size_t hOffset, size_t count,
                                                 enum cudaMemcpyKind kind, cudaStream_t stream)
{
    RT_ENTER();
    rt_copy_mode m = rt_async(stream, true);
    RT_RETURN(rt_memcpy_array_run(src, wOffset, hOffset, dst, count, kind, false, &m));
}

RT_API cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                            const void *src, size_t spitch, size_t width,
                                            size_t height, enum cudaMemcpyKind kind,
                                            cudaStream_t stream)
{
    RT_ENTER();
    rt_copy_mode m = rt_async(stream, false);
    RT_RETURN(rt_memcpy_2d_array(dst, wOffset, hOffset, src, spitch, width, height, kind, true,
                                 &m));
}

RT_API cudaError_t cudaMemcpy2DToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset,
                                                 size_t hOffset, const void *src, size_t spitch,
                                                 size_t width, size_t height,
                                                 enum cudaMemcpyKind kind, cudaStream_t stream)
{
    RT_ENTER();
    rt_copy_mode m = rt_async(stream, true);
    RT_RETURN(rt_memcpy_2d_array(dst, wOffset, hOffset, src, spitch, width, height, kind, true,
                                 &m));
}

RT_API cudaError_t cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch, cudaArray_const_t src,
                                              size_t wOffset, size_t hOffset, size_t width,
                                              size_t height, enum cudaMemcpyKind kind,
                                              cudaStream_t stream)
{
    RT_ENTER();
    rt_copy_mode m = rt_async(stream, false);
    RT_RETURN(rt_memcpy_2d_array(src, wOffset, hOffset, dst, dpitch, width, height, kind, false,
                                 &m));
}

RT_API cudaError_t cudaMemcpy2DFromArrayAsync_ptsz(void *dst, size_t dpitch,
                                                   cudaArray_const_t src, size_t wOffset,
                                                   size_t hOffset, size_t width, size_t height,
                                                   enum cudaMemcpyKind kind,
                                                   cudaStream_t stream)
{
    RT_ENTER();
    rt_copy_mode m = rt_async(stream, true);
    RT_RETURN(rt_memcpy_2d_array(src, wOffset, hOffset, dst, dpitch, width, height, kind, false,
                                 &m));
}
