/*
 * test_fatbin_synthetic.c - the container, entry, wrapper and decompression rules on
 * hand-built buffers (no nvcc needed): every malformed case yields FATBIN_BAD with a message
 * and the offset of the offending field.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <lz4.h>
#include <lz4frame.h>
#include <zlib.h>
#include <zstd.h>

#include "fatbin.h"

static uint8_t buf[8192];

static void put(uint8_t *p, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* Writes a container header at p with fat_size. */
static void container_at(uint8_t *p, uint64_t fat_size)
{
    put(p, FATBIN_CONTAINER_MAGIC, 4);
    put(p + 4, 1, 2);
    put(p + 6, 16, 2);
    put(p + 8, fat_size, 8);
}

/* Writes an entry header at p; returns header_size + payload_size. */
static size_t entry_at(uint8_t *p, uint16_t kind, uint32_t hsize, uint64_t payload, uint32_t arch,
                       uint64_t flags)
{
    memset(p, 0, hsize);
    put(p, kind, 2);
    put(p + 2, 0x0101, 2);
    put(p + 4, hsize, 4);
    put(p + 8, payload, 8);
    put(p + 0x1c, arch, 4);
    put(p + 0x28, flags, 8);
    return hsize + payload;
}

static void open_ok(fatbin_container *c, size_t len)
{
    fatbin_error err;
    assert_int_equal(fatbin_container_open(c, buf, len, &err), FATBIN_OK);
}

static void empty_container_has_no_entries(void **state)
{
    container_at(buf, 0);
    fatbin_container c;
    open_ok(&c, 16);
    assert_int_equal(c.size, 16);
    size_t pos = 0;
    fatbin_entry e;
    fatbin_error err;
    assert_int_equal(fatbin_next_entry(&c, &pos, &e, &err), FATBIN_END);
}

static void bad_container_magic_is_rejected_at_offset_0(void **state)
{
    container_at(buf, 0);
    buf[0] ^= 1;
    fatbin_container c;
    fatbin_error err = { 99, "" };
    assert_int_equal(fatbin_container_open(&c, buf, 16, &err), FATBIN_BAD);
    assert_int_equal(err.offset, 0);
    assert_non_null(strstr(err.message, "magic"));
}

static void fat_size_past_the_buffer_is_rejected(void **state)
{
    container_at(buf, 100);
    fatbin_container c;
    fatbin_error err;
    assert_int_equal(fatbin_container_open(&c, buf, 115, &err), FATBIN_BAD);
    assert_int_equal(err.offset, 8);
    container_at(buf, UINT64_MAX);
    assert_int_equal(fatbin_container_open(&c, buf, SIZE_MAX, &err), FATBIN_BAD);
    assert_int_equal(fatbin_container_open(&c, buf, 15, &err), FATBIN_BAD);
}

static void entry_header_size_below_0x40_is_rejected(void **state)
{
    size_t n = entry_at(buf + 16, FATBIN_KIND_ELF, 0x40, 8, 90, 0x11);
    put(buf + 16 + 4, 0x38, 4);
    container_at(buf, n);
    fatbin_container c;
    open_ok(&c, 16 + n);
    size_t pos = 0;
    fatbin_entry e;
    fatbin_error err;
    assert_int_equal(fatbin_next_entry(&c, &pos, &e, &err), FATBIN_BAD);
    assert_int_equal(err.offset, 16 + 4);
}

static void payload_past_the_container_end_is_rejected(void **state)
{
    size_t n = entry_at(buf + 16, FATBIN_KIND_ELF, 0x40, 16, 90, 0x11);
    container_at(buf, n - 8);
    fatbin_container c;
    open_ok(&c, 16 + n - 8);
    size_t pos = 0;
    fatbin_entry e;
    fatbin_error err;
    assert_int_equal(fatbin_next_entry(&c, &pos, &e, &err), FATBIN_BAD);
    assert_int_equal(err.offset, 16 + 8);
    assert_non_null(strstr(err.message, "past the container end"));
}

static void truncated_trailing_entry_header_is_rejected(void **state)
{
    size_t n = entry_at(buf + 16, FATBIN_KIND_ELF, 0x40, 8, 90, 0x11);
    container_at(buf, n + 10);
    fatbin_container c;
    open_ok(&c, 16 + n + 10);
    size_t pos = 0;
    fatbin_entry e;
    fatbin_error err;
    assert_int_equal(fatbin_next_entry(&c, &pos, &e, &err), FATBIN_OK);
    assert_int_equal(fatbin_next_entry(&c, &pos, &e, &err), FATBIN_BAD);
    assert_int_equal(err.offset, 16 + n);
}

static void unknown_kind_is_returned_and_skipped_by_its_size(void **state)
{
    size_t n1 = entry_at(buf + 16, 0x40, 0x48, 24, 0, 0);
    size_t n2 = entry_at(buf + 16 + n1, FATBIN_KIND_PTX, 0x40, 8, 80, 0x11);
    container_at(buf, n1 + n2);
    fatbin_container c;
    open_ok(&c, 16 + n1 + n2);
    size_t pos = 0;
    fatbin_entry e;
    fatbin_error err;
    assert_int_equal(fatbin_next_entry(&c, &pos, &e, &err), FATBIN_OK);
    assert_int_equal(e.kind, 0x40);
    assert_int_equal(fatbin_next_entry(&c, &pos, &e, &err), FATBIN_OK);
    assert_int_equal(e.kind, FATBIN_KIND_PTX);
    assert_int_equal(e.offset, 16 + n1);
    assert_ptr_equal(e.payload, buf + 16 + n1 + 0x40);
    char name[32];
    assert_string_equal(fatbin_arch_name(&e, name, sizeof name), "compute_80");
    assert_string_equal(fatbin_kind_name(0x40, name, sizeof name), "kind-0x40");
    assert_int_equal(fatbin_next_entry(&c, &pos, &e, &err), FATBIN_END);
}

static void header_0x80_tail_gives_ident_and_options(void **state)
{
    uint8_t *p = buf + 16;
    size_t n = entry_at(p, FATBIN_KIND_PTX, 0x80, 8, 90, 0x100011);
    put(p + 0x20, 0x40, 4);                       /* ident at 0x40, 14 bytes */
    put(p + 0x24, 14, 4);
    memcpy(p + 0x40, "MYIDENT_foo.cu", 14);
    put(p + 0x14, 0x50, 4);                       /* descriptor at 0x50 -> {0x58, 16} */
    put(p + 0x50, 0x58, 4);
    put(p + 0x54, 16, 4);
    memcpy(p + 0x58, "--compile-only  ", 16);
    container_at(buf, n);
    fatbin_container c;
    open_ok(&c, 16 + n);
    size_t pos = 0;
    fatbin_entry e;
    fatbin_error err;
    assert_int_equal(fatbin_next_entry(&c, &pos, &e, &err), FATBIN_OK);
    assert_int_equal(e.header_size, 0x80);
    assert_int_equal(e.ident_len, 14);
    assert_memory_equal(e.ident, "MYIDENT_foo.cu", 14);
    assert_int_equal(e.options_len, 16);
    assert_memory_equal(e.options, "--compile-only  ", 16);
    assert_ptr_equal(e.payload, p + 0x80);
    char name[32];
    assert_string_equal(fatbin_arch_name(&e, name, sizeof name), "compute_90a");
    /* The same descriptor pointing past the header is malformed. */
    put(p + 0x54, 0x29, 4);
    pos = 0;
    assert_int_equal(fatbin_next_entry(&c, &pos, &e, &err), FATBIN_BAD);
    assert_int_equal(err.offset, 16 + 0x50);
}

static void wrapper_versions_are_read_and_bad_ones_rejected(void **state)
{
    const void *prelinked[2] = { buf, NULL };
    uint8_t w[24];
    put(w, FATBIN_WRAPPER_MAGIC, 4);
    put(w + 4, 2, 4);
    put(w + 8, (uint64_t)(uintptr_t)buf, 8);
    put(w + 16, (uint64_t)(uintptr_t)prelinked, 8);
    fatbin_wrapper out;
    fatbin_error err;
    assert_int_equal(fatbin_wrapper_read(w, &out, &err), FATBIN_OK);
    assert_int_equal(out.version, 2);
    assert_ptr_equal(out.data, buf);
    assert_ptr_equal(out.prelinked, prelinked);
    put(w + 4, 1, 4);
    assert_int_equal(fatbin_wrapper_read(w, &out, &err), FATBIN_OK);
    assert_null(out.prelinked);                   /* v1: a (NULL) file name, not an array */
    put(w + 4, 3, 4);
    assert_int_equal(fatbin_wrapper_read(w, &out, &err), FATBIN_BAD);
    assert_int_equal(err.offset, 4);
    put(w + 4, 1, 4);
    put(w + 8, 0, 8);
    assert_int_equal(fatbin_wrapper_read(w, &out, &err), FATBIN_BAD);
    assert_int_equal(err.offset, 8);
    put(w, 0x12345678, 4);
    assert_int_equal(fatbin_wrapper_read(w, &out, &err), FATBIN_BAD);
    assert_int_equal(err.offset, 0);
}

/* ---- decompression, with payloads made by the real compressors ------------------------------ */

static uint8_t plain[3000];

/* Builds a one-entry container holding `plain` compressed with `flag`; returns its length. */
static size_t compressed_container(uint64_t flag)
{
    for (size_t i = 0; i < sizeof plain; i++)
        plain[i] = (uint8_t)((i * 7) % 13 + (i / 100));
    uint8_t *payload = buf + 16 + 0x40;
    size_t cap = sizeof buf - 16 - 0x40, clen = 0;
    if (flag == FATBIN_FLAG_ZSTD) {
        clen = ZSTD_compress(payload, cap, plain, sizeof plain, 3);
    } else if (flag == FATBIN_FLAG_LZ4_BLOCK) {
        clen = (size_t)LZ4_compress_default((const char *)plain, (char *)payload, sizeof plain,
                                            (int)cap);
    } else if (flag == FATBIN_FLAG_LZ4_FRAME) {
        clen = LZ4F_compressFrame(payload, cap, plain, sizeof plain, NULL);
    } else {
        uLongf zlen = cap;
        assert_int_equal(compress(payload, &zlen, plain, sizeof plain), Z_OK);
        clen = zlen;
    }
    size_t padded = (clen + 7) & ~(size_t)7;
    memset(payload + clen, 0, padded - clen);
    size_t n = entry_at(buf + 16, FATBIN_KIND_ELF, 0x40, padded, 90, 0x11 | flag);
    put(buf + 16 + 0x10, clen, 4);
    put(buf + 16 + 0x38, sizeof plain, 8);
    container_at(buf, n);
    return 16 + n;
}

static void every_compression_decodes_to_the_original_bytes(void **state)
{
    static const uint64_t flags[] = { FATBIN_FLAG_ZSTD, FATBIN_FLAG_LZ4_BLOCK,
                                      FATBIN_FLAG_LZ4_FRAME, FATBIN_FLAG_ZLIB };
    for (size_t i = 0; i < 4; i++) {
        fatbin_container c;
        open_ok(&c, compressed_container(flags[i]));
        size_t pos = 0, produced;
        fatbin_entry e;
        fatbin_error err;
        assert_int_equal(fatbin_next_entry(&c, &pos, &e, &err), FATBIN_OK);
        assert_int_equal(fatbin_entry_image_size(&e), sizeof plain);
        static uint8_t out[sizeof plain];
        assert_int_equal(fatbin_entry_extract(&e, out, sizeof out, &produced, &err), FATBIN_OK);
        assert_int_equal(produced, sizeof plain);
        assert_memory_equal(out, plain, sizeof plain);
        /* A header that lies about the size is caught, whichever library decodes. */
        e.uncompressed_size = sizeof plain - 1;
        assert_int_equal(fatbin_entry_extract(&e, out, sizeof out, &produced, &err), FATBIN_BAD);
        e.uncompressed_size = sizeof plain;
        assert_int_equal(fatbin_entry_extract(&e, out, sizeof plain - 1, &produced, &err),
                         FATBIN_BAD);
    }
}

static void two_compression_flags_at_once_are_unsupported(void **state)
{
    fatbin_container c;
    open_ok(&c, compressed_container(FATBIN_FLAG_ZSTD));
    put(buf + 16 + 0x28, 0x11 | FATBIN_FLAG_ZSTD | FATBIN_FLAG_ZLIB, 8);
    size_t pos = 0, produced;
    fatbin_entry e;
    fatbin_error err;
    assert_int_equal(fatbin_next_entry(&c, &pos, &e, &err), FATBIN_OK);
    assert_string_equal(fatbin_compression_name(e.flags), "unknown");
    static uint8_t out[sizeof plain];
    assert_int_equal(fatbin_entry_extract(&e, out, sizeof out, &produced, &err), FATBIN_BAD);
    assert_int_equal(err.offset, 16 + 0x28);
}

static void raw_file_with_two_padded_containers_scans_both(void **state)
{
    size_t n = entry_at(buf + 16, FATBIN_KIND_ELF, 0x40, 4, 90, 0x11);  /* 0x44: pad to 8 */
    container_at(buf, n);
    size_t second = (16 + n + 7) & ~(size_t)7;
    memset(buf + 16 + n, 0, second - 16 - n);
    container_at(buf + second, 0);
    memset(buf + second + 16, 0, 8);               /* trailing zero padding is not a container */
    fatbin_error err;
    assert_int_equal(fatbin_file_scan(buf, second + 24, NULL, NULL, NULL, &err), 2);
    assert_int_equal(fatbin_file_scan((const uint8_t *)"hello, world, not ELF at all....", 32,
                                      NULL, NULL, NULL, &err), FATBIN_BAD);
    assert_non_null(strstr(err.message, "not an ELF"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(empty_container_has_no_entries),
        cmocka_unit_test(bad_container_magic_is_rejected_at_offset_0),
        cmocka_unit_test(fat_size_past_the_buffer_is_rejected),
        cmocka_unit_test(entry_header_size_below_0x40_is_rejected),
        cmocka_unit_test(payload_past_the_container_end_is_rejected),
        cmocka_unit_test(truncated_trailing_entry_header_is_rejected),
        cmocka_unit_test(unknown_kind_is_returned_and_skipped_by_its_size),
        cmocka_unit_test(header_0x80_tail_gives_ident_and_options),
        cmocka_unit_test(wrapper_versions_are_read_and_bad_ones_rejected),
        cmocka_unit_test(every_compression_decodes_to_the_original_bytes),
        cmocka_unit_test(two_compression_flags_at_once_are_unsupported),
        cmocka_unit_test(raw_file_with_two_padded_containers_scans_both),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
