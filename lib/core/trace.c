/*
 * trace.c - MINICUDART_TRACE shows each step of the launch path as it happens.
 *
 *   MINICUDART_TRACE=1          text: one "minicudart: " line per step on stderr, or to the hook a
 *                               program installs with minicudart_set_trace_hook
 *   MINICUDART_TRACE=FILE.json  a timeline in the Chrome trace-event format (Perfetto,
 *                               chrome://tracing): spans ("ph":"X") for driver initialisation,
 *                               context creation, module loads and their steps, kernel resolution
 *                               and every launch; the text lines as instant events ("ph":"i")
 *
 * Off by default; then the only cost is one relaxed load and a branch at each trace point and
 * span.  The JSON file holds one event per line, each ending in ",", between a first line
 * `{"traceEvents":[` and a last event written at exit followed by `]}`; a process that dies
 * early leaves the file without its end, which the viewers still read.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "core/core.h"
#include "minicudart.h"

/* The external definition of these inline helpers of core/core.h (RT_INLINE, core/core.h). */
extern inline bool rt_tracing(void);
extern inline uint64_t rt_span_begin(void);

/* core.h's RT_SELF: __func__ in libminicudart.a; in libcudart.so.13 an address inside the
 * public function, named by the dynamic symbol that holds it (dladdr answers only from the
 * dynamic symbol table, which is what it holds: every public function, each with its size). */
const char *rt_api_name(rt_api api)
{
#ifdef RT_API_NAMES_FROM_SYMBOLS
    Dl_info info;
    if (api && dladdr(api, &info) && info.dli_sname && info.dli_saddr)
        return info.dli_sname;
    return "a runtime call";
#else
    return api ? (const char *)api : "a runtime call";
#endif
}

atomic_int rt_trace_level = -1;
atomic_int rt_calls_watched = -1;         /* core.h; read once by summary.c, set on by a hook */

static minicudart_trace_hook rt_trace_hook;
static void *rt_trace_hook_user;
static pthread_mutex_t rt_trace_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t rt_trace_once = PTHREAD_ONCE_INIT;

/* The JSON timeline: open from the first trace point to exit, written under rt_trace_lock. */
static FILE *rt_json;
static pid_t rt_json_pid;                 /* the process that opened it (not a forked child) */
static _Thread_local long rt_json_tid;

uint64_t rt_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Copies s into out as the inside of a JSON string. */
void rt_json_escape(char *out, size_t cap, const char *s)
{
    size_t n = 0;
    for (; *s && n + 7 < cap; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            out[n++] = '\\';
            out[n++] = (char)c;
        } else if (c < 0x20) {
            n += (size_t)snprintf(out + n, cap - n, "\\u%04x", c);
        } else {
            out[n++] = (char)c;
        }
    }
    out[n] = '\0';
}

/* Writes one event line; rt_trace_lock held.  `fields` are the members after name and phase. */
static void rt_json_event(const char *name, const char *phase, uint64_t ts_ns, const char *fields,
                          bool flush)
{
    if (!rt_json || getpid() != rt_json_pid)
        return;
    if (!rt_json_tid)
        rt_json_tid = (long)syscall(SYS_gettid);
    fprintf(rt_json, "{\"name\":\"%s\",\"cat\":\"minicudart\",\"ph\":\"%s\",\"ts\":%.3f,"
            "\"pid\":%ld,\"tid\":%ld%s},\n", name, phase, (double)ts_ns / 1e3, (long)rt_json_pid,
            rt_json_tid, fields);
    if (flush)
        fflush(rt_json);
}

static void rt_json_close(void)
{
    pthread_mutex_lock(&rt_trace_lock);
    if (rt_json && getpid() == rt_json_pid) {
        /* The last event carries no comma, so the file is strict JSON. */
        fprintf(rt_json, "{\"name\":\"process exit\",\"cat\":\"minicudart\",\"ph\":\"i\","
                "\"s\":\"p\",\"ts\":%.3f,\"pid\":%ld,\"tid\":%ld}\n],\"displayTimeUnit\":\"ns\"}\n",
                (double)rt_now_ns() / 1e3, (long)rt_json_pid, (long)syscall(SYS_gettid));
        fclose(rt_json);
        rt_json = NULL;
    }
    pthread_mutex_unlock(&rt_trace_lock);
}

static bool rt_json_open(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "minicudart: MINICUDART_TRACE=%s: cannot write the file; tracing as "
                "text\n", path);
        return false;
    }
    rt_json = f;
    rt_json_pid = getpid();
    char exe[256] = "";
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = '\0';
    char name[600];
    rt_json_escape(name, sizeof name, exe[0] ? exe : "process");
    fprintf(f, "{\"traceEvents\":[\n"
            "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%ld,\"args\":{\"name\":\"%s\"}},\n",
            (long)rt_json_pid, name);
    atexit(rt_json_close);
    return true;
}

static void rt_trace_init_once(void)
{
    const char *v = getenv("MINICUDART_TRACE");
    int level = (v && *v && strcmp(v, "0") != 0) ? 1 : 0;
    size_t n = v ? strlen(v) : 0;
    if (n > 5 && strcmp(v + n - 5, ".json") == 0 && rt_json_open(v))
        level = 2;
    int expected = -1;
    atomic_compare_exchange_strong(&rt_trace_level, &expected, level);
}

void rt_trace_init(void)
{
    pthread_once(&rt_trace_once, rt_trace_init_once);
}

void rt_trace_emit(const char *fmt, ...)
{
    if (!rt_tracing())
        return;
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);

    pthread_mutex_lock(&rt_trace_lock);
    if (rt_json) {
        char msg[sizeof line * 2], fields[sizeof msg + 32];
        rt_json_escape(msg, sizeof msg, line);
        snprintf(fields, sizeof fields, ",\"s\":\"t\",\"args\":{\"msg\":\"%s\"}", msg);
        rt_json_event("trace", "i", rt_now_ns(), fields, true);
    }
    if (rt_trace_hook)
        rt_trace_hook(line, rt_trace_hook_user);
    else if (!rt_json)
        fprintf(stderr, "minicudart: %s\n", line);
    pthread_mutex_unlock(&rt_trace_lock);
}

void rt_span_emit(uint64_t t0, const char *name, const char *args_fmt, ...)
{
    uint64_t t1 = rt_now_ns();
    char args[768] = "";
    if (args_fmt && *args_fmt) {
        va_list ap;
        va_start(ap, args_fmt);
        vsnprintf(args, sizeof args, args_fmt, ap);
        va_end(ap);
    }
    char fields[sizeof args + 64];
    snprintf(fields, sizeof fields, ",\"dur\":%.3f,\"args\":{%s}", (double)(t1 - t0) / 1e3, args);
    pthread_mutex_lock(&rt_trace_lock);
    /* Launches are many and cheap: they wait for the buffer; the rest is flushed at once. */
    rt_json_event(name, "X", t0, fields, strcmp(name, "launch") != 0);
    pthread_mutex_unlock(&rt_trace_lock);
}

RT_API void minicudart_set_trace_hook(minicudart_trace_hook hook, void *user)
{
    rt_trace_init();
    pthread_mutex_lock(&rt_trace_lock);
    rt_trace_hook = hook;
    rt_trace_hook_user = user;
    pthread_mutex_unlock(&rt_trace_lock);
    int off = 0;
    if (hook) {
        atomic_compare_exchange_strong(&rt_trace_level, &off, 1);
        atomic_store(&rt_calls_watched, 1);     /* the trace lines name the calls from now on */
    }
}
