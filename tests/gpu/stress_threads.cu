// stress_threads.cu - 16 host threads launch, copy and synchronise on private and shared streams,
// more than 100,000 runtime calls in all, while another thread dlopens stress_plugin.cu, a shared
// library whose constructor registers one more fatbin; the workers then launch the plugin's
// kernel too.  Every result is checked on the host.  At the end the plugin is closed (its kernel
// is gone, the program's still works) and opened again.
//
// The threads start before any context exists: their first calls make it, all at once, while
// the main thread makes four shared streams.  Per thread: a blocking stream and a non-blocking
// one of its own, one of the shared streams, and the per-thread default stream; round i does,
// by i % 4,
//   0  copy in, kernel, cudaGetLastError, copy out, synchronise     on the private stream
//   1  the same                                                     on the shared stream
//   2  copy in and kernel on the non-blocking stream, an event, the shared stream waits for
//      it and copies out, synchronise the shared stream
//   3  the same as 0 on cudaStreamPerThread, with the plugin's kernel once it is loaded (from
//      half-way on, the thread waits for it)
// and every 64th round cudaFuncGetAttributes, cudaFuncSetAttribute, cudaMalloc, cudaMemset,
// cudaMemcpy, cudaFree.
//
// The plugin: $STRESS_PLUGIN, else stress_plugin.<variant>.so beside this program, <variant>
// being what follows the last '.' of its name (tests/gpu/run.sh builds stress_threads.nvidia
// with stress_plugin.nvidia.so, and the same for minicudart).  Against the fake driver
// (MINICUDART_DRIVER names a library with fake_register_host_kernel, tests/e2e) the kernels are
// host functions registered with the fake, so results are checked there too.
//
// Output: only counts and verdicts, identical under both runtimes.  Exit 0 pass, 1 fail, 2 no GPU.
// gpu-libs: -ldl -Xlinker --export-dynamic
// gpu-plugin: stress_plugin
#include "gpu_check.h"

#include <atomic>
#include <chrono>
#include <dlfcn.h>
#include <signal.h>
#include <string.h>
#include <thread>
#include <unistd.h>
#include <vector>

static const int THREADS = 16;
static const int ITERATIONS = 1200;     // per thread
static const int N = 1024;              // elements per copy
static const int SHARED_STREAMS = 4;
static const int CHURN_EVERY = 64;

extern "C" __global__ void stress_step(unsigned *data, int n, unsigned mul, unsigned add)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] = data[i] * mul + add + (unsigned)i;
}

static unsigned expect_step(unsigned x, int i, unsigned mul, unsigned add)
{
    return x * mul + add + (unsigned)i;
}

static unsigned expect_plugin_step(unsigned x, int i, unsigned mul, unsigned add)
{
    return (x ^ mul) + 3u * add + (unsigned)i;   // stress_plugin.cu
}

typedef int (*plugin_launch_fn)(unsigned *data, int n, unsigned mul, unsigned add,
                                cudaStream_t s);

// ---- the fake driver: host versions of the two kernels --------------------------------------

struct step_params {                 // the kernels' parameters as the driver lays them out
    unsigned *data;
    int n;
    unsigned mul, add;
};

template <unsigned (*expect)(unsigned, int, unsigned, unsigned)>
static void fake_kernel(const void *params, size_t size, const unsigned grid[3],
                        const unsigned block[3])
{
    step_params p;
    memset(&p, 0, sizeof p);
    memcpy(&p, params, size < sizeof p ? size : sizeof p);
    unsigned long long threads = (unsigned long long)grid[0] * block[0];
    for (unsigned long long i = 0; i < threads && i < (unsigned long long)p.n; i++)
        p.data[i] = expect(p.data[i], (int)i, p.mul, p.add);
}


// When the driver is the fake one (tests/fake), registers the host versions: the same instance
// the runtime loads, since dlopen of a loaded path returns its handle.
static void register_fake_kernels(void)
{
    fake_register_fn reg = gpu_fake_registrar();
    if (!reg)
        return;
    reg("stress_step", fake_kernel<expect_step>);
    reg("plugin_step", fake_kernel<expect_plugin_step>);
}

// ---- the plugin ---------------------------------------------------------------------------------

static void *plugin_open(plugin_launch_fn *launch)
{
    void *handle = dlopen(gpu_plugin_path("STRESS_PLUGIN", "stress_plugin"), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        printf("FAIL dlopen %s: %s\n", gpu_plugin_path("STRESS_PLUGIN", "stress_plugin"),
               dlerror());
        return NULL;
    }
    void *sym = dlsym(handle, "stress_plugin_launch");
    if (!sym) {
        printf("FAIL dlsym stress_plugin_launch: %s\n", dlerror());
        dlclose(handle);
        return NULL;
    }
    memcpy(launch, &sym, sizeof *launch);
    return handle;
}

// ---- one checked round trip --------------------------------------------------------------------

static void seed(unsigned *h, int who, int round)
{
    for (int i = 0; i < N; i++)
        h[i] = (unsigned)who * 1000003u + (unsigned)round * 7919u + (unsigned)i;
}

// Compares h with the seed of (who, round) after one step; returns the number of wrong elements.
static int wrong_elements(const unsigned *h, int who, int round, unsigned mul, unsigned add,
                          bool plugin)
{
    int wrong = 0;
    for (int i = 0; i < N; i++) {
        unsigned x = (unsigned)who * 1000003u + (unsigned)round * 7919u + (unsigned)i;
        unsigned want = plugin ? expect_plugin_step(x, i, mul, add) : expect_step(x, i, mul, add);
        wrong += h[i] != want;
    }
    return wrong;
}

// Copy in, one step (the program's kernel, or the plugin's), copy out, synchronise: one round on
// one stream, checked.  Returns the wrong elements, or N on a failed call; *ops counts calls.
static int round_trip(unsigned *h, unsigned *d, cudaStream_t s, int who, int round,
                      plugin_launch_fn plugin, long *ops)
{
    unsigned mul = 2654435761u + (unsigned)round, add = (unsigned)who * 31u + (unsigned)round;
    seed(h, who, round);
    cudaError_t e = cudaMemcpyAsync(d, h, N * sizeof *h, cudaMemcpyHostToDevice, s);
    if (plugin) {
        int launched = plugin(d, N, mul, add, s);
        e = e != cudaSuccess ? e : (cudaError_t)launched;
    } else {
        stress_step<<<N / 256, 256, 0, s>>>(d, N, mul, add);
        cudaError_t launched = cudaGetLastError();
        e = e != cudaSuccess ? e : launched;
    }
    cudaError_t back = cudaMemcpyAsync(h, d, N * sizeof *h, cudaMemcpyDeviceToHost, s);
    cudaError_t sync = cudaStreamSynchronize(s);
    *ops += 5;
    if (e == cudaSuccess)
        e = back != cudaSuccess ? back : sync;
    if (e != cudaSuccess) {
        printf("FAIL round %d of %d: " ERR_FMT "\n", round, who, ERR_ARGS(e));
        return N;
    }
    return wrong_elements(h, who, round, mul, add, plugin != NULL);
}

// ---- the workers -------------------------------------------------------------------------------

static cudaStream_t shared_streams[SHARED_STREAMS];
static std::atomic<bool> shared_ready{false};     // main made them, while the workers set up
static std::atomic<long> rounds_done{0};
static std::atomic<int> plugin_state{0};          // 0 not yet, 1 loaded, -1 failed
static std::atomic<plugin_launch_fn> plugin_fn{nullptr};

struct worker_result {
    long ops = 0;
    long wrong = 0;
    long plugin_rounds = 0;
    bool failed = false;
};

static void fail(worker_result *r, const char *what, cudaError_t e)
{
    printf("FAIL %s: " ERR_FMT "\n", what, ERR_ARGS(e));
    r->failed = true;
}

// Iteration kind 2: copy in and step on the non-blocking stream q, hand over to the shared
// stream s through an event, copy out and synchronise there.
static int handover_round(unsigned *h, unsigned *d, cudaStream_t q, cudaStream_t s,
                          cudaEvent_t ev, int who, int round, long *ops)
{
    unsigned mul = 2654435761u + (unsigned)round, add = (unsigned)who * 31u + (unsigned)round;
    seed(h, who, round);
    cudaError_t e[7];
    e[0] = cudaMemcpyAsync(d, h, N * sizeof *h, cudaMemcpyHostToDevice, q);
    stress_step<<<N / 256, 256, 0, q>>>(d, N, mul, add);
    e[1] = cudaGetLastError();
    e[2] = cudaEventRecord(ev, q);
    e[3] = cudaStreamWaitEvent(s, ev, 0);
    e[4] = cudaMemcpyAsync(h, d, N * sizeof *h, cudaMemcpyDeviceToHost, s);
    e[5] = cudaStreamSynchronize(s);
    e[6] = cudaSuccess;
    *ops += 7;
    for (int i = 0; i < 7; i++)
        if (e[i] != cudaSuccess) {
            printf("FAIL hand-over round %d of %d, call %d: " ERR_FMT "\n", round, who, i,
                   ERR_ARGS(e[i]));
            return N;
        }
    return wrong_elements(h, who, round, mul, add, false);
}

// Every CHURN_EVERY rounds: the kernel's attributes read and one set (while others launch it),
// and an allocation of its own, set, read back, freed.
static bool churn(int who, int round, long *ops)
{
    unsigned char *tmp = NULL, back[64];
    int value = (who * 7 + round) & 0xff;
    cudaFuncAttributes attr;
    cudaError_t e = cudaFuncGetAttributes(&attr, stress_step);
    if (e == cudaSuccess)
        e = cudaFuncSetAttribute(stress_step, cudaFuncAttributePreferredSharedMemoryCarveout,
                                 who % 2 ? 50 : 100);
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&tmp, 4096);
    if (e == cudaSuccess)
        e = cudaMemset(tmp, value, 4096);
    if (e == cudaSuccess)
        e = cudaMemcpy(back, tmp + 1000, sizeof back, cudaMemcpyDeviceToHost);
    cudaError_t freed = cudaFree(tmp);
    *ops += 6;
    if (e != cudaSuccess || freed != cudaSuccess) {
        printf("FAIL churn %d of %d: " ERR_FMT " / " ERR_FMT "\n", round, who, ERR_ARGS(e),
               ERR_ARGS(freed));
        return false;
    }
    for (size_t i = 0; i < sizeof back; i++)
        if (back[i] != value)
            return false;
    return true;
}

static void worker(int who, worker_result *r)
{
    cudaStream_t own = NULL, nonblocking = NULL;
    cudaEvent_t ev = NULL;
    unsigned *h = NULL, *d = NULL;
    cudaError_t e;
    if ((e = cudaStreamCreate(&own)) != cudaSuccess ||
        (e = cudaStreamCreateWithFlags(&nonblocking, cudaStreamNonBlocking)) != cudaSuccess ||
        (e = cudaEventCreateWithFlags(&ev, cudaEventDisableTiming)) != cudaSuccess ||
        (e = cudaMallocHost((void **)&h, N * sizeof *h)) != cudaSuccess ||
        (e = cudaMalloc((void **)&d, N * sizeof *d)) != cudaSuccess) {
        fail(r, "worker set-up", e);
        return;
    }
    if ((e = cudaSetDevice(0)) != cudaSuccess) {     // the context is made by now: current
        fail(r, "cudaSetDevice", e);
        return;
    }
    r->ops += 6;
    while (!shared_ready.load())
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    cudaStream_t shared = shared_streams[who % SHARED_STREAMS];
    for (int round = 0; round < ITERATIONS && !r->failed; round++) {
        int wrong = 0;
        switch (round % 4) {
        case 0:
            wrong = round_trip(h, d, own, who, round, NULL, &r->ops);
            break;
        case 1:
            wrong = round_trip(h, d, shared, who, round, NULL, &r->ops);
            break;
        case 2:
            wrong = handover_round(h, d, nonblocking, shared, ev, who, round, &r->ops);
            break;
        case 3: {
            // The plugin's kernel once it is published (its first launches race with the
            // loader's own); from half-way on, wait for it.
            while (round >= ITERATIONS / 2 && plugin_state.load() == 0)
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            if (plugin_state.load() < 0) {
                r->failed = true;
                break;
            }
            plugin_launch_fn plugin = plugin_fn.load();
            r->plugin_rounds += plugin != NULL;
            wrong = round_trip(h, d, cudaStreamPerThread, who, round, plugin, &r->ops);
            break;
        }
        }
        if (wrong) {
            if (r->wrong == 0)
                printf("FAIL thread %d round %d: %d wrong elements\n", who, round, wrong);
            r->wrong += wrong;
        }
        if (round % CHURN_EVERY == CHURN_EVERY - 1 && !churn(who, round, &r->ops))
            r->failed = true;
        rounds_done++;
    }
    e = cudaStreamDestroy(own);
    if (e == cudaSuccess)
        e = cudaStreamDestroy(nonblocking);
    if (e == cudaSuccess)
        e = cudaEventDestroy(ev);
    if (e == cudaSuccess)
        e = cudaFreeHost(h);
    if (e == cudaSuccess)
        e = cudaFree(d);
    r->ops += 5;
    if (e != cudaSuccess)
        fail(r, "worker clean-up", e);
}

// ---- the loader thread and the end ------------------------------------------------------------

static void *plugin_handle;

// Waits until a quarter of the rounds are done, dlopens the plugin, lets the workers use it and
// checks its kernel on a stream of its own.
static void loader(bool *ok)
{
    while (rounds_done.load() < (long)THREADS * ITERATIONS / 4)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    plugin_launch_fn launch = NULL;
    plugin_handle = plugin_open(&launch);
    plugin_fn.store(launch);
    *ok = false;
    if (plugin_handle) {
        cudaStream_t s = NULL;
        unsigned *h = NULL, *d = NULL;
        long ops = 0;
        if (cudaStreamCreate(&s) == cudaSuccess && cudaMallocHost((void **)&h, N * 4) == cudaSuccess &&
            cudaMalloc((void **)&d, N * 4) == cudaSuccess)
            *ok = round_trip(h, d, s, THREADS, 0, launch, &ops) == 0;
        cudaStreamDestroy(s);
        cudaFreeHost(h);
        cudaFree(d);
    }
    printf("plugin thread: dlopen while the workers run, its kernel checked: %s\n",
           *ok ? "ok" : "FAILED");
    plugin_state.store(*ok ? 1 : -1);
}

// After the run: the plugin closed (the program's kernel still works), then opened again (its
// kernel registers and works again), and closed.
static bool close_and_reopen(void)
{
    unsigned *h = NULL, *d = NULL;
    long ops = 0;
    CHECK(cudaMallocHost((void **)&h, N * sizeof *h));
    CHECK(cudaMalloc((void **)&d, N * sizeof *d));
    bool closed = plugin_handle && dlclose(plugin_handle) == 0;
    bool program_ok = round_trip(h, d, 0, THREADS + 1, 1, NULL, &ops) == 0;
    printf("after dlclose: the program's kernel: %s\n", closed && program_ok ? "ok" : "FAILED");
    plugin_launch_fn launch = NULL;
    void *again = plugin_open(&launch);
    bool reopened = again && round_trip(h, d, 0, THREADS + 2, 2, launch, &ops) == 0;
    printf("plugin opened again: its kernel: %s\n", reopened ? "ok" : "FAILED");
    if (again)
        dlclose(again);
    CHECK(cudaFreeHost(h));
    CHECK(cudaFree(d));
    return closed && program_ok && reopened;
}

int main(void)
{
    register_fake_kernels();
    gpu_require("stress_threads");
    const char *limit = getenv("STRESS_TIMEOUT_S");
    gpu_watchdog(limit && *limit ? (unsigned)atoi(limit) : 240,
                 "FAIL stress_threads: not finished in time (deadlock?)\n");

    // The workers start with the runtime initialised (gpu_require) but no context yet: the
    // first streams, on 17 threads at once, make it.
    std::vector<worker_result> results(THREADS);
    std::vector<std::thread> threads;
    bool loaded = false;
    std::thread load(loader, &loaded);
    for (int t = 0; t < THREADS; t++)
        threads.emplace_back(worker, t, &results[t]);
    for (int i = 0; i < SHARED_STREAMS; i++)
        CHECK(cudaStreamCreate(&shared_streams[i]));
    shared_ready.store(true);
    for (auto &t : threads)
        t.join();
    load.join();

    long ops = 0, wrong = 0;
    bool failed = !loaded;
    for (const auto &r : results) {
        ops += r.ops;
        wrong += r.wrong;
        failed |= r.failed;
        if (r.ops != results[0].ops)
            failed = true;
    }
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < SHARED_STREAMS; i++)
        CHECK(cudaStreamDestroy(shared_streams[i]));
    bool reopened = close_and_reopen();
    bool every_thread = true;
    for (const auto &r : results)
        every_thread &= r.plugin_rounds >= ITERATIONS / 8;
    printf("stress_threads: %d threads x %ld operations = %ld operations, %ld wrong elements, "
           "every thread used the plugin's kernel: %s\n", THREADS, results[0].ops, ops, wrong,
           every_thread ? "yes" : "no");
    bool ok = !failed && wrong == 0 && reopened && every_thread && ops >= 100000;
    printf("stress_threads: %s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
