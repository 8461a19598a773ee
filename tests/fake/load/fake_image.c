/*
 * fake_image.c - the fake driver's reading of the images cuModuleLoadDataEx receives.
 *
 * Deliberately independent of fatbin/ (the runtime's parser): the fake reads cubins its own,
 * simpler way, so a parser bug shows up as a disagreement instead of being shared by both sides.
 *
 *   cubin: ELF64, EM_CUDA (190).  SM from e_flags (ABI 8: bits 8-15; ABI 7: bits 0-7).  A kernel
 *          is a `.nv.info.<name>` section; its EIATTR records give the parameters
 *          (KPARAM_INFO 0x17 / _V2 0x45), the buffer size (CBANK_PARAM_SIZE 0x19) and launch
 *          bounds (MAX_THREADS 0x05).  Globals are STT_OBJECT symbols: st_size bytes, initialised
 *          from the section when it is PROGBITS (.nv.global.init, .nv.constant3), else zero.
 *   PTX:   `.target sm_XX`; `.entry name(` with its `.param` list (natural alignment, or
 *          `.align N .b8 name[M]`); top-level `.global` / `.const` variables with their
 *          initialisers.
 */
#define _GNU_SOURCE /* memmem, strndup */
#include "fake_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EM_CUDA 190
#define SHT_PROGBITS 1
#define SHT_SYMTAB 2
#define SHT_NOBITS 8
#define STT_OBJECT 1
#define MAX_IMAGE (1u << 30)
#define FAKE_PTX_NAME 512

void *fake_aligned_alloc(size_t size)
{
    size_t rounded = (size + 255) & ~(size_t)255;
    if (rounded == 0)
        rounded = 256;
    void *p = aligned_alloc(256, rounded);
    if (p)
        memset(p, 0, rounded);
    return p;
}

static uint16_t rd16(const unsigned char *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t rd32(const unsigned char *p) { return rd16(p) | (uint32_t)rd16(p + 2) << 16; }
static uint64_t rd64(const unsigned char *p) { return rd32(p) | (uint64_t)rd32(p + 4) << 32; }

/* ---- cubin ---------------------------------------------------------------------------------- */

typedef struct elf_section {
    uint32_t name, type;
    uint64_t addr, offset, size;
    uint32_t link, info;
    uint64_t entsize;
} elf_section;

static int elf_section_at(const fake_module *m, size_t index, elf_section *s)
{
    const unsigned char *h = m->image;
    uint64_t shoff = rd64(h + 0x28);
    uint16_t shentsize = rd16(h + 0x3a), shnum = rd16(h + 0x3c);
    if (index >= shnum || shentsize < 64)
        return -1;
    const unsigned char *p = h + shoff + index * shentsize;
    s->name = rd32(p);
    s->type = rd32(p + 4);
    s->addr = rd64(p + 0x10);
    s->offset = rd64(p + 0x18);
    s->size = rd64(p + 0x20);
    s->link = rd32(p + 0x28);
    s->info = rd32(p + 0x2c);
    s->entsize = rd64(p + 0x38);
    if (s->type != SHT_NOBITS && (s->offset > m->image_size || s->size > m->image_size - s->offset))
        return -1;
    return 0;
}

/* Name of a section, or "" when it does not lie inside the string table. */
static const char *elf_section_name(const fake_module *m, const elf_section *s)
{
    elf_section strtab;
    if (elf_section_at(m, rd16(m->image + 0x3e), &strtab) != 0 || s->name >= strtab.size)
        return "";
    const char *name = (const char *)m->image + strtab.offset + s->name;
    if (!memchr(name, 0, strtab.size - s->name))
        return "";
    return name;
}

/* The extent of an ELF image in memory we do not own: the furthest section header or section
 * contents.  Returns 0 when the headers are implausible. */
static size_t elf_extent(const unsigned char *h)
{
    uint64_t shoff = rd64(h + 0x28), phoff = rd64(h + 0x20);
    uint16_t phentsize = rd16(h + 0x36), phnum = rd16(h + 0x38);
    uint16_t shentsize = rd16(h + 0x3a), shnum = rd16(h + 0x3c);
    if (shentsize < 64 || shnum == 0 || shoff > MAX_IMAGE || phoff > MAX_IMAGE)
        return 0;
    uint64_t end = shoff + (uint64_t)shnum * shentsize;
    if (phnum && phoff + (uint64_t)phnum * phentsize > end)
        end = phoff + (uint64_t)phnum * phentsize;
    for (size_t i = 0; i < shnum; i++) {
        const unsigned char *p = h + shoff + i * shentsize;
        uint64_t off = rd64(p + 0x18), size = rd64(p + 0x20);
        if (rd32(p + 4) == SHT_NOBITS)
            continue;
        if (off > MAX_IMAGE || size > MAX_IMAGE)
            return 0;
        if (off + size > end)
            end = off + size;
    }
    return end > MAX_IMAGE ? 0 : (size_t)end;
}

static int cmp_param(const void *a, const void *b)
{
    const fake_param *x = a, *y = b;
    return (x->offset > y->offset) - (x->offset < y->offset);
}

/* Reads the EIATTR records of one `.nv.info.<name>` section into k. */
static int cubin_read_info(const unsigned char *p, size_t n, fake_kernel *k)
{
    fake_param params[4096];
    uint32_t ordinals[4096];
    unsigned count = 0;
    uint32_t cbank_size = 0;
    size_t pos = 0;
    while (n - pos >= 4) {
        unsigned fmt = p[pos], attr = p[pos + 1];
        size_t len = fmt == 0x04 ? rd16(p + pos + 2) : 0;
        if (len > n - pos - 4)
            return -1;
        const unsigned char *d = p + pos + 4;
        if ((attr == 0x17 || attr == 0x45) && fmt == 0x04 && len >= 12 && count < 4096) {
            uint32_t info = rd32(d + 8);
            ordinals[count] = rd16(d + 4);
            params[count].offset = rd16(d + 6);
            params[count].size = attr == 0x17 ? info >> 18 : (info & 0xffffff);
            count++;
        } else if (attr == 0x19 && fmt == 0x03) {
            cbank_size = rd16(p + pos + 2);
        } else if (attr == 0x05 && fmt == 0x04 && len >= 12) {
            k->max_threads = rd32(d) * (rd32(d + 4) ? rd32(d + 4) : 1) * (rd32(d + 8) ? rd32(d + 8) : 1);
        }
        pos += 4 + len;
    }
    /* Ordinals must be 0..count-1, each once; then order by ordinal (= by offset). */
    for (unsigned i = 0; i < count; i++)
        if (ordinals[i] >= count)
            return -1;
    k->params = calloc(count ? count : 1, sizeof *k->params);
    if (!k->params)
        return -1;
    for (unsigned i = 0; i < count; i++)
        k->params[ordinals[i]] = params[i];
    qsort(k->params, count, sizeof *k->params, cmp_param);
    k->param_count = count;
    uint32_t end = count ? k->params[count - 1].offset + k->params[count - 1].size : 0;
    k->param_size = cbank_size > end ? cbank_size : end;
    return 0;
}

static int cubin_load(fake_module *m, const unsigned char *h, char *err, size_t errcap)
{
    size_t size = elf_extent(h);
    if (h[4] != 2 || h[5] != 1 || rd16(h + 0x12) != EM_CUDA || size == 0) {
        snprintf(err, errcap, "fake: not a 64-bit little-endian EM_CUDA ELF image");
        return 200;
    }
    if (rd16(h + 0x10) != 2) {
        snprintf(err, errcap, "fake: relocatable cubin (e_type %u) cannot be loaded", rd16(h + 0x10));
        return 200;
    }
    m->image = malloc(size);
    if (!m->image)
        return 2;
    memcpy(m->image, h, size);
    m->image_size = size;
    uint32_t flags = rd32(h + 0x30);
    m->sm = h[8] >= 8 ? (flags >> 8) & 0xff : flags & 0xff;

    size_t shnum = rd16(h + 0x3c);
    m->kernels = calloc(shnum, sizeof *m->kernels);
    if (!m->kernels)
        return 2;
    for (size_t i = 0; i < shnum; i++) {
        elf_section s;
        if (elf_section_at(m, i, &s) != 0) {
            snprintf(err, errcap, "fake: section %zu out of bounds", i);
            return 200;
        }
        const char *name = elf_section_name(m, &s);
        if (strncmp(name, ".nv.info.", 9) != 0)
            continue;
        fake_kernel *k = &m->kernels[m->kernel_count];
        k->name = strdup(name + 9);
        k->module = m;
        if (!k->name || cubin_read_info(m->image + s.offset, s.size, k) != 0) {
            free(k->name);
            snprintf(err, errcap, "fake: bad .nv.info records in %s", name);
            return 200;
        }
        m->kernel_count++;
    }
    /* Static shared memory: .nv.shared.<kernel>. */
    for (size_t i = 0; i < shnum; i++) {
        elf_section s;
        elf_section_at(m, i, &s);
        const char *name = elf_section_name(m, &s);
        if (strncmp(name, ".nv.shared.", 11) != 0)
            continue;
        for (unsigned j = 0; j < m->kernel_count; j++)
            if (strcmp(m->kernels[j].name, name + 11) == 0)
                m->kernels[j].shared_size = s.size;
    }
    return 0;
}

static fake_global *module_add_global(fake_module *m, const char *name, size_t size)
{
    if (m->global_count == m->global_cap) {
        unsigned cap = m->global_cap ? 2 * m->global_cap : 8;
        fake_global *g = realloc(m->globals, cap * sizeof *g);
        if (!g)
            return NULL;
        m->globals = g;
        m->global_cap = cap;
    }
    fake_global *g = &m->globals[m->global_count];
    g->name = strdup(name);
    g->size = size;
    g->managed = 0;
    g->storage = fake_aligned_alloc(size);
    if (!g->name || !g->storage) {
        free(g->name);
        free(g->storage);
        return NULL;
    }
    m->global_count++;
    return g;
}

/* Looks `name` up in the cubin's symbol table and materialises its storage. */
static fake_global *cubin_global(fake_module *m, const char *name)
{
    size_t shnum = rd16(m->image + 0x3c);
    for (size_t i = 0; i < shnum; i++) {
        elf_section symtab, strtab;
        if (elf_section_at(m, i, &symtab) != 0 || symtab.type != SHT_SYMTAB)
            continue;
        if (elf_section_at(m, symtab.link, &strtab) != 0)
            return NULL;
        for (uint64_t off = 0; off + 24 <= symtab.size; off += 24) {
            const unsigned char *sym = m->image + symtab.offset + off;
            uint32_t st_name = rd32(sym);
            if ((sym[4] & 0xf) != STT_OBJECT || st_name >= strtab.size)
                continue;
            const char *sname = (const char *)m->image + strtab.offset + st_name;
            if (strncmp(sname, name, strtab.size - st_name) != 0)
                continue;
            elf_section data;
            uint64_t value = rd64(sym + 8), size = rd64(sym + 16);
            if (elf_section_at(m, rd16(sym + 6), &data) != 0)
                return NULL;
            fake_global *g = module_add_global(m, name, size);
            uint64_t start = value - data.addr;
            if (g && data.type == SHT_PROGBITS && start <= data.size && size <= data.size - start)
                memcpy(g->storage, m->image + data.offset + start, size);
            /* st_other 4 marks a __managed__ variable (nvcc 13.0 cubins, checked with readelf). */
            if (g)
                g->managed = (sym[5] & 4) != 0;
            return g;
        }
    }
    return NULL;
}

/* ---- PTX ------------------------------------------------------------------------------------ */

/* Size in bytes of a PTX scalar type token (".u32", ".f64", ".b8", ".pred"...), 0 if not one. */
static unsigned ptx_type_size(const char *tok)
{
    static const char *const types[] = {".u8", ".s8", ".b8", ".u16", ".s16", ".b16", ".f16",
                                        ".u32", ".s32", ".b32", ".f32", ".u64", ".s64", ".b64",
                                        ".f64"};
    static const unsigned sizes[] = {1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 8, 8, 8, 8};
    for (size_t i = 0; i < sizeof types / sizeof *types; i++) {
        size_t n = strlen(types[i]);
        if (strncmp(tok, types[i], n) == 0 && !isalnum((unsigned char)tok[n]))
            return sizes[i];
    }
    return 0;
}

/* Parses one declaration "[.align N] .type [qualifiers] name[[M]]" starting at p (up to the
 * first of `stops`).  Fills size/align and the name; returns a pointer after the name. */
static const char *ptx_decl(const char *p, const char *stops, char *name, size_t cap,
                            unsigned *size, unsigned *align)
{
    unsigned elem = 0, explicit_align = 0, count = 1;
    name[0] = 0;
    while (*p && !strchr(stops, *p)) {
        while (isspace((unsigned char)*p))
            p++;
        if (!*p || strchr(stops, *p))
            break;
        const char *tok = p;
        while (*p && !isspace((unsigned char)*p) && !strchr(stops, *p) && *p != '[')
            p++;
        size_t len = (size_t)(p - tok);
        if (len == 6 && strncmp(tok, ".align", 6) == 0) {
            unsigned long v = strtoul(p, (char **)&p, 10);
            if (!elem)
                explicit_align = (unsigned)v;
        } else if (tok[0] == '.' && !elem && ptx_type_size(tok)) {
            elem = ptx_type_size(tok);
        } else if (tok[0] != '.' && len > 0) {
            snprintf(name, cap, "%.*s", (int)len, tok);
            if (*p == '[') {
                count = (unsigned)strtoul(p + 1, (char **)&p, 10);
                if (*p == ']')
                    p++;
            }
            break;
        }
    }
    *size = elem * (count ? count : 1);
    *align = explicit_align ? explicit_align : (elem ? elem : 1);
    return p;
}

static int ptx_entry(fake_module *m, const char *p)
{
    fake_kernel *k = &m->kernels[m->kernel_count];
    const char *name = p;
    while (*p && *p != '(' && !isspace((unsigned char)*p))
        p++;
    k->name = strndup(name, (size_t)(p - name));
    k->params = calloc(256, sizeof *k->params);
    k->module = m;
    if (!k->name || !k->params)
        return -1;
    while (isspace((unsigned char)*p))
        p++;
    uint32_t offset = 0;
    if (*p == '(') {
        p++;
        for (;;) {
            while (isspace((unsigned char)*p) || *p == ',')
                p++;
            if (*p != '.' || strncmp(p, ".param", 6) != 0 || k->param_count == 256)
                break;
            char pname[FAKE_PTX_NAME];
            unsigned size, align;
            p = ptx_decl(p + 6, ",)", pname, sizeof pname, &size, &align);
            offset = (offset + align - 1) / align * align;
            k->params[k->param_count].offset = offset;
            k->params[k->param_count].size = size;
            k->param_count++;
            offset += size;
        }
    }
    k->param_size = offset;
    m->kernel_count++;
    return 0;
}

/* Stores one initialiser value (decimal, 0x hex, 0fXXXXXXXX float bits, 0dXXXX double bits). */
static const char *ptx_value(const char *p, unsigned char *dst, unsigned elem)
{
    uint64_t v;
    while (isspace((unsigned char)*p))
        p++;
    if (p[0] == '0' && (p[1] == 'f' || p[1] == 'F' || p[1] == 'd' || p[1] == 'D'))
        v = strtoull(p + 2, (char **)&p, 16);
    else if (*p == '-')
        v = (uint64_t)strtoll(p, (char **)&p, 0);
    else
        v = strtoull(p, (char **)&p, 0);
    for (unsigned i = 0; i < elem && i < 8; i++)
        dst[i] = (unsigned char)(v >> (8 * i));
    return p;
}

static void ptx_global(fake_module *m, const char *p)
{
    char name[FAKE_PTX_NAME];
    unsigned size, align;
    const char *q = p;
    /* Skip .attribute(.managed) before the declaration proper. */
    const char *attr = strstr(q, ".attribute(");
    const char *eol = strchr(q, ';');
    int managed = 0;
    if (attr && eol && attr < eol) {
        const char *close = strchr(attr, ')');
        managed = strncmp(attr, ".attribute(.managed)", 20) == 0;
        if (close)
            q = close + 1;
    }
    unsigned elem = 0;
    for (const char *t = q; eol && t < eol; t++)
        if (*t == '.' && (elem = ptx_type_size(t)) != 0)
            break;
    q = ptx_decl(q, "=;", name, sizeof name, &size, &align);
    if (!name[0] || size == 0 || !elem)
        return;
    fake_global *g = module_add_global(m, name, size);
    if (!g)
        return;
    g->managed = managed;
    while (*q && *q != '=' && *q != ';')
        q++;
    if (*q != '=')
        return;
    q++;
    while (isspace((unsigned char)*q) || *q == '{')
        q++;
    for (size_t at = 0; at + elem <= size && *q && *q != ';' && *q != '}'; at += elem) {
        q = ptx_value(q, g->storage + at, elem);
        while (isspace((unsigned char)*q) || *q == ',')
            q++;
    }
}

static int ptx_load(fake_module *m, const char *text, char *err, size_t errcap)
{
    size_t len = strlen(text);
    m->image = malloc(len + 1);
    if (!m->image)
        return 2;
    memcpy(m->image, text, len + 1);
    m->image_size = len + 1;
    m->jit = 1;
    const char *t = (const char *)m->image;
    const char *target = strstr(t, ".target");
    if (!target || strncmp(target + 7 + strspn(target + 7, " \t"), "sm_", 3) != 0) {
        snprintf(err, errcap, "fake: PTX without .target sm_XX");
        return 218;
    }
    m->sm = (unsigned)strtoul(target + 7 + strspn(target + 7, " \t") + 3, NULL, 10);
    size_t entries = 0;
    for (const char *e = t; (e = strstr(e, ".entry")) != NULL; e += 6)
        entries++;
    m->kernels = calloc(entries ? entries : 1, sizeof *m->kernels);
    if (!m->kernels)
        return 2;
    /* Walk the top level line by line; function bodies are skipped by brace depth. */
    int depth = 0;
    for (const char *line = t; *line; ) {
        const char *end = strchr(line, '\n');
        size_t n = end ? (size_t)(end - line) : strlen(line);
        const char *p = line + strspn(line, " \t");
        if (depth == 0) {
            const char *entry = strstr(p, ".entry ");
            if (entry && entry < line + n && ptx_entry(m, entry + 7) != 0)
                return 2;
            const char *s = p;
            if (strncmp(s, ".visible ", 9) == 0 || strncmp(s, ".weak ", 6) == 0)
                s += strcspn(s, " ") + 1;
            if (strncmp(s, ".global ", 8) == 0 || strncmp(s, ".const ", 7) == 0)
                ptx_global(m, s + strcspn(s, " "));
        }
        for (size_t i = 0; i < n; i++)
            depth += line[i] == '{' ? 1 : line[i] == '}' ? -1 : 0;
        line += n + (end ? 1 : 0);
    }
    if (m->kernel_count == 0 && m->global_count == 0 && !strstr(t, ".version")) {
        snprintf(err, errcap, "fake: PTX text with neither .version nor entries");
        return 218;
    }
    return 0;
}

/* ---- entry points for the module loaders (fake_module.c, fake_library.c) -------------------- */

int fake_image_load(fake_module *m, const void *image, char *err, size_t errcap)
{
    const unsigned char *h = image;
    err[0] = 0;
    if (!h) {
        snprintf(err, errcap, "fake: NULL image");
        return 1;
    }
    if (h[0] == 0x7f && h[1] == 'E' && h[2] == 'L' && h[3] == 'F')
        return cubin_load(m, h, err, errcap);
    if (rd32(h) == 0xBA55ED50u || rd32(h) == 0x466243B1u) {
        snprintf(err, errcap, "fake: fatbin images are not accepted (the runtime chooses)");
        return 200;
    }
    /* PTX: printable text that mentions .version or .target near its start. */
    for (size_t i = 0; i < 64 && h[i]; i++)
        if (!isprint(h[i]) && !isspace(h[i])) {
            snprintf(err, errcap, "fake: neither an ELF cubin nor PTX text");
            return 200;
        }
    if (!memmem(h, strnlen((const char *)h, 1u << 20), ".target", 7)) {
        snprintf(err, errcap, "fake: neither an ELF cubin nor PTX text");
        return 200;
    }
    return ptx_load(m, (const char *)h, err, errcap);
}

fake_global *fake_image_global(fake_module *m, const char *name)
{
    for (unsigned i = 0; i < m->global_count; i++)
        if (strcmp(m->globals[i].name, name) == 0)
            return &m->globals[i];
    return m->jit ? NULL : cubin_global(m, name);
}

void fake_image_free(fake_module *m)
{
    for (unsigned i = 0; i < m->kernel_count; i++) {
        free(m->kernels[i].name);
        free(m->kernels[i].params);
    }
    for (unsigned i = 0; i < m->global_count; i++) {
        free(m->globals[i].name);
        free(m->globals[i].storage);
    }
    free(m->kernels);
    free(m->globals);
    free(m->image);
}
