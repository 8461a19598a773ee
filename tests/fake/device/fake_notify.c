/*
 * fake_notify.c - the fake driver's messages to the program and the deprecated shared memory bank
 * size: cuDeviceRegisterAsyncNotification / cuDeviceUnregisterAsyncNotification, the error log
 * (cuLogsRegisterCallback, cuLogsUnregisterCallback, cuLogsCurrent, cuLogsDumpToFile,
 * cuLogsDumpToMemory) and cuCtxGetSharedMemConfig / cuCtxSetSharedMemConfig.
 *
 * What it models:
 *   - Async notification callbacks are records (their address is the CUasyncCallbackHandle) of a
 *     device, a function and its userData.  Nothing in the fake ever goes over a memory budget,
 *     so notifications come only from the test hook fake_notify_async, which calls every callback
 *     of a device with an over-budget notification, on the calling thread, the lock not held (the
 *     real driver calls from a thread of its own).  A NULL function or handle output, or an
 *     unregistration with a handle that is not registered on that device, is
 *     CUDA_ERROR_INVALID_VALUE.
 *   - The log is a ring of the last FAKE_LOG_KEEP messages; an iterator counts messages since the
 *     start, so cuLogsCurrent answers the count so far.  Messages come only from the test hook
 *     fake_notify_log, which also calls every registered log callback (the lock not held).  A dump
 *     writes the messages from the iterator (NULL: every message still held), each ending in
 *     '\n', and advances the iterator.  cuLogsDumpToMemory follows cuda.h: *size is the buffer's
 *     capacity on the way in, the bytes written without the terminating NUL on the way out; when
 *     not everything fits, the newest messages that fit are written after a truncation note; when
 *     not even the newest one fits, *size is 0 and the answer CUDA_ERROR_INVALID_VALUE.  flags
 *     other than 0 are CUDA_ERROR_INVALID_VALUE for cuLogsDumpToMemory only: cuLogsCurrent and
 *     cuLogsDumpToFile accept them, as the driver does (measured on the H200).  The log needs no
 *     cuInit.
 *   - Shared memory banks are fixed at four bytes, as on every device CUDA 13 supports: Get
 *     answers CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE, Set accepts the three known values and
 *     changes nothing; both need a current context.
 *
 * Test hooks (exported; found with dlsym, declared in fake_notify.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "fake_internal.h"
#include "device/fake_notify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FAKE_EXPORT __attribute__((visibility("default")))

/* ---- asynchronous notifications ------------------------------------------------------------- */

typedef struct fake_async {
    CUdevice device;
    CUasyncCallback fn;
    void *user;
} fake_async;

static ptr_vec asyncs;                  /* live registrations */

static long async_index(CUasyncCallbackHandle handle)
{
    for (size_t i = 0; i < asyncs.count; i++)
        if (asyncs.items[i] == (void *)handle)
            return (long)i;
    return -1;
}

static CUresult CUDAAPI f_cuDeviceRegisterAsyncNotification(CUdevice device,
                                                            CUasyncCallback callbackFunc,
                                                            void *userData,
                                                            CUasyncCallbackHandle *callback)
{
    CUresult rc = fake_enter("cuDeviceRegisterAsyncNotification", "dev=%d fn=%s user=%p out=%s",
                             device, callbackFunc ? "set" : "null", userData,
                             callback ? "set" : "null");
    if (rc == CUDA_SUCCESS)
        rc = fake_need_device(device);
    if (rc == CUDA_SUCCESS && (!callbackFunc || !callback))
        rc = CUDA_ERROR_INVALID_VALUE;
    fake_async *a = NULL;
    if (rc == CUDA_SUCCESS && !(a = calloc(1, sizeof *a)))
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    if (rc == CUDA_SUCCESS) {
        a->device = device;
        a->fn = callbackFunc;
        a->user = userData;
        if (fake_vec_push(&asyncs, a) != 0) {
            free(a);
            rc = CUDA_ERROR_OUT_OF_MEMORY;
        } else {
            *callback = (CUasyncCallbackHandle)a;
        }
    }
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuDeviceUnregisterAsyncNotification(CUdevice device,
                                                              CUasyncCallbackHandle callback)
{
    CUresult rc = fake_enter("cuDeviceUnregisterAsyncNotification", "dev=%d handle=%p", device,
                             (void *)callback);
    if (rc == CUDA_SUCCESS)
        rc = fake_need_device(device);
    long i = rc == CUDA_SUCCESS ? async_index(callback) : -1;
    if (rc == CUDA_SUCCESS && (i < 0 || ((fake_async *)asyncs.items[i])->device != device))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS) {
        free(asyncs.items[i]);
        fake_vec_remove(&asyncs, (size_t)i);
    }
    return fake_leave(rc);
}

FAKE_EXPORT int fake_notify_async(int device, unsigned long long bytes_over_budget)
{
    fake_lock();
    fake_async *run[64];
    int n = 0;
    for (size_t i = 0; i < asyncs.count && n < 64; i++)
        if (((fake_async *)asyncs.items[i])->device == device)
            run[n++] = asyncs.items[i];
    fake_unlock();
    for (int i = 0; i < n; i++) {
        CUasyncNotificationInfo info;
        memset(&info, 0, sizeof info);
        info.type = CU_ASYNC_NOTIFICATION_TYPE_OVER_BUDGET;
        info.info.overBudget.bytesOverBudget = bytes_over_budget;
        run[i]->fn(&info, run[i]->user, (CUasyncCallbackHandle)run[i]);
    }
    return n;
}

/* ---- the log -------------------------------------------------------------------------------- */

#define FAKE_LOG_KEEP 32
#define FAKE_LOG_TRUNCATED "[fake: earlier messages truncated]\n"

typedef struct fake_logcb {
    CUlogsCallback fn;
    void *user;
} fake_logcb;

static ptr_vec logcbs;                           /* live log callbacks */
static char *log_ring[FAKE_LOG_KEEP];            /* message n lives at n % FAKE_LOG_KEEP */
static unsigned log_total;                       /* messages ever logged */

/* The first message still held, and where a dump from `iterator` starts. */
static unsigned log_oldest(void)
{
    return log_total > FAKE_LOG_KEEP ? log_total - FAKE_LOG_KEEP : 0;
}

static unsigned log_start(const CUlogIterator *iterator)
{
    unsigned oldest = log_oldest();
    return !iterator || *iterator < oldest ? oldest : *iterator;
}

static CUresult CUDAAPI f_cuLogsRegisterCallback(CUlogsCallback callbackFunc, void *userData,
                                                 CUlogsCallbackHandle *callback_out)
{
    CUresult rc = fake_enter("cuLogsRegisterCallback", "fn=%s user=%p out=%s",
                             callbackFunc ? "set" : "null", userData,
                             callback_out ? "set" : "null");
    if (rc == CUDA_SUCCESS && !callbackFunc)
        rc = CUDA_ERROR_INVALID_VALUE;
    fake_logcb *cb = NULL;
    if (rc == CUDA_SUCCESS && !(cb = calloc(1, sizeof *cb)))
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    if (rc == CUDA_SUCCESS) {
        cb->fn = callbackFunc;
        cb->user = userData;
        if (fake_vec_push(&logcbs, cb) != 0) {
            free(cb);
            rc = CUDA_ERROR_OUT_OF_MEMORY;
        } else if (callback_out) {
            *callback_out = (CUlogsCallbackHandle)cb;
        }
    }
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuLogsUnregisterCallback(CUlogsCallbackHandle callback)
{
    CUresult rc = fake_enter("cuLogsUnregisterCallback", "handle=%p", (void *)callback);
    long found = -1;
    for (size_t i = 0; rc == CUDA_SUCCESS && i < logcbs.count; i++)
        if (logcbs.items[i] == (void *)callback)
            found = (long)i;
    if (rc == CUDA_SUCCESS && found < 0)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS) {
        free(logcbs.items[found]);
        fake_vec_remove(&logcbs, (size_t)found);
    }
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuLogsCurrent(CUlogIterator *iterator_out, unsigned int flags)
{
    CUresult rc = fake_enter("cuLogsCurrent", "out=%s flags=%u", iterator_out ? "set" : "null",
                             flags);
    if (rc == CUDA_SUCCESS && !iterator_out)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        *iterator_out = log_total;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuLogsDumpToFile(CUlogIterator *iterator, const char *pathToFile,
                                           unsigned int flags)
{
    CUresult rc = fake_enter("cuLogsDumpToFile", "iterator=%s path=%s flags=%u",
                             iterator ? "set" : "null", pathToFile ? pathToFile : "(null)",
                             flags);
    if (rc == CUDA_SUCCESS && !pathToFile)
        rc = CUDA_ERROR_INVALID_VALUE;
    FILE *f = NULL;
    if (rc == CUDA_SUCCESS && !(f = fopen(pathToFile, "w")))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS) {
        for (unsigned n = log_start(iterator); n < log_total; n++)
            fprintf(f, "%s\n", log_ring[n % FAKE_LOG_KEEP]);
        fclose(f);
        if (iterator)
            *iterator = log_total;
    }
    return fake_leave(rc);
}

/* Writes the messages [first, log_total) into buffer (which the caller made sure has room for
 * them and the NUL), after the truncation note when `truncated`; returns the bytes written
 * without the NUL. */
static size_t log_write(char *buffer, unsigned first, int truncated)
{
    size_t used = 0;
    if (truncated) {
        memcpy(buffer, FAKE_LOG_TRUNCATED, strlen(FAKE_LOG_TRUNCATED));
        used = strlen(FAKE_LOG_TRUNCATED);
    }
    for (unsigned n = first; n < log_total; n++) {
        const char *m = log_ring[n % FAKE_LOG_KEEP];
        size_t len = strlen(m);
        memcpy(buffer + used, m, len);
        buffer[used + len] = '\n';
        used += len + 1;
    }
    buffer[used] = '\0';
    return used;
}

static CUresult CUDAAPI f_cuLogsDumpToMemory(CUlogIterator *iterator, char *buffer, size_t *size,
                                             unsigned int flags)
{
    CUresult rc = fake_enter("cuLogsDumpToMemory", "iterator=%s buffer=%s size=%zu flags=%u",
                             iterator ? "set" : "null", buffer ? "set" : "null",
                             size ? *size : (size_t)0, flags);
    if (rc == CUDA_SUCCESS && (!buffer || !size || flags != 0))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc != CUDA_SUCCESS)
        return fake_leave(rc);
    unsigned start = log_start(iterator);
    size_t cap = *size;
    /* The newest messages that fit, with the NUL (and the note when some are left out). */
    size_t need = 1;
    unsigned first = log_total;
    while (first > start) {
        size_t len = strlen(log_ring[(first - 1) % FAKE_LOG_KEEP]) + 1;
        size_t note = first - 1 > start ? strlen(FAKE_LOG_TRUNCATED) : 0;
        if (need + len + note > cap)
            break;
        need += len;
        first--;
    }
    if (start == log_total) {
        if (cap > 0)
            buffer[0] = '\0';
        *size = 0;
    } else if (first == log_total) {
        *size = 0;                      /* not even the newest message fits */
        rc = CUDA_ERROR_INVALID_VALUE;
    } else {
        *size = log_write(buffer, first, first > start);
    }
    if (rc == CUDA_SUCCESS && iterator)
        *iterator = log_total;
    return fake_leave(rc);
}

FAKE_EXPORT int fake_notify_log(int level, const char *message)
{
    char *copy = strdup(message ? message : "");
    if (!copy)
        return -1;
    fake_lock();
    free(log_ring[log_total % FAKE_LOG_KEEP]);
    log_ring[log_total % FAKE_LOG_KEEP] = copy;
    log_total++;
    fake_logcb *run[64];
    int n = 0;
    for (size_t i = 0; i < logcbs.count && n < 64; i++)
        run[n++] = logcbs.items[i];
    fake_unlock();
    for (int i = 0; i < n; i++)
        run[i]->fn(run[i]->user, (CUlogLevel)level, copy, strlen(copy));
    return n;
}

FAKE_EXPORT void fake_notify_counts(size_t *async_out, size_t *logs_out)
{
    fake_lock();
    if (async_out)
        *async_out = asyncs.count;
    if (logs_out)
        *logs_out = logcbs.count;
    fake_unlock();
}

/* ---- shared memory bank size ---------------------------------------------------------------- */

static CUresult CUDAAPI f_cuCtxGetSharedMemConfig(CUsharedconfig *pConfig)
{
    CUresult rc = fake_enter("cuCtxGetSharedMemConfig", "out=%s", pConfig ? "set" : "null");
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && !pConfig)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        *pConfig = CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuCtxSetSharedMemConfig(CUsharedconfig config)
{
    CUresult rc = fake_enter("cuCtxSetSharedMemConfig", "config=%d", (int)config);
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS &&
        ((int)config < 0 || (int)config > CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE))
        rc = CUDA_ERROR_INVALID_VALUE;
    return fake_leave(rc);
}

const proc_entry fake_procs_notify[] = {
    {"cuDeviceRegisterAsyncNotification", 12040, 99999,
     (void *)f_cuDeviceRegisterAsyncNotification},
    {"cuDeviceUnregisterAsyncNotification", 12040, 99999,
     (void *)f_cuDeviceUnregisterAsyncNotification},
    {"cuLogsRegisterCallback", 12090, 99999, (void *)f_cuLogsRegisterCallback},
    {"cuLogsUnregisterCallback", 12090, 99999, (void *)f_cuLogsUnregisterCallback},
    {"cuLogsCurrent", 12090, 99999, (void *)f_cuLogsCurrent},
    {"cuLogsDumpToFile", 12090, 99999, (void *)f_cuLogsDumpToFile},
    {"cuLogsDumpToMemory", 12090, 99999, (void *)f_cuLogsDumpToMemory},
    {"cuCtxGetSharedMemConfig", 4020, 99999, (void *)f_cuCtxGetSharedMemConfig},
    {"cuCtxSetSharedMemConfig", 4020, 99999, (void *)f_cuCtxSetSharedMemConfig},
    {NULL, 0, 0, NULL},
};
