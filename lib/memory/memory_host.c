/*
 * memory_host.c - page-locked host memory (allocated or registered), managed memory and the
 * attributes of a pointer.
 *
 * All of it is the driver's: cudaHostAlloc is cuMemHostAlloc, cudaHostRegister is
 * cuMemHostRegister, cudaMallocManaged is cuMemAllocManaged.  The runtime's flag values are the
 * driver's (cudaHostAllocMapped == CU_MEMHOSTALLOC_DEVICEMAP, cudaHostRegisterReadOnly ==
 * CU_MEMHOSTREGISTER_READ_ONLY, cudaMemAttachGlobal == CU_MEM_ATTACH_GLOBAL, ...), checked below
 * at compile time, so they pass through once unknown bits are refused.
 */
#include <string.h>

#include "memory/memory.h"

_Static_assert(cudaHostAllocPortable == CU_MEMHOSTALLOC_PORTABLE &&
               cudaHostAllocMapped == CU_MEMHOSTALLOC_DEVICEMAP &&
               cudaHostAllocWriteCombined == CU_MEMHOSTALLOC_WRITECOMBINED,
               "cudaHostAlloc flags are the driver's");
_Static_assert(cudaHostRegisterPortable == CU_MEMHOSTREGISTER_PORTABLE &&
               cudaHostRegisterMapped == CU_MEMHOSTREGISTER_DEVICEMAP &&
               cudaHostRegisterIoMemory == CU_MEMHOSTREGISTER_IOMEMORY &&
               cudaHostRegisterReadOnly == CU_MEMHOSTREGISTER_READ_ONLY,
               "cudaHostRegister flags are the driver's");
_Static_assert(cudaMemAttachGlobal == CU_MEM_ATTACH_GLOBAL &&
               cudaMemAttachHost == CU_MEM_ATTACH_HOST &&
               cudaMemAttachSingle == CU_MEM_ATTACH_SINGLE,
               "cudaMemAttach flags are the driver's");
_Static_assert((int)cudaMemAdviseSetReadMostly == (int)CU_MEM_ADVISE_SET_READ_MOSTLY &&
               (int)cudaMemAdviseUnsetAccessedBy == (int)CU_MEM_ADVISE_UNSET_ACCESSED_BY,
               "cudaMemoryAdvise values are the driver's");
_Static_assert((int)cudaMemLocationTypeDevice == (int)CU_MEM_LOCATION_TYPE_DEVICE &&
               (int)cudaMemLocationTypeHost == (int)CU_MEM_LOCATION_TYPE_HOST &&
               (int)cudaMemLocationTypeHostNuma == (int)CU_MEM_LOCATION_TYPE_HOST_NUMA,
               "cudaMemLocationType values are the driver's");

#define RT_HOST_ALLOC_FLAGS (cudaHostAllocPortable | cudaHostAllocMapped | \
                             cudaHostAllocWriteCombined)
#define RT_HOST_REGISTER_FLAGS (cudaHostRegisterPortable | cudaHostRegisterMapped | \
                                cudaHostRegisterIoMemory | cudaHostRegisterReadOnly)

/* ---- page-locked host memory ---------------------------------------------------------------- */

static cudaError_t rt_host_alloc(void **pHost, size_t size, unsigned int flags)
{
    if (!pHost || (flags & ~(unsigned)RT_HOST_ALLOC_FLAGS))
        return cudaErrorInvalidValue;
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        return e;
    if (size == 0) {            /* as cudaMalloc: nothing to allocate, a NULL pointer */
        *pHost = NULL;
        return cudaSuccess;
    }
    void *p = NULL;
    e = rt_driver_result(d, rt_drv.cuMemHostAlloc(&p, size, flags));
    if (e == cudaSuccess)
        *pHost = p;
    return e;
}

/* The one body of cudaMallocHost and cudaHostAlloc (RT_FORWARD). */
static cudaError_t rt_host_alloc_api(void **pHost, size_t size, unsigned int flags, rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_host_alloc(pHost, size, flags));
}

RT_API cudaError_t cudaMallocHost(void **ptr, size_t size)
{
    RT_FORWARD(rt_host_alloc_api(ptr, size, cudaHostAllocDefault, RT_SELF));
}

RT_API cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags)
{
    RT_FORWARD(rt_host_alloc_api(pHost, size, flags, RT_SELF));
}

RT_API cudaError_t cudaFreeHost(void *ptr)
{
    RT_ENTER();
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess || !ptr)
        RT_RETURN(e);
    RT_RETURN(rt_driver_result(d, rt_drv.cuMemFreeHost(ptr)));
}

RT_API cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags)
{
    RT_ENTER();
    if (!ptr || size == 0 || (flags & ~(unsigned)RT_HOST_REGISTER_FLAGS))
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    RT_RETURN(rt_driver_result(d, rt_drv.cuMemHostRegister(ptr, size, flags)));
}

RT_API cudaError_t cudaHostUnregister(void *ptr)
{
    RT_ENTER();
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    if (!ptr)
        RT_RETURN(cudaErrorInvalidValue);
    RT_RETURN(rt_driver_result(d, rt_drv.cuMemHostUnregister(ptr)));
}

RT_API cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags)
{
    RT_ENTER();
    if (!pDevice || !pHost || flags != 0)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    CUdeviceptr p = 0;
    e = rt_driver_result(d, rt_drv.cuMemHostGetDevicePointer(&p, pHost, 0));
    if (e == cudaSuccess)
        *pDevice = (void *)(uintptr_t)p;
    RT_RETURN(e);
}

RT_API cudaError_t cudaHostGetFlags(unsigned int *pFlags, void *pHost)
{
    RT_ENTER();
    if (!pFlags || !pHost)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    RT_RETURN(rt_driver_result(d, rt_drv.cuMemHostGetFlags(pFlags, pHost)));
}

/* ---- managed memory ------------------------------------------------------------------------- */

RT_API cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags)
{
    RT_ENTER();
    /* Flags other than Global / Host are cudaErrorInvalidValue.  Size 0 is documented as
     * cudaErrorInvalidValue too, but NVIDIA's runtime answered cudaSuccess on the H200: like
     * cudaMalloc, it gives a NULL pointer. */
    if (!devPtr || (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost))
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    if (size == 0) {
        *devPtr = NULL;
        RT_RETURN(cudaSuccess);
    }
    CUdeviceptr p = 0;
    e = rt_driver_result(d, rt_drv.cuMemAllocManaged(&p, size, flags));
    if (e == cudaSuccess)
        *devPtr = (void *)(uintptr_t)p;
    RT_RETURN(e);
}

static CUmemLocation rt_location(struct cudaMemLocation location)
{
    CUmemLocation l = {.type = (CUmemLocationType)location.type, .id = location.id};
    return l;
}

RT_API cudaError_t cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice,
                                 struct cudaMemLocation location)
{
    RT_ENTER();
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    RT_RETURN(rt_driver_result(d, rt_drv.cuMemAdvise(rt_dptr(devPtr), count,
                                                     (CUmem_advise)advice,
                                                     rt_location(location))));
}

/* cudaMemRangeAttribute equals CUmem_range_attribute, and the ids the queries write are the
 * driver's: cudaCpuDeviceId is CU_DEVICE_CPU, cudaInvalidDeviceId is CU_DEVICE_INVALID, a
 * location type is a CUmemLocationType, a device id the ordinal.  So the results pass through
 * unchanged; the sizes each attribute needs (4 bytes, a multiple of 4 for AccessedBy) are the
 * driver's to check. */
_Static_assert((int)cudaMemRangeAttributeReadMostly == (int)CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY &&
               (int)cudaMemRangeAttributePreferredLocation ==
                   (int)CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION &&
               (int)cudaMemRangeAttributeAccessedBy == (int)CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY &&
               (int)cudaMemRangeAttributeLastPrefetchLocation ==
                   (int)CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION &&
               (int)cudaMemRangeAttributePreferredLocationType ==
                   (int)CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE &&
               (int)cudaMemRangeAttributePreferredLocationId ==
                   (int)CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID &&
               (int)cudaMemRangeAttributeLastPrefetchLocationType ==
                   (int)CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE &&
               (int)cudaMemRangeAttributeLastPrefetchLocationId ==
                   (int)CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID,
               "memory range attributes differ");
_Static_assert(cudaCpuDeviceId == CU_DEVICE_CPU && cudaInvalidDeviceId == CU_DEVICE_INVALID &&
               (int)cudaMemLocationTypeInvalid == (int)CU_MEM_LOCATION_TYPE_INVALID,
               "device ids and location types of range attributes differ");
_Static_assert(sizeof(enum cudaMemRangeAttribute) == sizeof(CUmem_range_attribute),
               "range attribute arrays differ");

RT_API cudaError_t cudaMemRangeGetAttribute(void *data, size_t dataSize,
                                            enum cudaMemRangeAttribute attribute,
                                            const void *devPtr, size_t count)
{
    RT_ENTER();
    rt_device *d;
    cudaError_t e = rt_context_if_current(&d);     /* before the arguments, as NVIDIA's */
    if (e != cudaSuccess)
        RT_RETURN(e);
    if (!data)
        RT_RETURN(cudaErrorInvalidValue);
    RT_RETURN(rt_driver_result(d, rt_drv.cuMemRangeGetAttribute(
        data, dataSize, (CUmem_range_attribute)attribute, rt_dptr(devPtr), count)));
}

/* The attribute array is handed over as the driver's (same size and values, checked above). */
RT_API cudaError_t cudaMemRangeGetAttributes(void **data, size_t *dataSizes,
                                             enum cudaMemRangeAttribute *attributes,
                                             size_t numAttributes, const void *devPtr,
                                             size_t count)
{
    RT_ENTER();
    rt_device *d;
    cudaError_t e = rt_context_if_current(&d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    if (!data || !dataSizes || !attributes)
        RT_RETURN(cudaErrorInvalidValue);
    RT_RETURN(rt_driver_result(d, rt_drv.cuMemRangeGetAttributes(
        data, dataSizes, (CUmem_range_attribute *)attributes, numAttributes, rt_dptr(devPtr),
        count)));
}

/* CUDA 13.5: where the pages of a managed or pageable range mostly are, per summary region.
 * The answer is a sampling of page residency that only the driver's 13.4 entry point makes;
 * range attributes (preferred or last prefetch location) describe intent, not residency, so
 * without that entry point the call is refused (NVIDIA's 13.5 runtime refuses it too). */
RT_API cudaError_t cudaMemGetLocationInfo(void *devPtr, size_t size, size_t summaryGranularity,
                                          size_t samplingGranularity,
                                          struct cudaMemLocation *location_out)
{
    RT_ENTER();
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e == cudaSuccess)         /* before the arguments, as NVIDIA's runtime on driver 580 */
        e = rt_driver_newer(rt_drv.cuMemGetLocationInfo != NULL, "cuMemGetLocationInfo");
    if (e != cudaSuccess)
        RT_RETURN(e);
    if (!location_out || size == 0 || summaryGranularity == 0 || summaryGranularity > size ||
        samplingGranularity > summaryGranularity)
        RT_RETURN(cudaErrorInvalidValue);
    RT_RETURN(rt_driver_result(d, rt_drv.cuMemGetLocationInfo(
        rt_dptr(devPtr), size, summaryGranularity, samplingGranularity,
        (CUmemLocation *)location_out)));
}

static cudaError_t rt_prefetch(const void *devPtr, size_t count, struct cudaMemLocation location,
                               unsigned int flags, CUstream stream)
{
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        return e;
    return rt_driver_result(d, rt_drv.cuMemPrefetchAsync(rt_dptr(devPtr), count,
                                                         rt_location(location), flags, stream));
}

/* The one body of cudaMemPrefetchAsync and cudaMemPrefetchAsync_ptsz (RT_FORWARD). */
static cudaError_t rt_prefetch_api(const void *devPtr, size_t count,
                                   struct cudaMemLocation location, unsigned int flags,
                                   CUstream stream, rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_prefetch(devPtr, count, location, flags, stream));
}

RT_API cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count,
                                        struct cudaMemLocation location, unsigned int flags,
                                        cudaStream_t stream)
{
    RT_FORWARD(rt_prefetch_api(devPtr, count, location, flags, rt_stream(stream, false), RT_SELF));
}

RT_API cudaError_t cudaMemPrefetchAsync_ptsz(const void *devPtr, size_t count,
                                             struct cudaMemLocation location, unsigned int flags,
                                             cudaStream_t stream)
{
    RT_FORWARD(rt_prefetch_api(devPtr, count, location, flags, rt_stream(stream, true), RT_SELF));
}

static cudaError_t rt_attach(CUstream stream, void *devPtr, size_t length, unsigned int flags)
{
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        return e;
    return rt_driver_result(d, rt_drv.cuStreamAttachMemAsync(stream, rt_dptr(devPtr), length,
                                                             flags));
}

/* The one body of cudaStreamAttachMemAsync and cudaStreamAttachMemAsync_ptsz (RT_FORWARD). */
static cudaError_t rt_attach_api(CUstream stream, void *devPtr, size_t length, unsigned int flags,
                                 rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_attach(stream, devPtr, length, flags));
}

RT_API cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void *devPtr, size_t length,
                                            unsigned int flags)
{
    RT_FORWARD(rt_attach_api(rt_stream(stream, false), devPtr, length, flags, RT_SELF));
}

RT_API cudaError_t cudaStreamAttachMemAsync_ptsz(cudaStream_t stream, void *devPtr, size_t length,
                                                 unsigned int flags)
{
    RT_FORWARD(rt_attach_api(rt_stream(stream, true), devPtr, length, flags, RT_SELF));
}

/* ---- pointer attributes --------------------------------------------------------------------- */

/*
 * cuPointerGetAttributes answers for any address: a pointer the driver does not know gets memory
 * type 0 and NULL pointers, and success.  The runtime reports it as cudaMemoryTypeUnregistered on
 * no device (cudaInvalidDeviceId), reachable from the host at its own address (11.0 and later).
 */
RT_API cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes,
                                            const void *ptr)
{
    RT_ENTER();
    if (!attributes)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    unsigned int memory_type = 0, is_managed = 0;
    int ordinal = cudaInvalidDeviceId;
    CUdeviceptr device_pointer = 0;
    void *host_pointer = NULL;
    CUpointer_attribute which[] = {
        CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_IS_MANAGED,
        CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, CU_POINTER_ATTRIBUTE_DEVICE_POINTER,
        CU_POINTER_ATTRIBUTE_HOST_POINTER,
    };
    void *data[] = {&memory_type, &is_managed, &ordinal, &device_pointer, &host_pointer};
    e = rt_driver_result(d, rt_drv.cuPointerGetAttributes(5, which, data, rt_dptr(ptr)));
    if (e != cudaSuccess)
        RT_RETURN(e);
    struct cudaPointerAttributes a = {.type = cudaMemoryTypeUnregistered,
                                      .device = cudaInvalidDeviceId};
    if (is_managed)
        a.type = cudaMemoryTypeManaged;
    else if (memory_type == CU_MEMORYTYPE_HOST)
        a.type = cudaMemoryTypeHost;
    else if (memory_type == CU_MEMORYTYPE_DEVICE)
        a.type = cudaMemoryTypeDevice;
    else if (memory_type == CU_MEMORYTYPE_UNIFIED)
        a.type = cudaMemoryTypeManaged;
    if (a.type == cudaMemoryTypeUnregistered) {
        a.hostPointer = (void *)ptr;
    } else {
        a.device = ordinal;
        a.devicePointer = (void *)(uintptr_t)device_pointer;
        a.hostPointer = host_pointer;
    }
    /* 13.5's locality domain ordinal: -1, "not localized to a locality domain", which no
     * allocation is on a driver older than 13.5 (the member is a reserved long of 13.0's
     * layout, so a program built by nvcc 13.0 never reads it). */
    int locality = -1;
    memcpy((char *)&a + RT135_POINTER_ATTR_LOCALITY_DOMAIN_ORDINAL, &locality, sizeof locality);
    *attributes = a;
    RT_RETURN(cudaSuccess);
}
