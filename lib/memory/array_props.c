/*
 * array_props.c - what an array is: its descriptor (cudaArrayGetInfo, cudaGetChannelDesc), its
 * planes (cudaArrayGetPlane), the layout of a sparse array or mipmapped array
 * (cudaArrayGetSparseProperties, cudaMipmappedArrayGetSparseProperties) and the memory a
 * deferred-mapping one needs (cudaArrayGetMemoryRequirements,
 * cudaMipmappedArrayGetMemoryRequirements).  array.c makes, frees and copies arrays.
 *
 * Every answer is the driver's, about the driver's handle (a cudaArray_t is a CUarray, array.c):
 * the runtime checks its output pointers and device ordinals, enters the context, and
 * translates.  The queries beyond the descriptor are optional driver entry points
 * (driver_array.def): without one the call answers cudaErrorNotSupported.
 */
#include <string.h>

#include "memory/array.h"

_Static_assert(cudaArraySparsePropertiesSingleMipTail == CU_ARRAY_SPARSE_PROPERTIES_SINGLE_MIPTAIL,
               "sparse property flags differ");

/* ---- the descriptor ------------------------------------------------------------------------- */

cudaError_t rt_array_descriptor(cudaArray_const_t array, CUDA_ARRAY3D_DESCRIPTOR *out)
{
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        return e;
    e = rt_error_from_cu(rt_drv.cuArray3DGetDescriptor(out, (CUarray)array));
    rt_device_note_error(d, e);
    return e;
}

RT_API cudaError_t cudaArrayGetInfo(struct cudaChannelFormatDesc *desc, struct cudaExtent *extent,
                                    unsigned int *flags, cudaArray_t array)
{
    RT_ENTER();
    CUDA_ARRAY3D_DESCRIPTOR ad;
    cudaError_t e = rt_array_descriptor(array, &ad);
    if (e != cudaSuccess)
        RT_RETURN(e);
    if (desc)
        *desc = rt_channel_from_format(ad.Format, ad.NumChannels);
    if (extent) {
        extent->width = ad.Width;
        extent->height = ad.Height;
        extent->depth = ad.Depth;
    }
    if (flags)
        *flags = ad.Flags;
    RT_RETURN(cudaSuccess);
}

RT_API cudaError_t cudaGetChannelDesc(struct cudaChannelFormatDesc *desc, cudaArray_const_t array)
{
    RT_ENTER();
    if (!desc)
        RT_RETURN(cudaErrorInvalidValue);
    CUDA_ARRAY3D_DESCRIPTOR ad;
    cudaError_t e = rt_array_descriptor(array, &ad);
    if (e == cudaSuccess)
        *desc = rt_channel_from_format(ad.Format, ad.NumChannels);
    RT_RETURN(e);
}

/* ---- planes --------------------------------------------------------------------------------- */

/* A plane of a multi-planar array (NV12: plane 0 the luma, one 8-bit channel at full size; plane
 * 1 the chroma, two 8-bit channels at half width and height) is a CUarray the driver made with
 * the parent and destroys with it.  The runtime keeps no record of it, as of a mipmapped array's
 * levels: it is valid exactly as long as its parent, and cudaFreeArray of a plane is the driver's
 * to refuse.  The driver answers an array without planes, or a plane index past its last, with
 * cudaErrorInvalidValue. */
RT_API cudaError_t cudaArrayGetPlane(cudaArray_t *pPlaneArray, cudaArray_t hArray,
                                     unsigned int planeIdx)
{
    RT_ENTER();
    /* A NULL array before a NULL output: cudaErrorInvalidResourceHandle, NVIDIA's answer with
     * both NULL (H200), as in cudaGetMipmappedArrayLevel (array.c). */
    if (!hArray)
        RT_RETURN(cudaErrorInvalidResourceHandle);
    if (!pPlaneArray)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e == cudaSuccess)
        e = rt_driver_optional(rt_drv.cuArrayGetPlane != NULL, "cuArrayGetPlane");
    if (e != cudaSuccess)
        RT_RETURN(e);
    CUarray plane = NULL;
    e = rt_driver_result(d, rt_drv.cuArrayGetPlane(&plane, (CUarray)hArray, planeIdx));
    if (e == cudaSuccess)
        *pPlaneArray = (cudaArray_t)plane;
    RT_RETURN(e);
}

/* ---- sparse layout -------------------------------------------------------------------------- */

static void rt_sparse_from_driver(struct cudaArraySparseProperties *out,
                                  const CUDA_ARRAY_SPARSE_PROPERTIES *p)
{
    memset(out, 0, sizeof *out);
    out->tileExtent.width = p->tileExtent.width;
    out->tileExtent.height = p->tileExtent.height;
    out->tileExtent.depth = p->tileExtent.depth;
    out->miptailFirstLevel = p->miptailFirstLevel;
    out->miptailSize = p->miptailSize;
    out->flags = p->flags;
}

/* One of the two sparse queries: `array` or `mipmap` (the other NULL) through the driver.  An
 * array made without cudaArraySparse, or a level of a mipmapped array, is the driver's
 * cudaErrorInvalidValue. */
static cudaError_t rt_sparse_properties(struct cudaArraySparseProperties *out, bool mipmapped,
                                        const void *handle)
{
    if (!out)
        return cudaErrorInvalidValue;
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        return e;
    e = mipmapped ? rt_driver_optional(rt_drv.cuMipmappedArrayGetSparseProperties != NULL,
                                       "cuMipmappedArrayGetSparseProperties")
                  : rt_driver_optional(rt_drv.cuArrayGetSparseProperties != NULL,
                                       "cuArrayGetSparseProperties");
    if (e != cudaSuccess)
        return e;
    CUDA_ARRAY_SPARSE_PROPERTIES p;
    memset(&p, 0, sizeof p);
    CUresult r = mipmapped
                     ? rt_drv.cuMipmappedArrayGetSparseProperties(&p, (CUmipmappedArray)handle)
                     : rt_drv.cuArrayGetSparseProperties(&p, (CUarray)handle);
    e = rt_driver_result(d, r);
    if (e == cudaSuccess)
        rt_sparse_from_driver(out, &p);
    return e;
}

/* The one body of cudaArrayGetSparseProperties and cudaMipmappedArrayGetSparseProperties
 * (RT_FORWARD). */
static cudaError_t rt_sparse_properties_api(struct cudaArraySparseProperties *out, bool mipmapped,
                                            const void *handle, rt_api api)
{
    RT_ENTER_AS(api);
    RT_RETURN(rt_sparse_properties(out, mipmapped, handle));
}

RT_API cudaError_t cudaArrayGetSparseProperties(struct cudaArraySparseProperties *sparseProperties,
                                                cudaArray_t array)
{
    RT_FORWARD(rt_sparse_properties_api(sparseProperties, false, array, RT_SELF));
}

RT_API cudaError_t cudaMipmappedArrayGetSparseProperties(
    struct cudaArraySparseProperties *sparseProperties, cudaMipmappedArray_t mipmap)
{
    RT_FORWARD(rt_sparse_properties_api(sparseProperties, true, mipmap, RT_SELF));
}

/* ---- memory requirements -------------------------------------------------------------------- */

/* One of the two requirement queries, for the array or mipmapped array `handle` on `device`.
 * The driver answers an array made without cudaArrayDeferredMapping with cudaErrorInvalidValue. */
static cudaError_t rt_memory_requirements(struct cudaArrayMemoryRequirements *out, bool mipmapped,
                                          const void *handle, int device)
{
    if (!out)
        return cudaErrorInvalidValue;
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        return e;
    if (device < 0 || device >= rt_device_count)
        return cudaErrorInvalidValue;           /* not InvalidDevice: NVIDIA's answer (H200) */
    e = mipmapped ? rt_driver_optional(rt_drv.cuMipmappedArrayGetMemoryRequirements != NULL,
                                       "cuMipmappedArrayGetMemoryRequirements")
                  : rt_driver_optional(rt_drv.cuArrayGetMemoryRequirements != NULL,
                                       "cuArrayGetMemoryRequirements");
    if (e != cudaSuccess)
        return e;
    CUDA_ARRAY_MEMORY_REQUIREMENTS r;
    memset(&r, 0, sizeof r);
    CUdevice cu = rt_devices[device].cu;
    CUresult result = mipmapped ? rt_drv.cuMipmappedArrayGetMemoryRequirements(
                                      &r, (CUmipmappedArray)handle, cu)
                                : rt_drv.cuArrayGetMemoryRequirements(&r, (CUarray)handle, cu);
    e = rt_driver_result(d, result);
    if (e == cudaSuccess) {
        memset(out, 0, sizeof *out);
        out->size = r.size;
        out->alignment = r.alignment;
    }
    return e;
}

/* The one body of cudaArrayGetMemoryRequirements and cudaMipmappedArrayGetMemoryRequirements
 * (RT_FORWARD). */
static cudaError_t rt_memory_requirements_api(struct cudaArrayMemoryRequirements *out,
                                              bool mipmapped, const void *handle, int device,
                                              rt_api api)
{
    RT_ENTER_AS(api);
    RT_RETURN(rt_memory_requirements(out, mipmapped, handle, device));
}

RT_API cudaError_t cudaArrayGetMemoryRequirements(
    struct cudaArrayMemoryRequirements *memoryRequirements, cudaArray_t array, int device)
{
    RT_FORWARD(rt_memory_requirements_api(memoryRequirements, false, array, device, RT_SELF));
}

RT_API cudaError_t cudaMipmappedArrayGetMemoryRequirements(
    struct cudaArrayMemoryRequirements *memoryRequirements, cudaMipmappedArray_t mipmap,
    int device)
{
    RT_FORWARD(rt_memory_requirements_api(memoryRequirements, true, mipmap, device, RT_SELF));
}
