/*
 * fake_graphics.c - the fake driver's graphics interop: OpenGL buffers and images registered as
 * resources, mapping, their mapped pointer and arrays, the legacy buffer objects
 * (EGL and VDPAU: fake_graphics_egl.c).  The GL/EGL/VDPAU types come from
 * lib/interop/graphics_types.h (the toolkit's interop headers need the graphics libraries' own).
 *
 * What it models, and how strictly:
 *   - No GL context exists until a test says one does (fake_graphics_set_gl_context): until
 *     then cuGLGetDevices and every GL registration answer CUDA_ERROR_INVALID_GRAPHICS_CONTEXT.
 *     With one, cuGLGetDevices names device 0, and GL object names are any non-zero number
 *     (0 is never a GL object: CUDA_ERROR_INVALID_VALUE).
 *   - A registered buffer is a device allocation (in fake_g.allocs, so copies reach it) of
 *     fake_graphics_set_buffer_size bytes (4096 by default), freed when unregistered.  A
 *     registered image is a mipmapped array of 64x64 RGBA8 texels, 2 levels, owned by the
 *     resource; targets GL_TEXTURE_2D, GL_TEXTURE_RECTANGLE and GL_RENDERBUFFER only (others:
 *     CUDA_ERROR_INVALID_VALUE; cube maps, 3D and array textures are not modelled).
 *   - Register flags: bits beyond READ_ONLY | WRITE_DISCARD | SURFACE_LDST | TEXTURE_GATHER, or
 *     READ_ONLY with WRITE_DISCARD, are CUDA_ERROR_INVALID_VALUE; SURFACE_LDST and
 *     TEXTURE_GATHER on a buffer too.  Map flags above WRITE_DISCARD are INVALID_VALUE.
 *   - Mapping: a resource is mapped or not.  Mapping a mapped one (or one twice in a list) is
 *     CUDA_ERROR_ALREADY_MAPPED and maps none of the list; unmapping an unmapped one
 *     CUDA_ERROR_NOT_MAPPED; a zero count or NULL list CUDA_ERROR_INVALID_VALUE; a dead stream
 *     CUDA_ERROR_INVALID_HANDLE.  The mapped pointer of an image is
 *     CUDA_ERROR_NOT_MAPPED_AS_POINTER, the mapped array of a buffer NOT_MAPPED_AS_ARRAY, either
 *     of an unmapped resource NOT_MAPPED.  Map flags cannot change while mapped
 *     (ALREADY_MAPPED).  Unregistering a mapped resource unmaps it.  Unknown handles are
 *     CUDA_ERROR_INVALID_HANDLE.
 *   - Legacy buffer objects (cuGLRegisterBufferObject ...): a registration per buffer name,
 *     with the same state machine; an unregistered name is CUDA_ERROR_INVALID_VALUE, and so is
 *     registering one twice.
 *   - EGL is absent, as on a machine without an EGL display, until a test gives a frame
 *     (fake_graphics_set_egl_frame): then an EGL image registers as a resource whose mapped
 *     frame is that frame; EGLStreams connect for any non-NULL stream (a producer's presented
 *     frame is what the consumer acquires, as a mapped EGL resource, and what the producer gets
 *     back; nothing waiting is CUDA_ERROR_LAUNCH_TIMEOUT); an EGL sync gives an event.  Without
 *     EGL every image, stream and sync is CUDA_ERROR_INVALID_VALUE.
 *   - VDPAU is absent: every VdpDevice and surface is CUDA_ERROR_INVALID_VALUE.
 */
#include "memory/fake_array.h"
#include "fake_internal.h"

#include "interop/fake_graphics.h"

#include <stdlib.h>
#include <string.h>

#define FAKE_EXPORT __attribute__((visibility("default")))

#define GL_TEXTURE_2D 0x0DE1
#define GL_TEXTURE_RECTANGLE 0x84F5
#define GL_RENDERBUFFER 0x8D41

static ptr_vec resources;
fake_resource *fake_gfx_acquired;   /* the EGLStream consumer's frame, until released */
static int gl_context;
static size_t buffer_size = 4096;

fake_resource *fake_gfx_find(CUgraphicsResource handle, size_t *index)
{
    for (size_t i = 0; i < resources.count; i++)
        if (resources.items[i] == (void *)handle) {
            if (index)
                *index = i;
            return resources.items[i];
        }
    return NULL;
}

static fake_resource *find_legacy(unsigned name)
{
    for (size_t i = 0; i < resources.count; i++) {
        fake_resource *r = resources.items[i];
        if (r->legacy && r->name == name)
            return r;
    }
    return NULL;
}

CUresult fake_gfx_new(int kind, unsigned name, fake_resource **out)
{
    fake_resource *r = calloc(1, sizeof *r);
    if (!r || fake_vec_push(&resources, r) != 0) {
        free(r);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    r->kind = kind;
    r->name = name;
    *out = r;
    return CUDA_SUCCESS;
}

void fake_gfx_free(fake_resource *r)
{
    size_t index = 0;
    if (fake_gfx_find((CUgraphicsResource)r, &index))
        fake_vec_remove(&resources, index);
    if (r->storage) {
        size_t at = 0;
        fake_alloc *a = fake_find_alloc(r->storage, &at);
        if (a) {          /* gone already when its context was reset */
            fake_vec_remove(&fake_g.allocs, at);
            free(a->ptr);
            free(a);
        }
    }
    if (r->mipmap)
        fake_mipmap_release(r->mipmap);
    if (fake_gfx_acquired == r)
        fake_gfx_acquired = NULL;
    free(r);
}

static CUresult check_register_flags(unsigned flags, int buffer)
{
    const unsigned known = CU_GRAPHICS_REGISTER_FLAGS_READ_ONLY |
                           CU_GRAPHICS_REGISTER_FLAGS_WRITE_DISCARD |
                           CU_GRAPHICS_REGISTER_FLAGS_SURFACE_LDST |
                           CU_GRAPHICS_REGISTER_FLAGS_TEXTURE_GATHER;
    const unsigned both = CU_GRAPHICS_REGISTER_FLAGS_READ_ONLY |
                          CU_GRAPHICS_REGISTER_FLAGS_WRITE_DISCARD;
    if ((flags & ~known) || (flags & both) == both)
        return CUDA_ERROR_INVALID_VALUE;
    if (buffer && (flags & (CU_GRAPHICS_REGISTER_FLAGS_SURFACE_LDST |
                            CU_GRAPHICS_REGISTER_FLAGS_TEXTURE_GATHER)))
        return CUDA_ERROR_INVALID_VALUE;
    return CUDA_SUCCESS;
}

/* A buffer resource's storage: a device allocation of buffer_size bytes. */
static CUresult buffer_new(unsigned name, int legacy, fake_resource **out)
{
    CUdeviceptr p = 0;
    CUresult rc = fake_mem_alloc(&p, buffer_size, 0);
    if (rc != CUDA_SUCCESS)
        return rc;
    rc = fake_gfx_new(RES_BUFFER, name, out);
    if (rc != CUDA_SUCCESS) {
        size_t at = 0;
        fake_alloc *a = fake_find_alloc((void *)(uintptr_t)p, &at);
        fake_vec_remove(&fake_g.allocs, at);
        free(a->ptr);
        free(a);
        return rc;
    }
    (*out)->storage = (unsigned char *)(uintptr_t)p;
    (*out)->size = buffer_size;
    (*out)->legacy = legacy;
    return CUDA_SUCCESS;
}

/* ---- OpenGL --------------------------------------------------------------------------------- */

static CUresult CUDAAPI f_cuGraphicsGLRegisterBuffer(CUgraphicsResource *pRes, GLuint buffer,
                                                     unsigned int flags)
{
    CUresult rc = fake_enter("cuGraphicsGLRegisterBuffer", "buffer=%u flags=0x%x", buffer, flags);
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && !pRes)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && !gl_context)
        rc = CUDA_ERROR_INVALID_GRAPHICS_CONTEXT;
    if (rc == CUDA_SUCCESS && buffer == 0)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = check_register_flags(flags, 1);
    fake_resource *r = NULL;
    if (rc == CUDA_SUCCESS)
        rc = buffer_new(buffer, 0, &r);
    if (rc == CUDA_SUCCESS)
        *pRes = (CUgraphicsResource)r;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphicsGLRegisterImage(CUgraphicsResource *pRes, GLuint image,
                                                    GLenum target, unsigned int flags)
{
    CUresult rc = fake_enter("cuGraphicsGLRegisterImage", "image=%u target=0x%x flags=0x%x",
                             image, target, flags);
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && !pRes)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && !gl_context)
        rc = CUDA_ERROR_INVALID_GRAPHICS_CONTEXT;
    if (rc == CUDA_SUCCESS && (image == 0 || (target != GL_TEXTURE_2D &&
                                              target != GL_TEXTURE_RECTANGLE &&
                                              target != GL_RENDERBUFFER)))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = check_register_flags(flags, 0);
    fake_resource *r = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_gfx_new(RES_IMAGE, image, &r);
    if (rc == CUDA_SUCCESS) {
        CUDA_ARRAY3D_DESCRIPTOR d = {.Width = 64, .Height = 64,
                                     .Format = CU_AD_FORMAT_UNSIGNED_INT8, .NumChannels = 4};
        if (flags & CU_GRAPHICS_REGISTER_FLAGS_SURFACE_LDST)
            d.Flags |= CUDA_ARRAY3D_SURFACE_LDST;
        if (!(r->mipmap = fake_mipmap_new(&d, 2))) {
            fake_gfx_free(r);
            rc = CUDA_ERROR_OUT_OF_MEMORY;
        }
    }
    if (rc == CUDA_SUCCESS)
        *pRes = (CUgraphicsResource)r;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGLGetDevices(unsigned int *pCount, CUdevice *pDevices,
                                         unsigned int count, CUGLDeviceList list)
{
    CUresult rc = fake_enter("cuGLGetDevices", "count=%u list=%d", count, (int)list);
    if (rc == CUDA_SUCCESS)
        rc = fake_need_init();
    if (rc == CUDA_SUCCESS && (!pCount || (count && !pDevices) || list < CU_GL_DEVICE_LIST_ALL ||
                               list > CU_GL_DEVICE_LIST_NEXT_FRAME))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && !gl_context)
        rc = CUDA_ERROR_INVALID_GRAPHICS_CONTEXT;
    if (rc == CUDA_SUCCESS) {
        *pCount = 1;
        if (count)
            pDevices[0] = 0;
    }
    return fake_leave(rc);
}

/* ---- resources ------------------------------------------------------------------------------ */

static CUresult map_list(int map, unsigned count, CUgraphicsResource *list, CUstream stream)
{
    CUresult rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && (count == 0 || !list))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = fake_stream_check(stream);
    for (unsigned i = 0; rc == CUDA_SUCCESS && i < count; i++) {
        fake_resource *r = fake_gfx_find(list[i], NULL);
        if (!r)
            rc = CUDA_ERROR_INVALID_HANDLE;
        else if (map && r->mapped)
            rc = CUDA_ERROR_ALREADY_MAPPED;
        else if (!map && !r->mapped)
            rc = CUDA_ERROR_NOT_MAPPED;
        for (unsigned j = 0; rc == CUDA_SUCCESS && j < i; j++)
            if (list[j] == list[i])
                rc = map ? CUDA_ERROR_ALREADY_MAPPED : CUDA_ERROR_NOT_MAPPED;
    }
    for (unsigned i = 0; rc == CUDA_SUCCESS && i < count; i++)
        fake_gfx_find(list[i], NULL)->mapped = map;
    return rc;
}

static CUresult CUDAAPI f_cuGraphicsMapResources(unsigned int count, CUgraphicsResource *list,
                                                 CUstream stream)
{
    CUresult rc = fake_enter("cuGraphicsMapResources", "count=%u resource=%p stream=%p", count,
                             list && count ? (void *)list[0] : NULL, (void *)stream);
    if (rc == CUDA_SUCCESS)
        rc = map_list(1, count, list, stream);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphicsUnmapResources(unsigned int count, CUgraphicsResource *list,
                                                   CUstream stream)
{
    CUresult rc = fake_enter("cuGraphicsUnmapResources", "count=%u resource=%p stream=%p", count,
                             list && count ? (void *)list[0] : NULL, (void *)stream);
    if (rc == CUDA_SUCCESS)
        rc = map_list(0, count, list, stream);
    return fake_leave(rc);
}

/* The checks every query of a mapped resource starts with. */
CUresult fake_gfx_need_mapped(const void *out, CUgraphicsResource handle, fake_resource **r)
{
    CUresult rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && !out)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && !(*r = fake_gfx_find(handle, NULL)))
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS && !(*r)->mapped)
        rc = CUDA_ERROR_NOT_MAPPED;
    return rc;
}

static CUresult CUDAAPI f_cuGraphicsResourceGetMappedPointer(CUdeviceptr *pDevPtr, size_t *pSize,
                                                             CUgraphicsResource handle)
{
    CUresult rc = fake_enter("cuGraphicsResourceGetMappedPointer", "resource=%p",
                             (void *)handle);
    fake_resource *r = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_gfx_need_mapped(pDevPtr, handle, &r);
    if (rc == CUDA_SUCCESS && r->kind != RES_BUFFER)
        rc = CUDA_ERROR_NOT_MAPPED_AS_POINTER;
    if (rc == CUDA_SUCCESS) {
        *pDevPtr = (CUdeviceptr)(uintptr_t)r->storage;
        if (pSize)
            *pSize = r->size;
    }
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphicsResourceSetMapFlags(CUgraphicsResource handle,
                                                        unsigned int flags)
{
    CUresult rc = fake_enter("cuGraphicsResourceSetMapFlags", "resource=%p flags=0x%x",
                             (void *)handle, flags);
    fake_resource *r = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && flags > CU_GRAPHICS_MAP_RESOURCE_FLAGS_WRITE_DISCARD)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && !(r = fake_gfx_find(handle, NULL)))
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS && r->mapped)
        rc = CUDA_ERROR_ALREADY_MAPPED;
    if (rc == CUDA_SUCCESS)
        r->map_flags = flags;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphicsSubResourceGetMappedArray(CUarray *pArray,
                                                              CUgraphicsResource handle,
                                                              unsigned int index,
                                                              unsigned int level)
{
    CUresult rc = fake_enter("cuGraphicsSubResourceGetMappedArray",
                             "resource=%p index=%u level=%u", (void *)handle, index, level);
    fake_resource *r = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_gfx_need_mapped(pArray, handle, &r);
    if (rc == CUDA_SUCCESS && r->kind != RES_IMAGE)
        rc = CUDA_ERROR_NOT_MAPPED_AS_ARRAY;
    fake_mipmap *m = NULL;
    if (rc == CUDA_SUCCESS && (!(m = fake_mipmap_find(r->mipmap)) || index != 0 ||
                               level >= m->levels))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        *pArray = (CUarray)m->level[level];
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphicsResourceGetMappedMipmappedArray(CUmipmappedArray *pMipmap,
                                                                    CUgraphicsResource handle)
{
    CUresult rc = fake_enter("cuGraphicsResourceGetMappedMipmappedArray", "resource=%p",
                             (void *)handle);
    fake_resource *r = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_gfx_need_mapped(pMipmap, handle, &r);
    if (rc == CUDA_SUCCESS && r->kind != RES_IMAGE)
        rc = CUDA_ERROR_NOT_MAPPED_AS_ARRAY;
    if (rc == CUDA_SUCCESS)
        *pMipmap = r->mipmap;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphicsUnregisterResource(CUgraphicsResource handle)
{
    CUresult rc = fake_enter("cuGraphicsUnregisterResource", "resource=%p", (void *)handle);
    fake_resource *r = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && (!(r = fake_gfx_find(handle, NULL)) || r->legacy))
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS)
        fake_gfx_free(r);
    return fake_leave(rc);
}

/* ---- the legacy buffer objects -------------------------------------------------------------- */

static CUresult legacy_need(unsigned name, fake_resource **r)
{
    CUresult rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && !gl_context)
        rc = CUDA_ERROR_INVALID_GRAPHICS_CONTEXT;
    if (rc == CUDA_SUCCESS && !(*r = find_legacy(name)))
        rc = CUDA_ERROR_INVALID_VALUE;
    return rc;
}

static CUresult CUDAAPI f_cuGLRegisterBufferObject(GLuint buffer)
{
    CUresult rc = fake_enter("cuGLRegisterBufferObject", "buffer=%u", buffer);
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && !gl_context)
        rc = CUDA_ERROR_INVALID_GRAPHICS_CONTEXT;
    if (rc == CUDA_SUCCESS && (buffer == 0 || find_legacy(buffer)))
        rc = CUDA_ERROR_INVALID_VALUE;
    fake_resource *r = NULL;
    if (rc == CUDA_SUCCESS)
        rc = buffer_new(buffer, 1, &r);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGLUnregisterBufferObject(GLuint buffer)
{
    CUresult rc = fake_enter("cuGLUnregisterBufferObject", "buffer=%u", buffer);
    fake_resource *r = NULL;
    if (rc == CUDA_SUCCESS)
        rc = legacy_need(buffer, &r);
    if (rc == CUDA_SUCCESS)
        fake_gfx_free(r);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGLSetBufferObjectMapFlags(GLuint buffer, unsigned int flags)
{
    CUresult rc = fake_enter("cuGLSetBufferObjectMapFlags", "buffer=%u flags=0x%x", buffer,
                             flags);
    fake_resource *r = NULL;
    if (rc == CUDA_SUCCESS)
        rc = legacy_need(buffer, &r);
    if (rc == CUDA_SUCCESS && flags > CU_GL_MAP_RESOURCE_FLAGS_WRITE_DISCARD)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && r->mapped)
        rc = CUDA_ERROR_ALREADY_MAPPED;
    if (rc == CUDA_SUCCESS)
        r->map_flags = flags;
    return fake_leave(rc);
}

static CUresult legacy_map(CUdeviceptr *dptr, size_t *size, GLuint buffer, CUstream stream)
{
    fake_resource *r = NULL;
    CUresult rc = legacy_need(buffer, &r);
    if (rc == CUDA_SUCCESS && !dptr)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = fake_stream_check(stream);
    if (rc == CUDA_SUCCESS && r->mapped)
        rc = CUDA_ERROR_ALREADY_MAPPED;
    if (rc == CUDA_SUCCESS) {
        r->mapped = 1;
        *dptr = (CUdeviceptr)(uintptr_t)r->storage;
        if (size)
            *size = r->size;
    }
    return rc;
}

static CUresult CUDAAPI f_cuGLMapBufferObject(CUdeviceptr *dptr, size_t *size, GLuint buffer)
{
    CUresult rc = fake_enter("cuGLMapBufferObject", "buffer=%u", buffer);
    if (rc == CUDA_SUCCESS)
        rc = legacy_map(dptr, size, buffer, NULL);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGLMapBufferObjectAsync(CUdeviceptr *dptr, size_t *size,
                                                   GLuint buffer, CUstream stream)
{
    CUresult rc = fake_enter("cuGLMapBufferObjectAsync", "buffer=%u stream=%p", buffer,
                             (void *)stream);
    if (rc == CUDA_SUCCESS)
        rc = legacy_map(dptr, size, buffer, stream);
    return fake_leave(rc);
}

static CUresult legacy_unmap(GLuint buffer, CUstream stream)
{
    fake_resource *r = NULL;
    CUresult rc = legacy_need(buffer, &r);
    if (rc == CUDA_SUCCESS)
        rc = fake_stream_check(stream);
    if (rc == CUDA_SUCCESS && !r->mapped)
        rc = CUDA_ERROR_NOT_MAPPED;
    if (rc == CUDA_SUCCESS)
        r->mapped = 0;
    return rc;
}

static CUresult CUDAAPI f_cuGLUnmapBufferObject(GLuint buffer)
{
    CUresult rc = fake_enter("cuGLUnmapBufferObject", "buffer=%u", buffer);
    if (rc == CUDA_SUCCESS)
        rc = legacy_unmap(buffer, NULL);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGLUnmapBufferObjectAsync(GLuint buffer, CUstream stream)
{
    CUresult rc = fake_enter("cuGLUnmapBufferObjectAsync", "buffer=%u stream=%p", buffer,
                             (void *)stream);
    if (rc == CUDA_SUCCESS)
        rc = legacy_unmap(buffer, stream);
    return fake_leave(rc);
}

/* ---- the test API (found with dlsym, like fake_array_live) ----------------------------------- */

FAKE_EXPORT void fake_graphics_set_gl_context(int present);
FAKE_EXPORT void fake_graphics_set_gl_context(int present)
{
    fake_lock();
    gl_context = present;
    fake_unlock();
}

FAKE_EXPORT void fake_graphics_set_buffer_size(size_t bytes);
FAKE_EXPORT void fake_graphics_set_buffer_size(size_t bytes)
{
    fake_lock();
    buffer_size = bytes;
    fake_unlock();
}

/* Live resources (EGLStream connections: fake_graphics_connections). */
FAKE_EXPORT size_t fake_graphics_resources(void);
FAKE_EXPORT size_t fake_graphics_resources(void)
{
    fake_lock();
    size_t n = resources.count;
    fake_unlock();
    return n;
}

const proc_entry fake_procs_graphics[] = {
    {"cuGraphicsGLRegisterBuffer", 3000, 99999, (void *)f_cuGraphicsGLRegisterBuffer},
    {"cuGraphicsGLRegisterImage", 3000, 99999, (void *)f_cuGraphicsGLRegisterImage},
    {"cuGLGetDevices", 6050, 99999, (void *)f_cuGLGetDevices},
    {"cuGLRegisterBufferObject", 2000, 99999, (void *)f_cuGLRegisterBufferObject},
    {"cuGLUnregisterBufferObject", 2000, 99999, (void *)f_cuGLUnregisterBufferObject},
    {"cuGLSetBufferObjectMapFlags", 2030, 99999, (void *)f_cuGLSetBufferObjectMapFlags},
    {"cuGLMapBufferObject", 3020, 99999, (void *)f_cuGLMapBufferObject},
    {"cuGLMapBufferObjectAsync", 3020, 99999, (void *)f_cuGLMapBufferObjectAsync},
    {"cuGLUnmapBufferObject", 2000, 99999, (void *)f_cuGLUnmapBufferObject},
    {"cuGLUnmapBufferObjectAsync", 2030, 99999, (void *)f_cuGLUnmapBufferObjectAsync},
    {"cuGraphicsMapResources", 3000, 99999, (void *)f_cuGraphicsMapResources},
    {"cuGraphicsUnmapResources", 3000, 99999, (void *)f_cuGraphicsUnmapResources},
    {"cuGraphicsResourceGetMappedPointer", 3020, 99999,
     (void *)f_cuGraphicsResourceGetMappedPointer},
    {"cuGraphicsResourceSetMapFlags", 6050, 99999, (void *)f_cuGraphicsResourceSetMapFlags},
    {"cuGraphicsSubResourceGetMappedArray", 3000, 99999,
     (void *)f_cuGraphicsSubResourceGetMappedArray},
    {"cuGraphicsResourceGetMappedMipmappedArray", 5000, 99999,
     (void *)f_cuGraphicsResourceGetMappedMipmappedArray},
    {"cuGraphicsUnregisterResource", 3000, 99999, (void *)f_cuGraphicsUnregisterResource},
    {NULL, 0, 0, NULL},
};
