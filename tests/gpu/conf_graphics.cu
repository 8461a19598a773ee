// conf_graphics.cu - OpenGL interop on a headless GPU, compared line by line between NVIDIA's
// runtime and minicudart: a GL buffer and a GL texture registered, mapped, written by a kernel
// and by copies, unmapped and read back through GL; the errors of calls made on the wrong
// resource or in the wrong state; the legacy buffer objects; and, first, the answers of calls
// made with no GL context (cudaGLGetDevices, a buffer registered without a context, VDPAU with
// a bogus device, EGLStreams with EGL_NO_STREAM), which both runtimes print even where EGL
// cannot be initialised.
//
// No graphics headers are needed to build this: libEGL.so.1 and libOpenGL.so.0 (GLVND) are
// opened with dlopen at run time, and the few EGL and GL functions and constants used are
// declared here; the CUDA interop prototypes come from lib/interop/graphics_types.h.  Prints codes,
// sizes and checks, never pointers.
// gpu-flags: -Wno-deprecated-declarations
#include "gpu_check.h"

#include "../../lib/interop/graphics_types.h"

#include <stdint.h>

// ---- EGL and GL, declared by hand -----------------------------------------------------------

typedef void *EGLDisplay;
typedef void *EGLConfig;
typedef void *EGLContext;
typedef void *EGLSurface;
typedef void *EGLDeviceEXT;
typedef unsigned EGLBoolean;
typedef unsigned EGLenum;

#define EGL_DEFAULT_DISPLAY ((void *)0)
#define EGL_NO_CONTEXT ((EGLContext)0)
#define EGL_NO_SURFACE ((EGLSurface)0)
#define EGL_NO_CONFIG_KHR ((EGLConfig)0)
#define EGL_NONE 0x3038
#define EGL_RENDERABLE_TYPE 0x3040
#define EGL_SURFACE_TYPE 0x3033
#define EGL_OPENGL_BIT 0x0008
#define EGL_OPENGL_API 0x30A2
#define EGL_PLATFORM_DEVICE_EXT 0x313F

#define GL_ARRAY_BUFFER 0x8892
#define GL_DYNAMIC_DRAW 0x88E8
#define GL_TEXTURE_2D 0x0DE1
#define GL_RGBA 0x1908
#define GL_RGBA8 0x8058
#define GL_UNSIGNED_BYTE 0x1401
#define GL_TEXTURE_MIN_FILTER 0x2801
#define GL_TEXTURE_MAG_FILTER 0x2800
#define GL_NEAREST 0x2600
#define GL_PACK_ALIGNMENT 0x0D05
#define GL_UNPACK_ALIGNMENT 0x0CF5

static struct {
    EGLDisplay (*GetDisplay)(void *);
    EGLBoolean (*Initialize)(EGLDisplay, int32_t *, int32_t *);
    EGLBoolean (*BindAPI)(EGLenum);
    EGLBoolean (*ChooseConfig)(EGLDisplay, const int32_t *, EGLConfig *, int32_t, int32_t *);
    EGLContext (*CreateContext)(EGLDisplay, EGLConfig, EGLContext, const int32_t *);
    EGLBoolean (*MakeCurrent)(EGLDisplay, EGLSurface, EGLSurface, EGLContext);
    EGLBoolean (*DestroyContext)(EGLDisplay, EGLContext);
    EGLBoolean (*Terminate)(EGLDisplay);
    int32_t (*GetError)(void);
    void *(*GetProcAddress)(const char *);
} egl;

static struct {
    void (*GenBuffers)(int, unsigned *);
    void (*BindBuffer)(unsigned, unsigned);
    void (*BufferData)(unsigned, intptr_t, const void *, unsigned);
    void (*GetBufferSubData)(unsigned, intptr_t, intptr_t, void *);
    void (*DeleteBuffers)(int, const unsigned *);
    void (*GenTextures)(int, unsigned *);
    void (*BindTexture)(unsigned, unsigned);
    void (*TexImage2D)(unsigned, int, int, int, int, int, unsigned, unsigned, const void *);
    void (*TexParameteri)(unsigned, unsigned, int);
    void (*GetTexImage)(unsigned, int, unsigned, unsigned, void *);
    void (*PixelStorei)(unsigned, int);
    void (*DeleteTextures)(int, const unsigned *);
    void (*Finish)(void);
    unsigned (*GetError)(void);
} gl;

static int ok = 1;

static void probe(const char *what, cudaError_t e)
{
    cudaError_t last = cudaGetLastError();
    printf("%-62s -> " ERR_FMT ", last " ERR_FMT "\n", what, ERR_ARGS(e), ERR_ARGS(last));
}

static void expect(const char *what, bool good)
{
    printf("%-62s %s\n", what, good ? "ok" : "MISMATCH");
    if (!good)
        ok = 0;
}

// ---- without a GL context ---------------------------------------------------------------------

static void without_context(void)
{
    unsigned count = 77;
    int devices[4] = {-1, -1, -1, -1};
    probe("cudaGLGetDevices, no GL context",
          cudaGLGetDevices(&count, devices, 4, cudaGLDeviceListAll));
    printf("  count after: %u, first device %d\n", count, devices[0]);
    struct cudaGraphicsResource *r = NULL;
    probe("cudaGraphicsGLRegisterBuffer(1), no GL context",
          cudaGraphicsGLRegisterBuffer(&r, 1, cudaGraphicsRegisterFlagsNone));
    printf("  resource set: %s\n", r ? "yes" : "no");
    probe("cudaGraphicsGLRegisterImage(1, GL_TEXTURE_2D), no GL context",
          cudaGraphicsGLRegisterImage(&r, 1, GL_TEXTURE_2D, 0));
    probe("cudaGLRegisterBufferObject(1), no GL context", cudaGLRegisterBufferObject(1));
    int dev = -5;
    probe("cudaVDPAUGetDevice(bogus VdpDevice 1)", cudaVDPAUGetDevice(&dev, 1, NULL));
    printf("  device after: %d\n", dev);
    probe("cudaGraphicsVDPAURegisterVideoSurface(bogus 1)",
          cudaGraphicsVDPAURegisterVideoSurface(&r, 1, 0));
    probe("cudaGraphicsVDPAURegisterOutputSurface(bogus 1)",
          cudaGraphicsVDPAURegisterOutputSurface(&r, 1, 0));
    cudaEglStreamConnection conn = NULL;
    probe("cudaEGLStreamConsumerConnect(EGL_NO_STREAM)",
          cudaEGLStreamConsumerConnect(&conn, NULL));
    probe("cudaEGLStreamProducerConnect(EGL_NO_STREAM, 64, 64)",
          cudaEGLStreamProducerConnect(&conn, NULL, 64, 64));
    probe("cudaGraphicsEGLRegisterImage(EGL_NO_IMAGE)",
          cudaGraphicsEGLRegisterImage(&r, NULL, 0));
    cudaEvent_t ev = NULL;
    probe("cudaEventCreateFromEGLSync(EGL_NO_SYNC)", cudaEventCreateFromEGLSync(&ev, NULL, 0));
}

// ---- EGL and GL, headless ---------------------------------------------------------------------

static void *egl_lib, *gl_lib;
static EGLDisplay display;
static EGLContext context;

#define RESOLVE(table, lib, prefix, name)                                                    \
    (*(void **)&table.name = dlsym(lib, prefix #name),                                       \
     table.name || (egl.GetProcAddress &&                                                    \
                    (*(void **)&table.name = egl.GetProcAddress(prefix #name))))

// Returns NULL when a GL context is current, else why not.
static const char *gl_start(void)
{
    egl_lib = dlopen("libEGL.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!egl_lib)
        return "libEGL.so.1 cannot be loaded";
    *(void **)&egl.GetProcAddress = dlsym(egl_lib, "eglGetProcAddress");
    if (!RESOLVE(egl, egl_lib, "egl", GetDisplay) || !RESOLVE(egl, egl_lib, "egl", Initialize) ||
        !RESOLVE(egl, egl_lib, "egl", BindAPI) || !RESOLVE(egl, egl_lib, "egl", ChooseConfig) ||
        !RESOLVE(egl, egl_lib, "egl", CreateContext) ||
        !RESOLVE(egl, egl_lib, "egl", MakeCurrent) ||
        !RESOLVE(egl, egl_lib, "egl", DestroyContext) ||
        !RESOLVE(egl, egl_lib, "egl", Terminate) || !RESOLVE(egl, egl_lib, "egl", GetError))
        return "libEGL.so.1 lacks an EGL 1.4 function";
    gl_lib = dlopen("libOpenGL.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!gl_lib)
        return "libOpenGL.so.0 cannot be loaded";

    // The display: EGL_EXT_platform_device's first device (headless), else the default one.
    typedef EGLBoolean (*query_devices_fn)(int32_t, EGLDeviceEXT *, int32_t *);
    typedef EGLDisplay (*platform_display_fn)(EGLenum, void *, const int32_t *);
    query_devices_fn query_devices =
        egl.GetProcAddress ? (query_devices_fn)egl.GetProcAddress("eglQueryDevicesEXT") : NULL;
    platform_display_fn platform_display =
        egl.GetProcAddress ? (platform_display_fn)egl.GetProcAddress("eglGetPlatformDisplayEXT")
                           : NULL;
    int32_t major = 0, minor = 0;
    display = NULL;
    EGLDeviceEXT devices[8];
    int32_t n = 0;
    if (query_devices && platform_display && query_devices(8, devices, &n) && n > 0) {
        display = platform_display(EGL_PLATFORM_DEVICE_EXT, devices[0], NULL);
        if (display && !egl.Initialize(display, &major, &minor))
            display = NULL;
    }
    if (!display) {
        display = egl.GetDisplay(EGL_DEFAULT_DISPLAY);
        if (!display || !egl.Initialize(display, &major, &minor))
            return "eglInitialize failed on the device and the default display";
    }
    if (!egl.BindAPI(EGL_OPENGL_API))
        return "eglBindAPI(EGL_OPENGL_API) failed";
    const int32_t attrs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_SURFACE_TYPE, 0, EGL_NONE};
    EGLConfig config = EGL_NO_CONFIG_KHR;
    int32_t configs = 0;
    if (!egl.ChooseConfig(display, attrs, &config, 1, &configs) || configs < 1)
        config = EGL_NO_CONFIG_KHR;   // EGL_KHR_no_config_context
    context = egl.CreateContext(display, config, EGL_NO_CONTEXT, NULL);
    if (!context)
        return "eglCreateContext failed";
    if (!egl.MakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context))
        return "eglMakeCurrent(EGL_NO_SURFACE) failed (no surfaceless context)";
    if (!RESOLVE(gl, gl_lib, "gl", GenBuffers) || !RESOLVE(gl, gl_lib, "gl", BindBuffer) ||
        !RESOLVE(gl, gl_lib, "gl", BufferData) || !RESOLVE(gl, gl_lib, "gl", GetBufferSubData) ||
        !RESOLVE(gl, gl_lib, "gl", DeleteBuffers) || !RESOLVE(gl, gl_lib, "gl", GenTextures) ||
        !RESOLVE(gl, gl_lib, "gl", BindTexture) || !RESOLVE(gl, gl_lib, "gl", TexImage2D) ||
        !RESOLVE(gl, gl_lib, "gl", TexParameteri) || !RESOLVE(gl, gl_lib, "gl", GetTexImage) ||
        !RESOLVE(gl, gl_lib, "gl", PixelStorei) || !RESOLVE(gl, gl_lib, "gl", DeleteTextures) ||
        !RESOLVE(gl, gl_lib, "gl", Finish) || !RESOLVE(gl, gl_lib, "gl", GetError))
        return "libOpenGL.so.0 lacks a GL function";
    return NULL;
}

static void gl_stop(void)
{
    egl.MakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    egl.DestroyContext(display, context);
    egl.Terminate(display);
}

// ---- with a GL context ------------------------------------------------------------------------

__global__ void twice_plus_one(int *data, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] = data[i] * 2 + 1;
}

#define INTS 1024

static void devices_of_the_context(void)
{
    unsigned count = 0;
    int devices[8] = {-1, -1, -1, -1, -1, -1, -1, -1};
    probe("cudaGLGetDevices(all)", cudaGLGetDevices(&count, devices, 8, cudaGLDeviceListAll));
    printf("  count %u, first device %d\n", count, devices[0]);
    count = 0;
    probe("cudaGLGetDevices(current frame, room for 0)",
          cudaGLGetDevices(&count, NULL, 0, cudaGLDeviceListCurrentFrame));
    printf("  count %u\n", count);
    probe("cudaGLGetDevices(list 9)", cudaGLGetDevices(&count, devices, 8,
                                                       (enum cudaGLDeviceList)9));
    probe("cudaGLSetGLDevice(0)", cudaGLSetGLDevice(0));
}

static void buffer_round_trip(void)
{
    int host[INTS];
    for (int i = 0; i < INTS; i++)
        host[i] = i;
    unsigned buffer = 0;
    gl.GenBuffers(1, &buffer);
    gl.BindBuffer(GL_ARRAY_BUFFER, buffer);
    gl.BufferData(GL_ARRAY_BUFFER, sizeof host, host, GL_DYNAMIC_DRAW);
    gl.Finish();
    expect("GL buffer made", gl.GetError() == 0);

    struct cudaGraphicsResource *r = NULL;
    probe("cudaGraphicsGLRegisterBuffer", cudaGraphicsGLRegisterBuffer(&r, buffer, 0));
    if (!r)
        return;
    void *p = NULL;
    size_t size = 0;
    probe("GetMappedPointer before mapping", cudaGraphicsResourceGetMappedPointer(&p, &size, r));
    probe("SetMapFlags(None) unmapped",
          cudaGraphicsResourceSetMapFlags(r, cudaGraphicsMapFlagsNone));
    probe("SetMapFlags(7) unmapped", cudaGraphicsResourceSetMapFlags(r, 7));
    probe("MapResources", cudaGraphicsMapResources(1, &r, 0));
    probe("MapResources again", cudaGraphicsMapResources(1, &r, 0));
    probe("SetMapFlags while mapped",
          cudaGraphicsResourceSetMapFlags(r, cudaGraphicsMapFlagsReadOnly));
    probe("GetMappedPointer", cudaGraphicsResourceGetMappedPointer(&p, &size, r));
    printf("  mapped size %zu\n", size);
    cudaArray_t a = NULL;
    probe("SubResourceGetMappedArray of a buffer",
          cudaGraphicsSubResourceGetMappedArray(&a, r, 0, 0));
    cudaMipmappedArray_t m = NULL;
    probe("GetMappedMipmappedArray of a buffer",
          cudaGraphicsResourceGetMappedMipmappedArray(&m, r));
    if (p) {
        twice_plus_one<<<INTS / 256, 256>>>((int *)p, INTS);
        probe("kernel on the mapped buffer", cudaGetLastError());
        int seven = 7;
        probe("cudaMemcpy into the mapped buffer",
              cudaMemcpy((int *)p + INTS - 1, &seven, sizeof seven, cudaMemcpyHostToDevice));
        probe("cudaDeviceSynchronize", cudaDeviceSynchronize());
    }
    probe("UnmapResources", cudaGraphicsUnmapResources(1, &r, 0));
    probe("UnmapResources again", cudaGraphicsUnmapResources(1, &r, 0));

    int back[INTS];
    memset(back, 0, sizeof back);
    gl.BindBuffer(GL_ARRAY_BUFFER, buffer);
    gl.GetBufferSubData(GL_ARRAY_BUFFER, 0, sizeof back, back);
    bool good = gl.GetError() == 0 && back[INTS - 1] == 7;
    for (int i = 0; i < INTS - 1; i++)
        good = good && back[i] == i * 2 + 1;
    expect("GL reads what the kernel and the copy wrote", good);

    probe("UnregisterResource", cudaGraphicsUnregisterResource(r));
    // Not a second unregister: NVIDIA's runtime crashes on the freed handle (measured on the
    // H200), which would end this program; minicudart's refusal is checked in CI
    // (tests/api/graphics).

    // Unregistering a mapped resource.
    probe("register again (read only)",
          cudaGraphicsGLRegisterBuffer(&r, buffer, cudaGraphicsRegisterFlagsReadOnly));
    probe("map", cudaGraphicsMapResources(1, &r, 0));
    probe("UnregisterResource while mapped", cudaGraphicsUnregisterResource(r));
    gl.DeleteBuffers(1, &buffer);
}

static void texture_round_trip(void)
{
    unsigned tex = 0;
    gl.GenTextures(1, &tex);
    gl.BindTexture(GL_TEXTURE_2D, tex);
    gl.TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    gl.TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    gl.PixelStorei(GL_UNPACK_ALIGNMENT, 1);
    gl.PixelStorei(GL_PACK_ALIGNMENT, 1);
    gl.TexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 64, 64, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    gl.Finish();
    expect("GL texture made", gl.GetError() == 0);

    struct cudaGraphicsResource *r = NULL;
    probe("cudaGraphicsGLRegisterImage(GL_TEXTURE_2D)",
          cudaGraphicsGLRegisterImage(&r, tex, GL_TEXTURE_2D,
                                      cudaGraphicsRegisterFlagsSurfaceLoadStore));
    struct cudaGraphicsResource *bad = NULL;
    probe("cudaGraphicsGLRegisterImage(bad target 0x1234)",
          cudaGraphicsGLRegisterImage(&bad, tex, 0x1234, 0));
    if (bad)
        cudaGraphicsUnregisterResource(bad);
    if (!r)
        return;
    cudaArray_t a = NULL;
    probe("SubResourceGetMappedArray before mapping",
          cudaGraphicsSubResourceGetMappedArray(&a, r, 0, 0));
    probe("MapResources", cudaGraphicsMapResources(1, &r, 0));
    probe("SubResourceGetMappedArray(0, 0)", cudaGraphicsSubResourceGetMappedArray(&a, r, 0, 0));
    cudaArray_t none = NULL;
    probe("SubResourceGetMappedArray(0, level 5)",
          cudaGraphicsSubResourceGetMappedArray(&none, r, 0, 5));
    probe("SubResourceGetMappedArray(index 1, 0)",
          cudaGraphicsSubResourceGetMappedArray(&none, r, 1, 0));
    void *p = NULL;
    size_t size = 0;
    probe("GetMappedPointer of an image", cudaGraphicsResourceGetMappedPointer(&p, &size, r));
    cudaMipmappedArray_t m = NULL;
    probe("GetMappedMipmappedArray", cudaGraphicsResourceGetMappedMipmappedArray(&m, r));
    if (a) {
        cudaChannelFormatDesc d;
        cudaExtent e;
        unsigned flags = 0;
        probe("cudaArrayGetInfo of the mapped array", cudaArrayGetInfo(&d, &e, &flags, a));
        printf("  desc %d %d %d %d kind %d, extent %zu x %zu x %zu, flags %#x\n", d.x, d.y, d.z,
               d.w, (int)d.f, e.width, e.height, e.depth, flags);
        static unsigned char texels[64 * 64 * 4];
        for (size_t i = 0; i < sizeof texels; i++)
            texels[i] = (unsigned char)(i * 13 + 1);
        probe("cudaMemcpy2DToArray into the mapped array",
              cudaMemcpy2DToArray(a, 0, 0, texels, 64 * 4, 64 * 4, 64, cudaMemcpyHostToDevice));
        static unsigned char back[64 * 64 * 4];
        probe("cudaMemcpy2DFromArray", cudaMemcpy2DFromArray(back, 64 * 4, a, 0, 0, 64 * 4, 64,
                                                             cudaMemcpyDeviceToHost));
        expect("array copy round trip", memcmp(back, texels, sizeof back) == 0);
        // No cudaFreeArray of the mapped array: both runtimes answer cudaSuccess and the driver
        // destroys it, after which unregistering the image crashes (measured on the H200).
        probe("UnmapResources", cudaGraphicsUnmapResources(1, &r, 0));
        memset(back, 0, sizeof back);
        gl.BindTexture(GL_TEXTURE_2D, tex);
        gl.GetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, back);
        expect("GL reads the texels CUDA wrote",
               gl.GetError() == 0 && memcmp(back, texels, sizeof back) == 0);
    } else {
        probe("UnmapResources", cudaGraphicsUnmapResources(1, &r, 0));
    }
    probe("UnregisterResource", cudaGraphicsUnregisterResource(r));
    gl.DeleteTextures(1, &tex);
}

static void legacy_buffer(void)
{
    int host[INTS];
    for (int i = 0; i < INTS; i++)
        host[i] = -i;
    unsigned buffer = 0;
    gl.GenBuffers(1, &buffer);
    gl.BindBuffer(GL_ARRAY_BUFFER, buffer);
    gl.BufferData(GL_ARRAY_BUFFER, sizeof host, host, GL_DYNAMIC_DRAW);
    gl.Finish();
    void *p = NULL;
    probe("cudaGLMapBufferObject unregistered", cudaGLMapBufferObject(&p, buffer));
    probe("cudaGLRegisterBufferObject", cudaGLRegisterBufferObject(buffer));
    probe("cudaGLRegisterBufferObject again", cudaGLRegisterBufferObject(buffer));
    probe("cudaGLSetBufferObjectMapFlags(WriteDiscard)",
          cudaGLSetBufferObjectMapFlags(buffer, cudaGLMapFlagsWriteDiscard));
    probe("cudaGLSetBufferObjectMapFlags(None)",
          cudaGLSetBufferObjectMapFlags(buffer, cudaGLMapFlagsNone));
    probe("cudaGLMapBufferObject", cudaGLMapBufferObject(&p, buffer));
    void *q = NULL;
    probe("cudaGLMapBufferObject again", cudaGLMapBufferObject(&q, buffer));
    if (p) {
        twice_plus_one<<<INTS / 256, 256>>>((int *)p, INTS);
        probe("kernel on the legacy mapping", cudaDeviceSynchronize());
    }
    probe("cudaGLUnmapBufferObject", cudaGLUnmapBufferObject(buffer));
    probe("cudaGLUnmapBufferObject again", cudaGLUnmapBufferObject(buffer));
    cudaStream_t s = NULL;
    CHECK(cudaStreamCreate(&s));
    probe("cudaGLMapBufferObjectAsync", cudaGLMapBufferObjectAsync(&q, buffer, s));
    printf("  same address as the first mapping: %s\n", p && q == p ? "yes" : "no");
    probe("cudaGLUnmapBufferObjectAsync", cudaGLUnmapBufferObjectAsync(buffer, s));
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaStreamDestroy(s));
    int back[INTS];
    gl.BindBuffer(GL_ARRAY_BUFFER, buffer);
    gl.GetBufferSubData(GL_ARRAY_BUFFER, 0, sizeof back, back);
    bool good = gl.GetError() == 0;
    for (int i = 0; i < INTS; i++)
        good = good && back[i] == -i * 2 + 1;
    expect("GL reads what the kernel wrote through the legacy mapping", good);
    probe("cudaGLUnregisterBufferObject", cudaGLUnregisterBufferObject(buffer));
    probe("cudaGLUnregisterBufferObject again", cudaGLUnregisterBufferObject(buffer));
    gl.DeleteBuffers(1, &buffer);
}

int main(void)
{
    gpu_require("conf_graphics");
    CHECK(cudaSetDevice(0));
    without_context();
    const char *why = gl_start();
    if (why) {
        printf("no EGL: %s\n", why);
        return 0;
    }
    printf("EGL and GL: a surfaceless context is current\n");
    devices_of_the_context();
    buffer_round_trip();
    texture_round_trip();
    legacy_buffer();
    gl_stop();
    printf("conf_graphics: %s\n", ok ? "all checks passed" : "MISMATCHES");
    return ok ? 0 : 1;
}
