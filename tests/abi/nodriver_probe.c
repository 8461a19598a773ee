/*
 * nodriver_probe LIBRARY NAMES MODE - every function of NAMES (one per line) called in a
 * runtime LIBRARY that finds no driver, each in a child of its own, and its answer printed:
 * "<name> <result>", "<name> crash <signal>" or "<name> absent".  MODE says what the arguments
 * are: "null", every argument 0; "buffers", every argument the address of a zeroed 4 KB buffer
 * of its own (pointers that can be written, and integers that are large).
 *
 * With no driver NVIDIA's runtime answers cudaErrorInsufficientDriver from nearly every
 * function whatever its arguments; nodriver_test.sh compares the answers of two libraries.
 * Each function is called as one of sixteen integer arguments: on x86-64 and aarch64 the
 * callee reads those it has from registers and the stack, and a struct passed by value is
 * read from the same places.  The names given are of functions that return a cudaError_t.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

typedef int (*probe_fn)(long, long, long, long, long, long, long, long, long, long, long, long,
                        long, long, long, long);

static char buffers[16][4096];

static int call(probe_fn f, int buffers_mode)
{
    long a[16] = { 0 };
    for (int i = 0; buffers_mode && i < 16; i++)
        a[i] = (long)buffers[i];
    return f(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12],
             a[13], a[14], a[15]);
}

int main(int argc, char **argv)
{
    if (argc != 4 || (strcmp(argv[3], "null") && strcmp(argv[3], "buffers"))) {
        fprintf(stderr, "usage: nodriver_probe LIBRARY NAMES null|buffers\n");
        return 2;
    }
    void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    FILE *names = fopen(argv[2], "r");
    if (!lib || !names) {
        fprintf(stderr, "nodriver_probe: %s\n", lib ? argv[2] : dlerror());
        return 2;
    }
    int buffers_mode = !strcmp(argv[3], "buffers");
    char name[256];
    while (fgets(name, sizeof name, names)) {
        name[strcspn(name, "\n")] = '\0';
        if (!*name)
            continue;
        probe_fn f = (probe_fn)dlsym(lib, name);
        if (!f) {
            printf("%s absent\n", name);
            continue;
        }
        fflush(stdout);
        int pipe_fds[2];
        if (pipe(pipe_fds) != 0)
            return 2;
        pid_t child = fork();
        if (child == 0) {
            close(pipe_fds[0]);
            const char *limit = getenv("NODRIVER_PROBE_ALARM_S");   /* a call that hangs */
            alarm(limit && *limit ? (unsigned)atoi(limit) : 10);
            int result = call(f, buffers_mode);
            _exit(write(pipe_fds[1], &result, sizeof result) == sizeof result ? 0 : 1);
        }
        close(pipe_fds[1]);
        int result = 0;
        ssize_t got = read(pipe_fds[0], &result, sizeof result);
        close(pipe_fds[0]);
        int status = 0;
        waitpid(child, &status, 0);
        if (got == (ssize_t)sizeof result)
            printf("%s %d\n", name, result);
        else
            printf("%s crash %d\n", name, WIFSIGNALED(status) ? WTERMSIG(status) : -1);
    }
    return 0;
}
