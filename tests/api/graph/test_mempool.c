/*
 * test_mempool.c - the stream-ordered allocator and memory pools against the fake driver: what
 * reaches the driver (the fake's call log), the pools' state, and the error paths (returned code
 * and last error).  One test per process run: the program takes the test's name.
 */
#include "e2e.h"

#include <stdio.h>

cudaError_t cudaMallocAsync_ptsz(void **devPtr, size_t size, cudaStream_t hStream);
cudaError_t cudaFreeAsync_ptsz(void *devPtr, cudaStream_t hStream);
cudaError_t cudaMallocFromPoolAsync_ptsz(void **ptr, size_t size, cudaMemPool_t memPool,
                                         cudaStream_t stream);

static const char *last_args(const char *name)
{
    for (size_t i = fk.fake_call_count(); i-- > 0;) {
        const fake_call *c = fk.fake_call_at(i);
        if (strcmp(c->name, name) == 0)
            return c->args;
    }
    fail_msg("no call of %s", name);
    return "";
}

static void assert_args_contain(const char *name, const char *text)
{
    const char *args = last_args(name);
    if (!strstr(args, text))
        fail_msg("%s(%s) lacks \"%s\"", name, args, text);
}

static struct cudaMemPoolProps device_pool_props(int device)
{
    struct cudaMemPoolProps props;
    memset(&props, 0, sizeof props);
    props.allocType = cudaMemAllocationTypePinned;
    props.handleTypes = cudaMemHandleTypeNone;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = device;
    return props;
}

static void malloc_async_allocates_and_free_async_releases(void **state)
{
    (void)state;
    void *p = NULL;
    assert_cuda(cudaFree(NULL), cudaSuccess);
    size_t before = fk.fake_live_allocations();
    assert_cuda(cudaMallocAsync(&p, 1000, cudaStreamPerThread), cudaSuccess);
    assert_non_null(p);
    assert_args_contain("cuMemAllocAsync", "bytesize=1000 stream=0x2");
    assert_int_equal(fk.fake_live_allocations(), before + 1);
    memset(p, 0x5a, 1000);                   /* fake device memory is host memory */
    assert_cuda(cudaFreeAsync(p, cudaStreamPerThread), cudaSuccess);
    assert_args_contain("cuMemFreeAsync", "stream=0x2");
    assert_int_equal(fk.fake_live_allocations(), before);
    /* Freeing it again: the driver does not know the pointer. */
    assert_cuda(cudaFreeAsync(p, 0), cudaErrorInvalidValue);
    /* A bogus stream handle. */
    int bogus = 0;
    assert_cuda(cudaMallocAsync(&p, 16, (cudaStream_t)&bogus), cudaErrorInvalidResourceHandle);
}

static void malloc_async_null_pointer_returns_invalid_value(void **state)
{
    (void)state;
    size_t before = fk.fake_count_calls("cuMemAllocAsync");
    assert_cuda(cudaMallocAsync(NULL, 16, 0), cudaErrorInvalidValue);
    assert_cuda(cudaMallocFromPoolAsync(NULL, 16, NULL, 0), cudaErrorInvalidValue);
    assert_int_equal(fk.fake_count_calls("cuMemAllocAsync"), before);
}

static void malloc_async_driver_failure_is_reported(void **state)
{
    (void)state;
    void *p = (void *)0x1;
    fk.fake_fail_call("cuMemAllocAsync", 1, 2 /* CUDA_ERROR_OUT_OF_MEMORY */);
    assert_cuda(cudaMallocAsync(&p, 64, 0), cudaErrorMemoryAllocation);
    assert_ptr_equal(p, (void *)0x1);        /* untouched on failure */
    assert_cuda(cudaMallocAsync(&p, 64, 0), cudaSuccess);
    fk.fake_fail_call("cuMemFreeAsync", 1, 999);
    assert_cuda(cudaFreeAsync(p, 0), cudaErrorUnknown);
    assert_cuda(cudaFreeAsync(p, 0), cudaSuccess);
}

static void async_ptsz_variants_pass_the_per_thread_stream(void **state)
{
    (void)state;
    void *p = NULL;
    assert_cuda(cudaMallocAsync_ptsz(&p, 128, 0), cudaSuccess);
    assert_args_contain("cuMemAllocAsync", "bytesize=128 stream=0x2");
    assert_cuda(cudaFreeAsync_ptsz(p, 0), cudaSuccess);
    assert_args_contain("cuMemFreeAsync", "stream=0x2");
    cudaMemPool_t pool;
    assert_cuda(cudaDeviceGetDefaultMemPool(&pool, 0), cudaSuccess);
    assert_cuda(cudaMallocFromPoolAsync_ptsz(&p, 256, pool, 0), cudaSuccess);
    assert_args_contain("cuMemAllocFromPoolAsync", "bytesize=256");
    assert_args_contain("cuMemAllocFromPoolAsync", "stream=0x2");
    assert_cuda(cudaFreeAsync(p, cudaStreamLegacy), cudaSuccess);
    assert_args_contain("cuMemFreeAsync", "stream=0x1");
    assert_cuda(cudaMallocAsync(&p, 8, 0), cudaSuccess);
    assert_args_contain("cuMemAllocAsync", "stream=(nil)");
    assert_cuda(cudaFreeAsync(p, 0), cudaSuccess);
}

static void default_pool_attributes_round_trip(void **state)
{
    (void)state;
    cudaMemPool_t pool = NULL;
    assert_cuda(cudaDeviceGetDefaultMemPool(&pool, 0), cudaSuccess);
    assert_non_null(pool);
    assert_args_contain("cuDeviceGetDefaultMemPool", "dev=0");
    uint64_t threshold = 1 << 20, back = 0;
    assert_cuda(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold),
                cudaSuccess);
    assert_args_contain("cuMemPoolSetAttribute", "attr=4");
    assert_cuda(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &back),
                cudaSuccess);
    assert_int_equal(back, 1 << 20);
    int reuse = 0;
    assert_cuda(cudaMemPoolSetAttribute(pool, cudaMemPoolReuseAllowOpportunistic, &reuse),
                cudaSuccess);
    reuse = 7;
    assert_cuda(cudaMemPoolGetAttribute(pool, cudaMemPoolReuseAllowOpportunistic, &reuse),
                cudaSuccess);
    assert_int_equal(reuse, 0);

    void *p = NULL;
    uint64_t used = 0;
    assert_cuda(cudaMallocAsync(&p, 4096, 0), cudaSuccess);
    assert_cuda(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used), cudaSuccess);
    assert_int_equal(used, 4096);
    assert_cuda(cudaFreeAsync(p, 0), cudaSuccess);
    assert_cuda(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used), cudaSuccess);
    assert_int_equal(used, 0);
    /* The high-water mark can only be reset to zero. */
    used = 5;
    assert_cuda(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &used),
                cudaErrorInvalidValue);
    assert_cuda(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, NULL),
                cudaErrorInvalidValue);
    assert_cuda(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, NULL),
                cudaErrorInvalidValue);
    assert_cuda(cudaMemPoolGetAttribute(pool, (enum cudaMemPoolAttr)0x7fff, &used),
                cudaErrorInvalidValue);
}

static void default_pool_of_bad_device_returns_invalid_device(void **state)
{
    (void)state;
    cudaMemPool_t pool = NULL;
    assert_cuda(cudaDeviceGetDefaultMemPool(&pool, 99), cudaErrorInvalidDevice);
    assert_cuda(cudaDeviceGetDefaultMemPool(&pool, -1), cudaErrorInvalidDevice);
    assert_cuda(cudaDeviceGetDefaultMemPool(NULL, 0), cudaErrorInvalidValue);
    /* measured on the H200: InvalidValue here, InvalidDevice for the default pool */
    assert_cuda(cudaDeviceGetMemPool(&pool, 99), cudaErrorInvalidValue);
    assert_cuda(cudaDeviceGetMemPool(NULL, 0), cudaErrorInvalidValue);
    assert_cuda(cudaDeviceSetMemPool(99, pool), cudaErrorInvalidValue);     /* H200 too */
    fk.fake_fail_call("cuDeviceGetDefaultMemPool", 1, 999);
    assert_cuda(cudaDeviceGetDefaultMemPool(&pool, 0), cudaErrorUnknown);
}

static void device_mem_pool_set_and_get(void **state)
{
    (void)state;
    cudaMemPool_t def = NULL, current = NULL, mine = NULL;
    assert_cuda(cudaDeviceGetDefaultMemPool(&def, 0), cudaSuccess);
    assert_cuda(cudaDeviceGetMemPool(&current, 0), cudaSuccess);
    assert_ptr_equal(current, def);
    struct cudaMemPoolProps props = device_pool_props(0);
    assert_cuda(cudaMemPoolCreate(&mine, &props), cudaSuccess);
    assert_cuda(cudaDeviceSetMemPool(0, mine), cudaSuccess);
    assert_args_contain("cuDeviceSetMemPool", "dev=0");
    assert_cuda(cudaDeviceGetMemPool(&current, 0), cudaSuccess);
    assert_ptr_equal(current, mine);
    /* cudaMallocAsync now draws from it. */
    void *p = NULL;
    uint64_t used = 0;
    assert_cuda(cudaMallocAsync(&p, 512, 0), cudaSuccess);
    assert_cuda(cudaMemPoolGetAttribute(mine, cudaMemPoolAttrUsedMemCurrent, &used), cudaSuccess);
    assert_int_equal(used, 512);
    assert_cuda(cudaFreeAsync(p, 0), cudaSuccess);
    assert_cuda(cudaDeviceSetMemPool(0, def), cudaSuccess);
    assert_cuda(cudaMemPoolDestroy(mine), cudaSuccess);
    assert_cuda(cudaDeviceSetMemPool(0, NULL), cudaErrorInvalidValue);
}

static void explicit_pool_create_allocate_trim_destroy(void **state)
{
    (void)state;
    cudaMemPool_t pool = NULL;
    struct cudaMemPoolProps props = device_pool_props(0);
    assert_cuda(cudaMemPoolCreate(&pool, &props), cudaSuccess);
    assert_args_contain("cuMemPoolCreate", "allocType=1 locationType=1 id=0");
    void *a = NULL, *b = NULL;
    assert_cuda(cudaMallocFromPoolAsync(&a, 100, pool, 0), cudaSuccess);
    assert_cuda(cudaMallocFromPoolAsync(&b, 200, pool, 0), cudaSuccess);
    uint64_t used = 0, high = 0;
    assert_cuda(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used), cudaSuccess);
    assert_int_equal(used, 300);
    assert_cuda(cudaFreeAsync(a, 0), cudaSuccess);
    assert_cuda(cudaFreeAsync(b, 0), cudaSuccess);
    assert_cuda(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &high), cudaSuccess);
    assert_int_equal(high, 300);
    high = 0;
    assert_cuda(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &high), cudaSuccess);
    assert_cuda(cudaMemPoolTrimTo(pool, 0), cudaSuccess);
    assert_args_contain("cuMemPoolTrimTo", "minBytesToKeep=0");
    fk.fake_fail_call("cuMemPoolTrimTo", 1, 999);
    assert_cuda(cudaMemPoolTrimTo(pool, 10), cudaErrorUnknown);
    assert_cuda(cudaMemPoolDestroy(pool), cudaSuccess);
    /* The default pool cannot be destroyed. */
    cudaMemPool_t def = NULL;
    assert_cuda(cudaDeviceGetDefaultMemPool(&def, 0), cudaSuccess);
    assert_cuda(cudaMemPoolDestroy(def), cudaErrorInvalidValue);
}

static void pool_create_with_bad_properties_returns_invalid_value(void **state)
{
    (void)state;
    cudaMemPool_t pool = NULL;
    struct cudaMemPoolProps props = device_pool_props(0);
    assert_cuda(cudaMemPoolCreate(NULL, &props), cudaErrorInvalidValue);
    assert_cuda(cudaMemPoolCreate(&pool, NULL), cudaErrorInvalidValue);
    props.allocType = cudaMemAllocationTypeInvalid;
    assert_cuda(cudaMemPoolCreate(&pool, &props), cudaErrorInvalidValue);
    props = device_pool_props(42);
    assert_cuda(cudaMemPoolCreate(&pool, &props), cudaErrorInvalidDevice);
}

static void pool_access_set_and_get(void **state)
{
    (void)state;
    cudaMemPool_t pool = NULL;
    assert_cuda(cudaDeviceGetDefaultMemPool(&pool, 0), cudaSuccess);
    struct cudaMemAccessDesc desc = { .location = { cudaMemLocationTypeDevice, 0 },
                                      .flags = cudaMemAccessFlagsProtReadWrite };
    assert_cuda(cudaMemPoolSetAccess(pool, &desc, 1), cudaSuccess);
    assert_args_contain("cuMemPoolSetAccess", "count=1 first=(1,0,3)");
    enum cudaMemAccessFlags flags = cudaMemAccessFlagsProtNone;
    struct cudaMemLocation where = { cudaMemLocationTypeDevice, 0 };
    assert_cuda(cudaMemPoolGetAccess(&flags, pool, &where), cudaSuccess);
    assert_int_equal(flags, cudaMemAccessFlagsProtReadWrite);
    assert_args_contain("cuMemPoolGetAccess", "locationType=1 id=0");
    assert_cuda(cudaMemPoolGetAccess(NULL, pool, &where), cudaErrorInvalidValue);
    assert_cuda(cudaMemPoolGetAccess(&flags, pool, NULL), cudaErrorInvalidValue);
    assert_cuda(cudaMemPoolSetAccess(pool, NULL, 1), cudaErrorInvalidValue);
    where.id = 9;
    assert_cuda(cudaMemPoolGetAccess(&flags, pool, &where), cudaErrorInvalidValue);
    desc.location.id = 9;
    assert_cuda(cudaMemPoolSetAccess(pool, &desc, 1), cudaErrorInvalidValue);
}

static void pool_bogus_handle_returns_invalid_resource_handle(void **state)
{
    (void)state;
    int bogus = 0;
    cudaMemPool_t pool = (cudaMemPool_t)&bogus;
    uint64_t value = 0;
    void *p = NULL;
    assert_cuda(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &value),
                cudaErrorInvalidResourceHandle);
    assert_cuda(cudaMemPoolTrimTo(pool, 0), cudaErrorInvalidResourceHandle);
    assert_cuda(cudaMemPoolDestroy(pool), cudaErrorInvalidResourceHandle);
    assert_cuda(cudaMallocFromPoolAsync(&p, 16, pool, 0), cudaErrorInvalidResourceHandle);
    assert_cuda(cudaMemPoolDestroy(NULL), cudaErrorInvalidValue);
}

/* ---- pools by location and allocation type (CUDA 13.0) ------------------------------------- */

static void location_default_pool_is_the_device_default_pool(void **state)
{
    (void)state;
    cudaMemPool_t by_device = NULL, by_location = NULL, current = NULL;
    assert_cuda(cudaDeviceGetDefaultMemPool(&by_device, 0), cudaSuccess);
    struct cudaMemLocation dev0 = {cudaMemLocationTypeDevice, 0};
    assert_cuda(cudaMemGetDefaultMemPool(&by_location, &dev0, cudaMemAllocationTypePinned),
                cudaSuccess);
    assert_args_contain("cuMemGetDefaultMemPool", "location=1:0 type=1");
    assert_ptr_equal(by_location, by_device);
    assert_cuda(cudaMemGetMemPool(&current, &dev0, cudaMemAllocationTypePinned), cudaSuccess);
    assert_args_contain("cuMemGetMemPool", "location=1:0 type=1");
    assert_ptr_equal(current, by_device);
}

static void location_mem_pool_set_and_get(void **state)
{
    (void)state;
    struct cudaMemPoolProps props = device_pool_props(0);
    cudaMemPool_t pool = NULL, got = NULL, by_device = NULL, def = NULL;
    assert_cuda(cudaMemPoolCreate(&pool, &props), cudaSuccess);
    struct cudaMemLocation dev0 = {cudaMemLocationTypeDevice, 0};
    assert_cuda(cudaMemSetMemPool(&dev0, cudaMemAllocationTypePinned, pool), cudaSuccess);
    assert_args_contain("cuMemSetMemPool", "location=1:0 type=1");
    assert_cuda(cudaMemGetMemPool(&got, &dev0, cudaMemAllocationTypePinned), cudaSuccess);
    assert_ptr_equal(got, pool);
    /* The same setting as cudaDeviceSetMemPool: the device's current pool. */
    assert_cuda(cudaDeviceGetMemPool(&by_device, 0), cudaSuccess);
    assert_ptr_equal(by_device, pool);
    /* The default pool stays what it was. */
    assert_cuda(cudaMemGetDefaultMemPool(&def, &dev0, cudaMemAllocationTypePinned), cudaSuccess);
    assert_ptr_not_equal(def, pool);
    assert_cuda(cudaMemSetMemPool(&dev0, cudaMemAllocationTypePinned, def), cudaSuccess);
    assert_cuda(cudaMemPoolDestroy(pool), cudaSuccess);
}

static void location_pool_error_paths(void **state)
{
    (void)state;
    cudaMemPool_t pool = (cudaMemPool_t)0x1;
    struct cudaMemLocation dev0 = {cudaMemLocationTypeDevice, 0};
    size_t before = fk.fake_count_calls("cuMemGetDefaultMemPool") +
                    fk.fake_count_calls("cuMemGetMemPool") + fk.fake_count_calls("cuMemSetMemPool");
    assert_cuda(cudaMemGetDefaultMemPool(NULL, &dev0, cudaMemAllocationTypePinned),
                cudaErrorInvalidValue);
    assert_cuda(cudaMemGetDefaultMemPool(&pool, NULL, cudaMemAllocationTypePinned),
                cudaErrorInvalidValue);
    assert_cuda(cudaMemGetMemPool(NULL, &dev0, cudaMemAllocationTypePinned),
                cudaErrorInvalidValue);
    assert_cuda(cudaMemGetMemPool(&pool, NULL, cudaMemAllocationTypePinned),
                cudaErrorInvalidValue);
    assert_cuda(cudaMemSetMemPool(NULL, cudaMemAllocationTypePinned, pool), cudaErrorInvalidValue);
    assert_int_equal(fk.fake_count_calls("cuMemGetDefaultMemPool") +
                     fk.fake_count_calls("cuMemGetMemPool") +
                     fk.fake_count_calls("cuMemSetMemPool"), before);
    /* Location and type are the driver's to judge: a bad device, a bad location type, a bad
     * allocation type, combinations the fake has no pool for. */
    struct cudaMemLocation dev7 = {cudaMemLocationTypeDevice, 7};
    struct cudaMemLocation none = {cudaMemLocationTypeNone, 0};
    struct cudaMemLocation bogus = {(enum cudaMemLocationType)77, 0};
    struct cudaMemLocation host = {cudaMemLocationTypeHost, 0};
    assert_cuda(cudaMemGetDefaultMemPool(&pool, &dev7, cudaMemAllocationTypePinned),
                cudaErrorInvalidDevice);
    assert_args_contain("cuMemGetDefaultMemPool", "location=1:7 type=1");
    assert_cuda(cudaMemGetMemPool(&pool, &dev7, cudaMemAllocationTypePinned),
                cudaErrorInvalidValue);
    assert_cuda(cudaMemGetDefaultMemPool(&pool, &none, cudaMemAllocationTypePinned),
                cudaErrorInvalidValue);
    assert_cuda(cudaMemGetMemPool(&pool, &bogus, cudaMemAllocationTypePinned),
                cudaErrorInvalidValue);
    assert_cuda(cudaMemGetDefaultMemPool(&pool, &dev0, (enum cudaMemAllocationType)5),
                cudaErrorInvalidValue);
    assert_cuda(cudaMemGetDefaultMemPool(&pool, &host, cudaMemAllocationTypePinned),
                cudaErrorNotSupported);
    assert_cuda(cudaMemGetMemPool(&pool, &none, cudaMemAllocationTypeManaged),
                cudaErrorNotSupported);
    assert_ptr_equal(pool, (cudaMemPool_t)0x1);     /* untouched on failure */
    /* Setting a pool of another location, or no pool. */
    cudaMemPool_t def = NULL;
    assert_cuda(cudaMemGetDefaultMemPool(&def, &dev0, cudaMemAllocationTypePinned), cudaSuccess);
    assert_cuda(cudaMemSetMemPool(&dev7, cudaMemAllocationTypePinned, def), cudaErrorInvalidValue);
    assert_cuda(cudaMemSetMemPool(&dev0, cudaMemAllocationTypePinned, NULL),
                cudaErrorInvalidValue);
    /* A driver failure is reported. */
    fk.fake_fail_call("cuMemGetMemPool", 1, 2 /* CUDA_ERROR_OUT_OF_MEMORY */);
    assert_cuda(cudaMemGetMemPool(&pool, &dev0, cudaMemAllocationTypePinned),
                cudaErrorMemoryAllocation);
}

/* Run with FAKECUDA_HIDE naming the three: an older driver without the 13.0 entry points. */
static void location_pools_without_driver_support_are_not_supported(void **state)
{
    (void)state;
    cudaMemPool_t pool = NULL;
    struct cudaMemLocation dev0 = {cudaMemLocationTypeDevice, 0};
    assert_cuda(cudaMemGetDefaultMemPool(&pool, &dev0, cudaMemAllocationTypePinned),
                cudaErrorNotSupported);
    assert_cuda(cudaMemGetMemPool(&pool, &dev0, cudaMemAllocationTypePinned),
                cudaErrorNotSupported);
    assert_cuda(cudaDeviceGetDefaultMemPool(&pool, 0), cudaSuccess);
    assert_cuda(cudaMemSetMemPool(&dev0, cudaMemAllocationTypePinned, pool),
                cudaErrorNotSupported);
    assert_cuda(cudaMemGetMemPool(NULL, &dev0, cudaMemAllocationTypePinned),
                cudaErrorInvalidValue);
}

#define TEST(name) { #name, name }

int main(int argc, char **argv)
{
    static const struct { const char *name; CMUnitTestFunction fn; } all[] = {
        TEST(malloc_async_allocates_and_free_async_releases),
        TEST(malloc_async_null_pointer_returns_invalid_value),
        TEST(malloc_async_driver_failure_is_reported),
        TEST(async_ptsz_variants_pass_the_per_thread_stream),
        TEST(default_pool_attributes_round_trip),
        TEST(default_pool_of_bad_device_returns_invalid_device),
        TEST(device_mem_pool_set_and_get),
        TEST(explicit_pool_create_allocate_trim_destroy),
        TEST(pool_create_with_bad_properties_returns_invalid_value),
        TEST(pool_access_set_and_get),
        TEST(pool_bogus_handle_returns_invalid_resource_handle),
        TEST(location_default_pool_is_the_device_default_pool),
        TEST(location_mem_pool_set_and_get),
        TEST(location_pool_error_paths),
        TEST(location_pools_without_driver_support_are_not_supported),
    };
    for (size_t i = 0; argc == 2 && i < sizeof all / sizeof *all; i++) {
        if (strcmp(argv[1], all[i].name) != 0)
            continue;
        const struct CMUnitTest tests[] = { { all[i].name, all[i].fn, NULL, NULL, NULL } };
        return cmocka_run_group_tests_name(all[i].name, tests, e2e_setup, NULL);
    }
    fprintf(stderr, "usage: %s TEST\n", argv[0]);
    return 2;
}
