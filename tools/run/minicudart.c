/*
 * minicudart.c - the `minicudart` command: runs a program on minicudart without rebuilding it.
 *
 *   minicudart run [--trace[=FILE.json]] [--force-ptx] [--eager] [--summary] [--lib PATH]...
 *                  -- CMD [ARGS...]
 *   minicudart --version
 *
 * CMD and every process it starts get minicudart's runtime of the CUDA major they ask for: a
 * program or library whose NEEDED (or dlopen) names libcudart.so.12 gets minicudart's
 * libcudart.so.12, one naming libcudart.so.13 its libcudart.so.13, each loaded only where asked
 * for.  The loader's audit module libminicudart_audit.so (LD_AUDIT, in front of any audit module
 * already there; tools/run/audit.c) answers those names with minicudart's files before the
 * loader searches, so it wins over RPATH, RUNPATH, LD_LIBRARY_PATH and full paths alike
 * (PyTorch's wheels find their runtime by RPATH or by a full path).  The options set the
 * runtime's variables:
 *
 *   --trace             MINICUDART_TRACE=1 (one "minicudart: " line per step, on stderr)
 *   --trace=FILE.json   MINICUDART_TRACE=FILE.json (a timeline for Perfetto / chrome://tracing)
 *   --force-ptx         MINICUDART_FORCE_PTX=1 (JIT the PTX even where SASS would do)
 *   --eager             CUDA_MODULE_LOADING=EAGER (load every module when a device starts)
 *   --summary           MINICUDART_SUMMARY=1 (a short table on stderr at exit)
 *   --lib PATH          this libcudart.so.12 or libcudart.so.13 (the major is read from its file
 *                       name, libcudart.so.N...) instead of the one installed beside the command
 *
 * and MINICUDART_RUN=<CMD's pid>, which tells the runtime in that process (not in the processes
 * CMD starts, which inherit the audit module: a compiler a framework runs, say) to say at exit
 * when no CUDA call reached it; the audit module says it when CMD loaded no runtime of ours at
 * all (the usual reason: CMD carries NVIDIA's runtime linked statically, nvcc's default).  (A
 * process that loads both libraries and calls only one hears the other say so.)  The exit
 * status is CMD's (128 + N when signal N ended it).
 *
 * --version prints the package's version, which names the runtime ABI of libcudart.so.13
 * (0.1.0+cuda13.5: NVIDIA's CUDA 13.5 runtime), the ABI of each library, and the libraries
 * `run` would use.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef MINICUDART_BUILD_LIB13              /* the build tree's files (a command run there) */
#define MINICUDART_BUILD_LIB13 ""
#define MINICUDART_BUILD_LIB12 ""
#define MINICUDART_BUILD_AUDIT ""
#endif
#ifndef MINICUDART_DROPIN_FROM_BIN          /* the installed libraries' folder, from bin/ */
#define MINICUDART_DROPIN_FROM_BIN "../lib"
#endif
#ifndef MINICUDART_VERSION
#define MINICUDART_VERSION "unknown"
#define MINICUDART_RUNTIME_ABI "unknown"
#define MINICUDART_RUNTIME_VERSION 0
#define MINICUDART_RUNTIME_ABI12 "unknown"
#define MINICUDART_RUNTIME_VERSION12 0
#endif

#define AUDIT_MODULE "libminicudart_audit.so"

/* The two libraries, in the order --version lists them: libcudart.so.13 first, as ever. */
typedef struct runtime_lib {
    const char *file;             /* its SONAME, and its file's name */
    const char *build;            /* the build tree's */
    const char *variable;         /* the audit module's variable (tools/run/audit.c) */
    const char *abi;              /* NVIDIA's release whose runtime ABI it has */
    int version;                  /* cudaRuntimeGetVersion */
    char path[PATH_MAX];          /* the one `run` uses; empty: none */
} runtime_lib;

static runtime_lib runtime_libs[] = {
    { "libcudart.so.13", MINICUDART_BUILD_LIB13, "MINICUDART_RUN_LIB13",
      MINICUDART_RUNTIME_ABI, MINICUDART_RUNTIME_VERSION, "" },
    { "libcudart.so.12", MINICUDART_BUILD_LIB12, "MINICUDART_RUN_LIB12",
      MINICUDART_RUNTIME_ABI12, MINICUDART_RUNTIME_VERSION12, "" },
};
enum { RUNTIME_LIBS = sizeof runtime_libs / sizeof runtime_libs[0] };

static void usage(FILE *f)
{
    fprintf(f,
            "usage: minicudart run [--trace[=FILE.json]] [--force-ptx] [--eager] [--summary]\n"
            "                      [--lib PATH]... -- CMD [ARGS...]\n"
            "       minicudart --version\n"
            "Runs CMD with minicudart's libcudart.so.12 and libcudart.so.13 in place of NVIDIA's,\n"
            "each where a program asks for it; the exit status is CMD's.\n");
}

static int readable(const char *path)
{
    return path && *path && access(path, R_OK) == 0;
}

/* An installed file: <prefix>/bin/minicudart -> <prefix>/bin/MINICUDART_DROPIN_FROM_BIN/NAME
 * (<prefix>/lib, or the Debian package's private folder), else <prefix>/lib or lib64 or the
 * command's own folder; else the build tree's (a command run where it was built).  The
 * libraries and the audit module are installed side by side, and found the same way.  Returns
 * 0 with the absolute path in out (PATH_MAX bytes), or -1. */
static int find_file(const char *name, const char *build, char out[PATH_MAX])
{
    char self[PATH_MAX], tried[PATH_MAX + 64];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        self[n] = '\0';
        char *slash = strrchr(self, '/');
        if (slash) {
            *slash = '\0';
            static const char *const folders[] = {
                "/" MINICUDART_DROPIN_FROM_BIN "/", "/../lib/", "/../lib64/", "/"
            };
            for (size_t i = 0; i < sizeof folders / sizeof *folders; i++) {
                snprintf(tried, sizeof tried, "%s%s%s", self, folders[i], name);
                if (readable(tried) && realpath(tried, out))
                    return 0;
            }
        }
    }
    if (readable(build) && realpath(build, out))
        return 0;
    return -1;
}

/* Every library not named by --lib: the installed (or built) one. */
static void find_libraries(void)
{
    for (int i = 0; i < RUNTIME_LIBS; i++)
        if (!runtime_libs[i].path[0] &&
            find_file(runtime_libs[i].file, runtime_libs[i].build, runtime_libs[i].path) != 0)
            runtime_libs[i].path[0] = '\0';
}

/* --lib PATH: the library of the major its file name says (libcudart.so.N, or a file named
 * libcudart.so.N.x.y; a libcudart.so link is followed first).  Returns 0, or 2 (a usage error,
 * said on stderr). */
static int take_lib(const char *path)
{
    char absolute[PATH_MAX];
    if (!readable(path) || !realpath(path, absolute)) {
        fprintf(stderr, "minicudart run: cannot read %s\n", path);
        return 2;
    }
    const char *file = strrchr(absolute, '/');
    file = file ? file + 1 : absolute;
    for (int i = 0; i < RUNTIME_LIBS; i++) {
        size_t n = strlen(runtime_libs[i].file);
        if (strncmp(file, runtime_libs[i].file, n) == 0 && (file[n] == '\0' || file[n] == '.')) {
            snprintf(runtime_libs[i].path, sizeof runtime_libs[i].path, "%s", absolute);
            return 0;
        }
    }
    fprintf(stderr, "minicudart run: --lib %s: not a libcudart.so.12 or libcudart.so.13 by its "
                    "name\n", path);
    return 2;
}

/* NAME=VALUE in front of what the variable holds already, joined by sep. */
static int prepend_env(const char *name, const char *value, const char *sep)
{
    const char *old = getenv(name);
    size_t len = strlen(value) + (old ? strlen(old) + strlen(sep) : 0) + 1;
    char *joined = malloc(len);
    if (!joined)
        return -1;
    snprintf(joined, len, "%s%s%s", value, old && *old ? sep : "", old ? old : "");
    int rc = setenv(name, joined, 1);
    free(joined);
    return rc;
}

static int run(int argc, char **argv)
{
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
            if (take_lib(argv[++i]) != 0)
                return 2;
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
    find_libraries();
    bool any = false;
    for (int k = 0; k < RUNTIME_LIBS; k++) {
        any = any || runtime_libs[k].path[0];
        /* Unset where there is none: that major is then left to the loader's search. */
        if (runtime_libs[k].path[0])
            setenv(runtime_libs[k].variable, runtime_libs[k].path, 1);
        else
            unsetenv(runtime_libs[k].variable);
    }
    if (!any) {
        fprintf(stderr, "minicudart run: cannot find libcudart.so.13 or libcudart.so.12 beside "
                        "this command; name one with --lib PATH\n");
        return 2;
    }
    char audit[PATH_MAX];
    if (find_file(AUDIT_MODULE, MINICUDART_BUILD_AUDIT, audit) != 0) {
        fprintf(stderr, "minicudart run: cannot find %s beside this command\n", AUDIT_MODULE);
        return 2;
    }
    /* In front of any audit module there already (LD_AUDIT is a colon-separated list). */
    if (prepend_env("LD_AUDIT", audit, ":") != 0)
        return 2;
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
    for (int i = 0; i < RUNTIME_LIBS; i++)
        printf("runtime ABI: NVIDIA's CUDA %s (%s; cudaRuntimeGetVersion %d)\n",
               runtime_libs[i].abi, runtime_libs[i].file, runtime_libs[i].version);
    find_libraries();
    for (int i = 0; i < RUNTIME_LIBS; i++) {
        if (runtime_libs[i].path[0])
            printf("library: %s\n", runtime_libs[i].path);
        else
            printf("library: %s not found beside this command\n", runtime_libs[i].file);
    }
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
