/*
 * test_fakecuda.c - the fake driver's own tests: it is reached exactly as the runtime reaches it
 * (dlopen MINICUDART_DRIVER, then cuGetProcAddress_v2), over a cubin and a PTX file that nvcc
 * made from fixture_kernels.cu.  The tests run in order in one process and share its state.
 */
#include "fake_selftest.h"

static int setup(void **state)
{
    (void)state;
    if (open_fake() != 0)
        return -1;
    return get_proc && p_fake_call_count ? 0 : -1;
}

static void get_proc_address_hands_out_known_names_and_refuses_unknown_ones(void **state)
{
    (void)state;
    void *fn = (void *)1;
    CUdriverProcAddressQueryResult status = 99;
    assert_int_equal(get_proc("cuLaunchKernel", &fn, 4000, 0, &status), CUDA_SUCCESS);
    assert_non_null(fn);
    assert_int_equal(status, CU_GET_PROC_ADDRESS_SUCCESS);
    assert_int_equal(get_proc("cuNoSuchThing", &fn, 4000, 0, &status), CUDA_SUCCESS);
    assert_null(fn);
    assert_int_equal(status, CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);
    assert_int_equal(get_proc("cuModuleGetGlobal", &fn, 2000, 0, &status), CUDA_SUCCESS);
    assert_null(fn);
    assert_int_equal(status, CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT);
    assert_int_equal(get_proc("cuInit", &fn, 13010, 0, &status), CUDA_ERROR_INVALID_VALUE);
    /* 13000 gives the new one-argument cuCtxSynchronize, a different function. */
    assert_ptr_not_equal(proc("cuCtxSynchronize", 13000), proc("cuCtxSynchronize", 2000));
    assert_true(p_fake_count_calls("cuGetProcAddress_v2") >= 5);
}

static void calls_before_cu_init_return_not_initialized(void **state)
{
    (void)state;
    int count = -1;
    PFN_cuDeviceGetCount_v2000 get_count = proc("cuDeviceGetCount", 2000);
    assert_int_equal(get_count(&count), CUDA_ERROR_NOT_INITIALIZED);
    assert_int_equal(((PFN_cuInit_v2000)proc("cuInit", 2000))(0), CUDA_SUCCESS);
    assert_int_equal(get_count(&count), CUDA_SUCCESS);
    assert_int_equal(count, 1);
}

static void device_queries_describe_an_sm90_device(void **state)
{
    (void)state;
    int v = 0;
    char name[64];
    PFN_cuDeviceGetAttribute_v2000 attr = proc("cuDeviceGetAttribute", 2000);
    assert_int_equal(attr(&v, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 0), CUDA_SUCCESS);
    assert_int_equal(v, 9);
    assert_int_equal(attr(&v, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 0), CUDA_SUCCESS);
    assert_int_equal(v, 132);
    assert_int_equal(attr(&v, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z, 0), CUDA_SUCCESS);
    assert_int_equal(v, 64);
    assert_int_equal(attr(&v, CU_DEVICE_ATTRIBUTE_MAX, 0), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(attr(&v, CU_DEVICE_ATTRIBUTE_WARP_SIZE, 1), CUDA_ERROR_INVALID_DEVICE);
    PFN_cuDeviceGetName_v2000 get_name = proc("cuDeviceGetName", 2000);
    assert_int_equal(get_name(name, sizeof name, 0), CUDA_SUCCESS);
    assert_string_equal(name, "Fake CUDA Device (sm_90)");
}

static void env_failure_fails_the_nth_call_only(void **state)
{
    (void)state;
    int v = 0;
    PFN_cuDriverGetVersion_v2020 version = proc("cuDriverGetVersion", 2020);
    assert_int_equal(version(&v), CUDA_SUCCESS); /* FAKECUDA_FAIL=cuDriverGetVersion:2:999 */
    assert_int_equal(v, 13000);
    assert_int_equal(version(&v), CUDA_ERROR_UNKNOWN);
    assert_int_equal(version(&v), CUDA_SUCCESS);
}

static void memory_needs_a_context_and_tracks_allocations(void **state)
{
    (void)state;
    CUdeviceptr d = 0;
    CUcontext ctx = NULL;
    PFN_cuMemAlloc_v3020 alloc = proc("cuMemAlloc", 3020);
    PFN_cuMemFree_v3020 mfree = proc("cuMemFree", 3020);
    PFN_cuMemcpy_v4000 copy = proc("cuMemcpy", 4000);
    assert_int_equal(alloc(&d, 64), CUDA_ERROR_INVALID_CONTEXT);
    assert_int_equal(((PFN_cuDevicePrimaryCtxRetain_v7000)proc("cuDevicePrimaryCtxRetain", 7000))(
                         &ctx, 0), CUDA_SUCCESS);
    assert_int_equal(((PFN_cuCtxSetCurrent_v4000)proc("cuCtxSetCurrent", 4000))(ctx), CUDA_SUCCESS);
    assert_int_equal(alloc(&d, 64), CUDA_SUCCESS);
    assert_int_equal(d % 256, 0);
    assert_int_equal(p_fake_live_allocations(), 1);
    int src[4] = {1, 2, 3, 4}, dst[4] = {0};
    assert_int_equal(copy(d, (CUdeviceptr)(uintptr_t)src, sizeof src), CUDA_SUCCESS);
    assert_int_equal(copy((CUdeviceptr)(uintptr_t)dst, d, sizeof dst), CUDA_SUCCESS);
    assert_memory_equal(src, dst, sizeof src);
    assert_int_equal(mfree(d + 4), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(mfree(d), CUDA_SUCCESS);
    assert_int_equal(mfree(d), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(p_fake_live_allocations(), 0);
}

static void check_add_layout(CUfunction f)
{
    PFN_cuFuncGetParamInfo_v12040 info = proc("cuFuncGetParamInfo", 12040);
    size_t off = 99, size = 99;
    const size_t want[3][2] = {{0, 8}, {8, 8}, {16, 4}};
    for (size_t i = 0; i < 3; i++) {
        assert_int_equal(info(f, i, &off, &size), CUDA_SUCCESS);
        assert_int_equal(off, want[i][0]);
        assert_int_equal(size, want[i][1]);
    }
    assert_int_equal(info(f, 3, &off, &size), CUDA_ERROR_INVALID_VALUE);
}

static int host_add_runs;
static void host_add(const void *params, size_t size, const unsigned grid[3], const unsigned block[3])
{
    int *a, n;
    memcpy(&a, params, sizeof a);
    memcpy(&n, (const char *)params + 16, sizeof n);
    assert_int_equal(size, 20);
    for (unsigned i = 0; i < grid[0] * block[0]; i++)
        a[i] += n;
    host_add_runs++;
}

/* Loads `image`, checks kernels, globals and launches of both parameter forms. */
static void exercise_module(const void *image, int jit)
{
    CUmodule mod = NULL;
    CUfunction f = NULL;
    PFN_cuModuleLoadDataEx_v2010 load = proc("cuModuleLoadDataEx", 2010);
    PFN_cuModuleGetFunction_v2000 get_function = proc("cuModuleGetFunction", 2000);
    PFN_cuModuleGetGlobal_v3020 get_global = proc("cuModuleGetGlobal", 3020);
    PFN_cuLaunchKernel_v4000 launch = proc("cuLaunchKernel", 4000);
    assert_int_equal(load(&mod, image, 0, NULL, NULL), CUDA_SUCCESS);
    assert_int_equal(get_function(&f, mod, "_Z3nopv"), CUDA_ERROR_NOT_FOUND);
    assert_int_equal(get_function(&f, mod, "_Z3addPiPKii"), CUDA_SUCCESS);
    check_add_layout(f);

    CUdeviceptr dptr = 0;
    size_t bytes = 0;
    assert_int_equal(get_global(&dptr, &bytes, mod, "dvar"), CUDA_SUCCESS);
    assert_int_equal(bytes, 4);
    assert_int_equal(*(int *)(uintptr_t)dptr, 7);
    assert_int_equal(get_global(&dptr, &bytes, mod, "cvar"), CUDA_SUCCESS);
    assert_int_equal(bytes, 16);
    assert_true(((float *)(uintptr_t)dptr)[1] == 2.0f);
    assert_int_equal(get_global(&dptr, &bytes, mod, "zvar"), CUDA_SUCCESS);
    assert_int_equal(*(int *)(uintptr_t)dptr, 0);
    assert_int_equal(get_global(&dptr, &bytes, mod, "nosuch"), CUDA_ERROR_NOT_FOUND);

    int a[4] = {0}, b[4] = {0}, n = 5;
    int *pa = a, *pb = b;
    void *args[] = {&pa, &pb, &n};
    p_fake_register_host_kernel("_Z3addPiPKii", host_add);
    host_add_runs = 0;
    assert_int_equal(launch(f, 1, 1, 1, 4, 1, 1, 0, (CUstream)0x2, args, NULL), CUDA_SUCCESS);
    assert_int_equal(host_add_runs, 1);
    assert_int_equal(a[3], 5);
    const fake_launch *l = p_fake_last_launch();
    assert_non_null(l);
    assert_string_equal(l->kernel, "_Z3addPiPKii");
    assert_int_equal(l->stream, 2);
    assert_int_equal(l->params_size, 20);
    assert_int_equal(l->module_jit, jit);
    assert_int_equal(l->module_sm, 90);
    assert_memory_equal(l->params, &pa, 8);
    assert_memory_equal(l->params + 16, &n, 4);

    unsigned char buf[24] = {0};
    size_t size = 20;
    memcpy(buf, &pa, 8);
    memcpy(buf + 8, &pb, 8);
    memcpy(buf + 16, &n, 4);
    void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, buf, CU_LAUNCH_PARAM_BUFFER_SIZE, &size,
                     CU_LAUNCH_PARAM_END};
    assert_int_equal(launch(f, 1, 1, 1, 4, 1, 1, 0, NULL, NULL, extra), CUDA_SUCCESS);
    assert_int_equal(a[3], 10);
    assert_int_equal(p_fake_last_launch()->used_extra, 1);
    assert_memory_equal(p_fake_last_launch()->params, buf, 20);
    size = 12;
    assert_int_equal(launch(f, 1, 1, 1, 4, 1, 1, 0, NULL, NULL, extra), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(launch(f, 1, 1, 1, 2048, 1, 1, 0, NULL, args, NULL), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(launch(f, 0, 1, 1, 32, 1, 1, 0, NULL, args, NULL), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(launch(f, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, NULL), CUDA_ERROR_INVALID_VALUE);

    assert_int_equal(get_function(&f, mod, "_Z7kstruct2S3cPd"), CUDA_SUCCESS);
    size_t off = 0;
    assert_int_equal(((PFN_cuFuncGetParamInfo_v12040)proc("cuFuncGetParamInfo", 12040))(
                         f, 2, &off, &size), CUDA_SUCCESS);
    assert_int_equal(off, 32);
    assert_int_equal(size, 8);
    assert_int_equal(((PFN_cuModuleUnload_v2000)proc("cuModuleUnload", 2000))(mod), CUDA_SUCCESS);
    assert_int_equal(get_function(&f, mod, "_Z3addPiPKii"), CUDA_ERROR_INVALID_HANDLE);
}

static void cubin_module_gives_kernels_layouts_globals_and_launches(void **state)
{
    (void)state;
    unsigned char *cubin = read_file(FAKE_FIXTURE_CUBIN);
    assert_non_null(cubin);
    exercise_module(cubin, 0);
    free(cubin);
}

static void ptx_module_gives_kernels_layouts_globals_and_launches(void **state)
{
    (void)state;
    unsigned char *ptx = read_file(FAKE_FIXTURE_PTX);
    assert_non_null(ptx);
    exercise_module(ptx, 1);
    free(ptx);
}

static void wrong_sm_and_garbage_images_are_refused(void **state)
{
    (void)state;
    CUmodule mod = NULL;
    char log[256] = "";
    CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *vals[] = {log, (void *)(uintptr_t)sizeof log};
    PFN_cuModuleLoadDataEx_v2010 load = proc("cuModuleLoadDataEx", 2010);
    assert_int_equal(load(&mod, "\x01\x02garbage", 2, opts, vals), CUDA_ERROR_INVALID_IMAGE);
    assert_true(strlen(log) > 0);
    unsigned char *cubin = read_file(FAKE_FIXTURE_CUBIN);
    assert_non_null(cubin);
    p_fake_set_sm(100);
    assert_int_equal(load(&mod, cubin, 0, NULL, NULL), CUDA_ERROR_NO_BINARY_FOR_GPU);
    p_fake_set_sm(75);
    unsigned char *ptx = read_file(FAKE_FIXTURE_PTX);
    assert_int_equal(load(&mod, ptx, 0, NULL, NULL), CUDA_ERROR_INVALID_PTX);
    p_fake_set_sm(90);
    free(ptx);
    free(cubin);
}

static void sticky_failure_poisons_the_context_until_reset(void **state)
{
    (void)state;
    CUdeviceptr d = 0;
    CUcontext ctx = NULL;
    PFN_cuMemAlloc_v3020 alloc = proc("cuMemAlloc", 3020);
    PFN_cuCtxSynchronize_v2000 sync = proc("cuCtxSynchronize", 2000);
    p_fake_fail_call("cuCtxSynchronize", 2, CUDA_ERROR_ILLEGAL_ADDRESS);
    assert_int_equal(sync(), CUDA_SUCCESS);
    assert_int_equal(sync(), CUDA_ERROR_ILLEGAL_ADDRESS);
    assert_int_equal(alloc(&d, 16), CUDA_ERROR_ILLEGAL_ADDRESS);
    assert_int_equal(sync(), CUDA_ERROR_ILLEGAL_ADDRESS);
    assert_int_equal(((PFN_cuDevicePrimaryCtxReset_v11000)proc("cuDevicePrimaryCtxReset", 11000))(0),
                     CUDA_SUCCESS);
    assert_int_equal(alloc(&d, 16), CUDA_ERROR_INVALID_CONTEXT); /* reset: retain again */
    /* The retain count survives the reset, as on the real driver. */
    assert_int_equal(((PFN_cuDevicePrimaryCtxRelease_v11000)proc("cuDevicePrimaryCtxRelease",
                                                                 11000))(0), CUDA_SUCCESS);
    /* As measured on an H200: the device stays lost for the process after a sticky error. */
    assert_int_equal(((PFN_cuDevicePrimaryCtxRetain_v7000)proc("cuDevicePrimaryCtxRetain", 7000))(
                         &ctx, 0), CUDA_ERROR_ILLEGAL_ADDRESS);
    const fake_call *last = p_fake_call_at(p_fake_call_count() - 1);
    assert_string_equal(last->name, "cuDevicePrimaryCtxRetain");
    assert_int_equal(last->result, CUDA_ERROR_ILLEGAL_ADDRESS);
    p_fake_reset_log();
    assert_int_equal(p_fake_call_count(), 0);
    assert_null(p_fake_last_launch());
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(get_proc_address_hands_out_known_names_and_refuses_unknown_ones),
        cmocka_unit_test(calls_before_cu_init_return_not_initialized),
        cmocka_unit_test(device_queries_describe_an_sm90_device),
        cmocka_unit_test(env_failure_fails_the_nth_call_only),
        cmocka_unit_test(memory_needs_a_context_and_tracks_allocations),
        cmocka_unit_test(cubin_module_gives_kernels_layouts_globals_and_launches),
        cmocka_unit_test(ptx_module_gives_kernels_layouts_globals_and_launches),
        cmocka_unit_test(wrong_sm_and_garbage_images_are_refused),
        cmocka_unit_test(sticky_failure_poisons_the_context_until_reset),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
