/*
 * fuzz_decompress.c - the decompression wrappers (fatbin_entry_extract): zstd frames, LZ4 raw
 * blocks, LZ4 frames, zlib streams and stored images, each into an output buffer of exactly the
 * capacity the caller claims, so that a decoder writing one byte too many is caught by ASan.
 *
 * Input: a 12-byte header that makes the entry, then the payload (all little-endian):
 *   off size field
 *   0   1    method: bits 0-2 pick the flags (table `methods`: stored, zlib, LZ4 block, LZ4
 *            frame, zstd, and three combinations no decoder takes)
 *   1   1    capacity: bits 0-1 pick the output buffer's size against the header's
 *            uncompressed size U: 0 exactly U, 1 U - 1, 2 U - slack, 3 U + slack
 *   2   2    slack
 *   4   4    uncompressed_size U (the header field; the buffer is at most 1 MiB)
 *   8   4    compressed_size (the header field, as stored)
 *   12  ...  payload; payload_size is the rest of the input
 * The seeds (seeds/decompress/) are real payloads from nvcc-made fatbins with their headers'
 * sizes, so mutations start from streams the libraries accept.
 *
 * Checked: success means exactly U bytes produced (the payload itself when stored) and U fits
 * the buffer; failure carries a message and an offset inside the entry header or at its
 * payload; nothing is written past the capacity.  The libraries are the system's, not
 * instrumented, so besides ASan (which sees our own code and the memcpy/memset it intercepts) a
 * guard of known bytes after the buffer catches a decoder that writes too far.
 * Accepted: the image was extracted.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz_targets.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FUZZ_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define FUZZ_ASAN 1
#endif
#ifdef FUZZ_ASAN
#include <sanitizer/asan_interface.h>
#else
#define ASAN_POISON_MEMORY_REGION(addr, size) ((void)(addr), (void)(size))
#define ASAN_UNPOISON_MEMORY_REGION(addr, size) ((void)(addr), (void)(size))
#endif

#define DECOMPRESS_HEADER 12u
#define MAX_OUTPUT (1u << 20)
#define GUARD_SIZE 64u
#define GUARD_BYTE 0xA5u

static const uint64_t methods[8] = {
    0,
    FATBIN_FLAG_ZLIB,
    FATBIN_FLAG_LZ4_BLOCK,
    FATBIN_FLAG_LZ4_FRAME,
    FATBIN_FLAG_ZSTD,
    FATBIN_FLAG_ZSTD | FATBIN_FLAG_LZ4_BLOCK,     /* two at once: unsupported */
    FATBIN_FLAG_ZLIB | FATBIN_FLAG_LZ4_FRAME,
    FATBIN_FLAG_COMPRESSION_MASK,
};

static uint32_t le(const uint8_t *p, unsigned bytes)
{
    uint32_t value = 0;
    for (unsigned i = bytes; i-- > 0;)
        value = value << 8 | p[i];
    return value;
}

/* The output capacity for header size `want`, as the capacity byte and slack pick it. */
static size_t pick_capacity(uint8_t mode, uint16_t slack, uint64_t want)
{
    size_t base = want < MAX_OUTPUT ? (size_t)want : MAX_OUTPUT;
    switch (mode & 3u) {
    case 1: return base > 0 ? base - 1 : 0;
    case 2: return base > slack ? base - slack : 0;
    case 3: return base + slack;
    default: return base;
    }
}

int fuzz_decompress(const uint8_t *data, size_t size)
{
    if (size < DECOMPRESS_HEADER)
        return FUZZ_REJECTED;
    /* The payload in a buffer of its own exact size: a decoder that reads past the payload
     * the header allows trips ASan even when the input came from a longer file. */
    size_t payload_len = size - DECOMPRESS_HEADER;
    uint8_t *payload = malloc(payload_len ? payload_len : 1);
    if (!payload)
        return FUZZ_REJECTED;
    if (payload_len)
        memcpy(payload, data + DECOMPRESS_HEADER, payload_len);

    fatbin_entry e;
    memset(&e, 0, sizeof e);
    e.kind = FATBIN_KIND_ELF;
    e.header_size = FATBIN_ENTRY_MIN_HEADER;
    e.flags = FATBIN_FLAG_64BIT | FATBIN_FLAG_LINUX | methods[data[0] & 7u];
    e.uncompressed_size = le(data + 4, 4);
    e.compressed_size = le(data + 8, 4);
    e.payload = payload;
    e.payload_size = payload_len;
    size_t cap = pick_capacity(data[1], (uint16_t)le(data + 2, 2), fatbin_entry_image_size(&e));

    /* cap bytes, then the guard: poisoned for ASan, and checked by hand afterwards. */
    uint8_t *out = malloc(cap + GUARD_SIZE);
    if (!out) {
        free(payload);
        return FUZZ_REJECTED;
    }
    memset(out + cap, GUARD_BYTE, GUARD_SIZE);
    ASAN_POISON_MEMORY_REGION(out + cap, GUARD_SIZE);
    size_t produced = SIZE_MAX;
    fatbin_error err;
    fuzz_error_init(&err);
    int rc = fatbin_entry_extract(&e, out, cap, &produced, &err);
    ASAN_UNPOISON_MEMORY_REGION(out + cap, GUARD_SIZE);
    for (size_t i = 0; i < GUARD_SIZE; i++)
        fuzz_require(out[cap + i] == GUARD_BYTE, "extract: wrote past the buffer's capacity");
    if (rc == FATBIN_OK) {
        fuzz_require(produced == fatbin_entry_image_size(&e), "extract: size differs from header");
        fuzz_require(produced <= cap, "extract: produced more than the buffer holds");
        if (!(e.flags & FATBIN_FLAG_COMPRESSION_MASK))
            fuzz_require(produced == 0 || memcmp(out, payload, produced) == 0,
                         "extract: stored image differs from the payload");
    } else {
        fuzz_require(rc == FATBIN_BAD, "extract: unknown return code");
        /* Offsets name a header field or the payload start of this entry (at offset 0). */
        fuzz_require_clean_error(&err, e.header_size, "fatbin_entry_extract");
    }
    free(out);
    free(payload);
    return rc == FATBIN_OK ? FUZZ_ACCEPTED : FUZZ_REJECTED;
}
