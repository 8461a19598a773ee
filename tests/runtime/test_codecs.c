/*
 * test_codecs.c - the runtime's copy of the parser loads zstd, LZ4 and zlib only when an entry
 * compressed with them is decompressed (fatbin/decompress.c, FATBIN_CODECS_DLOPEN).
 *
 * Linked with libminicudart.a alone (no -lzstd -llz4 -lz), over the compression fixtures nvcc
 * made at build time: before any compressed entry none of the three libraries is mapped; each
 * appears with its first entry; and every image comes out byte for byte as in the fixture nvcc
 * stored uncompressed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fatbin.h"

static bool mapped(const char *name)
{
    FILE *f = fopen("/proc/self/maps", "r");
    char line[512];
    bool found = false;
    assert_non_null(f);
    while (!found && fgets(line, sizeof line, f))
        found = strstr(line, name) != NULL;
    fclose(f);
    return found;
}

static uint8_t *slurp(const char *name, size_t *size)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", FIXTURE_DIR, name);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *data = malloc((size_t)n);
    assert_non_null(data);
    assert_int_equal(fread(data, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *size = (size_t)n;
    return data;
}

/* Every entry of a fixture, decompressed: kind, arch and image, in order. */
typedef struct image {
    int kind;
    unsigned arch;
    size_t size;
    uint8_t *bytes;
    bool compressed;
} image;

static int extract_all(const char *name, image *out, int max)
{
    size_t size;
    uint8_t *data = slurp(name, &size);
    fatbin_container c;
    fatbin_error err;
    assert_int_equal(fatbin_container_open(&c, data, size, &err), FATBIN_OK);
    fatbin_entry e;
    size_t pos = 0;
    int n = 0, r;
    while ((r = fatbin_next_entry(&c, &pos, &e, &err)) == FATBIN_OK) {
        assert_true(n < max);
        uint64_t want = fatbin_entry_image_size(&e);
        out[n] = (image){ e.kind, e.arch, 0, malloc((size_t)want + 1),
                          (e.flags & FATBIN_FLAG_COMPRESSION_MASK) != 0 };
        assert_non_null(out[n].bytes);
        if (fatbin_entry_extract(&e, out[n].bytes, (size_t)want + 1, &out[n].size, &err) !=
            FATBIN_OK)
            fail_msg("%s entry %d: %s", name, n, err.message);
        assert_int_equal(out[n].size, want);
        n++;
    }
    assert_int_equal(r, FATBIN_END);
    free(data);
    return n;
}

static void free_all(image *im, int n)
{
    for (int i = 0; i < n; i++)
        free(im[i].bytes);
}

/* name's images equal the plain fixture's; returns how many were compressed. */
static int same_as_plain(const char *name)
{
    image plain[8], packed[8];
    int np = extract_all("comp_none.fatbin", plain, 8);
    int nc = extract_all(name, packed, 8);
    assert_int_equal(np, nc);
    int compressed = 0;
    for (int i = 0; i < np; i++) {
        assert_int_equal(plain[i].kind, packed[i].kind);
        assert_int_equal(plain[i].arch, packed[i].arch);
        /* PTX text may differ in its padding; ELF images must be identical */
        if (plain[i].kind == FATBIN_KIND_ELF) {
            assert_int_equal(plain[i].size, packed[i].size);
            assert_memory_equal(plain[i].bytes, packed[i].bytes, plain[i].size);
        }
        compressed += packed[i].compressed;
    }
    free_all(plain, np);
    free_all(packed, nc);
    return compressed;
}

static void test_codecs_load_on_first_use(void **state)
{
    (void)state;
    /* Plain entries need no codec. */
    assert_true(same_as_plain("comp_nocompress.fatbin") == 0);
    assert_false(mapped("libzstd"));
    assert_false(mapped("liblz4"));
    assert_false(mapped("libz.so"));

    assert_true(same_as_plain("comp_all.fatbin") > 0);          /* zstd */
    assert_true(mapped("libzstd"));
    assert_false(mapped("liblz4"));

    assert_true(same_as_plain("comp_all_speed.fatbin") > 0);    /* LZ4 block */
    assert_true(mapped("liblz4"));
    assert_true(same_as_plain("comp_lz4frame.fatbin") > 0);     /* LZ4 frame */

    assert_false(mapped("libz.so"));
    assert_true(same_as_plain("comp_zlib.fatbin") > 0);         /* zlib */
    assert_true(mapped("libz.so"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_codecs_load_on_first_use),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
