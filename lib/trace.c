/*
 * trace.c - MINICUDART_TRACE=1 prints each step of the launch path as it happens.
 *
 * Off by default; then the only cost is one relaxed load and a branch at each trace point.  Every
 * line carries the prefix "minicudart: " and goes to one sink: stderr, or the hook a program
 * installs with minicudart_set_trace_hook (include/minicudart.h).
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"
#include "minicudart.h"

atomic_int rt_trace_level = -1;

static minicudart_trace_hook rt_trace_hook;
static void *rt_trace_hook_user;
static pthread_mutex_t rt_trace_lock = PTHREAD_MUTEX_INITIALIZER;

void rt_trace_init(void)
{
    const char *v = getenv("MINICUDART_TRACE");
    int level = (v && *v && strcmp(v, "0") != 0) ? 1 : 0;
    int expected = -1;
    atomic_compare_exchange_strong(&rt_trace_level, &expected, level);
}

uint64_t rt_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void rt_trace_emit(const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);

    pthread_mutex_lock(&rt_trace_lock);
    if (rt_trace_hook)
        rt_trace_hook(line, rt_trace_hook_user);
    else
        fprintf(stderr, "minicudart: %s\n", line);
    pthread_mutex_unlock(&rt_trace_lock);
}

RT_API void minicudart_set_trace_hook(minicudart_trace_hook hook, void *user)
{
    pthread_mutex_lock(&rt_trace_lock);
    rt_trace_hook = hook;
    rt_trace_hook_user = user;
    pthread_mutex_unlock(&rt_trace_lock);
    if (hook)
        atomic_store(&rt_trace_level, 1);
}
