/*
 * elf.c - the small ELF64 little-endian reader shared by elffile.c (host files) and cubin.c.
 *
 * ELF64 header fields used (offsets in bytes):
 *   0x00 e_ident[16]   7f 'E' 'L' 'F', class (2 = 64-bit), data (1 = LE), version, OSABI, ABIVERSION
 *   0x10 u16 e_type    0x12 u16 e_machine   0x30 u32 e_flags
 *   0x28 u64 e_shoff   0x3a u16 e_shentsize 0x3c u16 e_shnum   0x3e u16 e_shstrndx
 * Section header (64 bytes): u32 name, u32 type, u64 flags, u64 addr, u64 offset, u64 size,
 *   u32 link, u32 info, u64 addralign, u64 entsize.
 * Extended numbering (e_shnum == 0 / e_shstrndx == SHN_XINDEX, real values in section 0) is
 * supported because host libraries with many sections can use it.
 */
#include <string.h>

#include "cursor.h"
#include "internal.h"

const char *fatbin_elf_string(const uint8_t *table, size_t size, uint64_t off)
{
    if (off >= size)
        return NULL;
    if (!memchr(table + off, 0, size - (size_t)off))
        return NULL;
    return (const char *)table + off;
}

/* Reads the raw fields of section header `index`; the table is known to be in bounds. */
static void read_shdr(const fb_elf *elf, size_t index, fb_shdr *sh)
{
    const uint8_t *p = elf->base + elf->shoff + index * elf->shentsize;
    sh->name = (uint32_t)fb_at(p, 0x00, 4);
    sh->type = (uint32_t)fb_at(p, 0x04, 4);
    sh->flags = fb_at(p, 0x08, 8);
    sh->addr = fb_at(p, 0x10, 8);
    sh->offset = fb_at(p, 0x18, 8);
    sh->size = fb_at(p, 0x20, 8);
    sh->link = (uint32_t)fb_at(p, 0x28, 4);
    sh->info = (uint32_t)fb_at(p, 0x2c, 4);
    sh->entsize = fb_at(p, 0x38, 8);
    sh->name_str = "";
    sh->has_data = false;
    sh->outside = false;
}

static int check_ident(const uint8_t *base, size_t size, fatbin_error *err)
{
    if (size < ELF_HEADER_SIZE || memcmp(base, "\x7f" "ELF", 4) != 0)
        return fatbin_fail(err, 0, "not an ELF file");
    if (base[4] != ELF_CLASS64)
        return fatbin_fail(err, 4, "not a 64-bit ELF file (class %u)", base[4]);
    if (base[5] != ELF_DATA2LSB)
        return fatbin_fail(err, 5, "not a little-endian ELF file (data %u)", base[5]);
    return FATBIN_OK;
}

/* Takes e_shnum / e_shstrndx from section 0 when they overflowed the 16-bit fields. */
static void apply_extended_numbering(fb_elf *elf)
{
    if (elf->shnum != 0 && elf->shstrndx != ELF_SHN_XINDEX)
        return;
    fb_shdr zero;
    read_shdr(elf, 0, &zero);
    if (elf->shnum == 0)
        elf->shnum = (size_t)zero.size;
    if (elf->shstrndx == ELF_SHN_XINDEX)
        elf->shstrndx = zero.link;
}

int fatbin_elf_open(fb_elf *elf, const uint8_t *base, size_t size, fatbin_error *err)
{
    if (check_ident(base, size, err) != FATBIN_OK)
        return FATBIN_BAD;
    memset(elf, 0, sizeof *elf);
    elf->base = base;
    elf->size = size;
    elf->abi_version = base[ELF_EI_ABIVERSION];
    elf->type = (uint16_t)fb_at(base, 0x10, 2);
    elf->machine = (uint16_t)fb_at(base, 0x12, 2);
    elf->flags = (uint32_t)fb_at(base, 0x30, 4);
    uint64_t shoff = fb_at(base, 0x28, 8);
    elf->shentsize = (size_t)fb_at(base, 0x3a, 2);
    elf->shnum = (size_t)fb_at(base, 0x3c, 2);
    elf->shstrndx = (size_t)fb_at(base, 0x3e, 2);
    if (shoff == 0) {
        elf->shnum = 0;         /* no section table: nothing to find */
        return FATBIN_OK;
    }
    if (elf->shentsize < ELF_SHDR_SIZE)
        return fatbin_fail(err, 0x3a, "section header size %zu < %u", elf->shentsize,
                           ELF_SHDR_SIZE);
    if (shoff > size || size - shoff < elf->shentsize)
        return fatbin_fail(err, 0x28, "section table offset 0x%llx outside the %zu-byte file",
                           (unsigned long long)shoff, size);
    elf->shoff = (size_t)shoff;
    apply_extended_numbering(elf);
    if (elf->shnum > (size - elf->shoff) / elf->shentsize)
        return fatbin_fail(err, 0x3c, "%zu section headers of %zu bytes at 0x%zx exceed the file",
                           elf->shnum, elf->shentsize, elf->shoff);
    if (elf->shnum == 0)
        return FATBIN_OK;
    if (elf->shstrndx >= elf->shnum)
        return fatbin_fail(err, 0x3e, "section name table index %zu >= %zu sections",
                           elf->shstrndx, elf->shnum);
    fb_shdr names;
    read_shdr(elf, elf->shstrndx, &names);
    if (names.type == ELF_SHT_NOBITS || names.offset > size || names.size > size - names.offset)
        return fatbin_fail(err, elf->shoff + elf->shstrndx * elf->shentsize,
                           "section name table outside the file");
    elf->shstr_off = (size_t)names.offset;
    elf->shstr_size = (size_t)names.size;
    return FATBIN_OK;
}

int fatbin_elf_section(const fb_elf *elf, size_t index, fb_shdr *sh, fatbin_error *err)
{
    if (index >= elf->shnum)
        return fatbin_fail(err, 0x3c, "section index %zu >= %zu sections", index, elf->shnum);
    size_t at = elf->shoff + index * elf->shentsize;
    read_shdr(elf, index, sh);
    const char *name = fatbin_elf_string(elf->base + elf->shstr_off, elf->shstr_size, sh->name);
    if (!name)
        return fatbin_fail(err, at, "section %zu: name offset 0x%x not a string in the name table",
                           index, sh->name);
    sh->name_str = name;
    if (sh->type == ELF_SHT_NOBITS || sh->type == 0)
        return FATBIN_OK;
    /* Some CUDA section types hold no bytes in the file although they are not SHT_NOBITS
     * (.nv_debug.shared, type 0x7000000a, in NCCL's cubins): out-of-range contents are only an
     * error for the sections a caller reads, which checks `outside`. */
    sh->outside = sh->offset > elf->size || sh->size > elf->size - sh->offset;
    sh->has_data = !sh->outside;
    return FATBIN_OK;
}

int fatbin_elf_outside(const fb_elf *elf, size_t index, const fb_shdr *sh, fatbin_error *err)
{
    return fatbin_fail(err, elf->shoff + index * elf->shentsize + 0x18,
                       "section %zu (%s): contents [0x%llx, +0x%llx) outside the %zu-byte file",
                       index, sh->name_str, (unsigned long long)sh->offset,
                       (unsigned long long)sh->size, elf->size);
}
