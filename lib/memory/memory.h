/*
 * memory/memory.h - what the rooms of memory share, and the prototypes of their per-thread-stream
 * entry points (the toolkit declares those only under CUDA_API_PER_THREAD_DEFAULT_STREAM).
 *
 *   memory.c        cudaMalloc and friends, symbols (__device__ / __constant__ variables)
 *   memcpy.c        cudaMemcpy*, cudaMemset*: linear copies, 2D and 3D
 *   memory_host.c   pinned and registered host memory, managed memory, prefetch and advice
 *   memory_batch.c  cudaMemcpyBatchAsync and kin
 *   mempool.c       stream-ordered allocation (cudaMallocAsync) and memory pools
 *   array.c         CUDA arrays: channel formats, create and free (array.h)
 *   array_props.c   what an array is: descriptors, planes, sparse and memory requirements
 *   array_copy.c    copies to, from and between arrays (the cudaMemcpy*Array family)
 *   texture.c       texture and surface objects
 *
 * Below: load/ (a symbol is a registered variable), device/, core/.  A layer of one rank with
 * launch/ and stream/: none of the three calls another.
 */
#ifndef MINICUDART_MEMORY_H
#define MINICUDART_MEMORY_H

#include "load/load.h"

/* Whether kind is one of the five cudaMemcpyKind values. */
RT_INLINE bool rt_memcpy_kind_valid(enum cudaMemcpyKind kind)
{
    return kind == cudaMemcpyHostToHost || kind == cudaMemcpyHostToDevice ||
           kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice ||
           kind == cudaMemcpyDefault;
}

RT_INLINE CUdeviceptr rt_dptr(const void *p)
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

/* ---- mempool.c ------------------------------------------------------------------------------ */

/* Enters the thread's context (current) and checks a device number (target). */
cudaError_t rt_pool_device(int device, rt_device **current, rt_device **target);

/* ---- the _ptds and _ptsz variants ------------------------------------------------------------ */

RT_API cudaError_t cudaMemcpy_ptds(void *dst, const void *src, size_t count,
                                   enum cudaMemcpyKind kind);
RT_API cudaError_t cudaMemset_ptds(void *devPtr, int value, size_t count);
RT_API cudaError_t cudaMemcpyToSymbol_ptds(const void *symbol, const void *src, size_t count,
                                           size_t offset, enum cudaMemcpyKind kind);
RT_API cudaError_t cudaMemcpyFromSymbol_ptds(void *dst, const void *symbol, size_t count,
                                             size_t offset, enum cudaMemcpyKind kind);
RT_API cudaError_t cudaMallocAsync_ptsz(void **devPtr, size_t size, cudaStream_t hStream);
RT_API cudaError_t cudaFreeAsync_ptsz(void *devPtr, cudaStream_t hStream);
RT_API cudaError_t cudaMallocFromPoolAsync_ptsz(void **ptr, size_t size, cudaMemPool_t memPool,
                                                cudaStream_t stream);
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
