/*
 * fake_mempool.c - the fake driver's memory pools, stream-ordered allocation and graph memory
 * (see fake_graph.h).
 *
 * What it models:
 *   - Pools: one default pool per device, explicit pools, attributes, access, and
 *     cuMemAllocAsync / cuMemFreeAsync on the fake's host allocations (they complete at once).
 *     Into a capturing stream they become mem alloc / mem free nodes instead (fake_capture.c):
 *     the address is handed back at capture, fixed for the node's life.
 *   - Graph allocations: host memory behind each mem alloc node, created with the node and kept
 *     while the node or its copy in an executable graph lives (the address is fixed); it counts
 *     as device memory (fake_gmem_contains).  Its bytes are "used" between the run of its alloc
 *     node and its free (a free node, cuMemFreeAsync or cuMemFree... of the fake: cuMemFreeAsync),
 *     and "reserved" from the node's creation (and again from a launch that runs it) until
 *     cuDeviceGraphMemTrim finds it unused (the host memory itself stays, the address being fixed).  The HIGH
 *     watermarks can only be reset to 0, as cuda.h says.
 * Handles are checked against registries before use, so stale or bogus ones give
 * CUDA_ERROR_INVALID_HANDLE (NULL gives CUDA_ERROR_INVALID_VALUE) instead of a crash.
 */
#include <stdlib.h>
#include <string.h>

#include "graph/fake_graph.h"

/* ---- memory pools --------------------------------------------------------------------------- */

typedef struct fake_pool {
    CUdevice device;
    int is_default;
    fake_pool_info ipc;                /* handle types; an imported pool's exporter */
    cuuint64_t release_threshold;
    int reuse[3];                      /* FOLLOW_EVENT_DEPENDENCIES, OPPORTUNISTIC, INTERNAL */
    cuuint64_t used, used_high, reserved_high;
    CUmemAccess_flags access[FAKE_MAX_DEVICES];
} fake_pool;

typedef struct fake_pool_alloc {
    CUdeviceptr ptr;
    size_t size;
    fake_pool *pool;
} fake_pool_alloc;

static ptr_vec pools, pool_allocs;
static fake_pool *default_pools[FAKE_MAX_DEVICES];
static fake_pool *current_pools[FAKE_MAX_DEVICES];

static fake_pool *pool_new(CUdevice dev, int is_default)
{
    fake_pool *p = calloc(1, sizeof *p);
    if (!p || fake_vec_push(&pools, p) != 0) {
        free(p);
        return NULL;
    }
    p->device = dev;
    p->is_default = is_default;
    p->ipc.device = dev;
    p->reuse[0] = p->reuse[1] = p->reuse[2] = 1;
    p->access[dev] = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    return p;
}

static fake_pool *pool_default(CUdevice dev)
{
    if (!default_pools[dev])
        default_pools[dev] = pool_new(dev, 1);
    return default_pools[dev];
}

static CUresult pool_check(CUmemoryPool handle, fake_pool **out)
{
    if (!handle)
        return CUDA_ERROR_INVALID_VALUE;
    if (fake_vec_find(&pools, handle) < 0)
        return CUDA_ERROR_INVALID_HANDLE;
    *out = (fake_pool *)handle;
    return CUDA_SUCCESS;
}

static CUresult pool_alloc(CUdeviceptr *dptr, size_t bytes, fake_pool *pool, CUstream stream)
{
    fake_pool_alloc *a = NULL;
    CUresult rc = fake_stream_check(stream);
    if (rc == CUDA_SUCCESS)
        rc = fake_mem_alloc(dptr, bytes, 0);
    if (rc == CUDA_SUCCESS &&
        (!(a = calloc(1, sizeof *a)) || fake_vec_push(&pool_allocs, a) != 0)) {
        free(a);
        return CUDA_ERROR_OUT_OF_MEMORY;       /* the block stays: freed at context reset */
    }
    if (rc == CUDA_SUCCESS) {
        *a = (fake_pool_alloc){ *dptr, bytes, pool };
        pool->used += bytes;
        if (pool->used > pool->used_high)
            pool->used_high = pool->used;
        if (pool->used > pool->reserved_high)
            pool->reserved_high = pool->used;
    }
    return rc;
}

static CUresult CUDAAPI f_cuMemAllocAsync(CUdeviceptr *dptr, size_t bytes, CUstream stream)
{
    CUresult rc = fake_enter("cuMemAllocAsync", "bytesize=%zu stream=%p", bytes, (void *)stream);
    fake_ctx *ctx = NULL;
    fake_pool *pool = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(&ctx);
    if (rc == CUDA_SUCCESS)
        rc = fake_stream_check(stream);
    if (rc == CUDA_SUCCESS && fake_capture_alloc(stream, ctx->device, bytes, dptr, &rc))
        return fake_leave(rc);
    if (rc == CUDA_SUCCESS) {
        pool = current_pools[ctx->device] ? current_pools[ctx->device]
                                          : pool_default(ctx->device);
        rc = pool ? pool_alloc(dptr, bytes, pool, stream) : CUDA_ERROR_OUT_OF_MEMORY;
    }
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuMemAllocFromPoolAsync(CUdeviceptr *dptr, size_t bytes,
                                                  CUmemoryPool pool, CUstream stream)
{
    CUresult rc = fake_enter("cuMemAllocFromPoolAsync", "bytesize=%zu pool=%p stream=%p", bytes,
                             (void *)pool, (void *)stream);
    fake_pool *p = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS)
        rc = pool_check(pool, &p);
    if (rc == CUDA_SUCCESS && p->ipc.imported)
        rc = CUDA_ERROR_INVALID_VALUE;      /* imported pools hand out no new allocations */
    if (rc == CUDA_SUCCESS)
        rc = fake_stream_check(stream);
    if (rc == CUDA_SUCCESS && fake_capture_alloc(stream, p->device, bytes, dptr, &rc))
        return fake_leave(rc);
    if (rc == CUDA_SUCCESS)
        rc = pool_alloc(dptr, bytes, p, stream);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuMemFreeAsync(CUdeviceptr dptr, CUstream stream)
{
    CUresult rc = fake_enter("cuMemFreeAsync", "dptr=0x%llx stream=%p", (unsigned long long)dptr,
                             (void *)stream);
    size_t index = 0;
    fake_alloc *a = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS)
        rc = fake_stream_check(stream);
    if (rc == CUDA_SUCCESS && fake_capture_free(stream, dptr, &rc))
        return fake_leave(rc);
    if (rc == CUDA_SUCCESS && fake_gmem_at(dptr)) {
        fake_gmem_mark(fake_gmem_at(dptr), 0);     /* a graph allocation freed outside */
        return fake_leave(rc);
    }
    if (rc == CUDA_SUCCESS && !(a = fake_find_alloc((void *)(uintptr_t)dptr, &index)))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && a->ipc_opened)
        rc = CUDA_ERROR_INVALID_VALUE;      /* an IPC mapping is closed, not freed */
    if (rc == CUDA_SUCCESS) {
        fake_alloc_drop(a);
        fake_vec_remove(&fake_g.allocs, index);
        for (size_t i = 0; i < pool_allocs.count; i++) {
            fake_pool_alloc *pa = pool_allocs.items[i];
            if (pa->ptr != dptr)
                continue;
            if (fake_vec_find(&pools, pa->pool) >= 0)
                pa->pool->used -= pa->size;
            fake_vec_remove(&pool_allocs, i);
            free(pa);
            break;
        }
    }
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuDeviceGetDefaultMemPool(CUmemoryPool *pool, CUdevice dev)
{
    CUresult rc = fake_enter("cuDeviceGetDefaultMemPool", "dev=%d", dev);
    fake_pool *p = NULL;
    if (rc == CUDA_SUCCESS && !pool)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_device(dev);
    if (rc == CUDA_SUCCESS && !(p = pool_default(dev)))
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    if (rc == CUDA_SUCCESS)
        *pool = (CUmemoryPool)p;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuDeviceGetMemPool(CUmemoryPool *pool, CUdevice dev)
{
    CUresult rc = fake_enter("cuDeviceGetMemPool", "dev=%d", dev);
    fake_pool *p = NULL;
    if (rc == CUDA_SUCCESS && !pool)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_device(dev);
    if (rc == CUDA_SUCCESS && !(p = current_pools[dev] ? current_pools[dev] : pool_default(dev)))
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    if (rc == CUDA_SUCCESS)
        *pool = (CUmemoryPool)p;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuDeviceSetMemPool(CUdevice dev, CUmemoryPool pool)
{
    CUresult rc = fake_enter("cuDeviceSetMemPool", "dev=%d pool=%p", dev, (void *)pool);
    fake_pool *p = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_device(dev);
    if (rc == CUDA_SUCCESS)
        rc = pool_check(pool, &p);
    if (rc == CUDA_SUCCESS && p->device != dev)
        rc = CUDA_ERROR_INVALID_DEVICE;
    if (rc == CUDA_SUCCESS && p->ipc.imported)
        rc = CUDA_ERROR_INVALID_VALUE;      /* not a pool to allocate from */
    if (rc == CUDA_SUCCESS)
        current_pools[dev] = p;
    return fake_leave(rc);
}

/* Pools by location and allocation type (cuMemGetDefaultMemPool and friends, CUDA 13.0).  The
 * fake has device pools of pinned memory only: a device location with a valid id and
 * CU_MEM_ALLOCATION_TYPE_PINNED names the device's default / current pool.  The other
 * combinations cuda.h allows (host or host NUMA locations, managed pools, "none" with managed)
 * are CUDA_ERROR_NOT_SUPPORTED; everything else CUDA_ERROR_INVALID_VALUE, a device id out of
 * range CUDA_ERROR_INVALID_DEVICE for the default pool (cuda.h lists it there) and
 * CUDA_ERROR_INVALID_VALUE for the others (which list only that). */
static CUresult location_pool_check(const CUmemLocation *loc, CUmemAllocationType type,
                                    CUresult bad_device)
{
    if (!loc)
        return CUDA_ERROR_INVALID_VALUE;
    int host = loc->type == CU_MEM_LOCATION_TYPE_HOST ||
               loc->type == CU_MEM_LOCATION_TYPE_HOST_NUMA;
    if (type == CU_MEM_ALLOCATION_TYPE_PINNED) {
        if (loc->type == CU_MEM_LOCATION_TYPE_DEVICE)
            return loc->id >= 0 && loc->id < fake_g.device_count ? CUDA_SUCCESS : bad_device;
        return host ? CUDA_ERROR_NOT_SUPPORTED : CUDA_ERROR_INVALID_VALUE;
    }
    if (type == CU_MEM_ALLOCATION_TYPE_MANAGED)
        return host || loc->type == CU_MEM_LOCATION_TYPE_DEVICE ||
                       loc->type == CU_MEM_LOCATION_TYPE_NONE
                   ? CUDA_ERROR_NOT_SUPPORTED : CUDA_ERROR_INVALID_VALUE;
    return CUDA_ERROR_INVALID_VALUE;
}

static CUresult location_pool_get(const char *name, CUmemoryPool *pool, CUmemLocation *loc,
                                  CUmemAllocationType type, int current)
{
    CUresult rc = fake_enter(name, "location=%d:%d type=%d", loc ? (int)loc->type : -1,
                             loc ? loc->id : -1, (int)type);
    fake_pool *p = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_init();
    if (rc == CUDA_SUCCESS && !pool)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = location_pool_check(loc, type, current ? CUDA_ERROR_INVALID_VALUE
                                                    : CUDA_ERROR_INVALID_DEVICE);
    if (rc == CUDA_SUCCESS && !(p = current && current_pools[loc->id] ? current_pools[loc->id]
                                                                       : pool_default(loc->id)))
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    if (rc == CUDA_SUCCESS)
        *pool = (CUmemoryPool)p;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuMemGetDefaultMemPool(CUmemoryPool *pool, CUmemLocation *loc,
                                                 CUmemAllocationType type)
{
    return location_pool_get("cuMemGetDefaultMemPool", pool, loc, type, 0);
}

static CUresult CUDAAPI f_cuMemGetMemPool(CUmemoryPool *pool, CUmemLocation *loc,
                                          CUmemAllocationType type)
{
    return location_pool_get("cuMemGetMemPool", pool, loc, type, 1);
}

/* The pool must be of the location's device (pinned, as all the fake's pools are). */
static CUresult CUDAAPI f_cuMemSetMemPool(CUmemLocation *loc, CUmemAllocationType type,
                                          CUmemoryPool pool)
{
    CUresult rc = fake_enter("cuMemSetMemPool", "location=%d:%d type=%d pool=%p",
                             loc ? (int)loc->type : -1, loc ? loc->id : -1, (int)type,
                             (void *)pool);
    fake_pool *p = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_init();
    if (rc == CUDA_SUCCESS)
        rc = location_pool_check(loc, type, CUDA_ERROR_INVALID_VALUE);
    if (rc == CUDA_SUCCESS)
        rc = pool_check(pool, &p);
    if (rc == CUDA_SUCCESS && p->device != loc->id)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        current_pools[loc->id] = p;
    return fake_leave(rc);
}

/* Pool properties as graph allocations accept them: pinned, on a valid device, no IPC handle
 * types (cuda.h). */
CUresult fake_pool_props_check(const CUmemPoolProps *props)
{
    if (props->allocType != CU_MEM_ALLOCATION_TYPE_PINNED ||
        props->location.type != CU_MEM_LOCATION_TYPE_DEVICE ||
        props->handleTypes != CU_MEM_HANDLE_TYPE_NONE)
        return CUDA_ERROR_INVALID_VALUE;
    if (props->location.id < 0 || props->location.id >= fake_g.device_count)
        return CUDA_ERROR_INVALID_VALUE;        /* the codes cuGraphAddMemAllocNode lists */
    return CUDA_SUCCESS;
}

static CUresult CUDAAPI f_cuMemPoolCreate(CUmemoryPool *pool, const CUmemPoolProps *props)
{
    CUresult rc = fake_enter("cuMemPoolCreate", "allocType=%d locationType=%d id=%d",
                             props ? (int)props->allocType : -1,
                             props ? (int)props->location.type : -1,
                             props ? props->location.id : -1);
    fake_pool *p = NULL;
    if (rc == CUDA_SUCCESS && (!pool || !props || props->allocType != CU_MEM_ALLOCATION_TYPE_PINNED ||
                               props->location.type != CU_MEM_LOCATION_TYPE_DEVICE))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_device(props->location.id);
    if (rc == CUDA_SUCCESS && !(p = pool_new(props->location.id, 0)))
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    if (rc == CUDA_SUCCESS) {
        p->ipc.handle_types = (unsigned)props->handleTypes;
        *pool = (CUmemoryPool)p;
    }
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuMemPoolDestroy(CUmemoryPool pool)
{
    CUresult rc = fake_enter("cuMemPoolDestroy", "pool=%p", (void *)pool);
    fake_pool *p = NULL;
    if (rc == CUDA_SUCCESS)
        rc = pool_check(pool, &p);
    if (rc == CUDA_SUCCESS && p->is_default)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS) {
        if (current_pools[p->device] == p)
            current_pools[p->device] = NULL;
        fake_vec_remove(&pools, (size_t)fake_vec_find(&pools, p));
        free(p);
    }
    return fake_leave(rc);
}

static CUresult pool_attribute(fake_pool *p, CUmemPool_attribute attr, void *value, int set)
{
    int *flag = NULL;
    cuuint64_t *u64 = NULL, scratch = 0;
    switch (attr) {
    case CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES: flag = &p->reuse[0]; break;
    case CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC: flag = &p->reuse[1]; break;
    case CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES: flag = &p->reuse[2]; break;
    case CU_MEMPOOL_ATTR_RELEASE_THRESHOLD: u64 = &p->release_threshold; break;
    case CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT:
    case CU_MEMPOOL_ATTR_USED_MEM_CURRENT:
        if (set)
            return CUDA_ERROR_INVALID_VALUE;
        scratch = p->used;
        u64 = &scratch;
        break;
    case CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH: u64 = &p->reserved_high; break;
    case CU_MEMPOOL_ATTR_USED_MEM_HIGH: u64 = &p->used_high; break;
    default: return CUDA_ERROR_INVALID_VALUE;
    }
    if (flag && set)
        *flag = *(const int *)value != 0;
    else if (flag)
        *(int *)value = *flag;
    else if (set && u64 != &p->release_threshold && *(const cuuint64_t *)value != 0)
        return CUDA_ERROR_INVALID_VALUE;     /* high-water marks can only be reset */
    else if (set)
        *u64 = *(const cuuint64_t *)value;
    else
        memcpy(value, u64, sizeof *u64);
    return CUDA_SUCCESS;
}

static CUresult CUDAAPI f_cuMemPoolSetAttribute(CUmemoryPool pool, CUmemPool_attribute attr,
                                                void *value)
{
    CUresult rc = fake_enter("cuMemPoolSetAttribute", "pool=%p attr=%d", (void *)pool, (int)attr);
    fake_pool *p = NULL;
    if (rc == CUDA_SUCCESS && !value)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = pool_check(pool, &p);
    if (rc == CUDA_SUCCESS)
        rc = pool_attribute(p, attr, value, 1);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuMemPoolGetAttribute(CUmemoryPool pool, CUmemPool_attribute attr,
                                                void *value)
{
    CUresult rc = fake_enter("cuMemPoolGetAttribute", "pool=%p attr=%d", (void *)pool, (int)attr);
    fake_pool *p = NULL;
    if (rc == CUDA_SUCCESS && !value)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = pool_check(pool, &p);
    if (rc == CUDA_SUCCESS)
        rc = pool_attribute(p, attr, value, 0);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuMemPoolTrimTo(CUmemoryPool pool, size_t keep)
{
    CUresult rc = fake_enter("cuMemPoolTrimTo", "pool=%p minBytesToKeep=%zu", (void *)pool, keep);
    fake_pool *p = NULL;
    if (rc == CUDA_SUCCESS)
        rc = pool_check(pool, &p);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuMemPoolSetAccess(CUmemoryPool pool, const CUmemAccessDesc *map,
                                             size_t count)
{
    CUresult rc = fake_enter("cuMemPoolSetAccess", "pool=%p count=%zu first=(%d,%d,%d)",
                             (void *)pool, count, map && count ? (int)map[0].location.type : -1,
                             map && count ? map[0].location.id : -1,
                             map && count ? (int)map[0].flags : -1);
    fake_pool *p = NULL;
    if (rc == CUDA_SUCCESS)
        rc = pool_check(pool, &p);
    if (rc == CUDA_SUCCESS && count && !map)
        rc = CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; rc == CUDA_SUCCESS && i < count; i++) {
        const CUmemAccessDesc *d = &map[i];
        if (d->location.type != CU_MEM_LOCATION_TYPE_DEVICE || d->location.id < 0 ||
            d->location.id >= fake_g.device_count ||
            (d->flags != CU_MEM_ACCESS_FLAGS_PROT_NONE &&
             d->flags != CU_MEM_ACCESS_FLAGS_PROT_READ &&
             d->flags != CU_MEM_ACCESS_FLAGS_PROT_READWRITE) ||
            (d->location.id == p->device && d->flags != CU_MEM_ACCESS_FLAGS_PROT_READWRITE))
            rc = CUDA_ERROR_INVALID_VALUE;
    }
    for (size_t i = 0; rc == CUDA_SUCCESS && i < count; i++)
        p->access[map[i].location.id] = map[i].flags;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuMemPoolGetAccess(CUmemAccess_flags *flags, CUmemoryPool pool,
                                             CUmemLocation *location)
{
    CUresult rc = fake_enter("cuMemPoolGetAccess", "pool=%p locationType=%d id=%d", (void *)pool,
                             location ? (int)location->type : -1, location ? location->id : -1);
    fake_pool *p = NULL;
    if (rc == CUDA_SUCCESS && (!flags || !location))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = pool_check(pool, &p);
    if (rc == CUDA_SUCCESS && (location->type != CU_MEM_LOCATION_TYPE_DEVICE ||
                               location->id < 0 || location->id >= fake_g.device_count))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        *flags = p->access[location->id];
    return fake_leave(rc);
}


/* ---- graph allocations ---------------------------------------------------------------------- */

static ptr_vec gmems;                  /* live fake_gmem * */

typedef struct gmem_stats {
    cuuint64_t used_high, reserved_high;
} gmem_stats;

static gmem_stats gstats[FAKE_MAX_DEVICES];

static void gmem_sums(CUdevice dev, cuuint64_t *used, cuuint64_t *reserved)
{
    *used = *reserved = 0;
    for (size_t i = 0; i < gmems.count; i++) {
        const fake_gmem *m = gmems.items[i];
        if (m->device != dev)
            continue;
        *used += m->live ? m->size : 0;
        *reserved += m->reserved ? m->size : 0;
    }
}

static void gmem_update_highs(CUdevice dev)
{
    cuuint64_t used, reserved;
    gmem_sums(dev, &used, &reserved);
    if (used > gstats[dev].used_high)
        gstats[dev].used_high = used;
    if (reserved > gstats[dev].reserved_high)
        gstats[dev].reserved_high = reserved;
}

CUresult fake_gmem_new(size_t size, CUdevice device, fake_gmem **out)
{
    fake_gmem *m = calloc(1, sizeof *m);
    if (m)
        m->ptr = size < ((size_t)1 << 36) ? fake_aligned_alloc(size) : NULL;
    if (!m || !m->ptr || fake_vec_push(&gmems, m) != 0) {
        if (m)
            free(m->ptr);
        free(m);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    m->size = size;
    m->device = device;
    m->refs = 1;
    m->reserved = 1;                   /* the driver maps it when the node is created */
    gmem_update_highs(device);
    *out = m;
    return CUDA_SUCCESS;
}

void fake_gmem_put(fake_gmem *m)
{
    if (--m->refs)
        return;
    fake_vec_remove(&gmems, (size_t)fake_vec_find(&gmems, m));
    free(m->ptr);
    free(m);
}

fake_gmem *fake_gmem_at(CUdeviceptr start)
{
    for (size_t i = 0; i < gmems.count; i++) {
        fake_gmem *m = gmems.items[i];
        if ((CUdeviceptr)(uintptr_t)m->ptr == start)
            return m;
    }
    return NULL;
}

int fake_gmem_contains(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < gmems.count; i++) {
        const fake_gmem *m = gmems.items[i];
        if (p >= m->ptr && p <= m->ptr + m->size && n <= (size_t)(m->ptr + m->size - p))
            return 1;
    }
    return 0;
}

void fake_gmem_mark(fake_gmem *m, int live)
{
    m->live = live;
    if (live)
        m->reserved = 1;
    gmem_update_highs(m->device);
}

/* USED_MEM_CURRENT / RESERVED_MEM_CURRENT are read-only; the HIGH ones can be reset to 0 only
 * (cuda.h); anything else is CUDA_ERROR_INVALID_VALUE. */
static CUresult graph_mem_attribute(CUdevice dev, CUgraphMem_attribute attr, void *value, int set)
{
    cuuint64_t used, reserved, v = 0;
    gmem_sums(dev, &used, &reserved);
    switch (attr) {
    case CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT: v = used; break;
    case CU_GRAPH_MEM_ATTR_RESERVED_MEM_CURRENT: v = reserved; break;
    case CU_GRAPH_MEM_ATTR_USED_MEM_HIGH: v = gstats[dev].used_high; break;
    case CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH: v = gstats[dev].reserved_high; break;
    default: return CUDA_ERROR_INVALID_VALUE;
    }
    if (!set) {
        memcpy(value, &v, sizeof v);
        return CUDA_SUCCESS;
    }
    memcpy(&v, value, sizeof v);
    if (v != 0 || (attr != CU_GRAPH_MEM_ATTR_USED_MEM_HIGH &&
                   attr != CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH))
        return CUDA_ERROR_INVALID_VALUE;
    if (attr == CU_GRAPH_MEM_ATTR_USED_MEM_HIGH)
        gstats[dev].used_high = used;           /* a reset starts again from the current use */
    else
        gstats[dev].reserved_high = reserved;
    return CUDA_SUCCESS;
}

static CUresult CUDAAPI f_cuDeviceGetGraphMemAttribute(CUdevice dev, CUgraphMem_attribute attr,
                                                       void *value)
{
    CUresult rc = fake_enter("cuDeviceGetGraphMemAttribute", "dev=%d attr=%d", dev, (int)attr);
    if (rc == CUDA_SUCCESS)
        rc = fake_need_device(dev);
    if (rc == CUDA_SUCCESS && !value)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = graph_mem_attribute(dev, attr, value, 0);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuDeviceSetGraphMemAttribute(CUdevice dev, CUgraphMem_attribute attr,
                                                       void *value)
{
    CUresult rc = fake_enter("cuDeviceSetGraphMemAttribute", "dev=%d attr=%d", dev, (int)attr);
    if (rc == CUDA_SUCCESS)
        rc = fake_need_device(dev);
    if (rc == CUDA_SUCCESS && !value)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = graph_mem_attribute(dev, attr, value, 1);
    return fake_leave(rc);
}

/* Releases the reservation of every graph allocation not in use (the fake keeps the host
 * memory itself: its address is fixed for the node's life). */
static CUresult CUDAAPI f_cuDeviceGraphMemTrim(CUdevice dev)
{
    CUresult rc = fake_enter("cuDeviceGraphMemTrim", "dev=%d", dev);
    if (rc == CUDA_SUCCESS)
        rc = fake_need_device(dev);
    for (size_t i = 0; rc == CUDA_SUCCESS && i < gmems.count; i++) {
        fake_gmem *m = gmems.items[i];
        if (m->device == dev && !m->live)
            m->reserved = 0;
    }
    return fake_leave(rc);
}

/* ---- for IPC (fake_ipc.c), with the lock held ------------------------------------------------ */

int fake_pool_get_info(CUmemoryPool pool, fake_pool_info *out)
{
    fake_pool *p = NULL;
    if (pool_check(pool, &p) != CUDA_SUCCESS)
        return -1;
    *out = p->ipc;
    return 0;
}

CUmemoryPool fake_pool_of_block(CUdeviceptr ptr)
{
    for (size_t i = 0; i < pool_allocs.count; i++) {
        fake_pool_alloc *pa = pool_allocs.items[i];
        if (pa->ptr == ptr && fake_vec_find(&pools, pa->pool) >= 0)
            return (CUmemoryPool)pa->pool;
    }
    return NULL;
}

CUresult fake_pool_import(const fake_pool_info *info, CUmemoryPool *out)
{
    fake_pool *p = pool_new(info->device, 0);
    if (!p)
        return CUDA_ERROR_OUT_OF_MEMORY;
    p->ipc = *info;
    p->ipc.imported = 1;
    *out = (CUmemoryPool)p;
    return CUDA_SUCCESS;
}

const proc_entry fake_procs_mempool[] = {
    {"cuMemAllocAsync", 11020, 99999, (void *)f_cuMemAllocAsync},
    {"cuMemFreeAsync", 11020, 99999, (void *)f_cuMemFreeAsync},
    {"cuMemAllocFromPoolAsync", 11020, 99999, (void *)f_cuMemAllocFromPoolAsync},
    {"cuDeviceGetDefaultMemPool", 11020, 99999, (void *)f_cuDeviceGetDefaultMemPool},
    {"cuDeviceGetMemPool", 11020, 99999, (void *)f_cuDeviceGetMemPool},
    {"cuDeviceSetMemPool", 11020, 99999, (void *)f_cuDeviceSetMemPool},
    {"cuMemGetDefaultMemPool", 13000, 99999, (void *)f_cuMemGetDefaultMemPool},
    {"cuMemGetMemPool", 13000, 99999, (void *)f_cuMemGetMemPool},
    {"cuMemSetMemPool", 13000, 99999, (void *)f_cuMemSetMemPool},
    {"cuMemPoolCreate", 11020, 99999, (void *)f_cuMemPoolCreate},
    {"cuMemPoolDestroy", 11020, 99999, (void *)f_cuMemPoolDestroy},
    {"cuMemPoolSetAttribute", 11020, 99999, (void *)f_cuMemPoolSetAttribute},
    {"cuMemPoolGetAttribute", 11020, 99999, (void *)f_cuMemPoolGetAttribute},
    {"cuMemPoolTrimTo", 11020, 99999, (void *)f_cuMemPoolTrimTo},
    {"cuMemPoolSetAccess", 11020, 99999, (void *)f_cuMemPoolSetAccess},
    {"cuMemPoolGetAccess", 11020, 99999, (void *)f_cuMemPoolGetAccess},
    {"cuDeviceGetGraphMemAttribute", 11040, 99999, (void *)f_cuDeviceGetGraphMemAttribute},
    {"cuDeviceSetGraphMemAttribute", 11040, 99999, (void *)f_cuDeviceSetGraphMemAttribute},
    {"cuDeviceGraphMemTrim", 11040, 99999, (void *)f_cuDeviceGraphMemTrim},
    {NULL, 0, 0, NULL},
};
