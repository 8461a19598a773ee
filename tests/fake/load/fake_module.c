/*
 * fake_module.c - the fake driver's modules and kernel launches: cuModuleLoadDataEx,
 * cuModuleUnload, cuModuleGetFunction, cuModuleGetGlobal, cuFuncGetParamInfo,
 * cuFuncGetParamCount (13.2), cuFuncGetAttribute and cuLaunchKernel, with the helpers the other areas share (the device-target check, the JIT
 * error log, and launch validation, packing and recording: fake_launch_*).
 *
 * What it models (see fakecuda.c for the whole picture):
 *   - Modules: cubins (ET_EXEC only, SM must match: same major, minor <= the device's, else
 *     CUDA_ERROR_NO_BINARY_FOR_GPU) and PTX (.target must not exceed the device's SM, else
 *     CUDA_ERROR_INVALID_PTX), parsed by fake_image.c.  An unloaded module is kept, dead, so that
 *     stale handles give CUDA_ERROR_INVALID_HANDLE.
 *   - Launches are validated like the driver, recorded with their packed parameters
 *     (fake_g.launches), and run by a registered host implementation of the kernel, if any,
 *     outside the lock.  Into a capturing stream a launch becomes a kernel node instead.
 */
#include "fake_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- modules -------------------------------------------------------------------------------- */

/* Writes msg into the caller's JIT error log, if it passed one. */
void fake_jit_error_log(unsigned n, const CUjit_option *opts, void **vals, const char *msg)
{
    char *buf = NULL;
    size_t cap = 0;
    for (unsigned i = 0; opts && vals && i < n; i++) {
        if (opts[i] == CU_JIT_ERROR_LOG_BUFFER)
            buf = vals[i];
        else if (opts[i] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES)
            cap = (size_t)(uintptr_t)vals[i];
    }
    if (buf && cap)
        snprintf(buf, cap, "%s", msg);
}

CUresult fake_module_check_target(const fake_module *m, char *err, size_t cap)
{
    if (!m->jit && (m->sm / 10 != fake_g.sm / 10 || m->sm % 10 > fake_g.sm % 10)) {
        snprintf(err, cap, "fake: cubin for sm_%u cannot run on sm_%u", m->sm, fake_g.sm);
        return CUDA_ERROR_NO_BINARY_FOR_GPU;
    }
    if (m->jit && m->sm > fake_g.sm) {
        snprintf(err, cap, "fake: PTX .target sm_%u is newer than the device (sm_%u)", m->sm, fake_g.sm);
        return CUDA_ERROR_INVALID_PTX;
    }
    return CUDA_SUCCESS;
}

static CUresult CUDAAPI f_cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned n,
                                             CUjit_option *opts, void **vals)
{
    CUresult rc = fake_enter("cuModuleLoadDataEx", "image=%p numOptions=%u", image, n);
    fake_ctx *ctx = NULL;
    fake_module *m = NULL;
    char err[256] = "";
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(&ctx);
    if (rc == CUDA_SUCCESS && (!module || !image || (n && (!opts || !vals))))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && !(m = calloc(1, sizeof *m)))
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    if (rc == CUDA_SUCCESS)
        rc = (CUresult)fake_image_load(m, image, err, sizeof err);
    if (rc == CUDA_SUCCESS)
        rc = fake_module_check_target(m, err, sizeof err);
    if (rc == CUDA_SUCCESS && fake_vec_push(&fake_g.modules, m) != 0)
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    if (rc == CUDA_SUCCESS) {
        m->ctx = fake_ctx_base(ctx);   /* a green context loads into its primary's modules */
        *module = (CUmodule)m;
        fake_call *call = fake_current_call();
        if (call) {
            size_t len = strlen(call->args);
            snprintf(call->args + len, sizeof call->args - len, " -> %s sm_%u kernels=%u",
                     m->jit ? "ptx" : "cubin", m->sm, m->kernel_count);
        }
    } else {
        if (m) {
            fake_image_free(m);
            free(m);
        }
        fake_jit_error_log(n, opts, vals, err[0] ? err : "fake: load failed");
    }
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuModuleUnload(CUmodule module)
{
    CUresult rc = fake_enter("cuModuleUnload", "module=%p", (void *)module);
    fake_module *m = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_init();
    if (rc == CUDA_SUCCESS && (!(m = fake_find_module(module)) || m->dead))
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS) {
        m->dead = 1;  /* kept, so that stale handles are detected instead of crashing */
        m->freed = 1; /* but its functions are gone: fake_refuse_freed_function_launch */
    }
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuModuleGetFunction(CUfunction *func, CUmodule module, const char *name)
{
    CUresult rc = fake_enter("cuModuleGetFunction", "module=%p name=%s", (void *)module,
                        name ? name : "(null)");
    fake_module *m = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && (!func || !name))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && (!(m = fake_find_module(module)) || m->dead))
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS) {
        rc = CUDA_ERROR_NOT_FOUND;
        for (unsigned i = 0; i < m->kernel_count; i++)
            if (strcmp(m->kernels[i].name, name) == 0) {
                *func = (CUfunction)&m->kernels[i];
                rc = CUDA_SUCCESS;
            }
    }
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuModuleGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUmodule module,
                                            const char *name)
{
    CUresult rc = fake_enter("cuModuleGetGlobal", "module=%p name=%s", (void *)module,
                        name ? name : "(null)");
    fake_module *m = NULL;
    fake_global *gl = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && !name)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && (!(m = fake_find_module(module)) || m->dead))
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS && !(gl = fake_image_global(m, name)))
        rc = CUDA_ERROR_NOT_FOUND;
    if (rc == CUDA_SUCCESS) {
        if (dptr)
            *dptr = (CUdeviceptr)(uintptr_t)gl->storage;
        if (bytes)
            *bytes = gl->size;
    }
    return fake_leave(rc);
}

CUresult fake_live_kernel(CUfunction func, fake_kernel **out)
{
    fake_kernel *k = fake_find_kernel(func);
    if (!k || k->module->dead)
        return CUDA_ERROR_INVALID_HANDLE;
    *out = k;
    return CUDA_SUCCESS;
}

static CUresult CUDAAPI f_cuFuncGetParamInfo(CUfunction func, size_t index, size_t *offset,
                                             size_t *size)
{
    CUresult rc = fake_enter("cuFuncGetParamInfo", "func=%p index=%zu", (void *)func, index);
    fake_kernel *k = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_init();
    if (rc == CUDA_SUCCESS)
        rc = fake_live_kernel(func, &k);
    if (rc == CUDA_SUCCESS && index >= k->param_count)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS) {
        if (offset)
            *offset = k->params[index].offset;
        if (size)
            *size = k->params[index].size;
    }
    return fake_leave(rc);
}

/* The 13.2 entry point: the kernel's parameter count, from the image's parameter table. */
static CUresult CUDAAPI f_cuFuncGetParamCount(CUfunction func, size_t *count)
{
    CUresult rc = fake_enter("cuFuncGetParamCount", "func=%p", (void *)func);
    fake_kernel *k = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_init();
    if (rc == CUDA_SUCCESS && !count)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = fake_live_kernel(func, &k);
    if (rc == CUDA_SUCCESS)
        *count = k->param_count;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuFuncGetAttribute(int *value, CUfunction_attribute attr, CUfunction func)
{
    CUresult rc = fake_enter("cuFuncGetAttribute", "attrib=%d func=%p", (int)attr, (void *)func);
    fake_kernel *k = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_init();
    if (rc == CUDA_SUCCESS && (!value || attr < 0 || attr >= CU_FUNC_ATTRIBUTE_MAX))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = fake_live_kernel(func, &k);
    if (rc == CUDA_SUCCESS) {
        switch (attr) {
        case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
            *value = k->max_threads ? (int)k->max_threads : 1024;
            break;
        case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: *value = (int)k->shared_size; break;
        case CU_FUNC_ATTRIBUTE_NUM_REGS: *value = 16; break;
        case CU_FUNC_ATTRIBUTE_PTX_VERSION: *value = (int)k->module->sm; break;
        case CU_FUNC_ATTRIBUTE_BINARY_VERSION: *value = (int)fake_g.sm; break;
        case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
            *value = 49152 - (int)k->shared_size;
            break;
        case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT: *value = -1; break;
        default: *value = 0; break;
        }
    }
    return fake_leave(rc);
}

/* ---- launch --------------------------------------------------------------------------------- */

CUresult fake_launch_check_dims(const fake_kernel *k, const unsigned grid[3],
                                  const unsigned block[3], unsigned shm)
{
    unsigned long long threads = (unsigned long long)block[0] * block[1] * block[2];
    if (!grid[0] || !grid[1] || !grid[2] || !block[0] || !block[1] || !block[2])
        return CUDA_ERROR_INVALID_VALUE;
    if (block[0] > 1024 || block[1] > 1024 || block[2] > 64 || threads > 1024)
        return CUDA_ERROR_INVALID_VALUE;
    if (grid[0] > 2147483647u || grid[1] > 65535 || grid[2] > 65535)
        return CUDA_ERROR_INVALID_VALUE;
    if (k->max_threads && threads > k->max_threads)
        return CUDA_ERROR_INVALID_VALUE;
    if ((unsigned long long)shm + k->shared_size > 49152)
        return CUDA_ERROR_INVALID_VALUE;
    return CUDA_SUCCESS;
}

/* Packs the parameters into out (k->param_size bytes, zeroed by the caller), from kernelParams
 * through the kernel's layout, or from the `extra` buffer. */
CUresult fake_launch_pack(const fake_kernel *k, void **params, void **extra, unsigned char *out,
                            int *used_extra)
{
    uint32_t need = k->param_count ? k->params[k->param_count - 1].offset +
                                         k->params[k->param_count - 1].size : 0;
    *used_extra = extra != NULL;
    if (params && extra)
        return CUDA_ERROR_INVALID_VALUE;
    if (params) {
        for (unsigned i = 0; i < k->param_count; i++) {
            if (!params[i])
                return CUDA_ERROR_INVALID_VALUE;
            memcpy(out + k->params[i].offset, params[i], k->params[i].size);
        }
        return CUDA_SUCCESS;
    }
    if (!extra)
        return k->param_count ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
    const unsigned char *buf = NULL;
    const size_t *size = NULL;
    for (size_t i = 0; extra[i] != CU_LAUNCH_PARAM_END; i += 2) {
        if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER)
            buf = extra[i + 1];
        else if (extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE)
            size = extra[i + 1];
        else
            return CUDA_ERROR_INVALID_VALUE;
    }
    if (need && (!buf || !size || *size < need))
        return CUDA_ERROR_INVALID_VALUE;
    if (buf && size)
        memcpy(out, buf, *size < k->param_size ? *size : k->param_size);
    return CUDA_SUCCESS;
}

fake_host_kernel fake_host_kernel_for(const char *name)
{
    for (size_t i = 0; i < fake_g.host_kernels.count; i++) {
        fake_host_impl *h = fake_g.host_kernels.items[i];
        if (strcmp(h->name, name) == 0)
            return h->fn;
    }
    return NULL;
}

/* The driver frees a module's functions with the module, and a library's with the library: a
 * launch of one after cuModuleUnload or cuLibraryUnload reads freed memory inside the driver
 * (H200, driver 580, 2026-12-02: SIGSEGV at address 0x68, a launch racing cudaLibraryUnload;
 * a signal 11 in launches racing the dlclose of their kernel's library).  The fake stops the
 * process the same way, with a message, so that a runtime which hands the driver such a
 * function fails here as it would on the GPU.  A function of a context that was reset only
 * gets CUDA_ERROR_INVALID_HANDLE. */
static void fake_refuse_freed_function_launch(CUfunction func)
{
    fake_kernel *k = fake_find_kernel(func);
    if (!k || !k->module->freed)
        return;
    fprintf(stderr, "fakecuda: FATAL: a launch of %s, a function of an unloaded module or "
                    "library (the driver crashes here)\n", k->name);
    abort();
}

CUresult fake_launch_run(CUresult rc, CUfunction func, const unsigned grid[3],
                         const unsigned block[3], unsigned shm, CUstream stream, void **params,
                         void **extra)
{
    fake_ctx *ctx = NULL;
    fake_kernel *k = NULL;
    fake_launch *l = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(&ctx);
    if (rc == CUDA_SUCCESS && (rc = fake_live_kernel(func, &k)) != CUDA_SUCCESS)
        fake_refuse_freed_function_launch(func);
    if (rc == CUDA_SUCCESS && k->module->ctx != fake_ctx_base(ctx))
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS)
        rc = fake_stream_check(stream);
    if (rc == CUDA_SUCCESS)
        rc = fake_launch_check_dims(k, grid, block, shm);
    /* Into a capturing stream: a kernel node of the capture graph, not a launch (logged as a
     * call, recorded in fake_g.launches only when the graph runs). */
    const CUDA_KERNEL_NODE_PARAMS node = {
        .func = func, .gridDimX = grid[0], .gridDimY = grid[1], .gridDimZ = grid[2],
        .blockDimX = block[0], .blockDimY = block[1], .blockDimZ = block[2],
        .sharedMemBytes = shm, .kernelParams = params, .extra = extra,
    };
    if (rc == CUDA_SUCCESS && fake_capture_kernel(stream, &node, &rc))
        return fake_leave(rc);
    if (rc == CUDA_SUCCESS && (!(l = calloc(1, sizeof *l)) ||
                               !(l->params = calloc(k->param_size + 1, 1))))
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    if (rc == CUDA_SUCCESS)
        rc = fake_launch_pack(k, params, extra, l->params, &l->used_extra);
    if (rc == CUDA_SUCCESS && fake_vec_push(&fake_g.launches, l) != 0)
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    if (rc != CUDA_SUCCESS) {
        if (l)
            free(l->params);
        free(l);
        return fake_leave(rc);
    }
    snprintf(l->kernel, sizeof l->kernel, "%s", k->name);
    memcpy(l->grid, grid, sizeof l->grid);
    memcpy(l->block, block, sizeof l->block);
    l->shared_mem = shm;
    l->stream = (uintptr_t)stream;
    l->params_size = k->param_size;
    l->module = (uintptr_t)k->module;
    l->module_sm = k->module->sm;
    l->module_jit = k->module->jit;
    l->sm_count = fake_stream_sms(stream, &l->green_ctx);
    fake_host_kernel fn = fake_host_kernel_for(k->name);
    fake_leave(rc);
    if (fn)
        fn(l->params, l->params_size, l->grid, l->block);
    return CUDA_SUCCESS;
}

static CUresult CUDAAPI f_cuLaunchKernel(CUfunction func, unsigned gx, unsigned gy, unsigned gz,
                                         unsigned bx, unsigned by, unsigned bz, unsigned shm,
                                         CUstream stream, void **params, void **extra)
{
    CUresult rc = fake_enter("cuLaunchKernel",
                        "func=%p grid=(%u,%u,%u) block=(%u,%u,%u) shm=%u stream=%p %s",
                        (void *)func, gx, gy, gz, bx, by, bz, shm, (void *)stream,
                        params ? "kernelParams" : extra ? "extra" : "no-params");
    const unsigned grid[3] = {gx, gy, gz}, block[3] = {bx, by, bz};
    return fake_launch_run(rc, func, grid, block, shm, stream, params, extra);
}

const proc_entry fake_procs_module[] = {
    {"cuModuleLoadDataEx", 2010, 99999, (void *)f_cuModuleLoadDataEx},
    {"cuModuleUnload", 2000, 99999, (void *)f_cuModuleUnload},
    {"cuModuleGetFunction", 2000, 99999, (void *)f_cuModuleGetFunction},
    {"cuModuleGetGlobal", 3020, 99999, (void *)f_cuModuleGetGlobal},
    {"cuFuncGetParamInfo", 12040, 99999, (void *)f_cuFuncGetParamInfo},
    {"cuFuncGetParamCount", 13020, 99999, (void *)f_cuFuncGetParamCount},
    {"cuFuncGetAttribute", 2020, 99999, (void *)f_cuFuncGetAttribute},
    {"cuLaunchKernel", 4000, 99999, (void *)f_cuLaunchKernel},
    {NULL, 0, 0, NULL},
};
