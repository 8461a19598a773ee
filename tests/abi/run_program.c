/* run_program.c - the programs of `minicudart run`'s CUDA-major tests (run12_test.sh), built
 * four times (tests/abi/CMakeLists.txt): run12_program and run13_program need libcudart.so.12 or
 * .so.13 (the stand-in, found by their DT_RPATH) as a program built by a CUDA 12 or 13 toolkit
 * does; run12_search_program needs libcudart.so.12 found by DT_RUNPATH, which comes after
 * LD_LIBRARY_PATH; run_host needs no runtime, as python does, and meets one only through the
 * libraries it loads.
 *
 *   PROGRAM [LIB...] [-- CMD [ARGS...]]
 *
 * For its own runtime (the first three) and then for each LIB, loaded with dlopen as python loads
 * an extension (a runtime by name or by full path, or a library that needs one), it prints which
 * file answered and what:
 *
 *   NAME: cudaRuntimeGetVersion VERSION from PATH
 *
 * after a cudaGetDeviceCount through the same runtime (a call that reaches minicudart, so that
 * its exit notice stays quiet).  Then it runs CMD as its child, a process tree, and exits with
 * CMD's status (0 without one). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

typedef int (*version_fn)(int *);
typedef int (*count_fn)(int *);

#ifdef RUN_LINKED
int cudaRuntimeGetVersion(int *version);
int cudaGetDeviceCount(int *count);
#endif

/* Which file holds the function at `address`: the path of the runtime that answers. */
static void show(const char *name, version_fn get_version, count_fn get_count)
{
    int count = -1, version = -1;
    get_count(&count);
    get_version(&version);
    Dl_info info;
    char path[PATH_MAX] = "?";
    if (dladdr((void *)get_version, &info) && info.dli_fname && !realpath(info.dli_fname, path))
        snprintf(path, sizeof path, "%s", info.dli_fname);
    printf("%s: cudaRuntimeGetVersion %d from %s\n", name, version, path);
}

static int load(const char *lib)
{
    void *handle = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        printf("%s: %s\n", lib, dlerror());
        return 1;
    }
    /* Through the handle: the library itself, then what it needs (an extension's runtime). */
    version_fn get_version = (version_fn)dlsym(handle, "cudaRuntimeGetVersion");
    count_fn get_count = (count_fn)dlsym(handle, "cudaGetDeviceCount");
    if (!get_version || !get_count) {
        printf("%s: no cudaRuntimeGetVersion or cudaGetDeviceCount\n", lib);
        return 1;
    }
    show(lib, get_version, get_count);
    return 0;
}

int main(int argc, char **argv)
{
    int failed = 0, i = 1;
#ifdef RUN_LINKED
    show("linked", cudaRuntimeGetVersion, cudaGetDeviceCount);
#endif
    for (; i < argc && strcmp(argv[i], "--") != 0; i++)
        failed |= load(argv[i]);
    fflush(stdout);
    if (i + 1 >= argc)
        return failed;
    pid_t child = fork();
    if (child == 0) {
        execvp(argv[i + 1], argv + i + 1);
        perror(argv[i + 1]);
        _exit(127);
    }
    int status = 0;
    if (child < 0 || waitpid(child, &status, 0) < 0)
        return 1;
    return failed ? 1 : WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
