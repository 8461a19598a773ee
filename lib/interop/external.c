/*
 * external.c - memory and semaphores another API exported (Vulkan, OpenGL, D3D, NvSci, or CUDA
 * itself through a shareable handle), imported into the current context; and the NvSciSync
 * attributes of a device.
 *
 * cudaExternalMemory_t is the driver's CUexternalMemory and cudaExternalSemaphore_t its
 * CUexternalSemaphore, handed out unchanged.  The descriptors have the driver's layout (checked
 * below) and pass through, except the mipmapped array's: the runtime describes the array with a
 * channel descriptor, an extent and flags, the driver with a CUDA_ARRAY3D_DESCRIPTOR, built as
 * cudaMallocMipmappedArray builds it (array.c).  What comes back is the runtime's own kind of
 * object: a mapped buffer is device memory that cudaFree releases, a mapped mipmapped array one
 * that cudaFreeMipmappedArray releases (recorded in handles.c like one cudaMallocMipmappedArray
 * made).
 *
 * The import of which fd or handle, the mapped addresses and the semaphore types are named in the
 * trace; for that the runtime remembers each imported object's type and size (a short list: a
 * program imports few).  Objects a cudaDeviceReset destroyed are refused before the driver sees
 * them (handles.c).
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "interop/graphics.h"
#include "memory/array.h"

/* The runtime's descriptors are the driver's, field for field. */
#define RT_SAME_LAYOUT(rt, cu, field)                                                         \
    _Static_assert(sizeof(rt) == sizeof(cu) && offsetof(rt, field) == offsetof(cu, field),   \
                   #rt " and " #cu " differ")
RT_SAME_LAYOUT(struct cudaExternalMemoryHandleDesc, CUDA_EXTERNAL_MEMORY_HANDLE_DESC, flags);
RT_SAME_LAYOUT(struct cudaExternalMemoryHandleDesc, CUDA_EXTERNAL_MEMORY_HANDLE_DESC, size);
RT_SAME_LAYOUT(struct cudaExternalMemoryHandleDesc, CUDA_EXTERNAL_MEMORY_HANDLE_DESC,
               handle.win32.name);
RT_SAME_LAYOUT(struct cudaExternalMemoryBufferDesc, CUDA_EXTERNAL_MEMORY_BUFFER_DESC, flags);
RT_SAME_LAYOUT(struct cudaExternalSemaphoreHandleDesc, CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC,
               flags);
RT_SAME_LAYOUT(struct cudaExternalSemaphoreHandleDesc, CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC,
               handle.nvSciSyncObj);
RT_SAME_LAYOUT(struct cudaExternalSemaphoreSignalParams, CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS,
               params.keyedMutex.key);
RT_SAME_LAYOUT(struct cudaExternalSemaphoreSignalParams, CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS,
               flags);
RT_SAME_LAYOUT(struct cudaExternalSemaphoreWaitParams, CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS,
               params.keyedMutex.timeoutMs);
RT_SAME_LAYOUT(struct cudaExternalSemaphoreWaitParams, CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS,
               flags);
_Static_assert((int)cudaExternalMemoryHandleTypeOpaqueFd ==
                       (int)CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD &&
                   (int)cudaExternalMemoryHandleTypeD3D12Heap ==
                       (int)CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D12_HEAP &&
                   (int)cudaExternalMemoryHandleTypeD3D11ResourceKmt ==
                       (int)CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D11_RESOURCE_KMT &&
                   (int)cudaExternalMemoryHandleTypeNvSciBuf ==
                       (int)CU_EXTERNAL_MEMORY_HANDLE_TYPE_NVSCIBUF,
               "external memory handle types differ");
_Static_assert((int)cudaExternalSemaphoreHandleTypeOpaqueFd ==
                       (int)CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD &&
                   (int)cudaExternalSemaphoreHandleTypeNvSciSync ==
                       (int)CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_NVSCISYNC &&
                   (int)cudaExternalSemaphoreHandleTypeKeyedMutexKmt ==
                       (int)CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D11_KEYED_MUTEX_KMT &&
                   (int)cudaExternalSemaphoreHandleTypeTimelineSemaphoreWin32 ==
                       (int)CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_WIN32,
               "external semaphore handle types differ");
_Static_assert(cudaNvSciSyncAttrSignal == CUDA_NVSCISYNC_ATTR_SIGNAL &&
                   cudaNvSciSyncAttrWait == CUDA_NVSCISYNC_ATTR_WAIT,
               "NvSciSync attribute flags differ");
_Static_assert(cudaExternalMemoryDedicated == CUDA_EXTERNAL_MEMORY_DEDICATED,
               "external memory flags differ");

/* ---- what the trace names ------------------------------------------------------------------- */

/* The types' names for the trace, NUL-separated by value from 1 (no pointers to relocate). */
static const char rt_memory_type_names[] =
    "OpaqueFd\0OpaqueWin32\0OpaqueWin32Kmt\0D3D12Heap\0D3D12Resource\0D3D11Resource\0"
    "D3D11ResourceKmt\0NvSciBuf\0";
static const char rt_semaphore_type_names[] =
    "OpaqueFd\0OpaqueWin32\0OpaqueWin32Kmt\0D3D12Fence\0D3D11Fence\0NvSciSync\0KeyedMutex\0"
    "KeyedMutexKmt\0TimelineSemaphoreFd\0TimelineSemaphoreWin32\0";

/* The type-th name of the list (counted from 1), or "unknown type". */
static const char *rt_type_name(const char *names, int type)
{
    for (int i = 1; type > 0 && *names; i++, names += strlen(names) + 1)
        if (i == type)
            return names;
    return "unknown type";
}
#define RT_MEMORY_TYPE(t) rt_type_name(rt_memory_type_names, (int)(t))
#define RT_SEMAPHORE_TYPE(t) rt_type_name(rt_semaphore_type_names, (int)(t))

/* One imported object, remembered for the trace. */
typedef struct rt_external {
    const void *handle;
    int type;
    unsigned long long size;      /* memory: bytes; semaphores: 0 */
    struct rt_external *next;
} rt_external;

static rt_external *rt_externals;
static pthread_mutex_t rt_external_lock = PTHREAD_MUTEX_INITIALIZER;

static void rt_external_add(const void *handle, int type, unsigned long long size)
{
    rt_external *x = malloc(sizeof *x);
    if (!x)
        return;                   /* only the trace loses the type */
    *x = (rt_external){ handle, type, size, NULL };
    pthread_mutex_lock(&rt_external_lock);
    x->next = rt_externals;
    rt_externals = x;
    pthread_mutex_unlock(&rt_external_lock);
}

static void rt_external_remove(const void *handle)
{
    pthread_mutex_lock(&rt_external_lock);
    for (rt_external **link = &rt_externals; *link; link = &(*link)->next) {
        if ((*link)->handle == handle) {
            rt_external *x = *link;
            *link = x->next;
            free(x);
            break;
        }
    }
    pthread_mutex_unlock(&rt_external_lock);
}

/* The recorded type of an imported object, or 0 when the runtime did not import it. */
static int rt_external_type(const void *handle, unsigned long long *size)
{
    int type = 0;
    pthread_mutex_lock(&rt_external_lock);
    for (const rt_external *x = rt_externals; x; x = x->next) {
        if (x->handle == handle) {
            type = x->type;
            if (size)
                *size = x->size;
            break;
        }
    }
    pthread_mutex_unlock(&rt_external_lock);
    return type;
}

/* Describes the fd or handle an import names, for the trace. */
static void rt_describe_handle(char *out, size_t cap, bool fd_type, int fd, const void *handle,
                               const void *name)
{
    if (fd_type)
        snprintf(out, cap, "fd %d", fd);
    else if (name)
        snprintf(out, cap, "handle %p name %p", handle, name);
    else
        snprintf(out, cap, "handle %p", handle);
}

/* ---- external memory ------------------------------------------------------------------------ */

/* Enters the thread's context for a call on an imported object, refusing NULL
 * (cudaErrorInvalidValue, as NVIDIA's runtime answers: measured for memory and semaphores) and
 * one that a cudaDeviceReset destroyed (cudaErrorInvalidResourceHandle). */
static cudaError_t rt_external_enter(rt_handle_kind kind, const void *handle, rt_device **d)
{
    cudaError_t e = rt_context_enter(d);
    if (e == cudaSuccess && !handle)
        e = cudaErrorInvalidValue;
    else if (e == cudaSuccess && rt_handle_stale(kind, handle))
        e = cudaErrorInvalidResourceHandle;
    return e;
}

RT_API cudaError_t cudaImportExternalMemory(cudaExternalMemory_t *extMem_out,
                                            const struct cudaExternalMemoryHandleDesc *memHandleDesc)
{
    RT_ENTER();
    if (!extMem_out || !memHandleDesc)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    /* The descriptor goes to the driver without its reserved words: NVIDIA's runtime ignores
     * them (measured: a nonzero one changes nothing), where the driver would refuse them. */
    CUDA_EXTERNAL_MEMORY_HANDLE_DESC desc;
    _Static_assert(sizeof desc == sizeof *memHandleDesc, "memory handle descriptors differ");
    memcpy(&desc, memHandleDesc, sizeof desc);
    memset(desc.reserved, 0, sizeof desc.reserved);
    CUexternalMemory mem = NULL;
    e = rt_driver_result(d, rt_drv.cuImportExternalMemory(&mem, &desc));
    if (rt_tracing()) {
        char what[96];
        const struct cudaExternalMemoryHandleDesc *m = memHandleDesc;
        rt_describe_handle(what, sizeof what, m->type == cudaExternalMemoryHandleTypeOpaqueFd,
                           m->handle.fd,
                           m->type == cudaExternalMemoryHandleTypeNvSciBuf
                               ? m->handle.nvSciBufObject : m->handle.win32.handle,
                           m->type == cudaExternalMemoryHandleTypeNvSciBuf
                               ? NULL : m->handle.win32.name);
        rt_trace_emit("cudaImportExternalMemory: %s %s, %llu bytes, flags 0x%x -> %p",
                      RT_MEMORY_TYPE(m->type), what, m->size, m->flags,
                      e == cudaSuccess ? (void *)mem : NULL);
    }
    if (e == cudaSuccess) {
        rt_handle_add(RT_HANDLE_EXTERNAL_MEMORY, mem, d);
        rt_external_add(mem, (int)memHandleDesc->type, memHandleDesc->size);
        *extMem_out = (cudaExternalMemory_t)mem;
    }
    RT_RETURN(e);
}

/* The buffer is device memory of the context: cudaFree releases it (cuMemFree). */
RT_API cudaError_t cudaExternalMemoryGetMappedBuffer(void **devPtr, cudaExternalMemory_t extMem,
                                                     const struct cudaExternalMemoryBufferDesc *bufferDesc)
{
    RT_ENTER();
    if (!devPtr || !bufferDesc)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = rt_external_enter(RT_HANDLE_EXTERNAL_MEMORY, extMem, &d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    CUdeviceptr ptr = 0;
    e = rt_driver_result(d, rt_drv.cuExternalMemoryGetMappedBuffer(
                                &ptr, (CUexternalMemory)extMem,
                                (const CUDA_EXTERNAL_MEMORY_BUFFER_DESC *)bufferDesc));
    if (e == cudaSuccess) {
        *devPtr = (void *)(uintptr_t)ptr;
        RT_TRACE("cudaExternalMemoryGetMappedBuffer: %p (%s): bytes [%llu, +%llu) at %p", extMem,
                 RT_MEMORY_TYPE(rt_external_type(extMem, NULL)), bufferDesc->offset,
                 bufferDesc->size, *devPtr);
    }
    RT_RETURN(e);
}

RT_API cudaError_t cudaExternalMemoryGetMappedMipmappedArray(
    cudaMipmappedArray_t *mipmap, cudaExternalMemory_t extMem,
    const struct cudaExternalMemoryMipmappedArrayDesc *mipmapDesc)
{
    RT_ENTER();
    if (!mipmap || !mipmapDesc)
        RT_RETURN(cudaErrorInvalidValue);
    /* As cudaMallocMipmappedArray describes an array: the 3D descriptor carries the flags,
     * whose values the runtime and the driver share.  The channel descriptor is checked before
     * the memory handle (measured: cudaErrorInvalidChannelDescriptor with a NULL handle). */
    CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC desc;
    memset(&desc, 0, sizeof desc);
    desc.offset = mipmapDesc->offset;
    desc.arrayDesc.Width = mipmapDesc->extent.width;
    desc.arrayDesc.Height = mipmapDesc->extent.height;
    desc.arrayDesc.Depth = mipmapDesc->extent.depth;
    desc.arrayDesc.Flags = mipmapDesc->flags;
    desc.numLevels = mipmapDesc->numLevels;
    _Static_assert(sizeof desc.reserved == sizeof mipmapDesc->reserved, "reserved words differ");
    memcpy(desc.reserved, mipmapDesc->reserved, sizeof desc.reserved);
    cudaError_t e = rt_channel_to_format(&mipmapDesc->formatDesc, &desc.arrayDesc.Format,
                                         &desc.arrayDesc.NumChannels);
    if (e != cudaSuccess)
        RT_RETURN(e);
    rt_device *d;
    e = rt_external_enter(RT_HANDLE_EXTERNAL_MEMORY, extMem, &d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    CUmipmappedArray handle = NULL;
    e = rt_driver_result(d, rt_drv.cuExternalMemoryGetMappedMipmappedArray(
                                &handle, (CUexternalMemory)extMem, &desc));
    if (e == cudaSuccess) {
        rt_handle_add(RT_HANDLE_MIPMAPPED_ARRAY, handle, d);
        *mipmap = (cudaMipmappedArray_t)handle;
        RT_TRACE("cudaExternalMemoryGetMappedMipmappedArray: %p at offset %llu: %zux%zux%zu, "
                 "%u levels -> %p", extMem, desc.offset, desc.arrayDesc.Width,
                 desc.arrayDesc.Height, desc.arrayDesc.Depth, desc.numLevels, (void *)handle);
    }
    RT_RETURN(e);
}

RT_API cudaError_t cudaDestroyExternalMemory(cudaExternalMemory_t extMem)
{
    RT_ENTER();
    rt_device *d;
    cudaError_t e = rt_external_enter(RT_HANDLE_EXTERNAL_MEMORY, extMem, &d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    e = rt_driver_result(d, rt_drv.cuDestroyExternalMemory((CUexternalMemory)extMem));
    if (e == cudaSuccess) {
        RT_TRACE("cudaDestroyExternalMemory: %p", extMem);
        rt_handle_remove(extMem);
        rt_external_remove(extMem);
    }
    RT_RETURN(e);
}

/* ---- external semaphores -------------------------------------------------------------------- */

RT_API cudaError_t cudaImportExternalSemaphore(cudaExternalSemaphore_t *extSem_out,
                                               const struct cudaExternalSemaphoreHandleDesc *semHandleDesc)
{
    RT_ENTER();
    if (!extSem_out || !semHandleDesc)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    /* Without its reserved words, as for memory (cudaImportExternalMemory). */
    CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC desc;
    _Static_assert(sizeof desc == sizeof *semHandleDesc, "semaphore handle descriptors differ");
    memcpy(&desc, semHandleDesc, sizeof desc);
    memset(desc.reserved, 0, sizeof desc.reserved);
    CUexternalSemaphore sem = NULL;
    e = rt_driver_result(d, rt_drv.cuImportExternalSemaphore(&sem, &desc));
    if (rt_tracing()) {
        const struct cudaExternalSemaphoreHandleDesc *s = semHandleDesc;
        bool fd = s->type == cudaExternalSemaphoreHandleTypeOpaqueFd ||
                  s->type == cudaExternalSemaphoreHandleTypeTimelineSemaphoreFd;
        bool sci = s->type == cudaExternalSemaphoreHandleTypeNvSciSync;
        char what[96];
        rt_describe_handle(what, sizeof what, fd, s->handle.fd,
                           sci ? s->handle.nvSciSyncObj : s->handle.win32.handle,
                           sci ? NULL : s->handle.win32.name);
        rt_trace_emit("cudaImportExternalSemaphore: %s %s, flags 0x%x -> %p",
                      RT_SEMAPHORE_TYPE(s->type), what, s->flags,
                      e == cudaSuccess ? (void *)sem : NULL);
    }
    if (e == cudaSuccess) {
        rt_handle_add(RT_HANDLE_EXTERNAL_SEMAPHORE, sem, d);
        rt_external_add(sem, (int)semHandleDesc->type, 0);
        *extSem_out = (cudaExternalSemaphore_t)sem;
    }
    RT_RETURN(e);
}

/* The common checks of a signal or a wait: the arrays (when there is anything to do) and each
 * semaphore, none NULL and none destroyed by a cudaDeviceReset; traced one line per
 * semaphore. */
static cudaError_t rt_semaphores_enter(const cudaExternalSemaphore_t *sems, const void *params,
                                       unsigned count, cudaStream_t stream,
                                       const unsigned long long *values, size_t stride,
                                       rt_device **d)
{
    cudaError_t e = rt_context_enter(d);
    if (e != cudaSuccess)
        return e;
    if (count && (!sems || !params))
        return cudaErrorInvalidValue;
    if (stream && rt_handle_stale(RT_HANDLE_STREAM, stream))
        return cudaErrorInvalidResourceHandle;
    for (unsigned i = 0; i < count; i++) {
        if (!sems[i])
            return cudaErrorInvalidValue;           /* as NVIDIA's runtime answers a wait */
        if (rt_handle_stale(RT_HANDLE_EXTERNAL_SEMAPHORE, sems[i]))
            return cudaErrorInvalidResourceHandle;
        const unsigned long long *value =
            (const unsigned long long *)((const char *)values + (size_t)i * stride);
        RT_TRACE("%s: [%u] %p (%s) value %llu on stream %p", rt_call_name(), i,
                 (void *)sems[i], RT_SEMAPHORE_TYPE(rt_external_type(sems[i], NULL)), *value,
                 (void *)stream);
    }
    return cudaSuccess;
}

static cudaError_t rt_signal(const cudaExternalSemaphore_t *sems,
                             const struct cudaExternalSemaphoreSignalParams *params, unsigned count,
                             cudaStream_t stream, bool per_thread)
{
    rt_device *d;
    cudaError_t e = rt_semaphores_enter(sems, params, count, stream,
                                        params ? &params->params.fence.value : NULL,
                                        sizeof *params, &d);
    if (e != cudaSuccess)
        return e;
    return rt_driver_result(d, rt_drv.cuSignalExternalSemaphoresAsync(
                                   (const CUexternalSemaphore *)sems,
                                   (const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *)params, count,
                                   rt_stream(stream, per_thread)));
}

/* The one body of cudaSignalExternalSemaphoresAsync and cudaSignalExternalSemaphoresAsync_ptsz
 * (RT_FORWARD). */
static cudaError_t rt_signal_api(rt_api api, const cudaExternalSemaphore_t *sems,
                                 const struct cudaExternalSemaphoreSignalParams *params,
                                 unsigned count, cudaStream_t stream, bool per_thread)
{
    RT_ENTER_AS(api);
    RT_RETURN(rt_signal(sems, params, count, stream, per_thread));
}

static cudaError_t rt_wait(const cudaExternalSemaphore_t *sems,
                           const struct cudaExternalSemaphoreWaitParams *params, unsigned count,
                           cudaStream_t stream, bool per_thread)
{
    rt_device *d;
    cudaError_t e = rt_semaphores_enter(sems, params, count, stream,
                                        params ? &params->params.fence.value : NULL,
                                        sizeof *params, &d);
    if (e != cudaSuccess)
        return e;
    return rt_driver_result(d, rt_drv.cuWaitExternalSemaphoresAsync(
                                   (const CUexternalSemaphore *)sems,
                                   (const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS *)params, count,
                                   rt_stream(stream, per_thread)));
}

/* The one body of cudaWaitExternalSemaphoresAsync and cudaWaitExternalSemaphoresAsync_ptsz
 * (RT_FORWARD). */
static cudaError_t rt_wait_api(rt_api api, const cudaExternalSemaphore_t *sems,
                               const struct cudaExternalSemaphoreWaitParams *params,
                               unsigned count, cudaStream_t stream, bool per_thread)
{
    RT_ENTER_AS(api);
    RT_RETURN(rt_wait(sems, params, count, stream, per_thread));
}

RT_API cudaError_t cudaSignalExternalSemaphoresAsync(
    const cudaExternalSemaphore_t *extSemArray,
    const struct cudaExternalSemaphoreSignalParams *paramsArray, unsigned int numExtSems,
    cudaStream_t stream)
{
    RT_FORWARD(rt_signal_api(RT_SELF, extSemArray, paramsArray, numExtSems, stream, false));
}

RT_API cudaError_t cudaSignalExternalSemaphoresAsync_ptsz(
    const cudaExternalSemaphore_t *extSemArray,
    const struct cudaExternalSemaphoreSignalParams *paramsArray, unsigned int numExtSems,
    cudaStream_t stream)
{
    RT_FORWARD(rt_signal_api(RT_SELF, extSemArray, paramsArray, numExtSems, stream, true));
}

RT_API cudaError_t cudaWaitExternalSemaphoresAsync(
    const cudaExternalSemaphore_t *extSemArray,
    const struct cudaExternalSemaphoreWaitParams *paramsArray, unsigned int numExtSems,
    cudaStream_t stream)
{
    RT_FORWARD(rt_wait_api(RT_SELF, extSemArray, paramsArray, numExtSems, stream, false));
}

RT_API cudaError_t cudaWaitExternalSemaphoresAsync_ptsz(
    const cudaExternalSemaphore_t *extSemArray,
    const struct cudaExternalSemaphoreWaitParams *paramsArray, unsigned int numExtSems,
    cudaStream_t stream)
{
    RT_FORWARD(rt_wait_api(RT_SELF, extSemArray, paramsArray, numExtSems, stream, true));
}

RT_API cudaError_t cudaDestroyExternalSemaphore(cudaExternalSemaphore_t extSem)
{
    RT_ENTER();
    rt_device *d;
    cudaError_t e = rt_external_enter(RT_HANDLE_EXTERNAL_SEMAPHORE, extSem, &d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    e = rt_driver_result(d, rt_drv.cuDestroyExternalSemaphore((CUexternalSemaphore)extSem));
    if (e == cudaSuccess) {
        RT_TRACE("cudaDestroyExternalSemaphore: %p", (void *)extSem);
        rt_handle_remove(extSem);
        rt_external_remove(extSem);
    }
    RT_RETURN(e);
}

/* ---- NvSciSync ------------------------------------------------------------------------------ */

/* Fills an NvSciSyncAttrList with what the device needs to signal and/or wait (flags).  Without
 * NvSci (x86-64 Linux, as a rule) the driver refuses, and its answer passes through.  The list
 * is an NvSci handle: a NULL one is cudaErrorInvalidResourceHandle (measured). */
RT_API cudaError_t cudaDeviceGetNvSciSyncAttributes(void *nvSciSyncAttrList, int device, int flags)
{
    RT_ENTER();
    if (!nvSciSyncAttrList)
        RT_RETURN(cudaErrorInvalidResourceHandle);
    rt_device *current;
    cudaError_t e = rt_context_enter(&current);
    if (e != cudaSuccess)
        RT_RETURN(e);
    if (device < 0 || device >= rt_device_count)
        RT_RETURN(cudaErrorInvalidDevice);
    RT_RETURN(rt_driver_result(current, rt_drv.cuDeviceGetNvSciSyncAttributes(
                                           nvSciSyncAttrList, rt_devices[device].cu, flags)));
}
