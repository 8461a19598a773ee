// conf_misuse_memory.cu - invalid inputs to device memory, copies, sets, peer copies, symbols,
// pitched 2D/3D memory and batches of copies, prefetches and discards, one case each (the runner and the line format: misuse.h).  Copies never
// reach past the end of an allocation (on a GPU that could corrupt memory or break the context
// for every later case); "freed" pointers are freed by the case itself.
#include "misuse.h"

// The per-thread-default-stream variants; the toolkit declares them only in such builds.
extern "C" {
cudaError_t CUDARTAPI cudaMemcpy_ptds(void *dst, const void *src, size_t count,
                                      enum cudaMemcpyKind kind);
cudaError_t CUDARTAPI cudaMemset_ptds(void *devPtr, int value, size_t count);
cudaError_t CUDARTAPI cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t count,
                                           enum cudaMemcpyKind kind, cudaStream_t stream);
cudaError_t CUDARTAPI cudaMemsetAsync_ptsz(void *devPtr, int value, size_t count,
                                           cudaStream_t stream);
cudaError_t CUDARTAPI cudaMemcpyToSymbol_ptds(const void *symbol, const void *src, size_t count,
                                              size_t offset, enum cudaMemcpyKind kind);
cudaError_t CUDARTAPI cudaMemcpyFromSymbol_ptds(void *dst, const void *symbol, size_t count,
                                                size_t offset, enum cudaMemcpyKind kind);
cudaError_t CUDARTAPI cudaMemcpyToSymbolAsync_ptsz(const void *symbol, const void *src,
                                                   size_t count, size_t offset,
                                                   enum cudaMemcpyKind kind, cudaStream_t stream);
cudaError_t CUDARTAPI cudaMemcpyFromSymbolAsync_ptsz(void *dst, const void *symbol, size_t count,
                                                     size_t offset, enum cudaMemcpyKind kind,
                                                     cudaStream_t stream);
cudaError_t CUDARTAPI cudaMemcpy2D_ptds(void *dst, size_t dpitch, const void *src, size_t spitch,
                                        size_t width, size_t height, enum cudaMemcpyKind kind);
cudaError_t CUDARTAPI cudaMemcpy2DAsync_ptsz(void *dst, size_t dpitch, const void *src,
                                             size_t spitch, size_t width, size_t height,
                                             enum cudaMemcpyKind kind, cudaStream_t stream);
cudaError_t CUDARTAPI cudaMemset2D_ptds(void *devPtr, size_t pitch, int value, size_t width,
                                        size_t height);
cudaError_t CUDARTAPI cudaMemset2DAsync_ptsz(void *devPtr, size_t pitch, int value, size_t width,
                                             size_t height, cudaStream_t stream);
cudaError_t CUDARTAPI cudaMemset3D_ptds(struct cudaPitchedPtr pitchedDevPtr, int value,
                                        struct cudaExtent extent);
cudaError_t CUDARTAPI cudaMemset3DAsync_ptsz(struct cudaPitchedPtr pitchedDevPtr, int value,
                                             struct cudaExtent extent, cudaStream_t stream);
cudaError_t CUDARTAPI cudaMemcpy3D_ptds(const struct cudaMemcpy3DParms *p);
cudaError_t CUDARTAPI cudaMemcpy3DAsync_ptsz(const struct cudaMemcpy3DParms *p,
                                             cudaStream_t stream);
cudaError_t CUDARTAPI cudaMemcpy3DPeer_ptds(const struct cudaMemcpy3DPeerParms *p);
cudaError_t CUDARTAPI cudaMemcpy3DPeerAsync_ptsz(const struct cudaMemcpy3DPeerParms *p,
                                                 cudaStream_t stream);
cudaError_t CUDARTAPI cudaMemcpyBatchAsync_ptsz(void *const *dsts, const void *const *srcs,
                                                const size_t *sizes, size_t count,
                                                struct cudaMemcpyAttributes *attrs,
                                                size_t *attrsIdxs, size_t numAttrs,
                                                cudaStream_t stream);
cudaError_t CUDARTAPI cudaMemcpy3DBatchAsync_ptsz(size_t numOps, struct cudaMemcpy3DBatchOp *opList,
                                                  unsigned long long flags, cudaStream_t stream);
cudaError_t CUDARTAPI cudaMemDiscardBatchAsync_ptsz(void **dptrs, size_t *sizes, size_t count,
                                                    unsigned long long flags,
                                                    cudaStream_t stream);
}

#define BYTES 4096

__device__ int symbol[16];            // 64 bytes

// Fixtures, made at every start.
static int count;                     // devices; also the first invalid ordinal
static cudaStream_t s;
static char *d, *d2;                  // device memory, BYTES each
static char *pinned;                  // cudaMallocHost, BYTES
static char *managed;                 // cudaMallocManaged, BYTES
static char *pitched;                 // cudaMallocPitch: 64 bytes x 8 rows
static size_t pitch;
static cudaPitchedPtr pitched3d;      // cudaMalloc3D: 64 bytes x 4 rows x 2 slices
static unsigned char *page = misuse_host_page;

static void *out_ptr;
static size_t out_size, out_free, out_total;
static cudaPitchedPtr out_pitched;
static cudaMemcpy3DParms p3;
static cudaMemcpy3DPeerParms peer3;

static void setup(void)
{
    CHECK(cudaGetDeviceCount(&count));
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaMalloc((void **)&d, BYTES));
    CHECK(cudaMalloc((void **)&d2, BYTES));
    CHECK(cudaMemset(d, 0, BYTES));
    CHECK(cudaMemset(d2, 0, BYTES));
    CHECK(cudaMallocHost((void **)&pinned, BYTES));
    CHECK(cudaMallocManaged((void **)&managed, BYTES, cudaMemAttachGlobal));
    CHECK(cudaMallocPitch((void **)&pitched, &pitch, 64, 8));
    CHECK(cudaMalloc3D(&pitched3d, make_cudaExtent(64, 4, 2)));
}

// A device pointer that was just freed (the address a program kept after cudaFree).
static void *freed_device_pointer(void)
{
    void *p = NULL;
    CHECK(cudaMalloc(&p, BYTES));
    CHECK(cudaFree(p));
    return p;
}

// 3D copy parameters between the two pitched fixtures, for the cases to spoil one field of.
static cudaMemcpy3DParms *copy3d(cudaMemcpyKind kind)
{
    memset(&p3, 0, sizeof p3);
    p3.srcPtr = make_cudaPitchedPtr(d, 64, 64, 4);
    p3.dstPtr = pitched3d;
    p3.extent = make_cudaExtent(64, 4, 1);
    p3.kind = kind;
    return &p3;
}

static cudaMemcpy3DPeerParms *peer_copy3d(int src_device, int dst_device)
{
    memset(&peer3, 0, sizeof peer3);
    peer3.srcPtr = make_cudaPitchedPtr(d, 64, 64, 4);
    peer3.dstPtr = pitched3d;
    peer3.srcDevice = src_device;
    peer3.dstDevice = dst_device;
    peer3.extent = make_cudaExtent(64, 4, 1);
    return &peer3;
}

static const cudaMemcpyKind BAD_KIND = (cudaMemcpyKind)99;

// Valid batches, filled again by each batch case before it spoils one part: two copies
// (d -> d2, d2 + 64 -> d + 64; 64 bytes each, one attribute), one 3D copy (d -> d2, 64 x 4
// bytes), and two managed ranges (the halves of `managed`) with one location, device 0.
static void *b_dsts[2];
static const void *b_srcs[2];
static size_t b_sizes[2], b_idxs[2];
static cudaMemcpyAttributes b_attrs[2];
static cudaMemcpy3DBatchOp b_op;
static void *r_ptrs[2];
static size_t r_sizes[2], r_idxs[2];
static cudaMemLocation r_locs[2];

static void fill_batches(void)
{
    b_dsts[0] = d2;
    b_dsts[1] = d + 64;
    b_srcs[0] = d;
    b_srcs[1] = d2 + 64;
    b_sizes[0] = b_sizes[1] = 64;
    b_idxs[0] = 0;
    b_idxs[1] = 1;
    memset(b_attrs, 0, sizeof b_attrs);
    b_attrs[0].srcAccessOrder = b_attrs[1].srcAccessOrder = cudaMemcpySrcAccessOrderStream;
    memset(&b_op, 0, sizeof b_op);
    b_op.src.type = b_op.dst.type = cudaMemcpyOperandTypePointer;
    b_op.src.op.ptr.ptr = d;
    b_op.dst.op.ptr.ptr = d2;
    b_op.extent = make_cudaExtent(64, 4, 1);
    b_op.srcAccessOrder = cudaMemcpySrcAccessOrderStream;
    r_ptrs[0] = managed;
    r_ptrs[1] = managed + BYTES / 2;
    r_sizes[0] = r_sizes[1] = BYTES / 2;
    r_idxs[0] = 0;
    r_idxs[1] = 1;
    r_locs[0].type = r_locs[1].type = cudaMemLocationTypeDevice;
    r_locs[0].id = r_locs[1].id = 0;
}

static cudaError_t copy_batch(size_t num_attrs, cudaStream_t stream)
{
    return cudaMemcpyBatchAsync(b_dsts, b_srcs, b_sizes, 2, b_attrs, b_idxs, num_attrs, stream);
}

static cudaError_t prefetch_batch(size_t num_locs, unsigned long long flags, cudaStream_t stream)
{
    return cudaMemPrefetchBatchAsync(r_ptrs, r_sizes, 2, r_locs, r_idxs, num_locs, flags,
                                     stream);
}

static const misuse_case cases[] = {
    // ---- allocation and freeing ----
    {"cudaMalloc.null_out", [] { return cudaMalloc(NULL, 16); }},
    {"cudaMalloc.size_1EB", [] { return cudaMalloc(&out_ptr, (size_t)1 << 60); }},
    {"cudaMalloc.size_max", [] { return cudaMalloc(&out_ptr, SIZE_MAX); }},
    {"cudaFree.twice", [] { return cudaFree(freed_device_pointer()); }},
    {"cudaFree.interior_pointer", [] { return cudaFree(d + 16); }},
    {"cudaFree.pageable_host_pointer", [] { return cudaFree(page); }},
    {"cudaFree.pinned_host_pointer", [] { return cudaFree(pinned); }},

    // ---- copies ----
    {"cudaMemcpy.null_dst", [] { return cudaMemcpy(NULL, d, 16, cudaMemcpyDeviceToHost); }},
    {"cudaMemcpy.null_src", [] { return cudaMemcpy(d, NULL, 16, cudaMemcpyHostToDevice); }},
    {"cudaMemcpy.null_both_count_0", [] { return cudaMemcpy(NULL, NULL, 0, cudaMemcpyDefault); }},
    {"cudaMemcpy.unknown_kind", [] { return cudaMemcpy(d, d2, 16, BAD_KIND); }},
    {"cudaMemcpy.unknown_kind_count_0", [] { return cudaMemcpy(d, d2, 0, BAD_KIND); }},
    {"cudaMemcpy.freed_src", [] { return cudaMemcpy(page, freed_device_pointer(), 16,
                                                    cudaMemcpyDeviceToHost); }},
    {"cudaMemcpy.freed_dst", [] { return cudaMemcpy(freed_device_pointer(), page, 16,
                                                    cudaMemcpyHostToDevice); }},
    // Wrong kinds: the pointers name other memory than the kind says.
    {"cudaMemcpy.h2d_between_device_pointers",
     [] { return cudaMemcpy(d, d2, 16, cudaMemcpyHostToDevice); }},
    {"cudaMemcpy.d2h_between_device_pointers",
     [] { return cudaMemcpy(d, d2, 16, cudaMemcpyDeviceToHost); }},
    {"cudaMemcpy.d2h_from_pageable",
     [] { return cudaMemcpy(page + 64, page, 16, cudaMemcpyDeviceToHost); }},
    {"cudaMemcpy.h2d_to_pageable",
     [] { return cudaMemcpy(page + 64, page, 16, cudaMemcpyHostToDevice); }},
    {"cudaMemcpy.d2d_between_pageable",
     [] { return cudaMemcpy(page + 64, page, 16, cudaMemcpyDeviceToDevice); }},
    {"cudaMemcpy.d2d_from_pinned",
     [] { return cudaMemcpy(d, pinned, 16, cudaMemcpyDeviceToDevice); }},
    // NVIDIA's runtime may copy on the CPU for this kind, from and to device addresses.
    {"cudaMemcpy.h2h_between_device_pointers",
     [] { return cudaMemcpy(d, d2, 16, cudaMemcpyHostToHost); }},
    {"cudaMemcpy_ptds.null_dst",
     [] { return cudaMemcpy_ptds(NULL, d, 16, cudaMemcpyDeviceToHost); }},
    {"cudaMemcpy_ptds.unknown_kind", [] { return cudaMemcpy_ptds(d, d2, 16, BAD_KIND); }},
    {"cudaMemcpy_ptds.freed_src", [] { return cudaMemcpy_ptds(page, freed_device_pointer(), 16,
                                                              cudaMemcpyDeviceToHost); }},
    {"cudaMemcpyAsync.null_dst",
     [] { return cudaMemcpyAsync(NULL, d, 16, cudaMemcpyDeviceToHost, s); }},
    {"cudaMemcpyAsync.unknown_kind", [] { return cudaMemcpyAsync(d, d2, 16, BAD_KIND, s); }},
    {"cudaMemcpyAsync.h2d_between_device_pointers",
     [] { return cudaMemcpyAsync(d, d2, 16, cudaMemcpyHostToDevice, s); }},
    {"cudaMemcpyAsync.freed_src", [] { return cudaMemcpyAsync(page, freed_device_pointer(), 16,
                                                              cudaMemcpyDeviceToHost, s); }},
    {"cudaMemcpyAsync_ptsz.null_src",
     [] { return cudaMemcpyAsync_ptsz(d, NULL, 16, cudaMemcpyHostToDevice, 0); }},
    {"cudaMemcpyAsync_ptsz.unknown_kind",
     [] { return cudaMemcpyAsync_ptsz(d, d2, 16, BAD_KIND, 0); }},

    // ---- sets ----
    {"cudaMemset.null", [] { return cudaMemset(NULL, 0, 16); }},
    {"cudaMemset.null_count_0", [] { return cudaMemset(NULL, 0, 0); }},
    {"cudaMemset.freed", [] { return cudaMemset(freed_device_pointer(), 0, 16); }},
    {"cudaMemset.pageable_host_pointer", [] { return cudaMemset(page, 0, 16); }},
    {"cudaMemset_ptds.null", [] { return cudaMemset_ptds(NULL, 0, 16); }},
    {"cudaMemset_ptds.pageable_host_pointer", [] { return cudaMemset_ptds(page, 0, 16); }},
    {"cudaMemsetAsync.null", [] { return cudaMemsetAsync(NULL, 0, 16, s); }},
    {"cudaMemsetAsync.freed", [] { return cudaMemsetAsync(freed_device_pointer(), 0, 16, s); }},
    {"cudaMemsetAsync_ptsz.null", [] { return cudaMemsetAsync_ptsz(NULL, 0, 16, 0); }},
    {"cudaMemsetAsync_ptsz.pageable_host_pointer",
     [] { return cudaMemsetAsync_ptsz(page, 0, 16, 0); }},

    // ---- peer copies ----
    {"cudaMemcpyPeer.dst_device_count", [] { return cudaMemcpyPeer(d, count, d2, 0, 16); }},
    {"cudaMemcpyPeer.src_device_negative", [] { return cudaMemcpyPeer(d, 0, d2, -1, 16); }},
    {"cudaMemcpyPeer.null_dst", [] { return cudaMemcpyPeer(NULL, 0, d2, 0, 16); }},
    {"cudaMemcpyPeer.pageable_src", [] { return cudaMemcpyPeer(d, 0, page, 0, 16); }},
    {"cudaMemcpyPeerAsync.src_device_count",
     [] { return cudaMemcpyPeerAsync(d, 0, d2, count, 16, s); }},
    {"cudaMemcpyPeerAsync.null_src", [] { return cudaMemcpyPeerAsync(d, 0, NULL, 0, 16, s); }},
    {"cudaMemcpyPeerAsync.pinned_dst", [] { return cudaMemcpyPeerAsync(pinned, 0, d2, 0, 16, s); }},
    {"cudaMemGetInfo.null_free", [] { return cudaMemGetInfo(NULL, &out_total); }},
    {"cudaMemGetInfo.null_total", [] { return cudaMemGetInfo(&out_free, NULL); }},

    // ---- symbols (symbol: 64 bytes) ----
    {"cudaMemcpyToSymbol.not_a_symbol",
     [] { return cudaMemcpyToSymbol(page, pinned, 4, 0, cudaMemcpyHostToDevice); }},
    {"cudaMemcpyToSymbol.null_symbol",
     [] { return cudaMemcpyToSymbol(NULL, pinned, 4, 0, cudaMemcpyHostToDevice); }},
    {"cudaMemcpyToSymbol.offset_past_end",
     [] { return cudaMemcpyToSymbol(symbol, pinned, 4, 64, cudaMemcpyHostToDevice); }},
    {"cudaMemcpyToSymbol.count_past_end",
     [] { return cudaMemcpyToSymbol(symbol, pinned, 68, 0, cudaMemcpyHostToDevice); }},
    {"cudaMemcpyToSymbol.kind_d2h",
     [] { return cudaMemcpyToSymbol(symbol, pinned, 4, 0, cudaMemcpyDeviceToHost); }},
    {"cudaMemcpyToSymbol.kind_h2h",
     [] { return cudaMemcpyToSymbol(symbol, pinned, 4, 0, cudaMemcpyHostToHost); }},
    {"cudaMemcpyToSymbol.unknown_kind",
     [] { return cudaMemcpyToSymbol(symbol, pinned, 4, 0, BAD_KIND); }},
    {"cudaMemcpyToSymbol.null_src",
     [] { return cudaMemcpyToSymbol(symbol, NULL, 4, 0, cudaMemcpyHostToDevice); }},
    {"cudaMemcpyToSymbol_ptds.not_a_symbol",
     [] { return cudaMemcpyToSymbol_ptds(page, pinned, 4, 0, cudaMemcpyHostToDevice); }},
    {"cudaMemcpyToSymbol_ptds.count_past_end",
     [] { return cudaMemcpyToSymbol_ptds(symbol, pinned, 68, 0, cudaMemcpyHostToDevice); }},
    {"cudaMemcpyFromSymbol.not_a_symbol",
     [] { return cudaMemcpyFromSymbol(pinned, page, 4, 0, cudaMemcpyDeviceToHost); }},
    {"cudaMemcpyFromSymbol.offset_past_end",
     [] { return cudaMemcpyFromSymbol(pinned, symbol, 4, 61, cudaMemcpyDeviceToHost); }},
    {"cudaMemcpyFromSymbol.kind_h2d",
     [] { return cudaMemcpyFromSymbol(pinned, symbol, 4, 0, cudaMemcpyHostToDevice); }},
    {"cudaMemcpyFromSymbol.null_dst",
     [] { return cudaMemcpyFromSymbol(NULL, symbol, 4, 0, cudaMemcpyDeviceToHost); }},
    {"cudaMemcpyFromSymbol_ptds.not_a_symbol",
     [] { return cudaMemcpyFromSymbol_ptds(pinned, page, 4, 0, cudaMemcpyDeviceToHost); }},
    {"cudaMemcpyFromSymbol_ptds.kind_h2d",
     [] { return cudaMemcpyFromSymbol_ptds(pinned, symbol, 4, 0, cudaMemcpyHostToDevice); }},
    {"cudaMemcpyToSymbolAsync.not_a_symbol",
     [] { return cudaMemcpyToSymbolAsync(page, pinned, 4, 0, cudaMemcpyHostToDevice, s); }},
    {"cudaMemcpyToSymbolAsync.count_past_end",
     [] { return cudaMemcpyToSymbolAsync(symbol, pinned, 68, 0, cudaMemcpyHostToDevice, s); }},
    {"cudaMemcpyToSymbolAsync.kind_d2h",
     [] { return cudaMemcpyToSymbolAsync(symbol, pinned, 4, 0, cudaMemcpyDeviceToHost, s); }},
    {"cudaMemcpyToSymbolAsync_ptsz.not_a_symbol",
     [] { return cudaMemcpyToSymbolAsync_ptsz(page, pinned, 4, 0, cudaMemcpyHostToDevice, 0); }},
    {"cudaMemcpyToSymbolAsync_ptsz.unknown_kind",
     [] { return cudaMemcpyToSymbolAsync_ptsz(symbol, pinned, 4, 0, BAD_KIND, 0); }},
    {"cudaMemcpyFromSymbolAsync.not_a_symbol",
     [] { return cudaMemcpyFromSymbolAsync(pinned, page, 4, 0, cudaMemcpyDeviceToHost, s); }},
    {"cudaMemcpyFromSymbolAsync.offset_past_end",
     [] { return cudaMemcpyFromSymbolAsync(pinned, symbol, 4, 64, cudaMemcpyDeviceToHost, s); }},
    {"cudaMemcpyFromSymbolAsync.kind_h2d",
     [] { return cudaMemcpyFromSymbolAsync(pinned, symbol, 4, 0, cudaMemcpyHostToDevice, s); }},
    {"cudaMemcpyFromSymbolAsync_ptsz.not_a_symbol",
     [] { return cudaMemcpyFromSymbolAsync_ptsz(pinned, page, 4, 0, cudaMemcpyDeviceToHost, 0); }},
    {"cudaMemcpyFromSymbolAsync_ptsz.null_dst",
     [] { return cudaMemcpyFromSymbolAsync_ptsz(NULL, symbol, 4, 0, cudaMemcpyDeviceToHost, 0); }},
    // A copy of nothing succeeds before its symbol and direction are looked at; the symbol
    // comes before a NULL output.
    {"cudaMemcpyToSymbol.nothing_all_null",
     [] { return cudaMemcpyToSymbol(NULL, NULL, 0, 0, cudaMemcpyHostToHost); }},
    {"cudaMemcpyFromSymbol.nothing_all_null",
     [] { return cudaMemcpyFromSymbol(NULL, NULL, 0, 0, cudaMemcpyHostToHost); }},
    {"cudaMemcpyToSymbolAsync.nothing_all_null",
     [] { return cudaMemcpyToSymbolAsync(NULL, NULL, 0, 0, cudaMemcpyHostToHost, s); }},
    {"cudaMemcpyFromSymbolAsync_ptsz.nothing_all_null",
     [] { return cudaMemcpyFromSymbolAsync_ptsz(NULL, NULL, 0, 0, cudaMemcpyHostToHost, 0); }},
    {"cudaGetSymbolAddress.both_null", [] { return cudaGetSymbolAddress(NULL, NULL); }},
    {"cudaGetSymbolSize.both_null", [] { return cudaGetSymbolSize(NULL, NULL); }},
    {"cudaGetSymbolAddress.null_out", [] { return cudaGetSymbolAddress(NULL, symbol); }},
    {"cudaGetSymbolAddress.not_a_symbol", [] { return cudaGetSymbolAddress(&out_ptr, page); }},
    {"cudaGetSymbolAddress.null_symbol", [] { return cudaGetSymbolAddress(&out_ptr, NULL); }},
    {"cudaGetSymbolSize.null_out", [] { return cudaGetSymbolSize(NULL, symbol); }},
    {"cudaGetSymbolSize.not_a_symbol", [] { return cudaGetSymbolSize(&out_size, page); }},
    {"cudaGetSymbolSize.device_pointer", [] { return cudaGetSymbolSize(&out_size, d); }},

    // ---- pitched allocations ----
    {"cudaMallocPitch.null_out", [] { return cudaMallocPitch(NULL, &out_size, 64, 8); }},
    {"cudaMallocPitch.null_pitch", [] { return cudaMallocPitch(&out_ptr, NULL, 64, 8); }},
    {"cudaMallocPitch.width_1TB", [] { return cudaMallocPitch(&out_ptr, &out_size,
                                                              (size_t)1 << 40, 2); }},
    {"cudaMalloc3D.null_out", [] { return cudaMalloc3D(NULL, make_cudaExtent(64, 4, 2)); }},
    {"cudaMalloc3D.extent_overflow",
     [] { return cudaMalloc3D(&out_pitched, make_cudaExtent(64, SIZE_MAX / 2, 4)); }},

    // ---- 2D copies and sets (pitched: 64 x 8) ----
    {"cudaMemcpy2D.dpitch_below_width",
     [] { return cudaMemcpy2D(pitched, 32, d, 64, 64, 2, cudaMemcpyDeviceToDevice); }},
    {"cudaMemcpy2D.spitch_below_width",
     [] { return cudaMemcpy2D(pitched, pitch, d, 32, 64, 2, cudaMemcpyDeviceToDevice); }},
    {"cudaMemcpy2D.null_dst",
     [] { return cudaMemcpy2D(NULL, pitch, d, 64, 64, 2, cudaMemcpyDeviceToDevice); }},
    {"cudaMemcpy2D.unknown_kind", [] { return cudaMemcpy2D(pitched, pitch, d, 64, 64, 2,
                                                           BAD_KIND); }},
    {"cudaMemcpy2D_ptds.spitch_below_width",
     [] { return cudaMemcpy2D_ptds(pitched, pitch, d, 32, 64, 2, cudaMemcpyDeviceToDevice); }},
    {"cudaMemcpy2D_ptds.null_src",
     [] { return cudaMemcpy2D_ptds(pitched, pitch, NULL, 64, 64, 2, cudaMemcpyDeviceToDevice); }},
    {"cudaMemcpy2DAsync.dpitch_below_width",
     [] { return cudaMemcpy2DAsync(pitched, 32, d, 64, 64, 2, cudaMemcpyDeviceToDevice, s); }},
    {"cudaMemcpy2DAsync.unknown_kind",
     [] { return cudaMemcpy2DAsync(pitched, pitch, d, 64, 64, 2, BAD_KIND, s); }},
    {"cudaMemcpy2DAsync_ptsz.null_dst",
     [] { return cudaMemcpy2DAsync_ptsz(NULL, pitch, d, 64, 64, 2, cudaMemcpyDeviceToDevice, 0); }},
    {"cudaMemcpy2DAsync_ptsz.spitch_below_width",
     [] { return cudaMemcpy2DAsync_ptsz(pitched, pitch, d, 32, 64, 2, cudaMemcpyDeviceToDevice,
                                        0); }},
    {"cudaMemset2D.null", [] { return cudaMemset2D(NULL, pitch, 0, 64, 2); }},
    {"cudaMemset2D.pitch_below_width", [] { return cudaMemset2D(pitched, 32, 0, 64, 2); }},
    {"cudaMemset2D.pageable_host_pointer", [] { return cudaMemset2D(page, 64, 0, 64, 2); }},
    {"cudaMemset2D_ptds.null", [] { return cudaMemset2D_ptds(NULL, pitch, 0, 64, 2); }},
    {"cudaMemset2D_ptds.pitch_below_width",
     [] { return cudaMemset2D_ptds(pitched, 32, 0, 64, 2); }},
    {"cudaMemset2DAsync.null", [] { return cudaMemset2DAsync(NULL, pitch, 0, 64, 2, s); }},
    {"cudaMemset2DAsync.pitch_below_width",
     [] { return cudaMemset2DAsync(pitched, 32, 0, 64, 2, s); }},
    {"cudaMemset2DAsync_ptsz.null",
     [] { return cudaMemset2DAsync_ptsz(NULL, pitch, 0, 64, 2, 0); }},
    {"cudaMemset2DAsync_ptsz.pitch_below_width",
     [] { return cudaMemset2DAsync_ptsz(pitched, 32, 0, 64, 2, 0); }},

    // ---- 3D sets and copies (pitched3d: 64 x 4 x 2) ----
    {"cudaMemset3D.null_ptr",
     [] { return cudaMemset3D(make_cudaPitchedPtr(NULL, pitched3d.pitch, 64, 4), 0,
                              make_cudaExtent(64, 4, 2)); }},
    {"cudaMemset3D.pitch_below_width",
     [] { return cudaMemset3D(make_cudaPitchedPtr(pitched3d.ptr, 32, 64, 4), 0,
                              make_cudaExtent(64, 4, 2)); }},
    {"cudaMemset3D.height_above_ysize",
     [] { return cudaMemset3D(pitched3d, 0, make_cudaExtent(64, 5, 2)); }},
    {"cudaMemset3D_ptds.null_ptr",
     [] { return cudaMemset3D_ptds(make_cudaPitchedPtr(NULL, pitched3d.pitch, 64, 4), 0,
                                   make_cudaExtent(64, 4, 2)); }},
    {"cudaMemset3D_ptds.pitch_below_width",
     [] { return cudaMemset3D_ptds(make_cudaPitchedPtr(pitched3d.ptr, 32, 64, 4), 0,
                                   make_cudaExtent(64, 4, 2)); }},
    {"cudaMemset3DAsync.null_ptr",
     [] { return cudaMemset3DAsync(make_cudaPitchedPtr(NULL, pitched3d.pitch, 64, 4), 0,
                                   make_cudaExtent(64, 4, 2), s); }},
    {"cudaMemset3DAsync.height_above_ysize",
     [] { return cudaMemset3DAsync(pitched3d, 0, make_cudaExtent(64, 5, 2), s); }},
    {"cudaMemset3DAsync_ptsz.null_ptr",
     [] { return cudaMemset3DAsync_ptsz(make_cudaPitchedPtr(NULL, pitched3d.pitch, 64, 4), 0,
                                        make_cudaExtent(64, 4, 2), 0); }},
    {"cudaMemset3DAsync_ptsz.pitch_below_width",
     [] { return cudaMemset3DAsync_ptsz(make_cudaPitchedPtr(pitched3d.ptr, 32, 64, 4), 0,
                                        make_cudaExtent(64, 4, 2), 0); }},
    {"cudaMemcpy3D.null_params", [] { return cudaMemcpy3D(NULL); }},
    {"cudaMemcpy3D.unknown_kind", [] { return cudaMemcpy3D(copy3d(BAD_KIND)); }},
    {"cudaMemcpy3D.null_src",
     [] {
         cudaMemcpy3DParms *p = copy3d(cudaMemcpyDeviceToDevice);
         p->srcPtr.ptr = NULL;
         return cudaMemcpy3D(p);
     }},
    {"cudaMemcpy3D.null_dst",
     [] {
         cudaMemcpy3DParms *p = copy3d(cudaMemcpyDeviceToDevice);
         p->dstPtr.ptr = NULL;
         return cudaMemcpy3D(p);
     }},
    {"cudaMemcpy3D.dst_pitch_below_width",
     [] {
         cudaMemcpy3DParms *p = copy3d(cudaMemcpyDeviceToDevice);
         p->dstPtr.pitch = 32;
         return cudaMemcpy3D(p);
     }},
    {"cudaMemcpy3D_ptds.null_params", [] { return cudaMemcpy3D_ptds(NULL); }},
    {"cudaMemcpy3D_ptds.unknown_kind", [] { return cudaMemcpy3D_ptds(copy3d(BAD_KIND)); }},
    {"cudaMemcpy3DAsync.null_params", [] { return cudaMemcpy3DAsync(NULL, s); }},
    {"cudaMemcpy3DAsync.null_src",
     [] {
         cudaMemcpy3DParms *p = copy3d(cudaMemcpyDeviceToDevice);
         p->srcPtr.ptr = NULL;
         return cudaMemcpy3DAsync(p, s);
     }},
    {"cudaMemcpy3DAsync_ptsz.null_params", [] { return cudaMemcpy3DAsync_ptsz(NULL, 0); }},
    {"cudaMemcpy3DAsync_ptsz.unknown_kind",
     [] { return cudaMemcpy3DAsync_ptsz(copy3d(BAD_KIND), 0); }},
    {"cudaMemcpy3DPeer.null_params", [] { return cudaMemcpy3DPeer(NULL); }},
    {"cudaMemcpy3DPeer.dst_device_count",
     [] { return cudaMemcpy3DPeer(peer_copy3d(0, count)); }},
    {"cudaMemcpy3DPeer.src_device_negative",
     [] { return cudaMemcpy3DPeer(peer_copy3d(-1, 0)); }},
    {"cudaMemcpy3DPeer_ptds.null_params", [] { return cudaMemcpy3DPeer_ptds(NULL); }},
    {"cudaMemcpy3DPeer_ptds.src_device_count",
     [] { return cudaMemcpy3DPeer_ptds(peer_copy3d(count, 0)); }},
    {"cudaMemcpy3DPeerAsync.null_params", [] { return cudaMemcpy3DPeerAsync(NULL, s); }},
    {"cudaMemcpy3DPeerAsync.dst_device_count",
     [] { return cudaMemcpy3DPeerAsync(peer_copy3d(0, count), s); }},
    {"cudaMemcpy3DPeerAsync_ptsz.null_params",
     [] { return cudaMemcpy3DPeerAsync_ptsz(NULL, 0); }},
    {"cudaMemcpy3DPeerAsync_ptsz.src_device_count",
     [] { return cudaMemcpy3DPeerAsync_ptsz(peer_copy3d(count, 0), 0); }},
    // ---- managed range attributes ----
    {"cudaMemRangeGetAttribute.null_data",
     [] {
         return cudaMemRangeGetAttribute(NULL, 4, cudaMemRangeAttributeReadMostly, managed,
                                         BYTES);
     }},
    {"cudaMemRangeGetAttribute.size_8",
     [] {
         static long long v;
         return cudaMemRangeGetAttribute(&v, 8, cudaMemRangeAttributeReadMostly, managed, BYTES);
     }},
    {"cudaMemRangeGetAttribute.unknown_attribute",
     [] {
         static int v;
         return cudaMemRangeGetAttribute(&v, 4, (cudaMemRangeAttribute)99, managed, BYTES);
     }},
    {"cudaMemRangeGetAttribute.device_memory",
     [] {
         static int v;
         return cudaMemRangeGetAttribute(&v, 4, cudaMemRangeAttributeReadMostly, d, BYTES);
     }},
    {"cudaMemRangeGetAttributes.null_data",
     [] {
         static size_t sizes[] = {4};
         static cudaMemRangeAttribute attrs[] = {cudaMemRangeAttributeReadMostly};
         return cudaMemRangeGetAttributes(NULL, sizes, attrs, 1, managed, BYTES);
     }},
    {"cudaMemRangeGetAttributes.null_sizes",
     [] {
         static int v;
         static void *data[] = {&v};
         static cudaMemRangeAttribute attrs[] = {cudaMemRangeAttributeReadMostly};
         return cudaMemRangeGetAttributes(data, NULL, attrs, 1, managed, BYTES);
     }},
    {"cudaMemRangeGetAttributes.range_past_end",
     [] {
         static int v;
         static void *data[] = {&v};
         static size_t sizes[] = {4};
         static cudaMemRangeAttribute attrs[] = {cudaMemRangeAttributeReadMostly};
         return cudaMemRangeGetAttributes(data, sizes, attrs, 1, managed, 2 * BYTES);
     }},

    // ---- batches of copies (fill_batches: two copies of 64 bytes, d <-> d2) ----
    // No case hands a batch a NULL or freed pointer inside its arrays: the driver may read it
    // only when the copy runs, and a fault there would break the context for every later case.
    {"cudaMemcpyBatchAsync.null_dsts",
     [] { fill_batches(); return cudaMemcpyBatchAsync(NULL, b_srcs, b_sizes, 2, b_attrs, b_idxs,
                                                      1, s); }},
    {"cudaMemcpyBatchAsync.null_srcs",
     [] { fill_batches(); return cudaMemcpyBatchAsync(b_dsts, NULL, b_sizes, 2, b_attrs, b_idxs,
                                                      1, s); }},
    {"cudaMemcpyBatchAsync.null_sizes",
     [] { fill_batches(); return cudaMemcpyBatchAsync(b_dsts, b_srcs, NULL, 2, b_attrs, b_idxs,
                                                      1, s); }},
    {"cudaMemcpyBatchAsync.null_attrs",
     [] { fill_batches(); return cudaMemcpyBatchAsync(b_dsts, b_srcs, b_sizes, 2, NULL, b_idxs,
                                                      1, s); }},
    {"cudaMemcpyBatchAsync.null_attr_idxs",
     [] { fill_batches(); return cudaMemcpyBatchAsync(b_dsts, b_srcs, b_sizes, 2, b_attrs, NULL,
                                                      1, s); }},
    {"cudaMemcpyBatchAsync.count_0",
     [] { return cudaMemcpyBatchAsync(NULL, NULL, NULL, 0, NULL, NULL, 0, s); }},
    {"cudaMemcpyBatchAsync.no_attrs", [] { fill_batches(); return copy_batch(0, s); }},
    {"cudaMemcpyBatchAsync.more_attrs_than_copies", [] { fill_batches(); return copy_batch(3, s); }},
    {"cudaMemcpyBatchAsync.first_idx_1",
     [] { fill_batches(); b_idxs[0] = 1; return copy_batch(1, s); }},
    {"cudaMemcpyBatchAsync.idxs_not_increasing",
     [] { fill_batches(); b_idxs[1] = 0; return copy_batch(2, s); }},
    {"cudaMemcpyBatchAsync.order_invalid",
     [] { fill_batches(); b_attrs[0].srcAccessOrder = cudaMemcpySrcAccessOrderInvalid;
          return copy_batch(1, s); }},
    {"cudaMemcpyBatchAsync.order_99",
     [] { fill_batches(); b_attrs[0].srcAccessOrder = (cudaMemcpySrcAccessOrder)99;
          return copy_batch(1, s); }},
    {"cudaMemcpyBatchAsync.unknown_flags",
     [] { fill_batches(); b_attrs[0].flags = 0x10; return copy_batch(1, s); }},
    {"cudaMemcpyBatchAsync.size_0",
     [] { fill_batches(); b_sizes[1] = 0; return copy_batch(1, s); }},
    {"cudaMemcpyBatchAsync.null_stream", [] { fill_batches(); return copy_batch(1, 0); }},
    {"cudaMemcpyBatchAsync.legacy_stream",
     [] { fill_batches(); return copy_batch(1, cudaStreamLegacy); }},
    {"cudaMemcpyBatchAsync_ptsz.null_stream",
     [] { fill_batches(); return cudaMemcpyBatchAsync_ptsz(b_dsts, b_srcs, b_sizes, 2, b_attrs,
                                                           b_idxs, 1, 0); }},

    // ---- batches of 3D copies (fill_batches: d -> d2, 64 x 4 bytes) ----
    {"cudaMemcpy3DBatchAsync.null_ops", [] { return cudaMemcpy3DBatchAsync(1, NULL, 0, s); }},
    {"cudaMemcpy3DBatchAsync.num_ops_0", [] { return cudaMemcpy3DBatchAsync(0, NULL, 0, s); }},
    {"cudaMemcpy3DBatchAsync.flags_1",
     [] { fill_batches(); return cudaMemcpy3DBatchAsync(1, &b_op, 1, s); }},
    {"cudaMemcpy3DBatchAsync.extent_depth_0",
     [] { fill_batches(); b_op.extent.depth = 0; return cudaMemcpy3DBatchAsync(1, &b_op, 0, s); }},
    {"cudaMemcpy3DBatchAsync.order_invalid",
     [] { fill_batches(); b_op.srcAccessOrder = cudaMemcpySrcAccessOrderInvalid;
          return cudaMemcpy3DBatchAsync(1, &b_op, 0, s); }},
    {"cudaMemcpy3DBatchAsync.row_length_short",
     [] { fill_batches(); b_op.src.op.ptr.rowLength = 32;
          return cudaMemcpy3DBatchAsync(1, &b_op, 0, s); }},
    {"cudaMemcpy3DBatchAsync.layer_height_short",
     [] { fill_batches(); b_op.dst.op.ptr.layerHeight = 2;
          return cudaMemcpy3DBatchAsync(1, &b_op, 0, s); }},
    {"cudaMemcpy3DBatchAsync.operand_type_0",
     [] { fill_batches(); b_op.dst.type = (cudaMemcpy3DOperandType)0;
          return cudaMemcpy3DBatchAsync(1, &b_op, 0, s); }},
    {"cudaMemcpy3DBatchAsync.null_pointer_operand",
     [] { fill_batches(); b_op.src.op.ptr.ptr = NULL;
          return cudaMemcpy3DBatchAsync(1, &b_op, 0, s); }},
    {"cudaMemcpy3DBatchAsync.null_array_operand",
     [] { fill_batches(); memset(&b_op.dst, 0, sizeof b_op.dst);
          b_op.dst.type = cudaMemcpyOperandTypeArray;
          return cudaMemcpy3DBatchAsync(1, &b_op, 0, s); }},
    {"cudaMemcpy3DBatchAsync.null_stream",
     [] { fill_batches(); return cudaMemcpy3DBatchAsync(1, &b_op, 0, 0); }},
    {"cudaMemcpy3DBatchAsync_ptsz.null_stream",
     [] { fill_batches(); return cudaMemcpy3DBatchAsync_ptsz(1, &b_op, 0, 0); }},

    // ---- batches of prefetches and discards (fill_batches: the halves of managed) ----
    {"cudaMemPrefetchBatchAsync.null_dptrs",
     [] { fill_batches(); return cudaMemPrefetchBatchAsync(NULL, r_sizes, 2, r_locs, r_idxs, 1,
                                                           0, s); }},
    {"cudaMemPrefetchBatchAsync.null_sizes",
     [] { fill_batches(); return cudaMemPrefetchBatchAsync(r_ptrs, NULL, 2, r_locs, r_idxs, 1,
                                                           0, s); }},
    {"cudaMemPrefetchBatchAsync.null_locations",
     [] { fill_batches(); return cudaMemPrefetchBatchAsync(r_ptrs, r_sizes, 2, NULL, r_idxs, 1,
                                                           0, s); }},
    {"cudaMemPrefetchBatchAsync.count_0",
     [] { return cudaMemPrefetchBatchAsync(NULL, NULL, 0, NULL, NULL, 0, 0, s); }},
    {"cudaMemPrefetchBatchAsync.no_locations", [] { fill_batches(); return prefetch_batch(0, 0, s); }},
    {"cudaMemPrefetchBatchAsync.more_locations_than_ranges",
     [] { fill_batches(); return prefetch_batch(3, 0, s); }},
    {"cudaMemPrefetchBatchAsync.location_device_count",
     [] { fill_batches(); r_locs[0].id = count; return prefetch_batch(1, 0, s); }},
    {"cudaMemPrefetchBatchAsync.location_type_99",
     [] { fill_batches(); r_locs[0].type = (cudaMemLocationType)99; return prefetch_batch(1, 0, s); }},
    {"cudaMemPrefetchBatchAsync.flags_1", [] { fill_batches(); return prefetch_batch(1, 1, s); }},
    {"cudaMemPrefetchBatchAsync.device_memory",
     [] { fill_batches(); r_ptrs[1] = d; return prefetch_batch(1, 0, s); }},
    {"cudaMemPrefetchBatchAsync.range_past_end",
     [] { fill_batches(); r_sizes[1] = BYTES; return prefetch_batch(1, 0, s); }},
    {"cudaMemPrefetchBatchAsync.size_0",
     [] { fill_batches(); r_sizes[1] = 0; return prefetch_batch(1, 0, s); }},
    {"cudaMemPrefetchBatchAsync.null_stream", [] { fill_batches(); return prefetch_batch(1, 0, 0); }},
    {"cudaMemDiscardBatchAsync.null_dptrs",
     [] { fill_batches(); return cudaMemDiscardBatchAsync(NULL, r_sizes, 2, 0, s); }},
    {"cudaMemDiscardBatchAsync.count_0",
     [] { return cudaMemDiscardBatchAsync(NULL, NULL, 0, 0, s); }},
    {"cudaMemDiscardBatchAsync.flags_1",
     [] { fill_batches(); return cudaMemDiscardBatchAsync(r_ptrs, r_sizes, 2, 1, s); }},
    {"cudaMemDiscardBatchAsync.device_memory",
     [] { fill_batches(); r_ptrs[0] = d; return cudaMemDiscardBatchAsync(r_ptrs, r_sizes, 2, 0, s); }},
    {"cudaMemDiscardBatchAsync.host_memory",
     [] { fill_batches(); r_ptrs[0] = page; r_sizes[0] = 4096;
          return cudaMemDiscardBatchAsync(r_ptrs, r_sizes, 1, 0, s); }},
    {"cudaMemDiscardBatchAsync.null_stream",
     [] { fill_batches(); return cudaMemDiscardBatchAsync(r_ptrs, r_sizes, 2, 0, 0); }},
    {"cudaMemDiscardBatchAsync_ptsz.legacy_stream",
     [] { fill_batches();
          return cudaMemDiscardBatchAsync_ptsz(r_ptrs, r_sizes, 2, 0, cudaStreamLegacy); }},
    {"cudaMemDiscardAndPrefetchBatchAsync.null_locations",
     [] { fill_batches(); return cudaMemDiscardAndPrefetchBatchAsync(r_ptrs, r_sizes, 2, NULL,
                                                                     r_idxs, 1, 0, s); }},
    {"cudaMemDiscardAndPrefetchBatchAsync.no_locations",
     [] { fill_batches(); return cudaMemDiscardAndPrefetchBatchAsync(r_ptrs, r_sizes, 2, r_locs,
                                                                     r_idxs, 0, 0, s); }},
    {"cudaMemDiscardAndPrefetchBatchAsync.location_device_count",
     [] { fill_batches(); r_locs[0].id = count;
          return cudaMemDiscardAndPrefetchBatchAsync(r_ptrs, r_sizes, 2, r_locs, r_idxs, 1, 0,
                                                     s); }},
    {"cudaMemDiscardAndPrefetchBatchAsync.device_memory",
     [] { fill_batches(); r_ptrs[1] = d2;
          return cudaMemDiscardAndPrefetchBatchAsync(r_ptrs, r_sizes, 2, r_locs, r_idxs, 1, 0,
                                                     s); }},
    {"cudaMemDiscardAndPrefetchBatchAsync.null_stream",
     [] { fill_batches(); return cudaMemDiscardAndPrefetchBatchAsync(r_ptrs, r_sizes, 2, r_locs,
                                                                     r_idxs, 1, 0, 0); }},
};

int main(int argc, char **argv)
{
    int rc = misuse_main("conf_misuse_memory", argc, argv, setup, cases, MISUSE_COUNT(cases));
    cudaDeviceSynchronize();
    return rc;
}
