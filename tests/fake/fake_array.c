/*
 * fake_array.c - the fake driver's arrays, textures and surfaces (see fake_internal.h).
 */
#include "fake_array.h"
#include "fake_internal.h"

int fake_array_lookup(CUarray array, unsigned char **storage, size_t *width_bytes, size_t *height,
                      size_t *depth)
{
    (void)array, (void)storage, (void)width_bytes, (void)height, (void)depth;
    return -1;                              /* no arrays yet */
}

const proc_entry fake_procs_array[] = {
    {NULL, 0, 0, NULL},
};
