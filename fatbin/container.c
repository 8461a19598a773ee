/*
 * container.c - the wrapper, the container header and the walk over its entries.
 *
 * The layouts are the tables at the top of fatbin.h.  Entries are returned as views into the
 * caller's bytes; an entry is only returned once its fixed header, its whole header_size, its
 * payload and every tail string it points to are known to lie inside the container.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cursor.h"
#include "internal.h"

int fatbin_fail(fatbin_error *err, size_t offset, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        err->offset = offset;
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
    }
    return FATBIN_BAD;
}

/* ---- wrapper -------------------------------------------------------------------------------- */

int fatbin_wrapper_read(const void *wrapper, fatbin_wrapper *out, fatbin_error *err)
{
    if (!wrapper)
        return fatbin_fail(err, 0, "wrapper pointer is NULL");
    /* The wrapper lives in process memory and is 24 bytes by definition: a cursor over exactly
     * those bytes keeps the reads uniform with the rest of the parser. */
    fb_cursor cur = fb_cursor_make(wrapper, FATBIN_WRAPPER_SIZE, 0);
    uint32_t magic, version;
    uint64_t data, fatbins;
    fb_u32(&cur, &magic);
    fb_u32(&cur, &version);
    fb_u64(&cur, &data);
    fb_u64(&cur, &fatbins);
    if (magic != FATBIN_WRAPPER_MAGIC)
        return fatbin_fail(err, 0, "bad wrapper magic 0x%08x (expected 0x%08x)", magic,
                           FATBIN_WRAPPER_MAGIC);
    if (version != 1 && version != 2)
        return fatbin_fail(err, 4, "unsupported wrapper version %u (expected 1 or 2)", version);
    if (data == 0)
        return fatbin_fail(err, 8, "wrapper data pointer is NULL");
    out->version = version;
    out->data = (const void *)(uintptr_t)data;
    /* Version 1 stores an (always NULL) offline file name here; only v2 holds the array. */
    out->prelinked = version == 2 ? (const void *const *)(uintptr_t)fatbins : NULL;
    return FATBIN_OK;
}

/* ---- container ------------------------------------------------------------------------------ */

int fatbin_container_open(fatbin_container *c, const void *data, size_t avail, fatbin_error *err)
{
    if (!data)
        return fatbin_fail(err, 0, "container pointer is NULL");
    if (avail < FATBIN_CONTAINER_HEADER_SIZE)
        return fatbin_fail(err, 0, "truncated container header: %zu bytes, need %u", avail,
                           FATBIN_CONTAINER_HEADER_SIZE);
    /* With avail == SIZE_MAX the header is read first and the extent taken from it. */
    fb_cursor cur = fb_cursor_make(data, FATBIN_CONTAINER_HEADER_SIZE, 0);
    uint32_t magic;
    uint16_t version, header_size;
    uint64_t fat_size;
    fb_u32(&cur, &magic);
    fb_u16(&cur, &version);
    fb_u16(&cur, &header_size);
    fb_u64(&cur, &fat_size);
    if (magic != FATBIN_CONTAINER_MAGIC)
        return fatbin_fail(err, 0, "bad container magic 0x%08x (expected 0x%08x)", magic,
                           FATBIN_CONTAINER_MAGIC);
    if (header_size != FATBIN_CONTAINER_HEADER_SIZE)
        return fatbin_fail(err, 6, "bad container header size 0x%x (expected 0x%x)", header_size,
                           FATBIN_CONTAINER_HEADER_SIZE);
    if (fat_size > avail - FATBIN_CONTAINER_HEADER_SIZE)
        return fatbin_fail(err, 8, "container fat_size %llu exceeds the %zu bytes available",
                           (unsigned long long)fat_size, avail - FATBIN_CONTAINER_HEADER_SIZE);
    c->base = data;
    c->size = FATBIN_CONTAINER_HEADER_SIZE + (size_t)fat_size;
    return FATBIN_OK;
}

/* ---- entries -------------------------------------------------------------------------------- */

/* Fields of the entry header as stored, before they are checked. */
typedef struct raw_entry {
    uint16_t kind, version;
    uint32_t header_size;
    uint64_t payload_size;
    uint32_t compressed_size, ext_desc_offset;
    uint16_t minor, major;
    uint32_t arch, ident_offset, ident_size;
    uint64_t flags, reserved, uncompressed_size;
} raw_entry;

static void read_fixed_header(fb_cursor *cur, raw_entry *r)
{
    /* The caller has checked that FATBIN_ENTRY_MIN_HEADER bytes are left. */
    fb_u16(cur, &r->kind);
    fb_u16(cur, &r->version);
    fb_u32(cur, &r->header_size);
    fb_u64(cur, &r->payload_size);
    fb_u32(cur, &r->compressed_size);
    fb_u32(cur, &r->ext_desc_offset);
    fb_u16(cur, &r->minor);
    fb_u16(cur, &r->major);
    fb_u32(cur, &r->arch);
    fb_u32(cur, &r->ident_offset);
    fb_u32(cur, &r->ident_size);
    fb_u64(cur, &r->flags);
    fb_u64(cur, &r->reserved);
    fb_u64(cur, &r->uncompressed_size);
}

/* Is [off, off + len) inside an entry header of hsize bytes? */
static bool in_header(uint64_t off, uint64_t len, uint32_t hsize)
{
    return off <= hsize && len <= hsize - off;
}

/* The tail of an entry header: the optional ident string and the {off, len} descriptor of the
 * option string (or, for sm_100+ ELF, of the .nv.compat copy).  Everything must lie inside the
 * header, which is already known to be in bounds.  `at` is the entry's container offset. */
static int read_entry_tail(const uint8_t *hdr, size_t at, const raw_entry *r, fatbin_entry *e,
                           fatbin_error *err)
{
    if (r->ident_size != 0) {
        if (!in_header(r->ident_offset, r->ident_size, r->header_size))
            return fatbin_fail(err, at + 0x20,
                               "entry at 0x%zx: ident string {0x%x, %u} outside its 0x%x-byte header",
                               at, r->ident_offset, r->ident_size, r->header_size);
        e->ident = (const char *)hdr + r->ident_offset;
        e->ident_len = r->ident_size;
    }
    if (r->ext_desc_offset == 0)
        return FATBIN_OK;
    if (!in_header(r->ext_desc_offset, 8, r->header_size))
        return fatbin_fail(err, at + 0x14,
                           "entry at 0x%zx: descriptor offset 0x%x outside its 0x%x-byte header",
                           at, r->ext_desc_offset, r->header_size);
    uint32_t off = (uint32_t)fb_at(hdr, r->ext_desc_offset, 4);
    uint32_t len = (uint32_t)fb_at(hdr, r->ext_desc_offset + 4, 4);
    if (!in_header(off, len, r->header_size))
        return fatbin_fail(err, at + r->ext_desc_offset,
                           "entry at 0x%zx: option string {0x%x, %u} outside its 0x%x-byte header",
                           at, off, len, r->header_size);
    if (r->kind == FATBIN_KIND_ELF && (r->flags & FATBIN_FLAG_COMPAT_TAIL)) {
        e->compat = hdr + off;
        e->compat_len = len;
    } else {
        e->options = (const char *)hdr + off;
        e->options_len = len;
    }
    return FATBIN_OK;
}

static void fill_entry(fatbin_entry *e, const raw_entry *r, const uint8_t *hdr, size_t at)
{
    memset(e, 0, sizeof *e);
    e->offset = at;
    e->kind = r->kind;
    e->header_size = r->header_size;
    e->payload_size = r->payload_size;
    e->compressed_size = r->compressed_size;
    e->uncompressed_size = r->uncompressed_size;
    e->flags = r->flags;
    e->arch = r->arch;
    e->major = r->major;
    e->minor = r->minor;
    e->payload = hdr + r->header_size;
}

int fatbin_next_entry(const fatbin_container *c, size_t *pos, fatbin_entry *e, fatbin_error *err)
{
    /* *pos == 0 means "before the first entry", which sits right after the container header. */
    size_t at = *pos == 0 ? FATBIN_CONTAINER_HEADER_SIZE : *pos;
    if (at == c->size)
        return FATBIN_END;
    fb_cursor cur = fb_cursor_make(c->base, c->size, at);
    if (!fb_has(&cur, FATBIN_ENTRY_MIN_HEADER))
        return fatbin_fail(err, at, "truncated entry header at 0x%zx: %zu bytes left, need %u",
                           at, fb_left(&cur), FATBIN_ENTRY_MIN_HEADER);
    raw_entry r = { 0 };   /* read_fixed_header fills it; gcc -O2 cannot see that */
    read_fixed_header(&cur, &r);
    size_t left = c->size - at;
    if (r.header_size < FATBIN_ENTRY_MIN_HEADER || r.header_size > left)
        return fatbin_fail(err, at + 4, "entry at 0x%zx: header size 0x%x not in [0x%x, 0x%zx]",
                           at, r.header_size, FATBIN_ENTRY_MIN_HEADER, left);
    if (r.payload_size > left - r.header_size)
        return fatbin_fail(err, at + 8,
                           "entry at 0x%zx: payload of %llu bytes runs past the container end "
                           "(%zu bytes left)", at, (unsigned long long)r.payload_size,
                           left - r.header_size);
    if ((r.flags & FATBIN_FLAG_COMPRESSION_MASK) && r.compressed_size > r.payload_size)
        return fatbin_fail(err, at + 0x10,
                           "entry at 0x%zx: compressed size %u exceeds payload size %llu", at,
                           r.compressed_size, (unsigned long long)r.payload_size);
    const uint8_t *hdr = c->base + at;
    fill_entry(e, &r, hdr, at);
    if (read_entry_tail(hdr, at, &r, e, err) != FATBIN_OK)
        return FATBIN_BAD;
    *pos = at + r.header_size + (size_t)r.payload_size;
    return FATBIN_OK;
}

/* ---- names ---------------------------------------------------------------------------------- */

uint64_t fatbin_entry_image_size(const fatbin_entry *e)
{
    return (e->flags & FATBIN_FLAG_COMPRESSION_MASK) ? e->uncompressed_size : e->payload_size;
}

const char *fatbin_compression_name(uint64_t flags)
{
    switch (flags & FATBIN_FLAG_COMPRESSION_MASK) {
    case 0: return "none";
    case FATBIN_FLAG_ZLIB: return "zlib";
    case FATBIN_FLAG_LZ4_BLOCK: return "lz4";
    case FATBIN_FLAG_LZ4_FRAME: return "lz4-frame";
    case FATBIN_FLAG_ZSTD: return "zstd";
    default: return "unknown";
    }
}

const char *fatbin_arch_name(const fatbin_entry *e, char *buf, size_t cap)
{
    const char *suffix = "";
    if (e->flags & FATBIN_FLAG_ARCH_SPECIFIC)
        suffix = "a";
    else if (e->flags & FATBIN_FLAG_FAMILY)
        suffix = "f";
    const char *prefix = e->kind == FATBIN_KIND_PTX ? "compute" :
                         e->kind == FATBIN_KIND_LTOIR ? "lto" : "sm";
    if (cap > 0)
        snprintf(buf, cap, "%s_%u%s", prefix, e->arch, suffix);
    return buf;
}

const char *fatbin_kind_name(uint16_t kind, char *buf, size_t cap)
{
    const char *name = kind == FATBIN_KIND_PTX ? "ptx" : kind == FATBIN_KIND_ELF ? "elf" :
                       kind == FATBIN_KIND_LTOIR ? "ltoir" : NULL;
    if (cap > 0) {
        if (name)
            snprintf(buf, cap, "%s", name);
        else
            snprintf(buf, cap, "kind-0x%x", kind);
    }
    return buf;
}
