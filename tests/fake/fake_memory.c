/*
 * fake_memory.c - the fake driver's entry points of one area (see fake_internal.h).
 */
#include "fake_internal.h"

const proc_entry fake_procs_memory[] = {
    {NULL, 0, 0, NULL},
};
