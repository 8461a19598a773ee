/*
 * graphics.h - interop's header: what graphics.c (resources, OpenGL) and graphics_egl.c (EGL,
 * VDPAU) share, the driver's interop entry points that the driver table cannot hold; and the
 * declarations external.c's per-thread twins need (at the end).
 *
 * The generic resource calls (cuGraphicsMapResources and friends) have their PFN types in
 * cudaTypedefs.h and sit in the driver table (driver_graphics.def).  The GL, EGL and VDPAU ones
 * have theirs in cudaGLTypedefs.h, cudaEGLTypedefs.h and cudaVDPAUTypedefs.h, which include the
 * graphics libraries' headers; so they are bound here by hand, with the signatures of those
 * typedefs written over graphics_types.h's types, and resolved once, on first use, through the
 * driver's cuGetProcAddress at the ABI version of the typedef (as device_config.c binds the
 * profiler).  Every one is optional: a driver built without GL, EGL or VDPAU support (or a
 * machine without them) lacks it, and only the call that needs it answers
 * cudaErrorNotSupported.
 */
#ifndef MINICUDART_GRAPHICS_H
#define MINICUDART_GRAPHICS_H

#include "device/device.h"
#include "interop/graphics_types.h"

/* X(name, ABI version, parameter list): the version is the <ver> of PFN_<name>_v<ver>. */
#define RT_GRAPHICS_ENTRIES(X)                                                                  \
    X(cuGraphicsGLRegisterBuffer, 3000, (CUgraphicsResource *, GLuint, unsigned int))          \
    X(cuGraphicsGLRegisterImage, 3000, (CUgraphicsResource *, GLuint, GLenum, unsigned int))   \
    X(cuGLGetDevices, 6050, (unsigned int *, CUdevice *, unsigned int, CUGLDeviceList))        \
    X(cuGLRegisterBufferObject, 2000, (GLuint))                                                 \
    X(cuGLMapBufferObject, 3020, (CUdeviceptr *, size_t *, GLuint))                             \
    X(cuGLMapBufferObjectAsync, 3020, (CUdeviceptr *, size_t *, GLuint, CUstream))              \
    X(cuGLUnmapBufferObject, 2000, (GLuint))                                                    \
    X(cuGLUnmapBufferObjectAsync, 2030, (GLuint, CUstream))                                     \
    X(cuGLUnregisterBufferObject, 2000, (GLuint))                                               \
    X(cuGLSetBufferObjectMapFlags, 2030, (GLuint, unsigned int))                                \
    X(cuGraphicsEGLRegisterImage, 7000, (CUgraphicsResource *, EGLImageKHR, unsigned int))     \
    X(cuGraphicsResourceGetMappedEglFrame, 7000,                                                \
      (CUeglFrame *, CUgraphicsResource, unsigned int, unsigned int))                          \
    X(cuEGLStreamConsumerConnect, 7000, (CUeglStreamConnection *, EGLStreamKHR))               \
    X(cuEGLStreamConsumerConnectWithFlags, 8000,                                                \
      (CUeglStreamConnection *, EGLStreamKHR, unsigned int))                                    \
    X(cuEGLStreamConsumerDisconnect, 7000, (CUeglStreamConnection *))                           \
    X(cuEGLStreamConsumerAcquireFrame, 7000,                                                    \
      (CUeglStreamConnection *, CUgraphicsResource *, CUstream *, unsigned int))                \
    X(cuEGLStreamConsumerReleaseFrame, 7000,                                                    \
      (CUeglStreamConnection *, CUgraphicsResource, CUstream *))                                \
    X(cuEGLStreamProducerConnect, 7000,                                                         \
      (CUeglStreamConnection *, EGLStreamKHR, EGLint, EGLint))                                  \
    X(cuEGLStreamProducerDisconnect, 7000, (CUeglStreamConnection *))                           \
    X(cuEGLStreamProducerPresentFrame, 7000, (CUeglStreamConnection *, CUeglFrame, CUstream *)) \
    X(cuEGLStreamProducerReturnFrame, 7000,                                                     \
      (CUeglStreamConnection *, CUeglFrame *, CUstream *))                                     \
    X(cuEventCreateFromEGLSync, 9000, (CUevent *, EGLSyncKHR, unsigned int))                    \
    X(cuVDPAUGetDevice, 3010, (CUdevice *, VdpDevice, VdpGetProcAddress *))                     \
    X(cuGraphicsVDPAURegisterVideoSurface, 3010,                                                \
      (CUgraphicsResource *, VdpVideoSurface, unsigned int))                                    \
    X(cuGraphicsVDPAURegisterOutputSurface, 3010,                                               \
      (CUgraphicsResource *, VdpOutputSurface, unsigned int))

struct rt_graphics_driver {
#define RT_GRAPHICS_FIELD(name, version, params) CUresult (CUDAAPI *name) params;
    RT_GRAPHICS_ENTRIES(RT_GRAPHICS_FIELD)
#undef RT_GRAPHICS_FIELD
};

/* The hand-bound entry points; valid (each possibly NULL) after rt_graphics_enter. */
extern struct rt_graphics_driver rt_gfx;

/* The start of every interop call: the calling thread's context (lazy initialisation, as any
 * runtime call), the hand-bound entry points resolved, and the entry point at `slot` (the
 * address of one of rt_gfx's or rt_drv's fields, read after resolution) present; else
 * cudaErrorNotSupported, with "<api>: the driver has no <entry>" in the trace. */
cudaError_t rt_graphics_enter(const char *entry, const void *slot, rt_device **d);
/* Resources (graphics.c): one unregistered lately is refused (gone); one the driver gave out,
 * registered or acquired, is known again (given). */
bool rt_graphics_gone(const void *resource);
void rt_graphics_given(const void *resource);
/* A registered resource handed to the caller (graphics.c); NULL out: unregistered again. */
cudaError_t rt_graphics_hand_out(cudaError_t e, CUgraphicsResource r,
                                 struct cudaGraphicsResource **out);
#define RT_GFX_ENTER(table, name, d) rt_graphics_enter(#name, (const void *)&(table).name, (d))

/* ---- external.c: the per-thread-stream variants the toolkit declares only in such builds ---- */

RT_API cudaError_t cudaSignalExternalSemaphoresAsync_ptsz(
    const cudaExternalSemaphore_t *extSemArray,
    const struct cudaExternalSemaphoreSignalParams *paramsArray, unsigned int numExtSems,
    cudaStream_t stream);
RT_API cudaError_t cudaWaitExternalSemaphoresAsync_ptsz(
    const cudaExternalSemaphore_t *extSemArray,
    const struct cudaExternalSemaphoreWaitParams *paramsArray, unsigned int numExtSems,
    cudaStream_t stream);

#endif
