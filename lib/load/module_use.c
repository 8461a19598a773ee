/*
 * module_use.c - the launches in flight on a module, which the unload of a closed library waits
 * for.
 *
 * A library that registered kernels is closed (dlclose) while other threads launch them: the
 * program's bug, but one NVIDIA's runtime answers with a crash (H200, driver 580: signal 11 in
 * tests/gpu/life_unload_race.cu) and this one with a clean error.  Its destructor unregisters the
 * fatbin (register.c), which unloads the module from every context (module.c); the driver frees
 * the module's CUfunctions then, and a launch that read one just before and hands it to
 * cuLaunchKernel just after crashes inside the driver.  So each launch of a registered kernel
 * says which module it uses, for its whole way from the look-up to the driver's return, and the
 * unload waits until no thread says so.
 *
 * Each thread has a record, published the first time it launches and never freed (a thread
 * that ends gives it back for the next new thread to take), so the unload walks the list with
 * no lock and no thread waits for another to launch.  The protocol is Dekker's, both sides
 * sequentially consistent:
 *
 *     launch                                   unload
 *       held[slot] = m                           m->unloaded = true       (register.c)
 *       m->unloaded?  -> refuse, held = NULL     held[*] == m for some record?  -> wait
 *       ... look-up, load, cuLaunchKernel ...
 *       held[slot] = NULL                        cuModuleUnload
 *
 * Either the launch sees the flag, or the unload sees the launch's mark, so no launch that the
 * unload did not wait for reaches the driver.  On the launch path it costs one locked store to
 * the thread's own cache line and one read of a line every launch shares read-only.
 *
 * Slots, not one mark: a trace hook (minicudart_set_trace_hook) runs inside a launch and may
 * launch itself, which must not hide the outer launch's mark.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

#include "load/load.h"

extern inline void rt_module_release(const rt_module_held *held);

static _Atomic(rt_module_user *) rt_module_users;   /* every record, newest first */
static _Thread_local rt_module_user *rt_module_me;
static pthread_key_t rt_module_user_key;
static pthread_once_t rt_module_user_once = PTHREAD_ONCE_INIT;
static bool rt_module_user_key_ok;

/* At the thread's end: the record is free for the next thread that launches.  Its marks are
 * cleared: none is left but by a thread that ended inside a launch (cancelled, or exiting from
 * a trace hook), whose launch will never reach the driver now.  The pointer is cleared too: a
 * destructor that runs after this one and launches takes a record again, which the key gives
 * back in its next round. */
static void rt_module_user_end(void *p)
{
    rt_module_user *u = p;
    for (unsigned slot = 0; slot < RT_MODULE_HOLD_DEPTH; slot++)
        atomic_store_explicit(&u->held[slot], NULL, memory_order_release);
    u->depth = 0;
    if (rt_module_me == u)
        rt_module_me = NULL;
    atomic_store_explicit(&u->taken, false, memory_order_release);
}

static void rt_module_user_key_create(void)
{
    rt_module_user_key_ok = pthread_key_create(&rt_module_user_key, rt_module_user_end) == 0;
}

/* When libcudart.so.13 itself is unloaded, or the process ends: no thread that ends later may
 * call rt_module_user_end, whose code may be gone by then. */
__attribute__((destructor)) static void rt_module_user_key_delete(void)
{
    if (rt_module_user_key_ok) {
        rt_module_user_key_ok = false;
        pthread_key_delete(rt_module_user_key);
    }
}

/* This thread's first launch: a record given back by a thread that ended, else a new one.
 * Without the key (every key of the process taken) the record is not given back at the
 * thread's end: it stays, unused, which costs its bytes and nothing else. */
static __attribute__((noinline)) rt_module_user *rt_module_user_take(void)
{
    pthread_once(&rt_module_user_once, rt_module_user_key_create);
    rt_module_user *u;
    for (u = atomic_load(&rt_module_users); u; u = u->next) {
        bool free_one = false;
        if (atomic_compare_exchange_strong(&u->taken, &free_one, true))
            break;
    }
    if (!u) {
        u = calloc(1, sizeof *u);
        if (!u)
            return NULL;
        atomic_init(&u->taken, true);
        u->next = atomic_load(&rt_module_users);
        while (!atomic_compare_exchange_weak(&rt_module_users, &u->next, u))
            ;
    }
    if (rt_module_user_key_ok)
        pthread_setspecific(rt_module_user_key, u);
    rt_module_me = u;
    return u;
}

cudaError_t rt_module_hold(rt_module *m, rt_module_held *held)
{
    rt_module_user *u = rt_module_me ? rt_module_me : rt_module_user_take();
    if (!u)
        return cudaErrorMemoryAllocation;
    if (u->depth == RT_MODULE_HOLD_DEPTH) {
        RT_TRACE("launch: launches nested %d deep in trace hooks: not supported",
                 RT_MODULE_HOLD_DEPTH);
        return cudaErrorNotSupported;
    }
    unsigned slot = u->depth++;
    atomic_store(&u->held[slot], m);
    if (atomic_load(&m->unloaded)) {
        atomic_store_explicit(&u->held[slot], NULL, memory_order_release);
        u->depth--;
        return cudaErrorInvalidResourceHandle;   /* what a kernel of an unloaded module gets */
    }
    held->user = u;
    held->slot = slot;
    return cudaSuccess;
}

/* How long the unload waits for one launch: a launch in flight returns from the driver in
 * microseconds, a first launch that loads the module (a JIT of PTX) in seconds.  The bound is
 * for a thread that can never finish while the unload waits: one that needs the dynamic
 * loader's lock, which dlclose holds for as long as the library's destructors run (a driver
 * that loads a library of its own at a first JIT).  The unload goes on then, and says so. */
#define RT_MODULE_WAIT_NS 5000000000ull

void rt_module_wait_users(rt_module *m)
{
    uint64_t t0 = rt_now_ns();
    for (rt_module_user *u = atomic_load(&rt_module_users); u; u = u->next) {
        /* The unloading thread's own marks are not waited for: a dlclose from inside a launch
         * (from a trace hook) would wait for itself. */
        if (u == rt_module_me)
            continue;
        for (unsigned slot = 0; slot < RT_MODULE_HOLD_DEPTH; slot++)
            while (atomic_load(&u->held[slot]) == m) {
                if (rt_now_ns() - t0 > RT_MODULE_WAIT_NS) {
                    RT_TRACE("module %p: a launch of its kernels still runs after %d s; "
                             "unloaded without waiting", m->wrapper,
                             (int)(RT_MODULE_WAIT_NS / 1000000000));
                    return;
                }
                sched_yield();
            }
    }
}
