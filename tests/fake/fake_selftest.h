/*
 * fake_selftest.h - what the fake driver's own test programs (test_fakecuda.c, test_fake_graph.c)
 * share: the fake reached exactly as the runtime reaches it (dlopen MINICUDART_DRIVER, then
 * cuGetProcAddress_v2), its test API, and the fixture files nvcc made.
 */
#ifndef MINICUDART_FAKE_SELFTEST_H
#define MINICUDART_FAKE_SELFTEST_H

#include "fakecuda.h"

#include <cuda.h>
#include <cudaTypedefs.h>
#include <dlfcn.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

static void *lib;
static PFN_cuGetProcAddress_v12000 get_proc;
#define X(ret, name, params) static ret(*p_##name) params;
FAKECUDA_API(X)
#undef X

/* The entry point `name` of ABI `version`, or NULL. */
static inline void *proc(const char *name, int version)
{
    void *fn = NULL;
    CUdriverProcAddressQueryResult status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    if (get_proc(name, &fn, version, 0, &status) != CUDA_SUCCESS || status != 0)
        return NULL;
    return fn;
}

/* The whole file, NUL-terminated (PTX is text), or NULL. */
static inline unsigned char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *buf = calloc(1, (size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    return buf;
}

/* Opens the fake and fills get_proc and the p_fake_* pointers; 0 when the library loaded. */
static inline int open_fake(void)
{
    lib = dlopen(getenv("MINICUDART_DRIVER"), RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return -1;
    get_proc = (PFN_cuGetProcAddress_v12000)dlsym(lib, "cuGetProcAddress_v2");
#define X(ret, name, params) p_##name = (ret(*) params)dlsym(lib, #name);
    FAKECUDA_API(X)
#undef X
    return get_proc ? 0 : -1;
}

#endif
