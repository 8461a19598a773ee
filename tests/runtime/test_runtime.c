/*
 * test_runtime.c - the runtime's tables and per-thread state.  With no argument, over the fake
 * driver (the answers of the runtime's own checks need a usable driver: with none, every call
 * answers its failure first); with "no_driver", the answers of a process with no driver.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "launch/launch.h"

static void error_names_and_strings_are_nvidias(void **state)
{
    assert_string_equal(cudaGetErrorName(cudaSuccess), "cudaSuccess");
    assert_string_equal(cudaGetErrorString(cudaSuccess), "no error");
    assert_string_equal(cudaGetErrorName(cudaErrorInvalidValue), "cudaErrorInvalidValue");
    assert_string_equal(cudaGetErrorString(cudaErrorInvalidValue), "invalid argument");
    assert_string_equal(cudaGetErrorString(cudaErrorInsufficientDriver),
                        "CUDA driver version is insufficient for CUDA runtime version");
    assert_string_equal(cudaGetErrorName(cudaErrorNoKernelImageForDevice),
                        "cudaErrorNoKernelImageForDevice");
    assert_string_equal(cudaGetErrorName(cudaErrorUnknown), "cudaErrorUnknown");
}

static void unknown_error_code_is_unrecognized(void **state)
{
    assert_string_equal(cudaGetErrorName((cudaError_t)12345), "unrecognized error code");
    assert_string_equal(cudaGetErrorString((cudaError_t)12345), "unrecognized error code");
    assert_string_equal(cudaGetErrorString((cudaError_t)-1), "unrecognized error code");
}

static void sticky_codes_are_the_documented_ones(void **state)
{
    const cudaError_t sticky[] = { cudaErrorContained, cudaErrorIllegalAddress,
                                   cudaErrorLaunchTimeout, cudaErrorAssert,
                                   cudaErrorHardwareStackError, cudaErrorIllegalInstruction,
                                   cudaErrorMisalignedAddress, cudaErrorInvalidAddressSpace,
                                   cudaErrorInvalidPc, cudaErrorLaunchFailure,
                                   cudaErrorTensorMemoryLeak, cudaErrorExternalDevice };
    int count = 0;
    for (int code = 0; code < 1100; code++)
        count += rt_error_is_sticky((cudaError_t)code);
    assert_int_equal(count, (int)(sizeof sticky / sizeof sticky[0]));
    for (size_t i = 0; i < sizeof sticky / sizeof sticky[0]; i++)
        assert_true(rt_error_is_sticky(sticky[i]));
    assert_false(rt_error_is_sticky(cudaErrorInvalidValue));
    assert_false(rt_error_is_sticky(cudaErrorLaunchOutOfResources));
}

static void driver_results_translate_through_one_table(void **state)
{
    assert_int_equal(rt_error_from_cu(CUDA_SUCCESS), cudaSuccess);
    assert_int_equal(rt_error_from_cu(CUDA_ERROR_OUT_OF_MEMORY), cudaErrorMemoryAllocation);
    assert_int_equal(rt_error_from_cu(CUDA_ERROR_NO_BINARY_FOR_GPU),
                     cudaErrorNoKernelImageForDevice);
    assert_int_equal(rt_error_from_cu(CUDA_ERROR_INVALID_HANDLE),
                     cudaErrorInvalidResourceHandle);
    assert_int_equal(rt_error_from_cu(CUDA_ERROR_ILLEGAL_ADDRESS), cudaErrorIllegalAddress);
    assert_int_equal(rt_error_from_cu(CUDA_ERROR_CONTEXT_ALREADY_CURRENT), cudaErrorUnknown);
    assert_int_equal(rt_error_from_cu((CUresult)4242), cudaErrorUnknown);
}

static void get_last_error_resets_and_peek_does_not(void **state)
{
    cudaGetLastError();
    assert_int_equal(cudaMalloc(NULL, 16), cudaErrorInvalidValue);
    assert_int_equal(cudaPeekAtLastError(), cudaErrorInvalidValue);
    assert_int_equal(cudaPeekAtLastError(), cudaErrorInvalidValue);
    assert_int_equal(cudaGetLastError(), cudaErrorInvalidValue);
    assert_int_equal(cudaGetLastError(), cudaSuccess);
}

static void success_never_clears_the_last_error(void **state)
{
    cudaGetLastError();
    assert_int_equal(cudaMalloc(NULL, 16), cudaErrorInvalidValue);
    int version = 0;
    assert_int_equal(cudaRuntimeGetVersion(&version), cudaSuccess);
    assert_int_equal(version, 13050);           /* NVIDIA's 13.5 runtime */
    assert_int_equal(cudaGetLastError(), cudaErrorInvalidValue);
}

static void *other_thread_last_error(void *arg)
{
    *(cudaError_t *)arg = cudaPeekAtLastError();
    return NULL;
}

static void last_error_is_per_thread(void **state)
{
    cudaGetLastError();
    assert_int_equal(cudaMalloc(NULL, 16), cudaErrorInvalidValue);
    cudaError_t seen = cudaErrorUnknown;
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, other_thread_last_error, &seen), 0);
    pthread_join(t, NULL);
    assert_int_equal(seen, cudaSuccess);
    assert_int_equal(cudaGetLastError(), cudaErrorInvalidValue);
}

static void no_driver_is_insufficient_driver(void **state)
{
    int count = -7;
    cudaGetLastError();
    assert_int_equal(cudaGetDeviceCount(&count), cudaErrorInsufficientDriver);
    assert_int_equal(count, -7);              /* NVIDIA's runtime leaves it untouched */
    assert_int_equal(cudaGetLastError(), cudaErrorInsufficientDriver);
    int version = -1;
    assert_int_equal(cudaDriverGetVersion(&version), cudaSuccess);
    assert_int_equal(version, 0);
    void *p = NULL;
    assert_int_equal(cudaMalloc(&p, 16), cudaErrorInsufficientDriver);
    assert_int_equal(cudaSetDevice(0), cudaErrorInsufficientDriver);
    int device = -1;
    assert_int_equal(cudaGetDevice(&device), cudaErrorInsufficientDriver);
    assert_int_equal(cudaGetLastError(), cudaErrorInsufficientDriver);
}

/* NVIDIA's runtime initialises the driver before it reads a call's arguments, so with no driver
 * a call's own errors are never seen: cudaErrorInsufficientDriver, from every call but the
 * version queries, and from cudaGetLastError every time (NVIDIA's 13.5 library, on this
 * machine: tests/abi/nodriver_test.sh compares every function). */
static void no_driver_comes_before_the_arguments(void **state)
{
    assert_int_equal(cudaMalloc(NULL, 16), cudaErrorInsufficientDriver);
    assert_int_equal(cudaGraphGetId(NULL, NULL), cudaErrorInsufficientDriver);
    assert_int_equal(cudaSetDevice(-1), cudaErrorInsufficientDriver);
    assert_int_equal(cudaGetLastError(), cudaErrorInsufficientDriver);
    assert_int_equal(cudaGetLastError(), cudaErrorInsufficientDriver);
    assert_int_equal(cudaPeekAtLastError(), cudaErrorInsufficientDriver);
    /* Answered before the driver, and then the driver's failure again. */
    assert_int_equal(cudaRuntimeGetVersion(NULL), cudaErrorInvalidValue);
    assert_int_equal(cudaDriverGetVersion(NULL), cudaErrorInvalidValue);
    assert_int_equal(cudaGetLastError(), cudaErrorInsufficientDriver);
    cudaKernel_t kernel;
    assert_int_equal(__cudaGetKernel(NULL, NULL), cudaErrorInvalidValue);
    assert_int_equal(__cudaGetKernel(&kernel, (const void *)&kernel), cudaErrorInsufficientDriver);
}

static void configurations_nest_as_a_stack(void **state)
{
    dim3 g1 = { 1, 1, 1 }, b1 = { 4, 1, 1 }, g2 = { 7, 1, 1 }, b2 = { 8, 2, 1 };
    assert_int_equal(__cudaPushCallConfiguration(g1, b1, 0, NULL), 0);
    assert_int_equal(__cudaPushCallConfiguration(g2, b2, 99, (struct CUstream_st *)0x2), 0);
    dim3 g, b;
    size_t shared;
    cudaStream_t stream;
    assert_int_equal(__cudaPopCallConfiguration(&g, &b, &shared, &stream), cudaSuccess);
    assert_int_equal(g.x, 7);
    assert_int_equal(b.y, 2);
    assert_int_equal(shared, 99);
    assert_ptr_equal(stream, (cudaStream_t)0x2);
    assert_int_equal(__cudaPopCallConfiguration(&g, &b, &shared, &stream), cudaSuccess);
    assert_int_equal(g.x, 1);
    assert_int_equal(b.x, 4);
    assert_null(stream);
}

static void pop_on_an_empty_stack_fails(void **state)
{
    dim3 g, b;
    size_t shared;
    cudaStream_t stream;
    cudaGetLastError();
    /* NVIDIA's runtime answers cudaErrorMissingConfiguration (H200, conf_misuse_launch.cu). */
    assert_int_equal(__cudaPopCallConfiguration(&g, &b, &shared, &stream),
                     cudaErrorMissingConfiguration);
    assert_int_equal(cudaGetLastError(), cudaErrorMissingConfiguration);
}

static void push_past_the_limit_skips_and_leaves_nothing(void **state)
{
    dim3 one = { 1, 1, 1 };
    unsigned pushed = 0;
    while (__cudaPushCallConfiguration(one, one, 0, NULL) == 0)
        pushed++;
    assert_true(pushed >= 16);
    dim3 g, b;
    size_t shared;
    cudaStream_t stream;
    for (unsigned i = 0; i < pushed; i++)
        assert_int_equal(__cudaPopCallConfiguration(&g, &b, &shared, &stream), cudaSuccess);
    assert_int_equal(__cudaPopCallConfiguration(&g, &b, &shared, &stream),
                     cudaErrorMissingConfiguration);
    cudaGetLastError();
}

static void host_kernel_a(void) {}
static void host_kernel_b(void) {}

static void registration_gives_process_wide_handles(void **state)
{
    /* A wrapper with a bad magic still registers (it is reported at load time), and records. */
    static const uint32_t wrapper[6] = { 0x12345678u, 1, 0, 0, 0, 0 };
    void **handle = __cudaRegisterFatBinary((void *)wrapper);
    assert_non_null(handle);
    __cudaRegisterFunction(handle, (const char *)host_kernel_a, (char *)"_Z1av", "_Z1av", -1,
                           NULL, NULL, NULL, NULL, NULL);
    __cudaRegisterFunction(handle, (const char *)host_kernel_a, (char *)"_Z1dupv", "_Z1dupv", -1,
                           NULL, NULL, NULL, NULL, NULL);
    __cudaRegisterFatBinaryEnd(handle);

    cudaKernel_t k = NULL;
    assert_int_equal(__cudaGetKernel(&k, (const void *)host_kernel_a), cudaSuccess);
    assert_non_null(k);
    rt_kernel *record = rt_kernel_find((const void *)host_kernel_a);
    assert_ptr_equal(record, (rt_kernel *)k);
    assert_ptr_equal(rt_kernel_find(k), record);          /* the handle finds itself */
    assert_string_equal(record->name, "_Z1av");           /* the first registration wins */

    cudaGetLastError();
    cudaKernel_t none = (cudaKernel_t)0x1;
    /* NVIDIA's answer for a pointer that is no kernel (H200, conf_misuse_launch.cu). */
    assert_int_equal(__cudaGetKernel(&none, (const void *)host_kernel_b),
                     cudaErrorInvalidDeviceFunction);
    assert_null(none);
    assert_int_equal(cudaGetLastError(), cudaErrorInvalidDeviceFunction);
}

static void host_kernel_c(void) {}
static int host_variable_c;

static void a_reloaded_library_registers_over_its_unloaded_self(void **state)
{
    /* dlopen, dlclose, dlopen again: the same host addresses come back in a new module, and the
     * new records must replace the dead ones. */
    static const uint32_t wrapper[6] = { 0x12345678u, 1, 0, 0, 0, 0 };
    void **first = __cudaRegisterFatBinary((void *)wrapper);
    __cudaRegisterFunction(first, (const char *)host_kernel_c, (char *)"_Z1cv", "_Z1cv", -1,
                           NULL, NULL, NULL, NULL, NULL);
    __cudaRegisterVar(first, (char *)&host_variable_c, (char *)"c_old", "c_old", 0, 4, 0, 0);
    __cudaRegisterFatBinaryEnd(first);
    assert_string_equal(rt_kernel_find((const void *)host_kernel_c)->name, "_Z1cv");
    __cudaUnregisterFatBinary(first);

    void **second = __cudaRegisterFatBinary((void *)wrapper);
    __cudaRegisterFunction(second, (const char *)host_kernel_c, (char *)"_Z1cv_again",
                           "_Z1cv_again", -1, NULL, NULL, NULL, NULL, NULL);
    __cudaRegisterVar(second, (char *)&host_variable_c, (char *)"c_new", "c_new", 0, 4, 0, 0);
    __cudaRegisterFatBinaryEnd(second);
    rt_kernel *k = rt_kernel_find((const void *)host_kernel_c);
    assert_string_equal(k->name, "_Z1cv_again");
    assert_ptr_equal(k->module, (rt_module *)*second);
    assert_string_equal(rt_var_find(&host_variable_c)->name, "c_new");
}

static void host_kernel_d(void) {}

static void a_kernel_handle_is_known_once_handed_out_and_dies_with_its_library(void **state)
{
    /* The wrapper on the heap: no part of the program, so unregistering it is what dlclose of
     * a library does. */
    uint32_t *wrapper = calloc(6, sizeof *wrapper);
    assert_non_null(wrapper);
    wrapper[0] = 0x12345678u;
    wrapper[1] = 1;
    void **handle = __cudaRegisterFatBinary(wrapper);
    __cudaRegisterFunction(handle, (const char *)host_kernel_d, (char *)"_Z1dv", "_Z1dv", -1,
                           NULL, NULL, NULL, NULL, NULL);
    __cudaRegisterFatBinaryEnd(handle);
    rt_kernel *record = rt_kernel_find((const void *)host_kernel_d);
    assert_non_null(record);
    /* Registration alone gives the record's address no key: no program holds it yet. */
    assert_null(rt_kernel_find(record));
    cudaKernel_t k = NULL, again = NULL;
    assert_int_equal(cudaGetKernel(&k, (const void *)host_kernel_d), cudaSuccess);
    assert_ptr_equal(k, record);
    assert_ptr_equal(rt_kernel_find(k), record);
    assert_int_equal(__cudaGetKernel(&again, (const void *)host_kernel_d), cudaSuccess);
    assert_ptr_equal(again, k);

    __cudaUnregisterFatBinary(handle);
    assert_null(rt_kernel_find((const void *)host_kernel_d));
    assert_null(rt_kernel_find(k));
    /* A record of an unloaded library handed out late gets no key either. */
    assert_ptr_equal(rt_kernel_hand_out(record), record);
    assert_null(rt_kernel_find(record));
    free(wrapper);
}

static void launching_an_unregistered_function_is_an_invalid_handle(void **state)
{
    dim3 one = { 1, 1, 1 };
    void *args[1] = { NULL };
    cudaGetLastError();
    assert_int_equal(cudaLaunchKernel((const void *)host_kernel_b, one, one, args, 0, NULL),
                     cudaErrorInvalidResourceHandle);
    assert_int_equal(cudaGetLastError(), cudaErrorInvalidResourceHandle);
    /* NULL is another answer: cudaErrorInvalidDeviceFunction (H200, conf_misuse_launch.cu). */
    assert_int_equal(__cudaLaunchKernel(NULL, one, one, args, 0, NULL),
                     cudaErrorInvalidDeviceFunction);
    assert_int_equal(cudaPeekAtLastError(), cudaErrorInvalidDeviceFunction);
    cudaGetLastError();
}

static void symbols_that_were_never_registered_are_invalid(void **state)
{
    int shadow = 0, value = 1;
    cudaGetLastError();
    assert_int_equal(cudaMemcpyToSymbol(&shadow, &value, sizeof value, 0, cudaMemcpyHostToDevice),
                     cudaErrorInvalidSymbol);
    assert_int_equal(cudaGetLastError(), cudaErrorInvalidSymbol);
    assert_int_equal(cudaMemcpyToSymbol(&shadow, &value, sizeof value, 0, cudaMemcpyDeviceToHost),
                     cudaErrorInvalidMemcpyDirection);
    assert_int_equal(cudaGetLastError(), cudaErrorInvalidMemcpyDirection);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "no_driver") == 0) {
        const struct CMUnitTest no_driver[] = {
            cmocka_unit_test(no_driver_is_insufficient_driver),
            cmocka_unit_test(no_driver_comes_before_the_arguments),
        };
        return cmocka_run_group_tests(no_driver, NULL, NULL);
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(error_names_and_strings_are_nvidias),
        cmocka_unit_test(unknown_error_code_is_unrecognized),
        cmocka_unit_test(sticky_codes_are_the_documented_ones),
        cmocka_unit_test(driver_results_translate_through_one_table),
        cmocka_unit_test(get_last_error_resets_and_peek_does_not),
        cmocka_unit_test(success_never_clears_the_last_error),
        cmocka_unit_test(last_error_is_per_thread),
        cmocka_unit_test(configurations_nest_as_a_stack),
        cmocka_unit_test(pop_on_an_empty_stack_fails),
        cmocka_unit_test(push_past_the_limit_skips_and_leaves_nothing),
        cmocka_unit_test(registration_gives_process_wide_handles),
        cmocka_unit_test(a_reloaded_library_registers_over_its_unloaded_self),
        cmocka_unit_test(a_kernel_handle_is_known_once_handed_out_and_dies_with_its_library),
        cmocka_unit_test(launching_an_unregistered_function_is_an_invalid_handle),
        cmocka_unit_test(symbols_that_were_never_registered_are_invalid),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
