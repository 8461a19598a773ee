/*
 * fake_library.c - the fake driver's libraries (see fake_internal.h): cuLibraryLoadData,
 * cuLibraryLoadFromFile, cuLibraryUnload, cuLibraryGetKernel, cuLibraryGetKernelCount,
 * cuLibraryEnumerateKernels, cuLibraryGetGlobal, cuLibraryGetManaged,
 * cuLibraryGetUnifiedFunction, cuLibraryGetModule, cuKernelGetFunction, cuKernelGetName,
 * cuKernelGetParamCount (13.2), cuKernelSetAttribute.
 *
 * Models, and how strictly:
 *   - A library is context-independent: loading one needs an initialised driver, no context.
 *     Its image (cubin or PTX text, as cuModuleLoadDataEx takes; a fatbin is refused the same
 *     way) is read once, at load, by fake_image_load; bad images fail there with that code, and
 *     the message goes to CU_JIT_ERROR_LOG_BUFFER.  That first reading is the library's own
 *     module: context-less (ctx NULL), it lists the kernels and holds the managed variables,
 *     which are shared by every context.
 *   - A CUkernel is the address of a fake_lib_kernel of the library.  cuKernelGetFunction loads
 *     the image into the current context on first use there (a fake_module like
 *     cuModuleLoadDataEx's, in fake_g.modules with that context, so launches, attributes and
 *     resets treat it like any module) and hands out that module's kernel; after a reset of the
 *     context it loads again.  cuLibraryGetGlobal does the same for globals: per context.
 *   - cuLibraryGetManaged finds the managed variables of the library's own reading: PTX globals
 *     declared .attribute(.managed), cubin symbols marked managed (st_other 4).  cuLibraryGetModule
 *     hands out the library's module in the current context (the same per-context module
 *     cuKernelGetFunction and cuLibraryGetGlobal use).  Unified functions are not modelled at all:
 *     cuLibraryGetUnifiedFunction answers NOT_FOUND for every symbol of a live library, as the
 *     driver does on devices without unified function pointers.
 *   - cuKernelSetAttribute validates like cuFuncSetAttribute (attributes 8..15, dynamic shared
 *     memory up to 232448 bytes with the static, carveout -1..100) and a device, and remembers
 *     the value per kernel and device; nothing reads it back.
 *   - Unloading marks the library and its per-context modules dead; they are kept, so that stale
 *     handles are detected (INVALID_HANDLE) instead of crashing -- but for a launch of one of
 *     their functions, which stops the process as the driver's crash does (fake_launch_run).
 * The options of a load are logged as "jit=[opt:value ...] lib=[opt:value ...]", so that tests
 * can see what the runtime passed.
 */
#include "fake_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FAKE_SETTABLE_FIRST CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
#define FAKE_SETTABLE_LAST CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE
#define FAKE_MAX_FILE (64u << 20)

struct fake_library;

typedef struct fake_lib_kernel {
    struct fake_library *library;
    unsigned index;                       /* in the library's image module */
    unsigned set[FAKE_MAX_DEVICES];       /* bit a: attribute a set by cuKernelSetAttribute */
    int value[FAKE_MAX_DEVICES][FAKE_SETTABLE_LAST + 1];
} fake_lib_kernel;

typedef struct fake_library {
    fake_module *image;                   /* the context-less reading; in fake_g.modules */
    fake_lib_kernel *kernels;             /* [image->kernel_count] */
    ptr_vec loaded;                       /* fake_module * per context it was loaded into */
    int dead;
} fake_library;

static ptr_vec libraries;

/* ---- handles -------------------------------------------------------------------------------- */

static fake_library *live_library(CUlibrary handle)
{
    for (size_t i = 0; i < libraries.count; i++)
        if (libraries.items[i] == (void *)handle)
            return ((fake_library *)handle)->dead ? NULL : (fake_library *)handle;
    return NULL;
}

static int was_library(CUlibrary handle)
{
    for (size_t i = 0; i < libraries.count; i++)
        if (libraries.items[i] == (void *)handle)
            return 1;
    return 0;
}

static fake_lib_kernel *live_kernel(CUkernel handle)
{
    for (size_t i = 0; i < libraries.count; i++) {
        fake_library *l = libraries.items[i];
        if (!l->dead && l->image->kernel_count && (fake_lib_kernel *)handle >= l->kernels &&
            (fake_lib_kernel *)handle < l->kernels + l->image->kernel_count)
            return (fake_lib_kernel *)handle;
    }
    return NULL;
}

/* The library loaded into context ctx, loaded now if it is not (or its context was reset). */
static CUresult library_in(fake_library *l, fake_ctx *ctx, fake_module **out)
{
    for (size_t i = 0; i < l->loaded.count; i++) {
        fake_module *m = l->loaded.items[i];
        if (m->ctx == ctx && !m->dead) {
            *out = m;
            return CUDA_SUCCESS;
        }
    }
    char err[256];
    fake_module *m = calloc(1, sizeof *m);
    if (!m)
        return CUDA_ERROR_OUT_OF_MEMORY;
    CUresult rc = (CUresult)fake_image_load(m, l->image->image, err, sizeof err);
    if (rc == CUDA_SUCCESS && fake_vec_push(&l->loaded, m) != 0)
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    if (rc == CUDA_SUCCESS && fake_vec_push(&fake_g.modules, m) != 0) {
        l->loaded.count--;
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    }
    if (rc != CUDA_SUCCESS) {
        fake_image_free(m);
        free(m);
        return rc;
    }
    m->ctx = ctx;
    *out = m;
    return CUDA_SUCCESS;
}

/* ---- loading -------------------------------------------------------------------------------- */

/* "jit=[o:v ...] lib=[o:v ...]" for the call log. */
static void options_text(char *out, size_t cap, unsigned n, const CUjit_option *opts,
                         void **vals, unsigned nlib, const CUlibraryOption *lopts, void **lvals)
{
    size_t used = (size_t)snprintf(out, cap, "jit=[");
    for (unsigned i = 0; opts && vals && i < n && used < cap; i++)
        used += (size_t)snprintf(out + used, cap - used, "%s%d:%llu", i ? " " : "", (int)opts[i],
                                 (unsigned long long)(uintptr_t)vals[i]);
    if (used < cap)
        used += (size_t)snprintf(out + used, cap - used, "] lib=[");
    for (unsigned i = 0; lopts && lvals && i < nlib && used < cap; i++)
        used += (size_t)snprintf(out + used, cap - used, "%s%d:%llu", i ? " " : "", (int)lopts[i],
                                 (unsigned long long)(uintptr_t)lvals[i]);
    if (used < cap)
        snprintf(out + used, cap - used, "]");
}

/* The common load, with the lock held; image is the code (or the file's contents). */
static CUresult library_load(CUlibrary *library, const void *image, unsigned n,
                             CUjit_option *opts, void **vals, unsigned nlib,
                             CUlibraryOption *lopts, void **lvals)
{
    CUresult rc = fake_need_init();
    if (rc == CUDA_SUCCESS && (!library || !image || (n && (!opts || !vals)) ||
                               (nlib && !lopts)))
        rc = CUDA_ERROR_INVALID_VALUE;
    for (unsigned i = 0; rc == CUDA_SUCCESS && i < n; i++)
        if ((int)opts[i] < 0 || opts[i] >= CU_JIT_NUM_OPTIONS)
            rc = CUDA_ERROR_INVALID_VALUE;
    for (unsigned i = 0; rc == CUDA_SUCCESS && i < nlib; i++)
        if ((int)lopts[i] < 0 || lopts[i] >= CU_LIBRARY_NUM_OPTIONS)
            rc = CUDA_ERROR_INVALID_VALUE;
    if (rc != CUDA_SUCCESS)
        return rc;
    char err[256] = "";
    fake_library *l = calloc(1, sizeof *l);
    fake_module *m = calloc(1, sizeof *m);
    if (!l || !m)
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    if (rc == CUDA_SUCCESS)
        rc = (CUresult)fake_image_load(m, image, err, sizeof err);
    if (rc == CUDA_SUCCESS)
        rc = fake_module_check_target(m, err, sizeof err);
    if (rc == CUDA_SUCCESS &&
        !(l->kernels = calloc(m->kernel_count ? m->kernel_count : 1, sizeof *l->kernels)))
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    if (rc == CUDA_SUCCESS && fake_vec_push(&libraries, l) != 0)
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    if (rc == CUDA_SUCCESS && fake_vec_push(&fake_g.modules, m) != 0) {
        libraries.count--;
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    }
    if (rc != CUDA_SUCCESS) {
        if (m)
            fake_image_free(m);
        free(m);
        if (l)
            free(l->kernels);
        free(l);
        fake_jit_error_log(n, opts, vals, err[0] ? err : "fake: library load failed");
        return rc;
    }
    l->image = m;
    for (unsigned i = 0; i < m->kernel_count; i++) {
        l->kernels[i].library = l;
        l->kernels[i].index = i;
    }
    *library = (CUlibrary)l;
    return CUDA_SUCCESS;
}

static CUresult CUDAAPI f_cuLibraryLoadData(CUlibrary *library, const void *code,
                                            CUjit_option *opts, void **vals, unsigned n,
                                            CUlibraryOption *lopts, void **lvals, unsigned nlib)
{
    char text[160];
    options_text(text, sizeof text, n, opts, vals, nlib, lopts, lvals);
    CUresult rc = fake_enter("cuLibraryLoadData", "code=%p %s", code, text);
    if (rc == CUDA_SUCCESS)
        rc = library_load(library, code, n, opts, vals, nlib, lopts, lvals);
    return fake_leave(rc);
}

/* The whole file, NUL-terminated (PTX text needs it); NULL when it cannot be read. */
static unsigned char *read_file(const char *path, CUresult *rc)
{
    FILE *f = path ? fopen(path, "rb") : NULL;
    *rc = CUDA_ERROR_FILE_NOT_FOUND;
    if (!f)
        return NULL;
    unsigned char *data = malloc(FAKE_MAX_FILE + 1);
    size_t n = data ? fread(data, 1, FAKE_MAX_FILE, f) : 0;
    fclose(f);
    if (!data || n == 0) {
        free(data);
        *rc = data ? CUDA_ERROR_INVALID_IMAGE : CUDA_ERROR_OUT_OF_MEMORY;
        return NULL;
    }
    data[n] = 0;
    *rc = CUDA_SUCCESS;
    return data;
}

static CUresult CUDAAPI f_cuLibraryLoadFromFile(CUlibrary *library, const char *path,
                                                CUjit_option *opts, void **vals, unsigned n,
                                                CUlibraryOption *lopts, void **lvals,
                                                unsigned nlib)
{
    char text[160];
    options_text(text, sizeof text, n, opts, vals, nlib, lopts, lvals);
    CUresult rc = fake_enter("cuLibraryLoadFromFile", "file=%s %s", path ? path : "(null)",
                             text);
    unsigned char *data = NULL;
    if (rc == CUDA_SUCCESS && (!library || !path))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        data = read_file(path, &rc);
    if (rc == CUDA_SUCCESS)
        rc = library_load(library, data, n, opts, vals, nlib, lopts, lvals);
    free(data);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuLibraryUnload(CUlibrary library)
{
    CUresult rc = fake_enter("cuLibraryUnload", "library=%p", (void *)library);
    fake_library *l = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_init();
    if (rc == CUDA_SUCCESS && !(l = live_library(library)))
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS) {
        l->dead = 1;
        l->image->dead = 1;
        for (size_t i = 0; i < l->loaded.count; i++) {
            ((fake_module *)l->loaded.items[i])->dead = 1;
            ((fake_module *)l->loaded.items[i])->freed = 1;
        }
    }
    return fake_leave(rc);
}

/* ---- kernels -------------------------------------------------------------------------------- */

static CUresult CUDAAPI f_cuLibraryGetKernel(CUkernel *kernel, CUlibrary library, const char *name)
{
    CUresult rc = fake_enter("cuLibraryGetKernel", "library=%p name=%s", (void *)library,
                             name ? name : "(null)");
    fake_library *l = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_init();
    if (rc == CUDA_SUCCESS && (!kernel || !name))
        rc = CUDA_ERROR_INVALID_VALUE;
    /* An unloaded library has no kernels left: NOT_FOUND, as the driver answers (H200). */
    if (rc == CUDA_SUCCESS && !(l = live_library(library)))
        rc = was_library(library) ? CUDA_ERROR_NOT_FOUND : CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS) {
        rc = CUDA_ERROR_NOT_FOUND;
        for (unsigned i = 0; i < l->image->kernel_count; i++)
            if (strcmp(l->image->kernels[i].name, name) == 0) {
                *kernel = (CUkernel)&l->kernels[i];
                rc = CUDA_SUCCESS;
            }
    }
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuLibraryGetKernelCount(unsigned *count, CUlibrary library)
{
    CUresult rc = fake_enter("cuLibraryGetKernelCount", "library=%p", (void *)library);
    fake_library *l = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_init();
    if (rc == CUDA_SUCCESS && !count)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && !(l = live_library(library)))
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS)
        *count = l->image->kernel_count;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuLibraryEnumerateKernels(CUkernel *kernels, unsigned n,
                                                    CUlibrary library)
{
    CUresult rc = fake_enter("cuLibraryEnumerateKernels", "numKernels=%u library=%p", n,
                             (void *)library);
    fake_library *l = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_init();
    if (rc == CUDA_SUCCESS && !kernels)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && !(l = live_library(library)))
        rc = CUDA_ERROR_INVALID_HANDLE;
    for (unsigned i = 0; rc == CUDA_SUCCESS && i < n && i < l->image->kernel_count; i++)
        kernels[i] = (CUkernel)&l->kernels[i];
    return fake_leave(rc);
}

CUresult fake_kernel_function(CUkernel kernel, CUfunction *func)
{
    fake_ctx *ctx = NULL;
    fake_lib_kernel *k = NULL;
    fake_module *m = NULL;
    CUresult rc = fake_need_ctx(&ctx);
    if (rc == CUDA_SUCCESS && !(k = live_kernel(kernel)))
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS)
        rc = library_in(k->library, fake_ctx_base(ctx), &m);
    if (rc == CUDA_SUCCESS)
        *func = (CUfunction)&m->kernels[k->index];
    return rc;
}

static CUresult CUDAAPI f_cuKernelGetFunction(CUfunction *func, CUkernel kernel)
{
    CUresult rc = fake_enter("cuKernelGetFunction", "kernel=%p", (void *)kernel);
    fake_ctx *ctx = NULL;
    fake_lib_kernel *k = NULL;
    fake_module *m = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(&ctx);
    if (rc == CUDA_SUCCESS && !func)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && !(k = live_kernel(kernel)))
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS)
        rc = library_in(k->library, fake_ctx_base(ctx), &m);
    if (rc == CUDA_SUCCESS)
        *func = (CUfunction)&m->kernels[k->index];
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuKernelGetName(const char **name, CUkernel kernel)
{
    CUresult rc = fake_enter("cuKernelGetName", "kernel=%p", (void *)kernel);
    fake_lib_kernel *k = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_init();
    if (rc == CUDA_SUCCESS && !name)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && !(k = live_kernel(kernel)))
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS)
        *name = k->library->image->kernels[k->index].name;
    return fake_leave(rc);
}

/* The 13.2 entry point: from the library's own reading of the image; no context needed, as a
 * CUkernel is context-independent. */
static CUresult CUDAAPI f_cuKernelGetParamCount(CUkernel kernel, size_t *count)
{
    CUresult rc = fake_enter("cuKernelGetParamCount", "kernel=%p", (void *)kernel);
    fake_lib_kernel *k = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_init();
    if (rc == CUDA_SUCCESS && !count)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && !(k = live_kernel(kernel)))
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS)
        *count = k->library->image->kernels[k->index].param_count;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuKernelSetAttribute(CUfunction_attribute attr, int value,
                                               CUkernel kernel, CUdevice dev)
{
    CUresult rc = fake_enter("cuKernelSetAttribute", "attrib=%d val=%d kernel=%p dev=%d",
                             (int)attr, value, (void *)kernel, dev);
    fake_lib_kernel *k = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_device(dev);
    if (rc == CUDA_SUCCESS && !(k = live_kernel(kernel)))
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS && (attr < FAKE_SETTABLE_FIRST || attr > FAKE_SETTABLE_LAST))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && attr == CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES &&
        (value < 0 ||
         (long long)value + (long long)k->library->image->kernels[k->index].shared_size > 232448))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && attr == CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT &&
        (value < -1 || value > 100))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS) {
        k->value[dev][attr] = value;
        k->set[dev] |= 1u << attr;
    }
    return fake_leave(rc);
}

/* ---- globals, managed variables, unified functions ------------------------------------------ */

static CUresult CUDAAPI f_cuLibraryGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUlibrary library,
                                             const char *name)
{
    CUresult rc = fake_enter("cuLibraryGetGlobal", "library=%p name=%s", (void *)library,
                             name ? name : "(null)");
    fake_ctx *ctx = NULL;
    fake_library *l = NULL;
    fake_module *m = NULL;
    fake_global *g = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(&ctx);
    if (rc == CUDA_SUCCESS && (!name || (!dptr && !bytes)))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && !(l = live_library(library)))
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS)
        rc = library_in(l, fake_ctx_base(ctx), &m);
    if (rc == CUDA_SUCCESS && !(g = fake_image_global(m, name)))
        rc = CUDA_ERROR_NOT_FOUND;
    if (rc == CUDA_SUCCESS) {
        if (dptr)
            *dptr = (CUdeviceptr)(uintptr_t)g->storage;
        if (bytes)
            *bytes = g->size;
    }
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuLibraryGetManaged(CUdeviceptr *dptr, size_t *bytes,
                                              CUlibrary library, const char *name)
{
    CUresult rc = fake_enter("cuLibraryGetManaged", "library=%p name=%s", (void *)library,
                             name ? name : "(null)");
    fake_library *l = NULL;
    fake_global *g = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_init();
    if (rc == CUDA_SUCCESS && (!name || (!dptr && !bytes)))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && !(l = live_library(library)))
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS && (!(g = fake_image_global(l->image, name)) || !g->managed))
        rc = CUDA_ERROR_NOT_FOUND;
    if (rc == CUDA_SUCCESS) {
        if (dptr)
            *dptr = (CUdeviceptr)(uintptr_t)g->storage;
        if (bytes)
            *bytes = g->size;
    }
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuLibraryGetModule(CUmodule *module, CUlibrary library)
{
    CUresult rc = fake_enter("cuLibraryGetModule", "library=%p", (void *)library);
    fake_ctx *ctx = NULL;
    fake_library *l = NULL;
    fake_module *m = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(&ctx);
    if (rc == CUDA_SUCCESS && !module)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && !(l = live_library(library)))
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS)
        rc = library_in(l, fake_ctx_base(ctx), &m);
    if (rc == CUDA_SUCCESS)
        *module = (CUmodule)m;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuLibraryGetUnifiedFunction(void **fptr, CUlibrary library,
                                                      const char *symbol)
{
    CUresult rc = fake_enter("cuLibraryGetUnifiedFunction", "library=%p symbol=%s",
                             (void *)library, symbol ? symbol : "(null)");
    if (rc == CUDA_SUCCESS)
        rc = fake_need_init();
    if (rc == CUDA_SUCCESS && (!fptr || !symbol))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && !live_library(library))
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS)
        rc = CUDA_ERROR_NOT_FOUND;          /* unified functions are not modelled */
    return fake_leave(rc);
}

const proc_entry fake_procs_library[] = {
    {"cuLibraryLoadData", 12000, 99999, (void *)f_cuLibraryLoadData},
    {"cuLibraryLoadFromFile", 12000, 99999, (void *)f_cuLibraryLoadFromFile},
    {"cuLibraryUnload", 12000, 99999, (void *)f_cuLibraryUnload},
    {"cuLibraryGetKernel", 12000, 99999, (void *)f_cuLibraryGetKernel},
    {"cuLibraryGetKernelCount", 12040, 99999, (void *)f_cuLibraryGetKernelCount},
    {"cuLibraryEnumerateKernels", 12040, 99999, (void *)f_cuLibraryEnumerateKernels},
    {"cuLibraryGetGlobal", 12000, 99999, (void *)f_cuLibraryGetGlobal},
    {"cuLibraryGetManaged", 12000, 99999, (void *)f_cuLibraryGetManaged},
    {"cuLibraryGetUnifiedFunction", 12000, 99999, (void *)f_cuLibraryGetUnifiedFunction},
    {"cuLibraryGetModule", 12000, 99999, (void *)f_cuLibraryGetModule},
    {"cuKernelGetFunction", 12000, 99999, (void *)f_cuKernelGetFunction},
    {"cuKernelGetName", 12030, 99999, (void *)f_cuKernelGetName},
    {"cuKernelGetParamCount", 13020, 99999, (void *)f_cuKernelGetParamCount},
    {"cuKernelSetAttribute", 12000, 99999, (void *)f_cuKernelSetAttribute},
    {NULL, 0, 0, NULL},
};
