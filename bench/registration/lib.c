/*
 * lib.c - the registering part of the benchmark's library: what nvcc's constructor does in each
 * translation unit (the __sti____cudaRegisterAll of `nvcc -cuda`), for every unit of the
 * generated units_*.S, in their order:
 *
 *   handle = __cudaRegisterFatBinary(&wrapper);
 *   __cudaRegisterFunction(handle, stub, "mangled", "mangled", -1, 0, 0, 0, 0, 0);   per kernel
 *   __cudaRegisterFatBinaryEnd(handle);
 *   atexit(unregister)                                      (here: one for all units)
 *
 * What it registers is chosen when it loads, by the environment (regbench.c sets it), so that one
 * library gives all three figures: REGBENCH_MODE=0 registers nothing (the loader's own cost: the
 * same library, symbols and relocations), 1 the fatbins only, 2 (or unset) fatbins and kernels.
 */
#define _POSIX_C_SOURCE 200809L
#include <stddef.h>
#include <stdlib.h>
#include <time.h>

void **__cudaRegisterFatBinary(void *fatCubin);
void __cudaRegisterFatBinaryEnd(void **handle);
void __cudaUnregisterFatBinary(void **handle);
void __cudaRegisterFunction(void **handle, const char *hostFun, char *deviceFun,
                            const char *deviceName, int threadLimit, void *tid, void *bid,
                            void *bDim, void *gDim, int *wSize);

struct rb_kernel {
    const char *stub;             /* the exported host stub: its address is the key */
    const char *name;             /* the mangled name, as in the fatbin */
};
struct rb_unit {
    void *wrapper;
    const struct rb_kernel *kernels;
    size_t count;
};
extern const struct rb_unit rb_units[];      /* table.S */
extern const int rb_unit_count;

enum { RB_MAX_UNITS = 100000 };
static void **rb_handles[RB_MAX_UNITS];

/* Fatbins registered with a handle back: the driver reads it, to show that the runtime under
 * test registered them (a runtime that answers NULL registered nothing). */
__attribute__((visibility("default"))) int regbench_handles;
/* The library's size, for the report. */
__attribute__((visibility("default"))) int regbench_fatbins, regbench_kernels;
/* The constructor's own time: the registration calls without the loader's work around them. */
__attribute__((visibility("default"))) double regbench_register_ms;

static void rb_unregister_all(void)
{
    for (int u = rb_unit_count; u-- > 0;)
        if (rb_handles[u])
            __cudaUnregisterFatBinary(rb_handles[u]);
}

__attribute__((constructor)) static void rb_register_all(void)
{
    regbench_fatbins = rb_unit_count;
    for (int u = 0; u < rb_unit_count; u++)
        regbench_kernels += (int)rb_units[u].count;
    const char *env = getenv("REGBENCH_MODE");
    int mode = env ? atoi(env) : 2;
    if (mode == 0 || rb_unit_count > RB_MAX_UNITS)
        return;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int u = 0; u < rb_unit_count; u++) {
        const struct rb_unit *unit = &rb_units[u];
        void **h = __cudaRegisterFatBinary(unit->wrapper);
        for (size_t k = 0; mode == 2 && k < unit->count; k++)
            __cudaRegisterFunction(h, unit->kernels[k].stub, (char *)unit->kernels[k].name,
                                   unit->kernels[k].name, -1, NULL, NULL, NULL, NULL, NULL);
        __cudaRegisterFatBinaryEnd(h);
        rb_handles[u] = h;
        regbench_handles += h != NULL;
    }
    atexit(rb_unregister_all);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    regbench_register_ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 +
                           (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
}
