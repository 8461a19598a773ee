/*
 * test_device_notify.c - what the driver tells the program on its own, over the fake driver with
 * two devices: async notifications (cudaDeviceRegisterAsyncNotification: the runtime's trampoline
 * must call the user's callback with translated arguments) and the error log (cudaLogs*).  The
 * fake speaks only when its test hooks (tests/fake/device/fake_notify.h) say so.  Each check asserts the
 * returned code and the thread's last error.  argv[1] names the test.
 */
#define _POSIX_C_SOURCE 200809L
#include "e2e.h"
#include "device/fake_notify.h"

#include <cuda.h>
#include <dlfcn.h>
#include <stdio.h>
#include <unistd.h>

static void *fake_symbol(const char *name)
{
    void *lib = dlopen(getenv("MINICUDART_DRIVER"), RTLD_NOW | RTLD_NOLOAD);
    assert_non_null(lib);
    void *sym = dlsym(lib, name);
    assert_non_null(sym);
    return sym;
}

static int notify_async(int device, unsigned long long bytes)
{
    return ((fake_notify_async_fn)fake_symbol("fake_notify_async"))(device, bytes);
}

static int notify_log(int level, const char *message)
{
    return ((fake_notify_log_fn)fake_symbol("fake_notify_log"))(level, message);
}

static void fake_counts(size_t *asyncs, size_t *logs)
{
    ((fake_notify_counts_fn)fake_symbol("fake_notify_counts"))(asyncs, logs);
}

/* ---- async notifications ------------------------------------------------------------------- */

/* What the user's callback saw. */
static struct {
    int calls;
    int type;
    unsigned long long bytes;
    void *user;
    cudaAsyncCallbackHandle_t handle;
    cudaError_t register_inside, unregister_inside;
} seen;

static void on_notification(cudaAsyncNotificationInfo_t *info, void *user,
                            cudaAsyncCallbackHandle_t handle)
{
    seen.calls++;
    seen.type = info ? (int)info->type : -1;
    seen.bytes = info ? info->info.overBudget.bytesOverBudget : 0;
    seen.user = user;
    seen.handle = handle;
    /* Documented: a callback may not register or unregister. */
    cudaAsyncCallbackHandle_t other = NULL;
    seen.register_inside = cudaDeviceRegisterAsyncNotification(0, on_notification, NULL, &other);
    seen.unregister_inside = cudaDeviceUnregisterAsyncNotification(1, handle);
    (void)cudaGetLastError();
}

static void async_notification_trampoline_translates(void **state)
{
    (void)state;
    int user_data = 0;
    cudaAsyncCallbackHandle_t handle = NULL;
    fk.fake_reset_log();
    assert_cuda(cudaDeviceRegisterAsyncNotification(1, on_notification, &user_data, &handle),
                cudaSuccess);
    assert_non_null(handle);
    /* The driver got the trampoline, on device 1, with the runtime's record as its userData. */
    assert_int_equal(e2e_calls_with("cuDeviceRegisterAsyncNotification", "dev=1 fn=set"), 1);
    size_t asyncs = 0;
    fake_counts(&asyncs, NULL);
    assert_int_equal(asyncs, 1);

    assert_int_equal(notify_async(0, 1), 0);              /* another device: nothing */
    assert_int_equal(seen.calls, 0);
    assert_int_equal(notify_async(1, 123456789012ull), 1);
    assert_int_equal(seen.calls, 1);
    assert_int_equal(seen.type, cudaAsyncNotificationTypeOverBudget);
    assert_true(seen.bytes == 123456789012ull);
    assert_ptr_equal(seen.user, &user_data);
    assert_ptr_equal(seen.handle, handle);                /* the user's handle, not the driver's */
    assert_int_equal(seen.register_inside, cudaErrorNotPermitted);
    assert_int_equal(seen.unregister_inside, cudaErrorNotPermitted);
    assert_cuda(cudaGetLastError(), cudaSuccess);          /* the callback's errors were its own */

    assert_cuda(cudaDeviceUnregisterAsyncNotification(1, handle), cudaSuccess);
    fake_counts(&asyncs, NULL);
    assert_int_equal(asyncs, 0);
    assert_int_equal(notify_async(1, 5), 0);
    assert_int_equal(seen.calls, 1);
    /* Unregistered once: the handle is gone. */
    assert_cuda(cudaDeviceUnregisterAsyncNotification(1, handle), cudaErrorInvalidValue);
}

static void ignore_notification(cudaAsyncNotificationInfo_t *info, void *user,
                                cudaAsyncCallbackHandle_t handle)
{
    (void)info;
    (void)user;
    (void)handle;
}

static void async_notification_error_paths(void **state)
{
    (void)state;
    cudaAsyncCallbackHandle_t handle = NULL;
    fk.fake_reset_log();
    assert_cuda(cudaDeviceRegisterAsyncNotification(0, NULL, NULL, &handle),
                cudaErrorInvalidValue);
    assert_cuda(cudaDeviceRegisterAsyncNotification(0, ignore_notification, NULL, NULL),
                cudaErrorInvalidValue);
    assert_cuda(cudaDeviceRegisterAsyncNotification(2, ignore_notification, NULL, &handle),
                cudaErrorInvalidDevice);
    assert_cuda(cudaDeviceRegisterAsyncNotification(-1, ignore_notification, NULL, &handle),
                cudaErrorInvalidDevice);
    assert_cuda(cudaDeviceUnregisterAsyncNotification(0, NULL), cudaErrorInvalidValue);
    /* A handle the runtime never gave out never reaches the driver. */
    int not_a_handle = 0;
    assert_cuda(cudaDeviceUnregisterAsyncNotification(0, (cudaAsyncCallbackHandle_t)&not_a_handle),
                cudaErrorInvalidValue);
    assert_int_equal(fk.fake_count_calls("cuDeviceRegisterAsyncNotification"), 0);
    assert_int_equal(fk.fake_count_calls("cuDeviceUnregisterAsyncNotification"), 0);
    assert_null(handle);

    /* The driver refuses a registration: its code, nothing left registered (LSan: no leak). */
    fk.fake_fail_call("cuDeviceRegisterAsyncNotification", 1, CUDA_ERROR_NOT_SUPPORTED);
    assert_cuda(cudaDeviceRegisterAsyncNotification(0, ignore_notification, NULL, &handle),
                cudaErrorNotSupported);
    assert_null(handle);

    /* Another device than the one registered on: the driver's answer, and the registration
     * stays until it is undone on the right device. */
    assert_cuda(cudaDeviceRegisterAsyncNotification(0, ignore_notification, NULL, &handle),
                cudaSuccess);
    assert_cuda(cudaDeviceUnregisterAsyncNotification(1, handle), cudaErrorInvalidValue);
    assert_cuda(cudaDeviceUnregisterAsyncNotification(2, handle), cudaErrorInvalidDevice);
    assert_int_equal(notify_async(0, 1), 1);
    assert_cuda(cudaDeviceUnregisterAsyncNotification(0, handle), cudaSuccess);
    size_t asyncs = 9;
    fake_counts(&asyncs, NULL);
    assert_int_equal(asyncs, 0);
}

/* ---- the log ------------------------------------------------------------------------------- */

static struct {
    int calls;
    int level;
    char message[64];
    size_t length;
    void *user;
} logged;

static void on_log(void *user, cudaLogLevel level, char *message, size_t length)
{
    logged.calls++;
    logged.level = (int)level;
    snprintf(logged.message, sizeof logged.message, "%s", message);
    logged.length = length;
    logged.user = user;
}

/* Run with MINICUDART_TRACE=1: the runtime's trace lines (an error is traced) do not reach the
 * callback, only the driver's messages do. */
static void logs_callback_receives_driver_messages_only(void **state)
{
    (void)state;
    int user_data = 0;
    cudaLogsCallbackHandle handle = NULL;
    assert_cuda(cudaLogsRegisterCallback(on_log, &user_data, &handle), cudaSuccess);
    assert_non_null(handle);
    assert_cuda(cudaSetDevice(99), cudaErrorInvalidDevice);    /* traced, not logged */
    assert_int_equal(logged.calls, 0);

    assert_int_equal(notify_log(1, "watch out"), 1);
    assert_int_equal(logged.calls, 1);
    assert_int_equal(logged.level, cudaLogLevelWarning);
    assert_string_equal(logged.message, "watch out");
    assert_int_equal(logged.length, 9);
    assert_ptr_equal(logged.user, &user_data);

    /* A second registration without a handle output: both are called. */
    assert_cuda(cudaLogsRegisterCallback(on_log, NULL, NULL), cudaSuccess);
    assert_int_equal(notify_log(0, "broken"), 2);
    assert_int_equal(logged.calls, 3);
    assert_int_equal(logged.level, cudaLogLevelError);

    assert_cuda(cudaLogsUnregisterCallback(handle), cudaSuccess);
    size_t logs = 0;
    fake_counts(NULL, &logs);
    assert_int_equal(logs, 1);
    assert_int_equal(notify_log(0, "again"), 1);
    assert_cuda(cudaLogsUnregisterCallback(handle), cudaErrorInvalidValue);
}

static void logs_current_and_dumps(void **state)
{
    (void)state;
    cudaLogIterator start = 99;
    assert_cuda(cudaLogsCurrent(&start, 0), cudaSuccess);
    assert_int_equal(start, 0);
    notify_log(0, "first");
    notify_log(1, "second");
    cudaLogIterator now = 0;
    assert_cuda(cudaLogsCurrent(&now, 0), cudaSuccess);
    assert_int_equal(now, 2);

    /* *size in: the capacity; out: the bytes written without the NUL; the iterator advances. */
    char buffer[64];
    size_t size = sizeof buffer;
    cudaLogIterator it = start;
    assert_cuda(cudaLogsDumpToMemory(&it, buffer, &size, 0), cudaSuccess);
    assert_string_equal(buffer, "first\nsecond\n");
    assert_int_equal(size, 13);
    assert_int_equal(it, 2);
    size = sizeof buffer;
    assert_cuda(cudaLogsDumpToMemory(&it, buffer, &size, 0), cudaSuccess);
    assert_int_equal(size, 0);                                   /* nothing new */
    /* NULL iterator: everything held. */
    size = sizeof buffer;
    assert_cuda(cudaLogsDumpToMemory(NULL, buffer, &size, 0), cudaSuccess);
    assert_int_equal(size, 13);
    /* Not even the newest message fits: 0 and cudaErrorInvalidValue, from the driver. */
    size = 4;
    fk.fake_reset_log();
    assert_cuda(cudaLogsDumpToMemory(NULL, buffer, &size, 0), cudaErrorInvalidValue);
    assert_int_equal(size, 0);
    assert_int_equal(e2e_calls_with("cuLogsDumpToMemory", "size=4"), 1);

    char path[] = "/tmp/minicudart-logs-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    it = 1;
    assert_cuda(cudaLogsDumpToFile(&it, path, 0), cudaSuccess);
    assert_int_equal(it, 2);
    FILE *f = fdopen(fd, "r");
    assert_non_null(f);
    char text[64] = "";
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    unlink(path);
    assert_string_equal(text, "second\n");
}

static void ignore_log(void *user, cudaLogLevel level, char *message, size_t length)
{
    (void)user;
    (void)level;
    (void)message;
    (void)length;
}

static void logs_error_paths(void **state)
{
    (void)state;
    cudaLogIterator it = 0;
    char buffer[16];
    size_t size = sizeof buffer;
    int not_a_handle = 0;
    assert_cuda(cudaFree(NULL), cudaSuccess);                     /* the driver is loaded */
    fk.fake_reset_log();
    assert_cuda(cudaLogsRegisterCallback(NULL, NULL, NULL), cudaErrorInvalidValue);
    assert_cuda(cudaLogsUnregisterCallback(NULL), cudaErrorInvalidValue);
    assert_cuda(cudaLogsUnregisterCallback((cudaLogsCallbackHandle)&not_a_handle),
                cudaErrorInvalidValue);
    assert_cuda(cudaLogsCurrent(NULL, 0), cudaErrorInvalidValue);
    assert_cuda(cudaLogsDumpToFile(&it, NULL, 0), cudaErrorInvalidValue);
    assert_cuda(cudaLogsDumpToMemory(&it, NULL, &size, 0), cudaErrorInvalidValue);
    assert_cuda(cudaLogsDumpToMemory(&it, buffer, NULL, 0), cudaErrorInvalidValue);
    assert_cuda(cudaLogsDumpToMemory(&it, buffer, &size, 2), cudaErrorInvalidValue);
    /* None of these reached the driver. */
    for (size_t i = 0; i < fk.fake_call_count(); i++)
        assert_null(strstr(fk.fake_call_at(i)->name, "cuLogs"));
    /* Reserved flags go to the driver in these two, which accepts them (NVIDIA on the H200). */
    assert_cuda(cudaLogsCurrent(&it, 1), cudaSuccess);
    assert_int_equal(e2e_calls_with("cuLogsCurrent", "flags=1"), 1);
    assert_cuda(cudaLogsDumpToFile(&it, "/dev/null", 1), cudaSuccess);
    assert_int_equal(e2e_calls_with("cuLogsDumpToFile", "flags=1"), 1);

    /* The driver's own refusals are passed on. */
    fk.fake_fail_call("cuLogsRegisterCallback", 1, CUDA_ERROR_OUT_OF_MEMORY);
    assert_cuda(cudaLogsRegisterCallback(ignore_log, NULL, NULL), cudaErrorMemoryAllocation);
    fk.fake_fail_call("cuLogsDumpToFile", 1, CUDA_ERROR_INVALID_VALUE);
    assert_cuda(cudaLogsDumpToFile(NULL, "/nonexistent/dir/file", 0), cudaErrorInvalidValue);
    size_t logs = 9;
    fake_counts(NULL, &logs);
    assert_int_equal(logs, 0);
}

/* Run with FAKECUDA_HIDE naming every entry point of this area: an older driver. */
static void without_driver_support(void **state)
{
    (void)state;
    cudaAsyncCallbackHandle_t handle = NULL;
    cudaLogIterator it = 0;
    char buffer[16];
    size_t size = sizeof buffer;
    int not_a_handle = 0;
    assert_cuda(cudaDeviceRegisterAsyncNotification(0, ignore_notification, NULL, &handle),
                cudaErrorNotSupported);
    assert_cuda(cudaDeviceUnregisterAsyncNotification(0, (cudaAsyncCallbackHandle_t)&not_a_handle),
                cudaErrorNotSupported);
    assert_cuda(cudaLogsRegisterCallback(ignore_log, NULL, NULL), cudaErrorNotSupported);
    assert_cuda(cudaLogsUnregisterCallback((cudaLogsCallbackHandle)&not_a_handle),
                cudaErrorNotSupported);
    assert_cuda(cudaLogsCurrent(&it, 0), cudaErrorNotSupported);
    assert_cuda(cudaLogsDumpToFile(&it, "/tmp/unused", 0), cudaErrorNotSupported);
    assert_cuda(cudaLogsDumpToMemory(&it, buffer, &size, 0), cudaErrorNotSupported);
    /* The argument checks come first. */
    assert_cuda(cudaDeviceRegisterAsyncNotification(0, NULL, NULL, &handle),
                cudaErrorInvalidValue);
    assert_cuda(cudaLogsCurrent(NULL, 0), cudaErrorInvalidValue);
}

#define TEST(name) { #name, name }

int main(int argc, char **argv)
{
    static const struct { const char *name; CMUnitTestFunction fn; } all[] = {
        TEST(async_notification_trampoline_translates),
        TEST(async_notification_error_paths),
        TEST(logs_callback_receives_driver_messages_only),
        TEST(logs_current_and_dumps),
        TEST(logs_error_paths),
        TEST(without_driver_support),
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
