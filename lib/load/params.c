/*
 * params.c - step 4b of a kernel's first launch on a device: where each parameter goes in the
 * buffer the driver copies to the kernel's parameter space.
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
#include <stdlib.h>

#include "load/module.h"

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
