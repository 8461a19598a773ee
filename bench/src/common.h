/*
 * common.h - helpers shared by the runtime (.cu) and raw-driver (.c) benchmark programs:
 * a CLOCK_MONOTONIC clock, medians, VmRSS, the RESULT line, and the kernels' parameter types.
 * Output protocol: one "RESULT <metric> <value> <unit>" line per measurement.
 * Exit codes: 0 ok, 1 failure, 2 no CUDA driver or GPU here.
 */
#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BURST 256         /* launches per timed burst */
#define BURSTS 64         /* timed bursts per kernel */
#define E2E_LAUNCHES 200000
#define MEMCPY_REPS 1000
#define BW_BYTES (64u << 20)
#define BW_REPS 5
#define GRAPH_NODES 100
#define GRAPH_LAUNCHES 20
#define GRAPH_REPS 5
#define GRAPH_PAIRS 200   /* rt_bench: cudaGraphLaunch / cuGraphLaunch batch pairs */
#define THREADS_LAUNCHES 16000 /* threads: launches per measurement, shared among the threads */
#define THREADS_MAX 64         /* threads: the most host threads (1, 4, 16, 64) */
#define THREADS_REPS 3         /* threads: measurements per configuration (median) */
#define CAPTURE_REPS 5         /* capture: capture, instantiate, update per graph size (median) */
#define CAPTURE_REPLAYS 5      /* capture: timed replays per repetition */
#define TPAIRS_BATCH 100       /* threads_pairs: launches per batch, each way */
#define TPAIRS_MAX 40          /* threads_pairs: pairs per thread at most (1 and 4 threads) */
#define TPAIRS_MIN 10          /* threads_pairs: pairs per thread at least (16 and 64 threads) */
#define TPAIRS_TOTAL 160       /* threads_pairs: pairs per configuration, within those bounds */
#define CPAIRS_1K 9            /* capture_pairs: pairs for 1,000 launches */
#define CPAIRS_10K 5           /* capture_pairs: pairs for 10,000 launches */
#define SINK_MAGIC 123456789   /* k4's first argument that writes bench_sink (kernels.cuh) */

#ifdef __CUDACC__
/* The runtime programs (rt_bench.cu, bench/step/step.cu): a failed call ends the run. */
#define CHECK(call)                                                                           \
    do {                                                                                      \
        cudaError_t e_ = (call);                                                              \
        if (e_ != cudaSuccess) {                                                              \
            printf("FAIL %s:%d: %s -> %d %s\n", __FILE__, __LINE__, #call, (int)e_,            \
                   cudaGetErrorName(e_));                                                     \
            exit(1);                                                                          \
        }                                                                                     \
    } while (0)
#endif

struct big4k { int v[1024]; }; /* the 4 KB struct parameter */

static inline double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static inline int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of v[0..n) (sorts v). */
static inline double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* With BENCH_SMAPS set: where the resident memory lies, one "SMAPS <kB> <mapping>" line per
 * mapping name (a file, [heap], [stack], or "anon" for nameless mappings), summed from
 * /proc/self/smaps; bench/run.sh compares them between the variants. */
static inline void smaps_report(void)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    char line[512], name[64][160];
    long kb[64] = {0};
    int n = 0, cur = -1;
    if (!f)
        return;
    while (fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        char rest[400] = "";
        if (sscanf(line, "%lx-%lx %*s %*s %*s %*s %399[^\n]", &lo, &hi, rest) >= 2 &&
            strchr(line, '-') < strchr(line, ' ')) {
            const char *nm = rest;
            while (*nm == ' ')
                nm++;
            if (!*nm)
                nm = "anon";
            for (cur = 0; cur < n && strcmp(name[cur], nm) != 0; cur++)
                ;
            if (cur == n && n < 64)
                snprintf(name[n++], sizeof name[0], "%s", nm);
            if (cur >= 64)
                cur = -1;
        } else if (cur >= 0 && strncmp(line, "Rss:", 4) == 0) {
            kb[cur] += strtol(line + 4, NULL, 10);
        }
    }
    fclose(f);
    for (int i = 0; i < n; i++)
        if (kb[i])
            printf("SMAPS %ld %s\n", kb[i], name[i]);
}

/* VmRSS of this process in kB, -1 if unknown. */
static inline long rss_kb(void)
{
    if (getenv("BENCH_SMAPS"))
        smaps_report();
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "VmRSS:", 6) == 0) {
            kb = strtol(line + 6, NULL, 10);
            break;
        }
    fclose(f);
    return kb;
}

static inline void result(const char *metric, double value, const char *unit)
{
    printf("RESULT %s %.3f %s\n", metric, value, unit);
    fflush(stdout);
}

#ifndef BENCH_MODES
#define BENCH_MODES "launch|mem|graph|startup|threads|capture"
#endif
static inline void usage_exit(const char *prog)
{
    fprintf(stderr, "usage: %s " BENCH_MODES "\n", prog);
    exit(1);
}
#endif
