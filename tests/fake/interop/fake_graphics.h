/*
 * fake_graphics.h - what the fake's graphics files share: fake_graphics.c (GL, the resources and
 * their mapping) and fake_graphics_egl.c (EGL images, EGLStreams, VDPAU).
 */
#ifndef MINICUDART_FAKE_GRAPHICS_H
#define MINICUDART_FAKE_GRAPHICS_H

#include "fake_internal.h"

#include "../../../lib/interop/graphics_types.h"

enum { RES_BUFFER, RES_IMAGE, RES_EGL };

typedef struct fake_resource {
    int kind;
    unsigned name;               /* the GL object (0 for EGL) */
    int legacy;                  /* made by cuGLRegisterBufferObject */
    unsigned map_flags;
    int mapped;
    unsigned char *storage;      /* a buffer's allocation (in fake_g.allocs) */
    size_t size;
    CUmipmappedArray mipmap;     /* an image's */
    CUeglFrame frame;            /* an EGL resource's */
} fake_resource;

/* With the fake's lock held: the live resource of a handle (and its index), or NULL; a new
 * resource of a kind; freeing one (its buffer storage or mipmapped array with it). */
fake_resource *fake_gfx_find(CUgraphicsResource handle, size_t *index);
CUresult fake_gfx_new(int kind, unsigned name, fake_resource **out);
void fake_gfx_free(fake_resource *r);
/* The checks of every query of a mapped resource: context, out non-NULL, a live and mapped
 * handle. */
CUresult fake_gfx_need_mapped(const void *out, CUgraphicsResource handle, fake_resource **r);
/* The frame an EGLStream consumer holds, until it releases it (NULL when none). */
extern fake_resource *fake_gfx_acquired;

#endif
