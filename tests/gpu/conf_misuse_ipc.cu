// conf_misuse_ipc.cu - invalid inputs to interprocess memory and events (cudaIpc*) and to pool
// sharing (cudaMemPoolExport* / cudaMemPoolImport*), one case each (the runner and the line
// format: misuse.h).  Everything here happens in one process, so opening a handle this process
// made is itself one of the cases (the driver refuses it for memory).  Descriptors a case opens
// are closed by its cleanup, so that restarts after a crash see the same numbers.
#include "misuse.h"

#include <fcntl.h>
#include <unistd.h>

// Fixtures, made at every start.
static char *d;                            // cudaMalloc'd, 4096 bytes
static cudaEvent_t plain_event;            // default flags: not interprocess
static cudaEvent_t ipc_event;              // cudaEventInterprocess | cudaEventDisableTiming
static cudaMemPool_t ipc_pool;             // exportable as a POSIX file descriptor
static cudaMemPool_t plain_pool;           // handle type none
static cudaMemPool_t default_pool;
static void *ipc_block;                    // 1024 bytes of ipc_pool
static void *plain_block;                  // 1024 bytes of plain_pool
static cudaIpcMemHandle_t own_mem_handle;  // of d
static cudaIpcEventHandle_t own_event_handle;
static cudaMemPoolPtrExportData own_export; // of ipc_block

// What a case made, for its cleanup.
static int made_fd = -1;
static void *made_ptr;
static void *managed_ptr;
static cudaEvent_t made_event;
static cudaMemPool_t made_pool;

static cudaIpcMemHandle_t mem_handle_out;
static cudaIpcEventHandle_t event_handle_out;
static cudaMemPoolPtrExportData export_out;
static void *ptr_out;
static cudaEvent_t event_out;
static cudaMemPool_t pool_out;
static int fd_out = -1;

static cudaMemPoolProps pool_props(cudaMemAllocationHandleType type)
{
    cudaMemPoolProps p;
    memset(&p, 0, sizeof p);
    p.allocType = cudaMemAllocationTypePinned;
    p.handleTypes = type;
    p.location.type = cudaMemLocationTypeDevice;
    p.location.id = 0;
    return p;
}

static void setup(void)
{
    CHECK(cudaMalloc((void **)&d, 4096));
    CHECK(cudaEventCreate(&plain_event));
    CHECK(cudaEventCreateWithFlags(&ipc_event, cudaEventInterprocess | cudaEventDisableTiming));
    cudaMemPoolProps p = pool_props(cudaMemHandleTypePosixFileDescriptor);
    CHECK(cudaMemPoolCreate(&ipc_pool, &p));
    p = pool_props(cudaMemHandleTypeNone);
    CHECK(cudaMemPoolCreate(&plain_pool, &p));
    CHECK(cudaDeviceGetDefaultMemPool(&default_pool, 0));
    CHECK(cudaMallocFromPoolAsync(&ipc_block, 1024, ipc_pool, 0));
    CHECK(cudaMallocFromPoolAsync(&plain_block, 1024, plain_pool, 0));
    CHECK(cudaStreamSynchronize(0));
    // Best effort: a driver without IPC (the fake driver unless FAKECUDA_IPC=1) leaves the
    // handles zero, and the cases still run.
    if (cudaIpcGetMemHandle(&own_mem_handle, d) != cudaSuccess)
        memset(&own_mem_handle, 0, sizeof own_mem_handle);
    if (cudaIpcGetEventHandle(&own_event_handle, ipc_event) != cudaSuccess)
        memset(&own_event_handle, 0, sizeof own_event_handle);
    if (cudaMemPoolExportPointer(&own_export, ipc_block) != cudaSuccess)
        memset(&own_export, 0, sizeof own_export);
    misuse_clear();
}

static void clean(void)
{
    if (made_fd >= 0)
        close(made_fd);
    if (fd_out >= 0)
        close(fd_out);
    if (made_ptr)
        cudaIpcCloseMemHandle(made_ptr);
    if (managed_ptr)
        cudaFree(managed_ptr);
    if (made_event)
        cudaEventDestroy(made_event);
    if (made_pool)
        cudaMemPoolDestroy(made_pool);
    made_fd = fd_out = -1;
    made_ptr = managed_ptr = NULL;
    made_event = NULL;
    made_pool = NULL;
}

// An exported descriptor of ipc_pool, in made_fd (-1 when the export failed).
static int export_fd(void)
{
    made_fd = -1;
    if (cudaMemPoolExportToShareableHandle(&made_fd, ipc_pool,
                                           cudaMemHandleTypePosixFileDescriptor, 0) != cudaSuccess)
        made_fd = -1;
    misuse_clear();
    return made_fd;
}

static cudaError_t import_fd(cudaMemPool_t *out, int fd, cudaMemAllocationHandleType type,
                             unsigned flags)
{
    cudaError_t e = cudaMemPoolImportFromShareableHandle(out, (void *)(intptr_t)fd, type, flags);
    if (e == cudaSuccess && out == &pool_out)
        made_pool = pool_out;
    return e;
}

static cudaError_t open_mem(const cudaIpcMemHandle_t &h, unsigned flags)
{
    ptr_out = NULL;
    cudaError_t e = cudaIpcOpenMemHandle(&ptr_out, h, flags);
    if (e == cudaSuccess)
        made_ptr = ptr_out;
    return e;
}

static cudaError_t export_pool(void *out, cudaMemPool_t pool, cudaMemAllocationHandleType type,
                               unsigned flags)
{
    fd_out = -1;
    cudaError_t e = cudaMemPoolExportToShareableHandle(out, pool, type, flags);
    if (e != cudaSuccess || out != &fd_out)
        fd_out = -1;
    return e;
}

static const misuse_case cases[] = {
    // ---- cudaIpcGetMemHandle
    {"cudaIpcGetMemHandle.null_handle", [] { return cudaIpcGetMemHandle(NULL, d); }},
    {"cudaIpcGetMemHandle.null_pointer",
     [] { return cudaIpcGetMemHandle(&mem_handle_out, NULL); }},
    {"cudaIpcGetMemHandle.not_the_base",
     [] { return cudaIpcGetMemHandle(&mem_handle_out, d + 256); }},
    {"cudaIpcGetMemHandle.host_memory",
     [] { return cudaIpcGetMemHandle(&mem_handle_out, misuse_host_page); }},
    {"cudaIpcGetMemHandle.pool_allocation",
     [] { return cudaIpcGetMemHandle(&mem_handle_out, ipc_block); }},
    {"cudaIpcGetMemHandle.managed_memory",
     [] {
         if (cudaMallocManaged(&managed_ptr, 4096) != cudaSuccess)
             managed_ptr = NULL;
         misuse_clear();
         return cudaIpcGetMemHandle(&mem_handle_out, managed_ptr);
     },
     clean},
    {"cudaIpcGetMemHandle.twice_same_handle",
     [] {
         cudaIpcMemHandle_t again;
         cudaError_t e = cudaIpcGetMemHandle(&again, d);
         misuse_note("same=%d", e == cudaSuccess && memcmp(&again, &own_mem_handle,
                                                            sizeof again) == 0);
         return e;
     }},
    // ---- cudaIpcOpenMemHandle
    {"cudaIpcOpenMemHandle.null_devptr",
     [] { return cudaIpcOpenMemHandle(NULL, own_mem_handle, cudaIpcMemLazyEnablePeerAccess); }},
    {"cudaIpcOpenMemHandle.own_handle",
     [] { return open_mem(own_mem_handle, cudaIpcMemLazyEnablePeerAccess); }, clean},
    {"cudaIpcOpenMemHandle.own_handle_flags_0", [] { return open_mem(own_mem_handle, 0); },
     clean},
    {"cudaIpcOpenMemHandle.own_handle_flags_2", [] { return open_mem(own_mem_handle, 2); },
     clean},
    {"cudaIpcOpenMemHandle.zero_handle",
     [] {
         cudaIpcMemHandle_t zero;
         memset(&zero, 0, sizeof zero);
         return open_mem(zero, cudaIpcMemLazyEnablePeerAccess);
     },
     clean},
    {"cudaIpcOpenMemHandle.garbage_handle",
     [] {
         cudaIpcMemHandle_t garbage;
         memset(&garbage, 0x5a, sizeof garbage);
         return open_mem(garbage, cudaIpcMemLazyEnablePeerAccess);
     },
     clean},
    // ---- cudaIpcCloseMemHandle
    {"cudaIpcCloseMemHandle.null", [] { return cudaIpcCloseMemHandle(NULL); }},
    {"cudaIpcCloseMemHandle.malloc_pointer_never_opened",
     [] { return cudaIpcCloseMemHandle(d); }},
    {"cudaIpcCloseMemHandle.host_memory",
     [] { return cudaIpcCloseMemHandle(misuse_host_page); }},
    // ---- cudaIpcGetEventHandle
    {"cudaIpcGetEventHandle.null_handle", [] { return cudaIpcGetEventHandle(NULL, ipc_event); }},
    {"cudaIpcGetEventHandle.not_interprocess",
     [] { return cudaIpcGetEventHandle(&event_handle_out, plain_event); }},
    {"cudaIpcGetEventHandle.null_event",
     [] { return cudaIpcGetEventHandle(&event_handle_out, NULL); }},
    // ---- cudaIpcOpenEventHandle
    {"cudaIpcOpenEventHandle.null_event",
     [] { return cudaIpcOpenEventHandle(NULL, own_event_handle); }},
    {"cudaIpcOpenEventHandle.own_handle",
     [] {
         event_out = NULL;
         cudaError_t e = cudaIpcOpenEventHandle(&event_out, own_event_handle);
         if (e == cudaSuccess)
             made_event = event_out;
         return e;
     },
     clean},
    {"cudaIpcOpenEventHandle.zero_handle",
     [] {
         cudaIpcEventHandle_t zero;
         memset(&zero, 0, sizeof zero);
         event_out = NULL;
         cudaError_t e = cudaIpcOpenEventHandle(&event_out, zero);
         if (e == cudaSuccess)
             made_event = event_out;
         return e;
     },
     clean},
    // ---- cudaMemPoolExportToShareableHandle
    {"cudaMemPoolExportToShareableHandle.null_handle",
     [] { return export_pool(NULL, ipc_pool, cudaMemHandleTypePosixFileDescriptor, 0); }},
    {"cudaMemPoolExportToShareableHandle.pool_of_handle_type_none",
     [] { return export_pool(&fd_out, plain_pool, cudaMemHandleTypePosixFileDescriptor, 0); },
     clean},
    {"cudaMemPoolExportToShareableHandle.default_pool",
     [] { return export_pool(&fd_out, default_pool, cudaMemHandleTypePosixFileDescriptor, 0); },
     clean},
    {"cudaMemPoolExportToShareableHandle.type_fabric",
     [] {
         static cudaMemFabricHandle_t fabric;
         return export_pool(&fabric, ipc_pool, cudaMemHandleTypeFabric, 0);
     }},
    {"cudaMemPoolExportToShareableHandle.type_none",
     [] { return export_pool(&fd_out, ipc_pool, cudaMemHandleTypeNone, 0); }, clean},
    {"cudaMemPoolExportToShareableHandle.flags_1",
     [] { return export_pool(&fd_out, ipc_pool, cudaMemHandleTypePosixFileDescriptor, 1); },
     clean},
    {"cudaMemPoolExportToShareableHandle.null_pool",
     [] { return export_pool(&fd_out, NULL, cudaMemHandleTypePosixFileDescriptor, 0); }, clean},
    // ---- cudaMemPoolImportFromShareableHandle
    {"cudaMemPoolImportFromShareableHandle.null_pool_out",
     [] { return import_fd(NULL, export_fd(), cudaMemHandleTypePosixFileDescriptor, 0); },
     clean},
    {"cudaMemPoolImportFromShareableHandle.fd_minus_1",
     [] { return import_fd(&pool_out, -1, cudaMemHandleTypePosixFileDescriptor, 0); }, clean},
    {"cudaMemPoolImportFromShareableHandle.fd_of_dev_null",
     [] {
         made_fd = open("/dev/null", O_RDONLY);
         return import_fd(&pool_out, made_fd, cudaMemHandleTypePosixFileDescriptor, 0);
     },
     clean},
    {"cudaMemPoolImportFromShareableHandle.type_none",
     [] { return import_fd(&pool_out, export_fd(), cudaMemHandleTypeNone, 0); }, clean},
    {"cudaMemPoolImportFromShareableHandle.flags_1",
     [] { return import_fd(&pool_out, export_fd(), cudaMemHandleTypePosixFileDescriptor, 1); },
     clean},
    {"cudaMemPoolImportFromShareableHandle.same_process",
     [] { return import_fd(&pool_out, export_fd(), cudaMemHandleTypePosixFileDescriptor, 0); },
     clean},
    // ---- cudaMemPoolExportPointer
    {"cudaMemPoolExportPointer.null_data",
     [] { return cudaMemPoolExportPointer(NULL, ipc_block); }},
    {"cudaMemPoolExportPointer.null_pointer",
     [] { return cudaMemPoolExportPointer(&export_out, NULL); }},
    {"cudaMemPoolExportPointer.malloc_pointer",
     [] { return cudaMemPoolExportPointer(&export_out, d); }},
    {"cudaMemPoolExportPointer.not_the_base",
     [] { return cudaMemPoolExportPointer(&export_out, (char *)ipc_block + 16); }},
    {"cudaMemPoolExportPointer.pool_of_handle_type_none",
     [] { return cudaMemPoolExportPointer(&export_out, plain_block); }},
    {"cudaMemPoolExportPointer.host_memory",
     [] { return cudaMemPoolExportPointer(&export_out, misuse_host_page); }},
    // ---- cudaMemPoolImportPointer
    {"cudaMemPoolImportPointer.null_ptr",
     [] { return cudaMemPoolImportPointer(NULL, ipc_pool, &own_export); }},
    {"cudaMemPoolImportPointer.null_data",
     [] { return cudaMemPoolImportPointer(&ptr_out, ipc_pool, NULL); }},
    {"cudaMemPoolImportPointer.null_pool",
     [] { return cudaMemPoolImportPointer(&ptr_out, NULL, &own_export); }},
    {"cudaMemPoolImportPointer.exporting_pool_itself",
     [] { return cudaMemPoolImportPointer(&ptr_out, ipc_pool, &own_export); }},
    {"cudaMemPoolImportPointer.zero_data_into_plain_pool",
     [] {
         static cudaMemPoolPtrExportData zero;
         return cudaMemPoolImportPointer(&ptr_out, plain_pool, &zero);
     }},
};

int main(int argc, char **argv)
{
    return misuse_main("conf_misuse_ipc", argc, argv, setup, cases, MISUSE_COUNT(cases));
}
