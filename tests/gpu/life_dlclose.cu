// life_dlclose.cu - device memory comes back: after cudaFree of 64 MB, and after dlclose of a
// library that registered fatbins, whose module holds 64 MB of __device__ arrays (cudaMemGetInfo
// before and after each).  After dlclose the library's kernel is gone and the rest of the program
// works on; opened again, the library works again.
//
// The library: $LIFE_PLUGIN, else life_plugin.<variant>.so beside this program (as in
// stress_threads.cu).  Against the fake driver (tests/e2e) the kernels are host functions
// registered with the fake, and the fake counts a module's globals as device memory.
// Lines: verdicts and error codes only.  Exit 0 pass, 1 fail, 2 no GPU.
// gpu-libs: -ldl -Xlinker --export-dynamic
// gpu-plugin: life_plugin
#include "gpu_check.h"

// Defined by minicudart only (include/minicudart.h): tells which runtime the program runs on.
extern "C" void minicudart_set_trace_hook(void (*)(const char *, void *), void *)
    __attribute__((weak));

#include <dlfcn.h>
#include <string.h>
#include <unistd.h>

static const int N = 4096;
static const size_t BIG = (size_t)64 << 20;     // life_plugin.cu's arrays
static const size_t SLACK = (size_t)16 << 20;   // what the driver may keep or round

__device__ unsigned program_counter;

extern "C" __global__ void program_fill(unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = (unsigned)i ^ 0x5a5a5a5au;
    if (i == 0)
        program_counter++;
}

struct fill_params {
    unsigned *out;
    int n;
};

template <unsigned (*value)(unsigned)>
static void fake_fill(const void *params, size_t size, const unsigned grid[3],
                      const unsigned block[3])
{
    fill_params p;
    memset(&p, 0, sizeof p);
    memcpy(&p, params, size < sizeof p ? size : sizeof p);
    for (unsigned long long i = 0; i < (unsigned long long)grid[0] * block[0]; i++)
        if (i < (unsigned long long)p.n)
            p.out[i] = value((unsigned)i);
}

static unsigned program_value(unsigned i) { return i ^ 0x5a5a5a5au; }
static unsigned plugin_value(unsigned i) { return i * 3u + 1u; }

static void register_fake_kernels(void)
{
    fake_register_fn reg = gpu_fake_registrar();
    if (!reg)
        return;
    reg("program_fill", fake_fill<program_value>);
    reg("life_fill", fake_fill<plugin_value>);
}

struct plugin {
    void *handle;
    int (*launch)(unsigned *, int);
    const void *(*kernel)(void);
    int (*clear)(void);
};

static bool plugin_open(plugin *p)
{
    memset(p, 0, sizeof *p);
    p->handle = dlopen(gpu_plugin_path("LIFE_PLUGIN", "life_plugin"), RTLD_NOW | RTLD_LOCAL);
    if (!p->handle) {
        printf("FAIL dlopen: %s\n", dlerror());
        return false;
    }
    void *launch = dlsym(p->handle, "life_plugin_launch");
    void *kernel = dlsym(p->handle, "life_plugin_kernel");
    void *clear = dlsym(p->handle, "life_plugin_clear");
    if (!launch || !kernel || !clear) {
        printf("FAIL dlsym: %s\n", dlerror());
        return false;
    }
    memcpy(&p->launch, &launch, sizeof launch);
    memcpy(&p->kernel, &kernel, sizeof kernel);
    memcpy(&p->clear, &clear, sizeof clear);
    return true;
}

// One launch (of the program's kernel, or through the plugin) and its result checked.
static bool run_checked(unsigned *d, unsigned *h, plugin *p)
{
    cudaError_t e;
    if (p) {
        e = (cudaError_t)p->launch(d, N);
    } else {
        program_fill<<<N / 256, 256>>>(d, N);
        e = cudaGetLastError();
    }
    if (e == cudaSuccess)
        e = cudaMemcpy(h, d, N * sizeof *h, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) {
        printf("FAIL launch: " ERR_FMT "\n", ERR_ARGS(e));
        return false;
    }
    for (int i = 0; i < N; i++)
        if (h[i] != (p ? plugin_value((unsigned)i) : program_value((unsigned)i))) {
            printf("FAIL element %d\n", i);
            return false;
        }
    return true;
}

static size_t free_memory(void)
{
    size_t free_bytes = 0, total = 0;
    CHECK(cudaMemGetInfo(&free_bytes, &total));
    return free_bytes;
}

int main(void)
{
    register_fake_kernels();
    gpu_require("life_dlclose");
    unsigned *d = NULL, h[N];
    CHECK(cudaMalloc((void **)&d, N * sizeof *d));
    void *counter = NULL;
    CHECK(cudaGetSymbolAddress(&counter, program_counter));
    bool ok = run_checked(d, h, NULL);           // the context and the program's module, first
    CHECK(cudaDeviceSynchronize());

    size_t before = free_memory();
    void *block = NULL;
    CHECK(cudaMalloc(&block, BIG));
    CHECK(cudaMemset(block, 1, BIG));
    size_t allocated = free_memory();
    CHECK(cudaFree(block));
    CHECK(cudaDeviceSynchronize());
    bool freed_back = free_memory() + SLACK >= before;
    printf("cudaMalloc of 64 MB: device memory taken: %s; after cudaFree: back: %s\n",
           before - allocated >= BIG ? "64 MB or more" : "less than 64 MB",
           freed_back ? "yes" : "no");
    ok &= before - allocated >= BIG && freed_back;

    plugin p;
    ok &= plugin_open(&p);
    if (!ok)
        return 1;
    bool works = p.clear() == cudaSuccess && run_checked(d, h, &p);
    size_t loaded = free_memory();
    printf("library opened: its kernel works: %s; device memory taken: %s\n",
           works ? "yes" : "no", before - loaded >= BIG ? "64 MB or more" : "less than 64 MB");
    const void *stub = p.kernel();
    cudaFuncAttributes attr;
    cudaError_t found = cudaFuncGetAttributes(&attr, stub);
    printf("cudaFuncGetAttributes on its kernel -> " ERR_FMT "\n", ERR_ARGS(found));
    ok &= works && before - loaded >= BIG;

    ok &= dlclose(p.handle) == 0;
    CHECK(cudaDeviceSynchronize());
    size_t after = free_memory();
    bool back = after + SLACK >= before;
    printf("library closed: device memory back: %s\n", back ? "yes" : "no");
    // The closed library's host stub, kept from before: NVIDIA's runtime crashes on it (SIGSEGV,
    // measured on an H200); minicudart must refuse it.  Only minicudart is asked, and the answer
    // goes to stderr, so that both runtimes' transcripts stay comparable.
    if (minicudart_set_trace_hook) {
        cudaError_t e = cudaFuncGetAttributes(&attr, stub), last = cudaGetLastError();
        fprintf(stderr, "cudaFuncGetAttributes on the closed library's kernel -> " ERR_FMT
                ", last error " ERR_FMT "\n", ERR_ARGS(e), ERR_ARGS(last));
        ok &= e != cudaSuccess && last == e;
    }
    bool program_works = run_checked(d, h, NULL);
    printf("the program's kernel after dlclose: %s\n", program_works ? "ok" : "FAILED");
    ok &= back && program_works;

    // Opened again (often at the same address: the same host stubs register anew).
    ok &= plugin_open(&p);
    works = ok && p.clear() == cudaSuccess && run_checked(d, h, &p);
    printf("library opened again: its kernel works: %s\n", works ? "yes" : "no");
    ok &= works && dlclose(p.handle) == 0;
    CHECK(cudaDeviceSynchronize());
    back = free_memory() + SLACK >= before;
    printf("closed again: device memory back: %s\n", back ? "yes" : "no");
    ok &= back && run_checked(d, h, NULL);
    CHECK(cudaFree(d));
    printf("life_dlclose: %s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
