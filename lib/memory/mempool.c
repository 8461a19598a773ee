/*
 * mempool.c - the stream-ordered allocator (cudaMallocAsync, cudaFreeAsync) and memory pools.
 *
 * Pools are the driver's: cudaMemPool_t is a CUmemoryPool, and the runtime's pool structures
 * (cudaMemPoolProps, cudaMemAccessDesc, cudaMemLocation) have the layout of the driver's, checked
 * below.  cudaMemPoolAttr values equal CUmemPool_attribute, so attribute values (an int or a
 * cuuint64_t, depending on the attribute) pass through untouched.  Allocations from pools are not
 * freed by cudaDeviceReset (reference/SEMANTICS.md 1.9): the runtime keeps no list of them.
 *
 * Graphs allocate from a pool of their own per device (memory allocation nodes, graph_nodes.c):
 * cudaDeviceGetGraphMemAttribute reports its use, cudaDeviceGraphMemTrim gives back what no
 * executable graph holds.
 *
 * In the _ptsz variants stream 0 means the thread's per-thread stream.
 */
#include "memory/memory.h"

_Static_assert(sizeof(struct cudaMemPoolProps) == sizeof(CUmemPoolProps),
               "pool properties differ");
_Static_assert(sizeof(struct cudaMemAccessDesc) == sizeof(CUmemAccessDesc),
               "access descriptors differ");
_Static_assert(sizeof(struct cudaMemLocation) == sizeof(CUmemLocation), "locations differ");
_Static_assert((int)cudaMemPoolAttrUsedMemHigh == (int)CU_MEMPOOL_ATTR_USED_MEM_HIGH,
               "pool attributes differ");
_Static_assert((int)cudaGraphMemAttrReservedMemHigh == (int)CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH,
               "graph memory attributes differ");

/* ---- the stream-ordered allocator ------------------------------------------------------------ */

static cudaError_t rt_malloc_async(void **devPtr, size_t size, cudaMemPool_t pool,
                                   bool from_pool, cudaStream_t stream, bool per_thread)
{
    if (!devPtr)
        return cudaErrorInvalidValue;
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        return e;
    CUdeviceptr p = 0;
    CUstream s = rt_stream(stream, per_thread);
    CUresult r = from_pool ? rt_drv.cuMemAllocFromPoolAsync(&p, size, pool, s)
                           : rt_drv.cuMemAllocAsync(&p, size, s);
    e = rt_driver_result(d, r);
    if (e == cudaSuccess)
        *devPtr = (void *)(uintptr_t)p;
    return e;
}

/* The one body of cudaMallocAsync, cudaMallocAsync_ptsz, cudaMallocFromPoolAsync and
 * cudaMallocFromPoolAsync_ptsz (RT_FORWARD). */
static cudaError_t rt_malloc_async_api(void **devPtr, size_t size, cudaMemPool_t pool,
                                       bool from_pool, cudaStream_t stream, bool per_thread,
                                       rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_malloc_async(devPtr, size, pool, from_pool, stream, per_thread));
}

RT_API cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t hStream)
{
    RT_FORWARD(rt_malloc_async_api(devPtr, size, NULL, false, hStream, false, RT_SELF));
}

RT_API cudaError_t cudaMallocAsync_ptsz(void **devPtr, size_t size, cudaStream_t hStream)
{
    RT_FORWARD(rt_malloc_async_api(devPtr, size, NULL, false, hStream, true, RT_SELF));
}

RT_API cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t memPool,
                                           cudaStream_t stream)
{
    RT_FORWARD(rt_malloc_async_api(ptr, size, memPool, true, stream, false, RT_SELF));
}

RT_API cudaError_t cudaMallocFromPoolAsync_ptsz(void **ptr, size_t size, cudaMemPool_t memPool,
                                                cudaStream_t stream)
{
    RT_FORWARD(rt_malloc_async_api(ptr, size, memPool, true, stream, true, RT_SELF));
}

static cudaError_t rt_free_async(void *devPtr, cudaStream_t stream, bool per_thread)
{
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        return e;
    return rt_driver_result(d, rt_drv.cuMemFreeAsync((CUdeviceptr)(uintptr_t)devPtr,
                                                    rt_stream(stream, per_thread)));
}

/* The one body of cudaFreeAsync and cudaFreeAsync_ptsz (RT_FORWARD). */
static cudaError_t rt_free_async_api(void *devPtr, cudaStream_t stream, bool per_thread,
                                     rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_free_async(devPtr, stream, per_thread));
}

RT_API cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t hStream)
{
    RT_FORWARD(rt_free_async_api(devPtr, hStream, false, RT_SELF));
}

RT_API cudaError_t cudaFreeAsync_ptsz(void *devPtr, cudaStream_t hStream)
{
    RT_FORWARD(rt_free_async_api(devPtr, hStream, true, RT_SELF));
}

/* ---- the pools of a device ------------------------------------------------------------------ */

/* Enters the thread's context and checks a device ordinal: cudaErrorInvalidDevice when it names
 * no device. */
cudaError_t rt_pool_device(int device, rt_device **current, rt_device **target)
{
    cudaError_t e = rt_context_enter(current);
    if (e != cudaSuccess)
        return e;
    if (device < 0 || device >= rt_device_count)
        return cudaErrorInvalidDevice;
    *target = &rt_devices[device];
    return cudaSuccess;
}

RT_API cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool, int device)
{
    RT_ENTER();
    if (!memPool)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d, *target;
    cudaError_t e = rt_pool_device(device, &d, &target);
    if (e == cudaSuccess)
        e = rt_driver_result(d, rt_drv.cuDeviceGetDefaultMemPool(memPool, target->cu));
    RT_RETURN(e);
}

RT_API cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *memPool, int device)
{
    RT_ENTER();
    if (!memPool)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d, *target;
    cudaError_t e = rt_pool_device(device, &d, &target);
    /* Unlike cudaDeviceGetDefaultMemPool, a bad device here is cudaErrorInvalidValue in
     * NVIDIA's runtime (measured on the H200). */
    if (e == cudaErrorInvalidDevice)
        e = cudaErrorInvalidValue;
    if (e == cudaSuccess)
        e = rt_driver_result(d, rt_drv.cuDeviceGetMemPool(memPool, target->cu));
    RT_RETURN(e);
}

RT_API cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t memPool)
{
    RT_ENTER();
    rt_device *d, *target;
    cudaError_t e = rt_pool_device(device, &d, &target);
    if (e == cudaErrorInvalidDevice)
        e = cudaErrorInvalidValue;      /* as cudaDeviceGetMemPool (measured on the H200) */
    if (e == cudaSuccess)
        e = rt_driver_result(d, rt_drv.cuDeviceSetMemPool(target->cu, memPool));
    RT_RETURN(e);
}

/* ---- the pools of a location (CUDA 13.0) ---------------------------------------------------- */

/* cudaMemGetDefaultMemPool, cudaMemGetMemPool and cudaMemSetMemPool name a pool by location and
 * allocation type: cudaMemLocation and cudaMemAllocationType are CUmemLocation and
 * CUmemAllocationType (checked above and below), so both pass through; a device location's id is
 * the device ordinal, handed over unchanged as cudaMemAdvise does.  Which combinations exist
 * (device, host or host NUMA with pinned or managed; "none" only with managed) is the driver's to
 * judge: the runtime refuses only NULL pointers.  Their driver entry points are new in 13.0 and
 * optional: without them the calls answer cudaErrorNotSupported. */
_Static_assert((int)cudaMemAllocationTypePinned == (int)CU_MEM_ALLOCATION_TYPE_PINNED &&
               (int)cudaMemAllocationTypeManaged == (int)CU_MEM_ALLOCATION_TYPE_MANAGED,
               "allocation types differ");
_Static_assert((int)cudaMemLocationTypeNone == (int)CU_MEM_LOCATION_TYPE_NONE,
               "location types differ");

RT_API cudaError_t cudaMemGetDefaultMemPool(cudaMemPool_t *memPool,
                                            struct cudaMemLocation *location,
                                            enum cudaMemAllocationType type)
{
    RT_ENTER();
    if (!memPool || !location)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e == cudaSuccess)
        e = rt_driver_optional(rt_drv.cuMemGetDefaultMemPool != NULL,
                               "cuMemGetDefaultMemPool");
    if (e == cudaSuccess)
        e = rt_driver_result(d, rt_drv.cuMemGetDefaultMemPool(memPool, (CUmemLocation *)location,
                                                             (CUmemAllocationType)type));
    RT_RETURN(e);
}

RT_API cudaError_t cudaMemGetMemPool(cudaMemPool_t *memPool, struct cudaMemLocation *location,
                                     enum cudaMemAllocationType type)
{
    RT_ENTER();
    if (!memPool || !location)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e == cudaSuccess)
        e = rt_driver_optional(rt_drv.cuMemGetMemPool != NULL, "cuMemGetMemPool");
    if (e == cudaSuccess)
        e = rt_driver_result(d, rt_drv.cuMemGetMemPool(memPool, (CUmemLocation *)location,
                                                      (CUmemAllocationType)type));
    RT_RETURN(e);
}

/* The pool must belong to the location and allocation type (the driver checks that); for a
 * device location and pinned memory this is cudaDeviceSetMemPool. */
RT_API cudaError_t cudaMemSetMemPool(struct cudaMemLocation *location,
                                     enum cudaMemAllocationType type, cudaMemPool_t memPool)
{
    RT_ENTER();
    if (!location)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e == cudaSuccess)
        e = rt_driver_optional(rt_drv.cuMemSetMemPool != NULL, "cuMemSetMemPool");
    if (e == cudaSuccess)
        e = rt_driver_result(d, rt_drv.cuMemSetMemPool((CUmemLocation *)location,
                                                      (CUmemAllocationType)type, memPool));
    RT_RETURN(e);
}

/* ---- explicit pools ------------------------------------------------------------------------- */

RT_API cudaError_t cudaMemPoolCreate(cudaMemPool_t *memPool, const struct cudaMemPoolProps *poolProps)
{
    RT_ENTER();
    if (!memPool || !poolProps)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e == cudaSuccess)
        e = rt_driver_result(d, rt_drv.cuMemPoolCreate(memPool,
                                                      (const CUmemPoolProps *)poolProps));
    RT_RETURN(e);
}

RT_API cudaError_t cudaMemPoolDestroy(cudaMemPool_t memPool)
{
    RT_ENTER();
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e == cudaSuccess)
        e = rt_driver_result(d, rt_drv.cuMemPoolDestroy(memPool));
    RT_RETURN(e);
}

RT_API cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr,
                                           void *value)
{
    RT_ENTER();
    if (!value)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e == cudaSuccess)
        e = rt_driver_result(d, rt_drv.cuMemPoolSetAttribute(memPool, (CUmemPool_attribute)attr,
                                                            value));
    RT_RETURN(e);
}

RT_API cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr,
                                           void *value)
{
    RT_ENTER();
    if (!value)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e == cudaSuccess)
        e = rt_driver_result(d, rt_drv.cuMemPoolGetAttribute(memPool, (CUmemPool_attribute)attr,
                                                            value));
    RT_RETURN(e);
}

RT_API cudaError_t cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t minBytesToKeep)
{
    RT_ENTER();
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e == cudaSuccess)
        e = rt_driver_result(d, rt_drv.cuMemPoolTrimTo(memPool, minBytesToKeep));
    RT_RETURN(e);
}

RT_API cudaError_t cudaMemPoolSetAccess(cudaMemPool_t memPool,
                                        const struct cudaMemAccessDesc *descList, size_t count)
{
    RT_ENTER();
    if (!descList && count)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e == cudaSuccess)
        e = rt_driver_result(d, rt_drv.cuMemPoolSetAccess(memPool,
                                                         (const CUmemAccessDesc *)descList,
                                                         count));
    RT_RETURN(e);
}

RT_API cudaError_t cudaMemPoolGetAccess(enum cudaMemAccessFlags *flags, cudaMemPool_t memPool,
                                        struct cudaMemLocation *location)
{
    RT_ENTER();
    if (!flags || !location)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    CUmemAccess_flags cu_flags = CU_MEM_ACCESS_FLAGS_PROT_NONE;
    e = rt_driver_result(d, rt_drv.cuMemPoolGetAccess(&cu_flags, memPool,
                                                     (CUmemLocation *)location));
    if (e == cudaSuccess)
        *flags = (enum cudaMemAccessFlags)cu_flags;
    RT_RETURN(e);
}

/* ---- the graph memory pool ------------------------------------------------------------------ */

/* Every attribute's value is a cuuint64_t (an unsigned long long in the runtime's words); only
 * the high watermarks can be set, and only to 0 (a reset). */
static cudaError_t rt_graph_mem_attribute(int device, enum cudaGraphMemAttributeType attr,
                                          void *value, bool set)
{
    if (!value)
        return cudaErrorInvalidValue;
    rt_device *d, *target;
    cudaError_t e = rt_pool_device(device, &d, &target);
    if (e != cudaSuccess)
        return e;
    CUgraphMem_attribute a = (CUgraphMem_attribute)attr;
    return rt_driver_result(d, set ? rt_drv.cuDeviceSetGraphMemAttribute(target->cu, a, value)
                                   : rt_drv.cuDeviceGetGraphMemAttribute(target->cu, a, value));
}

/* The one body of cudaDeviceGetGraphMemAttribute and cudaDeviceSetGraphMemAttribute (RT_FORWARD).
 * */
static cudaError_t rt_graph_mem_attribute_api(int device, enum cudaGraphMemAttributeType attr,
                                              void *value, bool set, rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_graph_mem_attribute(device, attr, value, set));
}

RT_API cudaError_t cudaDeviceGetGraphMemAttribute(int device, enum cudaGraphMemAttributeType attr,
                                                  void *value)
{
    RT_FORWARD(rt_graph_mem_attribute_api(device, attr, value, false, RT_SELF));
}

RT_API cudaError_t cudaDeviceSetGraphMemAttribute(int device, enum cudaGraphMemAttributeType attr,
                                                  void *value)
{
    RT_FORWARD(rt_graph_mem_attribute_api(device, attr, value, true, RT_SELF));
}

RT_API cudaError_t cudaDeviceGraphMemTrim(int device)
{
    RT_ENTER();
    rt_device *d, *target;
    cudaError_t e = rt_pool_device(device, &d, &target);
    if (e == cudaSuccess)
        e = rt_driver_result(d, rt_drv.cuDeviceGraphMemTrim(target->cu));
    RT_RETURN(e);
}
