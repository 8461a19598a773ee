/*
 * test_memory.c - host, pinned, managed, asynchronous, 2D/3D and peer memory, symbols and
 * pointer attributes against the fake driver: what reaches the driver, the data that moves, and
 * the error paths (return code and last error).  argv[1] picks a group.
 */
#include "e2e.h"

#include <pthread.h>
#include <stdio.h>

const void *mem_dvar_symbol(void);
const void *mem_cvar_symbol(void);
cudaError_t mem_copy_async(void *dst, const void *src, size_t n, cudaStream_t s);
cudaError_t mem_set_async(void *p, int v, size_t n, cudaStream_t s);
cudaError_t mem_copy_2d(void *dst, size_t dp, const void *src, size_t sp, size_t w, size_t h);
cudaError_t mem_copy_2d_async(void *dst, size_t dp, const void *src, size_t sp, size_t w,
                              size_t h, cudaStream_t s);
cudaError_t mem_set_2d(void *p, size_t pitch, int v, size_t w, size_t h);
cudaError_t mem_set_2d_async(void *p, size_t pitch, int v, size_t w, size_t h, cudaStream_t s);
cudaError_t mem_copy_3d(const struct cudaMemcpy3DParms *p);
cudaError_t mem_copy_3d_async(const struct cudaMemcpy3DParms *p, cudaStream_t s);
cudaError_t mem_set_3d(struct cudaPitchedPtr p, int v, struct cudaExtent e);
cudaError_t mem_set_3d_async(struct cudaPitchedPtr p, int v, struct cudaExtent e, cudaStream_t s);
cudaError_t mem_copy_3d_peer(const struct cudaMemcpy3DPeerParms *p);
cudaError_t mem_copy_3d_peer_async(const struct cudaMemcpy3DPeerParms *p, cudaStream_t s);
cudaError_t mem_to_symbol_async(const void *src, size_t n, cudaStream_t s);
cudaError_t mem_from_symbol_async(void *dst, size_t n, cudaStream_t s);
cudaError_t mem_prefetch(const void *p, size_t n, cudaStream_t s);
cudaError_t mem_attach(cudaStream_t s, void *p);

#define STREAM_LEGACY ((cudaStream_t)0x1)
#define STREAM_BOGUS ((cudaStream_t)0x1234)

/* The arguments of the last recorded call of `name` (fails the test when there is none). */
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

#define assert_args_have(name, text)                                                        \
    do {                                                                                    \
        const char *args_ = last_args(name);                                                \
        if (!strstr(args_, (text)))                                                         \
            fail_msg("%s(%s) lacks \"%s\"", (name), args_, (text));                         \
    } while (0)

static int setup_each(void **state)
{
    (void)state;
    assert_int_equal(cudaFree(NULL), cudaSuccess);   /* the context exists before the test */
    fk.fake_reset_log();
    return 0;
}

/* ---- host ----------------------------------------------------------------------------------- */

static void host_alloc_passes_flags_and_frees(void **state)
{
    (void)state;
    void *p = NULL;
    assert_cuda(cudaHostAlloc(&p, 100, cudaHostAllocMapped | cudaHostAllocPortable),
                cudaSuccess);
    assert_non_null(p);
    assert_args_have("cuMemHostAlloc", "bytesize=100 flags=0x3");
    unsigned flags = 0;
    assert_cuda(cudaHostGetFlags(&flags, p), cudaSuccess);
    assert_int_equal(flags, 3);
    void *d = NULL;
    assert_cuda(cudaHostGetDevicePointer(&d, p, 0), cudaSuccess);
    assert_ptr_equal(d, p);
    assert_cuda(cudaFreeHost(p), cudaSuccess);
    assert_int_equal(fk.fake_count_calls("cuMemFreeHost"), 1);
}

static void malloc_host_uses_default_flags(void **state)
{
    (void)state;
    void *p = NULL;
    assert_cuda(cudaMallocHost(&p, 64), cudaSuccess);
    assert_args_have("cuMemHostAlloc", "bytesize=64 flags=0x0");
    memset(p, 1, 64);
    assert_cuda(cudaFreeHost(p), cudaSuccess);
}

static void host_alloc_rejects_null_and_unknown_flags(void **state)
{
    (void)state;
    void *p = NULL;
    assert_cuda(cudaHostAlloc(NULL, 16, 0), cudaErrorInvalidValue);
    assert_cuda(cudaHostAlloc(&p, 16, 0x100), cudaErrorInvalidValue);
    assert_cuda(cudaMallocHost(NULL, 16), cudaErrorInvalidValue);
    assert_int_equal(fk.fake_count_calls("cuMemHostAlloc"), 0);
}

static void host_alloc_driver_failure_is_memory_allocation(void **state)
{
    (void)state;
    void *p = (void *)0x1;
    fk.fake_fail_call("cuMemHostAlloc", 1, 2 /* OUT_OF_MEMORY */);
    assert_cuda(cudaHostAlloc(&p, 16, 0), cudaErrorMemoryAllocation);
    assert_ptr_equal(p, (void *)0x1);
}

static void free_host_of_device_pointer_is_invalid_value(void **state)
{
    (void)state;
    void *d = NULL;
    assert_cuda(cudaMalloc(&d, 64), cudaSuccess);
    assert_cuda(cudaFreeHost(d), cudaErrorInvalidValue);
    assert_cuda(cudaFreeHost(NULL), cudaSuccess);
    assert_cuda(cudaFree(d), cudaSuccess);
}

static void host_register_and_unregister(void **state)
{
    (void)state;
    static char buffer[8192];
    assert_cuda(cudaHostRegister(buffer, sizeof buffer, cudaHostRegisterMapped), cudaSuccess);
    assert_args_have("cuMemHostRegister", "bytesize=8192 flags=0x2");
    void *d = NULL;
    assert_cuda(cudaHostGetDevicePointer(&d, buffer + 16, 0), cudaSuccess);
    assert_ptr_equal(d, buffer + 16);
    assert_cuda(cudaHostRegister(buffer, 16, 0), cudaErrorHostMemoryAlreadyRegistered);
    assert_cuda(cudaHostUnregister(buffer), cudaSuccess);
    assert_cuda(cudaHostUnregister(buffer), cudaErrorHostMemoryNotRegistered);
}

static void host_register_rejects_bad_arguments(void **state)
{
    (void)state;
    static char buffer[64];
    assert_cuda(cudaHostRegister(NULL, 64, 0), cudaErrorInvalidValue);
    assert_cuda(cudaHostRegister(buffer, 0, 0), cudaErrorInvalidValue);
    assert_cuda(cudaHostRegister(buffer, 64, 0x40), cudaErrorInvalidValue);
    assert_cuda(cudaHostUnregister(NULL), cudaErrorInvalidValue);
    assert_int_equal(fk.fake_count_calls("cuMemHostRegister"), 0);
}

static void host_get_device_pointer_rejects_flags_and_unknown_memory(void **state)
{
    (void)state;
    int local = 0;
    void *d = NULL;
    assert_cuda(cudaHostGetDevicePointer(&d, &local, 1), cudaErrorInvalidValue);
    assert_cuda(cudaHostGetDevicePointer(NULL, &local, 0), cudaErrorInvalidValue);
    assert_cuda(cudaHostGetDevicePointer(&d, &local, 0), cudaErrorInvalidValue);
    unsigned flags = 0;
    assert_cuda(cudaHostGetFlags(NULL, &local), cudaErrorInvalidValue);
    assert_cuda(cudaHostGetFlags(&flags, &local), cudaErrorInvalidValue);
}

static void mem_get_info_reports_the_driver_numbers(void **state)
{
    (void)state;
    size_t free_bytes = 0, total = 0;
    assert_cuda(cudaMemGetInfo(&free_bytes, &total), cudaSuccess);
    assert_true(free_bytes > 0 && free_bytes <= total);
    /* A NULL output is skipped, not refused: NVIDIA's runtime succeeds (H200). */
    total = 0;
    assert_cuda(cudaMemGetInfo(NULL, &total), cudaSuccess);
    assert_true(total > 0);
    fk.fake_fail_call("cuMemGetInfo", 1, 1);
    assert_cuda(cudaMemGetInfo(&free_bytes, &total), cudaErrorInvalidValue);
}

/* ---- managed -------------------------------------------------------------------------------- */

static void malloc_managed_passes_attach_flags(void **state)
{
    (void)state;
    void *p = NULL;
    assert_cuda(cudaMallocManaged(&p, 256, cudaMemAttachHost), cudaSuccess);
    assert_args_have("cuMemAllocManaged", "bytesize=256 flags=0x2");
    assert_cuda(cudaFree(p), cudaSuccess);
    assert_cuda(cudaMallocManaged(&p, 256, cudaMemAttachGlobal), cudaSuccess);
    assert_args_have("cuMemAllocManaged", "flags=0x1");
    assert_cuda(cudaFree(p), cudaSuccess);
}

static void malloc_managed_rejects_bad_arguments(void **state)
{
    (void)state;
    void *p = NULL;
    assert_cuda(cudaMallocManaged(NULL, 16, cudaMemAttachGlobal), cudaErrorInvalidValue);
    assert_cuda(cudaMallocManaged(&p, 16, cudaMemAttachSingle), cudaErrorInvalidValue);
    /* size 0: success and a NULL pointer, as NVIDIA's runtime answered on the H200 */
    p = &p;
    assert_cuda(cudaMallocManaged(&p, 0, cudaMemAttachGlobal), cudaSuccess);
    assert_null(p);
    assert_int_equal(fk.fake_count_calls("cuMemAllocManaged"), 0);
}

static void mem_advise_passes_advice_and_location(void **state)
{
    (void)state;
    void *p = NULL;
    assert_cuda(cudaMallocManaged(&p, 4096, cudaMemAttachGlobal), cudaSuccess);
    struct cudaMemLocation dev0 = {cudaMemLocationTypeDevice, 0};
    assert_cuda(cudaMemAdvise(p, 4096, cudaMemAdviseSetPreferredLocation, dev0), cudaSuccess);
    assert_args_have("cuMemAdvise", "count=4096 advice=3 location=1:0");
    struct cudaMemLocation bad = {cudaMemLocationTypeDevice, 7};
    assert_cuda(cudaMemAdvise(p, 4096, cudaMemAdviseSetAccessedBy, bad), cudaErrorInvalidDevice);
    assert_cuda(cudaMemAdvise(p, 4096, (enum cudaMemoryAdvise)99, dev0), cudaErrorInvalidValue);
    void *d = NULL;
    assert_cuda(cudaMalloc(&d, 64), cudaSuccess);
    assert_cuda(cudaMemAdvise(d, 64, cudaMemAdviseSetReadMostly, dev0), cudaErrorInvalidValue);
    assert_cuda(cudaFree(d), cudaSuccess);
    assert_cuda(cudaFree(p), cudaSuccess);
}

/* The fake records no advice: every range answers as never advised nor prefetched. */
static void mem_range_attributes_pass_through(void **state)
{
    (void)state;
    void *p = NULL;
    assert_cuda(cudaMallocManaged(&p, 4096, cudaMemAttachGlobal), cudaSuccess);
    int value = 99;
    assert_cuda(cudaMemRangeGetAttribute(&value, 4, cudaMemRangeAttributeReadMostly, p, 4096),
                cudaSuccess);
    assert_int_equal(value, 0);
    assert_args_have("cuMemRangeGetAttribute", "size=4 attribute=1");
    assert_args_have("cuMemRangeGetAttribute", "count=4096");
    assert_cuda(cudaMemRangeGetAttribute(&value, 4, cudaMemRangeAttributePreferredLocation, p,
                                         4096), cudaSuccess);
    assert_int_equal(value, cudaInvalidDeviceId);
    int accessed[3] = {0, 0, 0};
    assert_cuda(cudaMemRangeGetAttribute(accessed, sizeof accessed,
                                         cudaMemRangeAttributeAccessedBy, p, 4096), cudaSuccess);
    assert_int_equal(accessed[2], cudaInvalidDeviceId);
    /* Several at once: data, sizes and attributes as arrays. */
    enum cudaMemLocationType type = cudaMemLocationTypeDevice;
    int last = 0;
    void *data[] = {&type, &last};
    size_t sizes[] = {sizeof type, sizeof last};
    enum cudaMemRangeAttribute attrs[] = {cudaMemRangeAttributePreferredLocationType,
                                          cudaMemRangeAttributeLastPrefetchLocation};
    assert_cuda(cudaMemRangeGetAttributes(data, sizes, attrs, 2, p, 4096), cudaSuccess);
    assert_args_have("cuMemRangeGetAttributes", "count_attributes=2 first=5");
    assert_int_equal(type, cudaMemLocationTypeInvalid);
    assert_int_equal(last, cudaInvalidDeviceId);
    assert_cuda(cudaFree(p), cudaSuccess);
}

static void mem_range_attributes_error_paths(void **state)
{
    (void)state;
    void *p = NULL, *d = NULL;
    int value = 0;
    void *data[] = {&value};
    size_t sizes[] = {4};
    enum cudaMemRangeAttribute attrs[] = {cudaMemRangeAttributeReadMostly};
    assert_cuda(cudaMallocManaged(&p, 4096, cudaMemAttachGlobal), cudaSuccess);
    assert_cuda(cudaMalloc(&d, 64), cudaSuccess);
    fk.fake_reset_log();
    assert_cuda(cudaMemRangeGetAttribute(NULL, 4, cudaMemRangeAttributeReadMostly, p, 4096),
                cudaErrorInvalidValue);
    assert_cuda(cudaMemRangeGetAttributes(NULL, sizes, attrs, 1, p, 4096), cudaErrorInvalidValue);
    assert_cuda(cudaMemRangeGetAttributes(data, NULL, attrs, 1, p, 4096), cudaErrorInvalidValue);
    assert_cuda(cudaMemRangeGetAttributes(data, sizes, NULL, 1, p, 4096), cudaErrorInvalidValue);
    assert_int_equal(fk.fake_count_calls("cuMemRangeGetAttribute") +
                     fk.fake_count_calls("cuMemRangeGetAttributes"), 0);
    /* The driver's checks: the size an attribute needs, an unknown attribute, memory that is not
     * managed, a range past the allocation. */
    assert_cuda(cudaMemRangeGetAttribute(&value, 8, cudaMemRangeAttributeReadMostly, p, 4096),
                cudaErrorInvalidValue);
    assert_cuda(cudaMemRangeGetAttribute(&value, 4, (enum cudaMemRangeAttribute)99, p, 4096),
                cudaErrorInvalidValue);
    assert_cuda(cudaMemRangeGetAttribute(&value, 4, cudaMemRangeAttributeReadMostly, d, 64),
                cudaErrorInvalidValue);
    assert_cuda(cudaMemRangeGetAttributes(data, sizes, attrs, 1, p, 8192), cudaErrorInvalidValue);
    assert_int_equal(fk.fake_count_calls("cuMemRangeGetAttribute"), 3);
    fk.fake_fail_call("cuMemRangeGetAttributes", 1, 2 /* CUDA_ERROR_OUT_OF_MEMORY */);
    assert_cuda(cudaMemRangeGetAttributes(data, sizes, attrs, 1, p, 4096),
                cudaErrorMemoryAllocation);
    assert_cuda(cudaFree(d), cudaSuccess);
    assert_cuda(cudaFree(p), cudaSuccess);
}

/* A new thread, whose runtime context is not current yet: the range queries and the L2 reset
 * answer cudaErrorDeviceUninitialized without making it current, as NVIDIA's runtime does (H200,
 * a managed range of the main thread's), and nothing reaches the driver's range query; after
 * cudaSetDevice on that thread they work. */
static void *range_queries_on_a_new_thread(void *p)
{
    int value = -1;
    void *data[] = {&value};
    size_t sizes[] = {4};
    enum cudaMemRangeAttribute attrs[] = {cudaMemRangeAttributeReadMostly};
    cudaError_t a = cudaMemRangeGetAttribute(&value, 4, cudaMemRangeAttributeReadMostly, p, 4096);
    cudaError_t b = cudaMemRangeGetAttributes(data, sizes, attrs, 1, p, 4096);
    cudaError_t c = cudaCtxResetPersistingL2Cache();
    cudaError_t last = cudaGetLastError();
    cudaError_t set = cudaSetDevice(0);
    cudaError_t after = cudaMemRangeGetAttribute(&value, 4, cudaMemRangeAttributeReadMostly, p,
                                                 4096);
    static char result[128];
    snprintf(result, sizeof result, "%d %d %d %d %d %d", (int)a, (int)b, (int)c, (int)last,
             (int)set, (int)after);
    return result;
}

static void mem_range_attributes_need_the_threads_context(void **state)
{
    (void)state;
    void *p = NULL;
    assert_cuda(cudaMallocManaged(&p, 4096, cudaMemAttachGlobal), cudaSuccess);
    fk.fake_reset_log();
    pthread_t t;
    void *result = NULL;
    assert_int_equal(pthread_create(&t, NULL, range_queries_on_a_new_thread, p), 0);
    assert_int_equal(pthread_join(t, &result), 0);
    char want[128];
    snprintf(want, sizeof want, "%d %d %d %d 0 0", (int)cudaErrorDeviceUninitialized,
             (int)cudaErrorDeviceUninitialized, (int)cudaErrorDeviceUninitialized,
             (int)cudaErrorDeviceUninitialized);
    assert_string_equal((const char *)result, want);
    assert_int_equal(fk.fake_count_calls("cuMemRangeGetAttribute"), 1);   /* the one after */
    assert_int_equal(fk.fake_count_calls("cuMemRangeGetAttributes"), 0);
    assert_int_equal(fk.fake_count_calls("cuCtxResetPersistingL2Cache"), 0);
    assert_cuda(cudaFree(p), cudaSuccess);
}

static void mem_prefetch_passes_location_and_stream(void **state)
{
    (void)state;
    void *p = NULL;
    assert_cuda(cudaMallocManaged(&p, 4096, cudaMemAttachGlobal), cudaSuccess);
    struct cudaMemLocation host = {cudaMemLocationTypeHost, 0};
    assert_cuda(cudaMemPrefetchAsync(p, 1024, host, 0, STREAM_LEGACY), cudaSuccess);
    assert_args_have("cuMemPrefetchAsync", "count=1024 location=2:0 flags=0x0 stream=0x1");
    assert_cuda(cudaMemPrefetchAsync(p, 1024, host, 0, STREAM_BOGUS),
                cudaErrorInvalidResourceHandle);
    assert_cuda(cudaMemPrefetchAsync(p, 8192, host, 0, 0), cudaErrorInvalidValue);
    assert_cuda(cudaFree(p), cudaSuccess);
}

static void stream_attach_passes_flags(void **state)
{
    (void)state;
    void *p = NULL;
    assert_cuda(cudaMallocManaged(&p, 512, cudaMemAttachGlobal), cudaSuccess);
    assert_cuda(cudaStreamAttachMemAsync(STREAM_LEGACY, p, 0, cudaMemAttachHost), cudaSuccess);
    assert_args_have("cuStreamAttachMemAsync", "stream=0x1");
    assert_args_have("cuStreamAttachMemAsync", "length=0 flags=0x2");
    assert_cuda(cudaStreamAttachMemAsync(0, p, 0, 0x80), cudaErrorInvalidValue);
    assert_cuda(cudaStreamAttachMemAsync(STREAM_BOGUS, p, 0, cudaMemAttachHost),
                cudaErrorInvalidResourceHandle);
    assert_cuda(cudaFree(p), cudaSuccess);
}

/* ---- async and peer ------------------------------------------------------------------------- */

static void memcpy_async_copies_on_the_stream(void **state)
{
    (void)state;
    char *d = NULL;
    char in[32] = "asynchronous", out[32] = {0};
    assert_cuda(cudaMalloc((void **)&d, 32), cudaSuccess);
    assert_cuda(cudaMemcpyAsync(d, in, 32, cudaMemcpyHostToDevice, STREAM_LEGACY), cudaSuccess);
    assert_args_have("cuMemcpyHtoDAsync", "bytes=32 stream=0x1");
    assert_cuda(cudaMemsetAsync(d + 4, 'x', 2, 0), cudaSuccess);
    assert_args_have("cuMemsetD8Async", "value=0x78 count=2 stream=(nil)");
    /* The kind is honoured, as by NVIDIA's runtime (H200, conf_misuse_memory.cu): "to the
     * device" into pageable memory is refused; device pointers on both sides are accepted. */
    assert_cuda(cudaMemcpyAsync(out, d, 32, cudaMemcpyHostToDevice, 0), cudaErrorInvalidValue);
    assert_cuda(cudaMemcpyAsync(d + 16, d, 16, cudaMemcpyHostToDevice, 0), cudaSuccess);
    assert_cuda(cudaMemcpyAsync(out, d, 32, cudaMemcpyDeviceToHost, 0), cudaSuccess);
    assert_args_have("cuMemcpyDtoHAsync", "bytes=32 stream=(nil)");
    assert_cuda(cudaMemcpyAsync(out, d, 32, cudaMemcpyDefault, 0), cudaSuccess);
    assert_args_have("cuMemcpyAsync", "bytes=32 stream=(nil)");
    assert_string_equal(out, "asynxxronous");
    assert_cuda(cudaFree(d), cudaSuccess);
}

static void memcpy_async_error_paths(void **state)
{
    (void)state;
    char buf[8] = {0};
    assert_cuda(cudaMemcpyAsync(buf, buf, 8, (enum cudaMemcpyKind)7, 0),
                cudaErrorInvalidMemcpyDirection);
    assert_cuda(cudaMemcpyAsync(NULL, buf, 8, cudaMemcpyDefault, 0), cudaErrorInvalidValue);
    assert_cuda(cudaMemcpyAsync(NULL, buf, 0, cudaMemcpyDefault, 0), cudaSuccess);
    assert_cuda(cudaMemsetAsync(NULL, 0, 8, 0), cudaErrorInvalidValue);
    assert_cuda(cudaMemcpyAsync(buf, buf + 1, 4, cudaMemcpyDefault, STREAM_BOGUS),
                cudaErrorInvalidResourceHandle);
    fk.fake_fail_call("cuMemcpyAsync", 1, 700);     /* sticky: poisons the context */
    assert_cuda(cudaMemcpyAsync(buf, buf + 1, 4, cudaMemcpyDefault, 0),
                cudaErrorIllegalAddress);
    assert_cuda(cudaMemsetAsync(buf, 0, 1, 0), cudaErrorIllegalAddress);
}

static void memcpy_peer_checks_devices_and_copies(void **state)
{
    (void)state;
    int *a = NULL, *b = NULL, v = 42, r = 0;
    assert_cuda(cudaMalloc((void **)&a, 4), cudaSuccess);
    assert_cuda(cudaMalloc((void **)&b, 4), cudaSuccess);
    assert_cuda(cudaMemcpy(a, &v, 4, cudaMemcpyHostToDevice), cudaSuccess);
    assert_cuda(cudaMemcpyPeer(b, 0, a, 0, 4), cudaSuccess);
    /* Memory a device addresses on both sides, or cudaErrorInvalidValue as from NVIDIA's
     * runtime: pageable memory is refused, page-locked memory accepted (H200). */
    assert_cuda(cudaMemcpyPeerAsync(&r, 0, b, 0, 4, STREAM_LEGACY), cudaErrorInvalidValue);
    assert_cuda(cudaMemcpyPeer(b, 0, &v, 0, 4), cudaErrorInvalidValue);
    int *pinned = NULL;
    assert_cuda(cudaMallocHost((void **)&pinned, 4), cudaSuccess);
    assert_cuda(cudaMemcpyPeerAsync(pinned, 0, b, 0, 4, STREAM_LEGACY), cudaSuccess);
    assert_cuda(cudaStreamSynchronize(STREAM_LEGACY), cudaSuccess);
    assert_int_equal(*pinned, 42);
    assert_cuda(cudaFreeHost(pinned), cudaSuccess);
    assert_cuda(cudaMemset(a, 0, 4), cudaSuccess);
    assert_cuda(cudaMemcpyPeerAsync(a, 0, b, 0, 4, STREAM_LEGACY), cudaSuccess);
    assert_args_have("cuMemcpyPeerAsync", "bytes=4 stream=0x1");
    assert_cuda(cudaMemcpy(&r, a, 4, cudaMemcpyDeviceToHost), cudaSuccess);
    assert_int_equal(r, 42);
    assert_cuda(cudaMemcpyPeer(b, 1, a, 0, 4), cudaErrorInvalidDevice);
    assert_cuda(cudaMemcpyPeerAsync(b, 0, a, -1, 4, 0), cudaErrorInvalidDevice);
    assert_cuda(cudaMemcpyPeer(NULL, 0, a, 0, 4), cudaErrorInvalidValue);
    assert_cuda(cudaFree(a), cudaSuccess);
    assert_cuda(cudaFree(b), cudaSuccess);
}

/* ---- pitched -------------------------------------------------------------------------------- */

static void malloc_pitch_returns_the_driver_pitch(void **state)
{
    (void)state;
    void *p = NULL;
    size_t pitch = 0;
    assert_cuda(cudaMallocPitch(&p, &pitch, 100, 3), cudaSuccess);
    assert_args_have("cuMemAllocPitch", "width=100 height=3 element=16");
    assert_int_equal(pitch, 512);
    assert_cuda(cudaFree(p), cudaSuccess);
    assert_cuda(cudaMallocPitch(NULL, &pitch, 100, 3), cudaErrorInvalidValue);
    assert_cuda(cudaMallocPitch(&p, NULL, 100, 3), cudaErrorInvalidValue);
    fk.fake_fail_call("cuMemAllocPitch", 1, 2);
    assert_cuda(cudaMallocPitch(&p, &pitch, 100, 3), cudaErrorMemoryAllocation);
}

static void malloc_3d_allocates_height_times_depth_rows(void **state)
{
    (void)state;
    struct cudaPitchedPtr pp;
    struct cudaExtent e = {10, 4, 3};
    assert_cuda(cudaMalloc3D(&pp, e), cudaSuccess);
    assert_args_have("cuMemAllocPitch", "width=10 height=12");
    assert_int_equal(pp.pitch, 512);
    assert_int_equal(pp.xsize, 10);
    assert_int_equal(pp.ysize, 4);
    assert_cuda(cudaFree(pp.ptr), cudaSuccess);
    assert_cuda(cudaMalloc3D(NULL, e), cudaErrorInvalidValue);
}

static void memcpy_2d_round_trip_through_pitched_memory(void **state)
{
    (void)state;
    char *d = NULL;
    size_t pitch = 0;
    char in[3][5] = {"abcd", "efgh", "ijkl"}, out[3][5] = {{0}};
    assert_cuda(cudaMallocPitch((void **)&d, &pitch, 5, 3), cudaSuccess);
    assert_cuda(cudaMemcpy2D(d, pitch, in, 5, 5, 3, cudaMemcpyHostToDevice), cudaSuccess);
    assert_args_have("cuMemcpy2DUnaligned", "pitch=5 dst=4:");
    assert_cuda(cudaMemset2D(d + 1, pitch, '-', 2, 3), cudaSuccess);
    assert_args_have("cuMemsetD2D8", "pitch=512 value=0x2d width=2 height=3");
    assert_cuda(cudaMemcpy2DAsync(out, 5, d, pitch, 5, 3, cudaMemcpyDeviceToHost, STREAM_LEGACY),
                cudaSuccess);
    assert_args_have("cuMemcpy2DAsync", "stream=0x1");
    assert_string_equal(out[0], "a--d");
    assert_string_equal(out[2], "i--l");
    assert_cuda(cudaMemset2DAsync(d, pitch, 0, 5, 3, 0), cudaSuccess);
    assert_args_have("cuMemsetD2D8Async", "width=5 height=3 stream=(nil)");
    assert_cuda(cudaFree(d), cudaSuccess);
}

static void memcpy_2d_error_paths(void **state)
{
    (void)state;
    char buf[64] = {0};
    assert_cuda(cudaMemcpy2D(buf, 8, buf, 8, 4, 2, (enum cudaMemcpyKind)9),
                cudaErrorInvalidMemcpyDirection);
    assert_cuda(cudaMemcpy2D(buf, 2, buf + 32, 8, 4, 2, cudaMemcpyHostToHost),
                cudaErrorInvalidPitchValue);
    assert_cuda(cudaMemcpy2DAsync(NULL, 8, buf, 8, 4, 2, cudaMemcpyDefault, 0),
                cudaErrorInvalidValue);
    assert_cuda(cudaMemset2D(NULL, 8, 0, 4, 2), cudaErrorInvalidValue);
    assert_cuda(cudaMemset2D(buf, 2, 0, 4, 2), cudaErrorInvalidValue);
    assert_int_equal(fk.fake_count_calls("cuMemcpy2DUnaligned"), 0);
    assert_cuda(cudaMemcpy2D(buf, 8, buf, 8, 0, 2, cudaMemcpyDefault), cudaSuccess);
    void *d = NULL;
    assert_cuda(cudaMalloc(&d, 64), cudaSuccess);
    assert_cuda(cudaMemset2D(d, 64, 0, 64, 2), cudaErrorInvalidValue);   /* past the end */
    fk.fake_fail_call("cuMemcpy2DAsync", 1, 400);
    assert_cuda(cudaMemcpy2DAsync(d, 8, buf, 8, 4, 2, cudaMemcpyDefault, 0),
                cudaErrorInvalidResourceHandle);
    assert_cuda(cudaFree(d), cudaSuccess);
}

static void memcpy_3d_translates_positions_and_extent(void **state)
{
    (void)state;
    struct cudaPitchedPtr dev;
    struct cudaExtent e = {8, 4, 3};
    assert_cuda(cudaMalloc3D(&dev, e), cudaSuccess);
    unsigned char host[3][4][8], back[3][4][8];
    for (size_t i = 0; i < sizeof host; i++)
        ((unsigned char *)host)[i] = (unsigned char)i;
    struct cudaMemcpy3DParms p = {0};
    p.srcPtr.ptr = host;
    p.srcPtr.pitch = 8;
    p.srcPtr.xsize = 8;
    p.srcPtr.ysize = 4;
    p.dstPtr = dev;
    p.extent = e;
    p.kind = cudaMemcpyHostToDevice;
    assert_cuda(cudaMemcpy3D(&p), cudaSuccess);
    assert_args_have("cuMemcpy3D", "pitch=8 height=4 pos=(0,0,0) dst=4:");
    assert_args_have("cuMemcpy3D", "pitch=512 height=4 pos=(0,0,0) extent=(8,4,3)");
    assert_cuda(cudaMemset3D(dev, 0xee, (struct cudaExtent){2, 1, 3}), cudaSuccess);
    assert_int_equal(fk.fake_count_calls("cuMemsetD2D8"), 3);   /* one per slice */
    struct cudaMemcpy3DParms q = {0};
    q.srcPtr = dev;
    q.dstPtr.ptr = back;
    q.dstPtr.pitch = 8;
    q.dstPtr.ysize = 4;
    q.extent = e;
    q.kind = cudaMemcpyDefault;
    assert_cuda(cudaMemcpy3DAsync(&q, STREAM_LEGACY), cudaSuccess);
    assert_args_have("cuMemcpy3DAsync", "stream=0x1");
    assert_int_equal(back[1][0][0], 0xee);
    assert_int_equal(back[1][0][2], host[1][0][2]);
    assert_int_equal(back[2][1][0], host[2][1][0]);
    assert_cuda(cudaMemset3DAsync(dev, 1, e, 0), cudaSuccess);
    assert_args_have("cuMemsetD2D8Async", "width=8 height=12");
    q.srcPos.x = 1;
    q.dstPos.y = 1;
    q.extent.width = 2;
    q.extent.height = 1;
    assert_cuda(cudaMemcpy3D(&q), cudaSuccess);
    assert_args_have("cuMemcpy3D", "pos=(1,0,0) dst=4:");
    assert_args_have("cuMemcpy3D", "pos=(0,1,0) extent=(2,1,3)");
    assert_cuda(cudaFree(dev.ptr), cudaSuccess);
}

static void memcpy_3d_error_paths(void **state)
{
    (void)state;
    struct cudaMemcpy3DParms p = {0};
    char buf[16] = {0};
    assert_cuda(cudaMemcpy3D(NULL), cudaErrorInvalidValue);
    p.kind = (enum cudaMemcpyKind)5;
    assert_cuda(cudaMemcpy3D(&p), cudaErrorInvalidMemcpyDirection);
    p.kind = cudaMemcpyDefault;
    p.extent = (struct cudaExtent){1, 1, 1};
    assert_cuda(cudaMemcpy3D(&p), cudaErrorInvalidValue);          /* no operands */
    p.srcPtr = (struct cudaPitchedPtr){buf, 16, 16, 1};
    p.dstPtr = (struct cudaPitchedPtr){buf + 8, 16, 16, 1};
    p.dstArray = (cudaArray_t)0x10;                                 /* both forms */
    assert_cuda(cudaMemcpy3D(&p), cudaErrorInvalidValue);
    p.dstPtr.ptr = NULL;                                            /* unknown array */
    assert_cuda(cudaMemcpy3D(&p), cudaErrorInvalidResourceHandle);
    assert_cuda(cudaMemset3D((struct cudaPitchedPtr){NULL, 8, 8, 1}, 0,
                             (struct cudaExtent){4, 1, 1}), cudaErrorInvalidValue);
    assert_cuda(cudaMemset3D((struct cudaPitchedPtr){buf, 4, 4, 1}, 0,
                             (struct cudaExtent){8, 2, 1}), cudaErrorInvalidValue);
    assert_cuda(cudaMemset3D((struct cudaPitchedPtr){buf, 8, 8, 1}, 0,
                             (struct cudaExtent){8, 2, 2}), cudaErrorInvalidValue);
}

static void memcpy_3d_peer_checks_devices(void **state)
{
    (void)state;
    char a[16] = "peer", b[16] = {0};
    struct cudaMemcpy3DPeerParms p = {0};
    p.srcPtr = (struct cudaPitchedPtr){a, 16, 16, 1};
    p.dstPtr = (struct cudaPitchedPtr){b, 16, 16, 1};
    p.extent = (struct cudaExtent){5, 1, 1};
    assert_cuda(cudaMemcpy3DPeer(&p), cudaSuccess);
    assert_string_equal(b, "peer");
    assert_cuda(cudaMemcpy3DPeerAsync(&p, STREAM_LEGACY), cudaSuccess);
    assert_args_have("cuMemcpy3DAsync", "stream=0x1");
    p.dstDevice = 3;
    assert_cuda(cudaMemcpy3DPeer(&p), cudaErrorInvalidDevice);
    assert_cuda(cudaMemcpy3DPeer(NULL), cudaErrorInvalidValue);
}

/* ---- symbols -------------------------------------------------------------------------------- */

static void symbol_address_and_size_come_from_the_module(void **state)
{
    (void)state;
    void *addr = NULL;
    size_t size = 0;
    assert_cuda(cudaGetSymbolAddress(&addr, mem_cvar_symbol()), cudaSuccess);
    assert_cuda(cudaGetSymbolSize(&size, mem_cvar_symbol()), cudaSuccess);
    assert_int_equal(size, 8 * sizeof(float));
    size_t storage_size = 0;
    assert_ptr_equal(addr, fk.fake_global_storage("mem_cvar", &storage_size));
    assert_int_equal(storage_size, size);
    int local = 0;
    assert_cuda(cudaGetSymbolAddress(&addr, &local), cudaErrorInvalidSymbol);
    assert_cuda(cudaGetSymbolSize(&size, &local), cudaErrorInvalidSymbol);
    assert_cuda(cudaGetSymbolAddress(NULL, mem_cvar_symbol()), cudaErrorInvalidValue);
    assert_cuda(cudaGetSymbolSize(NULL, mem_cvar_symbol()), cudaErrorInvalidValue);
}

static void async_symbol_copies_use_the_stream(void **state)
{
    (void)state;
    int v = 99, r = 0;
    assert_cuda(cudaMemcpyToSymbolAsync(mem_dvar_symbol(), &v, sizeof v, 0,
                                        cudaMemcpyHostToDevice, STREAM_LEGACY), cudaSuccess);
    assert_args_have("cuMemcpyHtoDAsync", "bytes=4 stream=0x1");
    assert_cuda(cudaMemcpyFromSymbolAsync(&r, mem_dvar_symbol(), sizeof r, 0,
                                          cudaMemcpyDeviceToHost, 0), cudaSuccess);
    assert_int_equal(r, 99);
    assert_cuda(cudaMemcpyToSymbolAsync(mem_dvar_symbol(), &v, sizeof v, 0,
                                        cudaMemcpyDeviceToHost, 0),
                cudaErrorInvalidMemcpyDirection);
    assert_cuda(cudaMemcpyFromSymbolAsync(&r, mem_dvar_symbol(), sizeof r, 0,
                                          cudaMemcpyHostToDevice, 0),
                cudaErrorInvalidMemcpyDirection);
    assert_cuda(cudaMemcpyToSymbolAsync(mem_dvar_symbol(), &v, sizeof v, 4,
                                        cudaMemcpyHostToDevice, 0), cudaErrorInvalidValue);
    assert_cuda(cudaMemcpyFromSymbolAsync(&r, &v, sizeof r, 0, cudaMemcpyDeviceToHost, 0),
                cudaErrorInvalidSymbol);
}

/* ---- attributes ----------------------------------------------------------------------------- */

static void pointer_attributes_of_each_kind(void **state)
{
    (void)state;
    struct cudaPointerAttributes a;
    void *dev = NULL, *host = NULL, *managed = NULL;
    int local = 0;
    assert_cuda(cudaMalloc(&dev, 64), cudaSuccess);
    assert_cuda(cudaMallocHost(&host, 64), cudaSuccess);
    assert_cuda(cudaMallocManaged(&managed, 64, cudaMemAttachGlobal), cudaSuccess);

    assert_cuda(cudaPointerGetAttributes(&a, (char *)dev + 8), cudaSuccess);
    assert_int_equal(a.type, cudaMemoryTypeDevice);
    assert_int_equal(a.device, 0);
    assert_ptr_equal(a.devicePointer, (char *)dev + 8);
    assert_null(a.hostPointer);

    assert_cuda(cudaPointerGetAttributes(&a, host), cudaSuccess);
    assert_int_equal(a.type, cudaMemoryTypeHost);
    assert_ptr_equal(a.devicePointer, host);
    assert_ptr_equal(a.hostPointer, host);

    assert_cuda(cudaPointerGetAttributes(&a, managed), cudaSuccess);
    assert_int_equal(a.type, cudaMemoryTypeManaged);
    assert_ptr_equal(a.devicePointer, managed);
    assert_ptr_equal(a.hostPointer, managed);

    assert_cuda(cudaPointerGetAttributes(&a, &local), cudaSuccess);
    assert_int_equal(a.type, cudaMemoryTypeUnregistered);
    assert_int_equal(a.device, cudaInvalidDeviceId);
    assert_null(a.devicePointer);
    assert_ptr_equal(a.hostPointer, &local);

    assert_cuda(cudaPointerGetAttributes(NULL, dev), cudaErrorInvalidValue);
    fk.fake_fail_call("cuPointerGetAttributes", 1, 201);
    assert_cuda(cudaPointerGetAttributes(&a, dev), cudaErrorDeviceUninitialized);
    assert_cuda(cudaFree(dev), cudaSuccess);
    assert_cuda(cudaFreeHost(host), cudaSuccess);
    assert_cuda(cudaFree(managed), cudaSuccess);
}

/* ---- per-thread default stream (built with -default-stream per-thread) --------------------- */

static void per_thread_variants_map_stream_zero_to_the_per_thread_stream(void **state)
{
    (void)state;
    char *d = NULL, host[64] = "per-thread", out[64] = {0};
    assert_cuda(cudaMalloc((void **)&d, 64), cudaSuccess);
    assert_cuda(mem_copy_async(d, host, 64, 0), cudaSuccess);
    assert_args_have("cuMemcpyAsync", "stream=0x2");
    assert_cuda(mem_copy_async(d, host, 64, STREAM_LEGACY), cudaSuccess);
    assert_args_have("cuMemcpyAsync", "stream=0x1");
    assert_cuda(mem_set_async(d + 3, '_', 1, 0), cudaSuccess);
    assert_args_have("cuMemsetD8Async", "stream=0x2");
    assert_cuda(mem_copy_2d(out, 64, d, 64, 64, 1), cudaSuccess);
    assert_string_equal(out, "per_thread");
    assert_int_equal(fk.fake_count_calls("cuMemcpy2DUnaligned"), 1);
    assert_cuda(mem_copy_2d_async(out, 64, d, 64, 64, 1, 0), cudaSuccess);
    assert_args_have("cuMemcpy2DAsync", "stream=0x2");
    assert_cuda(mem_set_2d(d, 64, 0, 8, 1), cudaSuccess);
    assert_cuda(mem_set_2d_async(d, 64, 0, 8, 1, 0), cudaSuccess);
    assert_args_have("cuMemsetD2D8Async", "stream=0x2");
    struct cudaMemcpy3DParms p = {0};
    p.srcPtr = (struct cudaPitchedPtr){host, 64, 64, 1};
    p.dstPtr = (struct cudaPitchedPtr){d, 64, 64, 1};
    p.extent = (struct cudaExtent){64, 1, 1};
    p.kind = cudaMemcpyDefault;
    assert_cuda(mem_copy_3d(&p), cudaSuccess);
    assert_cuda(mem_copy_3d_async(&p, 0), cudaSuccess);
    assert_args_have("cuMemcpy3DAsync", "stream=0x2");
    assert_cuda(mem_set_3d(p.dstPtr, 0, p.extent), cudaSuccess);
    assert_cuda(mem_set_3d_async(p.dstPtr, 0, p.extent, 0), cudaSuccess);
    assert_args_have("cuMemsetD2D8Async", "stream=0x2");
    struct cudaMemcpy3DPeerParms q = {0};
    q.srcPtr = p.srcPtr;
    q.dstPtr = p.dstPtr;
    q.extent = p.extent;
    assert_cuda(mem_copy_3d_peer(&q), cudaSuccess);
    assert_cuda(mem_copy_3d_peer_async(&q, 0), cudaSuccess);
    assert_args_have("cuMemcpy3DAsync", "stream=0x2");
    int v = 7, r = 0;
    assert_cuda(mem_to_symbol_async(&v, sizeof v, 0), cudaSuccess);
    assert_args_have("cuMemcpyHtoDAsync", "stream=0x2");
    assert_cuda(mem_from_symbol_async(&r, sizeof r, 0), cudaSuccess);
    assert_int_equal(r, 7);
    void *m = NULL;
    assert_cuda(cudaMallocManaged(&m, 128, cudaMemAttachGlobal), cudaSuccess);
    assert_cuda(mem_prefetch(m, 128, 0), cudaSuccess);
    assert_args_have("cuMemPrefetchAsync", "stream=0x2");
    assert_cuda(mem_attach(0, m), cudaSuccess);
    assert_args_have("cuStreamAttachMemAsync", "stream=0x2");
    assert_cuda(cudaFree(m), cudaSuccess);
    assert_cuda(cudaFree(d), cudaSuccess);
}

/* ---- groups --------------------------------------------------------------------------------- */

#define T(f) cmocka_unit_test_setup(f, setup_each)

int main(int argc, char **argv)
{
    const char *group = argc > 1 ? argv[1] : "";
    const struct CMUnitTest host[] = {
        T(host_alloc_passes_flags_and_frees), T(malloc_host_uses_default_flags),
        T(host_alloc_rejects_null_and_unknown_flags),
        T(host_alloc_driver_failure_is_memory_allocation),
        T(free_host_of_device_pointer_is_invalid_value), T(host_register_and_unregister),
        T(host_register_rejects_bad_arguments),
        T(host_get_device_pointer_rejects_flags_and_unknown_memory),
        T(mem_get_info_reports_the_driver_numbers),
    };
    const struct CMUnitTest managed[] = {
        T(malloc_managed_passes_attach_flags), T(malloc_managed_rejects_bad_arguments),
        T(mem_advise_passes_advice_and_location), T(mem_prefetch_passes_location_and_stream),
        T(stream_attach_passes_flags), T(mem_range_attributes_pass_through),
        T(mem_range_attributes_error_paths), T(mem_range_attributes_need_the_threads_context),
    };
    const struct CMUnitTest async[] = {
        T(memcpy_peer_checks_devices_and_copies), T(memcpy_async_copies_on_the_stream),
        T(memcpy_async_error_paths),   /* last: it poisons the context */
    };
    const struct CMUnitTest pitched[] = {
        T(malloc_pitch_returns_the_driver_pitch), T(malloc_3d_allocates_height_times_depth_rows),
        T(memcpy_2d_round_trip_through_pitched_memory), T(memcpy_2d_error_paths),
        T(memcpy_3d_translates_positions_and_extent), T(memcpy_3d_error_paths),
        T(memcpy_3d_peer_checks_devices),
    };
    const struct CMUnitTest symbols[] = {
        T(symbol_address_and_size_come_from_the_module), T(async_symbol_copies_use_the_stream),
    };
    const struct CMUnitTest attributes[] = {T(pointer_attributes_of_each_kind)};
    const struct CMUnitTest per_thread[] = {
        T(per_thread_variants_map_stream_zero_to_the_per_thread_stream),
    };
#define GROUP(name)                                                                         \
    if (strcmp(group, #name) == 0)                                                          \
        return cmocka_run_group_tests_name(#name, name, e2e_setup, NULL);
    GROUP(host) GROUP(managed) GROUP(async) GROUP(pitched) GROUP(symbols) GROUP(attributes)
    GROUP(per_thread)
    fprintf(stderr, "usage: %s host|managed|async|pitched|symbols|attributes|per_thread\n",
            argv[0]);
    return 2;
}
