/*
 * test_primary_context.c - two devices (FAKECUDA_DEVICES=2): a library with its own runtime
 * (NCCL, cuBLAS) or driver-API code retains device 1's primary context and makes it current
 * before the program's runtime has used device 1.  The runtime must take that context as device
 * 1's, not as a context of someone else's: the device is 1, its module is loaded once into that
 * context (and not again once the program chooses device 1 itself), and cudaDeviceReset resets
 * device 1's primary context.
 *
 * The tests run in order and build on each other (one process, one runtime).
 */
#include "fake_api.h"

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime_api.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "multigpu.h"


#define assert_cuda(call, code)                                                             \
    do {                                                                                    \
        assert_int_equal((call), (code));                                                   \
        assert_int_equal(cudaGetLastError(), (code));                                       \
    } while (0)

static PFN_cuDevicePrimaryCtxRetain_v7000 primary_retain;
static PFN_cuDevicePrimaryCtxRelease_v11000 primary_release;
static PFN_cuCtxSetCurrent_v4000 set_current;
static PFN_cuCtxGetCurrent_v4000 get_current;
static CUcontext theirs;                  /* device 1's primary context, as the library got it */
static int *buffer;

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

static CUcontext current_context(void)
{
    CUcontext ctx = NULL;
    assert_int_equal(get_current(&ctx), CUDA_SUCCESS);
    return ctx;
}

static void the_runtime_takes_a_primary_context_made_current_by_others_as_its_device(void **state)
{
    (void)state;
    fk.fake_register_host_kernel("multigpu_fill", host_fill);
    primary_retain = (PFN_cuDevicePrimaryCtxRetain_v7000)driver_entry("cuDevicePrimaryCtxRetain",
                                                                      7000);
    primary_release =
        (PFN_cuDevicePrimaryCtxRelease_v11000)driver_entry("cuDevicePrimaryCtxRelease", 11000);
    set_current = (PFN_cuCtxSetCurrent_v4000)driver_entry("cuCtxSetCurrent", 4000);
    get_current = (PFN_cuCtxGetCurrent_v4000)driver_entry("cuCtxGetCurrent", 4000);

    /* The library's doing: device 1's primary context, current on this thread. */
    assert_int_equal(primary_retain(&theirs, 1), CUDA_SUCCESS);
    assert_int_equal(set_current(theirs), CUDA_SUCCESS);

    int device = -1;
    assert_cuda(cudaGetDevice(&device), cudaSuccess);
    assert_int_equal(device, 1);
    assert_cuda(cudaMalloc((void **)&buffer, BYTES), cudaSuccess);
    e2e_launch_fill(buffer, 100, N, 0);
    assert_int_equal(cudaGetLastError(), cudaSuccess);
    assert_holds(buffer, 100);
    assert_int_equal(fk.fake_count_calls("cuModuleLoadDataEx"), 1);
    assert_ptr_equal(current_context(), theirs);          /* never switched away */
    assert_cuda(cudaGetDevice(&device), cudaSuccess);
    assert_int_equal(device, 1);
    /* The runtime retained device 1's context as its own (once) and never touched device 0. */
    assert_int_equal(e2e_calls_with("cuDevicePrimaryCtxRetain", "dev=1"), 2);
    assert_int_equal(e2e_calls_with("cuDevicePrimaryCtxRetain", "dev=0"), 0);
    /* Device calls without a device number work on device 1 too. */
    size_t states = e2e_calls_with("cuDevicePrimaryCtxGetState", "dev=1");
    unsigned flags = 0;
    assert_cuda(cudaGetDeviceFlags(&flags), cudaSuccess);
    assert_int_equal(e2e_calls_with("cuDevicePrimaryCtxGetState", "dev=1"), states + 1);
}

static void choosing_the_device_then_finds_its_module_already_loaded(void **state)
{
    (void)state;
    size_t switches = fk.fake_count_calls("cuCtxSetCurrent");
    assert_cuda(cudaSetDevice(1), cudaSuccess);
    assert_ptr_equal(current_context(), theirs);
    assert_int_equal(fk.fake_count_calls("cuCtxSetCurrent"), switches);
    e2e_launch_fill(buffer, 200, N, 0);
    assert_int_equal(cudaGetLastError(), cudaSuccess);
    assert_holds(buffer, 200);
    int value = -1;
    assert_cuda(e2e_get_value(&value), cudaSuccess);
    assert_int_equal(value, 3);
    assert_int_equal(fk.fake_count_calls("cuModuleLoadDataEx"), 1);
    assert_int_equal(e2e_calls_with("cuDevicePrimaryCtxRetain", "dev=1"), 2);

    /* Device 0 and back: device 1's context and module are the same. */
    assert_cuda(cudaSetDevice(0), cudaSuccess);
    assert_ptr_not_equal(current_context(), theirs);
    assert_cuda(cudaSetDevice(1), cudaSuccess);
    assert_ptr_equal(current_context(), theirs);
    e2e_launch_fill(buffer, 300, N, 0);
    assert_int_equal(cudaGetLastError(), cudaSuccess);
    assert_int_equal(fk.fake_count_calls("cuModuleLoadDataEx"), 1);
}

static void a_reset_then_resets_device_1(void **state)
{
    (void)state;
    /* Made current by the library again, as after its own calls. */
    assert_int_equal(set_current(theirs), CUDA_SUCCESS);
    size_t live = fk.fake_live_allocations();
    assert_cuda(cudaDeviceReset(), cudaSuccess);
    assert_int_equal(e2e_calls_with("cuDevicePrimaryCtxReset", "dev=1"), 1);
    assert_int_equal(e2e_calls_with("cuDevicePrimaryCtxReset", "dev=0"), 0);
    assert_int_equal(fk.fake_live_allocations(), live - 1);
    int device = -1;
    assert_cuda(cudaGetDevice(&device), cudaSuccess);
    assert_int_equal(device, 1);

    /* The next use initialises device 1 again and loads its module again, into the same
     * (primary) context. */
    int *again = NULL;
    assert_cuda(cudaMalloc((void **)&again, BYTES), cudaSuccess);
    assert_ptr_equal(current_context(), theirs);
    e2e_launch_fill(again, 400, N, 0);
    assert_int_equal(cudaGetLastError(), cudaSuccess);
    assert_holds(again, 400);
    assert_int_equal(fk.fake_count_calls("cuModuleLoadDataEx"), 2);
    assert_cuda(cudaFree(again), cudaSuccess);
    assert_int_equal(primary_release(1), CUDA_SUCCESS);     /* the library lets go */
}

int main(void)
{
    if (fake_api_load() != 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_runtime_takes_a_primary_context_made_current_by_others_as_its_device),
        cmocka_unit_test(choosing_the_device_then_finds_its_module_already_loaded),
        cmocka_unit_test(a_reset_then_resets_device_1),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
