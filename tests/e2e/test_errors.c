/*
 * test_errors.c - error paths of the runtime over the fake driver.  Each scenario needs its own
 * process (its own environment), so argv[1] names the one to run; tests/e2e/CMakeLists.txt
 * registers one ctest entry per scenario.  Every check asserts the returned code and the thread's
 * last error afterwards.
 */
#include "e2e.h"

#include <stdio.h>

void e2e_err_launch(int *p, unsigned grid, unsigned block);

static void host_function_never_registered(void) {}

/* A launch's error is visible to peek (twice) and get, and get clears it. */
static void assert_launch_error(cudaError_t code)
{
    assert_int_equal(cudaPeekAtLastError(), code);
    assert_int_equal(cudaPeekAtLastError(), code);
    assert_int_equal(cudaGetLastError(), code);
    assert_int_equal(cudaGetLastError(), cudaSuccess);
}

/* With no usable driver its failure is every call's answer, cudaGetLastError's each time too
 * (NVIDIA's runtime, with no driver: tests/abi/nodriver_test.sh), and comes before a call's own
 * checks: a bad shape, a NULL pointer. */
static void assert_failure_stays(cudaError_t code)
{
    assert_int_equal(cudaPeekAtLastError(), code);
    assert_int_equal(cudaGetLastError(), code);
    assert_int_equal(cudaGetLastError(), code);
    e2e_err_launch(NULL, 1, 4096);
    assert_int_equal(cudaGetLastError(), code);
    assert_cuda(cudaMalloc(NULL, 16), code);
}

static void no_driver_is_insufficient_driver(void **state)
{
    (void)state;
    int count = -1;
    assert_cuda(cudaGetDeviceCount(&count), cudaErrorInsufficientDriver);
    e2e_err_launch(NULL, 1, 32);
    assert_failure_stays(cudaErrorInsufficientDriver);
    void *p = NULL;
    assert_cuda(cudaMalloc(&p, 16), cudaErrorInsufficientDriver);
}

/* cudaErrorNoDevice from the calls that need a device, then `then` on the last error. */
static void no_device_answers(void (*then)(cudaError_t))
{
    int count = -1;
    assert_cuda(cudaGetDeviceCount(&count), cudaErrorNoDevice);
    void *p = NULL;
    assert_cuda(cudaMalloc(&p, 16), cudaErrorNoDevice);
    e2e_err_launch(NULL, 1, 32);
    then(cudaErrorNoDevice);
}

/* A driver whose cuInit fails (CUDA_ERROR_NO_DEVICE, as with CUDA_VISIBLE_DEVICES empty) is not
 * usable: its failure stays, as with no driver. */
static void init_failure_is_no_device(void **state)
{
    (void)state;
    no_device_answers(assert_failure_stays);
}

/* A driver that initialised and counts no device is usable: each call that needs a device
 * answers cudaErrorNoDevice, stored and cleared as any error. */
static void no_device_is_no_device(void **state)
{
    (void)state;
    no_device_answers(assert_launch_error);
}

static void no_image_for_the_device_is_no_kernel_image(void **state)
{
    (void)state;
    int *p = NULL;
    assert_cuda(cudaMalloc((void **)&p, 16), cudaSuccess);
    e2e_err_launch(p, 1, 32);
    assert_launch_error(cudaErrorNoKernelImageForDevice);
    assert_int_equal(fk.fake_launch_count(), 0);
    assert_cuda(cudaFree(p), cudaSuccess);
}

static void module_load_failure_is_invalid_kernel_image(void **state)
{
    (void)state;
    int *p = NULL;
    fk.fake_fail_call("cuModuleLoadDataEx", 1, 200 /* CUDA_ERROR_INVALID_IMAGE */);
    assert_cuda(cudaMalloc((void **)&p, 16), cudaSuccess);
    e2e_err_launch(p, 1, 32);
    assert_launch_error(cudaErrorInvalidKernelImage);
    assert_int_equal(fk.fake_launch_count(), 0);
    assert_int_equal(fk.fake_count_calls("cuModuleLoadDataEx"), 1);
}

static void driver_launch_failure_is_the_last_error_and_not_sticky(void **state)
{
    (void)state;
    int *p = NULL;
    assert_cuda(cudaMalloc((void **)&p, 16), cudaSuccess);
    fk.fake_fail_call("cuLaunchKernel", 1, 701 /* CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES */);
    e2e_err_launch(p, 1, 32);
    assert_launch_error(cudaErrorLaunchOutOfResources);
    e2e_err_launch(p, 2, 32);
    assert_int_equal(cudaGetLastError(), cudaSuccess);
    assert_int_equal(fk.fake_launch_count(), 1);
    assert_int_equal(fk.fake_last_launch()->grid[0], 2);
    assert_cuda(cudaFree(p), cudaSuccess);
}

static void launching_an_unregistered_function_is_invalid_resource_handle(void **state)
{
    (void)state;
    dim3 grid = {1, 1, 1}, block = {1, 1, 1};
    void *args[1] = {NULL};
    assert_cuda(cudaLaunchKernel((const void *)host_function_never_registered, grid, block, args, 0, 0),
                cudaErrorInvalidResourceHandle);
    assert_int_equal(fk.fake_launch_count(), 0);
}

/* cudaErrorInvalidValue, the driver's answer, from a CUDA 13 runtime; CUDA 12.9's answered
 * cudaErrorInvalidConfiguration (both NVIDIA's, H200): tests/cuda12 runs this through
 * libcudart.so.12. */
static void block_of_2048_threads_is_the_abis_bad_shape_error(void **state)
{
    (void)state;
    int *p = NULL;
    assert_cuda(cudaMalloc((void **)&p, 16), cudaSuccess);
    int version = 0;
    assert_cuda(cudaRuntimeGetVersion(&version), cudaSuccess);
    e2e_err_launch(p, 1, 2048);
    assert_launch_error(version < 13000 ? cudaErrorInvalidConfiguration : cudaErrorInvalidValue);
    assert_int_equal(fk.fake_launch_count(), 0);
    assert_cuda(cudaFree(p), cudaSuccess);
}

static void illegal_address_at_synchronize_is_sticky(void **state)
{
    (void)state;
    int *p = NULL;
    assert_cuda(cudaMalloc((void **)&p, 16), cudaSuccess);
    e2e_err_launch(p, 1, 32);
    assert_int_equal(cudaGetLastError(), cudaSuccess);
    fk.fake_fail_call("cuCtxSynchronize", 1, 700 /* CUDA_ERROR_ILLEGAL_ADDRESS */);
    assert_int_equal(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    assert_int_equal(cudaGetLastError(), cudaErrorIllegalAddress);
    assert_int_equal(cudaGetLastError(), cudaSuccess);
    void *q = NULL;
    assert_cuda(cudaMalloc(&q, 16), cudaErrorIllegalAddress);
    assert_int_equal(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    int count = 0;
    assert_int_equal(cudaGetDeviceCount(&count), cudaSuccess);

    /* The reset succeeds, but the device stays lost for the process: NVIDIA's runtime answers
     * cudaErrorDevicesUnavailable from then on (measured on an H200). */
    assert_int_equal(cudaDeviceReset(), cudaSuccess);
    assert_int_equal(cudaGetLastError(), cudaErrorIllegalAddress);   /* from the sync above */
    assert_cuda(cudaMalloc(&q, 16), cudaErrorDevicesUnavailable);
    assert_cuda(cudaDeviceSynchronize(), cudaErrorDevicesUnavailable);
}

static const struct {
    const char *name;
    CMUnitTestFunction fn;
    int needs_fake;
} scenarios[] = {
    {"no_driver", no_driver_is_insufficient_driver, 0},
    {"no_device", no_device_is_no_device, 1},
    {"init_fails", init_failure_is_no_device, 1},
    {"no_image", no_image_for_the_device_is_no_kernel_image, 1},
    {"load_failure", module_load_failure_is_invalid_kernel_image, 1},
    {"launch_failure", driver_launch_failure_is_the_last_error_and_not_sticky, 1},
    {"unregistered_function", launching_an_unregistered_function_is_invalid_resource_handle, 1},
    {"invalid_configuration", block_of_2048_threads_is_the_abis_bad_shape_error, 1},
    {"sticky", illegal_address_at_synchronize_is_sticky, 1},
};

int main(int argc, char **argv)
{
    for (size_t i = 0; argc == 2 && i < sizeof scenarios / sizeof *scenarios; i++) {
        if (strcmp(argv[1], scenarios[i].name) != 0)
            continue;
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(scenarios[i].fn),
        };
        return cmocka_run_group_tests_name(scenarios[i].name, tests,
                                           scenarios[i].needs_fake ? e2e_setup : NULL, NULL);
    }
    fprintf(stderr, "usage: %s SCENARIO (no_driver, no_device, ...)\n", argv[0]);
    return 2;
}
