/*
 * graphics.c - graphics interop resources and OpenGL: registering GL buffers and images,
 * mapping resources into CUDA's address space, their mapped pointer and arrays, and the legacy
 * (CUDA 2.x) buffer-object calls.
 *
 * A cudaGraphicsResource_t is the driver's CUgraphicsResource, handed out unwrapped, and an
 * array or mipmapped array mapped from it is the driver's CUarray / CUmipmappedArray, which the
 * array and texture calls take as they take their own (array.c).  Such an array belongs to the
 * resource, as a level belongs to its mipmapped array: the driver refuses to destroy it, and it
 * is valid only while the resource is mapped.  The flags of the runtime and the driver have the
 * same values (asserted below) and pass unchanged; the driver checks them, and its errors
 * (cudaErrorAlreadyMapped, cudaErrorNotMapped, cudaErrorNotMappedAsPointer, ...) have runtime
 * twins of the same number.
 *
 * The order of the checks is NVIDIA's, as measured on the H200: the resource handle before the
 * out-pointers (a NULL resource is cudaErrorInvalidResourceHandle whatever else is NULL); the GL
 * registering calls refuse a NULL out-pointer first, while cudaGLGetDevices and VDPAU's ask the
 * driver first, into a local, so that its answer (no GL context, no VDPAU device) comes before
 * the NULL out-pointer's cudaErrorInvalidValue.
 *
 * No graphics library is linked or included: graphics_types.h declares the few GL types, and
 * graphics.h binds the GL entry points of the driver by hand (resolved here, once).
 *
 * The trace (MINICUDART_TRACE=1) shows the GL, EGL and VDPAU calls where they fail, in the error
 * line that names the call, and a line for what they refuse and why and for each resource mapped
 * or unmapped; registration, the mapped pointers and arrays, EGLStream connections and frames are
 * not traced one by one: a line of its own at each of 28 such returns was 2.6 KB of the library
 * built for size, which the size target of a quarter of NVIDIA's library did not leave room for.
 */
#include "interop/graphics.h"

#include <pthread.h>
#include <string.h>

/* The runtime's enums and the driver's have the same values: flags pass unchanged. */
#define RT_SAME(a, b) ((int)(a) == (int)(b))
_Static_assert(RT_SAME(cudaGraphicsRegisterFlagsNone, CU_GRAPHICS_REGISTER_FLAGS_NONE) &&
               RT_SAME(cudaGraphicsRegisterFlagsReadOnly, CU_GRAPHICS_REGISTER_FLAGS_READ_ONLY) &&
               RT_SAME(cudaGraphicsRegisterFlagsWriteDiscard,
                       CU_GRAPHICS_REGISTER_FLAGS_WRITE_DISCARD) &&
               RT_SAME(cudaGraphicsRegisterFlagsSurfaceLoadStore,
                       CU_GRAPHICS_REGISTER_FLAGS_SURFACE_LDST) &&
               RT_SAME(cudaGraphicsRegisterFlagsTextureGather,
                       CU_GRAPHICS_REGISTER_FLAGS_TEXTURE_GATHER),
               "graphics register flags differ");
_Static_assert(RT_SAME(cudaGraphicsMapFlagsNone, CU_GRAPHICS_MAP_RESOURCE_FLAGS_NONE) &&
               RT_SAME(cudaGraphicsMapFlagsReadOnly, CU_GRAPHICS_MAP_RESOURCE_FLAGS_READ_ONLY) &&
               RT_SAME(cudaGraphicsMapFlagsWriteDiscard,
                       CU_GRAPHICS_MAP_RESOURCE_FLAGS_WRITE_DISCARD),
               "graphics map flags differ");
_Static_assert(RT_SAME(cudaGLMapFlagsNone, CU_GL_MAP_RESOURCE_FLAGS_NONE) &&
               RT_SAME(cudaGLMapFlagsReadOnly, CU_GL_MAP_RESOURCE_FLAGS_READ_ONLY) &&
               RT_SAME(cudaGLMapFlagsWriteDiscard, CU_GL_MAP_RESOURCE_FLAGS_WRITE_DISCARD),
               "GL map flags differ");
_Static_assert(RT_SAME(cudaGraphicsCubeFacePositiveX, CU_CUBEMAP_FACE_POSITIVE_X) &&
               RT_SAME(cudaGraphicsCubeFaceNegativeX, CU_CUBEMAP_FACE_NEGATIVE_X) &&
               RT_SAME(cudaGraphicsCubeFacePositiveY, CU_CUBEMAP_FACE_POSITIVE_Y) &&
               RT_SAME(cudaGraphicsCubeFaceNegativeY, CU_CUBEMAP_FACE_NEGATIVE_Y) &&
               RT_SAME(cudaGraphicsCubeFacePositiveZ, CU_CUBEMAP_FACE_POSITIVE_Z) &&
               RT_SAME(cudaGraphicsCubeFaceNegativeZ, CU_CUBEMAP_FACE_NEGATIVE_Z),
               "cube faces differ");
_Static_assert(RT_SAME(cudaGLDeviceListAll, CU_GL_DEVICE_LIST_ALL) &&
               RT_SAME(cudaGLDeviceListCurrentFrame, CU_GL_DEVICE_LIST_CURRENT_FRAME) &&
               RT_SAME(cudaGLDeviceListNextFrame, CU_GL_DEVICE_LIST_NEXT_FRAME),
               "GL device lists differ");
#undef RT_SAME

/* ---- the hand-bound entry points (graphics.h) ------------------------------------------------ */

struct rt_graphics_driver rt_gfx;
static pthread_once_t rt_gfx_once = PTHREAD_ONCE_INIT;

/* RT_GRAPHICS_ENTRIES as data without pointers, as driver.c keeps its table: the names
 * NUL-separated in its order and each one's ABI version; entry i is pointer i of rt_gfx.  (As
 * rows of a name pointer, a version and an offset it was 600 bytes and 25 relocations.) */
static const char rt_gfx_names[] =
#define RT_GRAPHICS_NAME(name, version, params) #name "\0"
    RT_GRAPHICS_ENTRIES(RT_GRAPHICS_NAME)
#undef RT_GRAPHICS_NAME
    ;
static const uint16_t rt_gfx_versions[] = {
#define RT_GRAPHICS_VERSION(name, version, params) version,
    RT_GRAPHICS_ENTRIES(RT_GRAPHICS_VERSION)
#undef RT_GRAPHICS_VERSION
};
enum { RT_GFX_ENTRIES = sizeof rt_gfx_versions / sizeof rt_gfx_versions[0] };
_Static_assert(sizeof rt_gfx == RT_GFX_ENTRIES * sizeof(void *),
               "struct rt_graphics_driver is not one function pointer per graphics entry");

static void rt_gfx_resolve(void)
{
    const char *name = rt_gfx_names;
    for (size_t i = 0; i < RT_GFX_ENTRIES; i++, name += strlen(name) + 1)
        rt_driver_resolve(rt_drv.cuGetProcAddress, name, rt_gfx_versions[i],
                          CU_GET_PROC_ADDRESS_DEFAULT, true, (void **)&rt_gfx + i);
}

cudaError_t rt_graphics_enter(const char *entry, const void *slot, rt_device **d)
{
    cudaError_t e = rt_context_enter(d);
    if (e != cudaSuccess)
        return e;
    pthread_once(&rt_gfx_once, rt_gfx_resolve);
    void *fn = NULL;
    memcpy(&fn, slot, sizeof fn);
    return rt_driver_optional(fn != NULL, entry);
}

/* ---- registering GL objects ----------------------------------------------------------------- */

/* The resources the runtime unregistered lately.  The driver does not survive a handle it has
 * freed (under NVIDIA's runtime a second cudaGraphicsUnregisterResource crashes the process,
 * measured on the H200), so the calls that take a resource refuse one of these with
 * cudaErrorInvalidResourceHandle.  A handle the driver gives out again leaves the list; the list
 * keeps the last RT_GONE, enough for the usual mistake (an unregister or a map after the
 * unregister), while handles older than that reach the driver as they are. */
enum { RT_GONE = 256 };
static const void *rt_gone[RT_GONE];
static unsigned rt_gone_next;
static pthread_mutex_t rt_gone_lock = PTHREAD_MUTEX_INITIALIZER;

static void rt_graphics_forget(const void *r, bool gone)
{
    pthread_mutex_lock(&rt_gone_lock);
    for (unsigned i = 0; i < RT_GONE; i++)
        if (rt_gone[i] == r)
            rt_gone[i] = NULL;
    if (gone)
        rt_gone[rt_gone_next++ % RT_GONE] = r;
    pthread_mutex_unlock(&rt_gone_lock);
}

void rt_graphics_given(const void *r)
{
    rt_graphics_forget(r, false);
}

bool rt_graphics_gone(const void *r)
{
    bool gone = false;
    pthread_mutex_lock(&rt_gone_lock);
    for (unsigned i = 0; i < RT_GONE && !gone; i++)
        gone = r && rt_gone[i] == r;
    pthread_mutex_unlock(&rt_gone_lock);
    if (gone)
        RT_TRACE("resource %p was unregistered: refused", r);
    return gone;
}

/* A resource the driver registered, given to the caller's out-pointer; a NULL one gets
 * cudaErrorInvalidValue, and the resource is unregistered again rather than leaked. */
cudaError_t rt_graphics_hand_out(cudaError_t e, CUgraphicsResource r,
                                 struct cudaGraphicsResource **out)
{
    if (e != cudaSuccess)
        return e;
    if (!out) {
        rt_drv.cuGraphicsUnregisterResource(r);
        return cudaErrorInvalidValue;
    }
    rt_graphics_given(r);
    *out = (struct cudaGraphicsResource *)r;
    return cudaSuccess;
}

RT_API cudaError_t cudaGraphicsGLRegisterBuffer(struct cudaGraphicsResource **resource,
                                                GLuint buffer, unsigned int flags)
{
    RT_ENTER();
    if (!resource)      /* before the driver, unlike VDPAU's (measured, with no GL context) */
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = RT_GFX_ENTER(rt_gfx, cuGraphicsGLRegisterBuffer, &d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    CUgraphicsResource r = NULL;
    e = rt_driver_result(d, rt_gfx.cuGraphicsGLRegisterBuffer(&r, buffer, flags));
    e = rt_graphics_hand_out(e, r, resource);
    RT_RETURN(e);
}

RT_API cudaError_t cudaGraphicsGLRegisterImage(struct cudaGraphicsResource **resource,
                                               GLuint image, GLenum target, unsigned int flags)
{
    RT_ENTER();
    if (!resource)      /* before the driver, unlike VDPAU's (measured, with no GL context) */
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = RT_GFX_ENTER(rt_gfx, cuGraphicsGLRegisterImage, &d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    CUgraphicsResource r = NULL;
    e = rt_driver_result(d, rt_gfx.cuGraphicsGLRegisterImage(&r, image, target, flags));
    e = rt_graphics_hand_out(e, r, resource);
    RT_RETURN(e);
}

/* The CUDA devices of the current GL context, as runtime ordinals.  As NVIDIA's runtime does
 * (measured): an unknown list is refused first; then the driver is asked for all the devices
 * (into a local list: a machine has few, 64 are asked for) before any out-pointer is looked at,
 * so that no GL context is cudaErrorInvalidGraphicsContext whatever is NULL; the count is the
 * number of devices even when cudaDeviceCount leaves room for fewer (0: a count alone). */
RT_API cudaError_t cudaGLGetDevices(unsigned int *pCudaDeviceCount, int *pCudaDevices,
                                    unsigned int cudaDeviceCount,
                                    enum cudaGLDeviceList deviceList)
{
    RT_ENTER();
    if (deviceList != cudaGLDeviceListAll && deviceList != cudaGLDeviceListCurrentFrame &&
        deviceList != cudaGLDeviceListNextFrame)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = RT_GFX_ENTER(rt_gfx, cuGLGetDevices, &d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    enum { MAX = 64 };
    CUdevice devices[MAX];
    unsigned count = 0;
    e = rt_driver_result(d, rt_gfx.cuGLGetDevices(&count, devices, MAX,
                                                  (CUGLDeviceList)deviceList));
    unsigned room = cudaDeviceCount < count ? cudaDeviceCount : count;
    if (e == cudaSuccess && (!pCudaDeviceCount || (room && !pCudaDevices)))
        e = cudaErrorInvalidValue;
    if (e == cudaSuccess) {
        *pCudaDeviceCount = count;
        for (unsigned i = 0; i < room && i < MAX; i++)
            pCudaDevices[i] = rt_device_of_cu(devices[i]);
    }
    RT_RETURN(e);
}

/* Deprecated since CUDA 5.0: "no longer necessary to associate a CUDA device with an OpenGL
 * context"; what is left is choosing the device before the runtime starts (device.c). */
RT_API cudaError_t cudaGLSetGLDevice(int device)
{
    RT_ENTER();
    cudaError_t e = rt_set_interop_device(device);
    RT_RETURN(e);
}

/* ---- resources ------------------------------------------------------------------------------ */

RT_API cudaError_t cudaGraphicsUnregisterResource(cudaGraphicsResource_t resource)
{
    RT_ENTER();
    if (!resource || rt_graphics_gone(resource))
        RT_RETURN(cudaErrorInvalidResourceHandle);
    rt_device *d;
    cudaError_t e = RT_GFX_ENTER(rt_drv, cuGraphicsUnregisterResource, &d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    e = rt_driver_result(d, rt_drv.cuGraphicsUnregisterResource((CUgraphicsResource)resource));
    if (e == cudaSuccess)
        rt_graphics_forget(resource, true);
    RT_RETURN(e);
}

RT_API cudaError_t cudaGraphicsResourceSetMapFlags(cudaGraphicsResource_t resource,
                                                   unsigned int flags)
{
    RT_ENTER();
    if (!resource || rt_graphics_gone(resource))
        RT_RETURN(cudaErrorInvalidResourceHandle);
    rt_device *d;
    cudaError_t e = RT_GFX_ENTER(rt_drv, cuGraphicsResourceSetMapFlags, &d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    /* NVIDIA's runtime accepts a value that is none of the three (7, on an unmapped resource:
     * measured) where the driver refuses it: it maps as cudaGraphicsMapFlagsNone. */
    if (flags != cudaGraphicsMapFlagsReadOnly && flags != cudaGraphicsMapFlagsWriteDiscard)
        flags = cudaGraphicsMapFlagsNone;
    RT_RETURN(rt_driver_result(d, rt_drv.cuGraphicsResourceSetMapFlags(
                                      (CUgraphicsResource)resource, flags)));
}

/* Map and unmap: one driver call for the whole list, on the stream's queue (0 and the two
 * special streams pass as they are: rt_stream).  A count of 0 and a NULL list are
 * cudaErrorInvalidValue.  A negative count cannot reach the driver's unsigned one: NVIDIA's
 * runtime answers cudaErrorInvalidResourceHandle (measured with a NULL first entry); minicudart
 * reads no list whose length it cannot trust and answers the same. */
static cudaError_t rt_graphics_map(bool map, int count, cudaGraphicsResource_t *resources,
                                   cudaStream_t stream)
{
    rt_device *d;
    cudaError_t e = map ? RT_GFX_ENTER(rt_drv, cuGraphicsMapResources, &d)
                        : RT_GFX_ENTER(rt_drv, cuGraphicsUnmapResources, &d);
    if (e != cudaSuccess)
        return e;
    if (count == 0 || !resources)
        return cudaErrorInvalidValue;
    if (count < 0)
        return cudaErrorInvalidResourceHandle;
    for (int i = 0; i < count; i++)
        if (rt_graphics_gone(resources[i]))
            return cudaErrorInvalidResourceHandle;
    CUresult r = (map ? rt_drv.cuGraphicsMapResources : rt_drv.cuGraphicsUnmapResources)(
        (unsigned)count, (CUgraphicsResource *)resources, rt_stream(stream, false));
    e = rt_driver_result(d, r);
    if (rt_tracing())
        for (int i = 0; i < count; i++)
            rt_trace_emit("%s: resource %p %s on stream %p: %s", rt_call_name(),
                          (void *)resources[i], map ? "mapped" : "unmapped", (void *)stream,
                          rt_error_name(e));
    return e;
}

/* The one body of cudaGraphicsMapResources and cudaGraphicsUnmapResources (RT_FORWARD). */
static cudaError_t rt_graphics_map_api(rt_api api, bool map, int count,
                                       cudaGraphicsResource_t *resources, cudaStream_t stream)
{
    RT_ENTER_AS(api);
    RT_RETURN(rt_graphics_map(map, count, resources, stream));
}

RT_API cudaError_t cudaGraphicsMapResources(int count, cudaGraphicsResource_t *resources,
                                            cudaStream_t stream)
{
    RT_FORWARD(rt_graphics_map_api(RT_SELF, true, count, resources, stream));
}

RT_API cudaError_t cudaGraphicsUnmapResources(int count, cudaGraphicsResource_t *resources,
                                              cudaStream_t stream)
{
    RT_FORWARD(rt_graphics_map_api(RT_SELF, false, count, resources, stream));
}

RT_API cudaError_t cudaGraphicsResourceGetMappedPointer(void **devPtr, size_t *size,
                                                        cudaGraphicsResource_t resource)
{
    RT_ENTER();
    if (!resource || rt_graphics_gone(resource))
        RT_RETURN(cudaErrorInvalidResourceHandle);
    if (!devPtr || !size)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = RT_GFX_ENTER(rt_drv, cuGraphicsResourceGetMappedPointer, &d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    CUdeviceptr p = 0;
    size_t bytes = 0;
    e = rt_driver_result(d, rt_drv.cuGraphicsResourceGetMappedPointer(
                                &p, &bytes, (CUgraphicsResource)resource));
    if (e == cudaSuccess) {
        *devPtr = (void *)(uintptr_t)p;
        *size = bytes;
    }
    RT_RETURN(e);
}

RT_API cudaError_t cudaGraphicsSubResourceGetMappedArray(cudaArray_t *array,
                                                         cudaGraphicsResource_t resource,
                                                         unsigned int arrayIndex,
                                                         unsigned int mipLevel)
{
    RT_ENTER();
    if (!resource || rt_graphics_gone(resource))
        RT_RETURN(cudaErrorInvalidResourceHandle);
    if (!array)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = RT_GFX_ENTER(rt_drv, cuGraphicsSubResourceGetMappedArray, &d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    CUarray a = NULL;
    e = rt_driver_result(d, rt_drv.cuGraphicsSubResourceGetMappedArray(
                                &a, (CUgraphicsResource)resource, arrayIndex, mipLevel));
    if (e == cudaSuccess)
        *array = (cudaArray_t)a;
    RT_RETURN(e);
}

RT_API cudaError_t cudaGraphicsResourceGetMappedMipmappedArray(
    cudaMipmappedArray_t *mipmappedArray, cudaGraphicsResource_t resource)
{
    RT_ENTER();
    if (!resource || rt_graphics_gone(resource))
        RT_RETURN(cudaErrorInvalidResourceHandle);
    if (!mipmappedArray)
        RT_RETURN(cudaErrorInvalidValue);
    rt_device *d;
    cudaError_t e = RT_GFX_ENTER(rt_drv, cuGraphicsResourceGetMappedMipmappedArray, &d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    CUmipmappedArray m = NULL;
    e = rt_driver_result(d, rt_drv.cuGraphicsResourceGetMappedMipmappedArray(
                                &m, (CUgraphicsResource)resource));
    if (e == cudaSuccess)
        *mipmappedArray = (cudaMipmappedArray_t)m;
    RT_RETURN(e);
}

/* ---- the legacy buffer objects (deprecated since CUDA 3.0) ----------------------------------- */

/* Each is the driver's legacy call of the same name, in the current context. */

RT_API cudaError_t cudaGLRegisterBufferObject(GLuint bufObj)
{
    RT_ENTER();
    rt_device *d;
    cudaError_t e = RT_GFX_ENTER(rt_gfx, cuGLRegisterBufferObject, &d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    e = rt_driver_result(d, rt_gfx.cuGLRegisterBufferObject(bufObj));
    RT_RETURN(e);
}

RT_API cudaError_t cudaGLUnregisterBufferObject(GLuint bufObj)
{
    RT_ENTER();
    rt_device *d;
    cudaError_t e = RT_GFX_ENTER(rt_gfx, cuGLUnregisterBufferObject, &d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    e = rt_driver_result(d, rt_gfx.cuGLUnregisterBufferObject(bufObj));
    /* The driver answers an unknown buffer with CUDA_ERROR_INVALID_VALUE even when no GL
     * context is current, or no GL library can be loaded at all; NVIDIA's runtime then
     * answers cudaErrorInvalidGraphicsContext (measured, no GL context) or
     * cudaErrorOperatingSystem (measured on an H200 without libGL).  Which it is, the driver
     * says when asked for the GL context's devices. */
    if (e == cudaErrorInvalidValue && rt_gfx.cuGLGetDevices) {
        unsigned count = 0;
        CUdevice dev;
        CUresult r = rt_gfx.cuGLGetDevices(&count, &dev, 1, CU_GL_DEVICE_LIST_ALL);
        if (r == CUDA_ERROR_INVALID_GRAPHICS_CONTEXT || r == CUDA_ERROR_OPERATING_SYSTEM)
            e = rt_error_from_cu(r);
    }
    RT_RETURN(e);
}

RT_API cudaError_t cudaGLSetBufferObjectMapFlags(GLuint bufObj, unsigned int flags)
{
    RT_ENTER();
    rt_device *d;
    cudaError_t e = RT_GFX_ENTER(rt_gfx, cuGLSetBufferObjectMapFlags, &d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    RT_RETURN(rt_driver_result(d, rt_gfx.cuGLSetBufferObjectMapFlags(bufObj, flags)));
}

static cudaError_t rt_gl_map_buffer(bool async, void **devPtr, GLuint bufObj, cudaStream_t stream)
{
    if (!devPtr)
        return cudaErrorInvalidValue;
    rt_device *d;
    cudaError_t e = async ? RT_GFX_ENTER(rt_gfx, cuGLMapBufferObjectAsync, &d)
                          : RT_GFX_ENTER(rt_gfx, cuGLMapBufferObject, &d);
    if (e != cudaSuccess)
        return e;
    CUdeviceptr p = 0;
    size_t size = 0;
    e = rt_driver_result(d, async ? rt_gfx.cuGLMapBufferObjectAsync(&p, &size, bufObj,
                                                                    rt_stream(stream, false))
                                  : rt_gfx.cuGLMapBufferObject(&p, &size, bufObj));
    if (e == cudaSuccess)
        *devPtr = (void *)(uintptr_t)p;
    return e;
}

/* The one body of cudaGLMapBufferObject and cudaGLMapBufferObjectAsync (RT_FORWARD). */
static cudaError_t rt_gl_map_buffer_api(rt_api api, bool async, void **devPtr, GLuint bufObj,
                                        cudaStream_t stream)
{
    RT_ENTER_AS(api);
    RT_RETURN(rt_gl_map_buffer(async, devPtr, bufObj, stream));
}

RT_API cudaError_t cudaGLMapBufferObject(void **devPtr, GLuint bufObj)
{
    RT_FORWARD(rt_gl_map_buffer_api(RT_SELF, false, devPtr, bufObj, NULL));
}

RT_API cudaError_t cudaGLMapBufferObjectAsync(void **devPtr, GLuint bufObj, cudaStream_t stream)
{
    RT_FORWARD(rt_gl_map_buffer_api(RT_SELF, true, devPtr, bufObj, stream));
}

RT_API cudaError_t cudaGLUnmapBufferObject(GLuint bufObj)
{
    RT_ENTER();
    rt_device *d;
    cudaError_t e = RT_GFX_ENTER(rt_gfx, cuGLUnmapBufferObject, &d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    e = rt_driver_result(d, rt_gfx.cuGLUnmapBufferObject(bufObj));
    RT_RETURN(e);
}

RT_API cudaError_t cudaGLUnmapBufferObjectAsync(GLuint bufObj, cudaStream_t stream)
{
    RT_ENTER();
    rt_device *d;
    cudaError_t e = RT_GFX_ENTER(rt_gfx, cuGLUnmapBufferObjectAsync, &d);
    if (e != cudaSuccess)
        RT_RETURN(e);
    e = rt_driver_result(d, rt_gfx.cuGLUnmapBufferObjectAsync(bufObj, rt_stream(stream, false)));
    RT_RETURN(e);
}
