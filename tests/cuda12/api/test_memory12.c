/* test_memory12.c - memory through the CUDA 12 face (lib/cuda12/memory12.c), as a CUDA 12
 * program sees it: cudaPointerAttributes of 24 bytes, textures' and surfaces' resource
 * descriptors of 64 and 48 bytes (written exactly so far, read no further), cudaMemAdvise and
 * cudaMemPrefetchAsync with a device number or cudaCpuDeviceId (and their _ptsz), the batch copies
 * with failIdx, and pools, which 12.9 places on the host too, as 13 does.  Every call asserted on its result
 * and on the thread's last error; what reached the driver read from the fake's call log. */
#include "cuda12_test.h"
#include "ptsz12.h"

#include <stdint.h>

_Static_assert(sizeof(struct cudaPointerAttributes) == 24, "12.9's cudaPointerAttributes");
_Static_assert(sizeof(struct cudaResourceDesc) == 64, "12.9's cudaResourceDesc");
_Static_assert(sizeof(struct cudaResourceViewDesc) == 48, "12.9's cudaResourceViewDesc");
_Static_assert(offsetof(struct cudaResourceDesc, res.pitch2D.pitchInBytes) == 56,
               "pitchInBytes is 12.9's last resource word");

/* 13's sizes of the same structs: a runtime writing those would reach this far. */
#define POINTER_ATTRIBUTES_13 88
#define RESOURCE_DESC_13 144
#define RESOURCE_VIEW_DESC_13 112

/* ---- pointer attributes --------------------------------------------------------------------- */

/* The attributes of p into a guarded buffer, asserting that only 12.9's 24 bytes were written. */
static struct cudaPointerAttributes attributes_of(const void *p)
{
    unsigned char buf[POINTER_ATTRIBUTES_13 + 16];
    memset(buf, GUARD_BYTE, sizeof buf);
    assert_cuda(cudaPointerGetAttributes((struct cudaPointerAttributes *)buf, p), cudaSuccess);
    assert_guarded(buf, sizeof(struct cudaPointerAttributes), sizeof buf);
    struct cudaPointerAttributes a;
    memcpy(&a, buf, sizeof a);
    return a;
}

static void pointer_attributes_write_24_bytes_for_every_kind_of_memory(void **state)
{
    (void)state;
    void *dev = NULL, *pinned = NULL, *managed = NULL;
    assert_cuda(cudaMalloc(&dev, 256), cudaSuccess);
    assert_cuda(cudaMallocHost(&pinned, 256), cudaSuccess);
    assert_cuda(cudaMallocManaged(&managed, 256, cudaMemAttachGlobal), cudaSuccess);

    struct cudaPointerAttributes a = attributes_of((char *)dev + 16);
    assert_int_equal(a.type, cudaMemoryTypeDevice);
    assert_int_equal(a.device, 0);
    assert_ptr_equal(a.devicePointer, (char *)dev + 16);
    assert_null(a.hostPointer);

    a = attributes_of(pinned);
    assert_int_equal(a.type, cudaMemoryTypeHost);
    assert_ptr_equal(a.hostPointer, pinned);

    a = attributes_of(managed);
    assert_int_equal(a.type, cudaMemoryTypeManaged);
    assert_ptr_equal(a.devicePointer, managed);
    assert_ptr_equal(a.hostPointer, managed);

    int plain = 0;                                     /* memory CUDA never saw */
    a = attributes_of(&plain);
    assert_int_equal(a.type, cudaMemoryTypeUnregistered);
    assert_ptr_equal(a.hostPointer, &plain);

    assert_cuda(cudaPointerGetAttributes(NULL, dev), cudaErrorInvalidValue);
    assert_cuda(cudaFree(dev), cudaSuccess);
    assert_cuda(cudaFreeHost(pinned), cudaSuccess);
    assert_cuda(cudaFree(managed), cudaSuccess);
}

/* ---- textures and surfaces ------------------------------------------------------------------ */

static struct cudaTextureDesc point_texture(void)
{
    struct cudaTextureDesc t;
    memset(&t, 0, sizeof t);
    t.filterMode = cudaFilterModePoint;
    t.readMode = cudaReadModeElementType;
    return t;
}

static void texture_reads_64_and_48_byte_descriptors_and_writes_them_back(void **state)
{
    (void)state;
    /* pitch 2D: its pitch is the last word of 12.9's 64 bytes */
    float *dev = NULL;
    assert_cuda(cudaMalloc((void **)&dev, 1024), cudaSuccess);
    struct cudaResourceDesc res;
    memset(&res, 0, sizeof res);
    res.resType = cudaResourceTypePitch2D;
    res.res.pitch2D.devPtr = dev;
    res.res.pitch2D.desc = cudaCreateChannelDesc(32, 32, 0, 0, cudaChannelFormatKindFloat);
    res.res.pitch2D.width = 16;
    res.res.pitch2D.height = 4;
    res.res.pitch2D.pitchInBytes = 256;
    struct cudaTextureDesc tex = point_texture();
    /* each descriptor the last bytes of a page: one byte read past it faults */
    struct cudaResourceDesc *res_slot = guard_page_tail(&res, sizeof res);
    fk.fake_reset_log();
    cudaTextureObject_t t = 0;
    assert_cuda(cudaCreateTextureObject(&t, res_slot, &tex, NULL), cudaSuccess);
    assert_last_call_has("cuTexObjectCreate", "resType=3 ");            /* PITCH2D */
    assert_last_call_has("cuTexObjectCreate", "view=no");

    unsigned char back[RESOURCE_DESC_13 + 16];
    memset(back, GUARD_BYTE, sizeof back);
    assert_cuda(cudaGetTextureObjectResourceDesc((struct cudaResourceDesc *)back, t),
                cudaSuccess);
    assert_guarded(back, sizeof res, sizeof back);
    struct cudaResourceDesc got;
    memcpy(&got, back, sizeof got);
    assert_int_equal(got.resType, cudaResourceTypePitch2D);
    assert_ptr_equal(got.res.pitch2D.devPtr, dev);
    assert_memory_equal(&got.res.pitch2D.desc, &res.res.pitch2D.desc, sizeof res.res.pitch2D.desc);
    assert_int_equal(got.res.pitch2D.width, 16);
    assert_int_equal(got.res.pitch2D.height, 4);
    assert_int_equal(got.res.pitch2D.pitchInBytes, 256);
    /* no view was given: none to give back, and nothing written */
    unsigned char view_back[RESOURCE_VIEW_DESC_13 + 16];
    memset(view_back, GUARD_BYTE, sizeof view_back);
    assert_cuda(cudaGetTextureObjectResourceViewDesc((struct cudaResourceViewDesc *)view_back, t),
                cudaErrorInvalidValue);
    assert_guarded(view_back, 0, sizeof view_back);
    assert_cuda(cudaDestroyTextureObject(t), cudaSuccess);
    guard_page_free(res_slot);
    assert_cuda(cudaFree(dev), cudaSuccess);

    /* a view of a mipmapped array: 48 bytes in, 48 bytes out */
    cudaMipmappedArray_t m = NULL;
    const struct cudaChannelFormatDesc uchar4 = {8, 8, 8, 8, cudaChannelFormatKindUnsigned};
    assert_cuda(cudaMallocMipmappedArray(&m, &uchar4, (struct cudaExtent){32, 32, 0}, 3, 0),
                cudaSuccess);
    memset(&res, 0, sizeof res);
    res.resType = cudaResourceTypeMipmappedArray;
    res.res.mipmap.mipmap = m;
    struct cudaResourceViewDesc view;
    memset(&view, 0, sizeof view);
    view.format = cudaResViewFormatUnsignedChar4;
    view.width = 32;
    view.height = 32;
    view.firstMipmapLevel = 1;
    view.lastMipmapLevel = 2;
    view.firstLayer = 0;
    view.lastLayer = 0;
    res_slot = guard_page_tail(&res, sizeof res);
    struct cudaResourceViewDesc *view_slot = guard_page_tail(&view, sizeof view);
    tex.mipmapFilterMode = cudaFilterModeLinear;
    tex.maxMipmapLevelClamp = 2.0f;
    tex.readMode = cudaReadModeNormalizedFloat;
    assert_cuda(cudaCreateTextureObject(&t, res_slot, &tex, view_slot), cudaSuccess);
    assert_last_call_has("cuTexObjectCreate", "resType=1 ");            /* MIPMAPPED_ARRAY */
    assert_last_call_has("cuTexObjectCreate", "view=yes");
    memset(view_back, GUARD_BYTE, sizeof view_back);
    assert_cuda(cudaGetTextureObjectResourceViewDesc((struct cudaResourceViewDesc *)view_back, t),
                cudaSuccess);
    assert_guarded(view_back, sizeof view, sizeof view_back);
    assert_memory_equal(view_back, &view, sizeof view);
    memset(back, GUARD_BYTE, sizeof back);
    assert_cuda(cudaGetTextureObjectResourceDesc((struct cudaResourceDesc *)back, t),
                cudaSuccess);
    assert_guarded(back, sizeof res, sizeof back);
    memcpy(&got, back, sizeof got);
    assert_int_equal(got.resType, cudaResourceTypeMipmappedArray);
    assert_ptr_equal(got.res.mipmap.mipmap, m);

    /* failures write nothing */
    memset(back, GUARD_BYTE, sizeof back);
    assert_cuda(cudaGetTextureObjectResourceDesc((struct cudaResourceDesc *)back, 12345),
                cudaErrorInvalidValue);
    assert_guarded(back, 0, sizeof back);
    assert_cuda(cudaGetTextureObjectResourceDesc(NULL, t), cudaErrorInvalidValue);
    /* a NULL view output succeeds for a live object, as the 13 body answers (NVIDIA's, H200) */
    assert_cuda(cudaGetTextureObjectResourceViewDesc(NULL, t), cudaSuccess);
    assert_cuda(cudaCreateTextureObject(&t, NULL, &tex, NULL), cudaErrorInvalidValue);
    assert_cuda(cudaDestroyTextureObject(t), cudaSuccess);
    guard_page_free(res_slot);
    guard_page_free(view_slot);
    assert_cuda(cudaFreeMipmappedArray(m), cudaSuccess);
}

static void surface_reads_and_writes_a_64_byte_resource_descriptor(void **state)
{
    (void)state;
    const struct cudaChannelFormatDesc f1 = {32, 0, 0, 0, cudaChannelFormatKindFloat};
    cudaArray_t array = NULL;
    assert_cuda(cudaMallocArray(&array, &f1, 8, 8, cudaArraySurfaceLoadStore), cudaSuccess);
    struct cudaResourceDesc res;
    memset(&res, 0, sizeof res);
    res.resType = cudaResourceTypeArray;
    res.res.array.array = array;
    struct cudaResourceDesc *slot = guard_page_tail(&res, sizeof res);
    fk.fake_reset_log();
    cudaSurfaceObject_t s = 0;
    assert_cuda(cudaCreateSurfaceObject(&s, slot), cudaSuccess);
    assert_last_call_has("cuSurfObjectCreate", "resType=0");
    unsigned char back[RESOURCE_DESC_13 + 16];
    memset(back, GUARD_BYTE, sizeof back);
    assert_cuda(cudaGetSurfaceObjectResourceDesc((struct cudaResourceDesc *)back, s), cudaSuccess);
    assert_guarded(back, sizeof res, sizeof back);
    struct cudaResourceDesc got;
    memcpy(&got, back, sizeof got);
    assert_int_equal(got.resType, cudaResourceTypeArray);
    assert_ptr_equal(got.res.array.array, array);
    assert_cuda(cudaDestroySurfaceObject(s), cudaSuccess);
    memset(back, GUARD_BYTE, sizeof back);
    assert_cuda(cudaGetSurfaceObjectResourceDesc((struct cudaResourceDesc *)back, 4321),
                cudaErrorInvalidValue);
    assert_guarded(back, 0, sizeof back);
    /* A NULL output is cudaErrorInvalidDevice whatever the object: NVIDIA's 12.9 (H200). */
    assert_cuda(cudaGetSurfaceObjectResourceDesc(NULL, s), cudaErrorInvalidDevice);
    assert_cuda(cudaCreateSurfaceObject(&s, NULL), cudaErrorInvalidValue);
    guard_page_free(slot);
    assert_cuda(cudaFreeArray(array), cudaSuccess);
}

/* ---- advice and prefetches: a device number or cudaCpuDeviceId ------------------------------ */

static void mem_advise_with_a_device_number_reaches_the_driver_as_a_location(void **state)
{
    (void)state;
    void *p = NULL;
    assert_cuda(cudaMallocManaged(&p, 8192, cudaMemAttachGlobal), cudaSuccess);
    fk.fake_reset_log();
    assert_cuda(cudaMemAdvise(p, 4096, cudaMemAdviseSetPreferredLocation, 0), cudaSuccess);
    assert_last_call_has("cuMemAdvise", "count=4096 advice=3 location=1:0");    /* DEVICE 0 */
    assert_cuda(cudaMemAdvise(p, 4096, cudaMemAdviseSetAccessedBy, cudaCpuDeviceId), cudaSuccess);
    assert_last_call_has("cuMemAdvise", "advice=5 location=2:");                 /* HOST */
    assert_cuda(cudaMemAdvise(p, 8192, cudaMemAdviseSetReadMostly, 0), cudaSuccess);
    assert_last_call_has("cuMemAdvise", "count=8192 advice=1 ");
    /* the 13 form, 12.9's cudaMemAdvise_v2, reaches the driver the same way */
    struct cudaMemLocation device0 = {cudaMemLocationTypeDevice, 0};
    assert_cuda(cudaMemAdvise_v2(p, 4096, cudaMemAdviseSetPreferredLocation, device0),
                cudaSuccess);
    assert_last_call_has("cuMemAdvise", "count=4096 advice=3 location=1:0");
    assert_int_equal(fk.fake_count_calls("cuMemAdvise"), 4);
    /* a device that is not there: cudaErrorInvalidDevice before the driver (NVIDIA's 12.9 on the
     * H200 for 99 and -2; 13's location form is the driver's cudaErrorInvalidValue) */
    int before = fk.fake_count_calls("cuMemAdvise");
    assert_cuda(cudaMemAdvise(p, 4096, cudaMemAdviseSetPreferredLocation, 3),
                cudaErrorInvalidDevice);
    assert_cuda(cudaMemAdvise(p, 4096, cudaMemAdviseSetAccessedBy, -2), cudaErrorInvalidDevice);
    assert_int_equal(fk.fake_count_calls("cuMemAdvise"), before);
    /* an advice that ignores its device leaves it to the driver */
    assert_cuda(cudaMemAdvise(p, 4096, cudaMemAdviseSetReadMostly, 99), cudaSuccess);
    /* memory that is not managed */
    int plain = 0;
    assert_cuda(cudaMemAdvise(&plain, 4, cudaMemAdviseSetPreferredLocation, 0),
                cudaErrorInvalidValue);
    assert_cuda(cudaFree(p), cudaSuccess);
}

static void mem_prefetch_with_a_device_number_reaches_the_driver_as_a_location(void **state)
{
    (void)state;
    void *p = NULL;
    assert_cuda(cudaMallocManaged(&p, 8192, cudaMemAttachGlobal), cudaSuccess);
    cudaStream_t s = NULL;
    assert_cuda(cudaStreamCreate(&s), cudaSuccess);
    char want[96];
    fk.fake_reset_log();
    assert_cuda(cudaMemPrefetchAsync(p, 4096, 0, s), cudaSuccess);
    snprintf(want, sizeof want, "count=4096 location=1:0 flags=0x0 stream=%p", (void *)s);
    assert_last_call_has("cuMemPrefetchAsync", want);
    assert_cuda(cudaMemPrefetchAsync(p, 8192, cudaCpuDeviceId, s), cudaSuccess);
    assert_last_call_has("cuMemPrefetchAsync", "count=8192 location=2:");
    /* stream 0 of a legacy-stream program is the NULL stream */
    assert_cuda(cudaMemPrefetchAsync(p, 4096, 0, 0), cudaSuccess);
    assert_last_call_has("cuMemPrefetchAsync", "location=1:0 flags=0x0 stream=(nil)");
    /* the _ptsz export: a device number, and stream 0 is the per-thread stream */
    assert_cuda(ptsz_mem_prefetch(p, 4096, 0, 0), cudaSuccess);
    assert_last_call_has("cuMemPrefetchAsync", "location=1:0 flags=0x0 stream=0x2");
    assert_cuda(ptsz_mem_prefetch(p, 4096, cudaCpuDeviceId, 0), cudaSuccess);
    assert_last_call_has("cuMemPrefetchAsync", "location=2:");
    assert_last_call_has("cuMemPrefetchAsync", "stream=0x2");
    /* and the 13 forms, 12.9's _v2 and _v2_ptsz */
    struct cudaMemLocation host = {cudaMemLocationTypeHost, 0};
    assert_cuda(cudaMemPrefetchAsync_v2(p, 4096, host, 0, s), cudaSuccess);
    assert_last_call_has("cuMemPrefetchAsync", "location=2:0 flags=0x0");
    assert_cuda(ptsz_mem_prefetch_v2(p, 4096, host, 0, 0), cudaSuccess);
    assert_last_call_has("cuMemPrefetchAsync", "location=2:0 flags=0x0 stream=0x2");
    assert_int_equal(fk.fake_count_calls("cuMemPrefetchAsync"), 7);
    /* errors */
    assert_cuda(cudaMemPrefetchAsync(p, 4096, 3, s), cudaErrorInvalidDevice);
    assert_cuda(ptsz_mem_prefetch(p, 0, 0, 0), cudaErrorInvalidValue);
    assert_cuda(cudaStreamDestroy(s), cudaSuccess);
    assert_cuda(cudaFree(p), cudaSuccess);
}

/* ---- batch copies with failIdx -------------------------------------------------------------- */

static struct cudaMemcpyAttributes stream_order(void)
{
    struct cudaMemcpyAttributes a;
    memset(&a, 0, sizeof a);
    a.srcAccessOrder = cudaMemcpySrcAccessOrderStream;
    return a;
}

static void memcpy_batch_copies_and_sets_fail_index_to_size_max_on_an_error(void **state)
{
    (void)state;
    cudaStream_t s = NULL;
    assert_cuda(cudaStreamCreate(&s), cudaSuccess);
    char *dev = NULL;
    assert_cuda(cudaMalloc((void **)&dev, 64), cudaSuccess);
    char in[16] = "batch of twelve", out[16] = {0};
    void *dsts[2] = {dev, out};
    void *srcs[2] = {in, dev};
    size_t sizes[2] = {16, 16}, idxs[1] = {0}, fail = 7;
    struct cudaMemcpyAttributes attrs[1] = {stream_order()};
    fk.fake_reset_log();
    assert_cuda(cudaMemcpyBatchAsync(dsts, srcs, sizes, 2, attrs, idxs, 1, &fail, s), cudaSuccess);
    assert_last_call_has("cuMemcpyBatchAsync", "count=2 sizes=16,16 numAttrs=1 order=1");
    assert_string_equal(out, "batch of twelve");
    assert_int_equal(fail, 7);                         /* a success reports no failing copy */
    /* the _ptsz export, on the per-thread stream (stream 0 is the legacy one even there, as
     * for 13's batches: tests/api/memory/test_memory_batch.c) */
    memset(out, 0, sizeof out);
    assert_cuda(ptsz_memcpy_batch(dsts, srcs, sizes, 2, attrs, idxs, 1, &fail,
                                  cudaStreamPerThread),
                cudaSuccess);
    assert_last_call_has("cuMemcpyBatchAsync", "stream=0x2");
    assert_string_equal(out, "batch of twelve");
    assert_int_equal(fail, 7);
    assert_cuda(ptsz_memcpy_batch(dsts, srcs, sizes, 2, attrs, idxs, 1, &fail, 0),
                cudaErrorInvalidValue);
    assert_last_call_has("cuMemcpyBatchAsync", "stream=(nil)");
    assert_true(fail == SIZE_MAX);

    /* an error found by the runtime, one found by the driver, and one of the stream */
    assert_cuda(cudaMemcpyBatchAsync(dsts, NULL, sizes, 2, attrs, idxs, 1, &fail, s),
                cudaErrorInvalidValue);
    assert_true(fail == SIZE_MAX);
    fail = 7;
    fk.fake_fail_call("cuMemcpyBatchAsync", 1, 1 /* CUDA_ERROR_INVALID_VALUE */);
    assert_cuda(cudaMemcpyBatchAsync(dsts, srcs, sizes, 2, attrs, idxs, 1, &fail, s),
                cudaErrorInvalidValue);
    assert_true(fail == SIZE_MAX);
    fail = 7;
    assert_cuda(cudaMemcpyBatchAsync(dsts, srcs, sizes, 2, attrs, idxs, 1, &fail, 0),
                cudaErrorInvalidValue);                /* "must not be legacy NULL stream" */
    assert_true(fail == SIZE_MAX);
    fail = 7;
    assert_cuda(ptsz_memcpy_batch(NULL, srcs, sizes, 2, attrs, idxs, 1, &fail, 0),
                cudaErrorInvalidValue);
    assert_true(fail == SIZE_MAX);
    /* failIdx may be NULL */
    assert_cuda(cudaMemcpyBatchAsync(dsts, NULL, sizes, 2, attrs, idxs, 1, NULL, s),
                cudaErrorInvalidValue);
    assert_cuda(cudaFree(dev), cudaSuccess);
    assert_cuda(cudaStreamDestroy(s), cudaSuccess);
}

static struct cudaMemcpy3DBatchOp bytes_op(void *src, void *dst, size_t width)
{
    struct cudaMemcpy3DBatchOp op;
    memset(&op, 0, sizeof op);
    op.src.type = cudaMemcpyOperandTypePointer;
    op.src.op.ptr.ptr = src;
    op.dst.type = cudaMemcpyOperandTypePointer;
    op.dst.op.ptr.ptr = dst;
    op.extent.width = width;
    op.extent.height = 1;
    op.extent.depth = 1;
    op.srcAccessOrder = cudaMemcpySrcAccessOrderStream;
    return op;
}

static void memcpy_3d_batch_copies_and_sets_fail_index_to_size_max_on_an_error(void **state)
{
    (void)state;
    cudaStream_t s = NULL;
    assert_cuda(cudaStreamCreate(&s), cudaSuccess);
    char in[8] = "3d copy", out[8] = {0};
    struct cudaMemcpy3DBatchOp op = bytes_op(in, out, sizeof in);
    size_t fail = 7;
    fk.fake_reset_log();
    assert_cuda(cudaMemcpy3DBatchAsync(1, &op, &fail, 0, s), cudaSuccess);
    assert_last_call_has("cuMemcpy3DBatchAsync", "numOps=1 flags=0x0");
    assert_string_equal(out, "3d copy");
    assert_int_equal(fail, 7);
    memset(out, 0, sizeof out);
    assert_cuda(ptsz_memcpy_3d_batch(1, &op, &fail, 0, cudaStreamPerThread), cudaSuccess);
    assert_last_call_has("cuMemcpy3DBatchAsync", "stream=0x2");
    assert_string_equal(out, "3d copy");
    assert_int_equal(fail, 7);

    assert_cuda(cudaMemcpy3DBatchAsync(1, &op, &fail, 1 /* flags */, s), cudaErrorInvalidValue);
    assert_true(fail == SIZE_MAX);
    fail = 7;
    assert_cuda(cudaMemcpy3DBatchAsync(0, NULL, &fail, 0, s), cudaErrorInvalidValue);
    assert_true(fail == SIZE_MAX);
    fail = 7;
    fk.fake_fail_call("cuMemcpy3DBatchAsync", 1, 1);
    assert_cuda(ptsz_memcpy_3d_batch(1, &op, &fail, 0, cudaStreamPerThread),
                cudaErrorInvalidValue);
    assert_true(fail == SIZE_MAX);
    assert_cuda(cudaMemcpy3DBatchAsync(1, &op, NULL, 0, 0), cudaErrorInvalidValue);
    assert_cuda(cudaStreamDestroy(s), cudaSuccess);
}

/* ---- pools ---------------------------------------------------------------------------------- */

static struct cudaMemPoolProps pool_props(enum cudaMemLocationType type, int id)
{
    struct cudaMemPoolProps p;
    memset(&p, 0, sizeof p);
    p.allocType = cudaMemAllocationTypePinned;
    p.handleTypes = cudaMemHandleTypeNone;
    p.location.type = type;
    p.location.id = id;
    return p;
}

static void mem_pool_on_the_host_goes_to_the_driver_as_in_13(void **state)
{
    (void)state;
    cudaMemPool_t pool = NULL;
    fk.fake_reset_log();
    /* 12.9's header says a host location is cudaErrorInvalidValue, but NVIDIA's 12.9 library
     * makes such a pool on driver 580 (H200, tests/gpu/conf_cuda12.cu): the driver decides */
    struct cudaMemPoolProps props = pool_props(cudaMemLocationTypeHost, 0);
    cudaError_t e = cudaMemPoolCreate(&pool, &props);
    assert_int_equal(fk.fake_count_calls("cuMemPoolCreate"), 1);
    assert_int_equal(cudaGetLastError(), e);     /* the fake refuses it: its answer is the call's */
    if (e == cudaSuccess)
        assert_cuda(cudaMemPoolDestroy(pool), cudaSuccess);
    /* a device's pool is made by the driver */
    pool = NULL;
    props = pool_props(cudaMemLocationTypeDevice, 0);
    assert_cuda(cudaMemPoolCreate(&pool, &props), cudaSuccess);
    assert_non_null(pool);
    assert_last_call_has("cuMemPoolCreate", "allocType=1 locationType=1 id=0");
    assert_cuda(cudaMemPoolDestroy(pool), cudaSuccess);
    assert_cuda(cudaMemPoolCreate(&pool, NULL), cudaErrorInvalidValue);
    assert_cuda(cudaMemPoolCreate(NULL, &props), cudaErrorInvalidValue);
}

#define T(name) cmocka_unit_test(name)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(pointer_attributes_write_24_bytes_for_every_kind_of_memory),
        T(texture_reads_64_and_48_byte_descriptors_and_writes_them_back),
        T(surface_reads_and_writes_a_64_byte_resource_descriptor),
        T(mem_advise_with_a_device_number_reaches_the_driver_as_a_location),
        T(mem_prefetch_with_a_device_number_reaches_the_driver_as_a_location),
        T(memcpy_batch_copies_and_sets_fail_index_to_size_max_on_an_error),
        T(memcpy_3d_batch_copies_and_sets_fail_index_to_size_max_on_an_error),
        T(mem_pool_on_the_host_goes_to_the_driver_as_in_13),
    };
    return cmocka_run_group_tests_name("memory12", tests, e2e_setup, NULL);
}
