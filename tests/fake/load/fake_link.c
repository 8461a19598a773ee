/*
 * fake_link.c - the fake driver's JIT linker (cuLinkCreate, cuLinkAddData, cuLinkComplete,
 * cuLinkDestroy) and its export tables (cuGetExportTable).
 *
 * What it models:
 *   - Linking PTX only.  The fake compiles nothing: its "linked image" of PTX inputs is their
 *     texts one after the other, which fake_image.c reads as one PTX module (each object's
 *     .entry and .visible .global declarations once; .extern declarations are not read).
 *     A cubin input is accepted by cuLinkAddData (the real linker takes relocatable cubins) but
 *     cuLinkComplete then answers CUDA_ERROR_NOT_SUPPORTED with "fake: links PTX only" in the
 *     error log: the runtime's tests link PTX (MINICUDART_FORCE_PTX, or a fake SM the image lacks).
 *   - Inputs are copied at cuLinkAddData; the output lives until cuLinkDestroy, as documented.
 *   - cuGetExportTable knows one table, FAKE_EXPORT_TABLE_ID (fakecuda.h); any other id is
 *     CUDA_ERROR_INVALID_VALUE with *ppExportTable = NULL, as the driver answers.
 */
#define _POSIX_C_SOURCE 200809L /* strnlen */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_internal.h"

typedef struct fake_link {
    char *text;                 /* the PTX inputs so far, NUL-terminated */
    size_t length;
    int has_cubin;
    char *log;                  /* CU_JIT_ERROR_LOG_BUFFER of cuLinkCreate, if any */
    size_t log_size;
    int done;
} fake_link;

static ptr_vec links;

static fake_link *find_link(CUlinkState state)
{
    for (size_t i = 0; i < links.count; i++)
        if (links.items[i] == (void *)state)
            return links.items[i];
    return NULL;
}

static CUresult CUDAAPI f_cuLinkCreate(unsigned n, CUjit_option *opts, void **vals,
                                       CUlinkState *out)
{
    CUresult rc = fake_enter("cuLinkCreate", "numOptions=%u", n);
    fake_ctx *ctx;
    fake_link *l = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(&ctx);
    if (rc == CUDA_SUCCESS && (!out || (n && (!opts || !vals))))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && (!(l = calloc(1, sizeof *l)) || fake_vec_push(&links, l) != 0))
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    if (rc == CUDA_SUCCESS) {
        for (unsigned i = 0; i < n; i++) {
            if (opts[i] == CU_JIT_ERROR_LOG_BUFFER)
                l->log = vals[i];
            else if (opts[i] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES)
                l->log_size = (size_t)(uintptr_t)vals[i];
        }
        *out = (CUlinkState)l;
    } else if (l && !find_link((CUlinkState)l)) {
        free(l);
    }
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuLinkAddData(CUlinkState state, CUjitInputType type, void *data,
                                        size_t size, const char *name, unsigned n,
                                        CUjit_option *opts, void **vals)
{
    CUresult rc = fake_enter("cuLinkAddData", "type=%d size=%zu name=%s", (int)type, size,
                             name ? name : "(null)");
    fake_link *l = NULL;
    (void)opts;
    (void)vals;
    (void)n;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_init();
    if (rc == CUDA_SUCCESS && (!(l = find_link(state)) || l->done))
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS && (!data || size == 0))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && type == CU_JIT_INPUT_PTX) {
        /* The driver's rule: PTX input is NUL-terminated within `size`. */
        size_t len = strnlen(data, size);
        char *grown = len < size ? realloc(l->text, l->length + len + 2) : NULL;
        if (len >= size) {
            rc = CUDA_ERROR_INVALID_PTX;
        } else if (!grown) {
            rc = CUDA_ERROR_OUT_OF_MEMORY;
        } else {
            memcpy(grown + l->length, data, len);
            l->length += len;
            grown[l->length++] = '\n';
            grown[l->length] = '\0';
            l->text = grown;
        }
    } else if (rc == CUDA_SUCCESS && type == CU_JIT_INPUT_CUBIN) {
        const unsigned char *h = data;
        if (size < 4 || h[0] != 0x7f || h[1] != 'E' || h[2] != 'L' || h[3] != 'F')
            rc = CUDA_ERROR_INVALID_IMAGE;
        else
            l->has_cubin = 1;
    } else if (rc == CUDA_SUCCESS) {
        rc = CUDA_ERROR_INVALID_VALUE;      /* fatbins, archives, LTO IR: not modelled */
    }
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuLinkComplete(CUlinkState state, void **out, size_t *size)
{
    CUresult rc = fake_enter("cuLinkComplete", "state=%p", (void *)state);
    fake_link *l = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_init();
    if (rc == CUDA_SUCCESS && (!(l = find_link(state)) || l->done))
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS && (!out || !size))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && (l->has_cubin || !l->text)) {
        if (l->log && l->log_size)
            snprintf(l->log, l->log_size, "%s", l->has_cubin ? "fake: links PTX only"
                                                              : "fake: nothing to link");
        rc = l->has_cubin ? CUDA_ERROR_NOT_SUPPORTED : CUDA_ERROR_INVALID_VALUE;
    }
    if (rc == CUDA_SUCCESS) {
        l->done = 1;
        *out = l->text;
        *size = l->length + 1;
    }
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuLinkDestroy(CUlinkState state)
{
    CUresult rc = fake_enter("cuLinkDestroy", "state=%p", (void *)state);
    fake_link *l = NULL;
    if (rc == CUDA_SUCCESS && !(l = find_link(state)))
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS) {
        for (size_t i = 0; i < links.count; i++)
            if (links.items[i] == l)
                fake_vec_remove(&links, i);
        /* Scribble over the output first: a caller that kept it past cuLinkDestroy reads junk. */
        if (l->text)
            memset(l->text, 0xA5, l->length + 1);
        free(l->text);
        free(l);
    }
    return fake_leave(rc);
}

/* ---- export tables --------------------------------------------------------------------------- */

static const void *fake_export_table[] = { (void *)sizeof(void *), NULL };

static CUresult CUDAAPI f_cuGetExportTable(const void **table, const CUuuid *id)
{
    CUresult rc = fake_enter("cuGetExportTable", "id=%02x%02x...",
                             id ? (unsigned char)id->bytes[0] : 0,
                             id ? (unsigned char)id->bytes[1] : 0);
    static const CUuuid known = FAKE_EXPORT_TABLE_ID;
    if (rc == CUDA_SUCCESS && (!table || !id))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS) {
        *table = NULL;
        if (memcmp(id, &known, sizeof known) == 0)
            *table = fake_export_table;
        else
            rc = CUDA_ERROR_INVALID_VALUE;
    }
    return fake_leave(rc);
}

const proc_entry fake_procs_link[] = {
    {"cuLinkCreate", 6050, 99999, (void *)f_cuLinkCreate},
    {"cuLinkAddData", 6050, 99999, (void *)f_cuLinkAddData},
    {"cuLinkComplete", 5050, 99999, (void *)f_cuLinkComplete},
    {"cuLinkDestroy", 5050, 99999, (void *)f_cuLinkDestroy},
    {"cuGetExportTable", 3000, 99999, (void *)f_cuGetExportTable},
    {NULL, 0, 0, NULL},
};
