/*
 * test_fatbin_elffile.c - fatbins inside host ELF files made with -rdc=true: relocatable
 * objects (__nv_relfatbin, one v1 wrapper filled by a relocation) and the linked executable
 * (.nv_fatbin with the nvlink image, version-2 wrappers resolved through section addresses).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fixture.h"

#define MAX_W 16

typedef struct wrappers {
    size_t n;
    fatbin_file_wrapper w[MAX_W];
} wrappers;

static int collect_wrapper(const fatbin_file_wrapper *w, void *user)
{
    wrappers *ws = user;
    if (ws->n < MAX_W)
        ws->w[ws->n++] = *w;
    return 0;
}

/* Does the cubin of `e` (ELF) define kernel `name`, and is it of ELF type `type`? */
static bool cubin_has_kernel(const fatbin_entry *e, const char *name, uint16_t type)
{
    size_t size;
    uint8_t *image = fixture_extract(e, &size);
    assert_non_null(image);
    cubin c;
    cubin_kernel k;
    fatbin_error err;
    assert_int_equal(cubin_open(&c, image, size, &err), FATBIN_OK);
    assert_int_equal(c.elf_type, type);
    bool found = cubin_find_kernel(&c, name, &k, &err) == FATBIN_OK;
    free(image);
    return found;
}

static void rdc_object_holds_a_relocatable_fatbin_and_one_v1_wrapper(void **state)
{
    fixture fx;
    assert_int_equal(fixture_load(&fx, FIXTURE_DIR, "rdc_a.o"), 0);
    assert_int_equal(fx.ncontainers, 1);
    assert_string_equal(fx.section[0], "__nv_relfatbin");
    const fatbin_entry *elf = fixture_find(&fx, FATBIN_KIND_ELF, 90, 0);
    const fatbin_entry *ptx = fixture_find(&fx, FATBIN_KIND_PTX, 90, 0);
    assert_non_null(elf);
    assert_non_null(ptx);
    assert_int_equal(elf->flags & FATBIN_FLAG_COMPRESSION_MASK, FATBIN_FLAG_ZSTD);
    assert_non_null(ptx->options);
    assert_true(ptx->options_len >= 14);
    assert_memory_equal(ptx->options, "--compile-only", 14);
    assert_true(cubin_has_kernel(elf, "_Z6kern_aPi", 1));          /* ET_REL */
    assert_false(cubin_has_kernel(elf, "_Z5twicei", 1));
    wrappers ws = { 0 };
    fatbin_error err;
    assert_int_equal(fatbin_file_wrappers(fx.data, fx.size, collect_wrapper, &ws, &err), 1);
    assert_int_equal(ws.w[0].version, 1);
    assert_int_equal(ws.w[0].data_vaddr, 0);                        /* filled by relocation */
    assert_null(ws.w[0].data_section);
    fixture_free(&fx);
}

static void linked_rdc_app_has_the_linked_image_and_both_prelinked_fatbins(void **state)
{
    fixture fx;
    assert_int_equal(fixture_load(&fx, FIXTURE_DIR, "rdc_app"), 0);
    size_t rel = 0, linked_with_kernels = 0;
    for (size_t i = 0; i < fx.nentries; i++) {
        const char *sec = fx.section[fx.entry_container[i]];
        const fatbin_entry *e = &fx.entries[i];
        if (strcmp(sec, "__nv_relfatbin") == 0) {
            rel += e->kind == FATBIN_KIND_ELF;
        } else if (e->kind == FATBIN_KIND_ELF) {
            assert_string_equal(sec, ".nv_fatbin");
            /* The nvlink image: executable SASS holding both objects' kernels; twice() is a
             * device function, not a kernel. */
            assert_false(cubin_has_kernel(e, "_Z5twicei", 2));
            if (cubin_has_kernel(e, "_Z6kern_aPi", 2) && cubin_has_kernel(e, "_Z6kern_bPi", 2))
                linked_with_kernels++;
        }
    }
    assert_int_equal(rel, 2);                       /* rdc_a.o and rdc_b.o */
    assert_int_equal(linked_with_kernels, 1);
    fixture_free(&fx);
}

static void app_wrappers_resolve_to_containers_and_v2_reads_the_prelinked_array(void **state)
{
    fixture fx;
    assert_int_equal(fixture_load(&fx, FIXTURE_DIR, "rdc_app"), 0);
    wrappers ws = { 0 };
    fatbin_error err;
    long n = fatbin_file_wrappers(fx.data, fx.size, collect_wrapper, &ws, &err);
    assert_true(n >= 2);
    size_t v2 = 0;
    for (size_t i = 0; i < ws.n; i++) {
        assert_non_null(ws.w[i].data_section);
        fatbin_container c;
        size_t off = ws.w[i].data_file_offset;
        assert_int_equal(fatbin_container_open(&c, fx.data + off, fx.size - off, &err), FATBIN_OK);
        v2 += ws.w[i].version == 2;
    }
    assert_true(v2 >= 1);
    /* In memory, as the runtime sees it: a v2 wrapper whose array lists the relocatable
     * containers, NULL-terminated. */
    const void *prelinked[3] = { NULL, NULL, NULL };
    size_t np = 0, linked = SIZE_MAX;
    for (size_t i = 0; i < fx.ncontainers; i++) {
        if (strcmp(fx.section[i], "__nv_relfatbin") == 0 && np < 2)
            prelinked[np++] = fx.containers[i].base;
        else if (linked == SIZE_MAX && fx.containers[i].size > FATBIN_CONTAINER_HEADER_SIZE)
            linked = i;
    }
    assert_int_equal(np, 2);
    assert_true(linked != SIZE_MAX);
    uint64_t words[3] = { FATBIN_WRAPPER_MAGIC | (uint64_t)2 << 32,
                          (uint64_t)(uintptr_t)fx.containers[linked].base,
                          (uint64_t)(uintptr_t)prelinked };
    fatbin_wrapper w;
    assert_int_equal(fatbin_wrapper_read(words, &w, &err), FATBIN_OK);
    assert_int_equal(w.version, 2);
    size_t walked = 0;
    for (const void *const *p = w.prelinked; *p; p++) {
        fatbin_container c;
        assert_int_equal(fatbin_container_open(&c, *p, SIZE_MAX, &err), FATBIN_OK);
        size_t pos = 0;
        fatbin_entry e;
        assert_int_equal(fatbin_next_entry(&c, &pos, &e, &err), FATBIN_OK);
        walked++;
    }
    assert_int_equal(walked, 2);
    fixture_free(&fx);
}

static void host_elf_without_fatbin_yields_zero_containers(void **state)
{
    /* The test executable itself: an ELF file with no fatbin sections. */
    size_t size;
    uint8_t *self = fixture_read("/proc/self/exe", &size);
    assert_non_null(self);
    fatbin_error err;
    assert_int_equal(fatbin_file_scan(self, size, NULL, NULL, NULL, &err), 0);
    assert_int_equal(fatbin_file_wrappers(self, size, NULL, NULL, &err), 0);
    free(self);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rdc_object_holds_a_relocatable_fatbin_and_one_v1_wrapper),
        cmocka_unit_test(linked_rdc_app_has_the_linked_image_and_both_prelinked_fatbins),
        cmocka_unit_test(app_wrappers_resolve_to_containers_and_v2_reads_the_prelinked_array),
        cmocka_unit_test(host_elf_without_fatbin_yields_zero_containers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
