/*
 * fuzz_main.c - the libFuzzer entry point of one target.  CMake builds it once per target
 * (fuzz_container, fuzz_decompress, fuzz_cubin, fuzz_choose, fuzz_fatbin) with
 * -DFUZZ_TARGET=<the function>; see FUZZING.md for running the campaigns.
 */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_targets.h"

#ifndef FUZZ_TARGET
#error "build with -DFUZZ_TARGET=fuzz_<target>"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* The verdict only matters to the replayer: libFuzzer wants 0 for every input it may keep. */
    (void)FUZZ_TARGET(data, size);
    return 0;
}
