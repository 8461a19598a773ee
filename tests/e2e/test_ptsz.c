/* test_ptsz.c - a TU built with -default-stream per-thread: <<<>>> on stream 0 reaches the
 * driver as CU_STREAM_PER_THREAD (0x2); explicit legacy / per-thread handles pass through. */
#include "e2e.h"

void e2e_ptsz_default(void);
void e2e_ptsz_legacy(void);
void e2e_ptsz_per_thread(void);

static void check_last_launch(uintptr_t stream, int tag)
{
    assert_int_equal(cudaGetLastError(), cudaSuccess);
    const fake_launch *l = fk.fake_last_launch();
    assert_non_null(l);
    assert_string_equal(l->kernel, "_Z9on_streami");
    assert_int_equal(l->stream, stream);
    int got = 0;
    memcpy(&got, l->params, sizeof got);
    assert_int_equal(got, tag);
}

static void default_stream_of_a_per_thread_build_is_the_per_thread_stream(void **state)
{
    (void)state;
    e2e_ptsz_default();
    check_last_launch(0x2, 1);
}

static void explicit_stream_handles_pass_through_unchanged(void **state)
{
    (void)state;
    e2e_ptsz_legacy();
    check_last_launch(0x1, 2);
    e2e_ptsz_per_thread();
    check_last_launch(0x2, 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(default_stream_of_a_per_thread_build_is_the_per_thread_stream),
        cmocka_unit_test(explicit_stream_handles_pass_through_unchanged),
    };
    return cmocka_run_group_tests(tests, e2e_setup, NULL);
}
