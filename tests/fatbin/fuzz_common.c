/* fuzz_common.c - the target table and the checks every fuzz target shares (fuzz_targets.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_targets.h"

const fuzz_target fuzz_targets[] = {
    { "container", fuzz_container },
    { "decompress", fuzz_decompress },
    { "cubin", fuzz_cubin },
    { "choose", fuzz_choose },
    { "ptx", fuzz_ptx },
    { "fatbin", fuzz_fatbin },
};
const size_t fuzz_target_count = sizeof fuzz_targets / sizeof fuzz_targets[0];

void fuzz_require(int ok, const char *what)
{
    if (ok)
        return;
    fprintf(stderr, "fuzz: %s\n", what);
    abort();
}

void fuzz_error_init(fatbin_error *err)
{
    /* SIZE_MAX and an empty message: both fail the clean-error check unless overwritten. */
    err->offset = SIZE_MAX;
    memset(err->message, 0, sizeof err->message);
}

void fuzz_require_clean_error(const fatbin_error *err, size_t limit, const char *where)
{
    int terminated = memchr(err->message, 0, sizeof err->message) != NULL;
    if (terminated && err->message[0] != 0 && err->offset <= limit)
        return;
    fprintf(stderr, "fuzz: unclean error from %s: offset 0x%zx (limit 0x%zx), message '%.*s'\n",
            where, err->offset, limit, (int)sizeof err->message, err->message);
    abort();
}

int fuzz_inside(const void *p, size_t len, const void *base, size_t size)
{
    uintptr_t at = (uintptr_t)p, lo = (uintptr_t)base;
    return at >= lo && at - lo <= size && len <= size - (at - lo);
}
