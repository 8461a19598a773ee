/*
 * fuzz_fatbin.c - libFuzzer target: any input goes through every parser entry point
 * (parse_all.c).  Built as `fuzz_fatbin` with -DMINICUDART_FUZZ=ON (clang); in ordinary CI
 * fuzz_replay.c drives the same function over the fixtures.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parse_all.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* An exact-size copy, so that an over-read past the input is caught. */
    uint8_t *copy = malloc(size ? size : 1);
    if (!copy)
        return 0;
    memcpy(copy, data, size);
    parse_stats st = { 0 };
    parse_all(copy, size, &st);
    if (st.unclean)
        abort();                /* an error without a message or with a wild offset */
    free(copy);
    return 0;
}
