/* test_symbols.c - __device__ and __constant__ variables through cudaMemcpyToSymbol /
 * cudaMemcpyFromSymbol: initial values come from the image, writes land in the module's global. */
#include "e2e.h"

cudaError_t e2e_dvar_read(int *out);
cudaError_t e2e_dvar_write(int v);
cudaError_t e2e_cvar_write(const float *v, size_t n, size_t offset);
cudaError_t e2e_cvar_read(float *v, size_t n);

static void device_variable_reads_its_initialiser_and_takes_writes(void **state)
{
    (void)state;
    int v = 0;
    assert_cuda(e2e_dvar_read(&v), cudaSuccess);
    assert_int_equal(v, 7);
    assert_cuda(e2e_dvar_write(1234), cudaSuccess);
    int *storage = fk.fake_global_storage("dvar", NULL);
    assert_non_null(storage);
    assert_int_equal(*storage, 1234);
    assert_cuda(e2e_dvar_read(&v), cudaSuccess);
    assert_int_equal(v, 1234);
}

static void constant_array_reads_its_initialiser_and_takes_offset_writes(void **state)
{
    (void)state;
    float c[16];
    assert_cuda(e2e_cvar_read(c, 16), cudaSuccess);
    assert_true(c[0] == 1.0f && c[1] == 2.0f && c[2] == 0.0f && c[15] == 0.0f);
    const float w[2] = {8.5f, 9.5f};
    assert_cuda(e2e_cvar_write(w, 2, 14), cudaSuccess);
    size_t size = 0;
    float *storage = fk.fake_global_storage("cvar", &size);
    assert_non_null(storage);
    assert_int_equal(size, 16 * sizeof(float));
    assert_true(storage[14] == 8.5f && storage[15] == 9.5f && storage[1] == 2.0f);
    assert_cuda(e2e_cvar_read(c, 16), cudaSuccess);
    assert_true(c[14] == 8.5f && c[15] == 9.5f);
}

static void copy_past_the_end_of_a_symbol_is_invalid_value(void **state)
{
    (void)state;
    const float w[2] = {1.0f, 2.0f};
    assert_cuda(e2e_cvar_write(w, 2, 15), cudaErrorInvalidValue);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(device_variable_reads_its_initialiser_and_takes_writes),
        cmocka_unit_test(constant_array_reads_its_initialiser_and_takes_offset_writes),
        cmocka_unit_test(copy_past_the_end_of_a_symbol_is_invalid_value),
    };
    return cmocka_run_group_tests(tests, e2e_setup, NULL);
}
