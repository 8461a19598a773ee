/*
 * cursor.h - a bounds-checked reader over a byte buffer (internal to fatbin/).
 *
 * Every read checks `n <= len - pos` (never `pos + n <= len`, which can wrap), assembles
 * integers from little-endian bytes, and on failure leaves the cursor where it was so the caller
 * can report the offset.  Nothing here allocates.
 */
#ifndef MINICUDART_FATBIN_CURSOR_H
#define MINICUDART_FATBIN_CURSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct fb_cursor {
    const uint8_t *base;
    size_t len;
    size_t pos;
} fb_cursor;

static inline fb_cursor fb_cursor_make(const uint8_t *base, size_t len, size_t pos)
{
    fb_cursor cur = { base, len, pos };
    return cur;
}

/* Bytes left after the position; 0 when the position is (wrongly) past the end. */
static inline size_t fb_left(const fb_cursor *cur)
{
    return cur->pos <= cur->len ? cur->len - cur->pos : 0;
}

static inline bool fb_has(const fb_cursor *cur, size_t n)
{
    return cur->pos <= cur->len && n <= cur->len - cur->pos;
}

static inline uint64_t fb_le(const uint8_t *p, unsigned bytes)
{
    uint64_t value = 0;
    for (unsigned i = bytes; i-- > 0;)
        value = (value << 8) | p[i];
    return value;
}

/* Reads `bytes` (1, 2, 4 or 8) little-endian bytes into *out and advances; false if truncated. */
static inline bool fb_read(fb_cursor *cur, unsigned bytes, uint64_t *out)
{
    if (!fb_has(cur, bytes))
        return false;
    *out = fb_le(cur->base + cur->pos, bytes);
    cur->pos += bytes;
    return true;
}

static inline bool fb_u16(fb_cursor *cur, uint16_t *out)
{
    uint64_t v;
    if (!fb_read(cur, 2, &v))
        return false;
    *out = (uint16_t)v;
    return true;
}

static inline bool fb_u32(fb_cursor *cur, uint32_t *out)
{
    uint64_t v;
    if (!fb_read(cur, 4, &v))
        return false;
    *out = (uint32_t)v;
    return true;
}

static inline bool fb_u64(fb_cursor *cur, uint64_t *out)
{
    return fb_read(cur, 8, out);
}

static inline bool fb_skip(fb_cursor *cur, size_t n)
{
    if (!fb_has(cur, n))
        return false;
    cur->pos += n;
    return true;
}

/* Reads a fixed-offset field of a record already known to be in bounds. */
static inline uint64_t fb_at(const uint8_t *record, size_t off, unsigned bytes)
{
    return fb_le(record + off, bytes);
}

#endif
