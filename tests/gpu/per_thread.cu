// per_thread.cu - built with --default-stream per-thread: launches on stream 0 from two host
// threads go to each thread's own default stream (__cudaLaunchKernel_ptsz, cudaMemcpy_ptds).
#include "gpu_check.h"
#include <thread>

__global__ void fill(int *out, int n, int base)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = base + i;
}

__global__ void add_one(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] += 1;
}

struct Result {
    long long sum;
    int wrong;
    cudaError_t err;
};

static void worker(int id, Result *r)
{
    const int n = 1 << 16;
    int *d = NULL, *h = new int[n];
    r->sum = 0;
    r->wrong = 0;
    r->err = cudaMalloc((void **)&d, n * sizeof(int));
    for (int round = 0; round < 20 && r->err == cudaSuccess; round++) {
        fill<<<n / 256, 256>>>(d, n, id * 1000000 + round);
        add_one<<<n / 256, 256>>>(d, n);
        r->err = cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
        for (int i = 0; i < n && r->err == cudaSuccess; i++) {
            r->sum += h[i];
            r->wrong += h[i] != id * 1000000 + round + i + 1;
        }
    }
    if (r->err == cudaSuccess)
        r->err = cudaGetLastError();
    if (d)
        cudaFree(d);
    delete[] h;
}

int main(void)
{
    gpu_require("per_thread");
    Result r[2];
    std::thread t0(worker, 0, &r[0]);
    std::thread t1(worker, 1, &r[1]);
    t0.join();
    t1.join();
    int ok = 1;
    for (int i = 0; i < 2; i++) {
        printf("thread %d: sum %lld, wrong %d, error " ERR_FMT "\n", i, r[i].sum, r[i].wrong,
               ERR_ARGS(r[i].err));
        ok &= r[i].wrong == 0 && r[i].err == cudaSuccess;
    }
    CHECK(cudaDeviceSynchronize());
    printf("per_thread: %s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
