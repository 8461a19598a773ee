// conf_misuse_mempool.cu - invalid inputs to the stream-ordered allocator and memory pools, one
// case each (the runner and the line format: misuse.h).  NULL pools and NULL properties are
// passed too, although NVIDIA's runtime crashed on one of them on the H200 (conf_mempool.cu):
// run.sh isolates such crashes, and minicudart must answer them.
#include "misuse.h"

// The per-thread-default-stream variants; the toolkit declares them only in such builds.
extern "C" {
cudaError_t CUDARTAPI cudaMallocAsync_ptsz(void **devPtr, size_t size, cudaStream_t hStream);
cudaError_t CUDARTAPI cudaMallocFromPoolAsync_ptsz(void **ptr, size_t size, cudaMemPool_t memPool,
                                                   cudaStream_t stream);
cudaError_t CUDARTAPI cudaFreeAsync_ptsz(void *devPtr, cudaStream_t hStream);
}

// Fixtures, made at every start.
static int count;                     // devices; also the first invalid ordinal
static cudaStream_t s;
static cudaMemPool_t pool;            // an explicit pool on device 0
static cudaMemPool_t default_pool;
static char *d;                       // cudaMalloc'd

// What a case made, for its cleanup.
static void *made_ptr;
static cudaMemPool_t made_pool;

static cudaMemPool_t out_pool;
static cudaMemAccessFlags out_flags;
static cudaMemLocation location;
static cudaMemAccessDesc access_desc;
static unsigned long long u64;
static int i32;

static cudaMemPoolProps props_on(int device)
{
    cudaMemPoolProps p;
    memset(&p, 0, sizeof p);
    p.allocType = cudaMemAllocationTypePinned;
    p.handleTypes = cudaMemHandleTypeNone;
    p.location.type = cudaMemLocationTypeDevice;
    p.location.id = device;
    return p;
}

static cudaMemLocation device_location(int device)
{
    cudaMemLocation l;
    memset(&l, 0, sizeof l);
    l.type = cudaMemLocationTypeDevice;
    l.id = device;
    return l;
}

static void setup(void)
{
    CHECK(cudaGetDeviceCount(&count));
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaMalloc((void **)&d, 4096));
    cudaMemPoolProps p = props_on(0);
    CHECK(cudaMemPoolCreate(&pool, &p));
    CHECK(cudaDeviceGetDefaultMemPool(&default_pool, 0));
}

static void clean(void)
{
    if (made_ptr) {
        cudaFreeAsync(made_ptr, s);
        cudaStreamSynchronize(s);
    }
    if (made_pool)
        cudaMemPoolDestroy(made_pool);
    made_ptr = NULL;
    made_pool = NULL;
}

static cudaError_t create_pool(cudaMemPoolProps p)
{
    return cudaMemPoolCreate(&made_pool, &p);
}

static cudaError_t set_access(cudaMemPool_t target, int device, cudaMemAccessFlags flags)
{
    access_desc.location = device_location(device);
    access_desc.flags = flags;
    return cudaMemPoolSetAccess(target, &access_desc, 1);
}

static const misuse_case cases[] = {
    // ---- the stream-ordered allocator ----
    {"cudaMallocAsync.null_out", [] { return cudaMallocAsync(NULL, 16, s); }},
    {"cudaMallocAsync.size_1EB", [] { return cudaMallocAsync(&made_ptr, (size_t)1 << 60, s); },
     clean},
    {"cudaMallocAsync_ptsz.null_out", [] { return cudaMallocAsync_ptsz(NULL, 16, 0); }},
    {"cudaMallocAsync_ptsz.size_1EB",
     [] { return cudaMallocAsync_ptsz(&made_ptr, (size_t)1 << 60, 0); }, clean},
    {"cudaMallocFromPoolAsync.null_out",
     [] { return cudaMallocFromPoolAsync(NULL, 16, pool, s); }},
    {"cudaMallocFromPoolAsync.null_pool",
     [] { return cudaMallocFromPoolAsync(&made_ptr, 16, NULL, s); }, clean},
    {"cudaMallocFromPoolAsync.size_1EB",
     [] { return cudaMallocFromPoolAsync(&made_ptr, (size_t)1 << 60, pool, s); }, clean},
    {"cudaMallocFromPoolAsync_ptsz.null_out",
     [] { return cudaMallocFromPoolAsync_ptsz(NULL, 16, pool, 0); }},
    {"cudaMallocFromPoolAsync_ptsz.null_pool",
     [] { return cudaMallocFromPoolAsync_ptsz(&made_ptr, 16, NULL, 0); }, clean},
    {"cudaFreeAsync.null", [] { return cudaFreeAsync(NULL, s); }},
    {"cudaFreeAsync.pageable_pointer", [] { return cudaFreeAsync(misuse_host_page, s); }},
    {"cudaFreeAsync.interior_pointer",
     [] {
         CHECK(cudaMallocAsync(&made_ptr, 4096, s));
         return cudaFreeAsync((char *)made_ptr + 16, s);
     },
     clean},
    {"cudaFreeAsync_ptsz.null", [] { return cudaFreeAsync_ptsz(NULL, 0); }},
    {"cudaFreeAsync_ptsz.pageable_pointer",
     [] { return cudaFreeAsync_ptsz(misuse_host_page, 0); }},

    // ---- the pools of a device ----
    {"cudaDeviceGetDefaultMemPool.null_out", [] { return cudaDeviceGetDefaultMemPool(NULL, 0); }},
    {"cudaDeviceGetDefaultMemPool.device_count",
     [] { return cudaDeviceGetDefaultMemPool(&out_pool, count); }},
    {"cudaDeviceGetDefaultMemPool.negative_device",
     [] { return cudaDeviceGetDefaultMemPool(&out_pool, -1); }},
    {"cudaDeviceGetMemPool.null_out", [] { return cudaDeviceGetMemPool(NULL, 0); }},
    {"cudaDeviceGetMemPool.device_count", [] { return cudaDeviceGetMemPool(&out_pool, count); }},
    {"cudaDeviceSetMemPool.device_count", [] { return cudaDeviceSetMemPool(count, pool); }},
    {"cudaDeviceSetMemPool.null_pool", [] { return cudaDeviceSetMemPool(0, NULL); },
     [] { cudaDeviceSetMemPool(0, default_pool); }},

    // ---- explicit pools ----
    {"cudaMemPoolCreate.null_out",
     [] {
         cudaMemPoolProps p = props_on(0);
         return cudaMemPoolCreate(NULL, &p);
     }},
    {"cudaMemPoolCreate.null_props", [] { return cudaMemPoolCreate(&made_pool, NULL); }, clean},
    {"cudaMemPoolCreate.location_device_count", [] { return create_pool(props_on(count)); },
     clean},
    {"cudaMemPoolCreate.unknown_alloc_type",
     [] {
         cudaMemPoolProps p = props_on(0);
         p.allocType = (cudaMemAllocationType)99;
         return create_pool(p);
     },
     clean},
    {"cudaMemPoolCreate.unknown_handle_type",
     [] {
         cudaMemPoolProps p = props_on(0);
         p.handleTypes = (cudaMemAllocationHandleType)0x4000;
         return create_pool(p);
     },
     clean},
    {"cudaMemPoolCreate.unknown_location_type",
     [] {
         cudaMemPoolProps p = props_on(0);
         p.location.type = (cudaMemLocationType)99;
         return create_pool(p);
     },
     clean},
    {"cudaMemPoolDestroy.null", [] { return cudaMemPoolDestroy(NULL); }},
    {"cudaMemPoolDestroy.default_pool", [] { return cudaMemPoolDestroy(default_pool); }},
    {"cudaMemPoolSetAttribute.null_value",
     [] { return cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, NULL); }},
    {"cudaMemPoolSetAttribute.unknown_attribute",
     [] { return cudaMemPoolSetAttribute(pool, (cudaMemPoolAttr)99, &u64); }},
    {"cudaMemPoolSetAttribute.read_only_attribute",
     [] {
         u64 = 0;
         return cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &u64);
     }},
    {"cudaMemPoolSetAttribute.null_pool",
     [] {
         u64 = 0;
         return cudaMemPoolSetAttribute(NULL, cudaMemPoolAttrReleaseThreshold, &u64);
     }},
    {"cudaMemPoolGetAttribute.null_value",
     [] { return cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, NULL); }},
    {"cudaMemPoolGetAttribute.unknown_attribute",
     [] { return cudaMemPoolGetAttribute(pool, (cudaMemPoolAttr)99, &u64); }},
    {"cudaMemPoolGetAttribute.null_pool",
     [] { return cudaMemPoolGetAttribute(NULL, cudaMemPoolReuseAllowOpportunistic, &i32); }},
    {"cudaMemPoolTrimTo.null_pool", [] { return cudaMemPoolTrimTo(NULL, 0); }},
    {"cudaMemPoolSetAccess.null_list_with_count",
     [] { return cudaMemPoolSetAccess(pool, NULL, 1); }},
    {"cudaMemPoolSetAccess.location_device_count",
     [] { return set_access(pool, count, cudaMemAccessFlagsProtReadWrite); }},
    {"cudaMemPoolSetAccess.revoke_own_device",
     [] { return set_access(pool, 0, cudaMemAccessFlagsProtNone); }},
    {"cudaMemPoolSetAccess.unknown_flags",
     [] { return set_access(pool, 0, (cudaMemAccessFlags)99); }},
    {"cudaMemPoolSetAccess.null_pool",
     [] { return set_access(NULL, 0, cudaMemAccessFlagsProtReadWrite); }},
    {"cudaMemPoolGetAccess.null_flags",
     [] {
         location = device_location(0);
         return cudaMemPoolGetAccess(NULL, pool, &location);
     }},
    {"cudaMemPoolGetAccess.null_location",
     [] { return cudaMemPoolGetAccess(&out_flags, pool, NULL); }},
    {"cudaMemPoolGetAccess.location_device_count",
     [] {
         location = device_location(count);
         return cudaMemPoolGetAccess(&out_flags, pool, &location);
     }},
    {"cudaMemPoolGetAccess.null_pool",
     [] {
         location = device_location(0);
         return cudaMemPoolGetAccess(&out_flags, NULL, &location);
     }},
    // ---- pools by location and allocation type (CUDA 13.0) ----
    {"cudaMemGetDefaultMemPool.null_pool",
     [] {
         location = device_location(0);
         return cudaMemGetDefaultMemPool(NULL, &location, cudaMemAllocationTypePinned);
     }},
    {"cudaMemGetDefaultMemPool.null_location",
     [] { return cudaMemGetDefaultMemPool(&out_pool, NULL, cudaMemAllocationTypePinned); }},
    {"cudaMemGetDefaultMemPool.location_device_count",
     [] {
         location = device_location(count);
         return cudaMemGetDefaultMemPool(&out_pool, &location, cudaMemAllocationTypePinned);
     }},
    {"cudaMemGetDefaultMemPool.location_none_pinned",
     [] {
         location = device_location(0);
         location.type = cudaMemLocationTypeNone;
         return cudaMemGetDefaultMemPool(&out_pool, &location, cudaMemAllocationTypePinned);
     }},
    {"cudaMemGetDefaultMemPool.allocation_type_invalid",
     [] {
         location = device_location(0);
         return cudaMemGetDefaultMemPool(&out_pool, &location, cudaMemAllocationTypeInvalid);
     }},
    {"cudaMemGetMemPool.null_pool",
     [] {
         location = device_location(0);
         return cudaMemGetMemPool(NULL, &location, cudaMemAllocationTypePinned);
     }},
    {"cudaMemGetMemPool.location_device_count",
     [] {
         location = device_location(count);
         return cudaMemGetMemPool(&out_pool, &location, cudaMemAllocationTypePinned);
     }},
    {"cudaMemSetMemPool.null_location",
     [] { return cudaMemSetMemPool(NULL, cudaMemAllocationTypePinned, pool); }},
    {"cudaMemSetMemPool.null_pool",
     [] {
         location = device_location(0);
         return cudaMemSetMemPool(&location, cudaMemAllocationTypePinned, NULL);
     }},
    {"cudaMemSetMemPool.location_device_count",
     [] {
         location = device_location(count);
         return cudaMemSetMemPool(&location, cudaMemAllocationTypePinned, pool);
     }},
};

int main(int argc, char **argv)
{
    int rc = misuse_main("conf_misuse_mempool", argc, argv, setup, cases, MISUSE_COUNT(cases));
    cudaDeviceSynchronize();
    return rc;
}
