/*
 * fake_stream.c - the fake driver's streams, events and callbacks (see fake_internal.h).
 *
 * What it models:
 *   - Streams: created with flags (CU_STREAM_DEFAULT / CU_STREAM_NON_BLOCKING, anything else is
 *     CUDA_ERROR_INVALID_VALUE) and a priority clamped into [-5, 0] (the H200's range: 0 least,
 *     -5 greatest), in the current context.  A handle is the address of a record that is never
 *     freed, only marked dead on destroy, so a destroyed stream stays invalid
 *     (CUDA_ERROR_INVALID_HANDLE) and its address is never handed out again.  0, CU_STREAM_LEGACY
 *     and CU_STREAM_PER_THREAD are always valid (flags 0, priority 0, ids 1, 1 and 2).
 *   - All work is done when it is queued (launches run on the calling thread), so queries and
 *     synchronisations succeed at once; tests make them answer CUDA_ERROR_NOT_READY with
 *     fake_fail_call.  They accept a stream or event of another context, as the real driver
 *     does, and then answer that context's sticky error if it has one (fake_poison_context).
 *   - Callbacks and host functions run immediately, on the calling thread, after the fake's lock
 *     is dropped (so they may call back into the driver), once each, before the entry point
 *     returns.  The status a cuStreamAddCallback callback receives is CUDA_SUCCESS, unless a test
 *     queued one with fake_fail_call("cuStreamAddCallback:status", nth, code): the nth callback
 *     from then on receives `code`.
 *   - Events: created with CU_EVENT_* flags (INTERPROCESS needs DISABLE_TIMING); a record stamps
 *     the event with a fake clock that advances FAKE_EVENT_TICK_MS per record, so the elapsed
 *     time between consecutive records is exactly that; queries and synchronisations succeed.
 *     Elapsed time needs both events recorded and timed (else CUDA_ERROR_INVALID_HANDLE).
 *   - Stream attributes: stored per stream (access policy window, synchronisation policy,
 *     memory sync domain and its map); PRIORITY reads and writes the stream's priority; any
 *     other id is CUDA_ERROR_INVALID_VALUE.
 *   - Streams of a green context (cuGreenCtxStreamCreate, fake_green.c) are streams like the
 *     others, usable wherever the green context's primary context is current; once the green
 *     context is destroyed, every call on them answers CUDA_ERROR_STREAM_DETACHED except
 *     cuStreamDestroy (13.5 cuda.h).
 * Every entry point needs a current, healthy context, like the others of the fake.
 */
#include <stdlib.h>
#include <string.h>

#include "stream/fake_stream.h"

#define FAKE_PRIORITY_LEAST 0
#define FAKE_PRIORITY_GREATEST (-5)
#define FAKE_EVENT_TICK_MS 1.5f
#define FAKE_CALLBACK_STATUS "cuStreamAddCallback:status"

/* Records never freed (see above); guarded by fake_g.lock. */
static ptr_vec fake_streams, fake_events;
static unsigned long long fake_next_stream_id = 16;
static float fake_clock_ms;

static int fake_is_special_stream(CUstream stream)
{
    return (uintptr_t)stream <= 2;          /* 0, CU_STREAM_LEGACY, CU_STREAM_PER_THREAD */
}

fake_stream *fake_find_stream(CUstream stream)
{
    for (size_t i = 0; i < fake_streams.count; i++) {
        fake_stream *s = fake_streams.items[i];
        if ((CUstream)s == stream)
            return s->dead ? NULL : s;
    }
    return NULL;
}

fake_event *fake_find_event(CUevent event)
{
    for (size_t i = 0; i < fake_events.count; i++) {
        fake_event *e = fake_events.items[i];
        if ((CUevent)e == event)
            return e->dead ? NULL : e;
    }
    return NULL;
}

int fake_event_is_live(CUevent event)
{
    return fake_find_event(event) != NULL;
}

int fake_event_flags(CUevent event, unsigned *flags)
{
    fake_event *e = fake_find_event(event);
    if (!e)
        return -1;
    *flags = e->flags;
    return 0;
}

/* An event opened from another process's IPC handle: the fake cannot see that process's work,
 * so the event is complete from the start (queries succeed, waits return at once). */
CUresult fake_event_new_complete(fake_ctx *ctx, unsigned flags, CUevent *out)
{
    fake_event *e = calloc(1, sizeof *e);
    if (!e || fake_vec_push(&fake_events, e) != 0) {
        free(e);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    e->ctx = fake_ctx_base(ctx);
    e->flags = flags;
    e->recorded = 1;
    *out = (CUevent)e;
    return CUDA_SUCCESS;
}

void fake_event_mark_recorded(CUevent event)
{
    fake_event *e = fake_find_event(event);
    if (e) {
        fake_clock_ms += FAKE_EVENT_TICK_MS;
        e->recorded = 1;
        e->stamp_ms = fake_clock_ms;
    }
}

int fake_stream_detached(const fake_stream *s)
{
    return s->ctx->green && !fake_ctx_live(s->ctx);
}

fake_ctx *fake_stream_ctx(CUstream stream)
{
    fake_stream *s = fake_is_special_stream(stream) ? NULL : fake_find_stream(stream);
    return s ? s->ctx : NULL;
}

/* With the lock held: a special handle, or a live stream of the current context's primary
 * context family (a green context shares its primary's streams, fake_green.c). */
CUresult fake_stream_check(CUstream stream)
{
    if (fake_is_special_stream(stream))
        return CUDA_SUCCESS;
    fake_ctx *ctx = NULL;
    fake_stream *s = fake_find_stream(stream);
    if (s && fake_stream_detached(s))
        return CUDA_ERROR_STREAM_DETACHED;
    if (!s || fake_need_ctx(&ctx) != CUDA_SUCCESS || fake_ctx_base(s->ctx) != fake_ctx_base(ctx))
        return CUDA_ERROR_INVALID_HANDLE;
    return CUDA_SUCCESS;
}

int fake_stream_is_valid(CUstream stream)
{
    return fake_stream_check(stream) == CUDA_SUCCESS;
}

/* The checks every stream entry point starts with: a healthy context and a valid stream.
 * *out is NULL for the special handles. */
static CUresult fake_need_stream(CUstream stream, fake_stream **out)
{
    fake_ctx *ctx = NULL;
    CUresult rc = fake_need_ctx(&ctx);
    if (rc == CUDA_SUCCESS)
        rc = fake_stream_check(stream);
    if (rc == CUDA_SUCCESS && out)
        *out = fake_is_special_stream(stream) ? NULL : fake_find_stream(stream);
    return rc;
}

/* cuStreamSynchronize and cuStreamQuery: like fake_need_stream, but a live stream of another
 * active context is accepted too, as the real driver does (the Programming Guide: they work on
 * another device's stream), and answers that context's sticky error when it has one. */
static CUresult fake_need_stream_any_context(CUstream stream)
{
    CUresult rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS)
        rc = fake_stream_check(stream);
    if (rc != CUDA_ERROR_INVALID_HANDLE)
        return rc;
    fake_stream *s = fake_find_stream(stream);
    if (!s || !fake_ctx_live(s->ctx))
        return CUDA_ERROR_INVALID_HANDLE;
    return fake_ctx_base(s->ctx)->poison;
}

/* Consumes an injected callback status (FAKE_CALLBACK_STATUS), or returns CUDA_SUCCESS. */
static CUresult fake_take_callback_status(void)
{
    for (size_t i = 0; i < fake_g.failures.count; i++) {
        fake_failure *f = fake_g.failures.items[i];
        if (strcmp(f->name, FAKE_CALLBACK_STATUS) != 0 || --f->remaining != 0)
            continue;
        CUresult code = f->code;
        fake_vec_remove(&fake_g.failures, i);
        free(f);
        return code;
    }
    return CUDA_SUCCESS;
}

/* ---- streams -------------------------------------------------------------------------------- */

/* A stream of ctx (checked by the caller), its priority clamped into the device's range. */
CUresult fake_stream_new_in(fake_ctx *ctx, unsigned flags, int priority, CUstream *phStream)
{
    CUresult rc = CUDA_SUCCESS;
    if (!phStream || (flags & ~(unsigned)CU_STREAM_NON_BLOCKING))
        rc = CUDA_ERROR_INVALID_VALUE;
    fake_stream *s = NULL;
    if (rc == CUDA_SUCCESS && !(s = calloc(1, sizeof *s)))
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    if (rc == CUDA_SUCCESS && fake_vec_push(&fake_streams, s) != 0) {
        free(s);
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    }
    if (rc != CUDA_SUCCESS)
        return rc;
    if (priority > FAKE_PRIORITY_LEAST)
        priority = FAKE_PRIORITY_LEAST;
    if (priority < FAKE_PRIORITY_GREATEST)
        priority = FAKE_PRIORITY_GREATEST;
    s->ctx = ctx;
    s->flags = flags;
    s->priority = priority;
    s->id = fake_next_stream_id++;
    *phStream = (CUstream)s;
    return CUDA_SUCCESS;
}

static CUresult fake_stream_new(CUstream *phStream, unsigned flags, int priority)
{
    fake_ctx *ctx = NULL;
    CUresult rc = fake_need_ctx(&ctx);
    return rc == CUDA_SUCCESS ? fake_stream_new_in(ctx, flags, priority, phStream) : rc;
}

static CUresult CUDAAPI f_cuStreamCreate(CUstream *phStream, unsigned int flags)
{
    CUresult rc = fake_enter("cuStreamCreate", "flags=%u", flags);
    if (rc == CUDA_SUCCESS)
        rc = fake_stream_new(phStream, flags, 0);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuStreamCreateWithPriority(CUstream *phStream, unsigned int flags,
                                                     int priority)
{
    CUresult rc = fake_enter("cuStreamCreateWithPriority", "flags=%u priority=%d", flags,
                             priority);
    if (rc == CUDA_SUCCESS)
        rc = fake_stream_new(phStream, flags, priority);
    return fake_leave(rc);
}

/* The one call a detached stream (of a destroyed green context) still takes. */
static CUresult CUDAAPI f_cuStreamDestroy(CUstream hStream)
{
    CUresult rc = fake_enter("cuStreamDestroy", "stream=%p", (void *)hStream);
    fake_stream *s = NULL;
    if (rc == CUDA_SUCCESS && (s = fake_find_stream(hStream)) && fake_stream_detached(s))
        rc = fake_need_ctx(NULL);
    else if (rc == CUDA_SUCCESS)
        rc = fake_need_stream(hStream, &s);
    if (rc == CUDA_SUCCESS && !s)
        rc = CUDA_ERROR_INVALID_HANDLE;     /* the special streams cannot be destroyed */
    if (rc == CUDA_SUCCESS)
        s->dead = 1;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuStreamSynchronize(CUstream hStream)
{
    CUresult rc = fake_enter("cuStreamSynchronize", "stream=%p", (void *)hStream);
    if (rc == CUDA_SUCCESS)
        rc = fake_need_stream_any_context(hStream);
    if (rc == CUDA_SUCCESS)
        rc = fake_capture_sync_stream(hStream);     /* waiting on a capture invalidates it */
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuStreamQuery(CUstream hStream)
{
    CUresult rc = fake_enter("cuStreamQuery", "stream=%p", (void *)hStream);
    if (rc == CUDA_SUCCESS)
        rc = fake_need_stream_any_context(hStream);
    if (rc == CUDA_SUCCESS)
        rc = fake_capture_sync_stream(hStream);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuStreamWaitEvent(CUstream hStream, CUevent hEvent, unsigned int flags)
{
    CUresult rc = fake_enter("cuStreamWaitEvent", "stream=%p event=%p flags=%u",
                             (void *)hStream, (void *)hEvent, flags);
    if (rc == CUDA_SUCCESS)
        rc = fake_need_stream(hStream, NULL);
    if (rc == CUDA_SUCCESS && !fake_find_event(hEvent))
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS && (flags & ~(unsigned)CU_EVENT_WAIT_EXTERNAL))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        fake_capture_wait_event(hStream, hEvent, &rc);    /* fork/join, or an event wait node */
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuStreamAddCallback(CUstream hStream, CUstreamCallback callback,
                                              void *userData, unsigned int flags)
{
    CUresult rc = fake_enter("cuStreamAddCallback", "stream=%p callback=%s userData=%p flags=%u",
                             (void *)hStream, callback ? "set" : "NULL", userData, flags);
    if (rc == CUDA_SUCCESS)
        rc = fake_need_stream(hStream, NULL);
    if (rc == CUDA_SUCCESS && (!callback || flags != 0))
        rc = CUDA_ERROR_INVALID_VALUE;
    CUresult status = rc == CUDA_SUCCESS ? fake_take_callback_status() : CUDA_SUCCESS;
    fake_leave(rc);
    if (rc == CUDA_SUCCESS)
        callback(hStream, status, userData);
    return rc;
}

/* Runs fn at once on the calling thread after the lock is dropped (the stream's earlier work is
 * done already), or makes it a host node of a capture. */
static CUresult launch_host(CUresult rc, CUstream hStream, CUhostFn fn, void *userData,
                            unsigned sync_mode)
{
    if (rc == CUDA_SUCCESS)
        rc = fake_need_stream(hStream, NULL);
    if (rc == CUDA_SUCCESS && !fn)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && fake_capture_host(hStream, fn, userData, sync_mode, &rc))
        return fake_leave(rc);                      /* a host node of the capture */
    fake_leave(rc);
    if (rc == CUDA_SUCCESS)
        fn(userData);
    return rc;
}

static CUresult CUDAAPI f_cuLaunchHostFunc(CUstream hStream, CUhostFn fn, void *userData)
{
    CUresult rc = fake_enter("cuLaunchHostFunc", "stream=%p fn=%s userData=%p", (void *)hStream,
                             fn ? "set" : "NULL", userData);
    return launch_host(rc, hStream, fn, userData, 0);
}

/* The 13.1 signature (cuLaunchHostFunc_v2), handed out for versions >= 13010.  A blocking and a
 * spin-waiting host task differ only in how the driver's thread waits for it, which the fake
 * (running fn at once) has no room for: both run the same; any other mode is
 * CUDA_ERROR_INVALID_VALUE.  The mode is kept in a captured host node. */
static CUresult CUDAAPI f_cuLaunchHostFunc_v2(CUstream hStream, CUhostFn fn, void *userData,
                                              unsigned int syncMode)
{
    CUresult rc = fake_enter("cuLaunchHostFunc_v2", "stream=%p fn=%s userData=%p syncMode=%u",
                             (void *)hStream, fn ? "set" : "NULL", userData, syncMode);
    if (rc == CUDA_SUCCESS && syncMode != FAKE_HOST_TASK_BLOCKING &&
        syncMode != FAKE_HOST_TASK_SPINWAIT)
        rc = CUDA_ERROR_INVALID_VALUE;
    return launch_host(rc, hStream, fn, userData, syncMode);
}

static CUresult CUDAAPI f_cuStreamGetFlags(CUstream hStream, unsigned int *flags)
{
    CUresult rc = fake_enter("cuStreamGetFlags", "stream=%p", (void *)hStream);
    fake_stream *s = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_stream(hStream, &s);
    if (rc == CUDA_SUCCESS && !flags)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        *flags = s ? s->flags : 0;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuStreamGetPriority(CUstream hStream, int *priority)
{
    CUresult rc = fake_enter("cuStreamGetPriority", "stream=%p", (void *)hStream);
    fake_stream *s = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_stream(hStream, &s);
    if (rc == CUDA_SUCCESS && !priority)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        *priority = s ? s->priority : 0;
    return fake_leave(rc);
}

/* A live stream of another active context answers its own device, as the real driver does:
 * finding the device of a stream made elsewhere is what the call is for (CUDA 12's
 * cudaLaunchCooperativeKernelMultiDevice launches on each stream's device this way). */
static CUresult CUDAAPI f_cuStreamGetDevice(CUstream hStream, CUdevice *device)
{
    CUresult rc = fake_enter("cuStreamGetDevice", "stream=%p", (void *)hStream);
    fake_stream *s = NULL;
    fake_ctx *ctx = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_stream_any_context(hStream);
    if (rc == CUDA_SUCCESS && !device)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(&ctx);
    if (rc == CUDA_SUCCESS && !fake_is_special_stream(hStream))
        s = fake_find_stream(hStream);
    if (rc == CUDA_SUCCESS)
        *device = s ? s->ctx->device : ctx->device;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuStreamGetId(CUstream hStream, unsigned long long *streamId)
{
    CUresult rc = fake_enter("cuStreamGetId", "stream=%p", (void *)hStream);
    fake_stream *s = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_stream(hStream, &s);
    if (rc == CUDA_SUCCESS && !streamId)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        *streamId = s ? s->id : hStream == CU_STREAM_PER_THREAD ? 2 : 1;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuCtxGetStreamPriorityRange(int *leastPriority, int *greatestPriority)
{
    CUresult rc = fake_enter("cuCtxGetStreamPriorityRange", "least=%s greatest=%s",
                             leastPriority ? "set" : "NULL", greatestPriority ? "set" : "NULL");
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && leastPriority)
        *leastPriority = FAKE_PRIORITY_LEAST;
    if (rc == CUDA_SUCCESS && greatestPriority)
        *greatestPriority = FAKE_PRIORITY_GREATEST;
    return fake_leave(rc);
}

/* ---- stream attributes ---------------------------------------------------------------------- */

static int fake_is_stream_attr(CUstreamAttrID attr)
{
    switch (attr) {
    case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW:
    case CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY:
    case CU_LAUNCH_ATTRIBUTE_PRIORITY:
    case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP:
    case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN:
        return 1;
    default:
        return 0;
    }
}

static CUresult CUDAAPI f_cuStreamSetAttribute(CUstream hStream, CUstreamAttrID attr,
                                               const CUstreamAttrValue *value)
{
    CUresult rc = fake_enter("cuStreamSetAttribute", "stream=%p attr=%d value=%s",
                             (void *)hStream, (int)attr, value ? "set" : "NULL");
    fake_stream *s = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_stream(hStream, &s);
    if (rc == CUDA_SUCCESS && (!value || !fake_is_stream_attr(attr)))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && !s)
        rc = CUDA_ERROR_INVALID_HANDLE;     /* no settable state on the special streams */
    if (rc == CUDA_SUCCESS && attr == CU_LAUNCH_ATTRIBUTE_PRIORITY)
        s->priority = value->priority < FAKE_PRIORITY_GREATEST ? FAKE_PRIORITY_GREATEST
                      : value->priority > FAKE_PRIORITY_LEAST  ? FAKE_PRIORITY_LEAST
                                                               : value->priority;
    else if (rc == CUDA_SUCCESS)
        s->attr[attr] = *value;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuStreamGetAttribute(CUstream hStream, CUstreamAttrID attr,
                                               CUstreamAttrValue *value)
{
    CUresult rc = fake_enter("cuStreamGetAttribute", "stream=%p attr=%d", (void *)hStream,
                             (int)attr);
    fake_stream *s = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_stream(hStream, &s);
    if (rc == CUDA_SUCCESS && (!value || !fake_is_stream_attr(attr)))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS) {
        memset(value, 0, sizeof *value);
        if (s)
            *value = s->attr[attr];
        if (attr == CU_LAUNCH_ATTRIBUTE_PRIORITY)
            value->priority = s ? s->priority : 0;
    }
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuStreamCopyAttributes(CUstream dst, CUstream src)
{
    CUresult rc = fake_enter("cuStreamCopyAttributes", "dst=%p src=%p", (void *)dst, (void *)src);
    fake_stream *to = NULL, *from = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_stream(dst, &to);
    if (rc == CUDA_SUCCESS)
        rc = fake_need_stream(src, &from);
    if (rc == CUDA_SUCCESS && !to)
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS) {
        if (from)
            memcpy(to->attr, from->attr, sizeof to->attr);
        else
            memset(to->attr, 0, sizeof to->attr);
        to->priority = from ? from->priority : 0;
    }
    return fake_leave(rc);
}

/* ---- events --------------------------------------------------------------------------------- */

CUresult fake_event_new(CUevent *phEvent, unsigned flags)
{
    fake_ctx *ctx = NULL;
    const unsigned known = CU_EVENT_BLOCKING_SYNC | CU_EVENT_DISABLE_TIMING |
                           CU_EVENT_INTERPROCESS;
    CUresult rc = fake_need_ctx(&ctx);
    if (rc == CUDA_SUCCESS && (!phEvent || (flags & ~known) ||
                               ((flags & CU_EVENT_INTERPROCESS) &&
                                !(flags & CU_EVENT_DISABLE_TIMING))))
        rc = CUDA_ERROR_INVALID_VALUE;
    fake_event *e = NULL;
    if (rc == CUDA_SUCCESS && !(e = calloc(1, sizeof *e)))
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    if (rc == CUDA_SUCCESS && fake_vec_push(&fake_events, e) != 0) {
        free(e);
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    }
    if (rc == CUDA_SUCCESS) {
        e->ctx = fake_ctx_base(ctx);
        e->flags = flags;
        *phEvent = (CUevent)e;
    }
    return rc;
}

static CUresult CUDAAPI f_cuEventCreate(CUevent *phEvent, unsigned int flags)
{
    CUresult rc = fake_enter("cuEventCreate", "flags=%u", flags);
    if (rc == CUDA_SUCCESS)
        rc = fake_event_new(phEvent, flags);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuEventDestroy(CUevent hEvent)
{
    CUresult rc = fake_enter("cuEventDestroy", "event=%p", (void *)hEvent);
    fake_event *e = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && !(e = fake_find_event(hEvent)))
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS)
        e->dead = 1;
    return fake_leave(rc);
}

static CUresult fake_event_record(CUevent hEvent, CUstream hStream, unsigned flags)
{
    fake_event *e = NULL;
    CUresult rc = fake_need_stream(hStream, NULL);
    if (rc == CUDA_SUCCESS && !(e = fake_find_event(hEvent)))
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS && (flags & ~(unsigned)CU_EVENT_RECORD_EXTERNAL))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && fake_capture_event_record(hEvent, hStream, flags, &rc))
        return rc;                                  /* in a capture: nothing recorded now */
    if (rc == CUDA_SUCCESS) {
        fake_clock_ms += FAKE_EVENT_TICK_MS;
        e->recorded = 1;
        e->stamp_ms = fake_clock_ms;
    }
    return rc;
}

static CUresult CUDAAPI f_cuEventRecord(CUevent hEvent, CUstream hStream)
{
    CUresult rc = fake_enter("cuEventRecord", "event=%p stream=%p", (void *)hEvent,
                             (void *)hStream);
    if (rc == CUDA_SUCCESS)
        rc = fake_event_record(hEvent, hStream, 0);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuEventRecordWithFlags(CUevent hEvent, CUstream hStream,
                                                 unsigned int flags)
{
    CUresult rc = fake_enter("cuEventRecordWithFlags", "event=%p stream=%p flags=%u",
                             (void *)hEvent, (void *)hStream, flags);
    if (rc == CUDA_SUCCESS)
        rc = fake_event_record(hEvent, hStream, flags);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuEventQuery(CUevent hEvent)
{
    CUresult rc = fake_enter("cuEventQuery", "event=%p", (void *)hEvent);
    fake_event *e = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && !(e = fake_find_event(hEvent)))
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS)
        rc = fake_capture_sync_event(hEvent);       /* recorded in a capture: invalidates it */
    if (rc == CUDA_SUCCESS && fake_ctx_live(e->ctx))
        rc = e->ctx->poison;            /* an event of another, broken context */
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuEventSynchronize(CUevent hEvent)
{
    CUresult rc = fake_enter("cuEventSynchronize", "event=%p", (void *)hEvent);
    fake_event *e = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && !(e = fake_find_event(hEvent)))
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS)
        rc = fake_capture_sync_event(hEvent);       /* recorded in a capture: invalidates it */
    if (rc == CUDA_SUCCESS && fake_ctx_live(e->ctx))
        rc = e->ctx->poison;            /* an event of another, broken context */
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuEventElapsedTime(float *pMilliseconds, CUevent hStart, CUevent hEnd)
{
    CUresult rc = fake_enter("cuEventElapsedTime", "start=%p end=%p", (void *)hStart,
                             (void *)hEnd);
    fake_event *start = NULL, *end = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && !pMilliseconds)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && (!(start = fake_find_event(hStart)) ||
                               !(end = fake_find_event(hEnd))))
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS && (!start->recorded || !end->recorded ||
                               ((start->flags | end->flags) & CU_EVENT_DISABLE_TIMING)))
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS)
        *pMilliseconds = end->stamp_ms - start->stamp_ms;
    return fake_leave(rc);
}

const proc_entry fake_procs_stream[] = {
    {"cuStreamCreate", 2000, 99999, (void *)f_cuStreamCreate},
    {"cuStreamCreateWithPriority", 5050, 99999, (void *)f_cuStreamCreateWithPriority},
    {"cuStreamDestroy", 4000, 99999, (void *)f_cuStreamDestroy},
    {"cuStreamSynchronize", 2000, 99999, (void *)f_cuStreamSynchronize},
    {"cuStreamQuery", 2000, 99999, (void *)f_cuStreamQuery},
    {"cuStreamWaitEvent", 3020, 99999, (void *)f_cuStreamWaitEvent},
    {"cuStreamAddCallback", 5000, 99999, (void *)f_cuStreamAddCallback},
    {"cuLaunchHostFunc", 10000, 13009, (void *)f_cuLaunchHostFunc},
    {"cuLaunchHostFunc", 13010, 99999, (void *)f_cuLaunchHostFunc_v2},
    {"cuStreamGetFlags", 5050, 99999, (void *)f_cuStreamGetFlags},
    {"cuStreamGetPriority", 5050, 99999, (void *)f_cuStreamGetPriority},
    {"cuStreamGetDevice", 12080, 99999, (void *)f_cuStreamGetDevice},
    {"cuStreamGetId", 12000, 99999, (void *)f_cuStreamGetId},
    {"cuStreamSetAttribute", 11000, 99999, (void *)f_cuStreamSetAttribute},
    {"cuStreamGetAttribute", 11000, 99999, (void *)f_cuStreamGetAttribute},
    {"cuStreamCopyAttributes", 11000, 99999, (void *)f_cuStreamCopyAttributes},
    {"cuCtxGetStreamPriorityRange", 5050, 99999, (void *)f_cuCtxGetStreamPriorityRange},
    {"cuEventCreate", 2000, 99999, (void *)f_cuEventCreate},
    {"cuEventRecord", 2000, 99999, (void *)f_cuEventRecord},
    {"cuEventRecordWithFlags", 11010, 99999, (void *)f_cuEventRecordWithFlags},
    {"cuEventQuery", 2000, 99999, (void *)f_cuEventQuery},
    {"cuEventSynchronize", 2000, 99999, (void *)f_cuEventSynchronize},
    {"cuEventElapsedTime", 12080, 99999, (void *)f_cuEventElapsedTime},
    {"cuEventDestroy", 4000, 99999, (void *)f_cuEventDestroy},
    {NULL, 0, 0, NULL},
};
