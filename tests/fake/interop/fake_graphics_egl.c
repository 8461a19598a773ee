/*
 * fake_graphics_egl.c - the fake driver's EGL and VDPAU interop: EGL images as resources (the
 * resources of fake_graphics.c), their mapped frames, EGLStreams, events from EGL syncs; VDPAU.
 * What it models: see fake_graphics.c.
 */
#include "interop/fake_graphics.h"

#include <stdlib.h>
#include <string.h>

#define FAKE_EXPORT __attribute__((visibility("default")))

typedef struct fake_connection {
    int producer;
    EGLStreamKHR stream;
} fake_connection;

static ptr_vec connections;
static int egl_present;
static CUeglFrame egl_frame;
static int presented;             /* a frame waits in the stream (one slot) */
static CUeglFrame presented_frame;

/* ---- EGL ------------------------------------------------------------------------------------ */

static CUresult CUDAAPI f_cuGraphicsEGLRegisterImage(CUgraphicsResource *pRes, EGLImageKHR image,
                                                     unsigned int flags)
{
    CUresult rc = fake_enter("cuGraphicsEGLRegisterImage", "image=%p flags=0x%x", image, flags);
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && (!pRes || !image || !egl_present ||
                               flags > CU_GRAPHICS_REGISTER_FLAGS_WRITE_DISCARD))
        rc = CUDA_ERROR_INVALID_VALUE;
    fake_resource *r = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_gfx_new(RES_EGL, 0, &r);
    if (rc == CUDA_SUCCESS) {
        r->frame = egl_frame;
        *pRes = (CUgraphicsResource)r;
    }
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphicsResourceGetMappedEglFrame(CUeglFrame *frame,
                                                              CUgraphicsResource handle,
                                                              unsigned int index,
                                                              unsigned int level)
{
    CUresult rc = fake_enter("cuGraphicsResourceGetMappedEglFrame",
                             "resource=%p index=%u level=%u", (void *)handle, index, level);
    fake_resource *r = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_gfx_need_mapped(frame, handle, &r);
    if (rc == CUDA_SUCCESS && (r->kind != RES_EGL || index != 0 || level != 0))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        *frame = r->frame;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuEventCreateFromEGLSync(CUevent *event, EGLSyncKHR sync,
                                                   unsigned int flags)
{
    CUresult rc = fake_enter("cuEventCreateFromEGLSync", "sync=%p flags=0x%x", sync, flags);
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && !egl_present)   /* as the H200's driver: no EGLSync interop */
        rc = CUDA_ERROR_NOT_SUPPORTED;
    if (rc == CUDA_SUCCESS && (!event || !sync))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = fake_event_new(event, flags);
    return fake_leave(rc);
}

/* ---- EGLStreams ----------------------------------------------------------------------------- */

static CUresult egl_connect(int producer, CUeglStreamConnection *conn, EGLStreamKHR stream)
{
    CUresult rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && (!conn || !stream || !egl_present))
        rc = CUDA_ERROR_INVALID_VALUE;
    fake_connection *c = NULL;
    if (rc == CUDA_SUCCESS && (!(c = calloc(1, sizeof *c)) ||
                               fake_vec_push(&connections, c) != 0)) {
        free(c);
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    }
    if (rc == CUDA_SUCCESS) {
        c->producer = producer;
        c->stream = stream;
        *conn = (CUeglStreamConnection)c;
    }
    return rc;
}

/* The live connection *conn of the given role; CUDA_ERROR_INVALID_HANDLE otherwise. */
static CUresult need_connection(int producer, CUeglStreamConnection *conn, size_t *index)
{
    CUresult rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && !conn)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc != CUDA_SUCCESS)
        return rc;
    for (size_t i = 0; i < connections.count; i++) {
        fake_connection *c = connections.items[i];
        if (c == (void *)*conn && c->producer == producer) {
            if (index)
                *index = i;
            return CUDA_SUCCESS;
        }
    }
    return CUDA_ERROR_INVALID_HANDLE;
}

static CUresult disconnect(int producer, CUeglStreamConnection *conn)
{
    size_t index = 0;
    CUresult rc = need_connection(producer, conn, &index);
    if (rc == CUDA_SUCCESS) {
        free(connections.items[index]);
        fake_vec_remove(&connections, index);
    }
    return rc;
}

static CUresult CUDAAPI f_cuEGLStreamConsumerConnect(CUeglStreamConnection *conn,
                                                     EGLStreamKHR stream)
{
    CUresult rc = fake_enter("cuEGLStreamConsumerConnect", "stream=%p", stream);
    if (rc == CUDA_SUCCESS)
        rc = egl_connect(0, conn, stream);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuEGLStreamConsumerConnectWithFlags(CUeglStreamConnection *conn,
                                                              EGLStreamKHR stream,
                                                              unsigned int flags)
{
    CUresult rc = fake_enter("cuEGLStreamConsumerConnectWithFlags", "stream=%p flags=0x%x",
                             stream, flags);
    if (rc == CUDA_SUCCESS && flags > CU_EGL_RESOURCE_LOCATION_VIDMEM)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = egl_connect(0, conn, stream);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuEGLStreamConsumerDisconnect(CUeglStreamConnection *conn)
{
    CUresult rc = fake_enter("cuEGLStreamConsumerDisconnect", "conn=%p",
                             conn ? (void *)*conn : NULL);
    if (rc == CUDA_SUCCESS)
        rc = disconnect(0, conn);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuEGLStreamConsumerAcquireFrame(CUeglStreamConnection *conn,
                                                          CUgraphicsResource *pRes,
                                                          CUstream *pStream, unsigned int timeout)
{
    CUresult rc = fake_enter("cuEGLStreamConsumerAcquireFrame", "conn=%p timeout=%u",
                             conn ? (void *)*conn : NULL, timeout);
    if (rc == CUDA_SUCCESS)
        rc = need_connection(0, conn, NULL);
    if (rc == CUDA_SUCCESS && !pRes)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && (!presented || fake_gfx_acquired))
        rc = CUDA_ERROR_LAUNCH_TIMEOUT;
    fake_resource *r = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_gfx_new(RES_EGL, 0, &r);
    if (rc == CUDA_SUCCESS) {
        r->frame = presented_frame;
        r->mapped = 1;
        fake_gfx_acquired = r;
        *pRes = (CUgraphicsResource)r;
    }
    (void)pStream;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuEGLStreamConsumerReleaseFrame(CUeglStreamConnection *conn,
                                                          CUgraphicsResource res,
                                                          CUstream *pStream)
{
    CUresult rc = fake_enter("cuEGLStreamConsumerReleaseFrame", "conn=%p resource=%p",
                             conn ? (void *)*conn : NULL, (void *)res);
    if (rc == CUDA_SUCCESS)
        rc = need_connection(0, conn, NULL);
    if (rc == CUDA_SUCCESS && (!fake_gfx_acquired || (void *)res != (void *)fake_gfx_acquired))
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS)
        fake_gfx_free(fake_gfx_acquired);
    (void)pStream;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuEGLStreamProducerConnect(CUeglStreamConnection *conn,
                                                     EGLStreamKHR stream, EGLint width,
                                                     EGLint height)
{
    CUresult rc = fake_enter("cuEGLStreamProducerConnect", "stream=%p width=%d height=%d",
                             stream, (int)width, (int)height);
    if (rc == CUDA_SUCCESS && (width <= 0 || height <= 0))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = egl_connect(1, conn, stream);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuEGLStreamProducerDisconnect(CUeglStreamConnection *conn)
{
    CUresult rc = fake_enter("cuEGLStreamProducerDisconnect", "conn=%p",
                             conn ? (void *)*conn : NULL);
    if (rc == CUDA_SUCCESS)
        rc = disconnect(1, conn);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuEGLStreamProducerPresentFrame(CUeglStreamConnection *conn,
                                                          CUeglFrame frame, CUstream *pStream)
{
    CUresult rc = fake_enter("cuEGLStreamProducerPresentFrame",
                             "conn=%p width=%u height=%u pitch=%u planes=%u channels=%u type=%d "
                             "color=%d format=0x%x", conn ? (void *)*conn : NULL, frame.width,
                             frame.height, frame.pitch, frame.planeCount, frame.numChannels,
                             (int)frame.frameType, (int)frame.eglColorFormat,
                             (unsigned)frame.cuFormat);
    if (rc == CUDA_SUCCESS)
        rc = need_connection(1, conn, NULL);
    if (rc == CUDA_SUCCESS && (frame.planeCount == 0 || frame.planeCount > MAX_PLANES))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS) {
        presented = 1;
        presented_frame = frame;
    }
    (void)pStream;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuEGLStreamProducerReturnFrame(CUeglStreamConnection *conn,
                                                         CUeglFrame *frame, CUstream *pStream)
{
    CUresult rc = fake_enter("cuEGLStreamProducerReturnFrame", "conn=%p",
                             conn ? (void *)*conn : NULL);
    if (rc == CUDA_SUCCESS)
        rc = need_connection(1, conn, NULL);
    if (rc == CUDA_SUCCESS && !frame)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && (!presented || fake_gfx_acquired))
        rc = CUDA_ERROR_LAUNCH_TIMEOUT;
    if (rc == CUDA_SUCCESS) {
        *frame = presented_frame;
        presented = 0;
    }
    (void)pStream;
    return fake_leave(rc);
}

/* ---- VDPAU ---------------------------------------------------------------------------------- */

static CUresult CUDAAPI f_cuVDPAUGetDevice(CUdevice *device, VdpDevice vdp,
                                           VdpGetProcAddress *gpa)
{
    CUresult rc = fake_enter("cuVDPAUGetDevice", "vdpDevice=%u", vdp);
    if (rc == CUDA_SUCCESS)
        rc = fake_need_init();
    if (rc == CUDA_SUCCESS)      /* no VDPAU: no VdpDevice is valid */
        rc = CUDA_ERROR_INVALID_VALUE;
    (void)device;
    (void)gpa;
    return fake_leave(rc);
}

static CUresult vdpau_register(CUgraphicsResource *pRes, unsigned flags)
{
    CUresult rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS)      /* no VDPAU: no surface is valid */
        rc = CUDA_ERROR_INVALID_VALUE;
    (void)pRes;
    (void)flags;
    return rc;
}

static CUresult CUDAAPI f_cuGraphicsVDPAURegisterVideoSurface(CUgraphicsResource *pRes,
                                                              VdpVideoSurface surface,
                                                              unsigned int flags)
{
    CUresult rc = fake_enter("cuGraphicsVDPAURegisterVideoSurface", "surface=%u flags=0x%x",
                             surface, flags);
    if (rc == CUDA_SUCCESS)
        rc = vdpau_register(pRes, flags);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphicsVDPAURegisterOutputSurface(CUgraphicsResource *pRes,
                                                               VdpOutputSurface surface,
                                                               unsigned int flags)
{
    CUresult rc = fake_enter("cuGraphicsVDPAURegisterOutputSurface", "surface=%u flags=0x%x",
                             surface, flags);
    if (rc == CUDA_SUCCESS)
        rc = vdpau_register(pRes, flags);
    return fake_leave(rc);
}

/* ---- the test API -------------------------------------------------------------------------- */

/* frame NULL: EGL absent again. */
FAKE_EXPORT void fake_graphics_set_egl_frame(const void *frame);
FAKE_EXPORT void fake_graphics_set_egl_frame(const void *frame)
{
    fake_lock();
    egl_present = frame != NULL;
    if (frame)
        memcpy(&egl_frame, frame, sizeof egl_frame);
    fake_unlock();
}

/* The frame waiting in the EGLStream (as the driver received it); 0 when none. */
FAKE_EXPORT int fake_graphics_presented(void *frame);
FAKE_EXPORT int fake_graphics_presented(void *frame)
{
    fake_lock();
    int any = presented;
    if (any && frame)
        memcpy(frame, &presented_frame, sizeof presented_frame);
    fake_unlock();
    return any;
}

/* Live EGLStream connections. */
FAKE_EXPORT size_t fake_graphics_connections(void);
FAKE_EXPORT size_t fake_graphics_connections(void)
{
    fake_lock();
    size_t n = connections.count;
    fake_unlock();
    return n;
}

const proc_entry fake_procs_graphics_egl[] = {
    {"cuGraphicsEGLRegisterImage", 7000, 99999, (void *)f_cuGraphicsEGLRegisterImage},
    {"cuGraphicsResourceGetMappedEglFrame", 7000, 99999,
     (void *)f_cuGraphicsResourceGetMappedEglFrame},
    {"cuEventCreateFromEGLSync", 9000, 99999, (void *)f_cuEventCreateFromEGLSync},
    {"cuEGLStreamConsumerConnect", 7000, 99999, (void *)f_cuEGLStreamConsumerConnect},
    {"cuEGLStreamConsumerConnectWithFlags", 8000, 99999,
     (void *)f_cuEGLStreamConsumerConnectWithFlags},
    {"cuEGLStreamConsumerDisconnect", 7000, 99999, (void *)f_cuEGLStreamConsumerDisconnect},
    {"cuEGLStreamConsumerAcquireFrame", 7000, 99999, (void *)f_cuEGLStreamConsumerAcquireFrame},
    {"cuEGLStreamConsumerReleaseFrame", 7000, 99999, (void *)f_cuEGLStreamConsumerReleaseFrame},
    {"cuEGLStreamProducerConnect", 7000, 99999, (void *)f_cuEGLStreamProducerConnect},
    {"cuEGLStreamProducerDisconnect", 7000, 99999, (void *)f_cuEGLStreamProducerDisconnect},
    {"cuEGLStreamProducerPresentFrame", 7000, 99999, (void *)f_cuEGLStreamProducerPresentFrame},
    {"cuEGLStreamProducerReturnFrame", 7000, 99999, (void *)f_cuEGLStreamProducerReturnFrame},
    {"cuVDPAUGetDevice", 3010, 99999, (void *)f_cuVDPAUGetDevice},
    {"cuGraphicsVDPAURegisterVideoSurface", 3010, 99999,
     (void *)f_cuGraphicsVDPAURegisterVideoSurface},
    {"cuGraphicsVDPAURegisterOutputSurface", 3010, 99999,
     (void *)f_cuGraphicsVDPAURegisterOutputSurface},
    {NULL, 0, 0, NULL},
};
