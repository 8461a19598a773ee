/*
 * module.c - first use of a module on a device: choose, decompress, load, resolve.
 *
 * Under lazy loading (the default, as in NVIDIA's runtime) nothing is loaded until a kernel or
 * variable of the module is first used on a device.  Then:
 *
 *   1. choose the image for the device's SM with the fatbin library: the best SASS, else PTX to
 *      JIT (MINICUDART_FORCE_PTX=1 skips SASS), else cudaErrorNoKernelImageForDevice;
 *   2. decompress it (zstd, LZ4, zlib) unless it is stored plain;
 *   3. load it into the device's primary context with cuModuleLoadDataEx;
 *   4. per kernel, at its first launch: cuModuleGetFunction, then its parameter layout.
 *
 * Why cuModuleLoadDataEx and not cuLibraryLoadData: the runtime chooses the image itself (so it
 * can say which and why, and report "no image" at the first launch with the right code), so the
 * library API's main gift, letting the driver choose and share one library across devices, buys
 * nothing here.  A module belongs to one context, which is exactly the lifetime the runtime
 * needs: cudaDeviceReset destroys it with the context, and the generation counter reloads it on
 * next use.  cuModuleLoadDataEx also takes the JIT options that bring the JIT's error log back.
 * Two kinds of module do need the library (module_link.c): those with __managed__ variables (one
 * instance shared by every device) and those given a unified table.  An -rdc image with nothing
 * for the device is JIT-linked from its objects first (module_link.c too).
 *
 * CUDA_MODULE_LOADING=EAGER loads every module (and resolves every kernel) when a device's
 * context is initialised; modules with __managed__ variables are always loaded then, because
 * host code may read those variables before any launch.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "module.h"

static pthread_mutex_t rt_load_lock = PTHREAD_MUTEX_INITIALIZER;

static bool rt_env_is(const char *name, const char *value)
{
    const char *v = getenv(name);
    return v && strcmp(v, value) == 0;
}

bool rt_force_ptx(void)
{
    const char *v = getenv("MINICUDART_FORCE_PTX");
    return v && *v && strcmp(v, "0") != 0;
}


/* Steps 1-2: chooses the entry and produces its image.  On success *image is what to hand the
 * driver (NUL-terminated when PTX) and md->image owns it when it had to be allocated. */
static cudaError_t rt_module_image(rt_module *m, rt_device *d, rt_module_dev *md,
                                   fatbin_entry *entry, const void **image, size_t *size)
{
    fatbin_container c;
    fatbin_choice choice;
    fatbin_error err;
    uint64_t span = rt_span_begin();
    if (!m->wrapper_ok || fatbin_container_open(&c, m->fw.data, SIZE_MAX, &err) != FATBIN_OK ||
        fatbin_choose(&c, d->sm, rt_force_ptx(), &choice, &err) != FATBIN_OK) {
        RT_SPAN_END(span, "choose image", "\"found\":false");
        RT_TRACE("module %p: malformed fatbin: %s (at offset %zu)", m->wrapper,
                 m->wrapper_ok ? err.message : "bad wrapper", m->wrapper_ok ? err.offset : 0);
        return cudaErrorInvalidKernelImage;
    }
    RT_SPAN_END(span, "choose image", "\"sm\":%u,\"found\":%s", d->sm,
                choice.found ? "true" : "false");
    RT_TRACE("module %p on device %d (sm_%u): %s", m->wrapper, d->ordinal, d->sm,
             choice.reason);
    if (!choice.found)
        return cudaErrorNoKernelImageForDevice;
    *entry = choice.entry;
    return rt_entry_image(m->wrapper, entry, &md->image, image, size);
}

cudaError_t rt_entry_image(const void *wrapper, const fatbin_entry *entry, void **owned,
                           const void **image, size_t *size)
{
    fatbin_error err;
    bool compressed = (entry->flags & FATBIN_FLAG_COMPRESSION_MASK) != 0;
    bool is_ptx = entry->kind == FATBIN_KIND_PTX;
    if (!compressed && (!is_ptx || memchr(entry->payload, 0, entry->payload_size))) {
        /* Stored plain (and, for PTX, NUL-terminated inside its padding): load it in place. */
        *image = entry->payload;
        *size = entry->payload_size;
        return cudaSuccess;
    }

    uint64_t want = fatbin_entry_image_size(entry);
    if (want > SIZE_MAX - 1)
        return cudaErrorInvalidKernelImage;
    char *out = malloc((size_t)want + 1);
    if (!out)
        return cudaErrorMemoryAllocation;
    size_t produced = 0;
    uint64_t t0 = rt_now_ns();
    uint64_t span = rt_span_begin();
    int extracted = fatbin_entry_extract(entry, out, (size_t)want + 1, &produced, &err);
    RT_SPAN_END(span, "decompress", "\"algorithm\":\"%s\",\"in\":%u,\"out\":%zu",
                fatbin_compression_name(entry->flags), entry->compressed_size, produced);
    if (extracted != FATBIN_OK) {
        RT_TRACE("module %p: cannot decompress entry at offset %zu: %s", wrapper,
                 entry->offset, err.message);
        free(out);
        return cudaErrorInvalidKernelImage;
    }
    out[produced] = '\0';     /* PTX must be NUL-terminated for the driver */
    RT_TRACE("module %p: decompressed %s %u -> %zu bytes in %.1f us", wrapper,
             fatbin_compression_name(entry->flags), entry->compressed_size, produced,
             (double)(rt_now_ns() - t0) / 1e3);
    free(*owned);
    *owned = out;
    *image = out;
    *size = produced;
    return cudaSuccess;
}

/* Step 3: loads the image into the current (primary) context.  A JIT failure's log goes to the
 * trace.  *what names the image for the timeline ("SASS sm_90", "PTX compute_90"). */
static cudaError_t rt_module_load_image(rt_module *m, rt_device *d, rt_module_dev *md,
                                        char *what, size_t what_size)
{
    fatbin_entry entry = { .kind = FATBIN_KIND_ELF, .offset = RT_IMAGE_LINKED };
    const void *image = NULL;
    size_t size = 0;
    rt_load_options o;
    cudaError_t e = rt_load_options_init(&o, m);
    if (e != cudaSuccess)
        return e;
    e = rt_module_image(m, d, md, &entry, &image, &size);
    char arch[32];
    if (e == cudaErrorNoKernelImageForDevice && rt_module_linkable(m)) {
        e = rt_module_link(m, d, md, &o, &image, &size);
        snprintf(arch, sizeof arch, "sm_%u (JIT-linked)", d->sm);
    } else if (e == cudaSuccess) {
        fatbin_arch_name(&entry, arch, sizeof arch);
    }
    if (e != cudaSuccess) {
        rt_load_options_free(&o);
        return e;
    }
    snprintf(what, what_size, "%s %s", entry.kind == FATBIN_KIND_PTX ? "PTX" : "SASS", arch);

    uint64_t t0 = rt_now_ns();
    uint64_t span = rt_span_begin();
    CUresult r = rt_module_load_driver(m, md, image, entry.offset, &o);
    RT_SPAN_END(span, entry.kind == FATBIN_KIND_PTX ? "JIT PTX" : "cuModuleLoadData",
                "\"image\":\"%s\",\"bytes\":%zu,\"result\":%d", what, size, (int)r);
    uint64_t load_ns = rt_now_ns() - t0;
    double ms = (double)load_ns / 1e6;
    if (r != CUDA_SUCCESS) {
        e = rt_error_from_cu(r);
        RT_TRACE("module %p: loading %s %s failed: %s (%d)%s%s", m->wrapper,
                 entry.kind == FATBIN_KIND_PTX ? "PTX" : "cubin", arch, rt_error_name(e),
                 (int)r, o.log[0] ? "; JIT log: " : "", o.log);
        rt_load_options_free(&o);
        md->module = NULL;
        return e;
    }
    rt_load_options_free(&o);
    if (rt_summary_on())
        rt_summary_load(entry.kind == FATBIN_KIND_PTX ? 1 : entry.offset == RT_IMAGE_LINKED ? 2 : 0,
                        load_ns);
    RT_TRACE("module %p: loaded %s %s (%zu bytes) in %.3f ms%s%s", m->wrapper,
             entry.kind == FATBIN_KIND_PTX ? "PTX" : "cubin", arch, size, ms,
             entry.kind == FATBIN_KIND_PTX ? " (JIT-compiled by the driver)" : "",
             md->from_library ? " into the module's library" : "");
    if (entry.kind == FATBIN_KIND_ELF) {
        md->cubin = image;
        md->cubin_size = size;
    } else if (entry.kind == FATBIN_KIND_PTX) {
        md->ptx = image;            /* md->image, or the payload inside the registered fatbin */
        md->ptx_size = size;
    }
    return cudaSuccess;
}

static cudaError_t rt_module_load(rt_module *m, rt_device *d, rt_module_dev *md)
{
    uint64_t span = rt_span_begin();
    char what[48] = "none";
    cudaError_t e = rt_module_load_image(m, d, md, what, sizeof what);
    RT_SPAN_END(span, "module load", "\"module\":\"%p\",\"device\":%d,\"image\":\"%s\","
                "\"result\":\"%s\"", m->wrapper, d->ordinal, what, rt_error_name(e));
    return e;
}

/* Stores each managed variable's unified address in its host pointer slot: host code reads
 * and writes __managed__ variables through those slots.  The module was loaded through its
 * library, which has one instance of each (cuLibraryGetManaged), shared by the host and every
 * device, as with NVIDIA's runtime; the slot is the same whichever device binds it.  (Only a
 * device that chose another image than the library's has a module, and instance, of its own.) */
static cudaError_t rt_module_bind_managed(rt_module *m, rt_module_dev *md)
{
    for (rt_var *v = m->vars; v; v = v->next) {
        if (!v->managed)
            continue;
        CUdeviceptr ptr = 0;
        size_t bytes = 0;
        CUresult r = rt_module_managed_address(m, md, v, &ptr, &bytes);
        if (r != CUDA_SUCCESS) {
            RT_TRACE("managed variable %s: %s", v->name, rt_error_name(rt_error_from_cu(r)));
            return rt_error_from_cu(r);
        }
        *(void **)(uintptr_t)v->host_var = (void *)(uintptr_t)ptr;
        RT_TRACE("managed variable %s bound at %p (%zu bytes)", v->name, (void *)(uintptr_t)ptr,
                 bytes);
    }
    return cudaSuccess;
}

/* rt_module_ensure with rt_load_lock held. */
static cudaError_t rt_module_ensure_locked(rt_module *m, rt_device *d, rt_module_dev **out)
{
    uint64_t generation = atomic_load(&d->generation);
    if (!m->dev) {
        m->dev = calloc((size_t)rt_slot_count, sizeof *m->dev);
        if (!m->dev)
            return cudaErrorMemoryAllocation;
    }
    rt_module_dev *md = &m->dev[rt_slot_index(d)];
    if (out)
        *out = md;
    if (md->generation == generation)
        return md->error;

    /* First use in this context (or the context was reset, which destroyed the old module). */
    rt_module_dev_release(md);
    *md = (rt_module_dev){ .generation = generation };
    md->error = rt_module_load(m, d, md);
    if (md->error == cudaSuccess && m->has_managed)
        md->error = rt_module_bind_managed(m, md);
    return md->error;
}

void rt_module_dev_release(rt_module_dev *md)
{
    free(md->image);
    md->image = NULL;
    ptx_entries_free(&md->ptx_index);
    md->ptx_indexed = false;
    md->module = NULL;
    md->cubin = NULL;
    md->cubin_size = 0;
    md->ptx = NULL;
    md->ptx_size = 0;
}

cudaError_t rt_module_ensure(rt_module *m, rt_device *d, rt_module_dev **out)
{
    pthread_mutex_lock(&rt_load_lock);
    cudaError_t e = rt_module_ensure_locked(m, d, out);
    pthread_mutex_unlock(&rt_load_lock);
    return e;
}

cudaError_t rt_kernel_context_free(rt_kernel *k, rt_device *d, CUkernel *out)
{
    if (k->library_kernel) {
        *out = k->library_kernel;
        return cudaSuccess;
    }
    rt_module *m = k->module;
    pthread_mutex_lock(&rt_load_lock);
    rt_module_dev *md;
    cudaError_t e = rt_module_ensure_locked(m, d, &md);
    /* The image the module was loaded from: the chosen cubin (linked, for -rdc), or the PTX. */
    const void *image = e == cudaSuccess ? (md->cubin ? (const void *)md->cubin
                                                      : (const void *)md->ptx)
                                         : NULL;
    if (e == cudaSuccess && !m->kernel_library) {
        if (!image) {
            RT_TRACE("kernel %s: no image to load as a library: not implemented", k->name);
            e = cudaErrorNotSupported;
        } else {
            e = rt_error_from_cu(rt_drv.cuLibraryLoadData(&m->kernel_library, image, NULL,
                                                          NULL, 0, NULL, NULL, 0));
            RT_TRACE("module %p: loaded as a library for kernel nodes of other contexts: %s",
                     m->wrapper, rt_error_name(e));
            if (e != cudaSuccess)
                m->kernel_library = NULL;
        }
    }
    CUlibrary library = m->kernel_library;
    pthread_mutex_unlock(&rt_load_lock);
    if (e != cudaSuccess)
        return e;
    return rt_error_from_cu(rt_drv.cuLibraryGetKernel(out, library, k->name));
}

enum { RT_MAX_PARAMS = 32764 / 1 };   /* a 32,764-byte parameter space, 1 byte at least each */

/* The layout from the cubin's .nv.info; NULL when the kernel or its records are not there. */
static rt_param_layout *rt_layout_from_nv_info(rt_kernel *k, rt_module_dev *md)
{
    cubin c;
    cubin_kernel ck;
    fatbin_error err;
    if (cubin_open(&c, md->cubin, md->cubin_size, &err) != FATBIN_OK ||
        cubin_find_kernel(&c, k->name, &ck, &err) != FATBIN_OK)
        return NULL;
    rt_param_layout *layout =
        malloc(sizeof *layout + (size_t)ck.param_count * sizeof layout->param[0]);
    cubin_param *params = malloc(((size_t)ck.param_count + 1) * sizeof *params);
    if (layout && params && cubin_kernel_params(&ck, params, ck.param_count, &err) == FATBIN_OK) {
        layout->count = ck.param_count;
        layout->size = ck.param_size;
        for (uint32_t i = 0; i < ck.param_count; i++) {
            layout->param[i].offset = params[i].offset;
            layout->param[i].size = params[i].size;
        }
    } else {
        free(layout);
        layout = NULL;
    }
    free(params);
    return layout;
}

/* How many parameters the kernel has, from the image loaded for it: the cubin's .nv.info
 * (SASS, or the JIT-linked image) or the PTX text that was JIT-compiled.  False when unknown:
 * a library's kernel (no md), or an image that does not say. *from names the source. */
static bool rt_param_count(rt_kernel *k, rt_module_dev *md, uint32_t *count, const char **from)
{
    fatbin_error err = { .message = "not found" };
    if (md && md->cubin) {
        cubin c;
        cubin_kernel ck;
        if (cubin_open(&c, md->cubin, md->cubin_size, &err) == FATBIN_OK &&
            cubin_find_kernel(&c, k->name, &ck, &err) == FATBIN_OK) {
            *count = ck.param_count;
            *from = "cuFuncGetParamInfo, count from .nv.info";
            return true;
        }
    } else if (md && md->ptx) {
        /* One read of the text for all of the module's kernels (fatbin/ptx.c says why); under
         * rt_load_lock, as every resolve is. */
        if (!md->ptx_indexed) {
            md->ptx_indexed = true;
            if (ptx_entries_read(&md->ptx_index, md->ptx, md->ptx_size, &err) == FATBIN_OK)
                RT_TRACE("module PTX: %zu entries read", md->ptx_index.count);
        }
        if (ptx_entries_find(&md->ptx_index, k->name, count) == FATBIN_OK) {
            *from = "cuFuncGetParamInfo, count from the PTX";
            return true;
        }
        snprintf(err.message, sizeof err.message, "no closed entry of that name in the PTX "
                 "(%zu entries)", md->ptx_index.count);
    } else {
        return false;
    }
    RT_TRACE("kernel %s: parameter count not in the loaded image: %s", k->name, err.message);
    return false;
}

/* Asks the driver for parameters 0..limit-1.  With `exact`, every one must be answered (NULL
 * otherwise); without, the first error ends the list. */
static rt_param_layout *rt_layout_from_driver(CUfunction f, uint32_t limit, bool exact)
{
    size_t capacity = exact ? (limit ? limit : 1) : 8;
    rt_param_layout *layout = malloc(sizeof *layout + capacity * sizeof layout->param[0]);
    uint32_t n = 0, end = 0;
    while (layout && n < limit) {
        size_t offset = 0, size = 0;
        if (rt_drv.cuFuncGetParamInfo(f, n, &offset, &size) != CUDA_SUCCESS) {
            if (!exact)
                break;
            free(layout);
            return NULL;
        }
        if (n == capacity) {
            capacity *= 2;
            rt_param_layout *bigger =
                realloc(layout, sizeof *layout + capacity * sizeof layout->param[0]);
            if (!bigger) {
                free(layout);
                return NULL;
            }
            layout = bigger;
        }
        layout->param[n].offset = (uint32_t)offset;
        layout->param[n].size = (uint32_t)size;
        if (offset + size > end)
            end = (uint32_t)(offset + size);
        n++;
    }
    if (layout) {
        layout->count = n;
        layout->size = end;
    }
    return layout;
}

/* Step 4b: the parameter layout.  The driver knows it (cuFuncGetParamInfo, driver 12.4+) even
 * for JIT-compiled PTX, but it has no call for the count: asking index after index until it
 * answers an error makes that last call an API error, which compute-sanitizer reports ("Program
 * hit CUDA_ERROR_INVALID_VALUE ... on CUDA API call to cuFuncGetParamInfo", one per kernel),
 * and NVIDIA's runtime makes no such call.  So the count comes first, from the loaded image
 * (the cubin's .nv.info, or the PTX text), and the driver is asked only for indices below it.
 * Only where no count is known (a library's kernel) is the driver probed to its first error.
 * Without cuFuncGetParamInfo, or when it fails below the count, the cubin's .nv.info gives the
 * whole layout.  NULL: no layout known, and the launch passes nvcc's argument array through. */
static rt_param_layout *rt_layout_build(rt_kernel *k, CUfunction f, rt_module_dev *md)
{
    rt_param_layout *layout = NULL;
    const char *source = NULL;

    if (rt_drv.cuFuncGetParamInfo) {
        uint32_t count = 0;
        if (rt_param_count(k, md, &count, &source) && count <= RT_MAX_PARAMS) {
            layout = rt_layout_from_driver(f, count, true);
            if (!layout)
                RT_TRACE("kernel %s: cuFuncGetParamInfo failed below the count of %u", k->name,
                         count);
        } else {
            layout = rt_layout_from_driver(f, RT_MAX_PARAMS, false);
            source = "cuFuncGetParamInfo, probed to its first error (an API error that "
                     "compute-sanitizer reports)";
        }
    }
    if (!layout && md && md->cubin) {
        layout = rt_layout_from_nv_info(k, md);
        source = ".nv.info";
    }
    if (rt_tracing()) {
        if (!layout) {
            RT_TRACE("kernel %s: no parameter layout known: arguments passed through", k->name);
        } else {
            char text[512] = "";
            size_t used = 0;
            for (uint32_t i = 0; i < layout->count && used < sizeof text - 40; i++)
                used += (size_t)snprintf(text + used, sizeof text - used, "%s%u@%u+%u",
                                         i ? " " : "", i, layout->param[i].offset,
                                         layout->param[i].size);
            RT_TRACE("kernel %s: %u parameters, %u bytes, from %s: [%s%s]", k->name,
                     layout->count, layout->size, source, text,
                     used >= sizeof text - 40 ? " ..." : "");
        }
    }
    return layout;
}

/* rt_kernel_resolve (internal.h) checks without the lock; this loads and resolves under it. */
cudaError_t rt_kernel_resolve_slow(rt_kernel *k, rt_device *d, rt_kernel_dev **out)
{
    pthread_mutex_lock(&rt_load_lock);
    uint64_t generation = atomic_load(&d->generation);
    cudaError_t e = cudaSuccess;
    rt_kernel_dev *all = atomic_load(&k->dev);
    if (!all) {
        all = calloc((size_t)rt_slot_count, sizeof *all);
        if (!all) {
            e = cudaErrorMemoryAllocation;
            goto done;
        }
        atomic_store_explicit(&k->dev, all, memory_order_release);
    }
    rt_kernel_dev *kd = &all[rt_slot_index(d)];
    if (atomic_load(&kd->function) && atomic_load(&kd->generation) == generation) {
        *out = kd;
        goto done;
    }

    /* A library's kernel (library.c): the driver loads the library into the current context
     * itself and hands out the kernel's function there; no module of ours, no cubin to read the
     * layout or the parameter count from (the driver's cuFuncGetParamInfo still knows the
     * layout, asked until its first error: rt_layout_build). */
    rt_module_dev *md = NULL;
    if (!k->library_kernel) {
        e = rt_module_ensure_locked(k->module, d, &md);
        if (e != cudaSuccess)
            goto done;
    }
    uint64_t span = rt_span_begin();
    CUfunction f = NULL;
    CUresult r = k->library_kernel ? rt_drv.cuKernelGetFunction(&f, k->library_kernel)
                                   : rt_drv.cuModuleGetFunction(&f, md->module, k->name);
    if (r != CUDA_SUCCESS) {
        RT_SPAN_END(span, "kernel resolve", "\"kernel\":\"%s\",\"result\":%d", k->name, (int)r);
        e = r == CUDA_ERROR_NOT_FOUND ? cudaErrorInvalidDeviceFunction : rt_error_from_cu(r);
        RT_TRACE("kernel %s: not in the loaded image: %s", k->name, rt_error_name(e));
        goto done;
    }
    /* The layout from before a reset is kept one more generation, not freed: a launch on another
     * thread may still be packing with it. */
    atomic_store(&kd->function, NULL);
    free(kd->retired);
    kd->retired = kd->layout;
    kd->layout = rt_layout_build(k, f, md);
    RT_SPAN_END(span, "kernel resolve", "\"kernel\":\"%s\",\"params\":%d", k->name,
                kd->layout ? (int)kd->layout->count : -1);
    atomic_store(&kd->generation, generation);
    atomic_store_explicit(&kd->function, f, memory_order_release);
    *out = kd;
done:
    pthread_mutex_unlock(&rt_load_lock);
    return e;
}

cudaError_t rt_var_address(rt_var *v, rt_device *d, CUdeviceptr *ptr, size_t *size)
{
    rt_module_dev *md;
    cudaError_t e = rt_module_ensure(v->module, d, &md);
    if (e != cudaSuccess)
        return e;
    CUresult r = rt_drv.cuModuleGetGlobal(ptr, size, md->module, v->name);
    if (r == CUDA_ERROR_NOT_FOUND)
        return cudaErrorInvalidSymbol;
    return rt_error_from_cu(r);
}

struct rt_init_load {
    rt_device *device;
    bool eager;
};

static void rt_module_load_one(rt_module *m, void *user)
{
    struct rt_init_load *load = user;
    if (!load->eager && !m->has_managed)
        return;
    cudaError_t e = rt_module_ensure(m, load->device, NULL);
    for (rt_kernel *k = m->kernels; load->eager && e == cudaSuccess && k; k = k->next) {
        rt_kernel_dev *kd;
        rt_kernel_resolve(k, load->device, &kd);
    }
}

void rt_module_load_at_init(rt_device *d)
{
    struct rt_init_load load = { d, rt_env_is("CUDA_MODULE_LOADING", "EAGER") };
    if (load.eager)
        RT_TRACE("CUDA_MODULE_LOADING=EAGER: loading every module on device %d", d->ordinal);
    rt_module_foreach(rt_module_load_one, &load);
}
