/* array_test.h - what the array area's tests share: the fake's call log and its array API. */
#ifndef MINICUDART_ARRAY_TEST_H
#define MINICUDART_ARRAY_TEST_H

#include "e2e.h"

#include <cuda.h>

#include <dlfcn.h>
#include <stdio.h>

/* driver_functions.h's make_cudaExtent, which C code cannot include on its own. */
static inline struct cudaExtent make_cudaExtent(size_t w, size_t h, size_t d)
{
    struct cudaExtent e = {w, h, d};
    return e;
}

/* The fake's own array test API (tests/fake/memory/fake_array.c), found with dlsym. */
typedef void (*fake_array_live_fn)(size_t *arrays, size_t *mipmaps, size_t *objects);
typedef void *(*fake_array_storage_fn)(void *array, size_t *bytes);

static inline void *array_test_fake_symbol(const char *name)
{
    void *lib = dlopen(getenv("MINICUDART_DRIVER"), RTLD_NOW | RTLD_NOLOAD);
    assert_non_null(lib);
    void *sym = dlsym(lib, name);
    assert_non_null(sym);
    return sym;
}

static inline size_t live_arrays(void)
{
    size_t arrays = 0;
    ((fake_array_live_fn)array_test_fake_symbol("fake_array_live"))(&arrays, NULL, NULL);
    return arrays;
}

static inline size_t live_mipmaps(void)
{
    size_t mipmaps = 0;
    ((fake_array_live_fn)array_test_fake_symbol("fake_array_live"))(NULL, &mipmaps, NULL);
    return mipmaps;
}

static inline size_t live_objects(void)
{
    size_t objects = 0;
    ((fake_array_live_fn)array_test_fake_symbol("fake_array_live"))(NULL, NULL, &objects);
    return objects;
}

static inline unsigned char *array_storage(cudaArray_t array, size_t *bytes)
{
    return ((fake_array_storage_fn)array_test_fake_symbol("fake_array_storage"))(array, bytes);
}

/* The arguments the fake logged for the last call of `name`, or NULL when there was none. */
static inline const char *last_call_args(const char *name)
{
    for (size_t i = fk.fake_call_count(); i-- > 0;) {
        const fake_call *c = fk.fake_call_at(i);
        if (strcmp(c->name, name) == 0)
            return c->args;
    }
    return NULL;
}

/* Asserts that the last call of `name` logged arguments containing `part`. */
#define assert_last_call_has(name, part)                                                    \
    do {                                                                                    \
        const char *args_ = last_call_args(name);                                           \
        if (!args_ || !strstr(args_, (part)))                                               \
            fail_msg("%s: wanted \"%s\" in \"%s\"", (name), (part), args_ ? args_ : "(none)"); \
    } while (0)

/* Runs the group with the fake loaded and the runtime initialised (cudaFree(NULL)). */
static inline int array_test_setup(void **state)
{
    (void)state;
    if (fake_api_load() != 0)
        return -1;
    return cudaFree(NULL) == cudaSuccess ? 0 : -1;
}

#endif
