/*
 * cuda12_test.h - what the tests of the CUDA 12 face share (tests/cuda12/api).
 *
 * The test files are compiled as a CUDA 12 user's C program is: against NVIDIA's 12.9 headers
 * (so cudaGetDeviceProperties is cudaGetDeviceProperties_v2, cudaStreamGetCaptureInfo its 6-argument
 * _v2, and every struct has 12.9's layout), linked to minicudart's libcudart.so.12 (or
 * libminicudart12.a), run against the fake driver.  What reaches the driver is read from the
 * fake's call log; the legacy plain names that 12.9's header hides are reached as a binding
 * reaches them, by dlsym.
 *
 * Guards: a struct the runtime fills is put at the start of a larger buffer filled with
 * GUARD_BYTE, and every byte past the struct's 12.9 size must still be GUARD_BYTE afterwards.  A
 * struct the runtime reads is put at the very end of a readable page followed by a PROT_NONE
 * one (guard_page_tail), so a read of one byte past it faults.
 */
#ifndef MINICUDART_CUDA12_TEST_H
#define MINICUDART_CUDA12_TEST_H

#define _GNU_SOURCE
#include "e2e.h"

#include <dlfcn.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#if !defined(CUDART_VERSION) || CUDART_VERSION != 12090
#error "tests/cuda12/api is compiled against CUDA 12.9's headers (CUDA129_INCLUDE_DIRS)"
#endif

#define GUARD_BYTE 0xA5

/* The index of the first byte of buf[from, size) that is not GUARD_BYTE, or size. */
static inline size_t first_unguarded(const void *buf, size_t from, size_t size)
{
    const unsigned char *b = buf;
    for (size_t i = from; i < size; i++)
        if (b[i] != GUARD_BYTE)
            return i;
    return size;
}

/* Every byte of buf[from, size) is still GUARD_BYTE. */
#define assert_guarded(buf, from, size)                                                     \
    do {                                                                                    \
        size_t at_ = first_unguarded((buf), (from), (size));                                \
        if (at_ != (size_t)(size))                                                          \
            fail_msg("byte %zu (guarded from %zu) changed to 0x%02x", at_, (size_t)(from),  \
                     ((const unsigned char *)(buf))[at_]);                                  \
    } while (0)

/* The arguments of the last recorded call of `name` since the last fake_reset_log, or NULL. */
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

/* A runtime function by its exported name, as a binding that bypasses the header finds it. */
static inline void *runtime_symbol(const char *name)
{
    void *sym = dlsym(RTLD_DEFAULT, name);
    if (!sym)
        fail_msg("dlsym(%s): %s", name, dlerror());
    return sym;
}

/* A page-end slot of `size` bytes, copied from `src`, with a PROT_NONE page right after it.
 * guard_page_free(slot) unmaps both pages. */
static inline void *guard_page_tail(const void *src, size_t size)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    unsigned char *map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
                              MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(map != MAP_FAILED);
    assert_int_equal(mprotect(map + page, page, PROT_NONE), 0);
    unsigned char *slot = map + page - size;
    memcpy(slot, src, size);
    return slot;
}

static inline void guard_page_free(void *slot)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    unsigned char *map = (unsigned char *)((uintptr_t)slot & ~(uintptr_t)(page - 1));
    assert_int_equal(munmap(map, 2 * page), 0);
}

#endif
