/* graphics_test.h - what the graphics area's tests share: the fake's call log and its graphics
 * hooks (tests/fake/interop/fake_graphics.c, fake_graphics_egl.c), found with dlsym. */
#ifndef MINICUDART_GRAPHICS_TEST_H
#define MINICUDART_GRAPHICS_TEST_H

#include "e2e.h"

#include "interop/graphics_types.h"

#include <dlfcn.h>
#include <stdio.h>

static inline void *graphics_fake_symbol(const char *name)
{
    void *lib = dlopen(getenv("MINICUDART_DRIVER"), RTLD_NOW | RTLD_NOLOAD);
    assert_non_null(lib);
    void *sym = dlsym(lib, name);
    assert_non_null(sym);
    return sym;
}

static inline void set_gl_context(int present)
{
    ((void (*)(int))graphics_fake_symbol("fake_graphics_set_gl_context"))(present);
}

static inline void set_buffer_size(size_t bytes)
{
    ((void (*)(size_t))graphics_fake_symbol("fake_graphics_set_buffer_size"))(bytes);
}

static inline void set_egl_frame(const CUeglFrame *frame)
{
    ((void (*)(const void *))graphics_fake_symbol("fake_graphics_set_egl_frame"))(frame);
}

static inline int presented_frame(CUeglFrame *frame)
{
    return ((int (*)(void *))graphics_fake_symbol("fake_graphics_presented"))(frame);
}

static inline size_t live_resources(void)
{
    return ((size_t (*)(void))graphics_fake_symbol("fake_graphics_resources"))();
}

static inline size_t live_connections(void)
{
    return ((size_t (*)(void))graphics_fake_symbol("fake_graphics_connections"))();
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

#define assert_last_call_has(name, part)                                                    \
    do {                                                                                    \
        const char *args_ = last_call_args(name);                                           \
        if (!args_ || !strstr(args_, (part)))                                               \
            fail_msg("%s: wanted \"%s\" in \"%s\"", (name), (part), args_ ? args_ : "(none)"); \
    } while (0)

/* Runs the group with the fake loaded and the runtime initialised (cudaFree(NULL)). */
static inline int graphics_test_setup(void **state)
{
    (void)state;
    if (fake_api_load() != 0)
        return -1;
    return cudaFree(NULL) == cudaSuccess ? 0 : -1;
}

#endif
