/*
 * ipc.c - memory, events and pools shared between processes.
 *
 * Two mechanisms, both the driver's, passed through:
 *
 *   legacy IPC   cudaIpcGetMemHandle / cudaIpcOpenMemHandle / cudaIpcCloseMemHandle for a
 *                cudaMalloc'd block, cudaIpcGetEventHandle / cudaIpcOpenEventHandle for an event
 *                made with cudaEventInterprocess | cudaEventDisableTiming.  The handles are
 *                64 opaque bytes, the driver's CUipcMemHandle / CUipcEventHandle (checked below);
 *                a program copies them to another process by any means.
 *   pool sharing cudaMemPoolExportToShareableHandle turns a pool made with a handle type other
 *                than cudaMemHandleTypeNone into an OS handle (a POSIX file descriptor: written
 *                to the int that shareableHandle points at), which the other process passes to
 *                cudaMemPoolImportFromShareableHandle -- as the fd value itself cast to void *,
 *                not a pointer to it, the driver's convention for cuMemImportFromShareableHandle.
 *                Single blocks of the pool then travel as cudaMemPoolPtrExportData (64 bytes,
 *                CUmemPoolPtrExportData: data, not a handle).
 *
 * What the runtime adds: NULL out-pointers answer cudaErrorInvalidValue before any driver call,
 * the current device's primary context is entered first (a handle is opened into it), and an
 * event opened from a handle is recorded in handles.c as if cudaEventCreate had made it, so the
 * event calls take it and cudaDeviceReset invalidates it like any other.  Imported pools and
 * pointers need no bookkeeping: pools are the driver's handles (mempool.c), and imported
 * pointers are freed with cudaFree / cudaFreeAsync, which pass to the driver.
 *
 * Every handle that crosses a process boundary is named in the trace by the hex of its first
 * 8 bytes: "IPC: exported memory 0x... (N bytes) as handle 0123456789abcdef".
 *
 * What the driver requires (its documentation of cuIpc*): devices with unified addressing, on
 * Linux (or Windows, where it is discouraged); the other process is a process of its own, since
 * CUDA cannot be used across a plain fork (the GPU tests start themselves again with fork +
 * exec).  The importer gives back what it opened before the exporter frees it: cuMemFree of
 * exported memory before the importer's cuIpcCloseMemHandle, or any use of an opened event
 * after the exporter destroyed it, is undefined.  The importer's end does not take the
 * exporter's with it: a holder killed with SIGKILL leaves the exporter's block and event valid
 * (tests/gpu/fault_ipc_kill.cu and tests/gpu/conf_ipc.cu assert it; docs/reliability.md reports
 * fault_ipc_kill's H200 runs).
 */
#include <string.h>

#include "stream/stream.h"

/* The runtime's handles and export data are the driver's bytes: copied with memcpy, never read. */
_Static_assert(sizeof(cudaIpcMemHandle_t) == sizeof(CUipcMemHandle) &&
               sizeof(cudaIpcMemHandle_t) == CU_IPC_HANDLE_SIZE, "IPC memory handles differ");
_Static_assert(sizeof(cudaIpcEventHandle_t) == sizeof(CUipcEventHandle) &&
               sizeof(cudaIpcEventHandle_t) == CU_IPC_HANDLE_SIZE, "IPC event handles differ");
_Static_assert(sizeof(struct cudaMemPoolPtrExportData) == sizeof(CUmemPoolPtrExportData),
               "pool pointer export data differs");
_Static_assert(cudaIpcMemLazyEnablePeerAccess == CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS,
               "IPC flags differ");
_Static_assert((int)cudaMemHandleTypePosixFileDescriptor ==
                   (int)CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR &&
               (int)cudaMemHandleTypeFabric == (int)CU_MEM_HANDLE_TYPE_FABRIC,
               "shareable handle types differ");

/* The first 8 bytes of a handle in hex, for the trace. */
static void rt_ipc_hex(const void *handle, char out[17])
{
    static const char digits[] = "0123456789abcdef";
    const unsigned char *bytes = handle;
    for (int i = 0; i < 8; i++) {
        out[2 * i] = digits[bytes[i] >> 4];
        out[2 * i + 1] = digits[bytes[i] & 15];
    }
    out[16] = '\0';
}

/* The size of the allocation at ptr, for the trace only; 0 when unknown (an entry point the
 * runtime treats as optional, so it may be missing from the table). */
static size_t rt_ipc_block_size(CUdeviceptr ptr)
{
    CUdeviceptr base = 0;
    size_t size = 0;
    if (!rt_drv.cuMemGetAddressRange ||
        rt_drv.cuMemGetAddressRange(&base, &size, ptr) != CUDA_SUCCESS)
        return 0;
    return size;
}

/* ---- legacy IPC: memory --------------------------------------------------------------------- */

/* devPtr must be the base of a cudaMalloc'd block: the driver refuses anything else
 * (CUDA_ERROR_INVALID_VALUE), including memory of a pool or of cudaMallocManaged.  Asking again
 * is cheap and harmless, the driver says; a block freed and allocated again at the same address
 * gets a new handle: a handle names one allocation, not an address.  NVIDIA's runtime crashes on a
 * NULL handle (tests/gpu/expected_differences.txt, conf_misuse_ipc.cu's null_handle case). */
RT_API cudaError_t cudaIpcGetMemHandle(cudaIpcMemHandle_t *handle, void *devPtr)
{
    RT_ENTER();
    if (!handle)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    CUdeviceptr ptr = (CUdeviceptr)(uintptr_t)devPtr;
    CUipcMemHandle out;
    memset(&out, 0, sizeof out);
    e = rt_driver_result(d, rt_drv.cuIpcGetMemHandle(&out, ptr));
    if (e == cudaSuccess) {
        memcpy(handle, &out, sizeof out);
        if (rt_tracing()) {
            char hex[17];
            rt_ipc_hex(&out, hex);
            RT_TRACE("IPC: exported memory %p (%zu bytes) as handle %s", devPtr,
                     rt_ipc_block_size(ptr), hex);
        }
    }
    RT_RETURN(e);
}

/* Maps another process's block into the current context.  The driver answers a handle made by
 * this very process with CUDA_ERROR_INVALID_CONTEXT (cudaErrorInvalidContext), and counts
 * repeated opens of one handle (each needs a cudaIpcCloseMemHandle): a second open in the same
 * context returns the same pointer (conf_ipc.cu expects it).  The address means nothing to
 * other processes, which may map the same handle elsewhere.  One process's handles of one device
 * may be opened by one context per device in each other process.  cudaIpcMemLazyEnablePeerAccess
 * lets the driver enable peer access when the block is another device's; flags go to the driver
 * as they are, for it to judge. */
RT_API cudaError_t cudaIpcOpenMemHandle(void **devPtr, cudaIpcMemHandle_t handle,
                                        unsigned int flags)
{
    RT_ENTER();
    if (!devPtr)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    CUipcMemHandle in;
    memcpy(&in, &handle, sizeof in);
    CUdeviceptr ptr = 0;
    e = rt_driver_result(d, rt_drv.cuIpcOpenMemHandle(&ptr, in, flags));
    char hex[17];
    rt_ipc_hex(&in, hex);
    if (e == cudaSuccess) {
        *devPtr = (void *)(uintptr_t)ptr;
        RT_TRACE("IPC: opened memory handle %s (flags %#x) on device %d at %p", hex, flags,
                 d->ordinal, *devPtr);
    } else {
        RT_TRACE("IPC: cannot open memory handle %s (flags %#x): %s", hex, flags,
                 rt_error_name(e));
    }
    RT_RETURN(e);
}

RT_API cudaError_t cudaIpcCloseMemHandle(void *devPtr)
{
    RT_ENTER();
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    /* One reference less; the mapping goes with the last one.  The exporter's block and other
     * processes' mappings are not affected (the driver's documentation). */
    e = rt_driver_result(d, rt_drv.cuIpcCloseMemHandle((CUdeviceptr)(uintptr_t)devPtr));
    RT_TRACE("IPC: closed memory at %p: %s", devPtr, rt_error_name(e));
    RT_RETURN(e);
}

/* ---- legacy IPC: events --------------------------------------------------------------------- */

/* The event must have been made with cudaEventInterprocess | cudaEventDisableTiming (the driver
 * checks).  One destroyed by a cudaDeviceReset answers as the other event calls do.  Once opened,
 * cudaEventRecord, cudaEventSynchronize, cudaStreamWaitEvent and cudaEventQuery work on it in
 * either process: GPU work of one process waits for the other's.  NVIDIA's runtime crashes on a
 * NULL handle here too (tests/gpu/expected_differences.txt). */
RT_API cudaError_t cudaIpcGetEventHandle(cudaIpcEventHandle_t *handle, cudaEvent_t event)
{
    RT_ENTER();
    if (!handle)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = rt_enter_with(NULL, event, &d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    CUipcEventHandle out;
    memset(&out, 0, sizeof out);
    e = rt_driver_result(d, rt_drv.cuIpcGetEventHandle(&out, (CUevent)event));
    if (e == cudaSuccess) {
        memcpy(handle, &out, sizeof out);
        if (rt_tracing()) {
            char hex[17];
            rt_ipc_hex(&out, hex);
            RT_TRACE("IPC: exported event %p as handle %s", (void *)event, hex);
        }
    }
    RT_RETURN(e);
}

/* The opened event behaves as one made with cudaEventDisableTiming and is destroyed with
 * cudaEventDestroy: it is recorded like a created one (handles.c). */
RT_API cudaError_t cudaIpcOpenEventHandle(cudaEvent_t *event, cudaIpcEventHandle_t handle)
{
    RT_ENTER();
    if (!event)
        RT_RETURN(cudaErrorInvalidValue);
    /* rt_context_enter, not rt_enter_with: the handle's bytes are no event of this process. */
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    CUipcEventHandle in;
    memcpy(&in, &handle, sizeof in);
    CUevent ev = NULL;
    e = rt_driver_result(d, rt_drv.cuIpcOpenEventHandle(&ev, in));
    char hex[17];
    rt_ipc_hex(&in, hex);
    if (e == cudaSuccess) {
        rt_handle_add(RT_HANDLE_EVENT, ev, d);
        *event = (cudaEvent_t)ev;
        RT_TRACE("IPC: opened event handle %s on device %d as event %p", hex, d->ordinal,
                 (void *)ev);
    } else {
        RT_TRACE("IPC: cannot open event handle %s: %s", hex, rt_error_name(e));
    }
    RT_RETURN(e);
}

/* ---- pool sharing --------------------------------------------------------------------------- */

/* The OS handle for the trace: the fd of a POSIX handle, else the first bytes of an exported
 * one; the argument of an import is only printed, never read (the driver judges it). */
static void rt_ipc_describe_os_handle(char *out, size_t cap, const void *handle,
                                      enum cudaMemAllocationHandleType type, bool exported)
{
    if (type == cudaMemHandleTypePosixFileDescriptor) {
        int fd = exported ? *(const int *)handle : (int)(intptr_t)handle;
        snprintf(out, cap, "file descriptor %d", fd);
    } else if (exported) {
        char hex[17];
        rt_ipc_hex(handle, hex);
        snprintf(out, cap, "handle type %d, data %s", (int)type, hex);
    } else {
        snprintf(out, cap, "handle type %d at %p", (int)type, handle);
    }
}

/* shareableHandle points at the place for the OS handle (an int for a POSIX file descriptor);
 * flags must be 0 and the pool must allow handleType (the driver checks both).  The descriptor is
 * a new one, this process's: its number means nothing elsewhere, so it travels over a Unix
 * socket as SCM_RIGHTS (what conf_ipc.cu does), and each process closes its copy when done. */
RT_API cudaError_t cudaMemPoolExportToShareableHandle(void *shareableHandle,
                                                      cudaMemPool_t memPool,
                                                      enum cudaMemAllocationHandleType handleType,
                                                      unsigned int flags)
{
    RT_ENTER();
    if (!shareableHandle)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    e = rt_driver_result(d, rt_drv.cuMemPoolExportToShareableHandle(
                                shareableHandle, (CUmemoryPool)memPool,
                                (CUmemAllocationHandleType)handleType, flags));
    if (e == cudaSuccess && rt_tracing()) {
        char what[64];
        rt_ipc_describe_os_handle(what, sizeof what, shareableHandle, handleType, true);
        RT_TRACE("IPC: exported pool %p as %s", (void *)memPool, what);
    }
    RT_RETURN(e);
}

/* shareableHandle is the OS handle itself for a POSIX file descriptor ((void *)(intptr_t)fd, so
 * fd 0 is NULL and still valid), a pointer to the data for the other types: the runtime cannot
 * refuse NULL here, the driver judges it by the type.  The pool comes back as the driver made it;
 * it serves cudaMemPoolImportPointer, not allocation. */
RT_API cudaError_t cudaMemPoolImportFromShareableHandle(cudaMemPool_t *memPool,
                                                        void *shareableHandle,
                                                        enum cudaMemAllocationHandleType handleType,
                                                        unsigned int flags)
{
    RT_ENTER();
    if (!memPool)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    CUmemoryPool pool = NULL;
    e = rt_driver_result(d, rt_drv.cuMemPoolImportFromShareableHandle(
                                &pool, shareableHandle, (CUmemAllocationHandleType)handleType,
                                flags));
    char what[64];
    rt_ipc_describe_os_handle(what, sizeof what, shareableHandle, handleType, false);
    if (e == cudaSuccess) {
        *memPool = (cudaMemPool_t)pool;
        RT_TRACE("IPC: imported pool from %s as pool %p", what, (void *)pool);
    } else {
        RT_TRACE("IPC: cannot import a pool from %s: %s", what, rt_error_name(e));
    }
    RT_RETURN(e);
}

RT_API cudaError_t cudaMemPoolExportPointer(struct cudaMemPoolPtrExportData *exportData,
                                            void *ptr)
{
    RT_ENTER();
    if (!exportData)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    /* Data, not a handle: 64 bytes naming one block of an exportable pool, meaningful only to a
     * process that imported that pool. */
    CUmemPoolPtrExportData out;
    memset(&out, 0, sizeof out);
    e = rt_driver_result(d, rt_drv.cuMemPoolExportPointer(&out, (CUdeviceptr)(uintptr_t)ptr));
    if (e == cudaSuccess) {
        memcpy(exportData, &out, sizeof out);
        if (rt_tracing()) {
            char hex[17];
            rt_ipc_hex(&out, hex);
            RT_TRACE("IPC: exported pool memory %p as data %s", ptr, hex);
        }
    }
    RT_RETURN(e);
}

/* The imported block is freed with cudaFree or cudaFreeAsync, before the exporter frees it.
 * memPool is the pool imported from the exporter's shareable handle; the export data names one
 * block of it. */
RT_API cudaError_t cudaMemPoolImportPointer(void **ptr, cudaMemPool_t memPool,
                                            struct cudaMemPoolPtrExportData *exportData)
{
    RT_ENTER();
    if (!ptr || !exportData)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    CUmemPoolPtrExportData in;
    memcpy(&in, exportData, sizeof in);
    CUdeviceptr p = 0;
    e = rt_driver_result(d, rt_drv.cuMemPoolImportPointer(&p, (CUmemoryPool)memPool, &in));
    char hex[17];
    rt_ipc_hex(&in, hex);
    if (e == cudaSuccess) {
        *ptr = (void *)(uintptr_t)p;
        RT_TRACE("IPC: imported pool memory %s from pool %p at %p", hex, (void *)memPool, *ptr);
    } else {
        RT_TRACE("IPC: cannot import pool memory %s from pool %p: %s", hex, (void *)memPool,
                 rt_error_name(e));
    }
    RT_RETURN(e);
}
