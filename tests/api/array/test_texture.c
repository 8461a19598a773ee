/* test_texture.c - texture and surface objects: the descriptors the driver receives (the fake's
 * call log) and gives back (the Get*Desc round trips), and every error path asserted on both the
 * returned code and the thread's last error. */
#include "array_test.h"

static const struct cudaChannelFormatDesc desc_float = {32, 0, 0, 0, cudaChannelFormatKindFloat};

static cudaArray_t new_array(unsigned flags)
{
    cudaArray_t a = NULL;
    assert_cuda(cudaMallocArray(&a, &desc_float, 8, 8, flags), cudaSuccess);
    return a;
}

static struct cudaResourceDesc array_resource(cudaArray_t a)
{
    struct cudaResourceDesc r;
    memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypeArray;
    r.res.array.array = a;
    return r;
}

static void texture_from_array_translates_modes_and_flags(void **state)
{
    (void)state;
    cudaArray_t a = new_array(0);
    struct cudaResourceDesc res = array_resource(a);
    struct cudaTextureDesc tex;
    memset(&tex, 0, sizeof tex);
    tex.addressMode[0] = cudaAddressModeClamp;
    tex.addressMode[1] = cudaAddressModeWrap;
    tex.addressMode[2] = cudaAddressModeBorder;
    tex.filterMode = cudaFilterModeLinear;
    tex.readMode = cudaReadModeElementType;
    tex.normalizedCoords = 1;
    tex.maxAnisotropy = 4;
    tex.borderColor[2] = 0.5f;
    tex.mipmapLevelBias = 1.5f;
    cudaTextureObject_t t = 0;
    assert_cuda(cudaCreateTextureObject(&t, &res, &tex, NULL), cudaSuccess);
    assert_true(t != 0);
    assert_last_call_has("cuTexObjectCreate", "resType=0 address=1,0,3 filter=1 flags=0x3 "
                                              "maxAnisotropy=4 view=no");

    struct cudaTextureDesc back;
    memset(&back, 0xff, sizeof back);
    assert_cuda(cudaGetTextureObjectTextureDesc(&back, t), cudaSuccess);
    assert_memory_equal(&back, &tex, sizeof tex);
    struct cudaResourceDesc res_back;
    assert_cuda(cudaGetTextureObjectResourceDesc(&res_back, t), cudaSuccess);
    assert_int_equal(res_back.resType, cudaResourceTypeArray);
    assert_ptr_equal(res_back.res.array.array, a);
    struct cudaResourceViewDesc view;
    assert_cuda(cudaGetTextureObjectResourceViewDesc(&view, t), cudaErrorInvalidValue);
    assert_int_equal(live_objects(), 1);
    assert_cuda(cudaDestroyTextureObject(t), cudaSuccess);
    assert_int_equal(live_objects(), 0);

    /* normalized-float reads: no READ_AS_INTEGER; the other flags one by one */
    tex.readMode = cudaReadModeNormalizedFloat;
    tex.normalizedCoords = 0;
    tex.sRGB = 1;
    tex.disableTrilinearOptimization = 1;
    tex.seamlessCubemap = 1;
    assert_cuda(cudaCreateTextureObject(&t, &res, &tex, NULL), cudaSuccess);
    assert_last_call_has("cuTexObjectCreate", "flags=0x70 ");
    assert_cuda(cudaGetTextureObjectTextureDesc(&back, t), cudaSuccess);
    assert_memory_equal(&back, &tex, sizeof tex);
    assert_cuda(cudaDestroyTextureObject(t), cudaSuccess);
    assert_cuda(cudaFreeArray(a), cudaSuccess);
}

static void texture_from_linear_memory_carries_its_channel_format(void **state)
{
    (void)state;
    void *dev = NULL;
    assert_cuda(cudaMalloc(&dev, 1024), cudaSuccess);
    struct cudaResourceDesc res;
    memset(&res, 0, sizeof res);
    res.resType = cudaResourceTypeLinear;
    res.res.linear.devPtr = dev;
    res.res.linear.desc = cudaCreateChannelDesc(32, 32, 32, 32, cudaChannelFormatKindSigned);
    res.res.linear.sizeInBytes = 1024;
    struct cudaTextureDesc tex;
    memset(&tex, 0, sizeof tex);
    tex.readMode = cudaReadModeElementType;
    cudaTextureObject_t t = 0;
    assert_cuda(cudaCreateTextureObject(&t, &res, &tex, NULL), cudaSuccess);
    assert_last_call_has("cuTexObjectCreate", "resType=2 ");
    struct cudaResourceDesc back;
    memset(&back, 0xff, sizeof back);
    assert_cuda(cudaGetTextureObjectResourceDesc(&back, t), cudaSuccess);
    assert_int_equal(back.resType, cudaResourceTypeLinear);
    assert_ptr_equal(back.res.linear.devPtr, dev);
    assert_int_equal(back.res.linear.sizeInBytes, 1024);
    assert_memory_equal(&back.res.linear.desc, &res.res.linear.desc, sizeof res.res.linear.desc);
    assert_cuda(cudaDestroyTextureObject(t), cudaSuccess);

    /* pitch 2D: float2 texels, 16 x 4 of pitch 256 */
    memset(&res, 0, sizeof res);
    res.resType = cudaResourceTypePitch2D;
    res.res.pitch2D.devPtr = dev;
    res.res.pitch2D.desc = cudaCreateChannelDesc(32, 32, 0, 0, cudaChannelFormatKindFloat);
    res.res.pitch2D.width = 16;
    res.res.pitch2D.height = 4;
    res.res.pitch2D.pitchInBytes = 256;
    assert_cuda(cudaCreateTextureObject(&t, &res, &tex, NULL), cudaSuccess);
    memset(&back, 0xff, sizeof back);
    assert_cuda(cudaGetTextureObjectResourceDesc(&back, t), cudaSuccess);
    assert_int_equal(back.resType, cudaResourceTypePitch2D);
    assert_true(back.res.pitch2D.width == 16 && back.res.pitch2D.height == 4 &&
                back.res.pitch2D.pitchInBytes == 256 && back.res.pitch2D.devPtr == dev);
    assert_memory_equal(&back.res.pitch2D.desc, &res.res.pitch2D.desc,
                        sizeof res.res.pitch2D.desc);
    assert_cuda(cudaDestroyTextureObject(t), cudaSuccess);

    /* three channels have no driver format; memory outside any allocation is refused */
    res.res.pitch2D.desc = cudaCreateChannelDesc(32, 32, 32, 0, cudaChannelFormatKindFloat);
    assert_cuda(cudaCreateTextureObject(&t, &res, &tex, NULL), cudaErrorInvalidChannelDescriptor);
    res.res.pitch2D.desc = desc_float;
    res.res.pitch2D.height = 8;                  /* 7 * 256 + 64 > 1024 */
    assert_cuda(cudaCreateTextureObject(&t, &res, &tex, NULL), cudaErrorInvalidValue);
    assert_cuda(cudaFree(dev), cudaSuccess);
}

static void texture_with_a_view_and_a_mipmapped_array_round_trips(void **state)
{
    (void)state;
    cudaMipmappedArray_t m = NULL;
    const struct cudaChannelFormatDesc uchar4 = {8, 8, 8, 8, cudaChannelFormatKindUnsigned};
    assert_cuda(cudaMallocMipmappedArray(&m, &uchar4, make_cudaExtent(32, 32, 0), 3, 0),
                cudaSuccess);
    struct cudaResourceDesc res;
    memset(&res, 0, sizeof res);
    res.resType = cudaResourceTypeMipmappedArray;
    res.res.mipmap.mipmap = m;
    struct cudaTextureDesc tex;
    memset(&tex, 0, sizeof tex);
    tex.filterMode = cudaFilterModePoint;
    tex.mipmapFilterMode = cudaFilterModeLinear;
    tex.maxMipmapLevelClamp = 2.0f;
    tex.readMode = cudaReadModeNormalizedFloat;
    struct cudaResourceViewDesc view;
    memset(&view, 0, sizeof view);
    view.format = cudaResViewFormatUnsignedChar4;
    view.width = 32;
    view.height = 32;
    view.firstMipmapLevel = 1;
    view.lastMipmapLevel = 2;
    cudaTextureObject_t t = 0;
    assert_cuda(cudaCreateTextureObject(&t, &res, &tex, &view), cudaSuccess);
    assert_last_call_has("cuTexObjectCreate", "resType=1 ");
    assert_last_call_has("cuTexObjectCreate", "view=yes");
    struct cudaResourceViewDesc view_back;
    memset(&view_back, 0xff, sizeof view_back);
    assert_cuda(cudaGetTextureObjectResourceViewDesc(&view_back, t), cudaSuccess);
    assert_memory_equal(&view_back, &view, sizeof view);
    struct cudaResourceDesc res_back;
    assert_cuda(cudaGetTextureObjectResourceDesc(&res_back, t), cudaSuccess);
    assert_int_equal(res_back.resType, cudaResourceTypeMipmappedArray);
    assert_ptr_equal(res_back.res.mipmap.mipmap, m);
    struct cudaTextureDesc tex_back;
    assert_cuda(cudaGetTextureObjectTextureDesc(&tex_back, t), cudaSuccess);
    assert_memory_equal(&tex_back, &tex, sizeof tex);
    assert_cuda(cudaDestroyTextureObject(t), cudaSuccess);
    assert_cuda(cudaFreeMipmappedArray(m), cudaSuccess);
}

static void texture_object_errors(void **state)
{
    (void)state;
    cudaArray_t a = new_array(0);
    struct cudaResourceDesc res = array_resource(a);
    struct cudaTextureDesc tex;
    memset(&tex, 0, sizeof tex);
    cudaTextureObject_t t = 0;
    assert_cuda(cudaCreateTextureObject(NULL, &res, &tex, NULL), cudaErrorInvalidValue);
    assert_cuda(cudaCreateTextureObject(&t, NULL, &tex, NULL), cudaErrorInvalidValue);
    /* No texture descriptor: NVIDIA's runtime answers an invalid handle (H200). */
    assert_cuda(cudaCreateTextureObject(&t, &res, NULL, NULL), cudaErrorInvalidResourceHandle);
    /* Nor an array in an array resource. */
    struct cudaResourceDesc no_array = array_resource(NULL);
    assert_cuda(cudaCreateTextureObject(&t, &no_array, &tex, NULL),
                cudaErrorInvalidResourceHandle);

    fk.fake_reset_log();
    struct cudaResourceDesc bad = res;
    bad.resType = (enum cudaResourceType)99;
    assert_cuda(cudaCreateTextureObject(&t, &bad, &tex, NULL), cudaErrorInvalidValue);
    struct cudaTextureDesc bad_tex = tex;
    bad_tex.addressMode[1] = (enum cudaTextureAddressMode)7;
    assert_cuda(cudaCreateTextureObject(&t, &res, &bad_tex, NULL), cudaErrorInvalidValue);
    bad_tex = tex;
    bad_tex.filterMode = (enum cudaTextureFilterMode)2;
    assert_cuda(cudaCreateTextureObject(&t, &res, &bad_tex, NULL), cudaErrorInvalidValue);
    assert_int_equal(fk.fake_count_calls("cuTexObjectCreate"), 0);
    assert_int_equal(t, 0);

    /* the driver's answers: a handle that is no array, an injected failure */
    int not_an_array = 0;
    bad = array_resource((cudaArray_t)&not_an_array);
    assert_cuda(cudaCreateTextureObject(&t, &bad, &tex, NULL), cudaErrorInvalidResourceHandle);
    fk.fake_fail_call("cuTexObjectCreate", 1, CUDA_ERROR_OUT_OF_MEMORY);
    assert_cuda(cudaCreateTextureObject(&t, &res, &tex, NULL), cudaErrorMemoryAllocation);
    assert_int_equal(t, 0);
    assert_cuda(cudaDestroyTextureObject(12345), cudaErrorInvalidValue);

    struct cudaTextureDesc tex_back;
    struct cudaResourceDesc res_back;
    struct cudaResourceViewDesc view_back;
    /* NVIDIA's answers (H200): a NULL texture descriptor is an invalid handle, object 0 an
     * invalid value. */
    assert_cuda(cudaGetTextureObjectTextureDesc(NULL, 1), cudaErrorInvalidResourceHandle);
    assert_cuda(cudaGetTextureObjectTextureDesc(&tex_back, 0), cudaErrorInvalidValue);
    assert_cuda(cudaGetTextureObjectResourceDesc(NULL, 1), cudaErrorInvalidValue);
    assert_cuda(cudaGetTextureObjectResourceViewDesc(NULL, 1), cudaErrorInvalidValue);
    assert_cuda(cudaGetTextureObjectTextureDesc(&tex_back, 12345), cudaErrorInvalidValue);
    assert_cuda(cudaGetTextureObjectResourceDesc(&res_back, 12345), cudaErrorInvalidValue);
    assert_cuda(cudaGetTextureObjectResourceViewDesc(&view_back, 12345), cudaErrorInvalidValue);
    assert_cuda(cudaFreeArray(a), cudaSuccess);
    assert_int_equal(live_objects(), 0);
}

static void surface_object_needs_a_surface_array(void **state)
{
    (void)state;
    cudaArray_t plain = new_array(0), surface = new_array(cudaArraySurfaceLoadStore);
    cudaSurfaceObject_t s = 0;
    struct cudaResourceDesc res = array_resource(plain);
    assert_cuda(cudaCreateSurfaceObject(&s, &res), cudaErrorInvalidValue);
    res = array_resource(surface);
    assert_cuda(cudaCreateSurfaceObject(&s, &res), cudaSuccess);
    assert_true(s != 0);
    assert_last_call_has("cuSurfObjectCreate", "resType=0");
    struct cudaResourceDesc back;
    memset(&back, 0xff, sizeof back);
    assert_cuda(cudaGetSurfaceObjectResourceDesc(&back, s), cudaSuccess);
    assert_int_equal(back.resType, cudaResourceTypeArray);
    assert_ptr_equal(back.res.array.array, surface);
    assert_int_equal(live_objects(), 1);
    assert_cuda(cudaDestroySurfaceObject(s), cudaSuccess);
    assert_int_equal(live_objects(), 0);

    assert_cuda(cudaCreateSurfaceObject(NULL, &res), cudaErrorInvalidValue);
    assert_cuda(cudaCreateSurfaceObject(&s, NULL), cudaErrorInvalidValue);
    struct cudaResourceDesc no_array = array_resource(NULL);
    assert_cuda(cudaCreateSurfaceObject(&s, &no_array), cudaErrorInvalidResourceHandle);
    /* A NULL output is NVIDIA's cudaErrorInvalidDevice whatever the object (H200), asked first. */
    assert_cuda(cudaGetSurfaceObjectResourceDesc(NULL, s), cudaErrorInvalidDevice);
    res.resType = (enum cudaResourceType)42;
    assert_cuda(cudaCreateSurfaceObject(&s, &res), cudaErrorInvalidValue);
    fk.fake_fail_call("cuSurfObjectCreate", 1, CUDA_ERROR_NOT_SUPPORTED);
    res = array_resource(surface);
    assert_cuda(cudaCreateSurfaceObject(&s, &res), cudaErrorNotSupported);
    assert_cuda(cudaDestroySurfaceObject(777), cudaErrorInvalidValue);
    assert_cuda(cudaGetSurfaceObjectResourceDesc(&back, 777), cudaErrorInvalidValue);
    assert_cuda(cudaFreeArray(plain), cudaSuccess);
    assert_cuda(cudaFreeArray(surface), cudaSuccess);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(texture_from_array_translates_modes_and_flags),
        cmocka_unit_test(texture_from_linear_memory_carries_its_channel_format),
        cmocka_unit_test(texture_with_a_view_and_a_mipmapped_array_round_trips),
        cmocka_unit_test(texture_object_errors),
        cmocka_unit_test(surface_object_needs_a_surface_array),
    };
    return cmocka_run_group_tests(tests, array_test_setup, NULL);
}
