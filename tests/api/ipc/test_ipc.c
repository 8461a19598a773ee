/*
 * test_ipc.c - memory, events and pools shared between processes (lib/interop/ipc.c) over the fake
 * driver (tests/fake/interop/fake_ipc.c; FAKECUDA_IPC=1 puts device blocks in shared memfds).
 *
 * Group "errors": the argument checks, the driver's answers as the runtime translates them, and
 * the trace; every check asserts the returned code and the thread's last error afterwards.
 * Group "two_process": this program runs itself again as a child ("child <handles...>"), which
 * opens the parent's memory, event, pool and pool block, checks what the parent wrote, writes
 * back, closes, and exits 0 when every step gave what it should; the parent then sees the
 * child's writes.
 */
#define _GNU_SOURCE
#include "e2e.h"

#include <minicudart.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#define BLOCK 4096
#define POOL_BLOCK 1024

/* ---- helpers -------------------------------------------------------------------------------- */

static void to_hex(const void *bytes, size_t n, char *out)
{
    const unsigned char *b = bytes;
    for (size_t i = 0; i < n; i++)
        sprintf(out + 2 * i, "%02x", b[i]);
}

static int from_hex(const char *hex, void *bytes, size_t n)
{
    unsigned char *b = bytes;
    if (strlen(hex) != 2 * n)
        return -1;
    for (size_t i = 0; i < n; i++) {
        unsigned v = 0;
        if (sscanf(hex + 2 * i, "%2x", &v) != 1)
            return -1;
        b[i] = (unsigned char)v;
    }
    return 0;
}

static struct cudaMemPoolProps exportable_pool_props(enum cudaMemAllocationHandleType type)
{
    struct cudaMemPoolProps props;
    memset(&props, 0, sizeof props);
    props.allocType = cudaMemAllocationTypePinned;
    props.handleTypes = type;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = 0;
    return props;
}

static char trace_seen[8192];

static void trace_hook(const char *line, void *user)
{
    (void)user;
    if (strncmp(line, "IPC: ", 5) == 0 &&
        strlen(trace_seen) + strlen(line) + 2 < sizeof trace_seen) {
        strcat(trace_seen, line);
        strcat(trace_seen, "\n");
    }
}

static int setup_each(void **state)
{
    (void)state;
    setenv("FAKECUDA_IPC", "1", 1);
    assert_int_equal(cudaFree(NULL), cudaSuccess);
    fk.fake_reset_log();
    return 0;
}

/* ---- legacy IPC: memory --------------------------------------------------------------------- */

static void get_mem_handle_null_handle_is_invalid_value_without_a_driver_call(void **state)
{
    (void)state;
    void *p = NULL;
    assert_cuda(cudaMalloc(&p, BLOCK), cudaSuccess);
    assert_cuda(cudaIpcGetMemHandle(NULL, p), cudaErrorInvalidValue);
    assert_int_equal(fk.fake_count_calls("cuIpcGetMemHandle"), 0);
    assert_cuda(cudaFree(p), cudaSuccess);
}

static void get_mem_handle_refuses_what_is_not_the_base_of_a_malloc(void **state)
{
    (void)state;
    void *p = NULL, *m = NULL;
    cudaIpcMemHandle_t h;
    assert_cuda(cudaMalloc(&p, BLOCK), cudaSuccess);
    assert_cuda(cudaIpcGetMemHandle(&h, (char *)p + 256), cudaErrorInvalidValue);
    assert_cuda(cudaIpcGetMemHandle(&h, NULL), cudaErrorInvalidValue);
    assert_cuda(cudaIpcGetMemHandle(&h, (void *)0x1234), cudaErrorInvalidValue);
    assert_cuda(cudaMallocManaged(&m, BLOCK, cudaMemAttachGlobal), cudaSuccess);
    assert_cuda(cudaIpcGetMemHandle(&h, m), cudaErrorInvalidValue);
    assert_cuda(cudaFree(m), cudaSuccess);
    assert_cuda(cudaFree(p), cudaSuccess);
}

static void get_mem_handle_without_driver_support_is_not_supported(void **state)
{
    (void)state;
    unsetenv("FAKECUDA_IPC");                     /* blocks made from now on are not shareable */
    void *p = NULL;
    cudaIpcMemHandle_t h;
    assert_cuda(cudaMalloc(&p, BLOCK), cudaSuccess);
    assert_cuda(cudaIpcGetMemHandle(&h, p), cudaErrorNotSupported);
    assert_cuda(cudaFree(p), cudaSuccess);
}

static void get_mem_handle_driver_failure_is_translated(void **state)
{
    (void)state;
    void *p = NULL;
    cudaIpcMemHandle_t h;
    assert_cuda(cudaMalloc(&p, BLOCK), cudaSuccess);
    fk.fake_fail_call("cuIpcGetMemHandle", 1, 2 /* CUDA_ERROR_OUT_OF_MEMORY */);
    assert_cuda(cudaIpcGetMemHandle(&h, p), cudaErrorMemoryAllocation);
    assert_cuda(cudaFree(p), cudaSuccess);
}

static void open_mem_handle_error_paths(void **state)
{
    (void)state;
    void *p = NULL, *opened = (void *)0x77;
    cudaIpcMemHandle_t h, garbage;
    memset(&garbage, 0x5a, sizeof garbage);
    assert_cuda(cudaMalloc(&p, BLOCK), cudaSuccess);
    assert_cuda(cudaIpcGetMemHandle(&h, p), cudaSuccess);
    assert_cuda(cudaIpcOpenMemHandle(NULL, h, cudaIpcMemLazyEnablePeerAccess),
                cudaErrorInvalidValue);
    assert_int_equal(fk.fake_count_calls("cuIpcOpenMemHandle"), 0);
    assert_cuda(cudaIpcOpenMemHandle(&opened, garbage, cudaIpcMemLazyEnablePeerAccess),
                cudaErrorInvalidValue);
    assert_cuda(cudaIpcOpenMemHandle(&opened, h, 0x2), cudaErrorInvalidValue);
    /* The process that made the handle cannot open it: the driver's CUDA_ERROR_INVALID_CONTEXT,
     * which the runtime reports as cudaErrorDeviceUninitialized ("invalid device context"). */
    assert_cuda(cudaIpcOpenMemHandle(&opened, h, cudaIpcMemLazyEnablePeerAccess),
                cudaErrorDeviceUninitialized);
    assert_ptr_equal(opened, (void *)0x77);
    assert_cuda(cudaFree(p), cudaSuccess);
}

static void close_mem_handle_of_memory_never_opened_is_invalid_value(void **state)
{
    (void)state;
    void *p = NULL;
    assert_cuda(cudaMalloc(&p, BLOCK), cudaSuccess);
    assert_cuda(cudaIpcCloseMemHandle(p), cudaErrorInvalidValue);
    assert_cuda(cudaIpcCloseMemHandle(NULL), cudaErrorInvalidValue);
    assert_cuda(cudaIpcCloseMemHandle((void *)0x1234), cudaErrorInvalidValue);
    assert_cuda(cudaFree(p), cudaSuccess);
}

/* ---- legacy IPC: events --------------------------------------------------------------------- */

static void event_handle_error_paths(void **state)
{
    (void)state;
    cudaEvent_t plain = NULL, shared = NULL, opened = (cudaEvent_t)0x77;
    cudaIpcEventHandle_t h, garbage;
    memset(&garbage, 0x5a, sizeof garbage);
    assert_cuda(cudaEventCreate(&plain), cudaSuccess);
    assert_cuda(cudaEventCreateWithFlags(&shared, cudaEventInterprocess | cudaEventDisableTiming),
                cudaSuccess);
    assert_cuda(cudaIpcGetEventHandle(NULL, shared), cudaErrorInvalidValue);
    assert_int_equal(fk.fake_count_calls("cuIpcGetEventHandle"), 0);
    assert_cuda(cudaIpcGetEventHandle(&h, plain), cudaErrorInvalidValue);
    assert_cuda(cudaIpcGetEventHandle(&h, (cudaEvent_t)0x1234), cudaErrorInvalidResourceHandle);
    assert_cuda(cudaIpcGetEventHandle(&h, shared), cudaSuccess);
    assert_cuda(cudaIpcOpenEventHandle(NULL, h), cudaErrorInvalidValue);
    assert_int_equal(fk.fake_count_calls("cuIpcOpenEventHandle"), 0);
    assert_cuda(cudaIpcOpenEventHandle(&opened, garbage), cudaErrorInvalidValue);
    assert_cuda(cudaIpcOpenEventHandle(&opened, h), cudaErrorDeviceUninitialized);
    assert_ptr_equal(opened, (cudaEvent_t)0x77);
    assert_cuda(cudaEventDestroy(plain), cudaSuccess);
    assert_cuda(cudaEventDestroy(shared), cudaSuccess);
}

/* ---- pool sharing --------------------------------------------------------------------------- */

static void pool_export_error_paths(void **state)
{
    (void)state;
    struct cudaMemPoolProps props = exportable_pool_props(cudaMemHandleTypePosixFileDescriptor);
    struct cudaMemPoolProps plain_props = exportable_pool_props(cudaMemHandleTypeNone);
    cudaMemPool_t pool = NULL, plain = NULL;
    int fd = -7;
    assert_cuda(cudaMemPoolCreate(&pool, &props), cudaSuccess);
    assert_cuda(cudaMemPoolCreate(&plain, &plain_props), cudaSuccess);
    assert_cuda(cudaMemPoolExportToShareableHandle(NULL, pool,
                                                   cudaMemHandleTypePosixFileDescriptor, 0),
                cudaErrorInvalidValue);
    assert_int_equal(fk.fake_count_calls("cuMemPoolExportToShareableHandle"), 0);
    assert_cuda(cudaMemPoolExportToShareableHandle(&fd, plain,
                                                   cudaMemHandleTypePosixFileDescriptor, 0),
                cudaErrorInvalidValue);
    assert_cuda(cudaMemPoolExportToShareableHandle(&fd, pool, cudaMemHandleTypeFabric, 0),
                cudaErrorInvalidValue);
    assert_cuda(cudaMemPoolExportToShareableHandle(&fd, pool,
                                                   cudaMemHandleTypePosixFileDescriptor, 1),
                cudaErrorInvalidValue);
    assert_int_equal(fd, -7);
    assert_cuda(cudaMemPoolExportToShareableHandle(&fd, pool,
                                                   cudaMemHandleTypePosixFileDescriptor, 0),
                cudaSuccess);
    assert_true(fd >= 0);
    close(fd);

    struct cudaMemPoolPtrExportData data;
    void *block = NULL, *malloced = NULL;
    assert_cuda(cudaMallocFromPoolAsync(&block, POOL_BLOCK, pool, 0), cudaSuccess);
    assert_cuda(cudaMalloc(&malloced, BLOCK), cudaSuccess);
    assert_cuda(cudaMemPoolExportPointer(NULL, block), cudaErrorInvalidValue);
    assert_int_equal(fk.fake_count_calls("cuMemPoolExportPointer"), 0);
    assert_cuda(cudaMemPoolExportPointer(&data, malloced), cudaErrorInvalidValue);
    assert_cuda(cudaMemPoolExportPointer(&data, (char *)block + 16), cudaErrorInvalidValue);
    assert_cuda(cudaMemPoolExportPointer(&data, block), cudaSuccess);
    void *imported = (void *)0x77;
    assert_cuda(cudaMemPoolImportPointer(NULL, pool, &data), cudaErrorInvalidValue);
    assert_cuda(cudaMemPoolImportPointer(&imported, pool, NULL), cudaErrorInvalidValue);
    assert_int_equal(fk.fake_count_calls("cuMemPoolImportPointer"), 0);
    /* A pool that was not imported serves no imports. */
    assert_cuda(cudaMemPoolImportPointer(&imported, pool, &data), cudaErrorInvalidValue);
    assert_ptr_equal(imported, (void *)0x77);
    assert_cuda(cudaFreeAsync(block, 0), cudaSuccess);
    assert_cuda(cudaFree(malloced), cudaSuccess);
    assert_cuda(cudaMemPoolDestroy(plain), cudaSuccess);
    assert_cuda(cudaMemPoolDestroy(pool), cudaSuccess);
}

static void pool_import_error_paths(void **state)
{
    (void)state;
    cudaMemPool_t pool = (cudaMemPool_t)0x77;
    int fd = -1;
    /* The handle argument is the descriptor itself, cast: -1 is no file, and a file that is not
     * an exported pool is refused too. */
    assert_cuda(cudaMemPoolImportFromShareableHandle(NULL, (void *)(intptr_t)0,
                                                     cudaMemHandleTypePosixFileDescriptor, 0),
                cudaErrorInvalidValue);
    assert_int_equal(fk.fake_count_calls("cuMemPoolImportFromShareableHandle"), 0);
    assert_cuda(cudaMemPoolImportFromShareableHandle(&pool, (void *)(intptr_t)fd,
                                                     cudaMemHandleTypePosixFileDescriptor, 0),
                cudaErrorInvalidValue);
    fd = fileno(stdout);
    assert_cuda(cudaMemPoolImportFromShareableHandle(&pool, (void *)(intptr_t)fd,
                                                     cudaMemHandleTypeNone, 0),
                cudaErrorInvalidValue);
    assert_ptr_equal(pool, (cudaMemPool_t)0x77);
}

/* An imported pool in the same process (the fake allows it): no allocations from it. */
static void imported_pool_hands_out_no_allocations(void **state)
{
    (void)state;
    struct cudaMemPoolProps props = exportable_pool_props(cudaMemHandleTypePosixFileDescriptor);
    cudaMemPool_t pool = NULL, imported = NULL;
    int fd = -1;
    assert_cuda(cudaMemPoolCreate(&pool, &props), cudaSuccess);
    assert_cuda(cudaMemPoolExportToShareableHandle(&fd, pool,
                                                   cudaMemHandleTypePosixFileDescriptor, 0),
                cudaSuccess);
    assert_cuda(cudaMemPoolImportFromShareableHandle(&imported, (void *)(intptr_t)fd,
                                                     cudaMemHandleTypePosixFileDescriptor, 0),
                cudaSuccess);
    assert_non_null(imported);
    void *p = NULL;
    assert_cuda(cudaMallocFromPoolAsync(&p, 64, imported, 0), cudaErrorInvalidValue);
    assert_cuda(cudaDeviceSetMemPool(0, imported), cudaErrorInvalidValue);
    assert_cuda(cudaMemPoolDestroy(imported), cudaSuccess);
    assert_cuda(cudaMemPoolDestroy(pool), cudaSuccess);
    close(fd);
}

/* ---- the trace ------------------------------------------------------------------------------ */

static void trace_names_each_exported_handle(void **state)
{
    (void)state;
    trace_seen[0] = '\0';
    minicudart_set_trace_hook(trace_hook, NULL);
    void *p = NULL;
    cudaIpcMemHandle_t h;
    cudaEvent_t ev = NULL;
    cudaIpcEventHandle_t eh;
    assert_cuda(cudaMalloc(&p, BLOCK), cudaSuccess);
    assert_cuda(cudaIpcGetMemHandle(&h, p), cudaSuccess);
    assert_cuda(cudaEventCreateWithFlags(&ev, cudaEventInterprocess | cudaEventDisableTiming),
                cudaSuccess);
    assert_cuda(cudaIpcGetEventHandle(&eh, ev), cudaSuccess);
    minicudart_set_trace_hook(NULL, NULL);
    char hex[17], expected[128];
    to_hex(&h, 8, hex);
    snprintf(expected, sizeof expected, "IPC: exported memory %p (%d bytes) as handle %s", p,
             BLOCK, hex);
    if (!strstr(trace_seen, expected))
        fail_msg("trace lacks \"%s\":\n%s", expected, trace_seen);
    to_hex(&eh, 8, hex);
    snprintf(expected, sizeof expected, "IPC: exported event %p as handle %s", (void *)ev, hex);
    if (!strstr(trace_seen, expected))
        fail_msg("trace lacks \"%s\":\n%s", expected, trace_seen);
    assert_cuda(cudaEventDestroy(ev), cudaSuccess);
    assert_cuda(cudaFree(p), cudaSuccess);
}

/* ---- two processes -------------------------------------------------------------------------- */

#define CHECK(cond)                                                                         \
    do {                                                                                    \
        if (!(cond)) {                                                                      \
            fprintf(stderr, "child: line %d: %s failed (last error %s)\n", __LINE__, #cond,  \
                    cudaGetErrorName(cudaGetLastError()));                                  \
            return 1;                                                                       \
        }                                                                                   \
    } while (0)

/* argv: child MEMHANDLE EVENTHANDLE POOLFD PTRDATA (hex, hex, decimal, hex). */
static int child_main(char **argv)
{
    cudaIpcMemHandle_t mh;
    cudaIpcEventHandle_t eh;
    struct cudaMemPoolPtrExportData data;
    CHECK(from_hex(argv[2], &mh, sizeof mh) == 0 && from_hex(argv[3], &eh, sizeof eh) == 0 &&
          from_hex(argv[5], &data, sizeof data) == 0);
    int pool_fd = atoi(argv[4]);

    /* Memory: read the parent's bytes, write ours; a second open shares the mapping. */
    void *p = NULL, *again = NULL;
    CHECK(cudaIpcOpenMemHandle(&p, mh, 0x3) == cudaErrorInvalidValue);
    CHECK(cudaIpcOpenMemHandle(&p, mh, cudaIpcMemLazyEnablePeerAccess) == cudaSuccess);
    CHECK(cudaIpcOpenMemHandle(&again, mh, cudaIpcMemLazyEnablePeerAccess) == cudaSuccess);
    CHECK(again == p);
    unsigned char buf[BLOCK];
    CHECK(cudaMemcpy(buf, p, BLOCK, cudaMemcpyDeviceToHost) == cudaSuccess);
    for (int i = 0; i < BLOCK; i++)
        CHECK(buf[i] == (unsigned char)(i * 7));
    CHECK(cudaMemset(p, 0xc3, BLOCK / 2) == cudaSuccess);
    CHECK(cudaFree(p) == cudaErrorInvalidValue);        /* closed, not freed */
    CHECK(cudaGetLastError() == cudaErrorInvalidValue);
    CHECK(cudaIpcCloseMemHandle(p) == cudaSuccess);
    CHECK(cudaIpcCloseMemHandle(p) == cudaSuccess);
    CHECK(cudaIpcCloseMemHandle(p) == cudaErrorInvalidValue);
    CHECK(cudaGetLastError() == cudaErrorInvalidValue);

    /* Event: usable by every event call, destroyed with cudaEventDestroy. */
    cudaEvent_t ev = NULL;
    cudaStream_t s = NULL;
    CHECK(cudaIpcOpenEventHandle(&ev, eh) == cudaSuccess);
    CHECK(cudaStreamCreate(&s) == cudaSuccess);
    CHECK(cudaEventQuery(ev) == cudaSuccess);
    CHECK(cudaEventSynchronize(ev) == cudaSuccess);
    CHECK(cudaStreamWaitEvent(s, ev, 0) == cudaSuccess);
    CHECK(cudaEventRecord(ev, s) == cudaSuccess);
    CHECK(cudaStreamSynchronize(s) == cudaSuccess);

    /* Pool: import by descriptor value, then the exported block. */
    cudaMemPool_t pool = NULL;
    void *block = NULL;
    CHECK(cudaMemPoolImportFromShareableHandle(&pool, (void *)(intptr_t)pool_fd,
                                               cudaMemHandleTypePosixFileDescriptor, 0) ==
          cudaSuccess);
    CHECK(cudaMemPoolImportPointer(&block, pool, &data) == cudaSuccess);
    unsigned char pbuf[POOL_BLOCK];
    CHECK(cudaMemcpy(pbuf, block, POOL_BLOCK, cudaMemcpyDeviceToHost) == cudaSuccess);
    for (int i = 0; i < POOL_BLOCK; i++)
        CHECK(pbuf[i] == 0x3c);
    CHECK(cudaMemset(block, 0x5e, POOL_BLOCK) == cudaSuccess);
    CHECK(cudaFreeAsync(block, s) == cudaSuccess);
    CHECK(cudaStreamSynchronize(s) == cudaSuccess);
    CHECK(cudaMemPoolDestroy(pool) == cudaSuccess);

    /* An opened event is the runtime's like a created one: a reset invalidates it. */
    CHECK(cudaDeviceReset() == cudaSuccess);
    CHECK(cudaEventQuery(ev) == cudaErrorDeviceUninitialized);
    CHECK(cudaGetLastError() == cudaErrorDeviceUninitialized);
    return 0;
}

static void child_opens_writes_and_closes_what_the_parent_exported(void **state)
{
    (void)state;
    unsigned char buf[BLOCK];
    for (int i = 0; i < BLOCK; i++)
        buf[i] = (unsigned char)(i * 7);
    void *p = NULL, *block = NULL;
    cudaIpcMemHandle_t mh;
    assert_cuda(cudaMalloc(&p, BLOCK), cudaSuccess);
    assert_cuda(cudaMemcpy(p, buf, BLOCK, cudaMemcpyHostToDevice), cudaSuccess);
    assert_cuda(cudaIpcGetMemHandle(&mh, p), cudaSuccess);

    cudaEvent_t ev = NULL;
    cudaIpcEventHandle_t eh;
    assert_cuda(cudaEventCreateWithFlags(&ev, cudaEventInterprocess | cudaEventDisableTiming),
                cudaSuccess);
    assert_cuda(cudaEventRecord(ev, 0), cudaSuccess);
    assert_cuda(cudaIpcGetEventHandle(&eh, ev), cudaSuccess);

    struct cudaMemPoolProps props = exportable_pool_props(cudaMemHandleTypePosixFileDescriptor);
    cudaMemPool_t pool = NULL;
    int fd = -1;
    struct cudaMemPoolPtrExportData data;
    assert_cuda(cudaMemPoolCreate(&pool, &props), cudaSuccess);
    assert_cuda(cudaMallocFromPoolAsync(&block, POOL_BLOCK, pool, 0), cudaSuccess);
    assert_cuda(cudaMemset(block, 0x3c, POOL_BLOCK), cudaSuccess);
    assert_cuda(cudaMemPoolExportToShareableHandle(&fd, pool,
                                                   cudaMemHandleTypePosixFileDescriptor, 0),
                cudaSuccess);
    assert_cuda(cudaMemPoolExportPointer(&data, block), cudaSuccess);

    char mhex[2 * sizeof mh + 1], ehex[2 * sizeof eh + 1], dhex[2 * sizeof data + 1], fds[16];
    to_hex(&mh, sizeof mh, mhex);
    to_hex(&eh, sizeof eh, ehex);
    to_hex(&data, sizeof data, dhex);
    snprintf(fds, sizeof fds, "%d", fd);           /* inherited across exec (no CLOEXEC) */
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        char *args[] = { "test_ipc", "child", mhex, ehex, fds, dhex, NULL };
        execv("/proc/self/exe", args);
        _exit(127);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);

    assert_cuda(cudaMemcpy(buf, p, BLOCK, cudaMemcpyDeviceToHost), cudaSuccess);
    for (int i = 0; i < BLOCK; i++)
        assert_int_equal(buf[i], i < BLOCK / 2 ? 0xc3 : (unsigned char)(i * 7));
    unsigned char pbuf[POOL_BLOCK];
    assert_cuda(cudaMemcpy(pbuf, block, POOL_BLOCK, cudaMemcpyDeviceToHost), cudaSuccess);
    for (int i = 0; i < POOL_BLOCK; i++)
        assert_int_equal(pbuf[i], 0x5e);
    close(fd);
    assert_cuda(cudaFreeAsync(block, 0), cudaSuccess);
    assert_cuda(cudaMemPoolDestroy(pool), cudaSuccess);
    assert_cuda(cudaEventDestroy(ev), cudaSuccess);
    assert_cuda(cudaFree(p), cudaSuccess);
}

#define T(name) cmocka_unit_test_setup(name, setup_each)

int main(int argc, char **argv)
{
    if (argc == 6 && strcmp(argv[1], "child") == 0)
        return child_main(argv);
    const char *group = argc > 1 ? argv[1] : "";
    const struct CMUnitTest errors[] = {
        T(get_mem_handle_null_handle_is_invalid_value_without_a_driver_call),
        T(get_mem_handle_refuses_what_is_not_the_base_of_a_malloc),
        T(get_mem_handle_without_driver_support_is_not_supported),
        T(get_mem_handle_driver_failure_is_translated),
        T(open_mem_handle_error_paths),
        T(close_mem_handle_of_memory_never_opened_is_invalid_value),
        T(event_handle_error_paths),
        T(pool_export_error_paths),
        T(pool_import_error_paths),
        T(imported_pool_hands_out_no_allocations),
        T(trace_names_each_exported_handle),
    };
    const struct CMUnitTest two_process[] = {
        T(child_opens_writes_and_closes_what_the_parent_exported),
    };
    if (strcmp(group, "errors") == 0)
        return cmocka_run_group_tests_name("errors", errors, e2e_setup, NULL);
    if (strcmp(group, "two_process") == 0)
        return cmocka_run_group_tests_name("two_process", two_process, e2e_setup, NULL);
    fprintf(stderr, "usage: %s errors|two_process\n", argv[0]);
    return 2;
}
