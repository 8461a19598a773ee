/*
 * fuzz_replay.c - a plain main() that replays files through the fuzz target, as a corpus in
 * ordinary CI.  Each file must also parse cleanly on its own (the fixtures are valid), so the
 * replay fails if the parser starts rejecting real nvcc output.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "fixture.h"
#include "parse_all.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
    int failures = 0;
    for (int i = 1; i < argc; i++) {
        size_t size;
        uint8_t *data = fixture_read(argv[i], &size);
        if (!data) {
            fprintf(stderr, "replay: cannot read %s\n", argv[i]);
            failures++;
            continue;
        }
        LLVMFuzzerTestOneInput(data, size);
        parse_stats st = { 0 };
        int rc = parse_all(data, size, &st);
        printf("%s: %s, %lu containers, %lu entries, %lu cubins, %lu kernels\n", argv[i],
               rc == FATBIN_OK ? "ok" : st.last.message, st.containers, st.entries, st.cubins,
               st.kernels);
        if (rc != FATBIN_OK || st.entries + st.cubins == 0)
            failures++;
        free(data);
    }
    if (argc < 2)
        failures++;
    return failures ? 1 : 0;
}
