/*
 * test_foreign_context.c - a context made with the driver API (cuCtxCreate in a program such as
 * cuda-samples' simpleDrvRuntime) and made current: runtime calls work IN it, as NVIDIA's
 * runtime does.  The runtime must not switch back to the primary context, and a <<<>>> launch
 * must load the kernel's module into that context (the fake refuses a kernel from another
 * context's module).
 */
#include "fake_api.h"

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime_api.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define N 1024

void e2e_launch_vadd(const float *a, const float *b, float *c, int n, unsigned grid, unsigned block);

static PFN_cuCtxSetCurrent_v4000 set_current;
static PFN_cuCtxGetCurrent_v4000 get_current;

static void *driver_entry(const char *name, int version)
{
    void *fn = NULL;
    enum cudaDriverEntryPointQueryResult status = cudaDriverEntryPointSymbolNotFound;
    assert_int_equal(cudaGetDriverEntryPointByVersion(name, &fn, (unsigned)version,
                                                      cudaEnableDefault, &status), cudaSuccess);
    assert_int_equal(status, cudaDriverEntryPointSuccess);
    assert_non_null(fn);
    return fn;
}

static void runtime_calls_work_in_a_context_created_by_the_program(void **state)
{
    (void)state;
    float *primary_buffer = NULL;
    assert_int_equal(cudaMalloc((void **)&primary_buffer, 64), cudaSuccess);   /* primary */
    set_current = (PFN_cuCtxSetCurrent_v4000)driver_entry("cuCtxSetCurrent", 4000);
    get_current = (PFN_cuCtxGetCurrent_v4000)driver_entry("cuCtxGetCurrent", 4000);
    CUcontext primary = NULL;
    assert_int_equal(get_current(&primary), CUDA_SUCCESS);
    assert_non_null(primary);

    CUcontext made = (CUcontext)fk.fake_create_context(0);
    assert_non_null(made);
    assert_int_equal(set_current(made), CUDA_SUCCESS);
    size_t switches = fk.fake_count_calls("cuCtxSetCurrent");
    size_t loads = fk.fake_count_calls("cuModuleLoadDataEx");

    float *a = NULL, *b = NULL, *c = NULL;
    assert_int_equal(cudaMalloc((void **)&a, N * sizeof(float)), cudaSuccess);
    assert_int_equal(cudaMalloc((void **)&b, N * sizeof(float)), cudaSuccess);
    assert_int_equal(cudaMalloc((void **)&c, N * sizeof(float)), cudaSuccess);
    e2e_launch_vadd(a, b, c, N, N / 256, 256);
    assert_int_equal(cudaGetLastError(), cudaSuccess);
    assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
    int device = -1;
    assert_int_equal(cudaGetDevice(&device), cudaSuccess);
    assert_int_equal(device, 0);

    CUcontext now = NULL;
    assert_int_equal(get_current(&now), CUDA_SUCCESS);
    assert_ptr_equal(now, made);                                   /* never switched away */
    assert_int_equal(fk.fake_count_calls("cuCtxSetCurrent"), switches);
    assert_int_equal(fk.fake_count_calls("cuModuleLoadDataEx"), loads + 1);   /* its own load */
    assert_int_equal(fk.fake_launch_count(), 1);

    /* Back in the primary context: its module is still loaded; a launch needs no new load. */
    assert_int_equal(cudaSetDevice(0), cudaSuccess);
    assert_int_equal(get_current(&now), CUDA_SUCCESS);
    assert_ptr_equal(now, primary);
    e2e_launch_vadd(primary_buffer, primary_buffer, primary_buffer, 16, 1, 16);
    assert_int_equal(cudaGetLastError(), cudaSuccess);
    assert_int_equal(fk.fake_launch_count(), 2);
    assert_int_equal(cudaFree(primary_buffer), cudaSuccess);
}

int main(void)
{
    if (fake_api_load() != 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(runtime_calls_work_in_a_context_created_by_the_program),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
