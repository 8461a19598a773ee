/*
 * handles.c - the streams, events, executable graphs, arrays and imported memory and semaphores
 * the runtime made, by context.
 *
 * These are the driver's own handles, handed out unwrapped (stream.h), so the runtime needs no
 * table to use them.  It keeps one for a single purpose: cudaDeviceReset destroys every one of
 * them in the reset context, and a program that goes on using one must get an error, not a
 * driver that follows a dangling pointer.  NVIDIA's runtime answers (measured on an H200 by
 * tests/gpu/conf_misuse_reset.cu): cudaErrorInvalidResourceHandle for a stream from before the
 * reset, cudaErrorDeviceUninitialized for an event or an array (in some runs
 * cudaErrorContextIsDestroyed instead: tests/gpu/expected_differences.txt); it crashes on an
 * executable graph, for which minicudart answers cudaErrorInvalidResourceHandle.
 *
 * Each entry records the device slot and the generation of its context (device.c bumps the
 * generation at a reset), so a handle is stale when its slot's generation has moved on.  Handles
 * the runtime did not make (a library's, the special streams 0, 0x1 and 0x2) are not in the table
 * and never stale; nor are handles made in a foreign context (cudaDeviceReset does not destroy
 * those).  When the driver hands out a stale handle's address again, the new handle replaces it.
 *
 * Cost: a mutex and a hash lookup when the handle is made and destroyed; a stale check is one
 * atomic load, inline (device.h), until some device has been reset, then a lookup too.  None
 * of it is on the launch path.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdlib.h>

#include "device/device.h"

/* The external definition of these inline helpers of device/device.h (RT_INLINE, core/core.h). */
extern inline bool rt_handle_stale(rt_handle_kind kind, const void *handle);
extern inline cudaError_t rt_enter_with(cudaStream_t stream, cudaEvent_t event, rt_device **d);

#define RT_HANDLE_BUCKETS 256u

typedef struct rt_handle_entry {
    const void *handle;
    rt_handle_kind kind;
    size_t slot;                  /* rt_devices index of the context it was made in */
    uint64_t generation;          /* that context's generation then */
    struct rt_handle_entry *next;
} rt_handle_entry;

static rt_handle_entry *rt_handle_buckets[RT_HANDLE_BUCKETS];
static pthread_mutex_t rt_handle_lock = PTHREAD_MUTEX_INITIALIZER;

static size_t rt_handle_bucket(const void *handle)
{
    uintptr_t h = (uintptr_t)handle;
    h ^= h >> 17;
    h *= (uintptr_t)0x9e3779b97f4a7c15ull;
    return (size_t)(h >> 24) % RT_HANDLE_BUCKETS;
}

/* The link that points at handle's entry, or at the NULL ending its bucket.  Lock held. */
static rt_handle_entry **rt_handle_link(const void *handle)
{
    rt_handle_entry **link = &rt_handle_buckets[rt_handle_bucket(handle)];
    while (*link && (*link)->handle != handle)
        link = &(*link)->next;
    return link;
}

/* The special streams and NULL are never the runtime's own handles. */
static bool rt_handle_special(const void *handle)
{
    return (uintptr_t)handle <= (uintptr_t)CU_STREAM_PER_THREAD;
}

void rt_handle_add(rt_handle_kind kind, const void *handle, rt_device *d)
{
    if (rt_handle_special(handle) || d->foreign)
        return;
    pthread_mutex_lock(&rt_handle_lock);
    rt_handle_entry **link = rt_handle_link(handle);
    rt_handle_entry *entry = *link;
    if (!entry && (entry = calloc(1, sizeof *entry)) != NULL) {
        entry->handle = handle;
        *link = entry;
    }
    /* Out of memory: the handle goes unrecorded, and works as any handle the runtime did not
     * make (only the check after a reset is lost). */
    if (entry) {
        entry->kind = kind;
        entry->slot = rt_slot_index(d);
        entry->generation = atomic_load(&d->generation);
    }
    pthread_mutex_unlock(&rt_handle_lock);
}

void rt_handle_remove(const void *handle)
{
    if (rt_handle_special(handle))
        return;
    pthread_mutex_lock(&rt_handle_lock);
    rt_handle_entry **link = rt_handle_link(handle);
    rt_handle_entry *entry = *link;
    if (entry) {
        *link = entry->next;
        free(entry);
    }
    pthread_mutex_unlock(&rt_handle_lock);
}

/* After some reset (rt_handle_stale, device.h, checks that inline). */
bool rt_handle_stale_slow(rt_handle_kind kind, const void *handle)
{
    if (rt_handle_special(handle))
        return false;
    pthread_mutex_lock(&rt_handle_lock);
    const rt_handle_entry *entry = *rt_handle_link(handle);
    bool stale = entry && entry->kind == kind &&
                 atomic_load(&rt_devices[entry->slot].generation) != entry->generation;
    pthread_mutex_unlock(&rt_handle_lock);
    if (stale)
        RT_TRACE("handle %p was destroyed by cudaDeviceReset", handle);
    return stale;
}
