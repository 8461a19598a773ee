/*
 * event.c - events: markers in a stream that the host or other streams can wait for, and time.
 *
 * A cudaEvent_t is the driver's CUevent, handed out unwrapped, so IPC handles, cuBLAS and
 * driver-API code see the same event.  Flags map 1:1 (cudaEventBlockingSync,
 * cudaEventDisableTiming, cudaEventInterprocess; cudaEventRecordExternal for
 * cudaEventRecordWithFlags); the driver validates them.  cudaEventRecord's _ptsz variant differs
 * only in what stream 0 means (rt_stream).
 */
#include "stream/stream.h"

_Static_assert(cudaEventDefault == CU_EVENT_DEFAULT &&
               cudaEventBlockingSync == CU_EVENT_BLOCKING_SYNC &&
               cudaEventDisableTiming == CU_EVENT_DISABLE_TIMING &&
               cudaEventInterprocess == CU_EVENT_INTERPROCESS &&
               cudaEventRecordExternal == CU_EVENT_RECORD_EXTERNAL,
               "event flags differ");


static cudaError_t rt_event_create(cudaEvent_t *event, unsigned flags)
{
    if (!event)
        return cudaErrorInvalidValue;
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        return e;
    CUevent ev = NULL;
    e = rt_driver_result(d, rt_drv.cuEventCreate(&ev, flags));
    if (e == cudaSuccess) {
        rt_handle_add(RT_HANDLE_EVENT, ev, d);
        *event = (cudaEvent_t)ev;
    }
    RT_TRACE("event %p created (flags %#x): %s", (void *)ev, flags, rt_error_name(e));
    return e;
}

/* The one body of cudaEventCreate and cudaEventCreateWithFlags (RT_FORWARD). */
static cudaError_t rt_event_create_api(cudaEvent_t *event, unsigned flags, rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_event_create(event, flags));
}

RT_API cudaError_t cudaEventCreate(cudaEvent_t *event)
{
    RT_FORWARD(rt_event_create_api(event, cudaEventDefault, RT_SELF));
}

RT_API cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags)
{
    RT_FORWARD(rt_event_create_api(event, flags, RT_SELF));
}

RT_API cudaError_t cudaEventDestroy(cudaEvent_t event)
{
    RT_ENTER();
    rt_device *d;
    cudaError_t e = rt_enter_with(NULL, event, &d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    /* Forgotten first: once destroyed, its address may come back for another thread's event.
     * An event recorded but not yet reached is released by the driver once it completes. */
    rt_handle_remove(event);
    RT_RETURN(rt_driver_result(d, rt_drv.cuEventDestroy((CUevent)event)));
}

/* cuEventRecord, or cuEventRecordWithFlags when with_flags (cudaEventRecordWithFlags with flags
 * 0 still reaches the WithFlags entry point, as the caller asked). */
static cudaError_t rt_event_record(cudaEvent_t event, cudaStream_t stream, unsigned flags,
                                   bool with_flags, bool per_thread)
{
    rt_device *d;
    cudaError_t e = rt_enter_with(stream, event, &d);
    if (e != cudaSuccess)
        return e;
    CUstream s = rt_stream(stream, per_thread);
    CUresult r = with_flags ? rt_drv.cuEventRecordWithFlags((CUevent)event, s, flags)
                            : rt_drv.cuEventRecord((CUevent)event, s);
    return rt_driver_result(d, r);
}

/* The one body of cudaEventRecord, cudaEventRecord_ptsz, cudaEventRecordWithFlags and
 * cudaEventRecordWithFlags_ptsz (RT_FORWARD). */
static cudaError_t rt_event_record_api(cudaEvent_t event, cudaStream_t stream, unsigned flags,
                                       bool with_flags, bool per_thread, rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_event_record(event, stream, flags, with_flags, per_thread));
}

RT_API cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
    RT_FORWARD(rt_event_record_api(event, stream, 0, false, false, RT_SELF));
}

RT_API cudaError_t cudaEventRecord_ptsz(cudaEvent_t event, cudaStream_t stream)
{
    RT_FORWARD(rt_event_record_api(event, stream, 0, false, true, RT_SELF));
}

RT_API cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream,
                                            unsigned int flags)
{
    RT_FORWARD(rt_event_record_api(event, stream, flags, true, false, RT_SELF));
}

RT_API cudaError_t cudaEventRecordWithFlags_ptsz(cudaEvent_t event, cudaStream_t stream,
                                                 unsigned int flags)
{
    RT_FORWARD(rt_event_record_api(event, stream, flags, true, true, RT_SELF));
}

/* cudaSuccess once the work before the event's last record is done (or it was never recorded);
 * cudaErrorNotReady, not stored as the last error (stream.h), while it is pending. */
RT_API cudaError_t cudaEventQuery(cudaEvent_t event)
{
    RT_ENTER();
    rt_device *d;
    cudaError_t e = rt_enter_with(NULL, event, &d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    RT_RETURN_QUERY(rt_driver_result(d, rt_drv.cuEventQuery((CUevent)event)));
}

RT_API cudaError_t cudaEventSynchronize(cudaEvent_t event)
{
    RT_ENTER();
    rt_device *d;
    cudaError_t e = rt_enter_with(NULL, event, &d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    RT_RETURN(rt_driver_result(d, rt_drv.cuEventSynchronize((CUevent)event)));
}

/*
 * Milliseconds between two completed records.  Events never recorded or created with
 * cudaEventDisableTiming give cudaErrorInvalidResourceHandle, pending ones cudaErrorNotReady
 * (the driver decides all three).  NotReady leaves the last error alone as the queries do: a
 * choice by analogy with the measured queries, settled by conf_streams.cu on a GPU.
 */
RT_API cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
    RT_ENTER();
    if (!ms)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = rt_enter_with(NULL, start, &d);
    if (e == cudaSuccess)
        e = rt_enter_with(NULL, end, &d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    float elapsed = 0.0f;
    e = rt_driver_result(d, rt_drv.cuEventElapsedTime(&elapsed, (CUevent)start, (CUevent)end));
    if (e == cudaSuccess)
        *ms = elapsed;
    RT_RETURN_QUERY(e);
}
