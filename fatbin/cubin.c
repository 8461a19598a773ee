/*
 * cubin.c - kernels and their parameters from a cubin (ELF64, EM_CUDA = 190).
 *
 * e_flags holds the SM; its layout depends on EI_ABIVERSION (e_ident[8]):
 *   ABI 8 (CUDA 13, every SM)        bits 8-15 = SM   e.g. 0x06005a04 -> 0x5a = 90
 *   ABI 7 (older, libraries' sm_75)  bits 0-7  = SM   e.g. 0x004b054b -> 0x4b = 75
 *
 * Kernels are the symbols with a `.nv.info.<name>` section that are functions marked as entry
 * points (STT_FUNC, st_other bit 0x10, STO_CUDA_ENTRY): in -G and -rdc cubins, device functions
 * such as `__trap` or an extern `__device__` function have a `.nv.info.<name>` section too.  Both `.nv.info` (per module) and
 * `.nv.info.<name>` (per kernel) hold EIATTR records, each 4-byte aligned:
 *   u8 format, u8 attribute, then
 *     format 0x01 NVAL: u16 unused          format 0x02 BVAL: u8 value, u8 pad
 *     format 0x03 HVAL: u16 value           format 0x04 SVAL: u16 size, `size` bytes
 *
 * Attributes used (SVAL unless noted; "module" ones are {u32 symbol index, u32 value}):
 *   0x05 MAX_THREADS      u32 x, y, z               (per kernel)
 *   0x11 FRAME_SIZE       module                    0x12 MIN_STACK_SIZE  module
 *   0x17 KPARAM_INFO      u32 index, u16 ordinal, u16 offset, u32 info: size = bits 18-31
 *   0x19 CBANK_PARAM_SIZE HVAL, total parameter bytes (per kernel)
 *   0x23 MAX_STACK_SIZE   module                    0x2f REGCOUNT        module
 *   0x45 KPARAM_INFO_V2   as 0x17, but size = bits 0-23 (lists above 4352 bytes)
 * Parameter records come in reverse ordinal order; nothing here depends on that order.
 */
#include <stdlib.h>
#include <string.h>

#include "cursor.h"
#include "internal.h"

#define NV_INFO_PREFIX    ".nv.info."
#define NV_SHARED_PREFIX  ".nv.shared."
#define INTERNAL_PREFIX   "$__internal_"

enum {
    EIFMT_NVAL = 1, EIFMT_BVAL = 2, EIFMT_HVAL = 3, EIFMT_SVAL = 4,
    EIATTR_MAX_THREADS = 0x05, EIATTR_FRAME_SIZE = 0x11, EIATTR_MIN_STACK_SIZE = 0x12,
    EIATTR_KPARAM_INFO = 0x17, EIATTR_CBANK_PARAM_SIZE = 0x19, EIATTR_MAX_STACK_SIZE = 0x23,
    EIATTR_REGCOUNT = 0x2f, EIATTR_KPARAM_INFO_V2 = 0x45,
};

#define KPARAM_RECORD_SIZE 12u
#define STT_FUNC 2u
#define STO_CUDA_ENTRY 0x10u

/* ---- opening -------------------------------------------------------------------------------- */

static void elf_view(const cubin *c, fb_elf *elf)
{
    memset(elf, 0, sizeof *elf);
    elf->base = c->image;
    elf->size = c->size;
    elf->shoff = c->shoff;
    elf->shnum = c->shnum;
    elf->shentsize = c->shentsize;
    elf->shstr_off = c->shstr_off;
    elf->shstr_size = c->shstr_size;
}

/* Locates .symtab and its string table; a cubin without one simply has no kernels. */
static int find_symtab(cubin *c, const fb_elf *elf, fatbin_error *err)
{
    for (size_t i = 1; i < elf->shnum; i++) {
        fb_shdr sh;
        if (fatbin_elf_section(elf, i, &sh, err) != FATBIN_OK)
            return FATBIN_BAD;
        if (sh.type != ELF_SHT_SYMTAB)
            continue;
        if (sh.outside)
            return fatbin_elf_outside(elf, i, &sh, err);
        if (!sh.has_data || sh.size % ELF_SYM_SIZE != 0)
            return fatbin_fail(err, elf->shoff + i * elf->shentsize + 0x20,
                               "symbol table of %llu bytes is not a whole number of symbols",
                               (unsigned long long)sh.size);
        fb_shdr str;
        if (sh.link == 0 || fatbin_elf_section(elf, sh.link, &str, err) != FATBIN_OK ||
            !str.has_data)
            return fatbin_fail(err, elf->shoff + i * elf->shentsize + 0x28,
                               "symbol table's string table %u is malformed", sh.link);
        c->symtab_index = i;
        c->strtab_off = (size_t)str.offset;
        c->strtab_size = (size_t)str.size;
        return FATBIN_OK;
    }
    return FATBIN_OK;
}

int cubin_open(cubin *c, const void *image, size_t size, fatbin_error *err)
{
    fb_elf elf;
    if (fatbin_elf_open(&elf, image, size, err) != FATBIN_OK)
        return FATBIN_BAD;
    if (elf.machine != ELF_EM_CUDA)
        return fatbin_fail(err, 0x12, "not a cubin: e_machine %u (expected %u, EM_CUDA)",
                           elf.machine, ELF_EM_CUDA);
    memset(c, 0, sizeof *c);
    c->image = image;
    c->size = size;
    c->abi_version = elf.abi_version;
    c->elf_type = elf.type;
    /* ABI 8 moved the SM from the low byte to bits 8-15; choose by ABI, never by SM. */
    c->sm = elf.abi_version >= 8 ? (elf.flags >> 8) & 0xffu : elf.flags & 0xffu;
    c->shoff = elf.shoff;
    c->shnum = elf.shnum;
    c->shentsize = elf.shentsize;
    c->shstr_off = elf.shstr_off;
    c->shstr_size = elf.shstr_size;
    return find_symtab(c, &elf, err);
}

/* ---- EIATTR records ------------------------------------------------------------------------- */

typedef struct eiattr {
    uint8_t format, attr;
    uint16_t value;            /* BVAL/HVAL value, SVAL size */
    const uint8_t *data;       /* SVAL payload */
    size_t at;                 /* offset of the record in the image */
} eiattr;

/* Reads the next record of an info section; FATBIN_END at its end.  `base_off` is the
 * section's offset in the image, for error positions. */
static int next_eiattr(fb_cursor *cur, size_t base_off, eiattr *rec, fatbin_error *err)
{
    if (cur->pos == cur->len)
        return FATBIN_END;
    rec->at = base_off + cur->pos;
    if (!fb_has(cur, 4))
        return fatbin_fail(err, rec->at, "truncated EIATTR record at 0x%zx", rec->at);
    uint8_t format = cur->base[cur->pos];
    rec->format = format;
    rec->attr = cur->base[cur->pos + 1];
    cur->pos += 2;
    fb_u16(cur, &rec->value);
    rec->data = NULL;
    if (format == EIFMT_SVAL) {
        rec->data = cur->base + cur->pos;
        if (!fb_skip(cur, rec->value))
            return fatbin_fail(err, rec->at, "EIATTR 0x%x at 0x%zx: %u bytes of data run past "
                               "the section", rec->attr, rec->at, rec->value);
    } else if (format < EIFMT_NVAL || format > EIFMT_SVAL) {
        return fatbin_fail(err, rec->at, "EIATTR at 0x%zx: unknown format 0x%x", rec->at,
                           rec->format);
    }
    return FATBIN_OK;
}

static uint32_t u32_at(const uint8_t *p, size_t off)
{
    return (uint32_t)fb_at(p, off, 4);
}

/* Per-kernel records: parameter count, parameter size, launch bounds. */
static int read_kernel_info(const cubin *c, cubin_kernel *k, fatbin_error *err)
{
    size_t base_off = (size_t)(k->info - c->image);
    fb_cursor cur = fb_cursor_make(k->info, k->info_size, 0);
    eiattr rec = { 0 };
    int rc;
    while ((rc = next_eiattr(&cur, base_off, &rec, err)) == FATBIN_OK) {
        bool sval = rec.format == EIFMT_SVAL;
        if ((rec.attr == EIATTR_KPARAM_INFO || rec.attr == EIATTR_KPARAM_INFO_V2) && sval) {
            if (rec.value < KPARAM_RECORD_SIZE)
                return fatbin_fail(err, rec.at, "KPARAM_INFO at 0x%zx: %u bytes, need %u",
                                   rec.at, rec.value, KPARAM_RECORD_SIZE);
            k->param_count++;
        } else if (rec.attr == EIATTR_CBANK_PARAM_SIZE && rec.format == EIFMT_HVAL) {
            k->param_size = rec.value;
        } else if (rec.attr == EIATTR_MAX_THREADS && sval && rec.value >= 12) {
            for (int i = 0; i < 3; i++)
                k->max_threads[i] = u32_at(rec.data, 4u * (unsigned)i);
        }
    }
    return rc == FATBIN_END ? FATBIN_OK : FATBIN_BAD;
}

/* Module records keyed by symbol index: registers, frame and stack sizes. */
static int read_module_info(const cubin *c, const fb_shdr *sh, cubin_kernel *k,
                            fatbin_error *err)
{
    fb_cursor cur = fb_cursor_make(c->image + sh->offset, (size_t)sh->size, 0);
    eiattr rec = { 0 };
    int rc;
    while ((rc = next_eiattr(&cur, (size_t)sh->offset, &rec, err)) == FATBIN_OK) {
        if (rec.format != EIFMT_SVAL || rec.value < 8 || u32_at(rec.data, 0) != k->symbol_index)
            continue;
        uint32_t value = u32_at(rec.data, 4);
        switch (rec.attr) {
        case EIATTR_REGCOUNT: k->registers = value; break;
        case EIATTR_FRAME_SIZE: k->frame_size = value; break;
        case EIATTR_MIN_STACK_SIZE: k->min_stack_size = value; break;
        case EIATTR_MAX_STACK_SIZE: k->max_stack_size = value; break;
        default: break;
        }
    }
    return rc == FATBIN_END ? FATBIN_OK : FATBIN_BAD;
}

/* ---- kernels -------------------------------------------------------------------------------- */

/* The symbol table of c: FATBIN_OK with *sh and *count (entries, the null one included) set,
 * FATBIN_END when the cubin has none, FATBIN_BAD when its header is malformed. */
static int symbol_table(const cubin *c, const fb_elf *elf, fb_shdr *sh, size_t *count,
                        fatbin_error *err)
{
    *count = 0;
    if (c->symtab_index == 0)
        return FATBIN_END;
    if (fatbin_elf_section(elf, c->symtab_index, sh, err) != FATBIN_OK)
        return FATBIN_BAD;
    *count = (size_t)sh->size / ELF_SYM_SIZE;
    if (*count > (size_t)UINT32_MAX + 1)
        *count = (size_t)UINT32_MAX + 1;
    return FATBIN_OK;
}

/* The name of symbol i of the table if it is a function marked as an entry point, else NULL. */
static const char *entry_symbol_name(const cubin *c, const fb_shdr *symtab, size_t i)
{
    const uint8_t *sym = c->image + symtab->offset + i * ELF_SYM_SIZE;
    if ((sym[4] & 0xfu) != STT_FUNC || !(sym[5] & STO_CUDA_ENTRY))
        return NULL;
    return fatbin_elf_string(c->image + c->strtab_off, c->strtab_size, u32_at(sym, 0));
}

/* Finds the kernel symbol called `name`: a function marked as an entry point.
 * *index = 0 when there is none. */
static int find_symbol(const cubin *c, const fb_elf *elf, const char *name, uint32_t *index,
                       fatbin_error *err)
{
    *index = 0;
    fb_shdr sh;
    size_t count;
    int rc = symbol_table(c, elf, &sh, &count, err);
    if (rc != FATBIN_OK)
        return rc == FATBIN_END ? FATBIN_OK : FATBIN_BAD;
    for (size_t i = 1; i < count; i++) {
        const char *sym_name = entry_symbol_name(c, &sh, i);
        if (sym_name && strcmp(sym_name, name) == 0) {
            *index = (uint32_t)i;
            return FATBIN_OK;
        }
    }
    return FATBIN_OK;
}

/* Fills everything but the name/info of k from the other sections of the cubin. */
static int complete_kernel(const cubin *c, const fb_elf *elf, cubin_kernel *k, fatbin_error *err)
{
    if (read_kernel_info(c, k, err) != FATBIN_OK)
        return FATBIN_BAD;
    size_t name_len = strlen(k->name);
    for (size_t i = 1; i < elf->shnum; i++) {
        fb_shdr sh;
        if (fatbin_elf_section(elf, i, &sh, err) != FATBIN_OK)
            return FATBIN_BAD;
        const char *n = sh.name_str;
        if (strcmp(n, ".nv.info") == 0 && sh.outside)
            return fatbin_elf_outside(elf, i, &sh, err);
        if (strcmp(n, ".nv.info") == 0 && sh.has_data) {
            if (read_module_info(c, &sh, k, err) != FATBIN_OK)
                return FATBIN_BAD;
        } else if (strncmp(n, NV_SHARED_PREFIX, strlen(NV_SHARED_PREFIX)) == 0 &&
                   strlen(n) == strlen(NV_SHARED_PREFIX) + name_len &&
                   strcmp(n + strlen(NV_SHARED_PREFIX), k->name) == 0) {
            k->shared_size = sh.size;
        }
    }
    return FATBIN_OK;
}

/* Makes a kernel from section `index` if it is a `.nv.info.<name>` section naming a symbol.
 * Returns FATBIN_OK with *found set accordingly, or FATBIN_BAD. */
static int kernel_from_section(const cubin *c, const fb_elf *elf, size_t index, cubin_kernel *k,
                               bool *found, fatbin_error *err)
{
    *found = false;
    fb_shdr sh;
    if (fatbin_elf_section(elf, index, &sh, err) != FATBIN_OK)
        return FATBIN_BAD;
    if (strncmp(sh.name_str, NV_INFO_PREFIX, strlen(NV_INFO_PREFIX)) != 0)
        return FATBIN_OK;
    if (sh.outside)
        return fatbin_elf_outside(elf, index, &sh, err);
    if (!sh.has_data)
        return FATBIN_OK;
    const char *name = sh.name_str + strlen(NV_INFO_PREFIX);
    if (strncmp(name, INTERNAL_PREFIX, strlen(INTERNAL_PREFIX)) == 0 || name[0] == 0)
        return FATBIN_OK;
    memset(k, 0, sizeof *k);
    if (find_symbol(c, elf, name, &k->symbol_index, err) != FATBIN_OK)
        return FATBIN_BAD;
    if (k->symbol_index == 0)
        return FATBIN_OK;
    k->name = name;
    k->info = c->image + sh.offset;
    k->info_size = (size_t)sh.size;
    if (complete_kernel(c, elf, k, err) != FATBIN_OK)
        return FATBIN_BAD;
    *found = true;
    return FATBIN_OK;
}

int cubin_next_kernel(const cubin *c, size_t *iter, cubin_kernel *k, fatbin_error *err)
{
    fb_elf elf;
    elf_view(c, &elf);
    /* *iter is the next section index to look at; section 0 is never a kernel. */
    for (size_t i = *iter == 0 ? 1 : *iter; i < elf.shnum; i++) {
        bool found;
        if (kernel_from_section(c, &elf, i, k, &found, err) != FATBIN_OK)
            return FATBIN_BAD;
        if (found) {
            *iter = i + 1;
            return FATBIN_OK;
        }
    }
    *iter = elf.shnum;
    return FATBIN_END;
}

/* Finds the section `.nv.info.<name>` by its name first and builds the kernel from that section
 * alone.  Building every kernel on the way, as cubin_next_kernel does, costs a walk of the
 * symbol table and a pass over the sections for each: 10 ms for one look-up in PyTorch's 22 MB
 * cubins, quadratic in the kernels when the runtime resolves them all (eager loading). */
int cubin_find_kernel(const cubin *c, const char *name, cubin_kernel *k, fatbin_error *err)
{
    fb_elf elf;
    elf_view(c, &elf);
    size_t prefix = strlen(NV_INFO_PREFIX);
    for (size_t i = 1; i < elf.shnum; i++) {
        fb_shdr sh;
        if (fatbin_elf_section(&elf, i, &sh, err) != FATBIN_OK)
            return FATBIN_BAD;
        if (strncmp(sh.name_str, NV_INFO_PREFIX, prefix) != 0 ||
            strcmp(sh.name_str + prefix, name) != 0)
            continue;
        bool found;
        if (kernel_from_section(c, &elf, i, k, &found, err) != FATBIN_OK)
            return FATBIN_BAD;
        if (found)
            return FATBIN_OK;
    }
    return FATBIN_END;
}

/* ---- the kernel table: every kernel found once ------------------------------------------------
 *
 * cubin_find_kernel walks the section table, the symbol table and the module's .nv.info for one
 * kernel: O(kernels) a look-up, so O(kernels^2) when a runtime resolves every kernel of a module
 * (CUDA_MODULE_LOADING=EAGER, 2,000 kernels: about 0.3 ms each on the H200).  cubin_kernels_read
 * makes one pass over each table instead: the entry functions' names, sorted, then every
 * `.nv.info.<name>` section that names one of them, sorted too.  A look-up is then a binary search
 * and a read of that kernel's own records.  The same kernel, the same answer as cubin_find_kernel
 * for what a launch needs (the count, the sizes, the parameter records); the module-wide records
 * (registers, frame and stack sizes, shared memory) it leaves 0: nothing on a launch reads them. */

typedef struct cubin_symbol_ref {
    const char *name;
    uint32_t index;
} cubin_symbol_ref;

/* Name order, then section (or symbol) order: the first of equal names is the one the linear
 * look-ups find. */
static int kernel_ref_cmp(const void *a, const void *b)
{
    const cubin_kernel_ref *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->section > y->section) - (x->section < y->section);
}

static int symbol_ref_cmp(const void *a, const void *b)
{
    const cubin_symbol_ref *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

static int symbol_name_cmp(const void *key, const void *elem)
{
    return strcmp(key, ((const cubin_symbol_ref *)elem)->name);
}

/* The entry functions of the symbol table, sorted by name (*out NULL when there are none). */
static int entry_symbols(const cubin *c, const fb_elf *elf, cubin_symbol_ref **out,
                         size_t *count, fatbin_error *err)
{
    *out = NULL;
    *count = 0;
    fb_shdr sh;
    size_t total, n = 0;
    int rc = symbol_table(c, elf, &sh, &total, err);
    if (rc != FATBIN_OK)
        return rc == FATBIN_END ? FATBIN_OK : FATBIN_BAD;
    cubin_symbol_ref *syms = total > 1 ? malloc((total - 1) * sizeof *syms) : NULL;
    if (total > 1 && !syms)
        return fatbin_fail(err, 0, "cubin kernels: out of memory");
    for (size_t i = 1; i < total; i++) {
        const char *name = entry_symbol_name(c, &sh, i);
        if (name)
            syms[n++] = (cubin_symbol_ref){ name, (uint32_t)i };
    }
    qsort(syms, n, sizeof *syms, symbol_ref_cmp);
    *out = syms;
    *count = n;
    return FATBIN_OK;
}

int cubin_kernels_read(cubin_kernels *out, const cubin *c, fatbin_error *err)
{
    if (!out)
        return fatbin_fail(err, 0, "cubin kernels: NULL argument");
    *out = (cubin_kernels){ 0 };
    if (!c)
        return fatbin_fail(err, 0, "cubin kernels: NULL argument");
    fb_elf elf;
    elf_view(c, &elf);
    cubin_symbol_ref *syms;
    size_t nsyms;
    if (entry_symbols(c, &elf, &syms, &nsyms, err) != FATBIN_OK)
        return FATBIN_BAD;
    size_t prefix = strlen(NV_INFO_PREFIX), cap = 0;
    for (size_t i = 1; i < elf.shnum; i++) {
        fb_shdr sh;
        if (fatbin_elf_section(&elf, i, &sh, err) != FATBIN_OK)
            goto fail;
        if (strncmp(sh.name_str, NV_INFO_PREFIX, prefix) != 0)
            continue;
        /* As kernel_from_section: no contents, an internal pseudo-kernel or no entry symbol of
         * that name is no kernel; contents outside the image are an error, at the look-up of
         * that name (before its symbol is looked for, as there). */
        const char *name = sh.name_str + prefix;
        if ((!sh.has_data && !sh.outside) || name[0] == 0 ||
            strncmp(name, INTERNAL_PREFIX, strlen(INTERNAL_PREFIX)) == 0)
            continue;
        const cubin_symbol_ref *sym = bsearch(name, syms, nsyms, sizeof *syms, symbol_name_cmp);
        if (!sym && !sh.outside)
            continue;
        while (sym && sym > syms && strcmp(sym[-1].name, name) == 0)
            sym--;                           /* the first symbol of that name, as find_symbol */
        if (out->count == cap) {
            size_t bigger = cap ? cap * 2 : 64;
            cubin_kernel_ref *items = realloc(out->items, bigger * sizeof *items);
            if (!items) {
                fatbin_fail(err, 0, "cubin kernels: out of memory");
                goto fail;
            }
            out->items = items;
            cap = bigger;
        }
        out->items[out->count++] = (cubin_kernel_ref){
            .name = name, .symbol_index = sym ? sym->index : 0, .section = i,
            .info = sh.outside ? NULL : c->image + sh.offset, .info_size = (size_t)sh.size,
            .outside = sh.outside,
        };
    }
    free(syms);
    qsort(out->items, out->count, sizeof *out->items, kernel_ref_cmp);
    return FATBIN_OK;
fail:
    free(syms);
    cubin_kernels_free(out);
    return FATBIN_BAD;
}

static int kernel_name_cmp(const void *key, const void *elem)
{
    return strcmp(key, ((const cubin_kernel_ref *)elem)->name);
}

int cubin_kernels_find(const cubin_kernels *t, const cubin *c, const char *name,
                       cubin_kernel *k, fatbin_error *err)
{
    if (!t || !c || !name || !k)
        return fatbin_fail(err, 0, "cubin kernels: NULL argument");
    const cubin_kernel_ref *r = t->count ? bsearch(name, t->items, t->count, sizeof *t->items,
                                                   kernel_name_cmp) : NULL;
    if (!r) {
        fatbin_fail(err, 0, "cubin has no kernel %s", name);
        return FATBIN_END;
    }
    while (r > t->items && strcmp(r[-1].name, name) == 0)
        r--;
    if (r->outside) {
        fb_elf elf;
        fb_shdr sh;
        elf_view(c, &elf);
        if (fatbin_elf_section(&elf, r->section, &sh, err) != FATBIN_OK)
            return FATBIN_BAD;
        return fatbin_elf_outside(&elf, r->section, &sh, err);
    }
    memset(k, 0, sizeof *k);
    k->name = r->name;
    k->symbol_index = r->symbol_index;
    k->info = r->info;
    k->info_size = r->info_size;
    return read_kernel_info(c, k, err);
}

void cubin_kernels_free(cubin_kernels *t)
{
    if (!t)
        return;
    free(t->items);
    *t = (cubin_kernels){ 0 };
}

/* ---- parameters ----------------------------------------------------------------------------- */

/* Decodes one KPARAM record into out[ordinal], checking ordinal range, duplicates and bounds. */
static int store_param(const cubin_kernel *k, const eiattr *rec, cubin_param *out,
                       fatbin_error *err)
{
    uint32_t ordinal = (uint32_t)fb_at(rec->data, 4, 2);
    uint32_t offset = (uint32_t)fb_at(rec->data, 6, 2);
    uint32_t info = u32_at(rec->data, 8);
    uint32_t size = rec->attr == EIATTR_KPARAM_INFO ? info >> 18 : info & 0xffffffu;
    if (ordinal >= k->param_count)
        return fatbin_fail(err, rec->at, "%s: parameter ordinal %u >= %u parameters", k->name,
                           ordinal, k->param_count);
    if (out[ordinal].ordinal != UINT32_MAX)
        return fatbin_fail(err, rec->at, "%s: parameter ordinal %u appears twice", k->name,
                           ordinal);
    if ((uint64_t)offset + size > k->param_size)
        return fatbin_fail(err, rec->at, "%s: parameter %u [%u, +%u) outside the %u-byte list",
                           k->name, ordinal, offset, size, k->param_size);
    out[ordinal].ordinal = ordinal;
    out[ordinal].offset = offset;
    out[ordinal].size = size;
    return FATBIN_OK;
}

int cubin_kernel_params(const cubin_kernel *k, cubin_param *out, size_t cap, fatbin_error *err)
{
    if (cap < k->param_count)
        return fatbin_fail(err, 0, "%s: %u parameters, room for %zu", k->name, k->param_count,
                           cap);
    for (uint32_t i = 0; i < k->param_count; i++)
        out[i].ordinal = UINT32_MAX;        /* "not seen yet" */
    /* The info view lies in the image; offsets in errors are from the info section start. */
    fb_cursor cur = fb_cursor_make(k->info, k->info_size, 0);
    eiattr rec = { 0 };
    int rc;
    uint32_t seen = 0;
    while ((rc = next_eiattr(&cur, 0, &rec, err)) == FATBIN_OK) {
        bool is_param = rec.attr == EIATTR_KPARAM_INFO || rec.attr == EIATTR_KPARAM_INFO_V2;
        if (!is_param || rec.format != EIFMT_SVAL)
            continue;
        if (rec.value < KPARAM_RECORD_SIZE || seen == k->param_count)
            return fatbin_fail(err, rec.at, "%s: parameter records changed", k->name);
        if (store_param(k, &rec, out, err) != FATBIN_OK)
            return FATBIN_BAD;
        seen++;
    }
    if (rc != FATBIN_END)
        return FATBIN_BAD;
    if (seen != k->param_count)
        return fatbin_fail(err, 0, "%s: %u parameter records, expected %u", k->name, seen,
                           k->param_count);
    return FATBIN_OK;
}
