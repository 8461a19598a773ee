// step.cu - one step of a C/CUDA training or inference program, timed: about 200 small kernels
// and 8 cuBLAS GEMMs on two non-blocking streams, fork/join through events, a small result copied
// to pinned host memory and one cudaStreamSynchronize per step.  Built with -cudart=shared and
// -lcublas, so the same binary runs on NVIDIA's libcudart.so.13 or on minicudart's (run.sh).
//
// usage: step [STEPS [WARMUP]]          (defaults 200 and 20; STEPS is cut to a multiple of 10)
// environment: STEP_NO_CUBLAS=1 replaces each GEMM by an elementwise kernel (a run without
//              cuBLAS, e.g. on a driver that cannot run cuBLAS's kernels)
//
// One step, LAYERS times (x: H x T activations, column-major, z: the side stream's Z x Z state):
//   s0  record fork[l]                      s1  wait fork[l]
//   s0  y = W[l] x          (Sgemm H,T,H)   s1  zt = Wz z        (GemmEx Z,Z,Z, fp32)
//   s0  y = tanh(y + b[l])                  s1  z = tanh(zt + x/4)           (65,536 elements)
//   s0  p = softmax of each column of y     s1  CHAIN x (v = (v + z)/2, v' = tanh(1.1 v)),
//                                               on 4,096-element vectors
//                                           s1  zsum[l] = sum(z)  (two-kernel reduction)
//                                           s1  record join[l]
//   s0  wait join[l]; x = tanh(0.8 x + 0.5 (H p - 1) + 0.1 mean(z) + 0.05 v0); xsum[l] = sum(x)
// then loss = mean(x sums) + mean(z sums) on s0, copied to pinned memory, cudaStreamSynchronize.
// cuBLAS runs on one handle: cublasSetStream, then cublasSetWorkspace with that stream's own
// workspace, before each GEMM (as PyTorch does).  Every launch is followed by cudaGetLastError.
//
// Output (bench/src/common.h protocol):
//   RESULT step_us <median of 10 blocks, each STEPS/10 steps: wall us per step> us
//   RESULT step_min_us <the fastest block's us per step> us
//   RESULT issue_us <median of the blocks: host us per step spent issuing the step's calls, up
//                    to the cudaStreamSynchronize> us (near step_us: the host is the bottleneck)
//   RESULT checksum <sum of final x, z, v and of every step's loss, in double> sum
// The data are fixed (hashed from the index), the kernels deterministic (no atomics, fixed
// reduction trees), so the checksum depends on the GPU and cuBLAS only, never on the runtime.
// First of all, "INFO cudart <file>" and "INFO cublas <file>": the libraries that the runtime's and
// cuBLAS's entry points were bound to (dladdr), for run.sh to check which runtime ran; after the
// runs, "INFO mapped <file>" for each libcudart* file mapped into the process (/proc/self/maps).
// Exit codes: 0 ok, 1 failure (FAIL line), 2 no CUDA driver or GPU here (FAIL line too).
#include "common.h"
#include <cublas_v2.h>
#include <dlfcn.h>
#include <cuda_runtime.h>
#include <math.h>

#define H 1024          /* features: rows of x, W[l] is H x H */
#define T 256           /* tokens: columns of x */
#define Z 256           /* the side state z is Z x Z */
#define LAYERS 4
#define CHAIN 21        /* pairs of small kernels per layer on s1 */
#define NV 8            /* small vectors */
#define VLEN 4096
#define RBLOCKS 64      /* partial sums of a reduction */
#define BLOCKS 10       /* timed blocks */

#define CHECK_BLAS(call)                                                                      \
    do {                                                                                      \
        cublasStatus_t s_ = (call);                                                           \
        if (s_ != CUBLAS_STATUS_SUCCESS) {                                                    \
            printf("FAIL %s:%d: %s -> %d %s\n", __FILE__, __LINE__, #call, (int)s_,            \
                   cublasGetStatusName(s_));                                                  \
            exit(1);                                                                          \
        }                                                                                     \
    } while (0)

/* A launch and its check, as a program that checks every launch writes it. */
#define LAUNCH(kernel, grid, block, shm, stream, ...)                                         \
    do {                                                                                      \
        kernel<<<(grid), (block), (shm), (stream)>>>(__VA_ARGS__);                            \
        CHECK(cudaGetLastError());                                                            \
        launches++;                                                                           \
    } while (0)

static long launches;

static unsigned grid_for(int n) { return (unsigned)((n + 255) / 256); }

// ---- kernels ---------------------------------------------------------------------------------
__global__ void k_init(float *p, int n, unsigned seed, float scale)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned h = (unsigned)i * 2654435761u ^ seed * 2246822519u;
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    h *= 3266489917u;
    h ^= h >> 16;
    p[i] = scale * ((float)(h >> 8) * (2.0f / 16777216.0f) - 1.0f);
}

__global__ void k_bias_tanh(float *y, const float *bias, int rows, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = tanhf(y[i] + bias[i % rows]);
}

/* The "GEMM" of a run without cuBLAS: y = x scaled. */
__global__ void k_scale(float *y, const float *x, float s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = s * x[i];
}

/* One block per row of len contiguous elements (len a multiple of blockDim.x = 256). */
__global__ void k_row_softmax(const float *y, float *p, int len)
{
    __shared__ float red[256];
    const float *row = y + (size_t)blockIdx.x * len;
    float *out = p + (size_t)blockIdx.x * len;
    int t = threadIdx.x;
    float m = -INFINITY;
    for (int i = t; i < len; i += blockDim.x)
        m = fmaxf(m, row[i]);
    red[t] = m;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s)
            red[t] = fmaxf(red[t], red[t + s]);
        __syncthreads();
    }
    m = red[0];
    __syncthreads();
    float sum = 0.0f;
    for (int i = t; i < len; i += blockDim.x)
        sum += expf(row[i] - m);
    red[t] = sum;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s)
            red[t] += red[t + s];
        __syncthreads();
    }
    float inv = 1.0f / red[0];
    for (int i = t; i < len; i += blockDim.x)
        out[i] = expf(row[i] - m) * inv;
}

__global__ void k_mix_in(float *z, const float *zt, const float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        z[i] = tanhf(zt[i] + 0.25f * x[i]);
}

__global__ void k_avg(float *v, const float *u, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] = 0.5f * (v[i] + u[i]);
}

__global__ void k_tanh_scale(float *out, const float *v, float s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tanhf(s * v[i]);
}

/* RBLOCKS blocks of 256: partial[b] = the block's sum, in a fixed order. */
__global__ void k_reduce_partial(const float *in, float *partial, int n)
{
    __shared__ float red[256];
    int t = threadIdx.x;
    float s = 0.0f;
    for (int i = blockIdx.x * blockDim.x + t; i < n; i += gridDim.x * blockDim.x)
        s += in[i];
    red[t] = s;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
        if (t < k)
            red[t] += red[t + k];
        __syncthreads();
    }
    if (t == 0)
        partial[blockIdx.x] = red[0];
}

/* One block of RBLOCKS threads. */
__global__ void k_reduce_final(const float *partial, float *out)
{
    __shared__ float red[RBLOCKS];
    int t = threadIdx.x;
    red[t] = partial[t];
    __syncthreads();
    for (int k = RBLOCKS / 2; k > 0; k >>= 1) {
        if (t < k)
            red[t] += red[t + k];
        __syncthreads();
    }
    if (t == 0)
        *out = red[0];
}

__global__ void k_residual(float *x, const float *p, const float *zsum, const float *v0, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = tanhf(0.8f * x[i] + 0.5f * (H * p[i] - 1.0f) + 0.1f * (*zsum / (Z * Z)) +
                     0.05f * v0[i % VLEN]);
}

__global__ void k_loss(const float *xsum, const float *zsum, float *loss)
{
    if (threadIdx.x == 0) {
        float a = 0.0f, b = 0.0f;
        for (int l = 0; l < LAYERS; l++) {
            a += xsum[l];
            b += zsum[l];
        }
        *loss = a / (LAYERS * (float)H * T) + b / (LAYERS * (float)Z * Z);
    }
}

// ---- the program -----------------------------------------------------------------------------
struct state {
    cudaStream_t s0, s1;
    cudaEvent_t fork[LAYERS], join[LAYERS];
    cublasHandle_t blas;
    void *ws0, *ws1;
    size_t ws_bytes;
    int use_blas;
    float *W[LAYERS], *bias[LAYERS], *x, *y, *p, *Wz, *z, *zt, *v[NV];
    float *part0, *part1, *xsum, *zsum, *loss;
    float *h_loss; /* pinned */
};

/* The file an entry point of this process was bound to. */
static const char *lib_of(const void *fn)
{
    Dl_info info;
    return dladdr(fn, &info) && info.dli_fname ? info.dli_fname : "?";
}

/* Every libcudart* file mapped into this process, once each. */
static void mapped_runtimes(void)
{
    FILE *f = fopen("/proc/self/maps", "r");
    char line[1024], seen[8][512];
    int n = 0;
    if (!f)
        return;
    while (fgets(line, sizeof line, f)) {
        char *path = strchr(line, '/');
        if (!path || !strstr(path, "libcudart"))
            continue;
        path[strcspn(path, "\n")] = 0;
        int i = 0;
        while (i < n && strcmp(seen[i], path) != 0)
            i++;
        if (i == n && n < 8) {
            snprintf(seen[n++], sizeof seen[0], "%s", path);
            printf("INFO mapped %s\n", path);
        }
    }
    fclose(f);
}

static void require_gpu(void)
{
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e == cudaErrorInsufficientDriver || e == cudaErrorNoDevice || e == cudaErrorStubLibrary ||
        (e == cudaSuccess && count < 1)) {
        printf("FAIL no CUDA driver or GPU here: cudaGetDeviceCount -> %d %s, %d devices\n",
               (int)e, cudaGetErrorName(e), count);
        exit(2);
    }
    if (e != cudaSuccess) {
        printf("FAIL cudaGetDeviceCount -> %d %s\n", (int)e, cudaGetErrorName(e));
        exit(1);
    }
}

static float *dalloc(size_t n)
{
    float *p = NULL;
    CHECK(cudaMalloc((void **)&p, n * sizeof(float)));
    return p;
}

static void fill(float *p, int n, unsigned seed, float scale)
{
    LAUNCH(k_init, grid_for(n), 256, 0, 0, p, n, seed, scale);
}

static void setup(struct state *st)
{
    require_gpu();
    CHECK(cudaSetDevice(0));
    CHECK(cudaStreamCreateWithFlags(&st->s0, cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithFlags(&st->s1, cudaStreamNonBlocking));
    for (int l = 0; l < LAYERS; l++) {
        CHECK(cudaEventCreateWithFlags(&st->fork[l], cudaEventDisableTiming));
        CHECK(cudaEventCreateWithFlags(&st->join[l], cudaEventDisableTiming));
    }
    unsigned seed = 1;
    for (int l = 0; l < LAYERS; l++) {
        st->W[l] = dalloc((size_t)H * H);
        st->bias[l] = dalloc(H);
        fill(st->W[l], H * H, seed++, 1.0f);
        fill(st->bias[l], H, seed++, 0.1f);
    }
    st->x = dalloc((size_t)H * T);
    st->y = dalloc((size_t)H * T);
    st->p = dalloc((size_t)H * T);
    st->Wz = dalloc(Z * Z);
    st->z = dalloc(Z * Z);
    st->zt = dalloc(Z * Z);
    fill(st->x, H * T, seed++, 1.0f);
    fill(st->Wz, Z * Z, seed++, 1.0f);
    fill(st->z, Z * Z, seed++, 1.0f);
    for (int i = 0; i < NV; i++) {
        st->v[i] = dalloc(VLEN);
        fill(st->v[i], VLEN, seed++, 1.0f);
    }
    st->part0 = dalloc(RBLOCKS);
    st->part1 = dalloc(RBLOCKS);
    st->xsum = dalloc(LAYERS);
    st->zsum = dalloc(LAYERS);
    st->loss = dalloc(1);
    CHECK(cudaMallocHost((void **)&st->h_loss, sizeof(float)));
    CHECK(cudaDeviceSynchronize());
    st->use_blas = !(getenv("STEP_NO_CUBLAS") && atoi(getenv("STEP_NO_CUBLAS")));
    if (st->use_blas) {
        st->ws_bytes = 4u << 20;
        CHECK(cudaMalloc(&st->ws0, st->ws_bytes));
        CHECK(cudaMalloc(&st->ws1, st->ws_bytes));
        CHECK_BLAS(cublasCreate(&st->blas));
    }
}

static void blas_on(struct state *st, cudaStream_t s, void *ws)
{
    CHECK_BLAS(cublasSetStream(st->blas, s));
    CHECK_BLAS(cublasSetWorkspace(st->blas, ws, st->ws_bytes));
}

/* One step; adds to *issue the host ns spent before the final cudaStreamSynchronize. */
static void step(struct state *st, double *issue)
{
    double t0 = now_ns();
    const float a_big = 1.0f / 16, a_small = 1.0f / 8, zero = 0.0f;
    const int n = H * T;
    for (int l = 0; l < LAYERS; l++) {
        CHECK(cudaEventRecord(st->fork[l], st->s0));
        CHECK(cudaStreamWaitEvent(st->s1, st->fork[l], 0));
        // s0: y = W[l] x, bias, tanh, softmax of each column
        if (st->use_blas) {
            blas_on(st, st->s0, st->ws0);
            CHECK_BLAS(cublasSgemm(st->blas, CUBLAS_OP_N, CUBLAS_OP_N, H, T, H, &a_big, st->W[l],
                                   H, st->x, H, &zero, st->y, H));
        } else {
            LAUNCH(k_scale, grid_for(n), 256, 0, st->s0, st->y, st->x, 1.5f, n);
        }
        LAUNCH(k_bias_tanh, grid_for(n), 256, 0, st->s0, st->y, st->bias[l], H, n);
        LAUNCH(k_row_softmax, T, 256, 0, st->s0, st->y, st->p, H);
        // s1: zt = Wz z, mixed with x; small kernels; sum of z
        if (st->use_blas) {
            blas_on(st, st->s1, st->ws1);
            CHECK_BLAS(cublasGemmEx(st->blas, CUBLAS_OP_N, CUBLAS_OP_N, Z, Z, Z, &a_small, st->Wz,
                                    CUDA_R_32F, Z, st->z, CUDA_R_32F, Z, &zero, st->zt,
                                    CUDA_R_32F, Z, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
        } else {
            LAUNCH(k_scale, grid_for(Z * Z), 256, 0, st->s1, st->zt, st->z, 0.7f, Z * Z);
        }
        LAUNCH(k_mix_in, grid_for(Z * Z), 256, 0, st->s1, st->z, st->zt, st->x, Z * Z);
        for (int j = 0; j < CHAIN; j++) {
            float *v = st->v[j % NV], *w = st->v[(j + 1) % NV];
            const float *zs = st->z + (size_t)(j * VLEN) % (Z * Z);
            LAUNCH(k_avg, grid_for(VLEN), 256, 0, st->s1, v, zs, VLEN);
            LAUNCH(k_tanh_scale, grid_for(VLEN), 256, 0, st->s1, w, v, 1.1f, VLEN);
        }
        LAUNCH(k_reduce_partial, RBLOCKS, 256, 0, st->s1, st->z, st->part1, Z * Z);
        LAUNCH(k_reduce_final, 1, RBLOCKS, 0, st->s1, st->part1, st->zsum + l);
        CHECK(cudaEventRecord(st->join[l], st->s1));
        // s0: join, residual update of x, sum of x
        CHECK(cudaStreamWaitEvent(st->s0, st->join[l], 0));
        LAUNCH(k_residual, grid_for(n), 256, 0, st->s0, st->x, st->p, st->zsum + l, st->v[0], n);
        LAUNCH(k_reduce_partial, RBLOCKS, 256, 0, st->s0, st->x, st->part0, n);
        LAUNCH(k_reduce_final, 1, RBLOCKS, 0, st->s0, st->part0, st->xsum + l);
    }
    LAUNCH(k_loss, 1, 32, 0, st->s0, st->xsum, st->zsum, st->loss);
    CHECK(cudaMemcpyAsync(st->h_loss, st->loss, sizeof(float), cudaMemcpyDeviceToHost, st->s0));
    *issue += now_ns() - t0;
    CHECK(cudaStreamSynchronize(st->s0));
}

static double host_sum(const float *d, size_t n)
{
    float *h = (float *)malloc(n * sizeof(float));
    double s = 0.0;
    if (!h) {
        printf("FAIL malloc\n");
        exit(1);
    }
    CHECK(cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < n; i++)
        s += h[i];
    free(h);
    return s;
}

int main(int argc, char **argv)
{
    int steps = argc > 1 ? atoi(argv[1]) : 200, warmup = argc > 2 ? atoi(argv[2]) : 20;
    if (steps < BLOCKS || warmup < 0) {
        fprintf(stderr, "usage: %s [STEPS >= %d [WARMUP]]\n", argv[0], BLOCKS);
        return 1;
    }
    int per = steps / BLOCKS;
    static struct state st;
    double loss_sum = 0.0, us[BLOCKS], issue_us[BLOCKS], issue = 0.0;
    printf("INFO cudart %s\n", lib_of((const void *)cudaGetDeviceCount));
    printf("INFO cublas %s\n", lib_of((const void *)cublasCreate));
    fflush(stdout);
    setup(&st);
    for (int i = 0; i < warmup; i++) {
        step(&st, &issue);
        loss_sum += *st.h_loss;
    }
    long per_step = 0;
    for (int b = 0; b < BLOCKS; b++) {
        double t0 = now_ns();
        issue = 0.0;
        for (int i = 0; i < per; i++) {
            long before = launches;
            step(&st, &issue);
            per_step = launches - before;
            loss_sum += *st.h_loss;
        }
        us[b] = (now_ns() - t0) / 1e3 / per;
        issue_us[b] = issue / 1e3 / per;
    }
    if (!isfinite(loss_sum)) {
        printf("FAIL the loss is not finite: %g\n", loss_sum);
        return 1;
    }
    double sum = loss_sum + host_sum(st.x, (size_t)H * T) + host_sum(st.z, Z * Z);
    for (int i = 0; i < NV; i++)
        sum += host_sum(st.v[i], VLEN);
    mapped_runtimes();
    if (st.use_blas)
        CHECK_BLAS(cublasDestroy(st.blas));
    printf("INFO steps %d (+%d warm-up), %ld kernels and %d GEMMs per step, cuBLAS %s\n",
           per * BLOCKS, warmup, per_step, st.use_blas ? 2 * LAYERS : 0,
           st.use_blas ? "on" : "off");
    double mn = us[0];
    for (int b = 1; b < BLOCKS; b++)
        mn = us[b] < mn ? us[b] : mn;
    result("step_us", median(us, BLOCKS), "us");
    result("step_min_us", mn, "us");
    result("issue_us", median(issue_us, BLOCKS), "us");
    printf("RESULT checksum %.15e sum\n", sum);
    return 0;
}
