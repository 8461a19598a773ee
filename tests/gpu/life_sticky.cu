// life_sticky.cu - a kernel faults on one host thread: the error is sticky for the whole process
// (reference/SEMANTICS.md section 3): another thread, started after, gets the same code from its
// own calls, in its own last error; the main thread too; calls that need no context still work.
//
// Against the fake driver (tests/e2e), which runs no device code, the fault is injected instead:
// the faulting thread's synchronisation fails with 717 (cudaErrorInvalidAddressSpace, what an
// H200 reported for such a store, section 0), which poisons the context like a real fault.
// Lines: error codes only.  Exit 0 when the fault was sticky everywhere, 1 otherwise, 2 no GPU.
#include "gpu_check.h"

#include <dlfcn.h>
#include <string.h>
#include <thread>

extern "C" __global__ void sticky_store(int *p, int v)
{
    *p = v;
}

static bool is_sticky(cudaError_t e)
{
    switch ((int)e) {
    case 226: case 700: case 702: case 710: case 714: case 715: case 716:
    case 717: case 718: case 719: case 721: case 911:
        return true;
    }
    return false;
}

static void (*fake_fail_call)(const char *, unsigned, int);

static void find_fake(void)
{
    const char *driver = getenv("MINICUDART_DRIVER");
    void *fake = driver && *driver ? dlopen(driver, RTLD_NOW | RTLD_LOCAL) : NULL;
    void *sym = fake ? dlsym(fake, "fake_fail_call") : NULL;
    if (sym)
        memcpy(&fake_fail_call, &sym, sizeof sym);
}

static cudaError_t show(const char *what, cudaError_t e)
{
    printf("  %-34s -> " ERR_FMT "\n", what, ERR_ARGS(e));
    return e;
}

static cudaError_t fault;

// The faulting thread: a store through a bad pointer on a stream of its own.
static void faulting_thread(void)
{
    cudaStream_t s = NULL;
    CHECK(cudaStreamCreate(&s));
    printf("faulting thread:\n");
    sticky_store<<<1, 1, 0, s>>>((int *)(uintptr_t)0x10, 1);
    show("launch (cudaGetLastError)", cudaGetLastError());
    if (fake_fail_call)
        fake_fail_call("cuStreamSynchronize", 1, 717);
    fault = show("cudaStreamSynchronize", cudaStreamSynchronize(s));
    show("cudaGetLastError", cudaGetLastError());
    show("cudaGetLastError again", cudaGetLastError());
}

static bool other_ok;

// Another thread, started after the fault: its own calls report the fault.
static void other_thread(void)
{
    printf("another thread:\n");
    show("cudaGetLastError first", cudaGetLastError());
    int *p = NULL;
    cudaError_t m = show("cudaMalloc", cudaMalloc((void **)&p, 16));
    cudaError_t last = show("cudaGetLastError", cudaGetLastError());
    cudaStream_t s = NULL;
    show("cudaStreamCreate", cudaStreamCreate(&s));
    cudaGetLastError();
    cudaError_t sync = show("cudaDeviceSynchronize", cudaDeviceSynchronize());
    int count = 0;
    cudaError_t counted = show("cudaGetDeviceCount", cudaGetDeviceCount(&count));
    other_ok = m == fault && last == fault && sync == fault && counted == cudaSuccess;
}

int main(void)
{
    find_fake();
    gpu_require("life_sticky");
    int *d = NULL;
    CHECK(cudaMalloc((void **)&d, 16));
    CHECK(cudaDeviceSynchronize());
    std::thread(faulting_thread).join();
    std::thread(other_thread).join();
    printf("main thread:\n");
    cudaError_t again = show("cudaMemset", cudaMemset(d, 0, 16));
    show("cudaFree", cudaFree(d));
    bool ok = is_sticky(fault) && other_ok && again == fault;
    printf("life_sticky: %s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
