/*
 * fake_array.c - the fake driver's arrays, mipmapped arrays, texture and surface objects (see
 * fake_internal.h).
 *
 * What it models, and how strictly:
 *   - An array is a descriptor (the 3D one; a 1D array has Height 0, a 2D one Depth 0) and host
 *     storage of Width * max(Height,1) * max(Depth,1) elements.  Its address is the CUarray.
 *     Creation validates like the driver: a known plain format, 1, 2 or 4 channels, Width > 0,
 *     Depth only with Height, cubemaps square with 6 (or a multiple of 6 when layered) faces.
 *   - An NV12 array (3 channels, even sides, 2D) holds its luma and chroma planes one after the
 *     other; cuArrayGetPlane (fake_array_props.c) hands out their records, made with it, which
 *     share its storage and die with it.  Sparse and deferred-mapping flags are accepted and kept
 *     (fake_array_props.c answers the queries about them).
 *   - A mipmapped array owns one array per level (each dimension halved, at least 1); its level
 *     arrays are handed out by cuMipmappedArrayGetLevel and die with it.
 *   - Texture and surface objects are numbers (1, 2, ...) naming a record of the descriptors they
 *     were created with, which the Get*Desc entry points hand back unchanged.  A resource must
 *     name a live array, or lie inside one device allocation; a surface needs an array created
 *     with CUDA_ARRAY3D_SURFACE_LDST.
 * Arrays are not freed by a context reset (fake_ctx_destroy, fakecuda.c); tests destroy them.
 */
#include "memory/fake_array.h"
#include "fake_internal.h"

#include <stdlib.h>
#include <string.h>

#define FAKE_EXPORT __attribute__((visibility("default")))

typedef struct fake_object {
    unsigned long long id;
    int surface;
    CUDA_RESOURCE_DESC res;
    CUDA_TEXTURE_DESC tex;
    CUDA_RESOURCE_VIEW_DESC view;
    int has_view;
} fake_object;

static ptr_vec arrays, mipmaps, objects;
static unsigned long long next_object_id = 1;

/* Bytes per element of a plain format with `channels` channels (NV12: the luma byte); 0 for
 * formats the fake does not model (block-compressed, the other video formats). */
static size_t format_element_size(CUarray_format format, unsigned channels)
{
    size_t bytes;
    switch (format) {
    case CU_AD_FORMAT_UNSIGNED_INT8: case CU_AD_FORMAT_SIGNED_INT8: bytes = 1; break;
    case CU_AD_FORMAT_UNSIGNED_INT16: case CU_AD_FORMAT_SIGNED_INT16: case CU_AD_FORMAT_HALF:
        bytes = 2; break;
    case CU_AD_FORMAT_UNSIGNED_INT32: case CU_AD_FORMAT_SIGNED_INT32: case CU_AD_FORMAT_FLOAT:
        bytes = 4; break;
    case CU_AD_FORMAT_UNORM_INT8X1: case CU_AD_FORMAT_SNORM_INT8X1: return channels == 1 ? 1 : 0;
    case CU_AD_FORMAT_UNORM_INT8X2: case CU_AD_FORMAT_SNORM_INT8X2: return channels == 2 ? 2 : 0;
    case CU_AD_FORMAT_UNORM_INT8X4: case CU_AD_FORMAT_SNORM_INT8X4: return channels == 4 ? 4 : 0;
    case CU_AD_FORMAT_UNORM_INT16X1: case CU_AD_FORMAT_SNORM_INT16X1: return channels == 1 ? 2 : 0;
    case CU_AD_FORMAT_UNORM_INT16X2: case CU_AD_FORMAT_SNORM_INT16X2: return channels == 2 ? 4 : 0;
    case CU_AD_FORMAT_UNORM_INT16X4: case CU_AD_FORMAT_SNORM_INT16X4: return channels == 4 ? 8 : 0;
    case CU_AD_FORMAT_NV12: return channels == 3 ? 1 : 0;      /* a luma byte per element */
    default: return 0;
    }
    if (channels != 1 && channels != 2 && channels != 4)
        return 0;
    return bytes * channels;
}

static fake_array *find_array(CUarray handle)
{
    for (size_t i = 0; i < arrays.count; i++)
        if (arrays.items[i] == (void *)handle)
            return arrays.items[i];
    return NULL;
}

fake_array *fake_array_find(CUarray handle)
{
    return find_array(handle);
}

static fake_mipmap *find_mipmap(CUmipmappedArray handle, size_t *index)
{
    for (size_t i = 0; i < mipmaps.count; i++)
        if (mipmaps.items[i] == (void *)handle) {
            if (index)
                *index = i;
            return mipmaps.items[i];
        }
    return NULL;
}

fake_mipmap *fake_mipmap_find(CUmipmappedArray handle)
{
    return find_mipmap(handle, NULL);
}

static fake_object *find_object(unsigned long long id, int surface, size_t *index)
{
    for (size_t i = 0; i < objects.count; i++) {
        fake_object *o = objects.items[i];
        if (o->id == id && o->surface == surface) {
            if (index)
                *index = i;
            return o;
        }
    }
    return NULL;
}

static size_t at_least_one(size_t n)
{
    return n ? n : 1;
}

/* Validates a 3D descriptor the way cuArray3DCreate does. */
static CUresult check_descriptor(const CUDA_ARRAY3D_DESCRIPTOR *d)
{
    const unsigned known = CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_SURFACE_LDST | CUDA_ARRAY3D_CUBEMAP |
                           CUDA_ARRAY3D_TEXTURE_GATHER | CUDA_ARRAY3D_SPARSE |
                           CUDA_ARRAY3D_DEFERRED_MAPPING;
    if (!format_element_size(d->Format, d->NumChannels) || d->Width == 0 || (d->Flags & ~known))
        return CUDA_ERROR_INVALID_VALUE;
    /* The largest arrays an H200 makes: 131072 wide, 65536 high, 16384 deep (its maximum
     * texture dimensions); beyond them the driver refuses rather than allocating. */
    if (d->Width > 131072 || d->Height > 65536 || d->Depth > 16384)
        return CUDA_ERROR_INVALID_VALUE;
    if (d->Depth && !d->Height)
        return CUDA_ERROR_INVALID_VALUE;
    /* NV12: 2D only, even sides (the chroma plane has half of each), no other flags */
    if (d->Format == CU_AD_FORMAT_NV12 &&
        (!d->Height || d->Depth || d->Width % 2 || d->Height % 2 || d->Flags))
        return CUDA_ERROR_INVALID_VALUE;
    if ((d->Flags & CUDA_ARRAY3D_LAYERED) && !d->Depth)
        return CUDA_ERROR_INVALID_VALUE;
    if (d->Flags & CUDA_ARRAY3D_CUBEMAP) {
        int layered = (d->Flags & CUDA_ARRAY3D_LAYERED) != 0;
        if (d->Width != d->Height || !d->Depth || (layered ? d->Depth % 6 : d->Depth != 6))
            return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

static void array_free(fake_array *a);

/* Records a plane of the NV12 array `parent`: unsigned 8-bit, 1 channel (luma, plane 0) or 2
 * (chroma, plane 1, half the width and height), over the parent's storage from `offset`. */
static fake_array *plane_new(fake_array *parent, unsigned index, size_t offset)
{
    fake_array *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->desc.Format = CU_AD_FORMAT_UNSIGNED_INT8;
    p->desc.NumChannels = index ? 2 : 1;
    p->desc.Width = index ? parent->desc.Width / 2 : parent->desc.Width;
    p->desc.Height = index ? parent->desc.Height / 2 : parent->desc.Height;
    p->element_size = p->desc.NumChannels;
    p->parent = parent;
    p->storage = parent->storage + offset;
    if (fake_vec_push(&arrays, p) != 0) {
        free(p);
        return NULL;
    }
    return p;
}

/* Creates and records an array (descriptor already checked); NULL when out of memory.  An NV12
 * array holds both planes, the luma (Width x Height bytes) and after it the chroma (half as
 * many), and gets its two plane records. */
static fake_array *array_new(const CUDA_ARRAY3D_DESCRIPTOR *d, int owned)
{
    fake_array *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->desc = *d;
    a->element_size = format_element_size(d->Format, d->NumChannels);
    a->owned_by_mipmap = owned;
    size_t bytes = d->Width * a->element_size * at_least_one(d->Height) * at_least_one(d->Depth);
    int planar = d->Format == CU_AD_FORMAT_NV12;
    a->storage = fake_aligned_alloc(planar ? bytes + bytes / 2 : bytes);
    if (!a->storage || fake_vec_push(&arrays, a) != 0) {
        free(a->storage);
        free(a);
        return NULL;
    }
    if (planar && (!(a->plane[0] = plane_new(a, 0, 0)) || !(a->plane[1] = plane_new(a, 1, bytes)))) {
        array_free(a);
        return NULL;
    }
    return a;
}

static void array_free(fake_array *a)
{
    for (size_t i = 0; i < arrays.count; i++)
        if (arrays.items[i] == a) {
            fake_vec_remove(&arrays, i);
            break;
        }
    for (unsigned i = 0; i < 2; i++)
        if (a->plane[i])
            array_free(a->plane[i]);
    if (!a->parent)
        free(a->storage);
    free(a);
}

int fake_array_lookup(CUarray array, unsigned char **storage, size_t *width_bytes, size_t *height,
                      size_t *depth)
{
    fake_array *a = find_array(array);
    if (!a)
        return -1;
    if (storage)
        *storage = a->storage;
    if (width_bytes)
        *width_bytes = a->desc.Width * a->element_size;
    if (height)
        *height = at_least_one(a->desc.Height);
    if (depth)
        *depth = at_least_one(a->desc.Depth);
    return 0;
}

/* ---- arrays --------------------------------------------------------------------------------- */

static CUresult array3d_create(CUarray *handle, const CUDA_ARRAY3D_DESCRIPTOR *d)
{
    CUresult rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && (!handle || !d))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = check_descriptor(d);
    fake_array *a = NULL;
    if (rc == CUDA_SUCCESS && !(a = array_new(d, 0)))
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    if (rc == CUDA_SUCCESS)
        *handle = (CUarray)a;
    return rc;
}

static CUresult CUDAAPI f_cuArray3DCreate(CUarray *handle, const CUDA_ARRAY3D_DESCRIPTOR *d)
{
    CUresult rc = fake_enter("cuArray3DCreate", "Width=%zu Height=%zu Depth=%zu Format=0x%x "
                             "NumChannels=%u Flags=0x%x", d ? d->Width : 0, d ? d->Height : 0,
                             d ? d->Depth : 0, d ? (unsigned)d->Format : 0,
                             d ? d->NumChannels : 0, d ? d->Flags : 0);
    if (rc == CUDA_SUCCESS)
        rc = array3d_create(handle, d);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuArrayCreate(CUarray *handle, const CUDA_ARRAY_DESCRIPTOR *d)
{
    CUresult rc = fake_enter("cuArrayCreate", "Width=%zu Height=%zu Format=0x%x NumChannels=%u",
                             d ? d->Width : 0, d ? d->Height : 0, d ? (unsigned)d->Format : 0,
                             d ? d->NumChannels : 0);
    if (rc == CUDA_SUCCESS && !d)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS) {
        CUDA_ARRAY3D_DESCRIPTOR d3 = {.Width = d->Width, .Height = d->Height,
                                      .Format = d->Format, .NumChannels = d->NumChannels};
        rc = array3d_create(handle, &d3);
    }
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuArrayDestroy(CUarray handle)
{
    CUresult rc = fake_enter("cuArrayDestroy", "array=%p", (void *)handle);
    fake_array *a = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && (!(a = find_array(handle)) || a->owned_by_mipmap || a->parent))
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS)
        array_free(a);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuArray3DGetDescriptor(CUDA_ARRAY3D_DESCRIPTOR *out, CUarray handle)
{
    CUresult rc = fake_enter("cuArray3DGetDescriptor", "array=%p", (void *)handle);
    fake_array *a = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && !out)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && !(a = find_array(handle)))
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS)
        *out = a->desc;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuArrayGetDescriptor(CUDA_ARRAY_DESCRIPTOR *out, CUarray handle)
{
    CUresult rc = fake_enter("cuArrayGetDescriptor", "array=%p", (void *)handle);
    fake_array *a = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && !out)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && !(a = find_array(handle)))
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS && a->desc.Depth)
        rc = CUDA_ERROR_INVALID_VALUE;           /* a 3D array has no 2D descriptor */
    if (rc == CUDA_SUCCESS) {
        out->Width = a->desc.Width;
        out->Height = a->desc.Height;
        out->Format = a->desc.Format;
        out->NumChannels = a->desc.NumChannels;
    }
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuArrayGetMemoryRequirements(CUDA_ARRAY_MEMORY_REQUIREMENTS *out,
                                                       CUarray handle, CUdevice dev)
{
    CUresult rc = fake_enter("cuArrayGetMemoryRequirements", "array=%p device=%d",
                             (void *)handle, dev);
    fake_array *a = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && !out)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_device(dev);
    if (rc == CUDA_SUCCESS && !(a = find_array(handle)))
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS) {
        size_t bytes = a->desc.Width * a->element_size * at_least_one(a->desc.Height) *
                       at_least_one(a->desc.Depth);
        memset(out, 0, sizeof *out);
        out->alignment = 65536;
        out->size = (bytes + 65535) / 65536 * 65536;
    }
    return fake_leave(rc);
}

/* ---- mipmapped arrays ----------------------------------------------------------------------- */

static void mipmap_free(fake_mipmap *m)
{
    for (unsigned i = 0; i < m->levels; i++)
        if (m->level[i])
            array_free(m->level[i]);
    free(m->level);
    free(m);
}

static size_t half(size_t n)
{
    return n > 1 ? n / 2 : n;
}

CUresult fake_mipmap_create(CUmipmappedArray *handle, const CUDA_ARRAY3D_DESCRIPTOR *d,
                            unsigned levels)
{
    CUresult rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && (!handle || !d || levels == 0))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = check_descriptor(d);
    if (rc == CUDA_SUCCESS && d->Format == CU_AD_FORMAT_NV12)
        rc = CUDA_ERROR_INVALID_VALUE;          /* planar formats have no mipmaps */
    if (rc != CUDA_SUCCESS)
        return rc;
    size_t largest = d->Width > d->Height ? d->Width : d->Height;
    if (!(d->Flags & CUDA_ARRAY3D_LAYERED) && d->Depth > largest)
        largest = d->Depth;
    unsigned most = 1;
    while (largest >> most)
        most++;
    if (levels > most)
        return CUDA_ERROR_INVALID_VALUE;
    fake_mipmap *m = calloc(1, sizeof *m);
    if (!m || !(m->level = calloc(levels, sizeof *m->level))) {
        free(m);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    m->desc = *d;
    m->levels = levels;
    CUDA_ARRAY3D_DESCRIPTOR level = *d;
    for (unsigned i = 0; i < levels; i++) {
        if (!(m->level[i] = array_new(&level, 1))) {
            mipmap_free(m);
            return CUDA_ERROR_OUT_OF_MEMORY;
        }
        level.Width = half(level.Width);
        level.Height = half(level.Height);
        if (!(d->Flags & CUDA_ARRAY3D_LAYERED))
            level.Depth = half(level.Depth);
    }
    if (fake_vec_push(&mipmaps, m) != 0) {
        mipmap_free(m);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    *handle = (CUmipmappedArray)m;
    return CUDA_SUCCESS;
}

static CUresult CUDAAPI f_cuMipmappedArrayCreate(CUmipmappedArray *handle,
                                                 const CUDA_ARRAY3D_DESCRIPTOR *d,
                                                 unsigned int levels)
{
    CUresult rc = fake_enter("cuMipmappedArrayCreate", "Width=%zu Height=%zu Depth=%zu "
                             "Format=0x%x NumChannels=%u Flags=0x%x levels=%u",
                             d ? d->Width : 0, d ? d->Height : 0, d ? d->Depth : 0,
                             d ? (unsigned)d->Format : 0, d ? d->NumChannels : 0,
                             d ? d->Flags : 0, levels);
    if (rc == CUDA_SUCCESS)
        rc = fake_mipmap_create(handle, d, levels);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuMipmappedArrayGetLevel(CUarray *out, CUmipmappedArray handle,
                                                   unsigned int level)
{
    CUresult rc = fake_enter("cuMipmappedArrayGetLevel", "mipmap=%p level=%u", (void *)handle,
                             level);
    fake_mipmap *m = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && !out)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && !(m = find_mipmap(handle, NULL)))
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS && level >= m->levels)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        *out = (CUarray)m->level[level];
    return fake_leave(rc);
}

void fake_mipmap_drop(CUmipmappedArray handle)
{
    size_t index = 0;
    fake_mipmap *m = find_mipmap(handle, &index);
    if (m) {
        fake_vec_remove(&mipmaps, index);
        mipmap_free(m);
    }
}

static CUresult CUDAAPI f_cuMipmappedArrayDestroy(CUmipmappedArray handle)
{
    CUresult rc = fake_enter("cuMipmappedArrayDestroy", "mipmap=%p", (void *)handle);
    fake_mipmap *m = NULL;
    size_t index = 0;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && !(m = find_mipmap(handle, &index)))
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS) {
        fake_vec_remove(&mipmaps, index);
        mipmap_free(m);
    }
    return fake_leave(rc);
}

CUmipmappedArray fake_mipmap_new(const CUDA_ARRAY3D_DESCRIPTOR *d, unsigned levels)
{
    CUmipmappedArray handle = NULL;
    return fake_mipmap_create(&handle, d, levels) == CUDA_SUCCESS ? handle : NULL;
}

void fake_mipmap_release(CUmipmappedArray handle)
{
    fake_mipmap_drop(handle);
}

/* ---- texture and surface objects ------------------------------------------------------------ */

/* Whether a resource descriptor names something that exists. */
static CUresult check_resource(const CUDA_RESOURCE_DESC *r)
{
    switch (r->resType) {
    case CU_RESOURCE_TYPE_ARRAY:
        return find_array(r->res.array.hArray) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
    case CU_RESOURCE_TYPE_MIPMAPPED_ARRAY:
        return find_mipmap(r->res.mipmap.hMipmappedArray, NULL) ? CUDA_SUCCESS
                                                                : CUDA_ERROR_INVALID_HANDLE;
    case CU_RESOURCE_TYPE_LINEAR: {
        size_t element = format_element_size(r->res.linear.format, r->res.linear.numChannels);
        const unsigned char *p = (const unsigned char *)(uintptr_t)r->res.linear.devPtr;
        if (!element || !r->res.linear.sizeInBytes ||
            !fake_is_device_range(p, r->res.linear.sizeInBytes))
            return CUDA_ERROR_INVALID_VALUE;
        return CUDA_SUCCESS;
    }
    case CU_RESOURCE_TYPE_PITCH2D: {
        size_t element = format_element_size(r->res.pitch2D.format, r->res.pitch2D.numChannels);
        const unsigned char *p = (const unsigned char *)(uintptr_t)r->res.pitch2D.devPtr;
        size_t width = r->res.pitch2D.width, height = r->res.pitch2D.height;
        size_t pitch = r->res.pitch2D.pitchInBytes;
        if (!element || !width || !height || pitch < width * element ||
            !fake_is_device_range(p, pitch * (height - 1) + width * element))
            return CUDA_ERROR_INVALID_VALUE;
        return CUDA_SUCCESS;
    }
    default:
        return CUDA_ERROR_INVALID_VALUE;
    }
}

static CUresult object_new(unsigned long long *out, int surface, const CUDA_RESOURCE_DESC *res,
                           const CUDA_TEXTURE_DESC *tex, const CUDA_RESOURCE_VIEW_DESC *view)
{
    fake_object *o = calloc(1, sizeof *o);
    if (!o)
        return CUDA_ERROR_OUT_OF_MEMORY;
    o->surface = surface;
    o->res = *res;
    if (tex)
        o->tex = *tex;
    if (view) {
        o->view = *view;
        o->has_view = 1;
    }
    o->id = next_object_id++;
    if (fake_vec_push(&objects, o) != 0) {
        free(o);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    *out = o->id;
    return CUDA_SUCCESS;
}

static CUresult CUDAAPI f_cuTexObjectCreate(CUtexObject *out, const CUDA_RESOURCE_DESC *res,
                                            const CUDA_TEXTURE_DESC *tex,
                                            const CUDA_RESOURCE_VIEW_DESC *view)
{
    CUresult rc = fake_enter("cuTexObjectCreate", "resType=%d address=%d,%d,%d filter=%d "
                             "flags=0x%x maxAnisotropy=%u view=%s",
                             res ? (int)res->resType : -1, tex ? (int)tex->addressMode[0] : -1,
                             tex ? (int)tex->addressMode[1] : -1,
                             tex ? (int)tex->addressMode[2] : -1,
                             tex ? (int)tex->filterMode : -1, tex ? tex->flags : 0,
                             tex ? tex->maxAnisotropy : 0, view ? "yes" : "no");
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && (!out || !res || !tex))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = check_resource(res);
    if (rc == CUDA_SUCCESS)
        rc = object_new(out, 0, res, tex, view);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuSurfObjectCreate(CUsurfObject *out, const CUDA_RESOURCE_DESC *res)
{
    CUresult rc = fake_enter("cuSurfObjectCreate", "resType=%d", res ? (int)res->resType : -1);
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && (!out || !res))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && res->resType != CU_RESOURCE_TYPE_ARRAY)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = check_resource(res);
    if (rc == CUDA_SUCCESS &&
        !(find_array(res->res.array.hArray)->desc.Flags & CUDA_ARRAY3D_SURFACE_LDST))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = object_new(out, 1, res, NULL, NULL);
    return fake_leave(rc);
}

static CUresult object_destroy(unsigned long long id, int surface)
{
    size_t index = 0;
    CUresult rc = fake_need_ctx(NULL);
    fake_object *o = NULL;
    if (rc == CUDA_SUCCESS && !(o = find_object(id, surface, &index)))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS) {
        fake_vec_remove(&objects, index);
        free(o);
    }
    return rc;
}

static CUresult CUDAAPI f_cuTexObjectDestroy(CUtexObject id)
{
    CUresult rc = fake_enter("cuTexObjectDestroy", "texObject=%llu", id);
    if (rc == CUDA_SUCCESS)
        rc = object_destroy(id, 0);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuSurfObjectDestroy(CUsurfObject id)
{
    CUresult rc = fake_enter("cuSurfObjectDestroy", "surfObject=%llu", id);
    if (rc == CUDA_SUCCESS)
        rc = object_destroy(id, 1);
    return fake_leave(rc);
}

/* The object `id` for a Get*Desc call, or the error that call returns. */
static CUresult object_get(unsigned long long id, int surface, const void *out, fake_object **o)
{
    CUresult rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && !out)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && !(*o = find_object(id, surface, NULL)))
        rc = CUDA_ERROR_INVALID_VALUE;
    return rc;
}

static CUresult CUDAAPI f_cuTexObjectGetResourceDesc(CUDA_RESOURCE_DESC *out, CUtexObject id)
{
    CUresult rc = fake_enter("cuTexObjectGetResourceDesc", "texObject=%llu", id);
    fake_object *o = NULL;
    if (rc == CUDA_SUCCESS)
        rc = object_get(id, 0, out, &o);
    if (rc == CUDA_SUCCESS)
        *out = o->res;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuTexObjectGetTextureDesc(CUDA_TEXTURE_DESC *out, CUtexObject id)
{
    CUresult rc = fake_enter("cuTexObjectGetTextureDesc", "texObject=%llu", id);
    fake_object *o = NULL;
    if (rc == CUDA_SUCCESS)
        rc = object_get(id, 0, out, &o);
    if (rc == CUDA_SUCCESS)
        *out = o->tex;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuTexObjectGetResourceViewDesc(CUDA_RESOURCE_VIEW_DESC *out,
                                                         CUtexObject id)
{
    CUresult rc = fake_enter("cuTexObjectGetResourceViewDesc", "texObject=%llu", id);
    fake_object *o = NULL;
    if (rc == CUDA_SUCCESS)
        rc = object_get(id, 0, out, &o);
    if (rc == CUDA_SUCCESS && !o->has_view)
        rc = CUDA_ERROR_INVALID_VALUE;             /* created without a view */
    if (rc == CUDA_SUCCESS)
        *out = o->view;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuSurfObjectGetResourceDesc(CUDA_RESOURCE_DESC *out, CUsurfObject id)
{
    CUresult rc = fake_enter("cuSurfObjectGetResourceDesc", "surfObject=%llu", id);
    fake_object *o = NULL;
    if (rc == CUDA_SUCCESS)
        rc = object_get(id, 1, out, &o);
    if (rc == CUDA_SUCCESS)
        *out = o->res;
    return fake_leave(rc);
}

/* ---- test API of this area (dlsym'd by tests/api/array) ------------------------------------- */

/* Live arrays created with cuArrayCreate / cuArray3DCreate (levels of mipmapped arrays and
 * planes not counted), live mipmapped arrays, live texture plus surface objects. */
FAKE_EXPORT void fake_array_live(size_t *arrays_out, size_t *mipmaps_out, size_t *objects_out);
FAKE_EXPORT void fake_array_live(size_t *arrays_out, size_t *mipmaps_out, size_t *objects_out)
{
    pthread_mutex_lock(&fake_g.lock);
    size_t own = 0;
    for (size_t i = 0; i < arrays.count; i++)
        own += !((fake_array *)arrays.items[i])->owned_by_mipmap &&
               !((fake_array *)arrays.items[i])->parent;
    if (arrays_out)
        *arrays_out = own;
    if (mipmaps_out)
        *mipmaps_out = mipmaps.count;
    if (objects_out)
        *objects_out = objects.count;
    pthread_mutex_unlock(&fake_g.lock);
}

/* The host storage of a live array and its size in bytes; NULL when `array` is not one. */
FAKE_EXPORT void *fake_array_storage(void *array, size_t *bytes);
FAKE_EXPORT void *fake_array_storage(void *array, size_t *bytes)
{
    pthread_mutex_lock(&fake_g.lock);
    unsigned char *storage = NULL;
    size_t width = 0, height = 0, depth = 0;
    if (fake_array_lookup((CUarray)array, &storage, &width, &height, &depth) == 0 && bytes)
        *bytes = width * height * depth;
    pthread_mutex_unlock(&fake_g.lock);
    return storage;
}

const proc_entry fake_procs_array[] = {
    {"cuArrayCreate", 3020, 99999, (void *)f_cuArrayCreate},
    {"cuArray3DCreate", 3020, 99999, (void *)f_cuArray3DCreate},
    {"cuArrayDestroy", 2000, 99999, (void *)f_cuArrayDestroy},
    {"cuArrayGetDescriptor", 3020, 99999, (void *)f_cuArrayGetDescriptor},
    {"cuArray3DGetDescriptor", 3020, 99999, (void *)f_cuArray3DGetDescriptor},
    {"cuArrayGetMemoryRequirements", 11060, 99999, (void *)f_cuArrayGetMemoryRequirements},
    {"cuMipmappedArrayCreate", 5000, 99999, (void *)f_cuMipmappedArrayCreate},
    {"cuMipmappedArrayGetLevel", 5000, 99999, (void *)f_cuMipmappedArrayGetLevel},
    {"cuMipmappedArrayDestroy", 5000, 99999, (void *)f_cuMipmappedArrayDestroy},
    {"cuTexObjectCreate", 5000, 99999, (void *)f_cuTexObjectCreate},
    {"cuTexObjectDestroy", 5000, 99999, (void *)f_cuTexObjectDestroy},
    {"cuTexObjectGetResourceDesc", 5000, 99999, (void *)f_cuTexObjectGetResourceDesc},
    {"cuTexObjectGetTextureDesc", 5000, 99999, (void *)f_cuTexObjectGetTextureDesc},
    {"cuTexObjectGetResourceViewDesc", 5000, 99999, (void *)f_cuTexObjectGetResourceViewDesc},
    {"cuSurfObjectCreate", 5000, 99999, (void *)f_cuSurfObjectCreate},
    {"cuSurfObjectDestroy", 5000, 99999, (void *)f_cuSurfObjectDestroy},
    {"cuSurfObjectGetResourceDesc", 5000, 99999, (void *)f_cuSurfObjectGetResourceDesc},
    {NULL, 0, 0, NULL},
};
