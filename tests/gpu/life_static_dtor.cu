// life_static_dtor.cu - static destructors that call the runtime at exit: what they get depends
// on whether they run before or after the runtime's own exit handler, never a crash.
//
// Three objects, all constructed before nvcc's constructor registers this file's fatbin
// (init_priority makes the order certain), so all three destructors run after nvcc's exit
// handler has unregistered it:
//   zeroth  constructed first (101) without touching CUDA, filled in main: its destructor was
//           registered before the runtime's exit handler, so it runs after it;
//   early   constructed second (102), the runtime's first user: it allocates in its
//           constructor, which is when the runtime registers its exit handler;
//   late    constructed third (103) without touching CUDA, filled in main.
// At exit: late, early (both before the runtime's handler), then zeroth (after it).  Measured on
// an H200 with NVIDIA's runtime: late's calls all succeed although the fatbin is unregistered;
// after the runtime's handler, cudaFree and cudaMalloc answer cudaErrorCudartUnloading (4,
// reference/SEMANTICS.md section 0).  Each destructor prints its codes; the two runtimes'
// transcripts are compared by tests/gpu/run.sh.  Linked with minicudart (CI, fake driver) the
// program also checks that pattern itself and exits 1 if it is broken.
#include "gpu_check.h"

#include <dlfcn.h>
#include <string.h>
#include <unistd.h>

// Defined by minicudart only (include/minicudart.h): tells which runtime the program runs on.
extern "C" void minicudart_set_trace_hook(void (*)(const char *, void *), void *)
    __attribute__((weak));

extern "C" __global__ void dtor_fill(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = 7 * i;
}

struct holder {
    const char *name;
    void *memory = nullptr;
    cudaStream_t stream = nullptr;
    cudaEvent_t event = nullptr;
    cudaError_t made = cudaSuccess;

    explicit holder(const char *who, bool allocate) : name(who)
    {
        if (allocate)
            made = make();
    }
    cudaError_t make()
    {
        cudaError_t e = cudaMalloc(&memory, 1 << 20);
        if (e == cudaSuccess)
            e = cudaStreamCreate(&stream);
        if (e == cudaSuccess)
            e = cudaEventCreate(&event);
        return e;
    }
    ~holder()
    {
        cudaError_t free_result = cudaFree(memory);
        cudaError_t stream_result = cudaStreamDestroy(stream);
        cudaError_t event_result = cudaEventDestroy(event);
        void *more = nullptr;
        cudaError_t malloc_result = cudaMalloc(&more, 16);
        cudaError_t sync_result = cudaDeviceSynchronize();
        printf("static destructor of %s: cudaFree -> " ERR_FMT ", cudaStreamDestroy -> " ERR_FMT
               ", cudaEventDestroy -> " ERR_FMT ", cudaMalloc -> " ERR_FMT
               ", cudaDeviceSynchronize -> " ERR_FMT "\n", name, ERR_ARGS(free_result),
               ERR_ARGS(stream_result), ERR_ARGS(event_result), ERR_ARGS(malloc_result),
               ERR_ARGS(sync_result));
        // What still answers after the runtime's exit handler: the calls a framework's own
        // destructors make around the ones above (PyTorch's device guards ask for the device and
        // set it back).  Printed for both runtimes; compared line by line.
        cudaError_t last_result = cudaGetLastError();
        int device = -7, count = -7, sms = -7;
        cudaError_t get_result = cudaGetDevice(&device);
        cudaError_t set_result = cudaSetDevice(0);
        cudaError_t count_result = cudaGetDeviceCount(&count);
        cudaError_t attr_result =
            cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
        cudaError_t peek_result = cudaPeekAtLastError();
        printf("static destructor of %s: cudaGetLastError -> " ERR_FMT ", cudaGetDevice -> "
               ERR_FMT " (%d), cudaSetDevice(0) -> " ERR_FMT ", cudaGetDeviceCount -> " ERR_FMT
               " (%d), cudaDeviceGetAttribute -> " ERR_FMT " (%s), cudaPeekAtLastError -> "
               ERR_FMT "\n", name, ERR_ARGS(last_result), ERR_ARGS(get_result), device,
               ERR_ARGS(set_result), ERR_ARGS(count_result), count, ERR_ARGS(attr_result),
               sms > 0 ? "some SMs" : sms == -7 ? "unset" : "none", ERR_ARGS(peek_result));
        fflush(stdout);
        /* The pattern minicudart must show (NVIDIA's, measured): success before the runtime's
         * exit handler, cudaErrorCudartUnloading after it (cudaGetDevice too; cudaGetDeviceCount
         * still answers). */
        cudaError_t want = after_runtime_exit ? cudaErrorCudartUnloading : cudaSuccess;
        if (minicudart_set_trace_hook && (free_result != want || malloc_result != want ||
                                          get_result != want || count_result != cudaSuccess))
            _exit(1);
    }
    bool after_runtime_exit = false;
};

static holder zeroth __attribute__((init_priority(101)))("zeroth", false);
static holder early __attribute__((init_priority(102)))("early", true);
static holder late __attribute__((init_priority(103)))("late", false);


static void fake_dtor_fill(const void *params, size_t size, const unsigned grid[3],
                           const unsigned block[3])
{
    struct {
        int *out;
        int n;
    } p;
    memset(&p, 0, sizeof p);
    memcpy(&p, params, size < sizeof p ? size : sizeof p);
    for (unsigned long long i = 0; i < (unsigned long long)grid[0] * block[0]; i++)
        if (i < (unsigned long long)p.n)
            p.out[i] = 7 * (int)i;
}

int main(void)
{
    if (fake_register_fn reg = gpu_fake_registrar())   // the fake driver (tests/e2e)
        reg("dtor_fill", fake_dtor_fill);
    gpu_require("life_static_dtor");
    printf("early object's constructor: " ERR_FMT "\n", ERR_ARGS(early.made));
    CHECK(early.made);
    CHECK(late.make());
    CHECK(zeroth.make());
    zeroth.after_runtime_exit = true;
    int h[256];
    dtor_fill<<<1, 256, 0, late.stream>>>((int *)late.memory, 256);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpyAsync(h, late.memory, sizeof h, cudaMemcpyDeviceToHost, late.stream));
    CHECK(cudaStreamSynchronize(late.stream));
    for (int i = 0; i < 256; i++)
        if (h[i] != 7 * i) {
            printf("FAIL element %d\n", i);
            return 1;
        }
    printf("main: kernel ok; returning with memory, streams and events left to static "
           "destructors\n");
    return 0;
}
