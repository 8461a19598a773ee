// fault_capture.cu - a stream capture that fails part-way (issue 18).  Each case begins a capture
// on a stream of its own, captures a kernel, then makes one call that a capture does not allow:
//
//   malloc_global        cudaMalloc in the capturing thread, global mode
//   memcpy_global        a synchronous cudaMemcpy (legacy stream) in the capturing thread, global
//   sync_capturing       cudaStreamSynchronize of the capturing stream
//   legacy_other_thread  another thread launches on the legacy stream while a blocking stream is
//                        in a global capture (the legacy stream waits for blocking streams)
//   malloc_relaxed       cudaMalloc in relaxed mode: allowed, the contrast
//
// and shows, after it: the call's answer, the thread's last error (twice: it is not sticky), the
// stream's capture status, cudaStreamEndCapture's answer and whether it gave a graph, the status
// after that; then that the stream does ordinary work, and that the NEXT capture, on that stream
// and on a new one, succeeds and its graph gives the right result.
//
// Asserted (documented): a failed end gives no graph and a successful one gives a graph; after
// the end the stream is not capturing; ordinary work and the next captures work and are right;
// no error is left pending at the end of a case.  Only printed (the differential comparison
// decides): what the invalid call, the last error and the status answer.  Against the fake
// driver (tests/e2e), which does not refuse cudaMalloc or cudaMemcpy during a capture, those
// cases capture on and end with a graph.  Exit 0 pass, 1 fail, 2 no GPU.
#include "fault.h"

#include <functional>
#include <thread>

extern "C" __global__ void fault_add_one(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] += 1;
}

static const int N = 1024;

struct add_params {
    int *p;
    int n;
};

static void fake_add_one(const void *params, size_t size, const unsigned grid[3],
                         const unsigned block[3])
{
    add_params a;
    memset(&a, 0, sizeof a);
    memcpy(&a, params, size < sizeof a ? size : sizeof a);
    for (unsigned long long i = 0; i < (unsigned long long)grid[0] * block[0]; i++)
        if (i < (unsigned long long)a.n)
            a.p[i] += 1;
}

static const char *status_name(cudaStreamCaptureStatus st)
{
    switch (st) {
    case cudaStreamCaptureStatusNone: return "none";
    case cudaStreamCaptureStatusActive: return "active";
    case cudaStreamCaptureStatusInvalidated: return "invalidated";
    }
    return "unknown";
}

static void show_status(const char *what, cudaStream_t s)
{
    cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
    cudaError_t e = cudaStreamIsCapturing(s, &st);
    printf("  %-44s -> " ERR_FMT ", status %s\n", what, ERR_ARGS(e),
           e == cudaSuccess ? status_name(st) : "-");
}

static bool all_equal(const int *d, int value, cudaStream_t s)
{
    static int h[N];
    if (cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, s) != cudaSuccess ||
        cudaStreamSynchronize(s) != cudaSuccess)
        return false;
    for (int i = 0; i < N; i++)
        if (h[i] != value)
            return false;
    return true;
}

// A capture of `adds` kernels on s, instantiated and launched: the first failing call's error.
static cudaError_t capture_and_run(cudaStream_t s, int *d, int adds)
{
    cudaGraph_t g = NULL;
    cudaGraphExec_t exec = NULL;
    cudaError_t e = cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    for (int i = 0; e == cudaSuccess && i < adds; i++) {
        fault_add_one<<<N / 256, 256, 0, s>>>(d, N);
        e = cudaGetLastError();
    }
    cudaError_t end = cudaStreamEndCapture(s, &g);
    if (e == cudaSuccess)
        e = end;
    if (e == cudaSuccess)
        e = cudaGraphInstantiate(&exec, g, 0);
    if (e == cudaSuccess)
        e = cudaGraphLaunch(exec, s);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(s);
    if (exec)
        cudaGraphExecDestroy(exec);
    if (g)
        cudaGraphDestroy(g);
    return e;
}

struct fault_case {
    const char *name;
    cudaStreamCaptureMode mode;
    unsigned stream_flags;
    // The invalid call, made while s captures one kernel into d; returns its answer.
    std::function<cudaError_t(cudaStream_t s, int *d)> call;
};

static void *made_by_call;       // memory a call allocated (where the capture allowed it)
static int other[N];

static const fault_case cases[] = {
    {"malloc_global", cudaStreamCaptureModeGlobal, cudaStreamNonBlocking,
     [](cudaStream_t, int *) { return cudaMalloc(&made_by_call, 256); }},
    {"memcpy_global", cudaStreamCaptureModeGlobal, cudaStreamNonBlocking,
     [](cudaStream_t, int *d) { return cudaMemcpy(d, other, sizeof other, cudaMemcpyHostToDevice); }},
    {"sync_capturing", cudaStreamCaptureModeGlobal, cudaStreamNonBlocking,
     [](cudaStream_t s, int *) { return cudaStreamSynchronize(s); }},
    {"legacy_other_thread", cudaStreamCaptureModeGlobal, cudaStreamDefault,
     nullptr},                      // the call is made by run_case, in another thread
    {"malloc_relaxed", cudaStreamCaptureModeRelaxed, cudaStreamNonBlocking,
     [](cudaStream_t, int *) { return cudaMalloc(&made_by_call, 256); }},
};

static int *legacy_buffer;

static void run_case(const fault_case &c, int index)
{
    printf("case %d %s (%s mode):\n", index, c.name,
           c.mode == cudaStreamCaptureModeGlobal ? "global" : "relaxed");
    made_by_call = NULL;
    cudaStream_t s = NULL, fresh = NULL;
    int *d = NULL;
    CHECK(cudaStreamCreateWithFlags(&s, c.stream_flags));
    CHECK(cudaMalloc((void **)&d, N * sizeof(int)));
    CHECK(cudaMemset(d, 0, N * sizeof(int)));
    bool other_thread = strcmp(c.name, "legacy_other_thread") == 0;
    if (other_thread && !legacy_buffer)
        CHECK(cudaMalloc((void **)&legacy_buffer, N * sizeof(int)));
    if (other_thread)
        CHECK(cudaMemset(legacy_buffer, 0, N * sizeof(int)));
    CHECK(cudaDeviceSynchronize());

    CHECK(cudaStreamBeginCapture(s, c.mode));
    fault_add_one<<<N / 256, 256, 0, s>>>(d, N);
    fault_show("captured launch (cudaGetLastError)", cudaGetLastError());
    if (other_thread) {
        cudaError_t launched = cudaSuccess, last = cudaSuccess, again = cudaSuccess;
        std::thread([&] {
            fault_add_one<<<N / 256, 256>>>(legacy_buffer, N);
            launched = cudaGetLastError();
            last = cudaPeekAtLastError();
            again = cudaGetLastError();
        }).join();
        fault_show("other thread: legacy launch (cudaGetLastError)", launched);
        fault_show("other thread: cudaPeekAtLastError after", last);
        fault_show("other thread: cudaGetLastError after", again);
    } else {
        fault_show("the invalid call", c.call(s, d));
    }
    fault_show("cudaGetLastError", cudaGetLastError());
    fault_show("cudaGetLastError again", cudaGetLastError());
    show_status("cudaStreamIsCapturing", s);

    cudaGraph_t g = NULL;
    cudaError_t end = fault_show("cudaStreamEndCapture", cudaStreamEndCapture(s, &g));
    printf("  %-44s    %s\n", "cudaStreamEndCapture's graph", g ? "a graph" : "none");
    fault_expect("a graph exactly when the end succeeds", (end == cudaSuccess) == (g != NULL));
    fault_show("cudaGetLastError after the end", cudaGetLastError());
    cudaStreamCaptureStatus st = cudaStreamCaptureStatusActive;
    cudaError_t is = cudaStreamIsCapturing(s, &st);
    fault_expect("the stream no longer captures", is == cudaSuccess && st == cudaStreamCaptureStatusNone);
    if (g)
        CHECK(cudaGraphDestroy(g));
    if (made_by_call)
        CHECK(cudaFree(made_by_call));
    if (other_thread) {
        // Whether the other thread's legacy launch ran: printed, not asserted.
        fault_show("cudaDeviceSynchronize", cudaDeviceSynchronize());
        cudaGetLastError();
        bool ran = all_equal(legacy_buffer, 1, 0);
        printf("  %-44s    %s\n", "the other thread's legacy kernel ran", ran ? "yes" : "no");
    }

    // Ordinary work on the same stream: the captured kernel never ran, so d is 0 before it.
    fault_add_one<<<N / 256, 256, 0, s>>>(d, N);
    cudaError_t launched = cudaGetLastError();
    fault_expect("ordinary work on the stream afterwards", launched == cudaSuccess && all_equal(d, 1, s));
    cudaError_t next = capture_and_run(s, d, 2);
    fault_show("next capture on the same stream", next);
    fault_expect("its graph gives the right result", next == cudaSuccess && all_equal(d, 3, s));
    CHECK(cudaStreamCreateWithFlags(&fresh, cudaStreamNonBlocking));
    next = capture_and_run(fresh, d, 2);
    fault_show("next capture on a new stream", next);
    fault_expect("its graph gives the right result", next == cudaSuccess && all_equal(d, 5, fresh));
    fault_expect("no error pending at the end", cudaGetLastError() == cudaSuccess);
    CHECK(cudaStreamDestroy(fresh));
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFree(d));
}

int main(void)
{
    fault_program = "fault_capture";
    fault_watchdog(120);
    if (fake_register_fn reg = gpu_fake_registrar())
        reg("fault_add_one", fake_add_one);
    gpu_require("fault_capture");
    CHECK(cudaFree(0));
    int index = 0;
    for (const fault_case &c : cases)
        run_case(c, index++);
    if (legacy_buffer)
        CHECK(cudaFree(legacy_buffer));
    return fault_finish();
}
