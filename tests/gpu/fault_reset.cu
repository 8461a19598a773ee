// fault_reset.cu - device memory the runtime allocates for itself (modules loaded for kernels,
// their __device__ variables, per-thread streams, the default pool's memory) is given back at
// cudaDeviceReset, not only at exit (issue 18).
//
// A cycle: after cudaFree(0) (the context exists, nothing else), cudaMemGetInfo's free memory is
// the baseline; then work that makes the runtime allocate: three kernels, a 32 MiB __device__
// array written and read (cudaMemcpyToSymbol / FromSymbol), four threads launching and
// allocating from the default pool on the per-thread default stream, streams and events left
// for the reset to destroy.  Then cudaDeviceReset, cudaFree(0) again, and free memory is measured
// again: it must be back within 8 MiB of the baseline.  Two cycles, so the second also checks
// that modules and variables load again after the reset and give the right results.
//
// Lines: verdicts only, never the numbers (they differ between runtimes and runs).  The free
// memory is the whole device's, so another process's allocations can move it: a cycle whose
// verdict fails is tried again, at most three times (tests/gpu/reliability.sh runs this one when
// nothing else runs on the GPU).  tests/gpu/reliability.sh also runs it under compute-sanitizer
// memcheck --leak-check full, which checks for leaks at the reset.  Against the fake driver
// (tests/e2e) the fake counts allocations, module images and their globals as memory in use.
// Exit 0 pass, 1 fail, 2 no GPU.
#include "fault.h"

#include <thread>

static const size_t BIG = 8u << 20;              // ints: 32 MiB
static const size_t TOLERANCE = 8u << 20;        // bytes
static const int N = 1024;
static const int THREADS = 4;

__device__ int fault_big[BIG];
__device__ int fault_small[N];

extern "C" __global__ void fault_reset_write(int base)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < BIG)
        fault_big[i] = base + (int)(i % 1000);
}

extern "C" __global__ void fault_reset_gather(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = fault_big[(size_t)i * (BIG / n)] + fault_small[i];
}

extern "C" __global__ void fault_reset_fill(int *out, int n, int base)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = base + i;
}

static size_t free_now(void)
{
    size_t free_bytes = 0, total = 0;
    CHECK(cudaMemGetInfo(&free_bytes, &total));
    return free_bytes;
}

// Per-thread default stream: a launch, a pool allocation, checked.  Result in *ok.
static void per_thread_work(int t, bool *ok)
{
    int *d = NULL;
    static thread_local int h[N];
    *ok = false;
    if (cudaMallocAsync((void **)&d, 16u << 20, cudaStreamPerThread) != cudaSuccess)
        return;
    fault_reset_fill<<<N / 256, 256, 0, cudaStreamPerThread>>>(d, N, 1000 * t);
    bool good = cudaGetLastError() == cudaSuccess &&
                cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, cudaStreamPerThread) ==
                    cudaSuccess &&
                cudaStreamSynchronize(cudaStreamPerThread) == cudaSuccess;
    for (int i = 0; good && i < N; i++)
        good = h[i] == 1000 * t + i;
    *ok = good && cudaFreeAsync(d, cudaStreamPerThread) == cudaSuccess &&
          cudaStreamSynchronize(cudaStreamPerThread) == cudaSuccess;
}

// The work of a cycle; true when every result is right.  On the fake, only the fill kernel runs
// (the __device__ array's kernels are not registered), so their results are not checked there.
static bool work(bool on_fake)
{
    bool ok = true;
    static int h[N], small[N];
    for (int i = 0; i < N; i++)
        small[i] = 7 * i;
    CHECK(cudaMemcpyToSymbol(fault_small, small, sizeof small));
    fault_reset_write<<<(unsigned)(BIG / 256), 256>>>(3);
    int *d = NULL;
    CHECK(cudaMalloc((void **)&d, N * sizeof(int)));
    fault_reset_gather<<<N / 256, 256>>>(d, N);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; !on_fake && i < N; i++)
        ok &= h[i] == 3 + (int)(((size_t)i * (BIG / N)) % 1000) + 7 * i;
    int first = -1;
    CHECK(cudaMemcpyFromSymbol(&first, fault_big, sizeof first, 0));
    ok &= on_fake || first == 3;
    CHECK(cudaFree(d));

    bool thread_ok[THREADS];
    std::thread threads[THREADS];
    for (int t = 0; t < THREADS; t++)
        threads[t] = std::thread(per_thread_work, t, &thread_ok[t]);
    for (int t = 0; t < THREADS; t++) {
        threads[t].join();
        ok &= thread_ok[t];
    }
    // Left for the reset: a stream, an event recorded on it.
    cudaStream_t s = NULL;
    cudaEvent_t ev = NULL;
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaEventCreate(&ev));
    CHECK(cudaEventRecord(ev, s));
    CHECK(cudaDeviceSynchronize());
    return ok;
}

int main(void)
{
    fault_program = "fault_reset";
    fault_watchdog(150);
    fake_register_fn reg = gpu_fake_registrar();
    if (reg)
        reg("fault_reset_fill", gpu_fake_fill);
    gpu_require("fault_reset");

    for (int cycle = 1; cycle <= 2; cycle++) {
        printf("cycle %d:\n", cycle);
        bool back = false, grew = false, right = true;
        for (int attempt = 0; attempt < 3 && !back; attempt++) {
            CHECK(cudaFree(0));
            size_t before = free_now();
            right &= work(reg != NULL);
            size_t during = free_now();
            grew = before > during && before - during >= BIG * sizeof(int);
            CHECK(cudaDeviceReset());
            CHECK(cudaFree(0));
            size_t after = free_now();
            back = (after > before ? after - before : before - after) <= TOLERANCE;
        }
        fault_expect("the work's results", right);
        // Printed, not asserted: when each runtime allocates what (lazy module loading).
        printf("  %-44s    %s\n", "memory in use grew by the __device__ array", grew ? "yes" : "no");
        fault_expect("free memory back within 8 MiB after the reset", back);
    }
    CHECK(cudaDeviceReset());
    return fault_finish();
}
