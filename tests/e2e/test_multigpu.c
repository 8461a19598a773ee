/*
 * test_multigpu.c - two devices (FAKECUDA_DEVICES=2): what tests/gpu/conf_multigpu.cu checks on
 * two real GPUs, checked here in the driver calls the runtime makes.  Each device gets its own
 * primary context; the current device is per thread; a module is loaded once per device, at the
 * first launch there, and its variables have one instance per device; streams and events are
 * made in the current device's context; enabling peer access initialises the peer without making
 * it current; and cudaDeviceReset on device 1 resets only device 1's context, so device 0's
 * memory, stream and loaded module stay as they were while device 1 loads its module again (and
 * device 0's peer access to device 1 ended with the old context).  Last, a fault on device 1 seen
 * from device 0 (waiting for device 1's stream and event) is recorded against device 1 only.
 *
 * The tests run in order and build on each other (one process, one runtime).
 */
#include "fake_api.h"

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime_api.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "multigpu.h"


/* Asserts a call's return code and then the thread's last error (which it leaves cleared). */
#define assert_cuda(call, code)                                                             \
    do {                                                                                    \
        assert_int_equal((call), (code));                                                   \
        assert_int_equal(cudaGetLastError(), (code));                                       \
    } while (0)

/* What the tests share, in the order they make it. */
static CUcontext ctx0, ctx1;
static int *a0, *a1;                      /* buffers on devices 0 and 1 */
static uintptr_t module0, module1;        /* the kernel's module in each context */
static cudaStream_t s0;                   /* a stream of device 0 */

static PFN_cuCtxGetCurrent_v4000 get_current;
static PFN_cuMemcpyPeer_v4000 memcpy_peer;   /* the driver's own peer copy */

static CUcontext current_context(void)
{
    CUcontext ctx = NULL;
    assert_int_equal(get_current(&ctx), CUDA_SUCCESS);
    return ctx;
}

static int pointer_device(const void *p)
{
    struct cudaPointerAttributes a;
    memset(&a, 0, sizeof a);
    assert_int_equal(cudaPointerGetAttributes(&a, p), cudaSuccess);
    return a.device;
}

static void enabling_peer_access_initialises_the_peer_but_keeps_the_current_device(void **state)
{
    (void)state;
    int count = 0;
    assert_int_equal(cudaGetDeviceCount(&count), cudaSuccess);
    assert_int_equal(count, 2);
    void *fn = NULL;
    enum cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
    assert_int_equal(cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &fn, 4000,
                                                      cudaEnableDefault, &found), cudaSuccess);
    assert_int_equal(found, cudaDriverEntryPointSuccess);
    get_current = (PFN_cuCtxGetCurrent_v4000)fn;
    fn = NULL;
    assert_int_equal(cudaGetDriverEntryPointByVersion("cuMemcpyPeer", &fn, 4000,
                                                      cudaEnableDefault, &found), cudaSuccess);
    assert_int_equal(found, cudaDriverEntryPointSuccess);
    memcpy_peer = (PFN_cuMemcpyPeer_v4000)fn;

    assert_int_equal(cudaSetDevice(0), cudaSuccess);
    ctx0 = current_context();
    assert_non_null(ctx0);
    assert_int_equal(e2e_calls_with("cuDevicePrimaryCtxRetain", "dev=1"), 0);

    /* Device 1 was never initialised: nothing can be enabled on it yet. */
    assert_cuda(cudaDeviceDisablePeerAccess(1), cudaErrorPeerAccessNotEnabled);
    assert_cuda(cudaDeviceEnablePeerAccess(1, 0), cudaSuccess);
    assert_int_equal(e2e_calls_with("cuDevicePrimaryCtxRetain", "dev=1"), 1);
    assert_ptr_equal(current_context(), ctx0);
    int device = -1;
    assert_int_equal(cudaGetDevice(&device), cudaSuccess);
    assert_int_equal(device, 0);
    assert_int_equal(e2e_calls_with("cuCtxEnablePeerAccess", "flags=0"), 1);

    assert_cuda(cudaDeviceEnablePeerAccess(1, 0), cudaErrorPeerAccessAlreadyEnabled);
    assert_cuda(cudaDeviceEnablePeerAccess(0, 0), cudaErrorInvalidDevice);
    assert_cuda(cudaDeviceEnablePeerAccess(1, 1), cudaErrorInvalidValue);
    assert_cuda(cudaDeviceEnablePeerAccess(2, 0), cudaErrorInvalidDevice);
    assert_cuda(cudaDeviceDisablePeerAccess(1), cudaSuccess);
    assert_cuda(cudaDeviceDisablePeerAccess(1), cudaErrorPeerAccessNotEnabled);

    int can = -1, value = -1;
    assert_cuda(cudaDeviceCanAccessPeer(&can, 0, 1), cudaSuccess);
    assert_int_equal(can, 1);
    assert_cuda(cudaDeviceCanAccessPeer(&can, 1, 1), cudaSuccess);
    assert_int_equal(can, 0);
    assert_cuda(cudaDeviceGetP2PAttribute(&value, cudaDevP2PAttrAccessSupported, 0, 1),
                cudaSuccess);
    assert_int_equal(value, 1);
    assert_cuda(cudaDeviceGetP2PAttribute(&value, cudaDevP2PAttrAccessSupported, 1, 1),
                cudaErrorInvalidDevice);
    /* Nothing was launched: no module is loaded anywhere yet. */
    assert_int_equal(fk.fake_count_calls("cuModuleLoadDataEx"), 0);
}

struct thread_devices {
    int at_start;
    CUcontext after_set;
};

/* Another thread: its own current device (0 until it chooses), whatever the main thread chose. */
static void *other_thread(void *arg)
{
    struct thread_devices *t = arg;
    t->at_start = -1;
    if (cudaGetDevice(&t->at_start) != cudaSuccess || cudaSetDevice(0) != cudaSuccess ||
        get_current(&t->after_set) != CUDA_SUCCESS)
        t->after_set = NULL;
    return NULL;
}

static void each_device_has_its_own_context_and_each_thread_its_device(void **state)
{
    (void)state;
    assert_int_equal(cudaSetDevice(1), cudaSuccess);
    ctx1 = current_context();
    assert_non_null(ctx1);
    assert_ptr_not_equal(ctx1, ctx0);
    assert_int_equal(e2e_calls_with("cuDevicePrimaryCtxRetain", "dev=1"), 1);   /* kept from before */

    struct thread_devices t;
    memset(&t, 0, sizeof t);
    pthread_t thread;
    assert_int_equal(pthread_create(&thread, NULL, other_thread, &t), 0);
    assert_int_equal(pthread_join(thread, NULL), 0);
    assert_int_equal(t.at_start, 0);
    assert_ptr_equal(t.after_set, ctx0);

    int device = -1;
    assert_int_equal(cudaGetDevice(&device), cudaSuccess);
    assert_int_equal(device, 1);
    assert_ptr_equal(current_context(), ctx1);
}

static void a_module_loads_once_per_device_with_its_own_variables(void **state)
{
    (void)state;
    fk.fake_register_host_kernel("multigpu_fill", host_fill);
    assert_int_equal(cudaSetDevice(0), cudaSuccess);
    assert_int_equal(cudaMalloc((void **)&a0, BYTES), cudaSuccess);
    e2e_launch_fill(a0, 100, N, 0);
    assert_int_equal(cudaGetLastError(), cudaSuccess);
    assert_int_equal(fk.fake_count_calls("cuModuleLoadDataEx"), 1);
    module0 = fk.fake_last_launch()->module;
    assert_holds(a0, 100);

    assert_int_equal(cudaSetDevice(1), cudaSuccess);
    assert_int_equal(cudaMalloc((void **)&a1, BYTES), cudaSuccess);
    e2e_launch_fill(a1, 200, N, 0);
    assert_int_equal(cudaGetLastError(), cudaSuccess);
    assert_int_equal(fk.fake_count_calls("cuModuleLoadDataEx"), 2);
    module1 = fk.fake_last_launch()->module;
    assert_true(module1 != module0);
    assert_holds(a1, 200);
    assert_int_equal(pointer_device(a0), 0);
    assert_int_equal(pointer_device(a1), 1);

    /* Back on device 0: its module is still loaded. */
    assert_int_equal(cudaSetDevice(0), cudaSuccess);
    e2e_launch_fill(a0, 300, N, 0);
    assert_int_equal(cudaGetLastError(), cudaSuccess);
    assert_int_equal(fk.fake_count_calls("cuModuleLoadDataEx"), 2);
    assert_true(fk.fake_last_launch()->module == module0);

    /* One instance of the __device__ variable per device. */
    int value = -1;
    assert_int_equal(e2e_set_value(7), cudaSuccess);
    assert_int_equal(cudaSetDevice(1), cudaSuccess);
    assert_int_equal(e2e_set_value(11), cudaSuccess);
    assert_int_equal(e2e_get_value(&value), cudaSuccess);
    assert_int_equal(value, 11);
    assert_int_equal(cudaSetDevice(0), cudaSuccess);
    assert_int_equal(e2e_get_value(&value), cudaSuccess);
    assert_int_equal(value, 7);
}

static void streams_and_events_are_made_on_the_current_device(void **state)
{
    (void)state;
    cudaStream_t s1 = NULL;
    cudaEvent_t e1 = NULL;
    int device = -1;
    assert_int_equal(cudaSetDevice(1), cudaSuccess);
    assert_int_equal(cudaStreamCreate(&s1), cudaSuccess);
    assert_int_equal(cudaEventCreate(&e1), cudaSuccess);
    assert_int_equal(cudaStreamGetDevice(s1, &device), cudaSuccess);
    assert_int_equal(device, 1);
    e2e_launch_fill(a1, 400, N, s1);
    assert_int_equal(cudaGetLastError(), cudaSuccess);
    assert_true(fk.fake_last_launch()->stream == (uintptr_t)s1);
    assert_true(fk.fake_last_launch()->module == module1);
    assert_int_equal(cudaEventRecord(e1, s1), cudaSuccess);

    /* Device 0 waits for device 1's event, then copies device 1's buffer over. */
    assert_int_equal(cudaSetDevice(0), cudaSuccess);
    assert_int_equal(cudaStreamCreate(&s0), cudaSuccess);
    assert_int_equal(cudaStreamGetDevice(s0, &device), cudaSuccess);
    assert_int_equal(device, 0);
    assert_cuda(cudaStreamWaitEvent(s0, e1, 0), cudaSuccess);
    assert_cuda(cudaMemcpyPeerAsync(a0, 0, a1, 1, BYTES, s0), cudaSuccess);
    assert_cuda(cudaStreamSynchronize(s0), cudaSuccess);
    assert_holds(a0, 400);
    assert_cuda(cudaMemcpyPeer(a0, 0, a1, 2, BYTES), cudaErrorInvalidDevice);

    assert_int_equal(cudaSetDevice(1), cudaSuccess);
    e2e_launch_fill(a1, 500, N, s1);
    assert_int_equal(cudaStreamSynchronize(s1), cudaSuccess);
    assert_cuda(cudaMemcpyPeer(a0, 0, a1, 1, BYTES), cudaSuccess);
    assert_holds(a0, 500);
    /* The driver's peer copy between the two primary contexts: serialised with the work of
     * both devices, as NVIDIA documents cudaMemcpyPeer (a copy in the current context alone
     * would not wait for the other device's legacy stream). */
    char contexts[96];
    snprintf(contexts, sizeof contexts, "dstContext=%p src=", (void *)ctx0);
    assert_int_equal(e2e_calls_with("cuMemcpyPeer", contexts), 1);
    snprintf(contexts, sizeof contexts, "srcContext=%p bytes=%zu", (void *)ctx1, BYTES);
    assert_int_equal(e2e_calls_with("cuMemcpyPeer", contexts), 1);
    assert_int_equal(e2e_calls_with("cuMemcpyPeerAsync", contexts), 1);
    /* The driver's own peer copy names both contexts. */
    e2e_launch_fill(a1, 550, N, s1);
    assert_int_equal(cudaStreamSynchronize(s1), cudaSuccess);
    assert_int_equal(memcpy_peer((CUdeviceptr)(uintptr_t)a0, ctx0, (CUdeviceptr)(uintptr_t)a1,
                                 ctx1, BYTES), CUDA_SUCCESS);
    assert_holds(a0, 550);
    assert_int_equal(cudaEventDestroy(e1), cudaSuccess);
    assert_int_equal(cudaStreamDestroy(s1), cudaSuccess);
}

static void resetting_device_1_leaves_device_0_as_it_was(void **state)
{
    (void)state;
    size_t live = fk.fake_live_allocations();
    size_t loads = fk.fake_count_calls("cuModuleLoadDataEx");
    size_t retains = e2e_calls_with("cuDevicePrimaryCtxRetain", "dev=1");
    assert_int_equal(cudaSetDevice(0), cudaSuccess);
    assert_cuda(cudaDeviceEnablePeerAccess(1, 0), cudaSuccess);
    assert_int_equal(cudaSetDevice(1), cudaSuccess);
    assert_cuda(cudaDeviceReset(), cudaSuccess);
    assert_int_equal(e2e_calls_with("cuDevicePrimaryCtxReset", "dev=1"), 1);
    assert_int_equal(e2e_calls_with("cuDevicePrimaryCtxReset", "dev=0"), 0);
    assert_int_equal(fk.fake_live_allocations(), live - 1);        /* a1 only */
    int device = -1;
    assert_int_equal(cudaGetDevice(&device), cudaSuccess);
    assert_int_equal(device, 1);

    /* Device 0: the same context, its memory, stream and module. */
    assert_int_equal(cudaSetDevice(0), cudaSuccess);
    assert_ptr_equal(current_context(), ctx0);
    assert_holds(a0, 550);
    assert_cuda(cudaStreamSynchronize(s0), cudaSuccess);
    e2e_launch_fill(a0, 600, N, s0);
    assert_int_equal(cudaGetLastError(), cudaSuccess);
    assert_true(fk.fake_last_launch()->module == module0);
    assert_int_equal(fk.fake_count_calls("cuModuleLoadDataEx"), loads);
    assert_holds(a0, 600);
    /* Device 1's context is gone until its next use: no peer copy into it. */
    assert_int_equal(memcpy_peer((CUdeviceptr)(uintptr_t)a0, ctx0, (CUdeviceptr)(uintptr_t)a0,
                                 ctx1, 4), CUDA_ERROR_INVALID_CONTEXT);
    int value = -1;
    assert_int_equal(e2e_get_value(&value), cudaSuccess);
    assert_int_equal(value, 7);
    assert_int_equal(pointer_device(a0), 0);

    /* Device 1: initialised again on its next use, its module loaded again, the variable back
     * at its initial value. */
    assert_int_equal(cudaSetDevice(1), cudaSuccess);
    assert_int_equal(e2e_calls_with("cuDevicePrimaryCtxRetain", "dev=1"), retains + 1);
    int *b1 = NULL;
    assert_int_equal(cudaMalloc((void **)&b1, BYTES), cudaSuccess);
    e2e_launch_fill(b1, 700, N, 0);
    assert_int_equal(cudaGetLastError(), cudaSuccess);
    assert_int_equal(fk.fake_count_calls("cuModuleLoadDataEx"), loads + 1);
    assert_true(fk.fake_last_launch()->module != module1);
    assert_holds(b1, 700);
    assert_int_equal(e2e_get_value(&value), cudaSuccess);
    assert_int_equal(value, 3);
    assert_int_equal(pointer_device(b1), 1);

    /* The reset ended device 0's access to device 1: it is enabled again, not "already". */
    assert_int_equal(cudaSetDevice(0), cudaSuccess);
    assert_cuda(cudaDeviceEnablePeerAccess(1, 0), cudaSuccess);
    assert_cuda(cudaDeviceDisablePeerAccess(1), cudaSuccess);
    assert_int_equal(cudaSetDevice(1), cudaSuccess);
    assert_int_equal(cudaFree(b1), cudaSuccess);

    assert_int_equal(cudaSetDevice(0), cudaSuccess);
    assert_int_equal(cudaStreamDestroy(s0), cudaSuccess);
    assert_int_equal(cudaFree(a0), cudaSuccess);
    assert_int_equal(fk.fake_live_allocations(), live - 2);
}

/* Last: device 1 stays broken for the rest of the process.  A kernel on device 1 faults (the
 * fake breaks its context); device 0 waits for device 1's stream and event and gets the error,
 * which is device 1's: device 0 keeps working, and device 1's calls answer it without reaching
 * the driver. */
static void a_fault_on_device_1_seen_from_device_0_breaks_device_1_only(void **state)
{
    (void)state;
    cudaStream_t s1 = NULL;
    cudaEvent_t e1 = NULL;
    int *b1 = NULL;
    assert_int_equal(cudaSetDevice(1), cudaSuccess);
    assert_int_equal(cudaStreamCreate(&s1), cudaSuccess);
    assert_int_equal(cudaEventCreate(&e1), cudaSuccess);
    assert_int_equal(cudaMalloc((void **)&b1, BYTES), cudaSuccess);
    e2e_launch_fill(b1, 10, N, s1);
    assert_int_equal(cudaGetLastError(), cudaSuccess);
    assert_int_equal(cudaEventRecord(e1, s1), cudaSuccess);
    fk.fake_poison_context(1, CUDA_ERROR_ILLEGAL_ADDRESS);

    assert_int_equal(cudaSetDevice(0), cudaSuccess);
    assert_cuda(cudaStreamSynchronize(s1), cudaErrorIllegalAddress);
    assert_cuda(cudaEventSynchronize(e1), cudaErrorIllegalAddress);
    assert_ptr_equal(current_context(), ctx0);          /* the thread's context is back */

    /* Device 0 is healthy: memory, a launch, a synchronisation. */
    int *b0 = NULL;
    assert_cuda(cudaMalloc((void **)&b0, BYTES), cudaSuccess);
    e2e_launch_fill(b0, 20, N, 0);
    assert_int_equal(cudaGetLastError(), cudaSuccess);
    assert_cuda(cudaDeviceSynchronize(), cudaSuccess);
    assert_holds(b0, 20);
    assert_cuda(cudaFree(b0), cudaSuccess);

    /* Device 1 answers its error: the runtime recorded it there (no cuMemAlloc reaches the
     * driver). */
    size_t allocs = fk.fake_count_calls("cuMemAlloc");
    assert_int_equal(cudaSetDevice(1), cudaSuccess);
    int *more = NULL;
    assert_cuda(cudaMalloc((void **)&more, 4), cudaErrorIllegalAddress);
    assert_cuda(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    assert_int_equal(fk.fake_count_calls("cuMemAlloc"), allocs);
    assert_int_equal(cudaSetDevice(0), cudaSuccess);
    assert_cuda(cudaStreamQuery(0), cudaSuccess);
}

int main(void)
{
    if (fake_api_load() != 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(enabling_peer_access_initialises_the_peer_but_keeps_the_current_device),
        cmocka_unit_test(each_device_has_its_own_context_and_each_thread_its_device),
        cmocka_unit_test(a_module_loads_once_per_device_with_its_own_variables),
        cmocka_unit_test(streams_and_events_are_made_on_the_current_device),
        cmocka_unit_test(resetting_device_1_leaves_device_0_as_it_was),
        cmocka_unit_test(a_fault_on_device_1_seen_from_device_0_breaks_device_1_only),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
