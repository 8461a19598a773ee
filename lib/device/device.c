/*
 * device.c - which device a thread works on, and its primary context.
 *
 * To the runtime a device and its primary context are the same thing: the context comes from
 * cuDevicePrimaryCtxRetain, never from cuCtxCreate, so libraries with their own runtime
 * (cuBLAS, cuFFT, ...) and driver-API code in the same process share it.  The current device is
 * per thread; it follows the context current to the thread, so a context made current by
 * someone else is seen.
 *
 * Initialisation is lazy: the first call that needs a context (rt_context_enter) loads the
 * driver, retains the device's primary context and makes it current.  Each (re)initialisation
 * bumps the device's generation; per-context caches (loaded modules, CUfunctions) compare their
 * generation with it, so after cudaDeviceReset they are rebuilt on next use.
 *
 * The generation's parity says whether the runtime holds the primary context: even, it holds no
 * retain (never used, or reset since); odd, it retained it (rt_context_activate adds 1,
 * cudaDeviceReset adds 1 more).  The retain is the process's, not a thread's: another thread
 * that enters the device only makes the context current on itself with cuCtxSetCurrent.  A
 * context someone else created (cuCtxCreate) is never retained or reset by the runtime; it gets
 * a slot of its own whose generation stays odd.  A sticky error (SEMANTICS.md section 3) is
 * recorded against the slot of the context it broke, and every later call that enters that
 * context answers it without asking the driver.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "device/device.h"

/* The external definition of these inline helpers of device/device.h (RT_INLINE, core/core.h). */
extern inline size_t rt_slot_index(const rt_device *d);
extern inline cudaError_t rt_driver_result(rt_device *d, CUresult r);

int rt_device_count;
int rt_slot_count;
rt_device *rt_devices;

/* How many contexts created by others (cuCtxCreate) the runtime follows at once; the least
 * recently adopted gives way to a new one. */
#define RT_FOREIGN_SLOTS 4
static unsigned rt_foreign_next;

static pthread_once_t rt_devices_once = PTHREAD_ONCE_INIT;
static atomic_bool rt_devices_ready;        /* set once rt_devices_status is final */
static cudaError_t rt_devices_status;
static pthread_mutex_t rt_context_lock = PTHREAD_MUTEX_INITIALIZER;

/* The device this thread chose with cudaSetDevice (or the runtime chose for it), or -1: then
 * rt_thread_default(). */
static _Thread_local int rt_thread_device = -1;

/* The thread's cudaSetValidDevices list (device_config.c sets it).  Out of line, as when the list
 * was device_config.c's: rt_context_enter, which every call passes, then compiles as it did. */
static _Thread_local int rt_valid_list[RT_VALID_DEVICES_MAX];
static _Thread_local int rt_valid_count;

__attribute__((noinline)) int rt_valid_devices(const int **list)
{
    *list = rt_valid_list;
    return rt_valid_count;
}

void rt_valid_devices_set(const int *list, int len)
{
    if (len > RT_VALID_DEVICES_MAX)
        len = RT_VALID_DEVICES_MAX;
    if (len > 0)
        memcpy(rt_valid_list, list, (size_t)len * sizeof *list);
    rt_valid_count = len > 0 ? len : 0;
}

/* What the layers above hand down (device.h): loaded with acquire, stored with release, so that
 * a hook installed by one thread is whole when another calls it. */
static _Atomic(rt_context_init_hook *) rt_init_hook;
static _Atomic(void (*)(void)) rt_early_wait_hook, rt_early_release_hook;
atomic_bool rt_context_activated;
/* Set by the first cudaDeviceReset of an active primary context (handles.c reads it). */
atomic_bool rt_device_was_reset;

void rt_device_set_init_hook(rt_context_init_hook *hook)
{
    atomic_store_explicit(&rt_init_hook, hook, memory_order_release);
}

void rt_device_set_early_hooks(void (*wait)(void), void (*release)(void))
{
    atomic_store(&rt_early_wait_hook, wait);
    atomic_store(&rt_early_release_hook, release);
}

/* Loads what loads with a fresh context (the hook of the loading layer), if anything
 * registered. */
static __attribute__((noinline)) void rt_context_init_done(rt_device *d)
{
    rt_context_init_hook *hook = atomic_load_explicit(&rt_init_hook, memory_order_acquire);
    if (hook)
        hook(d);
}

/* The thread's device; for a thread that has chosen none, the first of its cudaSetValidDevices
 * list, else device 0. */
static int rt_thread_default(void)
{
    const int *list;
    if (rt_thread_device >= 0)
        return rt_thread_device;
    return rt_valid_devices(&list) > 0 ? list[0] : 0;
}

static void rt_devices_init_steps(void);

/* The "driver init" span of the timeline: loading the driver, cuInit, the device list. */
static void rt_devices_init_once(void)
{
    uint64_t span = rt_span_begin();
    rt_devices_init_steps();
    RT_SPAN_END(span, "driver init", "\"devices\":%d,\"result\":\"%s\"", rt_device_count,
                rt_error_name(rt_devices_status));
    atomic_store_explicit(&rt_devices_ready, true, memory_order_release);
}

static void rt_devices_init_steps(void)
{
    /* dlopen of libcuda.so.1, the entry points through cuGetProcAddress, cuInit(0): core/driver.c
     * (no driver at all is cudaErrorInsufficientDriver there, NVIDIA's answer). */
    cudaError_t e = rt_driver_load();
    if (e != cudaSuccess) {
        rt_devices_status = e;
        return;
    }
    int count = 0;
    CUresult r = rt_drv.cuDeviceGetCount(&count);
    if (r != CUDA_SUCCESS || count <= 0) {
        rt_devices_status = r != CUDA_SUCCESS ? rt_error_from_cu(r) : cudaErrorNoDevice;
        RT_TRACE("devices: none (%s)", rt_error_name(rt_devices_status));
        return;
    }
    /* The devices' slots first (slot i is device i), then the foreign ones: every per-context
     * array of the layers above is sized rt_slot_count and indexed by slot. */
    rt_devices = calloc((size_t)count + RT_FOREIGN_SLOTS, sizeof *rt_devices);
    if (!rt_devices) {
        rt_devices_status = cudaErrorMemoryAllocation;
        return;
    }
    for (int i = 0; i < count; i++) {
        rt_device *d = &rt_devices[i];
        int major = 0, minor = 0;
        r = rt_drv.cuDeviceGet(&d->cu, i);
        if (r == CUDA_SUCCESS)
            r = rt_drv.cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                                            d->cu);
        if (r == CUDA_SUCCESS)
            r = rt_drv.cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                                            d->cu);
        if (r != CUDA_SUCCESS) {
            rt_devices_status = rt_error_from_cu(r);
            return;
        }
        d->sm = (unsigned)(major * 10 + minor);    /* what fatbin_choose matches entries against */
        d->ordinal = i;
        RT_TRACE("device %d: sm_%u", i, d->sm);
    }
    rt_device_count = count;
    rt_slot_count = count + RT_FOREIGN_SLOTS;
    rt_devices_status = cudaSuccess;
}

/* Loads the driver and learns the devices, once.  Returns the same answer on every call. */
cudaError_t rt_devices_init(void)
{
    if (atomic_load_explicit(&rt_forked, memory_order_relaxed))   /* lifetime.c: after fork */
        return cudaErrorInitializationError;
    /* The flag spares every later call pthread_once's own checks (measured: some 70
     * instructions per launch). */
    if (!atomic_load_explicit(&rt_devices_ready, memory_order_acquire))
        pthread_once(&rt_devices_once, rt_devices_init_once);
    return rt_devices_status;
}

static int rt_device_index(const rt_device *d)
{
    return (int)(d - rt_devices);
}

/* Which of our devices has `ctx` as its primary context (now or before a reset); -1 if none. */
static int rt_device_of_context(CUcontext ctx)
{
    for (int i = 0; i < rt_device_count; i++)
        if (atomic_load_explicit(&rt_devices[i].context, memory_order_acquire) == ctx)
            return i;
    return -1;
}

/* Which of our devices is the driver's device `cu`; -1 if none. */
int rt_device_of_cu(CUdevice cu)
{
    for (int i = 0; i < rt_device_count; i++)
        if (rt_devices[i].cu == cu)
            return i;
    return -1;
}

/* The device of `current`, a context current to this thread, without initialising anything:
 * the device whose primary context it is, else the device the driver says it belongs to (a
 * context made by others); -1 when the driver cannot say. */
static int rt_device_of_current(CUcontext current)
{
    int owner = rt_device_of_context(current);
    CUdevice cu = 0;
    if (owner < 0 && rt_drv.cuCtxGetDevice(&cu) == CUDA_SUCCESS)
        owner = rt_device_of_cu(cu);
    return owner;
}

/* Whether `ctx`, current to this thread and not yet known to the runtime, is the primary context
 * of its device `cu` that someone else (NCCL, cuBLAS, driver-API code) retained and made current
 * before the runtime used that device.  A primary context's handle comes only from
 * cuDevicePrimaryCtxRetain, so when the device's primary context is active the runtime retains
 * it the way it would have anyway (rt_device_activate) and compares handles.  Returns the
 * device's index, or -1 for a context that is no primary one (cuCtxCreate).  In that case the
 * device's primary context, active for someone else, stays retained by the runtime too, as
 * after cudaInitDevice.  Only reached for a context the runtime has not seen, never on the launch
 * path. */
static int rt_device_of_primary(CUcontext ctx, CUdevice cu)
{
    int index = rt_device_of_cu(cu);
    if (index < 0)
        return -1;
    rt_device *d = &rt_devices[index];
    if (!atomic_load(&d->context)) {
        unsigned flags = 0;
        int active = 0;
        if (rt_drv.cuDevicePrimaryCtxGetState(cu, &flags, &active) != CUDA_SUCCESS || !active ||
            rt_device_activate(d) != cudaSuccess)
            return -1;
    }
    if (atomic_load(&d->context) != ctx)
        return -1;
    RT_TRACE("context %p, made current by someone else, is device %d's primary: used as "
             "the device's", (void *)ctx, index);
    return index;
}

/* The foreign slot that holds `ctx` (context id `id`), or NULL; rt_context_lock held. */
static rt_device *rt_foreign_find_locked(CUcontext ctx, unsigned long long id)
{
    for (int i = rt_device_count; i < rt_slot_count; i++)
        if (rt_devices[i].context == ctx && rt_devices[i].context_id == id)
            return &rt_devices[i];
    return NULL;
}

/* Gives `ctx`, a context made with cuCtxCreate by the program or a library, a slot of its own:
 * runtime calls then work in that context, as in NVIDIA's runtime, with its own loaded modules
 * and kernels.  A context id from the driver tells a new context at a reused address from the
 * old one. */
static rt_device *rt_foreign_adopt(CUcontext ctx, unsigned long long id, CUdevice cu)
{
    pthread_mutex_lock(&rt_context_lock);
    rt_device *found = rt_foreign_find_locked(ctx, id);     /* another thread was quicker */
    if (!found) {
        found = &rt_devices[rt_device_count + rt_foreign_next++ % RT_FOREIGN_SLOTS];
        int owner = rt_device_of_cu(cu);
        found->cu = cu;
        found->ordinal = owner >= 0 ? rt_devices[owner].ordinal : 0;
        found->sm = owner >= 0 ? rt_devices[owner].sm : 0;
        found->context = ctx;
        found->context_id = id;
        atomic_store(&found->foreign, true);
        /* The slot's earlier context may have broken; this one starts healthy. */
        atomic_store(&found->sticky, cudaSuccess);
        /* A new odd generation: whatever the slot cached for an earlier context is stale. */
        atomic_fetch_add(&found->generation, atomic_load(&found->generation) % 2 ? 2 : 1);
        RT_TRACE("context %p (id %llu) on device %d is not a primary context: runtime calls "
                 "work in it", (void *)ctx, id, found->ordinal);
    }
    pthread_mutex_unlock(&rt_context_lock);
    return found;
}

/* The slot of `ctx`, a context current to this thread: its device's when it is a primary
 * context (also one someone else made current first: rt_device_of_primary), else the foreign
 * slot that follows it (rt_foreign_adopt).  NULL when the driver cannot describe it. */
static rt_device *rt_context_slot(CUcontext ctx)
{
    int owner = rt_device_of_context(ctx);
    if (owner >= 0)
        return &rt_devices[owner];
    /* cuCtxGetId's id is unique for the life of the process, unlike the handle's address, which
     * the driver may give a later context; cuCtxGetDevice names the current context's device. */
    unsigned long long id = 0;
    CUdevice cu = 0;
    if (rt_drv.cuCtxGetId(ctx, &id) != CUDA_SUCCESS || rt_drv.cuCtxGetDevice(&cu) != CUDA_SUCCESS)
        return NULL;
    pthread_mutex_lock(&rt_context_lock);
    rt_device *found = rt_foreign_find_locked(ctx, id);
    pthread_mutex_unlock(&rt_context_lock);
    if (found)
        return found;
    /* First sight of this context (rt_device_of_primary may take rt_context_lock itself). */
    owner = rt_device_of_primary(ctx, cu);
    if (owner >= 0)
        return &rt_devices[owner];
    return rt_foreign_adopt(ctx, id, cu);
}

/* Records e against d, unless d already has a sticky error: the first is kept, and every later
 * call in that context answers it (rt_context_enter). */
static void rt_device_mark_sticky(rt_device *d, cudaError_t e)
{
    cudaError_t none = cudaSuccess;
    atomic_compare_exchange_strong(&d->sticky, &none, e);
}

/*
 * A sticky error came back from a driver call made in d's context.  It is the error of the
 * context that broke, which need not be d's: cudaStreamSynchronize on device 1's stream (or
 * cudaEventSynchronize on its event, or a peer copy) with device 0 current answers device 1's
 * fault while device 0 is healthy.  So the current context is asked first, with a query that
 * fails in a broken context and costs nothing in a healthy one; when it is healthy, every other
 * primary context the runtime holds is asked the same way (made current for that, then the
 * thread's own context back), and each broken one gets the error.  Only the error path pays.
 */
static void rt_device_note_sticky(rt_device *d, cudaError_t e)
{
    CUcontext current = NULL;
    rt_drv.cuCtxGetCurrent(&current);
    CUresult r = current ? rt_drv.cuStreamQuery(CU_STREAM_LEGACY) : CUDA_ERROR_INVALID_CONTEXT;
    if (r != CUDA_SUCCESS && r != CUDA_ERROR_NOT_READY) {
        rt_device_mark_sticky(d, e);
        return;
    }
    int marked = 0;
    for (int i = 0; i < rt_device_count; i++) {
        /* Only the primary contexts the runtime holds now (odd generation) are asked; the loop
         * ends before the foreign slots. */
        rt_device *other = &rt_devices[i];
        CUcontext ctx = atomic_load(&other->context);
        if (!ctx || ctx == current || atomic_load(&other->generation) % 2 == 0 ||
            rt_drv.cuCtxSetCurrent(ctx) != CUDA_SUCCESS)
            continue;
        cudaError_t seen = rt_error_from_cu(rt_drv.cuStreamQuery(CU_STREAM_LEGACY));
        if (rt_error_is_sticky(seen)) {
            rt_device_mark_sticky(other, seen);
            RT_TRACE("%s came from device %d's context, not the current one: recorded there",
                     rt_error_name(e), i);
            marked++;
        }
        rt_drv.cuCtxSetCurrent(current);
    }
    if (!marked)
        RT_TRACE("%s: every context of the runtime is healthy: recorded against none", rt_error_name(e));
}

void rt_device_note_error(rt_device *d, cudaError_t e)
{
    if (d && rt_error_is_sticky(e))
        rt_device_note_sticky(d, e);
}

/* Retains d's primary context if it is not active yet: the one place a context is created.
 * cuDevicePrimaryCtxRetain creates the device's primary context when nobody holds it, or takes a
 * reference on the one that libraries and driver-API code already use; either way the handle is
 * the same for all of them.  It does not make the context current.  Under rt_context_lock, so
 * that two threads entering a fresh device retain it once. */
static cudaError_t rt_context_activate(rt_device *d)
{
    cudaError_t e = cudaSuccess;
    void (*early_wait)(void) = atomic_load(&rt_early_wait_hook);
    if (early_wait)
        early_wait();                                   /* MINICUDART_EARLY_INIT's thread */
    pthread_mutex_lock(&rt_context_lock);
    if (atomic_load(&d->generation) % 2 == 0) {         /* even: not active */
        CUcontext ctx = NULL;
        uint64_t t0 = rt_now_ns();
        uint64_t span = rt_span_begin();
        CUresult r = rt_drv.cuDevicePrimaryCtxRetain(&ctx, d->cu);
        RT_SPAN_END(span, "context", "\"device\":%d,\"result\":%d", rt_device_index(d), (int)r);
        if (r == CUDA_SUCCESS) {
            d->context = ctx;
            atomic_fetch_add(&d->generation, 1);        /* odd: active */
            RT_TRACE("device %d: primary context %p retained in %.1f ms", rt_device_index(d),
                     (void *)ctx, (double)(rt_now_ns() - t0) / 1e6);
        } else {
            e = rt_error_from_cu(r);
            /* After a sticky error the driver refuses a new context for the rest of the
             * process, even after cudaDeviceReset (it answers the sticky code again); NVIDIA's
             * runtime reports that as cudaErrorDevicesUnavailable (both measured on an H200,
             * driver 580). */
            if (rt_error_is_sticky(e))
                e = cudaErrorDevicesUnavailable;
            RT_TRACE("device %d: cannot retain the primary context: %s (driver %d)",
                     rt_device_index(d), rt_error_name(e), (int)r);
        }
        /* Seen by an early thread that starts from now on (it retains nothing then); one
         * already running gives back its retain through the hook. */
        atomic_store(&rt_context_activated, true);
        void (*early_release)(void) = atomic_load(&rt_early_release_hook);
        if (early_release)
            early_release();
    }
    pthread_mutex_unlock(&rt_context_lock);
    return e;
}

/* Makes device d's primary context active and current on this thread. */
static cudaError_t rt_context_use(rt_device *d, CUcontext current)
{
    /* fresh: the context (re)starts with this call, or with a concurrent one; what loads with a
     * context is loaded then, and the loading layer makes a second caller's load a no-op. */
    bool fresh = atomic_load(&d->generation) % 2 == 0;
    cudaError_t e = rt_context_activate(d);
    if (e != cudaSuccess)
        return e;
    if (current != d->context) {
        /* Current on this thread only: the retain above is the process's. */
        CUresult r = rt_drv.cuCtxSetCurrent(d->context);
        if (r != CUDA_SUCCESS)
            return rt_error_from_cu(r);
    }
    rt_thread_device = rt_device_index(d);
    if (fresh)
        rt_context_init_done(d);
    return cudaSuccess;
}

/* The first CUDA work of a thread that chose no device and has no context current: the devices
 * of its cudaSetValidDevices list are tried in order, and the first whose primary context can be
 * used becomes the thread's device (the documented "tries devices from the list sequentially
 * until it finds one that works"); when none works, the last one's error.  Without a list the
 * default device 0, initialised by the caller.  *current is updated to the context now current. */
static cudaError_t rt_context_choose(rt_device **out, CUcontext *current)
{
    const int *list;
    int count = rt_valid_devices(&list);
    *out = &rt_devices[0];
    cudaError_t e = cudaSuccess;
    for (int i = 0; i < count; i++) {
        rt_device *d = &rt_devices[list[i]];
        e = rt_context_use(d, *current);
        if (e == cudaSuccess) {
            *out = d;
            *current = d->context;
            return e;
        }
        RT_TRACE("valid device %d does not work (%s): trying the next", list[i],
                 rt_error_name(e));
    }
    return e;
}

cudaError_t rt_context_enter(rt_device **out)
{
    /* From the runtime's exit handler on (core/driver.c), nothing reaches a driver that may be
     * going down: cudaErrorCudartUnloading, NVIDIA's answer (SEMANTICS.md section 0). */
    if (atomic_load_explicit(&rt_unloading, memory_order_relaxed))
        return cudaErrorCudartUnloading;
    cudaError_t e = rt_devices_init();
    if (e != cudaSuccess)
        return e;

    CUcontext current = NULL;
    rt_drv.cuCtxGetCurrent(&current);
    int index = rt_thread_device;
    rt_device *d;
    if (current && (index < 0 || rt_devices[index].context != current)) {
        /* Not the context of the thread's device: made current by someone else (driver-API
         * code, a library with its own runtime).  The thread's device follows it. */
        if (!(d = rt_context_slot(current)))
            return cudaErrorDeviceUninitialized;
        /* A foreign context leaves the thread's device as it was: cudaGetDevice reports the
         * context's device from the driver (rt_device_of_current) while it is current. */
        if (!atomic_load_explicit(&d->foreign, memory_order_relaxed))
            rt_thread_device = rt_device_index(d);
    } else if (index >= 0) {
        d = &rt_devices[index];
    } else if ((e = rt_context_choose(&d, &current)) != cudaSuccess) {
        return e;
    }

    /* Fast path: the context is active and already current.  Otherwise (another context is
     * current, or a reset released this one) rt_context_use retains it again and makes it
     * current.  A foreign context is used as it is. */
    if (!atomic_load_explicit(&d->foreign, memory_order_relaxed) &&
        (current != d->context || atomic_load(&d->generation) % 2 == 0)) {
        e = rt_context_use(d, current);
        if (e != cudaSuccess)
            return e;
    }
    /* After a sticky error every call that does CUDA work in this context answers it, on every
     * thread, each storing it in its own last error (SEMANTICS.md section 3). */
    cudaError_t sticky = atomic_load_explicit(&d->sticky, memory_order_relaxed);
    if (sticky != cudaSuccess)
        return sticky;
    *out = d;
    return cudaSuccess;
}

/* ---- the API -------------------------------------------------------------------------------- */

RT_API cudaError_t cudaGetDeviceCount(int *count)
{
    RT_ENTER();
    if (!count)
        RT_RETURN(cudaErrorInvalidValue);
    if (atomic_load(&rt_forked)) {
        /* In a child forked after initialisation NVIDIA's runtime still answers the count
         * (measured on an H200), though every call that needs the driver fails. */
        *count = rt_device_count;
        RT_RETURN(cudaSuccess);
    }
    cudaError_t e = rt_devices_init();
    if (e == cudaErrorNoDevice)
        *count = 0;
    else if (e == cudaSuccess)
        *count = rt_device_count;
    RT_RETURN(e);
}

RT_API cudaError_t cudaSetDevice(int device)
{
    RT_ENTER();
    cudaError_t e = rt_devices_init();
    if (e != cudaSuccess)
        RT_RETURN(e);
    if (device < 0 || device >= rt_device_count)
        RT_RETURN(cudaErrorInvalidDevice);
    /* Initialises the device's primary context now and makes it current (SEMANTICS.md 1.4):
     * a library with its own runtime, which works on the thread's current context, then follows
     * the program's choice of device. */
    CUcontext current = NULL;
    rt_drv.cuCtxGetCurrent(&current);
    RT_RETURN(rt_context_use(&rt_devices[device], current));
}

cudaError_t rt_context_if_current(rt_device **out)
{
    cudaError_t e = rt_devices_init();
    if (e != cudaSuccess)
        return e;
    CUcontext current = NULL;
    rt_drv.cuCtxGetCurrent(&current);
    return current ? rt_context_enter(out) : cudaErrorDeviceUninitialized;
}

/* cudaGLSetGLDevice and cudaVDPAUSetVDPAUDevice (graphics.c, graphics_egl.c) choose the device
 * only before the runtime has started: cudaErrorSetOnActiveProcess "after initializing the CUDA
 * runtime by calling non-device management operations".  Measured on the H200: an invalid device
 * is refused first (101); 708 once the program has made a stream. */
cudaError_t rt_set_interop_device(int device)
{
    cudaError_t e = rt_devices_init();
    if (e != cudaSuccess)
        return e;
    if (device < 0 || device >= rt_device_count)
        return cudaErrorInvalidDevice;
    /* Started: a primary context the runtime holds (not one a reset released). */
    for (int i = 0; i < rt_device_count; i++)
        if (atomic_load(&rt_devices[i].generation) % 2 == 1)
            return cudaErrorSetOnActiveProcess;
    CUcontext current = NULL;
    rt_drv.cuCtxGetCurrent(&current);
    return rt_context_use(&rt_devices[device], current);
}

/* After the runtime's exit handler, cudaGetDevice answers cudaErrorCudartUnloading and leaves
 * *device alone, while cudaGetDeviceCount still answers (both measured on the H200,
 * tests/gpu/life_static_dtor.cu).  It matters: a framework's device guard that cannot learn the
 * device gives up before the call it guards, instead of setting a device back afterwards
 * (PyTorch's CUDA IPC bookkeeping, destroyed at exit, crashed in that path). */
RT_API cudaError_t cudaGetDevice(int *device)
{
    RT_ENTER_HOT();
    if (!device)
        RT_RETURN(cudaErrorInvalidValue);
    if (atomic_load(&rt_unloading))
        RT_RETURN(cudaErrorCudartUnloading);
    cudaError_t e = rt_devices_init();
    if (e != cudaSuccess)
        RT_RETURN(e);
    /* The current context's device when one is current, whoever made it current (SEMANTICS.md
     * 1.3), else the thread's choice; nothing is retained or made current here. */
    CUcontext current = NULL;
    rt_drv.cuCtxGetCurrent(&current);
    int owner = current ? rt_device_of_current(current) : -1;
    *device = owner >= 0 ? owner : rt_thread_default();
    RT_RETURN(cudaSuccess);
}

RT_API cudaError_t cudaDeviceSynchronize(void)
{
    RT_ENTER();
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    /* Every stream of the current context.  A kernel's fault surfaces here (asynchronous
     * errors reach the next call that waits) and is recorded when sticky. */
    e = rt_error_from_cu(rt_drv.cuCtxSynchronize());
    rt_device_note_error(d, e);
    RT_RETURN(e);
}

RT_API cudaError_t cudaDeviceReset(void)
{
    RT_ENTER();
    rt_device *d;
    cudaError_t e = rt_devices_init();
    if (e != cudaSuccess)
        RT_RETURN(e);
    CUcontext current = NULL;
    rt_drv.cuCtxGetCurrent(&current);
    /* With no context current the thread's device is reset, without entering it first. */
    if (!current) {
        d = &rt_devices[rt_thread_default()];
    } else if (!(d = rt_context_slot(current))) {
        RT_RETURN(cudaErrorDeviceUninitialized);
    } else if (atomic_load(&d->foreign)) {
        /* A context someone else created: forget only what the runtime keeps for it (by 2, so
         * the generation stays odd: the context itself lives on). */
        atomic_fetch_add(&d->generation, 2);
        RT_RETURN(cudaSuccess);
    }
    int index = rt_device_index(d);

    /* Destroys every allocation, stream, event and module of the context at once.  The context
     * stays current where it was; the next call re-initialises it (rt_context_use), and the
     * generation bump makes every per-context cache stale. */
    pthread_mutex_lock(&rt_context_lock);
    if (atomic_load(&d->generation) % 2 == 1) {
        atomic_store(&rt_device_was_reset, true);   /* before the handles die: handles.c */
        /* The reset destroys the context's resources for everyone who shares it (libraries
         * with their own runtime included: SEMANTICS.md 7.8); the release gives back the
         * runtime's retain, and the generation turns even. */
        CUresult r = rt_drv.cuDevicePrimaryCtxReset(d->cu);
        if (r == CUDA_SUCCESS)
            r = rt_drv.cuDevicePrimaryCtxRelease(d->cu);
        e = rt_error_from_cu(r);
        atomic_fetch_add(&d->generation, 1);
        /* Whether the device works again shows at the next retain (rt_context_activate). */
        atomic_store(&d->sticky, cudaSuccess);
        d->flags_reset = true;
        RT_TRACE("device %d: reset (%s)", index, rt_error_name(e));
    }
    pthread_mutex_unlock(&rt_context_lock);
    RT_RETURN(e);
}

/* ---- device flags and explicit initialisation (function area) ------------------------------- */

cudaError_t rt_device_lookup(int device, rt_device **out)
{
    cudaError_t e = rt_devices_init();
    if (e != cudaSuccess)
        return e;
    if (device < 0 || device >= rt_device_count)
        return cudaErrorInvalidDevice;
    *out = &rt_devices[device];
    return cudaSuccess;
}

cudaError_t rt_device_current(rt_device **out)
{
    cudaError_t e = rt_devices_init();
    if (e != cudaSuccess)
        return e;
    CUcontext current = NULL;
    rt_drv.cuCtxGetCurrent(&current);
    int owner = current ? rt_device_of_current(current) : -1;
    *out = &rt_devices[owner >= 0 ? owner : rt_thread_default()];
    return cudaSuccess;
}

cudaError_t rt_device_activate(rt_device *d)
{
    bool fresh = atomic_load(&d->generation) % 2 == 0;
    cudaError_t e = rt_context_activate(d);
    if (e != cudaSuccess || !fresh)
        return e;
    /* Modules that must load with the context (managed variables, EAGER) load into the current
     * context: make d's current for that, then give the thread its own context back. */
    CUcontext current = NULL;
    rt_drv.cuCtxGetCurrent(&current);
    if (current != d->context && rt_drv.cuCtxSetCurrent(d->context) != CUDA_SUCCESS)
        return cudaSuccess;
    rt_context_init_done(d);
    if (current != d->context)
        rt_drv.cuCtxSetCurrent(current);
    return cudaSuccess;
}

/* Device flags a program may set: one scheduling policy (0, Spin, Yield or BlockingSync),
 * MapHost (always on since CUDA 4), LmemResizeToMax, SyncMemops. */
static bool rt_device_flags_valid(unsigned flags)
{
    /* The scheduling field holds one of 0, 1, 2 and 4: 3 (Spin | Yield) names no policy. */
    unsigned schedule = flags & cudaDeviceScheduleMask;
    unsigned known = cudaDeviceScheduleMask | cudaDeviceMapHost | cudaDeviceLmemResizeToMax |
                     cudaDeviceSyncMemops;
    return (flags & ~known) == 0 && schedule != 3 && schedule < 5;
}

/* Sets the primary context's flags.  cuDevicePrimaryCtxSetFlags (v2) overwrites them even while
 * the context is active, as NVIDIA's runtime does (SEMANTICS.md section 0: ScheduleSpin on an
 * active context succeeds and the flags then read 0x9).  MapHost is implied, not passed. */
static cudaError_t rt_device_set_flags(rt_device *d, unsigned flags)
{
    if (!rt_device_flags_valid(flags))
        return cudaErrorInvalidValue;
    CUresult r = rt_drv.cuDevicePrimaryCtxSetFlags(d->cu, flags & ~(unsigned)cudaDeviceMapHost);
    RT_TRACE("device %d: flags 0x%x (%d)", rt_device_index(d), flags, (int)r);
    if (r == CUDA_SUCCESS)
        d->flags_reset = false;
    return rt_error_from_cu(r);
}

RT_API cudaError_t cudaSetDeviceFlags(unsigned int flags)
{
    RT_ENTER();
    rt_device *d;
    cudaError_t e = rt_device_current(&d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    RT_RETURN(rt_device_set_flags(d, flags));
}

RT_API cudaError_t cudaGetDeviceFlags(unsigned int *flags)
{
    RT_ENTER();
    if (!flags)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = rt_device_current(&d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    unsigned value = 0;
    int active = 0;
    CUresult r = rt_drv.cuDevicePrimaryCtxGetState(d->cu, &value, &active);
    if (r != CUDA_SUCCESS)
        RT_RETURN(rt_error_from_cu(r));
    /* Mapped host memory is always available, and NVIDIA's runtime reports the flag even before
     * initialisation (0x8) -- but not right after cudaDeviceReset (0x0), until flags are set
     * again (both measured on the H200). */
    *flags = value | (d->flags_reset ? 0 : cudaDeviceMapHost);
    RT_RETURN(cudaSuccess);
}

RT_API cudaError_t cudaInitDevice(int device, unsigned int deviceFlags, unsigned int flags)
{
    RT_ENTER();
    rt_device *d;
    cudaError_t e = rt_device_lookup(device, &d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    /* Other bits of flags are ignored, as NVIDIA's runtime does (H200). */
    if (flags & cudaInitDeviceFlagsAreValid) {
        e = rt_device_set_flags(d, deviceFlags);
        if (e != cudaSuccess)
            RT_RETURN(e);
    }
    /* Initialises the primary context without making it current. */
    RT_RETURN(rt_device_activate(d));
}
