/*
 * fake_query.c - the fake driver's queries of managed ranges and of device capabilities:
 * cuMemRangeGetAttribute(s), cuDeviceGetTexture1DLinearMaxWidth and the atomic capabilities of the
 * host and peer links (cuDeviceGetHostAtomicCapabilities, cuDeviceGetP2PAtomicCapabilities).
 *
 * What it models:
 *   - Range attributes of the fake's managed allocations.  The fake's cuMemAdvise records
 *     nothing, and these attributes do not read the residency prefetches leave (that is for
 *     cuMemGetLocationInfo, fake_residency.c), so every range answers as one never advised nor
 *     prefetched: read-mostly 0, preferred and last-prefetch location CU_DEVICE_INVALID (-2),
 *     their location types CU_MEM_LOCATION_TYPE_INVALID and ids CU_DEVICE_INVALID, AccessedBy
 *     CU_DEVICE_INVALID in every slot.  The sizes are cuda.h's: 4 bytes, a non-zero multiple of
 *     4 for AccessedBy.
 *   - The 1D linear texture width: a fixed 268435456 (2^28) elements for every format, the
 *     H200's value for CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH; the channel count must
 *     be 1, 2 or 4.
 *   - Atomic capabilities: the host link as PCIe AtomicOps (fetch-add, swap and compare-and-swap
 *     on 32 and 64 bits, CAS also on 128), the peer link as NVLink (every integer operation on 32
 *     and 64 bits, signed and unsigned; float operations on 32 and 64 bits; CAS also on 128).
 */
#include <stdlib.h>
#include <string.h>

#include "fake_internal.h"

/* ---- managed ranges ------------------------------------------------------------------------- */

static int managed_range(CUdeviceptr p, size_t n)
{
    const unsigned char *b = (const unsigned char *)(uintptr_t)p;
    for (size_t i = 0; i < fake_g.allocs.count; i++) {
        fake_alloc *a = fake_g.allocs.items[i];
        if (b >= a->ptr && b < a->ptr + a->size)
            return a->managed && n > 0 && n <= (size_t)(a->ptr + a->size - b);
    }
    return 0;
}

/* One attribute of a range never advised nor prefetched. */
static CUresult range_attribute(void *data, size_t size, CUmem_range_attribute attr)
{
    if (!data)
        return CUDA_ERROR_INVALID_VALUE;
    int32_t value;
    switch (attr) {
    case CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY:
        value = 0;
        break;
    case CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION:
    case CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION:
    case CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID:
    case CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID:
        value = CU_DEVICE_INVALID;
        break;
    case CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE:
    case CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE:
        value = CU_MEM_LOCATION_TYPE_INVALID;
        break;
    case CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY:
        if (size == 0 || size % 4 != 0)
            return CUDA_ERROR_INVALID_VALUE;
        for (size_t i = 0; i < size / 4; i++)
            ((int32_t *)data)[i] = CU_DEVICE_INVALID;
        return CUDA_SUCCESS;
    default:
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (size != 4)
        return CUDA_ERROR_INVALID_VALUE;
    memcpy(data, &value, 4);
    return CUDA_SUCCESS;
}

static CUresult CUDAAPI f_cuMemRangeGetAttribute(void *data, size_t dataSize,
                                                 CUmem_range_attribute attribute,
                                                 CUdeviceptr devPtr, size_t count)
{
    CUresult rc = fake_enter("cuMemRangeGetAttribute",
                             "data=%p size=%zu attribute=%d ptr=0x%llx count=%zu", data, dataSize,
                             (int)attribute, (unsigned long long)devPtr, count);
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && !managed_range(devPtr, count))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = range_attribute(data, dataSize, attribute);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuMemRangeGetAttributes(void **data, size_t *dataSizes,
                                                  CUmem_range_attribute *attributes,
                                                  size_t numAttributes, CUdeviceptr devPtr,
                                                  size_t count)
{
    CUresult rc = fake_enter("cuMemRangeGetAttributes",
                             "count_attributes=%zu first=%d ptr=0x%llx count=%zu", numAttributes,
                             attributes && numAttributes ? (int)attributes[0] : -1,
                             (unsigned long long)devPtr, count);
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && (!data || !dataSizes || !attributes || numAttributes == 0 ||
                               !managed_range(devPtr, count)))
        rc = CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; rc == CUDA_SUCCESS && i < numAttributes; i++)
        rc = range_attribute(data[i], dataSizes[i], attributes[i]);
    return fake_leave(rc);
}

/* ---- device capabilities -------------------------------------------------------------------- */

#define FAKE_TEXTURE1D_LINEAR_MAX_WIDTH ((size_t)1 << 28)

static CUresult CUDAAPI f_cuDeviceGetTexture1DLinearMaxWidth(size_t *maxWidthInElements,
                                                             CUarray_format format,
                                                             unsigned numChannels, CUdevice dev)
{
    CUresult rc = fake_enter("cuDeviceGetTexture1DLinearMaxWidth",
                             "format=0x%x channels=%u dev=%d", (unsigned)format, numChannels, dev);
    if (rc == CUDA_SUCCESS)
        rc = fake_need_device(dev);
    if (rc == CUDA_SUCCESS && (!maxWidthInElements ||
                               (numChannels != 1 && numChannels != 2 && numChannels != 4)))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        *maxWidthInElements = FAKE_TEXTURE1D_LINEAR_MAX_WIDTH;
    return fake_leave(rc);
}

#define INT_CAPS (CU_ATOMIC_CAPABILITY_SIGNED | CU_ATOMIC_CAPABILITY_UNSIGNED | \
                  CU_ATOMIC_CAPABILITY_SCALAR_32 | CU_ATOMIC_CAPABILITY_SCALAR_64)
#define FLOAT_CAPS (CU_ATOMIC_CAPABILITY_SCALAR_32 | CU_ATOMIC_CAPABILITY_SCALAR_64)

/* The capabilities of one operation over the host (PCIe) or a peer (NVLink) link. */
static unsigned atomic_caps(CUatomicOperation op, int peer)
{
    switch (op) {
    case CU_ATOMIC_OPERATION_CAS:
        return INT_CAPS | CU_ATOMIC_CAPABILITY_SCALAR_128;
    case CU_ATOMIC_OPERATION_INTEGER_ADD:
    case CU_ATOMIC_OPERATION_EXCHANGE:
        return INT_CAPS;
    case CU_ATOMIC_OPERATION_FLOAT_ADD:
    case CU_ATOMIC_OPERATION_FLOAT_MIN:
    case CU_ATOMIC_OPERATION_FLOAT_MAX:
        return peer ? FLOAT_CAPS : 0;
    default:
        return peer ? INT_CAPS : 0;
    }
}

static CUresult atomic_caps_fill(unsigned *caps, const CUatomicOperation *ops, unsigned count,
                                 int peer)
{
    if (!caps || !ops || count == 0)
        return CUDA_ERROR_INVALID_VALUE;
    for (unsigned i = 0; i < count; i++)
        if ((int)ops[i] < 0 || ops[i] >= CU_ATOMIC_OPERATION_MAX)
            return CUDA_ERROR_INVALID_VALUE;
    for (unsigned i = 0; i < count; i++)
        caps[i] = atomic_caps(ops[i], peer);
    return CUDA_SUCCESS;
}

static CUresult CUDAAPI f_cuDeviceGetHostAtomicCapabilities(unsigned int *capabilities,
                                                            const CUatomicOperation *operations,
                                                            unsigned int count, CUdevice dev)
{
    CUresult rc = fake_enter("cuDeviceGetHostAtomicCapabilities", "count=%u first=%d dev=%d",
                             count, operations && count ? (int)operations[0] : -1, dev);
    if (rc == CUDA_SUCCESS)
        rc = fake_need_device(dev);
    if (rc == CUDA_SUCCESS)
        rc = atomic_caps_fill(capabilities, operations, count, 0);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuDeviceGetP2PAtomicCapabilities(unsigned int *capabilities,
                                                           const CUatomicOperation *operations,
                                                           unsigned int count, CUdevice src,
                                                           CUdevice dst)
{
    CUresult rc = fake_enter("cuDeviceGetP2PAtomicCapabilities", "count=%u first=%d src=%d dst=%d",
                             count, operations && count ? (int)operations[0] : -1, src, dst);
    if (rc == CUDA_SUCCESS)
        rc = fake_need_device(src);
    if (rc == CUDA_SUCCESS)
        rc = fake_need_device(dst);
    if (rc == CUDA_SUCCESS && src == dst)
        rc = CUDA_ERROR_INVALID_DEVICE;
    if (rc == CUDA_SUCCESS)
        rc = atomic_caps_fill(capabilities, operations, count, 1);
    return fake_leave(rc);
}

const proc_entry fake_procs_query[] = {
    {"cuMemRangeGetAttribute", 8000, 99999, (void *)f_cuMemRangeGetAttribute},
    {"cuMemRangeGetAttributes", 8000, 99999, (void *)f_cuMemRangeGetAttributes},
    {"cuDeviceGetTexture1DLinearMaxWidth", 11010, 99999,
     (void *)f_cuDeviceGetTexture1DLinearMaxWidth},
    {"cuDeviceGetHostAtomicCapabilities", 13000, 99999,
     (void *)f_cuDeviceGetHostAtomicCapabilities},
    {"cuDeviceGetP2PAtomicCapabilities", 13000, 99999,
     (void *)f_cuDeviceGetP2PAtomicCapabilities},
    {NULL, 0, 0, NULL},
};
