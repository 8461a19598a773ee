/* layout_nv.c - the sizes and offsets of the EGL frame structures as NVIDIA's own headers
 * (cuda_egl_interop.h, cudaEGL.h) lay them out, for test_graphics_egl.c to compare with
 * lib/interop/graphics_types.h's copies.  Those headers need <EGL/egl.h>; where it is not installed the
 * table is empty and the comparison is skipped (the copies are then checked only on the GPU,
 * against NVIDIA's runtime, by tests/gpu/conf_graphics.cu). */
#include <stddef.h>

#if defined(__has_include)
#if __has_include(<EGL/egl.h>) && __has_include(<EGL/eglext.h>)
#define HAVE_EGL_HEADERS 1
#endif
#endif

#ifdef HAVE_EGL_HEADERS
#include <cudaEGL.h>
#include <cuda_egl_interop.h>

const size_t nv_egl_layout[] = {
    sizeof(cudaEglFrame), offsetof(cudaEglFrame, planeDesc), offsetof(cudaEglFrame, planeCount),
    offsetof(cudaEglFrame, frameType), offsetof(cudaEglFrame, eglColorFormat),
    sizeof(cudaEglPlaneDesc), offsetof(cudaEglPlaneDesc, channelDesc),
    offsetof(cudaEglPlaneDesc, reserved), sizeof(CUeglFrame), offsetof(CUeglFrame, width),
    offsetof(CUeglFrame, planeCount), offsetof(CUeglFrame, frameType),
    offsetof(CUeglFrame, cuFormat), (size_t)cudaEglColorFormatUYVY2020,
    (size_t)CU_EGL_COLOR_FORMAT_UYVY_2020, (size_t)CU_EGL_COLOR_FORMAT_RGBA,
};
const size_t nv_egl_layout_count = sizeof nv_egl_layout / sizeof nv_egl_layout[0];
#else
const size_t nv_egl_layout[1] = {0};
const size_t nv_egl_layout_count = 0;
#endif
