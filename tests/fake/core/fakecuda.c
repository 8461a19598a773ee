/*
 * fakecuda.c - a fake CUDA driver for tests: every entry point of lib/core/driver_api.def, on host
 * memory, reached only through cuGetProcAddress_v2 (like the runtime reaches the real one).
 *
 * What it models, and how strictly:
 *   - cuInit must succeed before anything else (CUDA_ERROR_NOT_INITIALIZED); its result, the
 *     device count and the SM come from the environment or the fake_set_* setters.
 *   - The driver's version (FAKECUDA_DRIVER_VERSION, default 13000: the H200's driver 580):
 *     cuDriverGetVersion answers it, and cuGetProcAddress hands out only entries of that driver
 *     or older (the 13.1-13.5 ones are not found at 13000; 13050 models a 13.5 driver).
 *   - Primary contexts: one per device, retained/released/reset; calls that need a context fail
 *     with CUDA_ERROR_INVALID_CONTEXT when none is current or it is not active (e.g. after a
 *     reset, until it is retained again).  A reset frees the context's allocations and kills its
 *     modules (their handles then give CUDA_ERROR_INVALID_HANDLE).
 *   - Sticky errors: an injected sticky code poisons the current context; every later context
 *     call returns it until the context is reset.  The device stays lost for the process, as
 *     measured on an H200 (driver 580): after cuDevicePrimaryCtxReset, cuDevicePrimaryCtxRetain
 *     returns the sticky code again.
 *   - Memory: device pointers are 256-byte aligned host pointers in a table.
 *   - Modules: cubins (ET_EXEC only, SM must match: same major, minor <= the device's, else
 *     CUDA_ERROR_NO_BINARY_FOR_GPU) and PTX (.target must not exceed the device's SM, else
 *     CUDA_ERROR_INVALID_PTX), parsed by fake_image.c.
 *   - Launches are validated like the driver, recorded with their packed parameters, and run by
 *     a registered host implementation of the kernel, if any.
 * Every call is logged (name, arguments, result).  One mutex guards everything; host kernels run
 * outside it.
 *
 * This file holds the shared machinery: the call log and failure injection, the common checks
 * (current context, handles, allocations, retired memory, context teardown), the few basic memory
 * entry points (cuMemAlloc, cuMemAllocManaged, cuMemFree, cuMemcpy, cuMemsetD8),
 * cuGetProcAddress over every area's table, the test API of fakecuda.h, and the environment read
 * at load and the log written at exit.  The entry points live in the area files fake_<area>.c:
 * fake_device.c (initialisation, devices, primary contexts), fake_module.c (modules, launches),
 * fake_memory.c, fake_stream.c and the rest (fake_internal.h lists them).
 *
 * Under ThreadSanitizer the fake is no synchronisation to the runtime: its mutex would order
 * every two runtime calls on different threads (each goes through the driver) and hide the
 * runtime's own races.  A real driver promises no such order, so entry points ignore their
 * synchronisation and their memory accesses (fake_enter to fake_leave).
 */
#define _GNU_SOURCE
#include "fakecuda.h"
#include "fake_internal.h"

#include <cuda.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#undef cuGetProcAddress

#define FAKE_EXPORT __attribute__((visibility("default")))

fake_state fake_g = {.lock = PTHREAD_MUTEX_INITIALIZER, .device_count = 1, .sm = 90,
                     .sm_count = FAKE_SM_COUNT, .driver_version = FAKE_DRIVER_VERSION,
                     .init_result = FAKE_INIT_AUTO};

static _Thread_local fake_ctx *tls_ctx;
static _Thread_local fake_call *tls_call;

#if defined(__SANITIZE_THREAD__)
/* ThreadSanitizer's dynamic annotations (its runtime defines them). */
void AnnotateIgnoreSyncBegin(const char *file, int line);
void AnnotateIgnoreSyncEnd(const char *file, int line);
void AnnotateIgnoreReadsBegin(const char *file, int line);
void AnnotateIgnoreReadsEnd(const char *file, int line);
void AnnotateIgnoreWritesBegin(const char *file, int line);
void AnnotateIgnoreWritesEnd(const char *file, int line);

static void unseen_begin(void)
{
    AnnotateIgnoreSyncBegin(__FILE__, __LINE__);
    AnnotateIgnoreReadsBegin(__FILE__, __LINE__);
    AnnotateIgnoreWritesBegin(__FILE__, __LINE__);
}

static void unseen_end(void)
{
    AnnotateIgnoreWritesEnd(__FILE__, __LINE__);
    AnnotateIgnoreReadsEnd(__FILE__, __LINE__);
    AnnotateIgnoreSyncEnd(__FILE__, __LINE__);
}
#else
static void unseen_begin(void) {}
static void unseen_end(void) {}
#endif

int fake_vec_push(ptr_vec *v, void *item)
{
    if (v->count == v->cap) {
        size_t cap = v->cap ? 2 * v->cap : 64;
        void **items = realloc(v->items, cap * sizeof *items);
        if (!items)
            return -1;
        v->items = items;
        v->cap = cap;
    }
    v->items[v->count++] = item;
    return 0;
}

void fake_vec_remove(ptr_vec *v, size_t index)
{
    memmove(&v->items[index], &v->items[index + 1], (v->count - index - 1) * sizeof *v->items);
    v->count--;
}

int fake_is_sticky(CUresult code)
{
    switch ((int)code) {
    case 700: case 702: case 710: case 714: case 715: case 716: case 717: case 718: case 719:
    case 721:
        return 1;
    default:
        return 0;
    }
}

/* ---- call log and failure injection --------------------------------------------------------- */

/* Every entry point starts here: takes the lock, logs the call, and applies an injected failure
 * (returned instead of CUDA_SUCCESS).  Must be paired with fake_leave(). */
__attribute__((format(printf, 2, 3)))
CUresult fake_enter(const char *name, const char *fmt, ...)
{
    unseen_begin();
    pthread_mutex_lock(&fake_g.lock);
    fake_call *call = calloc(1, sizeof *call);
    if (call) {
        snprintf(call->name, sizeof call->name, "%s", name);
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(call->args, sizeof call->args, fmt, ap);
        va_end(ap);
        if (fake_vec_push(&fake_g.calls, call) != 0) {
            free(call);
            call = NULL;
        }
    }
    tls_call = call;
    for (size_t i = 0; i < fake_g.failures.count; i++) {
        fake_failure *f = fake_g.failures.items[i];
        if (strcmp(f->name, name) != 0 || --f->remaining != 0)
            continue;
        CUresult code = f->code;
        fake_vec_remove(&fake_g.failures, i);
        free(f);
        if (fake_is_sticky(code) && tls_ctx && fake_ctx_live(tls_ctx))
            fake_ctx_base(tls_ctx)->poison = code;
        return code;
    }
    return CUDA_SUCCESS;
}

fake_call *fake_current_call(void)
{
    return tls_call;
}

CUresult fake_leave(CUresult rc)
{
    if (tls_call)
        tls_call->result = rc;
    tls_call = NULL;
    pthread_mutex_unlock(&fake_g.lock);
    unseen_end();
    return rc;
}

fake_call *fake_suspend_call(void)
{
    fake_call *call = tls_call;
    tls_call = NULL;
    fake_unlock();
    return call;
}

/* The entry may have gone meanwhile (a callback that called fake_reset_log): then the call's
 * result is not recorded, rather than written into freed memory. */
void fake_resume_call(fake_call *call)
{
    fake_lock();
    tls_call = NULL;
    for (size_t i = fake_g.calls.count; call && i-- > 0;)
        if (fake_g.calls.items[i] == call) {
            tls_call = call;
            break;
        }
}

void fake_lock(void)
{
    unseen_begin();
    pthread_mutex_lock(&fake_g.lock);
}

void fake_unlock(void)
{
    pthread_mutex_unlock(&fake_g.lock);
    unseen_end();
}

static void add_failure(const char *name, unsigned nth, CUresult code)
{
    fake_failure *f = calloc(1, sizeof *f);
    if (!f || nth == 0) {
        free(f);
        return;
    }
    snprintf(f->name, sizeof f->name, "%s", name);
    f->remaining = nth;
    f->code = code;
    if (fake_vec_push(&fake_g.failures, f) != 0)
        free(f);
}

/* ---- common checks -------------------------------------------------------------------------- */

fake_ctx *fake_current_ctx(void)
{
    return tls_ctx;
}

void fake_set_current_ctx(fake_ctx *ctx)
{
    tls_ctx = ctx;
}

fake_ctx *fake_ctx_base(fake_ctx *ctx)
{
    return ctx && ctx->primary ? ctx->primary : ctx;
}

int fake_ctx_live(const fake_ctx *ctx)
{
    return ctx->active && (!ctx->primary || ctx->primary->active);
}

CUresult fake_need_init(void)
{
    return fake_g.initialized ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;
}

CUresult fake_need_device(CUdevice dev)
{
    CUresult rc = fake_need_init();
    if (rc == CUDA_SUCCESS && (dev < 0 || dev >= fake_g.device_count))
        rc = CUDA_ERROR_INVALID_DEVICE;
    return rc;
}

/* The current, active, healthy context, or the error a driver call would return.  A green
 * context's CUcontext is healthy when its primary context is: the sticky state is the device's. */
CUresult fake_need_ctx(fake_ctx **out)
{
    CUresult rc = fake_need_init();
    if (rc != CUDA_SUCCESS)
        return rc;
    if (!tls_ctx || !fake_ctx_live(tls_ctx))
        return CUDA_ERROR_INVALID_CONTEXT;
    if (fake_ctx_base(tls_ctx)->poison != CUDA_SUCCESS)
        return fake_ctx_base(tls_ctx)->poison;
    if (out)
        *out = tls_ctx;
    return CUDA_SUCCESS;
}

fake_module *fake_find_module(CUmodule handle)
{
    for (size_t i = 0; i < fake_g.modules.count; i++)
        if (fake_g.modules.items[i] == (void *)handle)
            return fake_g.modules.items[i];
    return NULL;
}

fake_kernel *fake_find_kernel(CUfunction handle)
{
    for (size_t i = 0; i < fake_g.modules.count; i++) {
        fake_module *m = fake_g.modules.items[i];
        if (m->kernel_count && (fake_kernel *)handle >= m->kernels &&
            (fake_kernel *)handle < m->kernels + m->kernel_count)
            return (fake_kernel *)handle;
    }
    return NULL;
}

fake_alloc *fake_find_alloc(const void *ptr, size_t *index)
{
    for (size_t i = 0; i < fake_g.allocs.count; i++) {
        fake_alloc *a = fake_g.allocs.items[i];
        if (a->ptr == ptr) {
            if (index)
                *index = i;
            return a;
        }
    }
    return NULL;
}

/*
 * Freed device memory stays reserved, as a freed range of the driver's address space does: the
 * block is kept (not returned to the heap) so that its addresses are not handed out again, and
 * copies that touch it fail with CUDA_ERROR_INVALID_VALUE instead of reading freed host memory.
 * Only the last FAKE_RETIRE_KEEP blocks of at most FAKE_RETIRE_MAX bytes are kept (the tests'
 * stale pointers are recent, and small); older and larger ones are really freed.
 */
#define FAKE_RETIRE_MAX ((size_t)1 << 20)
#define FAKE_RETIRE_KEEP 256

static ptr_vec retired;

void fake_alloc_drop(fake_alloc *a)
{
    fake_residency_free(a);
    if (a->release)
        a->release(a);
    else
        fake_block_release(a);      /* plain heap, or an IPC memfd mapping (fake_ipc.c) */
    free(a);
}

static void retire(fake_alloc *a)
{
    fake_residency_free(a);
    if (a->release) {             /* not ours: nothing to keep reserved */
        fake_alloc_drop(a);
        return;
    }
    if (retired.count == FAKE_RETIRE_KEEP) {
        fake_alloc *oldest = retired.items[0];
        fake_vec_remove(&retired, 0);
        fake_block_release(oldest);
        free(oldest);
    }
    if (a->size > FAKE_RETIRE_MAX || fake_vec_push(&retired, a) != 0) {
        fake_block_release(a);
        free(a);
    }
}

int fake_is_retired(const void *p, size_t n)
{
    uintptr_t first = (uintptr_t)p, end = first + (n ? n : 1);
    for (size_t i = 0; i < retired.count; i++) {
        fake_alloc *a = retired.items[i];
        uintptr_t start = (uintptr_t)a->ptr;
        if (first < start + a->size && end > start)
            return 1;
    }
    return 0;
}

/* Whether [p, p+n) lies inside one allocation, one graph allocation or one module global. */
int fake_is_device_range(const unsigned char *p, size_t n)
{
    if (fake_gmem_contains(p, n))
        return 1;
    for (size_t i = 0; i < fake_g.allocs.count; i++) {
        fake_alloc *a = fake_g.allocs.items[i];
        if (p >= a->ptr && p <= a->ptr + a->size && n <= (size_t)(a->ptr + a->size - p))
            return 1;
    }
    for (size_t i = 0; i < fake_g.modules.count; i++) {
        fake_module *m = fake_g.modules.items[i];
        for (unsigned j = 0; j < m->global_count; j++) {
            fake_global *gl = &m->globals[j];
            if (p >= gl->storage && p <= gl->storage + gl->size &&
                n <= (size_t)(gl->storage + gl->size - p))
                return 1;
        }
    }
    return 0;
}

/* Destroys a primary context's resources (reset, or last release). */
void fake_ctx_destroy(fake_ctx *ctx)
{
    for (size_t i = fake_g.allocs.count; i-- > 0;) {
        fake_alloc *a = fake_g.allocs.items[i];
        if (a->ctx != ctx)
            continue;
        retire(a);
        fake_vec_remove(&fake_g.allocs, i);
    }
    for (size_t i = 0; i < fake_g.modules.count; i++) {
        fake_module *m = fake_g.modules.items[i];
        if (m->ctx == ctx)
            m->dead = 1;
    }
    fake_green_primary_gone(ctx);
    ctx->active = 0;
    if (ctx->poison != CUDA_SUCCESS)
        ctx->lost = ctx->poison;
    ctx->poison = CUDA_SUCCESS;
}

/* ---- memory --------------------------------------------------------------------------------- */

CUresult fake_mem_alloc(CUdeviceptr *dptr, size_t bytes, int managed)
{
    fake_ctx *ctx = NULL;
    CUresult rc = fake_need_ctx(&ctx);
    if (rc != CUDA_SUCCESS)
        return rc;
    if (!dptr || bytes == 0)
        return CUDA_ERROR_INVALID_VALUE;
    fake_alloc *a = calloc(1, sizeof *a);
    if (a && (managed || fake_ipc_block(a, bytes) != 0))
        a->ptr = bytes < ((size_t)1 << 36) ? fake_aligned_alloc(bytes) : NULL;
    if (!a || !a->ptr || fake_vec_push(&fake_g.allocs, a) != 0) {
        if (a)
            fake_block_release(a);
        free(a);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    a->size = bytes;
    a->managed = managed;
    a->ctx = fake_ctx_base(ctx);       /* a green context allocates in its primary's memory */
    *dptr = (CUdeviceptr)(uintptr_t)a->ptr;
    return CUDA_SUCCESS;
}

static CUresult CUDAAPI f_cuMemAlloc(CUdeviceptr *dptr, size_t bytes)
{
    CUresult rc = fake_enter("cuMemAlloc", "bytesize=%zu", bytes);
    if (rc == CUDA_SUCCESS)
        rc = fake_mem_alloc(dptr, bytes, 0);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuMemAllocManaged(CUdeviceptr *dptr, size_t bytes, unsigned int flags)
{
    CUresult rc = fake_enter("cuMemAllocManaged", "bytesize=%zu flags=0x%x", bytes, flags);
    if (rc == CUDA_SUCCESS && flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = fake_mem_alloc(dptr, bytes, 1);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuMemFree(CUdeviceptr dptr)
{
    CUresult rc = fake_enter("cuMemFree", "dptr=0x%llx", (unsigned long long)dptr);
    size_t index = 0;
    fake_alloc *a = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && (!(a = fake_find_alloc((void *)(uintptr_t)dptr, &index)) ||
                               a->ipc_opened))
        rc = CUDA_ERROR_INVALID_VALUE;      /* an IPC mapping is closed, not freed */
    if (rc == CUDA_SUCCESS) {
        retire(a);
        fake_vec_remove(&fake_g.allocs, index);
    }
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t bytes)
{
    CUresult rc = fake_enter("cuMemcpy", "dst=0x%llx src=0x%llx bytes=%zu", (unsigned long long)dst,
                        (unsigned long long)src, bytes);
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && bytes &&
        (!dst || !src || fake_is_retired((void *)(uintptr_t)dst, bytes) ||
         fake_is_retired((void *)(uintptr_t)src, bytes)))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && bytes)
        memmove((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, bytes);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuMemsetD8(CUdeviceptr dst, unsigned char value, size_t count)
{
    CUresult rc = fake_enter("cuMemsetD8", "dst=0x%llx value=0x%02x count=%zu",
                        (unsigned long long)dst, value, count);
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && !fake_is_device_range((const unsigned char *)(uintptr_t)dst, count))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        memset((void *)(uintptr_t)dst, value, count);
    return fake_leave(rc);
}

/* ---- cuGetProcAddress ----------------------------------------------------------------------- */

/* The basic memory entry points above; the other areas' tables are in their files. */
static const proc_entry procs[] = {
    {"cuMemAlloc", 3020, 99999, (void *)f_cuMemAlloc},
    {"cuMemFree", 3020, 99999, (void *)f_cuMemFree},
    {"cuMemAllocManaged", 6000, 99999, (void *)f_cuMemAllocManaged},
    {"cuMemcpy", 4000, 99999, (void *)f_cuMemcpy},
    {"cuMemsetD8", 3020, 99999, (void *)f_cuMemsetD8},
    {NULL, 0, 0, NULL},
};

/* FAKECUDA_HIDE="name[,name...]": entry points cuGetProcAddress reports as not found, as an
 * older driver would (for the runtime's optional ones). */
static int fake_hidden(const char *symbol)
{
    const char *list = getenv("FAKECUDA_HIDE");
    size_t n = strlen(symbol);
    for (const char *p = list; p && *p; p += strcspn(p, ","), p += *p == ',') {
        if (strncmp(p, symbol, n) == 0 && (p[n] == ',' || p[n] == 0))
            return 1;
    }
    return 0;
}

FAKE_EXPORT CUresult CUDAAPI cuGetProcAddress_v2(const char *symbol, void **pfn, int version,
                                                 cuuint64_t flags,
                                                 CUdriverProcAddressQueryResult *status)
{
    CUresult rc = fake_enter("cuGetProcAddress_v2", "symbol=%s version=%d flags=%llu",
                        symbol ? symbol : "(null)", version, (unsigned long long)flags);
    /* Asking for a version above the driver's is CUDA_ERROR_INVALID_VALUE (13.0 cuda.h). */
    if (rc == CUDA_SUCCESS && (!symbol || !pfn || version > fake_g.driver_version || flags > 2))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc != CUDA_SUCCESS)
        return fake_leave(rc);
    CUdriverProcAddressQueryResult found = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    *pfn = NULL;
    /* Where a name is in more than one table, the last match for `version` wins. */
    const proc_entry *const tables[] = { fake_procs_device, fake_procs_module, procs,
                                         fake_procs_stream, fake_procs_memory,
                                         fake_procs_array, fake_procs_function, fake_procs_graph,
                                         fake_procs_graph_node, fake_procs_graph_objects,
                                         fake_procs_graph_exec,
                                         fake_procs_capture, fake_procs_mempool,
                                         fake_procs_query, fake_procs_notify,
                                         fake_procs_array_props, fake_procs_batch,
                                         fake_procs_library, fake_procs_link,
                                         fake_procs_graphics, fake_procs_graphics_egl,
                                         fake_procs_external, fake_procs_ipc,
                                         fake_procs_resource, fake_procs_green,
                                         fake_procs_graph_info, fake_procs_residency };
    for (size_t t = 0; t < sizeof tables / sizeof *tables; t++) {
        for (const proc_entry *p = tables[t]; p->name; p++) {
            /* An entry newer than the modelled driver does not exist there at all: not found,
             * as driver 580 answers for the names of 13.1-13.5 (not VERSION_NOT_SUFFICIENT). */
            if (strcmp(p->name, symbol) != 0 || fake_hidden(symbol) ||
                p->since > fake_g.driver_version)
                continue;
            if (version < p->since) {
                if (found == CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND)
                    found = CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT;
            } else if (version <= p->until) {
                *pfn = p->fn;
                found = CU_GET_PROC_ADDRESS_SUCCESS;
            }
        }
    }
    if (status)
        *status = found;
    return fake_leave(CUDA_SUCCESS);
}

/* The CUDA 11.3 signature, for completeness (cuda.h maps the name to _v2 since 12.0). */
FAKE_EXPORT CUresult CUDAAPI cuGetProcAddress(const char *symbol, void **pfn, int version,
                                              cuuint64_t flags);
FAKE_EXPORT CUresult CUDAAPI cuGetProcAddress(const char *symbol, void **pfn, int version,
                                              cuuint64_t flags)
{
    return cuGetProcAddress_v2(symbol, pfn, version, flags, NULL);
}

/* ---- the test API (fakecuda.h) -------------------------------------------------------------- */

FAKE_EXPORT uintptr_t fake_create_context(int device)
{
    pthread_mutex_lock(&fake_g.lock);
    fake_ctx *c = NULL;
    if (device >= 0 && device < fake_g.device_count && fake_g.extra_count < FAKE_EXTRA_CONTEXTS) {
        c = &fake_g.extra[fake_g.extra_count++];
        *c = (fake_ctx){ .device = device, .refcount = 1, .active = 1,
                         .id = ++fake_g.next_ctx_id };
    }
    pthread_mutex_unlock(&fake_g.lock);
    return (uintptr_t)c;
}

FAKE_EXPORT void fake_poison_context(int device, int code)
{
    pthread_mutex_lock(&fake_g.lock);
    if (device >= 0 && device < fake_g.device_count && fake_g.ctx[device].active &&
        fake_is_sticky((CUresult)code))
        fake_g.ctx[device].poison = (CUresult)code;
    pthread_mutex_unlock(&fake_g.lock);
}

FAKE_EXPORT size_t fake_call_count(void)
{
    pthread_mutex_lock(&fake_g.lock);
    size_t n = fake_g.calls.count;
    pthread_mutex_unlock(&fake_g.lock);
    return n;
}

FAKE_EXPORT const fake_call *fake_call_at(size_t index)
{
    pthread_mutex_lock(&fake_g.lock);
    const fake_call *c = index < fake_g.calls.count ? fake_g.calls.items[index] : NULL;
    pthread_mutex_unlock(&fake_g.lock);
    return c;
}

FAKE_EXPORT size_t fake_count_calls(const char *name)
{
    size_t n = 0;
    pthread_mutex_lock(&fake_g.lock);
    for (size_t i = 0; i < fake_g.calls.count; i++)
        n += strcmp(((fake_call *)fake_g.calls.items[i])->name, name) == 0;
    pthread_mutex_unlock(&fake_g.lock);
    return n;
}

FAKE_EXPORT size_t fake_launch_count(void)
{
    pthread_mutex_lock(&fake_g.lock);
    size_t n = fake_g.launches.count;
    pthread_mutex_unlock(&fake_g.lock);
    return n;
}

FAKE_EXPORT const fake_launch *fake_launch_at(size_t index)
{
    pthread_mutex_lock(&fake_g.lock);
    const fake_launch *l = index < fake_g.launches.count ? fake_g.launches.items[index] : NULL;
    pthread_mutex_unlock(&fake_g.lock);
    return l;
}

FAKE_EXPORT const fake_launch *fake_last_launch(void)
{
    pthread_mutex_lock(&fake_g.lock);
    const fake_launch *l = fake_g.launches.count ? fake_g.launches.items[fake_g.launches.count - 1] : NULL;
    pthread_mutex_unlock(&fake_g.lock);
    return l;
}

FAKE_EXPORT void fake_reset_log(void)
{
    pthread_mutex_lock(&fake_g.lock);
    for (size_t i = 0; i < fake_g.calls.count; i++)
        free(fake_g.calls.items[i]);
    for (size_t i = 0; i < fake_g.launches.count; i++) {
        fake_launch *l = fake_g.launches.items[i];
        free(l->params);
        free(l);
    }
    fake_g.calls.count = fake_g.launches.count = 0;
    pthread_mutex_unlock(&fake_g.lock);
}

FAKE_EXPORT void fake_fail_call(const char *name, unsigned nth, int code)
{
    pthread_mutex_lock(&fake_g.lock);
    add_failure(name, nth, (CUresult)code);
    pthread_mutex_unlock(&fake_g.lock);
}

FAKE_EXPORT void fake_register_host_kernel(const char *name, fake_host_kernel fn)
{
    fake_host_impl *h = calloc(1, sizeof *h);
    if (!h)
        return;
    snprintf(h->name, sizeof h->name, "%s", name);
    h->fn = fn;
    pthread_mutex_lock(&fake_g.lock);
    if (fake_vec_push(&fake_g.host_kernels, h) != 0)
        free(h);
    pthread_mutex_unlock(&fake_g.lock);
}

FAKE_EXPORT void fake_set_device_count(int count)
{
    pthread_mutex_lock(&fake_g.lock);
    fake_g.device_count = count < 0 ? 0 : count > FAKE_MAX_DEVICES ? FAKE_MAX_DEVICES : count;
    pthread_mutex_unlock(&fake_g.lock);
}

FAKE_EXPORT void fake_set_sm(unsigned sm)
{
    pthread_mutex_lock(&fake_g.lock);
    fake_g.sm = sm;
    pthread_mutex_unlock(&fake_g.lock);
}

FAKE_EXPORT void fake_set_init_result(int code)
{
    pthread_mutex_lock(&fake_g.lock);
    fake_g.init_result = (CUresult)code;
    pthread_mutex_unlock(&fake_g.lock);
}

FAKE_EXPORT void *fake_global_storage(const char *name, size_t *size)
{
    void *found = NULL;
    pthread_mutex_lock(&fake_g.lock);
    for (size_t i = 0; i < fake_g.modules.count && !found; i++) {
        fake_module *m = fake_g.modules.items[i];
        for (unsigned j = 0; j < m->global_count && !found; j++)
            if (!m->dead && strcmp(m->globals[j].name, name) == 0) {
                found = m->globals[j].storage;
                if (size)
                    *size = m->globals[j].size;
            }
    }
    pthread_mutex_unlock(&fake_g.lock);
    return found;
}

FAKE_EXPORT int fake_module_has_kernel(uintptr_t module, const char *name)
{
    int has = 0;
    pthread_mutex_lock(&fake_g.lock);
    fake_module *m = fake_find_module((CUmodule)module);
    for (unsigned i = 0; m && i < m->kernel_count; i++)
        has |= strcmp(m->kernels[i].name, name) == 0;
    pthread_mutex_unlock(&fake_g.lock);
    return has;
}

FAKE_EXPORT size_t fake_live_allocations(void)
{
    pthread_mutex_lock(&fake_g.lock);
    size_t n = fake_g.allocs.count;
    pthread_mutex_unlock(&fake_g.lock);
    return n;
}

FAKE_EXPORT void fake_dump_log(void *file)
{
    FILE *out = file ? file : stderr;
    pthread_mutex_lock(&fake_g.lock);
    for (size_t i = 0; i < fake_g.calls.count; i++) {
        const fake_call *c = fake_g.calls.items[i];
        fprintf(out, "fakecuda: %s(%s) = %d\n", c->name, c->args, c->result);
    }
    pthread_mutex_unlock(&fake_g.lock);
}

/* ---- environment, load and exit ------------------------------------------------------------- */

/* FAKECUDA_FAIL="name:nth:code[,name:nth:code...]" */
static void parse_fail_env(const char *spec)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", spec);
    char *save = NULL;
    for (char *item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        char *colon1 = strchr(item, ':');
        char *colon2 = colon1 ? strchr(colon1 + 1, ':') : NULL;
        if (!colon2)
            continue;
        *colon1 = 0;
        add_failure(item, (unsigned)strtoul(colon1 + 1, NULL, 10),
                    (CUresult)strtol(colon2 + 1, NULL, 10));
    }
}

__attribute__((constructor)) static void fake_load(void)
{
    const char *v;
    if ((v = getenv("FAKECUDA_DEVICES")) && *v)
        fake_set_device_count(atoi(v));
    if ((v = getenv("FAKECUDA_SM")) && *v)
        fake_g.sm = (unsigned)strtoul(v, NULL, 10);
    if ((v = getenv("FAKECUDA_SMS")) && *v)
        fake_g.sm_count = (unsigned)strtoul(v, NULL, 10);
    if ((v = getenv("FAKECUDA_DRIVER_VERSION")) && *v)
        fake_g.driver_version = (int)strtol(v, NULL, 10);
    if ((v = getenv("FAKECUDA_INIT_RESULT")) && *v)
        fake_g.init_result = (CUresult)strtol(v, NULL, 10);
    if ((v = getenv("FAKECUDA_FAIL")) && *v)
        parse_fail_env(v);
    if ((v = getenv("FAKECUDA_LOG")) && *v)
        snprintf(fake_g.log_path, sizeof fake_g.log_path, "%s", v);
}

__attribute__((destructor)) static void fake_unload(void)
{
    if (!fake_g.log_path[0])
        return;
    FILE *f = fopen(fake_g.log_path, "w");
    if (f) {
        fake_dump_log(f);
        fclose(f);
    }
}
