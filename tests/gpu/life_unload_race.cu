// life_unload_race.cu - launches that race the unload of their kernel's library:
//   dlclose            8 threads launch life_plugin.cu's kernel through cudaLaunchKernel and its
//                      host stub (taken with dlsym, so that no thread runs the library's own
//                      code while it goes) while the main thread dlcloses the library; 12 times;
//   cudaLibraryUnload  8 threads launch lib_fill of a library loaded from PTX (library_ptx.h)
//                      through its cudaKernel_t while the main thread unloads the library;
//                      12 times.
// A launch racing the unload must answer cudaSuccess or the error of a kernel that is gone
// (cudaErrorInvalidDeviceFunction, cudaErrorInvalidResourceHandle); a launch begun after the
// unload returned must answer that error; any other answer, a crash or a read of freed memory
// (the sanitizers, tests/e2e) is a failure.  After each cycle the stream and the device still
// synchronise without error, and the program's own kernel runs and is checked.  Racing a
// dlclose is the program's bug; what a runtime owes it is a clean answer.
// The lines are verdicts only: how many launches won the race differs from run to run.
// The two races are cases, as a conf_misuse program's ("case <n> <name>:" before each, argv[1]
// the first to run): NVIDIA's runtime crashes in both (H200, 13.0 and 13.5, signal 11), and
// tests/gpu/run.sh then starts the program again at the next case (the gpu-cases mark).
// The library: $LIFE_PLUGIN, else life_plugin.<variant>.so beside this program.
// Exit 0 pass, 1 fail, 2 no GPU.
// gpu-libs: -ldl -lpthread -Xlinker --export-dynamic
// gpu-plugin: life_plugin
// gpu-cases: yes
#include "gpu_check.h"
#include "library_ptx.h"

#include <atomic>
#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const int N = 1024;
static const int THREADS = 8;
static const int CYCLES = 12;

extern "C" __global__ void race_program_fill(unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = (unsigned)i * 7u + 5u;
}

// ---- the fake driver: host versions of the kernels -------------------------------------------

struct fill_params {
    unsigned *out;
    int n;
};

static void fake_program_fill(const void *params, size_t size, const unsigned grid[3],
                              const unsigned block[3])
{
    fill_params p;
    memset(&p, 0, sizeof p);
    memcpy(&p, params, size < sizeof p ? size : sizeof p);
    for (unsigned long long i = 0; i < (unsigned long long)grid[0] * block[0]; i++)
        if (i < (unsigned long long)p.n)
            p.out[i] = (unsigned)i * 7u + 5u;
}

// life_fill and lib_fill write to their first parameter only; the race is about the launch.
static void fake_ignore(const void *, size_t, const unsigned[3], const unsigned[3]) {}

static void register_fake_kernels(void)
{
    fake_register_fn reg = gpu_fake_registrar();
    if (!reg)
        return;
    reg("race_program_fill", fake_program_fill);
    reg("life_fill", fake_ignore);
    reg("lib_fill", fake_ignore);
}

// ---- the racing launchers --------------------------------------------------------------------

struct worker;
struct race {
    const void *func;               // a host stub or a cudaKernel_t
    void **(*args)(struct worker *);
    std::atomic<int> started{0};    // threads that launched once with success
    std::atomic<bool> gone{false};  // the unload returned
    std::atomic<bool> stop{false};
    std::atomic<int> after{0};      // threads that launched at least once after `gone`
    std::atomic<int> bad{0};        // answers that are neither success nor "gone"
    std::atomic<int> late_success{0};   // successes of launches begun after the unload
};

struct worker {
    race *r;
    cudaStream_t stream;
    unsigned *out;
    int n;
    unsigned add;
    void *argv[3];
};

static void **plugin_args(worker *w)
{
    w->argv[0] = &w->out;
    w->argv[1] = &w->n;
    return w->argv;
}

static void **library_args(worker *w)
{
    w->argv[0] = &w->out;
    w->argv[1] = &w->add;
    w->argv[2] = &w->n;
    return w->argv;
}

static bool is_gone(cudaError_t e)
{
    return e == cudaErrorInvalidDeviceFunction || e == cudaErrorInvalidResourceHandle;
}

static void *launcher(void *arg)
{
    worker *w = (worker *)arg;
    race *r = w->r;
    bool counted = false, counted_after = false;
    while (!r->stop.load()) {
        bool after = r->gone.load();
        cudaError_t e = cudaLaunchKernel(r->func, dim3((unsigned)(w->n + 255) / 256), dim3(256),
                                         r->args(w), 0, w->stream);
        cudaGetLastError();         // a failed launch is not sticky: clear it for the next
        if (e == cudaSuccess) {
            if (after)
                r->late_success++;
            if (!counted) {
                counted = true;
                r->started++;
            }
        } else if (!is_gone(e)) {
            if (r->bad++ == 0)
                printf("FAIL a racing launch answered " ERR_FMT "\n", ERR_ARGS(e));
        }
        if (after && !counted_after) {
            counted_after = true;
            r->after++;
        }
        sched_yield();
    }
    return NULL;
}

// Runs the workers until each launched once, calls `unload`, lets each launch once more after
// it, stops them.  True when every answer was clean.
static bool race_once(race *r, unsigned *buffers, cudaStream_t *streams, void (*unload)(void *),
                      void *cookie)
{
    worker w[THREADS];
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++) {
        w[i] = worker{r, streams[i], buffers + (size_t)i * N, N, (unsigned)i, {}};
        if (pthread_create(&t[i], NULL, launcher, &w[i]) != 0) {
            printf("FAIL pthread_create\n");
            exit(1);
        }
    }
    while (r->started.load() < THREADS && r->bad.load() == 0)
        sched_yield();
    unload(cookie);
    r->gone = true;
    while (r->after.load() < THREADS && r->bad.load() == 0)
        sched_yield();
    r->stop = true;
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    bool ok = r->bad.load() == 0;
    if (r->late_success.load()) {
        printf("FAIL %d launches begun after the unload succeeded\n", r->late_success.load());
        ok = false;
    }
    for (int i = 0; i < THREADS; i++) {
        cudaError_t e = cudaStreamSynchronize(streams[i]);
        if (e != cudaSuccess) {
            printf("FAIL stream %d after the race: " ERR_FMT "\n", i, ERR_ARGS(e));
            ok = false;
        }
    }
    return ok;
}

static bool program_kernel_works(unsigned *d)
{
    static unsigned h[N];
    race_program_fill<<<N / 256, 256>>>(d, N);
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess)
        e = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) {
        printf("FAIL the program's kernel: " ERR_FMT "\n", ERR_ARGS(e));
        return false;
    }
    for (int i = 0; i < N; i++)
        if (h[i] != (unsigned)i * 7u + 5u) {
            printf("FAIL the program's kernel: element %d\n", i);
            return false;
        }
    return true;
}

static void close_library(void *handle)
{
    if (dlclose(handle) != 0) {
        printf("FAIL dlclose: %s\n", dlerror());
        exit(1);
    }
}

static void unload_library(void *lib)
{
    cudaError_t e = cudaLibraryUnload((cudaLibrary_t)lib);
    if (e != cudaSuccess) {
        printf("FAIL cudaLibraryUnload: " ERR_FMT "\n", ERR_ARGS(e));
        exit(1);
    }
}

int main(int argc, char **argv)
{
    int start = argc > 1 ? atoi(argv[1]) : 0;
    setvbuf(stdout, NULL, _IONBF, 0);   // a case's line is written before the case runs
    gpu_require("life_unload_race");
    register_fake_kernels();
    gpu_watchdog(120, "FAIL: watchdog (a launch racing an unload hangs)\n");
    unsigned *buffers = NULL, *mine = NULL;
    CHECK(cudaMalloc(&buffers, sizeof *buffers * N * THREADS));
    CHECK(cudaMalloc(&mine, sizeof *mine * N));
    cudaStream_t streams[THREADS];
    for (int i = 0; i < THREADS; i++)
        CHECK(cudaStreamCreateWithFlags(&streams[i], cudaStreamNonBlocking));
    int failures = 0;

    bool ok = true;
    if (start <= 0)
        printf("case 0 dlclose:");
    for (int c = 0; c < CYCLES && ok && start <= 0; c++) {
        void *handle = dlopen(gpu_plugin_path("LIFE_PLUGIN", "life_plugin"), RTLD_NOW | RTLD_LOCAL);
        void *sym = handle ? dlsym(handle, "life_plugin_kernel") : NULL;
        if (!sym) {
            printf("FAIL dlopen %s: %s\n", gpu_plugin_path("LIFE_PLUGIN", "life_plugin"),
                   dlerror());
            return 1;
        }
        const void *(*kernel_of)(void);
        memcpy(&kernel_of, &sym, sizeof sym);
        race r;
        r.func = kernel_of();
        r.args = plugin_args;
        ok = race_once(&r, buffers, streams, close_library, handle) && program_kernel_works(mine);
    }
    if (start <= 0) {
        printf(" dlclose while 8 threads launch its kernel, %d times: %s\n", CYCLES,
               ok ? "PASS" : "FAIL");
        failures += !ok;
    }

    ok = true;
    if (start <= 1)
        printf("case 1 cudaLibraryUnload:");
    for (int c = 0; c < CYCLES && ok && start <= 1; c++) {
        cudaLibrary_t lib = NULL;
        cudaKernel_t k = NULL;
        CHECK(cudaLibraryLoadData(&lib, library_ptx, NULL, NULL, 0, NULL, NULL, 0));
        CHECK(cudaLibraryGetKernel(&k, lib, "lib_fill"));
        race r;
        r.func = (const void *)k;
        r.args = library_args;
        ok = race_once(&r, buffers, streams, unload_library, lib) && program_kernel_works(mine);
    }
    if (start <= 1) {
        printf(" cudaLibraryUnload while 8 threads launch its kernel, %d times: %s\n", CYCLES,
               ok ? "PASS" : "FAIL");
        failures += !ok;
    }

    cudaError_t e = cudaDeviceSynchronize();
    printf("cudaDeviceSynchronize after the races: " ERR_FMT "\n", ERR_ARGS(e));
    failures += e != cudaSuccess;
    for (int i = 0; i < THREADS; i++)
        CHECK(cudaStreamDestroy(streams[i]));
    CHECK(cudaFree(buffers));
    CHECK(cudaFree(mine));
    printf("life_unload_race: %s\n", failures ? "FAIL" : "PASS");
    return failures ? 1 : 0;
}
