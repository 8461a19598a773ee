// conf_array_props.cu - what an existing CUDA array is, beyond its descriptor: the planes of an
// NV12 array (cudaArrayGetPlane) and the data that goes through them, the layout of sparse
// arrays and mipmapped arrays (cudaArrayGetSparseProperties,
// cudaMipmappedArrayGetSparseProperties), and the memory of deferred-mapping ones
// (cudaArrayGetMemoryRequirements, cudaMipmappedArrayGetMemoryRequirements).  Lines must match
// under both runtimes: codes, descriptors, sizes and checksums, never handles.
#include "gpu_check.h"

#include <string.h>

static int failures;

static void probe(const char *what, cudaError_t e)
{
    cudaError_t last = cudaGetLastError();
    printf("%-58s -> " ERR_FMT ", last " ERR_FMT "\n", what, ERR_ARGS(e), ERR_ARGS(last));
}

static void expect(const char *what, bool good)
{
    printf("%-58s %s\n", what, good ? "ok" : "MISMATCH");
    if (!good)
        failures++;
}

static unsigned long checksum(const void *data, size_t n)
{
    const unsigned char *b = (const unsigned char *)data;
    unsigned long h = 5381;
    for (size_t i = 0; i < n; i++)
        h = h * 33 + b[i];
    return h & 0xffffffffUL;
}

static void print_info(const char *what, cudaArray_t a)
{
    cudaChannelFormatDesc d;
    cudaExtent e;
    unsigned flags = 0;
    memset(&d, 0, sizeof d);
    memset(&e, 0, sizeof e);
    cudaError_t err = cudaArrayGetInfo(&d, &e, &flags, a);
    printf("%-30s " ERR_FMT " x=%d y=%d z=%d w=%d f=%d extent=%zux%zux%zu flags=0x%x\n", what,
           ERR_ARGS(err), d.x, d.y, d.z, d.w, (int)d.f, e.width, e.height, e.depth, flags);
}

static void print_sparse(const char *what, cudaError_t e, const cudaArraySparseProperties &p)
{
    probe(what, e);
    if (e == cudaSuccess)
        printf("  tile %ux%ux%u, mip tail from level %u, %llu bytes, flags 0x%x\n",
               p.tileExtent.width, p.tileExtent.height, p.tileExtent.depth, p.miptailFirstLevel,
               p.miptailSize, p.flags);
}

static void print_requirements(const char *what, cudaError_t e,
                               const cudaArrayMemoryRequirements &r)
{
    probe(what, e);
    if (e == cudaSuccess)
        printf("  size %zu, alignment %zu\n", r.size, r.alignment);
}

// ---- planes --------------------------------------------------------------------------------

// A 64 x 32 NV12 array: the luma plane (64 x 32, one byte) and the chroma plane (32 x 16, two
// bytes), written and read back through the planes.
static void planes(void)
{
    cudaChannelFormatDesc nv12 = cudaCreateChannelDescNV12();
    cudaArray_t a = NULL;
    cudaError_t e = cudaMallocArray(&a, &nv12, 64, 32, 0);
    probe("cudaMallocArray(NV12 64x32)", e);
    if (e != cudaSuccess)
        return;
    print_info("NV12 array", a);
    cudaArray_t luma = NULL, chroma = NULL, again = NULL, none = NULL;
    probe("cudaArrayGetPlane(0)", cudaArrayGetPlane(&luma, a, 0));
    probe("cudaArrayGetPlane(1)", cudaArrayGetPlane(&chroma, a, 1));
    probe("cudaArrayGetPlane(0) again", cudaArrayGetPlane(&again, a, 0));
    printf("plane 0 asked twice is one handle: %s\n", again == luma ? "yes" : "no");
    probe("cudaArrayGetPlane(2)", cudaArrayGetPlane(&none, a, 2));
    if (!luma || !chroma) {
        CHECK(cudaFreeArray(a));
        return;
    }
    print_info("plane 0", luma);
    print_info("plane 1", chroma);

    static unsigned char y_in[32][64], uv_in[16][64], y_out[32][64], uv_out[16][64];
    for (size_t i = 0; i < sizeof y_in; i++)
        ((unsigned char *)y_in)[i] = (unsigned char)(i * 7 + 1);
    for (size_t i = 0; i < sizeof uv_in; i++)
        ((unsigned char *)uv_in)[i] = (unsigned char)(i * 13 + 5);
    probe("cudaMemcpy2DToArray(plane 0)",
          cudaMemcpy2DToArray(luma, 0, 0, y_in, 64, 64, 32, cudaMemcpyHostToDevice));
    probe("cudaMemcpy2DToArray(plane 1)",
          cudaMemcpy2DToArray(chroma, 0, 0, uv_in, 64, 64, 16, cudaMemcpyHostToDevice));
    probe("cudaMemcpy2DFromArray(plane 0)",
          cudaMemcpy2DFromArray(y_out, 64, luma, 0, 0, 64, 32, cudaMemcpyDeviceToHost));
    probe("cudaMemcpy2DFromArray(plane 1)",
          cudaMemcpy2DFromArray(uv_out, 64, chroma, 0, 0, 64, 16, cudaMemcpyDeviceToHost));
    expect("luma back through plane 0", memcmp(y_in, y_out, sizeof y_in) == 0);
    expect("chroma back through plane 1", memcmp(uv_in, uv_out, sizeof uv_in) == 0);
    printf("planes checksum %lu %lu\n", checksum(y_out, sizeof y_out),
           checksum(uv_out, sizeof uv_out));
    CHECK(cudaFreeArray(a));
}

// ---- sparse layouts ------------------------------------------------------------------------

static void sparse_array(const char *what, cudaExtent extent, unsigned flags)
{
    cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
    cudaArray_t a = NULL;
    cudaError_t e = cudaMalloc3DArray(&a, &f, extent, flags | cudaArraySparse);
    char line[96];
    snprintf(line, sizeof line, "cudaMalloc3DArray(sparse %s)", what);
    probe(line, e);
    if (e != cudaSuccess)
        return;
    cudaArraySparseProperties p;
    memset(&p, 0, sizeof p);
    snprintf(line, sizeof line, "cudaArrayGetSparseProperties(%s)", what);
    print_sparse(line, cudaArrayGetSparseProperties(&p, a), p);
    CHECK(cudaFreeArray(a));
}

static void sparse_mipmap(const char *what, cudaExtent extent, unsigned levels, unsigned flags)
{
    cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
    cudaMipmappedArray_t m = NULL;
    cudaError_t e = cudaMallocMipmappedArray(&m, &f, extent, levels, flags | cudaArraySparse);
    char line[96];
    snprintf(line, sizeof line, "cudaMallocMipmappedArray(sparse %s)", what);
    probe(line, e);
    if (e != cudaSuccess)
        return;
    cudaArraySparseProperties p;
    memset(&p, 0, sizeof p);
    snprintf(line, sizeof line, "cudaMipmappedArrayGetSparseProperties(%s)", what);
    print_sparse(line, cudaMipmappedArrayGetSparseProperties(&p, m), p);
    cudaArray_t level = NULL;
    CHECK(cudaGetMipmappedArrayLevel(&level, m, 0));
    snprintf(line, sizeof line, "cudaArrayGetSparseProperties(level 0 of %s)", what);
    print_sparse(line, cudaArrayGetSparseProperties(&p, level), p);
    CHECK(cudaFreeMipmappedArray(m));
}

// ---- memory requirements -------------------------------------------------------------------

static void requirements(void)
{
    cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
    cudaArrayMemoryRequirements r;
    cudaArray_t a = NULL;
    cudaError_t e = cudaMallocArray(&a, &f, 256, 256, cudaArrayDeferredMapping);
    probe("cudaMallocArray(deferred mapping 256x256)", e);
    if (e == cudaSuccess) {
        memset(&r, 0, sizeof r);
        print_requirements("cudaArrayGetMemoryRequirements",
                           cudaArrayGetMemoryRequirements(&r, a, 0), r);
        CHECK(cudaFreeArray(a));
    }
    const unsigned level_counts[] = {1, 3, 9};
    for (unsigned i = 0; i < 3; i++) {
        cudaMipmappedArray_t m = NULL;
        char line[96];
        snprintf(line, sizeof line, "cudaMallocMipmappedArray(deferred 256x256, %u levels)",
                 level_counts[i]);
        e = cudaMallocMipmappedArray(&m, &f, make_cudaExtent(256, 256, 0), level_counts[i],
                                     cudaArrayDeferredMapping);
        probe(line, e);
        if (e != cudaSuccess)
            continue;
        memset(&r, 0, sizeof r);
        print_requirements("cudaMipmappedArrayGetMemoryRequirements",
                           cudaMipmappedArrayGetMemoryRequirements(&r, m, 0), r);
        CHECK(cudaFreeMipmappedArray(m));
    }
    // a 3D deferred-mapping mipmapped array
    cudaMipmappedArray_t m3 = NULL;
    e = cudaMallocMipmappedArray(&m3, &f, make_cudaExtent(64, 64, 64), 4,
                                 cudaArrayDeferredMapping);
    probe("cudaMallocMipmappedArray(deferred 64^3, 4 levels)", e);
    if (e == cudaSuccess) {
        memset(&r, 0, sizeof r);
        print_requirements("cudaMipmappedArrayGetMemoryRequirements(3D)",
                           cudaMipmappedArrayGetMemoryRequirements(&r, m3, 0), r);
        CHECK(cudaFreeMipmappedArray(m3));
    }
}

int main(void)
{
    gpu_require("conf_array_props");
    int sparse = -1, deferred = -1;
    CHECK(cudaDeviceGetAttribute(&sparse, cudaDevAttrSparseCudaArraySupported, 0));
    CHECK(cudaDeviceGetAttribute(&deferred, cudaDevAttrDeferredMappingCudaArraySupported, 0));
    printf("sparse arrays supported %d, deferred mapping supported %d\n", sparse, deferred);

    planes();
    sparse_array("2D 512x512", make_cudaExtent(512, 512, 0), 0);
    sparse_array("3D 128x128x64", make_cudaExtent(128, 128, 64), 0);
    sparse_array("layered 256x256x4", make_cudaExtent(256, 256, 4), cudaArrayLayered);
    sparse_mipmap("1024x1024, 11 levels", make_cudaExtent(1024, 1024, 0), 11, 0);
    sparse_mipmap("layered 256x256x3, 5 levels", make_cudaExtent(256, 256, 3), 5,
                  cudaArrayLayered);
    requirements();

    printf("conf_array_props: %s\n", failures ? "FAIL" : "PASS");
    return failures ? 1 : 0;
}
