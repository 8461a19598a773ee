/*
 * elfsym.c - the dynamic-linking side of a host ELF file, for `fatbin check`: the string entries
 * of .dynamic (DT_NEEDED, DT_SONAME) and the symbols of .symtab and .dynsym, with the version
 * an import needs (.gnu.version + .gnu.version_r), e.g. __cudaRegisterFatBinary needed as
 * version libcudart.so.13 from file libcudart.so.13 (PROTOCOL.md 9.1, 10.1).
 *
 * Layouts (ELF64 little-endian, offsets in bytes):
 *   Elf64_Dyn     16: 0x00 i64 d_tag, 0x08 u64 d_val (string tags: offset in the sh_link table)
 *   Elf64_Sym     24: 0x00 u32 name, 0x04 u8 info (bind << 4 | type), 0x05 u8 other,
 *                     0x06 u16 shndx (0 = undefined), 0x08 u64 value, 0x10 u64 size
 *   .gnu.version      one u16 per .dynsym symbol: bit 15 hidden, low 15 bits the version index
 *   Elf64_Verneed 16: 0x00 u16 version, 0x02 u16 cnt, 0x04 u32 file, 0x08 u32 aux, 0x0c u32 next
 *   Elf64_Vernaux 16: 0x00 u32 hash, 0x04 u16 flags, 0x06 u16 other (the index), 0x08 u32 name,
 *                     0x0c u32 next   (aux and next are relative to the record they are in)
 * Every record is read through the cursor; every string must end inside its table.
 */
#include <string.h>

#include "cursor.h"
#include "internal.h"

#define SHT_DYNAMIC      6u
#define SHT_DYNSYM       11u
#define SHT_GNU_VERNEED  0x6ffffffeu
#define SHT_GNU_VERSYM   0x6fffffffu
#define DYN_SIZE         16u
#define VERNEED_SIZE     16u
#define MAX_VERNEED_VISITS 65536u   /* far above any real file; bounds work on damaged ones */

/* A section whose contents, and those of its sh_link string table, lie in the file. */
typedef struct linked {
    size_t index;
    fb_shdr sh;
    const uint8_t *data;
    const uint8_t *str;
    size_t str_size;
} linked;

static size_t shdr_at(const fb_elf *elf, size_t index, size_t field)
{
    return elf->shoff + index * elf->shentsize + field;
}

static int open_linked(const fb_elf *elf, size_t index, const fb_shdr *sh, linked *out,
                       fatbin_error *err)
{
    if (sh->outside || !sh->has_data)
        return fatbin_elf_outside(elf, index, sh, err);
    fb_shdr str;
    if (sh->link == 0 || sh->link >= elf->shnum ||
        fatbin_elf_section(elf, sh->link, &str, err) != FATBIN_OK || !str.has_data)
        return fatbin_fail(err, shdr_at(elf, index, 0x28),
                           "section %zu (%s): string table %u is malformed", index,
                           sh->name_str, sh->link);
    out->index = index;
    out->sh = *sh;
    out->data = elf->base + sh->offset;
    out->str = elf->base + str.offset;
    out->str_size = (size_t)str.size;
    return FATBIN_OK;
}

/* ---- .dynamic ------------------------------------------------------------------------------- */

long fatbin_file_dynamic(const uint8_t *file, size_t size, fatbin_dynamic_cb on_entry, void *user,
                         fatbin_error *err)
{
    fb_elf elf;
    if (fatbin_elf_open(&elf, file, size, err) != FATBIN_OK)
        return FATBIN_BAD;
    long count = 0;
    for (size_t i = 1; i < elf.shnum; i++) {
        fb_shdr sh;
        /* Zeroed: open_linked sets it, but gcc -O3 without LTO cannot see that its error path
         * never answers FATBIN_OK, and warns. */
        linked dyn = {0};
        if (fatbin_elf_section(&elf, i, &sh, err) != FATBIN_OK)
            return FATBIN_BAD;
        if (sh.type != SHT_DYNAMIC)
            continue;
        if (open_linked(&elf, i, &sh, &dyn, err) != FATBIN_OK)
            return FATBIN_BAD;
        fb_cursor cur = fb_cursor_make(dyn.data, (size_t)sh.size, 0);
        uint64_t tag, val;
        while (fb_u64(&cur, &tag) && fb_u64(&cur, &val) && tag != 0) {
            if (tag != FATBIN_DT_NEEDED && tag != FATBIN_DT_SONAME)
                continue;
            const char *s = fatbin_elf_string(dyn.str, dyn.str_size, val);
            if (!s)
                return fatbin_fail(err, (size_t)sh.offset + cur.pos - 8,
                                   ".dynamic: string offset 0x%llx outside the %zu-byte table",
                                   (unsigned long long)val, dyn.str_size);
            count++;
            if (on_entry && on_entry(tag, s, user) != 0)
                return count;
        }
        return count;           /* one .dynamic per file */
    }
    return count;
}

/* ---- version needs -------------------------------------------------------------------------- */

typedef struct versions {
    const uint8_t *versym;      /* one u16 per .dynsym symbol, or NULL */
    linked need;                /* .gnu.version_r; need.data NULL if absent */
    size_t need_off;            /* its file offset, for errors */
} versions;

/* Finds the Vernaux record whose index is `index`: its version name and the file it is needed
 * from.  FATBIN_OK (found), FATBIN_END (no such record) or FATBIN_BAD. */
static int verneed_find(const versions *v, uint16_t index, const char **name, const char **file,
                        fatbin_error *err)
{
    const linked *n = &v->need;
    size_t size = (size_t)n->sh.size, pos = 0, visits = 0;
    for (uint32_t i = 0; i < n->sh.info; i++) {
        fb_cursor cur = fb_cursor_make(n->data, size, pos);
        uint16_t version, cnt;
        uint32_t vn_file, aux, next;
        if (!fb_u16(&cur, &version) || !fb_u16(&cur, &cnt) || !fb_u32(&cur, &vn_file) ||
            !fb_u32(&cur, &aux) || !fb_u32(&cur, &next) || aux > size - pos)
            return fatbin_fail(err, v->need_off + pos, ".gnu.version_r: record %u truncated", i);
        size_t apos = pos + aux;
        for (uint16_t j = 0; j < cnt; j++) {
            fb_cursor a = fb_cursor_make(n->data, size, apos);
            uint32_t hash, vna_name, anext;
            uint16_t flags, other;
            if (++visits > MAX_VERNEED_VISITS || !fb_u32(&a, &hash) || !fb_u16(&a, &flags) ||
                !fb_u16(&a, &other) || !fb_u32(&a, &vna_name) || !fb_u32(&a, &anext))
                return fatbin_fail(err, v->need_off + apos,
                                   ".gnu.version_r: auxiliary record %u of %u truncated", j, i);
            if ((other & 0x7fffu) == index) {
                *name = fatbin_elf_string(n->str, n->str_size, vna_name);
                *file = fatbin_elf_string(n->str, n->str_size, vn_file);
                if (!*name || !*file)
                    return fatbin_fail(err, v->need_off + apos,
                                       ".gnu.version_r: name outside the string table");
                return FATBIN_OK;
            }
            if (anext < VERNEED_SIZE || anext > size - apos)
                break;
            apos += anext;
        }
        if (next < VERNEED_SIZE || next > size - pos)
            break;
        pos += next;
    }
    return FATBIN_END;
}

/* Locates .gnu.version (for the .dynsym at dynsym_index) and .gnu.version_r. */
static int find_versions(const fb_elf *elf, size_t dynsym_index, size_t nsyms, versions *v,
                         fatbin_error *err)
{
    memset(v, 0, sizeof *v);
    for (size_t i = 1; i < elf->shnum; i++) {
        fb_shdr sh;
        if (fatbin_elf_section(elf, i, &sh, err) != FATBIN_OK)
            return FATBIN_BAD;
        if (sh.type == SHT_GNU_VERSYM && sh.link == dynsym_index) {
            if (sh.outside || !sh.has_data || sh.size / 2 < nsyms)
                return fatbin_fail(err, shdr_at(elf, i, 0x20),
                                   ".gnu.version: %llu bytes for %zu symbols",
                                   (unsigned long long)sh.size, nsyms);
            v->versym = elf->base + sh.offset;
        } else if (sh.type == SHT_GNU_VERNEED) {
            if (open_linked(elf, i, &sh, &v->need, err) != FATBIN_OK)
                return FATBIN_BAD;
            v->need_off = (size_t)sh.offset;
        }
    }
    return FATBIN_OK;
}

/* ---- symbols -------------------------------------------------------------------------------- */

static int walk_symbols(const fb_elf *elf, const linked *tab, bool dynamic,
                        fatbin_symbol_cb on_symbol, void *user, long *count, fatbin_error *err)
{
    const fb_shdr *sh = &tab->sh;
    if (sh->size % ELF_SYM_SIZE != 0)
        return fatbin_fail(err, shdr_at(elf, tab->index, 0x20),
                           "symbol table of %llu bytes is not a whole number of symbols",
                           (unsigned long long)sh->size);
    size_t nsyms = (size_t)sh->size / ELF_SYM_SIZE;
    versions v = { 0 };
    if (dynamic && find_versions(elf, tab->index, nsyms, &v, err) != FATBIN_OK)
        return FATBIN_BAD;
    for (size_t i = 1; i < nsyms; i++) {
        const uint8_t *p = tab->data + i * ELF_SYM_SIZE;
        fatbin_file_symbol s = { 0 };
        s.name = fatbin_elf_string(tab->str, tab->str_size, fb_at(p, 0, 4));
        if (!s.name)
            return fatbin_fail(err, (size_t)sh->offset + i * ELF_SYM_SIZE,
                               "%s symbol %zu: name outside the string table",
                               sh->name_str, i);
        if (!s.name[0])
            continue;
        s.bind = (uint8_t)(p[4] >> 4);
        s.type = (uint8_t)(p[4] & 0xf);
        s.defined = fb_at(p, 6, 2) != 0;
        s.dynamic = dynamic;
        if (v.versym && !s.defined && v.need.data) {
            uint16_t index = (uint16_t)(fb_at(v.versym + 2 * i, 0, 2) & 0x7fffu);
            if (index >= 2 && verneed_find(&v, index, &s.version, &s.version_file, err) ==
                FATBIN_BAD)
                return FATBIN_BAD;
        }
        (*count)++;
        if (on_symbol && on_symbol(&s, user) != 0)
            return FATBIN_END;
    }
    return FATBIN_OK;
}

long fatbin_file_symbols(const uint8_t *file, size_t size, fatbin_symbol_cb on_symbol, void *user,
                         fatbin_error *err)
{
    fb_elf elf;
    if (fatbin_elf_open(&elf, file, size, err) != FATBIN_OK)
        return FATBIN_BAD;
    long count = 0;
    for (size_t i = 1; i < elf.shnum; i++) {
        fb_shdr sh;
        linked tab;
        if (fatbin_elf_section(&elf, i, &sh, err) != FATBIN_OK)
            return FATBIN_BAD;
        if (sh.type != ELF_SHT_SYMTAB && sh.type != SHT_DYNSYM)
            continue;
        if (open_linked(&elf, i, &sh, &tab, err) != FATBIN_OK)
            return FATBIN_BAD;
        int rc = walk_symbols(&elf, &tab, sh.type == SHT_DYNSYM, on_symbol, user, &count, err);
        if (rc == FATBIN_BAD)
            return FATBIN_BAD;
        if (rc == FATBIN_END)
            break;
    }
    return count;
}
