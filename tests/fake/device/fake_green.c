/*
 * fake_green.c - the fake driver's green contexts (see fake_internal.h): cuGreenCtxCreate,
 * cuGreenCtxDestroy, cuCtxFromGreenCtx, cuGreenCtxGetId, the SM resources of contexts and green
 * contexts, streams of green contexts (cuGreenCtxStreamCreate, cuStreamGetGreenCtx,
 * cuStreamGetCtx, cuStreamGetDevResource of 13.1), events of whole contexts
 * (cuGreenCtxRecordEvent / WaitEvent, cuCtxRecordEvent / WaitEvent), and the test API that
 * shows them.
 *
 * What it models:
 *   - A green context is made from a descriptor (fake_resource.c) of its device, with the
 *     descriptor's SMs, and retains the device's primary context for its life, as cuda.h says
 *     (fake_primary_retains shows it); flags CU_GREEN_CTX_NONE or CU_GREEN_CTX_DEFAULT_STREAM
 *     (13.0's header calls DEFAULT_STREAM required, 13.5's adds NONE; the fake takes both at any
 *     driver version: not measured on driver 580).  Records are kept after destruction, so that
 *     stale handles answer CUDA_ERROR_INVALID_CONTEXT / CONTEXT_IS_DESTROYED, never crash.
 *   - Its CUcontext (cuCtxFromGreenCtx) is a fake_ctx of its own, inside the record but not at
 *     its start, so a CUgreenCtx passed as a CUcontext is refused (CUDA_ERROR_INVALID_CONTEXT,
 *     as cuda.h says).  It can be made current (cuCtxSetCurrent / cuCtxPushCurrent), has the
 *     green context's id (cuCtxGetId = cuGreenCtxGetId), its device, and can be synchronised;
 *     the fake has no cuCtxDestroy, so it cannot be destroyed.
 *   - ASSUMPTION, to be confirmed on the GPU: a green context shares its primary context's
 *     memory, modules and sticky state (fake_ctx.primary): memory allocated and modules loaded
 *     while it is current belong to the primary context, a kernel of the primary context runs
 *     on its streams, and the primary context's streams and events are valid while it is
 *     current and the other way round (fake_stream_check compares fake_ctx_base).  cuda.h
 *     describes the converted context as "a normal primary context but with the resources of
 *     the green context", which is where this comes from.
 *   - Its streams run work like any stream (at once, fake_stream.c); fake_stream_sms and each
 *     launch's fake_launch.sm_count say the SMs they had.  Destroying the green context
 *     detaches them (CUDA_ERROR_STREAM_DETACHED for all but cuStreamDestroy) and invalidates
 *     their captures; resetting the primary context destroys its green contexts too (their
 *     retains go with them).
 *   - Recording an event of a context captures all its work, which is all done: the event is
 *     marked recorded.  A capture in progress on a stream of the context (for a primary
 *     context's record or wait: of it or of its green contexts) is invalidated and the call is
 *     CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, as is waiting for an event recorded in a capture.
 */
#include <stdlib.h>
#include <string.h>

#include "stream/fake_stream.h"

#define FAKE_EXPORT __attribute__((visibility("default")))

typedef struct fake_green {
    unsigned long long serial;       /* keeps ctx off the record's start: CUgreenCtx != CUcontext */
    fake_ctx ctx;                    /* what cuCtxFromGreenCtx hands out; active while it lives */
    unsigned sms, min, align;        /* from its descriptor */
    unsigned flags;
} fake_green;

static ptr_vec greens;               /* every green context made; never freed */

static fake_green *green_find(CUgreenCtx handle)
{
    for (size_t i = 0; handle && i < greens.count; i++)
        if (greens.items[i] == (void *)handle)
            return greens.items[i];
    return NULL;
}

fake_ctx *fake_green_ctx_of(CUcontext handle)
{
    for (size_t i = 0; handle && i < greens.count; i++)
        if (&((fake_green *)greens.items[i])->ctx == (fake_ctx *)handle)
            return &((fake_green *)greens.items[i])->ctx;
    return NULL;
}

fake_ctx *fake_ctx_of_green(CUgreenCtx green)
{
    fake_green *g = green_find(green);
    return g ? &g->ctx : NULL;
}

/* A green context that can be used: CUDA_ERROR_INVALID_CONTEXT for an unknown or destroyed
 * one, the device's sticky error if it has one. */
static CUresult green_live(CUgreenCtx handle, fake_green **out)
{
    CUresult rc = fake_need_init();
    fake_green *g = rc == CUDA_SUCCESS ? green_find(handle) : NULL;
    if (rc == CUDA_SUCCESS && (!g || !fake_ctx_live(&g->ctx)))
        rc = CUDA_ERROR_INVALID_CONTEXT;
    if (rc == CUDA_SUCCESS)
        rc = g->ctx.primary->poison;
    if (rc == CUDA_SUCCESS)
        *out = g;
    return rc;
}

/* A CUcontext that can be used (a green context's too), or CUDA_ERROR_INVALID_CONTEXT. */
static CUresult ctx_live(CUcontext handle, fake_ctx **out)
{
    CUresult rc = fake_need_init();
    fake_ctx *c = rc == CUDA_SUCCESS ? fake_ctx_from_handle(handle) : NULL;
    if (rc == CUDA_SUCCESS && (!c || !fake_ctx_live(c)))
        rc = CUDA_ERROR_INVALID_CONTEXT;
    if (rc == CUDA_SUCCESS)
        rc = fake_ctx_base(c)->poison;
    if (rc == CUDA_SUCCESS)
        *out = c;
    return rc;
}

unsigned fake_ctx_sm_count(const fake_ctx *ctx)
{
    return ctx && ctx->green ? ((const fake_green *)ctx->green)->sms : fake_g.sm_count;
}

/* The context work on `stream` goes to: the stream's, or for 0, 0x1 and 0x2 the current one. */
static fake_ctx *stream_home(CUstream stream)
{
    return (uintptr_t)stream <= 2 ? fake_current_ctx() : fake_stream_ctx(stream);
}

unsigned fake_stream_sms(CUstream stream, uintptr_t *green)
{
    fake_ctx *ctx = stream_home(stream);
    *green = ctx && ctx->green ? (uintptr_t)ctx->green : 0;
    return fake_ctx_sm_count(ctx);
}

/* The SM resource of a context: a green context's SMs, else the whole device. */
static void ctx_resource(const fake_ctx *ctx, CUdevResource *out)
{
    unsigned min, align;
    if (ctx->green) {
        const fake_green *g = ctx->green;
        fake_resource_sm(out, ctx->device, g->sms, g->min, g->align);
        return;
    }
    fake_resource_granularity(&min, &align);
    fake_resource_sm(out, ctx->device, fake_g.sm_count, min, align);
}

void fake_green_primary_gone(fake_ctx *primary)
{
    for (size_t i = 0; i < greens.count; i++) {
        fake_green *g = greens.items[i];
        if (g->ctx.primary != primary || !g->ctx.active)
            continue;
        g->ctx.active = 0;
        if (primary->refcount)
            primary->refcount--;               /* its retain dies with it */
    }
}

/* ---- green contexts ------------------------------------------------------------------------- */

static CUresult CUDAAPI f_cuGreenCtxCreate(CUgreenCtx *phCtx, CUdevResourceDesc desc, CUdevice dev,
                                           unsigned int flags)
{
    CUresult rc = fake_enter("cuGreenCtxCreate", "desc=%p dev=%d flags=0x%x", (void *)desc, dev,
                             flags);
    CUdevice desc_dev = -1;
    unsigned sms = 0, min = 0, align = 0;
    fake_green *g = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_device(dev);
    /* Driver 580 (13.0) requires CU_GREEN_CTX_DEFAULT_STREAM: flags 0 is CUDA_ERROR_INVALID_VALUE
     * there (measured on the H200); 13.5's header documents CU_GREEN_CTX_NONE as accepted, which
     * the fake grants from 13.1 on. */
    int needs_stream_flag = fake_g.driver_version < 13010;
    if (rc == CUDA_SUCCESS && (!phCtx || (flags & ~(unsigned)CU_GREEN_CTX_DEFAULT_STREAM) ||
                               (needs_stream_flag && !(flags & CU_GREEN_CTX_DEFAULT_STREAM)) ||
                               fake_desc_get(desc, &desc_dev, &sms, &min, &align) != 0 ||
                               desc_dev != dev))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = fake_primary_retain(dev);         /* a lost device answers its sticky error */
    if (rc == CUDA_SUCCESS && (!(g = calloc(1, sizeof *g)) || fake_vec_push(&greens, g) != 0)) {
        free(g);
        fake_primary_release(dev);
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    }
    if (rc != CUDA_SUCCESS)
        return fake_leave(rc);
    fake_ctx *primary = &fake_g.ctx[dev];
    g->serial = greens.count;
    g->ctx = (fake_ctx){ .device = dev, .refcount = 1, .flags = primary->flags, .active = 1,
                         .id = ++fake_g.next_ctx_id, .primary = primary, .green = g };
    g->sms = sms;
    g->min = min;
    g->align = align;
    g->flags = flags;
    *phCtx = (CUgreenCtx)g;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGreenCtxDestroy(CUgreenCtx hCtx)
{
    CUresult rc = fake_enter("cuGreenCtxDestroy", "green=%p", (void *)hCtx);
    fake_green *g = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_init();
    if (rc == CUDA_SUCCESS && !(g = green_find(hCtx)))
        rc = CUDA_ERROR_INVALID_CONTEXT;
    if (rc == CUDA_SUCCESS && !g->ctx.active)
        rc = CUDA_ERROR_CONTEXT_IS_DESTROYED;
    if (rc == CUDA_SUCCESS) {
        fake_capture_sync_ctx(&g->ctx, 0);     /* cuda.h: its streams' captures end invalid */
        g->ctx.active = 0;
        fake_primary_release(g->ctx.device);
    }
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuCtxFromGreenCtx(CUcontext *pContext, CUgreenCtx hCtx)
{
    CUresult rc = fake_enter("cuCtxFromGreenCtx", "green=%p", (void *)hCtx);
    fake_green *g = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_init();
    if (rc == CUDA_SUCCESS && !pContext)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && (!(g = green_find(hCtx)) || !fake_ctx_live(&g->ctx)))
        rc = CUDA_ERROR_INVALID_CONTEXT;
    if (rc == CUDA_SUCCESS)
        *pContext = (CUcontext)&g->ctx;
    return fake_leave(rc);
}

/* NULL: the current context's green context, if it is one (cuda.h). */
static CUresult CUDAAPI f_cuGreenCtxGetId(CUgreenCtx hCtx, unsigned long long *id)
{
    CUresult rc = fake_enter("cuGreenCtxGetId", "green=%p", (void *)hCtx);
    fake_ctx *cur = fake_current_ctx();
    fake_green *g = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_init();
    if (rc == CUDA_SUCCESS && !id)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && !(g = hCtx ? green_find(hCtx) : cur ? cur->green : NULL))
        rc = CUDA_ERROR_INVALID_CONTEXT;
    if (rc == CUDA_SUCCESS && !fake_ctx_live(&g->ctx))
        rc = CUDA_ERROR_CONTEXT_IS_DESTROYED;
    if (rc == CUDA_SUCCESS)
        *id = g->ctx.id;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGreenCtxGetDevResource(CUgreenCtx hCtx, CUdevResource *resource,
                                                   CUdevResourceType type)
{
    CUresult rc = fake_enter("cuGreenCtxGetDevResource", "green=%p type=%d", (void *)hCtx,
                             (int)type);
    fake_green *g = NULL;
    if (rc == CUDA_SUCCESS)
        rc = green_live(hCtx, &g);
    if (rc == CUDA_SUCCESS && !resource)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && type != CU_DEV_RESOURCE_TYPE_SM)
        rc = CUDA_ERROR_INVALID_RESOURCE_TYPE;
    if (rc == CUDA_SUCCESS)
        ctx_resource(&g->ctx, resource);
    return fake_leave(rc);
}

/* A primary or created context: the whole device; a green context's CUcontext: its SMs. */
static CUresult CUDAAPI f_cuCtxGetDevResource(CUcontext hCtx, CUdevResource *resource,
                                              CUdevResourceType type)
{
    CUresult rc = fake_enter("cuCtxGetDevResource", "ctx=%p type=%d", (void *)hCtx, (int)type);
    fake_ctx *c = NULL;
    if (rc == CUDA_SUCCESS)
        rc = ctx_live(hCtx, &c);
    if (rc == CUDA_SUCCESS && !resource)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && type != CU_DEV_RESOURCE_TYPE_SM)
        rc = CUDA_ERROR_INVALID_RESOURCE_TYPE;
    if (rc == CUDA_SUCCESS)
        ctx_resource(c, resource);
    return fake_leave(rc);
}

/* ---- streams of green contexts -------------------------------------------------------------- */

/* cuda.h: CU_STREAM_NON_BLOCKING must be given (and no other flag exists); the current context
 * does not matter; the priority is clamped like cuStreamCreateWithPriority's. */
static CUresult CUDAAPI f_cuGreenCtxStreamCreate(CUstream *phStream, CUgreenCtx greenCtx,
                                                 unsigned int flags, int priority)
{
    CUresult rc = fake_enter("cuGreenCtxStreamCreate", "green=%p flags=0x%x priority=%d",
                             (void *)greenCtx, flags, priority);
    fake_green *g = NULL;
    if (rc == CUDA_SUCCESS)
        rc = green_live(greenCtx, &g);
    if (rc == CUDA_SUCCESS && flags != CU_STREAM_NON_BLOCKING)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = fake_stream_new_in(&g->ctx, flags, priority, phStream);
    return fake_leave(rc);
}

/* The context a stream belongs to, for the queries below: a special handle's is the current
 * context (none: CUDA_ERROR_INVALID_CONTEXT); a stream of any context is accepted, a detached
 * one answers CUDA_ERROR_STREAM_DETACHED. */
static CUresult stream_owner(CUstream stream, fake_ctx **out)
{
    fake_ctx *cur = NULL;
    CUresult rc = fake_need_ctx(&cur);
    fake_stream *s = (uintptr_t)stream <= 2 ? NULL : fake_find_stream(stream);
    if (rc == CUDA_SUCCESS && (uintptr_t)stream > 2 && !s)
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS && s && fake_stream_detached(s))
        rc = CUDA_ERROR_STREAM_DETACHED;
    if (rc == CUDA_SUCCESS)
        *out = s ? s->ctx : cur;
    return rc;
}

static CUresult CUDAAPI f_cuStreamGetGreenCtx(CUstream hStream, CUgreenCtx *phCtx)
{
    CUresult rc = fake_enter("cuStreamGetGreenCtx", "stream=%p", (void *)hStream);
    fake_ctx *c = NULL;
    if (rc == CUDA_SUCCESS && !phCtx)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = stream_owner(hStream, &c);
    if (rc == CUDA_SUCCESS)
        *phCtx = (CUgreenCtx)c->green;         /* NULL for an ordinary context */
    return fake_leave(rc);
}

/* The 9.2 form: a green context's stream gives its CUcontext (cuCtxFromGreenCtx's). */
static CUresult CUDAAPI f_cuStreamGetCtx(CUstream hStream, CUcontext *pctx)
{
    CUresult rc = fake_enter("cuStreamGetCtx", "stream=%p", (void *)hStream);
    fake_ctx *c = NULL;
    if (rc == CUDA_SUCCESS && !pctx)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = stream_owner(hStream, &c);
    if (rc == CUDA_SUCCESS)
        *pctx = (CUcontext)c;
    return fake_leave(rc);
}

/* The 12.5 form (cuStreamGetCtx_v2): for a green context, its primary context and the green
 * context; else the context and NULL.  The per-thread stream while a green context is current
 * is CUDA_ERROR_INVALID_HANDLE, as cuda.h says. */
static CUresult CUDAAPI f_cuStreamGetCtx_v2(CUstream hStream, CUcontext *pCtx,
                                            CUgreenCtx *pGreenCtx)
{
    CUresult rc = fake_enter("cuStreamGetCtx_v2", "stream=%p", (void *)hStream);
    fake_ctx *c = NULL;
    if (rc == CUDA_SUCCESS && (!pCtx || !pGreenCtx))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = stream_owner(hStream, &c);
    if (rc == CUDA_SUCCESS && hStream == CU_STREAM_PER_THREAD && c->green)
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS) {
        *pCtx = (CUcontext)fake_ctx_base(c);
        *pGreenCtx = (CUgreenCtx)c->green;
    }
    return fake_leave(rc);
}

/* 13.1: the SMs of the stream's context.  Workqueue types are CUDA_ERROR_INVALID_RESOURCE_TYPE
 * for streams (cuda.h), and the fake knows no others but SM. */
static CUresult CUDAAPI f_cuStreamGetDevResource(CUstream hStream, CUdevResource *resource,
                                                 CUdevResourceType type)
{
    CUresult rc = fake_enter("cuStreamGetDevResource", "stream=%p type=%d", (void *)hStream,
                             (int)type);
    fake_ctx *c = NULL;
    if (rc == CUDA_SUCCESS)
        rc = stream_owner(hStream, &c);
    if (rc == CUDA_SUCCESS && !resource)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && type != CU_DEV_RESOURCE_TYPE_SM)
        rc = CUDA_ERROR_INVALID_RESOURCE_TYPE;
    if (rc == CUDA_SUCCESS)
        ctx_resource(c, resource);
    return fake_leave(rc);
}

/* ---- events of whole contexts --------------------------------------------------------------- */

/* Records event (of ctx's primary context family, else CUDA_ERROR_INVALID_HANDLE) for ctx;
 * family: a primary context's record covers its green contexts' streams. */
static CUresult ctx_record(fake_ctx *ctx, CUevent event, int family)
{
    fake_event *e = fake_find_event(event);
    CUresult rc = e && e->ctx == fake_ctx_base(ctx) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS)
        rc = fake_capture_sync_ctx(ctx, family);
    CUresult unused = CUDA_SUCCESS;
    if (rc == CUDA_SUCCESS)
        fake_capture_event_record(event, NULL, 0, &unused);   /* forgets a capture's frontier */
    if (rc == CUDA_SUCCESS)
        fake_event_mark_recorded(event);
    return rc;
}

/* Waits in ctx for event (of any context): nothing to wait for, all work being done; but an
 * event of a capture, or a capturing stream of ctx, invalidates the capture. */
static CUresult ctx_wait(fake_ctx *ctx, CUevent event, int family)
{
    if (!fake_find_event(event))
        return CUDA_ERROR_INVALID_HANDLE;
    CUresult rc = fake_capture_sync_event(event);
    CUresult busy = fake_capture_sync_ctx(ctx, family);
    return rc != CUDA_SUCCESS ? rc : busy;
}

static CUresult CUDAAPI f_cuGreenCtxRecordEvent(CUgreenCtx hCtx, CUevent hEvent)
{
    CUresult rc = fake_enter("cuGreenCtxRecordEvent", "green=%p event=%p", (void *)hCtx,
                             (void *)hEvent);
    fake_green *g = NULL;
    if (rc == CUDA_SUCCESS)
        rc = green_live(hCtx, &g);
    if (rc == CUDA_SUCCESS)
        rc = ctx_record(&g->ctx, hEvent, 0);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGreenCtxWaitEvent(CUgreenCtx hCtx, CUevent hEvent)
{
    CUresult rc = fake_enter("cuGreenCtxWaitEvent", "green=%p event=%p", (void *)hCtx,
                             (void *)hEvent);
    fake_green *g = NULL;
    if (rc == CUDA_SUCCESS)
        rc = green_live(hCtx, &g);
    if (rc == CUDA_SUCCESS)
        rc = ctx_wait(&g->ctx, hEvent, 0);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuCtxRecordEvent(CUcontext hCtx, CUevent hEvent)
{
    CUresult rc = fake_enter("cuCtxRecordEvent", "ctx=%p event=%p", (void *)hCtx,
                             (void *)hEvent);
    fake_ctx *c = NULL;
    if (rc == CUDA_SUCCESS)
        rc = ctx_live(hCtx, &c);
    if (rc == CUDA_SUCCESS)
        rc = ctx_record(c, hEvent, c->green == NULL);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuCtxWaitEvent(CUcontext hCtx, CUevent hEvent)
{
    CUresult rc = fake_enter("cuCtxWaitEvent", "ctx=%p event=%p", (void *)hCtx, (void *)hEvent);
    fake_ctx *c = NULL;
    if (rc == CUDA_SUCCESS)
        rc = ctx_live(hCtx, &c);
    if (rc == CUDA_SUCCESS)
        rc = ctx_wait(c, hEvent, c->green == NULL);
    return fake_leave(rc);
}

/* ---- the test API (fakecuda.h) -------------------------------------------------------------- */

FAKE_EXPORT size_t fake_green_count(void)
{
    size_t n = 0;
    fake_lock();
    for (size_t i = 0; i < greens.count; i++)
        n += ((fake_green *)greens.items[i])->ctx.active != 0;
    fake_unlock();
    return n;
}

FAKE_EXPORT unsigned fake_primary_retains(int device)
{
    fake_lock();
    unsigned n = device >= 0 && device < fake_g.device_count ? fake_g.ctx[device].refcount : 0;
    fake_unlock();
    return n;
}

FAKE_EXPORT int fake_stream_sm_count(uintptr_t stream)
{
    fake_lock();
    fake_stream *s = stream <= 2 ? NULL : fake_find_stream((CUstream)stream);
    uintptr_t green = 0;
    int n = -1;
    if (stream <= 2 || (s && !fake_stream_detached(s)))
        n = (int)fake_stream_sms((CUstream)stream, &green);
    fake_unlock();
    return n;
}

const proc_entry fake_procs_green[] = {
    {"cuGreenCtxCreate", 12040, 99999, (void *)f_cuGreenCtxCreate},
    {"cuGreenCtxDestroy", 12040, 99999, (void *)f_cuGreenCtxDestroy},
    {"cuCtxFromGreenCtx", 12040, 99999, (void *)f_cuCtxFromGreenCtx},
    {"cuGreenCtxGetId", 12090, 99999, (void *)f_cuGreenCtxGetId},
    {"cuGreenCtxGetDevResource", 12040, 99999, (void *)f_cuGreenCtxGetDevResource},
    {"cuCtxGetDevResource", 12040, 99999, (void *)f_cuCtxGetDevResource},
    {"cuGreenCtxStreamCreate", 12050, 99999, (void *)f_cuGreenCtxStreamCreate},
    {"cuStreamGetGreenCtx", 12040, 99999, (void *)f_cuStreamGetGreenCtx},
    {"cuStreamGetCtx", 9020, 12049, (void *)f_cuStreamGetCtx},
    {"cuStreamGetCtx", 12050, 99999, (void *)f_cuStreamGetCtx_v2},
    {"cuStreamGetDevResource", 13010, 99999, (void *)f_cuStreamGetDevResource},
    {"cuGreenCtxRecordEvent", 12040, 99999, (void *)f_cuGreenCtxRecordEvent},
    {"cuGreenCtxWaitEvent", 12040, 99999, (void *)f_cuGreenCtxWaitEvent},
    {"cuCtxRecordEvent", 12050, 99999, (void *)f_cuCtxRecordEvent},
    {"cuCtxWaitEvent", 12050, 99999, (void *)f_cuCtxWaitEvent},
    {NULL, 0, 0, NULL},
};
