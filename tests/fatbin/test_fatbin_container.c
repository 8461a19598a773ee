/*
 * test_fatbin_container.c - the entries of nvcc-made fatbins match what nvcc was asked for:
 * the arch list of each fixture, the compression each option produces, and decompressed
 * images byte-identical to the cubins nvcc kept (--keep) or to the uncompressed build.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fixture.h"

#define A FATBIN_FLAG_ARCH_SPECIFIC

static void assert_file_equals_image(const char *keep_name, const fatbin_entry *e)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", FIXTURE_DIR, keep_name);
    size_t ref_size, size;
    uint8_t *ref = fixture_read(path, &ref_size);
    assert_non_null(ref);
    uint8_t *image = fixture_extract(e, &size);
    assert_non_null(image);
    assert_int_equal(size, ref_size);
    assert_memory_equal(image, ref, size);
    free(ref);
    free(image);
}

static void multi_gencode_fatbin_has_exactly_the_requested_images(void **state)
{
    fixture fx;
    assert_int_equal(fixture_load(&fx, FIXTURE_DIR, "multi.fatbin"), 0);
    assert_int_equal(fx.ncontainers, 1);
    assert_string_equal(fx.section[0], "(raw)");
    assert_int_equal(fx.nentries, 5);               /* sm_80, sm_90, sm_90a, sm_100, compute_90 */
    assert_non_null(fixture_find(&fx, FATBIN_KIND_ELF, 80, 0));
    assert_non_null(fixture_find(&fx, FATBIN_KIND_ELF, 90, 0));
    assert_non_null(fixture_find(&fx, FATBIN_KIND_ELF, 90, A));
    assert_non_null(fixture_find(&fx, FATBIN_KIND_ELF, 100, 0));
    const fatbin_entry *ptx = fixture_find(&fx, FATBIN_KIND_PTX, 90, 0);
    assert_non_null(ptx);
    assert_int_equal(ptx->flags & FATBIN_FLAG_COMPRESSION_MASK, FATBIN_FLAG_ZSTD);
    assert_int_equal(ptx->major, 9);
    assert_non_null(ptx->options);                  /* PTX always has a descriptor */
    /* sm_100 ELF carries the .nv.compat copy in a longer header. */
    const fatbin_entry *sm100 = fixture_find(&fx, FATBIN_KIND_ELF, 100, 0);
    assert_true(sm100->flags & FATBIN_FLAG_COMPAT_TAIL);
    assert_true(sm100->header_size > FATBIN_ENTRY_MIN_HEADER);
    assert_non_null(sm100->compat);
    assert_null(sm100->options);
    for (size_t i = 0; i < fx.nentries; i++) {
        assert_true(fx.entries[i].flags & FATBIN_FLAG_64BIT);
        if (fx.entries[i].kind == FATBIN_KIND_ELF)
            assert_int_equal(fx.entries[i].minor, 8);  /* cubin ELF ABI 8 */
    }
    fixture_free(&fx);
}

static void multi_gencode_cubins_equal_the_kept_cubins(void **state)
{
    fixture fx;
    assert_int_equal(fixture_load(&fx, FIXTURE_DIR, "multi.fatbin"), 0);
    assert_file_equals_image("multi.keep/multi.compute_80.cubin",
                             fixture_find(&fx, FATBIN_KIND_ELF, 80, 0));
    assert_file_equals_image("multi.keep/multi.compute_90.sm_90.cubin",
                             fixture_find(&fx, FATBIN_KIND_ELF, 90, 0));
    assert_file_equals_image("multi.keep/multi.compute_90a.cubin",
                             fixture_find(&fx, FATBIN_KIND_ELF, 90, A));
    assert_file_equals_image("multi.keep/multi.compute_100.cubin",
                             fixture_find(&fx, FATBIN_KIND_ELF, 100, 0));
    fixture_free(&fx);
}

typedef struct mode {
    const char *file;
    uint64_t elf, ptx;               /* expected compression flags */
} mode;

static const mode modes[] = {
    { "comp_none.fatbin", 0, 0 },
    { "comp_nocompress.fatbin", 0, 0 },
    { "comp_default.fatbin", 0, FATBIN_FLAG_ZSTD },
    { "comp_size.fatbin", FATBIN_FLAG_ZSTD, FATBIN_FLAG_ZSTD },
    { "comp_speed.fatbin", 0, FATBIN_FLAG_LZ4_BLOCK },
    { "comp_all.fatbin", FATBIN_FLAG_ZSTD, FATBIN_FLAG_ZSTD },
    { "comp_all_speed.fatbin", FATBIN_FLAG_LZ4_BLOCK, FATBIN_FLAG_LZ4_BLOCK },
    { "comp_zlib.fatbin", FATBIN_FLAG_ZLIB, FATBIN_FLAG_ZLIB },
    { "comp_lz4frame.fatbin", FATBIN_FLAG_LZ4_FRAME, FATBIN_FLAG_LZ4_FRAME },
    { "debug.fatbin", FATBIN_FLAG_ZSTD, FATBIN_FLAG_ZSTD },
};

/* PTX without its trailing NULs (decompressed PTX keeps one, stored PTX is padded to 8). */
static uint8_t *ptx_text(const fatbin_entry *e, size_t *len)
{
    uint8_t *text = fixture_extract(e, len);
    assert_non_null(text);
    while (*len > 0 && text[*len - 1] == 0)
        (*len)--;
    return text;
}

static void each_compression_option_gives_its_algorithm_and_the_same_images(void **state)
{
    fixture plain;
    assert_int_equal(fixture_load(&plain, FIXTURE_DIR, "comp_none.fatbin"), 0);
    size_t ref_len;
    uint8_t *ref_ptx = ptx_text(fixture_find(&plain, FATBIN_KIND_PTX, 90, 0), &ref_len);
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
        fixture fx;
        print_message("%s\n", modes[i].file);
        assert_int_equal(fixture_load(&fx, FIXTURE_DIR, modes[i].file), 0);
        assert_int_equal(fx.nentries, 2);
        const fatbin_entry *elf = fixture_find(&fx, FATBIN_KIND_ELF, 90, 0);
        const fatbin_entry *ptx = fixture_find(&fx, FATBIN_KIND_PTX, 90, 0);
        assert_non_null(elf);
        assert_non_null(ptx);
        assert_int_equal(elf->flags & FATBIN_FLAG_COMPRESSION_MASK, modes[i].elf);
        assert_int_equal(ptx->flags & FATBIN_FLAG_COMPRESSION_MASK, modes[i].ptx);
        if (modes[i].elf)
            assert_true(elf->compressed_size > 0 && elf->compressed_size <= elf->payload_size);
        bool debug = strcmp(modes[i].file, "debug.fatbin") == 0;
        assert_int_equal(!!(elf->flags & FATBIN_FLAG_DEBUG), debug);
        if (!debug) {
            assert_file_equals_image("none.keep/multi.sm_90.cubin", elf);
            size_t len;
            uint8_t *text = ptx_text(ptx, &len);
            assert_int_equal(len, ref_len);
            assert_memory_equal(text, ref_ptx, len);
            free(text);
        }
        fixture_free(&fx);
    }
    free(ref_ptx);
    fixture_free(&plain);
}

static void debug_build_marks_the_ptx_options(void **state)
{
    fixture fx;
    assert_int_equal(fixture_load(&fx, FIXTURE_DIR, "debug.fatbin"), 0);
    const fatbin_entry *ptx = fixture_find(&fx, FATBIN_KIND_PTX, 90, 0);
    assert_non_null(ptx);
    assert_non_null(ptx->options);
    const char want[] = " -g ";
    assert_true(ptx->options_len >= sizeof want - 1);
    assert_memory_equal(ptx->options, want, sizeof want - 1);
    size_t size;
    uint8_t *image = fixture_extract(fixture_find(&fx, FATBIN_KIND_ELF, 90, 0), &size);
    assert_non_null(image);
    assert_int_equal(image[0], 0x7f);
    free(image);
    fixture_free(&fx);
}

static void ptx_only_fatbin_holds_one_ptx_entry_with_its_nul(void **state)
{
    fixture fx;
    assert_int_equal(fixture_load(&fx, FIXTURE_DIR, "ptxonly.fatbin"), 0);
    assert_int_equal(fx.nentries, 1);
    assert_int_equal(fx.entries[0].kind, FATBIN_KIND_PTX);
    assert_int_equal(fx.entries[0].arch, 90);
    size_t size;
    uint8_t *text = fixture_extract(&fx.entries[0], &size);
    assert_non_null(text);
    assert_int_equal(text[size - 1], 0);
    assert_non_null(strstr((const char *)text, ".entry k_v2"));
    free(text);
    fixture_free(&fx);
}

static void entry_offsets_chain_through_header_and_payload_sizes(void **state)
{
    fixture fx;
    assert_int_equal(fixture_load(&fx, FIXTURE_DIR, "multi.fatbin"), 0);
    size_t expect = FATBIN_CONTAINER_HEADER_SIZE;
    for (size_t i = 0; i < fx.nentries; i++) {
        assert_int_equal(fx.entries[i].offset, expect);
        expect += fx.entries[i].header_size + fx.entries[i].payload_size;
    }
    assert_int_equal(expect, fx.containers[0].size);
    fixture_free(&fx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(multi_gencode_fatbin_has_exactly_the_requested_images),
        cmocka_unit_test(multi_gencode_cubins_equal_the_kept_cubins),
        cmocka_unit_test(each_compression_option_gives_its_algorithm_and_the_same_images),
        cmocka_unit_test(debug_build_marks_the_ptx_options),
        cmocka_unit_test(ptx_only_fatbin_holds_one_ptx_entry_with_its_nul),
        cmocka_unit_test(entry_offsets_chain_through_header_and_payload_sizes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
