/*
 * device/device.h - the second layer: devices, their contexts, and the handles made in them.
 *
 *   device.c        which device and context this thread works on: the lazy initialisation
 *   device_config.c device flags, limits, peers, cudaSetValidDevices
 *   device_props.c  cudaDeviceGetAttribute, cudaGetDeviceProperties
 *   exec_ctx.c      CUDA 13.5's execution contexts and green contexts
 *   early_init.c    MINICUDART_EARLY_INIT: the driver started on a thread at the first registration
 *   handles.c       what cudaDeviceReset destroys: the handles made in each context
 *   logs.c          the driver's log (cudaLogs*)
 *
 * Below: core/.  This layer knows nothing of modules or kernels: what must happen when a
 * context starts (modules that load with it), the layer above hands down as a hook.
 */
#ifndef MINICUDART_DEVICE_H
#define MINICUDART_DEVICE_H

#include "core/core.h"

/* ---- device.c ------------------------------------------------------------------------------- */

/* One context the runtime works in: a device's primary context (slots 0 .. rt_device_count-1,
 * slot i for device i), or a context someone else created with the driver API and made current
 * (the slots after those).  Per-context state (loaded modules, resolved kernels) is kept per
 * slot, indexed by rt_slot_index. */
typedef struct rt_device {
    CUdevice cu;
    int ordinal;                  /* the device number users see */
    unsigned sm;                  /* major * 10 + minor, e.g. 90 */
    _Atomic(CUcontext) context;   /* retained primary (or the foreign) context; NULL until used:
                                   * set under device.c's lock, read on every call without it */
    unsigned long long context_id; /* cuCtxGetId of a foreign context: tells a reused address */
    atomic_bool foreign;          /* not a primary context: never retained, reset or released
                                   * (read without the lock on every call) */
    bool flags_reset;             /* reset since the flags were last set: MapHost not reported */
    atomic_ullong generation;     /* bumped at every (re)initialisation of the context */
    _Atomic cudaError_t sticky;   /* a sticky error seen on this device, or cudaSuccess */
} rt_device;

extern int rt_device_count;       /* devices */
extern int rt_slot_count;         /* devices + slots for foreign contexts: size per-context arrays */
extern rt_device *rt_devices;     /* [rt_slot_count] */

RT_INLINE size_t rt_slot_index(const rt_device *d)
{
    return (size_t)(d - rt_devices);
}

/* Loads the driver, cuInit, and lists the devices, once (the lazy start; early_init.c runs it
 * ahead); the same answer on every call.  cudaErrorInitializationError in a forked child. */
cudaError_t rt_devices_init(void);

/* Makes sure the calling thread has a current context (the primary context of its device,
 * initialised on first use) and returns that device.  This is the lazy initialisation of the
 * runtime: every call that does CUDA work starts here. */
cudaError_t rt_context_enter(rt_device **out);

/* For the calls NVIDIA's runtime hands to the thread's current context as it finds it, without
 * making the runtime's own current first (cudaCtxResetPersistingL2Cache,
 * cudaMemRangeGetAttribute and cudaMemRangeGetAttributes: as a process's first call, and on a new
 * thread of a process whose main thread has its context, each answers
 * cudaErrorDeviceUninitialized, measured on the H200): the driver initialised, then
 * rt_context_enter when a context is current, else cudaErrorDeviceUninitialized. */
cudaError_t rt_context_if_current(rt_device **out);

/* Retains d's primary context (if it is not active) without making it current; modules that
 * load with a context (managed variables, EAGER) are loaded into it. */
cudaError_t rt_device_activate(rt_device *d);
/* cudaGLSetGLDevice, cudaVDPAUSetVDPAUDevice: cudaSetDevice before the runtime has started,
 * cudaErrorSetOnActiveProcess after. */
cudaError_t rt_set_interop_device(int device);
/* Which of our devices (rt_devices index) is the driver's device `cu`; -1 if none. */
int rt_device_of_cu(CUdevice cu);

/* Records a sticky error when e is one: against device d, whose context was current for the
 * call, or against the context the error really came from when d's is healthy (a stream, event
 * or peer copy of another device).  Costs a compare unless e is sticky. */
void rt_device_note_error(rt_device *d, cudaError_t e);

/* The result of a driver call made after rt_context_enter, as the runtime reports it: translated,
 * and recorded against the device when sticky. */
RT_INLINE cudaError_t rt_driver_result(rt_device *d, CUresult r)
{
    if (r == CUDA_SUCCESS)        /* inline: spares every successful call two calls */
        return cudaSuccess;
    cudaError_t e = rt_error_from_cu(r);
    rt_device_note_error(d, e);
    return e;
}

/* ---- handles.c: what cudaDeviceReset destroys --------------------------------------------- */

typedef enum rt_handle_kind {
    RT_HANDLE_STREAM, RT_HANDLE_EVENT, RT_HANDLE_GRAPH_EXEC, RT_HANDLE_ARRAY,
    RT_HANDLE_MIPMAPPED_ARRAY, RT_HANDLE_EXTERNAL_MEMORY, RT_HANDLE_EXTERNAL_SEMAPHORE,
} rt_handle_kind;

/* Records a handle the runtime made in device d's current context (not for a foreign one). */
void rt_handle_add(rt_handle_kind kind, const void *handle, rt_device *d);
/* Forgets a handle: called just before the driver destroys it (its address may come back). */
void rt_handle_remove(const void *handle);
/* Whether handle is one the runtime made in a context a cudaDeviceReset has destroyed since:
 * the calls that take one answer an error instead of handing the driver a dangling handle.
 * Handles the runtime did not make are never stale. */
bool rt_handle_stale_slow(rt_handle_kind kind, const void *handle);
/* Set (for good) by the first cudaDeviceReset of an active primary context: until then no
 * handle can be stale, and the check is one load, inline (cudaGraphLaunch and the stream calls
 * make it on every call). */
extern atomic_bool rt_device_was_reset;
RT_INLINE bool rt_handle_stale(rt_handle_kind kind, const void *handle)
{
    return atomic_load_explicit(&rt_device_was_reset, memory_order_acquire) &&
           rt_handle_stale_slow(kind, handle);
}


/*
 * Enters the thread's context for a call on `stream` and/or `event` (NULL: none), refusing one
 * that a cudaDeviceReset destroyed (handles.c) before the driver follows it: a stream is then
 * cudaErrorInvalidResourceHandle and an event cudaErrorDeviceUninitialized, NVIDIA's answers
 * (measured on the H200).
 */
RT_INLINE cudaError_t rt_enter_with(cudaStream_t stream, cudaEvent_t event, rt_device **d)
{
    cudaError_t e = rt_context_enter(d);
    if (e != cudaSuccess)
        return e;
    if (stream && rt_handle_stale(RT_HANDLE_STREAM, stream))
        return cudaErrorInvalidResourceHandle;
    if (event && rt_handle_stale(RT_HANDLE_EVENT, event))
        return cudaErrorDeviceUninitialized;
    return cudaSuccess;
}

/* ---- device.c: look-ups ----------------------------------------------------------------------- */

/* Validates an ordinal (initialising the device table first): cudaErrorInvalidDevice when out of
 * range, or the initialisation error. */
cudaError_t rt_device_lookup(int device, rt_device **out);
/* The device whose primary context is current on this thread, or the thread's chosen one, or
 * 0 — without initialising anything beyond the device table. */
cudaError_t rt_device_current(rt_device **out);

/* The calling thread's cudaSetValidDevices list (device_config.c sets it): kept here, where the
 * default device is chosen from it.  rt_valid_devices sets *list and returns its length, 0 when
 * the thread set none (then device 0 is its default). */
#define RT_VALID_DEVICES_MAX 64
int rt_valid_devices(const int **list);
/* Replaces the thread's list with list[0..len) (len <= RT_VALID_DEVICES_MAX, checked). */
void rt_valid_devices_set(const int *list, int len);

/* ---- hooks: what the layers above hand down ------------------------------------------------ */

/* Called right after a primary context is (re)initialised, with that device: the loading layer
 * installs it at the first fatbin registration (load/register.c) to load the modules that load
 * with the context (managed variables, CUDA_MODULE_LOADING=EAGER).  Nothing registered, nothing
 * to load: until then there is no hook. */
typedef void rt_context_init_hook(rt_device *d);
void rt_device_set_init_hook(rt_context_init_hook *hook);

/* MINICUDART_EARLY_INIT's thread (early_init.c), when it runs: `wait` before the runtime retains
 * a primary context, `release` after (it gives back the thread's retain).  Installed by
 * rt_early_init_start before the thread starts. */
void rt_device_set_early_hooks(void (*wait)(void), void (*release)(void));
/* Set once the runtime has retained a primary context itself: the early thread, started later
 * (a fatbin registered after the program's first CUDA work), then retains none of its own. */
extern atomic_bool rt_context_activated;

/* ---- early_init.c: MINICUDART_EARLY_INIT --------------------------------------------------- */

/* At every fatbin registration: the first one starts the driver (and device 0's primary context)
 * on a background thread when MINICUDART_EARLY_INIT asks for it.  Otherwise one load. */
void rt_early_init_start(void);

#endif
