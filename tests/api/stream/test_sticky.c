/*
 * test_sticky.c - a sticky error raised by a stream or event call breaks the device for every
 * later call, as after a faulting kernel (one scenario per process: argv[1]).
 */
#include "stream_test.h"

static const char *scenario;

static void sticky_error_from_a_synchronisation_reaches_every_later_call(void **state)
{
    (void)state;
    const char *entry = strcmp(scenario, "stream") == 0 ? "cuStreamSynchronize"
                                                        : "cuEventSynchronize";
    cudaEvent_t e = NULL;
    assert_cuda(cudaEventCreate(&e), cudaSuccess);
    fk.fake_fail_call(entry, 1, CU_ILLEGAL_ADDRESS);
    if (strcmp(scenario, "stream") == 0)
        assert_cuda(cudaStreamSynchronize(0), cudaErrorIllegalAddress);
    else
        assert_cuda(cudaEventSynchronize(e), cudaErrorIllegalAddress);
    /* Queries report the sticky error (stored: it is not NotReady). */
    assert_cuda(cudaStreamQuery(0), cudaErrorIllegalAddress);
    assert_cuda(cudaEventQuery(e), cudaErrorIllegalAddress);
    cudaStream_t s = NULL;
    assert_cuda(cudaStreamCreate(&s), cudaErrorIllegalAddress);
    assert_null(s);
}

int main(int argc, char **argv)
{
    scenario = argc > 1 ? argv[1] : "stream";
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sticky_error_from_a_synchronisation_reaches_every_later_call),
    };
    return cmocka_run_group_tests(tests, e2e_setup, NULL);
}
