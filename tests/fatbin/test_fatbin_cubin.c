/*
 * test_fatbin_cubin.c - kernels and parameters read from nvcc's cubins agree with the C
 * declarations in kernels/params.h: offsets and sizes from offsetof/sizeof, the V2 encoding
 * beyond 4352 bytes, launch bounds, shared memory, the SM in e_flags.
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
#include "params.h"

#define MEMBER(S, f) { offsetof(struct S, f), sizeof(((struct S *)0)->f) }
#define MAX_EXPECTED 16

typedef struct expected_kernel {
    const char *name;
    unsigned count;
    struct { size_t offset, size; } params[MAX_EXPECTED];
} expected_kernel;

static const expected_kernel expected[] = {
    { "k_struct", 3, { MEMBER(args_k_struct, a), MEMBER(args_k_struct, p),
                       MEMBER(args_k_struct, out) } },
    { "k_many", 16, { MEMBER(args_k_many, c0), MEMBER(args_k_many, i1), MEMBER(args_k_many, d2),
                      MEMBER(args_k_many, s3), MEMBER(args_k_many, p4), MEMBER(args_k_many, c5),
                      MEMBER(args_k_many, l6), MEMBER(args_k_many, f7), MEMBER(args_k_many, i8),
                      MEMBER(args_k_many, p9), MEMBER(args_k_many, c10),
                      MEMBER(args_k_many, d11), MEMBER(args_k_many, i12),
                      MEMBER(args_k_many, i13), MEMBER(args_k_many, u14),
                      MEMBER(args_k_many, p15) } },
    { "k_big4k", 2, { MEMBER(args_k_big4k, b), MEMBER(args_k_big4k, x) } },
    { "k_v2", 2, { MEMBER(args_k_v2, p), MEMBER(args_k_v2, b) } },
    { "k_shared", 1, { MEMBER(args_k_shared, out) } },
    { "k_noargs", 0, { { 0, 0 } } },
    { "_Z6k_tmplIfEvPT_S0_", 2, { MEMBER(args_k_tmpl_float, out),
                                  MEMBER(args_k_tmpl_float, v) } },
    { "_Z6k_tmplIiEvPT_S0_", 2, { MEMBER(args_k_tmpl_int, out), MEMBER(args_k_tmpl_int, v) } },
};
#define NKERNELS (sizeof expected / sizeof expected[0])

/* Which KPARAM record kind a kernel's .nv.info uses: 0x17 or 0x45 (first one found). */
static unsigned kparam_attr(const cubin_kernel *k)
{
    for (size_t at = 0; at + 4 <= k->info_size;) {
        uint8_t format = k->info[at], attr = k->info[at + 1];
        size_t len = format == 4 ? 4u + (k->info[at + 2] | k->info[at + 3] << 8) : 4u;
        if (attr == 0x17 || attr == 0x45)
            return attr;
        at += len;
    }
    return 0;
}

static void check_kernel(const cubin *c, const expected_kernel *want)
{
    cubin_kernel k;
    fatbin_error err;
    print_message("  %s\n", want->name);
    assert_int_equal(cubin_find_kernel(c, want->name, &k, &err), FATBIN_OK);
    assert_string_equal(k.name, want->name);
    assert_int_equal(k.param_count, want->count);
    cubin_param params[MAX_EXPECTED];
    assert_int_equal(cubin_kernel_params(&k, params, MAX_EXPECTED, &err), FATBIN_OK);
    for (unsigned i = 0; i < want->count; i++) {
        assert_int_equal(params[i].ordinal, i);
        assert_int_equal(params[i].offset, want->params[i].offset);
        assert_int_equal(params[i].size, want->params[i].size);
    }
    size_t total = want->count ? want->params[want->count - 1].offset +
                                 want->params[want->count - 1].size : 0;
    assert_int_equal(k.param_size, total);
    /* V2 records exactly when the list passes 4352 bytes (PROTOCOL.md 6.6). */
    if (want->count)
        assert_int_equal(kparam_attr(&k), total > 4352 ? 0x45 : 0x17);
    assert_true(k.registers > 0 && k.registers <= 255);
    bool is_shared = strcmp(want->name, "k_shared") == 0;
    if (is_shared) {
        assert_true(k.shared_size >= SHARED_FLOATS * sizeof(float));
        assert_int_equal(k.max_threads[0], BOUND_THREADS);
        assert_int_equal(k.max_threads[1], 1);
        assert_int_equal(k.max_threads[2], 1);
    } else {
        assert_int_equal(k.shared_size, 0);
        assert_int_equal(k.max_threads[0], 0);
    }
}

static void check_cubin(const uint8_t *image, size_t size, unsigned sm)
{
    cubin c;
    fatbin_error err;
    assert_int_equal(cubin_open(&c, image, size, &err), FATBIN_OK);
    assert_int_equal(c.sm, sm);
    assert_int_equal(c.abi_version, 8);
    for (size_t i = 0; i < NKERNELS; i++)
        check_kernel(&c, &expected[i]);
    /* The iterator finds exactly these kernels, none of them `$__internal_`. */
    size_t iter = 0, count = 0;
    cubin_kernel k;
    while (cubin_next_kernel(&c, &iter, &k, &err) == FATBIN_OK) {
        assert_null(strstr(k.name, "$__internal_"));
        count++;
    }
    assert_int_equal(count, NKERNELS);
    assert_int_equal(cubin_find_kernel(&c, "no_such_kernel", &k, &err), FATBIN_END);

    /* The table the runtime reads once per module gives every kernel as cubin_find_kernel does:
     * the same records, count, sizes, bounds and parameters. */
    cubin_kernels t;
    assert_int_equal(cubin_kernels_read(&t, &c, &err), FATBIN_OK);
    assert_int_equal(t.count, NKERNELS);
    for (size_t i = 0; i < NKERNELS; i++) {
        cubin_kernel want, got;
        assert_int_equal(cubin_find_kernel(&c, expected[i].name, &want, &err), FATBIN_OK);
        assert_int_equal(cubin_kernels_find(&t, &c, expected[i].name, &got, &err), FATBIN_OK);
        assert_ptr_equal(got.name, want.name);
        assert_int_equal(got.symbol_index, want.symbol_index);
        assert_ptr_equal(got.info, want.info);
        assert_int_equal(got.info_size, want.info_size);
        assert_int_equal(got.param_count, want.param_count);
        assert_int_equal(got.param_size, want.param_size);
        assert_memory_equal(got.max_threads, want.max_threads, sizeof want.max_threads);
        cubin_param a[MAX_EXPECTED], b[MAX_EXPECTED];
        assert_int_equal(cubin_kernel_params(&want, a, MAX_EXPECTED, &err), FATBIN_OK);
        assert_int_equal(cubin_kernel_params(&got, b, MAX_EXPECTED, &err), FATBIN_OK);
        assert_memory_equal(a, b, want.param_count * sizeof a[0]);
    }
    assert_int_equal(cubin_kernels_find(&t, &c, "no_such_kernel", &k, &err), FATBIN_END);
    assert_int_equal(cubin_kernels_find(&t, &c, "k_", &k, &err), FATBIN_END);
    cubin_kernels_free(&t);
    assert_null(t.items);
}

static void kept_sm90_cubin_has_every_kernel_with_c_layout_params(void **state)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/none.keep/multi.sm_90.cubin", FIXTURE_DIR);
    size_t size;
    uint8_t *image = fixture_read(path, &size);
    assert_non_null(image);
    check_cubin(image, size, 90);
    free(image);
}

static void every_cubin_of_every_fixture_has_the_same_kernels(void **state)
{
    static const char *files[] = { "multi.fatbin", "debug.fatbin", "comp_all_speed.fatbin" };
    for (size_t f = 0; f < 3; f++) {
        fixture fx;
        assert_int_equal(fixture_load(&fx, FIXTURE_DIR, files[f]), 0);
        for (size_t i = 0; i < fx.nentries; i++) {
            if (fx.entries[i].kind != FATBIN_KIND_ELF)
                continue;
            print_message("%s sm_%u\n", files[f], fx.entries[i].arch);
            size_t size;
            uint8_t *image = fixture_extract(&fx.entries[i], &size);
            assert_non_null(image);
            check_cubin(image, size, fx.entries[i].arch);
            free(image);
        }
        fixture_free(&fx);
    }
}

static void params_buffer_too_small_is_rejected(void **state)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/none.keep/multi.sm_90.cubin", FIXTURE_DIR);
    size_t size;
    uint8_t *image = fixture_read(path, &size);
    assert_non_null(image);
    cubin c;
    cubin_kernel k;
    fatbin_error err;
    assert_int_equal(cubin_open(&c, image, size, &err), FATBIN_OK);
    assert_int_equal(cubin_find_kernel(&c, "k_many", &k, &err), FATBIN_OK);
    cubin_param params[4];
    assert_int_equal(cubin_kernel_params(&k, params, 4, &err), FATBIN_BAD);
    assert_non_null(strstr(err.message, "k_many"));
    /* Not a cubin: the host-side ELF of a different machine. */
    image[0x12] = 62;
    assert_int_equal(cubin_open(&c, image, size, &err), FATBIN_BAD);
    assert_int_equal(err.offset, 0x12);
    free(image);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kept_sm90_cubin_has_every_kernel_with_c_layout_params),
        cmocka_unit_test(every_cubin_of_every_fixture_has_the_same_kernels),
        cmocka_unit_test(params_buffer_too_small_is_rejected),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
