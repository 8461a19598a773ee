/*
 * test_ptsz.c - the _ptsz entry points, reached the way real programs reach them: ptsz.cu is
 * built with -default-stream per-thread, so the toolkit's headers rename its calls.  Stream 0
 * must reach the driver as CU_STREAM_PER_THREAD (0x2); other handles pass unchanged.
 */
#include "stream_test.h"

int ptsz_calls(cudaStream_t s, cudaEvent_t e, cudaStreamCallback_t cb, cudaHostFn_t fn);
cudaError_t ptsz_set_attribute(cudaStream_t s, const cudaStreamAttrValue *v);
cudaError_t ptsz_copy_attributes(cudaStream_t dst, cudaStream_t src);

static int callbacks;
static cudaStream_t callback_stream = (cudaStream_t)0x77;

static void CUDART_CB callback(cudaStream_t stream, cudaError_t status, void *user)
{
    (void)status, (void)user;
    callback_stream = stream;
    callbacks++;
}

static void CUDART_CB host_func(void *user)
{
    (void)user;
    callbacks++;
}

/* Every stream-taking driver call since the log was reset got `stream` as its stream. */
static void assert_every_call_got(cudaStream_t stream)
{
    static const char *const names[] = {
        "cuStreamSynchronize", "cuStreamQuery", "cuStreamWaitEvent", "cuStreamAddCallback",
        "cuLaunchHostFunc", "cuStreamGetFlags", "cuStreamGetPriority", "cuStreamGetDevice",
        "cuStreamGetId", "cuStreamGetAttribute",
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        assert_int_equal(fk.fake_count_calls(names[i]), 1);
        assert_args_prefix(names[i], "stream=%p", (void *)stream);
    }
    char text[64];
    snprintf(text, sizeof text, " stream=%p", (void *)stream);
    assert_non_null(strstr(last_args("cuEventRecord"), text));
    assert_non_null(strstr(last_args("cuEventRecordWithFlags"), text));
}

static void stream_zero_is_the_per_thread_stream_in_every_ptsz_entry_point(void **state)
{
    (void)state;
    cudaEvent_t e = NULL;
    assert_cuda(cudaEventCreate(&e), cudaSuccess);
    fk.fake_reset_log();
    callbacks = 0;
    assert_int_equal(ptsz_calls(0, e, callback, host_func), 0);
    assert_int_equal(cudaGetLastError(), cudaSuccess);
    assert_every_call_got(cudaStreamPerThread);
    assert_int_equal(callbacks, 2);
    assert_ptr_equal(callback_stream, NULL);   /* the handle the caller gave */

    cudaStreamAttrValue v;
    memset(&v, 0, sizeof v);
    assert_cuda(ptsz_set_attribute(0, &v), cudaErrorInvalidResourceHandle);
    assert_args("cuStreamSetAttribute", "stream=%p attr=8 value=set", (void *)cudaStreamPerThread);
    cudaStream_t s = NULL;
    assert_cuda(cudaStreamCreate(&s), cudaSuccess);
    assert_cuda(ptsz_copy_attributes(s, 0), cudaSuccess);
    assert_args("cuStreamCopyAttributes", "dst=%p src=%p", (void *)s, (void *)cudaStreamPerThread);
    assert_cuda(cudaStreamDestroy(s), cudaSuccess);
    assert_cuda(cudaEventDestroy(e), cudaSuccess);
}

static void explicit_handles_pass_unchanged_through_ptsz_entry_points(void **state)
{
    (void)state;
    cudaEvent_t e = NULL;
    cudaStream_t s = NULL;
    assert_cuda(cudaEventCreate(&e), cudaSuccess);
    assert_cuda(cudaStreamCreate(&s), cudaSuccess);
    cudaStream_t handles[] = { s, cudaStreamLegacy };
    for (size_t i = 0; i < sizeof handles / sizeof handles[0]; i++) {
        fk.fake_reset_log();
        assert_int_equal(ptsz_calls(handles[i], e, callback, host_func), 0);
        assert_int_equal(cudaGetLastError(), cudaSuccess);
        assert_every_call_got(handles[i]);
        assert_ptr_equal(callback_stream, handles[i]);
    }
    assert_cuda(cudaStreamDestroy(s), cudaSuccess);
    assert_cuda(cudaEventDestroy(e), cudaSuccess);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(stream_zero_is_the_per_thread_stream_in_every_ptsz_entry_point),
        cmocka_unit_test(explicit_handles_pass_unchanged_through_ptsz_entry_points),
    };
    return cmocka_run_group_tests(tests, e2e_setup, NULL);
}
