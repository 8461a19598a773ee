// conf_textures.cu - CUDA arrays, texture and surface objects, channel descriptors and copies to
// and from arrays, compared line by line between NVIDIA's runtime and minicudart.
// Prints results as checksums (%.4f of sums), descriptor fields and error codes; never handles.
// gpu-flags: -Wno-deprecated-declarations
#include "gpu_check.h"

#include <math.h>
#include <string.h>

static int ok = 1;

static void probe(const char *what, cudaError_t e)
{
    cudaError_t last = cudaGetLastError();
    printf("%-58s -> " ERR_FMT ", last " ERR_FMT "\n", what, ERR_ARGS(e), ERR_ARGS(last));
}

// Reports a failed check once per name (checks inside loops repeat their name).
static void expect(const char *what, bool good)
{
    static const char *reported[32];
    static int count = 0;
    if (good)
        return;
    ok = 0;
    for (int i = 0; i < count; i++)
        if (strcmp(reported[i], what) == 0)
            return;
    if (count < 32)
        reported[count++] = what;
    printf("MISMATCH %s\n", what);
}

static void print_desc(const char *what, cudaChannelFormatDesc d)
{
    printf("%-30s x=%d y=%d z=%d w=%d f=%d\n", what, d.x, d.y, d.z, d.w, (int)d.f);
}

// ---- kernels ------------------------------------------------------------------------------------

__global__ void sample_2d(cudaTextureObject_t t, float *out, int n, float step, float origin,
                          float scale)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n * n)
        return;
    float u = ((i % n) * step + origin) * scale, v = ((i / n) * step + origin) * scale;
    out[i] = tex2D<float>(t, u, v);
}

__global__ void fetch_int4(cudaTextureObject_t t, int4 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex1Dfetch<int4>(t, i);
}

__global__ void sample_uchar4(cudaTextureObject_t as_float, cudaTextureObject_t as_int,
                              float4 *f, uchar4 *u, int w, int h)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= w * h)
        return;
    float x = i % w + 0.5f, y = i / w + 0.5f;
    f[i] = tex2D<float4>(as_float, x, y);
    u[i] = tex2D<uchar4>(as_int, x, y);
}

__global__ void write_surface(cudaSurfaceObject_t s, int w, int h)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < w * h)
        surf2Dwrite((float)((i % w) * 3 + (i / w) * 100), s, (i % w) * (int)sizeof(float), i / w);
}

__global__ void write_layers(cudaSurfaceObject_t s, int w, int h, int layers)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= w * h * layers)
        return;
    int x = i % w, y = (i / w) % h, layer = i / (w * h);
    surf2DLayeredwrite((float)(layer * 1000 + y * 10 + x), s, x * (int)sizeof(float), y, layer);
}

__global__ void read_layers(cudaTextureObject_t t, float *out, int w, int h, int layers)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= w * h * layers)
        return;
    int x = i % w, y = (i / w) % h, layer = i / (w * h);
    out[i] = tex2DLayered<float>(t, x + 0.5f, y + 0.5f, layer);
}

// ---- host models of the texture unit, for the self-check -----------------------------------------

static const int TW = 8;      // the 2D float texture is TW x TW, texel (x, y) = y * TW + x

static int address(int i, bool wrap)
{
    return wrap ? ((i % TW) + TW) % TW : (i < 0 ? 0 : i >= TW ? TW - 1 : i);
}

static float texel(int x, int y, bool wrap)
{
    return (float)(address(y, wrap) * TW + address(x, wrap));
}

// u, v in texel units (normalized coordinates already multiplied by TW).
static float model(float u, float v, bool linear, bool wrap)
{
    if (!linear)
        return texel((int)floorf(u), (int)floorf(v), wrap);
    float x = u - 0.5f, y = v - 0.5f;
    int x0 = (int)floorf(x), y0 = (int)floorf(y);
    float a = x - x0, b = y - y0;
    return (1 - a) * (1 - b) * texel(x0, y0, wrap) + a * (1 - b) * texel(x0 + 1, y0, wrap) +
           (1 - a) * b * texel(x0, y0 + 1, wrap) + a * b * texel(x0 + 1, y0 + 1, wrap);
}

// One sampling pass over a 16 x 16 grid of points from -2.3 to 9.9 texels.
static void sample_case(cudaArray_t array, const char *name, cudaTextureFilterMode filter,
                        cudaTextureAddressMode mode, bool normalized)
{
    const int n = 16;
    const float step = 0.8125f, origin = -2.3f;
    cudaResourceDesc res;
    memset(&res, 0, sizeof res);
    res.resType = cudaResourceTypeArray;
    res.res.array.array = array;
    cudaTextureDesc tex;
    memset(&tex, 0, sizeof tex);
    tex.addressMode[0] = tex.addressMode[1] = mode;
    tex.filterMode = filter;
    tex.readMode = cudaReadModeElementType;
    tex.normalizedCoords = normalized;
    cudaTextureObject_t t = 0;
    CHECK(cudaCreateTextureObject(&t, &res, &tex, NULL));
    float *d_out = NULL, out[n * n];
    CHECK(cudaMalloc(&d_out, sizeof out));
    sample_2d<<<(n * n + 127) / 128, 128>>>(t, d_out, n, step, origin,
                                            normalized ? 1.0f / TW : 1.0f);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
    double sum = 0, want = 0, worst = 0;
    for (int i = 0; i < n * n; i++) {
        float u = (i % n) * step + origin, v = (i / n) * step + origin;
        float m = model(u, v, filter == cudaFilterModeLinear, mode == cudaAddressModeWrap);
        sum += out[i];
        want += m;
        worst = fmax(worst, fabs(out[i] - m));
    }
    printf("texture 2D %-26s sum %.4f\n", name, sum);
    // point sampling is exact; linear filtering weighs with 8 fractional bits, and wrapping
    // puts texels 56 apart side by side (56 / 256 < 0.5)
    expect(name, worst <= (filter == cudaFilterModeLinear ? 0.5 : 0.0));

    cudaTextureDesc back;
    CHECK(cudaGetTextureObjectTextureDesc(&back, t));
    printf("  desc back: address %d,%d filter %d read %d normalized %d\n", (int)back.addressMode[0],
           (int)back.addressMode[1], (int)back.filterMode, (int)back.readMode,
           back.normalizedCoords);
    cudaResourceDesc res_back;
    CHECK(cudaGetTextureObjectResourceDesc(&res_back, t));
    printf("  resource back: type %d, same array %s\n", (int)res_back.resType,
           res_back.res.array.array == array ? "yes" : "no");
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFree(d_out));
}

static void textures_2d(void)
{
    float host[TW * TW];
    for (int i = 0; i < TW * TW; i++)
        host[i] = (float)i;
    cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
    cudaArray_t array = NULL;
    CHECK(cudaMallocArray(&array, &desc, TW, TW));
    CHECK(cudaMemcpy2DToArray(array, 0, 0, host, TW * sizeof(float), TW * sizeof(float), TW,
                              cudaMemcpyHostToDevice));
    sample_case(array, "point clamp", cudaFilterModePoint, cudaAddressModeClamp, false);
    sample_case(array, "linear clamp", cudaFilterModeLinear, cudaAddressModeClamp, false);
    sample_case(array, "point wrap normalized", cudaFilterModePoint, cudaAddressModeWrap, true);
    sample_case(array, "linear wrap normalized", cudaFilterModeLinear, cudaAddressModeWrap, true);
    sample_case(array, "point clamp normalized", cudaFilterModePoint, cudaAddressModeClamp, true);
    CHECK(cudaFreeArray(array));
}

static void texture_1d_int4(void)
{
    const int n = 256;
    int4 host[n], back[n];
    for (int i = 0; i < n; i++)
        host[i] = make_int4(i, 2 * i, -i, 7);
    int4 *d_in = NULL, *d_out = NULL;
    CHECK(cudaMalloc(&d_in, sizeof host));
    CHECK(cudaMalloc(&d_out, sizeof back));
    CHECK(cudaMemcpy(d_in, host, sizeof host, cudaMemcpyHostToDevice));
    cudaResourceDesc res;
    memset(&res, 0, sizeof res);
    res.resType = cudaResourceTypeLinear;
    res.res.linear.devPtr = d_in;
    res.res.linear.desc = cudaCreateChannelDesc<int4>();
    res.res.linear.sizeInBytes = sizeof host;
    cudaTextureDesc tex;
    memset(&tex, 0, sizeof tex);
    tex.readMode = cudaReadModeElementType;
    cudaTextureObject_t t = 0;
    CHECK(cudaCreateTextureObject(&t, &res, &tex, NULL));
    fetch_int4<<<2, 128>>>(t, d_out, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(back, d_out, sizeof back, cudaMemcpyDeviceToHost));
    long long sx = 0, sy = 0, sz = 0, sw = 0;
    for (int i = 0; i < n; i++) {
        sx += back[i].x, sy += back[i].y, sz += back[i].z, sw += back[i].w;
        expect("int4 fetch", back[i].x == host[i].x && back[i].y == host[i].y &&
                             back[i].z == host[i].z && back[i].w == host[i].w);
    }
    printf("texture 1D linear int4 sums %lld %lld %lld %lld\n", sx, sy, sz, sw);
    cudaResourceDesc res_back;
    CHECK(cudaGetTextureObjectResourceDesc(&res_back, t));
    printf("  resource back: type %d size %zu same pointer %s\n", (int)res_back.resType,
           res_back.res.linear.sizeInBytes, res_back.res.linear.devPtr == d_in ? "yes" : "no");
    print_desc("  channel back", res_back.res.linear.desc);
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
}

static void texture_uchar4_read_modes(void)
{
    const int w = 8, h = 4;
    uchar4 host[w * h];
    for (int i = 0; i < w * h; i++)
        host[i] = make_uchar4(i, 255 - i, 2 * i, 128);
    cudaChannelFormatDesc desc = cudaCreateChannelDesc<uchar4>();
    cudaArray_t array = NULL;
    CHECK(cudaMallocArray(&array, &desc, w, h));
    CHECK(cudaMemcpy2DToArray(array, 0, 0, host, w * sizeof(uchar4), w * sizeof(uchar4), h,
                              cudaMemcpyHostToDevice));
    cudaResourceDesc res;
    memset(&res, 0, sizeof res);
    res.resType = cudaResourceTypeArray;
    res.res.array.array = array;
    cudaTextureDesc tex;
    memset(&tex, 0, sizeof tex);
    tex.readMode = cudaReadModeNormalizedFloat;
    cudaTextureObject_t as_float = 0, as_int = 0;
    CHECK(cudaCreateTextureObject(&as_float, &res, &tex, NULL));
    tex.readMode = cudaReadModeElementType;
    CHECK(cudaCreateTextureObject(&as_int, &res, &tex, NULL));
    float4 *d_f = NULL, f[w * h];
    uchar4 *d_u = NULL, u[w * h];
    CHECK(cudaMalloc(&d_f, sizeof f));
    CHECK(cudaMalloc(&d_u, sizeof u));
    sample_uchar4<<<1, w * h>>>(as_float, as_int, d_f, d_u, w, h);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(f, d_f, sizeof f, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(u, d_u, sizeof u, cudaMemcpyDeviceToHost));
    double fsum = 0;
    long usum = 0;
    for (int i = 0; i < w * h; i++) {
        fsum += f[i].x + f[i].y + f[i].z + f[i].w;
        usum += u[i].x + u[i].y + u[i].z + u[i].w;
        expect("uchar4 element read", u[i].x == host[i].x && u[i].y == host[i].y &&
                                      u[i].z == host[i].z && u[i].w == host[i].w);
        expect("uchar4 normalized read", fabsf(f[i].x - host[i].x / 255.0f) < 1e-5f);
    }
    printf("texture uchar4 normalized-float sum %.4f, element-type sum %ld\n", fsum, usum);
    cudaTextureDesc back;
    CHECK(cudaGetTextureObjectTextureDesc(&back, as_float));
    printf("  read mode back: normalized-float object %d", (int)back.readMode);
    CHECK(cudaGetTextureObjectTextureDesc(&back, as_int));
    printf(", element-type object %d\n", (int)back.readMode);
    CHECK(cudaDestroyTextureObject(as_float));
    CHECK(cudaDestroyTextureObject(as_int));
    CHECK(cudaFree(d_f));
    CHECK(cudaFree(d_u));
    CHECK(cudaFreeArray(array));
}

static void surface_2d(void)
{
    const int w = 16, h = 8;
    cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
    cudaArray_t array = NULL;
    CHECK(cudaMallocArray(&array, &desc, w, h, cudaArraySurfaceLoadStore));
    cudaResourceDesc res;
    memset(&res, 0, sizeof res);
    res.resType = cudaResourceTypeArray;
    res.res.array.array = array;
    cudaSurfaceObject_t s = 0;
    CHECK(cudaCreateSurfaceObject(&s, &res));
    write_surface<<<1, w * h>>>(s, w, h);
    CHECK(cudaGetLastError());
    // back with a wider pitch, skipping column 0
    float out[h][w + 3];
    memset(out, 0, sizeof out);
    CHECK(cudaMemcpy2DFromArray(out, sizeof out[0], array, sizeof(float), 0,
                                (w - 1) * sizeof(float), h, cudaMemcpyDeviceToHost));
    double sum = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w - 1; x++) {
            sum += out[y][x];
            expect("surface value", out[y][x] == (float)((x + 1) * 3 + y * 100));
        }
    printf("surface 2D written by a kernel, copied back: sum %.4f\n", sum);
    cudaResourceDesc res_back;
    CHECK(cudaGetSurfaceObjectResourceDesc(&res_back, s));
    printf("  surface resource back: type %d, same array %s\n", (int)res_back.resType,
           res_back.res.array.array == array ? "yes" : "no");
    CHECK(cudaDestroySurfaceObject(s));
    CHECK(cudaFreeArray(array));
}

static void layered(void)
{
    const int w = 4, h = 4, layers = 3, n = w * h * layers;
    cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
    cudaArray_t array = NULL;
    CHECK(cudaMalloc3DArray(&array, &desc, make_cudaExtent(w, h, layers),
                            cudaArrayLayered | cudaArraySurfaceLoadStore));
    cudaResourceDesc res;
    memset(&res, 0, sizeof res);
    res.resType = cudaResourceTypeArray;
    res.res.array.array = array;
    cudaSurfaceObject_t s = 0;
    CHECK(cudaCreateSurfaceObject(&s, &res));
    cudaTextureDesc tex;
    memset(&tex, 0, sizeof tex);
    tex.readMode = cudaReadModeElementType;
    cudaTextureObject_t t = 0;
    CHECK(cudaCreateTextureObject(&t, &res, &tex, NULL));
    float *d_out = NULL, out[n];
    CHECK(cudaMalloc(&d_out, sizeof out));
    write_layers<<<1, n>>>(s, w, h, layers);
    read_layers<<<1, n>>>(t, d_out, w, h, layers);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
    double sum = 0;
    for (int i = 0; i < n; i++) {
        sum += out[i];
        expect("layered value", out[i] == (float)((i / (w * h)) * 1000 + ((i / w) % h) * 10 + i % w));
    }
    printf("layered array via surface and texture: sum %.4f\n", sum);
    cudaChannelFormatDesc d;
    cudaExtent e;
    unsigned flags = 0;
    CHECK(cudaArrayGetInfo(&d, &e, &flags, array));
    print_desc("layered info desc", d);
    printf("layered info extent %zu %zu %zu flags 0x%x\n", e.width, e.height, e.depth, flags);
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaDestroySurfaceObject(s));
    CHECK(cudaFree(d_out));
    CHECK(cudaFreeArray(array));
}

static void channel_descriptors(void)
{
    struct { const char *name; cudaChannelFormatDesc desc; } cases[] = {
        {"float", cudaCreateChannelDesc<float>()},
        {"float2", cudaCreateChannelDesc<float2>()},
        {"uchar4", cudaCreateChannelDesc<uchar4>()},
        {"short2", cudaCreateChannelDesc<short2>()},
        {"int", cudaCreateChannelDesc<int>()},
        {"uint4", cudaCreateChannelDesc<uint4>()},
        {"half", cudaCreateChannelDescHalf()},
        {"half4", cudaCreateChannelDescHalf4()},
        {"unorm8x4", cudaCreateChannelDesc<cudaChannelFormatKindUnsignedNormalized8X4>()},
        {"snorm16x2", cudaCreateChannelDesc<cudaChannelFormatKindSignedNormalized16X2>()},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cudaArray_t array = NULL;
        cudaError_t e = cudaMallocArray(&array, &cases[i].desc, 16, 4);
        char what[64];
        snprintf(what, sizeof what, "cudaMallocArray(%s)", cases[i].name);
        probe(what, e);
        if (e != cudaSuccess)
            continue;
        cudaChannelFormatDesc back;
        CHECK(cudaGetChannelDesc(&back, array));
        snprintf(what, sizeof what, "  cudaGetChannelDesc(%s)", cases[i].name);
        print_desc(what, back);
        cudaExtent extent;
        unsigned flags = 99;
        CHECK(cudaArrayGetInfo(NULL, &extent, &flags, array));
        printf("  extent %zu %zu %zu flags 0x%x\n", extent.width, extent.height, extent.depth,
               flags);
        CHECK(cudaFreeArray(array));
    }
    cudaChannelFormatDesc raw = cudaCreateChannelDesc(8, 16, 24, 32, cudaChannelFormatKindSigned);
    print_desc("cudaCreateChannelDesc(8,16,24,32)", raw);
}

static void copies(void)
{
    const int w = 8, h = 6;
    unsigned char src[w * h], back[w * h];
    for (int i = 0; i < w * h; i++)
        src[i] = (unsigned char)(i * 5 + 1);
    cudaChannelFormatDesc desc = cudaCreateChannelDesc<unsigned char>();
    cudaArray_t a = NULL, b = NULL, c = NULL;
    CHECK(cudaMallocArray(&a, &desc, w, h));
    CHECK(cudaMallocArray(&b, &desc, w, h));
    CHECK(cudaMallocArray(&c, &desc, 5, 10));
    // the legacy run of bytes: 30 bytes from (3, 1), back out, then array to array
    CHECK(cudaMemcpy2DToArray(a, 0, 0, src, w, w, h, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpyToArray(b, 3, 1, src, 30, cudaMemcpyHostToDevice));
    memset(back, 0, sizeof back);
    CHECK(cudaMemcpyFromArray(back, b, 3, 1, 30, cudaMemcpyDeviceToHost));
    expect("ToArray/FromArray run", memcmp(back, src, 30) == 0);
    CHECK(cudaMemcpyArrayToArray(c, 2, 1, a, 1, 0, 37));
    CHECK(cudaMemcpy2DArrayToArray(b, 1, 1, a, 2, 2, 4, 3));
    unsigned long sum_b = 0, sum_c = 0;
    CHECK(cudaMemcpy2DFromArray(back, w, b, 0, 0, w, h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < w * h; i++)
        sum_b += back[i] * (unsigned long)(i + 1);
    unsigned char cb[50];
    CHECK(cudaMemcpy2DFromArray(cb, 5, c, 0, 0, 5, 10, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 50; i++)
        sum_c += cb[i] * (unsigned long)(i + 1);
    for (int i = 0; i < 37; i++)
        expect("ArrayToArray run", cb[7 + i] == src[1 + i]);
    printf("copies: weighted sums %lu %lu\n", sum_b, sum_c);

    // asynchronous, on a stream, from device memory
    cudaStream_t stream;
    CHECK(cudaStreamCreate(&stream));
    unsigned char *d = NULL;
    CHECK(cudaMalloc(&d, sizeof src));
    CHECK(cudaMemcpy(d, src, sizeof src, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy2DToArrayAsync(c, 1, 2, d, w, 4, 5, cudaMemcpyDeviceToDevice, stream));
    CHECK(cudaMemcpyToArrayAsync(b, 0, 0, src + 5, 20, cudaMemcpyHostToDevice, stream));
    CHECK(cudaMemcpy2DFromArrayAsync(d, 5, c, 0, 0, 5, 9, cudaMemcpyDeviceToDevice, stream));
    unsigned char out[45], out2[20];
    CHECK(cudaMemcpyFromArrayAsync(out2, b, 0, 0, 20, cudaMemcpyDeviceToHost, stream));
    CHECK(cudaStreamSynchronize(stream));
    CHECK(cudaMemcpy(out, d, sizeof out, cudaMemcpyDeviceToHost));
    unsigned long sum_async = 0;
    for (int i = 0; i < 45; i++)
        sum_async += out[i] * (unsigned long)(i + 1);
    expect("async run", memcmp(out2, src + 5, 20) == 0);
    printf("async copies: weighted sum %lu\n", sum_async);
    CHECK(cudaStreamDestroy(stream));
    CHECK(cudaFree(d));
    CHECK(cudaFreeArray(a));
    CHECK(cudaFreeArray(b));
    CHECK(cudaFreeArray(c));
}

static void mipmaps(void)
{
    cudaChannelFormatDesc desc = cudaCreateChannelDesc<float4>();
    cudaMipmappedArray_t m = NULL;
    CHECK(cudaMallocMipmappedArray(&m, &desc, make_cudaExtent(64, 16, 0), 4));
    for (unsigned level = 0; level < 4; level++) {
        cudaArray_t a = NULL;
        CHECK(cudaGetMipmappedArrayLevel(&a, m, level));
        cudaExtent e;
        CHECK(cudaArrayGetInfo(NULL, &e, NULL, a));
        printf("mipmap level %u extent %zu %zu %zu\n", level, e.width, e.height, e.depth);
    }
    cudaArray_t a = NULL;
    probe("cudaGetMipmappedArrayLevel(level 9 of 4)", cudaGetMipmappedArrayLevel(&a, m, 9));
    CHECK(cudaFreeMipmappedArray(m));
}

static void invalid_arguments(void)
{
    cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
    cudaChannelFormatDesc three = cudaCreateChannelDesc(32, 32, 32, 0, cudaChannelFormatKindFloat);
    cudaArray_t a = NULL;
    probe("cudaMallocArray(NULL array)", cudaMallocArray(NULL, &f, 4, 4));
    probe("cudaMallocArray(NULL desc)", cudaMallocArray(&a, NULL, 4, 4));
    probe("cudaMallocArray(width 0)", cudaMallocArray(&a, &f, 0, 4));
    probe("cudaMallocArray(float3 desc)", cudaMallocArray(&a, &three, 4, 4));
    probe("cudaMalloc3DArray(NULL desc)", cudaMalloc3DArray(&a, NULL, make_cudaExtent(4, 4, 4)));
    probe("cudaFreeArray(NULL)", cudaFreeArray(NULL));
    probe("cudaFreeMipmappedArray(NULL)", cudaFreeMipmappedArray(NULL));

    CHECK(cudaMallocArray(&a, &f, 8, 8));
    float host[64] = {0};
    probe("cudaMemcpy2DToArray(spitch < width)",
          cudaMemcpy2DToArray(a, 0, 0, host, 4, 8 * sizeof(float), 8, cudaMemcpyHostToDevice));
    probe("cudaMemcpy2DToArray(kind DeviceToHost)",
          cudaMemcpy2DToArray(a, 0, 0, host, 32, 32, 8, cudaMemcpyDeviceToHost));
    probe("cudaMemcpy2DToArray(past the right edge)",
          cudaMemcpy2DToArray(a, 4, 0, host, 32, 32, 8, cudaMemcpyHostToDevice));
    probe("cudaMemcpy2DToArray(NULL src)",
          cudaMemcpy2DToArray(a, 0, 0, NULL, 32, 32, 8, cudaMemcpyHostToDevice));
    probe("cudaMemcpy2DToArray(NULL array)",
          cudaMemcpy2DToArray(NULL, 0, 0, host, 32, 32, 8, cudaMemcpyHostToDevice));
    probe("cudaMemcpyToArray(run past the end)",
          cudaMemcpyToArray(a, 0, 7, host, 64, cudaMemcpyHostToDevice));
    cudaChannelFormatDesc d;
    probe("cudaGetChannelDesc(NULL desc)", cudaGetChannelDesc(NULL, a));

    cudaResourceDesc res;
    memset(&res, 0, sizeof res);
    res.resType = cudaResourceTypeArray;
    res.res.array.array = a;
    cudaTextureDesc tex;
    memset(&tex, 0, sizeof tex);
    cudaTextureObject_t t = 0;
    cudaSurfaceObject_t s = 0;
    probe("cudaCreateTextureObject(NULL object)", cudaCreateTextureObject(NULL, &res, &tex, NULL));
    probe("cudaCreateTextureObject(NULL resource)", cudaCreateTextureObject(&t, NULL, &tex, NULL));
    probe("cudaCreateSurfaceObject(NULL resource)", cudaCreateSurfaceObject(&s, NULL));
    probe("cudaCreateSurfaceObject(array without surface flag)", cudaCreateSurfaceObject(&s, &res));
    res.resType = (cudaResourceType)0x55;
    probe("cudaCreateTextureObject(bad resource type)", cudaCreateTextureObject(&t, &res, &tex, NULL));
    probe("cudaCreateSurfaceObject(bad resource type)", cudaCreateSurfaceObject(&s, &res));
    res.resType = cudaResourceTypeLinear;
    res.res.linear.devPtr = NULL;
    res.res.linear.desc = three;
    res.res.linear.sizeInBytes = 1024;
    probe("cudaCreateTextureObject(linear float3)", cudaCreateTextureObject(&t, &res, &tex, NULL));
    probe("cudaGetTextureObjectTextureDesc(NULL desc)", cudaGetTextureObjectTextureDesc(NULL, t));
    probe("cudaGetTextureObjectResourceDesc(NULL desc)", cudaGetTextureObjectResourceDesc(NULL, t));
    probe("cudaGetSurfaceObjectResourceDesc(NULL desc)", cudaGetSurfaceObjectResourceDesc(NULL, s));
    (void)d;
    CHECK(cudaFreeArray(a));
}

int main(void)
{
    gpu_require("conf_textures");
    channel_descriptors();
    textures_2d();
    texture_1d_int4();
    texture_uchar4_read_modes();
    surface_2d();
    layered();
    copies();
    mipmaps();
    invalid_arguments();
    CHECK(cudaDeviceSynchronize());
    printf("conf_textures: %s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
