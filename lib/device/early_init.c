/*
 * early_init.c - MINICUDART_EARLY_INIT: the driver started on a background thread as soon as the
 * first fatbin registers, so that the program's own start-up (Python imports, say) hides the
 * driver's 100-200 ms.  Off by default.
 *
 *   MINICUDART_EARLY_INIT=1       load the driver, cuInit, list the devices, and retain device
 *                                 0's primary context: what the first runtime call would do
 *   MINICUDART_EARLY_INIT=driver  the same without the context (cuInit alone: no device memory)
 *
 * The thread runs the same once-guarded start as the lazy path (rt_devices_init, pthread_once),
 * so a runtime call that comes first simply waits for it, or starts it itself and the thread
 * waits.  The context is the driver's primary context, retained with cuDevicePrimaryCtxRetain
 * but not entered as the runtime's own: the runtime's first activation (device.c,
 * rt_context_activate) waits for the thread, retains the context as it always does (the driver
 * hands back the one the thread made, at once), then gives back the thread's retain.  So the
 * runtime holds exactly one retain as without early init (cudaDeviceReset releases one), modules
 * that load with the context (managed variables, EAGER) still load at that activation, with every
 * fatbin registered by then, and a program that chose another device frees device 0's context
 * at its first activation.
 *
 * Hazards (docs/performance.md measures them on the GPU; README's environment table says them):
 *   - fork before the first CUDA call: the parent has initialised the driver, so a child that
 *     uses CUDA gets cudaErrorInitializationError, exactly as a child of a process that had used
 *     CUDA (lifetime.c).  A fork while the thread runs waits for it first (pthread_atfork), so
 *     the child never inherits a driver half-way through cuInit or the runtime's once-guard held.
 *   - a program that never uses the GPU pays for cuInit and, with =1, a context: device memory
 *     and host memory, and its exit waits for the thread (below).
 *   - exit while the thread runs: an exit handler waits for the thread to finish, so the driver
 *     is never torn down under a running cuInit.
 *   - a library loaded with dlopen whose constructor makes a CUDA call, when its fatbin was the
 *     first to register: the thread's dlopen of the driver waits for the loader lock that the
 *     constructor's dlopen holds.  The thread opens the driver library before it enters the
 *     once-guard, so the constructor's call does not wait for a thread that waits for it; a
 *     further dlopen inside cuInit could still meet the loader lock (not seen with the fake).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "device/device.h"

enum { EARLY_UNASKED, EARLY_OFF, EARLY_RUNNING, EARLY_DONE };
enum { EARLY_DRIVER = 1, EARLY_CONTEXT = 2 };

static atomic_int rt_early_state;            /* EARLY_*: read without the lock */
static pthread_mutex_t rt_early_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t rt_early_done = PTHREAD_COND_INITIALIZER;
/* Under rt_early_lock: */
static bool rt_early_held;                   /* the thread holds a retain of device 0's context */
static CUdevice rt_early_device;

static void rt_early_finish(void)
{
    pthread_mutex_lock(&rt_early_lock);
    atomic_store_explicit(&rt_early_state, EARLY_DONE, memory_order_release);
    pthread_cond_broadcast(&rt_early_done);
    pthread_mutex_unlock(&rt_early_lock);
}

static void *rt_early_main(void *arg)
{
    int mode = (int)(uintptr_t)arg;
    uint64_t t0 = rt_now_ns();
    /* Opened outside the once-guard: see the dlopen hazard above.  The handle stays open (the
     * runtime never closes the driver). */
    void *lib = dlopen(rt_driver_path(), RTLD_NOW | RTLD_LOCAL);
    cudaError_t e = rt_devices_init();
    uint64_t t1 = rt_now_ns();
    CUresult r = CUDA_SUCCESS;
    bool retained = false;
    if (e == cudaSuccess && mode == EARLY_CONTEXT) {
        pthread_mutex_lock(&rt_early_lock);
        /* Not if the runtime activated a context before this thread started (a fatbin
         * registered after the program's first CUDA work): that retain would never be given
         * back.  An activation from now on waits for this thread (rt_early_init_wait). */
        if (!atomic_load(&rt_context_activated) && atomic_load(&rt_devices[0].generation) == 0) {
            CUcontext ctx = NULL;
            r = rt_drv.cuDevicePrimaryCtxRetain(&ctx, rt_devices[0].cu);
            retained = r == CUDA_SUCCESS;
            rt_early_held = retained;
            rt_early_device = rt_devices[0].cu;
        }
        pthread_mutex_unlock(&rt_early_lock);
    }
    RT_TRACE("early init: driver %s (%s) in %.1f ms; device 0's primary context %s in %.1f ms",
             lib ? "loaded" : "not loaded", rt_error_name(e), (double)(t1 - t0) / 1e6,
             retained ? "retained" : mode == EARLY_CONTEXT ? "not retained" : "left alone",
             (double)(rt_now_ns() - t1) / 1e6);
    if (r != CUDA_SUCCESS)
        RT_TRACE("early init: cuDevicePrimaryCtxRetain answered %d; the first call retries", (int)r);
    rt_early_finish();
    return NULL;
}

/* device.c's hook: before the runtime retains a primary context. */
static void rt_early_init_wait(void)
{
    if (atomic_load_explicit(&rt_early_state, memory_order_acquire) != EARLY_RUNNING)
        return;
    pthread_mutex_lock(&rt_early_lock);
    while (atomic_load_explicit(&rt_early_state, memory_order_relaxed) == EARLY_RUNNING)
        pthread_cond_wait(&rt_early_done, &rt_early_lock);
    pthread_mutex_unlock(&rt_early_lock);
}

/* device.c's hook: after the runtime's retain (device.c has set rt_context_activated first, so
 * a thread that has not retained yet never will). */
static void rt_early_init_release(void)
{
    pthread_mutex_lock(&rt_early_lock);
    if (rt_early_held) {
        rt_early_held = false;
        CUresult r = rt_drv.cuDevicePrimaryCtxRelease(rt_early_device);
        RT_TRACE("early init: the runtime has its own retain; the thread's given back (%d)",
                 (int)r);
    }
    pthread_mutex_unlock(&rt_early_lock);
}

static void rt_early_at_fork(void)
{
    rt_early_init_wait();
}

static void rt_early_at_exit(void)
{
    rt_early_init_wait();
}

static int rt_early_mode(void)
{
    const char *v = getenv("MINICUDART_EARLY_INIT");
    if (!v || !*v || !strcmp(v, "0"))
        return 0;
    if (!strcmp(v, "1"))
        return EARLY_CONTEXT;
    if (!strcmp(v, "driver"))
        return EARLY_DRIVER;
    RT_TRACE("MINICUDART_EARLY_INIT=%s: not 1, driver or 0; off", v);
    return 0;
}

void rt_early_init_start(void)
{
    if (atomic_load_explicit(&rt_early_state, memory_order_relaxed) != EARLY_UNASKED)
        return;
    int mode = rt_early_mode();
    int expected = EARLY_UNASKED;
    if (!atomic_compare_exchange_strong(&rt_early_state, &expected,
                                        mode ? EARLY_RUNNING : EARLY_OFF) || !mode)
        return;
    /* Registered before the thread starts: a fork or an exit from here on waits for it, and
     * so does the runtime's first retain of a primary context (device.c). */
    rt_device_set_early_hooks(rt_early_init_wait, rt_early_init_release);
    pthread_atfork(rt_early_at_fork, NULL, NULL);
    atexit(rt_early_at_exit);
    pthread_attr_t attr;
    pthread_t thread;
    int err = pthread_attr_init(&attr);
    if (!err) {
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        err = pthread_create(&thread, &attr, rt_early_main, (void *)(uintptr_t)mode);
        pthread_attr_destroy(&attr);
    }
    if (err) {
        RT_TRACE("early init: no thread (%s); the first call starts the driver", strerror(err));
        rt_early_finish();
        return;
    }
    RT_TRACE("early init: starting the driver%s on a background thread",
             mode == EARLY_CONTEXT ? " and device 0's primary context" : "");
}
