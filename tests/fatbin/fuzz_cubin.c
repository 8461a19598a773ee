/*
 * fuzz_cubin.c - the cubin reader: the ELF header and section table, the kernels (symbols with
 * a .nv.info.<name> section), the module and per-kernel .nv.info EIATTR records and the
 * parameter layout from KPARAM_INFO / KPARAM_INFO_V2.
 *
 * Input, by its first bytes:
 *   "\x7f" "ELF" ...  a cubin image: cubin_open, every kernel (cubin_next_kernel), its
 *                     parameters (cubin_kernel_params into an array of exactly param_count),
 *                     and cubin_find_kernel for its name and for a name no cubin has; the
 *                     one-pass table (cubin_kernels_read/find) must agree with it.
 *   anything else     the EIATTR parameter reader alone, on a kernel made by hand:
 *                       off 0 u8 param_count, off 1 u16 param_size, off 3.. the records of a
 *                       .nv.info.<name> section (seeds: real sections cut from nvcc cubins).
 *
 * Checked: names NUL-terminated inside the image, info views inside it, one kernel per section
 * at most, parameters in ordinal order 0..n-1 each inside param_size, a too-small array
 * refused, find agreeing with the walk; errors with a message and an offset inside the buffer
 * parsed.  Accepted: a cubin with at least one kernel, or a record list, that parsed in full.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz_targets.h"

#define RECORDS_HEADER 3u
#define ABSENT_NAME "fuzz-no-such-kernel"

/* Parameters of k into an exact-size array, checked; FATBIN_OK or a clean FATBIN_BAD. */
static int check_params(const cubin_kernel *k)
{
    fatbin_error err;
    cubin_param *params = malloc(k->param_count ? k->param_count * sizeof *params : 1);
    if (!params)
        return FATBIN_BAD;
    if (k->param_count > 0) {
        fuzz_error_init(&err);
        fuzz_require(cubin_kernel_params(k, params, k->param_count - 1, &err) == FATBIN_BAD,
                     "cubin_kernel_params: accepted an array too small");
        fuzz_require_clean_error(&err, k->info_size, "cubin_kernel_params (small array)");
    }
    fuzz_error_init(&err);
    int rc = cubin_kernel_params(k, params, k->param_count, &err);
    if (rc == FATBIN_OK) {
        for (uint32_t i = 0; i < k->param_count; i++) {
            fuzz_require(params[i].ordinal == i, "parameters not in ordinal order");
            fuzz_require((uint64_t)params[i].offset + params[i].size <= k->param_size,
                         "parameter outside the parameter list");
        }
    } else {
        fuzz_require(rc == FATBIN_BAD, "cubin_kernel_params: unknown return code");
        fuzz_require_clean_error(&err, k->info_size, "cubin_kernel_params");
    }
    free(params);
    return rc;
}

static void check_kernel(const cubin *c, const cubin_kernel *k)
{
    fuzz_require(k->name != NULL && fuzz_inside(k->name, 1, c->image, c->size),
                 "kernel name outside the image");
    size_t room = c->size - (size_t)((const uint8_t *)k->name - c->image);
    fuzz_require(memchr(k->name, 0, room) != NULL, "kernel name not terminated in the image");
    fuzz_require(k->name[0] != 0, "kernel with an empty name");
    fuzz_require(k->symbol_index != 0, "kernel without a symbol");
    fuzz_require(k->info != NULL && fuzz_inside(k->info, k->info_size, c->image, c->size),
                 "kernel info outside the image");
}

/* cubin_find_kernel must find a kernel of that name (the first one; names may repeat), and the
 * one-pass table (cubin_kernels_find) the same one, with the same records. */
static void check_find(const cubin *c, const cubin_kernels *t, const cubin_kernel *k)
{
    cubin_kernel found, listed;
    fatbin_error err;
    fuzz_error_init(&err);
    int rc = cubin_find_kernel(c, k->name, &found, &err);
    fuzz_require(rc == FATBIN_OK, "cubin_find_kernel: a kernel the walk returned is missing");
    fuzz_require(strcmp(found.name, k->name) == 0, "cubin_find_kernel: another name");
    if (!t)
        return;
    fuzz_error_init(&err);
    rc = cubin_kernels_find(t, c, k->name, &listed, &err);
    fuzz_require(rc == FATBIN_OK, "cubin_kernels_find: a kernel cubin_find_kernel found is missing");
    fuzz_require(listed.name == found.name && listed.symbol_index == found.symbol_index &&
                     listed.info == found.info && listed.info_size == found.info_size &&
                     listed.param_count == found.param_count &&
                     listed.param_size == found.param_size &&
                     memcmp(listed.max_threads, found.max_threads, sizeof found.max_threads) == 0,
                 "cubin_kernels_find: another kernel than cubin_find_kernel's");
}

static int as_cubin(const uint8_t *data, size_t size)
{
    cubin c;
    fatbin_error err;
    fuzz_error_init(&err);
    if (cubin_open(&c, data, size, &err) != FATBIN_OK) {
        fuzz_require_clean_error(&err, size, "cubin_open");
        return FUZZ_REJECTED;
    }
    fuzz_require(c.image == data && c.size == size, "cubin view differs from the input");
    cubin_kernels table;
    fuzz_error_init(&err);
    bool have_table = cubin_kernels_read(&table, &c, &err) == FATBIN_OK;
    if (!have_table)
        fuzz_require_clean_error(&err, size, "cubin_kernels_read");
    size_t iter = 0, last_iter = 0;
    unsigned long kernels = 0, bad_params = 0;
    cubin_kernel k;
    int rc;
    while ((rc = cubin_next_kernel(&c, &iter, &k, &err)) == FATBIN_OK) {
        fuzz_require(iter > last_iter && iter <= c.shnum, "kernel iterator did not advance");
        last_iter = iter;
        kernels++;
        check_kernel(&c, &k);
        if (check_params(&k) != FATBIN_OK)
            bad_params++;
        check_find(&c, have_table ? &table : NULL, &k);
    }
    if (rc == FATBIN_BAD) {
        fuzz_require_clean_error(&err, size, "cubin_next_kernel");
        cubin_kernels_free(&table);
        return FUZZ_REJECTED;
    }
    fuzz_require(rc == FATBIN_END, "cubin_next_kernel: unknown return code");
    fuzz_error_init(&err);
    rc = cubin_find_kernel(&c, ABSENT_NAME, &k, &err);
    fuzz_require(rc != FATBIN_OK || strcmp(k.name, ABSENT_NAME) == 0,
                 "cubin_find_kernel: found a kernel of another name");
    if (rc == FATBIN_BAD)
        fuzz_require_clean_error(&err, size, "cubin_find_kernel");
    if (have_table) {
        fuzz_error_init(&err);
        fuzz_require(cubin_kernels_find(&table, &c, ABSENT_NAME, &k, &err) == FATBIN_END,
                     "cubin_kernels_find: found a kernel no cubin has");
    }
    cubin_kernels_free(&table);
    return kernels > 0 && bad_params == 0 ? FUZZ_ACCEPTED : FUZZ_REJECTED;
}

/* The parameter reader over a record list alone, on a kernel made from the header bytes. */
static int as_records(const uint8_t *data, size_t size)
{
    if (size < RECORDS_HEADER)
        return FUZZ_REJECTED;
    cubin_kernel k;
    memset(&k, 0, sizeof k);
    k.name = "fuzz_kernel";
    k.param_count = data[0];
    k.param_size = (uint32_t)data[1] | (uint32_t)data[2] << 8;
    k.info = data + RECORDS_HEADER;       /* ends where the input ends: over-reads are seen */
    k.info_size = size - RECORDS_HEADER;
    return check_params(&k) == FATBIN_OK ? FUZZ_ACCEPTED : FUZZ_REJECTED;
}

int fuzz_cubin(const uint8_t *data, size_t size)
{
    if (size >= 4 && memcmp(data, "\x7f" "ELF", 4) == 0)
        return as_cubin(data, size);
    return as_records(data, size);
}
