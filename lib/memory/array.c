/*
 * array.c - CUDA arrays, mipmapped arrays, channel descriptors, and copies to and from arrays.
 * What an existing array is (descriptor, planes, sparse layout, memory requirements) is asked in
 * array_props.c.
 *
 * A cudaArray_t is the driver's CUarray and a cudaMipmappedArray_t its CUmipmappedArray: cast,
 * never wrapped, so an array made here can be handed to a library that shares the context.
 * Every array is created through cuArray3DCreate with the 3D descriptor (Height 0 for 1D,
 * Depth 0 for 2D): it is the one descriptor that carries the flags, whose values the runtime
 * and the driver share (cudaArrayLayered == CUDA_ARRAY3D_LAYERED, SurfaceLoadStore, Cubemap,
 * TextureGather, ColorAttachment, Sparse, DeferredMapping).
 *
 * Copies: the 2D ones are one CUDA_MEMCPY2D with a CU_MEMORYTYPE_ARRAY operand.  The legacy
 * "1D" ones (cudaMemcpyToArray, ...) copy `count` bytes row after row from (wOffset, hOffset):
 * at most three 2D copies (the rest of the first row, the whole rows, the start of the last).
 */
#include <string.h>

#include "array.h"

/* ---- channel descriptors <-> driver formats ------------------------------------------------- */

/* The kinds that name their driver format, with the sizes cudaCreateChannelDesc<kind>() gives. */
static const struct rt_format_kind {
    enum cudaChannelFormatKind kind;
    CUarray_format format;
    unsigned channels;
    int x, y, z, w;
} rt_format_kinds[] = {
    {cudaChannelFormatKindUnsignedNormalized8X1, CU_AD_FORMAT_UNORM_INT8X1, 1, 8, 0, 0, 0},
    {cudaChannelFormatKindUnsignedNormalized8X2, CU_AD_FORMAT_UNORM_INT8X2, 2, 8, 8, 0, 0},
    {cudaChannelFormatKindUnsignedNormalized8X4, CU_AD_FORMAT_UNORM_INT8X4, 4, 8, 8, 8, 8},
    {cudaChannelFormatKindUnsignedNormalized16X1, CU_AD_FORMAT_UNORM_INT16X1, 1, 16, 0, 0, 0},
    {cudaChannelFormatKindUnsignedNormalized16X2, CU_AD_FORMAT_UNORM_INT16X2, 2, 16, 16, 0, 0},
    {cudaChannelFormatKindUnsignedNormalized16X4, CU_AD_FORMAT_UNORM_INT16X4, 4, 16, 16, 16, 16},
    {cudaChannelFormatKindSignedNormalized8X1, CU_AD_FORMAT_SNORM_INT8X1, 1, 8, 0, 0, 0},
    {cudaChannelFormatKindSignedNormalized8X2, CU_AD_FORMAT_SNORM_INT8X2, 2, 8, 8, 0, 0},
    {cudaChannelFormatKindSignedNormalized8X4, CU_AD_FORMAT_SNORM_INT8X4, 4, 8, 8, 8, 8},
    {cudaChannelFormatKindSignedNormalized16X1, CU_AD_FORMAT_SNORM_INT16X1, 1, 16, 0, 0, 0},
    {cudaChannelFormatKindSignedNormalized16X2, CU_AD_FORMAT_SNORM_INT16X2, 2, 16, 16, 0, 0},
    {cudaChannelFormatKindSignedNormalized16X4, CU_AD_FORMAT_SNORM_INT16X4, 4, 16, 16, 16, 16},
    {cudaChannelFormatKindUnsignedBlockCompressed1, CU_AD_FORMAT_BC1_UNORM, 4, 8, 8, 8, 8},
    {cudaChannelFormatKindUnsignedBlockCompressed1SRGB, CU_AD_FORMAT_BC1_UNORM_SRGB, 4, 8, 8, 8, 8},
    {cudaChannelFormatKindUnsignedBlockCompressed2, CU_AD_FORMAT_BC2_UNORM, 4, 8, 8, 8, 8},
    {cudaChannelFormatKindUnsignedBlockCompressed2SRGB, CU_AD_FORMAT_BC2_UNORM_SRGB, 4, 8, 8, 8, 8},
    {cudaChannelFormatKindUnsignedBlockCompressed3, CU_AD_FORMAT_BC3_UNORM, 4, 8, 8, 8, 8},
    {cudaChannelFormatKindUnsignedBlockCompressed3SRGB, CU_AD_FORMAT_BC3_UNORM_SRGB, 4, 8, 8, 8, 8},
    {cudaChannelFormatKindUnsignedBlockCompressed4, CU_AD_FORMAT_BC4_UNORM, 1, 8, 0, 0, 0},
    {cudaChannelFormatKindSignedBlockCompressed4, CU_AD_FORMAT_BC4_SNORM, 1, 8, 0, 0, 0},
    {cudaChannelFormatKindUnsignedBlockCompressed5, CU_AD_FORMAT_BC5_UNORM, 2, 8, 8, 0, 0},
    {cudaChannelFormatKindSignedBlockCompressed5, CU_AD_FORMAT_BC5_SNORM, 2, 8, 8, 0, 0},
    {cudaChannelFormatKindUnsignedBlockCompressed6H, CU_AD_FORMAT_BC6H_UF16, 3, 16, 16, 16, 0},
    {cudaChannelFormatKindSignedBlockCompressed6H, CU_AD_FORMAT_BC6H_SF16, 3, 16, 16, 16, 0},
    {cudaChannelFormatKindUnsignedBlockCompressed7, CU_AD_FORMAT_BC7_UNORM, 4, 8, 8, 8, 8},
    {cudaChannelFormatKindUnsignedBlockCompressed7SRGB, CU_AD_FORMAT_BC7_UNORM_SRGB, 4, 8, 8, 8, 8},
    {cudaChannelFormatKindNV12, CU_AD_FORMAT_NV12, 3, 8, 8, 8, 0},
    {cudaChannelFormatKindUnsignedNormalized1010102, CU_AD_FORMAT_UNORM_INT_101010_2, 4, 10, 10,
     10, 2},
};
#define RT_FORMAT_KIND_COUNT (sizeof rt_format_kinds / sizeof rt_format_kinds[0])

/* The plain format of `bits`-sized channels of a signed, unsigned or float kind; 0 if none. */
static CUarray_format rt_plain_format(enum cudaChannelFormatKind kind, int bits)
{
    switch (kind) {
    case cudaChannelFormatKindSigned:
        return bits == 8 ? CU_AD_FORMAT_SIGNED_INT8 : bits == 16 ? CU_AD_FORMAT_SIGNED_INT16
               : bits == 32 ? CU_AD_FORMAT_SIGNED_INT32 : (CUarray_format)0;
    case cudaChannelFormatKindUnsigned:
        return bits == 8 ? CU_AD_FORMAT_UNSIGNED_INT8 : bits == 16 ? CU_AD_FORMAT_UNSIGNED_INT16
               : bits == 32 ? CU_AD_FORMAT_UNSIGNED_INT32 : (CUarray_format)0;
    case cudaChannelFormatKindFloat:
        return bits == 16 ? CU_AD_FORMAT_HALF : bits == 32 ? CU_AD_FORMAT_FLOAT
               : (CUarray_format)0;
    default:
        return (CUarray_format)0;
    }
}

cudaError_t rt_channel_to_format(const struct cudaChannelFormatDesc *desc, CUarray_format *format,
                                 unsigned *channels)
{
    if (!desc)
        return cudaErrorInvalidValue;
    for (size_t i = 0; i < RT_FORMAT_KIND_COUNT; i++)
        if (rt_format_kinds[i].kind == desc->f) {
            *format = rt_format_kinds[i].format;
            *channels = rt_format_kinds[i].channels;
            return cudaSuccess;
        }
    /* Plain kinds: the non-zero sizes come first and are all equal. */
    const int size[4] = {desc->x, desc->y, desc->z, desc->w};
    unsigned count = 0;
    while (count < 4 && size[count] != 0)
        count++;
    for (unsigned i = 0; i < 4; i++)
        if ((i < count && size[i] != size[0]) || (i >= count && size[i] != 0))
            return cudaErrorInvalidChannelDescriptor;
    CUarray_format plain = rt_plain_format(desc->f, size[0]);
    if (!plain || (count != 1 && count != 2 && count != 4))
        return cudaErrorInvalidChannelDescriptor;
    *format = plain;
    *channels = count;
    return cudaSuccess;
}

struct cudaChannelFormatDesc rt_channel_from_format(CUarray_format format, unsigned channels)
{
    struct cudaChannelFormatDesc d = {0, 0, 0, 0, cudaChannelFormatKindNone};
    for (size_t i = 0; i < RT_FORMAT_KIND_COUNT; i++) {
        const struct rt_format_kind *k = &rt_format_kinds[i];
        if (k->format == format) {
            d = (struct cudaChannelFormatDesc){k->x, k->y, k->z, k->w, k->kind};
            return d;
        }
    }
    int bits = 0;
    switch (format) {
    case CU_AD_FORMAT_SIGNED_INT8: bits = 8; d.f = cudaChannelFormatKindSigned; break;
    case CU_AD_FORMAT_SIGNED_INT16: bits = 16; d.f = cudaChannelFormatKindSigned; break;
    case CU_AD_FORMAT_SIGNED_INT32: bits = 32; d.f = cudaChannelFormatKindSigned; break;
    case CU_AD_FORMAT_UNSIGNED_INT8: bits = 8; d.f = cudaChannelFormatKindUnsigned; break;
    case CU_AD_FORMAT_UNSIGNED_INT16: bits = 16; d.f = cudaChannelFormatKindUnsigned; break;
    case CU_AD_FORMAT_UNSIGNED_INT32: bits = 32; d.f = cudaChannelFormatKindUnsigned; break;
    case CU_AD_FORMAT_HALF: bits = 16; d.f = cudaChannelFormatKindFloat; break;
    case CU_AD_FORMAT_FLOAT: bits = 32; d.f = cudaChannelFormatKindFloat; break;
    default: return d;
    }
    d.x = bits;
    d.y = channels >= 2 ? bits : 0;
    d.z = channels >= 3 ? bits : 0;
    d.w = channels >= 4 ? bits : 0;
    return d;
}

RT_API struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w,
                                                          enum cudaChannelFormatKind f)
{
    RT_ENTER();
    struct cudaChannelFormatDesc d = {x, y, z, w, f};
    return d;
}

/* ---- creation and destruction --------------------------------------------------------------- */

static struct cudaExtent rt_extent(size_t width, size_t height, size_t depth)
{
    struct cudaExtent e = {width, height, depth};
    return e;
}

/* cudaMallocArray, cudaMalloc3DArray: one cuArray3DCreate. */
static cudaError_t rt_array_create(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                                   struct cudaExtent extent, unsigned flags)
{
    if (!array || !desc)
        return cudaErrorInvalidValue;
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        return e;
    CUDA_ARRAY3D_DESCRIPTOR ad = {.Width = extent.width, .Height = extent.height,
                                  .Depth = extent.depth, .Flags = flags};
    e = rt_channel_to_format(desc, &ad.Format, &ad.NumChannels);
    if (e != cudaSuccess)
        return e;
    CUarray handle = NULL;
    e = rt_error_from_cu(rt_drv.cuArray3DCreate(&handle, &ad));
    rt_device_note_error(d, e);
    if (e == cudaSuccess) {
        rt_handle_add(RT_HANDLE_ARRAY, handle, d);
        *array = (cudaArray_t)handle;
    }
    return e;
}

RT_API cudaError_t cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                                   size_t width, size_t height, unsigned int flags)
{
    RT_ENTER();
    RT_RETURN(rt_array_create(array, desc, rt_extent(width, height, 0), flags));
}

RT_API cudaError_t cudaMalloc3DArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                                     struct cudaExtent extent, unsigned int flags)
{
    RT_ENTER();
    RT_RETURN(rt_array_create(array, desc, extent, flags));
}

RT_API cudaError_t cudaMallocMipmappedArray(cudaMipmappedArray_t *mipmappedArray,
                                            const struct cudaChannelFormatDesc *desc,
                                            struct cudaExtent extent, unsigned int numLevels,
                                            unsigned int flags)
{
    RT_ENTER();
    if (!mipmappedArray || !desc)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    CUDA_ARRAY3D_DESCRIPTOR ad = {.Width = extent.width, .Height = extent.height,
                                  .Depth = extent.depth, .Flags = flags};
    e = rt_channel_to_format(desc, &ad.Format, &ad.NumChannels);
    if (e != cudaSuccess)
        RT_RETURN(e);
    CUmipmappedArray handle = NULL;
    e = rt_error_from_cu(rt_drv.cuMipmappedArrayCreate(&handle, &ad, numLevels));
    rt_device_note_error(d, e);
    if (e == cudaSuccess) {
        rt_handle_add(RT_HANDLE_MIPMAPPED_ARRAY, handle, d);
        *mipmappedArray = (cudaMipmappedArray_t)handle;
    }
    RT_RETURN(e);
}

RT_API cudaError_t cudaGetMipmappedArrayLevel(cudaArray_t *levelArray,
                                              cudaMipmappedArray_const_t mipmappedArray,
                                              unsigned int level)
{
    RT_ENTER();
    if (!levelArray)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    CUarray handle = NULL;
    e = rt_error_from_cu(rt_drv.cuMipmappedArrayGetLevel(&handle,
                                                         (CUmipmappedArray)mipmappedArray, level));
    rt_device_note_error(d, e);
    if (e == cudaSuccess)
        *levelArray = (cudaArray_t)handle;
    RT_RETURN(e);
}

/* Freeing NULL does nothing, but like cudaFree(NULL) it still initialises the context.  An
 * array a cudaDeviceReset destroyed is cudaErrorDeviceUninitialized, NVIDIA's answer (H200),
 * without reaching the driver (handles.c). */
RT_API cudaError_t cudaFreeArray(cudaArray_t array)
{
    RT_ENTER();
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess || !array)
        RT_RETURN(e);
    if (rt_handle_stale(RT_HANDLE_ARRAY, array))
        RT_RETURN(cudaErrorDeviceUninitialized);
    rt_handle_remove(array);            /* first: the address may come back at once */
    e = rt_error_from_cu(rt_drv.cuArrayDestroy((CUarray)array));
    rt_device_note_error(d, e);
    RT_RETURN(e);
}

RT_API cudaError_t cudaFreeMipmappedArray(cudaMipmappedArray_t mipmappedArray)
{
    RT_ENTER();
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess || !mipmappedArray)
        RT_RETURN(e);
    if (rt_handle_stale(RT_HANDLE_MIPMAPPED_ARRAY, mipmappedArray))
        RT_RETURN(cudaErrorDeviceUninitialized);
    rt_handle_remove(mipmappedArray);   /* first: the address may come back at once */
    e = rt_error_from_cu(rt_drv.cuMipmappedArrayDestroy((CUmipmappedArray)mipmappedArray));
    rt_device_note_error(d, e);
    RT_RETURN(e);
}

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
    CUmemorytype type;
    cudaError_t e = rt_linear_type(kind, to_array, &type);
    if (e != cudaSuccess)
        return e;
    rt_device *d;
    e = rt_context_enter(&d);
    if (e != cudaSuccess || width == 0 || height == 0)
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
    CUmemorytype type;
    cudaError_t e = rt_linear_type(kind, to_array, &type);
    if (e != cudaSuccess)
        return e;
    rt_device *d;
    e = rt_context_enter(&d);
    if (e != cudaSuccess || count == 0)
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

/* cudaMemcpy2DArrayToArray: one 2D copy between two arrays. */
static cudaError_t rt_memcpy_2d_array_array(cudaArray_t dst, size_t xd, size_t yd,
                                            cudaArray_const_t src, size_t xs, size_t ys,
                                            size_t width, size_t height,
                                            enum cudaMemcpyKind kind, const rt_copy_mode *m)
{
    if (kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        return cudaErrorInvalidMemcpyDirection;
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess || width == 0 || height == 0)
        return e;
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

/* cudaMemcpyArrayToArray: `count` bytes row after row in both arrays, whose rows may differ in
 * length; one copy per stretch that stays inside a row of each. */
static cudaError_t rt_memcpy_array_array_run(cudaArray_t dst, size_t xd, size_t yd,
                                             cudaArray_const_t src, size_t xs, size_t ys,
                                             size_t count, enum cudaMemcpyKind kind,
                                             const rt_copy_mode *m)
{
    if (kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        return cudaErrorInvalidMemcpyDirection;
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess || count == 0)
        return e;
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

RT_API cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                     const void *src, size_t count, enum cudaMemcpyKind kind)
{
    RT_ENTER();
    RT_RETURN(rt_memcpy_array_run(dst, wOffset, hOffset, src, count, kind, true, &rt_sync));
}

RT_API cudaError_t cudaMemcpyToArray_ptds(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                          const void *src, size_t count, enum cudaMemcpyKind kind)
{
    RT_ENTER();
    RT_RETURN(rt_memcpy_array_run(dst, wOffset, hOffset, src, count, kind, true, &rt_sync_ptds));
}

RT_API cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t src, size_t wOffset,
                                       size_t hOffset, size_t count, enum cudaMemcpyKind kind)
{
    RT_ENTER();
    RT_RETURN(rt_memcpy_array_run(src, wOffset, hOffset, dst, count, kind, false, &rt_sync));
}

RT_API cudaError_t cudaMemcpyFromArray_ptds(void *dst, cudaArray_const_t src, size_t wOffset,
                                            size_t hOffset, size_t count,
                                            enum cudaMemcpyKind kind)
{
    RT_ENTER();
    RT_RETURN(rt_memcpy_array_run(src, wOffset, hOffset, dst, count, kind, false,
                                  &rt_sync_ptds));
}

RT_API cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                       const void *src, size_t spitch, size_t width,
                                       size_t height, enum cudaMemcpyKind kind)
{
    RT_ENTER();
    RT_RETURN(rt_memcpy_2d_array(dst, wOffset, hOffset, src, spitch, width, height, kind, true,
                                 &rt_sync));
}

RT_API cudaError_t cudaMemcpy2DToArray_ptds(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                            const void *src, size_t spitch, size_t width,
                                            size_t height, enum cudaMemcpyKind kind)
{
    RT_ENTER();
    RT_RETURN(rt_memcpy_2d_array(dst, wOffset, hOffset, src, spitch, width, height, kind, true,
                                 &rt_sync_ptds));
}

RT_API cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src,
                                         size_t wOffset, size_t hOffset, size_t width,
                                         size_t height, enum cudaMemcpyKind kind)
{
    RT_ENTER();
    RT_RETURN(rt_memcpy_2d_array(src, wOffset, hOffset, dst, dpitch, width, height, kind, false,
                                 &rt_sync));
}

RT_API cudaError_t cudaMemcpy2DFromArray_ptds(void *dst, size_t dpitch, cudaArray_const_t src,
                                              size_t wOffset, size_t hOffset, size_t width,
                                              size_t height, enum cudaMemcpyKind kind)
{
    RT_ENTER();
    RT_RETURN(rt_memcpy_2d_array(src, wOffset, hOffset, dst, dpitch, width, height, kind, false,
                                 &rt_sync_ptds));
}

RT_API cudaError_t cudaMemcpyArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                          cudaArray_const_t src, size_t wOffsetSrc,
                                          size_t hOffsetSrc, size_t count,
                                          enum cudaMemcpyKind kind)
{
    RT_ENTER();
    RT_RETURN(rt_memcpy_array_array_run(dst, wOffsetDst, hOffsetDst, src, wOffsetSrc, hOffsetSrc,
                                        count, kind, &rt_sync));
}

RT_API cudaError_t cudaMemcpyArrayToArray_ptds(cudaArray_t dst, size_t wOffsetDst,
                                               size_t hOffsetDst, cudaArray_const_t src,
                                               size_t wOffsetSrc, size_t hOffsetSrc,
                                               size_t count, enum cudaMemcpyKind kind)
{
    RT_ENTER();
    RT_RETURN(rt_memcpy_array_array_run(dst, wOffsetDst, hOffsetDst, src, wOffsetSrc, hOffsetSrc,
                                        count, kind, &rt_sync_ptds));
}

RT_API cudaError_t cudaMemcpy2DArrayToArray(cudaArray_t dst, size_t wOffsetDst,
                                            size_t hOffsetDst, cudaArray_const_t src,
                                            size_t wOffsetSrc, size_t hOffsetSrc, size_t width,
                                            size_t height, enum cudaMemcpyKind kind)
{
    RT_ENTER();
    RT_RETURN(rt_memcpy_2d_array_array(dst, wOffsetDst, hOffsetDst, src, wOffsetSrc, hOffsetSrc,
                                       width, height, kind, &rt_sync));
}

RT_API cudaError_t cudaMemcpy2DArrayToArray_ptds(cudaArray_t dst, size_t wOffsetDst,
                                                 size_t hOffsetDst, cudaArray_const_t src,
                                                 size_t wOffsetSrc, size_t hOffsetSrc,
                                                 size_t width, size_t height,
                                                 enum cudaMemcpyKind kind)
{
    RT_ENTER();
    RT_RETURN(rt_memcpy_2d_array_array(dst, wOffsetDst, hOffsetDst, src, wOffsetSrc, hOffsetSrc,
                                       width, height, kind, &rt_sync_ptds));
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
