/*
 * decompress.c - turning an entry's payload into its image, through the real libraries.
 *
 * One decoder per compression flag (fatbin.h, PROTOCOL.md 5.8): zstd frame, LZ4 raw block,
 * LZ4 frame, zlib stream.  Each gets exactly compressed_size input bytes and writes into the
 * caller's buffer; the produced length must equal the header's uncompressed_size.
 *
 * Built with FATBIN_CODECS_DLOPEN (the runtime's copy, target fatbin_parse_dl), the three
 * libraries are not linked: each is loaded with dlopen when the first entry that needs it is
 * decompressed.  A program whose images are stored plain never maps them (some 80-90 kB of
 * resident memory each), and the runtime and the `fatbin` tool need nothing but libc at link
 * time.  The tests link them as usual.
 */
#include <limits.h>
#include <string.h>

#include <lz4.h>
#include <lz4frame.h>
#include <zlib.h>
#include <zstd.h>

#include "internal.h"

#ifdef FATBIN_CODECS_DLOPEN
#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>

/* The entry points the decoders call, and the library each comes from. */
#define CODEC_FUNCTIONS(X)                                                                     \
    X(ZSTD, ZSTD_decompress) X(ZSTD, ZSTD_isError) X(ZSTD, ZSTD_getErrorName)                  \
    X(LZ4, LZ4_decompress_safe) X(LZ4, LZ4F_createDecompressionContext)                        \
    X(LZ4, LZ4F_decompress) X(LZ4, LZ4F_freeDecompressionContext) X(LZ4, LZ4F_isError)         \
    X(LZ4, LZ4F_getErrorName) X(ZLIB, uncompress)

enum codec_lib { CODEC_ZSTD, CODEC_LZ4, CODEC_ZLIB, CODEC_LIBS };

static struct {
#define CODEC_POINTER(lib, name) __typeof__(&name) p_##name;
    CODEC_FUNCTIONS(CODEC_POINTER)
#undef CODEC_POINTER
} codec;

/* The names in the order of CODEC_FUNCTIONS, NUL-separated, and the library of each: a loop over
 * data instead of a dlsym and its error for each name. */
static const char codec_names[] =
#define CODEC_NAME(lib, name) #name "\0"
    CODEC_FUNCTIONS(CODEC_NAME)
#undef CODEC_NAME
    ;
static const unsigned char codec_of[] = {
#define CODEC_OF(lib, name) CODEC_##lib,
    CODEC_FUNCTIONS(CODEC_OF)
#undef CODEC_OF
};
_Static_assert(sizeof codec == sizeof codec_of * sizeof(void *),
               "codec is one pointer per entry of CODEC_FUNCTIONS, each the size of a void *");

static struct codec_library {
    const char *soname;
    pthread_once_t once;
    bool ok;
} codec_libs[CODEC_LIBS] = {
    [CODEC_ZSTD] = { "libzstd.so.1", PTHREAD_ONCE_INIT, false },
    [CODEC_LZ4] = { "liblz4.so.1", PTHREAD_ONCE_INIT, false },
    [CODEC_ZLIB] = { "libz.so.1", PTHREAD_ONCE_INIT, false },
};
static char codec_why[CODEC_LIBS][192];     /* why a library could not be loaded */

static void codec_load(enum codec_lib which)
{
    struct codec_library *l = &codec_libs[which];
    char *why = codec_why[which];
    void *handle = dlopen(l->soname, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        snprintf(why, sizeof codec_why[0], "cannot load %s (the zstd, LZ4 or zlib runtime "
                 "package): %s", l->soname, dlerror());
        return;
    }
    /* Entry i of CODEC_FUNCTIONS is pointer i of `codec`, named by the i-th of codec_names. */
    bool ok = true;
    const char *name = codec_names;
    for (size_t i = 0; i < sizeof codec_of; i++, name += strlen(name) + 1) {
        if (codec_of[i] != which)
            continue;
        void *sym = dlsym(handle, name);
        memcpy((char *)&codec + i * sizeof sym, &sym, sizeof sym);
        if (!sym) {
            snprintf(why, sizeof codec_why[0], "%s has no %s", l->soname, name);
            ok = false;
        }
    }
    l->ok = ok;
}

static void codec_load_zstd(void) { codec_load(CODEC_ZSTD); }
static void codec_load_lz4(void) { codec_load(CODEC_LZ4); }
static void codec_load_zlib(void) { codec_load(CODEC_ZLIB); }

/* Loads the library once; false (and *why) when it cannot be had. */
static bool codec_ready(enum codec_lib which, const char **why)
{
    static void (*const load[CODEC_LIBS])(void) = { codec_load_zstd, codec_load_lz4,
                                                    codec_load_zlib };
    pthread_once(&codec_libs[which].once, load[which]);
    if (!codec_libs[which].ok)
        *why = codec_why[which];
    return codec_libs[which].ok;
}

/* From here on the decoders' calls go through the pointers. */
#define ZSTD_decompress codec.p_ZSTD_decompress
#define ZSTD_isError codec.p_ZSTD_isError
#define ZSTD_getErrorName codec.p_ZSTD_getErrorName
#define LZ4_decompress_safe codec.p_LZ4_decompress_safe
#define LZ4F_createDecompressionContext codec.p_LZ4F_createDecompressionContext
#define LZ4F_decompress codec.p_LZ4F_decompress
#define LZ4F_freeDecompressionContext codec.p_LZ4F_freeDecompressionContext
#define LZ4F_isError codec.p_LZ4F_isError
#define LZ4F_getErrorName codec.p_LZ4F_getErrorName
#define uncompress codec.p_uncompress
#define CODEC_REQUIRE(lib)                                                                      \
    do {                                                                                        \
        if (!codec_ready(CODEC_##lib, why))                                                     \
            return FATBIN_BAD;                                                                  \
    } while (0)
#else
#define CODEC_REQUIRE(lib) do { } while (0)
#endif

typedef int (*decoder_fn)(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_cap,
                          size_t *produced, const char **why);

static int decode_zstd(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_cap,
                       size_t *produced, const char **why)
{
    CODEC_REQUIRE(ZSTD);
    size_t n = ZSTD_decompress(dst, dst_cap, src, src_len);
    if (ZSTD_isError(n)) {
        *why = ZSTD_getErrorName(n);
        return FATBIN_BAD;
    }
    *produced = n;
    return FATBIN_OK;
}

/* A raw LZ4 block has no end marker of its own: the input length must be exact. */
static int decode_lz4_block(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_cap,
                            size_t *produced, const char **why)
{
    CODEC_REQUIRE(LZ4);
    if (src_len > INT_MAX || dst_cap > INT_MAX) {
        *why = "sizes exceed what LZ4 accepts";
        return FATBIN_BAD;
    }
    int n = LZ4_decompress_safe((const char *)src, (char *)dst, (int)src_len, (int)dst_cap);
    if (n < 0) {
        *why = "malformed LZ4 block";
        return FATBIN_BAD;
    }
    *produced = (size_t)n;
    return FATBIN_OK;
}

/* LZ4F_decompress may stop early; loop until the frame ends or no progress is made. */
static int decode_lz4_frame(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_cap,
                            size_t *produced, const char **why)
{
    CODEC_REQUIRE(LZ4);
    LZ4F_dctx *ctx = NULL;
    if (LZ4F_isError(LZ4F_createDecompressionContext(&ctx, LZ4F_VERSION))) {
        *why = "cannot create an LZ4 frame context";
        return FATBIN_BAD;
    }
    size_t in_pos = 0, out_pos = 0, hint = 1;
    int rc = FATBIN_OK;
    while (hint != 0) {
        size_t in_len = src_len - in_pos, out_len = dst_cap - out_pos;
        hint = LZ4F_decompress(ctx, dst + out_pos, &out_len, src + in_pos, &in_len, NULL);
        if (LZ4F_isError(hint)) {
            *why = LZ4F_getErrorName(hint);
            rc = FATBIN_BAD;
            break;
        }
        in_pos += in_len;
        out_pos += out_len;
        if (hint != 0 && in_len == 0 && out_len == 0) {
            *why = in_pos == src_len ? "LZ4 frame truncated" : "LZ4 output buffer too small";
            rc = FATBIN_BAD;
            break;
        }
    }
    LZ4F_freeDecompressionContext(ctx);
    *produced = out_pos;
    return rc;
}

static int decode_zlib(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_cap,
                       size_t *produced, const char **why)
{
    CODEC_REQUIRE(ZLIB);
    uLongf out_len = (uLongf)dst_cap;
    if ((size_t)out_len != dst_cap || (size_t)(uLong)src_len != src_len) {
        *why = "sizes exceed what zlib accepts";
        return FATBIN_BAD;
    }
    int zrc = uncompress(dst, &out_len, src, (uLong)src_len);
    if (zrc != Z_OK) {
        *why = zrc == Z_BUF_ERROR ? "zlib stream truncated or output too small" :
               zrc == Z_MEM_ERROR ? "zlib out of memory" : "malformed zlib stream";
        return FATBIN_BAD;
    }
    *produced = (size_t)out_len;
    return FATBIN_OK;
}

static decoder_fn decoder_for(uint64_t flags)
{
    switch (flags & FATBIN_FLAG_COMPRESSION_MASK) {
    case FATBIN_FLAG_ZSTD: return decode_zstd;
    case FATBIN_FLAG_LZ4_BLOCK: return decode_lz4_block;
    case FATBIN_FLAG_LZ4_FRAME: return decode_lz4_frame;
    case FATBIN_FLAG_ZLIB: return decode_zlib;
    default: return NULL;
    }
}

int fatbin_entry_extract(const fatbin_entry *e, void *out, size_t cap, size_t *produced,
                         fatbin_error *err)
{
    *produced = 0;
    if ((e->flags & FATBIN_FLAG_COMPRESSION_MASK) == 0) {
        if (e->payload_size > cap)
            return fatbin_fail(err, e->offset, "entry at 0x%zx: %llu-byte image, buffer of %zu",
                               e->offset, (unsigned long long)e->payload_size, cap);
        memcpy(out, e->payload, (size_t)e->payload_size);
        *produced = (size_t)e->payload_size;
        return FATBIN_OK;
    }
    decoder_fn decode = decoder_for(e->flags);
    if (!decode)
        return fatbin_fail(err, e->offset + 0x28,
                           "entry at 0x%zx: unsupported compression flags 0x%llx", e->offset,
                           (unsigned long long)(e->flags & FATBIN_FLAG_COMPRESSION_MASK));
    if (e->compressed_size == 0 || e->compressed_size > e->payload_size)
        return fatbin_fail(err, e->offset + 0x10,
                           "entry at 0x%zx: compressed size %u not in [1, %llu]", e->offset,
                           e->compressed_size, (unsigned long long)e->payload_size);
    if (e->uncompressed_size > cap)
        return fatbin_fail(err, e->offset + 0x38,
                           "entry at 0x%zx: %llu-byte image, buffer of %zu", e->offset,
                           (unsigned long long)e->uncompressed_size, cap);
    const char *why = "unknown error";
    size_t n = 0;
    if (decode(e->payload, e->compressed_size, out, (size_t)e->uncompressed_size, &n, &why) != 0)
        return fatbin_fail(err, e->offset + e->header_size, "entry at 0x%zx: %s decode failed: %s",
                           e->offset, fatbin_compression_name(e->flags), why);
    if (n != e->uncompressed_size)
        return fatbin_fail(err, e->offset + 0x38,
                           "entry at 0x%zx: decoded %zu bytes, header says %llu", e->offset, n,
                           (unsigned long long)e->uncompressed_size);
    *produced = n;
    return FATBIN_OK;
}
