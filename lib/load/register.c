/*
 * register.c - step 0 of every launch, before main: nvcc's constructors describe the program.
 *
 * For each translation unit (or each nvlink unit with -rdc) a constructor calls
 *   handle = __cudaRegisterFatBinary(&wrapper);
 *   __cudaRegisterFunction(handle, hostFun, "mangled", ...)   once per kernel
 *   __cudaRegisterVar / __cudaRegisterManagedVar(handle, ...)  once per variable
 *   __cudaRegisterFatBinaryEnd(handle);
 * and atexit(__cudaUnregisterFatBinary) runs after main returns.
 *
 * Registration only records: it never touches the driver (there may be none, and nothing could
 * report its errors).  Names are kept per module, since two translation units can register the
 * same mangled name for two different static kernels; look-ups by host pointer go through one
 * hash table that readers probe without a lock, because cudaLaunchKernel looks up on every call.
 *
 * What the calls carry (PROTOCOL.md sections 3.2 and 3.7-3.9).  The handle is whatever
 * __cudaRegisterFatBinary returns; generated code stores it and hands it back unread, so here it
 * is a malloc'd slot pointing at the module record.  hostFun is the address of the kernel's host
 * wrapper (not of __device_stub__...): the pointer a program later passes to cudaLaunchKernel,
 * cudaFuncGetAttributes and the rest, hence the key of every look-up.  deviceFun and deviceName
 * are the same mangled entry name, handed to the driver unchanged; thread_limit is always -1 and
 * the five pointers after it always NULL (launch bounds live only in the cubin).  With -rdc the
 * sequence runs once per nvlink unit, from the last rdc object's constructor, with a version-2
 * wrapper whose prelinked array keeps every object's relocatable fatbin (module_link.c links
 * them when the linked image has nothing for the device).
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "load/module.h"

static pthread_mutex_t rt_registry_lock = PTHREAD_MUTEX_INITIALIZER;
static rt_module *rt_modules;

/* Around fork the lock is taken, and given back in both processes, so that a child never
 * inherits it held by a thread that did not follow.  Installed when the runtime is loaded
 * (program start, or dlopen of libcudart.so.13), before any fork that could follow. */
static void rt_registry_fork_lock(void)
{
    pthread_mutex_lock(&rt_registry_lock);
}

static void rt_registry_fork_unlock(void)
{
    pthread_mutex_unlock(&rt_registry_lock);
}

__attribute__((constructor)) static void rt_registry_init(void)
{
    pthread_atfork(rt_registry_fork_lock, rt_registry_fork_unlock, rt_registry_fork_unlock);
}

/* function.c's: what it recorded for a kernel whose record is freed (load.h). */
static _Atomic(rt_kernel_forget_hook *) rt_forget_hook;

void rt_registry_set_forget_hook(rt_kernel_forget_hook *hook)
{
    atomic_store_explicit(&rt_forget_hook, hook, memory_order_release);
}

/* ---- the pointer table: host stub -> kernel, kernel handle -> kernel, host var -> var ------ */

/* One open-addressed table (linear probing) per kind of key.  Writers are the registration calls
 * and the first hand-out of a handle, rare and serialised by rt_registry_lock; readers are every
 * launch and every call that takes a `func` or a symbol, from any thread, and take no lock.  A
 * slot's value is stored before its key, the key with release, so a reader that finds a key
 * finds its value too.  A key, once in, never leaves (rt_table_replace says why). */
struct rt_slot {
    _Atomic(const void *) key;
    _Atomic(void *) value;
};

struct rt_table {
    size_t capacity;              /* a power of two */
    size_t used;
    struct rt_table *older;       /* the table this one replaced */
    struct rt_slot slot[];
};

/* Tables are only ever replaced by bigger copies, never freed: a reader that still holds an old
 * one keeps reading valid memory, and registration is rare enough for that to cost nothing.
 * Each keeps a pointer to the one it replaced, so none is ever unreachable (a leak checker
 * would report it). */
static _Atomic(struct rt_table *) rt_kernels_by_ptr;
static _Atomic(struct rt_table *) rt_vars_by_ptr;

/* Keys are addresses (host stubs, host variables, heap records), whose low bits vary little
 * (alignment); the xor-shifts and the multiply fold the high bits into the low ones that pick the
 * slot. */
static size_t rt_hash(const void *p)
{
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return (size_t)x;
}

static void *rt_table_get(_Atomic(struct rt_table *) *tp, const void *key)
{
    struct rt_table *t = atomic_load_explicit(tp, memory_order_acquire);
    if (!t || !key)
        return NULL;
    /* A table is never more than half full (rt_table_put), so an empty slot ends every probe. */
    for (size_t i = rt_hash(key) & (t->capacity - 1);; i = (i + 1) & (t->capacity - 1)) {
        const void *k = atomic_load_explicit(&t->slot[i].key, memory_order_acquire);
        if (k == key)
            return atomic_load_explicit(&t->slot[i].value, memory_order_acquire);
        if (!k)
            return NULL;
    }
}

static bool rt_table_insert_into(struct rt_table *t, const void *key, void *value)
{
    for (size_t i = rt_hash(key) & (t->capacity - 1);; i = (i + 1) & (t->capacity - 1)) {
        const void *k = atomic_load_explicit(&t->slot[i].key, memory_order_relaxed);
        if (k == key)
            return false;                      /* first registration wins */
        if (!k) {
            atomic_store_explicit(&t->slot[i].value, value, memory_order_relaxed);
            atomic_store_explicit(&t->slot[i].key, key, memory_order_release);
            t->used++;
            return true;
        }
    }
}

/* Inserts under rt_registry_lock; grows the table at half load.  Returns false when the key is
 * present already (or memory ran out). */
static bool rt_table_put(_Atomic(struct rt_table *) *tp, const void *key, void *value)
{
    struct rt_table *t = atomic_load_explicit(tp, memory_order_relaxed);
    if (!t || (t->used + 1) * 2 > t->capacity) {
        size_t capacity = t ? t->capacity * 2 : 64;
        struct rt_table *bigger = calloc(1, sizeof *bigger + capacity * sizeof bigger->slot[0]);
        if (!bigger)
            return false;
        bigger->capacity = capacity;
        bigger->older = t;
        for (size_t i = 0; t && i < t->capacity; i++) {
            const void *k = atomic_load_explicit(&t->slot[i].key, memory_order_relaxed);
            if (k)
                rt_table_insert_into(bigger, k, atomic_load_explicit(&t->slot[i].value,
                                                                     memory_order_relaxed));
        }
        /* Published only when whole: a reader sees the old table or the complete new one. */
        atomic_store_explicit(tp, bigger, memory_order_release);
        t = bigger;
    }
    return rt_table_insert_into(t, key, value);
}

/* Points an existing key at a new value (under rt_registry_lock): a library that was unloaded
 * and loaded again registers the same host addresses, and its new records must win over the
 * dead ones; an unloaded library's keys are pointed at NULL (a key cannot leave an open-addressed
 * table without breaking the probe chains of others). */
static void rt_table_replace(_Atomic(struct rt_table *) *tp, const void *key, void *value)
{
    struct rt_table *t = atomic_load_explicit(tp, memory_order_relaxed);
    for (size_t i = t ? rt_hash(key) & (t->capacity - 1) : 0; t;
         i = (i + 1) & (t->capacity - 1)) {
        const void *k = atomic_load_explicit(&t->slot[i].key, memory_order_relaxed);
        if (k == key) {
            atomic_store_explicit(&t->slot[i].value, value, memory_order_release);
            return;
        }
        if (!k)
            return;                            /* absent: nothing to replace */
    }
}

/* Whether key is in the table, whatever it points at (under rt_registry_lock). */
static bool rt_table_has(_Atomic(struct rt_table *) *tp, const void *key)
{
    struct rt_table *t = atomic_load_explicit(tp, memory_order_relaxed);
    for (size_t i = t ? rt_hash(key) & (t->capacity - 1) : 0; t;
         i = (i + 1) & (t->capacity - 1)) {
        const void *k = atomic_load_explicit(&t->slot[i].key, memory_order_relaxed);
        if (k == key)
            return true;
        if (!k)
            return false;
    }
    return false;
}

rt_kernel *rt_kernel_find(const void *host_fun_or_handle)
{
    return rt_table_get(&rt_kernels_by_ptr, host_fun_or_handle);
}

rt_var *rt_var_find(const void *host_var)
{
    return rt_table_get(&rt_vars_by_ptr, host_var);
}

/* Library kernels (library.c) share the table with host stubs and handles: a CUkernel is memory
 * the driver allocated, so it can be neither a host stub (code) nor one of our records.  A key
 * cannot leave the table (rt_table_replace says why), so an unloaded library leaves its kernels'
 * keys pointing at NULL: one slot per kernel per library loaded, unless the driver hands the
 * same addresses out again, when the slot is reused. */
/* A registered kernel's handle is its record (rt_kernel_handle).  The table learns it when it is
 * first handed out (__cudaGetKernel, cudaGetKernel), not at registration: most of a framework's
 * kernels are never launched, and registration then fills a table of one key per kernel instead
 * of two (half the memory it touches).  A program holds a handle only after this returned it,
 * so no look-up can come earlier.  A kernel whose library was unloaded meanwhile gets no key. */
cudaKernel_t rt_kernel_hand_out(rt_kernel *k)
{
    if (k->library_kernel)
        return (cudaKernel_t)k->library_kernel;    /* published by library.c */
    if (rt_table_get(&rt_kernels_by_ptr, k) != k) {
        pthread_mutex_lock(&rt_registry_lock);
        /* The key may be there, answering NULL: a freed record of a closed library had this
         * address (rt_module_free). */
        if (!k->module->unloaded) {
            if (rt_table_has(&rt_kernels_by_ptr, k))
                rt_table_replace(&rt_kernels_by_ptr, k, k);
            else
                rt_table_put(&rt_kernels_by_ptr, k, k);
        }
        pthread_mutex_unlock(&rt_registry_lock);
    }
    return (cudaKernel_t)k;
}

bool rt_kernel_publish(const void *key, rt_kernel *k)
{
    pthread_mutex_lock(&rt_registry_lock);
    bool ok = true;
    if (rt_table_has(&rt_kernels_by_ptr, key))
        rt_table_replace(&rt_kernels_by_ptr, key, k);
    else
        ok = rt_table_put(&rt_kernels_by_ptr, key, k);
    pthread_mutex_unlock(&rt_registry_lock);
    return ok;
}

/* Only a key that answers something is pointed at NULL; an absent one stays absent (putting it
 * in only to answer NULL would cost a slot for nothing). */
void rt_kernel_withdraw(const void *key)
{
    pthread_mutex_lock(&rt_registry_lock);
    if (rt_table_get(&rt_kernels_by_ptr, key))
        rt_table_replace(&rt_kernels_by_ptr, key, NULL);
    pthread_mutex_unlock(&rt_registry_lock);
}

void rt_module_foreach(void (*fn)(rt_module *m, void *user), void *user)
{
    pthread_mutex_lock(&rt_registry_lock);
    for (rt_module *m = rt_modules; m; m = m->next)
        if (!atomic_load(&m->unregistered))
            fn(m, user);
    pthread_mutex_unlock(&rt_registry_lock);
}

void rt_module_foreach_at_exit(void (*fn)(rt_module *m, void *user), void *user)
{
    pthread_mutex_lock(&rt_registry_lock);
    for (rt_module *m = rt_modules; m; m = m->next)
        if (!m->unloaded)
            fn(m, user);
    pthread_mutex_unlock(&rt_registry_lock);
}

/* ---- MINICUDART_SUMMARY's census --------------------------------------------------------------
 *
 * The registry's lines of the table core/summary.c prints at exit, handed down to it as a hook
 * at the first registration.  The exit summary runs after nvcc's exit handlers have
 * unregistered the program's fatbins: rt_module_foreach_at_exit still counts those. */

static void rt_census_module(rt_module *m, void *user)
{
    struct rt_summary_census *c = user;
    c->modules++;
    for (rt_var *v = m->vars; v; v = v->next)
        c->vars++;
    for (rt_kernel *k = m->kernels; k; k = k->next) {
        c->kernels++;
        unsigned long long n = atomic_load_explicit(&k->launches, memory_order_relaxed);
        if (n == 0)
            continue;
        /* Insert into the top list, most launched first. */
        size_t at = c->top_count < RT_SUMMARY_TOP ? c->top_count : RT_SUMMARY_TOP;
        while (at > 0 && c->top[at - 1].launches < n) {
            if (at < RT_SUMMARY_TOP)
                c->top[at] = c->top[at - 1];
            at--;
        }
        if (at < RT_SUMMARY_TOP) {
            c->top[at] = (struct rt_summary_kernel){ k->name, n, k->last_grid, k->last_block };
            if (c->top_count < RT_SUMMARY_TOP)
                c->top_count++;
        }
    }
}

static void rt_census(struct rt_summary_census *c)
{
    rt_module_foreach_at_exit(rt_census_module, c);
}

/* ---- what loads with a context ----------------------------------------------------------------
 *
 * device.c calls this right after a primary context is (re)initialised, through the hook the
 * first registration installs: CUDA_MODULE_LOADING=EAGER loads every module and resolves every
 * kernel then; without it only the modules with __managed__ variables load, because host code
 * may read those variables before any launch. */

struct rt_init_load {
    rt_device *device;
    bool eager;
};

static void rt_module_load_one(rt_module *m, void *user)
{
    struct rt_init_load *load = user;
    if (!load->eager && !m->has_managed)
        return;
    /* Nothing is reported from here: this runs inside whatever call started the context.  A load
     * error stays cached in the module's per-device state (module.c), and a kernel's is met
     * again by the first launch that needs it. */
    cudaError_t e = rt_module_ensure(m, load->device, NULL);
    for (rt_kernel *k = m->kernels; load->eager && e == cudaSuccess && k; k = k->next) {
        rt_kernel_dev *kd;
        rt_kernel_resolve(k, load->device, &kd);
    }
}

static void rt_module_load_at_init(rt_device *d)
{
    struct rt_init_load load = { d, rt_module_eager() };
    if (load.eager)
        RT_TRACE("CUDA_MODULE_LOADING=EAGER: loading every module on device %d", d->ordinal);
    rt_module_foreach(rt_module_load_one, &load);
}

/* The module behind a handle; NULL for the NULL handle that a failed __cudaRegisterFatBinary
 * returned, which the unit's later calls then pass (and which they ignore). */
static rt_module *rt_module_of(void **handle)
{
    return handle ? (rt_module *)*handle : NULL;
}

/* ---- tracing what was registered ----------------------------------------------------------- */

static void rt_trace_container(const char *what, const void *data)
{
    fatbin_container c;
    fatbin_error err;
    if (fatbin_container_open(&c, data, SIZE_MAX, &err) != FATBIN_OK) {
        RT_TRACE("  %s: unreadable container: %s (at offset %zu)", what, err.message, err.offset);
        return;
    }
    char list[512] = "";
    size_t used = 0, pos = 0, n = 0;
    fatbin_entry e;
    int r;
    while ((r = fatbin_next_entry(&c, &pos, &e, &err)) == FATBIN_OK) {
        char arch[32];
        fatbin_arch_name(&e, arch, sizeof arch);
        const char *comp = fatbin_compression_name(e.flags);
        int w = snprintf(list + used, sizeof list - used, "%s%s%s%s", n ? ", " : "", arch,
                         strcmp(comp, "none") ? "/" : "", strcmp(comp, "none") ? comp : "");
        if (w > 0 && (size_t)w < sizeof list - used)
            used += (size_t)w;
        n++;
    }
    if (r == FATBIN_BAD)
        RT_TRACE("  %s: %zu bytes, %zu entries [%s], then malformed: %s (at offset %zu)", what,
                 c.size, n, list, err.message, err.offset);
    else
        RT_TRACE("  %s: %zu bytes, %zu entries [%s]", what, c.size, n, list);
}

/* ---- the entry points ----------------------------------------------------------------------- */

RT_API void **__cudaRegisterFatBinary(void *fatCubin)
{
    RT_ENTER();
    atomic_store_explicit(&rt_reached, true, memory_order_relaxed);
    rt_module *m = calloc(1, sizeof *m);
    void **handle = malloc(sizeof *handle);
    /* Out of memory: NULL, and the unit's kernels and variables stay unregistered. */
    if (!m || !handle) {
        free(m);
        free(handle);
        RT_RETURN_VALUE(NULL);
    }
    m->handle = handle;
    m->wrapper = fatCubin;
    *handle = m;

    /* The 24-byte wrapper (magic 0x466243b1, version 1 or 2, data, the prelinked array of
     * version 2) is read now; a bad one is only remembered: the first use of one of its kernels
     * reports cudaErrorInvalidKernelImage (image.c), since nothing could report it here. */
    fatbin_error err;
    m->wrapper_ok = fatbin_wrapper_read(fatCubin, &m->fw, &err) == FATBIN_OK;
    if (!m->wrapper_ok) {
        RT_TRACE("register fatbin %p: bad wrapper: %s", fatCubin, err.message);
    } else if (rt_tracing()) {
        RT_TRACE("register fatbin %p: wrapper version %u", fatCubin, m->fw.version);
        rt_trace_container("image", m->fw.data);
        for (size_t i = 0; m->fw.prelinked && m->fw.prelinked[i]; i++)
            rt_trace_container("prelinked (relocatable, for JIT linking)", m->fw.prelinked[i]);
    }

    /* A fatbin of the main program is unregistered only at exit; one of a shared library may be
     * unregistered by dlclose while the program goes on, and then its records go. */
    m->in_program = rt_address_in_program(fatCubin);
    pthread_mutex_lock(&rt_registry_lock);
    m->next = rt_modules;
    rt_modules = m;
    pthread_mutex_unlock(&rt_registry_lock);
    /* From the first registration on, a context that starts loads what loads with it. */
    rt_device_set_init_hook(rt_module_load_at_init);
    rt_summary_set_census(rt_census);
    rt_early_init_start();        /* MINICUDART_EARLY_INIT: the first registration starts it */
    RT_RETURN_VALUE(handle);
}

RT_API void __cudaRegisterFatBinaryEnd(void **fatCubinHandle)
{
    RT_ENTER();
    rt_module *m = rt_module_of(fatCubinHandle);
    if (!m)
        RT_RETURN_VOID();
    /* With -rdc this follows the callbacks of every object of the link unit (PROTOCOL.md
     * section 4).  Nothing waits for it: each record is usable as soon as its call made it. */
    m->ended = true;
    size_t kernels = 0, vars = 0;
    for (rt_kernel *k = m->kernels; k; k = k->next)
        kernels++;
    for (rt_var *v = m->vars; v; v = v->next)
        vars++;
    RT_TRACE("register fatbin %p done: %zu kernels, %zu variables%s", m->wrapper, kernels, vars,
             m->has_managed ? " (managed: loads eagerly)" : "");
    RT_RETURN_VOID();
}

/* Points the table entries of m's kernels and variables at NULL, so that their host addresses
 * and handles answer "not registered" (under rt_registry_lock). */
static void rt_module_forget(rt_module *m)
{
    for (rt_kernel *k = m->kernels; k; k = k->next) {
        if (rt_table_get(&rt_kernels_by_ptr, k->host_fun) == k)
            rt_table_replace(&rt_kernels_by_ptr, k->host_fun, NULL);
        rt_table_replace(&rt_kernels_by_ptr, k, NULL);
    }
    for (rt_var *v = m->vars; v; v = v->next)
        if (rt_table_get(&rt_vars_by_ptr, v->host_var) == v)
            rt_table_replace(&rt_vars_by_ptr, v->host_var, NULL);
}

/* ---- the records of closed libraries ---------------------------------------------------------
 *
 * A library that registered kernels and was closed (dlclose) leaves its records behind: the
 * module, its kernels and variables, their per-device state and parameter layouts, about 1 KB
 * for a library with one kernel.  Kept for ever, they made a program that opens and closes such
 * a library in a loop grow by that much each time (measured on the H200: tests/gpu/soak_api.cu,
 * resident memory 127 -> 165 MB in 36,583 iterations of 5 minutes, where NVIDIA's runtime stayed
 * flat).  After rt_module_forget no table leads to them, and after rt_module_unload no module of
 * theirs is loaded; only a thread that looked one up just before the close (a launch racing the
 * dlclose: the program's bug, which must still not read freed memory at once) may hold one.  So
 * the records are freed late: the RT_RETIRED_KEEP most recently closed modules stay whole, and
 * each new one frees the oldest.  Handles a program kept (cudaKernel_t) are looked up through
 * the table, never dereferenced, so a freed kernel's handle is refused like any stale one. */
enum { RT_RETIRED_KEEP = 64 };
static rt_module *rt_retired[RT_RETIRED_KEEP];   /* under rt_registry_lock */
static size_t rt_retired_next;

static void rt_module_free(rt_module *m)
{
    for (rt_kernel *k = m->kernels, *next; k; k = next) {
        next = k->next;
        rt_kernel_forget_hook *forget = atomic_load_explicit(&rt_forget_hook,
                                                             memory_order_acquire);
        if (forget)
            forget(k);
        rt_kernel_dev *all = atomic_load(&k->dev);
        for (int slot = 0; all && slot < rt_slot_count; slot++) {
            free(all[slot].layout);
            free(all[slot].retired);
        }
        free(all);
        free(k);
    }
    for (rt_var *v = m->vars, *next; v; v = next) {
        next = v->next;
        free(v);
    }
    for (rt_host_var *h = m->host_vars, *next; h; h = next) {
        next = h->next;
        free(h);
    }
    for (int slot = 0; m->dev && slot < rt_slot_count; slot++)
        rt_module_dev_release(&m->dev[slot]);   /* empty after rt_module_unload */
    free(m->dev);
    free(m->handle);
    free(m);
}

/* Takes m, unregistered and unloaded, off the list of modules, and frees the records of the
 * module closed RT_RETIRED_KEEP closes before it. */
static void rt_module_retire(rt_module *m)
{
    pthread_mutex_lock(&rt_registry_lock);
    for (rt_module **p = &rt_modules; *p; p = &(*p)->next)
        if (*p == m) {
            *p = m->next;
            break;
        }
    rt_module *oldest = rt_retired[rt_retired_next];
    rt_retired[rt_retired_next] = m;
    rt_retired_next = (rt_retired_next + 1) % RT_RETIRED_KEEP;
    pthread_mutex_unlock(&rt_registry_lock);
    if (oldest)
        rt_module_free(oldest);
}

RT_API void __cudaUnregisterFatBinary(void **fatCubinHandle)
{
    RT_ENTER();
    /* Runs from atexit after main, or from dlclose of a library that registered (lifetime.c
     * says what each means).  At exit the records stay; a closed library's are freed late
     * (rt_module_retire). */
    rt_module *m = rt_module_of(fatCubinHandle);
    /* A second unregistration of the same handle finds the flag set and does nothing. */
    if (!m || atomic_exchange(&m->unregistered, true))
        RT_RETURN_VOID();
    pthread_mutex_lock(&rt_registry_lock);
    /* At exit the records stay as they are: static destructors that run between here and the
     * runtime's own exit handler still work, as with NVIDIA's runtime (lifetime.c). */
    bool exiting = m->in_program || atomic_load(&rt_unloading);
    bool unloaded = !exiting;
    if (unloaded) {
        atomic_store(&m->unloaded, true);   /* before the unload, which launches check */
        rt_module_forget(m);
    }
    pthread_mutex_unlock(&rt_registry_lock);
    RT_TRACE("unregister fatbin %p%s", m->wrapper,
             unloaded ? ": its library is unloaded" : exiting ? ": the process is exiting" : "");
    if (unloaded) {
        rt_module_unload(m);
        rt_module_retire(m);
    }
    RT_RETURN_VOID();
}

RT_API void __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun, char *deviceFun,
                                   const char *deviceName, int thread_limit, uint3 *tid,
                                   uint3 *bid, dim3 *bDim, dim3 *gDim, int *wSize)
{
    RT_ENTER();
    /* thread_limit (-1) and tid, bid, bDim, gDim, wSize (NULL) carry nothing in nvcc's output.
     * The name is not copied: it lives in the host image's read-only data, mapped for as long as
     * the fatbin is registered (a closed library unregisters before its image goes). */
    rt_module *m = rt_module_of(fatCubinHandle);
    const char *name = deviceName ? deviceName : deviceFun;
    if (!m || !hostFun || !name)
        RT_RETURN_VOID();
    rt_kernel *k = calloc(1, sizeof *k);
    if (!k)
        RT_RETURN_VOID();
    k->magic = RT_KERNEL_MAGIC;
    k->module = m;
    k->host_fun = hostFun;
    k->name = name;

    pthread_mutex_lock(&rt_registry_lock);
    /* -rdc registers a template's single host stub twice: keep the first -- unless the first
     * belongs to a module that was unregistered (its library was unloaded). */
    bool fresh = rt_table_put(&rt_kernels_by_ptr, hostFun, k);
    rt_kernel *old = fresh ? NULL : rt_table_get(&rt_kernels_by_ptr, hostFun);
    if (!fresh && (!old || atomic_load(&old->module->unregistered))) {
        rt_table_replace(&rt_kernels_by_ptr, hostFun, k);
        fresh = true;
    }
    if (fresh) {
        k->next = m->kernels;
        m->kernels = k;
    }
    pthread_mutex_unlock(&rt_registry_lock);
    if (fresh)
        RT_TRACE_LAZY("register kernel %s (host stub %p)", name, (const void *)hostFun);
    else
        free(k);
    RT_RETURN_VOID();
}

/* host_var is the key of the symbol APIs: the host shadow's address for a __device__ or
 * __constant__ variable, the address of the host pointer slot for a __managed__ one. */
static void rt_register_var(void **handle, const void *host_var, const char *name, size_t size,
                            bool constant, bool managed)
{
    rt_module *m = rt_module_of(handle);
    if (!m || !host_var || !name)
        return;
    rt_var *v = calloc(1, sizeof *v);
    if (!v)
        return;
    *v = (rt_var){ .module = m, .host_var = host_var, .name = name, .size = size,
                   .constant = constant, .managed = managed };
    pthread_mutex_lock(&rt_registry_lock);
    bool fresh = rt_table_put(&rt_vars_by_ptr, host_var, v);
    rt_var *old = fresh ? NULL : rt_table_get(&rt_vars_by_ptr, host_var);
    if (!fresh && (!old || atomic_load(&old->module->unregistered))) {   /* reloaded: see above */
        rt_table_replace(&rt_vars_by_ptr, host_var, v);
        fresh = true;
    }
    if (fresh) {
        v->next = m->vars;
        m->vars = v;
        m->has_managed |= managed;
    }
    pthread_mutex_unlock(&rt_registry_lock);
    if (fresh)
        RT_TRACE_LAZY("register %s variable %s, %zu bytes (host %p)",
                      managed ? "managed" : constant ? "constant" : "device", name, size,
                      host_var);
    else
        free(v);
}

RT_API void __cudaRegisterVar(void **fatCubinHandle, char *hostVar, char *deviceAddress,
                              const char *deviceName, int ext, size_t size, int constant,
                              int global)
{
    RT_ENTER();
    /* ext (1 for an extern declaration) and global (always 0) change nothing here: the driver
     * finds the variable by name in the loaded module, even a whole-program cubin's local one. */
    rt_register_var(fatCubinHandle, hostVar, deviceName ? deviceName : deviceAddress, size,
                    constant != 0, false);
    RT_RETURN_VOID();
}

RT_API void __cudaRegisterManagedVar(void **fatCubinHandle, void **hostVarPtrAddress,
                                     char *deviceAddress, const char *deviceName, int ext,
                                     size_t size, int constant, int global)
{
    RT_ENTER();
    /* hostVarPtrAddress is the address of the `static T *mvar` nvcc puts in the host object's
     * __nv_managed_data__ section: host code reaches the variable only through that pointer,
     * NULL until __cudaInitModule stores the unified address (PROTOCOL.md section 3.8).  Such a
     * module is loaded as each context starts (rt_module_load_one), not at its first launch. */
    rt_register_var(fatCubinHandle, hostVarPtrAddress, deviceName ? deviceName : deviceAddress,
                    size, constant != 0, true);
    RT_RETURN_VOID();
}

RT_API char __cudaInitModule(void **fatCubinHandle)
{
    RT_ENTER();
    /* Host code reaches a __managed__ variable only after this returned non-zero: it loads the
     * module and stores each managed variable's unified address into its host pointer slot.
     * cudafe turns each host access into a test of a per-translation-unit flag that calls this
     * while the flag is 0 and stores the answer in it, so 0 makes the test call again at the
     * next access.  It may be the process's first runtime call: rt_context_enter then loads
     * the driver and retains the device's primary context first. */
    rt_module *m = rt_module_of(fatCubinHandle);
    if (!m)
        RT_RETURN_VALUE(1);     /* nothing to initialise: NVIDIA's runtime answers 1 too (H200) */
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e == cudaSuccess)
        e = rt_module_ensure(m, d, NULL);
    if (e != cudaSuccess)
        rt_error_record(e);
    RT_RETURN_VALUE(e == cudaSuccess);
}

/* ---- the two registrations nvcc 13.0 never emits --------------------------------------------
 *
 * Both are exported by NVIDIA's libcudart.so.13 with no declaration in the headers; no nvcc
 * output and no toolkit library calls them.  What they do was read from NVIDIA's runtime and
 * measured on the H200 (tests/gpu/conf_hidden.cu):
 *
 * __cudaRegisterHostVar(handle, deviceName, hostVar, size) names a host variable that the
 * module's device code references as an extern symbol.  At load the runtime hands every such
 * pair to the driver as CU_JIT_GLOBAL_SYMBOL_NAMES / _ADDRESSES / _COUNT, and the driver
 * relocates the symbol to the host address.  A name the image lacks is ignored; a name that is
 * an ordinary (non-extern) variable of the image makes the load fail with
 * CUDA_ERROR_INVALID_VALUE ("not extern in the device image"), which the first launch reports.
 * The host variable is not a symbol for cudaMemcpyToSymbol and friends (cudaErrorInvalidSymbol).
 *
 * __cudaRegisterUnifiedTable(handle, functionTable, functionWindowSize, dataTable,
 * dataWindowSize) gives the module a CUlibraryHostUniversalFunctionAndDataTable: the runtime
 * then loads it with cuLibraryLoadData and the CU_LIBRARY_HOST_UNIVERSAL_FUNCTION_AND_DATA_TABLE
 * option, and the driver judges the image against it (an ordinary image: CUDA_ERROR_INVALID_IMAGE).
 *
 * With a NULL handle NVIDIA's runtime marks itself failed (every later call answers
 * cudaErrorInitializationError); minicudart ignores such a call, as it ignores every other
 * registration with a NULL handle. */
RT_API void __cudaRegisterHostVar(void **fatCubinHandle, const char *deviceName, char *hostVar,
                                  size_t size)
{
    RT_ENTER();
    rt_module *m = rt_module_of(fatCubinHandle);
    if (!m || !deviceName || !hostVar) {
        RT_TRACE("register host variable %s: no module or name: ignored",
                 deviceName ? deviceName : "(null)");
        RT_RETURN_VOID();
    }
    rt_host_var *h = calloc(1, sizeof *h);
    if (!h)
        RT_RETURN_VOID();
    h->name = deviceName;
    h->address = hostVar;
    pthread_mutex_lock(&rt_registry_lock);
    h->next = m->host_vars;
    m->host_vars = h;
    m->host_var_count++;
    pthread_mutex_unlock(&rt_registry_lock);
    RT_TRACE("register host variable %s at %p, %zu bytes: relocated by the loader", deviceName,
             (void *)hostVar, size);
    RT_RETURN_VOID();
}

RT_API void __cudaRegisterUnifiedTable(void **fatCubinHandle, void *functionTable,
                                       size_t functionWindowSize, void *dataTable,
                                       size_t dataWindowSize)
{
    RT_ENTER();
    rt_module *m = rt_module_of(fatCubinHandle);
    if (!m) {
        RT_TRACE("register unified table: no module: ignored");
        RT_RETURN_VOID();
    }
    pthread_mutex_lock(&rt_registry_lock);
    m->table = (CUlibraryHostUniversalFunctionAndDataTable){
        .functionTable = functionTable, .functionWindowSize = functionWindowSize,
        .dataTable = dataTable, .dataWindowSize = dataWindowSize };
    m->has_table = true;
    pthread_mutex_unlock(&rt_registry_lock);
    RT_TRACE("register unified table for fatbin %p: functions %p (+%zu), data %p (+%zu): loads "
             "with cuLibraryLoadData", m->wrapper, functionTable, functionWindowSize, dataTable,
             dataWindowSize);
    RT_RETURN_VOID();
}
