/*
 * graphics_types.h - the types and prototypes of graphics interop (OpenGL, EGL, VDPAU) without
 * any graphics library's headers.
 *
 * NVIDIA's interop headers (cuda_gl_interop.h, cuda_egl_interop.h, cuda_vdpau_interop.h and the
 * driver's cudaGL.h, cudaEGL.h, cudaVDPAU.h) include <GL/gl.h>, <EGL/egl.h> or <vdpau/vdpau.h>.
 * minicudart neither links nor includes a graphics library, so the few GL/EGL/VDPAU types those
 * prototypes name are declared here, with the definitions of the Khronos and VDPAU headers (all
 * are plain integers or pointers: a handle crosses the API unread).  The CUDA types and
 * prototypes below are copied from NVIDIA's headers, field for field and argument for argument.
 *
 * Shared by lib/interop/graphics.c, lib/interop/graphics_egl.c, their CI test (tests/api/graphics) and the GPU
 * programs (tests/gpu/conf_graphics.cu, conf_misuse_graphics.cu), which compile as C or C++.
 */
#ifndef MINICUDART_GRAPHICS_TYPES_H
#define MINICUDART_GRAPHICS_TYPES_H

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the graphics libraries' own types (GL/gl.h, EGL/eglext.h, vdpau/vdpau.h) ---------------- */

typedef unsigned int GLuint;             /* GL/gl.h */
typedef unsigned int GLenum;             /* GL/gl.h */
typedef int32_t EGLint;                  /* EGL/eglplatform.h: khronos_int32_t */
typedef void *EGLImageKHR;               /* EGL/eglext.h */
typedef void *EGLStreamKHR;              /* EGL/eglext.h */
typedef void *EGLSyncKHR;                /* EGL/eglext.h */
typedef uint32_t VdpDevice;              /* vdpau/vdpau.h: VdpDevice is a uint32_t handle */
typedef uint32_t VdpVideoSurface;
typedef uint32_t VdpOutputSurface;
typedef uint32_t VdpFuncId;
typedef int VdpStatus;                   /* vdpau/vdpau.h: an enum */
typedef VdpStatus VdpGetProcAddress(VdpDevice device, VdpFuncId function_id,
                                    void **function_pointer);

/* ---- cuda_gl_interop.h ----------------------------------------------------------------------- */

enum cudaGLDeviceList {
    cudaGLDeviceListAll = 1,
    cudaGLDeviceListCurrentFrame = 2,
    cudaGLDeviceListNextFrame = 3
};

enum cudaGLMapFlags {
    cudaGLMapFlagsNone = 0,
    cudaGLMapFlagsReadOnly = 1,
    cudaGLMapFlagsWriteDiscard = 2
};

cudaError_t cudaGLGetDevices(unsigned int *pCudaDeviceCount, int *pCudaDevices,
                             unsigned int cudaDeviceCount, enum cudaGLDeviceList deviceList);
cudaError_t cudaGraphicsGLRegisterImage(struct cudaGraphicsResource **resource, GLuint image,
                                        GLenum target, unsigned int flags);
cudaError_t cudaGraphicsGLRegisterBuffer(struct cudaGraphicsResource **resource, GLuint buffer,
                                         unsigned int flags);
/* Deprecated since CUDA 3.0 (NVIDIA marks them __attribute__((deprecated))). */
cudaError_t cudaGLSetGLDevice(int device);
cudaError_t cudaGLRegisterBufferObject(GLuint bufObj);
cudaError_t cudaGLMapBufferObject(void **devPtr, GLuint bufObj);
cudaError_t cudaGLUnmapBufferObject(GLuint bufObj);
cudaError_t cudaGLUnregisterBufferObject(GLuint bufObj);
cudaError_t cudaGLSetBufferObjectMapFlags(GLuint bufObj, unsigned int flags);
cudaError_t cudaGLMapBufferObjectAsync(void **devPtr, GLuint bufObj, cudaStream_t stream);
cudaError_t cudaGLUnmapBufferObjectAsync(GLuint bufObj, cudaStream_t stream);

/* ---- cudaGL.h (driver) ----------------------------------------------------------------------- */

typedef enum CUGLDeviceList_enum {
    CU_GL_DEVICE_LIST_ALL = 0x01,
    CU_GL_DEVICE_LIST_CURRENT_FRAME = 0x02,
    CU_GL_DEVICE_LIST_NEXT_FRAME = 0x03,
} CUGLDeviceList;

typedef enum CUGLmap_flags_enum {
    CU_GL_MAP_RESOURCE_FLAGS_NONE = 0x00,
    CU_GL_MAP_RESOURCE_FLAGS_READ_ONLY = 0x01,
    CU_GL_MAP_RESOURCE_FLAGS_WRITE_DISCARD = 0x02,
} CUGLmap_flags;

/* ---- cuda_egl_interop.h ---------------------------------------------------------------------- */

#define CUDA_EGL_MAX_PLANES 3

typedef enum cudaEglFrameType_enum {
    cudaEglFrameTypeArray = 0,
    cudaEglFrameTypePitch = 1,
} cudaEglFrameType;

typedef enum cudaEglResourceLocationFlags_enum {
    cudaEglResourceLocationSysmem = 0x00,
    cudaEglResourceLocationVidmem = 0x01,
} cudaEglResourceLocationFlags;

/* NVIDIA's enum has 113 members, 0 to 116, with the values of the driver's CUeglColorFormat
 * (which adds 4, 5, 30 and 103); only a few are named here.  The type is an int either way. */
typedef enum cudaEglColorFormat_enum {
    cudaEglColorFormatYUV420Planar = 0,
    cudaEglColorFormatYUV420SemiPlanar = 1,
    cudaEglColorFormatYUV422Planar = 2,
    cudaEglColorFormatYUV422SemiPlanar = 3,
    cudaEglColorFormatARGB = 6,
    cudaEglColorFormatRGBA = 7,
    cudaEglColorFormatL = 8,
    cudaEglColorFormatR = 9,
    cudaEglColorFormatUYVY2020 = 116,
} cudaEglColorFormat;

typedef struct cudaEglPlaneDesc_st {
    unsigned int width;
    unsigned int height;
    unsigned int depth;
    unsigned int pitch;
    unsigned int numChannels;
    struct cudaChannelFormatDesc channelDesc;
    unsigned int reserved[4];
} cudaEglPlaneDesc;

typedef struct cudaEglFrame_st {
    union {
        cudaArray_t pArray[CUDA_EGL_MAX_PLANES];
        struct cudaPitchedPtr pPitch[CUDA_EGL_MAX_PLANES];
    } frame;
    cudaEglPlaneDesc planeDesc[CUDA_EGL_MAX_PLANES];
    unsigned int planeCount;
    cudaEglFrameType frameType;
    cudaEglColorFormat eglColorFormat;
} cudaEglFrame;

typedef struct CUeglStreamConnection_st *cudaEglStreamConnection;

cudaError_t cudaGraphicsEGLRegisterImage(struct cudaGraphicsResource **pCudaResource,
                                         EGLImageKHR image, unsigned int flags);
cudaError_t cudaEGLStreamConsumerConnect(cudaEglStreamConnection *conn, EGLStreamKHR eglStream);
cudaError_t cudaEGLStreamConsumerConnectWithFlags(cudaEglStreamConnection *conn,
                                                  EGLStreamKHR eglStream, unsigned int flags);
cudaError_t cudaEGLStreamConsumerDisconnect(cudaEglStreamConnection *conn);
cudaError_t cudaEGLStreamConsumerAcquireFrame(cudaEglStreamConnection *conn,
                                              cudaGraphicsResource_t *pCudaResource,
                                              cudaStream_t *pStream, unsigned int timeout);
cudaError_t cudaEGLStreamConsumerReleaseFrame(cudaEglStreamConnection *conn,
                                              cudaGraphicsResource_t pCudaResource,
                                              cudaStream_t *pStream);
cudaError_t cudaEGLStreamProducerConnect(cudaEglStreamConnection *conn, EGLStreamKHR eglStream,
                                         EGLint width, EGLint height);
cudaError_t cudaEGLStreamProducerDisconnect(cudaEglStreamConnection *conn);
cudaError_t cudaEGLStreamProducerPresentFrame(cudaEglStreamConnection *conn,
                                              cudaEglFrame eglframe, cudaStream_t *pStream);
cudaError_t cudaEGLStreamProducerReturnFrame(cudaEglStreamConnection *conn,
                                             cudaEglFrame *eglframe, cudaStream_t *pStream);
cudaError_t cudaGraphicsResourceGetMappedEglFrame(cudaEglFrame *eglFrame,
                                                  cudaGraphicsResource_t resource,
                                                  unsigned int index, unsigned int mipLevel);
cudaError_t cudaEventCreateFromEGLSync(cudaEvent_t *phEvent, EGLSyncKHR eglSync,
                                       unsigned int flags);

/* ---- cudaEGL.h (driver) ---------------------------------------------------------------------- */

#define MAX_PLANES 3
#define CUDA_EGL_INFINITE_TIMEOUT 0xFFFFFFFF

typedef enum CUeglFrameType_enum {
    CU_EGL_FRAME_TYPE_ARRAY = 0,
    CU_EGL_FRAME_TYPE_PITCH = 1,
} CUeglFrameType;

typedef enum CUeglResourceLocationFlags_enum {
    CU_EGL_RESOURCE_LOCATION_SYSMEM = 0x00,
    CU_EGL_RESOURCE_LOCATION_VIDMEM = 0x01
} CUeglResourceLocationFlags;

/* The driver's CUeglColorFormat: the runtime's values (see cudaEglColorFormat above). */
typedef enum CUeglColorFormat_enum {
    CU_EGL_COLOR_FORMAT_YUV420_PLANAR = 0x00,
    CU_EGL_COLOR_FORMAT_RGBA = 0x07,
    CU_EGL_COLOR_FORMAT_UYVY_2020 = 0x74,
} CUeglColorFormat;

typedef struct CUeglFrame_st {
    union {
        CUarray pArray[MAX_PLANES];
        void *pPitch[MAX_PLANES];
    } frame;
    unsigned int width;
    unsigned int height;
    unsigned int depth;
    unsigned int pitch;
    unsigned int planeCount;
    unsigned int numChannels;
    CUeglFrameType frameType;
    CUeglColorFormat eglColorFormat;
    CUarray_format cuFormat;
} CUeglFrame_v1;
typedef CUeglFrame_v1 CUeglFrame;

typedef struct CUeglStreamConnection_st *CUeglStreamConnection;

/* ---- cuda_vdpau_interop.h -------------------------------------------------------------------- */

cudaError_t cudaVDPAUGetDevice(int *device, VdpDevice vdpDevice,
                               VdpGetProcAddress *vdpGetProcAddress);
cudaError_t cudaVDPAUSetVDPAUDevice(int device, VdpDevice vdpDevice,
                                    VdpGetProcAddress *vdpGetProcAddress);
cudaError_t cudaGraphicsVDPAURegisterVideoSurface(struct cudaGraphicsResource **resource,
                                                  VdpVideoSurface vdpSurface,
                                                  unsigned int flags);
cudaError_t cudaGraphicsVDPAURegisterOutputSurface(struct cudaGraphicsResource **resource,
                                                   VdpOutputSurface vdpSurface,
                                                   unsigned int flags);

#ifdef __cplusplus
}
#endif

#endif
