// conf_misuse_graphics.cu - invalid inputs to graphics interop (OpenGL, resources, the legacy
// buffer objects, EGL images and EGLStreams, EGL syncs, VDPAU), one case each, with no GL
// context, no EGL display and no VDPAU device anywhere: what both runtimes answer for objects
// that cannot exist (the runner and the line format: misuse.h).  The GL/EGL/VDPAU types come
// from lib/interop/graphics_types.h, so that no graphics library's headers are needed to build this.
// gpu-flags: -Wno-deprecated-declarations
#include "misuse.h"

#include "../../lib/interop/graphics_types.h"

#define GL_TEXTURE_2D 0x0DE1

static cudaStream_t s;
static struct cudaGraphicsResource *res;
static struct cudaGraphicsResource *null_list[1];
static cudaEglStreamConnection conn;
static cudaEglFrame frame;
static cudaArray_t arr;
static cudaMipmappedArray_t mip;
static void *ptr;
static size_t size;
static unsigned count;
static int devices[4];
static cudaEvent_t ev;
static int dev;
static int device_count;

static void setup(void)
{
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaGetDeviceCount(&device_count));
}

// The fixtures a case may have changed, back as they were.
static void reset(void)
{
    res = NULL;
    null_list[0] = NULL;
    conn = NULL;
    memset(&frame, 0, sizeof frame);
    arr = NULL;
    mip = NULL;
    ptr = NULL;
    size = 0;
    count = 0;
}

// A device that is sure to be current again after a case that chose one.
static void back_to_device_0(void)
{
    cudaSetDevice(0);
    reset();
}

#define CASE(name, body) {name, [] { reset(); body }, reset}

static const misuse_case cases[] = {
    // ---- OpenGL without a GL context ---------------------------------------------------------
    CASE("cudaGLGetDevices.no_gl_context",
         return cudaGLGetDevices(&count, devices, 4, cudaGLDeviceListAll);),
    CASE("cudaGLGetDevices.null_count",
         return cudaGLGetDevices(NULL, devices, 4, cudaGLDeviceListAll);),
    CASE("cudaGLGetDevices.null_devices",
         return cudaGLGetDevices(&count, NULL, 4, cudaGLDeviceListAll);),
    CASE("cudaGLGetDevices.list_9",
         return cudaGLGetDevices(&count, devices, 4, (enum cudaGLDeviceList)9);),
    CASE("cudaGraphicsGLRegisterBuffer.no_gl_context",
         return cudaGraphicsGLRegisterBuffer(&res, 1, cudaGraphicsRegisterFlagsNone);),
    CASE("cudaGraphicsGLRegisterBuffer.null_resource",
         return cudaGraphicsGLRegisterBuffer(NULL, 1, cudaGraphicsRegisterFlagsNone);),
    CASE("cudaGraphicsGLRegisterBuffer.buffer_0",
         return cudaGraphicsGLRegisterBuffer(&res, 0, cudaGraphicsRegisterFlagsNone);),
    CASE("cudaGraphicsGLRegisterBuffer.flags_0x10",
         return cudaGraphicsGLRegisterBuffer(&res, 1, 0x10);),
    CASE("cudaGraphicsGLRegisterImage.no_gl_context",
         return cudaGraphicsGLRegisterImage(&res, 1, GL_TEXTURE_2D, 0);),
    CASE("cudaGraphicsGLRegisterImage.null_resource",
         return cudaGraphicsGLRegisterImage(NULL, 1, GL_TEXTURE_2D, 0);),
    CASE("cudaGraphicsGLRegisterImage.target_0",
         return cudaGraphicsGLRegisterImage(&res, 1, 0, 0);),
    {"cudaGLSetGLDevice.device_count", [] { return cudaGLSetGLDevice(device_count); },
     back_to_device_0},
    {"cudaGLSetGLDevice.negative", [] { return cudaGLSetGLDevice(-1); }, back_to_device_0},
    {"cudaGLSetGLDevice.device_0", [] { return cudaGLSetGLDevice(0); }, back_to_device_0},

    // ---- resources that do not exist ---------------------------------------------------------
    CASE("cudaGraphicsMapResources.count_0", return cudaGraphicsMapResources(0, &res, s);),
    CASE("cudaGraphicsMapResources.negative_count",
         return cudaGraphicsMapResources(-1, null_list, s);),
    CASE("cudaGraphicsMapResources.null_list", return cudaGraphicsMapResources(1, NULL, s);),
    CASE("cudaGraphicsMapResources.null_resource",
         return cudaGraphicsMapResources(1, null_list, s);),
    CASE("cudaGraphicsMapResources.null_resource_null_stream",
         return cudaGraphicsMapResources(1, null_list, 0);),
    CASE("cudaGraphicsUnmapResources.count_0", return cudaGraphicsUnmapResources(0, &res, s);),
    CASE("cudaGraphicsUnmapResources.null_list", return cudaGraphicsUnmapResources(1, NULL, s);),
    CASE("cudaGraphicsUnmapResources.null_resource",
         return cudaGraphicsUnmapResources(1, null_list, s);),
    CASE("cudaGraphicsResourceGetMappedPointer.null_resource",
         return cudaGraphicsResourceGetMappedPointer(&ptr, &size, NULL);),
    CASE("cudaGraphicsResourceGetMappedPointer.null_devptr",
         return cudaGraphicsResourceGetMappedPointer(NULL, &size, NULL);),
    CASE("cudaGraphicsResourceGetMappedPointer.null_size",
         return cudaGraphicsResourceGetMappedPointer(&ptr, NULL, NULL);),
    CASE("cudaGraphicsSubResourceGetMappedArray.null_resource",
         return cudaGraphicsSubResourceGetMappedArray(&arr, NULL, 0, 0);),
    CASE("cudaGraphicsSubResourceGetMappedArray.null_array",
         return cudaGraphicsSubResourceGetMappedArray(NULL, NULL, 0, 0);),
    CASE("cudaGraphicsResourceGetMappedMipmappedArray.null_resource",
         return cudaGraphicsResourceGetMappedMipmappedArray(&mip, NULL);),
    CASE("cudaGraphicsResourceGetMappedMipmappedArray.null_out",
         return cudaGraphicsResourceGetMappedMipmappedArray(NULL, NULL);),
    CASE("cudaGraphicsResourceSetMapFlags.null_resource",
         return cudaGraphicsResourceSetMapFlags(NULL, cudaGraphicsMapFlagsReadOnly);),
    CASE("cudaGraphicsResourceSetMapFlags.null_resource_flags_7",
         return cudaGraphicsResourceSetMapFlags(NULL, 7);),
    CASE("cudaGraphicsUnregisterResource.null", return cudaGraphicsUnregisterResource(NULL);),

    // ---- legacy buffer objects ---------------------------------------------------------------
    CASE("cudaGLRegisterBufferObject.no_gl_context", return cudaGLRegisterBufferObject(1);),
    CASE("cudaGLRegisterBufferObject.buffer_0", return cudaGLRegisterBufferObject(0);),
    CASE("cudaGLMapBufferObject.unregistered", return cudaGLMapBufferObject(&ptr, 1);),
    CASE("cudaGLMapBufferObject.null_devptr", return cudaGLMapBufferObject(NULL, 1);),
    CASE("cudaGLMapBufferObjectAsync.unregistered",
         return cudaGLMapBufferObjectAsync(&ptr, 1, s);),
    CASE("cudaGLUnmapBufferObject.unregistered", return cudaGLUnmapBufferObject(1);),
    CASE("cudaGLUnmapBufferObjectAsync.unregistered",
         return cudaGLUnmapBufferObjectAsync(1, s);),
    CASE("cudaGLUnregisterBufferObject.unregistered", return cudaGLUnregisterBufferObject(1);),
    CASE("cudaGLSetBufferObjectMapFlags.unregistered",
         return cudaGLSetBufferObjectMapFlags(1, cudaGLMapFlagsReadOnly);),

    // ---- EGL without an EGL display ----------------------------------------------------------
    CASE("cudaGraphicsEGLRegisterImage.no_image",
         return cudaGraphicsEGLRegisterImage(&res, NULL, 0);),
    CASE("cudaGraphicsEGLRegisterImage.null_resource",
         return cudaGraphicsEGLRegisterImage(NULL, NULL, 0);),
    CASE("cudaGraphicsResourceGetMappedEglFrame.null_resource",
         return cudaGraphicsResourceGetMappedEglFrame(&frame, NULL, 0, 0);),
    CASE("cudaGraphicsResourceGetMappedEglFrame.null_frame",
         return cudaGraphicsResourceGetMappedEglFrame(NULL, NULL, 0, 0);),
    CASE("cudaEGLStreamConsumerConnect.no_stream",
         return cudaEGLStreamConsumerConnect(&conn, NULL);),
    CASE("cudaEGLStreamConsumerConnect.null_conn",
         return cudaEGLStreamConsumerConnect(NULL, NULL);),
    CASE("cudaEGLStreamConsumerConnectWithFlags.no_stream",
         return cudaEGLStreamConsumerConnectWithFlags(&conn, NULL, cudaEglResourceLocationVidmem);),
    CASE("cudaEGLStreamConsumerDisconnect.null_conn",
         return cudaEGLStreamConsumerDisconnect(NULL);),
    CASE("cudaEGLStreamConsumerDisconnect.no_connection",
         return cudaEGLStreamConsumerDisconnect(&conn);),
    CASE("cudaEGLStreamConsumerAcquireFrame.no_connection",
         return cudaEGLStreamConsumerAcquireFrame(&conn, &res, &s, 0);),
    CASE("cudaEGLStreamConsumerAcquireFrame.null_conn",
         return cudaEGLStreamConsumerAcquireFrame(NULL, &res, &s, 0);),
    CASE("cudaEGLStreamConsumerReleaseFrame.no_connection",
         return cudaEGLStreamConsumerReleaseFrame(&conn, NULL, &s);),
    CASE("cudaEGLStreamProducerConnect.no_stream",
         return cudaEGLStreamProducerConnect(&conn, NULL, 64, 64);),
    CASE("cudaEGLStreamProducerConnect.null_conn",
         return cudaEGLStreamProducerConnect(NULL, NULL, 64, 64);),
    CASE("cudaEGLStreamProducerConnect.no_stream_zero_size",
         return cudaEGLStreamProducerConnect(&conn, NULL, 0, 0);),
    CASE("cudaEGLStreamProducerDisconnect.no_connection",
         return cudaEGLStreamProducerDisconnect(&conn);),
    CASE("cudaEGLStreamProducerPresentFrame.no_connection_empty_frame",
         return cudaEGLStreamProducerPresentFrame(&conn, frame, &s);),
    CASE("cudaEGLStreamProducerPresentFrame.null_conn",
         return cudaEGLStreamProducerPresentFrame(NULL, frame, &s);),
    CASE("cudaEGLStreamProducerReturnFrame.no_connection",
         return cudaEGLStreamProducerReturnFrame(&conn, &frame, &s);),
    CASE("cudaEGLStreamProducerReturnFrame.null_frame",
         return cudaEGLStreamProducerReturnFrame(&conn, NULL, &s);),
    CASE("cudaEventCreateFromEGLSync.no_sync", return cudaEventCreateFromEGLSync(&ev, NULL, 0);),
    CASE("cudaEventCreateFromEGLSync.null_event",
         return cudaEventCreateFromEGLSync(NULL, NULL, 0);),

    // ---- VDPAU without a VDPAU device --------------------------------------------------------
    CASE("cudaVDPAUGetDevice.bogus_device", return cudaVDPAUGetDevice(&dev, 1, NULL);),
    CASE("cudaVDPAUGetDevice.null_device", return cudaVDPAUGetDevice(NULL, 1, NULL);),
    {"cudaVDPAUSetVDPAUDevice.device_count",
     [] { return cudaVDPAUSetVDPAUDevice(device_count, 1, NULL); }, back_to_device_0},
    {"cudaVDPAUSetVDPAUDevice.device_0_bogus_vdpau",
     [] { return cudaVDPAUSetVDPAUDevice(0, 1, NULL); }, back_to_device_0},
    CASE("cudaGraphicsVDPAURegisterVideoSurface.bogus_surface",
         return cudaGraphicsVDPAURegisterVideoSurface(&res, 1, 0);),
    CASE("cudaGraphicsVDPAURegisterVideoSurface.null_resource",
         return cudaGraphicsVDPAURegisterVideoSurface(NULL, 1, 0);),
    CASE("cudaGraphicsVDPAURegisterOutputSurface.bogus_surface",
         return cudaGraphicsVDPAURegisterOutputSurface(&res, 1, 0);),
    CASE("cudaGraphicsVDPAURegisterOutputSurface.null_resource",
         return cudaGraphicsVDPAURegisterOutputSurface(NULL, 1, 0);),
};

int main(int argc, char **argv)
{
    int rc = misuse_main("conf_misuse_graphics", argc, argv, setup, cases, MISUSE_COUNT(cases));
    cudaDeviceSynchronize();
    return rc;
}
