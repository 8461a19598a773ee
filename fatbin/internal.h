/*
 * internal.h - helpers shared by the files of fatbin/, hidden from the shared library's exports.
 *
 * The ELF64 reader here serves both the host files on disk (elffile.c) and cubins (cubin.c):
 * it validates the header and the section table once, then hands out section headers whose
 * contents are known to lie inside the buffer.
 */
#ifndef MINICUDART_FATBIN_INTERNAL_H
#define MINICUDART_FATBIN_INTERNAL_H

#include "fatbin.h"

#define FATBIN_HIDDEN __attribute__((visibility("hidden")))

/* Fills err (offset + printf-style message) and returns FATBIN_BAD. */
FATBIN_HIDDEN int fatbin_fail(fatbin_error *err, size_t offset, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ELF constants used here (from the ELF specification; no system header needed). */
#define ELF_HEADER_SIZE   64u
#define ELF_SHDR_SIZE     64u
#define ELF_SYM_SIZE      24u
#define ELF_CLASS64       2u
#define ELF_DATA2LSB      1u
#define ELF_EI_ABIVERSION 8u
#define ELF_SHT_SYMTAB    2u
#define ELF_SHT_NOBITS    8u
#define ELF_SHF_ALLOC     0x2u
#define ELF_EM_CUDA       190u
#define ELF_SHN_XINDEX    0xffffu

typedef struct fb_elf {
    const uint8_t *base;
    size_t size;
    uint16_t type, machine;
    uint32_t flags;
    uint8_t abi_version;
    size_t shoff, shnum, shentsize, shstrndx;
    size_t shstr_off, shstr_size;     /* the section-name string table */
} fb_elf;

typedef struct fb_shdr {
    uint32_t name, type;
    uint64_t flags, addr, offset, size;
    uint32_t link, info;
    uint64_t entsize;
    const char *name_str;             /* NUL-terminated inside the image, "" if unnamed */
    bool has_data;                    /* contents lie in the buffer (not NOBITS) */
    bool outside;                     /* contents claimed but not inside the buffer */
} fb_shdr;

/* Checks the ELF64 little-endian header and that the section table and the section-name
 * string table lie inside the buffer.  Does not check e_machine. */
FATBIN_HIDDEN int fatbin_elf_open(fb_elf *elf, const uint8_t *base, size_t size, fatbin_error *err);

/* Reads section header `index`; fails if its name is not a NUL-terminated string inside the
 * name table.  Contents outside the buffer set `outside` (callers that read them fail). */
FATBIN_HIDDEN int fatbin_elf_section(const fb_elf *elf, size_t index, fb_shdr *sh,
                                     fatbin_error *err);

/* Fails with "section N (name): contents outside the file" for a section a caller must read. */
FATBIN_HIDDEN int fatbin_elf_outside(const fb_elf *elf, size_t index, const fb_shdr *sh,
                                     fatbin_error *err);

/* Returns the NUL-terminated string at `off` in table[0..size), or NULL if it does not end
 * inside the table. */
FATBIN_HIDDEN const char *fatbin_elf_string(const uint8_t *table, size_t size, uint64_t off);

#endif
