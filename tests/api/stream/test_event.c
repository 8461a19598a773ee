/*
 * test_event.c - the event API over the fake driver: flags and handles as the driver gets them,
 * elapsed time from the fake's clock (FAKE_EVENT_TICK_MS = 1.5 ms per record), cudaErrorNotReady
 * returned but not stored, and the error paths.  Every check asserts the returned code and the
 * thread's last error afterwards.
 */
#include "stream_test.h"

static void create_makes_a_driver_event_with_default_flags(void **state)
{
    (void)state;
    cudaEvent_t e = NULL;
    assert_cuda(cudaEventCreate(&e), cudaSuccess);
    assert_non_null(e);
    assert_args("cuEventCreate", "flags=0");
    assert_cuda(cudaEventDestroy(e), cudaSuccess);
    assert_args("cuEventDestroy", "event=%p", (void *)e);
}

static void create_with_flags_passes_them_through(void **state)
{
    (void)state;
    cudaEvent_t e = NULL;
    assert_cuda(cudaEventCreateWithFlags(&e, cudaEventBlockingSync), cudaSuccess);
    assert_args("cuEventCreate", "flags=1");
    assert_cuda(cudaEventDestroy(e), cudaSuccess);
    assert_cuda(cudaEventCreateWithFlags(&e, cudaEventDisableTiming | cudaEventInterprocess),
                cudaSuccess);
    assert_args("cuEventCreate", "flags=6");
    assert_cuda(cudaEventDestroy(e), cudaSuccess);
}

static void create_with_invalid_flags_is_the_drivers_invalid_value(void **state)
{
    (void)state;
    cudaEvent_t e = (cudaEvent_t)0x1234;
    assert_cuda(cudaEventCreateWithFlags(&e, 0x8), cudaErrorInvalidValue);
    assert_cuda(cudaEventCreateWithFlags(&e, cudaEventInterprocess), cudaErrorInvalidValue);
    assert_ptr_equal(e, (cudaEvent_t)0x1234);
}

static void create_with_null_pointer_is_invalid_value_without_a_driver_call(void **state)
{
    (void)state;
    size_t before = fk.fake_count_calls("cuEventCreate");
    assert_cuda(cudaEventCreate(NULL), cudaErrorInvalidValue);
    assert_cuda(cudaEventCreateWithFlags(NULL, 0), cudaErrorInvalidValue);
    assert_int_equal(fk.fake_count_calls("cuEventCreate"), before);
}

static void create_failure_in_the_driver_is_translated(void **state)
{
    (void)state;
    cudaEvent_t e = (cudaEvent_t)0x1234;
    fk.fake_fail_call("cuEventCreate", 1, CU_OUT_OF_MEMORY);
    assert_cuda(cudaEventCreate(&e), cudaErrorMemoryAllocation);
    assert_ptr_equal(e, (cudaEvent_t)0x1234);
}

static void record_passes_event_and_stream_unchanged(void **state)
{
    (void)state;
    cudaEvent_t e = NULL;
    cudaStream_t s = NULL;
    assert_cuda(cudaEventCreate(&e), cudaSuccess);
    assert_cuda(cudaStreamCreate(&s), cudaSuccess);
    cudaStream_t handles[] = { s, 0, cudaStreamLegacy, cudaStreamPerThread };
    for (size_t i = 0; i < sizeof handles / sizeof handles[0]; i++) {
        assert_cuda(cudaEventRecord(e, handles[i]), cudaSuccess);
        assert_args("cuEventRecord", "event=%p stream=%p", (void *)e, (void *)handles[i]);
    }
    assert_cuda(cudaEventRecordWithFlags(e, s, cudaEventRecordExternal), cudaSuccess);
    assert_args("cuEventRecordWithFlags", "event=%p stream=%p flags=1", (void *)e, (void *)s);
    assert_cuda(cudaEventRecordWithFlags(e, 0, 0), cudaSuccess);
    assert_args("cuEventRecordWithFlags", "event=%p stream=%p flags=0", (void *)e, (void *)0);
    assert_cuda(cudaEventRecordWithFlags(e, s, 0x10), cudaErrorInvalidValue);
    assert_cuda(cudaStreamDestroy(s), cudaSuccess);
    assert_cuda(cudaEventRecord(e, s), cudaErrorInvalidResourceHandle);
    assert_cuda(cudaEventDestroy(e), cudaSuccess);
}

static void record_of_a_null_or_destroyed_event_is_invalid_resource_handle(void **state)
{
    (void)state;
    cudaEvent_t e = NULL;
    assert_cuda(cudaEventRecord(NULL, 0), cudaErrorInvalidResourceHandle);
    assert_cuda(cudaEventCreate(&e), cudaSuccess);
    assert_cuda(cudaEventDestroy(e), cudaSuccess);
    assert_cuda(cudaEventRecord(e, 0), cudaErrorInvalidResourceHandle);
    assert_cuda(cudaEventQuery(e), cudaErrorInvalidResourceHandle);
    assert_cuda(cudaEventSynchronize(e), cudaErrorInvalidResourceHandle);
    assert_cuda(cudaEventDestroy(e), cudaErrorInvalidResourceHandle);
}

static void elapsed_time_is_the_drivers_milliseconds(void **state)
{
    (void)state;
    cudaEvent_t start = NULL, end = NULL;
    assert_cuda(cudaEventCreate(&start), cudaSuccess);
    assert_cuda(cudaEventCreate(&end), cudaSuccess);
    assert_cuda(cudaEventRecord(start, 0), cudaSuccess);
    assert_cuda(cudaEventRecord(end, 0), cudaSuccess);
    assert_cuda(cudaEventSynchronize(end), cudaSuccess);
    assert_args("cuEventSynchronize", "event=%p", (void *)end);
    float ms = -1.0f;
    assert_cuda(cudaEventElapsedTime(&ms, start, end), cudaSuccess);
    assert_args("cuEventElapsedTime", "start=%p end=%p", (void *)start, (void *)end);
    assert_float_equal(ms, 1.5f, 1e-6);
    assert_cuda(cudaEventElapsedTime(&ms, end, start), cudaSuccess);
    assert_float_equal(ms, -1.5f, 1e-6);
    assert_cuda(cudaEventDestroy(start), cudaSuccess);
    assert_cuda(cudaEventDestroy(end), cudaSuccess);
}

static void elapsed_time_errors(void **state)
{
    (void)state;
    cudaEvent_t timed = NULL, untimed = NULL, never = NULL;
    assert_cuda(cudaEventCreate(&timed), cudaSuccess);
    assert_cuda(cudaEventCreateWithFlags(&untimed, cudaEventDisableTiming), cudaSuccess);
    assert_cuda(cudaEventCreate(&never), cudaSuccess);
    assert_cuda(cudaEventRecord(timed, 0), cudaSuccess);
    assert_cuda(cudaEventRecord(untimed, 0), cudaSuccess);
    float ms = -1.0f;
    size_t before = fk.fake_count_calls("cuEventElapsedTime");
    assert_cuda(cudaEventElapsedTime(NULL, timed, timed), cudaErrorInvalidValue);
    assert_int_equal(fk.fake_count_calls("cuEventElapsedTime"), before);
    assert_cuda(cudaEventElapsedTime(&ms, timed, untimed), cudaErrorInvalidResourceHandle);
    assert_cuda(cudaEventElapsedTime(&ms, never, timed), cudaErrorInvalidResourceHandle);
    assert_cuda(cudaEventElapsedTime(&ms, NULL, timed), cudaErrorInvalidResourceHandle);
    assert_float_equal(ms, -1.0f, 0);
    /* Pending work: returned, not stored (like the queries), and ms untouched. */
    fk.fake_fail_call("cuEventElapsedTime", 1, CU_NOT_READY);
    assert_int_equal(cudaEventElapsedTime(&ms, timed, timed), cudaErrorNotReady);
    assert_int_equal(cudaGetLastError(), cudaSuccess);
    assert_float_equal(ms, -1.0f, 0);
    assert_cuda(cudaEventDestroy(timed), cudaSuccess);
    assert_cuda(cudaEventDestroy(untimed), cudaSuccess);
    assert_cuda(cudaEventDestroy(never), cudaSuccess);
}

static void query_not_ready_is_returned_but_not_stored(void **state)
{
    (void)state;
    cudaEvent_t e = NULL;
    assert_cuda(cudaEventCreate(&e), cudaSuccess);
    assert_cuda(cudaEventQuery(e), cudaSuccess);
    assert_args("cuEventQuery", "event=%p", (void *)e);
    fk.fake_fail_call("cuEventQuery", 1, CU_NOT_READY);
    assert_int_equal(cudaEventQuery(e), cudaErrorNotReady);
    assert_int_equal(cudaPeekAtLastError(), cudaSuccess);
    assert_int_equal(cudaGetLastError(), cudaSuccess);
    assert_cuda(cudaEventDestroy(e), cudaSuccess);
}

static void synchronize_failure_is_translated_and_stored(void **state)
{
    (void)state;
    cudaEvent_t e = NULL;
    assert_cuda(cudaEventCreate(&e), cudaSuccess);
    fk.fake_fail_call("cuEventSynchronize", 1, 999 /* UNKNOWN */);
    assert_cuda(cudaEventSynchronize(e), cudaErrorUnknown);
    fk.fake_fail_call("cuEventDestroy", 1, CU_INVALID_HANDLE);
    assert_cuda(cudaEventDestroy(e), cudaErrorInvalidResourceHandle);
    assert_cuda(cudaEventDestroy(e), cudaSuccess);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(create_makes_a_driver_event_with_default_flags),
        cmocka_unit_test(create_with_flags_passes_them_through),
        cmocka_unit_test(create_with_invalid_flags_is_the_drivers_invalid_value),
        cmocka_unit_test(create_with_null_pointer_is_invalid_value_without_a_driver_call),
        cmocka_unit_test(create_failure_in_the_driver_is_translated),
        cmocka_unit_test(record_passes_event_and_stream_unchanged),
        cmocka_unit_test(record_of_a_null_or_destroyed_event_is_invalid_resource_handle),
        cmocka_unit_test(elapsed_time_is_the_drivers_milliseconds),
        cmocka_unit_test(elapsed_time_errors),
        cmocka_unit_test(query_not_ready_is_returned_but_not_stored),
        cmocka_unit_test(synchronize_failure_is_translated_and_stored),
    };
    return cmocka_run_group_tests(tests, e2e_setup, NULL);
}
