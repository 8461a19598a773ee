/* test_multi_tu.c - kernels of three translation units; one static kernel name in two of them,
 * resolved in each TU's own module. */
#include "e2e.h"

void e2e_a_statk(int *p);
void e2e_a_only(int *p);
void e2e_b_statk(int *p);
void e2e_b_only(int *p);
void e2e_c_scalars(void);
void e2e_c_none(void);
void e2e_c_tmpl(long *p);

static const fake_launch *launch_and_record(void (*fn)(int *), int *p)
{
    size_t before = fk.fake_launch_count();
    fn(p);
    assert_int_equal(cudaGetLastError(), cudaSuccess);
    assert_int_equal(fk.fake_launch_count(), before + 1);
    return fk.fake_last_launch();
}

static void same_static_kernel_name_resolves_per_module(void **state)
{
    (void)state;
    int *p = NULL;
    assert_cuda(cudaMalloc((void **)&p, 64), cudaSuccess);
    const fake_launch *a = launch_and_record(e2e_a_statk, p);
    const fake_launch *b = launch_and_record(e2e_b_statk, p);
    assert_string_equal(a->kernel, b->kernel); /* the same mangled name... */
    assert_int_equal(a->grid[0], 1);
    assert_int_equal(b->grid[0], 3);
    assert_true(a->module != b->module); /* ...from two modules */
    assert_true(fk.fake_module_has_kernel(a->module, "_Z6only_aPi"));
    assert_false(fk.fake_module_has_kernel(a->module, "_Z6only_bPi"));
    assert_true(fk.fake_module_has_kernel(b->module, "_Z6only_bPi"));
    const fake_launch *oa = launch_and_record(e2e_a_only, p);
    const fake_launch *ob = launch_and_record(e2e_b_only, p);
    assert_string_equal(oa->kernel, "_Z6only_aPi");
    assert_int_equal(oa->module, a->module);
    assert_string_equal(ob->kernel, "_Z6only_bPi");
    assert_int_equal(ob->module, b->module);
    assert_cuda(cudaFree(p), cudaSuccess);
}

static void kernels_of_a_third_unit_get_their_parameters(void **state)
{
    (void)state;
    long *p = NULL;
    assert_cuda(cudaMalloc((void **)&p, 64), cudaSuccess);
    e2e_c_scalars();
    assert_int_equal(cudaGetLastError(), cudaSuccess);
    const fake_launch *l = fk.fake_last_launch();
    assert_string_equal(l->kernel, "_Z9k_scalarsfdc");
    assert_int_equal(l->params_size, 17);
    float f;
    double d;
    memcpy(&f, l->params, 4);
    memcpy(&d, l->params + 8, 8);
    assert_true(f == 1.5f);
    assert_true(d == 2.25);
    assert_int_equal(l->params[16], 'x');

    e2e_c_none();
    assert_int_equal(cudaGetLastError(), cudaSuccess);
    assert_string_equal(fk.fake_last_launch()->kernel, "_Z6k_nonev");
    assert_int_equal(fk.fake_last_launch()->params_size, 0);
    assert_int_equal(fk.fake_last_launch()->block[0], 64);

    e2e_c_tmpl(p);
    assert_int_equal(cudaGetLastError(), cudaSuccess);
    l = fk.fake_last_launch();
    assert_string_equal(l->kernel, "_Z6k_tmplIlEvPT_S0_");
    long v = 0x1122334455667788L;
    assert_memory_equal(l->params, &p, 8);
    assert_memory_equal(l->params + 8, &v, 8);
    assert_cuda(cudaFree(p), cudaSuccess);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_static_kernel_name_resolves_per_module),
        cmocka_unit_test(kernels_of_a_third_unit_get_their_parameters),
    };
    return cmocka_run_group_tests(tests, e2e_setup, NULL);
}
