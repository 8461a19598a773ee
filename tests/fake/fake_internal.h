/*
 * fake_internal.h - what fakecuda.c (the entry points) and fake_image.c (reading cubins and PTX)
 * share.  Not seen by tests.
 */
#ifndef MINICUDART_FAKE_INTERNAL_H
#define MINICUDART_FAKE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

typedef struct fake_param {
    uint32_t offset;
    uint32_t size;
} fake_param;

struct fake_module;

/* A kernel of a loaded module; its address is the CUfunction handed out. */
typedef struct fake_kernel {
    char *name;
    fake_param *params;          /* sorted by ordinal */
    unsigned param_count;
    uint32_t param_size;         /* bytes of the parameter buffer (last offset + size) */
    uint32_t max_threads;        /* from __launch_bounds__, 0 when absent */
    uint64_t shared_size;        /* static shared memory */
    struct fake_module *module;
} fake_kernel;

/* Host storage of a module global (the "device address" cuModuleGetGlobal hands out). */
typedef struct fake_global {
    char *name;
    unsigned char *storage;
    size_t size;
} fake_global;

typedef struct fake_module {
    int jit;                     /* loaded from PTX */
    unsigned sm;                 /* cubin SM or PTX .target */
    unsigned char *image;        /* our own copy (cubin bytes or NUL-terminated PTX) */
    size_t image_size;
    fake_kernel *kernels;
    unsigned kernel_count;
    fake_global *globals;
    unsigned global_count, global_cap;
    void *ctx;                   /* the fake_ctx it was loaded into */
    int dead;                    /* unloaded, or its context was reset */
} fake_module;

/* Loads `image` (cubin ELF or NUL-terminated PTX text) into m, which must be zeroed.  Returns 0,
 * or a CUresult (200 INVALID_IMAGE, 218 INVALID_PTX) with a message in err. */
int fake_image_load(fake_module *m, const void *image, char *err, size_t errcap);

/* Finds or materialises the global `name` of m.  Returns NULL when the image has no such
 * variable. */
fake_global *fake_image_global(fake_module *m, const char *name);

/* Frees what fake_image_load allocated (not m itself). */
void fake_image_free(fake_module *m);

/* Aligned, zeroed host allocation of at least `size` bytes (256-byte aligned, like the driver). */
void *fake_aligned_alloc(size_t size);

#endif
