/* test_array_props.c - cudaArrayGetPlane, the sparse property queries and the memory
 * requirements of mipmapped arrays (lib/memory/array_props.c) against the fake driver
 * (tests/fake/memory/fake_array_props.c): what reaches the driver, what comes back, and every error
 * path on both the returned code and the thread's last error.  argv[1] "without_driver_support"
 * runs the one test meant for a driver whose query entry points are hidden. */
#include "array_test.h"

static const struct cudaChannelFormatDesc desc_float = {32, 0, 0, 0, cudaChannelFormatKindFloat};
static const struct cudaChannelFormatDesc desc_nv12 = {8, 8, 8, 0, cudaChannelFormatKindNV12};

static void expect_info(cudaArray_t a, struct cudaChannelFormatDesc want, size_t w, size_t h)
{
    struct cudaChannelFormatDesc got;
    struct cudaExtent e;
    assert_cuda(cudaArrayGetInfo(&got, &e, NULL, a), cudaSuccess);
    assert_int_equal(got.x, want.x);
    assert_int_equal(got.y, want.y);
    assert_int_equal(got.z, want.z);
    assert_int_equal(got.w, want.w);
    assert_int_equal(got.f, want.f);
    assert_true(e.width == w && e.height == h && e.depth == 0);
}

/* ---- planes --------------------------------------------------------------------------------- */

static void nv12_planes_are_the_luma_and_the_half_size_chroma(void **state)
{
    (void)state;
    cudaArray_t a = NULL, luma = NULL, chroma = NULL;
    assert_cuda(cudaMallocArray(&a, &desc_nv12, 64, 32, 0), cudaSuccess);
    assert_last_call_has("cuArray3DCreate", "Format=0xb0 NumChannels=3");
    assert_cuda(cudaArrayGetPlane(&luma, a, 0), cudaSuccess);
    assert_last_call_has("cuArrayGetPlane", "plane=0");
    assert_cuda(cudaArrayGetPlane(&chroma, a, 1), cudaSuccess);
    assert_true(luma && chroma && luma != chroma && luma != a);
    expect_info(luma, (struct cudaChannelFormatDesc){8, 0, 0, 0, cudaChannelFormatKindUnsigned},
                64, 32);
    expect_info(chroma, (struct cudaChannelFormatDesc){8, 8, 0, 0, cudaChannelFormatKindUnsigned},
                32, 16);
    /* a plane is a view of its parent: a copy into the chroma lands after the luma bytes */
    unsigned char uv[4] = {1, 2, 3, 4};
    assert_cuda(cudaMemcpy2DToArray(chroma, 0, 0, uv, 4, 4, 1, cudaMemcpyHostToDevice),
                cudaSuccess);
    size_t bytes = 0;
    unsigned char *storage = array_storage(a, &bytes);
    assert_non_null(storage);
    assert_memory_equal(storage + 64 * 32, uv, 4);
    /* planes belong to the array: freeing one is refused, freeing the array takes both */
    assert_cuda(cudaFreeArray(luma), cudaErrorInvalidResourceHandle);
    assert_int_equal(live_arrays(), 1);
    assert_cuda(cudaFreeArray(a), cudaSuccess);
    assert_int_equal(live_arrays(), 0);
}

static void array_get_plane_errors(void **state)
{
    (void)state;
    cudaArray_t a = NULL, f = NULL, plane = NULL;
    assert_cuda(cudaMallocArray(&a, &desc_nv12, 16, 16, 0), cudaSuccess);
    assert_cuda(cudaMallocArray(&f, &desc_float, 16, 16, 0), cudaSuccess);
    fk.fake_reset_log();
    assert_cuda(cudaArrayGetPlane(NULL, a, 0), cudaErrorInvalidValue);
    assert_int_equal(fk.fake_count_calls("cuArrayGetPlane"), 0);
    assert_cuda(cudaArrayGetPlane(&plane, a, 2), cudaErrorInvalidValue);   /* past the last */
    assert_cuda(cudaArrayGetPlane(&plane, f, 0), cudaErrorInvalidValue);   /* not planar */
    assert_cuda(cudaArrayGetPlane(&plane, NULL, 0), cudaErrorInvalidResourceHandle);
    assert_cuda(cudaArrayGetPlane(&plane, (cudaArray_t)(uintptr_t)0x5678, 0),
                cudaErrorInvalidResourceHandle);
    assert_null(plane);
    cudaArray_t luma = NULL;
    assert_cuda(cudaArrayGetPlane(&luma, a, 0), cudaSuccess);
    assert_cuda(cudaArrayGetPlane(&plane, luma, 0), cudaErrorInvalidValue); /* a plane's plane */
    /* NV12 needs even sides */
    cudaArray_t odd = NULL;
    assert_cuda(cudaMallocArray(&odd, &desc_nv12, 15, 16, 0), cudaErrorInvalidValue);
    assert_cuda(cudaFreeArray(a), cudaSuccess);
    assert_cuda(cudaFreeArray(f), cudaSuccess);
}

/* ---- sparse layouts ------------------------------------------------------------------------- */

static void sparse_array_properties_come_from_the_driver(void **state)
{
    (void)state;
    cudaArray_t a = NULL, plain = NULL;
    assert_cuda(cudaMallocArray(&a, &desc_float, 512, 512, cudaArraySparse), cudaSuccess);
    assert_last_call_has("cuArray3DCreate", "Flags=0x40");
    struct cudaArraySparseProperties p;
    memset(&p, 0xff, sizeof p);
    assert_cuda(cudaArrayGetSparseProperties(&p, a), cudaSuccess);
    assert_int_equal(p.tileExtent.width, 128);      /* 64 KiB of 4-byte elements */
    assert_int_equal(p.tileExtent.height, 128);
    assert_int_equal(p.tileExtent.depth, 1);
    assert_int_equal(p.miptailFirstLevel, 0);
    assert_int_equal(p.miptailSize, 0);
    assert_int_equal(p.flags, 0);
    for (int i = 0; i < 4; i++)
        assert_int_equal(p.reserved[i], 0);         /* the runtime clears what it does not fill */

    fk.fake_reset_log();
    assert_cuda(cudaArrayGetSparseProperties(NULL, a), cudaErrorInvalidValue);
    assert_int_equal(fk.fake_count_calls("cuArrayGetSparseProperties"), 0);
    assert_cuda(cudaMallocArray(&plain, &desc_float, 64, 64, 0), cudaSuccess);
    assert_cuda(cudaArrayGetSparseProperties(&p, plain), cudaErrorInvalidValue);
    assert_cuda(cudaArrayGetSparseProperties(&p, (cudaArray_t)(uintptr_t)0x5678),
                cudaErrorInvalidResourceHandle);
    assert_cuda(cudaFreeArray(a), cudaSuccess);
    assert_cuda(cudaFreeArray(plain), cudaSuccess);
}

static void sparse_mipmapped_array_properties_give_the_mip_tail(void **state)
{
    (void)state;
    cudaMipmappedArray_t m = NULL;
    assert_cuda(cudaMallocMipmappedArray(&m, &desc_float, make_cudaExtent(1024, 1024, 0), 11,
                                         cudaArraySparse),
                cudaSuccess);
    struct cudaArraySparseProperties p;
    memset(&p, 0xff, sizeof p);
    assert_cuda(cudaMipmappedArrayGetSparseProperties(&p, m), cudaSuccess);
    assert_int_equal(p.tileExtent.width, 128);
    assert_int_equal(p.tileExtent.height, 128);
    /* levels 64x64 and below are smaller than a tile: 21,844 bytes, one tile */
    assert_int_equal(p.miptailFirstLevel, 4);
    assert_int_equal(p.miptailSize, 65536);
    assert_int_equal(p.flags, 0);
    /* a level is not asked on its own */
    cudaArray_t level = NULL;
    assert_cuda(cudaGetMipmappedArrayLevel(&level, m, 0), cudaSuccess);
    assert_cuda(cudaArrayGetSparseProperties(&p, level), cudaErrorInvalidValue);
    assert_cuda(cudaMipmappedArrayGetSparseProperties(NULL, m), cudaErrorInvalidValue);
    assert_cuda(cudaMipmappedArrayGetSparseProperties(&p, NULL),
                cudaErrorInvalidResourceHandle);
    cudaMipmappedArray_t plain = NULL;
    assert_cuda(cudaMallocMipmappedArray(&plain, &desc_float, make_cudaExtent(64, 64, 0), 2, 0),
                cudaSuccess);
    assert_cuda(cudaMipmappedArrayGetSparseProperties(&p, plain), cudaErrorInvalidValue);
    assert_cuda(cudaFreeMipmappedArray(m), cudaSuccess);
    assert_cuda(cudaFreeMipmappedArray(plain), cudaSuccess);
}

/* ---- memory requirements -------------------------------------------------------------------- */

static void mipmapped_memory_requirements_come_from_the_driver(void **state)
{
    (void)state;
    cudaMipmappedArray_t m = NULL;
    assert_cuda(cudaMallocMipmappedArray(&m, &desc_float, make_cudaExtent(256, 256, 0), 3,
                                         cudaArrayDeferredMapping),
                cudaSuccess);
    assert_last_call_has("cuMipmappedArrayCreate", "Flags=0x80 levels=3");
    struct cudaArrayMemoryRequirements r;
    memset(&r, 0xff, sizeof r);
    assert_cuda(cudaMipmappedArrayGetMemoryRequirements(&r, m, 0), cudaSuccess);
    assert_last_call_has("cuMipmappedArrayGetMemoryRequirements", "device=0");
    assert_int_equal(r.size, 262144 + 65536 + 65536);     /* each level in whole 64 KiB */
    assert_int_equal(r.alignment, 65536);
    for (int i = 0; i < 4; i++)
        assert_int_equal(r.reserved[i], 0);

    fk.fake_reset_log();
    assert_cuda(cudaMipmappedArrayGetMemoryRequirements(NULL, m, 0), cudaErrorInvalidValue);
    /* Not cudaErrorInvalidDevice: as cudaArrayGetMemoryRequirements answers (H200). */
    assert_cuda(cudaMipmappedArrayGetMemoryRequirements(&r, m, 7), cudaErrorInvalidValue);
    assert_cuda(cudaMipmappedArrayGetMemoryRequirements(&r, m, -1), cudaErrorInvalidValue);
    assert_int_equal(fk.fake_count_calls("cuMipmappedArrayGetMemoryRequirements"), 0);
    assert_cuda(cudaMipmappedArrayGetMemoryRequirements(&r, NULL, 0),
                cudaErrorInvalidResourceHandle);
    cudaMipmappedArray_t plain = NULL;
    assert_cuda(cudaMallocMipmappedArray(&plain, &desc_float, make_cudaExtent(64, 64, 0), 2, 0),
                cudaSuccess);
    assert_cuda(cudaMipmappedArrayGetMemoryRequirements(&r, plain, 0), cudaErrorInvalidValue);
    fk.fake_fail_call("cuMipmappedArrayGetMemoryRequirements", 1, CUDA_ERROR_NOT_SUPPORTED);
    assert_cuda(cudaMipmappedArrayGetMemoryRequirements(&r, m, 0), cudaErrorNotSupported);
    assert_cuda(cudaFreeMipmappedArray(m), cudaSuccess);
    assert_cuda(cudaFreeMipmappedArray(plain), cudaSuccess);
}

/* Run with FAKECUDA_HIDE naming the four query entry points. */
static void queries_without_driver_support_are_not_supported(void **state)
{
    (void)state;
    cudaArray_t a = NULL, plane = NULL;
    cudaMipmappedArray_t m = NULL;
    assert_cuda(cudaMallocArray(&a, &desc_nv12, 16, 16, 0), cudaSuccess);
    assert_cuda(cudaMallocMipmappedArray(&m, &desc_float, make_cudaExtent(64, 64, 0), 2,
                                         cudaArraySparse),
                cudaSuccess);
    struct cudaArraySparseProperties p;
    struct cudaArrayMemoryRequirements r;
    assert_cuda(cudaArrayGetPlane(&plane, a, 0), cudaErrorNotSupported);
    assert_null(plane);
    assert_cuda(cudaArrayGetSparseProperties(&p, a), cudaErrorNotSupported);
    assert_cuda(cudaMipmappedArrayGetSparseProperties(&p, m), cudaErrorNotSupported);
    assert_cuda(cudaMipmappedArrayGetMemoryRequirements(&r, m, 0), cudaErrorNotSupported);
    /* the rest of the area works */
    struct cudaExtent e;
    assert_cuda(cudaArrayGetInfo(NULL, &e, NULL, a), cudaSuccess);
    assert_cuda(cudaFreeArray(a), cudaSuccess);
    assert_cuda(cudaFreeMipmappedArray(m), cudaSuccess);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest all[] = {
        cmocka_unit_test(nv12_planes_are_the_luma_and_the_half_size_chroma),
        cmocka_unit_test(array_get_plane_errors),
        cmocka_unit_test(sparse_array_properties_come_from_the_driver),
        cmocka_unit_test(sparse_mipmapped_array_properties_give_the_mip_tail),
        cmocka_unit_test(mipmapped_memory_requirements_come_from_the_driver),
    };
    const struct CMUnitTest hidden[] = {
        cmocka_unit_test(queries_without_driver_support_are_not_supported),
    };
    if (argc > 1 && strcmp(argv[1], "without_driver_support") == 0)
        return cmocka_run_group_tests(hidden, array_test_setup, NULL);
    return cmocka_run_group_tests(all, array_test_setup, NULL);
}
