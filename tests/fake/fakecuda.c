/*
 * fakecuda.c - a fake CUDA driver for tests: every entry point of lib/driver_api.def, on host
 * memory, reached only through cuGetProcAddress_v2 (like the runtime reaches the real one).
 *
 * What it models, and how strictly:
 *   - cuInit must succeed before anything else (CUDA_ERROR_NOT_INITIALIZED); its result, the
 *     device count and the SM come from the environment or the fake_set_* setters.
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
#define FAKE_DRIVER_VERSION 13000

fake_state fake_g = {.lock = PTHREAD_MUTEX_INITIALIZER, .device_count = 1, .sm = 90,
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
        if (fake_is_sticky(code) && tls_ctx && tls_ctx->active)
            tls_ctx->poison = code;
        return code;
    }
    return CUDA_SUCCESS;
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

/* The current, active, healthy context, or the error a driver call would return. */
CUresult fake_need_ctx(fake_ctx **out)
{
    CUresult rc = fake_need_init();
    if (rc != CUDA_SUCCESS)
        return rc;
    if (!tls_ctx || !tls_ctx->active)
        return CUDA_ERROR_INVALID_CONTEXT;
    if (tls_ctx->poison != CUDA_SUCCESS)
        return tls_ctx->poison;
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
    if (a->release)
        a->release(a);
    else
        fake_block_release(a);      /* plain heap, or an IPC memfd mapping (fake_ipc.c) */
    free(a);
}

static void retire(fake_alloc *a)
{
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
static void ctx_destroy(fake_ctx *ctx)
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
    ctx->active = 0;
    if (ctx->poison != CUDA_SUCCESS)
        ctx->lost = ctx->poison;
    ctx->poison = CUDA_SUCCESS;
}

/* ---- initialisation and devices ------------------------------------------------------------- */

static CUresult CUDAAPI f_cuInit(unsigned int flags)
{
    CUresult rc = fake_enter("cuInit", "flags=%u", flags);
    if (rc == CUDA_SUCCESS && flags != 0)
        rc = CUDA_ERROR_INVALID_VALUE;
    /* Like the real driver, no devices means NO_DEVICE, unless a result was set explicitly
     * (FAKECUDA_INIT_RESULT=0 with FAKECUDA_DEVICES=0 reaches the runtime's count-0 path). */
    if (rc == CUDA_SUCCESS)
        rc = fake_g.init_result != FAKE_INIT_AUTO ? fake_g.init_result
             : fake_g.device_count == 0 ? CUDA_ERROR_NO_DEVICE : CUDA_SUCCESS;
    if (rc == CUDA_SUCCESS)
        fake_g.initialized = 1;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuDriverGetVersion(int *version)
{
    CUresult rc = fake_enter("cuDriverGetVersion", "%s", "");
    if (rc == CUDA_SUCCESS && !version)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        *version = FAKE_DRIVER_VERSION;
    return fake_leave(rc);
}

#define FAKE_ERROR_NAMES(X)                                                                     \
    X(CUDA_SUCCESS) X(CUDA_ERROR_INVALID_VALUE) X(CUDA_ERROR_OUT_OF_MEMORY)                     \
    X(CUDA_ERROR_NOT_INITIALIZED) X(CUDA_ERROR_DEINITIALIZED) X(CUDA_ERROR_NO_DEVICE)           \
    X(CUDA_ERROR_INVALID_DEVICE) X(CUDA_ERROR_INVALID_IMAGE) X(CUDA_ERROR_INVALID_CONTEXT)      \
    X(CUDA_ERROR_NO_BINARY_FOR_GPU) X(CUDA_ERROR_INVALID_PTX) X(CUDA_ERROR_INVALID_HANDLE)      \
    X(CUDA_ERROR_NOT_FOUND) X(CUDA_ERROR_NOT_READY) X(CUDA_ERROR_ILLEGAL_ADDRESS)               \
    X(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES) X(CUDA_ERROR_LAUNCH_TIMEOUT)                          \
    X(CUDA_ERROR_LAUNCH_FAILED) X(CUDA_ERROR_ASSERT) X(CUDA_ERROR_ILLEGAL_INSTRUCTION)          \
    X(CUDA_ERROR_MISALIGNED_ADDRESS) X(CUDA_ERROR_INVALID_ADDRESS_SPACE) X(CUDA_ERROR_INVALID_PC) \
    X(CUDA_ERROR_HARDWARE_STACK_ERROR) X(CUDA_ERROR_NOT_SUPPORTED) X(CUDA_ERROR_UNKNOWN)        \
    X(CUDA_ERROR_CONTEXT_IS_DESTROYED) X(CUDA_ERROR_SYSTEM_DRIVER_MISMATCH)

static CUresult CUDAAPI f_cuGetErrorName(CUresult error, const char **str)
{
    CUresult rc = fake_enter("cuGetErrorName", "error=%d", (int)error);
    if (rc == CUDA_SUCCESS && !str)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS) {
        *str = NULL;
        switch (error) {
#define FAKE_ERROR_CASE(name) case name: *str = #name; break;
            FAKE_ERROR_NAMES(FAKE_ERROR_CASE)
#undef FAKE_ERROR_CASE
        default:
            rc = CUDA_ERROR_INVALID_VALUE;
        }
    }
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuDeviceGet(CUdevice *device, int ordinal)
{
    CUresult rc = fake_enter("cuDeviceGet", "ordinal=%d", ordinal);
    if (rc == CUDA_SUCCESS && !device)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_device(ordinal);
    if (rc == CUDA_SUCCESS)
        *device = ordinal;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuDeviceGetCount(int *count)
{
    CUresult rc = fake_enter("cuDeviceGetCount", "%s", "");
    if (rc == CUDA_SUCCESS && !count)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_init();
    if (rc == CUDA_SUCCESS)
        *count = fake_g.device_count;
    return fake_leave(rc);
}

/* H200-like values; attributes not listed read 0. */
static int attribute_value(CUdevice_attribute attr)
{
    switch (attr) {
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK: return 1024;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X: return 1024;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y: return 1024;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z: return 64;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X: return 2147483647;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y: return 65535;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z: return 65535;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK: return 49152;
    case CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY: return 65536;
    case CU_DEVICE_ATTRIBUTE_WARP_SIZE: return 32;
    case CU_DEVICE_ATTRIBUTE_MAX_PITCH: return 2147483647;
    case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK: return 65536;
    case CU_DEVICE_ATTRIBUTE_CLOCK_RATE: return 1980000;
    case CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT: return 512;
    case CU_DEVICE_ATTRIBUTE_GPU_OVERLAP: return 1;
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: return 132;
    case CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY: return 1;
    case CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS: return 1;
    case CU_DEVICE_ATTRIBUTE_ECC_ENABLED: return 1;
    case CU_DEVICE_ATTRIBUTE_PCI_BUS_ID: return 0x19;
    case CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE: return 2619000;
    case CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH: return 6144;
    case CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE: return 52428800;
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR: return 2048;
    case CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT: return 3;
    case CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING: return 1;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: return (int)(fake_g.sm / 10);
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: return (int)(fake_g.sm % 10);
    case CU_DEVICE_ATTRIBUTE_STREAM_PRIORITIES_SUPPORTED: return 1;
    case CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED: return 1;
    case CU_DEVICE_ATTRIBUTE_LOCAL_L1_CACHE_SUPPORTED: return 1;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR: return 233472;
    case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR: return 65536;
    case CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY: return 1;
    case CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS: return 1;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_PREEMPTION_SUPPORTED: return 1;
    case CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH: return 1;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN: return 232448;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR: return 32;
    case CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE: return 82837504;
    case CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE: return 134213632;
    case CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK: return 1024;
    case CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT: return 32;
    case CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED: return 1;
    case CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH: return 1;
    default: return 0;
    }
}

static CUresult CUDAAPI f_cuDeviceGetAttribute(int *value, CUdevice_attribute attr, CUdevice dev)
{
    CUresult rc = fake_enter("cuDeviceGetAttribute", "attrib=%d dev=%d", (int)attr, dev);
    if (rc == CUDA_SUCCESS && (!value || attr <= 0 || attr >= CU_DEVICE_ATTRIBUTE_MAX))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_device(dev);
    if (rc == CUDA_SUCCESS)
        *value = attribute_value(attr);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuDeviceGetName(char *name, int len, CUdevice dev)
{
    CUresult rc = fake_enter("cuDeviceGetName", "len=%d dev=%d", len, dev);
    if (rc == CUDA_SUCCESS && (!name || len <= 0))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_device(dev);
    if (rc == CUDA_SUCCESS)
        snprintf(name, (size_t)len, "Fake CUDA Device (sm_%u)", fake_g.sm);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuDeviceTotalMem(size_t *bytes, CUdevice dev)
{
    CUresult rc = fake_enter("cuDeviceTotalMem", "dev=%d", dev);
    if (rc == CUDA_SUCCESS && !bytes)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_device(dev);
    if (rc == CUDA_SUCCESS)
        *bytes = (size_t)150754820096ull;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuDeviceGetUuid(CUuuid *uuid, CUdevice dev)
{
    CUresult rc = fake_enter("cuDeviceGetUuid", "dev=%d", dev);
    if (rc == CUDA_SUCCESS && !uuid)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_device(dev);
    if (rc == CUDA_SUCCESS) {
        memset(uuid->bytes, 0xfa, sizeof uuid->bytes);
        uuid->bytes[15] = (char)dev;
    }
    return fake_leave(rc);
}

/* ---- primary contexts ----------------------------------------------------------------------- */

static CUresult CUDAAPI f_cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev)
{
    CUresult rc = fake_enter("cuDevicePrimaryCtxRetain", "dev=%d", dev);
    if (rc == CUDA_SUCCESS && !pctx)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_device(dev);
    if (rc == CUDA_SUCCESS && !fake_g.ctx[dev].active && fake_g.ctx[dev].lost != CUDA_SUCCESS)
        rc = fake_g.ctx[dev].lost;
    if (rc == CUDA_SUCCESS) {
        fake_ctx *ctx = &fake_g.ctx[dev];
        if (!ctx->active)
            ctx->id = ++fake_g.next_ctx_id;
        ctx->device = dev;
        ctx->active = 1;
        ctx->refcount++;
        *pctx = (CUcontext)ctx;
    }
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuDevicePrimaryCtxRelease(CUdevice dev)
{
    CUresult rc = fake_enter("cuDevicePrimaryCtxRelease", "dev=%d", dev);
    if (rc == CUDA_SUCCESS)
        rc = fake_need_device(dev);
    if (rc == CUDA_SUCCESS && fake_g.ctx[dev].refcount == 0)
        rc = CUDA_ERROR_INVALID_CONTEXT;
    if (rc == CUDA_SUCCESS && --fake_g.ctx[dev].refcount == 0)
        ctx_destroy(&fake_g.ctx[dev]);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuDevicePrimaryCtxReset(CUdevice dev)
{
    CUresult rc = fake_enter("cuDevicePrimaryCtxReset", "dev=%d", dev);
    if (rc == CUDA_SUCCESS)
        rc = fake_need_device(dev);
    if (rc == CUDA_SUCCESS)
        ctx_destroy(&fake_g.ctx[dev]);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuDevicePrimaryCtxSetFlags(CUdevice dev, unsigned int flags)
{
    CUresult rc = fake_enter("cuDevicePrimaryCtxSetFlags", "dev=%d flags=0x%x", dev, flags);
    if (rc == CUDA_SUCCESS)
        rc = fake_need_device(dev);
    if (rc == CUDA_SUCCESS && (flags & ~0x1fu) != 0)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        fake_g.ctx[dev].flags = flags;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int *flags, int *active)
{
    CUresult rc = fake_enter("cuDevicePrimaryCtxGetState", "dev=%d", dev);
    if (rc == CUDA_SUCCESS && (!flags || !active))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_device(dev);
    if (rc == CUDA_SUCCESS) {
        *flags = fake_g.ctx[dev].flags;
        *active = fake_g.ctx[dev].active;
    }
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuCtxGetCurrent(CUcontext *pctx)
{
    CUresult rc = fake_enter("cuCtxGetCurrent", "%s", "");
    if (rc == CUDA_SUCCESS && !pctx)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_init();
    if (rc == CUDA_SUCCESS)
        *pctx = (CUcontext)tls_ctx;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuCtxSetCurrent(CUcontext ctx)
{
    CUresult rc = fake_enter("cuCtxSetCurrent", "ctx=%p", (void *)ctx);
    if (rc == CUDA_SUCCESS)
        rc = fake_need_init();
    fake_ctx *c = (fake_ctx *)ctx;
    if (rc == CUDA_SUCCESS && c && (c < fake_g.ctx || c >= fake_g.ctx + fake_g.device_count) &&
        (c < fake_g.extra || c >= fake_g.extra + fake_g.extra_count))
        rc = CUDA_ERROR_INVALID_CONTEXT;
    if (rc == CUDA_SUCCESS)
        tls_ctx = c;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuCtxGetDevice(CUdevice *device)
{
    CUresult rc = fake_enter("cuCtxGetDevice", "%s", "");
    fake_ctx *ctx = NULL;
    if (rc == CUDA_SUCCESS && !device)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(&ctx);
    if (rc == CUDA_SUCCESS)
        *device = ctx->device;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuCtxGetId(CUcontext ctx, unsigned long long *id)
{
    CUresult rc = fake_enter("cuCtxGetId", "ctx=%p", (void *)ctx);
    fake_ctx *c = (fake_ctx *)ctx;
    if (rc == CUDA_SUCCESS && !id)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && !c && fake_need_ctx(&c) != CUDA_SUCCESS)
        rc = CUDA_ERROR_INVALID_CONTEXT;
    if (rc == CUDA_SUCCESS && !c->active)
        rc = CUDA_ERROR_CONTEXT_IS_DESTROYED;
    if (rc == CUDA_SUCCESS)
        *id = c->id;
    return fake_leave(rc);
}

/* The 13.0 signature (cuCtxGetDevice_v2), handed out for versions >= 13000. */
static CUresult CUDAAPI f_cuCtxGetDevice_v2(CUdevice *device, CUcontext ctx)
{
    CUresult rc = fake_enter("cuCtxGetDevice_v2", "ctx=%p", (void *)ctx);
    fake_ctx *c = ctx ? (fake_ctx *)ctx : NULL;
    if (rc == CUDA_SUCCESS && !device)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && !c)
        rc = fake_need_ctx(&c);
    if (rc == CUDA_SUCCESS)
        *device = c->device;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuCtxSynchronize(void)
{
    CUresult rc = fake_enter("cuCtxSynchronize", "%s", "");
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    return fake_leave(rc);
}

/* The 13.0 signature (cuCtxSynchronize_v2), handed out for versions >= 13000. */
static CUresult CUDAAPI f_cuCtxSynchronize_v2(CUcontext ctx)
{
    CUresult rc = fake_enter("cuCtxSynchronize_v2", "ctx=%p", (void *)ctx);
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    return fake_leave(rc);
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
    a->ctx = ctx;
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

/* ---- modules -------------------------------------------------------------------------------- */

/* Writes msg into the caller's JIT error log, if it passed one. */
void fake_jit_error_log(unsigned n, const CUjit_option *opts, void **vals, const char *msg)
{
    char *buf = NULL;
    size_t cap = 0;
    for (unsigned i = 0; opts && vals && i < n; i++) {
        if (opts[i] == CU_JIT_ERROR_LOG_BUFFER)
            buf = vals[i];
        else if (opts[i] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES)
            cap = (size_t)(uintptr_t)vals[i];
    }
    if (buf && cap)
        snprintf(buf, cap, "%s", msg);
}

CUresult fake_module_check_target(const fake_module *m, char *err, size_t cap)
{
    if (!m->jit && (m->sm / 10 != fake_g.sm / 10 || m->sm % 10 > fake_g.sm % 10)) {
        snprintf(err, cap, "fake: cubin for sm_%u cannot run on sm_%u", m->sm, fake_g.sm);
        return CUDA_ERROR_NO_BINARY_FOR_GPU;
    }
    if (m->jit && m->sm > fake_g.sm) {
        snprintf(err, cap, "fake: PTX .target sm_%u is newer than the device (sm_%u)", m->sm, fake_g.sm);
        return CUDA_ERROR_INVALID_PTX;
    }
    return CUDA_SUCCESS;
}

static CUresult CUDAAPI f_cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned n,
                                             CUjit_option *opts, void **vals)
{
    CUresult rc = fake_enter("cuModuleLoadDataEx", "image=%p numOptions=%u", image, n);
    fake_ctx *ctx = NULL;
    fake_module *m = NULL;
    char err[256] = "";
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(&ctx);
    if (rc == CUDA_SUCCESS && (!module || !image || (n && (!opts || !vals))))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && !(m = calloc(1, sizeof *m)))
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    if (rc == CUDA_SUCCESS)
        rc = (CUresult)fake_image_load(m, image, err, sizeof err);
    if (rc == CUDA_SUCCESS)
        rc = fake_module_check_target(m, err, sizeof err);
    if (rc == CUDA_SUCCESS && fake_vec_push(&fake_g.modules, m) != 0)
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    if (rc == CUDA_SUCCESS) {
        m->ctx = ctx;
        *module = (CUmodule)m;
        if (tls_call) {
            size_t len = strlen(tls_call->args);
            snprintf(tls_call->args + len, sizeof tls_call->args - len, " -> %s sm_%u kernels=%u",
                     m->jit ? "ptx" : "cubin", m->sm, m->kernel_count);
        }
    } else {
        if (m) {
            fake_image_free(m);
            free(m);
        }
        fake_jit_error_log(n, opts, vals, err[0] ? err : "fake: load failed");
    }
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuModuleUnload(CUmodule module)
{
    CUresult rc = fake_enter("cuModuleUnload", "module=%p", (void *)module);
    fake_module *m = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_init();
    if (rc == CUDA_SUCCESS && (!(m = fake_find_module(module)) || m->dead))
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS)
        m->dead = 1;  /* kept, so that stale handles are detected instead of crashing */
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuModuleGetFunction(CUfunction *func, CUmodule module, const char *name)
{
    CUresult rc = fake_enter("cuModuleGetFunction", "module=%p name=%s", (void *)module,
                        name ? name : "(null)");
    fake_module *m = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && (!func || !name))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && (!(m = fake_find_module(module)) || m->dead))
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS) {
        rc = CUDA_ERROR_NOT_FOUND;
        for (unsigned i = 0; i < m->kernel_count; i++)
            if (strcmp(m->kernels[i].name, name) == 0) {
                *func = (CUfunction)&m->kernels[i];
                rc = CUDA_SUCCESS;
            }
    }
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuModuleGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUmodule module,
                                            const char *name)
{
    CUresult rc = fake_enter("cuModuleGetGlobal", "module=%p name=%s", (void *)module,
                        name ? name : "(null)");
    fake_module *m = NULL;
    fake_global *gl = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && !name)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && (!(m = fake_find_module(module)) || m->dead))
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS && !(gl = fake_image_global(m, name)))
        rc = CUDA_ERROR_NOT_FOUND;
    if (rc == CUDA_SUCCESS) {
        if (dptr)
            *dptr = (CUdeviceptr)(uintptr_t)gl->storage;
        if (bytes)
            *bytes = gl->size;
    }
    return fake_leave(rc);
}

CUresult fake_live_kernel(CUfunction func, fake_kernel **out)
{
    fake_kernel *k = fake_find_kernel(func);
    if (!k || k->module->dead)
        return CUDA_ERROR_INVALID_HANDLE;
    *out = k;
    return CUDA_SUCCESS;
}

static CUresult CUDAAPI f_cuFuncGetParamInfo(CUfunction func, size_t index, size_t *offset,
                                             size_t *size)
{
    CUresult rc = fake_enter("cuFuncGetParamInfo", "func=%p index=%zu", (void *)func, index);
    fake_kernel *k = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_init();
    if (rc == CUDA_SUCCESS)
        rc = fake_live_kernel(func, &k);
    if (rc == CUDA_SUCCESS && index >= k->param_count)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS) {
        if (offset)
            *offset = k->params[index].offset;
        if (size)
            *size = k->params[index].size;
    }
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuFuncGetAttribute(int *value, CUfunction_attribute attr, CUfunction func)
{
    CUresult rc = fake_enter("cuFuncGetAttribute", "attrib=%d func=%p", (int)attr, (void *)func);
    fake_kernel *k = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_init();
    if (rc == CUDA_SUCCESS && (!value || attr < 0 || attr >= CU_FUNC_ATTRIBUTE_MAX))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = fake_live_kernel(func, &k);
    if (rc == CUDA_SUCCESS) {
        switch (attr) {
        case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
            *value = k->max_threads ? (int)k->max_threads : 1024;
            break;
        case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: *value = (int)k->shared_size; break;
        case CU_FUNC_ATTRIBUTE_NUM_REGS: *value = 16; break;
        case CU_FUNC_ATTRIBUTE_PTX_VERSION: *value = (int)k->module->sm; break;
        case CU_FUNC_ATTRIBUTE_BINARY_VERSION: *value = (int)fake_g.sm; break;
        case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
            *value = 49152 - (int)k->shared_size;
            break;
        case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT: *value = -1; break;
        default: *value = 0; break;
        }
    }
    return fake_leave(rc);
}

/* ---- launch --------------------------------------------------------------------------------- */

CUresult fake_launch_check_dims(const fake_kernel *k, const unsigned grid[3],
                                  const unsigned block[3], unsigned shm)
{
    unsigned long long threads = (unsigned long long)block[0] * block[1] * block[2];
    if (!grid[0] || !grid[1] || !grid[2] || !block[0] || !block[1] || !block[2])
        return CUDA_ERROR_INVALID_VALUE;
    if (block[0] > 1024 || block[1] > 1024 || block[2] > 64 || threads > 1024)
        return CUDA_ERROR_INVALID_VALUE;
    if (grid[0] > 2147483647u || grid[1] > 65535 || grid[2] > 65535)
        return CUDA_ERROR_INVALID_VALUE;
    if (k->max_threads && threads > k->max_threads)
        return CUDA_ERROR_INVALID_VALUE;
    if ((unsigned long long)shm + k->shared_size > 49152)
        return CUDA_ERROR_INVALID_VALUE;
    return CUDA_SUCCESS;
}

/* Packs the parameters into out (k->param_size bytes, zeroed by the caller), from kernelParams
 * through the kernel's layout, or from the `extra` buffer. */
CUresult fake_launch_pack(const fake_kernel *k, void **params, void **extra, unsigned char *out,
                            int *used_extra)
{
    uint32_t need = k->param_count ? k->params[k->param_count - 1].offset +
                                         k->params[k->param_count - 1].size : 0;
    *used_extra = extra != NULL;
    if (params && extra)
        return CUDA_ERROR_INVALID_VALUE;
    if (params) {
        for (unsigned i = 0; i < k->param_count; i++) {
            if (!params[i])
                return CUDA_ERROR_INVALID_VALUE;
            memcpy(out + k->params[i].offset, params[i], k->params[i].size);
        }
        return CUDA_SUCCESS;
    }
    if (!extra)
        return k->param_count ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
    const unsigned char *buf = NULL;
    const size_t *size = NULL;
    for (size_t i = 0; extra[i] != CU_LAUNCH_PARAM_END; i += 2) {
        if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER)
            buf = extra[i + 1];
        else if (extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE)
            size = extra[i + 1];
        else
            return CUDA_ERROR_INVALID_VALUE;
    }
    if (need && (!buf || !size || *size < need))
        return CUDA_ERROR_INVALID_VALUE;
    if (buf && size)
        memcpy(out, buf, *size < k->param_size ? *size : k->param_size);
    return CUDA_SUCCESS;
}

fake_host_kernel fake_host_kernel_for(const char *name)
{
    for (size_t i = 0; i < fake_g.host_kernels.count; i++) {
        fake_host_impl *h = fake_g.host_kernels.items[i];
        if (strcmp(h->name, name) == 0)
            return h->fn;
    }
    return NULL;
}

CUresult fake_launch_run(CUresult rc, CUfunction func, const unsigned grid[3],
                         const unsigned block[3], unsigned shm, CUstream stream, void **params,
                         void **extra)
{
    fake_ctx *ctx = NULL;
    fake_kernel *k = NULL;
    fake_launch *l = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(&ctx);
    if (rc == CUDA_SUCCESS)
        rc = fake_live_kernel(func, &k);
    if (rc == CUDA_SUCCESS && k->module->ctx != ctx)
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS && !fake_stream_is_valid(stream))
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS)
        rc = fake_launch_check_dims(k, grid, block, shm);
    /* Into a capturing stream: a kernel node of the capture graph, not a launch (logged as a
     * call, recorded in fake_g.launches only when the graph runs). */
    const CUDA_KERNEL_NODE_PARAMS node = {
        .func = func, .gridDimX = grid[0], .gridDimY = grid[1], .gridDimZ = grid[2],
        .blockDimX = block[0], .blockDimY = block[1], .blockDimZ = block[2],
        .sharedMemBytes = shm, .kernelParams = params, .extra = extra,
    };
    if (rc == CUDA_SUCCESS && fake_capture_kernel(stream, &node, &rc))
        return fake_leave(rc);
    if (rc == CUDA_SUCCESS && (!(l = calloc(1, sizeof *l)) ||
                               !(l->params = calloc(k->param_size + 1, 1))))
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    if (rc == CUDA_SUCCESS)
        rc = fake_launch_pack(k, params, extra, l->params, &l->used_extra);
    if (rc == CUDA_SUCCESS && fake_vec_push(&fake_g.launches, l) != 0)
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    if (rc != CUDA_SUCCESS) {
        if (l)
            free(l->params);
        free(l);
        return fake_leave(rc);
    }
    snprintf(l->kernel, sizeof l->kernel, "%s", k->name);
    memcpy(l->grid, grid, sizeof l->grid);
    memcpy(l->block, block, sizeof l->block);
    l->shared_mem = shm;
    l->stream = (uintptr_t)stream;
    l->params_size = k->param_size;
    l->module = (uintptr_t)k->module;
    l->module_sm = k->module->sm;
    l->module_jit = k->module->jit;
    fake_host_kernel fn = fake_host_kernel_for(k->name);
    fake_leave(rc);
    if (fn)
        fn(l->params, l->params_size, l->grid, l->block);
    return CUDA_SUCCESS;
}

static CUresult CUDAAPI f_cuLaunchKernel(CUfunction func, unsigned gx, unsigned gy, unsigned gz,
                                         unsigned bx, unsigned by, unsigned bz, unsigned shm,
                                         CUstream stream, void **params, void **extra)
{
    CUresult rc = fake_enter("cuLaunchKernel",
                        "func=%p grid=(%u,%u,%u) block=(%u,%u,%u) shm=%u stream=%p %s",
                        (void *)func, gx, gy, gz, bx, by, bz, shm, (void *)stream,
                        params ? "kernelParams" : extra ? "extra" : "no-params");
    const unsigned grid[3] = {gx, gy, gz}, block[3] = {bx, by, bz};
    return fake_launch_run(rc, func, grid, block, shm, stream, params, extra);
}

/* ---- cuGetProcAddress ----------------------------------------------------------------------- */

static const proc_entry procs[] = {
    {"cuInit", 2000, 99999, (void *)f_cuInit},
    {"cuDriverGetVersion", 2020, 99999, (void *)f_cuDriverGetVersion},
    {"cuGetErrorName", 6000, 99999, (void *)f_cuGetErrorName},
    {"cuDeviceGet", 2000, 99999, (void *)f_cuDeviceGet},
    {"cuDeviceGetCount", 2000, 99999, (void *)f_cuDeviceGetCount},
    {"cuDeviceGetAttribute", 2000, 99999, (void *)f_cuDeviceGetAttribute},
    {"cuDeviceGetName", 2000, 99999, (void *)f_cuDeviceGetName},
    {"cuDeviceTotalMem", 3020, 99999, (void *)f_cuDeviceTotalMem},
    {"cuDeviceGetUuid", 9020, 99999, (void *)f_cuDeviceGetUuid},
    {"cuDevicePrimaryCtxRetain", 7000, 99999, (void *)f_cuDevicePrimaryCtxRetain},
    {"cuDevicePrimaryCtxRelease", 11000, 99999, (void *)f_cuDevicePrimaryCtxRelease},
    {"cuDevicePrimaryCtxReset", 11000, 99999, (void *)f_cuDevicePrimaryCtxReset},
    {"cuDevicePrimaryCtxSetFlags", 11000, 99999, (void *)f_cuDevicePrimaryCtxSetFlags},
    {"cuDevicePrimaryCtxGetState", 7000, 99999, (void *)f_cuDevicePrimaryCtxGetState},
    {"cuCtxGetCurrent", 4000, 99999, (void *)f_cuCtxGetCurrent},
    {"cuCtxSetCurrent", 4000, 99999, (void *)f_cuCtxSetCurrent},
    {"cuCtxGetId", 12000, 99999, (void *)f_cuCtxGetId},
    {"cuCtxGetDevice", 2000, 12999, (void *)f_cuCtxGetDevice},
    {"cuCtxGetDevice", 13000, 99999, (void *)f_cuCtxGetDevice_v2},
    {"cuCtxSynchronize", 2000, 12999, (void *)f_cuCtxSynchronize},
    {"cuCtxSynchronize", 13000, 99999, (void *)f_cuCtxSynchronize_v2},
    {"cuModuleLoadDataEx", 2010, 99999, (void *)f_cuModuleLoadDataEx},
    {"cuModuleUnload", 2000, 99999, (void *)f_cuModuleUnload},
    {"cuModuleGetFunction", 2000, 99999, (void *)f_cuModuleGetFunction},
    {"cuModuleGetGlobal", 3020, 99999, (void *)f_cuModuleGetGlobal},
    {"cuFuncGetParamInfo", 12040, 99999, (void *)f_cuFuncGetParamInfo},
    {"cuFuncGetAttribute", 2020, 99999, (void *)f_cuFuncGetAttribute},
    {"cuLaunchKernel", 4000, 99999, (void *)f_cuLaunchKernel},
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
    if (rc == CUDA_SUCCESS && (!symbol || !pfn || version > FAKE_DRIVER_VERSION || flags > 2))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc != CUDA_SUCCESS)
        return fake_leave(rc);
    CUdriverProcAddressQueryResult found = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    *pfn = NULL;
    const proc_entry *const tables[] = { procs, fake_procs_stream, fake_procs_memory,
                                         fake_procs_array, fake_procs_function, fake_procs_graph,
                                         fake_procs_graph_node, fake_procs_graph_objects,
                                         fake_procs_graph_exec,
                                         fake_procs_capture, fake_procs_mempool,
                                         fake_procs_query, fake_procs_notify,
                                         fake_procs_array_props, fake_procs_batch,
                                         fake_procs_library, fake_procs_link,
                                         fake_procs_graphics, fake_procs_graphics_egl,
                                         fake_procs_external, fake_procs_ipc };
    for (size_t t = 0; t < sizeof tables / sizeof *tables; t++) {
        for (const proc_entry *p = tables[t]; p->name; p++) {
            if (strcmp(p->name, symbol) != 0 || fake_hidden(symbol))
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
