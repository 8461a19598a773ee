// conf_misuse_array.cu - invalid inputs to CUDA arrays, their planes, sparse layouts and memory
// requirements, array copies, texture and surface objects, one case each (the runner and the
// line format: misuse.h).  Array handles of one kind are never passed as another (a cudaArray_t
// as a mipmapped array, say): the driver's handles are pointers to different objects, and that
// is undefined behaviour, not an error.
#include "misuse.h"

// cudaMemcpyToArray and friends are deprecated, and still part of the API under test.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

// The per-thread-default-stream variants; the toolkit declares them only in such builds.
extern "C" {
cudaError_t CUDARTAPI cudaMemcpyToArray_ptds(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                             const void *src, size_t count,
                                             enum cudaMemcpyKind kind);
cudaError_t CUDARTAPI cudaMemcpyFromArray_ptds(void *dst, cudaArray_const_t src, size_t wOffset,
                                               size_t hOffset, size_t count,
                                               enum cudaMemcpyKind kind);
cudaError_t CUDARTAPI cudaMemcpy2DToArray_ptds(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                               const void *src, size_t spitch, size_t width,
                                               size_t height, enum cudaMemcpyKind kind);
cudaError_t CUDARTAPI cudaMemcpy2DFromArray_ptds(void *dst, size_t dpitch, cudaArray_const_t src,
                                                 size_t wOffset, size_t hOffset, size_t width,
                                                 size_t height, enum cudaMemcpyKind kind);
cudaError_t CUDARTAPI cudaMemcpyArrayToArray_ptds(cudaArray_t dst, size_t wOffsetDst,
                                                  size_t hOffsetDst, cudaArray_const_t src,
                                                  size_t wOffsetSrc, size_t hOffsetSrc,
                                                  size_t count, enum cudaMemcpyKind kind);
cudaError_t CUDARTAPI cudaMemcpy2DArrayToArray_ptds(cudaArray_t dst, size_t wOffsetDst,
                                                    size_t hOffsetDst, cudaArray_const_t src,
                                                    size_t wOffsetSrc, size_t hOffsetSrc,
                                                    size_t width, size_t height,
                                                    enum cudaMemcpyKind kind);
cudaError_t CUDARTAPI cudaMemcpyToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset,
                                                  size_t hOffset, const void *src, size_t count,
                                                  enum cudaMemcpyKind kind, cudaStream_t stream);
cudaError_t CUDARTAPI cudaMemcpyFromArrayAsync_ptsz(void *dst, cudaArray_const_t src,
                                                    size_t wOffset, size_t hOffset, size_t count,
                                                    enum cudaMemcpyKind kind,
                                                    cudaStream_t stream);
cudaError_t CUDARTAPI cudaMemcpy2DToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset,
                                                    size_t hOffset, const void *src,
                                                    size_t spitch, size_t width, size_t height,
                                                    enum cudaMemcpyKind kind,
                                                    cudaStream_t stream);
cudaError_t CUDARTAPI cudaMemcpy2DFromArrayAsync_ptsz(void *dst, size_t dpitch,
                                                      cudaArray_const_t src, size_t wOffset,
                                                      size_t hOffset, size_t width,
                                                      size_t height, enum cudaMemcpyKind kind,
                                                      cudaStream_t stream);
}

#define BYTES 4096
#define ROW 64                        // bytes per row of the 2D fixture: 16 floats
#define ROWS 4

// Fixtures, made at every start.
static int count;                     // devices; also the first invalid ordinal
static cudaStream_t s;
static char *d;                       // device memory, BYTES
static char *pinned;                  // page-locked host memory, BYTES
static cudaChannelFormatDesc fdesc;   // one float
static cudaArray_t arr;               // 16 x 4 floats
static cudaArray_t arr_b;             // 16 x 4 floats, the second operand of array copies
static cudaArray_t arr_surface;       // 16 x 4 floats, surface load/store allowed
static cudaMipmappedArray_t mip;      // 16 x 16 floats, 2 levels
static cudaTextureObject_t tex;       // on arr, no view
static cudaSurfaceObject_t surf;      // on arr_surface

// What a case made, for its cleanup.
static cudaArray_t made_array;
static cudaMipmappedArray_t made_mip;
static cudaTextureObject_t made_tex;
static cudaSurfaceObject_t made_surf;

static cudaArray_t out_array;
static cudaChannelFormatDesc out_desc;
static cudaExtent out_extent;
static unsigned out_flags;
static cudaArrayMemoryRequirements requirements;
static cudaArraySparseProperties sparse;
static cudaArray_t plane;             // a plane of made_array: freed with it
static cudaResourceDesc out_res;
static cudaTextureDesc out_tex;
static cudaResourceViewDesc out_view;
static cudaMemcpy3DParms p3;

static const cudaMemcpyKind BAD_KIND = (cudaMemcpyKind)99;

static cudaResourceDesc array_resource(cudaArray_t a)
{
    cudaResourceDesc r;
    memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypeArray;
    r.res.array.array = a;
    return r;
}

static cudaResourceDesc linear_resource(void *p, size_t bytes)
{
    cudaResourceDesc r;
    memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypeLinear;
    r.res.linear.devPtr = p;
    r.res.linear.desc = fdesc;
    r.res.linear.sizeInBytes = bytes;
    return r;
}

static cudaTextureDesc point_texture(void)
{
    cudaTextureDesc t;
    memset(&t, 0, sizeof t);
    t.addressMode[0] = t.addressMode[1] = t.addressMode[2] = cudaAddressModeClamp;
    t.filterMode = cudaFilterModePoint;
    t.readMode = cudaReadModeElementType;
    return t;
}

static void setup(void)
{
    CHECK(cudaGetDeviceCount(&count));
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaMalloc((void **)&d, BYTES));
    CHECK(cudaMemset(d, 0, BYTES));
    CHECK(cudaMallocHost((void **)&pinned, BYTES));
    fdesc = cudaCreateChannelDesc<float>();
    CHECK(cudaMallocArray(&arr, &fdesc, ROW / 4, ROWS, 0));
    CHECK(cudaMallocArray(&arr_b, &fdesc, ROW / 4, ROWS, 0));
    CHECK(cudaMallocArray(&arr_surface, &fdesc, ROW / 4, ROWS, cudaArraySurfaceLoadStore));
    CHECK(cudaMallocMipmappedArray(&mip, &fdesc, make_cudaExtent(16, 16, 0), 2, 0));
    cudaResourceDesc r = array_resource(arr);
    cudaTextureDesc t = point_texture();
    CHECK(cudaCreateTextureObject(&tex, &r, &t, NULL));
    r = array_resource(arr_surface);
    CHECK(cudaCreateSurfaceObject(&surf, &r));
}

static void destroy_made(void)
{
    if (made_tex)
        cudaDestroyTextureObject(made_tex);
    if (made_surf)
        cudaDestroySurfaceObject(made_surf);
    if (made_array)
        cudaFreeArray(made_array);
    if (made_mip)
        cudaFreeMipmappedArray(made_mip);
    made_tex = 0;
    made_surf = 0;
    made_array = NULL;
    made_mip = NULL;
}

// cudaMallocArray / cudaMalloc3DArray into made_array, with a channel descriptor of the case's.
static cudaError_t malloc_array(cudaChannelFormatDesc desc, size_t width, size_t height,
                                unsigned flags)
{
    return cudaMallocArray(&made_array, &desc, width, height, flags);
}

// An NV12 array (8-bit luma and chroma planes) of 16 x 16 into made_array.
static cudaError_t malloc_nv12(void)
{
    return malloc_array(cudaCreateChannelDescNV12(), 16, 16, 0);
}

static cudaError_t create_texture(cudaResourceDesc r, cudaTextureDesc t,
                                  const cudaResourceViewDesc *view)
{
    return cudaCreateTextureObject(&made_tex, &r, &t, view);
}

static cudaError_t create_surface(cudaResourceDesc r)
{
    return cudaCreateSurfaceObject(&made_surf, &r);
}

static const misuse_case cases[] = {
    // ---- channel descriptors and creation ----
    {"cudaCreateChannelDesc.nonsense_fields",
     [] {
         cudaChannelFormatDesc c = cudaCreateChannelDesc(-1, 7, 0, 3, (cudaChannelFormatKind)99);
         misuse_note("%d_%d_%d_%d_kind_%d", c.x, c.y, c.z, c.w, (int)c.f);
         return MISUSE_VOID;
     }},
    {"cudaMallocArray.null_out", [] { return cudaMallocArray(NULL, &fdesc, 16, 4, 0); }},
    {"cudaMallocArray.null_desc", [] { return cudaMallocArray(&made_array, NULL, 16, 4, 0); },
     destroy_made},
    {"cudaMallocArray.bits_7",
     [] { return malloc_array(cudaCreateChannelDesc(7, 0, 0, 0, cudaChannelFormatKindUnsigned),
                              16, 4, 0); },
     destroy_made},
    {"cudaMallocArray.unequal_channels",
     [] { return malloc_array(cudaCreateChannelDesc(8, 16, 0, 0, cudaChannelFormatKindUnsigned),
                              16, 4, 0); },
     destroy_made},
    {"cudaMallocArray.three_channels",
     [] { return malloc_array(cudaCreateChannelDesc(32, 32, 32, 0, cudaChannelFormatKindFloat),
                              16, 4, 0); },
     destroy_made},
    {"cudaMallocArray.kind_none",
     [] { return malloc_array(cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindNone),
                              16, 4, 0); },
     destroy_made},
    {"cudaMallocArray.float_8_bits",
     [] { return malloc_array(cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindFloat),
                              16, 4, 0); },
     destroy_made},
    {"cudaMallocArray.width_0", [] { return malloc_array(fdesc, 0, 4, 0); }, destroy_made},
    {"cudaMallocArray.width_1M", [] { return malloc_array(fdesc, 1 << 20, 1 << 20, 0); },
     destroy_made},
    {"cudaMallocArray.unknown_flags", [] { return malloc_array(fdesc, 16, 4, 0x100); },
     destroy_made},
    {"cudaMalloc3DArray.null_out",
     [] { return cudaMalloc3DArray(NULL, &fdesc, make_cudaExtent(4, 4, 4), 0); }},
    {"cudaMalloc3DArray.null_desc",
     [] { return cudaMalloc3DArray(&made_array, NULL, make_cudaExtent(4, 4, 4), 0); },
     destroy_made},
    {"cudaMalloc3DArray.depth_without_height",
     [] { return cudaMalloc3DArray(&made_array, &fdesc, make_cudaExtent(4, 0, 4), 0); },
     destroy_made},
    {"cudaMalloc3DArray.extent_1M_cubed",
     [] {
         return cudaMalloc3DArray(&made_array, &fdesc,
                                  make_cudaExtent(1 << 20, 1 << 20, 1 << 20), 0);
     },
     destroy_made},
    {"cudaMalloc3DArray.unknown_flags",
     [] { return cudaMalloc3DArray(&made_array, &fdesc, make_cudaExtent(4, 4, 4), 0x100); },
     destroy_made},
    {"cudaMallocMipmappedArray.null_out",
     [] { return cudaMallocMipmappedArray(NULL, &fdesc, make_cudaExtent(16, 16, 0), 2, 0); }},
    {"cudaMallocMipmappedArray.null_desc",
     [] { return cudaMallocMipmappedArray(&made_mip, NULL, make_cudaExtent(16, 16, 0), 2, 0); },
     destroy_made},
    {"cudaMallocMipmappedArray.levels_100",
     [] {
         return cudaMallocMipmappedArray(&made_mip, &fdesc, make_cudaExtent(16, 16, 0), 100, 0);
     },
     destroy_made},
    {"cudaMallocMipmappedArray.width_0",
     [] { return cudaMallocMipmappedArray(&made_mip, &fdesc, make_cudaExtent(0, 16, 0), 2, 0); },
     destroy_made},
    {"cudaGetMipmappedArrayLevel.null_out",
     [] { return cudaGetMipmappedArrayLevel(NULL, mip, 0); }},
    {"cudaGetMipmappedArrayLevel.null_mipmap",
     [] { return cudaGetMipmappedArrayLevel(&out_array, NULL, 0); }},
    {"cudaGetMipmappedArrayLevel.level_past_end",
     [] { return cudaGetMipmappedArrayLevel(&out_array, mip, 5); }},
    {"cudaFreeArray.null", [] { return cudaFreeArray(NULL); }},
    {"cudaFreeArray.mipmap_level",
     [] {
         CHECK(cudaMallocMipmappedArray(&made_mip, &fdesc, make_cudaExtent(16, 16, 0), 2, 0));
         CHECK(cudaGetMipmappedArrayLevel(&out_array, made_mip, 1));
         return cudaFreeArray(out_array);
     },
     destroy_made},
    {"cudaFreeMipmappedArray.null", [] { return cudaFreeMipmappedArray(NULL); }},

    // ---- what an array is ----
    {"cudaArrayGetInfo.null_array",
     [] { return cudaArrayGetInfo(&out_desc, &out_extent, &out_flags, NULL); }},
    {"cudaArrayGetInfo.all_outputs_null", [] { return cudaArrayGetInfo(NULL, NULL, NULL, arr); }},
    {"cudaGetChannelDesc.null_desc", [] { return cudaGetChannelDesc(NULL, arr); }},
    {"cudaGetChannelDesc.null_array", [] { return cudaGetChannelDesc(&out_desc, NULL); }},
    {"cudaArrayGetMemoryRequirements.null_out",
     [] { return cudaArrayGetMemoryRequirements(NULL, arr, 0); }},
    {"cudaArrayGetMemoryRequirements.device_count",
     [] { return cudaArrayGetMemoryRequirements(&requirements, arr, count); }},
    {"cudaArrayGetMemoryRequirements.null_array",
     [] { return cudaArrayGetMemoryRequirements(&requirements, NULL, 0); }},
    {"cudaArrayGetMemoryRequirements.not_deferred_mapping",
     [] { return cudaArrayGetMemoryRequirements(&requirements, arr, 0); }},

    // ---- planes, sparse layouts, mipmapped memory requirements ----
    {"cudaArrayGetPlane.null_out", [] { return cudaArrayGetPlane(NULL, arr, 0); }},
    {"cudaArrayGetPlane.null_array", [] { return cudaArrayGetPlane(&out_array, NULL, 0); }},
    {"cudaArrayGetPlane.not_planar", [] { return cudaArrayGetPlane(&out_array, arr, 0); }},
    {"cudaArrayGetPlane.plane_past_end",
     [] {
         cudaError_t e = malloc_nv12();
         return e != cudaSuccess ? e : cudaArrayGetPlane(&out_array, made_array, 2);
     },
     destroy_made},
    {"cudaArrayGetPlane.plane_of_a_plane",
     [] {
         cudaError_t e = malloc_nv12();
         if (e == cudaSuccess)
             e = cudaArrayGetPlane(&plane, made_array, 1);
         return e != cudaSuccess ? e : cudaArrayGetPlane(&out_array, plane, 0);
     },
     destroy_made},
    // A plane belongs to its array: freeing it on its own.
    {"cudaFreeArray.plane",
     [] {
         cudaError_t e = malloc_nv12();
         if (e == cudaSuccess)
             e = cudaArrayGetPlane(&plane, made_array, 0);
         return e != cudaSuccess ? e : cudaFreeArray(plane);
     },
     destroy_made},
    {"cudaMallocArray.nv12_odd_width",
     [] { return malloc_array(cudaCreateChannelDescNV12(), 15, 16, 0); }, destroy_made},
    {"cudaArrayGetSparseProperties.null_out", [] { return cudaArrayGetSparseProperties(NULL, arr); }},
    {"cudaArrayGetSparseProperties.null_array",
     [] { return cudaArrayGetSparseProperties(&sparse, NULL); }},
    {"cudaArrayGetSparseProperties.not_sparse",
     [] { return cudaArrayGetSparseProperties(&sparse, arr); }},
    {"cudaArrayGetSparseProperties.level_of_sparse_mipmap",
     [] {
         cudaError_t e = cudaMallocMipmappedArray(&made_mip, &fdesc, make_cudaExtent(256, 256, 0),
                                                  2, cudaArraySparse);
         if (e == cudaSuccess)
             e = cudaGetMipmappedArrayLevel(&out_array, made_mip, 0);
         return e != cudaSuccess ? e : cudaArrayGetSparseProperties(&sparse, out_array);
     },
     destroy_made},
    {"cudaMipmappedArrayGetSparseProperties.null_out",
     [] { return cudaMipmappedArrayGetSparseProperties(NULL, mip); }},
    {"cudaMipmappedArrayGetSparseProperties.null_mipmap",
     [] { return cudaMipmappedArrayGetSparseProperties(&sparse, NULL); }},
    {"cudaMipmappedArrayGetSparseProperties.not_sparse",
     [] { return cudaMipmappedArrayGetSparseProperties(&sparse, mip); }},
    {"cudaMipmappedArrayGetMemoryRequirements.null_out",
     [] { return cudaMipmappedArrayGetMemoryRequirements(NULL, mip, 0); }},
    {"cudaMipmappedArrayGetMemoryRequirements.device_count",
     [] { return cudaMipmappedArrayGetMemoryRequirements(&requirements, mip, count); }},
    {"cudaMipmappedArrayGetMemoryRequirements.device_minus_1",
     [] { return cudaMipmappedArrayGetMemoryRequirements(&requirements, mip, -1); }},
    {"cudaMipmappedArrayGetMemoryRequirements.null_mipmap",
     [] { return cudaMipmappedArrayGetMemoryRequirements(&requirements, NULL, 0); }},
    {"cudaMipmappedArrayGetMemoryRequirements.not_deferred_mapping",
     [] { return cudaMipmappedArrayGetMemoryRequirements(&requirements, mip, 0); }},
    // A 3D batch copy between two arrays of different element sizes (float and uchar).
    {"cudaMemcpy3DBatchAsync.array_element_sizes_differ",
     [] {
         cudaError_t e = malloc_array(cudaCreateChannelDesc<unsigned char>(), 16, 4, 0);
         if (e != cudaSuccess)
             return e;
         cudaMemcpy3DBatchOp op;
         memset(&op, 0, sizeof op);
         op.src.type = op.dst.type = cudaMemcpyOperandTypeArray;
         op.src.op.array.array = arr;
         op.dst.op.array.array = made_array;
         op.extent = make_cudaExtent(4, 4, 1);
         op.srcAccessOrder = cudaMemcpySrcAccessOrderStream;
         return cudaMemcpy3DBatchAsync(1, &op, 0, s);
     },
     destroy_made},

    // ---- copies to and from arrays (arr: 4 rows of 64 bytes) ----
    // A copy of nothing succeeds before its direction and arrays are looked at.
    {"cudaMemcpyToArray.nothing_all_null",
     [] { return cudaMemcpyToArray(NULL, 0, 0, NULL, 0, cudaMemcpyHostToHost); }},
    {"cudaMemcpyFromArray.nothing_all_null",
     [] { return cudaMemcpyFromArray(NULL, NULL, 0, 0, 0, cudaMemcpyHostToHost); }},
    {"cudaMemcpy2DToArray.nothing_all_null",
     [] { return cudaMemcpy2DToArray(NULL, 0, 0, NULL, 0, 0, 0, cudaMemcpyHostToHost); }},
    {"cudaMemcpy2DFromArrayAsync.nothing_all_null",
     [] { return cudaMemcpy2DFromArrayAsync(NULL, 0, NULL, 0, 0, 0, 0, cudaMemcpyHostToHost, 0); }},
    {"cudaMemcpyArrayToArray.nothing_all_null",
     [] { return cudaMemcpyArrayToArray(NULL, 0, 0, NULL, 0, 0, 0, cudaMemcpyHostToHost); }},
    {"cudaMemcpy2DArrayToArray.nothing_all_null",
     [] { return cudaMemcpy2DArrayToArray(NULL, 0, 0, NULL, 0, 0, 0, 0, cudaMemcpyHostToHost); }},
    {"cudaMemcpy2DToArray.zero_height_kind_d2h",
     [] { return cudaMemcpy2DToArray(arr, 0, 0, pinned, ROW, ROW, 0, cudaMemcpyDeviceToHost); }},
    {"cudaArrayGetPlane.both_null", [] { return cudaArrayGetPlane(NULL, NULL, 0); }},
    {"cudaGetMipmappedArrayLevel.both_null", [] { return cudaGetMipmappedArrayLevel(NULL, NULL, 0); }},
    {"cudaMemcpyToArray.null_array",
     [] { return cudaMemcpyToArray(NULL, 0, 0, pinned, 16, cudaMemcpyHostToDevice); }},
    {"cudaMemcpyToArray.null_src",
     [] { return cudaMemcpyToArray(arr, 0, 0, NULL, 16, cudaMemcpyHostToDevice); }},
    {"cudaMemcpyToArray.count_past_end",
     [] { return cudaMemcpyToArray(arr, 0, 0, pinned, ROW * ROWS + 4, cudaMemcpyHostToDevice); }},
    {"cudaMemcpyToArray.offset_past_row",
     [] { return cudaMemcpyToArray(arr, ROW + 4, 0, pinned, 4, cudaMemcpyHostToDevice); }},
    {"cudaMemcpyToArray.row_past_end",
     [] { return cudaMemcpyToArray(arr, 0, ROWS, pinned, 4, cudaMemcpyHostToDevice); }},
    {"cudaMemcpyToArray.kind_d2h",
     [] { return cudaMemcpyToArray(arr, 0, 0, pinned, 16, cudaMemcpyDeviceToHost); }},
    {"cudaMemcpyToArray.unknown_kind",
     [] { return cudaMemcpyToArray(arr, 0, 0, pinned, 16, BAD_KIND); }},
    {"cudaMemcpyToArray_ptds.null_array",
     [] { return cudaMemcpyToArray_ptds(NULL, 0, 0, pinned, 16, cudaMemcpyHostToDevice); }},
    {"cudaMemcpyToArray_ptds.count_past_end",
     [] {
         return cudaMemcpyToArray_ptds(arr, 0, 0, pinned, ROW * ROWS + 4,
                                       cudaMemcpyHostToDevice);
     }},
    {"cudaMemcpyFromArray.null_array",
     [] { return cudaMemcpyFromArray(pinned, NULL, 0, 0, 16, cudaMemcpyDeviceToHost); }},
    {"cudaMemcpyFromArray.null_dst",
     [] { return cudaMemcpyFromArray(NULL, arr, 0, 0, 16, cudaMemcpyDeviceToHost); }},
    {"cudaMemcpyFromArray.count_past_end",
     [] {
         return cudaMemcpyFromArray(pinned, arr, 0, 0, ROW * ROWS + 4, cudaMemcpyDeviceToHost);
     }},
    {"cudaMemcpyFromArray.kind_h2d",
     [] { return cudaMemcpyFromArray(pinned, arr, 0, 0, 16, cudaMemcpyHostToDevice); }},
    {"cudaMemcpyFromArray_ptds.null_array",
     [] { return cudaMemcpyFromArray_ptds(pinned, NULL, 0, 0, 16, cudaMemcpyDeviceToHost); }},
    {"cudaMemcpyFromArray_ptds.kind_h2d",
     [] { return cudaMemcpyFromArray_ptds(pinned, arr, 0, 0, 16, cudaMemcpyHostToDevice); }},
    {"cudaMemcpy2DToArray.null_array",
     [] { return cudaMemcpy2DToArray(NULL, 0, 0, pinned, ROW, ROW, 2, cudaMemcpyHostToDevice); }},
    {"cudaMemcpy2DToArray.spitch_below_width",
     [] { return cudaMemcpy2DToArray(arr, 0, 0, pinned, 16, ROW, 2, cudaMemcpyHostToDevice); }},
    {"cudaMemcpy2DToArray.width_past_row",
     [] {
         return cudaMemcpy2DToArray(arr, 0, 0, pinned, 2 * ROW, 2 * ROW, 2,
                                    cudaMemcpyHostToDevice);
     }},
    {"cudaMemcpy2DToArray.height_past_end",
     [] {
         return cudaMemcpy2DToArray(arr, 0, 0, pinned, ROW, ROW, ROWS + 1,
                                    cudaMemcpyHostToDevice);
     }},
    {"cudaMemcpy2DToArray.kind_d2h",
     [] { return cudaMemcpy2DToArray(arr, 0, 0, pinned, ROW, ROW, 2, cudaMemcpyDeviceToHost); }},
    {"cudaMemcpy2DToArray_ptds.null_src",
     [] { return cudaMemcpy2DToArray_ptds(arr, 0, 0, NULL, ROW, ROW, 2, cudaMemcpyHostToDevice); }},
    {"cudaMemcpy2DToArray_ptds.height_past_end",
     [] {
         return cudaMemcpy2DToArray_ptds(arr, 0, 0, pinned, ROW, ROW, ROWS + 1,
                                         cudaMemcpyHostToDevice);
     }},
    {"cudaMemcpy2DFromArray.null_array",
     [] {
         return cudaMemcpy2DFromArray(pinned, ROW, NULL, 0, 0, ROW, 2, cudaMemcpyDeviceToHost);
     }},
    {"cudaMemcpy2DFromArray.dpitch_below_width",
     [] { return cudaMemcpy2DFromArray(pinned, 16, arr, 0, 0, ROW, 2, cudaMemcpyDeviceToHost); }},
    {"cudaMemcpy2DFromArray.width_past_row",
     [] {
         return cudaMemcpy2DFromArray(pinned, 2 * ROW, arr, 4, 0, ROW, 2, cudaMemcpyDeviceToHost);
     }},
    {"cudaMemcpy2DFromArray.kind_h2d",
     [] { return cudaMemcpy2DFromArray(pinned, ROW, arr, 0, 0, ROW, 2, cudaMemcpyHostToDevice); }},
    {"cudaMemcpy2DFromArray_ptds.null_dst",
     [] {
         return cudaMemcpy2DFromArray_ptds(NULL, ROW, arr, 0, 0, ROW, 2, cudaMemcpyDeviceToHost);
     }},
    {"cudaMemcpy2DFromArray_ptds.height_past_end",
     [] {
         return cudaMemcpy2DFromArray_ptds(pinned, ROW, arr, 0, 1, ROW, ROWS,
                                           cudaMemcpyDeviceToHost);
     }},
    {"cudaMemcpyArrayToArray.null_dst",
     [] { return cudaMemcpyArrayToArray(NULL, 0, 0, arr, 0, 0, 16, cudaMemcpyDeviceToDevice); }},
    {"cudaMemcpyArrayToArray.null_src",
     [] { return cudaMemcpyArrayToArray(arr_b, 0, 0, NULL, 0, 0, 16, cudaMemcpyDeviceToDevice); }},
    {"cudaMemcpyArrayToArray.kind_h2d",
     [] { return cudaMemcpyArrayToArray(arr_b, 0, 0, arr, 0, 0, 16, cudaMemcpyHostToDevice); }},
    {"cudaMemcpyArrayToArray.count_past_end",
     [] {
         return cudaMemcpyArrayToArray(arr_b, 0, 0, arr, 0, 1, ROW * ROWS,
                                       cudaMemcpyDeviceToDevice);
     }},
    {"cudaMemcpyArrayToArray_ptds.null_src",
     [] {
         return cudaMemcpyArrayToArray_ptds(arr_b, 0, 0, NULL, 0, 0, 16, cudaMemcpyDeviceToDevice);
     }},
    {"cudaMemcpyArrayToArray_ptds.kind_d2h",
     [] {
         return cudaMemcpyArrayToArray_ptds(arr_b, 0, 0, arr, 0, 0, 16, cudaMemcpyDeviceToHost);
     }},
    {"cudaMemcpy2DArrayToArray.null_src",
     [] {
         return cudaMemcpy2DArrayToArray(arr_b, 0, 0, NULL, 0, 0, ROW, 2,
                                         cudaMemcpyDeviceToDevice);
     }},
    {"cudaMemcpy2DArrayToArray.kind_h2d",
     [] {
         return cudaMemcpy2DArrayToArray(arr_b, 0, 0, arr, 0, 0, ROW, 2, cudaMemcpyHostToDevice);
     }},
    {"cudaMemcpy2DArrayToArray.width_past_row",
     [] {
         return cudaMemcpy2DArrayToArray(arr_b, 0, 0, arr, 0, 0, 2 * ROW, 2,
                                         cudaMemcpyDeviceToDevice);
     }},
    {"cudaMemcpy2DArrayToArray_ptds.null_dst",
     [] {
         return cudaMemcpy2DArrayToArray_ptds(NULL, 0, 0, arr, 0, 0, ROW, 2,
                                              cudaMemcpyDeviceToDevice);
     }},
    {"cudaMemcpy2DArrayToArray_ptds.height_past_end",
     [] {
         return cudaMemcpy2DArrayToArray_ptds(arr_b, 0, 0, arr, 0, 0, ROW, ROWS + 1,
                                              cudaMemcpyDeviceToDevice);
     }},
    {"cudaMemcpyToArrayAsync.null_array",
     [] { return cudaMemcpyToArrayAsync(NULL, 0, 0, pinned, 16, cudaMemcpyHostToDevice, s); }},
    {"cudaMemcpyToArrayAsync.kind_d2h",
     [] { return cudaMemcpyToArrayAsync(arr, 0, 0, pinned, 16, cudaMemcpyDeviceToHost, s); }},
    {"cudaMemcpyToArrayAsync_ptsz.count_past_end",
     [] {
         return cudaMemcpyToArrayAsync_ptsz(arr, 0, 0, pinned, ROW * ROWS + 4,
                                            cudaMemcpyHostToDevice, 0);
     }},
    {"cudaMemcpyToArrayAsync_ptsz.null_src",
     [] { return cudaMemcpyToArrayAsync_ptsz(arr, 0, 0, NULL, 16, cudaMemcpyHostToDevice, 0); }},
    {"cudaMemcpyFromArrayAsync.null_array",
     [] { return cudaMemcpyFromArrayAsync(pinned, NULL, 0, 0, 16, cudaMemcpyDeviceToHost, s); }},
    {"cudaMemcpyFromArrayAsync.kind_h2d",
     [] { return cudaMemcpyFromArrayAsync(pinned, arr, 0, 0, 16, cudaMemcpyHostToDevice, s); }},
    {"cudaMemcpyFromArrayAsync_ptsz.null_dst",
     [] { return cudaMemcpyFromArrayAsync_ptsz(NULL, arr, 0, 0, 16, cudaMemcpyDeviceToHost, 0); }},
    {"cudaMemcpyFromArrayAsync_ptsz.unknown_kind",
     [] { return cudaMemcpyFromArrayAsync_ptsz(pinned, arr, 0, 0, 16, BAD_KIND, 0); }},
    {"cudaMemcpy2DToArrayAsync.spitch_below_width",
     [] {
         return cudaMemcpy2DToArrayAsync(arr, 0, 0, pinned, 16, ROW, 2, cudaMemcpyHostToDevice,
                                         s);
     }},
    {"cudaMemcpy2DToArrayAsync.null_array",
     [] {
         return cudaMemcpy2DToArrayAsync(NULL, 0, 0, pinned, ROW, ROW, 2, cudaMemcpyHostToDevice,
                                         s);
     }},
    {"cudaMemcpy2DToArrayAsync_ptsz.height_past_end",
     [] {
         return cudaMemcpy2DToArrayAsync_ptsz(arr, 0, 0, pinned, ROW, ROW, ROWS + 1,
                                              cudaMemcpyHostToDevice, 0);
     }},
    {"cudaMemcpy2DToArrayAsync_ptsz.kind_d2h",
     [] {
         return cudaMemcpy2DToArrayAsync_ptsz(arr, 0, 0, pinned, ROW, ROW, 2,
                                              cudaMemcpyDeviceToHost, 0);
     }},
    {"cudaMemcpy2DFromArrayAsync.dpitch_below_width",
     [] {
         return cudaMemcpy2DFromArrayAsync(pinned, 16, arr, 0, 0, ROW, 2, cudaMemcpyDeviceToHost,
                                           s);
     }},
    {"cudaMemcpy2DFromArrayAsync.null_array",
     [] {
         return cudaMemcpy2DFromArrayAsync(pinned, ROW, NULL, 0, 0, ROW, 2,
                                           cudaMemcpyDeviceToHost, s);
     }},
    {"cudaMemcpy2DFromArrayAsync_ptsz.width_past_row",
     [] {
         return cudaMemcpy2DFromArrayAsync_ptsz(pinned, 2 * ROW, arr, 0, 0, 2 * ROW, 2,
                                                cudaMemcpyDeviceToHost, 0);
     }},
    {"cudaMemcpy2DFromArrayAsync_ptsz.kind_h2d",
     [] {
         return cudaMemcpy2DFromArrayAsync_ptsz(pinned, ROW, arr, 0, 0, ROW, 2,
                                                cudaMemcpyHostToDevice, 0);
     }},
    {"cudaMemcpy3D.src_array_and_pointer",
     [] {
         memset(&p3, 0, sizeof p3);
         p3.srcArray = arr;
         p3.srcPtr = make_cudaPitchedPtr(d, ROW, ROW / 4, ROWS);
         p3.dstPtr = make_cudaPitchedPtr(pinned, ROW, ROW / 4, ROWS);
         p3.extent = make_cudaExtent(ROW / 4, ROWS, 1);
         p3.kind = cudaMemcpyDeviceToHost;
         return cudaMemcpy3D(&p3);
     }},
    {"cudaMemcpy3D.extent_past_array",
     [] {
         memset(&p3, 0, sizeof p3);
         p3.srcArray = arr;
         p3.dstPtr = make_cudaPitchedPtr(d, 2 * ROW, ROW / 2, 2 * ROWS);
         p3.extent = make_cudaExtent(ROW / 2, ROWS, 1);
         p3.kind = cudaMemcpyDeviceToDevice;
         return cudaMemcpy3D(&p3);
     }},

    // ---- texture objects ----
    {"cudaCreateTextureObject.null_out",
     [] {
         cudaResourceDesc r = array_resource(arr);
         cudaTextureDesc t = point_texture();
         return cudaCreateTextureObject(NULL, &r, &t, NULL);
     }},
    {"cudaCreateTextureObject.null_resource",
     [] {
         cudaTextureDesc t = point_texture();
         return cudaCreateTextureObject(&made_tex, NULL, &t, NULL);
     },
     destroy_made},
    {"cudaCreateTextureObject.null_texture_desc",
     [] {
         cudaResourceDesc r = array_resource(arr);
         return cudaCreateTextureObject(&made_tex, &r, NULL, NULL);
     },
     destroy_made},
    {"cudaCreateTextureObject.unknown_resource_type",
     [] {
         cudaResourceDesc r = array_resource(arr);
         r.resType = (cudaResourceType)99;
         return create_texture(r, point_texture(), NULL);
     },
     destroy_made},
    {"cudaCreateTextureObject.null_array",
     [] { return create_texture(array_resource(NULL), point_texture(), NULL); }, destroy_made},
    {"cudaCreateTextureObject.linear_null_pointer",
     [] { return create_texture(linear_resource(NULL, 256), point_texture(), NULL); },
     destroy_made},
    {"cudaCreateTextureObject.linear_misaligned",
     [] { return create_texture(linear_resource(d + 4, 256), point_texture(), NULL); },
     destroy_made},
    {"cudaCreateTextureObject.linear_size_0",
     [] { return create_texture(linear_resource(d, 0), point_texture(), NULL); }, destroy_made},
    {"cudaCreateTextureObject.pitch2d_pitch_1",
     [] {
         cudaResourceDesc r;
         memset(&r, 0, sizeof r);
         r.resType = cudaResourceTypePitch2D;
         r.res.pitch2D.devPtr = d;
         r.res.pitch2D.desc = fdesc;
         r.res.pitch2D.width = 16;
         r.res.pitch2D.height = 4;
         r.res.pitch2D.pitchInBytes = 1;
         return create_texture(r, point_texture(), NULL);
     },
     destroy_made},
    {"cudaCreateTextureObject.unknown_address_mode",
     [] {
         cudaTextureDesc t = point_texture();
         t.addressMode[0] = (cudaTextureAddressMode)99;
         return create_texture(array_resource(arr), t, NULL);
     },
     destroy_made},
    {"cudaCreateTextureObject.unknown_filter_mode",
     [] {
         cudaTextureDesc t = point_texture();
         t.filterMode = (cudaTextureFilterMode)99;
         return create_texture(array_resource(arr), t, NULL);
     },
     destroy_made},
    {"cudaCreateTextureObject.view_of_linear_memory",
     [] {
         cudaResourceViewDesc v;
         memset(&v, 0, sizeof v);
         v.format = cudaResViewFormatFloat1;
         v.width = 64;
         return create_texture(linear_resource(d, 256), point_texture(), &v);
     },
     destroy_made},
    {"cudaDestroyTextureObject.zero", [] { return cudaDestroyTextureObject(0); }},
    {"cudaDestroyTextureObject.twice",
     [] {
         CHECK(create_texture(array_resource(arr), point_texture(), NULL));
         cudaTextureObject_t t = made_tex;
         made_tex = 0;
         CHECK(cudaDestroyTextureObject(t));
         return cudaDestroyTextureObject(t);
     }},
    {"cudaGetTextureObjectResourceDesc.null_out",
     [] { return cudaGetTextureObjectResourceDesc(NULL, tex); }},
    {"cudaGetTextureObjectResourceDesc.zero_object",
     [] { return cudaGetTextureObjectResourceDesc(&out_res, 0); }},
    {"cudaGetTextureObjectTextureDesc.null_out",
     [] { return cudaGetTextureObjectTextureDesc(NULL, tex); }},
    {"cudaGetTextureObjectTextureDesc.zero_object",
     [] { return cudaGetTextureObjectTextureDesc(&out_tex, 0); }},
    {"cudaGetTextureObjectResourceViewDesc.null_out",
     [] { return cudaGetTextureObjectResourceViewDesc(NULL, tex); }},
    {"cudaGetTextureObjectResourceViewDesc.zero_object",
     [] { return cudaGetTextureObjectResourceViewDesc(&out_view, 0); }},
    // Only the answer is compared: what the view reads back for an object made without one is
    // not defined (NVIDIA's runtime filled it with stack garbage on the H200).
    {"cudaGetTextureObjectResourceViewDesc.made_without_view",
     [] { return cudaGetTextureObjectResourceViewDesc(&out_view, tex); }},

    // ---- surface objects ----
    {"cudaCreateSurfaceObject.null_out",
     [] {
         cudaResourceDesc r = array_resource(arr_surface);
         return cudaCreateSurfaceObject(NULL, &r);
     }},
    {"cudaCreateSurfaceObject.null_resource",
     [] { return cudaCreateSurfaceObject(&made_surf, NULL); }, destroy_made},
    {"cudaCreateSurfaceObject.array_without_surface_flag",
     [] { return create_surface(array_resource(arr)); }, destroy_made},
    {"cudaCreateSurfaceObject.null_array", [] { return create_surface(array_resource(NULL)); },
     destroy_made},
    {"cudaCreateSurfaceObject.linear_memory",
     [] { return create_surface(linear_resource(d, 256)); }, destroy_made},
    {"cudaDestroySurfaceObject.zero", [] { return cudaDestroySurfaceObject(0); }},
    {"cudaDestroySurfaceObject.twice",
     [] {
         CHECK(create_surface(array_resource(arr_surface)));
         cudaSurfaceObject_t o = made_surf;
         made_surf = 0;
         CHECK(cudaDestroySurfaceObject(o));
         return cudaDestroySurfaceObject(o);
     }},
    {"cudaGetSurfaceObjectResourceDesc.null_out",
     [] { return cudaGetSurfaceObjectResourceDesc(NULL, surf); }},
    {"cudaGetSurfaceObjectResourceDesc.zero_object",
     [] { return cudaGetSurfaceObjectResourceDesc(&out_res, 0); }},
};

int main(int argc, char **argv)
{
    int rc = misuse_main("conf_misuse_array", argc, argv, setup, cases, MISUSE_COUNT(cases));
    cudaDeviceSynchronize();
    return rc;
}
