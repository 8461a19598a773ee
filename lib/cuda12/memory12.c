/*
 * cuda12/memory12.c - memory as CUDA 12.9's ABI has it: advice and prefetches aimed at a device
 * number, batch copies with a failIdx, pointer attributes of 24 bytes, and
 * textures' and surfaces' resource descriptors of 64 and 48 bytes.  Pools are the body's: 12.9
 * accepts one on the host as 13 does (H200), whatever its header says.
 */
#include <stdint.h>
#include <string.h>

#include "cuda12/cuda12.h"

/* ---- a device number where 13 takes a location ---------------------------------------------- */

/* 12.9: "a device ordinal, or cudaCpuDeviceId for the host" -- 13's {Device, n} or {Host}. */
static struct cudaMemLocation rt12_location(int device)
{
    struct cudaMemLocation l;
    memset(&l, 0, sizeof l);
    if (device == cudaCpuDeviceId) {
        l.type = cudaMemLocationTypeHost;
    } else {
        l.type = cudaMemLocationTypeDevice;
        l.id = device;
    }
    return l;
}

/* Whether an advice names its device: the others ignore the argument (12.9's header). */
static bool rt12_advice_uses_device(enum cudaMemoryAdvise advice)
{
    return advice == cudaMemAdviseSetPreferredLocation || advice == cudaMemAdviseSetAccessedBy ||
           advice == cudaMemAdviseUnsetAccessedBy;
}

/* A device number that is neither a device nor cudaCpuDeviceId is cudaErrorInvalidDevice in
 * 12.9, which hands the number to the driver's CUdevice form; 13's location form makes the driver
 * answer cudaErrorInvalidValue (both measured on the H200, tests/gpu/conf_cuda12.cu). */
RT_API cudaError_t cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice,
                                 int device)
{
    RT_ENTER();
    if (rt12_advice_uses_device(advice) && device != cudaCpuDeviceId) {
        cudaError_t e = rt_devices_init();
        if (e != cudaSuccess)
            RT_RETURN(e);
        if (device < 0 || device >= rt_device_count)
            RT_RETURN(cudaErrorInvalidDevice);
    }
    RT12_RETURN_CALLED(cudaMemAdvise_v2(devPtr, count, advice, rt12_location(device)));
}

RT_API cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, int dstDevice,
                                        cudaStream_t stream)
{
    RT_ENTER();
    RT12_RETURN_CALLED(cudaMemPrefetchAsync_v2(devPtr, count, rt12_location(dstDevice), 0, stream));
}

RT_API cudaError_t cudaMemPrefetchAsync_ptsz(const void *devPtr, size_t count, int dstDevice,
                                             cudaStream_t stream)
{
    RT_ENTER();
    RT12_RETURN_CALLED(cudaMemPrefetchAsync_v2_ptsz(devPtr, count, rt12_location(dstDevice), 0,
                                                    stream));
}

/* ---- batch copies with failIdx (12.8 and 12.9) ---------------------------------------------- */

/* 12.9's failIdx: "the index of the copy where a failure was encountered ... SIZE_MAX if the
 * error doesn't pertain to any specific copy".  The body asks the driver for 13.0's form, which
 * reports no index, so a failure is never attributed to one copy: SIZE_MAX.  A success leaves it
 * as it was. */
static cudaError_t rt12_fail_index(cudaError_t e, size_t *failIdx)
{
    if (e != cudaSuccess && failIdx)
        *failIdx = SIZE_MAX;
    return e;
}

RT_API cudaError_t cudaMemcpyBatchAsync(void **dsts, void **srcs, size_t *sizes, size_t count,
                                        struct cudaMemcpyAttributes *attrs, size_t *attrsIdxs,
                                        size_t numAttrs, size_t *failIdx, cudaStream_t stream)
{
    RT_ENTER();
    cudaError_t e = rt_v13_cudaMemcpyBatchAsync(dsts, (const void *const *)srcs, sizes, count,
                                                attrs, attrsIdxs, numAttrs, stream);
    RT12_RETURN_CALLED(rt12_fail_index(e, failIdx));
}

RT_API cudaError_t cudaMemcpyBatchAsync_ptsz(void **dsts, void **srcs, size_t *sizes,
                                             size_t count, struct cudaMemcpyAttributes *attrs,
                                             size_t *attrsIdxs, size_t numAttrs,
                                             size_t *failIdx, cudaStream_t stream)
{
    RT_ENTER();
    cudaError_t e = rt_v13_cudaMemcpyBatchAsync_ptsz(dsts, (const void *const *)srcs, sizes,
                                                     count, attrs, attrsIdxs, numAttrs, stream);
    RT12_RETURN_CALLED(rt12_fail_index(e, failIdx));
}

RT_API cudaError_t cudaMemcpy3DBatchAsync(size_t numOps, struct cudaMemcpy3DBatchOp *opList,
                                          size_t *failIdx, unsigned long long flags,
                                          cudaStream_t stream)
{
    RT_ENTER();
    cudaError_t e = rt_v13_cudaMemcpy3DBatchAsync(numOps, opList, flags, stream);
    RT12_RETURN_CALLED(rt12_fail_index(e, failIdx));
}

RT_API cudaError_t cudaMemcpy3DBatchAsync_ptsz(size_t numOps, struct cudaMemcpy3DBatchOp *opList,
                                               size_t *failIdx, unsigned long long flags,
                                               cudaStream_t stream)
{
    RT_ENTER();
    cudaError_t e = rt_v13_cudaMemcpy3DBatchAsync_ptsz(numOps, opList, flags, stream);
    RT12_RETURN_CALLED(rt12_fail_index(e, failIdx));
}

/* ---- pointer attributes: 24 bytes ----------------------------------------------------------- */

/* Each output struct is filled as 13's on the face's stack and only 12.9's bytes are copied out.
 * A NULL output goes to the body as NULL, so that the answer (and which check comes first) is the
 * 13 library's: a check of its own here answered cudaErrorInvalidValue where the body answers
 * cudaErrorInvalidDevice for a live surface (tests/gpu's conf_misuse_array, built by hand by nvcc 12.4
 * with 12.9's headers, told the two libraries apart on the fake). */
_Static_assert(offsetof(struct cudaPointerAttributes, hostPointer) ==
                   offsetof(struct rt12_pointer_attributes, hostPointer),
               "12.9's pointer attributes are the start of 13's");

RT_API cudaError_t cudaPointerGetAttributes(struct rt12_pointer_attributes *attributes,
                                            const void *ptr)
{
    RT_ENTER();
    struct cudaPointerAttributes a13;
    cudaError_t e = rt_v13_cudaPointerGetAttributes(attributes ? &a13 : NULL, ptr);
    if (e == cudaSuccess && attributes)
        memcpy(attributes, &a13, sizeof *attributes);
    RT12_RETURN_CALLED(e);
}

/* ---- textures and surfaces: resource descriptors of 64 and 48 bytes ------------------------- */

/* 12.9's descriptors are the start of 13's: 13 grew the resource union to 128 bytes (12.9's
 * members keep their offsets) and appended a flags word, and appended reserved words to the
 * view descriptor.  In: 12.9's bytes into a zeroed 13 struct.  Out: the first bytes of 13's. */
_Static_assert(offsetof(struct cudaResourceDesc, res.pitch2D.pitchInBytes) ==
                   offsetof(struct rt12_resource_desc, res.pitch2D.pitchInBytes),
               "12.9's resource descriptor is the start of 13's");
_Static_assert(offsetof(struct cudaResourceViewDesc, lastLayer) ==
                   offsetof(struct rt12_resource_view_desc, lastLayer),
               "12.9's resource view descriptor is the start of 13's");

static const struct cudaResourceDesc *rt12_resource_in(const struct rt12_resource_desc *in,
                                                       struct cudaResourceDesc *out)
{
    if (!in)
        return NULL;
    memset(out, 0, sizeof *out);
    memcpy(out, in, sizeof *in);
    return out;
}

RT_API cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject,
                                           const struct rt12_resource_desc *pResDesc,
                                           const struct cudaTextureDesc *pTexDesc,
                                           const struct rt12_resource_view_desc *pResViewDesc)
{
    RT_ENTER();
    struct cudaResourceDesc res;
    struct cudaResourceViewDesc view;
    const struct cudaResourceViewDesc *view13 = NULL;
    if (pResViewDesc) {
        memset(&view, 0, sizeof view);
        memcpy(&view, pResViewDesc, sizeof *pResViewDesc);
        view13 = &view;
    }
    RT12_RETURN_CALLED(rt_v13_cudaCreateTextureObject(pTexObject, rt12_resource_in(pResDesc, &res),
                                                      pTexDesc, view13));
}

RT_API cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject,
                                           const struct rt12_resource_desc *pResDesc)
{
    RT_ENTER();
    struct cudaResourceDesc res;
    RT12_RETURN_CALLED(rt_v13_cudaCreateSurfaceObject(pSurfObject, rt12_resource_in(pResDesc,
                                                      &res)));
}

RT_API cudaError_t cudaGetTextureObjectResourceDesc(struct rt12_resource_desc *pResDesc,
                                                    cudaTextureObject_t texObject)
{
    RT_ENTER();
    struct cudaResourceDesc res;
    cudaError_t e = rt_v13_cudaGetTextureObjectResourceDesc(pResDesc ? &res : NULL, texObject);
    if (e == cudaSuccess && pResDesc)
        memcpy(pResDesc, &res, sizeof *pResDesc);
    RT12_RETURN_CALLED(e);
}

RT_API cudaError_t cudaGetSurfaceObjectResourceDesc(struct rt12_resource_desc *pResDesc,
                                                    cudaSurfaceObject_t surfObject)
{
    RT_ENTER();
    struct cudaResourceDesc res;
    cudaError_t e = rt_v13_cudaGetSurfaceObjectResourceDesc(pResDesc ? &res : NULL, surfObject);
    if (e == cudaSuccess && pResDesc)
        memcpy(pResDesc, &res, sizeof *pResDesc);
    RT12_RETURN_CALLED(e);
}

RT_API cudaError_t cudaGetTextureObjectResourceViewDesc(
    struct rt12_resource_view_desc *pResViewDesc, cudaTextureObject_t texObject)
{
    RT_ENTER();
    struct cudaResourceViewDesc view;
    cudaError_t e = rt_v13_cudaGetTextureObjectResourceViewDesc(pResViewDesc ? &view : NULL,
                                                                texObject);
    if (e == cudaSuccess && pResViewDesc)
        memcpy(pResViewDesc, &view, sizeof *pResViewDesc);
    RT12_RETURN_CALLED(e);
}
