/*
 * fake_array.h - what the fake's array area (fake_array.c) offers the other fake files: the copy
 * entry points of fake_memory.c and fake_batch.c use it for CU_MEMORYTYPE_ARRAY operands, and
 * fake_array_props.c (planes, sparse layouts, memory requirements) reads its records.
 */
#ifndef MINICUDART_FAKE_ARRAY_H
#define MINICUDART_FAKE_ARRAY_H

#include <cuda.h>
#include <stddef.h>

/* An array: its descriptor and host storage.  Its address is the CUarray. */
typedef struct fake_array {
    CUDA_ARRAY3D_DESCRIPTOR desc;
    unsigned char *storage;
    size_t element_size;         /* bytes per element (NV12: 1, the luma plane's) */
    int owned_by_mipmap;         /* a level of a mipmapped array: not destroyable on its own */
    struct fake_array *parent;   /* a plane of a planar array: shares the parent's storage */
    struct fake_array *plane[2]; /* an NV12 array's planes (luma, chroma), made with it */
} fake_array;

/* A mipmapped array owns one array per level; its address is the CUmipmappedArray. */
typedef struct fake_mipmap {
    CUDA_ARRAY3D_DESCRIPTOR desc;
    unsigned levels;
    fake_array **level;
} fake_mipmap;

/* With the fake's lock held: the live array or mipmapped array of a handle, or NULL. */
fake_array *fake_array_find(CUarray handle);
fake_mipmap *fake_mipmap_find(CUmipmappedArray handle);
/* With the fake's lock held: cuMipmappedArrayCreate's work (a mipmapped array mapped from
 * imported memory is made the same way, fake_external.c). */
CUresult fake_mipmap_create(CUmipmappedArray *handle, const CUDA_ARRAY3D_DESCRIPTOR *d,
                            unsigned levels);
void fake_mipmap_drop(CUmipmappedArray handle);     /* destroys one fake_mipmap_create made */

/* With the fake's lock held: the host storage of a live array and its extent in bytes (a row of
 * width_bytes, height rows (1 for 1D), depth slices (1 for 2D)).  Returns 0, or -1 when `array`
 * is not a live array. */
int fake_array_lookup(CUarray array, unsigned char **storage, size_t *width_bytes, size_t *height,
                      size_t *depth);

/* With the fake's lock held, for the graphics area (fake_graphics.c): a mipmapped array made
 * as cuMipmappedArrayCreate makes one, for a registered image to own; and its release.  NULL /
 * nothing when the descriptor is refused or memory ran out. */
CUmipmappedArray fake_mipmap_new(const CUDA_ARRAY3D_DESCRIPTOR *d, unsigned levels);
void fake_mipmap_release(CUmipmappedArray handle);

#endif
