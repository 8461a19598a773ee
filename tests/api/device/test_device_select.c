/*
 * test_device_select.c - which device a thread that chose none works on (cudaSetValidDevices), and
 * the deprecated shared memory bank size (cudaDeviceGet/SetSharedMemConfig), over the fake driver
 * with three devices.  Each check asserts the returned code and the thread's last error, and what
 * reached the driver (the fake's call log).  argv[1] names the test; each runs in a fresh process.
 */
#define _POSIX_C_SOURCE 200809L
#include "e2e.h"

#include <cuda.h>
#include <pthread.h>
#include <stdio.h>

/* cudaDeviceGet/SetSharedMemConfig are deprecated, and still tested. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

/* The device whose primary context the runtime retained for the thread's first work. */
static int retained_device(void)
{
    for (int dev = 0; dev < 3; dev++) {
        char args[16];
        snprintf(args, sizeof args, "dev=%d", dev);
        if (e2e_calls_with("cuDevicePrimaryCtxRetain", args) > 0)
            return dev;
    }
    return -1;
}

static int current_device(void)
{
    int device = -1;
    assert_cuda(cudaGetDevice(&device), cudaSuccess);
    return device;
}

static void valid_devices_choose_the_thread_device(void **state)
{
    (void)state;
    int list[] = {2, 1};
    assert_cuda(cudaSetValidDevices(list, 2), cudaSuccess);
    /* Before any work the thread's device is the first of its list. */
    assert_int_equal(current_device(), 2);
    fk.fake_reset_log();
    void *p = NULL;
    assert_cuda(cudaMalloc(&p, 64), cudaSuccess);
    assert_int_equal(retained_device(), 2);
    assert_int_equal(current_device(), 2);
    assert_cuda(cudaFree(p), cudaSuccess);
}

static void *only_device_1_fails(void *arg)
{
    cudaError_t *got = arg;
    int list[] = {1};
    if (cudaSetValidDevices(list, 1) != cudaSuccess)
        return NULL;
    *got = cudaFree(NULL);
    if (cudaGetLastError() != *got)
        *got = cudaErrorUnknown;
    return NULL;
}

/* "CUDA will try devices from the list sequentially until it finds one that works": device 1's
 * primary context cannot be made, so the thread lands on device 2. */
static void valid_devices_skip_a_device_that_does_not_work(void **state)
{
    (void)state;
    int list[] = {1, 2};
    assert_cuda(cudaSetValidDevices(list, 2), cudaSuccess);
    fk.fake_reset_log();
    fk.fake_fail_call("cuDevicePrimaryCtxRetain", 1, CUDA_ERROR_DEVICE_UNAVAILABLE);
    assert_cuda(cudaFree(NULL), cudaSuccess);
    assert_int_equal(e2e_calls_with("cuDevicePrimaryCtxRetain", "dev=1"), 1);
    assert_int_equal(e2e_calls_with("cuDevicePrimaryCtxRetain", "dev=2"), 1);
    assert_int_equal(current_device(), 2);

    /* When no device of the list works, the last one's error (a new thread, which has chosen
     * nothing yet; device 1 is still not initialised). */
    pthread_t t;
    cudaError_t got = cudaSuccess;
    fk.fake_fail_call("cuDevicePrimaryCtxRetain", 1, CUDA_ERROR_DEVICE_UNAVAILABLE);
    assert_int_equal(pthread_create(&t, NULL, only_device_1_fails, &got), 0);
    assert_int_equal(pthread_join(t, NULL), 0);
    assert_int_equal(got, cudaErrorDevicesUnavailable);
}

static void valid_devices_error_paths(void **state)
{
    (void)state;
    int good[] = {1};
    assert_cuda(cudaSetValidDevices(good, 1), cudaSuccess);
    int bad_ordinal[] = {0, 7};
    int negative[] = {-1};
    int four[] = {0, 1, 2, 0};
    assert_cuda(cudaSetValidDevices(NULL, 1), cudaErrorInvalidValue);
    assert_cuda(cudaSetValidDevices(good, -1), cudaErrorInvalidValue);
    assert_cuda(cudaSetValidDevices(four, 4), cudaErrorInvalidValue);   /* more than 3 devices */
    assert_cuda(cudaSetValidDevices(bad_ordinal, 2), cudaErrorInvalidDevice);
    assert_cuda(cudaSetValidDevices(negative, 1), cudaErrorInvalidDevice);
    /* A refused list leaves the thread's list as it was. */
    assert_int_equal(current_device(), 1);
    /* len 0 restores the default, with or without an array. */
    assert_cuda(cudaSetValidDevices(NULL, 0), cudaSuccess);
    assert_int_equal(current_device(), 0);
    assert_cuda(cudaSetValidDevices(good, 1), cudaSuccess);
    assert_cuda(cudaSetValidDevices(good, 0), cudaSuccess);
    assert_int_equal(current_device(), 0);
    /* Duplicates are no error. */
    int twice[] = {2, 2};
    assert_cuda(cudaSetValidDevices(twice, 2), cudaSuccess);
    assert_int_equal(current_device(), 2);
}

static void *other_thread_device(void *arg)
{
    int *device = arg;
    if (cudaGetDevice(device) != cudaSuccess)
        *device = -2;
    return NULL;
}

static void valid_devices_are_per_thread(void **state)
{
    (void)state;
    int list[] = {2};
    assert_cuda(cudaSetValidDevices(list, 1), cudaSuccess);
    int seen = -1;
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, other_thread_device, &seen), 0);
    assert_int_equal(pthread_join(t, NULL), 0);
    assert_int_equal(seen, 0);
    assert_int_equal(current_device(), 2);
}

static void valid_devices_do_not_move_a_chosen_device(void **state)
{
    (void)state;
    assert_cuda(cudaSetDevice(1), cudaSuccess);
    int list[] = {2, 0};
    assert_cuda(cudaSetValidDevices(list, 2), cudaSuccess);
    assert_int_equal(current_device(), 1);
    fk.fake_reset_log();
    void *p = NULL;
    assert_cuda(cudaMalloc(&p, 64), cudaSuccess);
    assert_int_equal(fk.fake_count_calls("cuDevicePrimaryCtxRetain"), 0);
    assert_cuda(cudaFree(p), cudaSuccess);
}

static void shared_mem_config_passes_through(void **state)
{
    (void)state;
    enum cudaSharedMemConfig config = (enum cudaSharedMemConfig)7;
    assert_cuda(cudaDeviceGetSharedMemConfig(&config), cudaSuccess);
    assert_int_equal(config, cudaSharedMemBankSizeFourByte);
    assert_int_equal(fk.fake_count_calls("cuCtxGetSharedMemConfig"), 1);
    assert_cuda(cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeEightByte), cudaSuccess);
    assert_int_equal(e2e_calls_with("cuCtxSetSharedMemConfig", "config=2"), 1);
    assert_cuda(cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeDefault), cudaSuccess);
    assert_int_equal(e2e_calls_with("cuCtxSetSharedMemConfig", "config=0"), 1);
    /* The fake's banks are fixed, like the H200's: still four bytes. */
    assert_cuda(cudaDeviceGetSharedMemConfig(&config), cudaSuccess);
    assert_int_equal(config, cudaSharedMemBankSizeFourByte);
}

static void shared_mem_config_error_paths(void **state)
{
    (void)state;
    fk.fake_reset_log();
    assert_cuda(cudaDeviceGetSharedMemConfig(NULL), cudaErrorInvalidValue);
    assert_cuda(cudaDeviceSetSharedMemConfig((enum cudaSharedMemConfig)3), cudaErrorInvalidValue);
    assert_cuda(cudaDeviceSetSharedMemConfig((enum cudaSharedMemConfig)-1),
                cudaErrorInvalidValue);
    assert_int_equal(fk.fake_count_calls("cuCtxGetSharedMemConfig"), 0);
    assert_int_equal(fk.fake_count_calls("cuCtxSetSharedMemConfig"), 0);
    /* The driver's answer is passed on, and the output is left alone. */
    enum cudaSharedMemConfig config = (enum cudaSharedMemConfig)7;
    fk.fake_fail_call("cuCtxGetSharedMemConfig", 1, CUDA_ERROR_INVALID_CONTEXT);
    assert_cuda(cudaDeviceGetSharedMemConfig(&config), cudaErrorDeviceUninitialized);
    assert_int_equal(config, 7);
    fk.fake_fail_call("cuCtxSetSharedMemConfig", 1, CUDA_ERROR_INVALID_VALUE);
    assert_cuda(cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeFourByte),
                cudaErrorInvalidValue);
}

/* Run with FAKECUDA_HIDE naming both: the documented answers of a device with fixed banks. */
static void shared_mem_config_without_driver_support(void **state)
{
    (void)state;
    enum cudaSharedMemConfig config = (enum cudaSharedMemConfig)7;
    assert_cuda(cudaDeviceGetSharedMemConfig(&config), cudaSuccess);
    assert_int_equal(config, cudaSharedMemBankSizeFourByte);
    assert_cuda(cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeEightByte), cudaSuccess);
    assert_cuda(cudaDeviceSetSharedMemConfig((enum cudaSharedMemConfig)3), cudaErrorInvalidValue);
    assert_cuda(cudaDeviceGetSharedMemConfig(NULL), cudaErrorInvalidValue);
}

#define TEST(name) { #name, name }

int main(int argc, char **argv)
{
    static const struct { const char *name; CMUnitTestFunction fn; } all[] = {
        TEST(valid_devices_choose_the_thread_device),
        TEST(valid_devices_skip_a_device_that_does_not_work),
        TEST(valid_devices_error_paths),
        TEST(valid_devices_are_per_thread),
        TEST(valid_devices_do_not_move_a_chosen_device),
        TEST(shared_mem_config_passes_through),
        TEST(shared_mem_config_error_paths),
        TEST(shared_mem_config_without_driver_support),
    };
    for (size_t i = 0; argc == 2 && i < sizeof all / sizeof *all; i++) {
        if (strcmp(argv[1], all[i].name) != 0)
            continue;
        const struct CMUnitTest tests[] = { { all[i].name, all[i].fn, NULL, NULL, NULL } };
        return cmocka_run_group_tests_name(all[i].name, tests, e2e_setup, NULL);
    }
    fprintf(stderr, "usage: %s TEST\n", argv[0]);
    return 2;
}
