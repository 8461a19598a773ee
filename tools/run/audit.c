/*
 * audit.c - the loader's audit module of `minicudart run` (LD_AUDIT; rtld-audit(7)): in every
 * process of CMD's tree, each libcudart.so.12 or libcudart.so.13 asked for is minicudart's of
 * that major.
 *
 * Before the dynamic loader searches for a library (a DT_NEEDED entry, LD_PRELOAD, a dlopen by
 * name or by full path), it asks each audit module which file to open: la_objsearch with
 * LA_SER_ORIG.  A name whose file part is libcudart.so.N[.x.y] (or auditwheel's renamed
 * libcudart-<hash>.so.N) is answered with minicudart's libcudart.so.N, whatever RPATH, RUNPATH,
 * LD_LIBRARY_PATH or the full path would have found; a later request by name finds the library
 * already loaded, by its SONAME, before any search.  So each program gets the runtime its NEEDED
 * asks for, and a process loads only the runtimes it uses: a CUDA 12 extension loaded by python
 * gets libcudart.so.12, a CUDA 13 program the same python starts gets libcudart.so.13.  (Preloading
 * both instead would also work symbol by symbol, since a program binds each name under its
 * version node, name@libcudart.so.12; but every process would then carry a runtime it never
 * calls, and that runtime's exit notice would speak up in CMD's process.)  An unversioned
 * libcudart.so names no major and is left alone.
 *
 * tools/run/minicudart.c passes the libraries' absolute paths in MINICUDART_RUN_LIB12 and
 * MINICUDART_RUN_LIB13; a major whose variable is unset or empty is not redirected.
 *
 * The exit notice: a runtime loaded into CMD's own process (MINICUDART_RUN is its pid) says at
 * exit when no CUDA call reached it (lib/core/lifetime.c).  A process that loaded neither runtime
 * has none to say it, so this module does, in the same words: the usual reason is NVIDIA's
 * runtime linked in statically, whose calls never leave the binary.
 *
 * The module lives in a link namespace of its own (with its own copy of libc), so it reads its
 * variables once, at la_version, and writes with dprintf.  It audits no symbol binding
 * (la_objopen returns no LA_FLG_BIND* flag): the program's calls cost what they cost without it.
 */
#define _GNU_SOURCE
#include <link.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The majors minicudart builds, and the variable that names each one's library. */
static const struct {
    int major;
    const char *variable;
} audit_majors[] = {
    { 12, "MINICUDART_RUN_LIB12" },
    { 13, "MINICUDART_RUN_LIB13" },
};
enum { AUDIT_MAJORS = sizeof audit_majors / sizeof audit_majors[0] };

static const char *audit_lib[AUDIT_MAJORS];   /* minicudart's library of each major, or NULL */
static int audit_run_pid;                     /* MINICUDART_RUN: CMD's pid, 0 if none */
static bool audit_loaded;                     /* one of audit_lib was loaded into this process */

/* The major a library name asks for: N of [dir/]libcudart.so.N[.x.y] or libcudart-<hash>.so.N;
 * -1 for any other name (libcudart.so, libcudart_static.a, libcuda.so.1). */
static int audit_major_of(const char *name)
{
    const char *file = strrchr(name, '/');
    file = file ? file + 1 : name;
    if (strncmp(file, "libcudart", 9) != 0 || (file[9] != '.' && file[9] != '-'))
        return -1;
    const char *so = strstr(file + 9, ".so.");
    if (!so || so[4] < '0' || so[4] > '9')
        return -1;
    int major = 0;
    const char *p = so + 4;
    for (; *p >= '0' && *p <= '9' && major < 1000; p++)
        major = major * 10 + (*p - '0');
    return *p == '\0' || *p == '.' ? major : -1;
}

/* Called once, when the loader loads the module: before the program's libraries. */
unsigned int la_version(unsigned int version)
{
    for (int i = 0; i < AUDIT_MAJORS; i++) {
        const char *path = getenv(audit_majors[i].variable);
        audit_lib[i] = path && path[0] == '/' ? path : NULL;
    }
    const char *run = getenv("MINICUDART_RUN");
    audit_run_pid = run ? atoi(run) : 0;
    /* The interface of glibc 2.34 (version 1) is all this module uses; a newer loader takes a
     * module of an older version. */
    return version < LAV_CURRENT ? version : LAV_CURRENT;
}

/* Which file to open for a library asked for by `name`: minicudart's of its major, if any. */
char *la_objsearch(const char *name, uintptr_t *cookie, unsigned int flag)
{
    (void)cookie;
    if (flag != LA_SER_ORIG)
        return (char *)name;
    int major = audit_major_of(name);
    for (int i = 0; i < AUDIT_MAJORS; i++)
        if (audit_lib[i] && audit_majors[i].major == major)
            return (char *)audit_lib[i];
    return (char *)name;
}

/* Each object loaded: notes whether one of minicudart's runtimes came into the program's
 * namespace (l_name is the path la_objsearch answered). */
unsigned int la_objopen(struct link_map *map, Lmid_t lmid, uintptr_t *cookie)
{
    (void)cookie;
    if (lmid != LM_ID_BASE || !map->l_name)
        return 0;
    for (int i = 0; i < AUDIT_MAJORS; i++)
        if (audit_lib[i] && strcmp(map->l_name, audit_lib[i]) == 0)
            audit_loaded = true;
    return 0;
}

/* At CMD's exit, when it loaded neither runtime: the notice its runtime would have given. */
__attribute__((destructor)) static void audit_run_notice(void)
{
    if (audit_loaded || audit_run_pid == 0 || audit_run_pid != (int)getpid())
        return;
    char exe[512] = "CMD";
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? (size_t)n : 3] = '\0';
    dprintf(2,
            "minicudart: %s (pid %d) loaded neither of minicudart's runtimes (libcudart.so.12,\n"
            "minicudart: libcudart.so.13), so no CUDA runtime call reached it by exit.\n"
            "minicudart: the usual reason is NVIDIA's runtime linked into the program statically\n"
            "minicudart: (nvcc's default, -cudart=static): `fatbin check %s` says which files carry\n"
            "minicudart: it. Rebuild with -cudart=shared (or link libminicudart.a) to use minicudart.\n",
            exe, (int)getpid(), exe);
}
