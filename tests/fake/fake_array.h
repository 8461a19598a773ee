/*
 * fake_array.h - what the fake's array area (fake_array.c) offers the other fake files: the copy
 * entry points of fake_memory.c use it for CU_MEMORYTYPE_ARRAY operands.
 */
#ifndef MINICUDART_FAKE_ARRAY_H
#define MINICUDART_FAKE_ARRAY_H

#include <cuda.h>
#include <stddef.h>

/* With the fake's lock held: the host storage of a live array and its extent in bytes (a row of
 * width_bytes, height rows (1 for 1D), depth slices (1 for 2D)).  Returns 0, or -1 when `array`
 * is not a live array. */
int fake_array_lookup(CUarray array, unsigned char **storage, size_t *width_bytes, size_t *height,
                      size_t *depth);

#endif
