/*
 * fuzz_targets.h - the fuzz targets of the parser, one per room of fatbin/, as plain functions.
 *
 * Each target takes any bytes, runs them through its part of the parser, checks what the parser
 * returned against the parser's own promises (views inside the input, errors with a message and
 * an offset in range, sizes that agree), and aborts on a broken promise.  ASan and UBSan catch
 * the rest.  A target returns FUZZ_ACCEPTED when its input parsed all the way through (a real
 * nvcc-made seed must), FUZZ_REJECTED when the parser refused it cleanly.
 *
 *   target      what it drives                                       input layout
 *   container   wrapper, container header, entry walk; files:        any bytes
 *               raw fatbins, ELF sections, .nvFatBinSegment
 *   decompress  fatbin_entry_extract: zstd, LZ4 block and frame,     12-byte header + payload
 *               zlib, stored; output buffers of exact capacity       (fuzz_decompress.c)
 *   cubin       cubin_open, kernels, .nv.info, parameters; or the    ELF cubin, or 3-byte
 *               EIATTR parameter reader alone                        header + .nv.info records
 *   choose      fatbin_choose, checked against the documented rules  SM, flags, container
 *   ptx         the PTX reader: ptx_entries_read / _find against      PTX text
 *               ptx_entry_param_count (fuzz_ptx.c)
 *   fatbin      everything at once (parse_all.c), as before          any bytes
 *
 * fuzz_main.c turns one of them into LLVMFuzzerTestOneInput (-DMINICUDART_FUZZ=ON builds
 * fuzz_<target>); fuzz_replay.c drives all of them over the committed seeds in ordinary CI.
 */
#ifndef FATBIN_TEST_FUZZ_TARGETS_H
#define FATBIN_TEST_FUZZ_TARGETS_H

#include <stddef.h>
#include <stdint.h>

#include "fatbin.h"

enum { FUZZ_REJECTED = 0, FUZZ_ACCEPTED = 1 };

typedef int (*fuzz_target_fn)(const uint8_t *data, size_t size);

int fuzz_container(const uint8_t *data, size_t size);
int fuzz_decompress(const uint8_t *data, size_t size);
int fuzz_cubin(const uint8_t *data, size_t size);
int fuzz_choose(const uint8_t *data, size_t size);
int fuzz_ptx(const uint8_t *data, size_t size);
int fuzz_fatbin(const uint8_t *data, size_t size);

typedef struct fuzz_target {
    const char *name;           /* also the seed directory: seeds/<name>/ */
    fuzz_target_fn run;
} fuzz_target;

/* Every target, in the order above; `fuzz_target_count` entries. */
extern const fuzz_target fuzz_targets[];
extern const size_t fuzz_target_count;

/* Aborts with "fuzz: <what>" on stderr when `ok` is false: a finding. */
void fuzz_require(int ok, const char *what);

/* An error the parser returned must carry a NUL-terminated, non-empty message and an offset of
 * at most `limit` (the size of the buffer it was parsing).  Start every fatbin_error with
 * fuzz_error_init so that a field the parser forgot to fill is noticed. */
void fuzz_error_init(fatbin_error *err);
void fuzz_require_clean_error(const fatbin_error *err, size_t limit, const char *where);

/* Is [p, p + len) inside [base, base + size)?  (Compared as addresses, without overflow.) */
int fuzz_inside(const void *p, size_t len, const void *base, size_t size);

#endif
