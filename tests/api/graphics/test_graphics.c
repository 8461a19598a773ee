/* test_graphics.c - OpenGL interop and graphics resources (lib/interop/graphics.c) against the fake
 * driver (tests/fake/interop/fake_graphics.c): what reaches the driver, the map/unmap lifecycle, the
 * mapped pointer and arrays used by the runtime's copies and textures, the legacy buffer
 * objects, and every error path on both the returned code and the thread's last error.  argv[1]
 * "without_driver_support" runs the one test meant for a driver whose entry points are hidden. */
#include "graphics_test.h"

#define GL_TEXTURE_2D 0x0DE1
#define GL_TEXTURE_CUBE_MAP 0x8513

static int group_setup(void **state)
{
    if (graphics_test_setup(state) != 0)
        return -1;
    set_gl_context(1);
    return 0;
}

/* ---- buffers -------------------------------------------------------------------------------- */

static void buffer_register_map_write_read_unmap_unregister(void **state)
{
    (void)state;
    set_buffer_size(1024);
    size_t allocs = fk.fake_live_allocations();
    struct cudaGraphicsResource *r = NULL;
    assert_cuda(cudaGraphicsGLRegisterBuffer(&r, 7, cudaGraphicsRegisterFlagsNone), cudaSuccess);
    assert_non_null(r);
    assert_last_call_has("cuGraphicsGLRegisterBuffer", "buffer=7 flags=0x0");
    assert_int_equal(live_resources(), 1);

    void *p = NULL;
    size_t size = 0;
    assert_cuda(cudaGraphicsResourceGetMappedPointer(&p, &size, r), cudaErrorNotMapped);
    assert_cuda(cudaGraphicsMapResources(1, &r, 0), cudaSuccess);
    assert_last_call_has("cuGraphicsMapResources", "count=1");
    assert_cuda(cudaGraphicsMapResources(1, &r, 0), cudaErrorAlreadyMapped);
    assert_cuda(cudaGraphicsResourceGetMappedPointer(&p, &size, r), cudaSuccess);
    assert_non_null(p);
    assert_int_equal(size, 1024);

    /* the mapped pointer is device memory for the runtime's copies */
    unsigned char in[1024], out[1024];
    for (int i = 0; i < 1024; i++)
        in[i] = (unsigned char)(i * 7);
    assert_cuda(cudaMemcpy(p, in, sizeof in, cudaMemcpyHostToDevice), cudaSuccess);
    assert_cuda(cudaMemset((char *)p + 1000, 0xab, 24), cudaSuccess);
    memset(out, 0, sizeof out);
    assert_cuda(cudaMemcpy(out, p, sizeof out, cudaMemcpyDeviceToHost), cudaSuccess);
    assert_memory_equal(out, in, 1000);
    assert_int_equal(out[1023], 0xab);

    /* a buffer has no arrays; flags do not change while mapped */
    cudaArray_t a = NULL;
    assert_cuda(cudaGraphicsSubResourceGetMappedArray(&a, r, 0, 0), cudaErrorNotMappedAsArray);
    cudaMipmappedArray_t m = NULL;
    assert_cuda(cudaGraphicsResourceGetMappedMipmappedArray(&m, r), cudaErrorNotMappedAsArray);
    assert_cuda(cudaGraphicsResourceSetMapFlags(r, cudaGraphicsMapFlagsReadOnly),
                cudaErrorAlreadyMapped);

    cudaStream_t s = NULL;
    assert_cuda(cudaStreamCreate(&s), cudaSuccess);
    assert_cuda(cudaGraphicsUnmapResources(1, &r, s), cudaSuccess);
    char want[64];
    snprintf(want, sizeof want, "stream=%p", (void *)s);
    assert_last_call_has("cuGraphicsUnmapResources", want);
    assert_cuda(cudaGraphicsUnmapResources(1, &r, s), cudaErrorNotMapped);
    assert_cuda(cudaGraphicsResourceGetMappedPointer(&p, &size, r), cudaErrorNotMapped);
    assert_cuda(cudaStreamDestroy(s), cudaSuccess);

    assert_cuda(cudaGraphicsResourceSetMapFlags(r, cudaGraphicsMapFlagsWriteDiscard), cudaSuccess);
    assert_last_call_has("cuGraphicsResourceSetMapFlags", "flags=0x2");
    /* a value that is none of the three maps as none (NVIDIA's runtime accepts it: measured) */
    assert_cuda(cudaGraphicsResourceSetMapFlags(r, 7), cudaSuccess);
    assert_last_call_has("cuGraphicsResourceSetMapFlags", "flags=0x0");

    assert_cuda(cudaGraphicsUnregisterResource(r), cudaSuccess);
    assert_int_equal(live_resources(), 0);
    assert_int_equal(fk.fake_live_allocations(), allocs);
    assert_cuda(cudaGraphicsUnregisterResource(r), cudaErrorInvalidResourceHandle);
}

static void several_resources_map_in_one_call_or_none(void **state)
{
    (void)state;
    struct cudaGraphicsResource *r[3] = {NULL, NULL, NULL};
    assert_cuda(cudaGraphicsGLRegisterBuffer(&r[0], 1, 0), cudaSuccess);
    assert_cuda(cudaGraphicsGLRegisterBuffer(&r[1], 2, cudaGraphicsRegisterFlagsReadOnly),
                cudaSuccess);
    assert_cuda(cudaGraphicsGLRegisterBuffer(&r[2], 3, cudaGraphicsRegisterFlagsWriteDiscard),
                cudaSuccess);
    fk.fake_reset_log();
    assert_cuda(cudaGraphicsMapResources(3, r, 0), cudaSuccess);
    assert_int_equal(fk.fake_count_calls("cuGraphicsMapResources"), 1);   /* one call */
    assert_last_call_has("cuGraphicsMapResources", "count=3");
    assert_cuda(cudaGraphicsUnmapResources(3, r, 0), cudaSuccess);
    /* a resource twice in the list: nothing is mapped */
    struct cudaGraphicsResource *twice[2] = {r[0], r[0]};
    assert_cuda(cudaGraphicsMapResources(2, twice, 0), cudaErrorAlreadyMapped);
    void *p = NULL;
    size_t size = 0;
    assert_cuda(cudaGraphicsResourceGetMappedPointer(&p, &size, r[0]), cudaErrorNotMapped);
    for (int i = 0; i < 3; i++)
        assert_cuda(cudaGraphicsUnregisterResource(r[i]), cudaSuccess);
}

/* ---- images --------------------------------------------------------------------------------- */

static void image_arrays_serve_copies_and_textures(void **state)
{
    (void)state;
    size_t arrays = 0, mipmaps = 0;
    struct cudaGraphicsResource *r = NULL;
    assert_cuda(cudaGraphicsGLRegisterImage(&r, 3, GL_TEXTURE_2D,
                                            cudaGraphicsRegisterFlagsSurfaceLoadStore),
                cudaSuccess);
    assert_last_call_has("cuGraphicsGLRegisterImage", "image=3 target=0xde1 flags=0x4");
    cudaArray_t a = NULL;
    assert_cuda(cudaGraphicsSubResourceGetMappedArray(&a, r, 0, 0), cudaErrorNotMapped);
    assert_cuda(cudaGraphicsMapResources(1, &r, cudaStreamLegacy), cudaSuccess);
    assert_cuda(cudaGraphicsSubResourceGetMappedArray(&a, r, 0, 0), cudaSuccess);
    assert_last_call_has("cuGraphicsSubResourceGetMappedArray", "index=0 level=0");

    /* the mapped array is an array to the runtime: its description, copies in and out */
    struct cudaChannelFormatDesc desc;
    struct cudaExtent extent;
    unsigned flags = 0;
    assert_cuda(cudaArrayGetInfo(&desc, &extent, &flags, a), cudaSuccess);
    assert_int_equal(desc.x, 8);
    assert_int_equal(desc.w, 8);
    assert_int_equal(desc.f, cudaChannelFormatKindUnsigned);
    assert_true(extent.width == 64 && extent.height == 64 && extent.depth == 0);
    assert_int_equal(flags & cudaArraySurfaceLoadStore, cudaArraySurfaceLoadStore);
    unsigned char texels[64 * 4 * 2], back[64 * 4 * 2];
    for (size_t i = 0; i < sizeof texels; i++)
        texels[i] = (unsigned char)(i ^ 0x5a);
    assert_cuda(cudaMemcpy2DToArray(a, 0, 1, texels, 64 * 4, 64 * 4, 2, cudaMemcpyHostToDevice),
                cudaSuccess);
    memset(back, 0, sizeof back);
    assert_cuda(cudaMemcpy2DFromArray(back, 64 * 4, a, 0, 1, 64 * 4, 2, cudaMemcpyDeviceToHost),
                cudaSuccess);
    assert_memory_equal(back, texels, sizeof texels);

    struct cudaResourceDesc res;
    memset(&res, 0, sizeof res);
    res.resType = cudaResourceTypeArray;
    res.res.array.array = a;
    struct cudaTextureDesc tex;
    memset(&tex, 0, sizeof tex);
    tex.readMode = cudaReadModeElementType;
    cudaTextureObject_t t = 0;
    assert_cuda(cudaCreateTextureObject(&t, &res, &tex, NULL), cudaSuccess);
    assert_cuda(cudaDestroyTextureObject(t), cudaSuccess);

    /* the level below, the whole mipmapped array, and what does not exist */
    cudaArray_t level1 = NULL;
    assert_cuda(cudaGraphicsSubResourceGetMappedArray(&level1, r, 0, 1), cudaSuccess);
    assert_cuda(cudaArrayGetInfo(NULL, &extent, NULL, level1), cudaSuccess);
    assert_true(extent.width == 32 && extent.height == 32);
    cudaMipmappedArray_t m = NULL;
    assert_cuda(cudaGraphicsResourceGetMappedMipmappedArray(&m, r), cudaSuccess);
    cudaArray_t level0 = NULL;
    assert_cuda(cudaGetMipmappedArrayLevel(&level0, m, 0), cudaSuccess);
    assert_ptr_equal(level0, a);
    assert_cuda(cudaGraphicsSubResourceGetMappedArray(&a, r, 0, 2), cudaErrorInvalidValue);
    assert_cuda(cudaGraphicsSubResourceGetMappedArray(&a, r, 1, 0), cudaErrorInvalidValue);
    void *p = NULL;
    size_t size = 0;
    assert_cuda(cudaGraphicsResourceGetMappedPointer(&p, &size, r), cudaErrorNotMappedAsPointer);

    /* the array belongs to the resource */
    assert_cuda(cudaFreeArray(level0), cudaErrorInvalidResourceHandle);
    /* unregistering a mapped resource unmaps it and frees what it owned */
    assert_cuda(cudaGraphicsUnregisterResource(r), cudaSuccess);
    assert_int_equal(live_resources(), 0);
    ((void (*)(size_t *, size_t *, size_t *))graphics_fake_symbol("fake_array_live"))(
        &arrays, &mipmaps, NULL);
    assert_int_equal(mipmaps, 0);
}

/* ---- errors --------------------------------------------------------------------------------- */

static void registration_errors(void **state)
{
    (void)state;
    struct cudaGraphicsResource *r = NULL;
    fk.fake_reset_log();
    assert_cuda(cudaGraphicsGLRegisterBuffer(NULL, 1, 0), cudaErrorInvalidValue);
    assert_cuda(cudaGraphicsGLRegisterImage(NULL, 1, GL_TEXTURE_2D, 0), cudaErrorInvalidValue);
    assert_int_equal(fk.fake_count_calls("cuGraphicsGLRegisterBuffer"), 0);
    assert_int_equal(fk.fake_count_calls("cuGraphicsGLRegisterImage"), 0);
    /* the driver's checks */
    assert_cuda(cudaGraphicsGLRegisterBuffer(&r, 0, 0), cudaErrorInvalidValue);
    assert_cuda(cudaGraphicsGLRegisterBuffer(&r, 1, 3), cudaErrorInvalidValue);
    assert_cuda(cudaGraphicsGLRegisterBuffer(&r, 1, 0x10), cudaErrorInvalidValue);
    assert_cuda(cudaGraphicsGLRegisterBuffer(&r, 1, cudaGraphicsRegisterFlagsSurfaceLoadStore),
                cudaErrorInvalidValue);
    assert_cuda(cudaGraphicsGLRegisterImage(&r, 1, 0x1234, 0), cudaErrorInvalidValue);
    assert_cuda(cudaGraphicsGLRegisterImage(&r, 0, GL_TEXTURE_2D, 0), cudaErrorInvalidValue);
    assert_null(r);
    /* without a current GL context */
    set_gl_context(0);
    assert_cuda(cudaGraphicsGLRegisterBuffer(&r, 1, 0), cudaErrorInvalidGraphicsContext);
    assert_cuda(cudaGraphicsGLRegisterImage(&r, 1, GL_TEXTURE_2D, 0),
                cudaErrorInvalidGraphicsContext);
    unsigned count = 99;
    int devices[4] = {-1, -1, -1, -1};
    assert_cuda(cudaGLGetDevices(&count, devices, 4, cudaGLDeviceListAll),
                cudaErrorInvalidGraphicsContext);
    assert_int_equal(count, 99);
    /* the driver's answer before a NULL out-pointer's (measured), but not for registering */
    assert_cuda(cudaGraphicsGLRegisterBuffer(NULL, 1, 0), cudaErrorInvalidValue);
    assert_cuda(cudaGLGetDevices(NULL, devices, 4, cudaGLDeviceListAll),
                cudaErrorInvalidGraphicsContext);
    assert_cuda(cudaGLGetDevices(&count, NULL, 4, cudaGLDeviceListAll),
                cudaErrorInvalidGraphicsContext);
    /* an unknown list is refused before the driver is asked (measured) */
    assert_cuda(cudaGLGetDevices(&count, devices, 4, (enum cudaGLDeviceList)9),
                cudaErrorInvalidValue);
    /* the legacy unregister of an unknown buffer, with no GL context (measured) */
    assert_cuda(cudaGLUnregisterBufferObject(1), cudaErrorInvalidGraphicsContext);
    set_gl_context(1);
    assert_null(r);
    assert_int_equal(live_resources(), 0);
}

static void resource_call_errors(void **state)
{
    (void)state;
    struct cudaGraphicsResource *r = NULL;
    struct cudaGraphicsResource *bogus = (struct cudaGraphicsResource *)(uintptr_t)0x5678;
    assert_cuda(cudaGraphicsGLRegisterBuffer(&r, 5, 0), cudaSuccess);
    fk.fake_reset_log();
    /* refused before the driver; a negative count as NVIDIA's runtime answers it (measured) */
    assert_cuda(cudaGraphicsMapResources(-1, &r, 0), cudaErrorInvalidResourceHandle);
    assert_cuda(cudaGraphicsMapResources(1, NULL, 0), cudaErrorInvalidValue);
    assert_cuda(cudaGraphicsMapResources(0, &r, 0), cudaErrorInvalidValue);
    assert_cuda(cudaGraphicsUnmapResources(-3, &r, 0), cudaErrorInvalidResourceHandle);
    assert_int_equal(fk.fake_count_calls("cuGraphicsMapResources"), 0);
    assert_int_equal(fk.fake_count_calls("cuGraphicsUnmapResources"), 0);
    void *p = NULL;
    size_t size = 0;
    /* the resource is checked before the out-pointers (measured) */
    assert_cuda(cudaGraphicsResourceGetMappedPointer(NULL, &size, NULL),
                cudaErrorInvalidResourceHandle);
    assert_cuda(cudaGraphicsResourceGetMappedPointer(NULL, &size, r), cudaErrorInvalidValue);
    assert_cuda(cudaGraphicsResourceGetMappedPointer(&p, NULL, r), cudaErrorInvalidValue);
    assert_cuda(cudaGraphicsResourceGetMappedPointer(&p, &size, NULL),
                cudaErrorInvalidResourceHandle);
    cudaArray_t a = NULL;
    assert_cuda(cudaGraphicsSubResourceGetMappedArray(NULL, r, 0, 0), cudaErrorInvalidValue);
    assert_cuda(cudaGraphicsSubResourceGetMappedArray(&a, NULL, 0, 0),
                cudaErrorInvalidResourceHandle);
    assert_cuda(cudaGraphicsResourceGetMappedMipmappedArray(NULL, r), cudaErrorInvalidValue);
    cudaMipmappedArray_t m = NULL;
    assert_cuda(cudaGraphicsResourceGetMappedMipmappedArray(&m, NULL),
                cudaErrorInvalidResourceHandle);
    assert_cuda(cudaGraphicsResourceSetMapFlags(NULL, 0), cudaErrorInvalidResourceHandle);
    assert_cuda(cudaGraphicsUnregisterResource(NULL), cudaErrorInvalidResourceHandle);
    static const char *const refused[] = {
        "cuGraphicsResourceGetMappedPointer", "cuGraphicsSubResourceGetMappedArray",
        "cuGraphicsResourceGetMappedMipmappedArray", "cuGraphicsResourceSetMapFlags",
        "cuGraphicsUnregisterResource"};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
        assert_int_equal(fk.fake_count_calls(refused[i]), 0);
    /* the driver's answers */
    assert_cuda(cudaGraphicsMapResources(1, &bogus, 0), cudaErrorInvalidResourceHandle);
    assert_cuda(cudaGraphicsUnmapResources(1, &bogus, 0), cudaErrorInvalidResourceHandle);
    assert_cuda(cudaGraphicsMapResources(1, &r, (cudaStream_t)(uintptr_t)0x9999),
                cudaErrorInvalidResourceHandle);
    assert_cuda(cudaGraphicsResourceGetMappedPointer(&p, &size, bogus),
                cudaErrorInvalidResourceHandle);
    assert_cuda(cudaGraphicsSubResourceGetMappedArray(&a, bogus, 0, 0),
                cudaErrorInvalidResourceHandle);
    assert_cuda(cudaGraphicsResourceSetMapFlags(bogus, 0), cudaErrorInvalidResourceHandle);
    assert_cuda(cudaGraphicsUnregisterResource(bogus), cudaErrorInvalidResourceHandle);
    assert_null(p);
    assert_null(a);
    assert_null(m);
    /* nothing of that stuck: the resource still works */
    assert_cuda(cudaGraphicsMapResources(1, &r, 0), cudaSuccess);
    assert_cuda(cudaGraphicsResourceGetMappedPointer(&p, &size, r), cudaSuccess);
    assert_cuda(cudaGraphicsUnmapResources(1, &r, 0), cudaSuccess);
    assert_cuda(cudaGraphicsUnregisterResource(r), cudaSuccess);
    /* An unregistered resource is refused before the driver sees it again: under NVIDIA's
     * runtime a second unregister crashes (measured). */
    fk.fake_reset_log();
    assert_cuda(cudaGraphicsUnregisterResource(r), cudaErrorInvalidResourceHandle);
    assert_cuda(cudaGraphicsMapResources(1, &r, 0), cudaErrorInvalidResourceHandle);
    assert_cuda(cudaGraphicsResourceGetMappedPointer(&p, &size, r),
                cudaErrorInvalidResourceHandle);
    assert_cuda(cudaGraphicsResourceSetMapFlags(r, 0), cudaErrorInvalidResourceHandle);
    assert_int_equal(fk.fake_count_calls("cuGraphicsUnregisterResource"), 0);
    assert_int_equal(fk.fake_count_calls("cuGraphicsMapResources"), 0);
    /* the same handle given out again by the driver is usable again */
    struct cudaGraphicsResource *again = NULL;
    assert_cuda(cudaGraphicsGLRegisterBuffer(&again, 5, 0), cudaSuccess);
    if (again == r)
        assert_cuda(cudaGraphicsMapResources(1, &again, 0), cudaSuccess);
    else
        assert_cuda(cudaGraphicsMapResources(1, &again, 0), cudaSuccess);
    assert_cuda(cudaGraphicsUnmapResources(1, &again, 0), cudaSuccess);
    assert_cuda(cudaGraphicsUnregisterResource(again), cudaSuccess);
}

/* ---- devices -------------------------------------------------------------------------------- */

static void gl_devices_are_runtime_ordinals(void **state)
{
    (void)state;
    unsigned count = 0;
    int devices[2] = {-1, -1};
    assert_cuda(cudaGLGetDevices(&count, devices, 2, cudaGLDeviceListCurrentFrame), cudaSuccess);
    assert_last_call_has("cuGLGetDevices", "count=64 list=2");    /* all, then the room */
    assert_int_equal(count, 1);
    assert_int_equal(devices[0], 0);
    assert_int_equal(devices[1], -1);
    count = 0;
    assert_cuda(cudaGLGetDevices(&count, NULL, 0, cudaGLDeviceListAll), cudaSuccess);
    assert_int_equal(count, 1);
    assert_cuda(cudaGLGetDevices(NULL, devices, 2, cudaGLDeviceListAll), cudaErrorInvalidValue);
    assert_cuda(cudaGLGetDevices(&count, NULL, 2, cudaGLDeviceListAll), cudaErrorInvalidValue);
    assert_cuda(cudaGLGetDevices(&count, devices, 2, (enum cudaGLDeviceList)9),
                cudaErrorInvalidValue);

    /* The deprecated device choice: an invalid device first, then cudaErrorSetOnActiveProcess
     * once the runtime has a context (measured; before one, it is cudaSetDevice: tested in
     * tests/api/graphics/test_graphics_egl.c with VDPAU's twin, in a fresh process). */
    assert_cuda(cudaGLSetGLDevice(1), cudaErrorInvalidDevice);
    assert_cuda(cudaGLSetGLDevice(-1), cudaErrorInvalidDevice);
    assert_cuda(cudaGLSetGLDevice(0), cudaErrorSetOnActiveProcess);
}

/* ---- legacy buffer objects ------------------------------------------------------------------ */

static void legacy_buffer_objects(void **state)
{
    (void)state;
    set_buffer_size(256);
    void *p = NULL;
    assert_cuda(cudaGLMapBufferObject(&p, 9), cudaErrorInvalidValue);     /* not registered */
    assert_cuda(cudaGLRegisterBufferObject(9), cudaSuccess);
    assert_last_call_has("cuGLRegisterBufferObject", "buffer=9");
    assert_cuda(cudaGLRegisterBufferObject(9), cudaErrorInvalidValue);    /* twice */
    assert_cuda(cudaGLSetBufferObjectMapFlags(9, cudaGLMapFlagsReadOnly), cudaSuccess);
    assert_last_call_has("cuGLSetBufferObjectMapFlags", "flags=0x1");
    assert_cuda(cudaGLSetBufferObjectMapFlags(9, 5), cudaErrorInvalidValue);
    fk.fake_reset_log();
    assert_cuda(cudaGLMapBufferObject(NULL, 9), cudaErrorInvalidValue);
    assert_int_equal(fk.fake_count_calls("cuGLMapBufferObject"), 0);
    assert_cuda(cudaGLMapBufferObject(&p, 9), cudaSuccess);
    assert_non_null(p);
    unsigned char in[256], out[256];
    for (int i = 0; i < 256; i++)
        in[i] = (unsigned char)(255 - i);
    assert_cuda(cudaMemcpy(p, in, sizeof in, cudaMemcpyHostToDevice), cudaSuccess);
    assert_cuda(cudaMemcpy(out, p, sizeof out, cudaMemcpyDeviceToHost), cudaSuccess);
    assert_memory_equal(in, out, sizeof in);
    assert_cuda(cudaGLMapBufferObject(&p, 9), cudaErrorAlreadyMapped);
    assert_cuda(cudaGLSetBufferObjectMapFlags(9, 0), cudaErrorAlreadyMapped);
    assert_cuda(cudaGLUnmapBufferObject(9), cudaSuccess);
    assert_cuda(cudaGLUnmapBufferObject(9), cudaErrorNotMapped);

    cudaStream_t s = NULL;
    assert_cuda(cudaStreamCreate(&s), cudaSuccess);
    void *q = NULL;
    assert_cuda(cudaGLMapBufferObjectAsync(&q, 9, s), cudaSuccess);
    assert_ptr_equal(q, p);
    char want[64];
    snprintf(want, sizeof want, "buffer=9 stream=%p", (void *)s);
    assert_last_call_has("cuGLMapBufferObjectAsync", want);
    assert_cuda(cudaGLUnmapBufferObjectAsync(9, s), cudaSuccess);
    assert_last_call_has("cuGLUnmapBufferObjectAsync", want);
    assert_cuda(cudaStreamDestroy(s), cudaSuccess);

    assert_cuda(cudaGLUnregisterBufferObject(9), cudaSuccess);
    assert_cuda(cudaGLUnregisterBufferObject(9), cudaErrorInvalidValue);
    assert_cuda(cudaGLUnmapBufferObject(9), cudaErrorInvalidValue);
    set_gl_context(0);
    assert_cuda(cudaGLRegisterBufferObject(9), cudaErrorInvalidGraphicsContext);
    set_gl_context(1);
    assert_int_equal(live_resources(), 0);
}

/* ---- a driver without the entry points ------------------------------------------------------- */

static void calls_without_driver_support_are_not_supported(void **state)
{
    (void)state;
    set_gl_context(1);
    struct cudaGraphicsResource *r = NULL;
    assert_cuda(cudaGraphicsGLRegisterBuffer(&r, 1, 0), cudaErrorNotSupported);
    assert_null(r);
    assert_cuda(cudaGraphicsMapResources(1, &r, 0), cudaErrorNotSupported);
    unsigned count = 0;
    assert_cuda(cudaGLGetDevices(&count, NULL, 0, cudaGLDeviceListAll), cudaErrorNotSupported);
    /* what the driver has still works */
    assert_cuda(cudaGraphicsGLRegisterImage(&r, 1, GL_TEXTURE_2D, 0), cudaSuccess);
    assert_cuda(cudaGraphicsUnregisterResource(r), cudaSuccess);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest all[] = {
        cmocka_unit_test(buffer_register_map_write_read_unmap_unregister),
        cmocka_unit_test(several_resources_map_in_one_call_or_none),
        cmocka_unit_test(image_arrays_serve_copies_and_textures),
        cmocka_unit_test(registration_errors),
        cmocka_unit_test(resource_call_errors),
        cmocka_unit_test(gl_devices_are_runtime_ordinals),
        cmocka_unit_test(legacy_buffer_objects),
    };
    const struct CMUnitTest hidden[] = {
        cmocka_unit_test(calls_without_driver_support_are_not_supported),
    };
    if (argc > 1 && strcmp(argv[1], "without_driver_support") == 0)
        return cmocka_run_group_tests(hidden, group_setup, NULL);
    return cmocka_run_group_tests(all, group_setup, NULL);
}
