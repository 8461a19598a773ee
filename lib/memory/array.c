/*
 * array.c - CUDA arrays, mipmapped arrays and channel descriptors.  What an existing array is
 * (descriptor, planes, sparse layout, memory requirements) is asked in array_props.c; copies to,
 * from and between arrays are array_copy.c's.
 *
 * A cudaArray_t is the driver's CUarray and a cudaMipmappedArray_t its CUmipmappedArray: cast,
 * never wrapped, so an array made here can be handed to a library that shares the context.
 * Every array is created through cuArray3DCreate with the 3D descriptor (Height 0 for 1D,
 * Depth 0 for 2D): it is the one descriptor that carries the flags, whose values the runtime
 * and the driver share (cudaArrayLayered == CUDA_ARRAY3D_LAYERED, SurfaceLoadStore, Cubemap,
 * TextureGather, ColorAttachment, Sparse, DeferredMapping).
 */
#include <string.h>

#include "memory/array.h"

/* ---- channel descriptors <-> driver formats ------------------------------------------------- */

/* The kinds that name their driver format, with the sizes cudaCreateChannelDesc<kind>() gives.
 * Every value fits a byte (the kinds end at 31, the formats at 0xcb): seven bytes a row. */
static const struct rt_format_kind {
    uint8_t kind;                   /* enum cudaChannelFormatKind */
    uint8_t format;                 /* CUarray_format */
    uint8_t channels;
    uint8_t x, y, z, w;
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
            *format = (CUarray_format)rt_format_kinds[i].format;
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
            d = (struct cudaChannelFormatDesc){k->x, k->y, k->z, k->w,
                                               (enum cudaChannelFormatKind)k->kind};
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
    RT_RETURN_VALUE(d);
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

/* The one body of cudaMallocArray and cudaMalloc3DArray (RT_FORWARD). */
static cudaError_t rt_array_create_api(cudaArray_t *array,
                                       const struct cudaChannelFormatDesc *desc,
                                       struct cudaExtent extent, unsigned flags, rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_array_create(array, desc, extent, flags));
}

RT_API cudaError_t cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                                   size_t width, size_t height, unsigned int flags)
{
    RT_FORWARD(rt_array_create_api(array, desc, rt_extent(width, height, 0), flags, RT_SELF));
}

RT_API cudaError_t cudaMalloc3DArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                                     struct cudaExtent extent, unsigned int flags)
{
    RT_FORWARD(rt_array_create_api(array, desc, extent, flags, RT_SELF));
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
    if (!mipmappedArray)            /* before a NULL output, as NVIDIA's runtime (H200) */
        RT_RETURN(cudaErrorInvalidResourceHandle);
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
