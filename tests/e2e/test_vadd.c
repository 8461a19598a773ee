/*
 * test_vadd.c - vadd<<<4096,256>>> over 1,048,576 floats against the fake driver: the output is
 * computed by a host implementation of the kernel registered with the fake, and the launch the
 * driver received is checked field by field.
 *
 * One program, several ctest entries (tests/e2e/CMakeLists.txt): MINICUDART_LAUNCH_PARAMS picks
 * the parameter form; FAKECUDA_SM / MINICUDART_FORCE_PTX pick the image.  E2E_EXPECT_JIT (0/1)
 * and E2E_EXPECT_SM say which image the fake must have been given.  In every form, the
 * parameter layout costs exactly one successful cuFuncGetParamInfo call per parameter.
 */
#include "fake_api.h"

#include <cuda_runtime_api.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define N (1 << 20)
#define VADD_NAME "_Z4vaddPKfS0_Pfi"

void e2e_launch_vadd(const float *a, const float *b, float *c, int n, unsigned grid, unsigned block);

/* The kernel's parameters as the driver lays them out (natural C alignment). */
typedef struct vadd_params {
    const float *a;
    const float *b;
    float *c;
    int n;
} vadd_params;

static void host_vadd(const void *params, size_t size, const unsigned grid[3], const unsigned block[3])
{
    vadd_params p;
    memset(&p, 0, sizeof p);
    memcpy(&p, params, size < sizeof p ? size : sizeof p);
    for (unsigned long long i = 0; i < (unsigned long long)grid[0] * block[0]; i++)
        if (i < (unsigned long long)p.n)
            p.c[i] = p.a[i] + p.b[i];
}

static void vadd_output_and_recorded_launch_are_right(void **state)
{
    (void)state;
    float *ha = malloc(N * sizeof(float)), *hb = malloc(N * sizeof(float)), *hc = malloc(N * sizeof(float));
    float *da = NULL, *db = NULL, *dc = NULL;
    assert_non_null(ha);
    assert_non_null(hb);
    assert_non_null(hc);
    for (int i = 0; i < N; i++) {
        ha[i] = (float)i;
        hb[i] = 0.5f * (float)(N - i);
        hc[i] = -1.0f;
    }
    fk.fake_register_host_kernel(VADD_NAME, host_vadd);
    assert_int_equal(cudaMalloc((void **)&da, N * sizeof(float)), cudaSuccess);
    assert_int_equal(cudaMalloc((void **)&db, N * sizeof(float)), cudaSuccess);
    assert_int_equal(cudaMalloc((void **)&dc, N * sizeof(float)), cudaSuccess);
    assert_int_equal(cudaMemcpy(da, ha, N * sizeof(float), cudaMemcpyHostToDevice), cudaSuccess);
    assert_int_equal(cudaMemcpy(db, hb, N * sizeof(float), cudaMemcpyHostToDevice), cudaSuccess);
    size_t launches_before = fk.fake_launch_count();

    e2e_launch_vadd(da, db, dc, N, 4096, 256);
    assert_int_equal(cudaGetLastError(), cudaSuccess);
    assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
    assert_int_equal(cudaGetLastError(), cudaSuccess);
    assert_int_equal(cudaMemcpy(hc, dc, N * sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess);
    for (int i = 0; i < N; i++)
        if (hc[i] != ha[i] + hb[i])
            fail_msg("c[%d] = %f, expected %f", i, (double)hc[i], (double)(ha[i] + hb[i]));

    assert_int_equal(fk.fake_launch_count(), launches_before + 1);
    const fake_launch *l = fk.fake_last_launch();
    assert_non_null(l);
    assert_string_equal(l->kernel, VADD_NAME);
    assert_int_equal(l->grid[0], 4096);
    assert_int_equal(l->grid[1], 1);
    assert_int_equal(l->grid[2], 1);
    assert_int_equal(l->block[0], 256);
    assert_int_equal(l->block[1], 1);
    assert_int_equal(l->block[2], 1);
    assert_int_equal(l->shared_mem, 0);
    assert_int_equal(l->stream, 0);
    assert_int_equal(l->params_size, offsetof(vadd_params, n) + sizeof(int));
    int n = N;
    assert_memory_equal(l->params + offsetof(vadd_params, a), &da, sizeof da);
    assert_memory_equal(l->params + offsetof(vadd_params, b), &db, sizeof db);
    assert_memory_equal(l->params + offsetof(vadd_params, c), &dc, sizeof dc);
    assert_memory_equal(l->params + offsetof(vadd_params, n), &n, sizeof n);

    const char *mode = getenv("MINICUDART_LAUNCH_PARAMS");
    if (mode && strcmp(mode, "buffer") == 0)
        assert_int_equal(l->used_extra, 1);
    if (mode && strcmp(mode, "array") == 0)
        assert_int_equal(l->used_extra, 0);
    assert_int_equal(l->module_jit, e2e_env_int("E2E_EXPECT_JIT", 0));
    assert_int_equal(l->module_sm, e2e_env_int("E2E_EXPECT_SM", 90));

    /* The layout was asked of the driver only for the 4 parameters the image says the kernel
     * has (.nv.info of the cubin, or the PTX that was JIT-compiled): no cuFuncGetParamInfo call
     * past the end, whose error compute-sanitizer would report. */
    size_t param_info_calls = 0;
    for (size_t i = 0; i < fk.fake_call_count(); i++) {
        const fake_call *call = fk.fake_call_at(i);
        if (strcmp(call->name, "cuFuncGetParamInfo") != 0)
            continue;
        param_info_calls++;
        if (call->result != 0)
            fail_msg("cuFuncGetParamInfo(%s) = %d: a failing call", call->args, call->result);
    }
    assert_int_equal(param_info_calls, 4);

    assert_int_equal(cudaFree(da), cudaSuccess);
    assert_int_equal(cudaFree(db), cudaSuccess);
    assert_int_equal(cudaFree(dc), cudaSuccess);
    assert_int_equal(cudaGetLastError(), cudaSuccess);
    free(ha);
    free(hb);
    free(hc);
}

static int setup(void **state)
{
    (void)state;
    return fake_api_load();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(vadd_output_and_recorded_launch_are_right),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
