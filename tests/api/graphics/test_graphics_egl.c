/* test_graphics_egl.c - EGL and VDPAU interop (lib/interop/graphics_egl.c) against the fake driver
 * (tests/fake/interop/fake_graphics_egl.c): EGL frames translated from the driver's CUeglFrame and back,
 * EGLStreams end to end, events from EGL syncs, and what a machine without EGL or VDPAU
 * answers; every error on both the returned code and the thread's last error.  The structure
 * layouts are compared with NVIDIA's headers where those can be compiled (layout_nv.c). */
#include "graphics_test.h"

extern const size_t nv_egl_layout[];
extern const size_t nv_egl_layout_count;

static int group_setup(void **state)
{
    return graphics_test_setup(state);
}

static int reset_egl(void **state)
{
    (void)state;
    set_egl_frame(NULL);
    return 0;
}

static void layouts_match_nvidia_headers(void **state)
{
    (void)state;
    const size_t ours[] = {
        sizeof(cudaEglFrame), offsetof(cudaEglFrame, planeDesc),
        offsetof(cudaEglFrame, planeCount), offsetof(cudaEglFrame, frameType),
        offsetof(cudaEglFrame, eglColorFormat), sizeof(cudaEglPlaneDesc),
        offsetof(cudaEglPlaneDesc, channelDesc), offsetof(cudaEglPlaneDesc, reserved),
        sizeof(CUeglFrame), offsetof(CUeglFrame, width), offsetof(CUeglFrame, planeCount),
        offsetof(CUeglFrame, frameType), offsetof(CUeglFrame, cuFormat),
        (size_t)cudaEglColorFormatUYVY2020, (size_t)CU_EGL_COLOR_FORMAT_UYVY_2020,
        (size_t)CU_EGL_COLOR_FORMAT_RGBA,
    };
    if (nv_egl_layout_count == 0) {
        print_message("no EGL headers here: layouts not compared\n");
        return;
    }
    assert_int_equal(nv_egl_layout_count, sizeof ours / sizeof ours[0]);
    for (size_t i = 0; i < nv_egl_layout_count; i++)
        assert_int_equal(nv_egl_layout[i], ours[i]);
}

/* ---- without EGL and VDPAU ------------------------------------------------------------------ */

static void without_egl_and_vdpau_every_object_is_invalid(void **state)
{
    (void)state;
    struct cudaGraphicsResource *r = NULL;
    cudaEglStreamConnection conn = NULL;
    cudaEvent_t ev = NULL;
    fk.fake_reset_log();
    /* refused before the driver: a NULL connection is an invalid handle, the resource is
     * checked before the frame (as NVIDIA's runtime answers, measured) */
    assert_cuda(cudaGraphicsEGLRegisterImage(NULL, (EGLImageKHR)0x10, 0), cudaErrorInvalidValue);
    assert_cuda(cudaEGLStreamConsumerConnect(NULL, (EGLStreamKHR)0x10),
                cudaErrorInvalidResourceHandle);
    assert_cuda(cudaEGLStreamConsumerConnectWithFlags(NULL, (EGLStreamKHR)0x10, 0),
                cudaErrorInvalidResourceHandle);
    assert_cuda(cudaEGLStreamConsumerDisconnect(NULL), cudaErrorInvalidResourceHandle);
    assert_cuda(cudaEGLStreamProducerConnect(NULL, (EGLStreamKHR)0x10, 64, 64),
                cudaErrorInvalidResourceHandle);
    assert_cuda(cudaEGLStreamProducerDisconnect(NULL), cudaErrorInvalidResourceHandle);
    cudaEglFrame frame;
    memset(&frame, 0, sizeof frame);
    assert_cuda(cudaGraphicsResourceGetMappedEglFrame(NULL, r, 0, 0),
                cudaErrorInvalidResourceHandle);
    assert_cuda(cudaGraphicsResourceGetMappedEglFrame(&frame, NULL, 0, 0),
                cudaErrorInvalidResourceHandle);
    /* an empty frame: its channel descriptor before the connection; the connection before
     * the frame to return into */
    assert_cuda(cudaEGLStreamProducerPresentFrame(NULL, frame, NULL),
                cudaErrorInvalidChannelDescriptor);
    assert_cuda(cudaEGLStreamProducerReturnFrame(&conn, NULL, NULL),
                cudaErrorInvalidResourceHandle);
    assert_cuda(cudaVDPAUGetDevice(NULL, 1, NULL), cudaErrorInvalidValue);
    assert_int_equal(fk.fake_count_calls("cuGraphicsEGLRegisterImage"), 0);
    assert_int_equal(fk.fake_count_calls("cuEGLStreamConsumerConnect"), 0);
    assert_int_equal(fk.fake_count_calls("cuEGLStreamProducerPresentFrame"), 0);
    assert_int_equal(fk.fake_count_calls("cuVDPAUGetDevice"), 0);
    /* the driver first, then the NULL resource (measured: no VDPAU device is an error of the
     * driver's, whatever is NULL) */
    assert_cuda(cudaGraphicsVDPAURegisterVideoSurface(NULL, 1, 0), cudaErrorInvalidValue);
    assert_cuda(cudaGraphicsVDPAURegisterOutputSurface(NULL, 1, 0), cudaErrorInvalidValue);
    assert_int_equal(fk.fake_count_calls("cuGraphicsVDPAURegisterOutputSurface"), 1);
    /* no EGLSync interop here (the driver says not supported): cudaErrorNotSupported, not
     * recorded as the last error, before the arguments are looked at (measured) */
    assert_int_equal(cudaEventCreateFromEGLSync(NULL, (EGLSyncKHR)0x10, 0),
                     cudaErrorNotSupported);
    assert_int_equal(cudaGetLastError(), cudaSuccess);
    /* the driver's answers on a machine without EGL or VDPAU */
    assert_cuda(cudaGraphicsEGLRegisterImage(&r, (EGLImageKHR)0x10, 0), cudaErrorInvalidValue);
    assert_cuda(cudaGraphicsEGLRegisterImage(&r, NULL, 0), cudaErrorInvalidValue);
    assert_cuda(cudaEGLStreamConsumerConnect(&conn, NULL), cudaErrorInvalidValue);
    assert_cuda(cudaEGLStreamConsumerConnect(&conn, (EGLStreamKHR)0x10), cudaErrorInvalidValue);
    assert_cuda(cudaEGLStreamProducerConnect(&conn, (EGLStreamKHR)0x10, 64, 64),
                cudaErrorInvalidValue);
    assert_null(conn);
    conn = (cudaEglStreamConnection)(uintptr_t)0x77;
    assert_cuda(cudaEGLStreamConsumerDisconnect(&conn), cudaErrorInvalidResourceHandle);
    assert_cuda(cudaEGLStreamProducerDisconnect(&conn), cudaErrorInvalidResourceHandle);
    assert_int_equal(cudaEventCreateFromEGLSync(&ev, (EGLSyncKHR)0x10, 0), cudaErrorNotSupported);
    assert_int_equal(cudaGetLastError(), cudaSuccess);
    assert_null(ev);
    int device = -7;
    assert_cuda(cudaVDPAUGetDevice(&device, 1, NULL), cudaErrorInvalidValue);
    assert_int_equal(device, -7);
    assert_cuda(cudaGraphicsVDPAURegisterVideoSurface(&r, 1, 0), cudaErrorInvalidValue);
    assert_cuda(cudaGraphicsVDPAURegisterOutputSurface(&r, 1, 0), cudaErrorInvalidValue);
    assert_last_call_has("cuGraphicsVDPAURegisterOutputSurface", "surface=1 flags=0x0");
    assert_null(r);
    /* Choosing the VDPAU device: an invalid device first; with the runtime started,
     * cudaErrorSetOnActiveProcess (measured); before it (after a reset here), the device. */
    assert_cuda(cudaVDPAUSetVDPAUDevice(3, 1, NULL), cudaErrorInvalidDevice);
    assert_cuda(cudaVDPAUSetVDPAUDevice(0, 1, NULL), cudaErrorSetOnActiveProcess);
    assert_cuda(cudaGLSetGLDevice(0), cudaErrorSetOnActiveProcess);
    assert_cuda(cudaDeviceReset(), cudaSuccess);
    assert_cuda(cudaVDPAUSetVDPAUDevice(0, 1, NULL), cudaSuccess);
    int current = -1;
    assert_cuda(cudaGetDevice(&current), cudaSuccess);
    assert_int_equal(current, 0);
    assert_cuda(cudaVDPAUSetVDPAUDevice(0, 1, NULL), cudaErrorSetOnActiveProcess);
    assert_int_equal(live_resources(), 0);
}

/* ---- frames --------------------------------------------------------------------------------- */

static void expect_plane(const cudaEglPlaneDesc *p, unsigned w, unsigned h, unsigned pitch,
                         unsigned channels, int x, int y)
{
    assert_int_equal(p->width, w);
    assert_int_equal(p->height, h);
    assert_int_equal(p->pitch, pitch);
    assert_int_equal(p->numChannels, channels);
    assert_int_equal(p->channelDesc.x, x);
    assert_int_equal(p->channelDesc.y, y);
    assert_int_equal(p->channelDesc.z, channels >= 3 ? x : 0);
    assert_int_equal(p->channelDesc.f, cudaChannelFormatKindUnsigned);
}

static void pitched_nv12_frame_gets_both_planes(void **state)
{
    (void)state;
    void *luma = NULL, *chroma = NULL;
    assert_cuda(cudaMalloc(&luma, 64 * 32), cudaSuccess);
    assert_cuda(cudaMalloc(&chroma, 64 * 16), cudaSuccess);
    CUeglFrame cu;
    memset(&cu, 0, sizeof cu);
    cu.frame.pPitch[0] = luma;
    cu.frame.pPitch[1] = chroma;
    cu.width = 64;
    cu.height = 32;
    cu.pitch = 64;
    cu.planeCount = 2;
    cu.numChannels = 1;
    cu.frameType = CU_EGL_FRAME_TYPE_PITCH;
    cu.eglColorFormat = (CUeglColorFormat)cudaEglColorFormatYUV420SemiPlanar;
    cu.cuFormat = CU_AD_FORMAT_UNSIGNED_INT8;
    set_egl_frame(&cu);

    struct cudaGraphicsResource *r = NULL;
    assert_cuda(cudaGraphicsEGLRegisterImage(&r, (EGLImageKHR)0x1000,
                                             cudaGraphicsRegisterFlagsReadOnly),
                cudaSuccess);
    assert_last_call_has("cuGraphicsEGLRegisterImage", "flags=0x1");
    cudaEglFrame f;
    assert_cuda(cudaGraphicsResourceGetMappedEglFrame(&f, r, 0, 0), cudaErrorNotMapped);
    assert_cuda(cudaGraphicsMapResources(1, &r, 0), cudaSuccess);
    memset(&f, 0xee, sizeof f);
    assert_cuda(cudaGraphicsResourceGetMappedEglFrame(&f, r, 0, 0), cudaSuccess);
    assert_int_equal(f.frameType, cudaEglFrameTypePitch);
    assert_int_equal(f.eglColorFormat, cudaEglColorFormatYUV420SemiPlanar);
    assert_int_equal(f.planeCount, 2);
    expect_plane(&f.planeDesc[0], 64, 32, 64, 1, 8, 0);
    expect_plane(&f.planeDesc[1], 32, 16, 64, 2, 8, 8);   /* UV interleaved, half each way */
    assert_ptr_equal(f.frame.pPitch[0].ptr, luma);
    assert_int_equal(f.frame.pPitch[0].pitch, 64);
    assert_int_equal(f.frame.pPitch[0].xsize, 64);
    assert_int_equal(f.frame.pPitch[0].ysize, 32);
    assert_ptr_equal(f.frame.pPitch[1].ptr, chroma);
    assert_int_equal(f.frame.pPitch[1].xsize, 32);
    assert_int_equal(f.frame.pPitch[1].ysize, 16);
    /* the third plane, unused, is cleared */
    assert_null(f.frame.pPitch[2].ptr);
    assert_int_equal(f.planeDesc[2].width, 0);
    for (int i = 0; i < 4; i++)
        assert_int_equal(f.planeDesc[0].reserved[i], 0);
    assert_cuda(cudaGraphicsResourceGetMappedEglFrame(&f, r, 1, 0), cudaErrorInvalidValue);

    /* a GL-style query of an EGL resource */
    void *p = NULL;
    size_t size = 0;
    assert_cuda(cudaGraphicsResourceGetMappedPointer(&p, &size, r), cudaErrorNotMappedAsPointer);
    assert_cuda(cudaGraphicsUnmapResources(1, &r, 0), cudaSuccess);
    assert_cuda(cudaGraphicsUnregisterResource(r), cudaSuccess);
    assert_cuda(cudaFree(luma), cudaSuccess);
    assert_cuda(cudaFree(chroma), cudaSuccess);
}

static void array_frame_planes_come_from_their_arrays(void **state)
{
    (void)state;
    struct cudaChannelFormatDesc y = {8, 0, 0, 0, cudaChannelFormatKindUnsigned};
    struct cudaChannelFormatDesc u = {16, 0, 0, 0, cudaChannelFormatKindUnsigned};
    cudaArray_t planes[3] = {NULL, NULL, NULL};
    assert_cuda(cudaMallocArray(&planes[0], &y, 64, 32, 0), cudaSuccess);
    assert_cuda(cudaMallocArray(&planes[1], &u, 32, 16, 0), cudaSuccess);
    assert_cuda(cudaMallocArray(&planes[2], &u, 32, 16, 0), cudaSuccess);
    CUeglFrame cu;
    memset(&cu, 0, sizeof cu);
    for (int i = 0; i < 3; i++)
        cu.frame.pArray[i] = (CUarray)planes[i];
    cu.width = 64;
    cu.height = 32;
    cu.planeCount = 3;
    cu.numChannels = 1;
    cu.frameType = CU_EGL_FRAME_TYPE_ARRAY;
    cu.eglColorFormat = (CUeglColorFormat)cudaEglColorFormatYUV420Planar;
    cu.cuFormat = CU_AD_FORMAT_UNSIGNED_INT8;
    set_egl_frame(&cu);
    struct cudaGraphicsResource *r = NULL;
    assert_cuda(cudaGraphicsEGLRegisterImage(&r, (EGLImageKHR)0x1000, 0), cudaSuccess);
    assert_cuda(cudaGraphicsMapResources(1, &r, 0), cudaSuccess);
    cudaEglFrame f;
    assert_cuda(cudaGraphicsResourceGetMappedEglFrame(&f, r, 0, 0), cudaSuccess);
    assert_int_equal(f.frameType, cudaEglFrameTypeArray);
    assert_int_equal(f.planeCount, 3);
    for (int i = 0; i < 3; i++)
        assert_ptr_equal(f.frame.pArray[i], planes[i]);
    expect_plane(&f.planeDesc[0], 64, 32, 0, 1, 8, 0);
    expect_plane(&f.planeDesc[1], 32, 16, 0, 1, 16, 0);
    expect_plane(&f.planeDesc[2], 32, 16, 0, 1, 16, 0);
    /* the planes are arrays to the runtime */
    unsigned char row[64];
    memset(row, 3, sizeof row);
    assert_cuda(cudaMemcpy2DToArray(f.frame.pArray[0], 0, 0, row, 64, 64, 1,
                                    cudaMemcpyHostToDevice),
                cudaSuccess);
    assert_cuda(cudaGraphicsUnregisterResource(r), cudaSuccess);
    /* an array the frame names but that is gone: the driver's error, not a crash */
    assert_cuda(cudaFreeArray(planes[2]), cudaSuccess);
    assert_cuda(cudaGraphicsEGLRegisterImage(&r, (EGLImageKHR)0x1000, 0), cudaSuccess);
    assert_cuda(cudaGraphicsMapResources(1, &r, 0), cudaSuccess);
    assert_cuda(cudaGraphicsResourceGetMappedEglFrame(&f, r, 0, 0),
                cudaErrorInvalidResourceHandle);
    assert_cuda(cudaGraphicsUnregisterResource(r), cudaSuccess);
    assert_cuda(cudaFreeArray(planes[0]), cudaSuccess);
    assert_cuda(cudaFreeArray(planes[1]), cudaSuccess);
}

/* ---- EGLStreams ----------------------------------------------------------------------------- */

static void stream_frame_goes_round(void **state)
{
    (void)state;
    CUeglFrame any;
    memset(&any, 0, sizeof any);
    set_egl_frame(&any);
    void *pixels = NULL;
    assert_cuda(cudaMalloc(&pixels, 256 * 32), cudaSuccess);
    EGLStreamKHR stream = (EGLStreamKHR)0x2000;
    cudaEglStreamConnection producer = NULL, consumer = NULL;
    assert_cuda(cudaEGLStreamProducerConnect(&producer, stream, 64, 32), cudaSuccess);
    assert_last_call_has("cuEGLStreamProducerConnect", "width=64 height=32");
    assert_cuda(cudaEGLStreamProducerConnect(&producer, stream, 0, 32), cudaErrorInvalidValue);
    assert_cuda(cudaEGLStreamConsumerConnectWithFlags(&consumer, stream,
                                                      cudaEglResourceLocationVidmem),
                cudaSuccess);
    assert_last_call_has("cuEGLStreamConsumerConnectWithFlags", "flags=0x1");
    assert_int_equal(live_connections(), 2);

    /* nothing presented yet: a timeout, not a sticky error */
    struct cudaGraphicsResource *r = NULL;
    cudaStream_t s = 0;
    assert_cuda(cudaEGLStreamConsumerAcquireFrame(&consumer, &r, &s, 1000),
                cudaErrorLaunchTimeout);
    assert_cuda(cudaDeviceSynchronize(), cudaSuccess);

    cudaEglFrame out;
    memset(&out, 0, sizeof out);
    out.frameType = cudaEglFrameTypePitch;
    out.eglColorFormat = cudaEglColorFormatRGBA;
    out.planeCount = 1;
    out.frame.pPitch[0].ptr = pixels;
    out.frame.pPitch[0].pitch = 256;
    out.frame.pPitch[0].xsize = 64;
    out.frame.pPitch[0].ysize = 32;
    out.planeDesc[0].width = 64;
    out.planeDesc[0].height = 32;
    out.planeDesc[0].pitch = 256;
    out.planeDesc[0].numChannels = 4;
    out.planeDesc[0].channelDesc =
        (struct cudaChannelFormatDesc){8, 8, 8, 8, cudaChannelFormatKindUnsigned};
    /* refused before the driver: no planes, a channel descriptor the driver cannot hold */
    cudaEglFrame bad = out;
    bad.planeCount = 0;
    assert_cuda(cudaEGLStreamProducerPresentFrame(&producer, bad, &s), cudaErrorInvalidValue);
    bad = out;
    bad.planeDesc[0].channelDesc.y = 16;
    assert_cuda(cudaEGLStreamProducerPresentFrame(&producer, bad, &s),
                cudaErrorInvalidChannelDescriptor);
    assert_int_equal(presented_frame(NULL), 0);

    assert_cuda(cudaEGLStreamProducerPresentFrame(&producer, out, &s), cudaSuccess);
    CUeglFrame seen;
    assert_int_equal(presented_frame(&seen), 1);
    assert_ptr_equal(seen.frame.pPitch[0], pixels);
    assert_int_equal(seen.width, 64);
    assert_int_equal(seen.height, 32);
    assert_int_equal(seen.pitch, 256);
    assert_int_equal(seen.planeCount, 1);
    assert_int_equal(seen.numChannels, 4);
    assert_int_equal(seen.frameType, CU_EGL_FRAME_TYPE_PITCH);
    assert_int_equal(seen.eglColorFormat, CU_EGL_COLOR_FORMAT_RGBA);
    assert_int_equal(seen.cuFormat, CU_AD_FORMAT_UNSIGNED_INT8);

    /* the consumer gets it as a mapped resource */
    assert_cuda(cudaEGLStreamConsumerAcquireFrame(&consumer, &r, &s, 1000), cudaSuccess);
    assert_non_null(r);
    cudaEglFrame in;
    assert_cuda(cudaGraphicsResourceGetMappedEglFrame(&in, r, 0, 0), cudaSuccess);
    assert_int_equal(in.planeCount, 1);
    assert_ptr_equal(in.frame.pPitch[0].ptr, pixels);
    expect_plane(&in.planeDesc[0], 64, 32, 256, 4, 8, 8);
    assert_int_equal(in.planeDesc[0].channelDesc.w, 8);
    assert_cuda(cudaEGLStreamConsumerReleaseFrame(&consumer, NULL, &s),
                cudaErrorInvalidResourceHandle);
    assert_cuda(cudaEGLStreamConsumerReleaseFrame(&consumer, r, &s), cudaSuccess);

    /* and the producer has it back */
    cudaEglFrame back;
    memset(&back, 0, sizeof back);
    assert_cuda(cudaEGLStreamProducerReturnFrame(&producer, NULL, &s), cudaErrorInvalidValue);
    assert_cuda(cudaEGLStreamProducerReturnFrame(&producer, &back, &s), cudaSuccess);
    assert_ptr_equal(back.frame.pPitch[0].ptr, pixels);
    assert_int_equal(back.frame.pPitch[0].pitch, 256);
    expect_plane(&back.planeDesc[0], 64, 32, 256, 4, 8, 8);
    assert_cuda(cudaEGLStreamProducerReturnFrame(&producer, &back, &s), cudaErrorLaunchTimeout);
    assert_cuda(cudaDeviceSynchronize(), cudaSuccess);

    /* roles are not interchangeable */
    assert_cuda(cudaEGLStreamProducerDisconnect(&consumer), cudaErrorInvalidResourceHandle);
    assert_cuda(cudaEGLStreamConsumerDisconnect(&consumer), cudaSuccess);
    assert_cuda(cudaEGLStreamProducerDisconnect(&producer), cudaSuccess);
    assert_int_equal(live_connections(), 0);
    assert_int_equal(live_resources(), 0);
    assert_cuda(cudaFree(pixels), cudaSuccess);
}

static void egl_sync_gives_an_event(void **state)
{
    (void)state;
    CUeglFrame any;
    memset(&any, 0, sizeof any);
    set_egl_frame(&any);
    cudaEvent_t ev = NULL;
    assert_cuda(cudaEventCreateFromEGLSync(&ev, (EGLSyncKHR)0x3000, cudaEventDisableTiming),
                cudaSuccess);
    assert_last_call_has("cuEventCreateFromEGLSync", "flags=0x2");
    assert_non_null(ev);
    assert_cuda(cudaEventQuery(ev), cudaSuccess);
    assert_cuda(cudaStreamWaitEvent(0, ev, 0), cudaSuccess);
    assert_cuda(cudaEventDestroy(ev), cudaSuccess);
    assert_cuda(cudaEventCreateFromEGLSync(&ev, NULL, 0), cudaErrorInvalidValue);
    /* an event made from a sync belongs to the context like cudaEventCreate's: a reset takes
     * it, and the runtime answers for it as for those (stream.h: rt_enter_with) */
    assert_cuda(cudaEventCreateFromEGLSync(&ev, (EGLSyncKHR)0x3000, 0), cudaSuccess);
    assert_cuda(cudaDeviceReset(), cudaSuccess);
    assert_cuda(cudaEventQuery(ev), cudaErrorDeviceUninitialized);
}

int main(void)
{
    const struct CMUnitTest all[] = {
        cmocka_unit_test(layouts_match_nvidia_headers),
        cmocka_unit_test_teardown(without_egl_and_vdpau_every_object_is_invalid, reset_egl),
        cmocka_unit_test_teardown(pitched_nv12_frame_gets_both_planes, reset_egl),
        cmocka_unit_test_teardown(array_frame_planes_come_from_their_arrays, reset_egl),
        cmocka_unit_test_teardown(stream_frame_goes_round, reset_egl),
        cmocka_unit_test_teardown(egl_sync_gives_an_event, reset_egl),
    };
    return cmocka_run_group_tests(all, group_setup, NULL);
}
