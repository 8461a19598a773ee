/*
 * test_fatbin_corruption.c - the corruption sweep.  For real nvcc-made fixtures, every
 * truncation length and every single-byte change (xor 0xFF, set 0x00, set 0xFF) of every byte
 * of the container header and of every entry header, and for a cubin of its ELF header,
 * section headers and .nv.info sections, goes through every parser entry point (parse_all.c:
 * scan, entries, extraction, cubin, kernels, params, chooser).  Each must give a clean
 * FATBIN_BAD (a message, an offset in range) or a valid parse; a crash or an out-of-bounds
 * read is caught by ASan/UBSan (CI builds with MINICUDART_SANITIZE=ON).  Each mutant lives in
 * a heap buffer of exactly its size, so any over-read is visible.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fixture.h"
#include "parse_all.h"

static unsigned long mutations_total;

typedef struct sweep {
    const uint8_t *orig;
    size_t size;
    unsigned long runs, rejected;
    parse_stats st;
} sweep;

/* Parses one mutant in an exact-size copy. */
static void run_one(sweep *sw, const uint8_t *bytes, size_t size)
{
    uint8_t *copy = malloc(size ? size : 1);
    assert_non_null(copy);
    memcpy(copy, bytes, size);
    unsigned long unclean = sw->st.unclean;
    if (parse_all(copy, size, &sw->st) != FATBIN_OK)
        sw->rejected++;
    if (sw->st.unclean != unclean)
        fail_msg("unclean error after mutation: '%s' at 0x%zx", sw->st.last.message,
                 sw->st.last.offset);
    sw->runs++;
    free(copy);
}

static void mutate_range(sweep *sw, size_t from, size_t len)
{
    uint8_t *work = malloc(sw->size);
    assert_non_null(work);
    memcpy(work, sw->orig, sw->size);
    for (size_t i = from; i < from + len && i < sw->size; i++) {
        uint8_t was = sw->orig[i];
        const uint8_t values[3] = { (uint8_t)(was ^ 0xFFu), 0x00, 0xFF };  /* xor, set 0, set FF */
        for (size_t op = 0; op < 3; op++) {
            uint8_t now = values[op];
            if (now == was || (op == 2 && values[0] == 0xFF))
                continue;                       /* same bytes as the original or as op 0 */
            work[i] = now;
            run_one(sw, work, sw->size);
        }
        work[i] = was;
    }
    free(work);
}

static void truncations(sweep *sw)
{
    for (size_t len = 0; len < sw->size; len++)
        run_one(sw, sw->orig, len);
}

static void finish(sweep *sw, const char *what)
{
    print_message("%s: %lu mutations, %lu rejected\n", what, sw->runs, sw->rejected);
    mutations_total += sw->runs;
    /* Truncations and header damage must be noticed: a sweep where nothing is rejected would
     * mean the checks are not running. */
    assert_true(sw->rejected > 0);
    assert_true(sw->rejected <= sw->runs);
}

/* The unmodified fixture parses cleanly and reaches the cubins' parameters. */
static void baseline(sweep *sw, bool expect_kernels)
{
    parse_stats st = { 0 };
    assert_int_equal(parse_all(sw->orig, sw->size, &st), FATBIN_OK);
    if (expect_kernels)
        assert_true(st.kernels > 0 && st.params > 0);
}

static void sweep_fatbin(const char *name)
{
    fixture fx;
    assert_int_equal(fixture_load(&fx, FIXTURE_DIR, name), 0);
    sweep sw = { fx.data, fx.size, 0, 0, { 0 } };
    baseline(&sw, true);
    truncations(&sw);
    for (size_t c = 0; c < fx.ncontainers; c++)
        mutate_range(&sw, (size_t)(fx.containers[c].base - fx.data), FATBIN_CONTAINER_HEADER_SIZE);
    for (size_t i = 0; i < fx.nentries; i++) {
        size_t base = (size_t)(fx.containers[fx.entry_container[i]].base - fx.data);
        mutate_range(&sw, base + fx.entries[i].offset, fx.entries[i].header_size);
    }
    finish(&sw, name);
    fixture_free(&fx);
}

static void zstd_default_fatbin_survives_every_header_mutation(void **state)
{
    sweep_fatbin("comp_default.fatbin");
}

static void multi_gencode_fatbin_survives_every_header_mutation(void **state)
{
    sweep_fatbin("multi.fatbin");
}

static void lz4_zlib_and_lz4frame_fatbins_survive_every_header_mutation(void **state)
{
    sweep_fatbin("comp_all_speed.fatbin");
    sweep_fatbin("comp_zlib.fatbin");
    sweep_fatbin("comp_lz4frame.fatbin");
}

/* Section header fields of section i, and its contents if it is an .nv.info section. */
static void cubin_regions(sweep *sw, const uint8_t *img)
{
    uint64_t shoff = 0;
    uint16_t shnum, shstrndx;
    memcpy(&shoff, img + 0x28, 8);
    memcpy(&shnum, img + 0x3c, 2);
    memcpy(&shstrndx, img + 0x3e, 2);
    mutate_range(sw, 0, 64);
    mutate_range(sw, (size_t)shoff, (size_t)shnum * 64);
    uint64_t stroff;
    memcpy(&stroff, img + shoff + shstrndx * 64 + 0x18, 8);
    for (size_t i = 0; i < shnum; i++) {
        const uint8_t *sh = img + shoff + i * 64;
        uint32_t name;
        uint64_t off, size;
        memcpy(&name, sh, 4);
        memcpy(&off, sh + 0x18, 8);
        memcpy(&size, sh + 0x20, 8);
        if (strncmp((const char *)img + stroff + name, ".nv.info", 8) == 0)
            mutate_range(sw, (size_t)off, (size_t)size);
    }
}

static void cubin_survives_every_header_section_table_and_info_mutation(void **state)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/none.keep/multi.sm_90.cubin", FIXTURE_DIR);
    size_t size;
    uint8_t *img = fixture_read(path, &size);
    assert_non_null(img);
    sweep sw = { img, size, 0, 0, { 0 } };
    baseline(&sw, true);
    truncations(&sw);
    cubin_regions(&sw, img);
    finish(&sw, "multi.sm_90.cubin");
    free(img);
}

static void rdc_object_survives_truncation(void **state)
{
    fixture fx;
    assert_int_equal(fixture_load(&fx, FIXTURE_DIR, "rdc_a.o"), 0);
    sweep sw = { fx.data, fx.size, 0, 0, { 0 } };
    baseline(&sw, true);
    truncations(&sw);
    for (size_t i = 0; i < fx.nentries; i++)
        mutate_range(&sw, (size_t)(fx.containers[0].base - fx.data) + fx.entries[i].offset,
                     fx.entries[i].header_size);
    finish(&sw, "rdc_a.o");
    fixture_free(&fx);
}

/* A -cudart=shared executable (`fatbin check`'s first case): its section headers and the
 * contents of .dynamic, .dynstr, .dynsym, .gnu.version and .gnu.version_r. */
static void shared_runtime_app_survives_dynamic_section_mutation(void **state)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/check_shared", FIXTURE_DIR);
    size_t size;
    uint8_t *img = fixture_read(path, &size);
    assert_non_null(img);
    sweep sw = { img, size, 0, 0, { 0 } };
    baseline(&sw, true);
    uint64_t shoff = 0;
    uint16_t shnum = 0;
    memcpy(&shoff, img + 0x28, 8);
    memcpy(&shnum, img + 0x3c, 2);
    assert_true(shoff < size && shnum * 64u <= size - shoff);
    mutate_range(&sw, (size_t)shoff, (size_t)shnum * 64);
    unsigned dynamic_sections = 0;
    for (size_t i = 0; i < shnum; i++) {
        const uint8_t *sh = img + shoff + i * 64;
        uint32_t type;
        uint64_t off, len;
        memcpy(&type, sh + 4, 4);
        memcpy(&off, sh + 0x18, 8);
        memcpy(&len, sh + 0x20, 8);
        /* SHT_DYNAMIC, SHT_DYNSYM, SHT_GNU_verneed, SHT_GNU_versym; SHT_STRTAB if allocated */
        bool strtab = type == 3 && (sh[8] & 2);
        if (type == 6 || type == 11 || type == 0x6ffffffe || type == 0x6fffffff || strtab) {
            mutate_range(&sw, (size_t)off, (size_t)len);
            dynamic_sections++;
        }
    }
    assert_true(dynamic_sections >= 5);
    finish(&sw, "check_shared");
    free(img);
}

static int report_total(void **state)
{
    printf("corruption sweep: %lu mutations in total\n", mutations_total);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(zstd_default_fatbin_survives_every_header_mutation),
        cmocka_unit_test(multi_gencode_fatbin_survives_every_header_mutation),
        cmocka_unit_test(lz4_zlib_and_lz4frame_fatbins_survive_every_header_mutation),
        cmocka_unit_test(cubin_survives_every_header_section_table_and_info_mutation),
        cmocka_unit_test(rdc_object_survives_truncation),
        cmocka_unit_test(shared_runtime_app_survives_dynamic_section_mutation),
    };
    return cmocka_run_group_tests(tests, NULL, report_total);
}
