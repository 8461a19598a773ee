/* test_array.c - cudaMallocArray and friends, channel descriptors and copies to and from arrays:
 * what reaches the driver (the fake's call log), what comes back, and every error path asserted
 * on both the returned code and the thread's last error. */
#include "array_test.h"

/* Declared by lib/memory/array.h for the runtime; the toolkit shows them only to per-thread builds. */
cudaError_t cudaMemcpy2DToArray_ptds(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                     const void *src, size_t spitch, size_t width, size_t height,
                                     enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyFromArray_ptds(void *dst, cudaArray_const_t src, size_t wOffset,
                                     size_t hOffset, size_t count, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                          const void *src, size_t spitch, size_t width,
                                          size_t height, enum cudaMemcpyKind kind,
                                          cudaStream_t stream);
cudaError_t cudaMemcpyFromArrayAsync_ptsz(void *dst, cudaArray_const_t src, size_t wOffset,
                                          size_t hOffset, size_t count, enum cudaMemcpyKind kind,
                                          cudaStream_t stream);
cudaError_t cudaMemcpyToArray_ptds(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                   const void *src, size_t count, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DFromArray_ptds(void *dst, size_t dpitch, cudaArray_const_t src,
                                       size_t wOffset, size_t hOffset, size_t width,
                                       size_t height, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyArrayToArray_ptds(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                        cudaArray_const_t src, size_t wOffsetSrc,
                                        size_t hOffsetSrc, size_t count, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DArrayToArray_ptds(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                          cudaArray_const_t src, size_t wOffsetSrc,
                                          size_t hOffsetSrc, size_t width, size_t height,
                                          enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                        const void *src, size_t count, enum cudaMemcpyKind kind,
                                        cudaStream_t stream);
cudaError_t cudaMemcpy2DFromArrayAsync_ptsz(void *dst, size_t dpitch, cudaArray_const_t src,
                                            size_t wOffset, size_t hOffset, size_t width,
                                            size_t height, enum cudaMemcpyKind kind,
                                            cudaStream_t stream);

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"   /* the legacy byte-count copies */

static const struct cudaChannelFormatDesc desc_float = {32, 0, 0, 0, cudaChannelFormatKindFloat};
static const struct cudaChannelFormatDesc desc_uchar = {8, 0, 0, 0, cudaChannelFormatKindUnsigned};

/* ---- channel descriptors -------------------------------------------------------------------- */

static void create_channel_desc_returns_its_arguments(void **state)
{
    (void)state;
    struct cudaChannelFormatDesc d = cudaCreateChannelDesc(8, 16, 24, 32,
                                                           cudaChannelFormatKindSigned);
    assert_int_equal(d.x, 8);
    assert_int_equal(d.y, 16);
    assert_int_equal(d.z, 24);
    assert_int_equal(d.w, 32);
    assert_int_equal(d.f, cudaChannelFormatKindSigned);
}

/* Creates a 2D array of `desc`, checks the format the driver got, and reads the descriptor back
 * through cudaGetChannelDesc. */
static void check_format_round_trip(struct cudaChannelFormatDesc desc, const char *driver_format,
                                    struct cudaChannelFormatDesc expect_back)
{
    cudaArray_t a = NULL;
    assert_cuda(cudaMallocArray(&a, &desc, 8, 4, 0), cudaSuccess);
    assert_last_call_has("cuArray3DCreate", driver_format);
    struct cudaChannelFormatDesc back;
    memset(&back, 0xff, sizeof back);
    assert_cuda(cudaGetChannelDesc(&back, a), cudaSuccess);
    assert_int_equal(back.x, expect_back.x);
    assert_int_equal(back.y, expect_back.y);
    assert_int_equal(back.z, expect_back.z);
    assert_int_equal(back.w, expect_back.w);
    assert_int_equal(back.f, expect_back.f);
    assert_cuda(cudaFreeArray(a), cudaSuccess);
}

static void channel_descriptors_become_driver_formats_and_back(void **state)
{
    (void)state;
    struct cudaChannelFormatDesc f = desc_float;
    check_format_round_trip(f, "Format=0x20 NumChannels=1", f);
    f = (struct cudaChannelFormatDesc){8, 8, 8, 8, cudaChannelFormatKindUnsigned};
    check_format_round_trip(f, "Format=0x1 NumChannels=4", f);
    f = (struct cudaChannelFormatDesc){16, 16, 0, 0, cudaChannelFormatKindFloat};
    check_format_round_trip(f, "Format=0x10 NumChannels=2", f);
    f = (struct cudaChannelFormatDesc){32, 32, 32, 32, cudaChannelFormatKindSigned};
    check_format_round_trip(f, "Format=0xa NumChannels=4", f);
    f = (struct cudaChannelFormatDesc){16, 0, 0, 0, cudaChannelFormatKindUnsigned};
    check_format_round_trip(f, "Format=0x2 NumChannels=1", f);
    /* normalized kinds name their format; the sizes come back as the templates make them */
    struct cudaChannelFormatDesc unorm = {0, 0, 0, 0, cudaChannelFormatKindUnsignedNormalized8X4};
    check_format_round_trip(unorm, "Format=0xc2 NumChannels=4",
                            (struct cudaChannelFormatDesc){8, 8, 8, 8,
                                cudaChannelFormatKindUnsignedNormalized8X4});
    struct cudaChannelFormatDesc snorm = {16, 16, 0, 0, cudaChannelFormatKindSignedNormalized16X2};
    check_format_round_trip(snorm, "Format=0xca NumChannels=2", snorm);
}

static void unrepresentable_channel_descriptors_are_invalid_channel_descriptor(void **state)
{
    (void)state;
    const struct cudaChannelFormatDesc bad[] = {
        {32, 32, 32, 0, cudaChannelFormatKindFloat},     /* three channels */
        {8, 16, 0, 0, cudaChannelFormatKindUnsigned},    /* unequal sizes */
        {0, 8, 0, 0, cudaChannelFormatKindUnsigned},     /* a gap */
        {64, 0, 0, 0, cudaChannelFormatKindFloat},       /* no such size */
        {8, 0, 0, 0, cudaChannelFormatKindFloat},
        {32, 0, 0, 0, cudaChannelFormatKindNone},
    };
    fk.fake_reset_log();
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cudaArray_t a = NULL;
        assert_cuda(cudaMallocArray(&a, &bad[i], 8, 8, 0), cudaErrorInvalidChannelDescriptor);
        assert_null(a);
    }
    assert_int_equal(fk.fake_count_calls("cuArray3DCreate"), 0);
}

/* ---- creation ------------------------------------------------------------------------------- */

static void malloc_array_sends_width_height_and_flags(void **state)
{
    (void)state;
    cudaArray_t a = NULL;
    assert_cuda(cudaMallocArray(&a, &desc_float, 16, 8, cudaArraySurfaceLoadStore), cudaSuccess);
    assert_non_null(a);
    assert_last_call_has("cuArray3DCreate", "Width=16 Height=8 Depth=0 Format=0x20 "
                                            "NumChannels=1 Flags=0x2");
    assert_int_equal(live_arrays(), 1);
    assert_cuda(cudaFreeArray(a), cudaSuccess);
    assert_int_equal(live_arrays(), 0);

    /* height 0 (the default) is a 1D array */
    assert_cuda(cudaMallocArray(&a, &desc_uchar, 100, 0, 0), cudaSuccess);
    assert_last_call_has("cuArray3DCreate", "Width=100 Height=0 Depth=0 Format=0x1");
    assert_cuda(cudaFreeArray(a), cudaSuccess);
}

static void malloc_3d_array_passes_layered_cubemap_and_gather_flags(void **state)
{
    (void)state;
    cudaArray_t a = NULL;
    assert_cuda(cudaMalloc3DArray(&a, &desc_float, make_cudaExtent(8, 8, 6), cudaArrayCubemap),
                cudaSuccess);
    assert_last_call_has("cuArray3DCreate", "Width=8 Height=8 Depth=6 Format=0x20 "
                                            "NumChannels=1 Flags=0x4");
    assert_cuda(cudaFreeArray(a), cudaSuccess);
    assert_cuda(cudaMalloc3DArray(&a, &desc_float, make_cudaExtent(4, 4, 3),
                                  cudaArrayLayered | cudaArraySurfaceLoadStore), cudaSuccess);
    assert_last_call_has("cuArray3DCreate", "Depth=3 Format=0x20 NumChannels=1 Flags=0x3");
    assert_cuda(cudaFreeArray(a), cudaSuccess);
    assert_cuda(cudaMalloc3DArray(&a, &desc_uchar, make_cudaExtent(4, 4, 0), cudaArrayTextureGather),
                cudaSuccess);
    assert_last_call_has("cuArray3DCreate", "Flags=0x8");
    assert_cuda(cudaFreeArray(a), cudaSuccess);
}

static void malloc_array_errors(void **state)
{
    (void)state;
    cudaArray_t a = NULL;
    assert_cuda(cudaMallocArray(NULL, &desc_float, 4, 4, 0), cudaErrorInvalidValue);
    assert_cuda(cudaMallocArray(&a, NULL, 4, 4, 0), cudaErrorInvalidValue);
    assert_cuda(cudaMalloc3DArray(NULL, &desc_float, make_cudaExtent(4, 4, 4), 0),
                cudaErrorInvalidValue);
    assert_cuda(cudaMalloc3DArray(&a, NULL, make_cudaExtent(4, 4, 4), 0), cudaErrorInvalidValue);
    /* what the driver refuses: zero width, a cubemap that is not square */
    assert_cuda(cudaMallocArray(&a, &desc_float, 0, 4, 0), cudaErrorInvalidValue);
    assert_cuda(cudaMalloc3DArray(&a, &desc_float, make_cudaExtent(8, 4, 6), cudaArrayCubemap),
                cudaErrorInvalidValue);
    assert_null(a);
    fk.fake_fail_call("cuArray3DCreate", 1, CUDA_ERROR_OUT_OF_MEMORY);
    assert_cuda(cudaMallocArray(&a, &desc_float, 4, 4, 0), cudaErrorMemoryAllocation);
    assert_null(a);
    assert_int_equal(live_arrays(), 0);
}

static void free_array_of_null_succeeds_and_of_a_bogus_handle_fails(void **state)
{
    (void)state;
    fk.fake_reset_log();
    assert_cuda(cudaFreeArray(NULL), cudaSuccess);
    assert_cuda(cudaFreeMipmappedArray(NULL), cudaSuccess);
    assert_int_equal(fk.fake_count_calls("cuArrayDestroy"), 0);
    int not_an_array = 0;
    assert_cuda(cudaFreeArray((cudaArray_t)&not_an_array), cudaErrorInvalidResourceHandle);
    assert_cuda(cudaFreeMipmappedArray((cudaMipmappedArray_t)&not_an_array),
                cudaErrorInvalidResourceHandle);
}

/* ---- what an array is ----------------------------------------------------------------------- */

static void array_get_info_reports_desc_extent_and_flags(void **state)
{
    (void)state;
    const struct cudaChannelFormatDesc int2 = {32, 32, 0, 0, cudaChannelFormatKindSigned};
    cudaArray_t a = NULL;
    assert_cuda(cudaMalloc3DArray(&a, &int2, make_cudaExtent(5, 6, 7), cudaArraySurfaceLoadStore),
                cudaSuccess);
    struct cudaChannelFormatDesc d;
    struct cudaExtent e;
    unsigned flags = 0;
    assert_cuda(cudaArrayGetInfo(&d, &e, &flags, a), cudaSuccess);
    assert_true(d.x == 32 && d.y == 32 && d.z == 0 && d.w == 0);
    assert_int_equal(d.f, cudaChannelFormatKindSigned);
    assert_true(e.width == 5 && e.height == 6 && e.depth == 7);
    assert_int_equal(flags, cudaArraySurfaceLoadStore);
    /* any output may be left out */
    assert_cuda(cudaArrayGetInfo(NULL, &e, NULL, a), cudaSuccess);
    assert_cuda(cudaFreeArray(a), cudaSuccess);

    int not_an_array = 0;
    assert_cuda(cudaArrayGetInfo(&d, &e, &flags, (cudaArray_t)&not_an_array),
                cudaErrorInvalidResourceHandle);
    assert_cuda(cudaGetChannelDesc(NULL, a), cudaErrorInvalidValue);
}

static void array_memory_requirements_come_from_the_driver(void **state)
{
    (void)state;
    cudaArray_t a = NULL;
    assert_cuda(cudaMallocArray(&a, &desc_float, 64, 64, 0), cudaSuccess);
    struct cudaArrayMemoryRequirements r;
    memset(&r, 0xff, sizeof r);
    assert_cuda(cudaArrayGetMemoryRequirements(&r, a, 0), cudaSuccess);
    assert_int_equal(r.alignment, 65536);
    assert_int_equal(r.size, 65536);
    assert_last_call_has("cuArrayGetMemoryRequirements", "device=0");
    assert_cuda(cudaArrayGetMemoryRequirements(NULL, a, 0), cudaErrorInvalidValue);
    /* Not cudaErrorInvalidDevice: NVIDIA's answer for a bad ordinal here (H200). */
    assert_cuda(cudaArrayGetMemoryRequirements(&r, a, 7), cudaErrorInvalidValue);
    assert_cuda(cudaFreeArray(a), cudaSuccess);
}

/* ---- mipmapped arrays ----------------------------------------------------------------------- */

static void mipmapped_array_levels_halve_each_dimension(void **state)
{
    (void)state;
    cudaMipmappedArray_t m = NULL;
    assert_cuda(cudaMallocMipmappedArray(&m, &desc_float, make_cudaExtent(16, 8, 0), 4, 0),
                cudaSuccess);
    assert_last_call_has("cuMipmappedArrayCreate", "Width=16 Height=8 Depth=0 Format=0x20 "
                                                   "NumChannels=1 Flags=0x0 levels=4");
    cudaArray_t level = NULL;
    assert_cuda(cudaGetMipmappedArrayLevel(&level, m, 2), cudaSuccess);
    struct cudaExtent e;
    assert_cuda(cudaArrayGetInfo(NULL, &e, NULL, level), cudaSuccess);
    assert_true(e.width == 4 && e.height == 2 && e.depth == 0);
    assert_cuda(cudaGetMipmappedArrayLevel(&level, m, 4), cudaErrorInvalidValue);
    assert_cuda(cudaGetMipmappedArrayLevel(NULL, m, 0), cudaErrorInvalidValue);
    assert_int_equal(live_mipmaps(), 1);
    assert_cuda(cudaFreeMipmappedArray(m), cudaSuccess);
    assert_int_equal(live_mipmaps(), 0);

    assert_cuda(cudaMallocMipmappedArray(NULL, &desc_float, make_cudaExtent(16, 8, 0), 4, 0),
                cudaErrorInvalidValue);
    assert_cuda(cudaMallocMipmappedArray(&m, NULL, make_cudaExtent(16, 8, 0), 4, 0),
                cudaErrorInvalidValue);
    assert_cuda(cudaMallocMipmappedArray(&m, &desc_float, make_cudaExtent(16, 8, 0), 6, 0),
                cudaErrorInvalidValue);                /* 16 has 5 levels */
    fk.fake_fail_call("cuMipmappedArrayCreate", 1, CUDA_ERROR_OUT_OF_MEMORY);
    assert_cuda(cudaMallocMipmappedArray(&m, &desc_float, make_cudaExtent(16, 8, 0), 2, 0),
                cudaErrorMemoryAllocation);
}

/* ---- synchronous copies --------------------------------------------------------------------- */

static void copy_2d_to_array_and_back_keeps_rows_and_offsets(void **state)
{
    (void)state;
    cudaArray_t a = NULL;
    assert_cuda(cudaMallocArray(&a, &desc_float, 4, 3, 0), cudaSuccess);
    size_t bytes = 0;
    float *storage = (float *)array_storage(a, &bytes);
    assert_non_null(storage);
    assert_int_equal(bytes, 4 * 3 * sizeof(float));

    /* 2 x 2 floats from a host buffer of pitch 5 floats into column 1, row 1 */
    float src[10];
    for (int i = 0; i < 10; i++)
        src[i] = (float)(i + 1);
    assert_cuda(cudaMemcpy2DToArray(a, 1 * sizeof(float), 1, src, 5 * sizeof(float),
                                    2 * sizeof(float), 2, cudaMemcpyHostToDevice), cudaSuccess);
    assert_last_call_has("cuMemcpy2DUnaligned", "pitch=20 dst=3:");
    assert_last_call_has("cuMemcpy2DUnaligned", "src=1:");
    assert_last_call_has("cuMemcpy2DUnaligned", "width=8 height=2");
    assert_true(storage[5] == 1.0f && storage[6] == 2.0f);
    assert_true(storage[9] == 6.0f && storage[10] == 7.0f);
    assert_true(storage[4] == 0.0f && storage[7] == 0.0f);

    float back[6] = {0};
    assert_cuda(cudaMemcpy2DFromArray(back, 3 * sizeof(float), a, 1 * sizeof(float), 1,
                                      2 * sizeof(float), 2, cudaMemcpyDeviceToHost), cudaSuccess);
    assert_last_call_has("cuMemcpy2DUnaligned", "src=3:");
    assert_last_call_has("cuMemcpy2DUnaligned", "dst=1:");
    assert_true(back[0] == 1.0f && back[1] == 2.0f && back[3] == 6.0f && back[4] == 7.0f);

    /* device memory with DeviceToDevice and with Default (the driver's unified type) */
    float *dev = NULL;
    assert_cuda(cudaMalloc((void **)&dev, 12 * sizeof(float)), cudaSuccess);
    assert_cuda(cudaMemcpy2DFromArray(dev, 4 * sizeof(float), a, 0, 0, 4 * sizeof(float), 3,
                                      cudaMemcpyDeviceToDevice), cudaSuccess);
    assert_last_call_has("cuMemcpy2DUnaligned", "dst=2:");
    assert_true(dev[5] == 1.0f && dev[10] == 7.0f);
    assert_cuda(cudaMemcpy2DToArray(a, 0, 0, dev, 4 * sizeof(float), 4 * sizeof(float), 3,
                                    cudaMemcpyDefault), cudaSuccess);
    assert_last_call_has("cuMemcpy2DUnaligned", "src=4:");
    assert_cuda(cudaFree(dev), cudaSuccess);

    /* the _ptds form copies the same way */
    const float one[2] = {42.0f, 43.0f};
    assert_cuda(cudaMemcpy2DToArray_ptds(a, 0, 2, one, sizeof one, sizeof one, 1,
                                         cudaMemcpyHostToDevice), cudaSuccess);
    assert_true(storage[8] == 42.0f && storage[9] == 43.0f);
    assert_cuda(cudaFreeArray(a), cudaSuccess);
}

static void copy_2d_array_errors(void **state)
{
    (void)state;
    cudaArray_t a = NULL;
    assert_cuda(cudaMallocArray(&a, &desc_uchar, 8, 8, 0), cudaSuccess);
    unsigned char host[64] = {0};
    assert_cuda(cudaMemcpy2DToArray(a, 0, 0, host, 8, 8, 8, cudaMemcpyDeviceToHost),
                cudaErrorInvalidMemcpyDirection);
    assert_cuda(cudaMemcpy2DFromArray(host, 8, a, 0, 0, 8, 8, cudaMemcpyHostToDevice),
                cudaErrorInvalidMemcpyDirection);
    /* A value that is no kind copies as cudaMemcpyDefault, as with NVIDIA's runtime (H200). */
    assert_cuda(cudaMemcpy2DToArray(a, 0, 0, host, 8, 8, 8, (enum cudaMemcpyKind)9),
                cudaSuccess);
    assert_cuda(cudaMemcpy2DToArray(a, 0, 0, host, 8, 8, 8, cudaMemcpyHostToHost),
                cudaErrorInvalidMemcpyDirection);
    assert_cuda(cudaMemcpy2DToArray(a, 0, 0, host, 4, 8, 8, cudaMemcpyHostToDevice),
                cudaErrorInvalidPitchValue);
    assert_cuda(cudaMemcpy2DToArray(NULL, 0, 0, host, 8, 8, 8, cudaMemcpyHostToDevice),
                cudaErrorInvalidResourceHandle);
    assert_cuda(cudaMemcpy2DToArray(a, 0, 0, NULL, 8, 8, 8, cudaMemcpyHostToDevice),
                cudaErrorInvalidValue);
    /* past the array's edge: the driver refuses */
    assert_cuda(cudaMemcpy2DToArray(a, 4, 0, host, 8, 8, 8, cudaMemcpyHostToDevice),
                cudaErrorInvalidValue);
    /* nothing to copy */
    fk.fake_reset_log();
    assert_cuda(cudaMemcpy2DToArray(a, 0, 0, host, 8, 0, 8, cudaMemcpyHostToDevice), cudaSuccess);
    assert_int_equal(fk.fake_count_calls("cuMemcpy2DUnaligned"), 0);
    assert_cuda(cudaFreeArray(a), cudaSuccess);
}

static void copy_2d_array_driver_failure_is_reported(void **state)
{
    (void)state;
    cudaArray_t a = NULL;
    assert_cuda(cudaMallocArray(&a, &desc_uchar, 8, 8, 0), cudaSuccess);
    unsigned char host[64] = {0};
    fk.fake_fail_call("cuMemcpy2DUnaligned", 1, CUDA_ERROR_INVALID_VALUE);
    assert_cuda(cudaMemcpy2DToArray(a, 0, 0, host, 8, 8, 8, cudaMemcpyHostToDevice),
                cudaErrorInvalidValue);
    assert_cuda(cudaFreeArray(a), cudaSuccess);
}

static void memcpy_to_array_copies_a_run_of_bytes_row_after_row(void **state)
{
    (void)state;
    cudaArray_t a = NULL;
    assert_cuda(cudaMallocArray(&a, &desc_uchar, 4, 4, 0), cudaSuccess);
    unsigned char *storage = array_storage(a, NULL);
    unsigned char src[11];
    for (int i = 0; i < 11; i++)
        src[i] = (unsigned char)(100 + i);
    /* from column 2 of row 0: 2 bytes, two whole rows, then 1 byte: three driver copies */
    fk.fake_reset_log();
    assert_cuda(cudaMemcpyToArray(a, 2, 0, src, sizeof src, cudaMemcpyHostToDevice), cudaSuccess);
    assert_int_equal(fk.fake_count_calls("cuMemcpy2DUnaligned"), 3);
    assert_int_equal(storage[0], 0);
    assert_int_equal(storage[1], 0);
    for (int i = 0; i < 11; i++)
        assert_int_equal(storage[2 + i], 100 + i);
    assert_int_equal(storage[13], 0);

    unsigned char back[11] = {0};
    assert_cuda(cudaMemcpyFromArray(back, a, 2, 0, sizeof back, cudaMemcpyDeviceToHost),
                cudaSuccess);
    assert_memory_equal(back, src, sizeof src);
    memset(back, 0, sizeof back);
    assert_cuda(cudaMemcpyFromArray_ptds(back, a, 2, 0, sizeof back, cudaMemcpyDeviceToHost),
                cudaSuccess);
    assert_memory_equal(back, src, sizeof src);

    /* a run that does not fit, an offset past the rows */
    assert_cuda(cudaMemcpyToArray(a, 2, 3, src, 3, cudaMemcpyHostToDevice),
                cudaErrorInvalidValue);
    assert_cuda(cudaMemcpyToArray(a, 0, 4, src, 1, cudaMemcpyHostToDevice),
                cudaErrorInvalidValue);
    assert_cuda(cudaMemcpyToArray(NULL, 0, 0, src, 1, cudaMemcpyHostToDevice),
                cudaErrorInvalidResourceHandle);
    assert_cuda(cudaMemcpyToArray(a, 0, 0, NULL, 1, cudaMemcpyHostToDevice),
                cudaErrorInvalidValue);
    assert_cuda(cudaMemcpyFromArray(back, a, 0, 0, 1, cudaMemcpyHostToDevice),
                cudaErrorInvalidMemcpyDirection);
    assert_cuda(cudaFreeArray(a), cudaSuccess);
}

static void array_to_array_copies_follow_both_row_lengths(void **state)
{
    (void)state;
    cudaArray_t small = NULL, wide = NULL;
    assert_cuda(cudaMallocArray(&small, &desc_uchar, 3, 4, 0), cudaSuccess);
    assert_cuda(cudaMallocArray(&wide, &desc_uchar, 5, 4, 0), cudaSuccess);
    unsigned char *s = array_storage(small, NULL), *w = array_storage(wide, NULL);
    for (int i = 0; i < 12; i++)
        s[i] = (unsigned char)(i + 1);
    /* 9 bytes from (0,0) of the 3-wide array to (1,0) of the 5-wide one */
    assert_cuda(cudaMemcpyArrayToArray(wide, 1, 0, small, 0, 0, 9, cudaMemcpyDeviceToDevice),
                cudaSuccess);
    for (int i = 0; i < 9; i++)
        assert_int_equal(w[1 + i], i + 1);
    assert_int_equal(w[0], 0);
    assert_int_equal(w[10], 0);

    /* 2 x 2 block from (1,1) to (3,2) */
    memset(w, 0, 20);
    assert_cuda(cudaMemcpy2DArrayToArray(wide, 3, 2, small, 1, 1, 2, 2, cudaMemcpyDeviceToDevice),
                cudaSuccess);
    assert_last_call_has("cuMemcpy2DUnaligned", "src=3:");
    assert_last_call_has("cuMemcpy2DUnaligned", "dst=3:");
    assert_true(w[13] == s[4] && w[14] == s[5] && w[18] == s[7] && w[19] == s[8]);

    assert_cuda(cudaMemcpy2DArrayToArray(wide, 0, 0, small, 0, 0, 1, 1, cudaMemcpyHostToDevice),
                cudaErrorInvalidMemcpyDirection);
    assert_cuda(cudaMemcpyArrayToArray(wide, 0, 0, small, 0, 0, 13, cudaMemcpyDeviceToDevice),
                cudaErrorInvalidValue);
    /* NVIDIA's answers (H200): no destination is an invalid value, no source a bad handle. */
    assert_cuda(cudaMemcpy2DArrayToArray(NULL, 0, 0, small, 0, 0, 1, 1, cudaMemcpyDefault),
                cudaErrorInvalidValue);
    assert_cuda(cudaMemcpy2DArrayToArray(wide, 0, 0, NULL, 0, 0, 1, 1, cudaMemcpyDefault),
                cudaErrorInvalidResourceHandle);
    assert_cuda(cudaFreeArray(small), cudaSuccess);
    assert_cuda(cudaFreeArray(wide), cudaSuccess);
}

/* ---- asynchronous copies -------------------------------------------------------------------- */

static void async_copies_pass_the_stream_and_ptsz_means_the_per_thread_stream(void **state)
{
    (void)state;
    cudaArray_t a = NULL;
    assert_cuda(cudaMallocArray(&a, &desc_uchar, 8, 2, 0), cudaSuccess);
    unsigned char *storage = array_storage(a, NULL);
    unsigned char src[16], back[16] = {0};
    for (int i = 0; i < 16; i++)
        src[i] = (unsigned char)(200 + i);

    assert_cuda(cudaMemcpy2DToArrayAsync(a, 0, 0, src, 8, 8, 2, cudaMemcpyHostToDevice,
                                         cudaStreamLegacy), cudaSuccess);
    assert_last_call_has("cuMemcpy2DAsync", "stream=0x1");
    for (int i = 0; i < 16; i++)
        assert_int_equal(storage[i], 200 + i);
    assert_cuda(cudaMemcpy2DFromArrayAsync(back, 8, a, 0, 0, 8, 2, cudaMemcpyDeviceToHost, 0),
                cudaSuccess);
    assert_last_call_has("cuMemcpy2DAsync", "stream=(nil)");
    assert_memory_equal(back, src, 16);

    assert_cuda(cudaMemcpy2DToArrayAsync_ptsz(a, 0, 0, src, 8, 8, 1, cudaMemcpyHostToDevice, 0),
                cudaSuccess);
    assert_last_call_has("cuMemcpy2DAsync", "stream=0x2");
    memset(back, 0, sizeof back);
    assert_cuda(cudaMemcpyFromArrayAsync_ptsz(back, a, 3, 0, 10, cudaMemcpyDeviceToHost, 0),
                cudaSuccess);
    assert_last_call_has("cuMemcpy2DAsync", "stream=0x2");
    assert_memory_equal(back, src + 3, 10);

    memset(storage, 0, 16);
    assert_cuda(cudaMemcpyToArrayAsync(a, 0, 1, src, 8, cudaMemcpyHostToDevice, 0), cudaSuccess);
    for (int i = 0; i < 8; i++)
        assert_int_equal(storage[8 + i], 200 + i);
    assert_int_equal(storage[0], 0);
    assert_cuda(cudaMemcpyFromArrayAsync(back, a, 0, 1, 8, cudaMemcpyDeviceToHost, 0),
                cudaSuccess);
    assert_memory_equal(back, src, 8);

    assert_cuda(cudaMemcpy2DToArrayAsync(a, 0, 0, src, 8, 8, 2, cudaMemcpyDeviceToHost, 0),
                cudaErrorInvalidMemcpyDirection);
    fk.fake_fail_call("cuMemcpy2DAsync", 1, CUDA_ERROR_INVALID_HANDLE);
    assert_cuda(cudaMemcpy2DToArrayAsync(a, 0, 0, src, 8, 8, 2, cudaMemcpyHostToDevice, 0),
                cudaErrorInvalidResourceHandle);
    assert_cuda(cudaFreeArray(a), cudaSuccess);
}

static void remaining_per_thread_variants_copy_and_use_the_per_thread_stream(void **state)
{
    (void)state;
    cudaArray_t a = NULL, b = NULL;
    assert_cuda(cudaMallocArray(&a, &desc_uchar, 4, 2, 0), cudaSuccess);
    assert_cuda(cudaMallocArray(&b, &desc_uchar, 4, 2, 0), cudaSuccess);
    unsigned char *sa = array_storage(a, NULL), *sb = array_storage(b, NULL);
    const unsigned char src[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    unsigned char back[8] = {0};

    assert_cuda(cudaMemcpyToArray_ptds(a, 1, 0, src, 6, cudaMemcpyHostToDevice), cudaSuccess);
    assert_memory_equal(sa + 1, src, 6);
    assert_cuda(cudaMemcpyArrayToArray_ptds(b, 0, 0, a, 0, 0, 8, cudaMemcpyDeviceToDevice),
                cudaSuccess);
    assert_memory_equal(sb, sa, 8);
    memset(sb, 0, 8);
    assert_cuda(cudaMemcpy2DArrayToArray_ptds(b, 2, 1, a, 1, 0, 2, 1, cudaMemcpyDefault),
                cudaSuccess);
    assert_true(sb[6] == 1 && sb[7] == 2 && sb[5] == 0);
    assert_cuda(cudaMemcpy2DFromArray_ptds(back, 4, a, 0, 0, 4, 2, cudaMemcpyDeviceToHost),
                cudaSuccess);
    assert_memory_equal(back, sa, 8);

    assert_cuda(cudaMemcpyToArrayAsync_ptsz(a, 0, 1, src, 4, cudaMemcpyHostToDevice, 0),
                cudaSuccess);
    assert_last_call_has("cuMemcpy2DAsync", "stream=0x2");
    assert_memory_equal(sa + 4, src, 4);
    memset(back, 0, sizeof back);
    assert_cuda(cudaMemcpy2DFromArrayAsync_ptsz(back, 2, a, 2, 1, 2, 1, cudaMemcpyDeviceToHost,
                                                cudaStreamLegacy), cudaSuccess);
    assert_last_call_has("cuMemcpy2DAsync", "stream=0x1");     /* an explicit stream stays */
    assert_true(back[0] == 3 && back[1] == 4);
    assert_cuda(cudaFreeArray(a), cudaSuccess);
    assert_cuda(cudaFreeArray(b), cudaSuccess);
}

static void byte_count_copies_report_a_failed_descriptor_query(void **state)
{
    (void)state;
    cudaArray_t a = NULL;
    assert_cuda(cudaMallocArray(&a, &desc_uchar, 4, 4, 0), cudaSuccess);
    unsigned char buf[4] = {0};
    fk.fake_fail_call("cuArray3DGetDescriptor", 1, CUDA_ERROR_INVALID_CONTEXT);
    fk.fake_reset_log();
    assert_cuda(cudaMemcpyToArray(a, 0, 0, buf, 4, cudaMemcpyHostToDevice),
                cudaErrorDeviceUninitialized);
    assert_int_equal(fk.fake_count_calls("cuMemcpy2DUnaligned"), 0);
    assert_cuda(cudaFreeArray(a), cudaSuccess);
}

/* Last: it leaves the context broken, as a real illegal address would. */
static void sticky_error_from_an_array_copy_stays(void **state)
{
    (void)state;
    cudaArray_t a = NULL;
    assert_cuda(cudaMallocArray(&a, &desc_uchar, 4, 4, 0), cudaSuccess);
    unsigned char buf[16] = {0};
    fk.fake_fail_call("cuMemcpy2DUnaligned", 1, CUDA_ERROR_ILLEGAL_ADDRESS);
    assert_cuda(cudaMemcpy2DToArray(a, 0, 0, buf, 4, 4, 4, cudaMemcpyHostToDevice),
                cudaErrorIllegalAddress);
    cudaArray_t b = NULL;
    assert_cuda(cudaMallocArray(&b, &desc_uchar, 4, 4, 0), cudaErrorIllegalAddress);
    assert_null(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(create_channel_desc_returns_its_arguments),
        cmocka_unit_test(channel_descriptors_become_driver_formats_and_back),
        cmocka_unit_test(unrepresentable_channel_descriptors_are_invalid_channel_descriptor),
        cmocka_unit_test(malloc_array_sends_width_height_and_flags),
        cmocka_unit_test(malloc_3d_array_passes_layered_cubemap_and_gather_flags),
        cmocka_unit_test(malloc_array_errors),
        cmocka_unit_test(free_array_of_null_succeeds_and_of_a_bogus_handle_fails),
        cmocka_unit_test(array_get_info_reports_desc_extent_and_flags),
        cmocka_unit_test(array_memory_requirements_come_from_the_driver),
        cmocka_unit_test(mipmapped_array_levels_halve_each_dimension),
        cmocka_unit_test(copy_2d_to_array_and_back_keeps_rows_and_offsets),
        cmocka_unit_test(copy_2d_array_errors),
        cmocka_unit_test(copy_2d_array_driver_failure_is_reported),
        cmocka_unit_test(memcpy_to_array_copies_a_run_of_bytes_row_after_row),
        cmocka_unit_test(array_to_array_copies_follow_both_row_lengths),
        cmocka_unit_test(async_copies_pass_the_stream_and_ptsz_means_the_per_thread_stream),
        cmocka_unit_test(remaining_per_thread_variants_copy_and_use_the_per_thread_stream),
        cmocka_unit_test(byte_count_copies_report_a_failed_descriptor_query),
        cmocka_unit_test(sticky_error_from_an_array_copy_stays),
    };
    return cmocka_run_group_tests(tests, array_test_setup, NULL);
}
