/*
 * fixture.h - helpers shared by the fatbin tests: loading fixture files into exact-size heap
 * buffers (so ASan sees any over-read), collecting a file's containers and entries, and
 * decompressing an entry into a fresh buffer.
 */
#ifndef FATBIN_TEST_FIXTURE_H
#define FATBIN_TEST_FIXTURE_H

#include <stddef.h>
#include <stdint.h>

#include "fatbin.h"

#define MAX_FIXTURE_CONTAINERS 16
#define MAX_FIXTURE_ENTRIES 32

typedef struct fixture {
    uint8_t *data;
    size_t size;
    size_t ncontainers;
    fatbin_container containers[MAX_FIXTURE_CONTAINERS];
    const char *section[MAX_FIXTURE_CONTAINERS];
    size_t nentries;
    fatbin_entry entries[MAX_FIXTURE_ENTRIES];
    size_t entry_container[MAX_FIXTURE_ENTRIES];
} fixture;

/* Reads a whole file into a malloc'd buffer of exactly its size; NULL if unreadable. */
uint8_t *fixture_read(const char *path, size_t *size);

/* Loads FIXTURE_DIR/<name> and collects every container and entry; returns 0, or -1 if the
 * file is missing or any container or entry fails to parse. */
int fixture_load(fixture *fx, const char *dir, const char *name);
void fixture_free(fixture *fx);

/* Decompresses an entry into a new buffer (*size set); NULL on any error. */
uint8_t *fixture_extract(const fatbin_entry *e, size_t *size);

/* Finds the first entry of kind/arch (and exactly these 'a'/'f' flags); NULL if none. */
const fatbin_entry *fixture_find(const fixture *fx, uint16_t kind, uint32_t arch,
                                 uint64_t af_flags);

#endif
