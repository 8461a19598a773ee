/*
 * fatbin.h - reading nvcc's fatbins and the cubins inside them.
 *
 * A leaf library: libc plus libzstd, liblz4 and zlib for decompression.  It knows the container
 * and cubin formats and nothing of CUDA's runtime or driver.  Everything is parsed through a
 * bounds-checked cursor into *views* that point into the caller's bytes; nothing is allocated
 * except by the decompressor, which writes into a buffer the caller provides.
 *
 * Formats, as measured on CUDA 13.0 (all fields little-endian, offsets in bytes):
 *
 * Wrapper (__fatBinC_Wrapper_t, section .nvFatBinSegment), 24 bytes
 *   off  size  field                 meaning
 *   0x00 4     magic                 0x466243B1 (FATBIN_WRAPPER_MAGIC)
 *   0x04 4     version               1 = ordinary object, 2 = nvlink output (-rdc)
 *   0x08 8     data                  -> container header
 *   0x10 8     filename_or_fatbins   v1: NULL; v2: NULL-terminated array of prelinked containers
 *
 * Container header, 16 bytes; entries follow until 16 + fat_size
 *   0x00 4     magic                 0xBA55ED50 (FATBIN_CONTAINER_MAGIC)
 *   0x04 2     version               1
 *   0x06 2     header_size           0x10
 *   0x08 8     fat_size              bytes of entries after the header (0 occurs)
 *
 * Entry header, header_size bytes (0x40..0x80 occur), payload follows at entry + header_size
 *   0x00 2     kind                  1 PTX, 2 ELF cubin, 8 LTO IR; others skipped by size
 *   0x02 2     version               0x0101
 *   0x04 4     header_size
 *   0x08 8     payload_size          stored bytes (padded to 8)
 *   0x10 4     compressed_size       exact compressed length, 0 if not compressed
 *   0x14 4     ext_desc_offset       0, or offset of {u32 off, u32 len} of the option string
 *   0x18 2     minor                 PTX: ISA minor; ELF: cubin ELF ABI version (7 or 8)
 *   0x1a 2     major                 PTX: ISA major; ELF: 1
 *   0x1c 4     arch                  SM number (75, 80, 90, 100, ...)
 *   0x20 4     ident_offset          offset of an identifier string (0 if none)
 *   0x24 4     ident_size            its length without NUL
 *   0x28 8     flags                 FATBIN_FLAG_* below
 *   0x30 8     reserved
 *   0x38 8     uncompressed_size     decompressed length, 0 if not compressed
 *
 * The cubin side (ELF64, EM_CUDA = 190, .nv.info EIATTR records) is described in cubin.c.
 */
#ifndef MINICUDART_FATBIN_H
#define MINICUDART_FATBIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FATBIN_WRAPPER_MAGIC   0x466243B1u
#define FATBIN_WRAPPER_SIZE    24u
#define FATBIN_CONTAINER_MAGIC 0xBA55ED50u
#define FATBIN_CONTAINER_HEADER_SIZE 16u
#define FATBIN_ENTRY_MIN_HEADER 0x40u

enum fatbin_kind {
    FATBIN_KIND_PTX = 1,
    FATBIN_KIND_ELF = 2,
    FATBIN_KIND_LTOIR = 8,
};

/* Entry flags (offset 0x28). */
#define FATBIN_FLAG_64BIT        0x1ull
#define FATBIN_FLAG_DEBUG        0x2ull
#define FATBIN_FLAG_LINUX        0x10ull
#define FATBIN_FLAG_ZLIB         0x1000ull
#define FATBIN_FLAG_LZ4_BLOCK    0x2000ull
#define FATBIN_FLAG_LZ4_FRAME    0x4000ull
#define FATBIN_FLAG_ZSTD         0x8000ull
#define FATBIN_FLAG_COMPRESSION_MASK 0xF000ull
#define FATBIN_FLAG_LTOIR        0x10000ull
#define FATBIN_FLAG_ARCH_SPECIFIC 0x100000ull  /* sm_90a: exactly that SM */
#define FATBIN_FLAG_FAMILY       0x200000ull   /* sm_100f: that family */
#define FATBIN_FLAG_COMPAT_TAIL  0x1000000ull

/* Every failure says what and where.  `offset` is relative to the start of the buffer that was
 * being parsed (the container, the cubin or the file). */
typedef struct fatbin_error {
    size_t offset;
    char message[200];
} fatbin_error;

/* Return codes: 0 = ok, -1 = malformed input (err filled), 1 = "end" for iterators. */
#define FATBIN_OK    0
#define FATBIN_END   1
#define FATBIN_BAD  (-1)

/* ---- wrapper -------------------------------------------------------------------------------- */

typedef struct fatbin_wrapper {
    uint32_t version;              /* 1 or 2 */
    const void *data;              /* container header */
    const void *const *prelinked;  /* v2 only: NULL-terminated array of container headers, or NULL */
} fatbin_wrapper;

/* Reads a wrapper that lives in this process's memory (the pointer nvcc passes to
 * __cudaRegisterFatBinary).  Checks magic, version and that data is non-NULL. */
int fatbin_wrapper_read(const void *wrapper, fatbin_wrapper *out, fatbin_error *err);

/* ---- container and entries ------------------------------------------------------------------ */

typedef struct fatbin_container {
    const uint8_t *base;    /* container header */
    size_t size;            /* 16 + fat_size: every entry lies inside [base, base + size) */
} fatbin_container;

/* Opens a container of at most `avail` bytes (pass SIZE_MAX for a container in process memory,
 * whose extent is then taken from its own header).  Checks magic and header size. */
int fatbin_container_open(fatbin_container *c, const void *data, size_t avail, fatbin_error *err);

typedef struct fatbin_entry {
    size_t offset;              /* of the entry header, from the container start */
    uint16_t kind;              /* enum fatbin_kind, or an unknown value */
    uint32_t header_size;
    uint64_t payload_size;
    uint32_t compressed_size;
    uint64_t uncompressed_size;
    uint64_t flags;
    uint32_t arch;              /* SM number */
    uint16_t major, minor;      /* PTX ISA version; for ELF: 1 and the ELF ABI version */
    const uint8_t *payload;     /* entry + header_size; payload_size bytes, all in bounds */
    const char *ident;          /* identifier string, not NUL-terminated; NULL if none */
    uint32_t ident_len;
    const char *options;        /* option string, not NUL-terminated; NULL if none */
    uint32_t options_len;
    /* Added: ELF entries with FATBIN_FLAG_COMPAT_TAIL point their descriptor at a copy of the
     * cubin's .nv.compat records instead of an option string; those bytes are here (options is
     * then NULL).  NULL if none. */
    const uint8_t *compat;
    uint32_t compat_len;
} fatbin_entry;

/* Iterates the entries.  Start with *pos = 0.  Returns FATBIN_OK with *e filled, FATBIN_END
 * after the last entry, or FATBIN_BAD (err says where).  Unknown kinds are returned too (the
 * caller skips them); they never stop the walk. */
int fatbin_next_entry(const fatbin_container *c, size_t *pos, fatbin_entry *e, fatbin_error *err);

/* Size of the image once decompressed: uncompressed_size when compressed, else payload_size. */
uint64_t fatbin_entry_image_size(const fatbin_entry *e);

/* "zstd", "lz4", "lz4-frame", "zlib", "none", or "unknown" for an unsupported combination. */
const char *fatbin_compression_name(uint64_t flags);

/* "sm_90", "sm_90a", "sm_100f", "compute_90" (PTX), ... into buf; returns buf. */
const char *fatbin_arch_name(const fatbin_entry *e, char *buf, size_t cap);

/* "ptx", "elf", "ltoir" or "kind-0x..". */
const char *fatbin_kind_name(uint16_t kind, char *buf, size_t cap);

/* Decompresses (or copies, when not compressed) the entry's image into out[0..cap).  Checks the
 * produced length against the header.  For PTX the produced image keeps its own NUL; the caller
 * can always rely on out[*produced] being writable only if cap > *produced.
 * Returns FATBIN_OK or FATBIN_BAD. */
int fatbin_entry_extract(const fatbin_entry *e, void *out, size_t cap, size_t *produced,
                         fatbin_error *err);

/* ---- ELF files on disk ---------------------------------------------------------------------- */

/* What a file holds: each container found in .nv_fatbin or __nv_relfatbin (several may be
 * concatenated in one section, each padded to 8), and each wrapper in .nvFatBinSegment. */
typedef struct fatbin_file_section {
    const char *name;           /* ".nv_fatbin", "__nv_relfatbin" */
    size_t file_offset;
} fatbin_file_section;

/* Calls `on_container` for every container in every fatbin section of the ELF file in
 * file[0..size).  Stops at the first malformed container of a section, reports it through the
 * return value and err, and goes on with the next section only if the callback asked to
 * (return 0 to go on, non-zero to stop).  Returns the number of containers, or FATBIN_BAD if
 * the file is not an ELF file (a file with no fatbin section yields 0). */
typedef int (*fatbin_container_cb)(const fatbin_file_section *sec, const fatbin_container *c,
                                   void *user);
typedef int (*fatbin_error_cb)(const fatbin_file_section *sec, const fatbin_error *err,
                               void *user);
long fatbin_file_scan(const uint8_t *file, size_t size, fatbin_container_cb on_container,
                      fatbin_error_cb on_error, void *user, fatbin_error *err);
/* (Also accepted by fatbin_file_scan: a raw fatbin file, i.e. one that starts with the container
 * magic, such as `nvcc -fatbin` output; it is walked as one section named "(raw)".) */

/* Added: one wrapper of a file's .nvFatBinSegment section, as stored on disk. */
typedef struct fatbin_file_wrapper {
    size_t index;               /* wrapper number in the section */
    size_t file_offset;         /* of the wrapper */
    uint32_t magic, version;
    uint64_t data_vaddr;        /* 0 in relocatable objects (filled by a relocation) */
    uint64_t prelinked_vaddr;   /* filename_or_fatbins */
    const char *data_section;   /* section holding data_vaddr (executables, .so), else NULL */
    size_t data_file_offset;    /* file offset of the container when data_section != NULL */
} fatbin_file_wrapper;

typedef int (*fatbin_wrapper_cb)(const fatbin_file_wrapper *w, void *user);

/* Added: calls `on_wrapper` for each 24-byte wrapper in .nvFatBinSegment.  In executables and
 * shared libraries (ET_EXEC/ET_DYN) the data address is resolved to a section through the
 * section addresses.  Returns the number of wrappers (0 without the section), or FATBIN_BAD if
 * the file is not ELF or the section is malformed. */
long fatbin_file_wrappers(const uint8_t *file, size_t size, fatbin_wrapper_cb on_wrapper,
                          void *user, fatbin_error *err);

/* ---- dynamic linking (for `fatbin check`) --------------------------------------------------- */

/* Added: the string entries of .dynamic that tell which libraries a file needs. */
#define FATBIN_DT_NEEDED 1u
#define FATBIN_DT_SONAME 14u

typedef int (*fatbin_dynamic_cb)(uint64_t tag, const char *value, void *user);

/* Added: calls `on_entry` for each DT_NEEDED and DT_SONAME entry of the SHT_DYNAMIC section, in
 * order up to DT_NULL, with its string from the section's string table.  Returns the number of
 * entries (0 for a file without .dynamic: static executables, objects), or FATBIN_BAD if the
 * file is not ELF or a string lies outside its table.  A non-zero callback result stops. */
long fatbin_file_dynamic(const uint8_t *file, size_t size, fatbin_dynamic_cb on_entry, void *user,
                         fatbin_error *err);

/* Added: one named symbol of .symtab or .dynsym. */
typedef struct fatbin_file_symbol {
    const char *name;           /* NUL-terminated inside the file */
    const char *version;        /* .dynsym imports: the version needed (.gnu.version_r), e.g.
                                 * "libcudart.so.13"; NULL if unversioned or defined */
    const char *version_file;   /* the library that version is needed from; NULL likewise */
    bool dynamic;               /* from .dynsym, else from .symtab */
    bool defined;               /* st_shndx != SHN_UNDEF */
    uint8_t bind;               /* STB_LOCAL 0, STB_GLOBAL 1, STB_WEAK 2 */
    uint8_t type;               /* STT_NOTYPE 0, STT_OBJECT 1, STT_FUNC 2, ... */
} fatbin_file_symbol;

typedef int (*fatbin_symbol_cb)(const fatbin_file_symbol *s, void *user);

/* Added: calls `on_symbol` for every named symbol of every SHT_SYMTAB and SHT_DYNSYM section
 * (a stripped file has only .dynsym).  Returns the number of symbols, or FATBIN_BAD if the file
 * is not ELF or a table, a name or a version record is malformed.  Non-zero from the callback
 * stops the walk. */
long fatbin_file_symbols(const uint8_t *file, size_t size, fatbin_symbol_cb on_symbol, void *user,
                         fatbin_error *err);

/* ---- cubins --------------------------------------------------------------------------------- */

typedef struct cubin {
    const uint8_t *image;
    size_t size;
    uint32_t sm;               /* from e_flags, layout chosen by EI_ABIVERSION */
    uint8_t abi_version;       /* e_ident[EI_ABIVERSION]: 8 (CUDA 13) or 7 */
    uint16_t elf_type;         /* ET_EXEC (2) or ET_REL (1) */
    /* private: located sections */
    size_t shoff, shnum, shentsize, shstr_off, shstr_size;
    size_t symtab_index, strtab_off, strtab_size;
} cubin;

typedef struct cubin_param {
    uint32_t ordinal;
    uint32_t offset;           /* in the parameter buffer */
    uint32_t size;
} cubin_param;

typedef struct cubin_kernel {
    const char *name;          /* NUL-terminated, inside the image */
    uint32_t symbol_index;
    uint32_t param_count;      /* number of KPARAM_INFO(_V2) records */
    uint32_t param_size;       /* EIATTR_CBANK_PARAM_SIZE, 0 when no parameters */
    uint32_t max_threads[3];   /* EIATTR_MAX_THREADS, 0 when absent */
    uint32_t registers;        /* EIATTR_REGCOUNT from the module .nv.info */
    uint32_t frame_size;       /* EIATTR_FRAME_SIZE */
    uint32_t min_stack_size;   /* EIATTR_MIN_STACK_SIZE */
    uint32_t max_stack_size;   /* EIATTR_MAX_STACK_SIZE */
    uint64_t shared_size;      /* size of .nv.shared.<name>, 0 when absent */
    const uint8_t *info;       /* the .nv.info.<name> section, for cubin_kernel_params */
    size_t info_size;
} cubin_kernel;

/* Opens a cubin image: ELF64 little-endian, EM_CUDA, section table in bounds. */
int cubin_open(cubin *c, const void *image, size_t size, fatbin_error *err);

/* Iterates the kernels (symbols with a .nv.info.<name> section); `$__internal_` pseudo-kernels
 * are skipped.  Start with *iter = 0.  FATBIN_OK / FATBIN_END / FATBIN_BAD. */
int cubin_next_kernel(const cubin *c, size_t *iter, cubin_kernel *k, fatbin_error *err);

/* Finds one kernel by its (mangled) name.  FATBIN_OK, FATBIN_END when absent, or FATBIN_BAD. */
int cubin_find_kernel(const cubin *c, const char *name, cubin_kernel *k, fatbin_error *err);

/* Every kernel of a cubin, found in one pass over its section and symbol tables and sorted by
 * name, so that a module's kernels are each found by a binary search rather than a walk of the
 * tables (cubin_find_kernel).  The names and records point into the image, which must outlive
 * the table. */
typedef struct cubin_kernel_ref {
    const char *name;          /* inside the image */
    uint32_t symbol_index;
    size_t section;            /* of `.nv.info.<name>` */
    const uint8_t *info;       /* its contents; NULL when outside the image */
    size_t info_size;
    bool outside;              /* the section claims contents outside the image */
} cubin_kernel_ref;
typedef struct cubin_kernels {
    cubin_kernel_ref *items;
    size_t count;
} cubin_kernels;

/* Reads the table of c (opened by cubin_open): FATBIN_OK, or FATBIN_BAD (a malformed table,
 * out of memory; *out then empty). */
int cubin_kernels_read(cubin_kernels *out, const cubin *c, fatbin_error *err);
/* Kernel `name` from the table: FATBIN_OK with k's name, symbol_index, param_count, param_size,
 * max_threads and info set as cubin_find_kernel sets them (its module-wide records, registers,
 * frame and stack sizes and shared_size, are left 0); FATBIN_END when the cubin has no such
 * kernel; FATBIN_BAD when its records are malformed or outside the image. */
int cubin_kernels_find(const cubin_kernels *t, const cubin *c, const char *name,
                       cubin_kernel *k, fatbin_error *err);
void cubin_kernels_free(cubin_kernels *t);

/* Fills out[0..k->param_count) sorted by ordinal, from KPARAM_INFO (0x17) or KPARAM_INFO_V2
 * (0x45).  cap must be >= k->param_count.  Checks that ordinals are 0..n-1 exactly once and that
 * each parameter lies inside param_size. */
int cubin_kernel_params(const cubin_kernel *k, cubin_param *out, size_t cap, fatbin_error *err);

/* ---- PTX ------------------------------------------------------------------------------------ */

/* The number of parameters of entry `name` (a `.entry`, never a `.func`) in PTX text
 * ptx[0..size) (a NUL before size ends the text; none is needed): the `.param` tokens of its
 * parameter list, 0 without one.  FATBIN_OK with *count set; FATBIN_END when the text has no
 * such entry; FATBIN_BAD when its parameter list is not closed.  err says why in both. */
int ptx_entry_param_count(const char *ptx, size_t size, const char *name, uint32_t *count,
                          fatbin_error *err);

/* Every entry of a PTX text with its parameter count, read in one pass and sorted by name, so
 * that a module's kernels are counted without a scan of the text each.  The names point into
 * the text, which must outlive the table. */
typedef struct ptx_entry {
    const char *name;          /* in the text; not NUL-terminated */
    size_t name_len;
    uint32_t param_count;
} ptx_entry;
typedef struct ptx_entries {
    ptx_entry *entry;          /* malloc'd, `count` of them; NULL when none */
    size_t count;
} ptx_entries;

/* Reads ptx[0..size) (a NUL ends it, as for ptx_entry_param_count) into *out: FATBIN_OK, or
 * FATBIN_BAD (NULL argument, out of memory; *out then empty).  An entry cut by the end of the
 * text (its parameter list not closed, or nothing after its name) is left out, and nothing
 * after an unclosed list is read. */
int ptx_entries_read(ptx_entries *out, const char *ptx, size_t size, fatbin_error *err);
/* Entry `name`'s count: FATBIN_OK with *count set, FATBIN_END when the table has no such entry,
 * FATBIN_BAD on a NULL argument.  The same answers as ptx_entry_param_count on the same text,
 * for every entry whose list is closed. */
int ptx_entries_find(const ptx_entries *e, const char *name, uint32_t *count);
void ptx_entries_free(ptx_entries *e);

/* ---- choosing the image for a device -------------------------------------------------------- */

typedef struct fatbin_choice {
    bool found;
    fatbin_entry entry;        /* valid when found */
    unsigned entry_index;      /* added: position of `entry` in the container, when found */
    bool is_ptx;               /* added: the choice must be JIT-compiled */
    char reason[256];          /* why this entry, or why none, in words */
} fatbin_choice;

/* Chooses the entry a runtime loads on a device of SM `sm` (e.g. 90): the best compatible SASS
 * (same major, minor <= the device's; 'a' only on exactly that SM; 'f' within the family), else
 * the highest compatible PTX to JIT, else none.  With `force_ptx`, SASS is not considered.
 * Returns FATBIN_OK (whether or not one was found) or FATBIN_BAD when the container is malformed. */
int fatbin_choose(const fatbin_container *c, unsigned sm, bool force_ptx, fatbin_choice *out,
                  fatbin_error *err);

#endif
