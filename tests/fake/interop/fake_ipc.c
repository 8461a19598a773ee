/*
 * fake_ipc.c - the fake driver's interprocess memory, events and pool sharing.
 *
 * The fake's device memory is host memory of the process, so sharing it with another process
 * needs memory both can map.  With FAKECUDA_IPC=1 every cuMemAlloc (and pool) block is made in
 * its own memfd, mapped MAP_SHARED; a handle names the exporter's pid and the memfd's number, and
 * the opener maps /proc/<pid>/fd/<n> (readable by a process of the same user).  The memfd is
 * named "fakecuda-ipc-<serial>", and the handle carries the serial, so a handle to a freed block
 * whose fd number came back for another block is refused (CUDA_ERROR_INVALID_VALUE).  Without
 * FAKECUDA_IPC=1, cuIpcGetMemHandle and cuMemPoolExportPointer answer CUDA_ERROR_NOT_SUPPORTED.
 *
 * The 64 handle bytes (all integers little-endian, the rest zero):
 *
 *   memory  0 "FAKEIPCM"  8 pid u32  12 fd i32  16 size u64  24 serial u64
 *   event   0 "FAKEIPCE"  8 pid u32  12 flags u32  16 event id u64
 *   pointer 0 "FAKEPPTR"  8 pid u32  12 fd i32  16 size u64  24 serial u64  32 pool id u64
 *   pool    a memfd "fakecuda-pool" holding 24 bytes: "FAKEPOOL", pid u32, device i32, pool id
 *
 * Modelled answers: opening a memory or event handle in the process that made it is
 * CUDA_ERROR_INVALID_CONTEXT (the driver's answer for memory; for events a guess); repeated opens
 * of one memory handle share one mapping and count references; closing a pointer that no open
 * returned, or cuMemFree on an opened one, is CUDA_ERROR_INVALID_VALUE; flags other than
 * CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS are CUDA_ERROR_INVALID_VALUE.  An event opened from another
 * process is complete from the start: the fake cannot see the other process's work.  Imported
 * pools hand out no allocations (fake_mempool.c).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fake_internal.h"

#define IPC_MEM_MAGIC "FAKEIPCM"
#define IPC_EVENT_MAGIC "FAKEIPCE"
#define IPC_PTR_MAGIC "FAKEPPTR"
#define IPC_POOL_MAGIC "FAKEPOOL"
#define IPC_POOL_BYTES 24

static unsigned long long next_serial = 1;

static size_t page_round(size_t bytes)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    return (bytes + page - 1) / page * page;
}

static void put32(unsigned char *p, uint32_t v) { memcpy(p, &v, sizeof v); }
static void put64(unsigned char *p, uint64_t v) { memcpy(p, &v, sizeof v); }
static uint32_t get32(const unsigned char *p) { uint32_t v; memcpy(&v, p, sizeof v); return v; }
static uint64_t get64(const unsigned char *p) { uint64_t v; memcpy(&v, p, sizeof v); return v; }

/* ---- shared blocks -------------------------------------------------------------------------- */

int fake_ipc_block(fake_alloc *a, size_t bytes)
{
    const char *on = getenv("FAKECUDA_IPC");
    if (!on || strcmp(on, "1") != 0 || bytes >= ((size_t)1 << 36))
        return -1;
    char name[48];
    unsigned long long serial = next_serial++;
    snprintf(name, sizeof name, "fakecuda-ipc-%llu", serial);
    int fd = memfd_create(name, MFD_CLOEXEC);
    if (fd < 0)
        return -1;
    size_t size = page_round(bytes);
    void *p = ftruncate(fd, (off_t)size) == 0
                  ? mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;
    if (p == MAP_FAILED) {
        close(fd);
        return -1;
    }
    a->ptr = p;
    a->shared = 1;
    a->memfd = fd;
    a->serial = serial;
    return 0;
}

void fake_block_release(fake_alloc *a)
{
    if (!a->shared) {
        free(a->ptr);
        return;
    }
    if (a->ptr)
        munmap(a->ptr, page_round(a->size ? a->size : 1));
    if (a->memfd >= 0)
        close(a->memfd);
}

/* Maps block `serial` (memfd `fd` of process `pid`, `size` bytes) into this process, as a new
 * allocation of the current context. */
static CUresult open_block(unsigned pid, int fd, size_t size, unsigned long long serial,
                           fake_alloc **out)
{
    fake_ctx *ctx = NULL;
    CUresult rc = fake_need_ctx(&ctx);
    if (rc != CUDA_SUCCESS)
        return rc;
    if (pid == (unsigned)getpid())
        return CUDA_ERROR_INVALID_CONTEXT;
    if (fd < 0 || size == 0 || size >= ((size_t)1 << 36))
        return CUDA_ERROR_INVALID_VALUE;
    char path[64], link[128], want[48];
    snprintf(path, sizeof path, "/proc/%u/fd/%d", pid, fd);
    snprintf(want, sizeof want, "/memfd:fakecuda-ipc-%llu ", serial);
    ssize_t n = readlink(path, link, sizeof link - 1);
    link[n > 0 ? n : 0] = '\0';
    if (n <= 0 || strncmp(link, want, strlen(want)) != 0)
        return CUDA_ERROR_INVALID_VALUE;        /* gone, or the fd now holds another block */
    int local = open(path, O_RDWR | O_CLOEXEC);
    if (local < 0)
        return CUDA_ERROR_INVALID_VALUE;
    void *p = mmap(NULL, page_round(size), PROT_READ | PROT_WRITE, MAP_SHARED, local, 0);
    close(local);
    fake_alloc *a = p == MAP_FAILED ? NULL : calloc(1, sizeof *a);
    if (!a || fake_vec_push(&fake_g.allocs, a) != 0) {
        if (p != MAP_FAILED)
            munmap(p, page_round(size));
        free(a);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    *a = (fake_alloc){ .ptr = p, .size = size, .ctx = ctx, .shared = 1, .memfd = -1,
                       .serial = serial, .owner_pid = pid, .owner_fd = fd };
    *out = a;
    return CUDA_SUCCESS;
}

/* ---- memory handles ------------------------------------------------------------------------- */

static CUresult CUDAAPI f_cuIpcGetMemHandle(CUipcMemHandle *pHandle, CUdeviceptr dptr)
{
    CUresult rc = fake_enter("cuIpcGetMemHandle", "dptr=0x%llx", (unsigned long long)dptr);
    fake_alloc *a = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && (!pHandle || !(a = fake_find_alloc((void *)(uintptr_t)dptr, NULL)) ||
                               a->managed || a->ipc_opened || a->owner_pid ||
                               fake_pool_of_block(dptr)))
        rc = CUDA_ERROR_INVALID_VALUE;          /* not the base of a cuMemAlloc block */
    if (rc == CUDA_SUCCESS && !a->shared)
        rc = CUDA_ERROR_NOT_SUPPORTED;          /* FAKECUDA_IPC=1 not set */
    if (rc == CUDA_SUCCESS) {
        unsigned char h[CU_IPC_HANDLE_SIZE] = { 0 };
        memcpy(h, IPC_MEM_MAGIC, 8);
        put32(h + 8, (uint32_t)getpid());
        put32(h + 12, (uint32_t)a->memfd);
        put64(h + 16, a->size);
        put64(h + 24, a->serial);
        memcpy(pHandle->reserved, h, sizeof h);
    }
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuIpcOpenMemHandle(CUdeviceptr *pdptr, CUipcMemHandle handle,
                                             unsigned int flags)
{
    const unsigned char *h = (const unsigned char *)handle.reserved;
    CUresult rc = fake_enter("cuIpcOpenMemHandle", "pid=%u fd=%d flags=%u", get32(h + 8),
                             (int)get32(h + 12), flags);
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && (!pdptr || (flags & ~CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS) ||
                               memcmp(h, IPC_MEM_MAGIC, 8) != 0))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc != CUDA_SUCCESS)
        return fake_leave(rc);
    unsigned pid = get32(h + 8);
    unsigned long long serial = get64(h + 24);
    for (size_t i = 0; i < fake_g.allocs.count; i++) {
        fake_alloc *a = fake_g.allocs.items[i];
        if (a->ipc_opened && a->owner_pid == pid && a->serial == serial) {
            a->ipc_refs++;                      /* opened before: the same mapping */
            *pdptr = (CUdeviceptr)(uintptr_t)a->ptr;
            return fake_leave(CUDA_SUCCESS);
        }
    }
    fake_alloc *a = NULL;
    rc = open_block(pid, (int)get32(h + 12), get64(h + 16), serial, &a);
    if (rc == CUDA_SUCCESS) {
        a->ipc_opened = 1;
        a->ipc_refs = 1;
        *pdptr = (CUdeviceptr)(uintptr_t)a->ptr;
    }
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuIpcCloseMemHandle(CUdeviceptr dptr)
{
    CUresult rc = fake_enter("cuIpcCloseMemHandle", "dptr=0x%llx", (unsigned long long)dptr);
    size_t index = 0;
    fake_alloc *a = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && (!(a = fake_find_alloc((void *)(uintptr_t)dptr, &index)) ||
                               !a->ipc_opened))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && --a->ipc_refs == 0) {
        fake_vec_remove(&fake_g.allocs, index);
        fake_block_release(a);
        free(a);
    }
    return fake_leave(rc);
}

/* ---- event handles -------------------------------------------------------------------------- */

static CUresult CUDAAPI f_cuIpcGetEventHandle(CUipcEventHandle *pHandle, CUevent event)
{
    CUresult rc = fake_enter("cuIpcGetEventHandle", "event=%p", (void *)event);
    unsigned flags = 0;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && !pHandle)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && fake_event_flags(event, &flags) != 0)
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS && !(flags & CU_EVENT_INTERPROCESS))
        rc = CUDA_ERROR_INVALID_VALUE;          /* not made with CU_EVENT_INTERPROCESS */
    if (rc == CUDA_SUCCESS) {
        unsigned char h[CU_IPC_HANDLE_SIZE] = { 0 };
        memcpy(h, IPC_EVENT_MAGIC, 8);
        put32(h + 8, (uint32_t)getpid());
        put32(h + 12, flags);
        put64(h + 16, (uint64_t)(uintptr_t)event);
        memcpy(pHandle->reserved, h, sizeof h);
    }
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuIpcOpenEventHandle(CUevent *phEvent, CUipcEventHandle handle)
{
    const unsigned char *h = (const unsigned char *)handle.reserved;
    CUresult rc = fake_enter("cuIpcOpenEventHandle", "pid=%u", get32(h + 8));
    fake_ctx *ctx = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(&ctx);
    if (rc == CUDA_SUCCESS && (!phEvent || memcmp(h, IPC_EVENT_MAGIC, 8) != 0))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && get32(h + 8) == (uint32_t)getpid())
        rc = CUDA_ERROR_INVALID_CONTEXT;
    if (rc == CUDA_SUCCESS)
        rc = fake_event_new_complete(ctx, CU_EVENT_DISABLE_TIMING | CU_EVENT_INTERPROCESS,
                                     phEvent);
    return fake_leave(rc);
}

/* ---- pool sharing --------------------------------------------------------------------------- */

static CUresult CUDAAPI f_cuMemPoolExportToShareableHandle(void *handle_out, CUmemoryPool pool,
                                                           CUmemAllocationHandleType type,
                                                           unsigned long long flags)
{
    CUresult rc = fake_enter("cuMemPoolExportToShareableHandle", "pool=%p type=%d flags=%llu",
                             (void *)pool, (int)type, flags);
    fake_pool_info info;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && (!handle_out || flags || fake_pool_get_info(pool, &info) != 0 ||
                               info.imported || type != CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR ||
                               !(info.handle_types & (unsigned)type)))
        rc = CUDA_ERROR_INVALID_VALUE;
    int fd = -1;
    if (rc == CUDA_SUCCESS) {
        unsigned char data[IPC_POOL_BYTES] = { 0 };
        memcpy(data, IPC_POOL_MAGIC, 8);
        put32(data + 8, (uint32_t)getpid());
        put32(data + 12, (uint32_t)info.device);
        put64(data + 16, (uint64_t)(uintptr_t)pool);
        fd = memfd_create("fakecuda-pool", 0);
        if (fd < 0 || pwrite(fd, data, sizeof data, 0) != (ssize_t)sizeof data)
            rc = CUDA_ERROR_OUT_OF_MEMORY;
    }
    if (rc == CUDA_SUCCESS)
        *(int *)handle_out = fd;
    else if (fd >= 0)
        close(fd);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuMemPoolImportFromShareableHandle(CUmemoryPool *pool_out, void *handle,
                                                             CUmemAllocationHandleType type,
                                                             unsigned long long flags)
{
    int fd = (int)(intptr_t)handle;
    CUresult rc = fake_enter("cuMemPoolImportFromShareableHandle", "fd=%d type=%d flags=%llu",
                             fd, (int)type, flags);
    fake_ctx *ctx = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(&ctx);
    unsigned char data[IPC_POOL_BYTES];
    if (rc == CUDA_SUCCESS && (!pool_out || flags ||
                               type != CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR ||
                               pread(fd, data, sizeof data, 0) != (ssize_t)sizeof data ||
                               memcmp(data, IPC_POOL_MAGIC, 8) != 0))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS) {
        int device = (int)get32(data + 12);
        fake_pool_info info = {
            .device = device >= 0 && device < fake_g.device_count ? device : ctx->device,
            .handle_types = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR,
            .owner_pid = get32(data + 8), .owner_id = get64(data + 16),
        };
        rc = fake_pool_import(&info, pool_out);
    }
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuMemPoolExportPointer(CUmemPoolPtrExportData *out, CUdeviceptr ptr)
{
    CUresult rc = fake_enter("cuMemPoolExportPointer", "ptr=0x%llx", (unsigned long long)ptr);
    CUmemoryPool pool = NULL;
    fake_pool_info info;
    fake_alloc *a = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && (!out || !(pool = fake_pool_of_block(ptr)) ||
                               fake_pool_get_info(pool, &info) != 0 ||
                               !(info.handle_types & CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR) ||
                               !(a = fake_find_alloc((void *)(uintptr_t)ptr, NULL))))
        rc = CUDA_ERROR_INVALID_VALUE;          /* not a block of an exportable pool */
    if (rc == CUDA_SUCCESS && !a->shared)
        rc = CUDA_ERROR_NOT_SUPPORTED;          /* FAKECUDA_IPC=1 not set */
    if (rc == CUDA_SUCCESS) {
        unsigned char h[sizeof out->reserved] = { 0 };
        memcpy(h, IPC_PTR_MAGIC, 8);
        put32(h + 8, (uint32_t)getpid());
        put32(h + 12, (uint32_t)a->memfd);
        put64(h + 16, a->size);
        put64(h + 24, a->serial);
        put64(h + 32, (uint64_t)(uintptr_t)pool);
        memcpy(out->reserved, h, sizeof h);
    }
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuMemPoolImportPointer(CUdeviceptr *ptr_out, CUmemoryPool pool,
                                                 CUmemPoolPtrExportData *data)
{
    CUresult rc = fake_enter("cuMemPoolImportPointer", "pool=%p", (void *)pool);
    fake_pool_info info;
    const unsigned char *h = data ? data->reserved : NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && (!ptr_out || !h || fake_pool_get_info(pool, &info) != 0 ||
                               !info.imported || memcmp(h, IPC_PTR_MAGIC, 8) != 0 ||
                               get32(h + 8) != info.owner_pid || get64(h + 32) != info.owner_id))
        rc = CUDA_ERROR_INVALID_VALUE;          /* not data of the pool this one imports */
    fake_alloc *a = NULL;
    if (rc == CUDA_SUCCESS)
        rc = open_block(get32(h + 8), (int)get32(h + 12), get64(h + 16), get64(h + 24), &a);
    if (rc == CUDA_SUCCESS)
        *ptr_out = (CUdeviceptr)(uintptr_t)a->ptr;    /* freed with cuMemFree(Async) */
    return fake_leave(rc);
}

/* For the runtime's trace: the allocation holding dptr. */
static CUresult CUDAAPI f_cuMemGetAddressRange(CUdeviceptr *base, size_t *size, CUdeviceptr dptr)
{
    CUresult rc = fake_enter("cuMemGetAddressRange", "dptr=0x%llx", (unsigned long long)dptr);
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc != CUDA_SUCCESS)
        return fake_leave(rc);
    const unsigned char *p = (const unsigned char *)(uintptr_t)dptr;
    for (size_t i = 0; i < fake_g.allocs.count; i++) {
        fake_alloc *a = fake_g.allocs.items[i];
        if (p >= a->ptr && p < a->ptr + a->size) {
            if (base)
                *base = (CUdeviceptr)(uintptr_t)a->ptr;
            if (size)
                *size = a->size;
            return fake_leave(CUDA_SUCCESS);
        }
    }
    return fake_leave(CUDA_ERROR_NOT_FOUND);
}

const proc_entry fake_procs_ipc[] = {
    {"cuIpcGetMemHandle", 4010, 99999, (void *)f_cuIpcGetMemHandle},
    {"cuIpcOpenMemHandle", 11000, 99999, (void *)f_cuIpcOpenMemHandle},
    {"cuIpcCloseMemHandle", 4010, 99999, (void *)f_cuIpcCloseMemHandle},
    {"cuIpcGetEventHandle", 4010, 99999, (void *)f_cuIpcGetEventHandle},
    {"cuIpcOpenEventHandle", 4010, 99999, (void *)f_cuIpcOpenEventHandle},
    {"cuMemPoolExportToShareableHandle", 11020, 99999,
     (void *)f_cuMemPoolExportToShareableHandle},
    {"cuMemPoolImportFromShareableHandle", 11020, 99999,
     (void *)f_cuMemPoolImportFromShareableHandle},
    {"cuMemPoolExportPointer", 11020, 99999, (void *)f_cuMemPoolExportPointer},
    {"cuMemPoolImportPointer", 11020, 99999, (void *)f_cuMemPoolImportPointer},
    {"cuMemGetAddressRange", 3020, 99999, (void *)f_cuMemGetAddressRange},
    {NULL, 0, 0, NULL},
};
