/*
 * summary.c - MINICUDART_SUMMARY=1: a short table on stderr at exit, of what the runtime did.
 * The counts are kept here, at the bottom, where every room can add to them; the registry's lines
 * come from a census load/register.c hands down.
 *
 *   registered     fatbins, kernels, variables (counted at exit from the registry)
 *   loaded         modules per device: SASS, JIT-compiled PTX, JIT-linked -rdc; their total time
 *   launches       in all, and the kernels launched most (count, last grid and block)
 *   errors         every error a runtime call returned, by code
 *   calls          runtime calls by function: count and host time, the costliest first (twelve
 *                  of them; MINICUDART_SUMMARY=all lists every function called)
 *   memory         cudaMalloc: calls, bytes, and the peak of bytes held at once
 *
 * Printed only by a process that used the runtime (a registration or a driver load).
 * Off by default; then each counting point costs one relaxed load and a branch, like the trace.
 * On, a launch adds two relaxed atomic additions and two small stores to its kernel's record
 * and each runtime call (three per <<<>>>: push, pop, launch) two reads of the processor's counter
 * and two more relaxed additions (tests/gpu/bench_launch.cu measures it); cudaFree asks the
 * driver the block's size.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/core.h"

/* The external definition of these inline helpers of core/core.h (RT_INLINE, core/core.h). */
extern inline bool rt_summary_on(void);
extern inline void rt_call_begin(rt_api self);
extern inline void rt_call_end(void);

atomic_int rt_summary_level = -1;
static atomic_bool rt_summary_every;                    /* MINICUDART_SUMMARY=all */

/* Read once; -1 until then.  Called from the counting points through rt_summary_on().  The
 * first thread to decide wins, and every thread answers what it decided: a call's exit reads the
 * level again to know whether it started the clock, so it must never change after that. */
bool rt_summary_read_env(void)
{
    const char *v = getenv("MINICUDART_SUMMARY");
    int on = v && *v && strcmp(v, "0") != 0, unread = -1;
    if (atomic_compare_exchange_strong(&rt_summary_level, &unread, on))
        atomic_store_explicit(&rt_summary_every, on && strcmp(v, "all") == 0,
                              memory_order_relaxed);
    return atomic_load(&rt_summary_level) == 1;
}

static atomic_ullong rt_loads[3], rt_load_ns[3];        /* SASS, PTX, linked */
static atomic_ullong rt_launches;
static atomic_uint rt_errors[1024];                     /* by code; the last slot: larger */
static _Atomic(const char *) rt_error_names[1024];
static atomic_ullong rt_malloc_calls, rt_malloc_bytes, rt_held, rt_peak;

void rt_summary_load(int kind, uint64_t ns)
{
    if (kind < 0 || kind > 2)
        return;
    atomic_fetch_add_explicit(&rt_loads[kind], 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&rt_load_ns[kind], ns, memory_order_relaxed);
}

void rt_summary_launch_count(void)
{
    atomic_fetch_add_explicit(&rt_launches, 1, memory_order_relaxed);
}

/* The name comes with the code (errors.c knows the names; this layer keeps no table of them). */
void rt_summary_error(cudaError_t e, const char *name)
{
    unsigned i = (unsigned)e < 1023 ? (unsigned)e : 1023;
    atomic_store_explicit(&rt_error_names[i], name, memory_order_relaxed);
    atomic_fetch_add_explicit(&rt_errors[i], 1, memory_order_relaxed);
}

void rt_summary_alloc(size_t bytes)
{
    atomic_fetch_add_explicit(&rt_malloc_calls, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&rt_malloc_bytes, bytes, memory_order_relaxed);
    unsigned long long held = atomic_fetch_add(&rt_held, bytes) + bytes;
    unsigned long long peak = atomic_load(&rt_peak);
    while (held > peak && !atomic_compare_exchange_weak(&rt_peak, &peak, held))
        ;
}

void rt_summary_free(size_t bytes)
{
    unsigned long long held = atomic_load(&rt_held);
    while (!atomic_compare_exchange_weak(&rt_held, &held, held > bytes ? held - bytes : 0))
        ;
}

/* ---- runtime calls by function (RT_ENTER) ---------------------------------------------------- */

/* The table, by RT_SELF (an address inside the function in libcudart.so.13, its __func__ in
 * libminicudart.a): open addressing, a slot claimed by a function's first counted call.  More
 * slots than there are public functions (460), so a look-up always ends. */
enum { RT_CALL_SLOTS = 1024 };
struct rt_call_stat {
    _Atomic(rt_api) self;         /* NULL: free */
    atomic_ullong calls, ticks;   /* ticks of the clock below, turned into ns at exit */
};
static struct rt_call_stat rt_calls[RT_CALL_SLOTS];

/* The calls open on this thread (core.h: only while they are watched), innermost last: a
 * public call made inside another (the CUDA 12 face's, a family's) is named by its own entry
 * while it runs.  Nesting deeper than the stack still counts; the calls past it have no name. */
enum { RT_CALL_NEST = 8 };
static _Thread_local rt_api rt_call_stack[RT_CALL_NEST];
static _Thread_local unsigned rt_call_depth;
static _Thread_local uint64_t rt_call_t0;     /* the outermost call's clock at entry */

static struct rt_call_stat *rt_call_record(rt_api self)
{
    size_t h = (size_t)(((uintptr_t)self * 0x9E3779B97F4A7C15ull) >> 54);   /* 10 bits */
    for (size_t i = 0; i < RT_CALL_SLOTS; i++) {
        struct rt_call_stat *s = &rt_calls[(h + i) % RT_CALL_SLOTS];
        rt_api k = atomic_load_explicit(&s->self, memory_order_acquire);
        if (!k && atomic_compare_exchange_strong(&s->self, &k, self))
            return s;                 /* claimed; else k is the key another thread put there */
        if (k == self)
            return s;
    }
    return NULL;
}

/* The calls' clock: the processor's counter where it has one (a few ns to read; clock_gettime
 * costs 20-30 ns through the vDSO, and a system call on machines whose kernel clock is not the
 * counter), turned into ns at exit by the ratio of both clocks over the whole run. */
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
static inline uint64_t rt_ticks(void)
{
    return __rdtsc();
}
#elif defined(__aarch64__)
static inline uint64_t rt_ticks(void)
{
    uint64_t v;
    __asm__ __volatile__("mrs %0, cntvct_el0" : "=r"(v));
    return v;
}
#else
static inline uint64_t rt_ticks(void)
{
    return rt_now_ns();
}
#endif
static atomic_ullong rt_ticks0, rt_ns0;                   /* both clocks at the first call */

static double rt_ns_per_tick(void)
{
    unsigned long long t0 = atomic_load(&rt_ticks0), n0 = atomic_load(&rt_ns0);
    uint64_t t1 = rt_ticks(), n1 = rt_now_ns();
    return t0 && t1 > t0 ? (double)(n1 - n0) / (double)(t1 - t0) : 1.0;
}

/* Reads both variables the first time; the first thread to decide wins (a trace hook installed
 * meanwhile has turned it on already). */
static bool rt_calls_watched_read(void)
{
    int v = atomic_load(&rt_calls_watched);
    if (v < 0) {
        int on = rt_summary_on() || rt_tracing(), unread = -1;
        atomic_compare_exchange_strong(&rt_calls_watched, &unread, on);
        v = atomic_load(&rt_calls_watched);
    }
    return v > 0;
}

void rt_call_open(rt_api self)
{
    if (!rt_calls_watched_read())
        return;
    unsigned depth = rt_call_depth++;
    if (depth < RT_CALL_NEST)
        rt_call_stack[depth] = self;
    /* Only the outermost call is timed and counted: the time of a nested one is its caller's. */
    if (depth > 0 || !rt_summary_on())
        return;
    uint64_t t0 = rt_ticks();
    if (atomic_load_explicit(&rt_ticks0, memory_order_relaxed) == 0) {
        unsigned long long none = 0;
        if (atomic_compare_exchange_strong(&rt_ticks0, &none, t0 ? t0 : 1))
            atomic_store(&rt_ns0, rt_now_ns());
    }
    rt_call_t0 = t0;
}

#ifdef RT_API_NAMES_FROM_SYMBOLS
void rt_call_open_here(void)
{
    if (atomic_load_explicit(&rt_calls_watched, memory_order_relaxed))
        rt_call_open((rt_api)__builtin_return_address(0));
}
#endif

void rt_call_close(void)
{
    if (rt_call_depth == 0 || --rt_call_depth > 0 || !rt_summary_on())
        return;
    uint64_t t1 = rt_ticks();
    struct rt_call_stat *s = rt_call_record(rt_call_stack[0]);
    if (!s)
        return;
    atomic_fetch_add_explicit(&s->calls, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&s->ticks, t1 - rt_call_t0, memory_order_relaxed);
}

rt_api rt_call_current(void)
{
    unsigned depth = rt_call_depth;
    return depth > 0 && depth <= RT_CALL_NEST ? rt_call_stack[depth - 1] : NULL;
}

const char *rt_call_name(void)
{
    return rt_api_name(rt_call_current());
}

/* The functions that took the most host time, with their call counts; then the rest in one line
 * (MINICUDART_SUMMARY=all: every function, for scripts that need the stream and event calls). */
static void rt_summary_print_calls(FILE *f)
{
    enum { TOP = 12, EVERY = 512 };     /* 422 public functions, and the registration entries */
    const size_t cap = atomic_load(&rt_summary_every) ? EVERY : TOP;
    struct rt_call_stat *top[EVERY];
    size_t shown = 0, functions = 0;
    unsigned long long calls = 0, ticks = 0, rest_calls = 0, rest_ticks = 0;
    double ms = rt_ns_per_tick() / 1e6;
    for (struct rt_call_stat *s = rt_calls; s < rt_calls + RT_CALL_SLOTS; s++) {
        if (!atomic_load(&s->self))
            continue;
        unsigned long long n = atomic_load(&s->calls), t = atomic_load(&s->ticks);
        functions++;
        calls += n;
        ticks += t;
        size_t at = shown < cap ? shown : cap;
        while (at > 0 && atomic_load(&top[at - 1]->ticks) < t) {
            if (at < cap)
                top[at] = top[at - 1];
            at--;
        }
        if (at < cap) {
            top[at] = s;
            if (shown < cap)
                shown++;
        }
    }
    fprintf(f, "  calls       %llu to %zu runtime functions, %.1f ms of host time\n", calls,
            functions, (double)ticks * ms);
    for (size_t i = 0; i < shown; i++) {
        unsigned long long n = atomic_load(&top[i]->calls), t = atomic_load(&top[i]->ticks);
        fprintf(f, "    %10llu  %10.3f ms  %s\n", n, (double)t * ms,
                rt_api_name(atomic_load(&top[i]->self)));
        rest_calls += n;
        rest_ticks += t;
    }
    if (functions > shown)
        fprintf(f, "    %10llu  %10.3f ms  (%zu other functions)\n", calls - rest_calls,
                (double)(ticks - rest_ticks) * ms, functions - shown);
}

/* ---- the table ------------------------------------------------------------------------------ */

/* The registry's lines (fatbins, kernels, variables, the kernels launched most): only the loading
 * layer sees them, and load/register.c hands this layer its census at the first registration.
 * A process that registered nothing prints zeros there, as it did before any hook. */
static _Atomic(rt_summary_census_hook *) rt_census;

void rt_summary_set_census(rt_summary_census_hook *hook)
{
    atomic_store_explicit(&rt_census, hook, memory_order_release);
}

static void rt_human_bytes(char *out, size_t cap, unsigned long long b)
{
    if (b >= (1ull << 30))
        snprintf(out, cap, "%.2f GiB", (double)b / (double)(1ull << 30));
    else if (b >= (1ull << 20))
        snprintf(out, cap, "%.1f MiB", (double)b / (double)(1ull << 20));
    else
        snprintf(out, cap, "%llu B", b);
}

__attribute__((destructor)) static void rt_summary_print(void)
{
    /* Only a process that used the runtime: the processes a preloaded command starts (compilers,
     * shells) inherit the variable and stay quiet.  A program that never reached a counting
     * point has not read the variable yet: rt_summary_on reads it. */
    if (!atomic_load(&rt_reached) || !rt_summary_on())
        return;
    struct rt_summary_census c;
    memset(&c, 0, sizeof c);
    rt_summary_census_hook *census = atomic_load_explicit(&rt_census, memory_order_acquire);
    if (census)
        census(&c);
    FILE *f = stderr;
    fprintf(f, "minicudart summary (pid %d)\n", (int)getpid());
    fprintf(f, "  registered  %zu fatbins, %zu kernels, %zu variables\n", c.modules, c.kernels,
            c.vars);
    static const char *const kind[3] = { "SASS", "PTX (JIT)", "-rdc (JIT-linked)" };
    for (int i = 0; i < 3; i++) {
        unsigned long long n = atomic_load(&rt_loads[i]);
        if (n)
            fprintf(f, "  loaded      %llu modules from %s in %.1f ms\n", n, kind[i],
                    (double)atomic_load(&rt_load_ns[i]) / 1e6);
    }
    fprintf(f, "  launches    %llu\n", atomic_load(&rt_launches));
    for (size_t i = 0; i < c.top_count; i++) {
        const struct rt_summary_kernel *k = &c.top[i];
        fprintf(f, "    %10llu  <<<(%u,%u,%u), (%u,%u,%u)>>>  %.60s\n", k->launches, k->grid.x,
                k->grid.y, k->grid.z, k->block.x, k->block.y, k->block.z, k->name);
    }
    unsigned total = 0;
    for (unsigned i = 1; i < 1024; i++)
        total += atomic_load(&rt_errors[i]);
    fprintf(f, "  errors      %u returned\n", total);
    for (unsigned i = 1; i < 1024; i++) {
        unsigned n = atomic_load(&rt_errors[i]);
        if (n)
            fprintf(f, "    %10u  %s (%u%s)\n", n, atomic_load(&rt_error_names[i]), i,
                    i == 1023 ? " or above" : "");
    }
    rt_summary_print_calls(f);
    char bytes[32], peak[32];
    rt_human_bytes(bytes, sizeof bytes, atomic_load(&rt_malloc_bytes));
    rt_human_bytes(peak, sizeof peak, atomic_load(&rt_peak));
    fprintf(f, "  cudaMalloc  %llu calls, %s in all, peak %s held at once\n",
            atomic_load(&rt_malloc_calls), bytes, peak);
}
