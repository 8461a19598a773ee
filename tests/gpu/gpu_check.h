/*
 * gpu_check.h - helpers shared by the self-checking GPU programs in tests/gpu/.
 *
 * Every program prints lines that must be identical under NVIDIA's runtime and under minicudart:
 * results, checksums, and error codes as number and name.  Never pointers, timings or anything
 * that depends on which runtime ran it.  Exit codes: 0 pass, 1 failure, 2 no driver or GPU here.
 */
#ifndef MINICUDART_GPU_CHECK_H
#define MINICUDART_GPU_CHECK_H

#include <cuda_runtime.h>
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define GPU_EXIT_NO_GPU 2

/* Stop the program when a CUDA call that must succeed does not. */
#define CHECK(call)                                                                           \
    do {                                                                                      \
        cudaError_t check_err_ = (call);                                                      \
        if (check_err_ != cudaSuccess) {                                                      \
            printf("FAIL %s:%d: %s -> %d %s\n", __FILE__, __LINE__, #call, (int)check_err_,   \
                   cudaGetErrorName(check_err_));                                             \
            exit(1);                                                                          \
        }                                                                                     \
    } while (0)

/* "code name" of an error, for lines compared between the two runtimes.  `e` is evaluated once
 * (ERR_ARGS(cudaGetLastError()) reads and clears the last error once), into one of a few
 * rotating per-thread buffers, so that one printf may show several errors. */
static inline const char *gpu_err_text(cudaError_t e)
{
    static thread_local char text[8][96];
    static thread_local unsigned next;
    char *out = text[next++ % 8];
    snprintf(out, sizeof text[0], "%d %s", (int)e, cudaGetErrorName(e));
    return out;
}
#define ERR_FMT "%s"
#define ERR_ARGS(e) gpu_err_text(e)

/*
 * The first CUDA call of every program.  Without a driver or a GPU both runtimes fail here
 * (cudaErrorInsufficientDriver or cudaErrorNoDevice); say so plainly and exit with code 2, so
 * that scripts can tell "no GPU on this machine" from a real failure.
 */
static inline void gpu_require(const char *program)
{
    /* Unbuffered, so that a crash (of either runtime) shows how far the program got. */
    setvbuf(stdout, NULL, _IONBF, 0);
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err == cudaErrorInsufficientDriver || err == cudaErrorNoDevice) {
        printf("%s: no CUDA driver or GPU here: %s (%s)\n", program, cudaGetErrorName(err),
               cudaGetErrorString(err));
        exit(GPU_EXIT_NO_GPU);
    }
    if (err != cudaSuccess) {
        printf("%s: cudaGetDeviceCount -> " ERR_FMT "\n", program, ERR_ARGS(err));
        exit(1);
    }
    if (count < 1) {
        printf("%s: no CUDA device (count %d)\n", program, count);
        exit(GPU_EXIT_NO_GPU);
    }
}

/* Where a program's plugin library is: $<env_var> when set, else <stem>.<variant>.so beside the
 * program (tests/gpu/run.sh builds prog.nvidia with stem.nvidia.so, prog.minicudart with
 * stem.minicudart.so), or <stem>.so beside a program without a variant suffix (tests/e2e).
 * The answer lives in a static buffer until the next call. */
static inline const char *gpu_plugin_path(const char *env_var, const char *stem)
{
    static char path[4096 + 256];
    const char *env = getenv(env_var);
    if (env && *env)
        return env;
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) {
        snprintf(path, sizeof path, "%s.so", stem);
        return path;
    }
    self[n] = '\0';
    char *name = strrchr(self, '/') + 1;     /* /proc/self/exe is an absolute path */
    char *dot = strrchr(name, '.');
    *name = '\0';                            /* self is now the folder, with its '/' */
    snprintf(path, sizeof path, "%s%s.%s%sso", self, stem, dot ? dot + 1 : "", dot ? "." : "");
    return path;
}

/*
 * Against the fake driver of the CI tests (MINICUDART_DRIVER names it) kernels run as host
 * functions the program registers; on a GPU this finds nothing and the real kernels run.  The
 * fake is looked up by dlopen, which returns the instance the runtime loaded (or will load).
 */
typedef void (*fake_host_kernel)(const void *params, size_t size, const unsigned grid[3],
                                 const unsigned block[3]);
typedef void (*fake_register_fn)(const char *kernel_name, fake_host_kernel run);

static inline fake_register_fn gpu_fake_registrar(void)
{
    const char *driver = getenv("MINICUDART_DRIVER");
    void *fake = driver && *driver ? dlopen(driver, RTLD_NOW | RTLD_LOCAL) : NULL;
    void *sym = fake ? dlsym(fake, "fake_register_host_kernel") : NULL;
    fake_register_fn reg = NULL;
    memcpy(&reg, &sym, sizeof reg);
    return reg;
}

/* The host version, for the fake, of the fill kernel several programs launch under names of
 * their own: `(int *out, int n, int base)`, out[i] = base + i for every thread i < n. */
static inline void gpu_fake_fill(const void *params, size_t size, const unsigned grid[3],
                                 const unsigned block[3])
{
    struct {
        int *out;
        int n;
        int base;
    } p;
    memset(&p, 0, sizeof p);
    memcpy(&p, params, size < sizeof p ? size : sizeof p);
    for (unsigned long long i = 0; i < (unsigned long long)grid[0] * block[0]; i++)
        if (i < (unsigned long long)p.n)
            p.out[i] = p.base + (int)i;
}

/* A watchdog: a program still running after `seconds` prints `message` (a whole line, kept
 * by the caller) and exits 1, so that a hang or a deadlock is a failure with a name. */
static const char *gpu_watchdog_message = "FAIL: watchdog\n";
static inline void gpu_on_alarm(int sig)
{
    (void)sig;
    ssize_t ignored = write(1, gpu_watchdog_message, strlen(gpu_watchdog_message));
    (void)ignored;
    _exit(1);
}
static inline void gpu_watchdog(unsigned seconds, const char *message)
{
    gpu_watchdog_message = message;
    signal(SIGALRM, gpu_on_alarm);
    alarm(seconds);
}

#endif
