/*
 * minicudart.c - the `minicudart` command: runs a program on minicudart without rebuilding it.
 *
 *   minicudart run [--trace[=FILE.json]] [--force-ptx] [--eager] [--summary] [--lib PATH]...
 *                  -- CMD [ARGS...]
 *   minicudart --version
 *
 * CMD runs with one of minicudart's runtimes preloaded (LD_PRELOAD, in front of any preload
 * already there): libcudart.so.13, or libcudart.so.12 when CMD's own executable (found as execvp
 * finds it, through PATH) has a DT_NEEDED of libcudart.so.12 and none of libcudart.so.13, as a
 * program of a CUDA 12 toolkit has.  Preloading wins over every other way of finding that major:
 * a library that asks for it by name, whatever its RPATH or RUNPATH says (PyTorch's wheels, for
 * one), binds to the libcudart.so.N already in the process, so every library of CMD uses
 * minicudart.  The processes CMD starts inherit the same preload.
 *
 * The other major is served by search only: a folder holding minicudart's libcudart.so.12 and
 * libcudart.so.13 and nothing else (minicudart-run/, installed beside the libraries, or the build
 * tree's) goes first on LD_LIBRARY_PATH, so that a library or a program that finds libcudart.so.N
 * by search (RUNPATH and the default folders come after LD_LIBRARY_PATH) gets minicudart's.  Not
 * served, and left to NVIDIA's runtime: a library or program of the major that is not preloaded
 * that finds NVIDIA's library by DT_RPATH (searched before LD_LIBRARY_PATH) or by a full path (a
 * CUDA 12 PyTorch wheel under python, which is no CUDA 12 program itself, keeps NVIDIA's
 * libcudart.so.12); and a runtime dlopen'ed by its full path, of either major, is that file.
 * (Redirecting those too needs the loader's cooperation: an LD_AUDIT module that did made glibc's
 * loader abort on the H200, under PyTorch, when a library with version references to
 * libcudart.so.13 came after the redirection.)  The options set the runtime's variables:
 *
 *   --trace             MINICUDART_TRACE=1 (one "minicudart: " line per step, on stderr)
 *   --trace=FILE.json   MINICUDART_TRACE=FILE.json (a timeline for Perfetto / chrome://tracing)
 *   --force-ptx         MINICUDART_FORCE_PTX=1 (JIT the PTX even where SASS would do)
 *   --eager             CUDA_MODULE_LOADING=EAGER (load every module when a device starts)
 *   --summary           MINICUDART_SUMMARY=1 (a short table on stderr at exit)
 *   --lib PATH          this libcudart.so.12 or libcudart.so.13 (the major is read from its file
 *                       name, libcudart.so.N...) instead of the one installed beside the command:
 *                       preloaded if CMD gets that major preloaded, else its folder goes first on
 *                       LD_LIBRARY_PATH (the loader must find it there as libcudart.so.N)
 *
 * and MINICUDART_RUN=<CMD's pid>, which tells the runtime in that process (not in the processes
 * CMD starts, which inherit the preload: a compiler a framework runs, say) to say at exit when no
 * CUDA call reached it (the usual reason: CMD carries NVIDIA's runtime linked statically, nvcc's
 * default).  Exactly one runtime is preloaded, so the notice comes from the one CMD was given.
 * (A CMD that also loads the other major by search, and calls only that one, still hears the
 * preloaded one's notice at exit: each runtime knows only its own calls.)  The exit status is
 * CMD's (128 + N when signal N ended it).
 *
 * --version prints the package's version, the runtime ABI of each library (libcudart.so.13:
 * NVIDIA's CUDA 13.5 runtime), the libraries `run` would use, and the folder it puts on
 * LD_LIBRARY_PATH.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fatbin.h"                         /* fatbin_file_dynamic: CMD's DT_NEEDED */

#ifndef MINICUDART_BUILD_LIB13              /* the build tree's files (a command run there) */
#define MINICUDART_BUILD_LIB13 ""
#define MINICUDART_BUILD_LIB12 ""
#define MINICUDART_BUILD_RUN_DIR ""
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

/* The folder, beside the installed libraries, that holds libcudart.so.12 and libcudart.so.13
 * (links to them) and nothing else: what `run` puts first on LD_LIBRARY_PATH. */
#define RUN_DIR "minicudart-run"

/* The two libraries, in the order --version lists them: libcudart.so.13 first, as ever. */
typedef struct runtime_lib {
    const char *file;             /* its SONAME, and its file's name */
    int major;
    const char *build;            /* the build tree's */
    const char *abi;              /* NVIDIA's release whose runtime ABI it has */
    int version;                  /* cudaRuntimeGetVersion */
    char path[PATH_MAX];          /* the one `run` uses (absolute, links resolved); empty: none */
    char given_dir[PATH_MAX];     /* --lib: the folder it was named in (absolute); else empty */
} runtime_lib;

static runtime_lib runtime_libs[] = {
    { "libcudart.so.13", 13, MINICUDART_BUILD_LIB13, MINICUDART_RUNTIME_ABI,
      MINICUDART_RUNTIME_VERSION, "", "" },
    { "libcudart.so.12", 12, MINICUDART_BUILD_LIB12, MINICUDART_RUNTIME_ABI12,
      MINICUDART_RUNTIME_VERSION12, "", "" },
};
enum { RUNTIME_LIBS = sizeof runtime_libs / sizeof runtime_libs[0] };

static void usage(FILE *f)
{
    fprintf(f,
            "usage: minicudart run [--trace[=FILE.json]] [--force-ptx] [--eager] [--summary]\n"
            "                      [--lib PATH]... -- CMD [ARGS...]\n"
            "       minicudart --version\n"
            "Runs CMD with minicudart's libcudart.so.13 preloaded (its libcudart.so.12 for a\n"
            "CUDA 12 program) and both first on LD_LIBRARY_PATH; the exit status is CMD's.\n");
}

static int readable(const char *path)
{
    return path && *path && access(path, R_OK) == 0;
}

/* An installed file or folder: <prefix>/bin/minicudart -> <prefix>/bin/MINICUDART_DROPIN_FROM_BIN/
 * NAME (<prefix>/lib, or the Debian package's private folder), else <prefix>/lib or lib64 or the
 * command's own folder; else the build tree's (a command run where it was built).  The libraries
 * and minicudart-run/ are installed side by side, and found the same way.  Returns 0 with the
 * absolute path, links resolved, in out (PATH_MAX bytes), or -1. */
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

static runtime_lib *lib_of_major(int major)
{
    for (int i = 0; i < RUNTIME_LIBS; i++)
        if (runtime_libs[i].major == major)
            return &runtime_libs[i];
    return NULL;
}

/* --lib PATH: the library of the major its file name says (libcudart.so.N, or a file named
 * libcudart.so.N.x.y; a link is followed first).  Keeps the folder PATH was named in too, where
 * the loader may have to find it by search.  Returns 0, or 2 (a usage error, said on stderr). */
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
        runtime_lib *lib = &runtime_libs[i];
        size_t n = strlen(lib->file);
        if (strncmp(file, lib->file, n) != 0 || (file[n] != '\0' && file[n] != '.'))
            continue;
        snprintf(lib->path, sizeof lib->path, "%s", absolute);
        /* The folder of PATH as given (a libcudart.so.12 link in NVIDIA's folder, say). */
        char dir[PATH_MAX];
        snprintf(dir, sizeof dir, "%s", path);
        char *slash = strrchr(dir, '/');
        if (!slash)
            snprintf(dir, sizeof dir, ".");
        else if (slash == dir)
            dir[1] = '\0';
        else
            *slash = '\0';
        if (!realpath(dir, lib->given_dir))
            lib->given_dir[0] = '\0';
        return 0;
    }
    fprintf(stderr, "minicudart run: --lib %s: not a libcudart.so.12 or libcudart.so.13 by its "
                    "name\n", path);
    return 2;
}

/* The folder the loader would find lib in by its SONAME: the folder --lib named it in, or the
 * library's own, if NAME there is that file.  Returns 0 with the folder in out, or -1. */
static int search_folder_of(const runtime_lib *lib, char out[PATH_MAX])
{
    char own[PATH_MAX];                 /* lib->path is absolute: the '/' is there */
    snprintf(own, sizeof own, "%s", lib->path);
    char *slash = strrchr(own, '/');
    if (slash == own)
        own[1] = '\0';
    else if (slash)
        *slash = '\0';
    const char *const dirs[] = { lib->given_dir, own };
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
        char name[PATH_MAX + 32], target[PATH_MAX];
        if (!dirs[i][0])
            continue;
        snprintf(name, sizeof name, "%s/%s", dirs[i], lib->file);
        if (realpath(name, target) && strcmp(target, lib->path) == 0) {
            snprintf(out, PATH_MAX, "%s", dirs[i]);
            return 0;
        }
    }
    return -1;
}

/* CMD's executable as execvp finds it: NAME itself if it holds a '/', else the first regular,
 * executable PATH/NAME (PATH unset: /bin:/usr/bin, glibc's default; an empty entry is the
 * current folder).  Returns 0 with the path in out, or -1. */
static int find_executable(const char *name, char out[PATH_MAX])
{
    if (strchr(name, '/'))
        return snprintf(out, PATH_MAX, "%s", name) < PATH_MAX ? 0 : -1;
    const char *path = getenv("PATH");
    if (!path)
        path = "/bin:/usr/bin";
    for (const char *p = path;; ) {
        const char *end = strchr(p, ':');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        int n = len ? snprintf(out, PATH_MAX, "%.*s/%s", (int)len, p, name)
                    : snprintf(out, PATH_MAX, "%s", name);
        struct stat st;
        if (n > 0 && n < PATH_MAX && stat(out, &st) == 0 && S_ISREG(st.st_mode) &&
            access(out, X_OK) == 0)
            return 0;
        if (!end)
            return -1;
        p = end + 1;
    }
}

typedef struct needs {
    bool cudart12, cudart13;
} needs;

static int note_needed(uint64_t tag, const char *value, void *user)
{
    needs *n = user;
    if (tag == FATBIN_DT_NEEDED && strcmp(value, "libcudart.so.12") == 0)
        n->cudart12 = true;
    else if (tag == FATBIN_DT_NEEDED && strcmp(value, "libcudart.so.13") == 0)
        n->cudart13 = true;
    return 0;
}

/* Whether CMD is a CUDA 12 program: its executable (64-bit ELF) has a DT_NEEDED of
 * libcudart.so.12 and none of libcudart.so.13.  A file that cannot be found or read, or is no
 * such ELF file (a script: its interpreter runs), is not one. */
static bool cuda12_program(const char *cmd)
{
    char path[PATH_MAX];
    if (find_executable(cmd, path) != 0)
        return false;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    struct stat st;
    needs n = { false, false };
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
        (uint64_t)st.st_size <= SIZE_MAX) {
        /* Mapped, not read: only the pages of the headers and .dynamic are touched. */
        void *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (map != MAP_FAILED) {
            fatbin_error err;
            if (fatbin_file_dynamic(map, (size_t)st.st_size, note_needed, &n, &err) < 0)
                n.cudart12 = false;
            munmap(map, (size_t)st.st_size);
        }
    }
    close(fd);
    return n.cudart12 && !n.cudart13;
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

/* LD_PRELOAD separates by ' ' and ':', LD_LIBRARY_PATH by ':' (and ';'): a path holding one
 * cannot be named there. */
static int check_list_path(const char *variable, const char *path, const char *separators)
{
    if (!strpbrk(path, separators))
        return 0;
    fprintf(stderr, "minicudart run: cannot name %s in %s: its path holds one of \"%s\"\n", path,
            variable, separators);
    return 2;
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
        } else if (strcmp(a, "--lib") == 0) {
            if (i + 1 == argc) {
                fprintf(stderr, "minicudart run: --lib needs a PATH\n");
                return 2;
            }
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

    /* The preload: the major CMD's executable asks for. */
    runtime_lib *preload = lib_of_major(cuda12_program(argv[i]) ? 12 : 13);
    if (!preload->path[0]) {
        fprintf(stderr, "minicudart run: cannot find %s beside this command; name it with "
                        "--lib PATH\n", preload->file);
        return 2;
    }
    if (check_list_path("LD_PRELOAD", preload->path, " :") != 0)
        return 2;

    /* The search path: a --lib of each major not preloaded in its folder, then minicudart-run/:
     * at most RUNTIME_LIBS - 1 folders and one. */
    char folders[RUNTIME_LIBS][PATH_MAX];
    int nfolders = 0;
    for (int k = 0; k < RUNTIME_LIBS; k++) {
        runtime_lib *lib = &runtime_libs[k];
        if (lib == preload || !lib->given_dir[0])
            continue;
        if (search_folder_of(lib, folders[nfolders]) != 0) {
            fprintf(stderr, "minicudart run: --lib %s: %s gets %s preloaded, so %s must be found "
                            "by search, but its folder holds no %s that is this file\n",
                    lib->path, argv[i], preload->file, lib->file, lib->file);
            return 2;
        }
        nfolders++;
    }
    if (find_file(RUN_DIR, MINICUDART_BUILD_RUN_DIR, folders[nfolders]) == 0)
        nfolders++;
    for (int k = nfolders - 1; k >= 0; k--) {
        if (check_list_path("LD_LIBRARY_PATH", folders[k], ":;") != 0)
            return 2;
        if (prepend_env("LD_LIBRARY_PATH", folders[k], ":") != 0)
            return 2;
    }
    /* In front of whatever is preloaded already. */
    if (prepend_env("LD_PRELOAD", preload->path, " ") != 0)
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
    char folder[PATH_MAX];
    if (find_file(RUN_DIR, MINICUDART_BUILD_RUN_DIR, folder) == 0)
        printf("search folder: %s (first on LD_LIBRARY_PATH under run)\n", folder);
    else
        printf("search folder: %s not found beside this command\n", RUN_DIR);
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
