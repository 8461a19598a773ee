/*
 * fake_device.c - the fake driver's initialisation, devices and primary contexts: cuInit,
 * cuDriverGetVersion, cuGetErrorName, the device queries (count, attributes, name, memory, UUID),
 * the primary context's retain/release/reset/flags/state, and the current context's get/set,
 * device, id and synchronisation.
 *
 * What it models (see fakecuda.c for the whole picture):
 *   - cuInit must succeed before anything else; its result, the device count and the SM come from
 *     the environment or the fake_set_* setters (fake_g).
 *   - Device attributes are H200-like; those not listed read 0.
 *   - One primary context per device, retained/released/reset; a reset or the last release
 *     destroys its allocations and kills its modules (fake_ctx_destroy, fakecuda.c).  A device
 *     lost to a sticky error stays lost: retaining it again returns the sticky code.
 *   - The current context is per thread (fake_current_ctx, fakecuda.c), the top of a stack of
 *     FAKE_CTX_STACK that cuCtxPushCurrent / cuCtxPopCurrent grow and shrink; cuCtxSetCurrent
 *     replaces the top.  Any CUcontext the fake made may be current: a primary context, one of
 *     fake_create_context, or the one cuCtxFromGreenCtx gives for a green context (fake_green.c).
 *   - cuDriverGetVersion answers the modelled driver's version (FAKECUDA_DRIVER_VERSION).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "fake_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- initialisation and devices ------------------------------------------------------------- */

/* FAKECUDA_INIT_DELAY_MS: cuInit takes that long, as the real one takes 100-200 ms (the runtime's
 * MINICUDART_EARLY_INIT tests exit and fork while it runs).  Slept before the fake's lock. */
static void fake_init_delay(void)
{
    const char *v = getenv("FAKECUDA_INIT_DELAY_MS");
    long ms = v ? strtol(v, NULL, 10) : 0;
    if (ms > 0) {
        struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
        while (nanosleep(&ts, &ts) != 0)
            ;
    }
}

static CUresult CUDAAPI f_cuInit(unsigned int flags)
{
    fake_init_delay();
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
        *version = fake_g.driver_version;
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
    X(CUDA_ERROR_CONTEXT_IS_DESTROYED) X(CUDA_ERROR_SYSTEM_DRIVER_MISMATCH)                     \
    X(CUDA_ERROR_INVALID_RESOURCE_TYPE) X(CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION)            \
    X(CUDA_ERROR_STREAM_DETACHED) X(CUDA_ERROR_GRAPH_RECAPTURE_FAILURE)

static CUresult CUDAAPI f_cuGetErrorName(CUresult error, const char **str)
{
    CUresult rc = fake_enter("cuGetErrorName", "error=%d", (int)error);
    if (rc == CUDA_SUCCESS && !str)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS) {
        *str = NULL;
        switch ((int)error) {        /* an int: 13.5's codes are not in 13.0's enum */
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
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: return (int)fake_g.sm_count;
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

/* A retain of dev's primary context (a checked device): activates it, or answers the sticky
 * error that lost the device.  cuGreenCtxCreate retains the same way. */
CUresult fake_primary_retain(CUdevice dev)
{
    fake_ctx *ctx = &fake_g.ctx[dev];
    if (!ctx->active && ctx->lost != CUDA_SUCCESS)
        return ctx->lost;
    if (!ctx->active)
        ctx->id = ++fake_g.next_ctx_id;
    ctx->device = dev;
    ctx->active = 1;
    ctx->refcount++;
    return CUDA_SUCCESS;
}

void fake_primary_release(CUdevice dev)
{
    if (fake_g.ctx[dev].refcount && --fake_g.ctx[dev].refcount == 0)
        fake_ctx_destroy(&fake_g.ctx[dev]);
}

static CUresult CUDAAPI f_cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev)
{
    CUresult rc = fake_enter("cuDevicePrimaryCtxRetain", "dev=%d", dev);
    if (rc == CUDA_SUCCESS && !pctx)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_device(dev);
    if (rc == CUDA_SUCCESS)
        rc = fake_primary_retain(dev);
    if (rc == CUDA_SUCCESS)
        *pctx = (CUcontext)&fake_g.ctx[dev];
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuDevicePrimaryCtxRelease(CUdevice dev)
{
    CUresult rc = fake_enter("cuDevicePrimaryCtxRelease", "dev=%d", dev);
    if (rc == CUDA_SUCCESS)
        rc = fake_need_device(dev);
    if (rc == CUDA_SUCCESS && fake_g.ctx[dev].refcount == 0)
        rc = CUDA_ERROR_INVALID_CONTEXT;
    if (rc == CUDA_SUCCESS)
        fake_primary_release(dev);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuDevicePrimaryCtxReset(CUdevice dev)
{
    CUresult rc = fake_enter("cuDevicePrimaryCtxReset", "dev=%d", dev);
    if (rc == CUDA_SUCCESS)
        rc = fake_need_device(dev);
    if (rc == CUDA_SUCCESS)
        fake_ctx_destroy(&fake_g.ctx[dev]);
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
        *pctx = (CUcontext)fake_current_ctx();
    return fake_leave(rc);
}

fake_ctx *fake_ctx_from_handle(CUcontext handle)
{
    fake_ctx *c = (fake_ctx *)handle;
    if (!c)
        return NULL;
    for (int i = 0; i < fake_g.device_count; i++)
        if (c == &fake_g.ctx[i])
            return c;
    for (int i = 0; i < fake_g.extra_count; i++)
        if (c == &fake_g.extra[i])
            return c;
    return fake_green_ctx_of(handle);
}

/* A context that may become current: one the fake made; a green context's only while the green
 * context lives (a primary one stays settable after a reset, failing the calls that follow). */
static CUresult settable(CUcontext handle, fake_ctx **out)
{
    fake_ctx *c = fake_ctx_from_handle(handle);
    if (!c || (c->green && !c->active))
        return CUDA_ERROR_INVALID_CONTEXT;
    *out = c;
    return CUDA_SUCCESS;
}

static CUresult CUDAAPI f_cuCtxSetCurrent(CUcontext ctx)
{
    CUresult rc = fake_enter("cuCtxSetCurrent", "ctx=%p", (void *)ctx);
    fake_ctx *c = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_init();
    if (rc == CUDA_SUCCESS && ctx)
        rc = settable(ctx, &c);
    if (rc == CUDA_SUCCESS)
        fake_set_current_ctx(c);
    return fake_leave(rc);
}

/* The contexts under the current one (the current one is fake_current_ctx, the top). */
#define FAKE_CTX_STACK 16
static _Thread_local fake_ctx *ctx_stack[FAKE_CTX_STACK];
static _Thread_local unsigned ctx_depth;

static CUresult CUDAAPI f_cuCtxPushCurrent(CUcontext ctx)
{
    CUresult rc = fake_enter("cuCtxPushCurrent", "ctx=%p", (void *)ctx);
    fake_ctx *c = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_init();
    if (rc == CUDA_SUCCESS)
        rc = settable(ctx, &c);
    if (rc == CUDA_SUCCESS && ctx_depth == FAKE_CTX_STACK)
        rc = CUDA_ERROR_OUT_OF_MEMORY;     /* the fake's stack is short; the driver's is not */
    if (rc == CUDA_SUCCESS) {
        ctx_stack[ctx_depth++] = fake_current_ctx();
        fake_set_current_ctx(c);
    }
    return fake_leave(rc);
}

/* Pops the current context (none: CUDA_ERROR_INVALID_CONTEXT); the one under it, if any,
 * becomes current. */
static CUresult CUDAAPI f_cuCtxPopCurrent(CUcontext *pctx)
{
    CUresult rc = fake_enter("cuCtxPopCurrent", "%s", "");
    if (rc == CUDA_SUCCESS)
        rc = fake_need_init();
    if (rc == CUDA_SUCCESS && !fake_current_ctx())
        rc = CUDA_ERROR_INVALID_CONTEXT;
    if (rc == CUDA_SUCCESS) {
        if (pctx)
            *pctx = (CUcontext)fake_current_ctx();
        fake_set_current_ctx(ctx_depth ? ctx_stack[--ctx_depth] : NULL);
    }
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

/* A green context's CUcontext has the green context's id (cuGreenCtxGetId answers the same). */
static CUresult CUDAAPI f_cuCtxGetId(CUcontext ctx, unsigned long long *id)
{
    CUresult rc = fake_enter("cuCtxGetId", "ctx=%p", (void *)ctx);
    fake_ctx *c = NULL;
    if (rc == CUDA_SUCCESS && !id)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && !ctx && fake_need_ctx(&c) != CUDA_SUCCESS)
        rc = CUDA_ERROR_INVALID_CONTEXT;
    if (rc == CUDA_SUCCESS && ctx && !(c = fake_ctx_from_handle(ctx)))
        rc = CUDA_ERROR_INVALID_CONTEXT;
    if (rc == CUDA_SUCCESS && !fake_ctx_live(c))
        rc = CUDA_ERROR_CONTEXT_IS_DESTROYED;
    if (rc == CUDA_SUCCESS)
        *id = c->id;
    return fake_leave(rc);
}

/* The 13.0 signature (cuCtxGetDevice_v2), handed out for versions >= 13000. */
/* The context named, or the current one (NULL), usable: else CUDA_ERROR_INVALID_CONTEXT; its
 * sticky error if it has one. */
static CUresult named_ctx(CUcontext ctx, fake_ctx **out)
{
    if (!ctx)
        return fake_need_ctx(out);
    CUresult rc = fake_need_init();
    fake_ctx *c = rc == CUDA_SUCCESS ? fake_ctx_from_handle(ctx) : NULL;
    if (rc == CUDA_SUCCESS && (!c || !fake_ctx_live(c)))
        rc = CUDA_ERROR_INVALID_CONTEXT;
    if (rc == CUDA_SUCCESS)
        rc = fake_ctx_base(c)->poison;
    if (rc == CUDA_SUCCESS)
        *out = c;
    return rc;
}

static CUresult CUDAAPI f_cuCtxGetDevice_v2(CUdevice *device, CUcontext ctx)
{
    CUresult rc = fake_enter("cuCtxGetDevice_v2", "ctx=%p", (void *)ctx);
    fake_ctx *c = NULL;
    if (rc == CUDA_SUCCESS && !device)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = named_ctx(ctx, &c);
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

/* The 13.0 signature (cuCtxSynchronize_v2), handed out for versions >= 13000: the context
 * named (a green context's too), or the current one.  Work is done when queued, so it only
 * checks. */
static CUresult CUDAAPI f_cuCtxSynchronize_v2(CUcontext ctx)
{
    CUresult rc = fake_enter("cuCtxSynchronize_v2", "ctx=%p", (void *)ctx);
    fake_ctx *c = NULL;
    if (rc == CUDA_SUCCESS)
        rc = named_ctx(ctx, &c);
    return fake_leave(rc);
}

/* ---- the test API of the modelled driver (fakecuda.h) -------------------------------------- */

#define FAKE_EXPORT __attribute__((visibility("default")))

FAKE_EXPORT void fake_set_driver_version(int version)
{
    fake_lock();
    fake_g.driver_version = version;
    fake_unlock();
}

FAKE_EXPORT void fake_set_sm_count(unsigned count)
{
    fake_lock();
    fake_g.sm_count = count;
    fake_unlock();
}

const proc_entry fake_procs_device[] = {
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
    {"cuCtxPushCurrent", 4000, 99999, (void *)f_cuCtxPushCurrent},
    {"cuCtxPopCurrent", 4000, 99999, (void *)f_cuCtxPopCurrent},
    {"cuCtxGetId", 12000, 99999, (void *)f_cuCtxGetId},
    {"cuCtxGetDevice", 2000, 12999, (void *)f_cuCtxGetDevice},
    {"cuCtxGetDevice", 13000, 99999, (void *)f_cuCtxGetDevice_v2},
    {"cuCtxSynchronize", 2000, 12999, (void *)f_cuCtxSynchronize},
    {"cuCtxSynchronize", 13000, 99999, (void *)f_cuCtxSynchronize_v2},
    {NULL, 0, 0, NULL},
};
