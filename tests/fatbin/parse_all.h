/*
 * parse_all.h - runs every parser entry point over one buffer, the way the corruption sweep,
 * the fuzz target and its replayer need: the file scan, every container's entries, every
 * entry's extraction, every cubin's kernels and parameters, the chooser for several SMs, and
 * for ELF files the .dynamic entries and the symbols with their versions (`fatbin check`).
 * A buffer that is itself a cubin (EM_CUDA) is opened as one.
 */
#ifndef FATBIN_TEST_PARSE_ALL_H
#define FATBIN_TEST_PARSE_ALL_H

#include <stddef.h>
#include <stdint.h>

#include "fatbin.h"

typedef struct parse_stats {
    unsigned long containers, entries, images, cubins, kernels, params, choices;
    unsigned long bad;            /* FATBIN_BAD results seen */
    unsigned long unclean;        /* FATBIN_BAD with an empty message or a wild offset */
    fatbin_error last;
} parse_stats;

/* Returns FATBIN_OK if everything parsed, FATBIN_BAD if anything was rejected. */
int parse_all(const uint8_t *data, size_t size, parse_stats *st);

#endif
