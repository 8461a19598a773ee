/*
 * fatbin_tool.c - `fatbin`, an inspector for the fatbins nvcc embeds in host files, in the
 * spirit of cuobjdump and readelf.  See usage() for the commands.
 *
 * FILE may be an executable, a shared library, an object file (.nv_fatbin / __nv_relfatbin),
 * a raw `nvcc -fatbin` file, or (for `kernels`) a cubin.  Files are mapped read-only; listing
 * walks headers only, so it stays fast on libraries of hundreds of megabytes.  Any error makes
 * the exit status non-zero; malformed containers are reported on stderr with their position
 * and the walk goes on with the next container or section.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fatbin.h"

#define MAX_IMAGE_SIZE (1ull << 32)   /* refuse to allocate more than this for one image */
#define MAX_PARAMS 4096u

enum command { CMD_LIST, CMD_KERNELS, CMD_EXTRACT, CMD_CHOOSE, CMD_WRAPPERS, CMD_CHECK };

typedef struct options {
    enum command cmd;
    const char *files[64];
    int nfiles;
    long sm;                    /* -1 when not given */
    bool force_ptx;
    const char *outdir;
} options;

/* What one file's walk accumulates; shared by all commands. */
typedef struct walk {
    const options *opt;
    const char *path;
    const uint8_t *file;
    unsigned long containers, entries, compressed, errors;   /* over all files */
    unsigned long file_first;       /* value of `containers` when this file started */
    char archs[32][24];             /* check: distinct entry archs of this file, in order */
    unsigned narchs;
} walk;

/* Index of the container being walked, counted from 0 in each file. */
static unsigned long cindex(const walk *w)
{
    return w->containers - 1 - w->file_first;
}

static void usage(FILE *to)
{
    fprintf(to,
        "usage: fatbin COMMAND [OPTIONS] FILE...\n"
        "Inspects the CUDA fatbins inside executables, shared libraries, objects and .fatbin files.\n"
        "\n"
        "commands:\n"
        "  list FILE...              one line per entry: container, entry, kind, arch,\n"
        "                            compression, stored and uncompressed sizes, flags\n"
        "  kernels FILE [--sm N]     kernels of every cubin (or of the one chosen for sm_N):\n"
        "                            parameters, registers, stack, shared memory, max threads\n"
        "  extract FILE -o DIR       every entry, decompressed, as DIR/c<C>-e<E>.<arch>.<ext>\n"
        "  choose --sm N FILE [--ptx]  the entry a runtime would load on an sm_N device, and why\n"
        "  wrappers FILE             the wrappers in .nvFatBinSegment\n"
        "  check FILE...             whether minicudart can serve an executable or shared\n"
        "                            library, and why: it links the shared runtime of CUDA 12\n"
        "                            or 13 (libcudart.so.12 or .so.13: minicudart's of that\n"
        "                            major replaces it, through `minicudart run` or\n"
        "                            LD_LIBRARY_PATH), has a runtime linked in statically\n"
        "                            (NVIDIA's cudart_static or minicudart: rebuild), or uses no\n"
        "                            CUDA runtime; plus the fatbins it carries and their SMs.\n"
        "                            Exit status 0 whenever the file could be classified\n"
        "  --help                    this text\n"
        "\n"
        "Exit status is non-zero on any error (missing file, not ELF, no fatbin, malformed).\n");
}

static int parse_args(int argc, char **argv, options *opt)
{
    static const char *names[] = { "list", "kernels", "extract", "choose", "wrappers", "check" };
    memset(opt, 0, sizeof *opt);
    opt->sm = -1;
    int found = -1;
    for (int i = 0; i < 6; i++)
        if (argc > 1 && strcmp(argv[1], names[i]) == 0)
            found = i;
    if (found < 0) {
        fprintf(stderr, "fatbin: unknown command '%s' (try fatbin --help)\n",
                argc > 1 ? argv[1] : "");
        return -1;
    }
    opt->cmd = (enum command)found;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--sm") == 0 && i + 1 < argc) {
            char *end;
            opt->sm = strtol(argv[++i], &end, 10);
            if (*end || opt->sm <= 0 || opt->sm > 10000) {
                fprintf(stderr, "fatbin: bad SM number '%s' (e.g. --sm 90)\n", argv[i]);
                return -1;
            }
        } else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
            opt->outdir = argv[++i];
        } else if (strcmp(argv[i], "--ptx") == 0) {
            opt->force_ptx = true;
        } else if (argv[i][0] == '-' && argv[i][1] != 0) {
            fprintf(stderr, "fatbin: unknown or incomplete option '%s'\n", argv[i]);
            return -1;
        } else if (opt->nfiles < 64) {
            opt->files[opt->nfiles++] = argv[i];
        }
    }
    if (opt->nfiles == 0) {
        fprintf(stderr, "fatbin: no FILE given (try fatbin --help)\n");
        return -1;
    }
    if (opt->cmd == CMD_CHOOSE && opt->sm < 0) {
        fprintf(stderr, "fatbin: choose needs --sm N\n");
        return -1;
    }
    if (opt->cmd == CMD_EXTRACT && !opt->outdir) {
        fprintf(stderr, "fatbin: extract needs -o DIR\n");
        return -1;
    }
    return 0;
}

/* ---- files ---------------------------------------------------------------------------------- */

/* Maps a file read-only; an empty file maps to a NULL/0 pair.  Returns 0 or -1 (printed). */
static int map_file(const char *path, const uint8_t **data, size_t *size)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        fprintf(stderr, "fatbin: %s: %s\n", path, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        fprintf(stderr, "fatbin: %s: not a regular file\n", path);
        close(fd);
        return -1;
    }
    *size = (size_t)st.st_size;
    *data = NULL;
    if (*size > 0) {
        void *p = mmap(NULL, *size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED) {
            fprintf(stderr, "fatbin: %s: mmap: %s\n", path, strerror(errno));
            close(fd);
            return -1;
        }
        *data = p;
    }
    close(fd);
    return 0;
}

static void report(walk *w, size_t container_off, const fatbin_error *err)
{
    w->errors++;
    fprintf(stderr, "fatbin: %s: container at file offset 0x%zx: %s (file offset 0x%zx)\n",
            w->path, container_off, err->message, container_off + err->offset);
}

/* Decompresses an entry into a fresh buffer (one spare byte); NULL on error (reported). */
static uint8_t *extract_image(walk *w, const fatbin_container *c, const fatbin_entry *e,
                              size_t *size)
{
    uint64_t want = fatbin_entry_image_size(e);
    size_t coff = (size_t)(c->base - w->file);
    if (want >= MAX_IMAGE_SIZE) {
        fatbin_error err = { e->offset, "" };
        snprintf(err.message, sizeof err.message, "entry at 0x%zx: image of %llu bytes is "
                 "implausible", e->offset, (unsigned long long)want);
        report(w, coff, &err);
        return NULL;
    }
    uint8_t *buf = malloc((size_t)want + 1);
    fatbin_error err;
    if (!buf || fatbin_entry_extract(e, buf, (size_t)want + 1, size, &err) != FATBIN_OK) {
        if (!buf)
            snprintf(err.message, sizeof err.message, "out of memory");
        report(w, coff, &err);
        free(buf);
        return NULL;
    }
    return buf;
}

/* ---- list ----------------------------------------------------------------------------------- */

static const char *flags_hex(uint64_t flags)
{
    static char buf[24];
    snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)flags);
    return buf;
}

/* One line: container, entry, kind, arch, compression, stored and image sizes, flags, and the
 * section the container is in (__nv_relfatbin holds relocatable code for the device linker). */
static void list_entry(walk *w, const fatbin_file_section *sec, const fatbin_entry *e,
                       unsigned index)
{
    char kind[24], arch[32];
    bool compressed = (e->flags & FATBIN_FLAG_COMPRESSION_MASK) != 0;
    printf("c%-5lu e%-3u %-6s %-10s %-9s %10llu %10llu %-10s %s\n", cindex(w), index,
           fatbin_kind_name(e->kind, kind, sizeof kind), fatbin_arch_name(e, arch, sizeof arch),
           fatbin_compression_name(e->flags),
           (unsigned long long)(compressed ? e->compressed_size : e->payload_size),
           (unsigned long long)fatbin_entry_image_size(e), flags_hex(e->flags), sec->name);
}

/* check: remembers each distinct arch ("sm_90", "compute_90") of this file's entries. */
static void note_arch(walk *w, const fatbin_entry *e)
{
    char arch[24];
    fatbin_arch_name(e, arch, sizeof arch);
    for (unsigned i = 0; i < w->narchs; i++)
        if (strcmp(w->archs[i], arch) == 0)
            return;
    if (w->narchs < sizeof w->archs / sizeof w->archs[0])
        memcpy(w->archs[w->narchs++], arch, sizeof arch);
}

/* ---- kernels -------------------------------------------------------------------------------- */

static void print_params(const cubin_kernel *k)
{
    static cubin_param params[MAX_PARAMS];
    fatbin_error err;
    if (k->param_count > MAX_PARAMS || cubin_kernel_params(k, params, MAX_PARAMS, &err) != 0) {
        printf("    params: malformed (%s)\n", k->param_count > MAX_PARAMS ? "too many" :
               err.message);
        return;
    }
    for (uint32_t i = 0; i < k->param_count; i++)
        printf("    param %u: offset %u size %u\n", params[i].ordinal, params[i].offset,
               params[i].size);
}

/* Prints the kernels of one cubin image; returns 0 or -1 (error printed via *err). */
static int print_cubin(const uint8_t *image, size_t size, fatbin_error *err)
{
    cubin c;
    if (cubin_open(&c, image, size, err) != FATBIN_OK)
        return -1;
    printf("  cubin sm_%u, ELF ABI %u, %s\n", c.sm, c.abi_version,
           c.elf_type == 1 ? "relocatable" : "executable");
    size_t iter = 0;
    cubin_kernel k;
    int rc;
    while ((rc = cubin_next_kernel(&c, &iter, &k, err)) == FATBIN_OK) {
        printf("  kernel %s\n", k.name);
        printf("    %u params, %u bytes; registers %u; frame %u, stack min %u max %u; "
               "shared %llu; max threads %u,%u,%u\n", k.param_count, k.param_size, k.registers,
               k.frame_size, k.min_stack_size, k.max_stack_size,
               (unsigned long long)k.shared_size, k.max_threads[0], k.max_threads[1],
               k.max_threads[2]);
        print_params(&k);
    }
    return rc == FATBIN_END ? 0 : -1;
}

static void kernels_of_entry(walk *w, const fatbin_container *c, const fatbin_entry *e,
                             unsigned index)
{
    char arch[32];
    printf("c%lu e%u %s\n", cindex(w), index, fatbin_arch_name(e, arch, sizeof arch));
    size_t size;
    uint8_t *image = extract_image(w, c, e, &size);
    if (!image)
        return;
    fatbin_error err;
    if (print_cubin(image, size, &err) != 0) {
        fprintf(stderr, "fatbin: %s: c%lu e%u: cubin: %s (cubin offset 0x%zx)\n", w->path,
                cindex(w), index, err.message, err.offset);
        w->errors++;
    }
    free(image);
}

static void kernels_chosen(walk *w, const fatbin_container *c)
{
    fatbin_choice ch;
    fatbin_error err;
    if (fatbin_choose(c, (unsigned)w->opt->sm, w->opt->force_ptx, &ch, &err) != FATBIN_OK)
        return;                 /* the entry walk reports it */
    if (!ch.found)
        printf("c%lu: %s\n", cindex(w), ch.reason);
    else if (ch.is_ptx)
        printf("c%lu: %s: no kernel metadata before JIT\n", cindex(w), ch.reason);
    else
        kernels_of_entry(w, c, &ch.entry, ch.entry_index);
}

/* ---- extract -------------------------------------------------------------------------------- */

static void write_entry(walk *w, const fatbin_container *c, const fatbin_entry *e, unsigned index)
{
    size_t size;
    uint8_t *image = extract_image(w, c, e, &size);
    if (!image)
        return;
    const char *ext = e->kind == FATBIN_KIND_PTX ? "ptx" : e->kind == FATBIN_KIND_ELF ? "cubin" :
                      e->kind == FATBIN_KIND_LTOIR ? "ltoir" : "bin";
    if (e->kind == FATBIN_KIND_PTX)
        while (size > 0 && image[size - 1] == 0)
            size--;
    char arch[32], path[4096];
    snprintf(path, sizeof path, "%s/c%lu-e%u.%s.%s", w->opt->outdir, cindex(w), index,
             fatbin_arch_name(e, arch, sizeof arch), ext);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(image, 1, size, f) != size || fclose(f) != 0) {
        fprintf(stderr, "fatbin: %s: %s\n", path, strerror(errno));
        w->errors++;
    } else {
        printf("%s (%zu bytes)\n", path, size);
    }
    free(image);
}

/* ---- the walk ------------------------------------------------------------------------------- */

static int on_container(const fatbin_file_section *sec, const fatbin_container *c, void *user)
{
    walk *w = user;
    w->containers++;
    size_t pos = 0;
    fatbin_entry e;
    fatbin_error err;
    int rc;
    unsigned index = 0;
    while ((rc = fatbin_next_entry(c, &pos, &e, &err)) == FATBIN_OK) {
        if (w->opt->cmd == CMD_LIST)
            list_entry(w, sec, &e, index);
        else if (w->opt->cmd == CMD_EXTRACT)
            write_entry(w, c, &e, index);
        else if (w->opt->cmd == CMD_KERNELS && w->opt->sm < 0 && e.kind == FATBIN_KIND_ELF)
            kernels_of_entry(w, c, &e, index);
        else if (w->opt->cmd == CMD_CHECK)
            note_arch(w, &e);
        w->entries++;
        w->compressed += (e.flags & FATBIN_FLAG_COMPRESSION_MASK) != 0;
        index++;
    }
    if (rc == FATBIN_BAD) {
        report(w, (size_t)(c->base - w->file), &err);
        return 0;
    }
    if (w->opt->cmd == CMD_CHOOSE && index > 0) {
        fatbin_choice ch;
        if (fatbin_choose(c, (unsigned)w->opt->sm, w->opt->force_ptx, &ch, &err) == FATBIN_OK)
            printf("c%lu (%s): %s\n", cindex(w), sec->name, ch.reason);
    } else if (w->opt->cmd == CMD_KERNELS && w->opt->sm >= 0 && index > 0) {
        kernels_chosen(w, c);
    }
    return 0;
}

static int on_error(const fatbin_file_section *sec, const fatbin_error *err, void *user)
{
    walk *w = user;
    w->errors++;
    fprintf(stderr, "fatbin: %s: section %s: %s (file offset 0x%zx)\n", w->path, sec->name,
            err->message, err->offset);
    return 0;                   /* go on with the next section */
}

static int on_wrapper(const fatbin_file_wrapper *fw, void *user)
{
    (void)user;
    printf("wrapper %zu at 0x%zx: version %u, data 0x%llx", fw->index, fw->file_offset,
           fw->version, (unsigned long long)fw->data_vaddr);
    if (fw->data_section)
        printf(" -> %s+0x%zx (file offset)", fw->data_section, fw->data_file_offset);
    printf(", prelinked 0x%llx\n", (unsigned long long)fw->prelinked_vaddr);
    return 0;
}

/* ---- check --------------------------------------------------------------------------------- */

/* What `check` gathers from .dynamic and the symbol tables (PROTOCOL.md 9.1, 10.1). */
typedef struct evidence {
    const char *soname;
    const char *cudart_needed;      /* first DT_NEEDED libcudart.so* */
    const char *cuda_needed;        /* DT_NEEDED libcuda.so* (the driver) */
    const char *import_lib;         /* library the runtime imports come from */
    unsigned long rt_imports, drv_imports, rt_defs, key_defs, symtab_syms;
    const char *rt_examples[3], *drv_example, *key_def;
    bool key_def_local, minicudart_hook;
} evidence;

/* The registration/launch internals every nvcc-built program calls (PROTOCOL.md 9.2), and the
 * commonest API names: a file that defines one of these carries a runtime. */
static const char *const runtime_keys[] = {
    "__cudaRegisterFatBinary", "__cudaRegisterFatBinaryEnd", "__cudaUnregisterFatBinary",
    "__cudaRegisterFunction", "__cudaRegisterVar", "__cudaPushCallConfiguration",
    "__cudaPopCallConfiguration", "__cudaLaunchKernel", "__cudaGetKernel", "__cudaInitModule",
    "cudaMalloc", "cudaLaunchKernel", "cudaFree", "cudaMemcpy", "cudaGetDeviceCount",
};

static bool starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static bool is_upper(char c)
{
    return c >= 'A' && c <= 'Z';
}

/* cudaXxx, or a __cudaXxx internal. */
static bool runtime_name(const char *n)
{
    return (starts(n, "cuda") && is_upper(n[4])) || (starts(n, "__cuda") && is_upper(n[6]));
}

/* cuXxx: the driver API (libcuda.so.1). */
static bool driver_name(const char *n)
{
    return starts(n, "cu") && is_upper(n[2]);
}

static int on_dynamic(uint64_t tag, const char *value, void *user)
{
    evidence *ev = user;
    if (tag == FATBIN_DT_SONAME)
        ev->soname = value;
    else if (starts(value, "libcudart.so") && !ev->cudart_needed)
        ev->cudart_needed = value;
    else if (starts(value, "libcuda.so") && !ev->cuda_needed)
        ev->cuda_needed = value;
    return 0;
}

/* Three examples, __cudaRegisterFatBinary and cudaMalloc first, then the first others seen. */
static int example_rank(const char *name)
{
    return strcmp(name, "__cudaRegisterFatBinary") == 0 ? 0 : strcmp(name, "cudaMalloc") == 0 ? 1 : 2;
}

static void add_example(evidence *ev, const char *name)
{
    size_t at = 0;
    while (at < 3 && ev->rt_examples[at] &&
           example_rank(ev->rt_examples[at]) <= example_rank(name))
        at++;
    if (at == 3)
        return;
    memmove(&ev->rt_examples[at + 1], &ev->rt_examples[at], (2 - at) * sizeof(char *));
    ev->rt_examples[at] = name;
}

static int on_symbol(const fatbin_file_symbol *s, void *user)
{
    evidence *ev = user;
    if (!s->dynamic)
        ev->symtab_syms++;
    if (!s->defined) {
        if (!s->dynamic)
            return 0;           /* .dynsym lists every import */
        if (runtime_name(s->name)) {
            ev->rt_imports++;
            add_example(ev, s->name);
            if (!ev->import_lib || (s->version_file && !starts(ev->import_lib, "libcudart.so")))
                ev->import_lib = s->version_file ? s->version_file : ev->cudart_needed;
        } else if (driver_name(s->name)) {
            ev->drv_imports++;
            if (!ev->drv_example)
                ev->drv_example = s->name;
        }
        return 0;
    }
    if (strcmp(s->name, "minicudart_set_trace_hook") == 0)
        ev->minicudart_hook = true;
    if (s->dynamic && ev->symtab_syms > 0)
        return 0;               /* counted in .symtab already (it comes first) */
    if (!runtime_name(s->name) || s->type != 2 /* STT_FUNC */)
        return 0;
    ev->rt_defs++;
    for (size_t i = 0; i < sizeof runtime_keys / sizeof runtime_keys[0]; i++)
        if (strcmp(s->name, runtime_keys[i]) == 0) {
            ev->key_defs++;
            if (!ev->key_def || strcmp(s->name, "__cudaRegisterFatBinary") == 0) {
                ev->key_def = s->name;
                ev->key_def_local = s->bind == 0;
            }
        }
    return 0;
}

static bool contains(const uint8_t *data, size_t size, const char *needle)
{
    size_t n = strlen(needle);
    for (const uint8_t *p = data; size >= n; ) {
        const uint8_t *hit = memchr(p, needle[0], size - n + 1);
        if (!hit)
            return false;
        if (memcmp(hit, needle, n) == 0)
            return true;
        size -= (size_t)(hit - p) + 1;
        p = hit + 1;
    }
    return false;
}

/* Which static runtime: minicudart's library defines minicudart_set_trace_hook and reads
 * MINICUDART_* variables; NVIDIA's cudart_static has "libcudart_static_<hash>" symbols and
 * names its shared memory "/cudart.shm.*" (the string survives stripping). */
static const char *static_runtime(const evidence *ev, const uint8_t *data, size_t size,
                                  const char **why)
{
    if (ev->minicudart_hook) {
        *why = "defines minicudart_set_trace_hook (minicudart's static library)";
        return "minicudart's static library";
    }
    if (contains(data, size, "libcudart_static_")) {
        *why = "contains \"libcudart_static_<hash>\" strings (NVIDIA's cudart_static)";
        return "NVIDIA's cudart_static";
    }
    if (contains(data, size, "/cudart.shm.")) {
        *why = "contains the string \"/cudart.shm.\" (NVIDIA's cudart_static)";
        return "NVIDIA's cudart_static";
    }
    if (contains(data, size, "MINICUDART_TRACE")) {
        *why = "contains the string \"MINICUDART_TRACE\" (minicudart's static library)";
        return "minicudart's static library";
    }
    *why = NULL;
    return "an unknown static runtime";
}

#define REBUILD "rebuild it with `nvcc -cudart=shared` (then swap libcudart.so.13 or .so.12) or " \
                "`nvcc -cudart=none ... -lminicudart` (-lminicudart12 with a CUDA 12 nvcc)"

/* The CUDA major a runtime library's name says: N of libcudart.so.N[.x.y]; 0 for another name. */
static int cudart_major(const char *lib)
{
    if (!starts(lib, "libcudart.so.") || lib[13] < '0' || lib[13] > '9')
        return 0;
    int major = 0;
    for (const char *p = lib + 13; *p >= '0' && *p <= '9' && major < 1000; p++)
        major = major * 10 + (*p - '0');
    return major;
}

static void check_summary(const char *path, const evidence *ev, const walk *w,
                          unsigned long containers, unsigned long wrappers,
                          const uint8_t *data, size_t size)
{
    const char *why = NULL;
    bool stripped = ev->symtab_syms == 0;
    if (ev->soname && starts(ev->soname, "libcudart.so") && ev->rt_defs > 0) {
        printf("%s: is a CUDA runtime library itself (SONAME %s, %s)\n", path, ev->soname,
               ev->minicudart_hook ? "minicudart" : "not minicudart");
    } else if (ev->rt_imports > 0) {
        /* minicudart builds both majors' libraries: libcudart.so.13 and CUDA 12.9's .so.12. */
        const char *lib = ev->import_lib ? ev->import_lib : "an unnamed library";
        int major = cudart_major(lib);
        if (major == 12 || major == 13)
            printf("%s: links the shared runtime (libcudart.so.%d): minicudart can replace it "
                   "without a rebuild (its libcudart.so.%d: `minicudart run -- CMD`, or "
                   "LD_LIBRARY_PATH=<dir of minicudart's libcudart.so.%d>)\n", path, major, major,
                   major);
        else if (major > 0)
            printf("%s: links the shared runtime of another CUDA major (%s): minicudart "
                   "(libcudart.so.12, libcudart.so.13) cannot serve it; rebuild it with CUDA 12 "
                   "or 13 (`nvcc -cudart=shared`)\n", path, lib);
        else
            printf("%s: links the shared runtime through %s (no libcudart.so.12 or .so.13 "
                   "version): minicudart can serve it only if that library is libcudart.so.12 "
                   "or .so.13\n", path, lib);
    } else if (ev->key_defs > 0 || (stripped && (containers > 0 || wrappers > 0))) {
        const char *which = static_runtime(ev, data, size, &why);
        printf("%s: has a runtime linked in statically (%s): it cannot be swapped%s; %s\n",
               path, which, starts(which, "minicudart") ? " (it runs on minicudart as built)" :
               "", REBUILD);
    } else {
        printf("%s: no CUDA runtime use%s: nothing for minicudart to replace\n", path,
               ev->drv_imports > 0 || ev->cuda_needed ? " (it calls the driver API directly)" : "");
    }

    if (ev->soname)
        printf("  SONAME %s\n", ev->soname);
    if (ev->cudart_needed)
        printf("  needs %s (DT_NEEDED)\n", ev->cudart_needed);
    if (ev->cuda_needed)
        printf("  needs %s (DT_NEEDED): the driver\n", ev->cuda_needed);
    if (ev->rt_imports > 0) {
        printf("  imports %lu runtime symbols from %s, e.g.", ev->rt_imports,
               ev->import_lib ? ev->import_lib : "an unnamed library (unversioned)");
        for (size_t i = 0; i < 3 && ev->rt_examples[i]; i++)
            printf("%s %s", i ? "," : "", ev->rt_examples[i]);
        printf("\n");
    }
    if (ev->drv_imports > 0)
        printf("  imports %lu driver API symbols (cu*), e.g. %s\n", ev->drv_imports,
               ev->drv_example);
    if (ev->key_def)
        printf("  defines %s (%s, static runtime); %lu cuda* functions defined in all\n",
               ev->key_def, ev->key_def_local ? "local" : "global", ev->rt_defs);
    if (ev->rt_imports == 0 && ev->key_defs == 0 && ev->rt_defs > 0)
        printf("  defines %lu cuda* functions, none of them a runtime entry point\n", ev->rt_defs);
    if (why)
        printf("  %s\n", why);
    if (stripped)
        printf("  stripped: no .symtab (only .dynsym was read)\n");
    if (ev->rt_imports == 0 && ev->key_defs == 0 && stripped && (containers > 0 || wrappers > 0))
        printf("  imports no runtime symbol yet carries fatbins: the runtime must be built in\n");
    if (containers == 0 && wrappers == 0) {
        printf("  no fatbins: no kernels of its own\n");
        return;
    }
    printf("  fatbins: %lu containers, %lu entries, %lu compressed, %lu errors; %lu wrappers in "
           ".nvFatBinSegment\n", containers, w->entries, w->compressed, w->errors, wrappers);
    printf("  archs:");
    for (unsigned i = 0; i < w->narchs; i++)
        printf(" %s", w->archs[i]);
    printf("%s\n", w->narchs ? "" : " none");
}

/* One file: the fatbin walk (counted as `list` counts), then .dynamic and the symbols. */
static int check_file(walk *w, const uint8_t *data, size_t size)
{
    fatbin_error err;
    evidence ev;
    memset(&ev, 0, sizeof ev);
    /* Totals are per file here: check prints them in the file's own summary. */
    w->containers = w->entries = w->compressed = w->errors = w->file_first = 0;
    w->narchs = 0;
    if (fatbin_file_dynamic(data, size, on_dynamic, &ev, &err) < 0 ||
        fatbin_file_symbols(data, size, on_symbol, &ev, &err) < 0) {
        fprintf(stderr, "fatbin: %s: %s (offset 0x%zx)%s\n", w->path, err.message, err.offset,
                err.offset == 0 ? ": check needs an executable or a shared library" : "");
        return -1;
    }
    long n = fatbin_file_scan(data, size, on_container, on_error, w, &err);
    long wrappers = fatbin_file_wrappers(data, size, NULL, NULL, &err);
    if (n < 0)
        w->errors++;
    check_summary(w->path, &ev, w, w->containers, wrappers > 0 ? (unsigned long)wrappers : 0,
                  data, size);
    return 0;
}

/* `kernels` on a cubin file itself. */
static bool is_cubin(const uint8_t *data, size_t size)
{
    return size >= 64 && memcmp(data, "\x7f" "ELF", 4) == 0 && data[0x12] == 190 &&
           data[0x13] == 0;
}

static int run_file(walk *w, const uint8_t *data, size_t size)
{
    fatbin_error err;
    if (w->opt->cmd == CMD_KERNELS && is_cubin(data, size)) {
        if (print_cubin(data, size, &err) == 0)
            return 0;
        fprintf(stderr, "fatbin: %s: cubin: %s (offset 0x%zx)\n", w->path, err.message,
                err.offset);
        return -1;
    }
    if (w->opt->cmd == CMD_CHECK)
        return check_file(w, data, size);
    if (w->opt->cmd == CMD_WRAPPERS) {
        long n = fatbin_file_wrappers(data, size, on_wrapper, NULL, &err);
        if (n < 0)
            fprintf(stderr, "fatbin: %s: %s (offset 0x%zx)\n", w->path, err.message, err.offset);
        else
            printf("%ld wrappers\n", n);
        return n < 0 ? -1 : 0;
    }
    unsigned long before = w->containers;
    long n = fatbin_file_scan(data, size, on_container, on_error, w, &err);
    if (n < 0) {
        fprintf(stderr, "fatbin: %s: %s (offset 0x%zx)\n", w->path, err.message, err.offset);
        return -1;
    }
    if (w->containers == before && w->errors == 0) {
        fprintf(stderr, "fatbin: %s: no fatbin (.nv_fatbin or __nv_relfatbin) in this file\n",
                w->path);
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        usage(stdout);
        return 0;
    }
    options opt;
    if (parse_args(argc, argv, &opt) != 0)
        return 2;
    if (opt.cmd == CMD_EXTRACT && mkdir(opt.outdir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "fatbin: %s: %s\n", opt.outdir, strerror(errno));
        return 1;
    }
    walk w = { .opt = &opt };
    int failed = 0;
    for (int i = 0; i < opt.nfiles; i++) {
        const uint8_t *data;
        size_t size;
        w.path = opt.files[i];
        if (map_file(w.path, &data, &size) != 0) {
            failed = 1;
            continue;
        }
        if (opt.nfiles > 1 && opt.cmd == CMD_LIST)
            printf("%s:\n", w.path);
        w.file = data;
        w.file_first = w.containers;
        if (run_file(&w, data, size) != 0)
            failed = 1;
        if (data)
            munmap((void *)data, size);
    }
    if (opt.cmd == CMD_LIST)
        printf("%lu containers, %lu entries, %lu compressed, %lu errors\n", w.containers,
               w.entries, w.compressed, w.errors);
    if (opt.cmd == CMD_CHECK)
        return failed;          /* a malformed fatbin is evidence, not a failure to classify */
    return failed || w.errors ? 1 : 0;
}
