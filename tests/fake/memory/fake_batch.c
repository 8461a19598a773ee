/*
 * fake_batch.c - the fake driver's batches (CUDA 13.0 signatures): cuMemcpyBatchAsync,
 * cuMemcpy3DBatchAsync, cuMemPrefetchBatchAsync, cuMemDiscardBatchAsync and
 * cuMemDiscardAndPrefetchBatchAsync.
 *
 * What it models, and how strictly:
 *   - The stream must be one of the context's, or the per-thread stream: the legacy NULL stream
 *     (0 or CU_STREAM_LEGACY) is CUDA_ERROR_INVALID_VALUE, as the documentation says; a stream
 *     that does not exist is CUDA_ERROR_INVALID_HANDLE.
 *   - A batch is checked whole before any of it runs: count (numOps) not 0 and its arrays
 *     present; the attribute or location index array starting at 0, increasing, each entry
 *     below count, no longer than count; source access orders Stream, DuringApiCall or Any;
 *     copy flags only PreferOverlapWithCompute; batch flags 0; 3D extents not zero, row lengths
 *     and layer heights 0 or at least the extent, arrays that exist and, when both operands are
 *     arrays, of one element size; prefetch locations a device of the fake or a host kind;
 *     ranges of prefetches and discards inside one managed allocation, not empty.
 *   - Copies copy at once (host memory), whatever the access order; on a capturing stream each
 *     becomes a memcpy node instead.  Prefetches and discards move only the residency that
 *     cuMemGetLocationInfo reports (fake_residency.c); discarded contents are left as they were
 *     (an allowed "indeterminate").
 *   - cuMemcpyWithAttributesAsync and cuMemcpy3DWithAttributesAsync (13.2) are one copy of each
 *     batch, checked and done the same way; cuda.h does not keep them off the legacy stream, so
 *     the fake takes every valid stream for them.
 * The call log shows the batch: its sizes (the first four) and locations, for the tests to check
 * the translation.
 */
#include "memory/fake_array.h"
#include "fake_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SHOWN 4                 /* entries of a batch shown in the call log */

/* ---- checks shared by the batches ----------------------------------------------------------- */

static CUresult batch_stream(CUstream stream)
{
    if (!stream || stream == CU_STREAM_LEGACY)
        return CUDA_ERROR_INVALID_VALUE;
    return fake_stream_check(stream);
}

/* The index array of attributes or locations: n entries, the first 0, increasing, below count. */
static CUresult check_indices(const size_t *idx, size_t n, size_t count)
{
    if (n == 0 || n > count || !idx || idx[0] != 0)
        return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 1; i < n; i++)
        if (idx[i] <= idx[i - 1] || idx[i] >= count)
            return CUDA_ERROR_INVALID_VALUE;
    return CUDA_SUCCESS;
}

static int order_valid(CUmemcpySrcAccessOrder order)
{
    return order == CU_MEMCPY_SRC_ACCESS_ORDER_STREAM ||
           order == CU_MEMCPY_SRC_ACCESS_ORDER_DURING_API_CALL ||
           order == CU_MEMCPY_SRC_ACCESS_ORDER_ANY;
}

static int copy_flags_valid(unsigned flags)
{
    return (flags & ~(unsigned)CU_MEMCPY_FLAG_PREFER_OVERLAP_WITH_COMPUTE) == 0;
}

static int location_valid(CUmemLocation loc)
{
    if (loc.type == CU_MEM_LOCATION_TYPE_DEVICE)
        return loc.id >= 0 && loc.id < fake_g.device_count;
    return loc.type == CU_MEM_LOCATION_TYPE_HOST || loc.type == CU_MEM_LOCATION_TYPE_HOST_NUMA ||
           loc.type == CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT;
}

/* Whether [p, p+n) is a non-empty range inside one managed allocation. */
static int managed_range(CUdeviceptr p, size_t n)
{
    const unsigned char *b = (const unsigned char *)(uintptr_t)p;
    for (size_t i = 0; i < fake_g.allocs.count; i++) {
        fake_alloc *a = fake_g.allocs.items[i];
        if (b >= a->ptr && b < a->ptr + a->size)
            return a->managed && n > 0 && n <= (size_t)(a->ptr + a->size - b);
    }
    return 0;
}

/* "s0,s1,s2,s3..." of the first sizes, for the call log. */
static const char *show_sizes(char *buf, size_t cap, const size_t *sizes, size_t count)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; sizes && i < count && i < SHOWN && used < cap; i++)
        used += (size_t)snprintf(buf + used, cap - used, "%s%zu", i ? "," : "", sizes[i]);
    if (sizes && count > SHOWN && used < cap)
        snprintf(buf + used, cap - used, "...");
    return buf;
}

/* ---- copies between pointers ---------------------------------------------------------------- */

static CUresult check_copy_batch(CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes,
                                 size_t count, CUmemcpyAttributes *attrs, size_t *idxs,
                                 size_t n, CUstream stream)
{
    CUresult rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS)
        rc = batch_stream(stream);
    if (rc == CUDA_SUCCESS && (count == 0 || !dsts || !srcs || !sizes || !attrs))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = check_indices(idxs, n, count);
    for (size_t i = 0; rc == CUDA_SUCCESS && i < n; i++)
        if (!order_valid(attrs[i].srcAccessOrder) || !copy_flags_valid(attrs[i].flags))
            rc = CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; rc == CUDA_SUCCESS && i < count; i++) {
        const void *d = (const void *)(uintptr_t)dsts[i], *s = (const void *)(uintptr_t)srcs[i];
        if (sizes[i] && (!d || !s || fake_is_retired(d, sizes[i]) || fake_is_retired(s, sizes[i])))
            rc = CUDA_ERROR_INVALID_VALUE;
    }
    return rc;
}

/* One copy of a batch: a node on a capturing stream, else done now. */
static void copy_one(CUstream stream, CUdeviceptr dst, CUdeviceptr src, size_t size,
                     CUresult *rc)
{
    const CUDA_MEMCPY3D node = { .srcMemoryType = CU_MEMORYTYPE_UNIFIED, .srcDevice = src,
                                 .dstMemoryType = CU_MEMORYTYPE_UNIFIED, .dstDevice = dst,
                                 .WidthInBytes = size, .Height = 1, .Depth = 1 };
    if (size && !fake_capture_copy(stream, &node, rc))
        memmove((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, size);
}

static CUresult CUDAAPI f_cuMemcpyBatchAsync(CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes,
                                             size_t count, CUmemcpyAttributes *attrs,
                                             size_t *idxs, size_t n, CUstream stream)
{
    char shown[64];
    CUresult rc = fake_enter("cuMemcpyBatchAsync",
                             "count=%zu sizes=%s numAttrs=%zu order=%d flags=0x%x stream=%p",
                             count, show_sizes(shown, sizeof shown, sizes, count), n,
                             attrs && n ? (int)attrs[0].srcAccessOrder : -1,
                             attrs && n ? attrs[0].flags : 0, (void *)stream);
    if (rc == CUDA_SUCCESS)
        rc = check_copy_batch(dsts, srcs, sizes, count, attrs, idxs, n, stream);
    for (size_t i = 0; rc == CUDA_SUCCESS && i < count; i++)
        copy_one(stream, dsts[i], srcs[i], sizes[i], &rc);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuMemcpyWithAttributesAsync(CUdeviceptr dst, CUdeviceptr src,
                                                      size_t size, CUmemcpyAttributes *attr,
                                                      CUstream stream)
{
    CUresult rc = fake_enter("cuMemcpyWithAttributesAsync",
                             "dst=0x%llx src=0x%llx size=%zu order=%d flags=0x%x stream=%p",
                             (unsigned long long)dst, (unsigned long long)src, size,
                             attr ? (int)attr->srcAccessOrder : -1, attr ? attr->flags : 0,
                             (void *)stream);
    const void *d = (const void *)(uintptr_t)dst, *s = (const void *)(uintptr_t)src;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS)
        rc = fake_stream_check(stream);
    if (rc == CUDA_SUCCESS &&
        (!attr || !order_valid(attr->srcAccessOrder) || !copy_flags_valid(attr->flags) ||
         (size && (!d || !s || fake_is_retired(d, size) || fake_is_retired(s, size)))))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        copy_one(stream, dst, src, size, &rc);
    return fake_leave(rc);
}

/* ---- 3D copies ------------------------------------------------------------------------------ */

/* The element size an operand imposes: its array's, or 0 for a pointer.  Checks the operand. */
static CUresult operand_element(const CUmemcpy3DOperand *o, size_t *element)
{
    *element = 0;
    if (o->type == CU_MEMCPY_OPERAND_TYPE_POINTER)
        return o->op.ptr.ptr ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
    if (o->type != CU_MEMCPY_OPERAND_TYPE_ARRAY)
        return CUDA_ERROR_INVALID_VALUE;
    fake_array *a = fake_array_find(o->op.array.array);
    if (!a)
        return CUDA_ERROR_INVALID_HANDLE;
    *element = a->element_size;
    return CUDA_SUCCESS;
}

/* Fills one side of the copy from an operand (elements of `element` bytes). */
static CUresult operand_side(const CUmemcpy3DOperand *o, const CUextent3D *extent,
                             size_t element, CUmemorytype *type, CUdeviceptr *device,
                             CUarray *array, size_t *pitch, size_t *height, size_t *x, size_t *y,
                             size_t *z)
{
    if (o->type == CU_MEMCPY_OPERAND_TYPE_ARRAY) {
        *type = CU_MEMORYTYPE_ARRAY;
        *array = o->op.array.array;
        *x = o->op.array.offset.x * element;
        *y = o->op.array.offset.y;
        *z = o->op.array.offset.z;
        return CUDA_SUCCESS;
    }
    size_t row = o->op.ptr.rowLength, layer = o->op.ptr.layerHeight;
    if ((row && row < extent->width) || (layer && layer < extent->height))
        return CUDA_ERROR_INVALID_VALUE;
    *type = CU_MEMORYTYPE_UNIFIED;
    *device = o->op.ptr.ptr;
    *pitch = (row ? row : extent->width) * element;
    *height = layer ? layer : extent->height;
    return CUDA_SUCCESS;
}

/* Translates one operation into the CUDA_MEMCPY3D it means, checking it. */
static CUresult translate_op(const CUDA_MEMCPY3D_BATCH_OP *op, CUDA_MEMCPY3D *c)
{
    const CUextent3D *e = &op->extent;
    if (!e->width || !e->height || !e->depth || !order_valid(op->srcAccessOrder) ||
        !copy_flags_valid(op->flags))
        return CUDA_ERROR_INVALID_VALUE;
    size_t src_element, dst_element;
    CUresult rc = operand_element(&op->src, &src_element);
    if (rc == CUDA_SUCCESS)
        rc = operand_element(&op->dst, &dst_element);
    if (rc != CUDA_SUCCESS)
        return rc;
    if (src_element && dst_element && src_element != dst_element)
        return CUDA_ERROR_INVALID_VALUE;
    size_t element = src_element ? src_element : dst_element ? dst_element : 1;
    memset(c, 0, sizeof *c);
    rc = operand_side(&op->src, e, element, &c->srcMemoryType, &c->srcDevice, &c->srcArray,
                      &c->srcPitch, &c->srcHeight, &c->srcXInBytes, &c->srcY, &c->srcZ);
    if (rc == CUDA_SUCCESS)
        rc = operand_side(&op->dst, e, element, &c->dstMemoryType, &c->dstDevice, &c->dstArray,
                          &c->dstPitch, &c->dstHeight, &c->dstXInBytes, &c->dstY, &c->dstZ);
    c->WidthInBytes = e->width * element;
    c->Height = e->height;
    c->Depth = e->depth;
    return rc;
}

static CUresult CUDAAPI f_cuMemcpy3DBatchAsync(size_t count, CUDA_MEMCPY3D_BATCH_OP *ops,
                                               unsigned long long flags, CUstream stream)
{
    const CUDA_MEMCPY3D_BATCH_OP *op0 = count && ops ? ops : NULL;
    CUresult rc = fake_enter("cuMemcpy3DBatchAsync", "numOps=%zu flags=0x%llx stream=%p "
                             "op0=%d->%d extent=(%zu,%zu,%zu) order=%d", count, flags,
                             (void *)stream, op0 ? (int)op0->src.type : -1,
                             op0 ? (int)op0->dst.type : -1, op0 ? op0->extent.width : 0,
                             op0 ? op0->extent.height : 0, op0 ? op0->extent.depth : 0,
                             op0 ? (int)op0->srcAccessOrder : -1);
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS)
        rc = batch_stream(stream);
    if (rc == CUDA_SUCCESS && (count == 0 || !ops || flags != 0))
        rc = CUDA_ERROR_INVALID_VALUE;
    CUDA_MEMCPY3D *copies = NULL;
    if (rc == CUDA_SUCCESS && !(copies = calloc(count, sizeof *copies)))
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    for (size_t i = 0; rc == CUDA_SUCCESS && i < count; i++)
        rc = translate_op(&ops[i], &copies[i]);
    for (size_t i = 0; rc == CUDA_SUCCESS && i < count; i++)
        if (!fake_capture_copy(stream, &copies[i], &rc))
            rc = fake_copy_3d(&copies[i]);
    free(copies);
    return fake_leave(rc);
}

/* ---- prefetches and discards ---------------------------------------------------------------- */

/* "type:id@index,..." of the first locations, for the call log.  At most count of them: a
 * longer list is refused, and its arrays may hold no more. */
static const char *show_locations(char *buf, size_t cap, const CUmemLocation *locs,
                                  const size_t *idxs, size_t n, size_t count)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; locs && idxs && i < n && i < count && i < SHOWN && used < cap; i++)
        used += (size_t)snprintf(buf + used, cap - used, "%s%d:%d@%zu", i ? "," : "",
                                 (int)locs[i].type, locs[i].id, idxs[i]);
    return buf;
}

/* The checks of the three batches; locs NULL and n 0 for a discard. */
static CUresult check_range_batch(CUdeviceptr *ptrs, size_t *sizes, size_t count,
                                  const CUmemLocation *locs, const size_t *idxs, size_t n,
                                  int with_locations, unsigned long long flags, CUstream stream)
{
    CUresult rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS)
        rc = batch_stream(stream);
    if (rc == CUDA_SUCCESS && (count == 0 || !ptrs || !sizes || flags != 0))
        rc = CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; rc == CUDA_SUCCESS && i < count; i++)
        if (!managed_range(ptrs[i], sizes[i]))
            rc = CUDA_ERROR_INVALID_VALUE;
    if (rc != CUDA_SUCCESS || !with_locations)
        return rc;
    if (!locs)
        return CUDA_ERROR_INVALID_VALUE;
    rc = check_indices(idxs, n, count);
    for (size_t i = 0; rc == CUDA_SUCCESS && i < n; i++)
        if (!location_valid(locs[i]))
            rc = CUDA_ERROR_INVALID_DEVICE;
    return rc;
}

#define RANGE_FMT "count=%zu sizes=%s locs=%s flags=0x%llx stream=%p"

/* Where each range of a checked batch is now: at its prefetch location, or, with locs NULL (a
 * discard), nowhere. */
static void batch_residency(const CUdeviceptr *ptrs, const size_t *sizes, size_t count,
                            const CUmemLocation *locs, const size_t *idxs, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < count; i++) {
        while (locs && k + 1 < n && idxs[k + 1] <= i)
            k++;
        CUmemLocation loc = locs ? locs[k] : (CUmemLocation){ CU_MEM_LOCATION_TYPE_NONE, 0 };
        fake_residency_set(ptrs[i], sizes[i], loc);
    }
}

static CUresult CUDAAPI f_cuMemPrefetchBatchAsync(CUdeviceptr *ptrs, size_t *sizes, size_t count,
                                                  CUmemLocation *locs, size_t *idxs, size_t n,
                                                  unsigned long long flags, CUstream stream)
{
    char shown[64], where[96];
    CUresult rc = fake_enter("cuMemPrefetchBatchAsync", RANGE_FMT, count,
                             show_sizes(shown, sizeof shown, sizes, count),
                             show_locations(where, sizeof where, locs, idxs, n, count), flags,
                             (void *)stream);
    if (rc == CUDA_SUCCESS)
        rc = check_range_batch(ptrs, sizes, count, locs, idxs, n, 1, flags, stream);
    if (rc == CUDA_SUCCESS)
        batch_residency(ptrs, sizes, count, locs, idxs, n);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuMemDiscardBatchAsync(CUdeviceptr *ptrs, size_t *sizes, size_t count,
                                                 unsigned long long flags, CUstream stream)
{
    char shown[64];
    CUresult rc = fake_enter("cuMemDiscardBatchAsync", RANGE_FMT, count,
                             show_sizes(shown, sizeof shown, sizes, count), "", flags,
                             (void *)stream);
    if (rc == CUDA_SUCCESS)
        rc = check_range_batch(ptrs, sizes, count, NULL, NULL, 0, 0, flags, stream);
    if (rc == CUDA_SUCCESS)
        batch_residency(ptrs, sizes, count, NULL, NULL, 0);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuMemDiscardAndPrefetchBatchAsync(CUdeviceptr *ptrs, size_t *sizes,
                                                            size_t count, CUmemLocation *locs,
                                                            size_t *idxs, size_t n,
                                                            unsigned long long flags,
                                                            CUstream stream)
{
    char shown[64], where[96];
    CUresult rc = fake_enter("cuMemDiscardAndPrefetchBatchAsync", RANGE_FMT, count,
                             show_sizes(shown, sizeof shown, sizes, count),
                             show_locations(where, sizeof where, locs, idxs, n, count), flags,
                             (void *)stream);
    if (rc == CUDA_SUCCESS)
        rc = check_range_batch(ptrs, sizes, count, locs, idxs, n, 1, flags, stream);
    if (rc == CUDA_SUCCESS)
        batch_residency(ptrs, sizes, count, locs, idxs, n);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuMemcpy3DWithAttributesAsync(CUDA_MEMCPY3D_BATCH_OP *op,
                                                        unsigned long long flags, CUstream stream)
{
    CUresult rc = fake_enter("cuMemcpy3DWithAttributesAsync",
                             "flags=0x%llx stream=%p op=%d->%d extent=(%zu,%zu,%zu) order=%d",
                             flags, (void *)stream, op ? (int)op->src.type : -1,
                             op ? (int)op->dst.type : -1, op ? op->extent.width : 0,
                             op ? op->extent.height : 0, op ? op->extent.depth : 0,
                             op ? (int)op->srcAccessOrder : -1);
    CUDA_MEMCPY3D copy;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS)
        rc = fake_stream_check(stream);
    if (rc == CUDA_SUCCESS && (!op || flags != 0))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = translate_op(op, &copy);
    if (rc == CUDA_SUCCESS && !fake_capture_copy(stream, &copy, &rc))
        rc = fake_copy_3d(&copy);
    return fake_leave(rc);
}

const proc_entry fake_procs_batch[] = {
    {"cuMemcpyBatchAsync", 13000, 99999, (void *)f_cuMemcpyBatchAsync},
    {"cuMemcpy3DBatchAsync", 13000, 99999, (void *)f_cuMemcpy3DBatchAsync},
    {"cuMemPrefetchBatchAsync", 13000, 99999, (void *)f_cuMemPrefetchBatchAsync},
    {"cuMemDiscardBatchAsync", 13000, 99999, (void *)f_cuMemDiscardBatchAsync},
    {"cuMemDiscardAndPrefetchBatchAsync", 13000, 99999,
     (void *)f_cuMemDiscardAndPrefetchBatchAsync},
    {"cuMemcpyWithAttributesAsync", 13020, 99999, (void *)f_cuMemcpyWithAttributesAsync},
    {"cuMemcpy3DWithAttributesAsync", 13020, 99999, (void *)f_cuMemcpy3DWithAttributesAsync},
    {NULL, 0, 0, NULL},
};
