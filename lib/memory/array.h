/*
 * array.h - what array.c (CUDA arrays and copies to and from them), array_props.c (what an array
 * is: descriptor, planes, sparse layout, memory requirements) and texture.c (texture and surface
 * objects) share, and the per-thread-stream variants of their entry points, which the
 * toolkit declares only under CUDA_API_PER_THREAD_DEFAULT_STREAM.
 */
#ifndef MINICUDART_ARRAY_H
#define MINICUDART_ARRAY_H

#include "memory/memory.h"

/* The driver's element format for a channel descriptor: CUarray_format plus the channel count.
 * Plain kinds (signed, unsigned, float) need x > 0, the non-zero sizes first and all equal, and
 * 1, 2 or 4 channels; the normalized, block-compressed, NV12 and 10-10-10-2 kinds name their
 * format.  Returns cudaErrorInvalidValue for a NULL desc, cudaErrorInvalidChannelDescriptor for
 * anything else the driver cannot represent. */
cudaError_t rt_channel_to_format(const struct cudaChannelFormatDesc *desc, CUarray_format *format,
                                 unsigned *channels);

/* The channel descriptor of a driver format, as cudaCreateChannelDesc<T>() would build it.
 * Unknown formats give kind cudaChannelFormatKindNone and zero sizes. */
struct cudaChannelFormatDesc rt_channel_from_format(CUarray_format format, unsigned channels);

/* array_props.c: the driver's 3D descriptor of an array (entering the context first); a bad
 * handle is the driver's cudaErrorInvalidResourceHandle. */
cudaError_t rt_array_descriptor(cudaArray_const_t array, CUDA_ARRAY3D_DESCRIPTOR *out);

RT_API cudaError_t cudaMemcpyToArray_ptds(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                          const void *src, size_t count,
                                          enum cudaMemcpyKind kind);
RT_API cudaError_t cudaMemcpy2DToArray_ptds(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                            const void *src, size_t spitch, size_t width,
                                            size_t height, enum cudaMemcpyKind kind);
RT_API cudaError_t cudaMemcpyFromArray_ptds(void *dst, cudaArray_const_t src, size_t wOffset,
                                            size_t hOffset, size_t count,
                                            enum cudaMemcpyKind kind);
RT_API cudaError_t cudaMemcpy2DFromArray_ptds(void *dst, size_t dpitch, cudaArray_const_t src,
                                              size_t wOffset, size_t hOffset, size_t width,
                                              size_t height, enum cudaMemcpyKind kind);
RT_API cudaError_t cudaMemcpyArrayToArray_ptds(cudaArray_t dst, size_t wOffsetDst,
                                               size_t hOffsetDst, cudaArray_const_t src,
                                               size_t wOffsetSrc, size_t hOffsetSrc,
                                               size_t count, enum cudaMemcpyKind kind);
RT_API cudaError_t cudaMemcpy2DArrayToArray_ptds(cudaArray_t dst, size_t wOffsetDst,
                                                 size_t hOffsetDst, cudaArray_const_t src,
                                                 size_t wOffsetSrc, size_t hOffsetSrc,
                                                 size_t width, size_t height,
                                                 enum cudaMemcpyKind kind);
RT_API cudaError_t cudaMemcpyToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                               const void *src, size_t count,
                                               enum cudaMemcpyKind kind, cudaStream_t stream);
RT_API cudaError_t cudaMemcpy2DToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset,
                                                 size_t hOffset, const void *src, size_t spitch,
                                                 size_t width, size_t height,
                                                 enum cudaMemcpyKind kind, cudaStream_t stream);
RT_API cudaError_t cudaMemcpyFromArrayAsync_ptsz(void *dst, cudaArray_const_t src,
                                                 size_t wOffset, size_t hOffset, size_t count,
                                                 enum cudaMemcpyKind kind, cudaStream_t stream);
RT_API cudaError_t cudaMemcpy2DFromArrayAsync_ptsz(void *dst, size_t dpitch,
                                                   cudaArray_const_t src, size_t wOffset,
                                                   size_t hOffset, size_t width, size_t height,
                                                   enum cudaMemcpyKind kind,
                                                   cudaStream_t stream);

#endif
