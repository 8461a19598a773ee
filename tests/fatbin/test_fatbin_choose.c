/*
 * test_fatbin_choose.c - the image chosen for each device SM, on nvcc-made fatbins:
 * multi-gencode (sm_80, sm_90, sm_90a, sm_100, compute_90), PTX-only, and with PTX forced.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "fixture.h"

typedef struct pick {
    unsigned sm;
    bool force_ptx;
    bool found;
    uint16_t kind;
    uint32_t arch;
    uint64_t af;                    /* 'a'/'f' flags of the chosen entry */
    const char *reason;             /* a phrase the reason must contain */
} pick;

static void check_picks(const char *file, const pick *picks, size_t n)
{
    fixture fx;
    assert_int_equal(fixture_load(&fx, FIXTURE_DIR, file), 0);
    for (size_t i = 0; i < n; i++) {
        fatbin_choice ch;
        fatbin_error err;
        assert_int_equal(fatbin_choose(&fx.containers[0], picks[i].sm, picks[i].force_ptx, &ch,
                                       &err), FATBIN_OK);
        print_message("%s sm_%u%s: %s\n", file, picks[i].sm, picks[i].force_ptx ? " (ptx)" : "",
                      ch.reason);
        assert_int_equal(ch.found, picks[i].found);
        assert_non_null(strstr(ch.reason, picks[i].reason));
        if (!ch.found)
            continue;
        assert_int_equal(ch.entry.kind, picks[i].kind);
        assert_int_equal(ch.entry.arch, picks[i].arch);
        assert_int_equal(ch.entry.flags & (FATBIN_FLAG_ARCH_SPECIFIC | FATBIN_FLAG_FAMILY),
                         picks[i].af);
        assert_int_equal(ch.is_ptx, picks[i].kind == FATBIN_KIND_PTX);
        /* entry_index names the same entry as the walk. */
        assert_int_equal(fx.entries[ch.entry_index].offset, ch.entry.offset);
    }
    fixture_free(&fx);
}

#define ELF FATBIN_KIND_ELF
#define PTX FATBIN_KIND_PTX
#define A FATBIN_FLAG_ARCH_SPECIFIC

static void multi_gencode_picks_best_sass_else_ptx(void **state)
{
    static const pick picks[] = {
        { 80, false, true, ELF, 80, 0, "exact match for sm_80" },
        { 86, false, true, ELF, 80, 0, "compatible with sm_86" },
        { 89, false, true, ELF, 80, 0, "compatible with sm_89" },
        { 90, false, true, ELF, 90, A, "SASS sm_90a" },          /* 'a' preferred on its SM */
        { 100, false, true, ELF, 100, 0, "exact match for sm_100" },
        { 103, false, true, ELF, 100, 0, "sm_103" },
        { 120, false, true, PTX, 90, 0, "no SASS for sm_120 (have sm_80, sm_90, sm_90a, sm_100)" },
        { 75, false, false, 0, 0, 0, "no SASS or PTX usable on sm_75" },
        { 90, true, true, PTX, 90, 0, "JIT PTX compute_90" },
        { 80, true, false, 0, 0, 0, "no SASS or PTX usable on sm_80" },
    };
    check_picks("multi.fatbin", picks, sizeof picks / sizeof picks[0]);
}

static void ptx_only_is_jitted_on_newer_devices_only(void **state)
{
    static const pick picks[] = {
        { 80, false, false, 0, 0, 0, "have compute_90" },
        { 89, false, false, 0, 0, 0, "no SASS or PTX usable" },
        { 90, false, true, PTX, 90, 0, "JIT PTX compute_90" },
        { 100, false, true, PTX, 90, 0, "JIT PTX compute_90" },
        { 120, false, true, PTX, 90, 0, "no SASS for sm_120 (have none)" },
        { 120, true, true, PTX, 90, 0, "PTX forced" },
    };
    check_picks("ptxonly.fatbin", picks, sizeof picks / sizeof picks[0]);
}

static void single_arch_build_runs_only_within_its_major(void **state)
{
    static const pick picks[] = {
        { 90, false, true, ELF, 90, 0, "exact match for sm_90" },
        { 100, false, true, PTX, 90, 0, "no SASS for sm_100 (have sm_90)" },
        { 86, false, false, 0, 0, 0, "no SASS or PTX usable on sm_86 (have sm_90, compute_90)" },
    };
    check_picks("comp_default.fatbin", picks, sizeof picks / sizeof picks[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(multi_gencode_picks_best_sass_else_ptx),
        cmocka_unit_test(ptx_only_is_jitted_on_newer_devices_only),
        cmocka_unit_test(single_arch_build_runs_only_within_its_major),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
