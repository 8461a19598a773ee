/*
 * elffile.c - finding fatbins in files on disk: executables, shared libraries, objects, and raw
 * `nvcc -fatbin` output.
 *
 * nvcc puts whole-program fatbins in `.nv_fatbin` and relocatable (-rdc) ones in
 * `__nv_relfatbin`; a linked library concatenates the containers of all its objects, each
 * padded to 8 bytes (PROTOCOL.md 5.2).  The 24-byte wrappers that point at them are in
 * `.nvFatBinSegment`.  A runtime never scans for containers (it is handed the wrapper); this
 * file serves the inspector and the tests.
 */
#include <string.h>

#include "cursor.h"
#include "internal.h"

#define CONTAINER_ALIGN 8u

static bool is_fatbin_section(const char *name)
{
    return strcmp(name, ".nv_fatbin") == 0 || strcmp(name, "__nv_relfatbin") == 0;
}

/* Are bytes [pos, len) all zero?  Trailing alignment padding of a section looks like that. */
static bool only_zeros(const uint8_t *p, size_t pos, size_t len)
{
    for (; pos < len; pos++)
        if (p[pos] != 0)
            return false;
    return true;
}

typedef struct scan_state {
    fatbin_container_cb on_container;
    fatbin_error_cb on_error;
    void *user;
    long count;
    bool stop;
    bool failed;
} scan_state;

/* Walks the containers of one section.  Offsets in errors are made relative to the file. */
static void scan_section(scan_state *st, const fatbin_file_section *sec, const uint8_t *data,
                         size_t size, fatbin_error *err)
{
    size_t pos = 0;
    while (pos < size && !only_zeros(data, pos, size)) {
        fatbin_container c;
        if (fatbin_container_open(&c, data + pos, size - pos, err) != FATBIN_OK) {
            err->offset += sec->file_offset + pos;
            st->failed = true;
            if (!st->on_error || st->on_error(sec, err, st->user) != 0)
                st->stop = true;
            return;
        }
        st->count++;
        if (st->on_container && st->on_container(sec, &c, st->user) != 0) {
            st->stop = true;
            return;
        }
        /* c.size <= size - pos, so the rounding cannot pass SIZE_MAX by more than 7. */
        size_t next = pos + c.size;
        size_t pad = (CONTAINER_ALIGN - next % CONTAINER_ALIGN) % CONTAINER_ALIGN;
        pos = pad <= size - next ? next + pad : size;
    }
}

static long scan_finish(const scan_state *st)
{
    if (st->failed && st->stop)
        return FATBIN_BAD;
    return st->count;
}

long fatbin_file_scan(const uint8_t *file, size_t size, fatbin_container_cb on_container,
                      fatbin_error_cb on_error, void *user, fatbin_error *err)
{
    fatbin_error local;
    if (!err)
        err = &local;
    scan_state st = { on_container, on_error, user, 0, false, false };
    if (size >= 4 && fb_le(file, 4) == FATBIN_CONTAINER_MAGIC) {
        fatbin_file_section raw = { "(raw)", 0 };
        scan_section(&st, &raw, file, size, err);
        return scan_finish(&st);
    }
    fb_elf elf;
    if (fatbin_elf_open(&elf, file, size, err) != FATBIN_OK)
        return FATBIN_BAD;
    for (size_t i = 1; i < elf.shnum && !st.stop; i++) {
        fb_shdr sh;
        if (fatbin_elf_section(&elf, i, &sh, err) != FATBIN_OK)
            return FATBIN_BAD;
        /* SHT_NOBITS and SHT_NULL sections hold no bytes (fatbin_elf_section checked no range
         * for them): neither has_data nor outside is set. */
        if (!is_fatbin_section(sh.name_str) || (!sh.has_data && !sh.outside))
            continue;
        if (sh.outside)
            return fatbin_elf_outside(&elf, i, &sh, err);
        fatbin_file_section sec = { sh.name_str, (size_t)sh.offset };
        scan_section(&st, &sec, file + sh.offset, (size_t)sh.size, err);
    }
    return scan_finish(&st);
}

/* ---- wrappers ------------------------------------------------------------------------------- */

/* Finds the allocated section whose address range holds vaddr and whose bytes are in the file. */
static int resolve_vaddr(const fb_elf *elf, uint64_t vaddr, fatbin_file_wrapper *w,
                         fatbin_error *err)
{
    for (size_t i = 1; i < elf->shnum; i++) {
        fb_shdr sh;
        if (fatbin_elf_section(elf, i, &sh, err) != FATBIN_OK)
            return FATBIN_BAD;
        if (!(sh.flags & ELF_SHF_ALLOC) || !sh.has_data || vaddr < sh.addr ||
            vaddr - sh.addr >= sh.size)
            continue;
        w->data_section = sh.name_str;
        w->data_file_offset = (size_t)(sh.offset + (vaddr - sh.addr));
        return FATBIN_OK;
    }
    return FATBIN_OK;
}

static int read_file_wrapper(const fb_elf *elf, const uint8_t *p, size_t at, size_t index,
                             fatbin_file_wrapper *w, fatbin_error *err)
{
    memset(w, 0, sizeof *w);
    w->index = index;
    w->file_offset = at;
    w->magic = (uint32_t)fb_at(p, 0, 4);
    w->version = (uint32_t)fb_at(p, 4, 4);
    w->data_vaddr = fb_at(p, 8, 8);
    w->prelinked_vaddr = fb_at(p, 16, 8);
    if (w->magic != FATBIN_WRAPPER_MAGIC)
        return fatbin_fail(err, at, "wrapper %zu: bad magic 0x%08x", index, w->magic);
    bool linked = elf->type == 2 || elf->type == 3;      /* ET_EXEC, ET_DYN */
    if (linked && w->data_vaddr != 0)
        return resolve_vaddr(elf, w->data_vaddr, w, err);
    return FATBIN_OK;
}

long fatbin_file_wrappers(const uint8_t *file, size_t size, fatbin_wrapper_cb on_wrapper,
                          void *user, fatbin_error *err)
{
    fb_elf elf;
    if (fatbin_elf_open(&elf, file, size, err) != FATBIN_OK)
        return FATBIN_BAD;
    long count = 0;
    for (size_t i = 1; i < elf.shnum; i++) {
        fb_shdr sh;
        if (fatbin_elf_section(&elf, i, &sh, err) != FATBIN_OK)
            return FATBIN_BAD;
        if (strcmp(sh.name_str, ".nvFatBinSegment") != 0 || (!sh.has_data && !sh.outside))
            continue;           /* not it, or no bytes (SHT_NOBITS, SHT_NULL) */
        if (sh.outside)
            return fatbin_elf_outside(&elf, i, &sh, err);
        if (sh.size % FATBIN_WRAPPER_SIZE != 0)
            return fatbin_fail(err, (size_t)sh.offset,
                               ".nvFatBinSegment size %llu is not a multiple of %u",
                               (unsigned long long)sh.size, FATBIN_WRAPPER_SIZE);
        for (size_t off = 0; off < sh.size; off += FATBIN_WRAPPER_SIZE) {
            fatbin_file_wrapper w;
            size_t at = (size_t)sh.offset + off;
            if (read_file_wrapper(&elf, file + at, at, (size_t)count, &w, err) != FATBIN_OK)
                return FATBIN_BAD;
            count++;
            if (on_wrapper && on_wrapper(&w, user) != 0)
                return count;
        }
    }
    return count;
}
