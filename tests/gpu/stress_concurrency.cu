// stress_concurrency.cu - concurrency at scale (issue 18): $STRESS_THREADS host threads (64 by
// default), each with a non-blocking stream of its own, for $STRESS_SECONDS seconds (5 by default;
// tests/gpu/reliability.sh runs it for 60), launch kernels, copy, allocate from the stream's pool,
// record events and wait on other threads' events, and capture, build, instantiate, launch and
// destroy small graphs.  Every result is checked on the host.
//
// The run is cut into epochs of EPOCH rounds; all threads meet at a barrier after each epoch and
// the last one to arrive decides, from the clock, whether another epoch starts, so every thread
// does the same rounds and the hand-overs below always have a partner.  Round r of an epoch does,
// by r % 4,
//   0  copy in, step kernel, mix into the accumulator, copy out, synchronise: on a buffer of the
//      thread's own, or (every other time) on one from cudaMallocAsync, freed by cudaFreeAsync
//   1  hand-over: the thread writes its mailbox (copy in, step) and records its event; then takes
//      the mailbox of thread (t + 1) % T: its stream waits for that thread's event
//      (cudaStreamWaitEvent), copies the mailbox device to device, records an acknowledgement
//      event, mixes, copies out and synchronises.  Before a thread writes its mailbox again its
//      stream waits for the acknowledgement of its reader, thread (t - 1) % T.  Host atomics say
//      when an event has been recorded (so the wait is on that record and not an older one)
//   2  a graph: copy in, step, mix, copy out; captured from the stream (thread-local capture
//      mode) or built node by node, by turns; instantiated, launched twice, destroyed
//   3  hand-over as 1, but the reader waits on the host (cudaEventSynchronize) and the writer
//      waits for the acknowledgement on the host too
// The accumulator of each thread, mixed every round, is compared at the end with the host's copy
// of the same computation.
//
// Output: one PASS/FAIL line per check; never counts of rounds (they depend on the machine), so
// that the lines are identical under both runtimes.  A watchdog (alarm, $STRESS_TIMEOUT_S,
// default STRESS_SECONDS + 120) prints FAIL and exits 1 on a deadlock.  Against the fake driver
// (tests/e2e, and under ThreadSanitizer) the kernels are host functions registered with the fake.
// Exit 0 pass, 1 fail, 2 no GPU.
#include "gpu_check.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <signal.h>
#include <string.h>
#include <thread>
#include <unistd.h>
#include <vector>

static const int N = 1024;        // elements per buffer
static const int EPOCH = 16;      // rounds between barriers (a multiple of 4: every kind)

extern "C" __global__ void conc_step(unsigned *data, int n, unsigned mul, unsigned add)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] = data[i] * mul + add + (unsigned)i;
}

extern "C" __global__ void conc_mix(unsigned *acc, const unsigned *src, int n, unsigned salt)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        acc[i] = acc[i] * 33u + (src[i] ^ salt);
}

static unsigned step_of(unsigned x, int i, unsigned mul, unsigned add)
{
    return x * mul + add + (unsigned)i;
}

static unsigned mix_of(unsigned acc, unsigned src, unsigned salt)
{
    return acc * 33u + (src ^ salt);
}

// ---- the fake driver: host versions of the two kernels --------------------------------------

struct step_params {              // the kernels' parameters as the driver lays them out
    unsigned *data;
    int n;
    unsigned mul, add;
};
struct mix_params {
    unsigned *acc;
    const unsigned *src;
    int n;
    unsigned salt;
};

static void fake_step(const void *params, size_t size, const unsigned grid[3],
                      const unsigned block[3])
{
    step_params p;
    memset(&p, 0, sizeof p);
    memcpy(&p, params, size < sizeof p ? size : sizeof p);
    for (unsigned long long i = 0; i < (unsigned long long)grid[0] * block[0] && i < (unsigned)p.n; i++)
        p.data[i] = step_of(p.data[i], (int)i, p.mul, p.add);
}

static void fake_mix(const void *params, size_t size, const unsigned grid[3],
                     const unsigned block[3])
{
    mix_params p;
    memset(&p, 0, sizeof p);
    memcpy(&p, params, size < sizeof p ? size : sizeof p);
    for (unsigned long long i = 0; i < (unsigned long long)grid[0] * block[0] && i < (unsigned)p.n; i++)
        p.acc[i] = mix_of(p.acc[i], p.src[i], p.salt);
}

static void register_fake_kernels(void)
{
    fake_register_fn reg = gpu_fake_registrar();
    if (!reg)
        return;
    reg("conc_step", fake_step);
    reg("conc_mix", fake_mix);
}

// ---- shared state ----------------------------------------------------------------------------

enum check { ROUND_TRIP, POOL, WAIT_EVENT, SYNC_EVENT, CAPTURED, BUILT, CHECKS };
static const char *const check_names[CHECKS] = {
    "round trips on the thread's own stream (copy, kernel, copy back)",
    "round trips on memory from cudaMallocAsync, freed by cudaFreeAsync",
    "hand-overs between threads: cudaStreamWaitEvent on the other thread's event",
    "hand-overs between threads: cudaEventSynchronize on the other thread's event",
    "graphs captured from the stream, instantiated, launched twice, destroyed",
    "graphs built node by node, instantiated, launched twice, destroyed",
};

struct thread_state {
    cudaStream_t stream = NULL;
    cudaEvent_t written = NULL;           // recorded after the mailbox is written
    cudaEvent_t taken = NULL;             // recorded after the neighbour's mailbox is copied
    unsigned *mailbox = NULL;             // device: read by thread (t - 1) % T
    std::atomic<int> written_round{-1};   // the round whose `written` record is the latest
    std::atomic<int> taken_round{-1};     // the round in which the reader took the mailbox
    long done[CHECKS] = {};
    long wrong[CHECKS] = {};
    bool acc_ok = false, clean = false;
};

static int threads_n = 64;
static double seconds = 5;
static std::vector<thread_state> *states;
static std::atomic<bool> aborted{false};
static std::chrono::steady_clock::time_point started;

// The epoch barrier; the last thread to arrive decides whether another epoch runs.
static std::mutex barrier_lock;
static std::condition_variable barrier_cv;
static int barrier_count, barrier_generation;
static bool keep_going = true;

static bool epoch_barrier(void)
{
    std::unique_lock<std::mutex> hold(barrier_lock);
    int generation = barrier_generation;
    if (++barrier_count == threads_n) {
        barrier_count = 0;
        barrier_generation++;
        std::chrono::duration<double> spent = std::chrono::steady_clock::now() - started;
        keep_going = spent.count() < seconds;
        barrier_cv.notify_all();
    } else {
        barrier_cv.wait(hold, [&] { return barrier_generation != generation || aborted.load(); });
    }
    return keep_going && !aborted.load();
}

static void abort_all(void)
{
    aborted.store(true);
    std::lock_guard<std::mutex> hold(barrier_lock);
    barrier_cv.notify_all();
}

// Waits until `value` reaches `want`; false when another thread gave up.
static bool wait_for(const std::atomic<int> &value, int want)
{
    for (int spins = 0; value.load(std::memory_order_acquire) < want; spins++) {
        if (aborted.load())
            return false;
        if (spins < 64)
            std::this_thread::yield();
        else
            std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
    return true;
}

// ---- one thread's work -----------------------------------------------------------------------

struct worker {
    int t;
    thread_state *me;
    unsigned *hin = NULL, *hout = NULL;   // pinned
    unsigned *work = NULL, *in = NULL, *acc = NULL;
    std::vector<unsigned> mirror;         // the host's copy of acc
    int last_handover = -1;
    bool failed = false;

    bool ok(cudaError_t e, const char *what, int round)
    {
        if (e == cudaSuccess)
            return true;
        if (!failed)
            printf("FAIL thread %d round %d: %s -> " ERR_FMT "\n", t, round, what, ERR_ARGS(e));
        failed = true;
        abort_all();
        return false;
    }

    static unsigned mul_of(int who, int round) { return 2654435761u + (unsigned)round * 2u + (unsigned)who; }
    static unsigned add_of(int who, int round) { return (unsigned)who * 31u + (unsigned)round; }
    static unsigned salt_of(int who, int round) { return (unsigned)who * 0x9e3779b9u ^ (unsigned)round; }
    static unsigned seed_of(int who, int round, int i)
    {
        return (unsigned)who * 1000003u + (unsigned)round * 7919u + (unsigned)i;
    }

    void seed(int round)
    {
        for (int i = 0; i < N; i++)
            hin[i] = seed_of(t, round, i);
    }
    // hout against `who`'s round after one step (times `steps`); mixes the mirror `mixes` times.
    void check(enum check kind, int who, int round, int mixes)
    {
        unsigned mul = mul_of(who, round), add = add_of(who, round), salt = salt_of(t, round);
        long wrong = 0;
        for (int i = 0; i < N; i++) {
            unsigned want = step_of(seed_of(who, round, i), i, mul, add);
            wrong += hout[i] != want;
            for (int m = 0; m < mixes; m++)
                mirror[i] = mix_of(mirror[i], want, salt);
        }
        if (wrong && me->wrong[kind] == 0)
            printf("FAIL thread %d round %d (%s): %ld wrong elements\n", t, round,
                   check_names[kind], wrong);
        me->wrong[kind] += wrong;
        me->done[kind]++;
    }
    bool step(unsigned *d, int who, int round)
    {
        conc_step<<<N / 256, 256, 0, me->stream>>>(d, N, mul_of(who, round), add_of(who, round));
        return ok(cudaGetLastError(), "conc_step launch", round);
    }
    bool mix(const unsigned *src, int round)
    {
        conc_mix<<<N / 256, 256, 0, me->stream>>>(acc, src, N, salt_of(t, round));
        return ok(cudaGetLastError(), "conc_mix launch", round);
    }

    void round_trip(int round, bool pool)
    {
        cudaStream_t s = me->stream;
        unsigned *d = work;
        seed(round);
        if (pool && !ok(cudaMallocAsync((void **)&d, N * sizeof *d, s), "cudaMallocAsync", round))
            return;
        if (ok(cudaMemcpyAsync(d, hin, N * sizeof *d, cudaMemcpyHostToDevice, s), "copy in", round) &&
            step(d, t, round) && mix(d, round) &&
            ok(cudaMemcpyAsync(hout, d, N * sizeof *d, cudaMemcpyDeviceToHost, s), "copy out", round) &&
            (!pool || ok(cudaFreeAsync(d, s), "cudaFreeAsync", round)) &&
            ok(cudaStreamSynchronize(s), "cudaStreamSynchronize", round))
            check(pool ? POOL : ROUND_TRIP, t, round, 1);
    }

    void handover(int round, bool on_host)
    {
        cudaStream_t s = me->stream;
        thread_state &reader = (*states)[(t + threads_n - 1) % threads_n];
        thread_state &from = (*states)[(t + 1) % threads_n];
        const char *wait_what = on_host ? "cudaEventSynchronize" : "cudaStreamWaitEvent";
        // The reader took the previous mailbox: its `taken` record is the latest by now.
        if (last_handover >= 0) {
            if (!wait_for(me->taken_round, last_handover))
                return;
            cudaError_t e = on_host ? cudaEventSynchronize(reader.taken)
                                    : cudaStreamWaitEvent(s, reader.taken, 0);
            if (!ok(e, wait_what, round))
                return;
        }
        seed(round);
        if (!ok(cudaMemcpyAsync(me->mailbox, hin, N * sizeof *hin, cudaMemcpyHostToDevice, s),
                "mailbox copy in", round) ||
            !step(me->mailbox, t, round) || !ok(cudaEventRecord(me->written, s), "cudaEventRecord", round))
            return;
        me->written_round.store(round, std::memory_order_release);
        last_handover = round;
        // The neighbour's mailbox of this round (it cannot write the next before we take this).
        if (!wait_for(from.written_round, round))
            return;
        if (from.written_round.load() != round) {
            printf("FAIL thread %d round %d: the neighbour wrote round %d\n", t, round,
                   from.written_round.load());
            failed = true;
            abort_all();
            return;
        }
        cudaError_t e = on_host ? cudaEventSynchronize(from.written)
                                : cudaStreamWaitEvent(s, from.written, 0);
        if (!ok(e, wait_what, round) ||
            !ok(cudaMemcpyAsync(in, from.mailbox, N * sizeof *in, cudaMemcpyDeviceToDevice, s),
                "mailbox copy", round) ||
            !ok(cudaEventRecord(me->taken, s), "cudaEventRecord", round))
            return;
        from.taken_round.store(round, std::memory_order_release);
        if (mix(in, round) &&
            ok(cudaMemcpyAsync(hout, in, N * sizeof *in, cudaMemcpyDeviceToHost, s), "copy out", round) &&
            ok(cudaStreamSynchronize(s), "cudaStreamSynchronize", round))
            check(on_host ? SYNC_EVENT : WAIT_EVENT, (t + 1) % threads_n, round, 1);
    }

    // copy in, step, mix, copy out: captured, or built node by node.
    bool build_graph(cudaGraph_t *graph, int round, bool capture)
    {
        cudaStream_t s = me->stream;
        if (capture) {
            if (!ok(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal), "cudaStreamBeginCapture", round))
                return false;
            bool queued = ok(cudaMemcpyAsync(work, hin, N * sizeof *hin, cudaMemcpyHostToDevice, s),
                             "captured copy in", round) &&
                          step(work, t, round) && mix(work, round) &&
                          ok(cudaMemcpyAsync(hout, work, N * sizeof *hout, cudaMemcpyDeviceToHost, s),
                             "captured copy out", round);
            cudaError_t e = cudaStreamEndCapture(s, graph);
            return queued && ok(e, "cudaStreamEndCapture", round);
        }
        if (!ok(cudaGraphCreate(graph, 0), "cudaGraphCreate", round))
            return false;
        cudaGraphNode_t copy_in, stepped, mixed, copy_out;
        int n = N;
        unsigned mul = mul_of(t, round), add = add_of(t, round), salt = salt_of(t, round);
        void *step_args[] = { &work, &n, &mul, &add };
        void *mix_args[] = { &acc, &work, &n, &salt };
        cudaKernelNodeParams k;
        memset(&k, 0, sizeof k);
        k.gridDim = dim3(N / 256);
        k.blockDim = dim3(256);
        k.func = (void *)conc_step;
        k.kernelParams = step_args;
        cudaKernelNodeParams m = k;
        m.func = (void *)conc_mix;
        m.kernelParams = mix_args;
        return ok(cudaGraphAddMemcpyNode1D(&copy_in, *graph, NULL, 0, work, hin, N * sizeof *hin,
                                           cudaMemcpyHostToDevice), "cudaGraphAddMemcpyNode1D", round) &&
               ok(cudaGraphAddKernelNode(&stepped, *graph, &copy_in, 1, &k), "cudaGraphAddKernelNode", round) &&
               ok(cudaGraphAddKernelNode(&mixed, *graph, &stepped, 1, &m), "cudaGraphAddKernelNode", round) &&
               ok(cudaGraphAddMemcpyNode1D(&copy_out, *graph, &mixed, 1, hout, work, N * sizeof *hout,
                                           cudaMemcpyDeviceToHost), "cudaGraphAddMemcpyNode1D", round);
    }

    void graph_round(int round, bool capture)
    {
        cudaGraph_t graph = NULL;
        cudaGraphExec_t exec = NULL;
        seed(round);
        bool built = build_graph(&graph, round, capture);
        bool ran = built && ok(cudaGraphInstantiate(&exec, graph, 0), "cudaGraphInstantiate", round) &&
                   ok(cudaGraphLaunch(exec, me->stream), "cudaGraphLaunch", round) &&
                   ok(cudaGraphLaunch(exec, me->stream), "cudaGraphLaunch again", round) &&
                   ok(cudaStreamSynchronize(me->stream), "cudaStreamSynchronize", round);
        if (exec)
            ok(cudaGraphExecDestroy(exec), "cudaGraphExecDestroy", round);
        if (graph)
            ok(cudaGraphDestroy(graph), "cudaGraphDestroy", round);
        if (ran && !failed)
            check(capture ? CAPTURED : BUILT, t, round, 2);   // the graph ran twice: mixed twice
    }

    void run(void)
    {
        mirror.assign(N, 0);
        // The first calls of 64 threads at once make the context.
        if (!ok(cudaStreamCreateWithFlags(&me->stream, cudaStreamNonBlocking), "cudaStreamCreateWithFlags", -1) ||
            !ok(cudaEventCreateWithFlags(&me->written, cudaEventDisableTiming), "cudaEventCreate", -1) ||
            !ok(cudaEventCreateWithFlags(&me->taken, cudaEventDisableTiming), "cudaEventCreate", -1) ||
            !ok(cudaMallocHost((void **)&hin, N * sizeof *hin), "cudaMallocHost", -1) ||
            !ok(cudaMallocHost((void **)&hout, N * sizeof *hout), "cudaMallocHost", -1) ||
            !ok(cudaMalloc((void **)&me->mailbox, N * sizeof *hin), "cudaMalloc", -1) ||
            !ok(cudaMalloc((void **)&work, N * sizeof *hin), "cudaMalloc", -1) ||
            !ok(cudaMalloc((void **)&in, N * sizeof *hin), "cudaMalloc", -1) ||
            !ok(cudaMalloc((void **)&acc, N * sizeof *hin), "cudaMalloc", -1) ||
            !ok(cudaMemsetAsync(acc, 0, N * sizeof *acc, me->stream), "cudaMemsetAsync", -1) ||
            !ok(cudaStreamSynchronize(me->stream), "cudaStreamSynchronize", -1))
            return;
        int round = 0;
        do {
            for (int r = 0; r < EPOCH && !failed && !aborted.load(); r++, round++) {
                bool other = (round / 4) % 2;
                switch (round % 4) {
                case 0: round_trip(round, other); break;
                case 1: handover(round, false); break;
                case 2: graph_round(round, other); break;
                case 3: handover(round, true); break;
                }
            }
        } while (!failed && epoch_barrier());
    }

    // The accumulator against the mirror, then everything freed.  Runs after every thread's
    // last round (the mailboxes are read by other threads to the end).
    void finish(void)
    {
        if (me->stream && !failed &&
            ok(cudaMemcpyAsync(hout, acc, N * sizeof *acc, cudaMemcpyDeviceToHost, me->stream), "copy out", -2) &&
            ok(cudaStreamSynchronize(me->stream), "cudaStreamSynchronize", -2))
            me->acc_ok = memcmp(hout, mirror.data(), N * sizeof *hout) == 0;
        cudaError_t e[9] = { cudaStreamDestroy(me->stream), cudaEventDestroy(me->written),
                             cudaEventDestroy(me->taken), cudaFreeHost(hin), cudaFreeHost(hout),
                             cudaFree(me->mailbox), cudaFree(work), cudaFree(in), cudaFree(acc) };
        me->clean = true;
        for (cudaError_t one : e)
            me->clean &= one == cudaSuccess;
    }
};

static std::mutex finish_lock;
static std::condition_variable finish_cv;
static int finished_running;

static void thread_main(worker *w)
{
    w->run();
    // Wait for every thread's last round: a neighbour may still read this thread's mailbox.
    {
        std::unique_lock<std::mutex> hold(finish_lock);
        if (++finished_running == threads_n)
            finish_cv.notify_all();
        else
            finish_cv.wait(hold, [] { return finished_running == threads_n; });
    }
    w->finish();
}

int main(void)
{
    register_fake_kernels();
    gpu_require("stress_concurrency");
    const char *env = getenv("STRESS_THREADS");
    if (env && *env && atoi(env) >= 2)
        threads_n = atoi(env);
    env = getenv("STRESS_SECONDS");
    if (env && *env)
        seconds = atof(env);
    env = getenv("STRESS_TIMEOUT_S");
    gpu_watchdog(env && *env ? (unsigned)atoi(env) : (unsigned)seconds + 120,
                 "FAIL stress_concurrency: not finished in time (deadlock?)\n");

    std::vector<thread_state> all(threads_n);
    states = &all;
    std::vector<worker> workers(threads_n);
    std::vector<std::thread> threads;
    started = std::chrono::steady_clock::now();
    for (int t = 0; t < threads_n; t++) {
        workers[t].t = t;
        workers[t].me = &all[t];
        threads.emplace_back(thread_main, &workers[t]);
    }
    for (auto &th : threads)
        th.join();

    printf("stress_concurrency: %d threads, each with its own stream\n", threads_n);
    bool pass = !aborted.load();
    for (int c = 0; c < CHECKS; c++) {
        bool ok = true;
        for (const auto &s : all)
            ok &= s.done[c] > 0 && s.wrong[c] == 0;
        printf("%s: %s\n", check_names[c], ok ? "PASS" : "FAIL");
        pass &= ok;
    }
    bool acc = true, clean = true;
    for (const auto &s : all) {
        acc &= s.acc_ok;
        clean &= s.clean;
    }
    printf("every thread's accumulator equals the host's computation: %s\n", acc ? "PASS" : "FAIL");
    cudaError_t e = cudaDeviceSynchronize();
    printf("streams, events and memory released, device synchronised: %s\n",
           clean && e == cudaSuccess ? "PASS" : "FAIL");
    pass &= acc && clean && e == cudaSuccess;
    printf("stress_concurrency: %s\n", pass ? "PASS" : "FAIL");
    return pass ? 0 : 1;
}
