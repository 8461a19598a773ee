/*
 * stream.c - streams, stream callbacks and host functions, stream attributes.
 *
 * A cudaStream_t is the driver's CUstream, handed out unwrapped (SEMANTICS.md 7.4).  The special
 * handles 0 (legacy stream), cudaStreamLegacy (0x1) and cudaStreamPerThread (0x2) go to the
 * driver unchanged, and the driver implements the legacy stream's implicit synchronisation and
 * the per-thread streams itself (SEMANTICS.md 5.6).  The _ptsz entry points, which nvcc's
 * `-default-stream per-thread` builds call instead of the plain ones, differ only in what 0
 * means: this thread's per-thread stream (rt_stream).
 *
 * Flags and priorities map 1:1: cudaStreamNonBlocking is CU_STREAM_NON_BLOCKING, and a
 * cudaStreamAttrValue is a CUstreamAttrValue (checked below).
 *
 * Callbacks (cudaStreamAddCallback) go through cuStreamAddCallback with a small heap record that
 * the trampoline frees after the call: the driver's callback gets a CUresult and the user's gets a
 * cudaError_t.  The status passed on is the driver's, translated: cudaSuccess, or the error that
 * broke the stream's context.  The stream passed on is the handle the caller gave (0 stays 0).
 * Host functions (cudaLaunchHostFunc) have the driver's own signature and need no trampoline.
 */
#include <stdlib.h>

#include "stream/stream.h"

/* The external definition of these inline helpers of stream/stream.h (RT_INLINE, core/core.h). */
extern inline cudaError_t rt_exit_query(cudaError_t e);

/* A runtime stream attribute value is the driver's, byte for byte. */
_Static_assert(sizeof(cudaStreamAttrValue) == sizeof(CUstreamAttrValue),
               "cudaStreamAttrValue and CUstreamAttrValue differ in size");
_Static_assert(offsetof(cudaStreamAttrValue, accessPolicyWindow.num_bytes) ==
                   offsetof(CUstreamAttrValue, accessPolicyWindow.num_bytes) &&
               offsetof(cudaStreamAttrValue, accessPolicyWindow.hitRatio) ==
                   offsetof(CUstreamAttrValue, accessPolicyWindow.hitRatio) &&
               offsetof(cudaStreamAttrValue, accessPolicyWindow.missProp) ==
                   offsetof(CUstreamAttrValue, accessPolicyWindow.missProp) &&
               sizeof(struct cudaAccessPolicyWindow) == sizeof(CUaccessPolicyWindow),
               "access policy windows differ");
_Static_assert(offsetof(cudaStreamAttrValue, syncPolicy) ==
                   offsetof(CUstreamAttrValue, syncPolicy) &&
               offsetof(cudaStreamAttrValue, priority) == offsetof(CUstreamAttrValue, priority) &&
               offsetof(cudaStreamAttrValue, memSyncDomainMap) ==
                   offsetof(CUstreamAttrValue, memSyncDomainMap) &&
               offsetof(cudaStreamAttrValue, memSyncDomain) ==
                   offsetof(CUstreamAttrValue, memSyncDomain),
               "stream attribute fields differ");
_Static_assert((int)cudaLaunchAttributeAccessPolicyWindow ==
                   (int)CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW &&
               (int)cudaLaunchAttributeSynchronizationPolicy ==
                   (int)CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY &&
               (int)cudaLaunchAttributePriority == (int)CU_LAUNCH_ATTRIBUTE_PRIORITY &&
               (int)cudaLaunchAttributeMemSyncDomainMap ==
                   (int)CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP &&
               (int)cudaLaunchAttributeMemSyncDomain == (int)CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN,
               "stream attribute ids differ");
_Static_assert(cudaStreamDefault == CU_STREAM_DEFAULT &&
               cudaStreamNonBlocking == CU_STREAM_NON_BLOCKING, "stream flags differ");


/* ---- creation and destruction --------------------------------------------------------------- */

/* cuStreamCreate, or cuStreamCreateWithPriority when with_priority.  The driver validates the
 * flags and clamps the priority into the device's range. */
static cudaError_t rt_stream_create(cudaStream_t *pStream, unsigned flags, int priority,
                                    bool with_priority)
{
    if (!pStream)
        return cudaErrorInvalidValue;
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        return e;
    CUstream s = NULL;
    CUresult r = with_priority ? rt_drv.cuStreamCreateWithPriority(&s, flags, priority)
                               : rt_drv.cuStreamCreate(&s, flags);
    e = rt_driver_result(d, r);
    if (e == cudaSuccess) {
        rt_handle_add(RT_HANDLE_STREAM, s, d);
        *pStream = (cudaStream_t)s;
    }
    RT_TRACE("stream %p created (flags %#x, priority %d%s): %s", (void *)s, flags, priority,
             with_priority ? "" : ", default", rt_error_name(e));
    return e;
}

/* The one body of cudaStreamCreate, cudaStreamCreateWithFlags and cudaStreamCreateWithPriority
 * (RT_FORWARD). */
static cudaError_t rt_stream_create_api(cudaStream_t *pStream, unsigned flags, int priority,
                                        bool with_priority, rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_stream_create(pStream, flags, priority, with_priority));
}

RT_API cudaError_t cudaStreamCreate(cudaStream_t *pStream)
{
    RT_FORWARD(rt_stream_create_api(pStream, cudaStreamDefault, 0, false, RT_SELF));
}

RT_API cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags)
{
    RT_FORWARD(rt_stream_create_api(pStream, flags, 0, false, RT_SELF));
}

RT_API cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream, unsigned int flags,
                                                int priority)
{
    RT_FORWARD(rt_stream_create_api(pStream, flags, priority, true, RT_SELF));
}

RT_API cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
    RT_ENTER();
    rt_device *d;
    cudaError_t e = rt_enter_with(stream, NULL, &d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    /* Forgotten first: once destroyed, its address may come back for another thread's stream.
     * Work still queued completes first; the driver releases the stream after it. */
    rt_handle_remove(stream);
    e = rt_driver_result(d, rt_drv.cuStreamDestroy((CUstream)stream));
    RT_TRACE("stream %p destroyed: %s", (void *)stream, rt_error_name(e));
    RT_RETURN(e);
}

RT_API cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority)
{
    RT_ENTER();
    /* Either pointer may be NULL: that value is simply not returned (the driver's rule too). */
    rt_device *d;
    cudaError_t e = rt_context_enter(&d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    RT_RETURN(rt_driver_result(d, rt_drv.cuCtxGetStreamPriorityRange(leastPriority,
                                                                      greatestPriority)));
}

/* ---- waiting and querying ------------------------------------------------------------------- */

static cudaError_t rt_stream_synchronize(cudaStream_t stream, bool per_thread)
{
    rt_device *d;
    cudaError_t e = rt_enter_with(stream, NULL, &d);
    if (e != cudaSuccess)
        return e;
    return rt_driver_result(d, rt_drv.cuStreamSynchronize(rt_stream(stream, per_thread)));
}

/* The one body of cudaStreamSynchronize and cudaStreamSynchronize_ptsz (RT_FORWARD). */
static cudaError_t rt_stream_synchronize_api(cudaStream_t stream, bool per_thread, rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_stream_synchronize(stream, per_thread));
}

RT_API cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{
    RT_FORWARD(rt_stream_synchronize_api(stream, false, RT_SELF));
}

RT_API cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t stream)
{
    RT_FORWARD(rt_stream_synchronize_api(stream, true, RT_SELF));
}

/* cudaSuccess when all work of the stream is done, cudaErrorNotReady (not stored as the last
 * error: stream.h) while some is pending. */
static cudaError_t rt_stream_query(cudaStream_t stream, bool per_thread)
{
    rt_device *d;
    cudaError_t e = rt_enter_with(stream, NULL, &d);
    if (e != cudaSuccess)
        return e;
    return rt_driver_result(d, rt_drv.cuStreamQuery(rt_stream(stream, per_thread)));
}

RT_API cudaError_t cudaStreamQuery(cudaStream_t stream)
{
    RT_ENTER();
    RT_RETURN_QUERY(rt_stream_query(stream, false));
}

RT_API cudaError_t cudaStreamQuery_ptsz(cudaStream_t stream)
{
    RT_ENTER();
    RT_RETURN_QUERY(rt_stream_query(stream, true));
}

/* flags: cudaEventWaitDefault or cudaEventWaitExternal, the driver's CU_EVENT_WAIT_* values. */
static cudaError_t rt_stream_wait_event(cudaStream_t stream, cudaEvent_t event, unsigned flags,
                                        bool per_thread)
{
    rt_device *d;
    cudaError_t e = rt_enter_with(stream, event, &d);
    if (e != cudaSuccess)
        return e;
    return rt_driver_result(d, rt_drv.cuStreamWaitEvent(rt_stream(stream, per_thread),
                                                        (CUevent)event, flags));
}

/* The one body of cudaStreamWaitEvent and cudaStreamWaitEvent_ptsz (RT_FORWARD). */
static cudaError_t rt_stream_wait_event_api(cudaStream_t stream, cudaEvent_t event, unsigned flags,
                                            bool per_thread, rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_stream_wait_event(stream, event, flags, per_thread));
}

RT_API cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags)
{
    RT_FORWARD(rt_stream_wait_event_api(stream, event, flags, false, RT_SELF));
}

RT_API cudaError_t cudaStreamWaitEvent_ptsz(cudaStream_t stream, cudaEvent_t event,
                                            unsigned int flags)
{
    RT_FORWARD(rt_stream_wait_event_api(stream, event, flags, true, RT_SELF));
}

/* ---- callbacks and host functions ----------------------------------------------------------- */

/* What a queued cudaStreamAddCallback needs when the driver calls back.  Allocated by the
 * enqueueing thread, freed by the trampoline (the driver calls each callback exactly once). */
struct rt_callback {
    cudaStreamCallback_t fn;
    void *user;
    cudaStream_t stream;          /* as the caller passed it */
};

/* Runs on a driver thread: translates the status and calls the user's callback. */
static void CUDA_CB rt_callback_trampoline(CUstream hStream, CUresult status, void *data)
{
    (void)hStream;
    struct rt_callback cb = *(struct rt_callback *)data;
    free(data);
    cb.fn(cb.stream, rt_error_from_cu(status), cb.user);
}

static cudaError_t rt_stream_add_callback(cudaStream_t stream, cudaStreamCallback_t callback,
                                          void *userData, unsigned flags, bool per_thread)
{
    if (!callback || flags != 0)          /* flags: "reserved for future use, must be 0" */
        return cudaErrorInvalidValue;
    rt_device *d;
    cudaError_t e = rt_enter_with(stream, NULL, &d);
    if (e != cudaSuccess)
        return e;
    struct rt_callback *cb = malloc(sizeof *cb);
    if (!cb)
        return cudaErrorMemoryAllocation;
    *cb = (struct rt_callback){ callback, userData, stream };
    e = rt_driver_result(d, rt_drv.cuStreamAddCallback(rt_stream(stream, per_thread),
                                                       rt_callback_trampoline, cb, 0));
    if (e != cudaSuccess)
        free(cb);                         /* never queued: the trampoline will not run */
    return e;
}

/* The one body of cudaStreamAddCallback and cudaStreamAddCallback_ptsz (RT_FORWARD). */
static cudaError_t rt_stream_add_callback_api(cudaStream_t stream, cudaStreamCallback_t callback,
                                              void *userData, unsigned flags, bool per_thread,
                                              rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_stream_add_callback(stream, callback, userData, flags, per_thread));
}

RT_API cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback,
                                         void *userData, unsigned int flags)
{
    RT_FORWARD(rt_stream_add_callback_api(stream, callback, userData, flags, false, RT_SELF));
}

RT_API cudaError_t cudaStreamAddCallback_ptsz(cudaStream_t stream,
                                              cudaStreamCallback_t callback, void *userData,
                                              unsigned int flags)
{
    RT_FORWARD(rt_stream_add_callback_api(stream, callback, userData, flags, true, RT_SELF));
}

/* cudaHostFn_t and CUhostFn are the same type: the driver calls the user's function itself. */
static cudaError_t rt_launch_host_func(cudaStream_t stream, cudaHostFn_t fn, void *userData,
                                       bool per_thread)
{
    if (!fn)
        return cudaErrorInvalidValue;
    rt_device *d;
    cudaError_t e = rt_enter_with(stream, NULL, &d);
    if (e != cudaSuccess)
        return e;
    return rt_driver_result(d, rt_drv.cuLaunchHostFunc(rt_stream(stream, per_thread), fn,
                                                       userData));
}

/* The one body of cudaLaunchHostFunc and cudaLaunchHostFunc_ptsz (RT_FORWARD). */
static cudaError_t rt_launch_host_func_api(cudaStream_t stream, cudaHostFn_t fn, void *userData,
                                           bool per_thread, rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_launch_host_func(stream, fn, userData, per_thread));
}

RT_API cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData)
{
    RT_FORWARD(rt_launch_host_func_api(stream, fn, userData, false, RT_SELF));
}

RT_API cudaError_t cudaLaunchHostFunc_ptsz(cudaStream_t stream, cudaHostFn_t fn, void *userData)
{
    RT_FORWARD(rt_launch_host_func_api(stream, fn, userData, true, RT_SELF));
}

/*
 * cudaLaunchHostFunc_v2 (13.5) adds a sync mode: how the driver's thread that runs host functions
 * waits for the next one (blocking, or spinning for lower latency).  The 13.1 driver takes it in
 * cuLaunchHostFunc's new ABI.  On an older driver the blocking mode is what cuLaunchHostFunc
 * has always done, so the runtime answers that one itself; a spin-wait cannot be had there and
 * is refused, as NVIDIA's runtime refuses every mode on such a driver.
 */
static cudaError_t rt_launch_host_func_v2(cudaStream_t stream, cudaHostFn_t fn, void *userData,
                                          unsigned syncMode, bool per_thread)
{
    if (!fn || (syncMode != cudaHostTaskBlocking && syncMode != cudaHostTaskSpinWait))
        return cudaErrorInvalidValue;
    rt_device *d;
    cudaError_t e = rt_enter_with(stream, NULL, &d);
    if (e != cudaSuccess)
        return e;
    CUstream s = rt_stream(stream, per_thread);
    if (rt_drv.cuLaunchHostFunc_v2)
        return rt_driver_result(d, rt_drv.cuLaunchHostFunc_v2(s, fn, userData, syncMode));
    if (syncMode != cudaHostTaskBlocking)
        return rt_driver_newer(false, "cuLaunchHostFunc v2 (for cudaHostTaskSpinWait)");
    RT_TRACE("%s: blocking sync mode without cuLaunchHostFunc v2: cuLaunchHostFunc, which "
             "blocks", rt_call_name());
    return rt_driver_result(d, rt_drv.cuLaunchHostFunc(s, fn, userData));
}

/* The one body of cudaLaunchHostFunc_v2 and cudaLaunchHostFunc_v2_ptsz (RT_FORWARD). */
static cudaError_t rt_launch_host_func_v2_api(cudaStream_t stream, cudaHostFn_t fn, void *userData,
                                              unsigned syncMode, bool per_thread, rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_launch_host_func_v2(stream, fn, userData, syncMode, per_thread));
}

RT_API cudaError_t cudaLaunchHostFunc_v2(cudaStream_t stream, cudaHostFn_t fn, void *userData,
                                         unsigned int syncMode)
{
    RT_FORWARD(rt_launch_host_func_v2_api(stream, fn, userData, syncMode, false, RT_SELF));
}

RT_API cudaError_t cudaLaunchHostFunc_v2_ptsz(cudaStream_t stream, cudaHostFn_t fn,
                                              void *userData, unsigned int syncMode)
{
    RT_FORWARD(rt_launch_host_func_v2_api(stream, fn, userData, syncMode, true, RT_SELF));
}

/* ---- properties ----------------------------------------------------------------------------- */

static cudaError_t rt_stream_get_flags(cudaStream_t stream, unsigned *flags, bool per_thread)
{
    if (!flags)
        return cudaErrorInvalidValue;
    rt_device *d;
    cudaError_t e = rt_enter_with(stream, NULL, &d);
    if (e != cudaSuccess)
        return e;
    return rt_driver_result(d, rt_drv.cuStreamGetFlags(rt_stream(stream, per_thread), flags));
}

/* The one body of cudaStreamGetFlags and cudaStreamGetFlags_ptsz (RT_FORWARD). */
static cudaError_t rt_stream_get_flags_api(cudaStream_t stream, unsigned *flags, bool per_thread,
                                           rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_stream_get_flags(stream, flags, per_thread));
}

RT_API cudaError_t cudaStreamGetFlags(cudaStream_t hStream, unsigned int *flags)
{
    RT_FORWARD(rt_stream_get_flags_api(hStream, flags, false, RT_SELF));
}

RT_API cudaError_t cudaStreamGetFlags_ptsz(cudaStream_t hStream, unsigned int *flags)
{
    RT_FORWARD(rt_stream_get_flags_api(hStream, flags, true, RT_SELF));
}

static cudaError_t rt_stream_get_priority(cudaStream_t stream, int *priority, bool per_thread)
{
    if (!priority)
        return cudaErrorInvalidValue;
    rt_device *d;
    cudaError_t e = rt_enter_with(stream, NULL, &d);
    if (e != cudaSuccess)
        return e;
    return rt_driver_result(d, rt_drv.cuStreamGetPriority(rt_stream(stream, per_thread),
                                                          priority));
}

/* The one body of cudaStreamGetPriority and cudaStreamGetPriority_ptsz (RT_FORWARD). */
static cudaError_t rt_stream_get_priority_api(cudaStream_t stream, int *priority, bool per_thread,
                                              rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_stream_get_priority(stream, priority, per_thread));
}

RT_API cudaError_t cudaStreamGetPriority(cudaStream_t hStream, int *priority)
{
    RT_FORWARD(rt_stream_get_priority_api(hStream, priority, false, RT_SELF));
}

RT_API cudaError_t cudaStreamGetPriority_ptsz(cudaStream_t hStream, int *priority)
{
    RT_FORWARD(rt_stream_get_priority_api(hStream, priority, true, RT_SELF));
}

/* The runtime's ordinal of the device the stream belongs to (the driver answers a CUdevice). */
static cudaError_t rt_stream_get_device(cudaStream_t stream, int *device, bool per_thread)
{
    if (!device)
        return cudaErrorInvalidValue;
    rt_device *d;
    cudaError_t e = rt_enter_with(stream, NULL, &d);
    if (e != cudaSuccess)
        return e;
    CUdevice cu = 0;
    e = rt_driver_result(d, rt_drv.cuStreamGetDevice(rt_stream(stream, per_thread), &cu));
    if (e != cudaSuccess)
        return e;
    int index = rt_device_of_cu(cu);
    if (index >= 0) {
        *device = index;
        return cudaSuccess;
    }
    RT_TRACE("cudaStreamGetDevice: the driver answered CUdevice %d, not one of ours", (int)cu);
    return cudaErrorInvalidDevice;
}

/* The one body of cudaStreamGetDevice and cudaStreamGetDevice_ptsz (RT_FORWARD). */
static cudaError_t rt_stream_get_device_api(cudaStream_t stream, int *device, bool per_thread,
                                            rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_stream_get_device(stream, device, per_thread));
}

RT_API cudaError_t cudaStreamGetDevice(cudaStream_t hStream, int *device)
{
    RT_FORWARD(rt_stream_get_device_api(hStream, device, false, RT_SELF));
}

RT_API cudaError_t cudaStreamGetDevice_ptsz(cudaStream_t hStream, int *device)
{
    RT_FORWARD(rt_stream_get_device_api(hStream, device, true, RT_SELF));
}

static cudaError_t rt_stream_get_id(cudaStream_t stream, unsigned long long *id, bool per_thread)
{
    if (!id)
        return cudaErrorInvalidValue;
    rt_device *d;
    cudaError_t e = rt_enter_with(stream, NULL, &d);
    if (e != cudaSuccess)
        return e;
    return rt_driver_result(d, rt_drv.cuStreamGetId(rt_stream(stream, per_thread), id));
}

/* The one body of cudaStreamGetId and cudaStreamGetId_ptsz (RT_FORWARD). */
static cudaError_t rt_stream_get_id_api(cudaStream_t stream, unsigned long long *id,
                                        bool per_thread, rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_stream_get_id(stream, id, per_thread));
}

RT_API cudaError_t cudaStreamGetId(cudaStream_t hStream, unsigned long long *streamId)
{
    RT_FORWARD(rt_stream_get_id_api(hStream, streamId, false, RT_SELF));
}

RT_API cudaError_t cudaStreamGetId_ptsz(cudaStream_t hStream, unsigned long long *streamId)
{
    RT_FORWARD(rt_stream_get_id_api(hStream, streamId, true, RT_SELF));
}

/* ---- attributes ----------------------------------------------------------------------------- */

static cudaError_t rt_stream_set_attribute(cudaStream_t stream, cudaStreamAttrID attr,
                                           const cudaStreamAttrValue *value, bool per_thread)
{
    if (!value)
        return cudaErrorInvalidValue;
    rt_device *d;
    cudaError_t e = rt_enter_with(stream, NULL, &d);
    if (e != cudaSuccess)
        return e;
    return rt_driver_result(d, rt_drv.cuStreamSetAttribute(rt_stream(stream, per_thread),
                                                           (CUstreamAttrID)attr,
                                                           (const CUstreamAttrValue *)value));
}

/* The one body of cudaStreamSetAttribute and cudaStreamSetAttribute_ptsz (RT_FORWARD). */
static cudaError_t rt_stream_set_attribute_api(cudaStream_t stream, cudaStreamAttrID attr,
                                               const cudaStreamAttrValue *value, bool per_thread,
                                               rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_stream_set_attribute(stream, attr, value, per_thread));
}

RT_API cudaError_t cudaStreamSetAttribute(cudaStream_t hStream, cudaStreamAttrID attr,
                                          const cudaStreamAttrValue *value)
{
    RT_FORWARD(rt_stream_set_attribute_api(hStream, attr, value, false, RT_SELF));
}

RT_API cudaError_t cudaStreamSetAttribute_ptsz(cudaStream_t stream, cudaStreamAttrID attr,
                                               const cudaStreamAttrValue *value)
{
    RT_FORWARD(rt_stream_set_attribute_api(stream, attr, value, true, RT_SELF));
}

static cudaError_t rt_stream_get_attribute(cudaStream_t stream, cudaStreamAttrID attr,
                                           cudaStreamAttrValue *value, bool per_thread)
{
    if (!value)
        return cudaErrorInvalidValue;
    rt_device *d;
    cudaError_t e = rt_enter_with(stream, NULL, &d);
    if (e != cudaSuccess)
        return e;
    return rt_driver_result(d, rt_drv.cuStreamGetAttribute(rt_stream(stream, per_thread),
                                                           (CUstreamAttrID)attr,
                                                           (CUstreamAttrValue *)value));
}

/* The one body of cudaStreamGetAttribute and cudaStreamGetAttribute_ptsz (RT_FORWARD). */
static cudaError_t rt_stream_get_attribute_api(cudaStream_t stream, cudaStreamAttrID attr,
                                               cudaStreamAttrValue *value, bool per_thread,
                                               rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_stream_get_attribute(stream, attr, value, per_thread));
}

RT_API cudaError_t cudaStreamGetAttribute(cudaStream_t hStream, cudaStreamAttrID attr,
                                          cudaStreamAttrValue *value_out)
{
    RT_FORWARD(rt_stream_get_attribute_api(hStream, attr, value_out, false, RT_SELF));
}

RT_API cudaError_t cudaStreamGetAttribute_ptsz(cudaStream_t stream, cudaStreamAttrID attr,
                                               cudaStreamAttrValue *value)
{
    RT_FORWARD(rt_stream_get_attribute_api(stream, attr, value, true, RT_SELF));
}

static cudaError_t rt_stream_copy_attributes(cudaStream_t dst, cudaStream_t src, bool per_thread)
{
    rt_device *d;
    cudaError_t e = rt_enter_with(dst, NULL, &d);
    if (e == cudaSuccess)
        e = rt_enter_with(src, NULL, &d);
    if (e != cudaSuccess)
        return e;
    return rt_driver_result(d, rt_drv.cuStreamCopyAttributes(rt_stream(dst, per_thread),
                                                             rt_stream(src, per_thread)));
}

/* The one body of cudaStreamCopyAttributes and cudaStreamCopyAttributes_ptsz (RT_FORWARD). */
static cudaError_t rt_stream_copy_attributes_api(cudaStream_t dst, cudaStream_t src,
                                                 bool per_thread, rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_stream_copy_attributes(dst, src, per_thread));
}

RT_API cudaError_t cudaStreamCopyAttributes(cudaStream_t dst, cudaStream_t src)
{
    RT_FORWARD(rt_stream_copy_attributes_api(dst, src, false, RT_SELF));
}

RT_API cudaError_t cudaStreamCopyAttributes_ptsz(cudaStream_t dst, cudaStream_t src)
{
    RT_FORWARD(rt_stream_copy_attributes_api(dst, src, true, RT_SELF));
}
