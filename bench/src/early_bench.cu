// early_bench.cu - MINICUDART_EARLY_INIT on a GPU (bench/early_init.sh runs it): programs that
// do X ms of their own start-up work (a busy CPU loop, as Python imports keep a core busy)
// before their first CUDA call.  Built for minicudart and for NVIDIA's static runtime.
//
// usage: early_bench first|never|fork|memfree X_MS
//   first  X ms of work, then one k4 launch + sync: the time from process start (BENCH_T0_NS,
//          CLOCK_REALTIME ns taken by the script just before it started the program; else from
//          main) to the kernel done, and how long the first CUDA call took
//   never  X ms of work and no CUDA call at all; with BENCH_DEVMEM=1 it then asks nvidia-smi for
//          the device memory its process holds (popen forks: with early init that waits for
//          the background start, so the figure is the finished context's).  Peak and current
//          resident memory at the end
//   fork   forks at once; the child does X ms of work, then a round trip (launch, copy back,
//          check): its result and time; the parent waits, then launches too
//   memfree  cudaMemGetInfo's free memory (never's sibling, and the script's baseline)
// Output: "RESULT <metric> <value> <unit>" lines (common.h); exit 0 ok, 1 failure.
#include "kernels.cuh"
#include <cuda_runtime.h>
#include <sys/wait.h>
#include <unistd.h>

static double realtime_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static double t0_ms;   // process start as the script saw it, or main

static void work(double ms)
{
    double until = realtime_ms() + ms;
    volatile unsigned long x = 0;
    while (realtime_ms() < until)
        for (int i = 0; i < 1000; i++)
            x = x * 6364136223846793005ul + 1;
}

static long status_kb(const char *key)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;
    size_t n = strlen(key);
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, key, n) == 0) {
            kb = strtol(line + n, NULL, 10);
            break;
        }
    fclose(f);
    return kb;
}

static int fail(const char *what, cudaError_t e)
{
    printf("FAIL %s: %d %s\n", what, (int)e, cudaGetErrorName(e));
    return 1;
}

static int mode_first(double x)
{
    work(x);
    double t1 = realtime_ms();
    k4<<<1, 32>>>(1, 2, 3, 4);
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess)
        e = cudaDeviceSynchronize();
    if (e != cudaSuccess)
        return fail("first launch", e);
    double t2 = realtime_ms();
    result("first_done_ms", t2 - t0_ms, "ms");
    result("first_call_ms", t2 - t1, "ms");
    result("first_hwm_kb", (double)status_kb("VmHWM:"), "kB");
    return 0;
}

// Device memory nvidia-smi lists for this process, MiB; 0 when it lists none.
static double devmem_mib(void)
{
    FILE *p = popen("nvidia-smi --query-compute-apps=pid,used_memory --format=csv,noheader,nounits "
                    "2>/dev/null", "r");
    char line[256];
    double mib = 0;
    if (!p)
        return -1;
    while (fgets(line, sizeof line, p)) {
        long pid = 0;
        double used = 0;
        if (sscanf(line, "%ld , %lf", &pid, &used) == 2 && pid == (long)getpid())
            mib = used;
    }
    pclose(p);
    return mib;
}

// Free device memory as a fresh process sees it (BENCH_MEMFREE_PROG: this program built for
// NVIDIA's runtime, run in its "memfree" mode), MiB; -1 if it failed.  Where nvidia-smi cannot
// see the processes (a container's own process ids), the difference to the same figure taken with
// no other process on the GPU is what this process holds.
static double sibling_free_mib(void)
{
    const char *prog = getenv("BENCH_MEMFREE_PROG");
    char cmd[1024], line[256];
    double mib = -1;
    if (!prog || !*prog)
        return -1;
    snprintf(cmd, sizeof cmd, "env -u MINICUDART_EARLY_INIT '%s' memfree 0 2>/dev/null", prog);
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    while (fgets(line, sizeof line, p))
        sscanf(line, "RESULT memfree_mib %lf", &mib);
    pclose(p);
    return mib;
}

static int mode_memfree(void)
{
    size_t free_b = 0, total_b = 0;
    cudaError_t e = cudaMemGetInfo(&free_b, &total_b);
    if (e != cudaSuccess)
        return fail("cudaMemGetInfo", e);
    result("memfree_mib", free_b / 1048576.0, "MiB");
    return 0;
}

static int mode_never(double x)
{
    work(x);
    if (getenv("BENCH_DEVMEM")) {
        result("never_devmem_mib", devmem_mib(), "MiB");
        result("never_sibling_free_mib", sibling_free_mib(), "MiB");
    }
    result("never_hwm_kb", (double)status_kb("VmHWM:"), "kB");
    result("never_rss_kb", (double)status_kb("VmRSS:"), "kB");
    result("never_main_ms", realtime_ms() - t0_ms, "ms");
    return 0;
}

static int mode_fork(double x)
{
    fflush(stdout);
    double t_fork = realtime_ms();
    pid_t child = fork();
    if (child < 0)
        return fail("fork", cudaSuccess);
    if (child == 0) {
        double t_child = realtime_ms();
        work(x);
        int *d = NULL, h[32] = {0};
        cudaError_t e = cudaMalloc((void **)&d, sizeof h);
        if (e == cudaSuccess) {
            k4<<<1, 32>>>(1, 2, 3, 4);
            e = cudaGetLastError();
        }
        if (e == cudaSuccess)
            e = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
        printf("fork child: round trip -> %d %s\n", (int)e, cudaGetErrorName(e));
        result("fork_child_ok", e == cudaSuccess ? 1 : 0, "bool");
        result("fork_child_error", (double)e, "code");
        result("fork_child_done_ms", realtime_ms() - t0_ms, "ms");
        result("fork_call_ms", t_child - t_fork, "ms");
        fflush(stdout);
        _exit(0);
    }
    int status = 0;
    waitpid(child, &status, 0);
    k4<<<1, 32>>>(1, 2, 3, 4);
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess)
        e = cudaDeviceSynchronize();
    if (e != cudaSuccess)
        return fail("parent launch after the child", e);
    result("fork_parent_done_ms", realtime_ms() - t0_ms, "ms");
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
    const char *t0 = getenv("BENCH_T0_NS");
    t0_ms = t0 && *t0 ? strtod(t0, NULL) / 1e6 : realtime_ms();
    if (argc < 3) {
        fprintf(stderr, "usage: %s first|never|fork|memfree X_MS\n", argv[0]);
        return 1;
    }
    double x = strtod(argv[2], NULL);
    if (!strcmp(argv[1], "first"))
        return mode_first(x);
    if (!strcmp(argv[1], "never"))
        return mode_never(x);
    if (!strcmp(argv[1], "fork"))
        return mode_fork(x);
    if (!strcmp(argv[1], "memfree"))
        return mode_memfree();
    fprintf(stderr, "usage: %s first|never|fork|memfree X_MS\n", argv[0]);
    return 1;
}
