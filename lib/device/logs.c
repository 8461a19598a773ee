/*
 * logs.c - what the driver tells the program on its own: asynchronous notifications of a device
 * (cudaDeviceRegisterAsyncNotification) and the driver's error log (cudaLogs*).
 *
 * Both register a callback that the driver calls later, from a thread of its choosing.  The
 * runtime's callback types are not the driver's (other argument types), so neither is handed to
 * the driver as it is: each registration is a small heap record that owns the user's function and
 * userData, the driver calls a trampoline with the record as its userData, and the trampoline
 * calls the user's function with the runtime's types.  The handle the user gets back is the
 * record itself; the records live in one list per kind, so that an unregistration with a handle
 * the runtime never gave out is cudaErrorInvalidValue (the documented code) instead of a garbage
 * pointer handed to the driver.  A record is freed when its unregistration succeeds.
 *
 * The log callback receives the driver's log messages only, the same messages cudaLogsDumpTo*
 * copy out of the driver's buffer.  minicudart's own trace (MINICUDART_TRACE, trace.c) is not
 * delivered to it: the trace is a step-by-step account that is off by default and has its own
 * hook (minicudart_set_trace_hook), while the log callback is NVIDIA's feed of error and warning
 * messages; mixing the two would make the callback and the dumps disagree, and would flood a
 * callback written for NVIDIA's runtime (which has no such trace) with lines it never expects.
 *
 * The entry points are optional in the driver table (12.4 and 12.9): a driver without them
 * answers cudaErrorNotSupported, after the argument checks.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "device/device.h"

_Static_assert((int)cudaAsyncNotificationTypeOverBudget == CU_ASYNC_NOTIFICATION_TYPE_OVER_BUDGET &&
               sizeof(((cudaAsyncNotificationInfo_t *)0)->info) ==
                   sizeof(((CUasyncNotificationInfo *)0)->info),
               "async notification information differs");
_Static_assert((int)cudaLogLevelError == CU_LOG_LEVEL_ERROR &&
               (int)cudaLogLevelWarning == CU_LOG_LEVEL_WARNING &&
               sizeof(cudaLogIterator) == sizeof(CUlogIterator),
               "log levels or iterators differ");

/* ---- asynchronous notifications of a device -------------------------------------------------- */

/* One registration: the cudaAsyncCallbackHandle_t handed out is its address. */
typedef struct rt_async_entry {
    cudaAsyncCallback fn;
    void *user;
    int device;                         /* the ordinal it was registered on */
    CUasyncCallbackHandle driver;       /* the driver's handle of the trampoline's registration */
    struct rt_async_entry *next;
} rt_async_entry;

static pthread_mutex_t rt_async_lock = PTHREAD_MUTEX_INITIALIZER;
static rt_async_entry *rt_async_list;

/* Set while this thread runs a user's async callback: registering or unregistering from inside
 * one is cudaErrorNotPermitted, as documented (answered here, so that the runtime's lock is never
 * taken on the driver's callback thread). */
static _Thread_local bool rt_in_async_callback;

/* Called by the driver.  Translates the notification (same layout, the runtime's types) and calls
 * the user's function with the user's handle, the record. */
static void rt_async_trampoline(CUasyncNotificationInfo *info, void *data,
                                CUasyncCallbackHandle handle)
{
    (void)handle;
    rt_async_entry *entry = data;
    cudaAsyncNotificationInfo_t translated;
    memset(&translated, 0, sizeof translated);
    if (info) {
        translated.type = (cudaAsyncNotificationType)info->type;
        memcpy(&translated.info, &info->info, sizeof translated.info);
    }
    rt_in_async_callback = true;
    entry->fn(info ? &translated : NULL, entry->user, (cudaAsyncCallbackHandle_t)entry);
    rt_in_async_callback = false;
}

/* Removes the record `handle` names from the list and returns it; NULL when the runtime never gave
 * out that handle (or it was unregistered already).  Never dereferences an unknown handle. */
static rt_async_entry *rt_async_unlink(const void *handle)
{
    rt_async_entry *found = NULL;
    pthread_mutex_lock(&rt_async_lock);
    for (rt_async_entry **link = &rt_async_list; *link; link = &(*link)->next) {
        if ((const void *)*link == handle) {
            found = *link;
            *link = found->next;
            break;
        }
    }
    pthread_mutex_unlock(&rt_async_lock);
    return found;
}

static void rt_async_link(rt_async_entry *entry)
{
    pthread_mutex_lock(&rt_async_lock);
    entry->next = rt_async_list;
    rt_async_list = entry;
    pthread_mutex_unlock(&rt_async_lock);
}

/* The device is validated by ordinal and needs no context: the driver's call takes a CUdevice. */
RT_API cudaError_t cudaDeviceRegisterAsyncNotification(int device, cudaAsyncCallback callbackFunc,
                                                       void *userData,
                                                       cudaAsyncCallbackHandle_t *callback)
{
    RT_ENTER();
    if (rt_in_async_callback)
        RT_RETURN(cudaErrorNotPermitted);
    if (!callbackFunc || !callback)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = rt_device_lookup(device, &d);
    if (e == cudaSuccess)
        e = rt_driver_optional(rt_drv.cuDeviceRegisterAsyncNotification != NULL,
                               "cuDeviceRegisterAsyncNotification");
    if (e != cudaSuccess)
        RT_RETURN(e);
    rt_async_entry *entry = calloc(1, sizeof *entry);
    if (!entry)
        RT_RETURN(cudaErrorMemoryAllocation);
    entry->fn = callbackFunc;
    entry->user = userData;
    entry->device = device;
    /* Linked before the driver may call it, so that it is never unknown while registered. */
    rt_async_link(entry);
    e = rt_error_from_cu(rt_drv.cuDeviceRegisterAsyncNotification(d->cu, rt_async_trampoline,
                                                                  entry, &entry->driver));
    if (e != cudaSuccess) {
        rt_async_unlink(entry);
        free(entry);
        RT_RETURN(e);
    }
    RT_TRACE("device %d: async notification callback registered (handle %p)", device,
             (void *)entry);
    *callback = (cudaAsyncCallbackHandle_t)entry;
    RT_RETURN(cudaSuccess);
}

/* The device passes to the driver with the registration's handle: whether another device than the
 * one registered on is accepted is the driver's answer.  The record is freed once the driver has
 * let it go; when the driver refuses, it stays registered. */
RT_API cudaError_t cudaDeviceUnregisterAsyncNotification(int device,
                                                         cudaAsyncCallbackHandle_t callback)
{
    RT_ENTER();
    if (rt_in_async_callback)
        RT_RETURN(cudaErrorNotPermitted);
    if (!callback)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = rt_device_lookup(device, &d);
    if (e == cudaSuccess)
        e = rt_driver_optional(rt_drv.cuDeviceUnregisterAsyncNotification != NULL,
                               "cuDeviceUnregisterAsyncNotification");
    if (e != cudaSuccess)
        RT_RETURN(e);
    rt_async_entry *entry = rt_async_unlink(callback);
    if (!entry)
        RT_RETURN(cudaErrorInvalidValue);
    e = rt_error_from_cu(rt_drv.cuDeviceUnregisterAsyncNotification(d->cu, entry->driver));
    if (e != cudaSuccess) {
        rt_async_link(entry);
        RT_RETURN(e);
    }
    RT_TRACE("device %d: async notification callback %p unregistered", device, (void *)entry);
    free(entry);
    RT_RETURN(cudaSuccess);
}

/* ---- the driver's error log ------------------------------------------------------------------ */

/* One log callback registration: the cudaLogsCallbackHandle handed out is its address. */
typedef struct rt_logs_entry {
    cudaLogsCallback_t fn;
    void *user;
    CUlogsCallbackHandle driver;
    struct rt_logs_entry *next;
} rt_logs_entry;

static pthread_mutex_t rt_logs_lock = PTHREAD_MUTEX_INITIALIZER;
static rt_logs_entry *rt_logs_list;

static void CUDA_CB rt_logs_trampoline(void *data, CUlogLevel level, char *message,
                                       size_t length)
{
    rt_logs_entry *entry = data;
    entry->fn(entry->user, (cudaLogLevel)level, message, length);
}

static rt_logs_entry *rt_logs_unlink(const void *handle)
{
    rt_logs_entry *found = NULL;
    pthread_mutex_lock(&rt_logs_lock);
    for (rt_logs_entry **link = &rt_logs_list; *link; link = &(*link)->next) {
        if ((const void *)*link == handle) {
            found = *link;
            *link = found->next;
            break;
        }
    }
    pthread_mutex_unlock(&rt_logs_lock);
    return found;
}

static void rt_logs_link(rt_logs_entry *entry)
{
    pthread_mutex_lock(&rt_logs_lock);
    entry->next = rt_logs_list;
    rt_logs_list = entry;
    pthread_mutex_unlock(&rt_logs_lock);
}

/* The log needs the driver loaded and initialised, and no device or context.  The entry point
 * (its slot in the table, as driver.c fills it) is looked at only after rt_driver_load, which
 * fills the table on the first call. */
static cudaError_t rt_logs_driver(size_t slot, const char *entry)
{
    cudaError_t e = rt_driver_load();
    if (e != cudaSuccess)
        return e;
    void *fn;
    memcpy(&fn, (const char *)&rt_drv + slot, sizeof fn);
    return rt_driver_optional(fn != NULL, entry);
}
#define RT_LOGS_DRIVER(entry) rt_logs_driver(offsetof(struct rt_driver, entry), #entry)

/* callback_out is optional, as documented: without it the registration can never be undone, and
 * its record lives as long as the process. */
RT_API cudaError_t cudaLogsRegisterCallback(cudaLogsCallback_t callbackFunc, void *userData,
                                            cudaLogsCallbackHandle *callback_out)
{
    RT_ENTER();
    if (!callbackFunc)
        RT_RETURN(cudaErrorInvalidValue);
    cudaError_t e = RT_LOGS_DRIVER(cuLogsRegisterCallback);
    if (e != cudaSuccess)
        RT_RETURN(e);
    rt_logs_entry *entry = calloc(1, sizeof *entry);
    if (!entry)
        RT_RETURN(cudaErrorMemoryAllocation);
    entry->fn = callbackFunc;
    entry->user = userData;
    rt_logs_link(entry);
    e = rt_error_from_cu(rt_drv.cuLogsRegisterCallback(rt_logs_trampoline, entry,
                                                       &entry->driver));
    if (e != cudaSuccess) {
        rt_logs_unlink(entry);
        free(entry);
        RT_RETURN(e);
    }
    if (callback_out)
        *callback_out = (cudaLogsCallbackHandle)entry;
    RT_RETURN(cudaSuccess);
}

RT_API cudaError_t cudaLogsUnregisterCallback(cudaLogsCallbackHandle callback)
{
    RT_ENTER();
    if (!callback)
        RT_RETURN(cudaErrorInvalidValue);
    cudaError_t e = RT_LOGS_DRIVER(cuLogsUnregisterCallback);
    if (e != cudaSuccess)
        RT_RETURN(e);
    rt_logs_entry *entry = rt_logs_unlink(callback);
    if (!entry)
        RT_RETURN(cudaErrorInvalidValue);
    e = rt_error_from_cu(rt_drv.cuLogsUnregisterCallback(entry->driver));
    if (e != cudaSuccess) {
        rt_logs_link(entry);
        RT_RETURN(e);
    }
    free(entry);
    RT_RETURN(cudaSuccess);
}

/* flags are documented "reserved for future use, must be 0", but NVIDIA's runtime and the
 * driver accept 1 in cudaLogsCurrent and cudaLogsDumpToFile (measured on the H200): they go to
 * the driver as given.  The iterators are the driver's (both unsigned int). */
RT_API cudaError_t cudaLogsCurrent(cudaLogIterator *iterator_out, unsigned int flags)
{
    RT_ENTER();
    if (!iterator_out)
        RT_RETURN(cudaErrorInvalidValue);
    cudaError_t e = RT_LOGS_DRIVER(cuLogsCurrent);
    if (e != cudaSuccess)
        RT_RETURN(e);
    RT_RETURN(rt_error_from_cu(rt_drv.cuLogsCurrent((CUlogIterator *)iterator_out, flags)));
}

/* iterator is optional (NULL dumps every message the driver still holds) and advances. */
RT_API cudaError_t cudaLogsDumpToFile(cudaLogIterator *iterator, const char *pathToFile,
                                      unsigned int flags)
{
    RT_ENTER();
    if (!pathToFile)
        RT_RETURN(cudaErrorInvalidValue);
    cudaError_t e = RT_LOGS_DRIVER(cuLogsDumpToFile);
    if (e != cudaSuccess)
        RT_RETURN(e);
    RT_RETURN(rt_error_from_cu(rt_drv.cuLogsDumpToFile((CUlogIterator *)iterator, pathToFile,
                                                       flags)));
}

/* *size is in and out: the buffer's capacity on the way in, the bytes written (without the
 * terminating NUL the driver always adds) on the way out; 0 with cudaErrorInvalidValue when not
 * even one message fits.  Both directions are the driver's: the runtime only checks the pointers
 * and flags (flags 1 is cudaErrorInvalidValue here, as NVIDIA answers on the H200) and passes
 * *size through. */
RT_API cudaError_t cudaLogsDumpToMemory(cudaLogIterator *iterator, char *buffer, size_t *size,
                                        unsigned int flags)
{
    RT_ENTER();
    if (!buffer || !size || flags != 0)
        RT_RETURN(cudaErrorInvalidValue);
    cudaError_t e = RT_LOGS_DRIVER(cuLogsDumpToMemory);
    if (e != cudaSuccess)
        RT_RETURN(e);
    RT_RETURN(rt_error_from_cu(rt_drv.cuLogsDumpToMemory((CUlogIterator *)iterator, buffer, size,
                                                         flags)));
}
