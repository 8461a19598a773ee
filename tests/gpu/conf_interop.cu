// conf_interop.cu - interop with libraries that carry their own runtime (reference/SEMANTICS.md
// section 7): cuRAND, cuBLAS, cuFFT and cuSPARSE embed a static runtime and meet the runtime under
// test only in the driver (same primary context, same stream/event handles, same device
// pointers); Thrust and CUB are headers compiled into this program and call the runtime under test.
// Every library works here on memory from cudaMalloc and on streams from cudaStreamCreate*, with
// kernels of this program launched with <<<>>> between library calls on the same stream and
// events between two streams.  Producers that feed a library (or a library's output that feeds a
// kernel) are delayed kernels, so a broken order or a wait that is not honoured gives wrong data.
// Lines are results, tolerances and status codes only (never pointers or timings).
// gpu-libs: -lcublas -lcufft -lcurand -lcusparse
#include "gpu_check.h"

#include <cublas_v2.h>
#include <cufft.h>
#include <curand.h>
#include <cusparse.h>

#include <cub/device/device_reduce.cuh>
#include <thrust/device_ptr.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>

#include <algorithm>
#include <exception>
#include <math.h>
#include <vector>

static int failures = 0;

// About 2-3 ms on an H200: long enough that a consumer not ordered after the producer reads stale
// data.
#define DELAY_CYCLES 5000000LL

// ---------------------------------------------------------------- status lines of the libraries

static const char *curand_name(curandStatus_t s)
{
    switch (s) {
    case CURAND_STATUS_SUCCESS: return "CURAND_STATUS_SUCCESS";
    case CURAND_STATUS_VERSION_MISMATCH: return "CURAND_STATUS_VERSION_MISMATCH";
    case CURAND_STATUS_NOT_INITIALIZED: return "CURAND_STATUS_NOT_INITIALIZED";
    case CURAND_STATUS_ALLOCATION_FAILED: return "CURAND_STATUS_ALLOCATION_FAILED";
    case CURAND_STATUS_TYPE_ERROR: return "CURAND_STATUS_TYPE_ERROR";
    case CURAND_STATUS_OUT_OF_RANGE: return "CURAND_STATUS_OUT_OF_RANGE";
    case CURAND_STATUS_LENGTH_NOT_MULTIPLE: return "CURAND_STATUS_LENGTH_NOT_MULTIPLE";
    case CURAND_STATUS_LAUNCH_FAILURE: return "CURAND_STATUS_LAUNCH_FAILURE";
    case CURAND_STATUS_PREEXISTING_FAILURE: return "CURAND_STATUS_PREEXISTING_FAILURE";
    case CURAND_STATUS_INITIALIZATION_FAILED: return "CURAND_STATUS_INITIALIZATION_FAILED";
    case CURAND_STATUS_ARCH_MISMATCH: return "CURAND_STATUS_ARCH_MISMATCH";
    case CURAND_STATUS_INTERNAL_ERROR: return "CURAND_STATUS_INTERNAL_ERROR";
    default: return "CURAND_STATUS_?";
    }
}

static const char *cufft_name(cufftResult s)
{
    switch (s) {
    case CUFFT_SUCCESS: return "CUFFT_SUCCESS";
    case CUFFT_INVALID_PLAN: return "CUFFT_INVALID_PLAN";
    case CUFFT_ALLOC_FAILED: return "CUFFT_ALLOC_FAILED";
    case CUFFT_INVALID_TYPE: return "CUFFT_INVALID_TYPE";
    case CUFFT_INVALID_VALUE: return "CUFFT_INVALID_VALUE";
    case CUFFT_INTERNAL_ERROR: return "CUFFT_INTERNAL_ERROR";
    case CUFFT_EXEC_FAILED: return "CUFFT_EXEC_FAILED";
    case CUFFT_SETUP_FAILED: return "CUFFT_SETUP_FAILED";
    case CUFFT_INVALID_SIZE: return "CUFFT_INVALID_SIZE";
    case CUFFT_UNALIGNED_DATA: return "CUFFT_UNALIGNED_DATA";
    case CUFFT_INVALID_DEVICE: return "CUFFT_INVALID_DEVICE";
    case CUFFT_NOT_SUPPORTED: return "CUFFT_NOT_SUPPORTED";
    default: return "CUFFT_?";
    }
}

// A status that is printed (handle creation, stream binding): the line shows it, a non-success
// ends the program, as later calls would only repeat the failure.
#define SHOW_STATUS(what, call, ok_value, name_fn)                                               \
    do {                                                                                      \
        int show_rc_ = (int)(call);                                                           \
        printf("%-44s -> %d %s\n", what, show_rc_, name_fn(decltype(ok_value)(show_rc_)));   \
        if (show_rc_ != (int)(ok_value)) {                                                    \
            printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #call);                            \
            exit(1);                                                                          \
        }                                                                                     \
    } while (0)

// A library call that must succeed; silent when it does.
#define LIB_CHECK(call, ok_value, name_fn)                                                    \
    do {                                                                                      \
        int lib_rc_ = (int)(call);                                                            \
        if (lib_rc_ != (int)(ok_value)) {                                                     \
            printf("FAIL %s:%d: %s -> %d %s\n", __FILE__, __LINE__, #call, lib_rc_,           \
                   name_fn(decltype(ok_value)(lib_rc_)));                                     \
            exit(1);                                                                          \
        }                                                                                     \
    } while (0)

#define CUBLAS_SHOW(what, call) SHOW_STATUS(what, call, CUBLAS_STATUS_SUCCESS, cublasGetStatusName)
#define CUBLAS_CHECK(call) LIB_CHECK(call, CUBLAS_STATUS_SUCCESS, cublasGetStatusName)
#define CUFFT_SHOW(what, call) SHOW_STATUS(what, call, CUFFT_SUCCESS, cufft_name)
#define CUFFT_CHECK(call) LIB_CHECK(call, CUFFT_SUCCESS, cufft_name)
#define CURAND_SHOW(what, call) SHOW_STATUS(what, call, CURAND_STATUS_SUCCESS, curand_name)
#define CURAND_CHECK(call) LIB_CHECK(call, CURAND_STATUS_SUCCESS, curand_name)
#define CUSPARSE_SHOW(what, call) SHOW_STATUS(what, call, CUSPARSE_STATUS_SUCCESS, cusparseGetErrorName)
#define CUSPARSE_CHECK(call) LIB_CHECK(call, CUSPARSE_STATUS_SUCCESS, cusparseGetErrorName)

static void result(const char *what, int ok)
{
    printf("%s %s\n", what, ok ? "ok" : "FAILED");
    if (!ok)
        failures++;
}

// ---------------------------------------------------------------- kernels of this program

__device__ void delay(long long cycles)
{
    if (threadIdx.x == 0) {
        long long t0 = clock64();
        while (clock64() - t0 < cycles) {
        }
    }
    __syncthreads();
}

// Sorts uniform samples into 16 bins; counts those outside (0, 1] (or NaN) in bin 16.
__global__ void histogram16(const float *u, int n, unsigned int *bins)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        float v = u[i];
        int b = (v > 0.0f && v <= 1.0f) ? min((int)(v * 16.0f), 15) : 16;
        atomicAdd(&bins[b], 1u);
    }
}

// Column-major matrix with entries k/8, k in [-8, 8]: every product and sum of a 64-deep gemm is
// exact in float (and in TF32).
__host__ __device__ inline float mat_value(int seed, int r, int c)
{
    return (float)(((r * 7 + c * 13 + seed * 5) % 17) - 8) * 0.125f;
}

__global__ void delayed_matrix(float *m, int rows, int cols, int seed, long long cycles)
{
    delay(cycles);
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < rows * cols; i += gridDim.x * blockDim.x)
        m[i] = mat_value(seed, i % rows, i / rows);
}

__global__ void add_scalar(float *m, int n, float v)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        m[i] += v;
}

#define FFT_N 1024
#define FFT_BATCH 4
#define FFT_BIN_COS 5
#define FFT_BIN_SIN 17

// Batch b: (b + 1) * (cos(2 pi 5 n / N) + 0.5 sin(2 pi 17 n / N)).
__host__ __device__ inline float fft_cos_part(int b, int n)
{
    return (float)(b + 1) * cosf(2.0f * 3.14159265358979f * FFT_BIN_COS * n / FFT_N);
}
__host__ __device__ inline float fft_sin_part(int b, int n)
{
    return (float)(b + 1) * 0.5f * sinf(2.0f * 3.14159265358979f * FFT_BIN_SIN * n / FFT_N);
}

__global__ void delayed_signal(cufftComplex *x, long long cycles)
{
    delay(cycles);
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < FFT_N * FFT_BATCH; i += gridDim.x * blockDim.x) {
        int b = i / FFT_N, n = i % FFT_N;
        x[i].x = fft_cos_part(b, n) + fft_sin_part(b, n);
        x[i].y = 0.0f;
    }
}

// Between the forward and the inverse transform: drop bins 17 and N-17, scale by 1/N.
__global__ void filter_spectrum(cufftComplex *y)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < FFT_N * FFT_BATCH; i += gridDim.x * blockDim.x) {
        int k = i % FFT_N;
        float s = (k == FFT_BIN_SIN || k == FFT_N - FFT_BIN_SIN) ? 0.0f : 1.0f / FFT_N;
        y[i].x *= s;
        y[i].y *= s;
    }
}

__host__ __device__ inline float spmv_x(int i) { return (float)((i % 7) - 3); }

__global__ void delayed_vector(float *x, int n, long long cycles)
{
    delay(cycles);
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        x[i] = spmv_x(i);
}

// z = 2 y + 1, after a wait on an event of the stream that produced y.
__global__ void affine(const float *y, float *z, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        z[i] = 2.0f * y[i] + 1.0f;
}

__host__ __device__ inline int key_value(int i)
{
    unsigned int h = (unsigned int)i * 2654435761u;
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    return (int)(h % 4096u);
}

__global__ void delayed_keys(int *k, int n, long long cycles)
{
    delay(cycles);
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        k[i] = key_value(i);
}

__global__ void delayed_increment(int *k, int n, long long cycles)
{
    delay(cycles);
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        k[i] += 1;
}

// Counts adjacent pairs out of order.
__global__ void count_unsorted(const int *k, int n, unsigned int *bad)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i + 1 < n; i += gridDim.x * blockDim.x)
        if (k[i] > k[i + 1])
            atomicAdd(bad, 1u);
}

// ---------------------------------------------------------------- sections

struct Streams {
    cudaStream_t s1;  // non-blocking: no implicit order with the legacy stream or s2
    cudaStream_t s2;  // blocking
    cudaEvent_t e1, e2, e3;
};

// cuRAND host API on s1: memset to 0xFF (NaN), generate, a kernel of ours histograms the samples.
static void check_curand(const Streams &st)
{
    const int n = 1 << 20;
    float *d_u = NULL;
    unsigned int *d_bins = NULL;
    CHECK(cudaMalloc((void **)&d_u, n * sizeof(float)));
    CHECK(cudaMalloc((void **)&d_bins, 17 * sizeof(unsigned int)));

    cudaPointerAttributes attr;
    CHECK(cudaPointerGetAttributes(&attr, d_u));
    printf("cudaPointerGetAttributes(cudaMalloc'd): type %d device %d\n", (int)attr.type, attr.device);

    curandGenerator_t gen;
    CURAND_SHOW("curandCreateGenerator(PHILOX4_32_10)",
                curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_PHILOX4_32_10));
    CURAND_SHOW("curandSetPseudoRandomGeneratorSeed(1234)",
                curandSetPseudoRandomGeneratorSeed(gen, 1234ULL));
    CURAND_SHOW("curandSetStream(s1)", curandSetStream(gen, st.s1));

    CHECK(cudaMemsetAsync(d_u, 0xFF, n * sizeof(float), st.s1));
    CHECK(cudaMemsetAsync(d_bins, 0, 17 * sizeof(unsigned int), st.s1));
    CURAND_CHECK(curandGenerateUniform(gen, d_u, n));
    histogram16<<<128, 256, 0, st.s1>>>(d_u, n, d_bins);
    CHECK(cudaGetLastError());

    std::vector<float> u(n);
    unsigned int bins[17];
    CHECK(cudaMemcpyAsync(u.data(), d_u, n * sizeof(float), cudaMemcpyDeviceToHost, st.s1));
    CHECK(cudaMemcpyAsync(bins, d_bins, sizeof bins, cudaMemcpyDeviceToHost, st.s1));
    CHECK(cudaStreamSynchronize(st.s1));

    int in_range = 1;
    double sum = 0.0;
    for (int i = 0; i < n; i++) {
        if (!(u[i] > 0.0f && u[i] <= 1.0f))
            in_range = 0;
        sum += u[i];
    }
    double mean = sum / n;
    printf("curand uniform: n %d, all in (0,1] %s, |mean - 0.5| < 0.005 %s\n", n,
           in_range ? "yes" : "no", fabs(mean - 0.5) < 0.005 ? "yes" : "no");
    // Our kernel, run after the generator on s1, saw what the host sees.
    unsigned int counted[17] = {0};
    for (int i = 0; i < n; i++) {
        float v = u[i];
        counted[(v > 0.0f && v <= 1.0f) ? std::min((int)(v * 16.0f), 15) : 16]++;
    }
    int hist_ok = 1;
    for (int b = 0; b < 17; b++) {
        if (bins[b] != counted[b])
            hist_ok = 0;
        if (b < 16 && fabs((double)bins[b] - n / 16.0) > 0.02 * n / 16.0)
            hist_ok = 0;
    }
    printf("curand histogram (kernel after generator on s1): 16 bins within 2%%, outside %u: %s\n",
           bins[16], hist_ok ? "yes" : "no");
    result("curand", in_range && fabs(mean - 0.5) < 0.005 && hist_ok && bins[16] == 0);

    CURAND_SHOW("curandDestroyGenerator", curandDestroyGenerator(gen));
    CHECK(cudaFree(d_bins));
    CHECK(cudaFree(d_u));
}

// cuBLAS on s1: delayed kernels make A, B, C; sgemm C = A B + 0.5 C; a kernel adds 1; sscal doubles;
// compared with a CPU gemm.
static void check_cublas(const Streams &st)
{
    const int M = 96, N = 80, K = 64;
    float *dA, *dB, *dC;
    CHECK(cudaMalloc((void **)&dA, M * K * sizeof(float)));
    CHECK(cudaMalloc((void **)&dB, K * N * sizeof(float)));
    CHECK(cudaMalloc((void **)&dC, M * N * sizeof(float)));

    cublasHandle_t h;
    CUBLAS_SHOW("cublasCreate", cublasCreate(&h));
    CUBLAS_SHOW("cublasSetStream(s1)", cublasSetStream(h, st.s1));
    cudaStream_t back = NULL;
    CUBLAS_CHECK(cublasGetStream(h, &back));
    printf("cublasGetStream is s1: %s\n", back == st.s1 ? "yes" : "no");
    if (back != st.s1)
        failures++;

    CHECK(cudaMemsetAsync(dA, 0, M * K * sizeof(float), st.s1));
    CHECK(cudaMemsetAsync(dB, 0, K * N * sizeof(float), st.s1));
    CHECK(cudaMemsetAsync(dC, 0, M * N * sizeof(float), st.s1));
    delayed_matrix<<<16, 256, 0, st.s1>>>(dA, M, K, 1, DELAY_CYCLES);
    delayed_matrix<<<16, 256, 0, st.s1>>>(dB, K, N, 2, DELAY_CYCLES);
    delayed_matrix<<<16, 256, 0, st.s1>>>(dC, M, N, 3, DELAY_CYCLES);
    CHECK(cudaGetLastError());
    const float alpha = 1.0f, beta = 0.5f;

    // Separate last errors (section 7.7): a cuBLAS argument error leaves ours alone, and an error
    // in our slot survives cuBLAS calls (they run on cuBLAS's own runtime).
    int bad_rc = (int)cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, -1, N, K, &alpha, dA, M, dB, K, &beta, dC, M);
    printf("cublasSgemm(m = -1) -> %d %s\n", bad_rc, cublasGetStatusName((cublasStatus_t)bad_rc));
    cudaError_t e = cudaGetLastError();
    printf("cudaGetLastError after it -> " ERR_FMT "\n", ERR_ARGS(e));
    if (bad_rc != (int)CUBLAS_STATUS_INVALID_VALUE || e != cudaSuccess)
        failures++;
    add_scalar<<<1, 2048, 0, st.s1>>>(dC, M * N, 100.0f);  // 2048 threads: never runs
    cudaError_t planted = cudaPeekAtLastError();
    printf("launch <<<1, 2048>>> on s1: cudaPeekAtLastError -> " ERR_FMT "\n", ERR_ARGS(planted));

    CUBLAS_CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &alpha, dA, M, dB, K, &beta, dC, M));
    add_scalar<<<16, 256, 0, st.s1>>>(dC, M * N, 1.0f);
    // cuBLAS again, on our kernel's output: C = 2 C.
    const float two = 2.0f;
    CUBLAS_CHECK(cublasSscal(h, M * N, &two, dC, 1));
    e = cudaGetLastError();
    printf("cudaGetLastError after sgemm, kernel, sscal -> " ERR_FMT "\n", ERR_ARGS(e));
    if (planted == cudaSuccess || e != planted)
        failures++;
    e = cudaGetLastError();
    printf("cudaGetLastError again -> " ERR_FMT "\n", ERR_ARGS(e));
    if (e != cudaSuccess)
        failures++;
    std::vector<float> C(M * N);
    CHECK(cudaMemcpyAsync(C.data(), dC, C.size() * sizeof(float), cudaMemcpyDeviceToHost, st.s1));
    CHECK(cudaStreamSynchronize(st.s1));

    double max_err = 0.0;
    for (int c = 0; c < N; c++)
        for (int r = 0; r < M; r++) {
            double ref = 0.0;
            for (int k = 0; k < K; k++)
                ref += (double)mat_value(1, r, k) * mat_value(2, k, c);
            ref = 2.0 * (ref + 0.5 * mat_value(3, r, c) + 1.0);
            max_err = fmax(max_err, fabs(ref - C[c * M + r]));
        }
    printf("sgemm %dx%dx%d, kernel, sscal on s1, max error vs CPU < 1e-3: %s\n", M, N, K,
           max_err < 1e-3 ? "yes" : "no");
    result("sgemm", max_err < 1e-3);

    CUBLAS_SHOW("cublasDestroy", cublasDestroy(h));
    CHECK(cudaFree(dC));
    CHECK(cudaFree(dB));
    CHECK(cudaFree(dA));
}

// cuFFT on s2: delayed signal, forward C2C, copy of the spectrum, our filter kernel, inverse C2C.
static void check_cufft(const Streams &st)
{
    const int total = FFT_N * FFT_BATCH;
    cufftComplex *dx, *dy;
    CHECK(cudaMalloc((void **)&dx, total * sizeof(cufftComplex)));
    CHECK(cudaMalloc((void **)&dy, total * sizeof(cufftComplex)));

    cufftHandle plan;
    CUFFT_SHOW("cufftPlan1d(1024, C2C, batch 4)", cufftPlan1d(&plan, FFT_N, CUFFT_C2C, FFT_BATCH));
    CUFFT_SHOW("cufftSetStream(s2)", cufftSetStream(plan, st.s2));

    CHECK(cudaMemsetAsync(dx, 0, total * sizeof(cufftComplex), st.s2));
    delayed_signal<<<16, 256, 0, st.s2>>>(dx, DELAY_CYCLES);
    CHECK(cudaGetLastError());
    CUFFT_CHECK(cufftExecC2C(plan, dx, dy, CUFFT_FORWARD));
    std::vector<cufftComplex> spec(total), back(total);
    CHECK(cudaMemcpyAsync(spec.data(), dy, total * sizeof(cufftComplex), cudaMemcpyDeviceToHost, st.s2));
    filter_spectrum<<<16, 256, 0, st.s2>>>(dy);
    CHECK(cudaGetLastError());
    CUFFT_CHECK(cufftExecC2C(plan, dy, dy, CUFFT_INVERSE));
    CHECK(cudaMemcpyAsync(back.data(), dy, total * sizeof(cufftComplex), cudaMemcpyDeviceToHost, st.s2));
    CHECK(cudaStreamSynchronize(st.s2));

    // Spectrum: bin 5 and N-5 hold (b+1) N/2 (real), bin 17 and N-17 hold -/+ i (b+1) N/4.
    int spec_ok = 1;
    for (int b = 0; b < FFT_BATCH; b++) {
        const cufftComplex *y = &spec[b * FFT_N];
        float s = (float)(b + 1), tol = 0.05f * s;
        spec_ok &= fabsf(y[FFT_BIN_COS].x - s * FFT_N / 2) < tol && fabsf(y[FFT_BIN_COS].y) < tol;
        spec_ok &= fabsf(y[FFT_N - FFT_BIN_COS].x - s * FFT_N / 2) < tol;
        spec_ok &= fabsf(y[FFT_BIN_SIN].y + s * FFT_N / 4) < tol && fabsf(y[FFT_BIN_SIN].x) < tol;
        spec_ok &= fabsf(y[FFT_N - FFT_BIN_SIN].y - s * FFT_N / 4) < tol;
        spec_ok &= fabsf(y[0].x) < tol && fabsf(y[1].x) < tol && fabsf(y[FFT_N / 2].x) < tol;
    }
    // Round trip: only the cosine remains.
    double max_err = 0.0;
    for (int i = 0; i < total; i++) {
        int b = i / FFT_N, n = i % FFT_N;
        max_err = fmax(max_err, fabs(back[i].x - fft_cos_part(b, n)));
        max_err = fmax(max_err, fabs(back[i].y));
    }
    printf("fft forward spectrum peaks at bins %d and %d: %s\n", FFT_BIN_COS, FFT_BIN_SIN,
           spec_ok ? "yes" : "no");
    printf("fft forward, filter kernel, inverse on s2: max error < 2e-3: %s\n",
           max_err < 2e-3 ? "yes" : "no");
    result("fft", spec_ok && max_err < 2e-3);

    CUFFT_SHOW("cufftDestroy", cufftDestroy(plan));
    CHECK(cudaFree(dy));
    CHECK(cudaFree(dx));
}

// cuSPARSE generic SpMV on s2 of a tridiagonal CSR matrix; x comes from a delayed kernel on s1
// (event e1, s2 waits), the result goes back to a kernel on s1 (event e2, s1 waits).
static void check_cusparse(const Streams &st)
{
    const int n = 1000, nnz = 3 * n - 2;
    std::vector<int> rowptr(n + 1), cols;
    std::vector<float> vals;
    for (int i = 0; i < n; i++) {
        rowptr[i] = (int)cols.size();
        for (int j = i - 1; j <= i + 1; j++)
            if (j >= 0 && j < n) {
                cols.push_back(j);
                vals.push_back(j == i ? 2.0f : -1.0f);
            }
    }
    rowptr[n] = (int)cols.size();

    int *d_rowptr, *d_cols;
    float *d_vals, *d_x, *d_y, *d_z;
    CHECK(cudaMalloc((void **)&d_rowptr, (n + 1) * sizeof(int)));
    CHECK(cudaMalloc((void **)&d_cols, nnz * sizeof(int)));
    CHECK(cudaMalloc((void **)&d_vals, nnz * sizeof(float)));
    CHECK(cudaMalloc((void **)&d_x, n * sizeof(float)));
    CHECK(cudaMalloc((void **)&d_y, n * sizeof(float)));
    CHECK(cudaMalloc((void **)&d_z, n * sizeof(float)));
    CHECK(cudaMemcpy(d_rowptr, rowptr.data(), (n + 1) * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_cols, cols.data(), nnz * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_vals, vals.data(), nnz * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_x, 0, n * sizeof(float)));
    CHECK(cudaMemset(d_y, 0, n * sizeof(float)));
    CHECK(cudaMemset(d_z, 0, n * sizeof(float)));
    CHECK(cudaDeviceSynchronize());  // s1 is non-blocking: it does not wait for the legacy stream

    cusparseHandle_t h;
    CUSPARSE_SHOW("cusparseCreate", cusparseCreate(&h));
    CUSPARSE_SHOW("cusparseSetStream(s2)", cusparseSetStream(h, st.s2));
    cudaStream_t back = NULL;
    CUSPARSE_CHECK(cusparseGetStream(h, &back));
    printf("cusparseGetStream is s2: %s\n", back == st.s2 ? "yes" : "no");
    if (back != st.s2)
        failures++;

    cusparseSpMatDescr_t A;
    cusparseDnVecDescr_t X, Y;
    CUSPARSE_CHECK(cusparseCreateCsr(&A, n, n, nnz, d_rowptr, d_cols, d_vals, CUSPARSE_INDEX_32I,
                                     CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
    CUSPARSE_CHECK(cusparseCreateDnVec(&X, n, d_x, CUDA_R_32F));
    CUSPARSE_CHECK(cusparseCreateDnVec(&Y, n, d_y, CUDA_R_32F));
    const float alpha = 1.0f, beta = 0.0f;
    size_t bytes = 0;
    CUSPARSE_CHECK(cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, X, &beta, Y,
                                           CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, &bytes));
    void *buffer = NULL;
    CHECK(cudaMalloc(&buffer, bytes ? bytes : 16));

    delayed_vector<<<8, 256, 0, st.s1>>>(d_x, n, DELAY_CYCLES);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(st.e1, st.s1));
    CHECK(cudaStreamWaitEvent(st.s2, st.e1, 0));
    CUSPARSE_CHECK(cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, X, &beta, Y, CUDA_R_32F,
                                CUSPARSE_SPMV_ALG_DEFAULT, buffer));
    CHECK(cudaEventRecord(st.e2, st.s2));
    CHECK(cudaStreamWaitEvent(st.s1, st.e2, 0));
    affine<<<8, 256, 0, st.s1>>>(d_y, d_z, n);
    CHECK(cudaGetLastError());

    std::vector<float> y(n), z(n);
    CHECK(cudaMemcpyAsync(y.data(), d_y, n * sizeof(float), cudaMemcpyDeviceToHost, st.s2));
    CHECK(cudaMemcpyAsync(z.data(), d_z, n * sizeof(float), cudaMemcpyDeviceToHost, st.s1));
    CHECK(cudaStreamSynchronize(st.s2));
    CHECK(cudaStreamSynchronize(st.s1));

    int y_ok = 1, z_ok = 1;
    for (int i = 0; i < n; i++) {
        float ref = 2.0f * spmv_x(i) - (i > 0 ? spmv_x(i - 1) : 0.0f) - (i + 1 < n ? spmv_x(i + 1) : 0.0f);
        if (fabsf(y[i] - ref) > 1e-4f)
            y_ok = 0;
        if (fabsf(z[i] - (2.0f * ref + 1.0f)) > 1e-4f)
            z_ok = 0;
    }
    printf("spmv on s2 after event from s1 (tridiagonal %d, nnz %d): %s\n", n, nnz, y_ok ? "yes" : "no");
    printf("kernel on s1 after event from s2 reads the spmv result: %s\n", z_ok ? "yes" : "no");
    result("spmv", y_ok && z_ok);

    CUSPARSE_CHECK(cusparseDestroyDnVec(Y));
    CUSPARSE_CHECK(cusparseDestroyDnVec(X));
    CUSPARSE_CHECK(cusparseDestroySpMat(A));
    CUSPARSE_SHOW("cusparseDestroy", cusparseDestroy(h));
    CHECK(cudaFree(buffer));
    CHECK(cudaFree(d_z));
    CHECK(cudaFree(d_y));
    CHECK(cudaFree(d_x));
    CHECK(cudaFree(d_vals));
    CHECK(cudaFree(d_cols));
    CHECK(cudaFree(d_rowptr));
}

// Thrust: device_vector sort/reduce (default stream), then par.on(s1) on cudaMalloc'd keys written
// by a delayed kernel, checked by a kernel after the sort; then CUB DeviceReduce::Sum on s2 after
// an event recorded on s1 behind a delayed kernel that adds 1 to every key.
static void check_thrust_cub(const Streams &st)
{
    const int n = 1 << 18;
    std::vector<int> host(n);
    long long host_sum = 0;
    for (int i = 0; i < n; i++) {
        host[i] = key_value(i);
        host_sum += host[i];
    }
    std::vector<int> sorted_desc(host);
    std::sort(sorted_desc.begin(), sorted_desc.end(), [](int a, int b) { return a > b; });

    {
        thrust::device_vector<int> v(host.begin(), host.end());
        thrust::sort(v.begin(), v.end(), thrust::greater<int>());
        std::vector<int> out(n);
        thrust::copy(v.begin(), v.end(), out.begin());
        int sort_ok = out == sorted_desc;
        long long sum = thrust::reduce(v.begin(), v.end(), 0LL, thrust::plus<long long>());
        printf("thrust device_vector sort (descending, %d keys): %s, reduce %lld (host %lld)\n", n,
               sort_ok ? "yes" : "no", sum, host_sum);
        result("thrust device_vector", sort_ok && sum == host_sum);
    }

    int *d_keys;
    unsigned int *d_bad;
    CHECK(cudaMalloc((void **)&d_keys, n * sizeof(int)));
    CHECK(cudaMalloc((void **)&d_bad, sizeof(unsigned int)));
    CHECK(cudaMemsetAsync(d_keys, 0, n * sizeof(int), st.s1));
    CHECK(cudaMemsetAsync(d_bad, 0, sizeof(unsigned int), st.s1));
    delayed_keys<<<64, 256, 0, st.s1>>>(d_keys, n, DELAY_CYCLES);
    CHECK(cudaGetLastError());
    thrust::device_ptr<int> p = thrust::device_pointer_cast(d_keys);
    thrust::sort(thrust::cuda::par.on(st.s1), p, p + n);
    count_unsorted<<<64, 256, 0, st.s1>>>(d_keys, n, d_bad);
    CHECK(cudaGetLastError());
    long long sum = thrust::reduce(thrust::cuda::par.on(st.s1), p, p + n, 0LL, thrust::plus<long long>());
    unsigned int bad = 0;
    CHECK(cudaMemcpyAsync(&bad, d_bad, sizeof bad, cudaMemcpyDeviceToHost, st.s1));
    std::vector<int> first(4);
    CHECK(cudaMemcpyAsync(first.data(), d_keys + n - 4, 4 * sizeof(int), cudaMemcpyDeviceToHost, st.s1));
    CHECK(cudaStreamSynchronize(st.s1));
    // What CUB on s2 must see: every key + 1, written by a delayed kernel on s1 (event e3).
    delayed_increment<<<64, 256, 0, st.s1>>>(d_keys, n, DELAY_CYCLES);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(st.e3, st.s1));
    int par_ok = bad == 0 && sum == host_sum && first[3] == sorted_desc[0];
    printf("thrust par.on(s1) sort after a kernel, kernel after sort: out of order %u, reduce %lld: %s\n",
           bad, sum, par_ok ? "yes" : "no");
    result("thrust par.on(stream)", par_ok);

    // CUB on s2, after the event recorded on s1 behind the sort.
    int *d_sum;
    CHECK(cudaMalloc((void **)&d_sum, sizeof(int)));
    CHECK(cudaMemsetAsync(d_sum, 0xFF, sizeof(int), st.s2));
    CHECK(cudaStreamWaitEvent(st.s2, st.e3, 0));
    size_t temp_bytes = 0;
    CHECK(cub::DeviceReduce::Sum(NULL, temp_bytes, d_keys, d_sum, n, st.s2));
    void *d_temp = NULL;
    CHECK(cudaMalloc(&d_temp, temp_bytes ? temp_bytes : 16));
    CHECK(cub::DeviceReduce::Sum(d_temp, temp_bytes, d_keys, d_sum, n, st.s2));
    int cub_sum = 0;
    CHECK(cudaMemcpyAsync(&cub_sum, d_sum, sizeof cub_sum, cudaMemcpyDeviceToHost, st.s2));
    CHECK(cudaStreamSynchronize(st.s2));
    printf("cub DeviceReduce::Sum on s2 after event from s1 (temp storage from cudaMalloc): %d (host %lld)\n",
           cub_sum, host_sum + n);
    result("cub", cub_sum == host_sum + n);

    CHECK(cudaFree(d_temp));
    CHECK(cudaFree(d_sum));
    CHECK(cudaFree(d_bad));
    CHECK(cudaFree(d_keys));
}

int main(void)
{
    gpu_require("conf_interop");
    CHECK(cudaSetDevice(0));
    int dev = -1;
    CHECK(cudaGetDevice(&dev));
    printf("conf_interop: device %d\n", dev);

    Streams st;
    CHECK(cudaStreamCreateWithFlags(&st.s1, cudaStreamNonBlocking));
    CHECK(cudaStreamCreate(&st.s2));
    CHECK(cudaEventCreate(&st.e1));
    CHECK(cudaEventCreate(&st.e2));
    CHECK(cudaEventCreate(&st.e3));

    check_curand(st);
    check_cublas(st);
    check_cufft(st);
    check_cusparse(st);
    try {
        check_thrust_cub(st);
    } catch (const std::exception &x) {
        printf("FAIL thrust/cub threw: %s\n", x.what());
        return 1;
    }

    CHECK(cudaEventSynchronize(st.e3));
    CHECK(cudaEventDestroy(st.e3));
    CHECK(cudaEventDestroy(st.e2));
    CHECK(cudaEventDestroy(st.e1));
    CHECK(cudaStreamDestroy(st.s2));
    CHECK(cudaStreamDestroy(st.s1));

    cudaError_t e = cudaDeviceSynchronize();
    printf("cudaDeviceSynchronize -> " ERR_FMT "\n", ERR_ARGS(e));
    cudaError_t last = cudaGetLastError();
    printf("cudaGetLastError -> " ERR_FMT "\n", ERR_ARGS(last));
    if (e != cudaSuccess || last != cudaSuccess)
        failures++;
    printf("conf_interop: %s (%d failures)\n", failures ? "FAIL" : "PASS", failures);
    return failures ? 1 : 0;
}
