/*
 * errors.c - one error table, one CUresult translation.
 *
 * Every cudaError_t the runtime returns is a row of errors.def; the names, the messages and the
 * sticky test are generated from it.  Every driver result goes through rt_error_from_cu.  The
 * way out of a call, which stores its error, is exit.c.
 */
#include <pthread.h>
#include <string.h>

#include "core/core.h"

/* The external definition of these inline helpers of core/core.h (RT_INLINE, core/core.h). */
extern inline CUstream rt_stream(cudaStream_t stream, bool per_thread);

atomic_bool rt_unloading;

/* The table as data without pointers: the names and the messages are each one string of
 * NUL-separated entries in table order, so the rows hold no addresses to relocate at load time
 * (133 rows of two pointers each would be 6 KB of relocations in every program).  The names are
 * errors.def's, without their prefix: "Success", "InvalidValue", ... */
static const char rt_error_names[] =
#define RT_ERROR(name, value, message, sticky) #name "\0"
#include "errors.def"
#undef RT_ERROR
    ;

static const char rt_error_messages[] =
#define RT_ERROR(name, value, message, sticky) message "\0"
#include "errors.def"
#undef RT_ERROR
    ;

/* A row is the code in 15 bits and the sticky mark in the top one (two bytes a row, not eight). */
enum { RT_ERROR_STICKY = 0x8000 };
#define RT_ERROR(name, value, message, sticky)                                                    \
    _Static_assert((value) >= 0 && (value) < RT_ERROR_STICKY, #name " fits in 15 bits");
#include "errors.def"
#undef RT_ERROR
static const uint16_t rt_error_table[] = {
#define RT_ERROR(name, value, message, sticky) (value) | ((sticky) ? RT_ERROR_STICKY : 0),
#include "errors.def"
#undef RT_ERROR
};

enum { RT_ERROR_COUNT = sizeof rt_error_table / sizeof rt_error_table[0] };

/* The row of e, or -1. */
static int rt_error_row(cudaError_t e)
{
    for (int i = 0; i < RT_ERROR_COUNT; i++)
        if ((rt_error_table[i] & ~RT_ERROR_STICKY) == (int)e)
            return i;
    return -1;
}

/* The row-th string of a NUL-separated list. */
static const char *rt_error_nth(const char *list, int row)
{
    while (row-- > 0)
        list += strlen(list) + 1;
    return list;
}

/* The names whole, as cudaGetErrorName answers them ("cudaSuccess", "cudaErrorInvalidValue"),
 * written into .bss at the first one asked for, where they stay for the process. */
static char rt_error_full_names[sizeof rt_error_names + RT_ERROR_COUNT * (sizeof "cudaError" - 1)];
static pthread_once_t rt_error_full_once = PTHREAD_ONCE_INIT;

static void rt_error_full_build(void)
{
    char *out = rt_error_full_names;
    const char *in = rt_error_names;
    for (int row = 0; row < RT_ERROR_COUNT; row++) {
        const char *prefix = row == 0 ? "cuda" : "cudaError";
        size_t p = strlen(prefix), n = strlen(in) + 1;
        memcpy(out, prefix, p);
        memcpy(out + p, in, n);
        out += p + n;
        in += n;
    }
}

const char *rt_error_name(cudaError_t e)
{
    int row = rt_error_row(e);
    if (row < 0)
        return "unrecognized error code";
    pthread_once(&rt_error_full_once, rt_error_full_build);
    return rt_error_nth(rt_error_full_names, row);
}

bool rt_error_is_sticky(cudaError_t e)
{
    int row = rt_error_row(e);
    return row >= 0 && (rt_error_table[row] & RT_ERROR_STICKY);
}

cudaError_t rt_error_from_cu(CUresult r)
{
    /* Switched on as an int: with 13.0's headers the codes 13.5 added are not enumerators of
     * CUresult (cuda135.h), and a driver may answer any value. */
    switch ((int)r) {
#define CU_ERROR(cu, rt) case cu: return rt;
#include "cuerrors.def"
#undef CU_ERROR
    }
    return cudaErrorUnknown;
}

RT_API const char *cudaGetErrorName(cudaError_t error)
{
    RT_ENTER();
    RT_RETURN_VALUE(rt_error_name(error));
}

RT_API const char *cudaGetErrorString(cudaError_t error)
{
    RT_ENTER();
    int row = rt_error_row(error);
    RT_RETURN_VALUE(row >= 0 ? rt_error_nth(rt_error_messages, row) : "unrecognized error code");
}
