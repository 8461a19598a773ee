/*
 * minicudart.c - the `minicudart` command: runs a program on minicudart without rebuilding it.
 *
 *   minicudart run [--trace[=FILE.json]] [--force-ptx] [--eager] [--summary] [--lib PATH]
 *                  -- CMD [ARGS...]
 *   minicudart --version
 *
 * CMD runs with minicudart's libcudart.so.13 preloaded (LD_PRELOAD, in front of any preload
 * already there).  Preloading, not LD_LIBRARY_PATH: libraries that find their runtime by RPATH
 * or by a full path (PyTorch's wheels, for one) bind to the first libcudart.so.13 already in the
 * process, so every library of CMD uses minicudart.  The options set the runtime's variables:
 *
 *   --trace             MINICUDART_TRACE=1 (one "minicudart: " line per step, on stderr)
 *   --trace=FILE.json   MINICUDART_TRACE=FILE.json (a timeline for Perfetto / chrome://tracing)
 *   --force-ptx         MINICUDART_FORCE_PTX=1 (JIT the PTX even where SASS would do)
 *   --eager             CUDA_MODULE_LOADING=EAGER (load every module when a device starts)
 *   --summary           MINICUDART_SUMMARY=1 (a short table on stderr at exit)
 *   --lib PATH          this libcudart.so.13 instead of the one installed beside the command
 *
 * and MINICUDART_RUN=<CMD's pid>, which tells the runtime in that process (not in the processes
 * CMD starts, which inherit the preload: a compiler a framework runs, say) to say at exit when no
 * CUDA call reached it (the usual reason: CMD carries NVIDIA's runtime linked statically, nvcc's
 * default).  The exit status is CMD's (128 + N when signal N ended it).
 *
 * --version prints the package's version, which names the runtime ABI the library implements
 * (0.1.0+cuda13.5: NVIDIA's CUDA 13.5 runtime), and the library `run` would preload.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef MINICUDART_BUILD_LIB
#define MINICUDART_BUILD_LIB ""
#endif
#ifndef MINICUDART_DROPIN_FROM_BIN          /* the installed library's folder, from bin/ */
#define MINICUDART_DROPIN_FROM_BIN "../lib"
#endif
#ifndef MINICUDART_VERSION
#define MINICUDART_VERSION "unknown"
#define MINICUDART_RUNTIME_ABI "unknown"
#define MINICUDART_RUNTIME_VERSION 0
#endif

static void usage(FILE *f)
{
    fprintf(f,
            "usage: minicudart run [--trace[=FILE.json]] [--force-ptx] [--eager] [--summary]\n"
            "                      [--lib PATH] -- CMD [ARGS...]\n"
            "       minicudart --version\n"
            "Runs CMD with minicudart's libcudart.so.13 preloaded; the exit status is CMD's.\n");
}

static int readable(const char *path)
{
    return path && *path && access(path, R_OK) == 0;
}

/* The installed library: <prefix>/bin/minicudart -> <prefix>/bin/MINICUDART_DROPIN_FROM_BIN/
 * libcudart.so.13 (<prefix>/lib, or the Debian package's private folder), else <prefix>/lib or
 * lib64 or the command's own folder; else the build tree's (a command run where it was built). */
static int find_library(char *out, size_t cap)
{
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        self[n] = '\0';
        char *slash = strrchr(self, '/');
        if (slash) {
            *slash = '\0';
            static const char *const tries[] = {
                "/" MINICUDART_DROPIN_FROM_BIN "/libcudart.so.13", "/../lib/libcudart.so.13",
                "/../lib64/libcudart.so.13", "/libcudart.so.13"
            };
            for (size_t i = 0; i < sizeof tries / sizeof *tries; i++) {
                snprintf(out, cap, "%s%s", self, tries[i]);
                if (readable(out))
                    return 0;
            }
        }
    }
    if (readable(MINICUDART_BUILD_LIB)) {
        snprintf(out, cap, "%s", MINICUDART_BUILD_LIB);
        return 0;
    }
    return -1;
}

static int run(int argc, char **argv)
{
    const char *lib = NULL;
    int i = 0;
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            i++;
            break;
        } else if (strcmp(a, "--trace") == 0) {
            setenv("MINICUDART_TRACE", "1", 1);
        } else if (strncmp(a, "--trace=", 8) == 0 && a[8]) {
            setenv("MINICUDART_TRACE", a + 8, 1);
        } else if (strcmp(a, "--force-ptx") == 0) {
            setenv("MINICUDART_FORCE_PTX", "1", 1);
        } else if (strcmp(a, "--eager") == 0) {
            setenv("CUDA_MODULE_LOADING", "EAGER", 1);
        } else if (strcmp(a, "--summary") == 0) {
            setenv("MINICUDART_SUMMARY", "1", 1);
        } else if (strcmp(a, "--lib") == 0 && i + 1 < argc) {
            lib = argv[++i];
        } else if (a[0] == '-') {
            fprintf(stderr, "minicudart run: unknown option %s\n", a);
            usage(stderr);
            return 2;
        } else {
            break;                        /* CMD without "--" */
        }
    }
    if (i >= argc) {
        usage(stderr);
        return 2;
    }
    char found[PATH_MAX];
    if (!lib) {
        if (find_library(found, sizeof found) != 0) {
            fprintf(stderr, "minicudart run: cannot find libcudart.so.13 beside this command; "
                            "name it with --lib PATH\n");
            return 2;
        }
        lib = found;
    } else if (!readable(lib)) {
        fprintf(stderr, "minicudart run: cannot read %s\n", lib);
        return 2;
    }
    char absolute[PATH_MAX];
    if (realpath(lib, absolute))
        lib = absolute;

    /* In front of whatever is preloaded already. */
    const char *old = getenv("LD_PRELOAD");
    size_t len = strlen(lib) + (old ? strlen(old) + 1 : 0) + 1;
    char *preload = malloc(len);
    if (!preload)
        return 2;
    snprintf(preload, len, "%s%s%s", lib, old && *old ? " " : "", old ? old : "");
    setenv("LD_PRELOAD", preload, 1);
    free(preload);
    pid_t pid = fork();
    if (pid < 0) {
        perror("minicudart run: fork");
        return 2;
    }
    if (pid == 0) {
        char self[32];
        snprintf(self, sizeof self, "%d", (int)getpid());     /* exec keeps the pid */
        setenv("MINICUDART_RUN", self, 1);
        execvp(argv[i], argv + i);
        fprintf(stderr, "minicudart run: cannot run %s: %s\n", argv[i], strerror(errno));
        _exit(127);
    }
    /* The command owns the terminal's signals: an interrupt reaches it, not us first. */
    signal(SIGINT, SIG_IGN);
    signal(SIGQUIT, SIG_IGN);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            perror("minicudart run: waitpid");
            return 2;
        }
    }
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return WEXITSTATUS(status);
}

static int version(void)
{
    printf("minicudart %s\n", MINICUDART_VERSION);
    printf("runtime ABI: NVIDIA's CUDA %s (libcudart.so.13; cudaRuntimeGetVersion %d)\n",
           MINICUDART_RUNTIME_ABI, MINICUDART_RUNTIME_VERSION);
    char found[PATH_MAX], absolute[PATH_MAX];
    if (find_library(found, sizeof found) != 0)
        printf("library: not found beside this command\n");
    else
        printf("library: %s\n", realpath(found, absolute) ? absolute : found);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "run") == 0)
        return run(argc - 2, argv + 2);
    if (argc == 2 && strcmp(argv[1], "--version") == 0)
        return version();
    if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        usage(stdout);
        return 0;
    }
    usage(stderr);
    return 2;
}
