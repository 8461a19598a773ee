/* test_nested.c - a launch inside an argument of another launch reaches the driver first. */
#include "e2e.h"

void e2e_nested_launch(int *a, const int *b);

static void launch_in_argument_is_recorded_before_the_outer_launch(void **state)
{
    (void)state;
    int *a = NULL, *b = NULL;
    assert_cuda(cudaMalloc((void **)&a, 4 * sizeof(int)), cudaSuccess);
    assert_cuda(cudaMalloc((void **)&b, 4 * sizeof(int)), cudaSuccess);
    fk.fake_reset_log();

    e2e_nested_launch(a, b);
    assert_int_equal(cudaGetLastError(), cudaSuccess);
    assert_int_equal(fk.fake_launch_count(), 2);
    const fake_launch *inner = fk.fake_launch_at(0), *outer = fk.fake_launch_at(1);
    assert_string_equal(inner->kernel, "_Z6noargsv");
    assert_int_equal(inner->grid[0], 7);
    assert_int_equal(inner->block[0], 8);
    assert_string_equal(outer->kernel, "_Z3addPiPKii");
    assert_int_equal(outer->grid[0], 1);
    assert_int_equal(outer->block[0], 4);
    int n = 0;
    memcpy(&n, outer->params + 16, sizeof n);
    assert_int_equal(n, 3);
    assert_memory_equal(outer->params, &a, sizeof a);
    assert_cuda(cudaFree(a), cudaSuccess);
    assert_cuda(cudaFree(b), cudaSuccess);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(launch_in_argument_is_recorded_before_the_outer_launch),
    };
    return cmocka_run_group_tests(tests, e2e_setup, NULL);
}
