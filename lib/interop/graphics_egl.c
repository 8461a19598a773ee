/*
 * graphics_egl.c - EGL and VDPAU interop: EGL images as graphics resources, their mapped frames,
 * EGLStream producers and consumers, events from EGL syncs; VDPAU devices and surfaces.
 *
 * Everything is the driver's cudaEGL.h / cudaVDPAU.h call of the same name (bound by hand:
 * graphics.h), with the runtime's handles passed as the driver's (a cudaEglStreamConnection is
 * the driver's CUeglStreamConnection, a stream its CUstream, a resource its CUgraphicsResource).
 * The one thing translated is the frame: the driver's CUeglFrame describes the first plane and
 * the format of its elements (CUarray_format and a channel count); the runtime's cudaEglFrame
 * describes every plane (cudaEglPlaneDesc with a channel descriptor) and, for a pitched frame,
 * gives each plane as a cudaPitchedPtr.  The colour formats have the same values on both sides.
 */
#include "memory/array.h"
#include "interop/graphics.h"

#include <string.h>

_Static_assert(sizeof(cudaEglStreamConnection) == sizeof(CUeglStreamConnection),
               "stream connections differ");
_Static_assert((int)cudaEglFrameTypeArray == (int)CU_EGL_FRAME_TYPE_ARRAY &&
               (int)cudaEglFrameTypePitch == (int)CU_EGL_FRAME_TYPE_PITCH,
               "EGL frame types differ");
_Static_assert((int)cudaEglResourceLocationSysmem == (int)CU_EGL_RESOURCE_LOCATION_SYSMEM &&
               (int)cudaEglResourceLocationVidmem == (int)CU_EGL_RESOURCE_LOCATION_VIDMEM,
               "EGL resource locations differ");
_Static_assert(CUDA_EGL_MAX_PLANES == MAX_PLANES, "EGL plane counts differ");

/* ---- frames --------------------------------------------------------------------------------- */

/* The planes after the first of the multi-planar colour formats (cuda_egl_interop.h): how many
 * bits the chroma planes' width and height are shifted right against the luma's, and their
 * channels (1: U and V in planes of their own, 2: UV or VU interleaved in one plane).  Formats
 * not listed have one plane. */
static const struct rt_egl_chroma {
    uint8_t format, wshift, hshift, channels;
} rt_egl_chroma[] = {
    {0, 1, 1, 1},   {1, 1, 1, 2},   {2, 1, 0, 1},   {3, 1, 0, 2},   {10, 0, 0, 1},
    {11, 0, 0, 2},  {19, 0, 0, 2},  {20, 1, 0, 2},  {21, 1, 1, 2},  {22, 0, 0, 2},
    {23, 1, 1, 2},  {24, 0, 0, 2},  {25, 1, 1, 2},  {33, 0, 0, 1},  {34, 1, 0, 1},
    {35, 1, 1, 1},  {36, 0, 0, 2},  {37, 1, 0, 2},  {38, 1, 1, 2},  {39, 0, 0, 1},
    {40, 1, 0, 1},  {41, 1, 1, 1},  {42, 0, 0, 2},  {43, 1, 0, 2},  {44, 1, 1, 2},
    {65, 0, 0, 1},  {66, 1, 0, 1},  {67, 1, 1, 1},  {83, 1, 1, 2},  {84, 1, 1, 2},
    {85, 1, 1, 1},  {86, 1, 1, 1},  {87, 1, 1, 2},  {88, 1, 1, 2},  {89, 1, 1, 1},
    {90, 1, 1, 1},  {91, 1, 1, 2},  {92, 1, 1, 2},  {93, 1, 0, 2},  {94, 1, 0, 2},
    {95, 1, 0, 2},  {106, 1, 1, 2}, {107, 1, 1, 2}, {108, 0, 0, 2}, {109, 0, 0, 2},
    {110, 1, 1, 2}, {111, 1, 1, 2}, {112, 0, 0, 2}, {113, 0, 0, 2},
};

static const struct rt_egl_chroma *rt_egl_chroma_of(unsigned format)
{
    for (size_t i = 0; i < sizeof rt_egl_chroma / sizeof rt_egl_chroma[0]; i++)
        if (rt_egl_chroma[i].format == format)
            return &rt_egl_chroma[i];
    return NULL;
}

/* CUeglFrame -> cudaEglFrame.  An array frame's planes are described by their arrays' own
 * descriptors; a pitched frame's first plane by the frame, the others derived from it by the
 * colour format's subsampling (their pitch scaled as their width in bytes, though NVIDIA says
 * that of a multi-planar frame "pitch of only first plane is to be considered"). */
static cudaError_t rt_egl_frame_from_cu(const CUeglFrame *in, cudaEglFrame *out)
{
    memset(out, 0, sizeof *out);
    if (in->planeCount > CUDA_EGL_MAX_PLANES)
        return cudaErrorInvalidValue;
    out->planeCount = in->planeCount;
    out->frameType = (cudaEglFrameType)in->frameType;
    out->eglColorFormat = (cudaEglColorFormat)in->eglColorFormat;
    const struct rt_egl_chroma *chroma = rt_egl_chroma_of((unsigned)in->eglColorFormat);
    for (unsigned i = 0; i < in->planeCount; i++) {
        cudaEglPlaneDesc *p = &out->planeDesc[i];
        if (in->frameType == CU_EGL_FRAME_TYPE_ARRAY) {
            CUDA_ARRAY3D_DESCRIPTOR ad;
            CUresult r = rt_drv.cuArray3DGetDescriptor(&ad, in->frame.pArray[i]);
            if (r != CUDA_SUCCESS)
                return rt_error_from_cu(r);
            out->frame.pArray[i] = (cudaArray_t)in->frame.pArray[i];
            p->width = (unsigned)ad.Width;
            p->height = (unsigned)ad.Height;
            p->depth = (unsigned)ad.Depth;
            p->numChannels = ad.NumChannels;
            p->channelDesc = rt_channel_from_format(ad.Format, ad.NumChannels);
            continue;
        }
        unsigned wshift = 0, hshift = 0, channels = in->numChannels;
        if (i > 0 && chroma) {
            wshift = chroma->wshift;
            hshift = chroma->hshift;
            channels = chroma->channels;
        }
        p->width = in->width >> wshift;
        p->height = in->height >> hshift;
        p->depth = in->depth;
        p->pitch = i == 0 || !in->numChannels
                       ? in->pitch
                       : (unsigned)((unsigned long long)in->pitch * channels / in->numChannels
                                    >> wshift);
        p->numChannels = channels;
        p->channelDesc = rt_channel_from_format(in->cuFormat, channels);
        out->frame.pPitch[i].ptr = in->frame.pPitch[i];
        out->frame.pPitch[i].pitch = p->pitch;
        out->frame.pPitch[i].xsize = p->width;
        out->frame.pPitch[i].ysize = p->height;
    }
    return cudaSuccess;
}

/* cudaEglFrame -> CUeglFrame: the first plane's description and element format. */
static cudaError_t rt_egl_frame_to_cu(const cudaEglFrame *in, CUeglFrame *out)
{
    memset(out, 0, sizeof *out);
    /* The first plane's channel descriptor is checked first: an empty frame is
     * cudaErrorInvalidChannelDescriptor, as NVIDIA's runtime answers (measured). */
    const cudaEglPlaneDesc *p = &in->planeDesc[0];
    CUarray_format format;
    unsigned channels;
    cudaError_t e = rt_channel_to_format(&p->channelDesc, &format, &channels);
    if (e != cudaSuccess)
        return e;
    if (in->planeCount == 0 || in->planeCount > CUDA_EGL_MAX_PLANES ||
        (in->frameType != cudaEglFrameTypeArray && in->frameType != cudaEglFrameTypePitch))
        return cudaErrorInvalidValue;
    for (unsigned i = 0; i < in->planeCount; i++) {
        if (in->frameType == cudaEglFrameTypeArray)
            out->frame.pArray[i] = (CUarray)in->frame.pArray[i];
        else
            out->frame.pPitch[i] = in->frame.pPitch[i].ptr;
    }
    out->width = p->width;
    out->height = p->height;
    out->depth = p->depth;
    out->pitch = p->pitch;
    out->planeCount = in->planeCount;
    out->numChannels = p->numChannels;
    out->frameType = (CUeglFrameType)in->frameType;
    out->eglColorFormat = (CUeglColorFormat)in->eglColorFormat;
    out->cuFormat = format;
    return cudaSuccess;
}

/* ---- EGL images ----------------------------------------------------------------------------- */

RT_API cudaError_t cudaGraphicsEGLRegisterImage(struct cudaGraphicsResource **pCudaResource,
                                                EGLImageKHR image, unsigned int flags)
{
    RT_ENTER();
    if (!pCudaResource)      /* before the driver: measured, with no image (EGL_NO_IMAGE) */
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = RT_GFX_ENTER(rt_gfx, cuGraphicsEGLRegisterImage, &d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    CUgraphicsResource r = NULL;
    e = rt_driver_result(d, rt_gfx.cuGraphicsEGLRegisterImage(&r, image, flags));
    e = rt_graphics_hand_out(e, r, pCudaResource);
    RT_RETURN(e);
}

RT_API cudaError_t cudaGraphicsResourceGetMappedEglFrame(cudaEglFrame *eglFrame,
                                                         cudaGraphicsResource_t resource,
                                                         unsigned int index,
                                                         unsigned int mipLevel)
{
    RT_ENTER();
    if (!resource || rt_graphics_gone(resource))
        RT_RETURN(cudaErrorInvalidResourceHandle);
    if (!eglFrame)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = RT_GFX_ENTER(rt_gfx, cuGraphicsResourceGetMappedEglFrame, &d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    CUeglFrame frame;
    memset(&frame, 0, sizeof frame);
    e = rt_driver_result(d, rt_gfx.cuGraphicsResourceGetMappedEglFrame(
                                &frame, (CUgraphicsResource)resource, index, mipLevel));
    if (e == cudaSuccess)
        e = rt_egl_frame_from_cu(&frame, eglFrame);
    RT_RETURN(e);
}

RT_API cudaError_t cudaEventCreateFromEGLSync(cudaEvent_t *phEvent, EGLSyncKHR eglSync,
                                              unsigned int flags)
{
    RT_ENTER();
    rt_device *d;
    cudaError_t e = RT_GFX_ENTER(rt_gfx, cuEventCreateFromEGLSync, &d);
    if (e != cudaSuccess && e != cudaErrorNotSupported)
        RT_RETURN(e);
    CUevent ev = NULL;
    CUresult r = e == cudaSuccess ? rt_gfx.cuEventCreateFromEGLSync(&ev, eglSync, flags)
                                  : CUDA_ERROR_NOT_SUPPORTED;
    /* Where the platform has no EGLSync interop (the driver says CUDA_ERROR_NOT_SUPPORTED, or
     * lacks the entry point), NVIDIA's runtime answers cudaErrorNotSupported before looking at
     * the arguments and does not record it as the last error (measured on the H200, also with a
     * NULL phEvent): an answer about the platform, not a failed call. */
    if (r == CUDA_ERROR_NOT_SUPPORTED) {
        RT_TRACE("cudaEventCreateFromEGLSync: the driver does not support it here; not recorded "
                 "as the last error");
        RT_RETURN_VALUE(cudaErrorNotSupported);
    }
    e = rt_driver_result(d, r);
    if (e == cudaSuccess && !phEvent) {
        rt_drv.cuEventDestroy(ev);
        e = cudaErrorInvalidValue;
    }
    if (e == cudaSuccess) {
        /* an event like cudaEventCreate's: cudaDeviceReset destroys it (handles.c) */
        rt_handle_add(RT_HANDLE_EVENT, ev, d);
        *phEvent = (cudaEvent_t)ev;
    }
    RT_RETURN(e);
}

/* ---- EGLStreams ----------------------------------------------------------------------------- */

RT_API cudaError_t cudaEGLStreamConsumerConnect(cudaEglStreamConnection *conn,
                                                EGLStreamKHR eglStream)
{
    RT_ENTER();
    if (!conn)
        RT_RETURN(cudaErrorInvalidResourceHandle);
    rt_device *d;
    cudaError_t e = RT_GFX_ENTER(rt_gfx, cuEGLStreamConsumerConnect, &d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    e = rt_driver_result(d, rt_gfx.cuEGLStreamConsumerConnect(conn, eglStream));
    RT_RETURN(e);
}

RT_API cudaError_t cudaEGLStreamConsumerConnectWithFlags(cudaEglStreamConnection *conn,
                                                         EGLStreamKHR eglStream,
                                                         unsigned int flags)
{
    RT_ENTER();
    if (!conn)
        RT_RETURN(cudaErrorInvalidResourceHandle);
    rt_device *d;
    cudaError_t e = RT_GFX_ENTER(rt_gfx, cuEGLStreamConsumerConnectWithFlags, &d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    e = rt_driver_result(d, rt_gfx.cuEGLStreamConsumerConnectWithFlags(conn, eglStream, flags));
    RT_RETURN(e);
}

RT_API cudaError_t cudaEGLStreamConsumerDisconnect(cudaEglStreamConnection *conn)
{
    RT_ENTER();
    if (!conn)
        RT_RETURN(cudaErrorInvalidResourceHandle);
    rt_device *d;
    cudaError_t e = RT_GFX_ENTER(rt_gfx, cuEGLStreamConsumerDisconnect, &d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    e = rt_driver_result(d, rt_gfx.cuEGLStreamConsumerDisconnect(conn));
    RT_RETURN(e);
}

RT_API cudaError_t cudaEGLStreamConsumerAcquireFrame(cudaEglStreamConnection *conn,
                                                     cudaGraphicsResource_t *pCudaResource,
                                                     cudaStream_t *pStream, unsigned int timeout)
{
    RT_ENTER();
    if (!conn)
        RT_RETURN(cudaErrorInvalidResourceHandle);
    if (!pCudaResource)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = RT_GFX_ENTER(rt_gfx, cuEGLStreamConsumerAcquireFrame, &d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    /* Not rt_driver_result: cudaErrorLaunchTimeout, sticky after a kernel, here only means
     * that no frame came in time ("the application can retry"); the context is healthy. */
    (void)d;
    e = rt_error_from_cu(rt_gfx.cuEGLStreamConsumerAcquireFrame(
        conn, (CUgraphicsResource *)pCudaResource, (CUstream *)pStream, timeout));
    if (e == cudaSuccess)
        rt_graphics_given(*pCudaResource);
    RT_RETURN(e);
}

RT_API cudaError_t cudaEGLStreamConsumerReleaseFrame(cudaEglStreamConnection *conn,
                                                     cudaGraphicsResource_t pCudaResource,
                                                     cudaStream_t *pStream)
{
    RT_ENTER();
    if (!conn)
        RT_RETURN(cudaErrorInvalidResourceHandle);
    rt_device *d;
    cudaError_t e = RT_GFX_ENTER(rt_gfx, cuEGLStreamConsumerReleaseFrame, &d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    e = rt_driver_result(d, rt_gfx.cuEGLStreamConsumerReleaseFrame(
                                conn, (CUgraphicsResource)pCudaResource, (CUstream *)pStream));
    RT_RETURN(e);
}

RT_API cudaError_t cudaEGLStreamProducerConnect(cudaEglStreamConnection *conn,
                                                EGLStreamKHR eglStream, EGLint width,
                                                EGLint height)
{
    RT_ENTER();
    if (!conn)
        RT_RETURN(cudaErrorInvalidResourceHandle);
    rt_device *d;
    cudaError_t e = RT_GFX_ENTER(rt_gfx, cuEGLStreamProducerConnect, &d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    e = rt_driver_result(d, rt_gfx.cuEGLStreamProducerConnect(conn, eglStream, width, height));
    RT_RETURN(e);
}

RT_API cudaError_t cudaEGLStreamProducerDisconnect(cudaEglStreamConnection *conn)
{
    RT_ENTER();
    if (!conn)
        RT_RETURN(cudaErrorInvalidResourceHandle);
    rt_device *d;
    cudaError_t e = RT_GFX_ENTER(rt_gfx, cuEGLStreamProducerDisconnect, &d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    e = rt_driver_result(d, rt_gfx.cuEGLStreamProducerDisconnect(conn));
    RT_RETURN(e);
}

RT_API cudaError_t cudaEGLStreamProducerPresentFrame(cudaEglStreamConnection *conn,
                                                     cudaEglFrame eglframe, cudaStream_t *pStream)
{
    RT_ENTER();
    /* The frame is checked before the connection: an empty frame with no connection is
     * cudaErrorInvalidChannelDescriptor (measured). */
    CUeglFrame frame;
    cudaError_t e = rt_egl_frame_to_cu(&eglframe, &frame);
    if (e != cudaSuccess)
        RT_RETURN(e);
    if (!conn)
        RT_RETURN(cudaErrorInvalidResourceHandle);
    rt_device *d;
    e = RT_GFX_ENTER(rt_gfx, cuEGLStreamProducerPresentFrame, &d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    e = rt_driver_result(d, rt_gfx.cuEGLStreamProducerPresentFrame(conn, frame,
                                                                   (CUstream *)pStream));
    RT_RETURN(e);
}

RT_API cudaError_t cudaEGLStreamProducerReturnFrame(cudaEglStreamConnection *conn,
                                                    cudaEglFrame *eglframe, cudaStream_t *pStream)
{
    RT_ENTER();
    if (!conn || !*conn)      /* the connection before the frame (measured) */
        RT_RETURN(cudaErrorInvalidResourceHandle);
    if (!eglframe)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = RT_GFX_ENTER(rt_gfx, cuEGLStreamProducerReturnFrame, &d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    CUeglFrame frame;
    memset(&frame, 0, sizeof frame);
    (void)d;   /* a timeout is no fault of the context: see AcquireFrame */
    e = rt_error_from_cu(rt_gfx.cuEGLStreamProducerReturnFrame(conn, &frame, (CUstream *)pStream));
    if (e == cudaSuccess)
        e = rt_egl_frame_from_cu(&frame, eglframe);
    RT_RETURN(e);
}

/* ---- VDPAU ---------------------------------------------------------------------------------- */

RT_API cudaError_t cudaVDPAUGetDevice(int *device, VdpDevice vdpDevice,
                                      VdpGetProcAddress *vdpGetProcAddress)
{
    RT_ENTER();
    if (!device)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = RT_GFX_ENTER(rt_gfx, cuVDPAUGetDevice, &d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    CUdevice cu = 0;
    e = rt_driver_result(d, rt_gfx.cuVDPAUGetDevice(&cu, vdpDevice, vdpGetProcAddress));
    if (e == cudaSuccess)
        *device = rt_device_of_cu(cu);
    RT_RETURN(e);
}

/* "Records vdpDevice as the VdpDevice for VDPAU interoperability with the CUDA device device and
 * sets device as the current device for the calling host thread."  The driver's registration
 * calls take only the surface, in the current context, so nothing reads the recorded VdpDevice:
 * what remains is choosing the device before the runtime starts (device.c). */
RT_API cudaError_t cudaVDPAUSetVDPAUDevice(int device, VdpDevice vdpDevice,
                                           VdpGetProcAddress *vdpGetProcAddress)
{
    RT_ENTER();
    (void)vdpGetProcAddress;
    cudaError_t e = rt_set_interop_device(device);
    RT_RETURN(e);
}

static cudaError_t rt_vdpau_register(bool video, struct cudaGraphicsResource **resource,
                                     uint32_t surface, unsigned flags)
{
    rt_device *d;        /* the driver first, into a local: its answer before a NULL resource's */
    cudaError_t e = video ? RT_GFX_ENTER(rt_gfx, cuGraphicsVDPAURegisterVideoSurface, &d)
                          : RT_GFX_ENTER(rt_gfx, cuGraphicsVDPAURegisterOutputSurface, &d);
    if (e != cudaSuccess)
        return e;
    CUgraphicsResource r = NULL;
    e = rt_driver_result(d, video ? rt_gfx.cuGraphicsVDPAURegisterVideoSurface(&r, surface, flags)
                                  : rt_gfx.cuGraphicsVDPAURegisterOutputSurface(&r, surface,
                                                                                flags));
    e = rt_graphics_hand_out(e, r, resource);
    return e;
}

/* The one body of cudaGraphicsVDPAURegisterVideoSurface and
 * cudaGraphicsVDPAURegisterOutputSurface (RT_FORWARD). */
static cudaError_t rt_vdpau_register_api(rt_api api, bool video,
                                         struct cudaGraphicsResource **resource, uint32_t surface,
                                         unsigned flags)
{
    RT_ENTER_AS(api);
    RT_RETURN(rt_vdpau_register(video, resource, surface, flags));
}

RT_API cudaError_t cudaGraphicsVDPAURegisterVideoSurface(struct cudaGraphicsResource **resource,
                                                         VdpVideoSurface vdpSurface,
                                                         unsigned int flags)
{
    RT_FORWARD(rt_vdpau_register_api(RT_SELF, true, resource, vdpSurface, flags));
}

RT_API cudaError_t cudaGraphicsVDPAURegisterOutputSurface(struct cudaGraphicsResource **resource,
                                                          VdpOutputSurface vdpSurface,
                                                          unsigned int flags)
{
    RT_FORWARD(rt_vdpau_register_api(RT_SELF, false, resource, vdpSurface, flags));
}
