/*
 * fake_residency.c - where the fake driver's managed memory is (see fake_internal.h): the
 * residency that prefetches and discards leave, cuMemGetLocationInfo (13.4) that reports it, and
 * fake_set_residency, the test API that stands for a first touch.
 *
 * What it models:
 *   - A managed allocation (cuMemAllocManaged) is resident on its context's device until a
 *     prefetch moves part of it (cuMemPrefetchAsync and the prefetch batches: to the location
 *     asked, CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT as node 0, the fake host's only one) or a
 *     discard drops it (CU_MEM_LOCATION_TYPE_NONE: resident nowhere).  A real driver places
 *     pages where they are first touched; the fake cannot see touches (kernels run on the host),
 *     hence the device as the start, and fake_set_residency for a test that wants a touch.
 *     cuMemAdvise moves nothing (a preferred location only steers later migrations).  Managed
 *     module variables (__managed__) stay on their module's device.
 *   - Each allocation keeps the ranges painted, in order; a later one wins where they overlap.
 *     A paint of the whole allocation starts the list afresh, and one of the same range replaces
 *     it, so loops of prefetches do not grow it.
 *   - cuMemGetLocationInfo as cuda.h describes it: one location per summary region,
 *     ceil(size / summaryGranularity) of them, each the most common one among samples every
 *     samplingGranularity bytes of the region (a tie: the first found, which is one of the
 *     "random winners" cuda.h allows).  summaryGranularity in (0, size], samplingGranularity at
 *     most it, 0 for the system's choice (FAKE_SAMPLING); the range inside one managed block;
 *     else CUDA_ERROR_INVALID_VALUE.  A region is sampled at most FAKE_SAMPLES_MAX times (evenly
 *     spread), so that a 1-byte sampling of a large range stays quick.
 */
#include <stdlib.h>
#include <string.h>

#include "fake_internal.h"

#define FAKE_EXPORT __attribute__((visibility("default")))
#define FAKE_SAMPLING ((size_t)4096)          /* the host page: what sampling 0 means here */
#define FAKE_SAMPLES_MAX ((size_t)4096)
#define FAKE_LOCATIONS_MAX 16                 /* distinct locations tallied in one region */

typedef struct fake_paint {
    size_t offset, length;
    CUmemLocation loc;
} fake_paint;

typedef struct fake_residency {
    fake_paint *items;
    size_t count, cap;
} fake_residency;

/* The managed allocation holding [p, p+n) whole, or NULL. */
static fake_alloc *managed_block(CUdeviceptr p, size_t n)
{
    const unsigned char *b = (const unsigned char *)(uintptr_t)p;
    for (size_t i = 0; i < fake_g.allocs.count; i++) {
        fake_alloc *a = fake_g.allocs.items[i];
        if (b >= a->ptr && b < a->ptr + a->size)
            return a->managed && n <= (size_t)(a->ptr + a->size - b) ? a : NULL;
    }
    return NULL;
}

void fake_residency_free(fake_alloc *a)
{
    fake_residency *r = a->residency;
    if (r)
        free(r->items);
    free(r);
    a->residency = NULL;
}

/* Paints [offset, offset+length) of a with loc (the caller checked the range). */
static void paint(fake_alloc *a, size_t offset, size_t length, CUmemLocation loc)
{
    fake_residency *r = a->residency ? a->residency : calloc(1, sizeof *r);
    if (!r)
        return;                                /* out of memory: the old answer stays */
    a->residency = r;
    if (loc.type == CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT)
        loc = (CUmemLocation){ CU_MEM_LOCATION_TYPE_HOST_NUMA, 0 };
    if (offset == 0 && length == a->size)
        r->count = 0;
    for (size_t i = r->count; i-- > 0;)
        if (r->items[i].offset == offset && r->items[i].length == length)
            memmove(&r->items[i], &r->items[i + 1], (--r->count - i) * sizeof *r->items);
    if (r->count == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 8;
        fake_paint *items = realloc(r->items, cap * sizeof *items);
        if (!items)
            return;
        r->items = items;
        r->cap = cap;
    }
    r->items[r->count++] = (fake_paint){ offset, length, loc };
}

void fake_residency_set(CUdeviceptr p, size_t n, CUmemLocation loc)
{
    fake_alloc *a = n ? managed_block(p, n) : NULL;
    if (a)
        paint(a, (size_t)((unsigned char *)(uintptr_t)p - a->ptr), n, loc);
}

/* Where byte `offset` of a is: the last paint over it, else a's device. */
static CUmemLocation location_at(const fake_alloc *a, size_t offset)
{
    const fake_residency *r = a->residency;
    for (size_t i = r ? r->count : 0; i-- > 0;)
        if (offset >= r->items[i].offset && offset - r->items[i].offset < r->items[i].length)
            return r->items[i].loc;
    return (CUmemLocation){ CU_MEM_LOCATION_TYPE_DEVICE, a->ctx ? a->ctx->device : 0 };
}

/* A managed module variable holding [p, p+n): its module's device in *device. */
static int managed_global(CUdeviceptr p, size_t n, CUdevice *device)
{
    const unsigned char *b = (const unsigned char *)(uintptr_t)p;
    for (size_t i = 0; i < fake_g.modules.count; i++) {
        const fake_module *m = fake_g.modules.items[i];
        for (unsigned j = 0; !m->dead && j < m->global_count; j++) {
            const fake_global *gl = &m->globals[j];
            if (gl->managed && b >= gl->storage && b < gl->storage + gl->size &&
                n <= (size_t)(gl->storage + gl->size - b)) {
                *device = m->ctx ? ((const fake_ctx *)m->ctx)->device : 0;
                return 1;
            }
        }
    }
    return 0;
}

/* The most common location among the samples of [start, end) of block a (NULL: a managed
 * variable, all on `device`). */
static CUmemLocation region_location(const fake_alloc *a, CUdevice device, size_t start,
                                     size_t end, size_t step)
{
    CUmemLocation seen[FAKE_LOCATIONS_MAX];
    size_t votes[FAKE_LOCATIONS_MAX] = { 0 }, kinds = 0, best = 0;
    if (!a)
        return (CUmemLocation){ CU_MEM_LOCATION_TYPE_DEVICE, device };
    if ((end - start) / step > FAKE_SAMPLES_MAX)
        step = (end - start) / FAKE_SAMPLES_MAX;
    for (size_t at = start; at < end; at += step) {
        CUmemLocation loc = location_at(a, at);
        size_t k = 0;
        while (k < kinds && (seen[k].type != loc.type || seen[k].id != loc.id))
            k++;
        if (k == kinds && kinds == FAKE_LOCATIONS_MAX)
            continue;                          /* more kinds than any real system has */
        if (k == kinds)
            seen[kinds++] = loc;
        if (++votes[k] > votes[best])
            best = k;
    }
    return seen[best];
}

static CUresult CUDAAPI f_cuMemGetLocationInfo(CUdeviceptr ptr, size_t size, size_t summary,
                                               size_t sampling, CUmemLocation *out)
{
    CUresult rc = fake_enter("cuMemGetLocationInfo",
                             "ptr=0x%llx size=%zu summary=%zu sampling=%zu",
                             (unsigned long long)ptr, size, summary, sampling);
    fake_alloc *a = NULL;
    CUdevice device = 0;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS &&
        (!out || summary == 0 || summary > size || sampling > summary ||
         (!(a = managed_block(ptr, size)) && !managed_global(ptr, size, &device))))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc != CUDA_SUCCESS)
        return fake_leave(rc);
    size_t base = a ? (size_t)((unsigned char *)(uintptr_t)ptr - a->ptr) : 0;
    size_t step = sampling ? sampling : FAKE_SAMPLING < summary ? FAKE_SAMPLING : summary;
    for (size_t r = 0, start = 0; start < size; r++, start += summary) {
        size_t end = size - start < summary ? size : start + summary;
        out[r] = region_location(a, device, base + start, base + end, step);
    }
    return fake_leave(rc);
}

/* ---- the test API (fakecuda.h) -------------------------------------------------------------- */

FAKE_EXPORT int fake_set_residency(uint64_t ptr, size_t size, int type, int id)
{
    fake_lock();
    fake_alloc *a = size ? managed_block((CUdeviceptr)ptr, size) : NULL;
    if (a)
        paint(a, (size_t)((unsigned char *)(uintptr_t)ptr - a->ptr), size,
              (CUmemLocation){ (CUmemLocationType)type, id });
    fake_unlock();
    return a ? 0 : -1;
}

const proc_entry fake_procs_residency[] = {
    {"cuMemGetLocationInfo", 13040, 99999, (void *)f_cuMemGetLocationInfo},
    {NULL, 0, 0, NULL},
};
