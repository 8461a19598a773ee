/*
 * exec_ctx.c - device resources, green contexts and execution contexts (CUDA 13.5).
 *
 * A green context is a context of the driver's that owns a subset of a device's SMs: a program
 * asks for the device's SM resource (cudaDeviceGetDevResource), splits it into groups
 * (cudaDevSmResourceSplitByCount), turns groups into a descriptor (cudaDevResourceGenerateDesc)
 * and makes a green context of it (cudaGreenCtxCreate).  Kernels launched on the green context's
 * streams run on its SMs only: how an inference server keeps prefill and decode apart.  The
 * resources and descriptors are the driver's structures, passed through unchanged (a
 * cudaDevResource is a CUdevResource byte for byte: cuda135.h).
 *
 * An execution context (cudaExecutionContext_t) is what 13.5's context-explicit calls take:
 * streams, events and synchronisation of a context named in the call instead of the thread's
 * current one.  It is a driver context, handed out unwrapped as NVIDIA's runtime does (measured
 * on the H200 with its 13.5 runtime, driver 580):
 *
 *   primary  cudaDeviceGetExecutionCtx(&c, device) is the device's primary CUcontext, the one
 *            the runtime works in (device.c); asking for it retains it (without making it
 *            current).  cudaExecutionCtxDestroy refuses it (cudaErrorInvalidValue).
 *   green    cudaGreenCtxCreate's is the CUcontext that represents the green context
 *            (cuCtxFromGreenCtx; the driver gives it the CUgreenCtx's own address).  The runtime
 *            lists the green contexts it made, to destroy them (cuGreenCtxDestroy takes the
 *            CUgreenCtx) and to make their streams (cuGreenCtxStreamCreate).
 *   other    any other CUcontext (cuCtxCreate's, a green context some library made) is accepted
 *            too, as by NVIDIA's runtime: every call here is one the driver takes a CUcontext
 *            for (cuCtxGetId, cuCtxGetDevice_v2, cuCtxGetDevResource, cuCtxRecordEvent, ...).
 *
 * So every handle is the driver's to validate, like a stream or an event: NULL is refused here
 * (cudaErrorInvalidValue); a destroyed or made-up context is undefined behaviour, as documented.
 * The thread's current device and context are never changed by these calls: work that only the
 * current context can do (cuStreamCreate) is done with the named context pushed, then popped.
 *
 * What the H200 showed about green contexts that the runtime relies on: a kernel of a module
 * loaded in the primary context launches on a green context's stream (both with the primary
 * context current and with the green one), so a <<<>>> launch on such a stream needs nothing
 * from the runtime; cuGreenCtxCreate on driver 580 requires CU_GREEN_CTX_DEFAULT_STREAM;
 * cuCtxGetId of the green context's CUcontext equals cuGreenCtxGetId.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdlib.h>

#include "device/device.h"

/* The driver entry points of this room exist since CUDA 12.4 (12.5 and 13.0 for some): a driver
 * without them answers as NVIDIA's runtime does on a driver without an entry point. */
#define RT_NEED(entry) rt_driver_newer(rt_drv.entry != NULL, #entry)

/* A green context the runtime made: its two handles, for as long as it lives. */
typedef struct rt_green {
    CUgreenCtx green;
    CUcontext context;            /* cuCtxFromGreenCtx: the cudaExecutionContext_t handed out */
    struct rt_green *next;
} rt_green;

static pthread_mutex_t rt_green_lock = PTHREAD_MUTEX_INITIALIZER;
static rt_green *rt_greens;

/* The CUgreenCtx of context, if the runtime made it, else NULL. */
static CUgreenCtx rt_green_of(CUcontext context)
{
    CUgreenCtx found = NULL;
    pthread_mutex_lock(&rt_green_lock);
    for (const rt_green *g = rt_greens; g && !found; g = g->next)
        if (g->context == context)
            found = g->green;
    pthread_mutex_unlock(&rt_green_lock);
    return found;
}

/* What a call needs of an execution context. */
typedef struct rt_exec_view {
    CUcontext context;
    CUgreenCtx green;             /* the runtime's green context, or NULL */
    rt_device *d;                 /* the slot of its device's primary context (for errors) */
    int ordinal;                  /* its device, as users number them */
} rt_exec_view;

/* Describes ctx (after the driver is up): cudaErrorInvalidValue for NULL, the driver's error for
 * a context it does not know. */
static cudaError_t rt_exec_ctx_view(cudaExecutionContext_t ctx, rt_exec_view *out)
{
    if (!ctx)
        return cudaErrorInvalidValue;
    cudaError_t e = rt_devices_init();
    if (e != cudaSuccess)
        return e;
    if ((e = RT_NEED(cuCtxGetDevice_v2)) != cudaSuccess)
        return e;
    CUdevice cu = 0;
    out->context = (CUcontext)ctx;
    e = rt_error_from_cu(rt_drv.cuCtxGetDevice_v2(&cu, out->context));
    if (e != cudaSuccess) {
        RT_TRACE("execution context %p: the driver does not know it (%s)", (void *)ctx,
                 rt_error_name(e));
        return e;
    }
    int index = rt_device_of_cu(cu);
    if (index < 0)
        return cudaErrorInvalidDevice;
    out->d = &rt_devices[index];
    out->ordinal = out->d->ordinal;
    out->green = rt_green_of(out->context);
    return cudaSuccess;
}

/* ---- resources and descriptors -------------------------------------------------------------- */

RT_API cudaError_t cudaDeviceGetDevResource(int device, cudaDevResource *resource,
                                            enum cudaDevResourceType type)
{
    RT_ENTER();
    rt_device *d;
    cudaError_t e = rt_device_lookup(device, &d);
    if (e == cudaSuccess && !resource)
        e = cudaErrorInvalidValue;
    if (e == cudaSuccess)
        e = RT_NEED(cuDeviceGetDevResource);
    if (e != cudaSuccess)
        RT_RETURN(e);
    RT_RETURN(rt_error_from_cu(rt_drv.cuDeviceGetDevResource(d->cu, (CUdevResource *)resource,
                                                             (CUdevResourceType)type)));
}

RT_API cudaError_t cudaDevSmResourceSplitByCount(cudaDevResource *result, unsigned int *nbGroups,
                                                 const cudaDevResource *input,
                                                 cudaDevResource *remaining, unsigned int flags,
                                                 unsigned int minCount)
{
    RT_ENTER();
    if (!nbGroups || !input)
        RT_RETURN(cudaErrorInvalidValue);
    cudaError_t e = rt_driver_load();
    if (e == cudaSuccess)
        e = RT_NEED(cuDevSmResourceSplitByCount);
    if (e != cudaSuccess)
        RT_RETURN(e);
    CUresult r = rt_drv.cuDevSmResourceSplitByCount(
        (CUdevResource *)result, nbGroups, (const CUdevResource *)input,
        (CUdevResource *)remaining, flags, minCount);
    RT_TRACE("cudaDevSmResourceSplitByCount(%u SMs, minimum %u, flags %#x): %u groups (%d)",
             input->sm.smCount, minCount, flags, *nbGroups, (int)r);
    RT_RETURN(rt_error_from_cu(r));
}

_Static_assert(sizeof(cudaDevSmResourceGroupParams) == sizeof(CU_DEV_SM_RESOURCE_GROUP_PARAMS),
               "SM group parameters differ");

/* The structured split of 13.1 (groups of co-scheduled SMs, discovery mode) has no equivalent
 * in driver 580: cuDevSmResourceSplitByCount makes equal groups only, and cannot discover or
 * backfill.  So it is the driver's or refused. */
RT_API cudaError_t cudaDevSmResourceSplit(cudaDevResource *result, unsigned int nbGroups,
                                          const cudaDevResource *input, cudaDevResource *remainder,
                                          unsigned int flags,
                                          cudaDevSmResourceGroupParams *groupParams)
{
    RT_ENTER();
    cudaError_t e = rt_driver_load();
    if (e == cudaSuccess)         /* before the arguments, as NVIDIA's runtime on driver 580 */
        e = RT_NEED(cuDevSmResourceSplit);
    if (e != cudaSuccess)
        RT_RETURN(e);
    if (!input || !groupParams || nbGroups == 0)
        RT_RETURN(cudaErrorInvalidValue);
    RT_RETURN(rt_error_from_cu(rt_drv.cuDevSmResourceSplit(
        (CUdevResource *)result, nbGroups, (const CUdevResource *)input,
        (CUdevResource *)remainder, flags, (CU_DEV_SM_RESOURCE_GROUP_PARAMS *)groupParams)));
}

RT_API cudaError_t cudaDevResourceGenerateDesc(cudaDevResourceDesc_t *phDesc,
                                               cudaDevResource *resources,
                                               unsigned int nbResources)
{
    RT_ENTER();
    if (!phDesc || !resources || nbResources == 0)
        RT_RETURN(cudaErrorInvalidValue);
    cudaError_t e = rt_driver_load();
    if (e == cudaSuccess)
        e = RT_NEED(cuDevResourceGenerateDesc);
    if (e != cudaSuccess)
        RT_RETURN(e);
    RT_RETURN(rt_error_from_cu(rt_drv.cuDevResourceGenerateDesc(
        (CUdevResourceDesc *)phDesc, (CUdevResource *)resources, nbResources)));
}

/* ---- execution contexts --------------------------------------------------------------------- */

/* The two calls of this room that work in the current context only, made in `context` (pushed
 * for the call and popped after it, so that the thread's own context is untouched). */
static CUresult rt_stream_create_in(CUcontext context, CUstream *s, unsigned flags, int priority)
{
    if (!rt_drv.cuCtxPushCurrent || !rt_drv.cuCtxPopCurrent)
        return CUDA_ERROR_NOT_SUPPORTED;
    CUresult r = rt_drv.cuCtxPushCurrent(context);
    if (r != CUDA_SUCCESS)
        return r;
    r = rt_drv.cuStreamCreateWithPriority(s, flags, priority);
    CUcontext popped;
    rt_drv.cuCtxPopCurrent(&popped);
    return r;
}

RT_API cudaError_t cudaDeviceGetExecutionCtx(cudaExecutionContext_t *ctx, int device)
{
    RT_ENTER();
    if (!ctx)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = rt_device_lookup(device, &d);
    if (e == cudaSuccess)
        e = rt_device_activate(d);
    if (e == cudaSuccess)
        *ctx = (cudaExecutionContext_t)atomic_load_explicit(&d->context, memory_order_acquire);
    RT_RETURN(e);
}

RT_API cudaError_t cudaGreenCtxCreate(cudaExecutionContext_t *phCtx, cudaDevResourceDesc_t desc,
                                      int device, unsigned int flags)
{
    RT_ENTER();
    if (!phCtx || !desc || flags != 0)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = rt_device_lookup(device, &d);
    if (e == cudaSuccess)
        e = RT_NEED(cuGreenCtxCreate);
    if (e != cudaSuccess)
        RT_RETURN(e);
    rt_green *g = calloc(1, sizeof *g);
    if (!g)
        RT_RETURN(cudaErrorMemoryAllocation);
    /* Driver 580 requires CU_GREEN_CTX_DEFAULT_STREAM (flags 0 is cudaErrorInvalidValue there):
     * a stream of the green context's own that the runtime never uses.  Programs make theirs
     * with cudaExecutionCtxStreamCreate, as 13.5 documents. */
    CUresult r = rt_drv.cuGreenCtxCreate(&g->green, (CUdevResourceDesc)desc, d->cu,
                                         CU_GREEN_CTX_DEFAULT_STREAM);
    if (r == CUDA_SUCCESS) {
        r = rt_drv.cuCtxFromGreenCtx(&g->context, g->green);
        if (r != CUDA_SUCCESS)
            rt_drv.cuGreenCtxDestroy(g->green);
    }
    e = rt_error_from_cu(r);
    RT_TRACE("green context %p on device %d: %s", (void *)g->green, device, rt_error_name(e));
    if (e != cudaSuccess) {
        free(g);
        RT_RETURN(e);
    }
    pthread_mutex_lock(&rt_green_lock);
    g->next = rt_greens;
    rt_greens = g;
    pthread_mutex_unlock(&rt_green_lock);
    *phCtx = (cudaExecutionContext_t)g->context;
    RT_RETURN(cudaSuccess);
}

/* Only green contexts made by cudaGreenCtxCreate are the program's to destroy: a primary context
 * or one the runtime did not make is refused with cudaErrorInvalidValue (NVIDIA's answer for
 * both on the H200, where 13.5 documents undefined behaviour). */
RT_API cudaError_t cudaExecutionCtxDestroy(cudaExecutionContext_t ctx)
{
    RT_ENTER();
    if (!ctx)
        RT_RETURN(cudaErrorInvalidValue);
    pthread_mutex_lock(&rt_green_lock);
    rt_green **link = &rt_greens;
    while (*link && (*link)->context != (CUcontext)ctx)
        link = &(*link)->next;
    rt_green *g = *link;
    if (g)
        *link = g->next;          /* out of the list first: the handle is refused from now on */
    pthread_mutex_unlock(&rt_green_lock);
    if (!g) {
        RT_TRACE("cudaExecutionCtxDestroy: %p is no green context this runtime made",
                 (void *)ctx);
        RT_RETURN(cudaErrorInvalidValue);
    }
    /* Its streams stay, detached: the driver answers for them from now on (on driver 580
     * cudaErrorContextIsDestroyed; 13.5 documents cudaErrorStreamDetached). */
    cudaError_t e = rt_error_from_cu(rt_drv.cuGreenCtxDestroy(g->green));
    RT_TRACE("green context %p destroyed: %s", (void *)g->green, rt_error_name(e));
    free(g);
    RT_RETURN(e);
}

RT_API cudaError_t cudaExecutionCtxGetDevice(int *device, cudaExecutionContext_t ctx)
{
    RT_ENTER();
    if (!device)
        RT_RETURN(cudaErrorInvalidValue);
    rt_exec_view v;
    cudaError_t e = rt_exec_ctx_view(ctx, &v);
    if (e == cudaSuccess)
        *device = v.ordinal;
    RT_RETURN(e);
}

RT_API cudaError_t cudaExecutionCtxGetId(cudaExecutionContext_t ctx, unsigned long long *ctxId)
{
    RT_ENTER();
    if (!ctx || !ctxId)
        RT_RETURN(cudaErrorInvalidValue);
    cudaError_t e = rt_devices_init();
    if (e != cudaSuccess)
        RT_RETURN(e);
    /* The context's unique id; for a green context the driver's cuCtxGetId equals
     * cuGreenCtxGetId (H200). */
    RT_RETURN(rt_error_from_cu(rt_drv.cuCtxGetId((CUcontext)ctx, ctxId)));
}

RT_API cudaError_t cudaExecutionCtxGetDevResource(cudaExecutionContext_t ctx,
                                                  cudaDevResource *resource,
                                                  enum cudaDevResourceType type)
{
    RT_ENTER();
    if (!ctx || !resource)
        RT_RETURN(cudaErrorInvalidValue);
    cudaError_t e = rt_devices_init();
    if (e == cudaSuccess)
        e = RT_NEED(cuCtxGetDevResource);
    if (e != cudaSuccess)
        RT_RETURN(e);
    /* A green context's CUcontext answers with its own SMs (16 of a split, on the H200). */
    RT_RETURN(rt_error_from_cu(rt_drv.cuCtxGetDevResource((CUcontext)ctx,
                                                          (CUdevResource *)resource,
                                                          (CUdevResourceType)type)));
}

RT_API cudaError_t cudaExecutionCtxStreamCreate(cudaStream_t *phStream, cudaExecutionContext_t ctx,
                                                unsigned int flags, int priority)
{
    RT_ENTER();
    if (!phStream || (flags != cudaStreamDefault && flags != cudaStreamNonBlocking))
        RT_RETURN(cudaErrorInvalidValue);
    rt_exec_view v;
    cudaError_t e = rt_exec_ctx_view(ctx, &v);
    if (e == cudaSuccess && v.green)
        e = RT_NEED(cuGreenCtxStreamCreate);
    if (e != cudaSuccess)
        RT_RETURN(e);
    CUstream s = NULL;
    CUresult r;
    bool primary = v.context == atomic_load_explicit(&v.d->context, memory_order_acquire);
    if (v.green) {
        /* A green context's streams never synchronise with the legacy stream: the driver
         * requires CU_STREAM_NON_BLOCKING, and 13.5 documents cudaStreamDefault as that. */
        r = rt_drv.cuGreenCtxStreamCreate(&s, v.green, CU_STREAM_NON_BLOCKING, priority);
    } else {
        r = rt_stream_create_in(v.context, &s, flags, priority);
        if (r == CUDA_SUCCESS && primary)
            rt_handle_add(RT_HANDLE_STREAM, s, v.d);   /* cudaDeviceReset destroys it */
    }
    e = rt_driver_result(v.d, r);
    RT_TRACE("stream %p created in %s context %p of device %d (flags %#x, priority %d): %s",
             (void *)s, v.green ? "green" : primary ? "the primary" : "the", (void *)v.context,
             v.ordinal, flags, priority, rt_error_name(e));
    if (e == cudaSuccess)
        *phStream = (cudaStream_t)s;
    RT_RETURN(e);
}

/* Record (record) or wait for (!record) an event on every stream of an execution context; the
 * primary context's covers its device's green contexts too (documented). */
static cudaError_t rt_exec_ctx_event(cudaExecutionContext_t ctx, cudaEvent_t event, bool record)
{
    if (!ctx)
        return cudaErrorInvalidValue;
    cudaError_t e = rt_devices_init();
    if (e == cudaSuccess)
        e = record ? RT_NEED(cuCtxRecordEvent) : RT_NEED(cuCtxWaitEvent);
    if (e != cudaSuccess)
        return e;
    if (event && rt_handle_stale(RT_HANDLE_EVENT, event))
        return cudaErrorDeviceUninitialized;
    CUresult r = record ? rt_drv.cuCtxRecordEvent((CUcontext)ctx, (CUevent)event)
                        : rt_drv.cuCtxWaitEvent((CUcontext)ctx, (CUevent)event);
    return rt_error_from_cu(r);
}

/* The one body of cudaExecutionCtxRecordEvent and cudaExecutionCtxWaitEvent (RT_FORWARD). */
static cudaError_t rt_exec_ctx_event_api(rt_api api, cudaExecutionContext_t ctx, cudaEvent_t event,
                                         bool record)
{
    RT_ENTER_AS(api);
    RT_RETURN(rt_exec_ctx_event(ctx, event, record));
}

RT_API cudaError_t cudaExecutionCtxRecordEvent(cudaExecutionContext_t ctx, cudaEvent_t event)
{
    RT_FORWARD(rt_exec_ctx_event_api(RT_SELF, ctx, event, true));
}

RT_API cudaError_t cudaExecutionCtxWaitEvent(cudaExecutionContext_t ctx, cudaEvent_t event)
{
    RT_FORWARD(rt_exec_ctx_event_api(RT_SELF, ctx, event, false));
}

RT_API cudaError_t cudaExecutionCtxSynchronize(cudaExecutionContext_t ctx)
{
    RT_ENTER();
    rt_exec_view v;
    cudaError_t e = rt_exec_ctx_view(ctx, &v);
    if (e == cudaSuccess)
        e = RT_NEED(cuCtxSynchronize_v2);
    if (e != cudaSuccess)
        RT_RETURN(e);
    /* The 13.0 driver's cuCtxSynchronize takes the context (a primary context's synchronises
     * its green contexts too), so no push is needed. */
    RT_RETURN(rt_driver_result(v.d, rt_drv.cuCtxSynchronize_v2(v.context)));
}

/* ---- the resources of a stream -------------------------------------------------------------- */

/*
 * cuStreamGetDevResource is 13.1's.  On an older driver the runtime answers from what the
 * driver does have: the stream's context (cuStreamGetCtx_v2 names its green context, if any)
 * and that context's resources, which are the stream's: a stream runs on the SMs of its
 * context.  NVIDIA's 13.5 runtime answers too on driver 580 (the 16 SMs of a green context's
 * stream, measured on the H200).
 */
static cudaError_t rt_stream_get_dev_resource(cudaStream_t stream, cudaDevResource *resource,
                                              enum cudaDevResourceType type, bool per_thread)
{
    if (!resource)
        return cudaErrorInvalidValue;
    /* Documented: only SM resources describe a stream. */
    if (type == cudaDevResourceTypeWorkqueueConfig || type == cudaDevResourceTypeWorkqueue)
        return cudaErrorInvalidResourceType;
    rt_device *d;
    cudaError_t e = rt_enter_with(stream, NULL, &d);
    if (e != cudaSuccess)
        return e;
    CUstream s = rt_stream(stream, per_thread);
    if (rt_drv.cuStreamGetDevResource)
        return rt_driver_result(d, rt_drv.cuStreamGetDevResource(s, (CUdevResource *)resource,
                                                                 (CUdevResourceType)type));
    if ((e = RT_NEED(cuStreamGetCtx)) != cudaSuccess ||
        (e = RT_NEED(cuCtxGetDevResource)) != cudaSuccess ||
        (e = RT_NEED(cuGreenCtxGetDevResource)) != cudaSuccess)
        return e;
    CUcontext context = NULL;
    CUgreenCtx green = NULL;
    CUresult r = rt_drv.cuStreamGetCtx(s, &context, &green);
    if (r == CUDA_SUCCESS)
        r = green ? rt_drv.cuGreenCtxGetDevResource(green, (CUdevResource *)resource,
                                                    (CUdevResourceType)type)
                  : rt_drv.cuCtxGetDevResource(context, (CUdevResource *)resource,
                                               (CUdevResourceType)type);
    RT_TRACE("%s(%p): the driver has no cuStreamGetDevResource; answered from its %s context: %d",
             rt_call_name(), (void *)stream, green ? "green" : "", (int)r);
    return rt_driver_result(d, r);
}

/* The one body of cudaStreamGetDevResource and cudaStreamGetDevResource_ptsz (RT_FORWARD). */
static cudaError_t rt_stream_get_dev_resource_api(rt_api api, cudaStream_t stream,
                                                  cudaDevResource *resource,
                                                  enum cudaDevResourceType type, bool per_thread)
{
    RT_ENTER_AS(api);
    RT_RETURN(rt_stream_get_dev_resource(stream, resource, type, per_thread));
}

RT_API cudaError_t cudaStreamGetDevResource(cudaStream_t hStream, cudaDevResource *resource,
                                            enum cudaDevResourceType type)
{
    RT_FORWARD(rt_stream_get_dev_resource_api(RT_SELF, hStream, resource, type, false));
}

RT_API cudaError_t cudaStreamGetDevResource_ptsz(cudaStream_t hStream, cudaDevResource *resource,
                                                 enum cudaDevResourceType type)
{
    RT_FORWARD(rt_stream_get_dev_resource_api(RT_SELF, hStream, resource, type, true));
}
