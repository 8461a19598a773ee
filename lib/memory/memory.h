/*
 * memory.h - what memory.c, memory_host.c, memcpy.c and memory_batch.c share, and the prototypes
 * of their per-thread-stream entry points (the toolkit declares those only under
 * CUDA_API_PER_THREAD_DEFAULT_STREAM).
 */
#ifndef MINICUDART_MEMORY_H
#define MINICUDART_MEMORY_H

#include "internal.h"

/* Whether kind is one of the five cudaMemcpyKind values. */
static inline bool rt_memcpy_kind_valid(enum cudaMemcpyKind kind)
{
    return kind == cudaMemcpyHostToHost || kind == cudaMemcpyHostToDevice ||
           kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice ||
           kind == cudaMemcpyDefault;
}

static inline CUdeviceptr rt_dptr(const void *p)
{
    return (CUdeviceptr)(uintptr_t)p;
}

/* memory.c: the device address of [symbol + offset, + count) on the current device for a copy
 * to (to_symbol) or from a __device__/__constant__ variable, after checking that the kind names
 * the device on the symbol's side. */
cudaError_t rt_symbol_side(const void *symbol, size_t count, size_t offset,
                           enum cudaMemcpyKind kind, bool to_symbol, CUdeviceptr *out);

/* memcpy.c: bytes per element of a CUDA array (format size times channels), or 0 for a format
 * whose elements are not whole bytes per texel (block-compressed, planar YUV). */
size_t rt_array_element_size(const CUDA_ARRAY3D_DESCRIPTOR *desc);


RT_API cudaError_t cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t count,
                                        enum cudaMemcpyKind kind, cudaStream_t stream);
RT_API cudaError_t cudaMemsetAsync_ptsz(void *devPtr, int value, size_t count,
                                        cudaStream_t stream);
RT_API cudaError_t cudaMemcpyToSymbolAsync_ptsz(const void *symbol, const void *src, size_t count,
                                                size_t offset, enum cudaMemcpyKind kind,
                                                cudaStream_t stream);
RT_API cudaError_t cudaMemcpyFromSymbolAsync_ptsz(void *dst, const void *symbol, size_t count,
                                                  size_t offset, enum cudaMemcpyKind kind,
                                                  cudaStream_t stream);
RT_API cudaError_t cudaMemcpy2D_ptds(void *dst, size_t dpitch, const void *src, size_t spitch,
                                     size_t width, size_t height, enum cudaMemcpyKind kind);
RT_API cudaError_t cudaMemcpy2DAsync_ptsz(void *dst, size_t dpitch, const void *src,
                                          size_t spitch, size_t width, size_t height,
                                          enum cudaMemcpyKind kind, cudaStream_t stream);
RT_API cudaError_t cudaMemset2D_ptds(void *devPtr, size_t pitch, int value, size_t width,
                                     size_t height);
RT_API cudaError_t cudaMemset2DAsync_ptsz(void *devPtr, size_t pitch, int value, size_t width,
                                          size_t height, cudaStream_t stream);
RT_API cudaError_t cudaMemcpy3D_ptds(const struct cudaMemcpy3DParms *p);
RT_API cudaError_t cudaMemcpy3DAsync_ptsz(const struct cudaMemcpy3DParms *p, cudaStream_t stream);
RT_API cudaError_t cudaMemset3D_ptds(struct cudaPitchedPtr pitchedDevPtr, int value,
                                     struct cudaExtent extent);
RT_API cudaError_t cudaMemset3DAsync_ptsz(struct cudaPitchedPtr pitchedDevPtr, int value,
                                          struct cudaExtent extent, cudaStream_t stream);
RT_API cudaError_t cudaMemcpy3DPeer_ptds(const struct cudaMemcpy3DPeerParms *p);
RT_API cudaError_t cudaMemcpy3DPeerAsync_ptsz(const struct cudaMemcpy3DPeerParms *p,
                                              cudaStream_t stream);
RT_API cudaError_t cudaMemPrefetchAsync_ptsz(const void *devPtr, size_t count,
                                             struct cudaMemLocation location, unsigned int flags,
                                             cudaStream_t stream);
RT_API cudaError_t cudaMemcpyBatchAsync_ptsz(void *const *dsts, const void *const *srcs,
                                             const size_t *sizes, size_t count,
                                             struct cudaMemcpyAttributes *attrs,
                                             size_t *attrsIdxs, size_t numAttrs,
                                             cudaStream_t stream);
RT_API cudaError_t cudaMemcpy3DBatchAsync_ptsz(size_t numOps, struct cudaMemcpy3DBatchOp *opList,
                                               unsigned long long flags, cudaStream_t stream);
RT_API cudaError_t cudaMemPrefetchBatchAsync_ptsz(void **dptrs, size_t *sizes, size_t count,
                                                  struct cudaMemLocation *prefetchLocs,
                                                  size_t *prefetchLocIdxs,
                                                  size_t numPrefetchLocs,
                                                  unsigned long long flags, cudaStream_t stream);
RT_API cudaError_t cudaMemDiscardBatchAsync_ptsz(void **dptrs, size_t *sizes, size_t count,
                                                 unsigned long long flags, cudaStream_t stream);
RT_API cudaError_t cudaMemDiscardAndPrefetchBatchAsync_ptsz(void **dptrs, size_t *sizes,
                                                            size_t count,
                                                            struct cudaMemLocation *prefetchLocs,
                                                            size_t *prefetchLocIdxs,
                                                            size_t numPrefetchLocs,
                                                            unsigned long long flags,
                                                            cudaStream_t stream);
RT_API cudaError_t cudaStreamAttachMemAsync_ptsz(cudaStream_t stream, void *devPtr, size_t length,
                                                 unsigned int flags);

#endif
