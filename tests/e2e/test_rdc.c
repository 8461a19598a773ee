/* test_rdc.c - -rdc=true across two objects: registration through nvlink's link stub (one
 * version-2 wrapper for the link unit), both kernels launched from one linked cubin. */
#include "e2e.h"

void e2e_rdc_launch_a(int *p);
void e2e_rdc_launch_b(int *p);

static void host_kern_a(const void *params, size_t size, const unsigned grid[3], const unsigned block[3])
{
    int *p;
    memcpy(&p, params, sizeof p);
    p[0] = 6;
}

static void host_kern_b(const void *params, size_t size, const unsigned grid[3], const unsigned block[3])
{
    int *p;
    memcpy(&p, params, sizeof p);
    p[1] = p[0] + 1;
}

static void kernels_of_both_objects_launch_from_one_linked_module(void **state)
{
    (void)state;
    int *p = NULL, host[2] = {0, 0};
    fk.fake_register_host_kernel("_Z5kernAPi", host_kern_a);
    fk.fake_register_host_kernel("_Z5kernBPi", host_kern_b);
    assert_cuda(cudaMalloc((void **)&p, sizeof host), cudaSuccess);
    e2e_rdc_launch_a(p);
    assert_int_equal(cudaGetLastError(), cudaSuccess);
    const fake_launch *a = fk.fake_last_launch();
    assert_non_null(a);
    assert_string_equal(a->kernel, "_Z5kernAPi");
    e2e_rdc_launch_b(p);
    assert_int_equal(cudaGetLastError(), cudaSuccess);
    const fake_launch *b = fk.fake_last_launch();
    assert_string_equal(b->kernel, "_Z5kernBPi");
    assert_int_equal(b->grid[0], 2);
    assert_int_equal(a->module, b->module);
    assert_int_equal(a->module_jit, 0);
    assert_int_equal(a->module_sm, 90);
    assert_int_equal(fk.fake_count_calls("cuModuleLoadDataEx"), 1);
    assert_cuda(cudaDeviceSynchronize(), cudaSuccess);
    assert_cuda(cudaMemcpy(host, p, sizeof host, cudaMemcpyDeviceToHost), cudaSuccess);
    assert_int_equal(host[0], 6);
    assert_int_equal(host[1], 7);
    assert_cuda(cudaFree(p), cudaSuccess);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kernels_of_both_objects_launch_from_one_linked_module),
    };
    return cmocka_run_group_tests(tests, e2e_setup, NULL);
}
