/*
 * image.c - steps 1 and 2 of a module's first use on a device: which entry of the fatbin, and
 * its bytes as the driver must get them.
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
 * (rt_module_dev.image) while it is loaded: the parameter layout (params.c) reads the cubin's
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

