/*
 * lifetime.c - the runtime's life around the program's: exit, libraries unloaded, fork.
 *
 * Three moments take away some or all of what the runtime works with:
 *
 *   exit     after main returns, exit handlers and static destructors run in the reverse order
 *            of their registration.  nvcc's handler unregisters the program's fatbins; that
 *            changes nothing (the records stay), so destructors that run after it and before
 *            the runtime's own exit handler (driver.c, registered at the first CUDA call) work
 *            as usual: NVIDIA's runtime answers cudaSuccess there (measured on an H200,
 *            tests/gpu/life_static_dtor.cu).  From the runtime's handler on, calls answer
 *            cudaErrorCudartUnloading, as NVIDIA's runtime does (SEMANTICS.md section 0), and
 *            never reach a driver that may be going down.  Nothing is unloaded or freed: the
 *            context dies with the process.
 *   dlclose  a library that registered fatbins unregisters them while the program goes on.
 *            Its host image (fatbin, kernel names, host stubs) is unmapped right after, so its
 *            kernels and variables leave the look-up tables (register.c), and its modules are
 *            unloaded from every context, which gives back the device memory of its code and
 *            of its __device__ variables.  Records stay allocated: a pointer someone kept still
 *            points to valid memory, and answers "not registered".
 *   fork     the driver's state does not survive fork: a child of a process that initialised
 *            the driver gets cudaErrorInitializationError from every call that needs the
 *            driver (NVIDIA's runtime answers that to cudaMalloc in such a child, measured on
 *            an H200), at once, instead of hanging in a driver whose threads did not follow.
 *
 * This room keeps what the bottom layer needs of those moments (the flags, the main program's
 * address range); the loading layer does its own part: load/register.c keeps a closed
 * library's records and takes its lock around fork, load/module.c unloads its modules.
 *            A child forked before initialisation uses CUDA as if it were a new process.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/core.h"

atomic_bool rt_forked;
atomic_bool rt_driver_resolved;

/* ---- fork ----------------------------------------------------------------------------------- */

/* Each layer that holds a lock across calls takes it around fork itself (load/register.c: the
 * registry's), so that a child never inherits it held by a thread that did not follow; this one
 * only marks the child. */
static void rt_atfork_child(void)
{
    /* The driver table is filled just before cuInit (driver.c sets the flag): from then on the
     * parent's driver state is in use, and none of it is valid here. */
    if (atomic_load(&rt_driver_resolved))
        atomic_store(&rt_forked, true);
}

/* Runs when the runtime is loaded (program start, or dlopen of libcudart.so.13): the handlers
 * must be in place before any fork that follows initialisation. */
__attribute__((constructor)) static void rt_lifetime_init(void)
{
    pthread_atfork(NULL, NULL, rt_atfork_child);
}

/* ---- the exit notice of `minicudart run` ---------------------------------------------------- */

atomic_bool rt_reached;

/* Under `minicudart run` the runtime was preloaded into the command, whose pid MINICUDART_RUN
 * names: libcudart.so.13, or libcudart.so.12 for a CUDA 12 program (tools/run/minicudart.c; the
 * processes it starts inherit the preload and the variable, but not the pid: they stay quiet).
 * If no CUDA call reached the runtime by exit, the command did not use this library at all:
 * almost always because it carries NVIDIA's runtime linked statically (nvcc's default,
 * -cudart=static), whose calls never leave the binary.  Say so, and how to check, rather than
 * let the user believe the run used minicudart. */
__attribute__((destructor)) static void rt_run_notice(void)
{
    const char *run = getenv("MINICUDART_RUN");
    if (!run || strtoul(run, NULL, 10) != (unsigned long)getpid() || atomic_load(&rt_reached))
        return;
    char exe[512] = "CMD";
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? (size_t)n : 3] = '\0';
    fprintf(stderr,
            "minicudart: loaded into %s (pid %d), but no CUDA runtime call reached it by exit.\n"
            "minicudart: the usual reason is NVIDIA's runtime linked into the program statically\n"
            "minicudart: (nvcc's default, -cudart=static): `fatbin check %s` says which files carry\n"
            "minicudart: it. Rebuild with -cudart=shared (or link libminicudart.a) to use minicudart.\n",
            exe, (int)getpid(), exe);
}

/* ---- exit and dlclose ----------------------------------------------------------------------- */

/* The main program's loadable segments, read once.  dladdr would answer too, but glibc's walks
 * the whole symbol table of the object holding the address on every call (_dl_addr): called
 * for each fatbin, it made registration grow with the size of the loading library (0.57 ms a
 * fatbin in a library of 65,000 symbols, bench/registration).  The main program's segments
 * never move, so the ranges found at the first registration answer every later one. */
enum { RT_PROGRAM_SEGMENTS = 32 };
static struct rt_range { uintptr_t start, end; } rt_program[RT_PROGRAM_SEGMENTS];
static int rt_program_count = -1;        /* -1: more segments than fit: ask dladdr */
static pthread_once_t rt_program_once = PTHREAD_ONCE_INIT;

static int rt_program_segments(struct dl_phdr_info *info, size_t size, void *data)
{
    /* The first object dl_iterate_phdr visits is the main program (dl_iterate_phdr(3)). */
    int n = 0;
    for (size_t i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD)
            continue;
        if (n == RT_PROGRAM_SEGMENTS)
            return 1;
        rt_program[n].start = info->dlpi_addr + ph->p_vaddr;
        rt_program[n].end = rt_program[n].start + ph->p_memsz;
        n++;
    }
    rt_program_count = n;
    return 1;                             /* the main program was all we wanted */
}

static void rt_program_find(void)
{
    dl_iterate_phdr(rt_program_segments, NULL);
}

bool rt_address_in_program(const void *address)
{
    if (!address)
        return false;
    pthread_once(&rt_program_once, rt_program_find);
    if (rt_program_count < 0) {
        /* The main program's link map is the one with the empty name (glibc). */
        Dl_info info;
        struct link_map *map = NULL;
        if (!dladdr1(address, &info, (void **)&map, RTLD_DL_LINKMAP) || !map)
            return false;
        return map->l_name && map->l_name[0] == '\0';
    }
    uintptr_t a = (uintptr_t)address;
    for (int i = 0; i < rt_program_count; i++)
        if (a >= rt_program[i].start && a < rt_program[i].end)
            return true;
    return false;
}
