/*
 * device_config.c - configuration of the current device's context and queries between devices:
 * limits, the cache preference, the (deprecated) shared memory bank size, peer access, P2P
 * attributes, the profiler, the persisting L2 cache, PCI bus ids, cudaChooseDevice, the valid
 * device list of cudaSetValidDevices, GPUDirect RDMA flushes, the 1D linear texture width and
 * the atomic capabilities of the links to the host and between devices.
 *
 * Calls that configure a context act on the thread's current device and initialise it first
 * (rt_context_enter), as every runtime call that needs a context does.  Queries about devices by
 * ordinal validate the ordinal (cudaErrorInvalidDevice) and need no context.  The runtime's
 * enums equal the driver's (cudaLimit = CUlimit, cudaFuncCache = CUfunc_cache,
 * cudaDeviceP2PAttr = CUdevice_P2PAttribute, the RDMA flush target and scope): checked below.
 */
#define _POSIX_C_SOURCE 200809L
#include <cudaProfilerTypedefs.h>
#include <cuda_profiler_api.h>
#include <pthread.h>
#include <string.h>

#include "device/device.h"

_Static_assert((int)cudaLimitStackSize == CU_LIMIT_STACK_SIZE &&
               (int)cudaLimitPrintfFifoSize == CU_LIMIT_PRINTF_FIFO_SIZE &&
               (int)cudaLimitMallocHeapSize == CU_LIMIT_MALLOC_HEAP_SIZE &&
               (int)cudaLimitPersistingL2CacheSize == CU_LIMIT_PERSISTING_L2_CACHE_SIZE,
               "limits differ");
_Static_assert((int)cudaDevP2PAttrPerformanceRank == CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK &&
               (int)cudaDevP2PAttrCudaArrayAccessSupported ==
                   CU_DEVICE_P2P_ATTRIBUTE_CUDA_ARRAY_ACCESS_SUPPORTED,
               "P2P attributes differ");
_Static_assert((int)cudaSharedMemBankSizeEightByte == CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE &&
               (int)cudaSharedMemBankSizeFourByte == CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE,
               "shared memory configurations differ");
_Static_assert((int)cudaFlushGPUDirectRDMAWritesToAllDevices ==
                   CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TO_ALL_DEVICES,
               "RDMA flush scopes differ");

/* ---- limits and cache preference -------------------------------------------------------------- */

RT_API cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value)
{
    RT_ENTER();
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    e = rt_error_from_cu(rt_drv.cuCtxSetLimit((CUlimit)limit, value));
    rt_device_note_error(d, e);
    RT_RETURN(e);
}

RT_API cudaError_t cudaDeviceGetLimit(size_t *pValue, enum cudaLimit limit)
{
    RT_ENTER();
    if (!pValue)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    e = rt_error_from_cu(rt_drv.cuCtxGetLimit(pValue, (CUlimit)limit));
    rt_device_note_error(d, e);
    RT_RETURN(e);
}

RT_API cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache cacheConfig)
{
    RT_ENTER();
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    e = rt_error_from_cu(rt_drv.cuCtxSetCacheConfig((CUfunc_cache)cacheConfig));
    rt_device_note_error(d, e);
    RT_RETURN(e);
}

RT_API cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *pCacheConfig)
{
    RT_ENTER();
    if (!pCacheConfig)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    CUfunc_cache config = CU_FUNC_CACHE_PREFER_NONE;
    e = rt_error_from_cu(rt_drv.cuCtxGetCacheConfig(&config));
    rt_device_note_error(d, e);
    if (e == cudaSuccess)
        *pCacheConfig = (enum cudaFuncCache)config;
    RT_RETURN(e);
}

/* Deprecated: the bank width of shared memory.  Every device CUDA 13 supports has fixed 4-byte
 * banks; NVIDIA documents that Get then answers the hardware's fixed size and Set "will do
 * nothing".  With the driver's entry points (still in 13.0) its answers are passed on; a driver
 * without them gets the documented answers here.  The value is checked by the runtime, as
 * cudaFuncSetSharedMemConfig does. */
RT_API cudaError_t cudaDeviceGetSharedMemConfig(enum cudaSharedMemConfig *pConfig)
{
    RT_ENTER();
    if (!pConfig)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    CUsharedconfig config = CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE;
    if (rt_drv.cuCtxGetSharedMemConfig)
        e = rt_driver_result(d, rt_drv.cuCtxGetSharedMemConfig(&config));
    if (e == cudaSuccess)
        *pConfig = (enum cudaSharedMemConfig)config;
    RT_RETURN(e);
}

RT_API cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config)
{
    RT_ENTER();
    if ((int)config < cudaSharedMemBankSizeDefault || (int)config > cudaSharedMemBankSizeEightByte)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    if (!rt_drv.cuCtxSetSharedMemConfig) {
        RT_TRACE("cudaDeviceSetSharedMemConfig(%d): no cuCtxSetSharedMemConfig; banks stay "
                 "4 bytes: no effect", (int)config);
        RT_RETURN(cudaSuccess);
    }
    RT_RETURN(rt_driver_result(d, rt_drv.cuCtxSetSharedMemConfig((CUsharedconfig)config)));
}

RT_API cudaError_t cudaCtxResetPersistingL2Cache(void)
{
    RT_ENTER();
    rt_device *d;
    cudaError_t e = rt_context_if_current(&d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    e = rt_error_from_cu(rt_drv.cuCtxResetPersistingL2Cache());
    rt_device_note_error(d, e);
    RT_RETURN(e);
}

/* ---- peers ------------------------------------------------------------------------------------ */

RT_API cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice)
{
    RT_ENTER();
    if (!canAccessPeer)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d, *peer;
    cudaError_t e = rt_device_lookup(device, &d);
    if (e == cudaSuccess)
        e = rt_device_lookup(peerDevice, &peer);
    if (e != cudaSuccess)
        RT_RETURN(e);
    RT_RETURN(rt_error_from_cu(rt_drv.cuDeviceCanAccessPeer(canAccessPeer, d->cu, peer->cu)));
}

/* Maps the peer's memory into the current device's context.  The peer's primary context must
 * exist for that, so it is initialised (not made current). */
RT_API cudaError_t cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags)
{
    RT_ENTER();
    if (flags != 0)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d, *peer;
    cudaError_t e = rt_context_enter(&d);
    if (e == cudaSuccess)
        e = rt_device_lookup(peerDevice, &peer);
    if (e == cudaSuccess)
        e = rt_device_activate(peer);
    if (e != cudaSuccess)
        RT_RETURN(e);
    e = rt_error_from_cu(rt_drv.cuCtxEnablePeerAccess(peer->context, flags));
    rt_device_note_error(d, e);
    RT_RETURN(e);
}

RT_API cudaError_t cudaDeviceDisablePeerAccess(int peerDevice)
{
    RT_ENTER();
    rt_device *d, *peer;
    cudaError_t e = rt_context_enter(&d);
    if (e == cudaSuccess)
        e = rt_device_lookup(peerDevice, &peer);
    if (e != cudaSuccess)
        RT_RETURN(e);
    /* A peer whose context was never initialised cannot have been enabled. */
    if (atomic_load(&peer->generation) % 2 == 0)
        RT_RETURN(cudaErrorPeerAccessNotEnabled);
    e = rt_error_from_cu(rt_drv.cuCtxDisablePeerAccess(peer->context));
    rt_device_note_error(d, e);
    RT_RETURN(e);
}

RT_API cudaError_t cudaDeviceGetP2PAttribute(int *value, enum cudaDeviceP2PAttr attr,
                                             int srcDevice, int dstDevice)
{
    RT_ENTER();
    if (!value)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *src, *dst;
    cudaError_t e = rt_device_lookup(srcDevice, &src);
    if (e == cudaSuccess)
        e = rt_device_lookup(dstDevice, &dst);
    if (e != cudaSuccess)
        RT_RETURN(e);
    RT_RETURN(rt_error_from_cu(rt_drv.cuDeviceGetP2PAttribute(
        value, (CUdevice_P2PAttribute)attr, src->cu, dst->cu)));
}

/* ---- profiler --------------------------------------------------------------------------------- */

/* cuProfilerStart/Stop, resolved on first use: their PFN types come from cudaProfilerTypedefs.h,
 * which the driver table (core/core.h) does not include. */
static PFN_cuProfilerStart_v4000 rt_profiler_start;
static PFN_cuProfilerStop_v4000 rt_profiler_stop;
static pthread_once_t rt_profiler_once = PTHREAD_ONCE_INIT;

static void rt_profiler_resolve(void)
{
    CUdriverProcAddressQueryResult status;
    void *fn = NULL;
    if (rt_drv.cuGetProcAddress("cuProfilerStart", &fn, 4000, CU_GET_PROC_ADDRESS_DEFAULT,
                                &status) == CUDA_SUCCESS && status == CU_GET_PROC_ADDRESS_SUCCESS)
        rt_profiler_start = (PFN_cuProfilerStart_v4000)(uintptr_t)fn;
    fn = NULL;
    if (rt_drv.cuGetProcAddress("cuProfilerStop", &fn, 4000, CU_GET_PROC_ADDRESS_DEFAULT,
                                &status) == CUDA_SUCCESS && status == CU_GET_PROC_ADDRESS_SUCCESS)
        rt_profiler_stop = (PFN_cuProfilerStop_v4000)(uintptr_t)fn;
}

static cudaError_t rt_profiler(bool start)
{
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        return e;
    pthread_once(&rt_profiler_once, rt_profiler_resolve);
    CUresult (*fn)(void) = start ? rt_profiler_start : rt_profiler_stop;
    if (!fn) {
        RT_TRACE("%s: the driver has no such entry point: not supported",
                 start ? "cuProfilerStart" : "cuProfilerStop");
        return cudaErrorNotSupported;
    }
    return rt_error_from_cu(fn());
}

/* The one body of cudaProfilerStart and cudaProfilerStop (RT_FORWARD). */
static cudaError_t rt_profiler_api(bool start, rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_profiler(start));
}

RT_API cudaError_t cudaProfilerStart(void)
{
    RT_FORWARD(rt_profiler_api(true, RT_SELF));
}

RT_API cudaError_t cudaProfilerStop(void)
{
    RT_FORWARD(rt_profiler_api(false, RT_SELF));
}

/* ---- PCI bus ids and choosing a device -------------------------------------------------------- */

RT_API cudaError_t cudaDeviceGetPCIBusId(char *pciBusId, int len, int device)
{
    RT_ENTER();
    if (!pciBusId || len <= 0)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = rt_device_lookup(device, &d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    RT_RETURN(rt_error_from_cu(rt_drv.cuDeviceGetPCIBusId(pciBusId, len, d->cu)));
}

RT_API cudaError_t cudaDeviceGetByPCIBusId(int *device, const char *pciBusId)
{
    RT_ENTER();
    if (!device || !pciBusId)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *first;
    cudaError_t e = rt_device_lookup(0, &first);      /* initialises the device table */
    if (e != cudaSuccess)
        RT_RETURN(e);
    CUdevice cu = -1;
    e = rt_error_from_cu(rt_drv.cuDeviceGetByPCIBusId(&cu, pciBusId));
    if (e != cudaSuccess)
        RT_RETURN(e);
    int index = rt_device_of_cu(cu);
    if (index < 0)
        RT_RETURN(cudaErrorInvalidDevice);
    *device = index;
    RT_RETURN(cudaSuccess);
}

/* The rule (NVIDIA does not document its own): only the compute capability of *prop counts.
 * The lowest-numbered device whose capability is at least prop->major.prop->minor wins; when
 * none reaches it, the device with the highest capability (lowest number on a tie). */
RT_API cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *prop)
{
    RT_ENTER();
    if (!device || !prop)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *first;
    cudaError_t e = rt_device_lookup(0, &first);
    if (e != cudaSuccess)
        RT_RETURN(e);
    long wanted = (long)prop->major * 10 + prop->minor;
    int best = 0;
    for (int i = 0; i < rt_device_count; i++) {
        if ((long)rt_devices[i].sm >= wanted) {
            *device = i;
            RT_RETURN(cudaSuccess);
        }
        if (rt_devices[i].sm > rt_devices[best].sm)
            best = i;
    }
    *device = best;
    RT_RETURN(cudaSuccess);
}

/*
 * The devices a thread that chose none tries, in order (cudaSetValidDevices): kept per thread,
 * like the device a thread chose with cudaSetDevice.  rt_context_enter (device.c) asks for
 * the list
 * when it picks the thread's device at its first CUDA work; an empty list means the default
 * (device 0).  The list is read only by its own thread, so it needs no lock.  At most
 * RT_VALID_DEVICES_MAX entries: a longer list (only possible on a machine with more devices) is
 * refused as cudaErrorInvalidValue rather than cut short.  The list itself is device.c's.
 *
 * Checks in the documented order: a len of 0 restores the default (device_arr unread, may be
 * NULL); a NULL list, a negative len or one longer than the device count is
 * cudaErrorInvalidValue; an ordinal that names no device is cudaErrorInvalidDevice.  A list that
 * fails leaves the thread's list as it was.  The thread's current device, once chosen, is
 * unchanged: the list decides only a choice still to come. */
RT_API cudaError_t cudaSetValidDevices(int *device_arr, int len)
{
    RT_ENTER();
    if (len != 0 && (!device_arr || len < 0))
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *first;
    cudaError_t e = rt_device_lookup(0, &first);          /* initialises the device table */
    if (e != cudaSuccess)
        RT_RETURN(e);
    if (len == 0) {
        rt_valid_devices_set(NULL, 0);
        RT_RETURN(cudaSuccess);
    }
    if (len > rt_device_count || len > RT_VALID_DEVICES_MAX)
        RT_RETURN(cudaErrorInvalidValue);
    for (int i = 0; i < len; i++)
        if (device_arr[i] < 0 || device_arr[i] >= rt_device_count)
            RT_RETURN(cudaErrorInvalidDevice);
    rt_valid_devices_set(device_arr, len);
    RT_TRACE("cudaSetValidDevices: %d device(s), first %d", len, device_arr[0]);
    RT_RETURN(cudaSuccess);
}

RT_API cudaError_t cudaDeviceFlushGPUDirectRDMAWrites(
    enum cudaFlushGPUDirectRDMAWritesTarget target, enum cudaFlushGPUDirectRDMAWritesScope scope)
{
    RT_ENTER();
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    e = rt_driver_optional(rt_drv.cuFlushGPUDirectRDMAWrites != NULL,
                           "cuFlushGPUDirectRDMAWrites");
    if (e != cudaSuccess)
        RT_RETURN(e);
    e = rt_error_from_cu(rt_drv.cuFlushGPUDirectRDMAWrites(
        (CUflushGPUDirectRDMAWritesTarget)target, (CUflushGPUDirectRDMAWritesScope)scope));
    rt_device_note_error(d, e);
    RT_RETURN(e);
}

/* ---- texture and atomic capabilities of a device ------------------------------------------- */

_Static_assert((int)cudaAtomicOperationIntegerAdd == (int)CU_ATOMIC_OPERATION_INTEGER_ADD &&
               (int)cudaAtomicOperationCAS == (int)CU_ATOMIC_OPERATION_CAS &&
               (int)cudaAtomicOperationFloatMax == (int)CU_ATOMIC_OPERATION_FLOAT_MAX &&
               sizeof(enum cudaAtomicOperation) == sizeof(CUatomicOperation),
               "atomic operations differ");
_Static_assert((unsigned)cudaAtomicCapabilitySigned == (unsigned)CU_ATOMIC_CAPABILITY_SIGNED &&
               (unsigned)cudaAtomicCapabilityVector32x4 ==
                   (unsigned)CU_ATOMIC_CAPABILITY_VECTOR_32x4,
               "atomic capabilities differ");

/* The host and P2P queries: NULL arrays or a count of 0 are cudaErrorInvalidValue (checked before
 * the devices, as cudaDeviceGetP2PAttribute does); an operation the driver does not know is its
 * to refuse.  The operation array passes as the driver's (same values and size), the capability
 * bits come back unchanged.  Like the other queries by ordinal these need no context.  Their
 * entry points are new in 13.0 and optional: checked once the driver is loaded (by the device
 * lookup), after the arguments. */
RT_API cudaError_t cudaDeviceGetHostAtomicCapabilities(unsigned int *capabilities,
                                                       const enum cudaAtomicOperation *operations,
                                                       unsigned int count, int device)
{
    RT_ENTER();
    if (!capabilities || !operations || count == 0)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = rt_device_lookup(device, &d);
    if (e == cudaSuccess)
        e = rt_driver_optional(rt_drv.cuDeviceGetHostAtomicCapabilities != NULL,
                               "cuDeviceGetHostAtomicCapabilities");
    if (e != cudaSuccess)
        RT_RETURN(e);
    RT_RETURN(rt_error_from_cu(rt_drv.cuDeviceGetHostAtomicCapabilities(
        capabilities, (const CUatomicOperation *)operations, count, d->cu)));
}

/* The same device at both ends is cudaErrorInvalidDevice, as documented. */
RT_API cudaError_t cudaDeviceGetP2PAtomicCapabilities(unsigned int *capabilities,
                                                      const enum cudaAtomicOperation *operations,
                                                      unsigned int count, int srcDevice,
                                                      int dstDevice)
{
    RT_ENTER();
    if (!capabilities || !operations || count == 0)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *src, *dst;
    cudaError_t e = rt_device_lookup(srcDevice, &src);
    if (e == cudaSuccess)
        e = rt_device_lookup(dstDevice, &dst);
    if (e == cudaSuccess && src == dst)
        e = cudaErrorInvalidDevice;
    if (e == cudaSuccess)
        e = rt_driver_optional(rt_drv.cuDeviceGetP2PAtomicCapabilities != NULL,
                               "cuDeviceGetP2PAtomicCapabilities");
    if (e != cudaSuccess)
        RT_RETURN(e);
    RT_RETURN(rt_error_from_cu(rt_drv.cuDeviceGetP2PAtomicCapabilities(
        capabilities, (const CUatomicOperation *)operations, count, src->cu, dst->cu)));
}
