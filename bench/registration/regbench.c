/*
 * regbench.c - the registration benchmark's driver (see README.md here): the time of
 * dlopen(libregbench_<mode>.so) under each runtime, each dlopen in a fresh process.
 *
 *   regbench [--rounds N] LIB NAME=LIBCUDART [NAME=LIBCUDART...]
 *
 * LIB is libregbench.so from make_lib.sh.  Each round runs, for every runtime in turn (the order
 * rotates each round), a child per mode of the library (REGBENCH_MODE, lib.c: 0 registers
 * nothing, 1 the fatbins only, 2 fatbins and kernels): it dlopens the runtime (RTLD_GLOBAL, so
 * that the library's DT_NEEDED libcudart.so.13 is this one, matched by its soname), sets the
 * mode, then times dlopen of the library alone,
 * and reports that time, the library constructor's own time (the registration calls, timed
 * inside it) and how many fatbins the runtime gave a handle for.  Medians over the rounds; from
 * them, per runtime:
 *   dlopen         dlopen in mode 2: the headline (load_ms: in mode 0, the loader alone)
 *   registration   the constructor's time in mode 2
 *   per fatbin     the constructor's time in mode 1 / fatbins
 *   per kernel     (constructor in mode 2 - constructor in mode 1) / kernels
 * and the ratios of the first runtime to the second.  Exit status 0 when every child loaded the
 * library and registered every fatbin (timings never fail the run), 1 otherwise.
 */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { MAX_RUNTIMES = 4, MODES = 3, MAX_ROUNDS = 200 };
static int fatbins, kernels;             /* the library's, as it reports them */

struct runtime {
    const char *name, *path;
    double ms[MODES][MAX_ROUNDS];          /* dlopen */
    double reg_ms[MODES][MAX_ROUNDS];      /* the constructor's registration calls */
};

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* The child: load the runtime, time the library's dlopen in `mode`, write "ms register_ms
 * handles fatbins kernels" to fd. */
static int child(const char *runtime, const char *lib, int mode, int fd)
{
    char value[2] = { (char)('0' + mode), '\0' };
    setenv("REGBENCH_MODE", value, 1);
    if (!dlopen(runtime, RTLD_NOW | RTLD_GLOBAL)) {
        fprintf(stderr, "regbench: %s\n", dlerror());
        return 1;
    }
    double t0 = now_ms();
    void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    double t1 = now_ms();
    if (!h) {
        fprintf(stderr, "regbench: %s\n", dlerror());
        return 1;
    }
    const int *handles = dlsym(h, "regbench_handles");
    const double *reg = dlsym(h, "regbench_register_ms");
    const int *nf = dlsym(h, "regbench_fatbins"), *nk = dlsym(h, "regbench_kernels");
    if (!handles || !reg || !nf || !nk) {
        fprintf(stderr, "regbench: %s is not make_lib.sh's library\n", lib);
        return 1;
    }
    dprintf(fd, "%.4f %.4f %d %d %d\n", t1 - t0, *reg, *handles, *nf, *nk);
    return 0;
}

/* Runs one child; returns its dlopen time in ms (and the constructor's in *reg_ms), or a
 * negative number when it failed. */
static double measure(const char *runtime, const char *lib, int mode, double *reg_ms)
{
    int p[2];
    if (pipe(p) != 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        close(p[0]);
        _exit(child(runtime, lib, mode, p[1]));      /* _exit: the exit path is not measured */
    }
    close(p[1]);
    char buf[96] = "";
    ssize_t n = pid > 0 ? read(p[0], buf, sizeof buf - 1) : -1;
    close(p[0]);
    int status = 0;
    if (pid > 0)
        waitpid(pid, &status, 0);
    double ms;
    int handles;
    if (n <= 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0 ||
        sscanf(buf, "%lf %lf %d %d %d", &ms, reg_ms, &handles, &fatbins, &kernels) != 5)
        return -1;
    int want_handles = mode ? fatbins : 0;
    if (handles != want_handles) {
        fprintf(stderr, "regbench: %s registered %d fatbins of %s in mode %d, expected %d\n",
                runtime, handles, lib, mode, want_handles);
        return -1;
    }
    return ms;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(const double *v, int n)
{
    double s[MAX_ROUNDS];
    memcpy(s, v, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, cmp_double);
    return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

static void usage(void)
{
    fprintf(stderr, "usage: regbench [--rounds N] LIB "
                    "NAME=LIBCUDART [NAME=LIBCUDART...]\n");
    exit(2);
}

/* The table of medians, and the ratios of the first runtime to the second. */
static void report(const struct runtime *rt, int nrt, int rounds)
{
    printf("registration: dlopen of a library of %d fatbins, %d kernels; medians of %d "
           "processes each\n", fatbins, kernels, rounds);
    printf("%-12s %10s %10s %16s %10s %10s\n", "runtime", "dlopen_ms", "load_ms",
           "registration_ms", "fatbin_us", "kernel_us");
    double dl[MAX_RUNTIMES], reg[MAX_RUNTIMES], per_fb[MAX_RUNTIMES], per_k[MAX_RUNTIMES];
    for (int j = 0; j < nrt; j++) {
        double r1 = median(rt[j].reg_ms[1], rounds), r2 = median(rt[j].reg_ms[2], rounds);
        dl[j] = median(rt[j].ms[2], rounds);
        reg[j] = r2;
        per_fb[j] = r1 * 1e3 / fatbins;
        per_k[j] = (r2 - r1) * 1e3 / kernels;
        printf("%-12s %10.2f %10.2f %16.2f %10.3f %10.3f\n", rt[j].name, dl[j],
               median(rt[j].ms[0], rounds), reg[j], per_fb[j], per_k[j]);
    }
    if (nrt >= 2)
        printf("ratio %s/%s: dlopen %.2f, registration %.2f, per fatbin %.2f, per kernel %.2f\n",
               rt[0].name, rt[1].name, dl[0] / dl[1], reg[0] / reg[1], per_fb[0] / per_fb[1],
               per_k[0] / per_k[1]);
}

int main(int argc, char **argv)
{
    int rounds = 7, nrt = 0, i = 1;
    static struct runtime rt[MAX_RUNTIMES];
    for (; i + 1 < argc && strncmp(argv[i], "--", 2) == 0; i += 2) {
        int v = atoi(argv[i + 1]);
        if (!strcmp(argv[i], "--rounds") && v > 0 && v <= MAX_ROUNDS)
            rounds = v;
        else
            usage();
    }
    if (i >= argc - 1)
        usage();
    const char *lib = argv[i++];
    for (; i < argc && nrt < MAX_RUNTIMES; i++, nrt++) {
        char *eq = strchr(argv[i], '=');
        if (!eq)
            usage();
        *eq = '\0';
        rt[nrt].name = argv[i];
        rt[nrt].path = eq + 1;
    }

    int failures = 0;
    for (int r = 0; r < rounds; r++)
        for (int j = 0; j < nrt; j++) {
            struct runtime *t = &rt[(r + j) % nrt];
            for (int m = 0; m < MODES; m++) {
                t->ms[m][r] = measure(t->path, lib, m, &t->reg_ms[m][r]);
                failures += t->ms[m][r] < 0;
            }
        }
    if (failures) {
        fprintf(stderr, "regbench: %d of %d loads failed\n", failures, rounds * nrt * MODES);
        return 1;
    }
    report(rt, nrt, rounds);
    return 0;
}
