/*
 * misuse.h - the case runner shared by the conf_misuse_<area>.cu programs: one call of a public
 * function with one invalid input per case, run under NVIDIA's runtime and under minicudart by
 * tests/gpu/run.sh and compared line by line.
 *
 * Each case prints one line, started before the call and finished after it:
 *
 *   case 12 cudaFree.twice: ret=1(cudaErrorInvalidValue) last=1(cudaErrorInvalidValue)
 *       peek_after=0(cudaSuccess)                              (one line)
 *
 *   ret         what the call returned ("void" for functions and launches that return nothing)
 *   last        cudaGetLastError() right after the call: the error the call stored, if any
 *   peek_after  cudaPeekAtLastError() after that: whether the get cleared it (a sticky error stays)
 *   note=...    optional: a deterministic fact the case adds (never a pointer or a time)
 *
 * The last error is cleared before every case, so each line describes its own call only.
 *
 * Crash isolation: NVIDIA's runtime crashes on some invalid inputs (a NULL output of
 * cudaStreamGetDevice, for one).  stdout is unbuffered (gpu_require), so a crash leaves the
 * line "case N name:" unfinished; run.sh then finishes it with " CRASH (signal S)" and starts
 * the program again at case N + 1 ("conf_misuse_<area> N+1").  Cases therefore never depend on an
 * earlier case: each makes what it needs, or uses the program's fixtures (made again at every
 * start), and undoes what it changed in its cleanup.  A case marked `always` (the cudaDeviceReset
 * of conf_misuse_reset) runs even when the program starts after it, silently, because the cases
 * after it depend on it.
 *
 * Exit code: 0 once every case from the start index ran; 1 if a fixture could not be made; 2 with
 * no GPU.  Under the fake driver (tests/e2e) the same programs check that minicudart survives
 * every case.
 */
#ifndef MINICUDART_GPU_MISUSE_H
#define MINICUDART_GPU_MISUSE_H

#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#include "gpu_check.h"

/* What a case returns for a call that returns nothing (void functions, <<<>>> launches). */
#define MISUSE_VOID ((cudaError_t)-1)

typedef struct misuse_case {
    const char *name;             /* "<function>.<what is wrong>": no spaces, no ':' */
    cudaError_t (*run)(void);     /* makes what it needs, then the one call under test */
    void (*cleanup)(void);        /* optional: undoes what run made, after the line is printed */
    bool always;                  /* run even before the start index (see above) */
} misuse_case;

/* A case's optional remark, printed as note=...; cleared before each case. */
static char misuse_note_text[200];

static inline void misuse_note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(misuse_note_text, sizeof misuse_note_text, fmt, ap);
    va_end(ap);
}

/* Clears the last error left by what a case made before its call under test. */
static inline void misuse_clear(void)
{
    (void)cudaGetLastError();
}

/* Appends " label=code(name)" to line (of size cap), or " label=void". */
static inline void misuse_code(char *line, size_t cap, const char *label, cudaError_t e)
{
    size_t used = strlen(line);
    if (e == MISUSE_VOID)
        snprintf(line + used, cap - used, " %s=void", label);
    else
        snprintf(line + used, cap - used, " %s=%d(%s)", label, (int)e, cudaGetErrorName(e));
}

/* Host memory that is not CUDA's: a page, so that calls may read or write a little of it. */
alignas(4096) static unsigned char misuse_host_page[4096];

/* A host function that is not a kernel: what "unregistered function pointer" cases pass. */
static inline void misuse_not_a_kernel(void) {}
#define MISUSE_NOT_A_KERNEL ((const void *)misuse_not_a_kernel)

/*
 * Runs the cases [start, count) of a program, start from argv[1] (default 0), after setup()
 * made the program's fixtures.  Returns the exit code.
 */
static inline int misuse_main(const char *program, int argc, char **argv, void (*setup)(void),
                              const misuse_case *cases, int count)
{
    gpu_require(program);
    int start = argc > 1 ? atoi(argv[1]) : 0;
    if (start < 0 || start > count) {
        printf("%s: start index %d outside 0..%d\n", program, start, count);
        return 1;
    }
    if (setup)
        setup();
    for (int i = 0; i < count; i++) {
        const misuse_case *c = &cases[i];
        bool shown = i >= start;
        if (!shown && !c->always)
            continue;
        if (shown)
            printf("case %d %s:", i, c->name);   /* unbuffered: written before the call */
        misuse_clear();
        misuse_note_text[0] = '\0';
        cudaError_t ret = c->run();
        cudaError_t last = cudaGetLastError();
        cudaError_t peek_after = cudaPeekAtLastError();
        if (shown) {
            /* The rest of the line in one write, so that the line is either unfinished (the
             * call crashed) or complete. */
            char line[400] = "";
            misuse_code(line, sizeof line, "ret", ret);
            misuse_code(line, sizeof line, "last", last);
            misuse_code(line, sizeof line, "peek_after", peek_after);
            if (misuse_note_text[0])
                snprintf(line + strlen(line), sizeof line - strlen(line), " note=%s",
                         misuse_note_text);
            printf("%s\n", line);
        }
        if (c->cleanup)
            c->cleanup();
        misuse_clear();
    }
    printf("%s: end of %d cases\n", program, count);
    return 0;
}

#define MISUSE_COUNT(cases) ((int)(sizeof(cases) / sizeof((cases)[0])))

#endif
