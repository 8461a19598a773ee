/*
 * image.c - what the registered image says: steps 1 and 2 of a module's first use on a device
 * (which entry of the fatbin, and its bytes as the driver must get them) and step 4b of a
 * kernel's first launch (its parameter layout, from the cubin or the PTX of that entry).
 *
 * What nvcc registered is a fatbin wrapper (magic 0x466243b1) pointing at a container of
 * entries, one per target of -gencode: SASS (an ELF cubin for one sm_XY) and PTX (text for a
 * virtual compute_XY).  The driver takes one image per load and does not choose among them when
 * given a module image, so the runtime does, as NVIDIA's runtime does:
 *
 *   SASS    runs only where the machine code fits: the same major SM with a minor at or below
 *           the device's (sm_80 code on sm_86), an arch-specific sm_90a only on sm_90, a
 *           family-specific sm_100f within its family.  The best such entry wins.
 *   PTX     is JIT-compiled by the driver for any SM at or above its virtual arch: the fallback
 *           when no SASS fits (and all there is under MINICUDART_FORCE_PTX=1, which tests the
 *           JIT path).  The driver must understand the PTX's ISA version: an older driver does
 *           not (CUDA_ERROR_UNSUPPORTED_PTX_VERSION at the load).
 *   none    cudaErrorNoKernelImageForDevice, reported at the first launch, as NVIDIA's runtime
 *           does, and not at registration: a program may carry kernels for other GPUs.
 *
 * The choice itself is fatbin_choose (fatbin/choose.c), the same code `fatbin check` uses, so
 * the inspector and the runtime never disagree.  nvcc 13 compresses entries by default (a zstd
 * frame, flag 0x8000; LZ4 and zlib with other --compress-algorithm settings): the entry's flags
 * say which, and the payload is decompressed here into memory the module keeps
 * (rt_module_dev.image) while it is loaded: the parameter layout (below) reads the cubin's
 * .nv.info or the PTX text from it at each kernel's first launch.  A plain entry is handed over
 * in place: it lives in the program's read-only data for as long as the program is registered.
 * PTX must reach the driver NUL-terminated; a plain PTX entry's payload is padded to a multiple
 * of 8, usually with zeros, which the check below looks for, and a decompressed one gets its NUL
 * here.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "load/module.h"

bool rt_module_eager(void)
{
    const char *v = getenv("CUDA_MODULE_LOADING");
    return v && strcmp(v, "EAGER") == 0;
}

bool rt_force_ptx(void)
{
    const char *v = getenv("MINICUDART_FORCE_PTX");
    return v && *v && strcmp(v, "0") != 0;
}

/* Steps 1-2: chooses the entry and produces its image.  On success *image is what to hand the
 * driver (NUL-terminated when PTX) and md->image owns it when it had to be allocated. */
cudaError_t rt_module_image(rt_module *m, rt_device *d, rt_module_dev *md, fatbin_entry *entry,
                            const void **image, size_t *size)
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

/* ---- step 4b: the parameter layout -----------------------------------------------------------
 *
 * At a kernel's first launch on a device: where each parameter goes in the buffer the driver
 * copies to the kernel's parameter space.
 *
 * nvcc's host stub hands the runtime `void **args`: one pointer per parameter, to the host copy
 * of that argument, and nothing about sizes or offsets.  cuLaunchKernel can take the same array
 * (kernelParams) and look the layout up itself, but a runtime that packs the arguments into one
 * buffer (CU_LAUNCH_PARAM_BUFFER_POINTER, launch.c) must know each parameter's offset and size:
 * the layout nvcc wrote into the cubin's .nv.info section (EIATTR_KPARAM_INFO records, one per
 * parameter, and EIATTR_PARAM_CBANK for the total), which the driver also answers through
 * cuFuncGetParamInfo.  A kernel JIT-compiled from PTX has no .nv.info of ours to read; its PTX
 * text's .entry line lists the parameters, which gives their count.  The layout is built once per
 * kernel and context generation, under module.c's load lock.
 */

enum { RT_MAX_PARAMS = 32764 / 1 };   /* a 32,764-byte parameter space, 1 byte at least each */

/* Kernel k's records in the cubin loaded for it.  The module's table of kernels is read at the
 * first look-up (under rt_load_lock, as every resolve is) and answers every later one by a
 * binary search: walking the cubin's tables for each kernel, as cubin_find_kernel does, made
 * resolving all of a module's kernels quadratic (fatbin/cubin.c says how much).  A cubin whose
 * table cannot be read is looked up the old way, so that it fails as it did. */
static int rt_cubin_kernel(rt_kernel *k, rt_module_dev *md, cubin_kernel *ck, fatbin_error *err)
{
    if (!md->cubin_indexed) {
        md->cubin_indexed = true;
        if (cubin_open(&md->cubin_view, md->cubin, md->cubin_size, err) == FATBIN_OK &&
            cubin_kernels_read(&md->cubin_index, &md->cubin_view, err) == FATBIN_OK)
            RT_TRACE("module cubin: %zu kernels read", md->cubin_index.count);
        else
            md->cubin_view = (cubin){ 0 };
    }
    if (md->cubin_view.image)
        return cubin_kernels_find(&md->cubin_index, &md->cubin_view, k->name, ck, err);
    cubin c;
    if (cubin_open(&c, md->cubin, md->cubin_size, err) != FATBIN_OK)
        return FATBIN_BAD;
    return cubin_find_kernel(&c, k->name, ck, err);
}

/* The layout from the cubin's .nv.info; NULL when the kernel or its records are not there. */
static rt_param_layout *rt_layout_from_nv_info(rt_kernel *k, rt_module_dev *md)
{
    cubin_kernel ck;
    fatbin_error err;
    if (rt_cubin_kernel(k, md, &ck, &err) != FATBIN_OK)
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
        cubin_kernel ck;
        if (rt_cubin_kernel(k, md, &ck, &err) == FATBIN_OK) {
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
rt_param_layout *rt_layout_build(rt_kernel *k, CUfunction f, rt_module_dev *md)
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
