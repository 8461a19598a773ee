/*
 * cuda12/interop12.c - external memory and semaphores with CUDA 12.9's descriptors, the
 * semaphores' _v1 parameter arrays behind the legacy plain names, and
 * cudaLaunchCooperativeKernelMultiDevice, which 13 removed.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cuda12/cuda12.h"

/* ---- descriptors: 12.9's bytes at the start of a zeroed 13 struct --------------------------- */

/* 13 appended reserved words (16 unsigned) after each of these, and nothing else moved. */
_Static_assert(offsetof(struct cudaExternalMemoryHandleDesc, flags) ==
                       offsetof(struct rt12_external_memory_handle_desc, flags) &&
                   offsetof(struct cudaExternalMemoryBufferDesc, flags) ==
                       offsetof(struct rt12_external_memory_buffer_desc, flags) &&
                   offsetof(struct cudaExternalMemoryMipmappedArrayDesc, numLevels) ==
                       offsetof(struct rt12_external_memory_mipmapped_array_desc, numLevels) &&
                   offsetof(struct cudaExternalSemaphoreHandleDesc, flags) ==
                       offsetof(struct rt12_external_semaphore_handle_desc, flags),
               "12.9's external descriptors are the start of 13's");

/* The 12.9 struct of `size` bytes copied into the zeroed 13 one, or NULL for NULL. */
static const void *rt12_desc_in(const void *in, size_t size, void *out, size_t out_size)
{
    if (!in)
        return NULL;
    memset(out, 0, out_size);
    memcpy(out, in, size);
    return out;
}
#define RT12_DESC_IN(in, out) rt12_desc_in((in), sizeof *(in), &(out), sizeof(out))

RT_API cudaError_t cudaImportExternalMemory(
    cudaExternalMemory_t *extMem_out, const struct rt12_external_memory_handle_desc *memHandleDesc)
{
    RT_ENTER();
    struct cudaExternalMemoryHandleDesc desc;
    RT12_RETURN_CALLED(rt_v13_cudaImportExternalMemory(extMem_out, RT12_DESC_IN(memHandleDesc,
                                                       desc)));
}

RT_API cudaError_t cudaExternalMemoryGetMappedBuffer(
    void **devPtr, cudaExternalMemory_t extMem,
    const struct rt12_external_memory_buffer_desc *bufferDesc)
{
    RT_ENTER();
    struct cudaExternalMemoryBufferDesc desc;
    RT12_RETURN_CALLED(rt_v13_cudaExternalMemoryGetMappedBuffer(devPtr, extMem,
                       RT12_DESC_IN(bufferDesc, desc)));
}

RT_API cudaError_t cudaExternalMemoryGetMappedMipmappedArray(
    cudaMipmappedArray_t *mipmap, cudaExternalMemory_t extMem,
    const struct rt12_external_memory_mipmapped_array_desc *mipmapDesc)
{
    RT_ENTER();
    struct cudaExternalMemoryMipmappedArrayDesc desc;
    RT12_RETURN_CALLED(rt_v13_cudaExternalMemoryGetMappedMipmappedArray(mipmap, extMem,
                       RT12_DESC_IN(mipmapDesc, desc)));
}

RT_API cudaError_t cudaImportExternalSemaphore(
    cudaExternalSemaphore_t *extSem_out,
    const struct rt12_external_semaphore_handle_desc *semHandleDesc)
{
    RT_ENTER();
    struct cudaExternalSemaphoreHandleDesc desc;
    RT12_RETURN_CALLED(rt_v13_cudaImportExternalSemaphore(extSem_out, RT12_DESC_IN(semHandleDesc,
                                                          desc)));
}

/* ---- signal and wait: the legacy plain names take _v1 arrays -------------------------------- */

/* 12.9's header sends every call to the _v2 names, which are the bodies (names12.h); the plain
 * names keep CUDA 11.1's parameters for callers that bypass the header: 32- and 40-byte elements
 * whose flags sit right after the parameters, where 13's (144 bytes) have reserved words first.
 * So each element is copied member by member into a zeroed 13 array. */
typedef cudaError_t rt12_signal_fn(const cudaExternalSemaphore_t *,
                                   const struct cudaExternalSemaphoreSignalParams *, unsigned int,
                                   cudaStream_t);
typedef cudaError_t rt12_wait_fn(const cudaExternalSemaphore_t *,
                                 const struct cudaExternalSemaphoreWaitParams *, unsigned int,
                                 cudaStream_t);

/* The one body of cudaSignalExternalSemaphoresAsync, cudaWaitExternalSemaphoresAsync and their
 * _ptsz twins (RT_FORWARD): `signal` or `wait` is the 13 function of the same stream rule (the
 * other NULL), and says which 12.9 structs `v1` holds. */
static cudaError_t rt12_semaphores_api(rt12_signal_fn *signal, rt12_wait_fn *wait,
                                       const cudaExternalSemaphore_t *sems, const void *v1,
                                       unsigned count, cudaStream_t stream, rt_api self)
{
    RT_ENTER_AS(self);
    if (!v1 || !count)    /* nothing to convert: the body answers for what is missing */
        RT12_RETURN_CALLED(signal ? signal(sems, NULL, count, stream)
                                  : wait(sems, NULL, count, stream));
    /* With no usable driver NVIDIA's runtime answers its failure before it reads the array
     * (core/exit.c), so no copy is made: the count may be anything then. */
    cudaError_t init = rt_driver_failure();
    if (init != cudaSuccess)
        RT_RETURN(init);
    void *copy = calloc(count, signal ? sizeof(struct cudaExternalSemaphoreSignalParams)
                                      : sizeof(struct cudaExternalSemaphoreWaitParams));
    if (!copy)
        RT_RETURN(cudaErrorMemoryAllocation);
    cudaError_t e;
    if (signal) {
        const struct rt12_external_semaphore_signal_params_v1 *in = v1;
        struct cudaExternalSemaphoreSignalParams *p = copy;
        for (unsigned i = 0; i < count; i++) {
            p[i].params.fence.value = in[i].params.fence.value;
            p[i].params.nvSciSync.reserved = in[i].params.nvSciSync.reserved;
            p[i].params.keyedMutex.key = in[i].params.keyedMutex.key;
            p[i].flags = in[i].flags;
        }
        e = signal(sems, p, count, stream);
    } else {
        const struct rt12_external_semaphore_wait_params_v1 *in = v1;
        struct cudaExternalSemaphoreWaitParams *p = copy;
        for (unsigned i = 0; i < count; i++) {
            p[i].params.fence.value = in[i].params.fence.value;
            p[i].params.nvSciSync.reserved = in[i].params.nvSciSync.reserved;
            p[i].params.keyedMutex.key = in[i].params.keyedMutex.key;
            p[i].params.keyedMutex.timeoutMs = in[i].params.keyedMutex.timeoutMs;
            p[i].flags = in[i].flags;
        }
        e = wait(sems, p, count, stream);
    }
    free(copy);
    RT12_RETURN_CALLED(e);
}

RT_API cudaError_t cudaSignalExternalSemaphoresAsync(
    const cudaExternalSemaphore_t *extSemArray,
    const struct rt12_external_semaphore_signal_params_v1 *paramsArray, unsigned int numExtSems,
    cudaStream_t stream)
{
    RT_FORWARD(rt12_semaphores_api(cudaSignalExternalSemaphoresAsync_v2, NULL, extSemArray,
                                   paramsArray, numExtSems, stream, RT_SELF));
}

RT_API cudaError_t cudaSignalExternalSemaphoresAsync_ptsz(
    const cudaExternalSemaphore_t *extSemArray,
    const struct rt12_external_semaphore_signal_params_v1 *paramsArray, unsigned int numExtSems,
    cudaStream_t stream)
{
    RT_FORWARD(rt12_semaphores_api(cudaSignalExternalSemaphoresAsync_v2_ptsz, NULL, extSemArray,
                                   paramsArray, numExtSems, stream, RT_SELF));
}

RT_API cudaError_t cudaWaitExternalSemaphoresAsync(
    const cudaExternalSemaphore_t *extSemArray,
    const struct rt12_external_semaphore_wait_params_v1 *paramsArray, unsigned int numExtSems,
    cudaStream_t stream)
{
    RT_FORWARD(rt12_semaphores_api(NULL, cudaWaitExternalSemaphoresAsync_v2, extSemArray,
                                   paramsArray, numExtSems, stream, RT_SELF));
}

RT_API cudaError_t cudaWaitExternalSemaphoresAsync_ptsz(
    const cudaExternalSemaphore_t *extSemArray,
    const struct rt12_external_semaphore_wait_params_v1 *paramsArray, unsigned int numExtSems,
    cudaStream_t stream)
{
    RT_FORWARD(rt12_semaphores_api(NULL, cudaWaitExternalSemaphoresAsync_v2_ptsz, extSemArray,
                                   paramsArray, numExtSems, stream, RT_SELF));
}

/* ---- cudaLaunchCooperativeKernelMultiDevice ------------------------------------------------- */

/* 12.9's flags (driver_types.h): without them, each launch waits for the work queued before it
 * on every stream of the list, and the work queued after it on any of those streams waits for
 * every launch. */
#define RT12_MULTI_DEVICE_NO_PRE_SYNC 0x01
#define RT12_MULTI_DEVICE_NO_POST_SYNC 0x02

/* Makes the device of `stream` current. */
static cudaError_t rt12_enter_stream(cudaStream_t stream)
{
    int device = 0, current = 0;
    cudaError_t e = cudaStreamGetDevice(stream, &device);
    if (e == cudaSuccess)
        e = cudaGetDevice(&current);
    if (e == cudaSuccess && device != current)
        e = cudaSetDevice(device);
    return e;
}

/* Every stream of the list waits for what was last queued on every other one.  Each stream is
 * worked on with its own device current, the event recorded on it and its wait for the others'
 * events alike: the Programming Guide orders streams of several devices so, and only an event,
 * not the waiting stream, may belong to another device (the fake driver refuses a wait on a
 * stream of another context: tests/cuda12/api/test_device12.c, two devices). */
static cudaError_t rt12_join_streams(const struct rt12_launch_params *list, unsigned n)
{
    cudaError_t e = cudaSuccess;
    for (unsigned i = 0; i < n && e == cudaSuccess; i++) {
        cudaEvent_t done = NULL;
        e = rt12_enter_stream(list[i].stream);
        if (e == cudaSuccess)
            e = cudaEventCreateWithFlags(&done, cudaEventDisableTiming);
        if (e == cudaSuccess)
            e = cudaEventRecord(done, list[i].stream);
        for (unsigned j = 0; j < n && e == cudaSuccess; j++) {
            if (j == i)
                continue;
            e = rt12_enter_stream(list[j].stream);
            if (e == cudaSuccess)
                e = cudaStreamWaitEvent(list[j].stream, done, 0);
        }
        if (done)
            cudaEventDestroy(done);
    }
    return e;
}

/* Whether two entries of the list are on one device; e: the error of a stream's look-up. */
static bool rt12_device_twice(const struct rt12_launch_params *list, unsigned n, cudaError_t *e)
{
    for (unsigned i = 1; i < n; i++) {
        int device = 0;
        *e = cudaStreamGetDevice(list[i].stream, &device);
        for (unsigned j = 0; j < i && *e == cudaSuccess; j++) {
            int other = 0;
            *e = cudaStreamGetDevice(list[j].stream, &other);
            if (*e == cudaSuccess && other == device)
                return true;
        }
        if (*e != cudaSuccess)
            return false;
    }
    return false;
}

_Static_assert(offsetof(struct rt12_launch_params, blockDim) ==
               offsetof(struct rt12_launch_params, gridDim) + sizeof(dim3), "dim3s side by side");

/* The arguments the driver's documentation of cuLaunchCooperativeKernelMultiDevice asks for, with
 * NVIDIA's 12.9 answers (H200, tests/gpu/conf_cuda12.cu): a registered kernel, the same for all
 * (cudaErrorInvalidDeviceFunction for a pointer that is none); a stream of a device, not the
 * NULL, legacy or per-thread one, whose device would be ambiguous
 * (cudaErrorInvalidResourceHandle); the same grid, block and shared memory in every entry and
 * known flags (cudaErrorInvalidValue).  No two entries on one device: rt12_device_twice, which
 * asks the streams. */
static cudaError_t rt12_multi_args(const struct rt12_launch_params *list, unsigned n,
                                   unsigned flags)
{
    if (!list || n == 0 || (flags & ~(unsigned)(RT12_MULTI_DEVICE_NO_PRE_SYNC |
                                                  RT12_MULTI_DEVICE_NO_POST_SYNC)))
        return cudaErrorInvalidValue;
    for (unsigned i = 0; i < n; i++) {
        if (!list[i].func || list[i].func != list[0].func)
            return cudaErrorInvalidValue;
        if (!rt_kernel_find(list[i].func))
            return cudaErrorInvalidDeviceFunction;
        if (!list[i].stream || list[i].stream == cudaStreamLegacy ||
            list[i].stream == cudaStreamPerThread)
            return cudaErrorInvalidResourceHandle;
        /* gridDim and blockDim: six unsigned ints side by side (asserted below). */
        if (memcmp(&list[i].gridDim, &list[0].gridDim, 2 * sizeof(dim3)) != 0 ||
            list[i].sharedMem != list[0].sharedMem)
            return cudaErrorInvalidValue;
    }
    return cudaSuccess;
}

/* One cooperative launch per entry, on the device of its stream, with the streams joined before
 * and after unless the flags say not to; the calling thread's device is put back if a launch
 * changed it (setting a device starts its context, which a thread that never chose one must not
 * get for nothing).  What this does not give: the grid across devices that the driver's
 * multi-device launch sets up for a kernel that synchronises it (cooperative groups'
 * this_multi_grid, which CUDA 13 removed); the runtime's driver table does not ask for
 * cuLaunchCooperativeKernelMultiDevice, deprecated in 13. */
static cudaError_t rt12_launch_multi(struct rt12_launch_params *list, unsigned n, unsigned flags)
{
    int previous = 0;
    cudaError_t e = cudaGetDevice(&previous);
    if (e != cudaSuccess)
        return e;
    if (n > 1 && !(flags & RT12_MULTI_DEVICE_NO_PRE_SYNC))
        e = rt12_join_streams(list, n);
    for (unsigned i = 0; i < n && e == cudaSuccess; i++) {
        e = rt12_enter_stream(list[i].stream);
        if (e == cudaSuccess)
            e = cudaLaunchCooperativeKernel(list[i].func, list[i].gridDim, list[i].blockDim,
                                            list[i].args, list[i].sharedMem, list[i].stream);
    }
    if (e == cudaSuccess && n > 1 && !(flags & RT12_MULTI_DEVICE_NO_POST_SYNC))
        e = rt12_join_streams(list, n);
    int now = previous;
    cudaError_t restored = cudaSuccess;
    if (cudaGetDevice(&now) == cudaSuccess && now != previous)
        restored = cudaSetDevice(previous);
    return e != cudaSuccess ? e : restored;
}

/* The argument checks are the face's errors; everything after them is the public calls' (each
 * recorded its own). */
RT_API cudaError_t cudaLaunchCooperativeKernelMultiDevice(
    struct rt12_launch_params *launchParamsList, unsigned int numDevices, unsigned int flags)
{
    RT_ENTER();
    cudaError_t e = rt12_multi_args(launchParamsList, numDevices, flags);
    if (e != cudaSuccess)
        RT_RETURN(e);
    cudaError_t looked_up = cudaSuccess;
    if (rt12_device_twice(launchParamsList, numDevices, &looked_up))
        RT_RETURN(cudaErrorInvalidValue);
    if (looked_up != cudaSuccess)
        RT12_RETURN_CALLED(looked_up);
    RT12_RETURN_CALLED(rt12_launch_multi(launchParamsList, numDevices, flags));
}
