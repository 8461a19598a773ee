/*
 * errors.c - one error table, one CUresult translation, one exit.
 *
 * Every cudaError_t the runtime returns is a row of errors.def; the names, the messages and the
 * sticky test are generated from it.  Every driver result goes through rt_error_from_cu.  Every
 * public entry point leaves through rt_exit, which stores a failure in the calling thread's last
 * error: the slot is per thread, a success never clears it, and only cudaGetLastError resets it.
 */
#include "internal.h"

atomic_bool rt_unloading;

static _Thread_local cudaError_t rt_last_error = cudaSuccess;

struct rt_error_row {
    cudaError_t code;
    const char *name;
    const char *message;
    bool sticky;
};

static const struct rt_error_row rt_error_table[] = {
#define RT_ERROR(name, value, message, sticky) { name, #name, message, sticky },
#include "errors.def"
#undef RT_ERROR
};

static const struct rt_error_row *rt_error_row(cudaError_t e)
{
    for (size_t i = 0; i < sizeof rt_error_table / sizeof rt_error_table[0]; i++)
        if (rt_error_table[i].code == e)
            return &rt_error_table[i];
    return NULL;
}

const char *rt_error_name(cudaError_t e)
{
    const struct rt_error_row *row = rt_error_row(e);
    return row ? row->name : "unrecognized error code";
}

bool rt_error_is_sticky(cudaError_t e)
{
    const struct rt_error_row *row = rt_error_row(e);
    return row && row->sticky;
}

cudaError_t rt_error_from_cu(CUresult r)
{
    switch (r) {
#define CU_ERROR(cu, rt) case cu: return rt;
#include "cuerrors.def"
#undef CU_ERROR
    }
    return cudaErrorUnknown;
}

cudaError_t rt_exit(const char *api, cudaError_t e)
{
    if (e != cudaSuccess) {
        rt_last_error = e;
        RT_TRACE("error %s (%d) from %s", rt_error_name(e), (int)e, api);
    }
    return e;
}

RT_API cudaError_t cudaGetLastError(void)
{
    cudaError_t e = rt_last_error;
    rt_last_error = cudaSuccess;
    return e;
}

RT_API cudaError_t cudaPeekAtLastError(void)
{
    return rt_last_error;
}

RT_API const char *cudaGetErrorName(cudaError_t error)
{
    return rt_error_name(error);
}

RT_API const char *cudaGetErrorString(cudaError_t error)
{
    const struct rt_error_row *row = rt_error_row(error);
    return row ? row->message : "unrecognized error code";
}
