/*
 * fake_array_props.c - the fake driver's queries about existing arrays beyond their descriptor:
 * planes (cuArrayGetPlane), sparse layouts (cuArrayGetSparseProperties,
 * cuMipmappedArrayGetSparseProperties) and the memory of a deferred-mapping mipmapped array
 * (cuMipmappedArrayGetMemoryRequirements).  The records are fake_array.c's (fake_array.h).
 *
 * What it models:
 *   - Planes exist for NV12 arrays only: plane 0 the luma, plane 1 the chroma; a plane index
 *     past the last, or an array without planes, is CUDA_ERROR_INVALID_VALUE.
 *   - Sparse tiles are 64 KiB, shaped as the standard tile shapes (2D: 256x256 bytes for 1-byte
 *     elements down to 64x64 for 16-byte ones; 3D: 64x32x32 down to 16x16x16).  An array's mip
 *     tail is empty; a mipmapped array's starts at the first level smaller than a tile in some
 *     dimension and holds every level from there, rounded up to whole tiles.  An array or
 *     mipmapped array made without CUDA_ARRAY3D_SPARSE, or a level of a mipmapped array, is
 *     CUDA_ERROR_INVALID_VALUE.
 *   - Memory requirements of a mipmapped array: its levels, each rounded up to 64 KiB, aligned
 *     to 64 KiB; only with CUDA_ARRAY3D_DEFERRED_MAPPING (else CUDA_ERROR_INVALID_VALUE).
 */
#include "memory/fake_array.h"
#include "fake_internal.h"

#include <string.h>

#define TILE_BYTES 65536u

static size_t one_if_zero(size_t n)
{
    return n ? n : 1;
}

static size_t round_to_tiles(size_t bytes)
{
    return (bytes + TILE_BYTES - 1) / TILE_BYTES * TILE_BYTES;
}

/* A 3D array (not layered) has 3D tiles; 1D, 2D and layered arrays 2D ones. */
static int has_3d_tiles(const CUDA_ARRAY3D_DESCRIPTOR *d)
{
    return d->Depth && !(d->Flags & (CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_CUBEMAP));
}

/* The tile shape, in elements, for elements of `element` bytes (1, 2, 4, 8 or 16). */
static void tile_extent(size_t element, int three_d, unsigned *w, unsigned *h, unsigned *d)
{
    static const unsigned shape2d[5][2] = {{256, 256}, {256, 128}, {128, 128}, {128, 64},
                                           {64, 64}};
    static const unsigned shape3d[5][3] = {{64, 32, 32}, {32, 32, 32}, {32, 32, 16},
                                           {32, 16, 16}, {16, 16, 16}};
    unsigned k = 0;
    while (k < 4 && (1u << k) < element)
        k++;
    *w = three_d ? shape3d[k][0] : shape2d[k][0];
    *h = three_d ? shape3d[k][1] : shape2d[k][1];
    *d = three_d ? shape3d[k][2] : 1;
}

static size_t level_bytes(const fake_array *a)
{
    return a->desc.Width * a->element_size * one_if_zero(a->desc.Height) *
           one_if_zero(a->desc.Depth);
}

/* ---- planes --------------------------------------------------------------------------------- */

static CUresult CUDAAPI f_cuArrayGetPlane(CUarray *out, CUarray handle, unsigned int index)
{
    CUresult rc = fake_enter("cuArrayGetPlane", "array=%p plane=%u", (void *)handle, index);
    fake_array *a = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && !out)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && !(a = fake_array_find(handle)))
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS && (index >= 2 || !a->plane[index]))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        *out = (CUarray)a->plane[index];
    return fake_leave(rc);
}

/* ---- sparse layouts ------------------------------------------------------------------------- */

static CUresult CUDAAPI f_cuArrayGetSparseProperties(CUDA_ARRAY_SPARSE_PROPERTIES *out,
                                                     CUarray handle)
{
    CUresult rc = fake_enter("cuArrayGetSparseProperties", "array=%p", (void *)handle);
    fake_array *a = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && !out)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && !(a = fake_array_find(handle)))
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS &&
        (!(a->desc.Flags & CUDA_ARRAY3D_SPARSE) || a->owned_by_mipmap || a->parent))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS) {
        memset(out, 0, sizeof *out);
        tile_extent(a->element_size, has_3d_tiles(&a->desc), &out->tileExtent.width,
                    &out->tileExtent.height, &out->tileExtent.depth);
    }
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuMipmappedArrayGetSparseProperties(CUDA_ARRAY_SPARSE_PROPERTIES *out,
                                                              CUmipmappedArray handle)
{
    CUresult rc = fake_enter("cuMipmappedArrayGetSparseProperties", "mipmap=%p",
                             (void *)handle);
    fake_mipmap *m = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && !out)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && !(m = fake_mipmap_find(handle)))
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS && !(m->desc.Flags & CUDA_ARRAY3D_SPARSE))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc != CUDA_SUCCESS)
        return fake_leave(rc);
    memset(out, 0, sizeof *out);
    int three_d = has_3d_tiles(&m->desc);
    unsigned w, h, d;
    tile_extent(m->level[0]->element_size, three_d, &w, &h, &d);
    out->tileExtent.width = w;
    out->tileExtent.height = h;
    out->tileExtent.depth = d;
    unsigned first = 0;
    while (first < m->levels) {
        const CUDA_ARRAY3D_DESCRIPTOR *l = &m->level[first]->desc;
        if (l->Width < w || one_if_zero(l->Height) < h || (three_d && l->Depth < d))
            break;
        first++;
    }
    size_t tail = 0;
    for (unsigned i = first; i < m->levels; i++)
        tail += level_bytes(m->level[i]);
    out->miptailFirstLevel = first;
    out->miptailSize = round_to_tiles(tail);
    return fake_leave(CUDA_SUCCESS);
}

/* ---- memory requirements -------------------------------------------------------------------- */

static CUresult CUDAAPI f_cuMipmappedArrayGetMemoryRequirements(
    CUDA_ARRAY_MEMORY_REQUIREMENTS *out, CUmipmappedArray handle, CUdevice dev)
{
    CUresult rc = fake_enter("cuMipmappedArrayGetMemoryRequirements", "mipmap=%p device=%d",
                             (void *)handle, dev);
    fake_mipmap *m = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && !out)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_device(dev);
    if (rc == CUDA_SUCCESS && !(m = fake_mipmap_find(handle)))
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS && !(m->desc.Flags & CUDA_ARRAY3D_DEFERRED_MAPPING))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS) {
        size_t size = 0;
        for (unsigned i = 0; i < m->levels; i++)
            size += round_to_tiles(level_bytes(m->level[i]));
        memset(out, 0, sizeof *out);
        out->size = size;
        out->alignment = TILE_BYTES;
    }
    return fake_leave(rc);
}

const proc_entry fake_procs_array_props[] = {
    {"cuArrayGetPlane", 11020, 99999, (void *)f_cuArrayGetPlane},
    {"cuArrayGetSparseProperties", 11010, 99999, (void *)f_cuArrayGetSparseProperties},
    {"cuMipmappedArrayGetSparseProperties", 11010, 99999,
     (void *)f_cuMipmappedArrayGetSparseProperties},
    {"cuMipmappedArrayGetMemoryRequirements", 11060, 99999,
     (void *)f_cuMipmappedArrayGetMemoryRequirements},
    {NULL, 0, 0, NULL},
};
