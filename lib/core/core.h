/*
 * core/core.h - the bottom layer: what every room of the runtime may use, and what calls nothing
 * above it.
 *
 *   driver.c       every driver entry point, resolved once through cuGetProcAddress
 *   errors.c       CUresult -> cudaError_t, the names and messages, sticky errors
 *   exit.c         the way out of every call: the per-thread last error, the driver's failure
 *                  first, and the version queries
 *   summary.c      MINICUDART_SUMMARY's counters and the clock of every runtime call
 *   trace.c        MINICUDART_TRACE=1: each step as it happens
 *   lifetime.c     exit, fork, the main program's address range, `minicudart run`'s notice
 *   entry_point.c  cudaGetDriverEntryPoint: the driver's own functions handed out
 *
 * Internal names carry the prefix rt_; every CUDA name is public, everything else hidden.
 * lib/README.md draws the layers above this one.
 */
#ifndef MINICUDART_CORE_H
#define MINICUDART_CORE_H

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime_api.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cuda135.h"

#define RT_HIDDEN __attribute__((visibility("hidden")))

/* The small helpers of the hot paths, defined in the headers.  A build for speed inlines them.
 * A build for size (-Os, MinSizeRel) calls them instead, and a `static inline` helper then left
 * a copy of itself in every file that called it (34 of rt_call_begin, 188 bytes each).  Link-time
 * optimisation folds the copies; libminicudart.a, and libcudart.so.13 built without it, kept
 * them all (8.2 KB of the shared library).  So they are C99 inline definitions: where a call is
 * not inlined it goes to the one external definition, which an `extern inline` declaration
 * makes in the file whose function the helper calls (summary.c, trace.c and errors.c for this
 * header), so that no ring of files comes of it (tests/layers). */
#define RT_INLINE inline

/* The public function a call is in, as the trace, the summary and the error lines name it.
 * Every public function begins with RT_ENTER or RT_FORWARD (below), which give it RT_SELF, a
 * token that rt_api_name turns into the function's name.  In libminicudart.a the token is
 * __func__.  In libcudart.so.13 (built with RT_API_NAMES_FROM_SYMBOLS) it is an address inside
 * the function's code, and the name comes from the library's dynamic symbol table through
 * dladdr: the 458 names are in .dynstr already, for the dynamic linker, and a second copy of
 * them as __func__ was 12 KB of .rodata.  The address is a label put at the top of the body, or
 * the return address of the call RT_ENTER makes (below); so that it stays inside that function's
 * own symbol, public functions are never inlined into another, cloned or folded with one of the
 * same code, and a name dladdr cannot find reads "a runtime call". */
typedef const struct rt_api_site *rt_api;   /* never defined: a string is not one by mistake */
const char *rt_api_name(rt_api api);
#ifdef RT_API_NAMES_FROM_SYMBOLS
#ifdef __clang__                  /* which has no noclone, and inlines no function that takes
                                     the address of one of its labels */
#define RT_API __attribute__((visibility("default"), noinline))
#else
#define RT_API __attribute__((visibility("default"), noinline, noclone, no_icf))
#endif
/* The empty asm hides the label's address from the optimiser, which would otherwise carry the
 * constant into a clone of a helper made for one caller, where it names a label of another
 * function (with LTO the link then fails on a relocation against that label).  Taken once, at
 * the top, and kept in a variable. */
#define RT_SELF_HERE                                                                              \
    rt_self_:;                                                                                    \
    rt_api rt_self_at_ = (rt_api) && rt_self_;                                                    \
    __asm__("" : "+r"(rt_self_at_));
#define RT_SELF rt_self_at_
#else
#define RT_API __attribute__((visibility("default")))
#define RT_SELF_HERE
#define RT_SELF ((rt_api)__func__)
#endif

/* ---- driver.c: the one table of driver entry points ---------------------------------------- */

struct rt_driver {
#define DRIVER_FN(name, version) PFN_##name##_v##version name;
#define DRIVER_FN_OPTIONAL(name, version) PFN_##name##_v##version name;
#define DRIVER_FN_PTDS(name, version) PFN_##name##_v##version##_ptds name##_ptds;
#define DRIVER_FN_PTSZ(name, version) PFN_##name##_v##version##_ptsz name##_ptsz;
#define DRIVER_FN_NEWER(field, name, version) PFN_##name##_v##version field;
#include "driver_api.def"
#undef DRIVER_FN
#undef DRIVER_FN_OPTIONAL
#undef DRIVER_FN_PTDS
#undef DRIVER_FN_PTSZ
#undef DRIVER_FN_NEWER
    int version;                  /* cuDriverGetVersion, e.g. 13000 */
};

/* The table, filled once.  Valid only after rt_driver_load() returned cudaSuccess. */
extern struct rt_driver rt_drv;

/* Loads the driver library, resolves every entry point, calls cuInit(0); once per process,
 * thread-safe.  Returns the same error on every call if that first attempt failed. */
cudaError_t rt_driver_load(void);
/* What rt_driver_load answered, loading the driver first if no call has: its failure, or
 * cudaSuccess once it is usable, and while the process exits (nothing is loaded then).  NVIDIA's
 * runtime answers that failure from every call with no usable driver (exit.c). */
cudaError_t rt_driver_failure(void);
/* The driver library rt_driver_load opens: MINICUDART_DRIVER, else libcuda.so.1. */
const char *rt_driver_path(void);
/* Resolves one entry point into *slot (NULL when the driver lacks it, with a trace line); false
 * when it lacks one that is not optional.  The graphics table (interop/graphics.c) too. */
bool rt_driver_resolve(PFN_cuGetProcAddress_v12000 get, const char *name, int version,
                       cuuint64_t flags, bool optional, void **slot);
/* An optional entry point (DRIVER_FN_OPTIONAL), asked after rt_driver_load: cudaSuccess when the
 * driver has it (present), else cudaErrorNotSupported, with "<api>: the driver has no <entry>: not
 * implemented" in the trace. */
cudaError_t rt_driver_optional(bool present, const char *entry);
/* The same for an entry of a driver newer than 13.0 that a 13.5 function needs and cannot do
 * without: cudaErrorCallRequiresNewerDriver (NVIDIA's 13.5 runtime's answer on such a driver),
 * with the reason in the trace. */
cudaError_t rt_driver_newer(bool present, const char *entry);

/* The runtime ABI minicudart implements: NVIDIA's CUDA 13.5 (cudaRuntimeGetVersion), whichever
 * toolkit's headers it was built with.  The CUDA 12 build sets 12090 first (cuda12/names12.h),
 * which is the one place that sets such a knob for an ABI. */
#ifndef RT_RUNTIME_VERSION
#define RT_RUNTIME_VERSION 13050
#endif
/* The oldest driver the runtime runs on: NVIDIA's 13 runtime needs a 13.0 driver (580); the CUDA
 * 12 build sets the oldest whose entry points cover every one the runtime cannot do without
 * (cuda12/names12.h).  An older driver is cudaErrorInsufficientDriver (driver.c). */
#ifndef RT_DRIVER_MIN_VERSION
#define RT_DRIVER_MIN_VERSION 13000
#endif
/* The error of a launch whose shape the device cannot run: 13's runtime passes on the driver's
 * (cudaErrorInvalidValue); the CUDA 12 build sets 12.9's (cuda12/names12.h). */
#ifndef RT_LAUNCH_BAD_SHAPE
#define RT_LAUNCH_BAD_SHAPE cudaErrorInvalidValue
#endif

/* ---- errors.c ------------------------------------------------------------------------------- */

cudaError_t rt_error_from_cu(CUresult r);
bool rt_error_is_sticky(cudaError_t e);
const char *rt_error_name(cudaError_t e);

/* ---- exit.c --------------------------------------------------------------------------------- */

/* Records e as the calling thread's last error (while the driver is not usable, the driver's
 * failure instead: exit.c), traces it with the name of the call open on the thread, and returns
 * what it stored.  Every public entry point leaves through rt_exit, which also closes the call
 * RT_ENTER opened (below), so the last-error rules hold by construction.  Success, the common
 * case on the launch path, costs a compare: the call to rt_exit_error happens only for a
 * failure.  rt_error_record is the recording alone, for a call that answers something else. */
cudaError_t rt_error_record(cudaError_t e);
cudaError_t rt_exit_error(cudaError_t e);                /* rt_error_record, then rt_call_end */
/* rt_exit_error(cudaErrorInvalidValue), the answer of 182 checks of arguments: a call with no
 * argument to load at each (350 bytes of the library built for size). */
cudaError_t rt_exit_invalid_value(void);
RT_INLINE void rt_call_end(void);
RT_INLINE cudaError_t rt_exit(cudaError_t e)
{
    if (__builtin_constant_p(e) && e == cudaErrorInvalidValue)
        return rt_exit_invalid_value();
    if (e != cudaSuccess)
        return rt_exit_error(e);
    rt_call_end();
    return e;
}
#define RT_RETURN(e) return rt_exit(e)
/* The exit of the answers NVIDIA's runtime gives before it initialises the driver (the version
 * queries' NULL checks, say): stored as they are, whether or not a driver is usable.  Every
 * other error becomes the driver's failure while there is one (exit.c). */
cudaError_t rt_exit_uninit(cudaError_t e);
#define RT_RETURN_UNINIT(e) return rt_exit_uninit(e)

/* Set while the process is exiting: later calls answer cudaErrorCudartUnloading. */
extern atomic_bool rt_unloading;
/* Set by the first registration or driver load: some CUDA call reached this runtime (the exit
 * notice of `minicudart run` says when none did: lifetime.c). */
extern atomic_bool rt_reached;

/* ---- summary.c ------------------------------------------------------------------------------ */

/* MINICUDART_SUMMARY=1: counted as the program runs, printed at exit.  Off, each counting point
 * costs a relaxed load and a branch. */
extern atomic_int rt_summary_level;
bool rt_summary_read_env(void);
RT_INLINE bool rt_summary_on(void)
{
    int level = atomic_load_explicit(&rt_summary_level, memory_order_relaxed);
    return level < 0 ? rt_summary_read_env() : level == 1;
}
void rt_summary_load(int kind, uint64_t ns);       /* kind: 0 SASS, 1 PTX, 2 JIT-linked */
void rt_summary_error(cudaError_t e, const char *name);
void rt_summary_alloc(size_t bytes);
void rt_summary_free(size_t bytes);
void rt_summary_launch_count(void);

/* The registry's part of the table printed at exit: load/register.c installs its census at the
 * first registration (the bottom layer does not see the registry). */
enum { RT_SUMMARY_TOP = 10 };
struct rt_summary_kernel {
    const char *name;
    unsigned long long launches;
    dim3 grid, block;                          /* the last launch's shape */
};
struct rt_summary_census {
    size_t modules, kernels, vars;
    struct rt_summary_kernel top[RT_SUMMARY_TOP];   /* the most launched first */
    size_t top_count;
};
typedef void rt_summary_census_hook(struct rt_summary_census *out);
void rt_summary_set_census(rt_summary_census_hook *hook);

/* The public calls open on each thread: who they are, for the names the trace, the error lines
 * and the summary give, and the summary's clock of the outermost one (summary.c).  Every public
 * entry point begins with RT_ENTER(), which opens its call, and every way out of the function
 * closes it: RT_RETURN and the other closing macros below, which are the only returns a public
 * function has (tools/entry_returns.py checks lib/ for any other, as a test).
 *
 * Only watched calls are opened: while neither the trace nor the summary is on, nothing needs a
 * call's name, and entry and exit each cost a relaxed load and a branch.  rt_calls_watched is -1
 * until the first call reads MINICUDART_TRACE and MINICUDART_SUMMARY, then 0 or 1; a trace hook
 * installed later turns it on, and nothing turns it off.  So a call closes only what it opened:
 * one that found it off opened nothing, nor did any call it is nested in (they began earlier),
 * and rt_call_close finds no call open and does nothing.
 *
 * A call's name is an address inside the function, looked up in the dynamic symbol table
 * (rt_api_name).  The function need not hold it: in libcudart.so.13 RT_ENTER calls
 * rt_call_open_here, which is never inlined, and whose return address is inside the caller.  A
 * token held from entry to every exit, and handed down to every helper that named the call, was
 * 2 KB more of the library built for size.  A family's body (below) is handed its member's
 * RT_SELF and opens the call with it.
 *
 * The clock was once closed by a cleanup attribute on a variable of RT_ENTER, which the compiler
 * runs at every return.  That needs no discipline at the returns, but it runs after the returned
 * value is computed, so no public function could end in a tail call: each kept a frame to come
 * back to, about 14 bytes more in each of 299 functions (4 KB of the library built for size).
 * Closed by the return itself, `return rt_exit(e)` is a jump (in the build for size a call: it
 * makes no sibling calls, so that a function's ways out share one epilogue, CMakeLists.txt). */
extern atomic_int rt_calls_watched;
void rt_call_open(rt_api self);
void rt_call_close(void);
rt_api rt_call_current(void);           /* the innermost call open on the thread, or NULL */
const char *rt_call_name(void);         /* its name (rt_api_name) */
RT_INLINE void rt_call_begin(rt_api self)
{
    if (atomic_load_explicit(&rt_calls_watched, memory_order_relaxed))
        rt_call_open(self);
}
/* A build for speed left it a call on every return (gcc 12, -O3, LTO), hence always_inline
 * there. */
#ifdef __OPTIMIZE_SIZE__
RT_INLINE void rt_call_end(void)
#else
RT_INLINE __attribute__((always_inline)) void rt_call_end(void)
#endif
{
    if (atomic_load_explicit(&rt_calls_watched, memory_order_relaxed) > 0)
        rt_call_close();
}
#ifdef RT_API_NAMES_FROM_SYMBOLS
/* rt_call_open with the caller's return address, when calls are watched: never inlined, cloned
 * or folded into another.  RT_ENTER calls it whether or not they are, and it looks: a call and a
 * return more per public call (a nanosecond), 10 bytes less in each of 294 functions than the
 * load, test and branch of the check made inline (3 KB of the library built for size).  The
 * launch path, and the calls programs make around every launch (cudaGetLastError,
 * cudaPeekAtLastError, cudaGetDevice), keep the check inline: RT_ENTER_HOT. */
#ifdef __clang__
__attribute__((noinline)) void rt_call_open_here(void);
#else
__attribute__((noinline, noclone, no_icf)) void rt_call_open_here(void);
#endif
#define RT_ENTER() RT_SELF_HERE rt_call_open_here()
#define RT_ENTER_HOT()                                                                            \
    RT_SELF_HERE                                                                                  \
    do {                                                                                          \
        if (atomic_load_explicit(&rt_calls_watched, memory_order_relaxed))                        \
            rt_call_open_here();                                                                  \
    } while (0)
#else
#define RT_ENTER() RT_SELF_HERE RT_ENTER_AS(RT_SELF)
#define RT_ENTER_HOT() RT_ENTER()
#endif
#define RT_ENTER_AS(self) rt_call_begin(self)
/* The returns of public functions that answer something other than a cudaError_t (the value is
 * computed inside the call's clock), and of the void ones. */
#define RT_RETURN_VALUE(v)                                                                        \
    do {                                                                                          \
        __typeof__(v) rt_value_ = (v);                                                            \
        rt_call_end();                                                                            \
        return rt_value_;                                                                         \
    } while (0)
#define RT_RETURN_VOID()                                                                          \
    do {                                                                                          \
        rt_call_end();                                                                            \
        return;                                                                                   \
    } while (0)

/* A family of public functions with one body (a function and its _ptsz or _ptds twin, the
 * WithFlags variants, ...): each member is a stub that hands its arguments and its own RT_SELF
 * to the family's body, which enters with them (RT_ENTER_AS) and leaves as any public function
 * does (RT_RETURN).  The stub is then a few instructions (a tail call, or a call in the build
 * for size) instead of a counted call of its own, while the trace, the summary and the error
 * lines still name the member that was called.  Two
 * members with the same arguments (cudaMemcpyBatchAsync and its _ptsz twin) are then the same
 * bytes, their labels being relative: a linker folding identical code (--icf) would give them
 * one address, and so one name, and is not to be used on this library. */
#define RT_FORWARD(call) RT_SELF_HERE return call

/* ---- trace.c -------------------------------------------------------------------------------- */

extern atomic_int rt_trace_level;       /* -1 not read yet, 0 off, 1 text, 2 JSON timeline */
void rt_trace_init(void);
void rt_trace_emit(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
RT_INLINE bool rt_tracing(void)
{
    int level = atomic_load_explicit(&rt_trace_level, memory_order_relaxed);
    if (level < 0) {
        rt_trace_init();
        level = atomic_load_explicit(&rt_trace_level, memory_order_relaxed);
    }
    return level > 0;
}
/* One line of the text trace.  rt_trace_emit looks whether the trace is on, so RT_TRACE is a
 * plain call, whose arguments are computed whether or not it is: keep them cheap (a name, a
 * number, rt_error_name).  RT_TRACE_LAZY checks first, inline, and computes them only while
 * tracing: for the launch path and the registration of every kernel, which run too often for
 * even an empty call, and for an argument that costs (dlerror, dladdr).  The check inline at
 * each of 175 lines was 2 KB of the library built for size. */
#define RT_TRACE(...) rt_trace_emit(__VA_ARGS__)
#define RT_TRACE_LAZY(...) do { if (rt_tracing()) rt_trace_emit(__VA_ARGS__); } while (0)
uint64_t rt_now_ns(void);

/* Spans of the JSON timeline (MINICUDART_TRACE=FILE.json):
 *     uint64_t t0 = rt_span_begin();
 *     ... the step ...
 *     RT_SPAN_END(t0, "module load", "\"device\":%d", d->ordinal);
 * args_fmt gives the members of the event's "args" object (JSON, no braces).  With the timeline
 * off, rt_span_begin answers 0 and the end is a compare. */
RT_INLINE uint64_t rt_span_begin(void)
{
    return rt_tracing() && atomic_load_explicit(&rt_trace_level, memory_order_relaxed) == 2
               ? rt_now_ns() : 0;
}
void rt_span_emit(uint64_t t0, const char *name, const char *args_fmt, ...)
    __attribute__((format(printf, 3, 4)));
#define RT_SPAN_END(t0, ...) do { if (t0) rt_span_emit((t0), __VA_ARGS__); } while (0)
void rt_json_escape(char *out, size_t cap, const char *s);   /* the inside of a JSON string */

/* ---- lifetime.c: exit, fork ------------------------------------------------------------------ */

/* Set in a child forked after the driver was initialised: calls answer
 * cudaErrorInitializationError. */
extern atomic_bool rt_forked;
/* Set by driver.c once the driver's entry points are resolved, just before cuInit: a child
 * forked from then on is one of a process that used the driver. */
extern atomic_bool rt_driver_resolved;
/* Whether an address lies in the main program (not in a shared library). */
bool rt_address_in_program(const void *address);

/* ---- streams: their handles as the driver takes them (stream/ has the calls) ---------------- */

/* The driver stream for a runtime stream.  Streams are the driver's own handles; 0,
 * cudaStreamLegacy (0x1) and cudaStreamPerThread (0x2) pass unchanged, except that in a _ptsz /
 * _ptds entry point 0 means this thread's per-thread stream. */
RT_INLINE CUstream rt_stream(cudaStream_t stream, bool per_thread)
{
    return per_thread && !stream ? CU_STREAM_PER_THREAD : (CUstream)stream;
}

/* ---- entry_point.c: its _ptsz variants (the toolkit declares them only under
 * CUDA_API_PER_THREAD_DEFAULT_STREAM) ---------------------------------------------------------- */

RT_API cudaError_t cudaGetDriverEntryPoint_ptsz(const char *symbol, void **funcPtr,
                                                unsigned long long flags,
                                                enum cudaDriverEntryPointQueryResult *status);
RT_API cudaError_t cudaGetDriverEntryPointByVersion_ptsz(
    const char *symbol, void **funcPtr, unsigned int cudaVersion, unsigned long long flags,
    enum cudaDriverEntryPointQueryResult *status);

#endif
