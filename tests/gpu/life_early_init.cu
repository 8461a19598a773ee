// life_early_init.cu - MINICUDART_EARLY_INIT (lib/device/early_init.c): the driver started on a
// background thread at the first fatbin registration.  One mode per run:
//   work     the program spins until the thread has done its work (against the fake: until the
//            fake saw the thread's calls; on a GPU 300 ms), then a round trip works, and the
//            runtime holds one retain of the context, not two (fake: retains - releases == 1)
//   fork     fork at once, while the thread runs: the child's round trip answers
//            cudaErrorInitializationError at once under MINICUDART_EARLY_INIT (the parent has
//            initialised the driver), and works without it; the parent works either way
//   never    the program never calls CUDA and returns at once, while the thread runs: a clean
//            exit (the exit handler waits for the thread)
//   device1  the program uses device 1 only: device 0's primary context, retained by the
//            thread, is given back (inactive afterwards); needs two devices (fake: 2)
// Exit 0 pass, 1 fail, 2 no GPU (or one device for device1).
#include "gpu_check.h"

#include <cuda.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern "C" __global__ void early_fill(int *out, int n, int base)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = base + i;
}

static const int N = 512;

// The fake driver's call counter (tests/fake/fakecuda.h), NULL on a GPU.
typedef size_t (*count_fn)(const char *name);
static count_fn fake_count(void)
{
    const char *driver = getenv("MINICUDART_DRIVER");
    void *fake = driver && *driver ? dlopen(driver, RTLD_NOW | RTLD_LOCAL) : NULL;
    void *sym = fake ? dlsym(fake, "fake_count_calls") : NULL;
    count_fn f = NULL;
    memcpy(&f, &sym, sizeof f);
    return f;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static cudaError_t round_trip(int base)
{
    int *d = NULL, h[N];
    cudaError_t e = cudaMalloc((void **)&d, sizeof h);
    if (e != cudaSuccess)
        return e;
    early_fill<<<N / 256, 256>>>(d, N, base);
    e = cudaGetLastError();
    if (e == cudaSuccess)
        e = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    for (int i = 0; e == cudaSuccess && i < N; i++)
        if (h[i] != base + i)
            e = cudaErrorUnknown;
    cudaFree(d);
    return e;
}

static bool early_on(void)
{
    const char *v = getenv("MINICUDART_EARLY_INIT");
    return v && (!strcmp(v, "1") || !strcmp(v, "driver"));
}

static bool early_context(void)
{
    const char *v = getenv("MINICUDART_EARLY_INIT");
    return v && !strcmp(v, "1");
}

static int mode_work(void)
{
    count_fn count = fake_count();
    bool ok = true;
    // Before any CUDA call of the program: the thread makes the driver's calls on its own.
    const char *marker = early_context() ? "cuDevicePrimaryCtxRetain" : "cuDeviceGetCount";
    double t0 = now_ms();
    if (count && early_on()) {
        while (count(marker) == 0 && now_ms() - t0 < 20000)
            ;
        bool seen = count(marker) == 1;
        printf("before the first CUDA call: %s made by the runtime's thread: %s\n", marker,
               seen ? "yes" : "no");
        ok &= seen == early_on();
    } else {
        while (now_ms() - t0 < 300)
            ;
    }
    double t1 = now_ms();
    cudaError_t e = round_trip(7);
    printf("round trip -> " ERR_FMT "\n", ERR_ARGS(e));
    fprintf(stderr, "first round trip took %.1f ms\n", now_ms() - t1);
    ok &= e == cudaSuccess;
    if (count) {
        long held = (long)count("cuDevicePrimaryCtxRetain") -
                    (long)count("cuDevicePrimaryCtxRelease");
        printf("primary context retains held by the runtime: %ld\n", held);
        ok &= held == 1;
        printf("cuInit calls: %zu\n", count("cuInit"));
        ok &= count("cuInit") == 1;
    }
    // A reset and a second start work as usual.
    e = cudaDeviceReset();
    printf("cudaDeviceReset -> " ERR_FMT "\n", ERR_ARGS(e));
    ok &= e == cudaSuccess;
    e = round_trip(9);
    printf("round trip after the reset -> " ERR_FMT "\n", ERR_ARGS(e));
    ok &= e == cudaSuccess;
    return ok ? 0 : 1;
}

// Waits for the child at most 60 s; returns its exit code, or -1 when it hung or crashed.
static int wait_child(pid_t child)
{
    for (int waited_ms = 0; waited_ms < 60000; waited_ms += 5) {
        int status = 0;
        if (waitpid(child, &status, WNOHANG) == child)
            return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        struct timespec five_ms = {0, 5 * 1000 * 1000};
        nanosleep(&five_ms, NULL);
    }
    printf("FAIL: the child hangs\n");
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    return -1;
}

static int mode_fork(void)
{
    double t0 = now_ms();
    pid_t child = fork();
    if (child == 0) {
        double t1 = now_ms();
        cudaError_t e = round_trip(100);
        printf("child forked before the first CUDA call: round trip -> " ERR_FMT "\n",
               ERR_ARGS(e));
        fprintf(stderr, "child: fork took %.1f ms, round trip %.1f ms\n", t1 - t0,
                now_ms() - t1);
        cudaError_t want = early_on() ? cudaErrorInitializationError : cudaSuccess;
        _exit(e == want ? 0 : e == cudaErrorInsufficientDriver || e == cudaErrorNoDevice ? 2 : 1);
    }
    int status = wait_child(child);
    printf("child: exit %d\n", status);
    if (status == 2)
        return 2;
    cudaError_t e = round_trip(200);
    printf("parent: round trip -> " ERR_FMT "\n", ERR_ARGS(e));
    return status == 0 && e == cudaSuccess ? 0 : 1;
}

static int mode_device1(void)
{
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count < 2) {
        printf("device1: needs two devices (%d): skipped\n", count);
        return 2;
    }
    bool ok = true;
    cudaError_t e = cudaSetDevice(1);
    ok &= e == cudaSuccess;
    e = round_trip(11);
    printf("device 1: round trip -> " ERR_FMT "\n", ERR_ARGS(e));
    ok &= e == cudaSuccess;
    typedef CUresult (*get_state_fn)(CUdevice, unsigned *, int *);
    get_state_fn get_state = NULL;
    enum cudaDriverEntryPointQueryResult q;
    CHECK(cudaGetDriverEntryPointByVersion("cuDevicePrimaryCtxGetState", (void **)&get_state,
                                           7000, cudaEnableDefault, &q));
    unsigned flags = 0;
    int active = -1;
    CUresult r = get_state ? get_state(0, &flags, &active) : CUDA_ERROR_NOT_FOUND;
    printf("device 0's primary context afterwards: %s (%d)\n",
           active == 0 ? "inactive" : active == 1 ? "active" : "?", (int)r);
    ok &= r == CUDA_SUCCESS && active == 0;
    return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    const char *mode = argc > 1 ? argv[1] : "work";
    if (!strcmp(mode, "never"))       // no CUDA call at all, not even the fake's registrar
        return 0;
    if (fake_register_fn reg = gpu_fake_registrar())
        reg("early_fill", gpu_fake_fill);
    int rc;
    if (!strcmp(mode, "work"))
        rc = mode_work();
    else if (!strcmp(mode, "fork"))
        rc = mode_fork();
    else if (!strcmp(mode, "device1"))
        rc = mode_device1();
    else {
        printf("usage: %s work|fork|never|device1\n", argv[0]);
        return 1;
    }
    printf("life_early_init %s (MINICUDART_EARLY_INIT=%s): %s\n", mode,
           getenv("MINICUDART_EARLY_INIT") ? getenv("MINICUDART_EARLY_INIT") : "",
           rc == 0 ? "PASS" : rc == 2 ? "SKIP" : "FAIL");
    return rc;
}
