/*
 * probe.h - the line format of the CUDA 13.5 conformance programs (conf_green, conf_cuda135,
 * conf_cuda135_served): a call's code and the last error after it, on one line compared between
 * the two runtimes, and checks that fail the program (`ok`, its exit status) without stopping it.
 */
#ifndef MINICUDART_GPU_PROBE_H
#define MINICUDART_GPU_PROBE_H

#include "gpu_check.h"

/* Cleared by a failed check or expectation: the program exits 1 at its end. */
static int ok = 1;

/* Prints a call's code and the last error after it (which the get then clears). */
static inline cudaError_t probe(const char *what, cudaError_t e)
{
    cudaError_t last = cudaGetLastError();
    printf("%-62s -> " ERR_FMT "; last error " ERR_FMT "\n", what, ERR_ARGS(e), ERR_ARGS(last));
    return e;
}

/* A probe whose code the program also checks. */
static inline bool expect(const char *what, cudaError_t e, cudaError_t want)
{
    if (probe(what, e) != want) {
        printf("  expected " ERR_FMT "\n", ERR_ARGS(want));
        ok = 0;
        return false;
    }
    return true;
}

static inline void check(const char *what, bool cond)
{
    printf("%s: %s\n", what, cond ? "yes" : "NO");
    ok &= cond;
}

#endif
