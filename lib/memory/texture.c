/*
 * texture.c - texture and surface objects.
 *
 * A cudaTextureObject_t is the driver's CUtexObject and a cudaSurfaceObject_t its CUsurfObject,
 * so objects pass between runtimes unchanged.  What this file does is translate the runtime's
 * descriptors into the driver's and back:
 *
 *   cudaResourceDesc      -> CUDA_RESOURCE_DESC: arrays and mipmapped arrays by cast; linear and
 *                            pitch-2D memory with the channel descriptor as format + channels
 *   cudaTextureDesc       -> CUDA_TEXTURE_DESC: address and filter modes share their values; the
 *                            int fields become CU_TRSF_* flags:
 *                              readMode cudaReadModeElementType -> CU_TRSF_READ_AS_INTEGER
 *                              (the driver's default promotes integer texels to [0,1] floats,
 *                              which is cudaReadModeNormalizedFloat; the flag leaves float
 *                              formats alone)
 *                              normalizedCoords -> CU_TRSF_NORMALIZED_COORDINATES
 *                              sRGB -> CU_TRSF_SRGB
 *                              disableTrilinearOptimization -> CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION
 *                              seamlessCubemap -> CU_TRSF_SEAMLESS_CUBEMAP
 *   cudaResourceViewDesc  -> CUDA_RESOURCE_VIEW_DESC: the format enums share their values
 */
#include <string.h>

#include "memory/array.h"

/* ---- descriptors ---------------------------------------------------------------------------- */

static cudaError_t rt_resource_to_cu(const struct cudaResourceDesc *in, CUDA_RESOURCE_DESC *out)
{
    memset(out, 0, sizeof *out);
    out->flags = in->flags;
    cudaError_t e = cudaSuccess;
    switch (in->resType) {
    case cudaResourceTypeArray:
        out->resType = CU_RESOURCE_TYPE_ARRAY;
        out->res.array.hArray = (CUarray)in->res.array.array;
        /* No array: NVIDIA's runtime answers an invalid handle (H200), the driver a value. */
        if (!in->res.array.array)
            e = cudaErrorInvalidResourceHandle;
        break;
    case cudaResourceTypeMipmappedArray:
        out->resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
        out->res.mipmap.hMipmappedArray = (CUmipmappedArray)in->res.mipmap.mipmap;
        if (!in->res.mipmap.mipmap)
            e = cudaErrorInvalidResourceHandle;
        break;
    case cudaResourceTypeLinear:
        out->resType = CU_RESOURCE_TYPE_LINEAR;
        out->res.linear.devPtr = (CUdeviceptr)(uintptr_t)in->res.linear.devPtr;
        out->res.linear.sizeInBytes = in->res.linear.sizeInBytes;
        e = rt_channel_to_format(&in->res.linear.desc, &out->res.linear.format,
                                 &out->res.linear.numChannels);
        break;
    case cudaResourceTypePitch2D:
        out->resType = CU_RESOURCE_TYPE_PITCH2D;
        out->res.pitch2D.devPtr = (CUdeviceptr)(uintptr_t)in->res.pitch2D.devPtr;
        out->res.pitch2D.width = in->res.pitch2D.width;
        out->res.pitch2D.height = in->res.pitch2D.height;
        out->res.pitch2D.pitchInBytes = in->res.pitch2D.pitchInBytes;
        e = rt_channel_to_format(&in->res.pitch2D.desc, &out->res.pitch2D.format,
                                 &out->res.pitch2D.numChannels);
        break;
    default:
        e = cudaErrorInvalidValue;
    }
    return e;
}

static void rt_resource_from_cu(const CUDA_RESOURCE_DESC *in, struct cudaResourceDesc *out)
{
    memset(out, 0, sizeof *out);
    out->flags = in->flags;
    switch (in->resType) {
    case CU_RESOURCE_TYPE_ARRAY:
        out->resType = cudaResourceTypeArray;
        out->res.array.array = (cudaArray_t)in->res.array.hArray;
        break;
    case CU_RESOURCE_TYPE_MIPMAPPED_ARRAY:
        out->resType = cudaResourceTypeMipmappedArray;
        out->res.mipmap.mipmap = (cudaMipmappedArray_t)in->res.mipmap.hMipmappedArray;
        break;
    case CU_RESOURCE_TYPE_LINEAR:
        out->resType = cudaResourceTypeLinear;
        out->res.linear.devPtr = (void *)(uintptr_t)in->res.linear.devPtr;
        out->res.linear.sizeInBytes = in->res.linear.sizeInBytes;
        out->res.linear.desc = rt_channel_from_format(in->res.linear.format,
                                                      in->res.linear.numChannels);
        break;
    case CU_RESOURCE_TYPE_PITCH2D:
        out->resType = cudaResourceTypePitch2D;
        out->res.pitch2D.devPtr = (void *)(uintptr_t)in->res.pitch2D.devPtr;
        out->res.pitch2D.width = in->res.pitch2D.width;
        out->res.pitch2D.height = in->res.pitch2D.height;
        out->res.pitch2D.pitchInBytes = in->res.pitch2D.pitchInBytes;
        out->res.pitch2D.desc = rt_channel_from_format(in->res.pitch2D.format,
                                                       in->res.pitch2D.numChannels);
        break;
    }
}

static bool rt_address_mode_valid(enum cudaTextureAddressMode m)
{
    return m == cudaAddressModeWrap || m == cudaAddressModeClamp || m == cudaAddressModeMirror ||
           m == cudaAddressModeBorder;
}

static bool rt_filter_mode_valid(enum cudaTextureFilterMode m)
{
    return m == cudaFilterModePoint || m == cudaFilterModeLinear;
}

static cudaError_t rt_texture_to_cu(const struct cudaTextureDesc *in, CUDA_TEXTURE_DESC *out)
{
    memset(out, 0, sizeof *out);
    for (int i = 0; i < 3; i++) {
        if (!rt_address_mode_valid(in->addressMode[i]))
            return cudaErrorInvalidValue;
        out->addressMode[i] = (CUaddress_mode)in->addressMode[i];
    }
    if (!rt_filter_mode_valid(in->filterMode) || !rt_filter_mode_valid(in->mipmapFilterMode) ||
        (in->readMode != cudaReadModeElementType && in->readMode != cudaReadModeNormalizedFloat))
        return cudaErrorInvalidValue;
    out->filterMode = (CUfilter_mode)in->filterMode;
    out->mipmapFilterMode = (CUfilter_mode)in->mipmapFilterMode;
    if (in->readMode == cudaReadModeElementType)
        out->flags |= CU_TRSF_READ_AS_INTEGER;
    if (in->normalizedCoords)
        out->flags |= CU_TRSF_NORMALIZED_COORDINATES;
    if (in->sRGB)
        out->flags |= CU_TRSF_SRGB;
    if (in->disableTrilinearOptimization)
        out->flags |= CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION;
    if (in->seamlessCubemap)
        out->flags |= CU_TRSF_SEAMLESS_CUBEMAP;
    out->maxAnisotropy = in->maxAnisotropy;
    out->mipmapLevelBias = in->mipmapLevelBias;
    out->minMipmapLevelClamp = in->minMipmapLevelClamp;
    out->maxMipmapLevelClamp = in->maxMipmapLevelClamp;
    memcpy(out->borderColor, in->borderColor, sizeof out->borderColor);
    return cudaSuccess;
}

static void rt_texture_from_cu(const CUDA_TEXTURE_DESC *in, struct cudaTextureDesc *out)
{
    memset(out, 0, sizeof *out);
    for (int i = 0; i < 3; i++)
        out->addressMode[i] = (enum cudaTextureAddressMode)in->addressMode[i];
    out->filterMode = (enum cudaTextureFilterMode)in->filterMode;
    out->mipmapFilterMode = (enum cudaTextureFilterMode)in->mipmapFilterMode;
    out->readMode = (in->flags & CU_TRSF_READ_AS_INTEGER) ? cudaReadModeElementType
                                                          : cudaReadModeNormalizedFloat;
    out->normalizedCoords = (in->flags & CU_TRSF_NORMALIZED_COORDINATES) != 0;
    out->sRGB = (in->flags & CU_TRSF_SRGB) != 0;
    out->disableTrilinearOptimization = (in->flags & CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION) != 0;
    out->seamlessCubemap = (in->flags & CU_TRSF_SEAMLESS_CUBEMAP) != 0;
    out->maxAnisotropy = in->maxAnisotropy;
    out->mipmapLevelBias = in->mipmapLevelBias;
    out->minMipmapLevelClamp = in->minMipmapLevelClamp;
    out->maxMipmapLevelClamp = in->maxMipmapLevelClamp;
    memcpy(out->borderColor, in->borderColor, sizeof out->borderColor);
}

static void rt_view_to_cu(const struct cudaResourceViewDesc *in, CUDA_RESOURCE_VIEW_DESC *out)
{
    memset(out, 0, sizeof *out);
    out->format = (CUresourceViewFormat)in->format;
    out->width = in->width;
    out->height = in->height;
    out->depth = in->depth;
    out->firstMipmapLevel = in->firstMipmapLevel;
    out->lastMipmapLevel = in->lastMipmapLevel;
    out->firstLayer = in->firstLayer;
    out->lastLayer = in->lastLayer;
}

static void rt_view_from_cu(const CUDA_RESOURCE_VIEW_DESC *in, struct cudaResourceViewDesc *out)
{
    memset(out, 0, sizeof *out);
    out->format = (enum cudaResourceViewFormat)in->format;
    out->width = in->width;
    out->height = in->height;
    out->depth = in->depth;
    out->firstMipmapLevel = in->firstMipmapLevel;
    out->lastMipmapLevel = in->lastMipmapLevel;
    out->firstLayer = in->firstLayer;
    out->lastLayer = in->lastLayer;
}

/* ---- texture objects ------------------------------------------------------------------------ */

static cudaError_t rt_texture_create(cudaTextureObject_t *object,
                                     const struct cudaResourceDesc *res,
                                     const struct cudaTextureDesc *tex,
                                     const struct cudaResourceViewDesc *view)
{
    if (!object || !res)
        return cudaErrorInvalidValue;
    if (!tex)
        return cudaErrorInvalidResourceHandle;      /* NVIDIA's answer (H200) */
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        return e;
    CUDA_RESOURCE_DESC cu_res;
    CUDA_TEXTURE_DESC cu_tex;
    CUDA_RESOURCE_VIEW_DESC cu_view;
    e = rt_resource_to_cu(res, &cu_res);
    if (e == cudaSuccess)
        e = rt_texture_to_cu(tex, &cu_tex);
    if (e != cudaSuccess)
        return e;
    if (view)
        rt_view_to_cu(view, &cu_view);
    CUtexObject handle = 0;
    e = rt_error_from_cu(rt_drv.cuTexObjectCreate(&handle, &cu_res, &cu_tex,
                                                  view ? &cu_view : NULL));
    rt_device_note_error(d, e);
    if (e == cudaSuccess)
        *object = (cudaTextureObject_t)handle;
    return e;
}

RT_API cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject,
                                           const struct cudaResourceDesc *pResDesc,
                                           const struct cudaTextureDesc *pTexDesc,
                                           const struct cudaResourceViewDesc *pResViewDesc)
{
    RT_ENTER();
    RT_RETURN(rt_texture_create(pTexObject, pResDesc, pTexDesc, pResViewDesc));
}

RT_API cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject)
{
    RT_ENTER();
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    e = rt_error_from_cu(rt_drv.cuTexObjectDestroy((CUtexObject)texObject));
    rt_device_note_error(d, e);
    RT_RETURN(e);
}

RT_API cudaError_t cudaGetTextureObjectResourceDesc(struct cudaResourceDesc *pResDesc,
                                                    cudaTextureObject_t texObject)
{
    RT_ENTER();
    if (!pResDesc)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    CUDA_RESOURCE_DESC cu_res;
    e = rt_error_from_cu(rt_drv.cuTexObjectGetResourceDesc(&cu_res, (CUtexObject)texObject));
    rt_device_note_error(d, e);
    if (e == cudaSuccess)
        rt_resource_from_cu(&cu_res, pResDesc);
    RT_RETURN(e);
}

RT_API cudaError_t cudaGetTextureObjectTextureDesc(struct cudaTextureDesc *pTexDesc,
                                                   cudaTextureObject_t texObject)
{
    RT_ENTER();
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    /* NVIDIA's runtime (H200) answers cudaErrorInvalidResourceHandle for a NULL output, whatever
     * the object, and cudaErrorInvalidValue for object 0, which the driver itself accepts. */
    if (!pTexDesc)
        RT_RETURN(cudaErrorInvalidResourceHandle);
    if (!texObject)
        RT_RETURN(cudaErrorInvalidValue);
    CUDA_TEXTURE_DESC cu_tex;
    e = rt_error_from_cu(rt_drv.cuTexObjectGetTextureDesc(&cu_tex, (CUtexObject)texObject));
    rt_device_note_error(d, e);
    if (e == cudaSuccess)
        rt_texture_from_cu(&cu_tex, pTexDesc);
    RT_RETURN(e);
}

/* A NULL output succeeds for a live object, nothing written (NVIDIA's runtime, H200).  For an
 * object made without a view the driver may leave the view unwritten: then it reads as zeros. */
RT_API cudaError_t cudaGetTextureObjectResourceViewDesc(struct cudaResourceViewDesc *pResViewDesc,
                                                        cudaTextureObject_t texObject)
{
    RT_ENTER();
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    CUDA_RESOURCE_VIEW_DESC cu_view;
    memset(&cu_view, 0, sizeof cu_view);
    e = rt_error_from_cu(rt_drv.cuTexObjectGetResourceViewDesc(&cu_view,
                                                               (CUtexObject)texObject));
    rt_device_note_error(d, e);
    if (e == cudaSuccess && pResViewDesc)
        rt_view_from_cu(&cu_view, pResViewDesc);
    RT_RETURN(e);
}

/* ---- surface objects ------------------------------------------------------------------------ */

RT_API cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject,
                                           const struct cudaResourceDesc *pResDesc)
{
    RT_ENTER();
    if (!pSurfObject || !pResDesc)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    CUDA_RESOURCE_DESC cu_res;
    e = rt_resource_to_cu(pResDesc, &cu_res);
    if (e != cudaSuccess)
        RT_RETURN(e);
    CUsurfObject handle = 0;
    e = rt_error_from_cu(rt_drv.cuSurfObjectCreate(&handle, &cu_res));
    rt_device_note_error(d, e);
    if (e == cudaSuccess)
        *pSurfObject = (cudaSurfaceObject_t)handle;
    RT_RETURN(e);
}

RT_API cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject)
{
    RT_ENTER();
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    e = rt_error_from_cu(rt_drv.cuSurfObjectDestroy((CUsurfObject)surfObject));
    rt_device_note_error(d, e);
    RT_RETURN(e);
}

RT_API cudaError_t cudaGetSurfaceObjectResourceDesc(struct cudaResourceDesc *pResDesc,
                                                    cudaSurfaceObject_t surfObject)
{
    RT_ENTER();
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    /* A NULL output: NVIDIA's runtime answers cudaErrorInvalidDevice on the H200 (not
     * cudaErrorInvalidValue), for a live surface and for none (the object 0, as a process's
     * first call) alike, before it asks the driver; so does minicudart. */
    if (!pResDesc)
        RT_RETURN(cudaErrorInvalidDevice);
    CUDA_RESOURCE_DESC cu_res;
    e = rt_error_from_cu(rt_drv.cuSurfObjectGetResourceDesc(&cu_res, (CUsurfObject)surfObject));
    rt_device_note_error(d, e);
    if (e == cudaSuccess)
        rt_resource_from_cu(&cu_res, pResDesc);
    RT_RETURN(e);
}

/* ---- the device's limit for linear textures of a format --------------------------------- */

/* The runtime describes the element by a channel descriptor, the driver by (CUarray_format,
 * channel count): translated as cudaMallocArray does.  A descriptor the driver cannot represent is
 * cudaErrorInvalidChannelDescriptor, as cudaMallocArray answers (measured on the H200; the
 * documentation names only cudaErrorInvalidValue).  The driver documents
 * CUDA_ERROR_INVALID_CONTEXT for it, so the context is entered first. */
RT_API cudaError_t cudaDeviceGetTexture1DLinearMaxWidth(size_t *maxWidthInElements,
                                                        const struct cudaChannelFormatDesc *fmtDesc,
                                                        int device)
{
    RT_ENTER();
    if (!maxWidthInElements || !fmtDesc)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    if (device < 0 || device >= rt_device_count)
        RT_RETURN(cudaErrorInvalidDevice);
    CUarray_format format;
    unsigned channels;
    e = rt_channel_to_format(fmtDesc, &format, &channels);
    if (e != cudaSuccess)
        RT_RETURN(e);
    RT_RETURN(rt_driver_result(d, rt_drv.cuDeviceGetTexture1DLinearMaxWidth(
        maxWidthInElements, format, channels, rt_devices[device].cu)));
}
