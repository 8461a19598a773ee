/*
 * fuzz_fatbin.c - the all-in-one target: any input goes through every parser entry point
 * (parse_all.c: file scan, entries, extraction, cubins, kernels, parameters, the chooser, and
 * for ELF files the .dynamic entries and the symbols `fatbin check` reads).  The focused
 * targets (fuzz_container.c, fuzz_decompress.c, fuzz_cubin.c, fuzz_choose.c) reach deeper into
 * one room each; this one finds what only a whole file can reach.
 *
 * Accepted: everything parsed and there was at least one entry or cubin (a real fixture).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_targets.h"
#include "parse_all.h"

int fuzz_fatbin(const uint8_t *data, size_t size)
{
    /* An exact-size copy, so that an over-read past the input is caught here as well as under
     * the replayer (libFuzzer hands out exact-size buffers already). */
    uint8_t *copy = malloc(size ? size : 1);
    if (!copy)
        return FUZZ_REJECTED;
    if (size)
        memcpy(copy, data, size);
    parse_stats st = { 0 };
    int rc = parse_all(copy, size, &st);
    free(copy);
    if (st.unclean != 0) {
        /* An error without a message or with a wild offset (the last error seen, for a clue). */
        fprintf(stderr, "fuzz: parse_all: %lu unclean errors; last error '%s' at 0x%zx\n",
                st.unclean, st.last.message, st.last.offset);
        abort();
    }
    return rc == FATBIN_OK && st.entries + st.cubins > 0 ? FUZZ_ACCEPTED : FUZZ_REJECTED;
}
