/* fixture.c - see fixture.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"

uint8_t *fixture_read(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    uint8_t *buf = NULL;
    long len;
    if (fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0) {
        buf = malloc((size_t)len);
        if (buf && fread(buf, 1, (size_t)len, f) != (size_t)len) {
            free(buf);
            buf = NULL;
        }
        *size = (size_t)len;
    }
    fclose(f);
    return buf;
}

static int collect(const fatbin_file_section *sec, const fatbin_container *c, void *user)
{
    fixture *fx = user;
    if (fx->ncontainers == MAX_FIXTURE_CONTAINERS)
        return 1;
    size_t ci = fx->ncontainers++;
    fx->containers[ci] = *c;
    fx->section[ci] = sec->name;
    size_t pos = 0;
    fatbin_entry e;
    fatbin_error err;
    int rc;
    while ((rc = fatbin_next_entry(c, &pos, &e, &err)) == FATBIN_OK) {
        if (fx->nentries == MAX_FIXTURE_ENTRIES)
            return 1;
        fx->entry_container[fx->nentries] = ci;
        fx->entries[fx->nentries++] = e;
    }
    if (rc != FATBIN_END) {
        fprintf(stderr, "fixture: container %zu: %s\n", ci, err.message);
        return 1;
    }
    return 0;
}

int fixture_load(fixture *fx, const char *dir, const char *name)
{
    char path[4096];
    memset(fx, 0, sizeof *fx);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    fx->data = fixture_read(path, &fx->size);
    if (!fx->data) {
        fprintf(stderr, "fixture: cannot read %s\n", path);
        return -1;
    }
    fatbin_error err;
    long n = fatbin_file_scan(fx->data, fx->size, collect, NULL, fx, &err);
    if (n < 0 || (size_t)n != fx->ncontainers) {
        fprintf(stderr, "fixture: %s: scan gave %ld (%s)\n", path, n, n < 0 ? err.message : "");
        return -1;
    }
    return 0;
}

void fixture_free(fixture *fx)
{
    free(fx->data);
    fx->data = NULL;
}

uint8_t *fixture_extract(const fatbin_entry *e, size_t *size)
{
    uint64_t want = fatbin_entry_image_size(e);
    if (want > (64u << 20))
        return NULL;
    uint8_t *buf = malloc(want ? (size_t)want : 1);
    fatbin_error err;
    if (buf && fatbin_entry_extract(e, buf, (size_t)want, size, &err) == FATBIN_OK)
        return buf;
    free(buf);
    return NULL;
}

const fatbin_entry *fixture_find(const fixture *fx, uint16_t kind, uint32_t arch,
                                 uint64_t af_flags)
{
    const uint64_t af = FATBIN_FLAG_ARCH_SPECIFIC | FATBIN_FLAG_FAMILY;
    for (size_t i = 0; i < fx->nentries; i++) {
        const fatbin_entry *e = &fx->entries[i];
        if (e->kind == kind && e->arch == arch && (e->flags & af) == af_flags)
            return e;
    }
    return NULL;
}
