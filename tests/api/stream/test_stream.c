/*
 * test_stream.c - the stream API over the fake driver: what each function hands the driver (the
 * fake's call log), what it answers, and its error paths.  Every check asserts the returned code
 * and the thread's last error afterwards (assert_cuda).  Runs with FAKECUDA_DEVICES=2.
 */
#include "stream_test.h"

void stream_test_launch(cudaStream_t s, int tag);

/* ---- creation ------------------------------------------------------------------------------- */

static void create_makes_a_blocking_driver_stream(void **state)
{
    (void)state;
    cudaStream_t s = NULL;
    assert_cuda(cudaStreamCreate(&s), cudaSuccess);
    assert_non_null(s);
    assert_args("cuStreamCreate", "flags=0");
    unsigned flags = 99;
    assert_cuda(cudaStreamGetFlags(s, &flags), cudaSuccess);
    assert_int_equal(flags, cudaStreamDefault);
    assert_args("cuStreamGetFlags", "stream=%p", (void *)s);
    assert_cuda(cudaStreamDestroy(s), cudaSuccess);
    assert_args("cuStreamDestroy", "stream=%p", (void *)s);
}

static void create_with_flags_passes_non_blocking_through(void **state)
{
    (void)state;
    cudaStream_t s = NULL;
    assert_cuda(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), cudaSuccess);
    assert_args("cuStreamCreate", "flags=1");
    unsigned flags = 0;
    assert_cuda(cudaStreamGetFlags(s, &flags), cudaSuccess);
    assert_int_equal(flags, cudaStreamNonBlocking);
    assert_cuda(cudaStreamDestroy(s), cudaSuccess);
}

static void create_with_unknown_flags_is_invalid_value(void **state)
{
    (void)state;
    cudaStream_t s = (cudaStream_t)0x1234;
    assert_cuda(cudaStreamCreateWithFlags(&s, 0x10), cudaErrorInvalidValue);
    assert_ptr_equal(s, (cudaStream_t)0x1234);
}

static void create_with_null_pointer_is_invalid_value_without_a_driver_call(void **state)
{
    (void)state;
    size_t before = fk.fake_count_calls("cuStreamCreate") +
                    fk.fake_count_calls("cuStreamCreateWithPriority");
    assert_cuda(cudaStreamCreate(NULL), cudaErrorInvalidValue);
    assert_cuda(cudaStreamCreateWithFlags(NULL, 0), cudaErrorInvalidValue);
    assert_cuda(cudaStreamCreateWithPriority(NULL, 0, 0), cudaErrorInvalidValue);
    assert_int_equal(fk.fake_count_calls("cuStreamCreate") +
                     fk.fake_count_calls("cuStreamCreateWithPriority"), before);
}

static void create_failure_in_the_driver_is_translated_and_leaves_the_handle(void **state)
{
    (void)state;
    cudaStream_t s = (cudaStream_t)0x1234;
    fk.fake_fail_call("cuStreamCreate", 1, CU_OUT_OF_MEMORY);
    assert_cuda(cudaStreamCreate(&s), cudaErrorMemoryAllocation);
    assert_ptr_equal(s, (cudaStream_t)0x1234);
    fk.fake_fail_call("cuStreamCreateWithPriority", 1, CU_OUT_OF_MEMORY);
    assert_cuda(cudaStreamCreateWithPriority(&s, 0, -1), cudaErrorMemoryAllocation);
    assert_ptr_equal(s, (cudaStream_t)0x1234);
}

static void create_with_priority_passes_flags_and_priority(void **state)
{
    (void)state;
    cudaStream_t s = NULL, clamped = NULL;
    assert_cuda(cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, -3), cudaSuccess);
    assert_args("cuStreamCreateWithPriority", "flags=1 priority=-3");
    int priority = 0;
    assert_cuda(cudaStreamGetPriority(s, &priority), cudaSuccess);
    assert_int_equal(priority, -3);
    assert_args("cuStreamGetPriority", "stream=%p", (void *)s);
    /* Out of range: the driver clamps it to the greatest priority. */
    assert_cuda(cudaStreamCreateWithPriority(&clamped, 0, -100), cudaSuccess);
    assert_cuda(cudaStreamGetPriority(clamped, &priority), cudaSuccess);
    assert_int_equal(priority, -5);
    assert_cuda(cudaStreamDestroy(s), cudaSuccess);
    assert_cuda(cudaStreamDestroy(clamped), cudaSuccess);
}

static void priority_range_comes_from_the_driver_and_accepts_null(void **state)
{
    (void)state;
    int least = 99, greatest = 99;
    assert_cuda(cudaDeviceGetStreamPriorityRange(&least, &greatest), cudaSuccess);
    assert_int_equal(least, 0);
    assert_int_equal(greatest, -5);
    assert_args("cuCtxGetStreamPriorityRange", "least=set greatest=set");
    assert_cuda(cudaDeviceGetStreamPriorityRange(NULL, &greatest), cudaSuccess);
    assert_args("cuCtxGetStreamPriorityRange", "least=NULL greatest=set");
    assert_cuda(cudaDeviceGetStreamPriorityRange(&least, NULL), cudaSuccess);
    assert_cuda(cudaDeviceGetStreamPriorityRange(NULL, NULL), cudaSuccess);
    fk.fake_fail_call("cuCtxGetStreamPriorityRange", 1, 201 /* INVALID_CONTEXT */);
    assert_cuda(cudaDeviceGetStreamPriorityRange(&least, &greatest), cudaErrorDeviceUninitialized);
}

/* ---- destruction ---------------------------------------------------------------------------- */

static void destroyed_stream_is_an_invalid_resource_handle(void **state)
{
    (void)state;
    cudaStream_t s = NULL;
    assert_cuda(cudaStreamCreate(&s), cudaSuccess);
    assert_cuda(cudaStreamDestroy(s), cudaSuccess);
    /* On NVIDIA's runtime this is a use after free (SEMANTICS.md 0); the fake checks handles. */
    assert_cuda(cudaStreamSynchronize(s), cudaErrorInvalidResourceHandle);
    assert_cuda(cudaStreamDestroy(s), cudaErrorInvalidResourceHandle);
}

static void destroying_a_special_stream_is_the_drivers_answer(void **state)
{
    (void)state;
    assert_cuda(cudaStreamDestroy(0), cudaErrorInvalidResourceHandle);
    assert_args("cuStreamDestroy", "stream=%p", (void *)0);
    assert_cuda(cudaStreamDestroy(cudaStreamPerThread), cudaErrorInvalidResourceHandle);
    assert_args("cuStreamDestroy", "stream=%p", (void *)cudaStreamPerThread);
}

/* ---- synchronisation and queries ------------------------------------------------------------ */

static void synchronize_passes_every_handle_unchanged(void **state)
{
    (void)state;
    cudaStream_t s = NULL;
    assert_cuda(cudaStreamCreate(&s), cudaSuccess);
    cudaStream_t handles[] = { s, 0, cudaStreamLegacy, cudaStreamPerThread };
    for (size_t i = 0; i < sizeof handles / sizeof handles[0]; i++) {
        assert_cuda(cudaStreamSynchronize(handles[i]), cudaSuccess);
        assert_args("cuStreamSynchronize", "stream=%p", (void *)handles[i]);
        assert_cuda(cudaStreamQuery(handles[i]), cudaSuccess);
        assert_args("cuStreamQuery", "stream=%p", (void *)handles[i]);
    }
    assert_cuda(cudaStreamDestroy(s), cudaSuccess);
}

static void query_not_ready_is_returned_but_not_stored(void **state)
{
    (void)state;
    fk.fake_fail_call("cuStreamQuery", 1, CU_NOT_READY);
    assert_int_equal(cudaStreamQuery(0), cudaErrorNotReady);
    assert_int_equal(cudaPeekAtLastError(), cudaSuccess);
    assert_int_equal(cudaGetLastError(), cudaSuccess);
}

static void query_not_ready_keeps_an_earlier_last_error(void **state)
{
    (void)state;
    assert_int_equal(cudaStreamCreate(NULL), cudaErrorInvalidValue);
    fk.fake_fail_call("cuStreamQuery", 1, CU_NOT_READY);
    assert_int_equal(cudaStreamQuery(0), cudaErrorNotReady);
    assert_int_equal(cudaGetLastError(), cudaErrorInvalidValue);
}

static void query_and_synchronize_failures_are_stored(void **state)
{
    (void)state;
    fk.fake_fail_call("cuStreamQuery", 1, CU_INVALID_HANDLE);
    assert_cuda(cudaStreamQuery(0), cudaErrorInvalidResourceHandle);
    fk.fake_fail_call("cuStreamSynchronize", 1, 999 /* UNKNOWN */);
    assert_cuda(cudaStreamSynchronize(0), cudaErrorUnknown);
}

static void wait_event_passes_stream_event_and_flags(void **state)
{
    (void)state;
    cudaStream_t s = NULL;
    cudaEvent_t e = NULL;
    assert_cuda(cudaStreamCreate(&s), cudaSuccess);
    assert_cuda(cudaEventCreate(&e), cudaSuccess);
    assert_cuda(cudaStreamWaitEvent(s, e, 0), cudaSuccess);
    assert_args("cuStreamWaitEvent", "stream=%p event=%p flags=0", (void *)s, (void *)e);
    assert_cuda(cudaStreamWaitEvent(0, e, cudaEventWaitExternal), cudaSuccess);
    assert_args("cuStreamWaitEvent", "stream=%p event=%p flags=1", (void *)0, (void *)e);
    assert_cuda(cudaStreamWaitEvent(s, e, 0x10), cudaErrorInvalidValue);
    assert_cuda(cudaStreamWaitEvent(s, NULL, 0), cudaErrorInvalidResourceHandle);
    assert_cuda(cudaEventDestroy(e), cudaSuccess);
    assert_cuda(cudaStreamDestroy(s), cudaSuccess);
}

/* ---- callbacks and host functions ----------------------------------------------------------- */

struct seen {
    int calls;
    int order[8];
    cudaStream_t stream;
    cudaError_t status;
};

static struct seen seen;

static void CUDART_CB record_callback(cudaStream_t stream, cudaError_t status, void *user)
{
    seen.stream = stream;
    seen.status = status;
    if (seen.calls < 8)
        seen.order[seen.calls] = (int)(intptr_t)user;
    seen.calls++;
}

static void CUDART_CB record_host_func(void *user)
{
    if (seen.calls < 8)
        seen.order[seen.calls] = (int)(intptr_t)user;
    seen.calls++;
}

static void callback_gets_the_callers_stream_success_and_user_data(void **state)
{
    (void)state;
    cudaStream_t s = NULL;
    assert_cuda(cudaStreamCreate(&s), cudaSuccess);
    memset(&seen, 0, sizeof seen);
    seen.status = (cudaError_t)-1;
    assert_cuda(cudaStreamAddCallback(s, record_callback, (void *)(intptr_t)7, 0), cudaSuccess);
    assert_int_equal(seen.calls, 1);
    assert_int_equal(seen.order[0], 7);
    assert_ptr_equal(seen.stream, s);
    assert_int_equal(seen.status, cudaSuccess);
    /* The driver gets the runtime's trampoline and record (userData), with flags 0. */
    assert_args_prefix("cuStreamAddCallback", "stream=%p callback=set userData=", (void *)s);
    assert_non_null(strstr(last_args("cuStreamAddCallback"), " flags=0"));
    assert_cuda(cudaStreamAddCallback(0, record_callback, NULL, 0), cudaSuccess);
    assert_args_prefix("cuStreamAddCallback", "stream=%p callback=set", (void *)0);
    assert_int_equal(seen.calls, 2);
    assert_ptr_equal(seen.stream, NULL);
    assert_cuda(cudaStreamDestroy(s), cudaSuccess);
}

static void callback_status_is_the_drivers_translated(void **state)
{
    (void)state;
    memset(&seen, 0, sizeof seen);
    fk.fake_fail_call("cuStreamAddCallback:status", 1, CU_ILLEGAL_ADDRESS);
    assert_cuda(cudaStreamAddCallback(0, record_callback, NULL, 0), cudaSuccess);
    assert_int_equal(seen.calls, 1);
    assert_int_equal(seen.status, cudaErrorIllegalAddress);
}

static void callback_argument_errors_are_invalid_value_without_a_driver_call(void **state)
{
    (void)state;
    size_t before = fk.fake_count_calls("cuStreamAddCallback");
    assert_cuda(cudaStreamAddCallback(0, NULL, NULL, 0), cudaErrorInvalidValue);
    assert_cuda(cudaStreamAddCallback(0, record_callback, NULL, 1), cudaErrorInvalidValue);
    assert_int_equal(fk.fake_count_calls("cuStreamAddCallback"), before);
}

static void callback_refused_by_the_driver_never_runs(void **state)
{
    (void)state;
    memset(&seen, 0, sizeof seen);
    fk.fake_fail_call("cuStreamAddCallback", 1, CU_INVALID_HANDLE);
    /* The trampoline's record is freed here (ASan would report it otherwise). */
    assert_cuda(cudaStreamAddCallback(0, record_callback, NULL, 0),
                cudaErrorInvalidResourceHandle);
    assert_int_equal(seen.calls, 0);
}

static void host_func_reaches_the_driver_unwrapped(void **state)
{
    (void)state;
    cudaStream_t s = NULL;
    assert_cuda(cudaStreamCreate(&s), cudaSuccess);
    memset(&seen, 0, sizeof seen);
    assert_cuda(cudaLaunchHostFunc(s, record_host_func, (void *)(intptr_t)3), cudaSuccess);
    assert_args("cuLaunchHostFunc", "stream=%p fn=set userData=%p", (void *)s, (void *)3);
    assert_cuda(cudaStreamAddCallback(s, record_callback, (void *)(intptr_t)4, 0), cudaSuccess);
    assert_cuda(cudaLaunchHostFunc(s, record_host_func, (void *)(intptr_t)5), cudaSuccess);
    assert_int_equal(seen.calls, 3);
    assert_int_equal(seen.order[0], 3);
    assert_int_equal(seen.order[1], 4);
    assert_int_equal(seen.order[2], 5);
    assert_cuda(cudaStreamDestroy(s), cudaSuccess);
}

static void host_func_errors_are_reported(void **state)
{
    (void)state;
    size_t before = fk.fake_count_calls("cuLaunchHostFunc");
    assert_cuda(cudaLaunchHostFunc(0, NULL, NULL), cudaErrorInvalidValue);
    assert_int_equal(fk.fake_count_calls("cuLaunchHostFunc"), before);
    fk.fake_fail_call("cuLaunchHostFunc", 1, CU_INVALID_HANDLE);
    assert_cuda(cudaLaunchHostFunc(0, record_host_func, NULL), cudaErrorInvalidResourceHandle);
}

/* ---- properties ----------------------------------------------------------------------------- */

static void getters_with_null_outputs_are_invalid_value(void **state)
{
    (void)state;
    assert_cuda(cudaStreamGetFlags(0, NULL), cudaErrorInvalidValue);
    assert_cuda(cudaStreamGetPriority(0, NULL), cudaErrorInvalidValue);
    assert_cuda(cudaStreamGetDevice(0, NULL), cudaErrorInvalidValue);
    assert_cuda(cudaStreamGetId(0, NULL), cudaErrorInvalidValue);
    assert_cuda(cudaStreamGetAttribute(0, cudaLaunchAttributePriority, NULL),
                cudaErrorInvalidValue);
    assert_cuda(cudaStreamSetAttribute(0, cudaLaunchAttributePriority, NULL),
                cudaErrorInvalidValue);
}

static void getters_on_an_invalid_stream_are_invalid_resource_handle(void **state)
{
    (void)state;
    cudaStream_t s = NULL;
    assert_cuda(cudaStreamCreate(&s), cudaSuccess);
    assert_cuda(cudaStreamDestroy(s), cudaSuccess);
    unsigned flags = 0;
    int value = 0;
    unsigned long long id = 0;
    assert_cuda(cudaStreamGetFlags(s, &flags), cudaErrorInvalidResourceHandle);
    assert_cuda(cudaStreamGetPriority(s, &value), cudaErrorInvalidResourceHandle);
    assert_cuda(cudaStreamGetDevice(s, &value), cudaErrorInvalidResourceHandle);
    assert_cuda(cudaStreamGetId(s, &id), cudaErrorInvalidResourceHandle);
}

static void get_device_answers_the_streams_device(void **state)
{
    (void)state;
    cudaStream_t s0 = NULL, s1 = NULL;
    int device = -1;
    assert_cuda(cudaStreamCreate(&s0), cudaSuccess);
    assert_cuda(cudaSetDevice(1), cudaSuccess);
    assert_cuda(cudaStreamCreate(&s1), cudaSuccess);
    assert_cuda(cudaStreamGetDevice(s1, &device), cudaSuccess);
    assert_int_equal(device, 1);
    assert_args("cuStreamGetDevice", "stream=%p", (void *)s1);
    assert_cuda(cudaStreamGetDevice(0, &device), cudaSuccess);
    assert_int_equal(device, 1);
    assert_cuda(cudaStreamDestroy(s1), cudaSuccess);
    assert_cuda(cudaSetDevice(0), cudaSuccess);
    assert_cuda(cudaStreamGetDevice(s0, &device), cudaSuccess);
    assert_int_equal(device, 0);
    assert_cuda(cudaStreamDestroy(s0), cudaSuccess);
}

static void get_id_is_the_drivers_id(void **state)
{
    (void)state;
    cudaStream_t a = NULL, b = NULL;
    unsigned long long ia = 0, ib = 0;
    assert_cuda(cudaStreamCreate(&a), cudaSuccess);
    assert_cuda(cudaStreamCreate(&b), cudaSuccess);
    assert_cuda(cudaStreamGetId(a, &ia), cudaSuccess);
    assert_args("cuStreamGetId", "stream=%p", (void *)a);
    assert_cuda(cudaStreamGetId(b, &ib), cudaSuccess);
    assert_int_equal(ib, ia + 1);
    assert_cuda(cudaStreamGetId(cudaStreamPerThread, &ia), cudaSuccess);
    assert_int_equal(ia, 2);
    assert_cuda(cudaStreamDestroy(a), cudaSuccess);
    assert_cuda(cudaStreamDestroy(b), cudaSuccess);
}

/* ---- attributes ----------------------------------------------------------------------------- */

static void attributes_round_trip_through_the_driver(void **state)
{
    (void)state;
    cudaStream_t s = NULL, t = NULL;
    assert_cuda(cudaStreamCreate(&s), cudaSuccess);
    assert_cuda(cudaStreamCreate(&t), cudaSuccess);
    cudaStreamAttrValue v;
    memset(&v, 0, sizeof v);
    v.syncPolicy = cudaSyncPolicyYield;
    assert_cuda(cudaStreamSetAttribute(s, cudaLaunchAttributeSynchronizationPolicy, &v),
                cudaSuccess);
    assert_args("cuStreamSetAttribute", "stream=%p attr=3 value=set", (void *)s);
    v.priority = -2;
    assert_cuda(cudaStreamSetAttribute(s, cudaLaunchAttributePriority, &v), cudaSuccess);
    memset(&v, 0, sizeof v);
    assert_cuda(cudaStreamGetAttribute(s, cudaLaunchAttributeSynchronizationPolicy, &v),
                cudaSuccess);
    assert_args("cuStreamGetAttribute", "stream=%p attr=3", (void *)s);
    assert_int_equal(v.syncPolicy, cudaSyncPolicyYield);
    assert_cuda(cudaStreamGetAttribute(s, cudaLaunchAttributePriority, &v), cudaSuccess);
    assert_int_equal(v.priority, -2);

    assert_cuda(cudaStreamCopyAttributes(t, s), cudaSuccess);
    assert_args("cuStreamCopyAttributes", "dst=%p src=%p", (void *)t, (void *)s);
    memset(&v, 0, sizeof v);
    assert_cuda(cudaStreamGetAttribute(t, cudaLaunchAttributeSynchronizationPolicy, &v),
                cudaSuccess);
    assert_int_equal(v.syncPolicy, cudaSyncPolicyYield);
    int priority = 0;
    assert_cuda(cudaStreamGetPriority(t, &priority), cudaSuccess);
    assert_int_equal(priority, -2);

    /* An attribute that is not a stream's: the driver's answer. */
    assert_cuda(cudaStreamGetAttribute(s, cudaLaunchAttributeCooperative, &v),
                cudaErrorInvalidValue);
    fk.fake_fail_call("cuStreamCopyAttributes", 1, CU_INVALID_HANDLE);
    assert_cuda(cudaStreamCopyAttributes(t, s), cudaErrorInvalidResourceHandle);
    assert_cuda(cudaStreamDestroy(s), cudaSuccess);
    assert_cuda(cudaStreamDestroy(t), cudaSuccess);
}

/* ---- launches on created streams ------------------------------------------------------------ */

static void launch_on_a_created_stream_reaches_the_driver_with_its_handle(void **state)
{
    (void)state;
    cudaStream_t s = NULL;
    assert_cuda(cudaStreamCreate(&s), cudaSuccess);
    stream_test_launch(s, 11);
    assert_int_equal(cudaGetLastError(), cudaSuccess);
    assert_int_equal(fk.fake_last_launch()->stream, (uintptr_t)s);
    assert_cuda(cudaStreamDestroy(s), cudaSuccess);
    size_t launches = fk.fake_launch_count();
    stream_test_launch(s, 12);
    assert_int_equal(cudaGetLastError(), cudaErrorInvalidResourceHandle);
    assert_int_equal(fk.fake_launch_count(), launches);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(create_makes_a_blocking_driver_stream),
        cmocka_unit_test(create_with_flags_passes_non_blocking_through),
        cmocka_unit_test(create_with_unknown_flags_is_invalid_value),
        cmocka_unit_test(create_with_null_pointer_is_invalid_value_without_a_driver_call),
        cmocka_unit_test(create_failure_in_the_driver_is_translated_and_leaves_the_handle),
        cmocka_unit_test(create_with_priority_passes_flags_and_priority),
        cmocka_unit_test(priority_range_comes_from_the_driver_and_accepts_null),
        cmocka_unit_test(destroyed_stream_is_an_invalid_resource_handle),
        cmocka_unit_test(destroying_a_special_stream_is_the_drivers_answer),
        cmocka_unit_test(synchronize_passes_every_handle_unchanged),
        cmocka_unit_test(query_not_ready_is_returned_but_not_stored),
        cmocka_unit_test(query_not_ready_keeps_an_earlier_last_error),
        cmocka_unit_test(query_and_synchronize_failures_are_stored),
        cmocka_unit_test(wait_event_passes_stream_event_and_flags),
        cmocka_unit_test(callback_gets_the_callers_stream_success_and_user_data),
        cmocka_unit_test(callback_status_is_the_drivers_translated),
        cmocka_unit_test(callback_argument_errors_are_invalid_value_without_a_driver_call),
        cmocka_unit_test(callback_refused_by_the_driver_never_runs),
        cmocka_unit_test(host_func_reaches_the_driver_unwrapped),
        cmocka_unit_test(host_func_errors_are_reported),
        cmocka_unit_test(getters_with_null_outputs_are_invalid_value),
        cmocka_unit_test(getters_on_an_invalid_stream_are_invalid_resource_handle),
        cmocka_unit_test(get_device_answers_the_streams_device),
        cmocka_unit_test(get_id_is_the_drivers_id),
        cmocka_unit_test(attributes_round_trip_through_the_driver),
        cmocka_unit_test(launch_on_a_created_stream_reaches_the_driver_with_its_handle),
    };
    return cmocka_run_group_tests(tests, e2e_setup, NULL);
}
