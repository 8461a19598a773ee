/* test_managed.c - a __managed__ variable: the host sees the image's initial value through
 * __cudaInitModule / cuLibraryGetManaged, and a kernel's change through the same storage.  The
 * module is loaded once, as a library, for every device (FAKECUDA_DEVICES=2: one instance). */
#include "e2e.h"

int e2e_read_managed(void);
const void *e2e_managed_address(void);
void e2e_launch_bump_managed(void);

static void host_bump_managed(const void *params, size_t size, const unsigned grid[3],
                              const unsigned block[3])
{
    int *mvar = fk.fake_global_storage("mvar", NULL);
    if (mvar)
        *mvar += 1;
}

static void managed_variable_starts_at_its_initialiser_and_sees_kernel_writes(void **state)
{
    (void)state;
    fk.fake_register_host_kernel("_Z12bump_managedv", host_bump_managed);
    assert_int_equal(e2e_read_managed(), 42);
    assert_int_equal(cudaGetLastError(), cudaSuccess);
    size_t size = 0;
    void *storage = fk.fake_global_storage("mvar", &size);
    assert_non_null(storage);
    assert_int_equal(size, sizeof(int));
    assert_ptr_equal(e2e_managed_address(), storage); /* the host dereferences the unified address */

    e2e_launch_bump_managed();
    assert_int_equal(cudaGetLastError(), cudaSuccess);
    assert_string_equal(fk.fake_last_launch()->kernel, "_Z12bump_managedv");
    assert_cuda(cudaDeviceSynchronize(), cudaSuccess);
    assert_int_equal(e2e_read_managed(), 43);
}

static void managed_variable_is_one_instance_for_every_device(void **state)
{
    (void)state;
    fk.fake_register_host_kernel("_Z12bump_managedv", host_bump_managed);
    assert_int_equal(e2e_read_managed(), 42);
    const void *slot = e2e_managed_address();
    e2e_launch_bump_managed();                      /* device 0 */
    assert_cuda(cudaDeviceSynchronize(), cudaSuccess);
    assert_cuda(cudaSetDevice(1), cudaSuccess);
    e2e_launch_bump_managed();                      /* device 1: the same variable */
    assert_int_equal(cudaGetLastError(), cudaSuccess);
    assert_cuda(cudaDeviceSynchronize(), cudaSuccess);
    assert_int_equal(e2e_read_managed(), 44);
    assert_ptr_equal(e2e_managed_address(), slot);
    /* One library for both devices, its module fetched in each context. */
    assert_int_equal(fk.fake_count_calls("cuLibraryLoadData"), 1);
    assert_int_equal(fk.fake_count_calls("cuLibraryGetModule"), 2);
    assert_int_equal(fk.fake_count_calls("cuModuleLoadDataEx"), 0);
    assert_true(fk.fake_count_calls("cuLibraryGetManaged") >= 2);
    assert_int_equal(fk.fake_last_launch()->module_jit, 0);

    /* After a reset of device 1 the library stays: the variable keeps its value. */
    assert_cuda(cudaDeviceReset(), cudaSuccess);
    e2e_launch_bump_managed();
    assert_cuda(cudaDeviceSynchronize(), cudaSuccess);
    assert_int_equal(e2e_read_managed(), 45);
    assert_int_equal(fk.fake_count_calls("cuLibraryLoadData"), 1);
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "two_devices") == 0) {
        const struct CMUnitTest two[] = {
            cmocka_unit_test(managed_variable_is_one_instance_for_every_device),
        };
        return cmocka_run_group_tests(two, e2e_setup, NULL);
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(managed_variable_starts_at_its_initialiser_and_sees_kernel_writes),
    };
    return cmocka_run_group_tests(tests, e2e_setup, NULL);
}
