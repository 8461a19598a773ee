/*
 * memory_batch.c - batches of stream-ordered memory work (CUDA 12.8 and 13.0): copies between
 * pointers (cudaMemcpyBatchAsync), 3D copies between pointers and arrays
 * (cudaMemcpy3DBatchAsync), and prefetches and discards of managed ranges
 * (cudaMemPrefetchBatchAsync, cudaMemDiscardBatchAsync, cudaMemDiscardAndPrefetchBatchAsync),
 * each with its _ptsz twin, where stream 0 means the per-thread stream; and 13.5's single copies
 * with attributes, which are batches of one on a driver without them.
 *
 * Each is one driver call with the same arrays.  The runtime's types are the driver's with other
 * names: a pointer is a CUdeviceptr (unified addressing), a cudaArray_t a CUarray (array.c), and
 * the structures below have the same members at the same offsets (checked here at compile
 * time), so the caller's arrays are handed to the driver as they are, without a copy.
 *
 * The driver checks the batch: attribute and location indices (the first 0, increasing, each
 * below count), source access orders, zero sizes and extents, flags, locations, and the stream
 * (the legacy NULL stream is refused: a batch needs a stream of its own or the per-thread one).
 * The runtime checks only that the arrays it is told hold elements are there.  The driver entry
 * points are optional (driver_memory.def): without one the call answers cudaErrorNotSupported.
 * The CUDA 12.8 forms with a failIdx argument are not exported by libcudart.so.13, so the
 * driver is asked for the 13.0 signatures (ABI 13000).
 */
#include <stddef.h>

#include "memory/memory.h"

/* ---- the runtime's batch types are the driver's --------------------------------------------- */

_Static_assert(sizeof(void *) == sizeof(CUdeviceptr), "pointer arrays are CUdeviceptr arrays");
_Static_assert(sizeof(struct cudaMemLocation) == sizeof(CUmemLocation) &&
                   offsetof(struct cudaMemLocation, type) == offsetof(CUmemLocation, type) &&
                   offsetof(struct cudaMemLocation, id) == offsetof(CUmemLocation, id) &&
                   sizeof(enum cudaMemLocationType) == sizeof(CUmemLocationType),
               "locations differ");
_Static_assert((int)cudaMemLocationTypeHostNumaCurrent ==
                   (int)CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT,
               "location types differ");
_Static_assert((int)cudaMemcpySrcAccessOrderInvalid == (int)CU_MEMCPY_SRC_ACCESS_ORDER_INVALID &&
                   (int)cudaMemcpySrcAccessOrderStream == (int)CU_MEMCPY_SRC_ACCESS_ORDER_STREAM &&
                   (int)cudaMemcpySrcAccessOrderDuringApiCall ==
                       (int)CU_MEMCPY_SRC_ACCESS_ORDER_DURING_API_CALL &&
                   (int)cudaMemcpySrcAccessOrderAny == (int)CU_MEMCPY_SRC_ACCESS_ORDER_ANY &&
                   sizeof(enum cudaMemcpySrcAccessOrder) == sizeof(CUmemcpySrcAccessOrder),
               "source access orders differ");
_Static_assert((int)cudaMemcpyFlagPreferOverlapWithCompute ==
                   (int)CU_MEMCPY_FLAG_PREFER_OVERLAP_WITH_COMPUTE,
               "copy flags differ");
_Static_assert(sizeof(struct cudaMemcpyAttributes) == sizeof(CUmemcpyAttributes) &&
                   offsetof(struct cudaMemcpyAttributes, srcAccessOrder) ==
                       offsetof(CUmemcpyAttributes, srcAccessOrder) &&
                   offsetof(struct cudaMemcpyAttributes, srcLocHint) ==
                       offsetof(CUmemcpyAttributes, srcLocHint) &&
                   offsetof(struct cudaMemcpyAttributes, dstLocHint) ==
                       offsetof(CUmemcpyAttributes, dstLocHint) &&
                   offsetof(struct cudaMemcpyAttributes, flags) ==
                       offsetof(CUmemcpyAttributes, flags),
               "copy attributes differ");
_Static_assert((int)cudaMemcpyOperandTypePointer == (int)CU_MEMCPY_OPERAND_TYPE_POINTER &&
                   (int)cudaMemcpyOperandTypeArray == (int)CU_MEMCPY_OPERAND_TYPE_ARRAY &&
                   sizeof(enum cudaMemcpy3DOperandType) == sizeof(CUmemcpy3DOperandType),
               "operand types differ");
_Static_assert(sizeof(struct cudaMemcpy3DOperand) == sizeof(CUmemcpy3DOperand) &&
                   offsetof(struct cudaMemcpy3DOperand, type) ==
                       offsetof(CUmemcpy3DOperand, type) &&
                   offsetof(struct cudaMemcpy3DOperand, op.ptr.ptr) ==
                       offsetof(CUmemcpy3DOperand, op.ptr.ptr) &&
                   offsetof(struct cudaMemcpy3DOperand, op.ptr.rowLength) ==
                       offsetof(CUmemcpy3DOperand, op.ptr.rowLength) &&
                   offsetof(struct cudaMemcpy3DOperand, op.ptr.layerHeight) ==
                       offsetof(CUmemcpy3DOperand, op.ptr.layerHeight) &&
                   offsetof(struct cudaMemcpy3DOperand, op.ptr.locHint) ==
                       offsetof(CUmemcpy3DOperand, op.ptr.locHint) &&
                   offsetof(struct cudaMemcpy3DOperand, op.array.array) ==
                       offsetof(CUmemcpy3DOperand, op.array.array) &&
                   offsetof(struct cudaMemcpy3DOperand, op.array.offset) ==
                       offsetof(CUmemcpy3DOperand, op.array.offset) &&
                   sizeof(struct cudaOffset3D) == sizeof(CUoffset3D),
               "3D copy operands differ");
_Static_assert(sizeof(struct cudaMemcpy3DBatchOp) == sizeof(CUDA_MEMCPY3D_BATCH_OP) &&
                   offsetof(struct cudaMemcpy3DBatchOp, src) ==
                       offsetof(CUDA_MEMCPY3D_BATCH_OP, src) &&
                   offsetof(struct cudaMemcpy3DBatchOp, dst) ==
                       offsetof(CUDA_MEMCPY3D_BATCH_OP, dst) &&
                   offsetof(struct cudaMemcpy3DBatchOp, extent) ==
                       offsetof(CUDA_MEMCPY3D_BATCH_OP, extent) &&
                   offsetof(struct cudaMemcpy3DBatchOp, srcAccessOrder) ==
                       offsetof(CUDA_MEMCPY3D_BATCH_OP, srcAccessOrder) &&
                   offsetof(struct cudaMemcpy3DBatchOp, flags) ==
                       offsetof(CUDA_MEMCPY3D_BATCH_OP, flags) &&
                   sizeof(struct cudaExtent) == sizeof(CUextent3D),
               "3D batch operations differ");

/* Enters the context and checks that the optional driver entry point is there.  The entry is
 * read only after the context is entered: a batch may be a process's first CUDA call, and the
 * driver's table is empty until the driver is loaded. */
static cudaError_t rt_batch_enter(void *const *slot, const char *entry, rt_device **d)
{
    cudaError_t e = rt_context_enter(d);
    if (e != cudaSuccess)
        return e;
    return rt_driver_optional(*slot != NULL, entry);
}

/* ---- copies --------------------------------------------------------------------------------- */

static cudaError_t rt_memcpy_batch(void *const *dsts, const void *const *srcs, const size_t *sizes,
                                   size_t count, struct cudaMemcpyAttributes *attrs,
                                   size_t *attrsIdxs, size_t numAttrs, cudaStream_t stream)
{
    rt_device *d;
    cudaError_t e = rt_batch_enter((void *const *)&rt_drv.cuMemcpyBatchAsync,
                                   "cuMemcpyBatchAsync", &d);
    if (e != cudaSuccess)
        return e;
    if ((count && (!dsts || !srcs || !sizes)) || (numAttrs && (!attrs || !attrsIdxs)))
        return cudaErrorInvalidValue;
    /* The driver's arrays are not const-qualified; it only reads them. */
    /* Stream 0 is the legacy stream here even in the _ptsz entry point: NVIDIA's
     * cudaMemcpyBatchAsync_ptsz answers cudaErrorInvalidValue for it, as the plain one does
     * (measured on the H200), instead of copying on the per-thread stream.  So both entry
     * points share this one, with no per-thread flag. */
    CUresult r = rt_drv.cuMemcpyBatchAsync((CUdeviceptr *)(uintptr_t)dsts,
                                           (CUdeviceptr *)(uintptr_t)srcs,
                                           (size_t *)(uintptr_t)sizes, count,
                                           (CUmemcpyAttributes *)attrs, attrsIdxs, numAttrs,
                                           rt_stream(stream, false));
    return rt_driver_result(d, r);
}

/* The one body of cudaMemcpyBatchAsync and cudaMemcpyBatchAsync_ptsz (RT_FORWARD). */
static cudaError_t rt_memcpy_batch_api(void *const *dsts, const void *const *srcs,
                                       const size_t *sizes, size_t count,
                                       struct cudaMemcpyAttributes *attrs, size_t *attrsIdxs,
                                       size_t numAttrs, cudaStream_t stream, rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_memcpy_batch(dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, stream));
}

RT_API cudaError_t cudaMemcpyBatchAsync(void *const *dsts, const void *const *srcs,
                                        const size_t *sizes, size_t count,
                                        struct cudaMemcpyAttributes *attrs, size_t *attrsIdxs,
                                        size_t numAttrs, cudaStream_t stream)
{
    RT_FORWARD(rt_memcpy_batch_api(dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, stream,
                                   RT_SELF));
}

RT_API cudaError_t cudaMemcpyBatchAsync_ptsz(void *const *dsts, const void *const *srcs,
                                             const size_t *sizes, size_t count,
                                             struct cudaMemcpyAttributes *attrs,
                                             size_t *attrsIdxs, size_t numAttrs,
                                             cudaStream_t stream)
{
    RT_FORWARD(rt_memcpy_batch_api(dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, stream,
                                   RT_SELF));
}

static cudaError_t rt_memcpy_3d_batch(size_t numOps, struct cudaMemcpy3DBatchOp *opList,
                                      unsigned long long flags, cudaStream_t stream)
{
    rt_device *d;
    cudaError_t e = rt_batch_enter((void *const *)&rt_drv.cuMemcpy3DBatchAsync,
                                   "cuMemcpy3DBatchAsync", &d);
    if (e != cudaSuccess)
        return e;
    if (numOps && !opList)
        return cudaErrorInvalidValue;
    /* An array operand without an array crashes the driver (NVIDIA's runtime passes it on and
     * dies with it on the H200): refused here. */
    for (size_t i = 0; i < numOps; i++)
        if ((opList[i].src.type == cudaMemcpyOperandTypeArray && !opList[i].src.op.array.array) ||
            (opList[i].dst.type == cudaMemcpyOperandTypeArray && !opList[i].dst.op.array.array))
            return cudaErrorInvalidValue;
    /* Stream 0: the legacy stream in the _ptsz entry point too, as for cudaMemcpyBatchAsync. */
    return rt_driver_result(d, rt_drv.cuMemcpy3DBatchAsync(numOps,
                                                           (CUDA_MEMCPY3D_BATCH_OP *)opList,
                                                           flags, rt_stream(stream, false)));
}

/* The one body of cudaMemcpy3DBatchAsync and cudaMemcpy3DBatchAsync_ptsz (RT_FORWARD). */
static cudaError_t rt_memcpy_3d_batch_api(size_t numOps, struct cudaMemcpy3DBatchOp *opList,
                                          unsigned long long flags, cudaStream_t stream,
                                          rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_memcpy_3d_batch(numOps, opList, flags, stream));
}

RT_API cudaError_t cudaMemcpy3DBatchAsync(size_t numOps, struct cudaMemcpy3DBatchOp *opList,
                                          unsigned long long flags, cudaStream_t stream)
{
    RT_FORWARD(rt_memcpy_3d_batch_api(numOps, opList, flags, stream, RT_SELF));
}

RT_API cudaError_t cudaMemcpy3DBatchAsync_ptsz(size_t numOps, struct cudaMemcpy3DBatchOp *opList,
                                               unsigned long long flags, cudaStream_t stream)
{
    RT_FORWARD(rt_memcpy_3d_batch_api(numOps, opList, flags, stream, RT_SELF));
}

/* ---- one copy with attributes (CUDA 13.5) --------------------------------------------------- */

/*
 * cudaMemcpyWithAttributesAsync and cudaMemcpy3DWithAttributesAsync are one copy of the batches
 * above, with its attributes.  Drivers of 13.2 have them as entry points of their own.  An older
 * one (580 is 13.0) has the batches, and a batch of one copy with one set of attributes is the
 * same operation, so the runtime answers itself there (NVIDIA's 13.5 runtime answers
 * cudaErrorCallRequiresNewerDriver), with the batch's checks: a stream of the copy's own or the
 * per-thread one (0 in the _ptsz forms), a source access order, a size that is not 0.
 */
static cudaError_t rt_memcpy_with_attributes(void *dst, const void *src, size_t size,
                                             struct cudaMemcpyAttributes *attr, cudaStream_t stream,
                                             bool per_thread)
{
    if (!attr)
        return cudaErrorInvalidValue;
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        return e;
    CUstream s = rt_stream(stream, per_thread);
    if (rt_drv.cuMemcpyWithAttributesAsync)
        return rt_driver_result(d, rt_drv.cuMemcpyWithAttributesAsync(
                                       (CUdeviceptr)(uintptr_t)dst, (CUdeviceptr)(uintptr_t)src,
                                       size, (CUmemcpyAttributes *)attr, s));
    if ((e = rt_driver_newer(rt_drv.cuMemcpyBatchAsync != NULL, "cuMemcpyBatchAsync")) !=
        cudaSuccess)
        return e;
    CUdeviceptr dsts[1] = { (CUdeviceptr)(uintptr_t)dst };
    CUdeviceptr srcs[1] = { (CUdeviceptr)(uintptr_t)src };
    size_t sizes[1] = { size };
    size_t attrs_index[1] = { 0 };
    CUresult r = rt_drv.cuMemcpyBatchAsync(dsts, srcs, sizes, 1, (CUmemcpyAttributes *)attr,
                                           attrs_index, 1, s);
    RT_TRACE("%s(%zu bytes): the driver has no cuMemcpyWithAttributesAsync; answered as a batch "
             "of one: %d", rt_call_name(), size, (int)r);
    return rt_driver_result(d, r);
}

/* The one body of cudaMemcpyWithAttributesAsync and cudaMemcpyWithAttributesAsync_ptsz
 * (RT_FORWARD). */
static cudaError_t rt_memcpy_with_attributes_api(void *dst, const void *src, size_t size,
                                                 struct cudaMemcpyAttributes *attr,
                                                 cudaStream_t stream, bool per_thread, rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_memcpy_with_attributes(dst, src, size, attr, stream, per_thread));
}

RT_API cudaError_t cudaMemcpyWithAttributesAsync(void *dst, const void *src, size_t size,
                                                 struct cudaMemcpyAttributes *attr,
                                                 cudaStream_t stream)
{
    RT_FORWARD(rt_memcpy_with_attributes_api(dst, src, size, attr, stream, false, RT_SELF));
}

RT_API cudaError_t cudaMemcpyWithAttributesAsync_ptsz(void *dst, const void *src, size_t size,
                                                      struct cudaMemcpyAttributes *attr,
                                                      cudaStream_t stream)
{
    RT_FORWARD(rt_memcpy_with_attributes_api(dst, src, size, attr, stream, true, RT_SELF));
}

static cudaError_t rt_memcpy_3d_with_attributes(struct cudaMemcpy3DBatchOp *op,
                                                unsigned long long flags, cudaStream_t stream,
                                                bool per_thread)
{
    if (!op)
        return cudaErrorInvalidValue;
    /* As in the batch: an array operand without an array would crash the driver. */
    if ((op->src.type == cudaMemcpyOperandTypeArray && !op->src.op.array.array) ||
        (op->dst.type == cudaMemcpyOperandTypeArray && !op->dst.op.array.array))
        return cudaErrorInvalidValue;
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        return e;
    CUstream s = rt_stream(stream, per_thread);
    if (rt_drv.cuMemcpy3DWithAttributesAsync)
        return rt_driver_result(d, rt_drv.cuMemcpy3DWithAttributesAsync(
                                       (CUDA_MEMCPY3D_BATCH_OP *)op, flags, s));
    if ((e = rt_driver_newer(rt_drv.cuMemcpy3DBatchAsync != NULL, "cuMemcpy3DBatchAsync")) !=
        cudaSuccess)
        return e;
    CUresult r = rt_drv.cuMemcpy3DBatchAsync(1, (CUDA_MEMCPY3D_BATCH_OP *)op, flags, s);
    RT_TRACE("%s: no cuMemcpy3DWithAttributesAsync; as a batch of one: %d", rt_call_name(), (int)r);
    return rt_driver_result(d, r);
}

/* The one body of cudaMemcpy3DWithAttributesAsync and cudaMemcpy3DWithAttributesAsync_ptsz
 * (RT_FORWARD). */
static cudaError_t rt_memcpy_3d_with_attributes_api(struct cudaMemcpy3DBatchOp *op,
                                                    unsigned long long flags, cudaStream_t stream,
                                                    bool per_thread, rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_memcpy_3d_with_attributes(op, flags, stream, per_thread));
}

RT_API cudaError_t cudaMemcpy3DWithAttributesAsync(struct cudaMemcpy3DBatchOp *op,
                                                   unsigned long long flags, cudaStream_t stream)
{
    RT_FORWARD(rt_memcpy_3d_with_attributes_api(op, flags, stream, false, RT_SELF));
}

RT_API cudaError_t cudaMemcpy3DWithAttributesAsync_ptsz(struct cudaMemcpy3DBatchOp *op,
                                                        unsigned long long flags,
                                                        cudaStream_t stream)
{
    RT_FORWARD(rt_memcpy_3d_with_attributes_api(op, flags, stream, true, RT_SELF));
}

/* ---- prefetches and discards ---------------------------------------------------------------- */

/* What the three managed-memory batches do. */
typedef enum rt_range_op { RT_PREFETCH, RT_DISCARD, RT_DISCARD_AND_PREFETCH } rt_range_op;

static cudaError_t rt_range_batch(rt_range_op op, void **dptrs, size_t *sizes, size_t count,
                                  struct cudaMemLocation *locs, size_t *locIdxs, size_t numLocs,
                                  unsigned long long flags, cudaStream_t stream, bool per_thread)
{
    static const char *const entry[] = {"cuMemPrefetchBatchAsync", "cuMemDiscardBatchAsync",
                                        "cuMemDiscardAndPrefetchBatchAsync"};
    void *const *slot =
        op == RT_PREFETCH  ? (void *const *)&rt_drv.cuMemPrefetchBatchAsync
        : op == RT_DISCARD ? (void *const *)&rt_drv.cuMemDiscardBatchAsync
                           : (void *const *)&rt_drv.cuMemDiscardAndPrefetchBatchAsync;
    rt_device *d;
    cudaError_t e = rt_batch_enter(slot, entry[op], &d);
    if (e != cudaSuccess)
        return e;
    if ((count && (!dptrs || !sizes)) || (op != RT_DISCARD && numLocs && (!locs || !locIdxs)))
        return cudaErrorInvalidValue;
    CUdeviceptr *ptrs = (CUdeviceptr *)(uintptr_t)dptrs;
    CUmemLocation *where = (CUmemLocation *)locs;
    CUstream s = rt_stream(stream, per_thread);
    CUresult r;
    if (op == RT_PREFETCH)
        r = rt_drv.cuMemPrefetchBatchAsync(ptrs, sizes, count, where, locIdxs, numLocs, flags, s);
    else if (op == RT_DISCARD)
        r = rt_drv.cuMemDiscardBatchAsync(ptrs, sizes, count, flags, s);
    else
        r = rt_drv.cuMemDiscardAndPrefetchBatchAsync(ptrs, sizes, count, where, locIdxs, numLocs,
                                                     flags, s);
    return rt_driver_result(d, r);
}

/* The one body of cudaMemPrefetchBatchAsync, cudaMemPrefetchBatchAsync_ptsz,
 * cudaMemDiscardBatchAsync, cudaMemDiscardBatchAsync_ptsz, cudaMemDiscardAndPrefetchBatchAsync
 * and cudaMemDiscardAndPrefetchBatchAsync_ptsz (RT_FORWARD). */
static cudaError_t rt_range_batch_api(rt_api api, rt_range_op op, void **dptrs, size_t *sizes,
                                      size_t count, struct cudaMemLocation *locs, size_t *locIdxs,
                                      size_t numLocs, unsigned long long flags,
                                      cudaStream_t stream, bool per_thread)
{
    RT_ENTER_AS(api);
    RT_RETURN(rt_range_batch(op,
                                   dptrs,
                                   sizes,
                                   count,
                                   locs,
                                   locIdxs,
                                   numLocs,
                                   flags,
                                   stream,
                                   per_thread));
}

RT_API cudaError_t cudaMemPrefetchBatchAsync(void **dptrs, size_t *sizes, size_t count,
                                             struct cudaMemLocation *prefetchLocs,
                                             size_t *prefetchLocIdxs, size_t numPrefetchLocs,
                                             unsigned long long flags, cudaStream_t stream)
{
    RT_FORWARD(rt_range_batch_api(RT_SELF, RT_PREFETCH, dptrs, sizes, count, prefetchLocs,
                                  prefetchLocIdxs, numPrefetchLocs, flags, stream, false));
}

RT_API cudaError_t cudaMemPrefetchBatchAsync_ptsz(void **dptrs, size_t *sizes, size_t count,
                                                  struct cudaMemLocation *prefetchLocs,
                                                  size_t *prefetchLocIdxs,
                                                  size_t numPrefetchLocs,
                                                  unsigned long long flags, cudaStream_t stream)
{
    RT_FORWARD(rt_range_batch_api(RT_SELF, RT_PREFETCH, dptrs, sizes, count, prefetchLocs,
                                  prefetchLocIdxs, numPrefetchLocs, flags, stream, true));
}

RT_API cudaError_t cudaMemDiscardBatchAsync(void **dptrs, size_t *sizes, size_t count,
                                            unsigned long long flags, cudaStream_t stream)
{
    RT_FORWARD(rt_range_batch_api(RT_SELF, RT_DISCARD, dptrs, sizes, count, NULL, NULL, 0, flags,
                                  stream, false));
}

RT_API cudaError_t cudaMemDiscardBatchAsync_ptsz(void **dptrs, size_t *sizes, size_t count,
                                                 unsigned long long flags, cudaStream_t stream)
{
    RT_FORWARD(rt_range_batch_api(RT_SELF, RT_DISCARD, dptrs, sizes, count, NULL, NULL, 0, flags,
                                  stream, true));
}

RT_API cudaError_t cudaMemDiscardAndPrefetchBatchAsync(void **dptrs, size_t *sizes, size_t count,
                                                       struct cudaMemLocation *prefetchLocs,
                                                       size_t *prefetchLocIdxs,
                                                       size_t numPrefetchLocs,
                                                       unsigned long long flags,
                                                       cudaStream_t stream)
{
    RT_FORWARD(rt_range_batch_api(RT_SELF, RT_DISCARD_AND_PREFETCH, dptrs, sizes, count,
                                  prefetchLocs, prefetchLocIdxs, numPrefetchLocs, flags, stream,
                                  false));
}

RT_API cudaError_t cudaMemDiscardAndPrefetchBatchAsync_ptsz(void **dptrs, size_t *sizes,
                                                            size_t count,
                                                            struct cudaMemLocation *prefetchLocs,
                                                            size_t *prefetchLocIdxs,
                                                            size_t numPrefetchLocs,
                                                            unsigned long long flags,
                                                            cudaStream_t stream)
{
    RT_FORWARD(rt_range_batch_api(RT_SELF, RT_DISCARD_AND_PREFETCH, dptrs, sizes, count,
                                  prefetchLocs, prefetchLocIdxs, numPrefetchLocs, flags, stream,
                                  true));
}
