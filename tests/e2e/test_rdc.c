/* test_rdc.c - -rdc=true across two objects: registration through nvlink's link stub (one
 * version-2 wrapper for the link unit), both kernels launched from one linked cubin.
 * With E2E_EXPECT_LINK=1 (run under MINICUDART_FORCE_PTX=1): the linked image has no PTX, so
 * the runtime JIT-links the objects' PTX from the wrapper's prelinked array (cuLink*). */
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
    assert_int_equal(fk.fake_count_calls("cuModuleLoadDataEx"), 1);
    const char *link = getenv("E2E_EXPECT_LINK");
    if (link && strcmp(link, "1") == 0) {
        /* One link of every object (a.cu, b.cu, and cudadevrt when the device link adds it),
         * each as PTX; the output loaded as one module, then the link state destroyed. */
        assert_int_equal(fk.fake_count_calls("cuLinkCreate"), 1);
        assert_true(fk.fake_count_calls("cuLinkAddData") >= 2);
        assert_int_equal(fk.fake_count_calls("cuLinkComplete"), 1);
        assert_int_equal(fk.fake_count_calls("cuLinkDestroy"), 1);
        size_t ptx_inputs = 0;
        for (size_t i = 0; fk.fake_call_at(i); i++) {
            const fake_call *c = fk.fake_call_at(i);
            if (strcmp(c->name, "cuLinkAddData") == 0 && c->result == 0)
                ptx_inputs += strstr(c->args, "type=1 ") != NULL;   /* CU_JIT_INPUT_PTX */
        }
        assert_int_equal(ptx_inputs, fk.fake_count_calls("cuLinkAddData"));
        assert_int_equal(a->module_jit, 1);
    } else {
        assert_int_equal(fk.fake_count_calls("cuLinkCreate"), 0);
        assert_int_equal(a->module_jit, 0);
        assert_int_equal(a->module_sm, 90);
    }
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
