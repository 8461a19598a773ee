// conf_misuse_stream.cu - invalid inputs to the stream, event, callback and host function
// functions, one case each (the runner and the line format: misuse.h).  Destroyed streams and
// events are not passed: that is undefined behaviour (NVIDIA's runtime crashes on a destroyed
// stream, SEMANTICS.md section 0); the "wrong state" here is a stream that is being captured.
#include "misuse.h"

// The per-thread-default-stream variants; the toolkit declares them only in such builds.
extern "C" {
cudaError_t CUDARTAPI cudaStreamSynchronize_ptsz(cudaStream_t stream);
cudaError_t CUDARTAPI cudaStreamQuery_ptsz(cudaStream_t stream);
cudaError_t CUDARTAPI cudaStreamWaitEvent_ptsz(cudaStream_t stream, cudaEvent_t event,
                                               unsigned int flags);
cudaError_t CUDARTAPI cudaStreamAddCallback_ptsz(cudaStream_t stream,
                                                 cudaStreamCallback_t callback, void *userData,
                                                 unsigned int flags);
cudaError_t CUDARTAPI cudaLaunchHostFunc_ptsz(cudaStream_t stream, cudaHostFn_t fn,
                                              void *userData);
cudaError_t CUDARTAPI cudaStreamGetFlags_ptsz(cudaStream_t hStream, unsigned int *flags);
cudaError_t CUDARTAPI cudaStreamGetPriority_ptsz(cudaStream_t hStream, int *priority);
cudaError_t CUDARTAPI cudaStreamGetDevice_ptsz(cudaStream_t hStream, int *device);
cudaError_t CUDARTAPI cudaStreamGetId_ptsz(cudaStream_t hStream, unsigned long long *streamId);
cudaError_t CUDARTAPI cudaStreamSetAttribute_ptsz(cudaStream_t stream, cudaStreamAttrID attr,
                                                  const cudaStreamAttrValue *value);
cudaError_t CUDARTAPI cudaStreamGetAttribute_ptsz(cudaStream_t stream, cudaStreamAttrID attr,
                                                  cudaStreamAttrValue *value);
cudaError_t CUDARTAPI cudaStreamCopyAttributes_ptsz(cudaStream_t dst, cudaStream_t src);
cudaError_t CUDARTAPI cudaEventRecord_ptsz(cudaEvent_t event, cudaStream_t stream);
cudaError_t CUDARTAPI cudaEventRecordWithFlags_ptsz(cudaEvent_t event, cudaStream_t stream,
                                                    unsigned int flags);
}

// Fixtures, made at every start: a blocking stream, a timed event recorded on it, an event
// without timing recorded on it, and a timed event never recorded.
static cudaStream_t s;
static cudaEvent_t timed, untimed, never;

// What a case made, for its cleanup: a stream under capture, a stream or event that a call
// accepted although it should not have.
static cudaStream_t made_stream;
static cudaEvent_t made_event;
static bool capturing_per_thread;

static int value;
static float ms;
static cudaStreamAttrValue attr;

static void CUDART_CB callback_does_nothing(cudaStream_t, cudaError_t, void *) {}

static void setup(void)
{
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaEventCreate(&timed));
    CHECK(cudaEventCreateWithFlags(&untimed, cudaEventDisableTiming));
    CHECK(cudaEventCreate(&never));
    CHECK(cudaEventRecord(timed, s));
    CHECK(cudaEventRecord(untimed, s));
    CHECK(cudaStreamSynchronize(s));
    memset(&attr, 0, sizeof attr);
}

// Destroys what a case made, whether or not its call failed.
static void destroy_made(void)
{
    if (made_stream)
        cudaStreamDestroy(made_stream);
    if (made_event)
        cudaEventDestroy(made_event);
    made_stream = NULL;
    made_event = NULL;
}

// A new stream in relaxed capture (relaxed: the capture does not forbid other calls of this
// thread), or the per-thread stream when per_thread.  Returns the stream.
static cudaStream_t begin_capture(bool per_thread)
{
    if (per_thread) {
        capturing_per_thread = true;
        CHECK(cudaStreamBeginCapture(cudaStreamPerThread, cudaStreamCaptureModeRelaxed));
        misuse_clear();
        return cudaStreamPerThread;
    }
    CHECK(cudaStreamCreateWithFlags(&made_stream, cudaStreamNonBlocking));
    CHECK(cudaStreamBeginCapture(made_stream, cudaStreamCaptureModeRelaxed));
    misuse_clear();
    return made_stream;
}

// Ends a capture begun by begin_capture (the call under test may have invalidated it) and
// destroys whatever it left.
static void end_capture(void)
{
    cudaStream_t stream = capturing_per_thread ? cudaStreamPerThread : made_stream;
    cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
    if (stream && cudaStreamIsCapturing(stream, &st) == cudaSuccess &&
        st != cudaStreamCaptureStatusNone) {
        cudaGraph_t g = NULL;
        cudaStreamEndCapture(stream, &g);
        if (g)
            cudaGraphDestroy(g);
    }
    capturing_per_thread = false;
    destroy_made();
}

static const misuse_case cases[] = {
    // ---- creation and destruction ----
    {"cudaStreamCreate.null_out", [] { return cudaStreamCreate(NULL); }},
    {"cudaStreamCreateWithFlags.null_out", [] { return cudaStreamCreateWithFlags(NULL, 0); }},
    {"cudaStreamCreateWithFlags.unknown_flags",
     [] { return cudaStreamCreateWithFlags(&made_stream, 0x10); }, destroy_made},
    {"cudaStreamCreateWithFlags.all_bits",
     [] { return cudaStreamCreateWithFlags(&made_stream, ~0u); }, destroy_made},
    {"cudaStreamCreateWithPriority.null_out",
     [] { return cudaStreamCreateWithPriority(NULL, 0, 0); }},
    {"cudaStreamCreateWithPriority.unknown_flags",
     [] { return cudaStreamCreateWithPriority(&made_stream, 0x10, 0); }, destroy_made},
    {"cudaStreamCreateWithPriority.priority_out_of_range",
     [] {
         cudaError_t e = cudaStreamCreateWithPriority(&made_stream, 0, 1000);
         if (e == cudaSuccess && cudaStreamGetPriority(made_stream, &value) == cudaSuccess)
             misuse_note("priority_%d", value);
         return e;
     },
     destroy_made},
    {"cudaStreamDestroy.legacy_0", [] { return cudaStreamDestroy(0); }},
    {"cudaStreamDestroy.cudaStreamLegacy", [] { return cudaStreamDestroy(cudaStreamLegacy); }},
    {"cudaStreamDestroy.cudaStreamPerThread",
     [] { return cudaStreamDestroy(cudaStreamPerThread); }},
    {"cudaStreamDestroy.capturing",
     [] {
         cudaStream_t stream = begin_capture(false);
         cudaError_t e = cudaStreamDestroy(stream);
         if (e == cudaSuccess)
             made_stream = NULL;      // gone, capture and all
         return e;
     },
     end_capture},
    {"cudaDeviceGetStreamPriorityRange.both_null",
     [] { return cudaDeviceGetStreamPriorityRange(NULL, NULL); }},

    // ---- waiting and querying while capturing ----
    {"cudaStreamSynchronize.capturing",
     [] { return cudaStreamSynchronize(begin_capture(false)); }, end_capture},
    {"cudaStreamSynchronize_ptsz.capturing_per_thread",
     [] {
         begin_capture(true);
         return cudaStreamSynchronize_ptsz(0);
     },
     end_capture},
    {"cudaStreamQuery.capturing", [] { return cudaStreamQuery(begin_capture(false)); },
     end_capture},
    {"cudaStreamQuery_ptsz.capturing_per_thread",
     [] {
         begin_capture(true);
         return cudaStreamQuery_ptsz(0);
     },
     end_capture},
    {"cudaStreamWaitEvent.null_event", [] { return cudaStreamWaitEvent(s, NULL, 0); }},
    {"cudaStreamWaitEvent.unknown_flags", [] { return cudaStreamWaitEvent(s, timed, 0x10); }},
    {"cudaStreamWaitEvent_ptsz.null_event", [] { return cudaStreamWaitEvent_ptsz(0, NULL, 0); }},
    {"cudaStreamWaitEvent_ptsz.unknown_flags",
     [] { return cudaStreamWaitEvent_ptsz(0, timed, 0x10); }},

    // ---- callbacks and host functions ----
    {"cudaStreamAddCallback.null_callback",
     [] { return cudaStreamAddCallback(s, NULL, NULL, 0); }},
    {"cudaStreamAddCallback.flags_1",
     [] { return cudaStreamAddCallback(s, callback_does_nothing, NULL, 1); },
     [] { cudaStreamSynchronize(s); }},
    {"cudaStreamAddCallback_ptsz.null_callback",
     [] { return cudaStreamAddCallback_ptsz(0, NULL, NULL, 0); }},
    {"cudaStreamAddCallback_ptsz.flags_1",
     [] { return cudaStreamAddCallback_ptsz(0, callback_does_nothing, NULL, 1); },
     [] { cudaStreamSynchronize(cudaStreamPerThread); }},
    {"cudaLaunchHostFunc.null_fn", [] { return cudaLaunchHostFunc(s, NULL, NULL); }},
    {"cudaLaunchHostFunc_ptsz.null_fn", [] { return cudaLaunchHostFunc_ptsz(0, NULL, NULL); }},

    // ---- properties: NULL outputs ----
    {"cudaStreamGetFlags.null_out", [] { return cudaStreamGetFlags(s, NULL); }},
    {"cudaStreamGetFlags_ptsz.null_out", [] { return cudaStreamGetFlags_ptsz(0, NULL); }},
    {"cudaStreamGetPriority.null_out", [] { return cudaStreamGetPriority(s, NULL); }},
    {"cudaStreamGetPriority_ptsz.null_out", [] { return cudaStreamGetPriority_ptsz(0, NULL); }},
    // NVIDIA's runtime is known to crash (SIGSEGV) here on the H200.
    {"cudaStreamGetDevice.null_out", [] { return cudaStreamGetDevice(s, NULL); }},
    {"cudaStreamGetDevice_ptsz.null_out", [] { return cudaStreamGetDevice_ptsz(0, NULL); }},
    {"cudaStreamGetId.null_out", [] { return cudaStreamGetId(s, NULL); }},
    {"cudaStreamGetId_ptsz.null_out", [] { return cudaStreamGetId_ptsz(0, NULL); }},

    // ---- attributes ----
    {"cudaStreamSetAttribute.null_value",
     [] { return cudaStreamSetAttribute(s, cudaLaunchAttributePriority, NULL); }},
    {"cudaStreamSetAttribute.unknown_attribute",
     [] { return cudaStreamSetAttribute(s, (cudaStreamAttrID)99, &attr); }},
    {"cudaStreamSetAttribute_ptsz.null_value",
     [] { return cudaStreamSetAttribute_ptsz(0, cudaLaunchAttributePriority, NULL); }},
    {"cudaStreamSetAttribute_ptsz.unknown_attribute",
     [] { return cudaStreamSetAttribute_ptsz(0, (cudaStreamAttrID)99, &attr); }},
    {"cudaStreamGetAttribute.null_value",
     [] { return cudaStreamGetAttribute(s, cudaLaunchAttributePriority, NULL); }},
    {"cudaStreamGetAttribute.unknown_attribute",
     [] { return cudaStreamGetAttribute(s, (cudaStreamAttrID)99, &attr); }},
    {"cudaStreamGetAttribute_ptsz.null_value",
     [] { return cudaStreamGetAttribute_ptsz(0, cudaLaunchAttributePriority, NULL); }},
    {"cudaStreamGetAttribute_ptsz.unknown_attribute",
     [] { return cudaStreamGetAttribute_ptsz(0, (cudaStreamAttrID)99, &attr); }},
    {"cudaStreamCopyAttributes.from_legacy", [] { return cudaStreamCopyAttributes(s, 0); }},
    {"cudaStreamCopyAttributes.to_legacy", [] { return cudaStreamCopyAttributes(0, s); }},
    {"cudaStreamCopyAttributes_ptsz.to_per_thread",
     [] { return cudaStreamCopyAttributes_ptsz(0, s); }},
    {"cudaStreamCopyAttributes_ptsz.from_per_thread",
     [] { return cudaStreamCopyAttributes_ptsz(s, 0); }},

    // ---- events ----
    {"cudaEventCreate.null_out", [] { return cudaEventCreate(NULL); }},
    {"cudaEventCreateWithFlags.null_out", [] { return cudaEventCreateWithFlags(NULL, 0); }},
    {"cudaEventCreateWithFlags.unknown_flags",
     [] { return cudaEventCreateWithFlags(&made_event, 0x40); }, destroy_made},
    {"cudaEventCreateWithFlags.all_bits",
     [] { return cudaEventCreateWithFlags(&made_event, ~0u); }, destroy_made},
    {"cudaEventCreateWithFlags.interprocess_with_timing",
     [] { return cudaEventCreateWithFlags(&made_event, cudaEventInterprocess); }, destroy_made},
    {"cudaEventDestroy.null", [] { return cudaEventDestroy(NULL); }},
    {"cudaEventRecord.null_event", [] { return cudaEventRecord(NULL, s); }},
    {"cudaEventRecord_ptsz.null_event", [] { return cudaEventRecord_ptsz(NULL, 0); }},
    {"cudaEventRecordWithFlags.null_event",
     [] { return cudaEventRecordWithFlags(NULL, s, 0); }},
    {"cudaEventRecordWithFlags.unknown_flags",
     [] { return cudaEventRecordWithFlags(untimed, s, 0x10); }},
    {"cudaEventRecordWithFlags_ptsz.null_event",
     [] { return cudaEventRecordWithFlags_ptsz(NULL, 0, 0); }},
    {"cudaEventRecordWithFlags_ptsz.unknown_flags",
     [] { return cudaEventRecordWithFlags_ptsz(untimed, 0, 0x10); }},
    {"cudaEventQuery.null_event", [] { return cudaEventQuery(NULL); }},
    {"cudaEventQuery.never_recorded", [] { return cudaEventQuery(never); }},
    {"cudaEventSynchronize.null_event", [] { return cudaEventSynchronize(NULL); }},
    {"cudaEventSynchronize.never_recorded", [] { return cudaEventSynchronize(never); }},
    {"cudaEventElapsedTime.null_start", [] { return cudaEventElapsedTime(&ms, NULL, timed); }},
    {"cudaEventElapsedTime.null_end", [] { return cudaEventElapsedTime(&ms, timed, NULL); }},
    {"cudaEventElapsedTime.never_recorded",
     [] { return cudaEventElapsedTime(&ms, never, timed); }},
    {"cudaEventElapsedTime.disable_timing",
     [] { return cudaEventElapsedTime(&ms, timed, untimed); }},
    // NVIDIA's runtime may crash on this one (conf_streams leaves it out for that reason).
    {"cudaEventElapsedTime.null_ms", [] { return cudaEventElapsedTime(NULL, timed, timed); }},
};

int main(int argc, char **argv)
{
    return misuse_main("conf_misuse_stream", argc, argv, setup, cases, MISUSE_COUNT(cases));
}
