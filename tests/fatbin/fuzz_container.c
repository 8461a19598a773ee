/*
 * fuzz_container.c - the fatbin walker: the wrapper, the container header and the entries, the
 * way the runtime meets them and the way the inspector does.
 *
 * Input: any bytes, walked three ways.
 *   1. As one container of exactly `size` bytes: fatbin_container_open, fatbin_next_entry.
 *   2. As a file: fatbin_file_scan (a raw fatbin, possibly several containers each padded to 8,
 *      or the .nv_fatbin / __nv_relfatbin sections of an ELF file) and, for ELF files, the
 *      wrappers of .nvFatBinSegment and the .dynamic and symbol readers of `fatbin check`.
 *   3. When it starts with the wrapper magic: as the 24-byte wrapper nvcc hands to
 *      __cudaRegisterFatBinary, followed by its container.  The stored pointers cannot be
 *      followed, so a non-zero data pointer is redirected to the bytes after the wrapper and a
 *      non-zero v2 array pointer to a one-element array of them; the container is then opened
 *      as register.c opens it, with no size limit, and walked if it fits in the input.
 *
 * Each entry is held to fatbin.h's promises: entries follow one another without gaps from the
 * container header to its end; the header, the payload, the ident, option and compat bytes lie
 * inside the container (the strings inside the entry header); sizes agree with the flags; the
 * name helpers stay inside any buffer they are given.
 *
 * Accepted: the way that applies (3 for a wrapper, else 2) found at least one entry and rejected
 * nothing.
 */
#include <stdio.h>
#include <string.h>

#include "fuzz_targets.h"

typedef struct walk_stats {
    unsigned long containers, entries, rejected;
} walk_stats;

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* A view that claims bytes must lie in [base, base + size); an absent one claims none. */
static void require_view(const void *view, size_t len, const void *base, size_t size,
                         const char *what)
{
    if (!view) {
        fuzz_require(len == 0, what);
        return;
    }
    fuzz_require(fuzz_inside(view, len, base, size), what);
    if (len > 0) {
        /* Touch both ends, so ASan sees a view that escapes the input altogether. */
        volatile uint8_t first = ((const uint8_t *)view)[0];
        volatile uint8_t last = ((const uint8_t *)view)[len - 1];
        (void)first;
        (void)last;
    }
}

/* The name helpers: NUL-terminated in any capacity, untouched buffers with capacity 0. */
static void check_names(const fatbin_entry *e)
{
    char tiny[4], full[64], untouched[1] = { 'x' };
    fatbin_arch_name(e, tiny, sizeof tiny);
    fuzz_require(memchr(tiny, 0, sizeof tiny) != NULL, "fatbin_arch_name: not terminated");
    fatbin_arch_name(e, full, sizeof full);
    fuzz_require(strncmp(tiny, full, sizeof tiny - 1) == 0, "fatbin_arch_name: prefix differs");
    fatbin_arch_name(e, untouched, 0);
    fatbin_kind_name(e->kind, tiny, sizeof tiny);
    fuzz_require(memchr(tiny, 0, sizeof tiny) != NULL, "fatbin_kind_name: not terminated");
    fatbin_kind_name(e->kind, full, sizeof full);
    fatbin_kind_name(e->kind, untouched, 0);
    fuzz_require(untouched[0] == 'x', "name helper wrote into a 0-byte buffer");
    fuzz_require(fatbin_compression_name(e->flags) != NULL, "fatbin_compression_name: NULL");
}

static void check_entry(const fatbin_container *c, const fatbin_entry *e)
{
    const uint8_t *hdr = c->base + e->offset;
    fuzz_require(e->offset >= FATBIN_CONTAINER_HEADER_SIZE && e->offset < c->size,
                 "entry offset outside the container");
    fuzz_require(e->header_size >= FATBIN_ENTRY_MIN_HEADER, "entry header below the minimum");
    require_view(hdr, e->header_size, c->base, c->size, "entry header outside the container");
    fuzz_require(e->payload == hdr + e->header_size, "payload does not follow the header");
    fuzz_require(e->payload_size <= c->size, "payload larger than the container");
    require_view(e->payload, (size_t)e->payload_size, c->base, c->size,
                 "payload outside the container");
    if (e->flags & FATBIN_FLAG_COMPRESSION_MASK)
        fuzz_require(e->compressed_size <= e->payload_size, "compressed size above payload size");
    uint64_t image = (e->flags & FATBIN_FLAG_COMPRESSION_MASK) ? e->uncompressed_size :
                     e->payload_size;
    fuzz_require(fatbin_entry_image_size(e) == image, "fatbin_entry_image_size disagrees");
    require_view(e->ident, e->ident_len, hdr, e->header_size, "ident outside the entry header");
    require_view(e->options, e->options_len, hdr, e->header_size,
                 "option string outside the entry header");
    require_view(e->compat, e->compat_len, hdr, e->header_size,
                 "compat bytes outside the entry header");
    fuzz_require(!(e->options && e->compat), "both an option string and compat bytes");
    check_names(e);
}

/* Walks every entry of c, which must lie in [base, base + size).  Returns the number of
 * entries, or -1 after a clean rejection. */
static long walk(const fatbin_container *c, const uint8_t *base, size_t size, walk_stats *ws)
{
    fuzz_require(c->size >= FATBIN_CONTAINER_HEADER_SIZE, "container smaller than its header");
    require_view(c->base, c->size, base, size, "container outside the input");
    ws->containers++;
    size_t pos = 0, expect = FATBIN_CONTAINER_HEADER_SIZE;
    long count = 0;
    fatbin_entry e;
    fatbin_error err;
    fuzz_error_init(&err);
    int rc;
    while ((rc = fatbin_next_entry(c, &pos, &e, &err)) == FATBIN_OK) {
        fuzz_require(e.offset == expect, "entry not where the previous one ended");
        check_entry(c, &e);
        expect = e.offset + e.header_size + (size_t)e.payload_size;
        fuzz_require(pos == expect, "iterator position is not the entry's end");
        count++;
    }
    if (rc == FATBIN_END) {
        fuzz_require(expect == c->size, "walk ended before the container's end");
        fuzz_require(fatbin_next_entry(c, &pos, &e, &err) == FATBIN_END, "END is not final");
        ws->entries += (unsigned long)count;
        return count;
    }
    fuzz_require(rc == FATBIN_BAD, "fatbin_next_entry: unknown return code");
    fuzz_require_clean_error(&err, c->size, "fatbin_next_entry");
    ws->rejected++;
    return -1;
}

/* ---- way 1: one container ------------------------------------------------------------------- */

static void as_container(const uint8_t *data, size_t size)
{
    fatbin_container c;
    fatbin_error err;
    fuzz_error_init(&err);
    walk_stats ws = { 0 };
    if (fatbin_container_open(&c, data, size, &err) != FATBIN_OK) {
        fuzz_require_clean_error(&err, size, "fatbin_container_open");
        return;
    }
    fuzz_require(c.base == data, "container base moved");
    walk(&c, data, size, &ws);
}

/* ---- way 2: a file -------------------------------------------------------------------------- */

typedef struct file_ctx {
    const uint8_t *data;
    size_t size;
    walk_stats ws;
    long callbacks;
} file_ctx;

static int on_container(const fatbin_file_section *sec, const fatbin_container *c, void *user)
{
    file_ctx *fc = user;
    fc->callbacks++;
    fuzz_require(sec->name && sec->file_offset <= fc->size, "section outside the file");
    walk(c, fc->data, fc->size, &fc->ws);
    return 0;
}

static int on_error(const fatbin_file_section *sec, const fatbin_error *err, void *user)
{
    file_ctx *fc = user;
    fuzz_require_clean_error(err, fc->size, "fatbin_file_scan (callback)");
    fc->ws.rejected++;
    return 0;
}

static int on_wrapper(const fatbin_file_wrapper *w, void *user)
{
    file_ctx *fc = user;
    fuzz_require(w->index == (size_t)fc->callbacks, "wrapper index out of order");
    fc->callbacks++;
    fuzz_require(w->magic == FATBIN_WRAPPER_MAGIC, "wrapper returned with a bad magic");
    fuzz_require(w->file_offset <= fc->size && FATBIN_WRAPPER_SIZE <= fc->size - w->file_offset,
                 "wrapper outside the file");
    if (w->data_section) {
        require_view(w->data_section, strlen(w->data_section) + 1, fc->data, fc->size,
                     "wrapper data section name outside the file");
        fuzz_require(w->data_file_offset < fc->size, "wrapper data outside the file");
    }
    return 0;
}

static int on_dynamic(uint64_t tag, const char *value, void *user)
{
    file_ctx *fc = user;
    fuzz_require(tag == FATBIN_DT_NEEDED || tag == FATBIN_DT_SONAME, "unexpected .dynamic tag");
    require_view(value, strlen(value) + 1, fc->data, fc->size, ".dynamic string outside the file");
    return 0;
}

static int on_symbol(const fatbin_file_symbol *s, void *user)
{
    file_ctx *fc = user;
    require_view(s->name, strlen(s->name) + 1, fc->data, fc->size, "symbol name outside the file");
    if (s->version)
        require_view(s->version, strlen(s->version) + 1, fc->data, fc->size,
                     "symbol version outside the file");
    if (s->version_file)
        require_view(s->version_file, strlen(s->version_file) + 1, fc->data, fc->size,
                     "symbol version file outside the file");
    return 0;
}

/* Each ELF reader returns a count or FATBIN_BAD; the count must match the callbacks made. */
static void elf_readers(file_ctx *fc)
{
    fatbin_error err;
    fuzz_error_init(&err);
    fc->callbacks = 0;
    long n = fatbin_file_wrappers(fc->data, fc->size, on_wrapper, fc, &err);
    if (n < 0) {
        fuzz_require_clean_error(&err, fc->size, "fatbin_file_wrappers");
        fc->ws.rejected++;
    } else {
        fuzz_require(n == fc->callbacks, "fatbin_file_wrappers: count differs from callbacks");
    }
    fuzz_error_init(&err);
    if (fatbin_file_dynamic(fc->data, fc->size, on_dynamic, fc, &err) < 0) {
        fuzz_require_clean_error(&err, fc->size, "fatbin_file_dynamic");
        fc->ws.rejected++;
    }
    fuzz_error_init(&err);
    if (fatbin_file_symbols(fc->data, fc->size, on_symbol, fc, &err) < 0) {
        fuzz_require_clean_error(&err, fc->size, "fatbin_file_symbols");
        fc->ws.rejected++;
    }
}

static int as_file(const uint8_t *data, size_t size)
{
    file_ctx fc = { data, size, { 0 }, 0 };
    fatbin_error err;
    fuzz_error_init(&err);
    long n = fatbin_file_scan(data, size, on_container, on_error, &fc, &err);
    if (n < 0) {
        fuzz_require_clean_error(&err, size, "fatbin_file_scan");
        fc.ws.rejected++;
    } else {
        fuzz_require(n == fc.callbacks, "fatbin_file_scan: count differs from callbacks");
    }
    if (size >= 4 && memcmp(data, "\x7f" "ELF", 4) == 0)
        elf_readers(&fc);
    return fc.ws.entries > 0 && fc.ws.rejected == 0 ? FUZZ_ACCEPTED : FUZZ_REJECTED;
}

/* ---- way 3: a wrapper in memory ------------------------------------------------------------- */

static int as_wrapper(const uint8_t *data, size_t size)
{
    const uint8_t *container = data + FATBIN_WRAPPER_SIZE;
    size_t avail = size - FATBIN_WRAPPER_SIZE;
    const void *prelinked[2] = { container, NULL };
    /* The wrapper as the runtime sees it: 8-byte aligned, pointers into this process. */
    uint64_t words[3];
    memcpy(words, data, sizeof words);
    uint64_t data_ptr = words[1], array_ptr = words[2];
    if (words[1] != 0)
        words[1] = (uint64_t)(uintptr_t)container;
    if (words[2] != 0)
        words[2] = (uint64_t)(uintptr_t)prelinked;
    fatbin_wrapper w;
    fatbin_error err;
    fuzz_error_init(&err);
    if (fatbin_wrapper_read(words, &w, &err) != FATBIN_OK) {
        fuzz_require_clean_error(&err, FATBIN_WRAPPER_SIZE, "fatbin_wrapper_read");
        return FUZZ_REJECTED;
    }
    fuzz_require(w.version == 1 || w.version == 2, "wrapper version not 1 or 2");
    fuzz_require(data_ptr != 0 && w.data == container, "wrapper data pointer not as stored");
    if (w.version == 1 || array_ptr == 0)
        fuzz_require(w.prelinked == NULL, "prelinked array where none is stored");
    else
        fuzz_require(w.prelinked == prelinked, "prelinked array not as stored");
    if (avail < FATBIN_CONTAINER_HEADER_SIZE)
        return FUZZ_REJECTED;       /* the runtime's precondition: a header is there to read */
    fatbin_container c;
    fuzz_error_init(&err);
    if (fatbin_container_open(&c, w.data, SIZE_MAX, &err) != FATBIN_OK) {
        fuzz_require_clean_error(&err, FATBIN_CONTAINER_HEADER_SIZE, "fatbin_container_open");
        return FUZZ_REJECTED;
    }
    if (c.size > avail)
        return FUZZ_REJECTED;       /* a runtime would trust it; the input has no such bytes */
    walk_stats ws = { 0 };
    long n = walk(&c, container, avail, &ws);
    for (size_t i = 0; w.prelinked && w.prelinked[i]; i++) {
        fatbin_container pc;
        fuzz_require(fatbin_container_open(&pc, w.prelinked[i], avail, &err) == FATBIN_OK,
                     "prelinked container differs from the one already opened");
        walk(&pc, container, avail, &ws);
    }
    return n > 0 ? FUZZ_ACCEPTED : FUZZ_REJECTED;
}

int fuzz_container(const uint8_t *data, size_t size)
{
    fatbin_wrapper w;
    fatbin_error err;
    fuzz_error_init(&err);
    fuzz_require(fatbin_wrapper_read(NULL, &w, &err) == FATBIN_BAD, "NULL wrapper accepted");
    fuzz_require_clean_error(&err, 0, "fatbin_wrapper_read(NULL)");
    as_container(data, size);
    int file = as_file(data, size);
    if (size >= FATBIN_WRAPPER_SIZE && le32(data) == FATBIN_WRAPPER_MAGIC)
        return as_wrapper(data, size);
    return file;
}
