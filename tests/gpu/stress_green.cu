// gpu-cuda: 13.5
// gpu-libs: -lpthread
// stress_green.cu - green contexts under load and faults (CUDA 13.5's execution contexts):
//   load     64 threads, 16 of them on streams of a green context of 16 SMs
//            (cudaExecutionCtxStreamCreate) and 48 on ordinary non-blocking streams, each 40
//            rounds of a fill kernel, an asynchronous copy back and a check; every 4th round a
//            green thread's event is waited on by a plain thread's stream (work crossing the
//            contexts);
//   destroy  a second green context destroyed (cudaExecutionCtxDestroy) while its stream holds a
//            50 ms kernel and a fill behind it: what the destroy answers, whether the fill
//            landed, what the device answers after;
//   fault    an illegal address in a kernel on a green stream, while the other threads have work
//            queued on the primary context: what the green stream, the green context, the
//            primary context's streams and every other thread then see.
// The lines are codes and verdicts only, printed by the main thread in a fixed order, so that
// NVIDIA's 13.5 runtime and minicudart diff line by line (tests/gpu/cuda135.sh).  Against the
// fake driver (tests/cuda135) the kernels are host functions and the fault is injected.
// Exit 0 pass, 1 fail, 2 no GPU.
#include "fault.h"

#if CUDART_VERSION < 13050
#error "needs CUDA 13.5's headers (the gpu-cuda mark: run.sh and the CMake trees build it only with nvcc 13.5)"
#endif

#include <atomic>
#include <pthread.h>
#include <thread>

static const int N = 4096;
static const int THREADS = 64;
static const int GREEN_THREADS = 16;
static const int ROUNDS = 40;

extern "C" __global__ void green_fill(int *out, int n, int base)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = base + i;
}

extern "C" __global__ void green_spin(long long ns)
{
    unsigned long long start, now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    do {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    } while ((long long)(now - start) < ns);
}

extern "C" __global__ void green_store(int *p, int v)
{
    *p = v;
}

static void fake_nothing(const void *, size_t, const unsigned[3], const unsigned[3]) {}

static void register_fake_kernels(void)
{
    fake_register_fn reg = gpu_fake_registrar();
    if (!reg)
        return;
    reg("green_fill", gpu_fake_fill);
    reg("green_spin", fake_nothing);
    reg("green_store", fake_nothing);
}

// ---- the green contexts ----------------------------------------------------------------------

// Two green contexts of 16 SMs each, from one split of the device's SMs.
static bool make_green(cudaExecutionContext_t *a, cudaExecutionContext_t *b)
{
    cudaDevResource sm, groups[2], rest;
    memset(&sm, 0, sizeof sm);
    memset(groups, 0, sizeof groups);
    memset(&rest, 0, sizeof rest);
    CHECK(cudaDeviceGetDevResource(0, &sm, cudaDevResourceTypeSm));
    unsigned count = 2;
    CHECK(cudaDevSmResourceSplitByCount(groups, &count, &sm, &rest, 0, 16));
    if (count < 2) {
        printf("FAIL the device's SMs split into %u groups of 16, not 2\n", count);
        return false;
    }
    cudaDevResourceDesc_t da = NULL, db = NULL;
    CHECK(cudaDevResourceGenerateDesc(&da, &groups[0], 1));
    CHECK(cudaDevResourceGenerateDesc(&db, &groups[1], 1));
    CHECK(cudaGreenCtxCreate(a, da, 0, 0));
    CHECK(cudaGreenCtxCreate(b, db, 0, 0));
    return true;
}

// ---- load ------------------------------------------------------------------------------------

struct loader {
    int index;
    cudaStream_t stream;
    int *dev;
    int *host;                        // pinned
    cudaEvent_t event;                // green threads: recorded every 4th round
    std::atomic<int> recorded{-1};    // the round whose event is recorded
    std::atomic<int> bad{0};          // wrong elements or failed calls (partners read it)
    cudaError_t first_error;
};

static loader loaders[THREADS];
static pthread_barrier_t start_line;

static void note(loader *l, cudaError_t e)
{
    if (e != cudaSuccess && l->first_error == cudaSuccess)
        l->first_error = e;
    if (e != cudaSuccess)
        l->bad++;
}

static void *load_thread(void *arg)
{
    loader *l = (loader *)arg;
    pthread_barrier_wait(&start_line);
    bool green = l->index < GREEN_THREADS;
    loader *partner = green ? NULL : &loaders[l->index % GREEN_THREADS];
    for (int r = 0; r < ROUNDS; r++) {
        // A plain thread waits, every 4th round, for its green partner's event of that round.
        if (partner && r % 4 == 0) {
            while (partner->recorded.load() < r && partner->bad == 0)
                sched_yield();
            note(l, cudaStreamWaitEvent(l->stream, partner->event, 0));
        }
        int base = l->index * 100000 + r * 1000;
        green_fill<<<N / 256, 256, 0, l->stream>>>(l->dev, N, base);
        note(l, cudaGetLastError());
        if (green && r % 4 == 0) {
            note(l, cudaEventRecord(l->event, l->stream));
            l->recorded = r;
        }
        note(l, cudaMemcpyAsync(l->host, l->dev, N * sizeof(int), cudaMemcpyDeviceToHost,
                                l->stream));
        note(l, cudaStreamSynchronize(l->stream));
        for (int i = 0; i < N && l->first_error == cudaSuccess; i++)
            if (l->host[i] != base + i) {
                l->bad++;
                break;
            }
    }
    if (green)
        l->recorded = ROUNDS;         // nobody waits any longer
    return NULL;
}

static void load(cudaExecutionContext_t green)
{
    printf("load: %d threads, %d on a green context's streams, %d rounds each\n", THREADS,
           GREEN_THREADS, ROUNDS);
    pthread_barrier_init(&start_line, NULL, THREADS);
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++) {
        loader *l = &loaders[i];
        l->index = i;
        if (i < GREEN_THREADS)
            CHECK(cudaExecutionCtxStreamCreate(&l->stream, green, cudaStreamNonBlocking, 0));
        else
            CHECK(cudaStreamCreateWithFlags(&l->stream, cudaStreamNonBlocking));
        CHECK(cudaMalloc(&l->dev, N * sizeof(int)));
        CHECK(cudaMallocHost(&l->host, N * sizeof(int)));
        CHECK(cudaEventCreateWithFlags(&l->event, cudaEventDisableTiming));
        if (pthread_create(&t[i], NULL, load_thread, l) != 0) {
            printf("FAIL pthread_create\n");
            exit(1);
        }
    }
    int bad_green = 0, bad_plain = 0;
    cudaError_t first = cudaSuccess;
    for (int i = 0; i < THREADS; i++) {
        pthread_join(t[i], NULL);
        (i < GREEN_THREADS ? bad_green : bad_plain) += loaders[i].bad.load();
        if (first == cudaSuccess)
            first = loaders[i].first_error;
    }
    pthread_barrier_destroy(&start_line);
    fault_show("first error of any thread", first);
    fault_expect("green threads: every round's results right", bad_green == 0);
    fault_expect("plain threads: every round's results right", bad_plain == 0);
}

// ---- destroy ---------------------------------------------------------------------------------

static void destroy_busy(cudaExecutionContext_t doomed, int *dev, int *host)
{
    printf("destroy: a green context destroyed while its stream holds work\n");
    cudaStream_t s = NULL;
    CHECK(cudaExecutionCtxStreamCreate(&s, doomed, cudaStreamNonBlocking, 0));
    CHECK(cudaMemset(dev, 0, sizeof(int) * 256));
    green_spin<<<1, 1, 0, s>>>(50ll * 1000 * 1000);
    fault_show("spin launch on its stream", cudaGetLastError());
    green_fill<<<1, 256, 0, s>>>(dev, 256, 777);
    fault_show("fill launch behind it", cudaGetLastError());
    fault_show("cudaExecutionCtxDestroy (work pending)", cudaExecutionCtxDestroy(doomed));
    fault_show("cudaDeviceSynchronize after", cudaDeviceSynchronize());
    cudaError_t e = cudaMemcpy(host, dev, sizeof(int) * 256, cudaMemcpyDeviceToHost);
    fault_show("cudaMemcpy of the fill's output", e);
    bool landed = e == cudaSuccess;
    for (int i = 0; i < 256 && landed; i++)
        landed = host[i] == 777 + i;
    printf("  the fill behind the destroy %s\n", landed ? "landed" : "did not land");
    fault_show("cudaGetLastError", cudaGetLastError());
}

// ---- fault -----------------------------------------------------------------------------------

static void fault(cudaExecutionContext_t green)
{
    printf("fault: an illegal address in a kernel on a green stream\n");
    fault_fail_fn fake_fail = fault_fake_fail();
    cudaStream_t gs = NULL, ps = NULL;
    CHECK(cudaExecutionCtxStreamCreate(&gs, green, cudaStreamNonBlocking, 0));
    CHECK(cudaStreamCreateWithFlags(&ps, cudaStreamNonBlocking));
    int *small = NULL;
    CHECK(cudaMalloc(&small, 256));
    // Work queued on the primary context first, then the bad store on the green stream.
    green_spin<<<1, 1, 0, ps>>>(20ll * 1000 * 1000);
    fault_show("spin launch on a primary-context stream", cudaGetLastError());
    green_store<<<1, 1, 0, gs>>>(small + (64ll << 20), 1);   // 256 MB past a 256-byte block
    fault_show("bad store launch on the green stream", cudaGetLastError());
    if (fake_fail)
        fake_fail("cuStreamSynchronize", 1, 700);   // the fake runs no device code
    cudaError_t e = fault_show("cudaStreamSynchronize(green stream)", cudaStreamSynchronize(gs));
    fault_expect("the green stream reports the fault", e == cudaErrorIllegalAddress);
    fault_show("cudaExecutionCtxSynchronize(green)", cudaExecutionCtxSynchronize(green));
    fault_show("cudaStreamSynchronize(primary stream)", cudaStreamSynchronize(ps));
    fault_show("cudaGetLastError", cudaGetLastError());
    fault_show("cudaPeekAtLastError", cudaPeekAtLastError());
    void *p = NULL;
    fault_show("cudaMalloc on the primary context", cudaMalloc(&p, 4096));
    green_fill<<<1, 256, 0, ps>>>((int *)p, 256, 5);
    fault_show("a launch on the primary context", cudaGetLastError());
    // Another thread's view: its own calls, on the primary context.
    cudaError_t other[3];
    std::thread t([&] {
        void *q = NULL;
        other[0] = cudaMalloc(&q, 4096);
        other[1] = cudaDeviceSynchronize();
        other[2] = cudaGetLastError();
    });
    t.join();
    fault_show("another thread: cudaMalloc", other[0]);
    fault_show("another thread: cudaDeviceSynchronize", other[1]);
    fault_show("another thread: cudaGetLastError", other[2]);
}

int main(void)
{
    gpu_require("stress_green");
    fault_program = "stress_green";
    fault_watchdog(180);
    register_fake_kernels();
    cudaExecutionContext_t green = NULL, doomed = NULL;
    if (!make_green(&green, &doomed))
        return 1;
    load(green);
    int *dev = NULL, *host = NULL;
    CHECK(cudaMalloc(&dev, sizeof(int) * 256));
    CHECK(cudaMallocHost(&host, sizeof(int) * 256));
    destroy_busy(doomed, dev, host);
    fault(green);                     // last: the fault poisons what comes after it
    return fault_finish();
}
