/*
 * fake_memory.c - the fake driver's host, pinned, managed, asynchronous and 2D/3D memory, and
 * pointer attributes (see fake_internal.h).
 *
 * Page-locked memory (cuMemHostAlloc) and registered ranges (cuMemHostRegister) are kept in a
 * table of their own; their device address is the host address, as with unified addressing.
 * Copies are memmove on host memory after the ranges are checked: a device operand must lie in
 * one allocation (fake_is_device_range) or in page-locked memory; array operands come from
 * fake_array_lookup.  Streams are checked with fake_stream_check; asynchronous work runs at
 * once.  A prefetch moves the residency that cuMemGetLocationInfo reports (fake_residency.c).
 */
#include "memory/fake_array.h"
#include "fake_internal.h"

#include <stdlib.h>
#include <string.h>

#define FAKE_MEM_TOTAL ((size_t)150 << 30)     /* an H200's 141 GiB, rounded */
#define FAKE_MEM_FREE ((size_t)140 << 30)
#define FAKE_PITCH_ALIGN 512

typedef struct fake_host {
    unsigned char *ptr;
    size_t size;
    unsigned flags;
    int registered;             /* cuMemHostRegister (else cuMemHostAlloc) */
    fake_ctx *ctx;
} fake_host;

static ptr_vec hosts;

/* The page-locked block holding [p, p+n), or NULL. */
static fake_host *host_find(const void *p, size_t n, size_t *index)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < hosts.count; i++) {
        fake_host *h = hosts.items[i];
        if (b >= h->ptr && b <= h->ptr + h->size && n <= (size_t)(h->ptr + h->size - b)) {
            if (index)
                *index = i;
            return h;
        }
    }
    return NULL;
}

/* The device allocation holding p (fake_find_alloc wants the start). */
static fake_alloc *alloc_containing(const void *p)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < fake_g.allocs.count; i++) {
        fake_alloc *a = fake_g.allocs.items[i];
        if (b >= a->ptr && b < a->ptr + a->size)
            return a;
    }
    return NULL;
}

/* Whether [p, p+n) is reachable from the device: an allocation, a module global, or page-locked
 * host memory. */
int fake_is_device_reachable(const void *p, size_t n)
{
    return fake_is_device_range(p, n) || host_find(p, n, NULL) != NULL;
}

/* ---- page-locked host memory ---------------------------------------------------------------- */

static CUresult host_add(void *p, size_t size, unsigned flags, int registered, fake_ctx *ctx)
{
    fake_host *h = calloc(1, sizeof *h);
    if (!h || fake_vec_push(&hosts, h) != 0) {
        free(h);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    h->ptr = p;
    h->size = size;
    h->flags = flags;
    h->registered = registered;
    h->ctx = fake_ctx_base(ctx);
    return CUDA_SUCCESS;
}

static CUresult CUDAAPI f_cuMemHostAlloc(void **pp, size_t bytes, unsigned int flags)
{
    CUresult rc = fake_enter("cuMemHostAlloc", "bytesize=%zu flags=0x%x", bytes, flags);
    fake_ctx *ctx = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(&ctx);
    if (rc == CUDA_SUCCESS && (!pp || bytes == 0 || (flags & ~7u)))
        rc = CUDA_ERROR_INVALID_VALUE;
    void *p = NULL;
    if (rc == CUDA_SUCCESS && !(p = bytes < ((size_t)1 << 36) ? fake_aligned_alloc(bytes) : NULL))
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    if (rc == CUDA_SUCCESS && (rc = host_add(p, bytes, flags, 0, ctx)) != CUDA_SUCCESS)
        free(p);
    if (rc == CUDA_SUCCESS)
        *pp = p;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuMemFreeHost(void *p)
{
    CUresult rc = fake_enter("cuMemFreeHost", "p=%p", p);
    size_t index = 0;
    fake_host *h = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && (!(h = host_find(p, 0, &index)) || h->ptr != p || h->registered))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS) {
        free(h->ptr);
        free(h);
        fake_vec_remove(&hosts, index);
    }
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuMemHostRegister(void *p, size_t bytes, unsigned int flags)
{
    CUresult rc = fake_enter("cuMemHostRegister", "p=%p bytesize=%zu flags=0x%x", p, bytes, flags);
    fake_ctx *ctx = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(&ctx);
    if (rc == CUDA_SUCCESS && (!p || bytes == 0 || (flags & ~0xfu)))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && (host_find(p, 1, NULL) ||
                               host_find((unsigned char *)p + bytes - 1, 1, NULL)))
        rc = CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
    if (rc == CUDA_SUCCESS)
        rc = host_add(p, bytes, flags, 1, ctx);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuMemHostUnregister(void *p)
{
    CUresult rc = fake_enter("cuMemHostUnregister", "p=%p", p);
    size_t index = 0;
    fake_host *h = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && (!(h = host_find(p, 0, &index)) || h->ptr != p || !h->registered))
        rc = CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED;
    if (rc == CUDA_SUCCESS) {
        free(h);
        fake_vec_remove(&hosts, index);
    }
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuMemHostGetDevicePointer(CUdeviceptr *pdptr, void *p,
                                                    unsigned int flags)
{
    CUresult rc = fake_enter("cuMemHostGetDevicePointer", "p=%p flags=0x%x", p, flags);
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && (!pdptr || flags != 0 || !host_find(p, 0, NULL)))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        *pdptr = (CUdeviceptr)(uintptr_t)p;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuMemHostGetFlags(unsigned int *flags, void *p)
{
    CUresult rc = fake_enter("cuMemHostGetFlags", "p=%p", p);
    fake_host *h = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && (!flags || !(h = host_find(p, 0, NULL)) || h->registered))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        *flags = h->flags;
    return fake_leave(rc);
}

/* Device memory in use, as cuMemGetInfo sees it: live allocations, and each live module's image
 * and the globals materialised for it (so that unloading a module gives memory back). */
static size_t device_bytes_in_use(void)
{
    size_t used = 0;
    for (size_t i = 0; i < fake_g.allocs.count; i++)
        used += ((fake_alloc *)fake_g.allocs.items[i])->size;
    for (size_t i = 0; i < fake_g.modules.count; i++) {
        fake_module *m = fake_g.modules.items[i];
        if (m->dead)
            continue;
        used += m->image_size;
        for (unsigned j = 0; j < m->global_count; j++)
            used += m->globals[j].size;
    }
    return used;
}

static CUresult CUDAAPI f_cuMemGetInfo(size_t *free_bytes, size_t *total)
{
    CUresult rc = fake_enter("cuMemGetInfo", "%s", "");
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && (!free_bytes || !total))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS) {
        size_t used = device_bytes_in_use();
        *free_bytes = used < FAKE_MEM_FREE ? FAKE_MEM_FREE - used : 0;
        *total = FAKE_MEM_TOTAL;
    }
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuMemAllocPitch(CUdeviceptr *dptr, size_t *pitch, size_t width,
                                          size_t height, unsigned int element)
{
    CUresult rc = fake_enter("cuMemAllocPitch", "width=%zu height=%zu element=%u", width, height,
                             element);
    size_t row = (width + FAKE_PITCH_ALIGN - 1) / FAKE_PITCH_ALIGN * FAKE_PITCH_ALIGN;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && (!dptr || !pitch || width == 0 || height == 0 ||
                               (element != 4 && element != 8 && element != 16) ||
                               height > ((size_t)1 << 36) / row))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = fake_mem_alloc(dptr, row * height, 0);
    if (rc == CUDA_SUCCESS)
        *pitch = row;
    return fake_leave(rc);
}

/* ---- pointer attributes --------------------------------------------------------------------- */

static CUresult CUDAAPI f_cuPointerGetAttributes(unsigned int count, CUpointer_attribute *attrs,
                                                 void **data, CUdeviceptr ptr)
{
    CUresult rc = fake_enter("cuPointerGetAttributes", "count=%u ptr=0x%llx", count,
                             (unsigned long long)ptr);
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && (!attrs || !data || count == 0))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc != CUDA_SUCCESS)
        return fake_leave(rc);
    void *p = (void *)(uintptr_t)ptr;
    fake_alloc *a = alloc_containing(p);
    fake_host *h = a ? NULL : host_find(p, 0, NULL);
    unsigned type = a ? CU_MEMORYTYPE_DEVICE : h ? CU_MEMORYTYPE_HOST : 0;
    fake_ctx *ctx = a ? a->ctx : h ? h->ctx : NULL;
    for (unsigned i = 0; i < count; i++) {
        if (!data[i])
            continue;
        switch (attrs[i]) {
        case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
            *(unsigned *)data[i] = type;
            break;
        case CU_POINTER_ATTRIBUTE_IS_MANAGED:
            *(unsigned char *)data[i] = a && a->managed;   /* a bool */
            break;
        case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
            *(int *)data[i] = ctx ? ctx->device : -2;
            break;
        case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
            *(CUdeviceptr *)data[i] = type ? ptr : 0;
            break;
        case CU_POINTER_ATTRIBUTE_HOST_POINTER:
            *(void **)data[i] = h || (a && a->managed) ? p : NULL;
            break;
        default:
            rc = CUDA_ERROR_INVALID_VALUE;          /* not modelled */
        }
    }
    return fake_leave(rc);
}

/* ---- managed memory: advice, prefetch, attach ----------------------------------------------- */

/* Whether [p, p+n) lies in one managed allocation. */
static int managed_range(CUdeviceptr p, size_t n)
{
    fake_alloc *a = alloc_containing((void *)(uintptr_t)p);
    return a && a->managed && n <= (size_t)(a->ptr + a->size - (unsigned char *)(uintptr_t)p);
}

static int location_valid(CUmemLocation loc)
{
    if (loc.type == CU_MEM_LOCATION_TYPE_DEVICE)
        return loc.id >= 0 && loc.id < fake_g.device_count;
    return loc.type == CU_MEM_LOCATION_TYPE_HOST || loc.type == CU_MEM_LOCATION_TYPE_HOST_NUMA ||
           loc.type == CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT;
}

static CUresult CUDAAPI f_cuMemAdvise(CUdeviceptr p, size_t count, CUmem_advise advice,
                                      CUmemLocation loc)
{
    CUresult rc = fake_enter("cuMemAdvise", "ptr=0x%llx count=%zu advice=%d location=%d:%d",
                             (unsigned long long)p, count, (int)advice, (int)loc.type, loc.id);
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && (advice < CU_MEM_ADVISE_SET_READ_MOSTLY ||
                               advice > CU_MEM_ADVISE_UNSET_ACCESSED_BY || count == 0 ||
                               !managed_range(p, count)))
        rc = CUDA_ERROR_INVALID_VALUE;
    /* read-mostly advice ignores the location; the others need a valid one */
    if (rc == CUDA_SUCCESS && advice != CU_MEM_ADVISE_SET_READ_MOSTLY &&
        advice != CU_MEM_ADVISE_UNSET_READ_MOSTLY && !location_valid(loc))
        rc = CUDA_ERROR_INVALID_DEVICE;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuMemPrefetchAsync(CUdeviceptr p, size_t count, CUmemLocation loc,
                                             unsigned int flags, CUstream stream)
{
    CUresult rc = fake_enter("cuMemPrefetchAsync",
                             "ptr=0x%llx count=%zu location=%d:%d flags=0x%x stream=%p",
                             (unsigned long long)p, count, (int)loc.type, loc.id, flags,
                             (void *)stream);
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && (flags != 0 || count == 0 || !managed_range(p, count)))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && !location_valid(loc))
        rc = CUDA_ERROR_INVALID_DEVICE;
    if (rc == CUDA_SUCCESS)
        rc = fake_stream_check(stream);
    if (rc == CUDA_SUCCESS)
        fake_residency_set(p, count, loc);     /* cuMemGetLocationInfo sees it there */
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuStreamAttachMemAsync(CUstream stream, CUdeviceptr p, size_t length,
                                                 unsigned int flags)
{
    CUresult rc = fake_enter("cuStreamAttachMemAsync", "stream=%p ptr=0x%llx length=%zu flags=0x%x",
                             (void *)stream, (unsigned long long)p, length, flags);
    fake_alloc *a = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS)
        rc = fake_stream_check(stream);
    if (rc == CUDA_SUCCESS && (flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST &&
                               flags != CU_MEM_ATTACH_SINGLE))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && (!(a = alloc_containing((void *)(uintptr_t)p)) || !a->managed ||
                               a->ptr != (unsigned char *)(uintptr_t)p ||
                               (length != 0 && length != a->size)))
        rc = CUDA_ERROR_INVALID_VALUE;
    return fake_leave(rc);
}

/* ---- asynchronous 1D copies and sets -------------------------------------------------------- */

static CUresult CUDAAPI f_cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t bytes,
                                        CUstream stream)
{
    CUresult rc = fake_enter("cuMemcpyAsync", "dst=0x%llx src=0x%llx bytes=%zu stream=%p",
                             (unsigned long long)dst, (unsigned long long)src, bytes,
                             (void *)stream);
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS)
        rc = fake_stream_check(stream);
    if (rc == CUDA_SUCCESS && bytes &&
        (!dst || !src || fake_is_retired((void *)(uintptr_t)dst, bytes) ||
         fake_is_retired((void *)(uintptr_t)src, bytes)))
        rc = CUDA_ERROR_INVALID_VALUE;
    const CUDA_MEMCPY3D node = { .srcMemoryType = CU_MEMORYTYPE_UNIFIED, .srcDevice = src,
                                 .dstMemoryType = CU_MEMORYTYPE_UNIFIED, .dstDevice = dst,
                                 .WidthInBytes = bytes, .Height = 1, .Depth = 1 };
    if (rc == CUDA_SUCCESS && fake_capture_copy(stream, &node, &rc))
        return fake_leave(rc);                      /* a memcpy node of the capture */
    if (rc == CUDA_SUCCESS && bytes)
        memmove((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, bytes);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuMemsetD8Async(CUdeviceptr dst, unsigned char value, size_t count,
                                          CUstream stream)
{
    CUresult rc = fake_enter("cuMemsetD8Async", "dst=0x%llx value=0x%02x count=%zu stream=%p",
                             (unsigned long long)dst, value, count, (void *)stream);
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS)
        rc = fake_stream_check(stream);
    if (rc == CUDA_SUCCESS && !fake_is_device_reachable((const void *)(uintptr_t)dst, count))
        rc = CUDA_ERROR_INVALID_VALUE;
    const CUDA_MEMSET_NODE_PARAMS node = { dst, count, value, 1, count, 1 };
    if (rc == CUDA_SUCCESS && fake_capture_memset(stream, &node, &rc))
        return fake_leave(rc);                      /* a memset node of the capture */
    if (rc == CUDA_SUCCESS)
        memset((void *)(uintptr_t)dst, value, count);
    return fake_leave(rc);
}

/* ---- 1D copies of a named direction -------------------------------------------------------- */

/* cuMemcpyHtoD, DtoH, DtoD and their Async forms: a side the call names a device side must be
 * reachable from the device (an allocation, a module global, page-locked memory), as with the
 * real driver, which refuses pageable or freed memory there; a host side may be anything but
 * NULL or freed device memory (with unified addressing a device pointer works there too).
 * async: check the stream (the work itself runs at once). */
static CUresult directed_copy(void *dst, const void *src, size_t bytes, int dst_device,
                              int src_device, int async, CUstream stream)
{
    CUresult rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && async)
        rc = fake_stream_check(stream);
    if (rc != CUDA_SUCCESS || bytes == 0)
        return rc;
    if (!dst || !src || fake_is_retired(dst, bytes) || fake_is_retired(src, bytes) ||
        (dst_device && !fake_is_device_reachable(dst, bytes)) ||
        (src_device && !fake_is_device_reachable(src, bytes)))
        return CUDA_ERROR_INVALID_VALUE;
    const CUDA_MEMCPY3D node = {
        .srcMemoryType = src_device ? CU_MEMORYTYPE_DEVICE : CU_MEMORYTYPE_HOST,
        .srcHost = src, .srcDevice = (CUdeviceptr)(uintptr_t)src,
        .dstMemoryType = dst_device ? CU_MEMORYTYPE_DEVICE : CU_MEMORYTYPE_HOST,
        .dstHost = dst, .dstDevice = (CUdeviceptr)(uintptr_t)dst,
        .WidthInBytes = bytes, .Height = 1, .Depth = 1,
    };
    if (async && fake_capture_copy(stream, &node, &rc))
        return rc;                                  /* a memcpy node of the capture */
    memmove(dst, src, bytes);
    return CUDA_SUCCESS;
}

#define COPY1D_FMT "dst=%p src=%p bytes=%zu"

static CUresult CUDAAPI f_cuMemcpyHtoD(CUdeviceptr dst, const void *src, size_t bytes)
{
    CUresult rc = fake_enter("cuMemcpyHtoD", COPY1D_FMT, (void *)(uintptr_t)dst, src, bytes);
    if (rc == CUDA_SUCCESS)
        rc = directed_copy((void *)(uintptr_t)dst, src, bytes, 1, 0, 0, NULL);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuMemcpyDtoH(void *dst, CUdeviceptr src, size_t bytes)
{
    CUresult rc = fake_enter("cuMemcpyDtoH", COPY1D_FMT, dst, (void *)(uintptr_t)src, bytes);
    if (rc == CUDA_SUCCESS)
        rc = directed_copy(dst, (const void *)(uintptr_t)src, bytes, 0, 1, 0, NULL);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuMemcpyDtoD(CUdeviceptr dst, CUdeviceptr src, size_t bytes)
{
    CUresult rc = fake_enter("cuMemcpyDtoD", COPY1D_FMT, (void *)(uintptr_t)dst,
                             (void *)(uintptr_t)src, bytes);
    if (rc == CUDA_SUCCESS)
        rc = directed_copy((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, bytes, 1, 1, 0,
                           NULL);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuMemcpyHtoDAsync(CUdeviceptr dst, const void *src, size_t bytes,
                                            CUstream stream)
{
    CUresult rc = fake_enter("cuMemcpyHtoDAsync", COPY1D_FMT " stream=%p",
                             (void *)(uintptr_t)dst, src, bytes, (void *)stream);
    if (rc == CUDA_SUCCESS)
        rc = directed_copy((void *)(uintptr_t)dst, src, bytes, 1, 0, 1, stream);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuMemcpyDtoHAsync(void *dst, CUdeviceptr src, size_t bytes,
                                            CUstream stream)
{
    CUresult rc = fake_enter("cuMemcpyDtoHAsync", COPY1D_FMT " stream=%p", dst,
                             (void *)(uintptr_t)src, bytes, (void *)stream);
    if (rc == CUDA_SUCCESS)
        rc = directed_copy(dst, (const void *)(uintptr_t)src, bytes, 0, 1, 1, stream);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuMemcpyDtoDAsync(CUdeviceptr dst, CUdeviceptr src, size_t bytes,
                                            CUstream stream)
{
    CUresult rc = fake_enter("cuMemcpyDtoDAsync", COPY1D_FMT " stream=%p",
                             (void *)(uintptr_t)dst, (void *)(uintptr_t)src, bytes,
                             (void *)stream);
    if (rc == CUDA_SUCCESS)
        rc = directed_copy((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, bytes, 1, 1, 1,
                           stream);
    return fake_leave(rc);
}

/* ---- 2D sets -------------------------------------------------------------------------------- */

static CUresult memset_2d(CUdeviceptr dst, size_t pitch, unsigned char value, size_t width,
                          size_t height, CUstream stream)
{
    CUresult rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS)
        rc = fake_stream_check(stream);
    if (rc != CUDA_SUCCESS || width == 0 || height == 0)
        return rc;
    unsigned char *p = (unsigned char *)(uintptr_t)dst;
    if (width > pitch || (height - 1) > (SIZE_MAX - width) / pitch ||
        !fake_is_device_reachable(p, (height - 1) * pitch + width))
        return CUDA_ERROR_INVALID_VALUE;
    const CUDA_MEMSET_NODE_PARAMS node = { dst, pitch, value, 1, width, height };
    if (fake_capture_memset(stream, &node, &rc))
        return rc;                                  /* a memset node of the capture */
    for (size_t y = 0; y < height; y++)
        memset(p + y * pitch, value, width);
    return CUDA_SUCCESS;
}

static CUresult CUDAAPI f_cuMemsetD2D8(CUdeviceptr dst, size_t pitch, unsigned char value,
                                       size_t width, size_t height)
{
    CUresult rc = fake_enter("cuMemsetD2D8", "dst=0x%llx pitch=%zu value=0x%02x width=%zu "
                             "height=%zu", (unsigned long long)dst, pitch, value, width, height);
    if (rc == CUDA_SUCCESS)
        rc = memset_2d(dst, pitch, value, width, height, NULL);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuMemsetD2D8Async(CUdeviceptr dst, size_t pitch, unsigned char value,
                                            size_t width, size_t height, CUstream stream)
{
    CUresult rc = fake_enter("cuMemsetD2D8Async", "dst=0x%llx pitch=%zu value=0x%02x width=%zu "
                             "height=%zu stream=%p", (unsigned long long)dst, pitch, value,
                             width, height, (void *)stream);
    if (rc == CUDA_SUCCESS)
        rc = memset_2d(dst, pitch, value, width, height, stream);
    return fake_leave(rc);
}

/* ---- 2D and 3D copies ----------------------------------------------------------------------- */

/* One operand of a copy, resolved to host storage. */
typedef struct operand {
    unsigned char *base;        /* element (0, 0, 0) */
    size_t pitch, height;       /* row and slice geometry */
    int is_array;
    size_t array_width, array_height, array_depth;
} operand;

/* Resolves one side: checks the memory type and the addresses.  x/y/z: the start position. */
static CUresult operand_resolve(CUmemorytype type, const void *host, CUdeviceptr device,
                                CUarray array, size_t pitch, size_t height, operand *out)
{
    memset(out, 0, sizeof *out);
    switch (type) {
    case CU_MEMORYTYPE_HOST:
        out->base = (unsigned char *)host;
        break;
    case CU_MEMORYTYPE_DEVICE:
    case CU_MEMORYTYPE_UNIFIED:
        out->base = (unsigned char *)(uintptr_t)device;
        break;
    case CU_MEMORYTYPE_ARRAY:
        if (fake_array_lookup(array, &out->base, &out->array_width, &out->array_height,
                              &out->array_depth) != 0)
            return CUDA_ERROR_INVALID_HANDLE;
        out->is_array = 1;
        out->pitch = out->array_width;
        out->height = out->array_height;
        return CUDA_SUCCESS;
    default:
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (!out->base)
        return CUDA_ERROR_INVALID_VALUE;
    out->pitch = pitch;
    out->height = height;
    return CUDA_SUCCESS;
}

/* Checks that the box (x bytes, y rows, z slices; width x rows x depth) fits the operand, and
 * returns its first byte.  Device memory must be one allocation; host memory is the caller's. */
static CUresult operand_box(const operand *o, CUmemorytype type, size_t x, size_t y, size_t z,
                            size_t width, size_t rows, size_t depth, unsigned char **first)
{
    if (width > o->pitch && (rows > 1 || depth > 1))
        return CUDA_ERROR_INVALID_VALUE;
    if (depth > 1 && y + rows > o->height)
        return CUDA_ERROR_INVALID_VALUE;
    if (o->is_array && (x + width > o->array_width || y + rows > o->array_height ||
                        z + depth > o->array_depth))
        return CUDA_ERROR_INVALID_VALUE;
    size_t slice = o->pitch * o->height;
    size_t start = z * slice + y * o->pitch + x;
    size_t span = (depth - 1) * slice + (rows - 1) * o->pitch + width;
    /* device memory must be one allocation; a unified address that starts in one too */
    int device = type == CU_MEMORYTYPE_DEVICE ||
                 (type == CU_MEMORYTYPE_UNIFIED && alloc_containing(o->base + start));
    if ((device && !fake_is_device_reachable(o->base + start, span)) ||
        (!o->is_array && fake_is_retired(o->base + start, span)))
        return CUDA_ERROR_INVALID_VALUE;
    *first = o->base + start;
    return CUDA_SUCCESS;
}

static CUresult copy_3d(const CUDA_MEMCPY3D *c, CUstream stream)
{
    CUresult rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS)
        rc = fake_stream_check(stream);
    if (rc == CUDA_SUCCESS && !c)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc != CUDA_SUCCESS || c->WidthInBytes == 0 || c->Height == 0 || c->Depth == 0)
        return rc;
    operand src, dst;
    unsigned char *s = NULL, *d = NULL;
    rc = operand_resolve(c->srcMemoryType, c->srcHost, c->srcDevice, c->srcArray, c->srcPitch,
                         c->srcHeight, &src);
    if (rc == CUDA_SUCCESS)
        rc = operand_resolve(c->dstMemoryType, c->dstHost, c->dstDevice, c->dstArray,
                             c->dstPitch, c->dstHeight, &dst);
    if (rc == CUDA_SUCCESS)
        rc = operand_box(&src, c->srcMemoryType, c->srcXInBytes, c->srcY, c->srcZ,
                         c->WidthInBytes, c->Height, c->Depth, &s);
    if (rc == CUDA_SUCCESS)
        rc = operand_box(&dst, c->dstMemoryType, c->dstXInBytes, c->dstY, c->dstZ,
                         c->WidthInBytes, c->Height, c->Depth, &d);
    if (rc != CUDA_SUCCESS || fake_capture_copy(stream, c, &rc))
        return rc;                                  /* a memcpy node when capturing */
    for (size_t z = 0; z < c->Depth; z++)
        for (size_t y = 0; y < c->Height; y++)
            memmove(d + z * dst.pitch * dst.height + y * dst.pitch,
                    s + z * src.pitch * src.height + y * src.pitch, c->WidthInBytes);
    return CUDA_SUCCESS;
}

/* A graph's memcpy node with an array side, run with the lock held (fake_graph_exec.c). */
CUresult fake_copy_3d(const CUDA_MEMCPY3D *c)
{
    return copy_3d(c, NULL);
}

static CUresult copy_2d(const CUDA_MEMCPY2D *c, CUstream stream)
{
    if (!c)
        return CUDA_ERROR_INVALID_VALUE;
    CUDA_MEMCPY3D full = {
        .srcXInBytes = c->srcXInBytes, .srcY = c->srcY, .srcMemoryType = c->srcMemoryType,
        .srcHost = c->srcHost, .srcDevice = c->srcDevice, .srcArray = c->srcArray,
        .srcPitch = c->srcPitch, .srcHeight = c->Height + c->srcY,
        .dstXInBytes = c->dstXInBytes, .dstY = c->dstY, .dstMemoryType = c->dstMemoryType,
        .dstHost = c->dstHost, .dstDevice = c->dstDevice, .dstArray = c->dstArray,
        .dstPitch = c->dstPitch, .dstHeight = c->Height + c->dstY,
        .WidthInBytes = c->WidthInBytes, .Height = c->Height, .Depth = 1,
    };
    return copy_3d(&full, stream);
}

#define COPY2D_FMT "src=%d:0x%llx pitch=%zu dst=%d:0x%llx pitch=%zu width=%zu height=%zu"
#define COPY2D_ARGS(c) (c) ? (int)(c)->srcMemoryType : -1,                                    \
    (c) ? (unsigned long long)((c)->srcMemoryType == CU_MEMORYTYPE_HOST                        \
              ? (uintptr_t)(c)->srcHost : (c)->srcDevice) : 0ull, (c) ? (c)->srcPitch : 0,     \
    (c) ? (int)(c)->dstMemoryType : -1,                                                        \
    (c) ? (unsigned long long)((c)->dstMemoryType == CU_MEMORYTYPE_HOST                        \
              ? (uintptr_t)(c)->dstHost : (c)->dstDevice) : 0ull, (c) ? (c)->dstPitch : 0,     \
    (c) ? (c)->WidthInBytes : 0, (c) ? (c)->Height : 0

static CUresult CUDAAPI f_cuMemcpy2DUnaligned(const CUDA_MEMCPY2D *c)
{
    CUresult rc = fake_enter("cuMemcpy2DUnaligned", COPY2D_FMT, COPY2D_ARGS(c));
    if (rc == CUDA_SUCCESS)
        rc = copy_2d(c, NULL);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuMemcpy2DAsync(const CUDA_MEMCPY2D *c, CUstream stream)
{
    CUresult rc = fake_enter("cuMemcpy2DAsync", COPY2D_FMT " stream=%p", COPY2D_ARGS(c),
                             (void *)stream);
    if (rc == CUDA_SUCCESS)
        rc = copy_2d(c, stream);
    return fake_leave(rc);
}

#define COPY3D_FMT "src=%d:0x%llx arr=%p pitch=%zu height=%zu pos=(%zu,%zu,%zu) " \
                   "dst=%d:0x%llx arr=%p pitch=%zu height=%zu pos=(%zu,%zu,%zu) "  \
                   "extent=(%zu,%zu,%zu)"
#define COPY3D_SIDE(c, s) (int)(c)->s##MemoryType,                                         \
    (unsigned long long)((c)->s##MemoryType == CU_MEMORYTYPE_HOST                           \
                             ? (uintptr_t)(c)->s##Host : (c)->s##Device),                   \
    (void *)(c)->s##Array, (c)->s##Pitch, (c)->s##Height, (c)->s##XInBytes, (c)->s##Y,       \
    (c)->s##Z
#define COPY3D_ARGS(c) COPY3D_SIDE(c, src), COPY3D_SIDE(c, dst), (c)->WidthInBytes,          \
    (c)->Height, (c)->Depth

static const CUDA_MEMCPY3D null_copy;

static CUresult CUDAAPI f_cuMemcpy3D(const CUDA_MEMCPY3D *c)
{
    const CUDA_MEMCPY3D *shown = c ? c : &null_copy;
    CUresult rc = fake_enter("cuMemcpy3D", COPY3D_FMT, COPY3D_ARGS(shown));
    if (rc == CUDA_SUCCESS)
        rc = copy_3d(c, NULL);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuMemcpy3DAsync(const CUDA_MEMCPY3D *c, CUstream stream)
{
    const CUDA_MEMCPY3D *shown = c ? c : &null_copy;
    CUresult rc = fake_enter("cuMemcpy3DAsync", COPY3D_FMT " stream=%p", COPY3D_ARGS(shown),
                             (void *)stream);
    if (rc == CUDA_SUCCESS)
        rc = copy_3d(c, stream);
    return fake_leave(rc);
}

/* The array area may answer this too (fake_array.c); until it does, no array is known. */
static CUresult CUDAAPI f_cuArray3DGetDescriptor(CUDA_ARRAY3D_DESCRIPTOR *desc, CUarray array)
{
    CUresult rc = fake_enter("cuArray3DGetDescriptor", "array=%p", (void *)array);
    unsigned char *storage = NULL;
    size_t width = 0, height = 0, depth = 0;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && !desc)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && fake_array_lookup(array, &storage, &width, &height, &depth) != 0)
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS) {
        /* bytes as elements: the fake's arrays know only their extent in bytes */
        memset(desc, 0, sizeof *desc);
        desc->Width = width;
        desc->Height = height > 1 ? height : 0;
        desc->Depth = depth > 1 ? depth : 0;
        desc->Format = CU_AD_FORMAT_UNSIGNED_INT8;
        desc->NumChannels = 1;
    }
    return fake_leave(rc);
}

const proc_entry fake_procs_memory[] = {
    {"cuMemHostAlloc", 2020, 99999, (void *)f_cuMemHostAlloc},
    {"cuMemFreeHost", 2000, 99999, (void *)f_cuMemFreeHost},
    {"cuMemHostRegister", 6050, 99999, (void *)f_cuMemHostRegister},
    {"cuMemHostUnregister", 4000, 99999, (void *)f_cuMemHostUnregister},
    {"cuMemHostGetDevicePointer", 3020, 99999, (void *)f_cuMemHostGetDevicePointer},
    {"cuMemHostGetFlags", 2030, 99999, (void *)f_cuMemHostGetFlags},
    {"cuMemGetInfo", 3020, 99999, (void *)f_cuMemGetInfo},
    {"cuMemAllocPitch", 3020, 99999, (void *)f_cuMemAllocPitch},
    {"cuPointerGetAttributes", 7000, 99999, (void *)f_cuPointerGetAttributes},
    {"cuMemAdvise", 12020, 99999, (void *)f_cuMemAdvise},
    {"cuMemPrefetchAsync", 12020, 99999, (void *)f_cuMemPrefetchAsync},
    {"cuStreamAttachMemAsync", 6000, 99999, (void *)f_cuStreamAttachMemAsync},
    {"cuMemcpyAsync", 4000, 99999, (void *)f_cuMemcpyAsync},
    {"cuMemcpyHtoD", 3020, 99999, (void *)f_cuMemcpyHtoD},
    {"cuMemcpyDtoH", 3020, 99999, (void *)f_cuMemcpyDtoH},
    {"cuMemcpyDtoD", 3020, 99999, (void *)f_cuMemcpyDtoD},
    {"cuMemcpyHtoDAsync", 3020, 99999, (void *)f_cuMemcpyHtoDAsync},
    {"cuMemcpyDtoHAsync", 3020, 99999, (void *)f_cuMemcpyDtoHAsync},
    {"cuMemcpyDtoDAsync", 3020, 99999, (void *)f_cuMemcpyDtoDAsync},
    {"cuMemsetD8Async", 3020, 99999, (void *)f_cuMemsetD8Async},
    {"cuMemcpy2DUnaligned", 3020, 99999, (void *)f_cuMemcpy2DUnaligned},
    {"cuMemcpy2DAsync", 3020, 99999, (void *)f_cuMemcpy2DAsync},
    {"cuMemcpy3D", 3020, 99999, (void *)f_cuMemcpy3D},
    {"cuMemcpy3DAsync", 3020, 99999, (void *)f_cuMemcpy3DAsync},
    {"cuMemsetD2D8", 3020, 99999, (void *)f_cuMemsetD2D8},
    {"cuMemsetD2D8Async", 3020, 99999, (void *)f_cuMemsetD2D8Async},
    {"cuArray3DGetDescriptor", 3020, 99999, (void *)f_cuArray3DGetDescriptor},
    {NULL, 0, 0, NULL},
};
