// conf_streams.cu - streams, events, callbacks and host functions, compared line by line between
// NVIDIA's runtime and minicudart.  Prints results, flags, priorities and error codes; never
// handles, ids, thread ids or times ("elapsed ok" only).  Exit 0 = pass, 1 = fail, 2 = no GPU.
#include "gpu_check.h"

#include <atomic>
#include <string.h>
#include <thread>

static int ok = 1;

// Prints a probe's returned code and the last error after it (which the get then clears).
static cudaError_t probe(const char *what, cudaError_t e)
{
    cudaError_t last = cudaGetLastError();
    printf("%-58s -> " ERR_FMT "; last error " ERR_FMT "\n", what, ERR_ARGS(e), ERR_ARGS(last));
    return e;
}

// A probe whose code this program also checks.
static void expect(const char *what, cudaError_t e, cudaError_t want)
{
    if (probe(what, e) != want) {
        printf("  expected " ERR_FMT "\n", ERR_ARGS(want));
        ok = 0;
    }
}

// A query that answers cudaErrorNotReady without storing it as the last error.
static void expect_not_stored(const char *what, cudaError_t e, cudaError_t want)
{
    cudaError_t last = cudaPeekAtLastError();
    expect(what, e, want);
    if (last != cudaSuccess) {
        printf("  expected the last error to stay cudaSuccess\n");
        ok = 0;
    }
}

static void check(const char *what, bool cond)
{
    printf("%s: %s\n", what, cond ? "yes" : "NO");
    ok &= cond;
}

__device__ unsigned long long global_ns(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

// Spins for `ns` nanoseconds of the GPU's global timer, then stores value to *out (if any).
__global__ void spin_then_store(unsigned long long ns, int *out, int value)
{
    unsigned long long start = global_ns();
    while (global_ns() - start < ns) {
    }
    if (out)
        *out = value;
}

// out[i] = in[0] + add, for a one-element dependency chain.
__global__ void add_to(const int *in, int *out, int add)
{
    *out = *in + add;
}

__global__ void fill(int *out, int n, int base)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = base + i;
}

__global__ void scale(int *data, int n, int factor)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] *= factor;
}

static const unsigned long long MS = 1000000ull;

// ---- kernels on several streams, ordered by events ---------------------------------------------

static void streams_and_events(void)
{
    const int n = 1 << 16;
    int *a = NULL, *b = NULL;
    CHECK(cudaMalloc((void **)&a, n * sizeof(int)));
    CHECK(cudaMalloc((void **)&b, n * sizeof(int)));
    cudaStream_t s1, s2, s3;
    CHECK(cudaStreamCreate(&s1));
    CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithPriority(&s3, cudaStreamNonBlocking, -1));
    cudaEvent_t filled, scaled;
    CHECK(cudaEventCreateWithFlags(&filled, cudaEventDisableTiming));
    CHECK(cudaEventCreate(&scaled));

    // s1: wait 20 ms, then fill a; s2 scales a after `filled`; s3 copies into b after `scaled`.
    spin_then_store<<<1, 1, 0, s1>>>(20 * MS, NULL, 0);
    fill<<<n / 256, 256, 0, s1>>>(a, n, 7);
    CHECK(cudaEventRecord(filled, s1));
    CHECK(cudaStreamWaitEvent(s2, filled, 0));
    scale<<<n / 256, 256, 0, s2>>>(a, n, 3);
    CHECK(cudaEventRecordWithFlags(scaled, s2, 0));
    CHECK(cudaStreamWaitEvent(s3, scaled, cudaEventWaitDefault));
    fill<<<n / 256, 256, 0, s3>>>(b, n, 0);
    scale<<<n / 256, 256, 0, s3>>>(b, n, 2);
    CHECK(cudaGetLastError());
    CHECK(cudaStreamSynchronize(s3));
    CHECK(cudaEventSynchronize(scaled));
    CHECK(cudaStreamSynchronize(s2));
    expect("cudaEventQuery(scaled) after its stream finished", cudaEventQuery(scaled),
           cudaSuccess);
    expect("cudaStreamQuery(s1) after synchronisation", cudaStreamQuery(s1), cudaSuccess);

    int *ha = new int[n], *hb = new int[n];
    CHECK(cudaMemcpy(ha, a, n * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hb, b, n * sizeof(int), cudaMemcpyDeviceToHost));
    long long sum = 0;
    int wrong = 0;
    for (int i = 0; i < n; i++) {
        sum += ha[i] + hb[i];
        wrong += ha[i] != 3 * (7 + i) || hb[i] != 2 * i;
    }
    printf("event-ordered streams: checksum %lld, wrong %d\n", sum, wrong);
    ok &= wrong == 0;
    delete[] ha;
    delete[] hb;

    CHECK(cudaEventDestroy(filled));
    CHECK(cudaEventDestroy(scaled));
    CHECK(cudaStreamDestroy(s1));
    CHECK(cudaStreamDestroy(s2));
    CHECK(cudaStreamDestroy(s3));
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
}

// ---- flags, priorities, device, ids, attributes ------------------------------------------------

static void properties(void)
{
    int least = 99, greatest = 99;
    CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    printf("stream priority range: least %d, greatest %d\n", least, greatest);
    expect("cudaDeviceGetStreamPriorityRange(NULL, NULL)",
           cudaDeviceGetStreamPriorityRange(NULL, NULL), cudaSuccess);

    cudaStream_t plain, nonblocking, high, low;
    CHECK(cudaStreamCreate(&plain));
    CHECK(cudaStreamCreateWithFlags(&nonblocking, cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithPriority(&high, cudaStreamDefault, greatest - 100));
    CHECK(cudaStreamCreateWithPriority(&low, cudaStreamNonBlocking, least + 100));
    unsigned flags[4];
    int prio[4];
    cudaStream_t all[4] = {plain, nonblocking, high, low};
    for (int i = 0; i < 4; i++) {
        CHECK(cudaStreamGetFlags(all[i], &flags[i]));
        CHECK(cudaStreamGetPriority(all[i], &prio[i]));
    }
    printf("flags: create %u, non-blocking %u, priority default %u, priority non-blocking %u\n",
           flags[0], flags[1], flags[2], flags[3]);
    printf("priorities: %d %d, clamped high %d, clamped low %d\n", prio[0], prio[1], prio[2],
           prio[3]);
    ok &= flags[0] == 0 && flags[1] == 1 && flags[2] == 0 && flags[3] == 1;
    ok &= prio[2] == greatest && prio[3] == least;

    int device = -1;
    CHECK(cudaStreamGetDevice(high, &device));
    printf("cudaStreamGetDevice: %d\n", device);
    unsigned long long id[4];
    for (int i = 0; i < 4; i++)
        CHECK(cudaStreamGetId(all[i], &id[i]));
    check("stream ids distinct", id[0] != id[1] && id[1] != id[2] && id[2] != id[3] &&
                                     id[0] != id[3] && id[0] != id[2] && id[1] != id[3]);

    cudaStreamAttrValue v;
    memset(&v, 0, sizeof v);
    v.syncPolicy = cudaSyncPolicyYield;
    expect("cudaStreamSetAttribute(SynchronizationPolicy, Yield)",
           cudaStreamSetAttribute(plain, cudaLaunchAttributeSynchronizationPolicy, &v),
           cudaSuccess);
    memset(&v, 0, sizeof v);
    CHECK(cudaStreamGetAttribute(plain, cudaLaunchAttributeSynchronizationPolicy, &v));
    printf("synchronization policy read back: %d\n", (int)v.syncPolicy);
    CHECK(cudaStreamCopyAttributes(nonblocking, plain));
    memset(&v, 0, sizeof v);
    CHECK(cudaStreamGetAttribute(nonblocking, cudaLaunchAttributeSynchronizationPolicy, &v));
    printf("synchronization policy after cudaStreamCopyAttributes: %d\n", (int)v.syncPolicy);
    memset(&v, 0, sizeof v);
    CHECK(cudaStreamGetAttribute(high, cudaLaunchAttributePriority, &v));
    printf("priority attribute of the high-priority stream: %d\n", v.priority);

    for (int i = 0; i < 4; i++)
        CHECK(cudaStreamDestroy(all[i]));
}

// ---- callbacks and host functions --------------------------------------------------------------

static std::atomic<int> order_count;
static char order[16];
static std::thread::id main_thread;
static std::atomic<int> off_main_thread;
static std::atomic<int> callback_stream_matches;
static cudaStream_t callback_expected_stream;
static std::atomic<int> callback_status;

static void note(char label)
{
    int i = order_count.fetch_add(1);
    if (i < 15)
        order[i] = label;
    if (std::this_thread::get_id() != main_thread)
        off_main_thread.fetch_add(1);
}

static void CUDART_CB host_func(void *user)
{
    note((char)(intptr_t)user);
}

static void CUDART_CB stream_callback(cudaStream_t stream, cudaError_t status, void *user)
{
    if (stream == callback_expected_stream)
        callback_stream_matches.fetch_add(1);
    if (status != cudaSuccess)
        callback_status.store((int)status);
    note((char)(intptr_t)user);
}

static void CUDART_CB do_nothing(cudaStream_t, cudaError_t, void *) {}

static void callbacks(void)
{
    main_thread = std::this_thread::get_id();
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    callback_expected_stream = s;
    int *d = NULL;
    CHECK(cudaMalloc((void **)&d, sizeof(int)));
    // A kernel first, so the host work is queued behind running device work.
    spin_then_store<<<1, 1, 0, s>>>(10 * MS, d, 1);
    CHECK(cudaLaunchHostFunc(s, host_func, (void *)(intptr_t)'A'));
    CHECK(cudaStreamAddCallback(s, stream_callback, (void *)(intptr_t)'B', 0));
    CHECK(cudaLaunchHostFunc(s, host_func, (void *)(intptr_t)'C'));
    spin_then_store<<<1, 1, 0, s>>>(1 * MS, d, 2);
    CHECK(cudaStreamAddCallback(s, stream_callback, (void *)(intptr_t)'D', 0));
    CHECK(cudaLaunchHostFunc(s, host_func, (void *)(intptr_t)'E'));
    CHECK(cudaStreamSynchronize(s));
    int n = order_count.load();
    printf("host functions and callbacks ran: %d, order %.*s\n", n, n < 15 ? n : 15, order);
    ok &= n == 5 && memcmp(order, "ABCDE", 5) == 0;
    check("all ran on another thread", off_main_thread.load() == n);
    check("callbacks got the stream they were queued on", callback_stream_matches.load() == 2);
    printf("callback status: " ERR_FMT "\n", ERR_ARGS((cudaError_t)callback_status.load()));

    // The legacy stream and the per-thread stream take callbacks too.
    order_count.store(0);
    callback_expected_stream = 0;
    CHECK(cudaStreamAddCallback(0, stream_callback, (void *)(intptr_t)'L', 0));
    CHECK(cudaLaunchHostFunc(cudaStreamPerThread, host_func, (void *)(intptr_t)'P'));
    CHECK(cudaDeviceSynchronize());
    printf("callbacks on the legacy and per-thread streams: %d\n", order_count.load());

    expect("cudaStreamAddCallback(s, NULL callback)", cudaStreamAddCallback(s, NULL, NULL, 0),
           cudaErrorInvalidValue);
    probe("cudaStreamAddCallback(s, cb, flags 1)", cudaStreamAddCallback(s, do_nothing, NULL, 1));
    expect("cudaLaunchHostFunc(s, NULL fn)", cudaLaunchHostFunc(s, NULL, NULL),
           cudaErrorInvalidValue);
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFree(d));
}

// ---- queries on busy work ----------------------------------------------------------------------

static void busy_queries(void)
{
    cudaStream_t s;
    cudaEvent_t start, end;
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&end));
    spin_then_store<<<1, 1, 0, s>>>(0, NULL, 0);   // loads the module before the timed part
    CHECK(cudaStreamSynchronize(s));

    CHECK(cudaEventRecord(start, s));
    spin_then_store<<<1, 1, 0, s>>>(50 * MS, NULL, 0);
    CHECK(cudaEventRecord(end, s));
    expect_not_stored("cudaStreamQuery(busy stream)", cudaStreamQuery(s), cudaErrorNotReady);
    expect_not_stored("cudaEventQuery(pending event)", cudaEventQuery(end), cudaErrorNotReady);
    float ms = -1.0f;
    probe("cudaEventElapsedTime(start, pending end)", cudaEventElapsedTime(&ms, start, end));
    expect("cudaPeekAtLastError after the busy queries", cudaPeekAtLastError(), cudaSuccess);
    CHECK(cudaEventSynchronize(end));
    expect("cudaEventQuery(completed event)", cudaEventQuery(end), cudaSuccess);
    expect("cudaStreamQuery(idle stream)", cudaStreamQuery(s), cudaSuccess);
    ms = -1.0f;
    CHECK(cudaEventElapsedTime(&ms, start, end));
    printf("%s\n", ms >= 0.0f ? "elapsed ok" : "elapsed NEGATIVE");
    ok &= ms >= 0.0f;
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(end));
    CHECK(cudaStreamDestroy(s));
}

// ---- the legacy default stream and the per-thread stream ---------------------------------------

static void default_streams(void)
{
    int *v = NULL;
    CHECK(cudaMalloc((void **)&v, 3 * sizeof(int)));
    CHECK(cudaMemset(v, 0, 3 * sizeof(int)));
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    // k1 on s (slow), k2 on stream 0, k3 on s: k2 must see k1's store, k3 must see k2's.
    spin_then_store<<<1, 1, 0, s>>>(30 * MS, v, 1);
    add_to<<<1, 1>>>(v, v + 1, 1);
    add_to<<<1, 1, 0, s>>>(v + 1, v + 2, 1);
    CHECK(cudaStreamSynchronize(s));
    int h[3];
    CHECK(cudaMemcpy(h, v, sizeof h, cudaMemcpyDeviceToHost));
    printf("legacy stream ordering: k1 %d, k2 %d, k3 %d\n", h[0], h[1], h[2]);
    ok &= h[0] == 1 && h[1] == 2 && h[2] == 3;

    // The per-thread stream as an explicit handle.
    CHECK(cudaMemset(v, 0, 3 * sizeof(int)));
    spin_then_store<<<1, 1, 0, cudaStreamPerThread>>>(5 * MS, v, 5);
    add_to<<<1, 1, 0, cudaStreamPerThread>>>(v, v + 1, 1);
    CHECK(cudaStreamSynchronize(cudaStreamPerThread));
    expect("cudaStreamQuery(cudaStreamPerThread) after sync", cudaStreamQuery(cudaStreamPerThread),
           cudaSuccess);
    CHECK(cudaMemcpy(h, v, sizeof h, cudaMemcpyDeviceToHost));
    printf("per-thread stream: %d %d\n", h[0], h[1]);
    ok &= h[0] == 5 && h[1] == 6;
    unsigned flags = 99;
    probe("cudaStreamGetFlags(cudaStreamPerThread)", cudaStreamGetFlags(cudaStreamPerThread, &flags));
    printf("  flags %u\n", flags);
    flags = 99;
    probe("cudaStreamGetFlags(cudaStreamLegacy)", cudaStreamGetFlags(cudaStreamLegacy, &flags));
    printf("  flags %u\n", flags);
    int prio = 99;
    probe("cudaStreamGetPriority(0)", cudaStreamGetPriority(0, &prio));
    printf("  priority %d\n", prio);
    int device = -1;
    probe("cudaStreamGetDevice(cudaStreamPerThread)", cudaStreamGetDevice(cudaStreamPerThread,
                                                                          &device));
    printf("  device %d\n", device);
    cudaEvent_t e;
    CHECK(cudaEventCreate(&e));
    expect("cudaEventRecord(e, cudaStreamPerThread)", cudaEventRecord(e, cudaStreamPerThread),
           cudaSuccess);
    expect("cudaStreamWaitEvent(cudaStreamLegacy, e)", cudaStreamWaitEvent(cudaStreamLegacy, e, 0),
           cudaSuccess);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaEventDestroy(e));
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFree(v));
}

// ---- invalid arguments -------------------------------------------------------------------------

static void invalid_arguments(void)
{
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    cudaEvent_t timed, untimed1, untimed2, never;
    CHECK(cudaEventCreate(&timed));
    CHECK(cudaEventCreateWithFlags(&untimed1, cudaEventDisableTiming));
    CHECK(cudaEventCreateWithFlags(&untimed2, cudaEventDisableTiming | cudaEventBlockingSync));
    CHECK(cudaEventCreate(&never));
    CHECK(cudaEventRecord(timed, s));
    CHECK(cudaEventRecord(untimed1, s));
    CHECK(cudaEventRecord(untimed2, s));
    CHECK(cudaStreamSynchronize(s));
    float ms = -1.0f;
    cudaStream_t out;
    cudaEvent_t ev;
    cudaStreamAttrValue v;
    memset(&v, 0, sizeof v);

    expect("cudaStreamCreate(NULL)", cudaStreamCreate(NULL), cudaErrorInvalidValue);
    expect("cudaStreamCreateWithFlags(NULL, 0)", cudaStreamCreateWithFlags(NULL, 0),
           cudaErrorInvalidValue);
    expect("cudaStreamCreateWithPriority(NULL, 0, 0)", cudaStreamCreateWithPriority(NULL, 0, 0),
           cudaErrorInvalidValue);
    cudaError_t e = probe("cudaStreamCreateWithFlags(&s, 0x10)",
                          cudaStreamCreateWithFlags(&out, 0x10));
    if (e == cudaSuccess)
        CHECK(cudaStreamDestroy(out));
    expect("cudaEventCreate(NULL)", cudaEventCreate(NULL), cudaErrorInvalidValue);
    expect("cudaEventCreateWithFlags(NULL, 0)", cudaEventCreateWithFlags(NULL, 0),
           cudaErrorInvalidValue);
    e = probe("cudaEventCreateWithFlags(&e, 0x40)", cudaEventCreateWithFlags(&ev, 0x40));
    if (e == cudaSuccess)
        CHECK(cudaEventDestroy(ev));
    e = probe("cudaEventCreateWithFlags(&e, Interprocess)",
              cudaEventCreateWithFlags(&ev, cudaEventInterprocess));
    if (e == cudaSuccess)
        CHECK(cudaEventDestroy(ev));

    probe("cudaEventElapsedTime(timed, DisableTiming)", cudaEventElapsedTime(&ms, timed, untimed1));
    probe("cudaEventElapsedTime(DisableTiming, DisableTiming)",
          cudaEventElapsedTime(&ms, untimed1, untimed2));
    probe("cudaEventElapsedTime(never recorded, timed)", cudaEventElapsedTime(&ms, never, timed));
    probe("cudaEventElapsedTime(same event twice)", cudaEventElapsedTime(&ms, timed, timed));
    printf("  ms %.3f\n", ms == 0.0f ? 0.0 : -1.0);
    probe("cudaEventQuery(never recorded)", cudaEventQuery(never));
    probe("cudaEventSynchronize(never recorded)", cudaEventSynchronize(never));
    probe("cudaEventRecord(NULL event, s)", cudaEventRecord(NULL, s));
    probe("cudaEventRecordWithFlags(e, s, 0x10)", cudaEventRecordWithFlags(timed, s, 0x10));
    probe("cudaStreamWaitEvent(s, NULL event)", cudaStreamWaitEvent(s, NULL, 0));
    probe("cudaStreamWaitEvent(s, e, flags 0x10)", cudaStreamWaitEvent(s, timed, 0x10));

    expect("cudaStreamGetFlags(s, NULL)", cudaStreamGetFlags(s, NULL), cudaErrorInvalidValue);
    expect("cudaStreamGetPriority(s, NULL)", cudaStreamGetPriority(s, NULL),
           cudaErrorInvalidValue);
    /* Not probed: cudaStreamGetDevice(s, NULL), which crashes NVIDIA's runtime (SIGSEGV, on the
     * H200), nor cudaStreamGetId, cudaStreamGetAttribute and cudaEventElapsedTime with a NULL
     * output, which may. */
    probe("cudaStreamGetAttribute(s, Cooperative)",
          cudaStreamGetAttribute(s, cudaLaunchAttributeCooperative, &v));
    probe("cudaStreamSetAttribute(s, ClusterDimension)",
          cudaStreamSetAttribute(s, cudaLaunchAttributeClusterDimension, &v));

    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaEventDestroy(timed));
    CHECK(cudaEventDestroy(untimed1));
    CHECK(cudaEventDestroy(untimed2));
    CHECK(cudaEventDestroy(never));
    CHECK(cudaStreamDestroy(s));
    expect("cudaGetLastError at the end", cudaGetLastError(), cudaSuccess);
}

int main(void)
{
    gpu_require("conf_streams");
    streams_and_events();
    properties();
    callbacks();
    busy_queries();
    default_streams();
    invalid_arguments();
    printf("conf_streams: %s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
