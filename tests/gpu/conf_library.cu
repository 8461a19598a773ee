// conf_library.cu - library management: a library loaded from PTX text (JIT-compiled at load)
// and from a file, its kernels counted, enumerated and found by name, launched through
// cudaLaunchKernel and cudaLaunchKernelExC, its global and managed variables read and written,
// unified functions, cudaKernelSetAttributeForDevice on a library's kernel and on a registered
// one, a device reset with the library loaded, unload, and the codes of invalid calls (each
// followed by the last error).  Lines must match under both runtimes.
#include "gpu_check.h"
#include "library_ptx.h"

#include <stdint.h>
#include <unistd.h>

// A registered kernel, for cudaKernelSetAttributeForDevice next to a library's.
__global__ void registered_dyn(int *p)
{
    extern __shared__ int dyn[];
    dyn[threadIdx.x] = threadIdx.x;
    __syncthreads();
    p[threadIdx.x] = dyn[threadIdx.x] + 1;
}

static int failures;

static void probe(const char *what, cudaError_t got, int want)
{
    cudaError_t last = cudaGetLastError();
    printf("%-60s -> " ERR_FMT ", last " ERR_FMT "\n", what, ERR_ARGS(got), ERR_ARGS(last));
    if (want >= 0 && (int)got != want) {
        printf("  expected %d\n", want);
        failures++;
    }
}

static void expect_long(const char *what, long got, long want)
{
    printf("%-60s = %ld\n", what, got);
    if (got != want) {
        printf("  expected %ld\n", want);
        failures++;
    }
}

static void show(const char *what, long value)
{
    printf("%-60s = %ld\n", what, value);
}

static int read_int(const void *dev)
{
    int v = -1;
    CHECK(cudaMemcpy(&v, dev, sizeof v, cudaMemcpyDeviceToHost));
    return v;
}

// Loads the library with options: a JIT error log, a register limit, the binary preserved.
static cudaLibrary_t load(void)
{
    static char log[1024];
    cudaJitOption jit[] = {cudaJitErrorLogBuffer, cudaJitErrorLogBufferSizeBytes,
                           cudaJitMaxRegisters};
    void *jit_values[] = {log, (void *)(uintptr_t)sizeof log, (void *)(uintptr_t)32};
    cudaLibraryOption lopt[] = {cudaLibraryBinaryIsPreserved};
    void *lvals[] = {(void *)(uintptr_t)1};
    cudaLibrary_t lib = NULL;
    probe("cudaLibraryLoadData(ptx, 3 jit options, 1 library option)",
          cudaLibraryLoadData(&lib, library_ptx, jit, jit_values, 3, lopt, lvals, 1),
          cudaSuccess);
    if (!lib) {
        printf("FAIL no library: %s\n", log);
        exit(1);
    }
    return lib;
}

static void kernels(cudaLibrary_t lib, cudaKernel_t *fill, cudaKernel_t *bump)
{
    unsigned count = 0;
    probe("cudaLibraryGetKernelCount", cudaLibraryGetKernelCount(&count, lib), cudaSuccess);
    expect_long("kernels in the library", count, 2);
    cudaKernel_t all[4] = {NULL, NULL, NULL, NULL};
    probe("cudaLibraryEnumerateKernels(4 slots)", cudaLibraryEnumerateKernels(all, 4, lib),
          cudaSuccess);
    for (int i = 0; i < 2; i++) {
        const char *name = NULL;
        cudaError_t e = cudaFuncGetName(&name, (const void *)all[i]);
        printf("enumerated kernel %d: " ERR_FMT " %s\n", i, ERR_ARGS(e), name ? name : "(none)");
        (void)cudaGetLastError();
    }
    expect_long("slot 2 left alone", all[2] == NULL, 1);
    probe("cudaLibraryGetKernel(lib_fill)", cudaLibraryGetKernel(fill, lib, "lib_fill"),
          cudaSuccess);
    probe("cudaLibraryGetKernel(lib_bump)", cudaLibraryGetKernel(bump, lib, "lib_bump"),
          cudaSuccess);
    expect_long("enumerated handles are the named ones",
                (*fill == all[0] && *bump == all[1]) || (*fill == all[1] && *bump == all[0]), 1);
    cudaKernel_t again = NULL;
    probe("cudaGetKernel(library kernel)", cudaGetKernel(&again, (const void *)*fill), -1);
    show("cudaGetKernel gives the same handle", again == *fill);
}

static void launches(cudaLibrary_t lib, cudaKernel_t fill, cudaKernel_t bump)
{
    void *counter = NULL;
    size_t bytes = 0;
    probe("cudaLibraryGetGlobal(lib_counter)",
          cudaLibraryGetGlobal(&counter, &bytes, lib, "lib_counter"), cudaSuccess);
    expect_long("lib_counter size", (long)bytes, 4);
    expect_long("lib_counter initial", read_int(counter), 7);
    int ten = 10;
    CHECK(cudaMemcpy(counter, &ten, sizeof ten, cudaMemcpyHostToDevice));

    const int n = 1000;
    int *out = NULL;
    CHECK(cudaMalloc((void **)&out, n * sizeof *out));
    CHECK(cudaMemset(out, 0, n * sizeof *out));
    int v = 5, count = n;
    void *args[] = {&out, &v, &count};
    probe("cudaLaunchKernel(lib_fill)",
          cudaLaunchKernel((const void *)fill, dim3(4), dim3(256), args, 0, 0), cudaSuccess);
    CHECK(cudaDeviceSynchronize());
    int host[1000];
    CHECK(cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost));
    long sum = 0;
    for (int i = 0; i < n; i++)
        sum += host[i];
    expect_long("lib_fill sum (5 + counter 10 each)", sum, 15L * n);

    int by = 3;
    void *bump_args[] = {&by};
    cudaLaunchAttribute attr;
    memset(&attr, 0, sizeof attr);
    attr.id = cudaLaunchAttributePriority;
    attr.val.priority = 0;
    cudaLaunchConfig_t config;
    memset(&config, 0, sizeof config);
    config.gridDim = dim3(1);
    config.blockDim = dim3(32);
    config.attrs = &attr;
    config.numAttrs = 1;
    probe("cudaLaunchKernelExC(lib_bump)",
          cudaLaunchKernelExC(&config, (const void *)bump, bump_args), cudaSuccess);
    CHECK(cudaDeviceSynchronize());
    expect_long("lib_counter after bump", read_int(counter), 13);

    int *managed = NULL;
    probe("cudaLibraryGetManaged(lib_managed)",
          cudaLibraryGetManaged((void **)&managed, &bytes, lib, "lib_managed"), cudaSuccess);
    expect_long("lib_managed size", (long)bytes, 4);
    if (managed)
        expect_long("lib_managed after bump (read on the host)", *managed, 8);
    void *global_of_managed = NULL;
    probe("cudaLibraryGetGlobal(lib_managed)",
          cudaLibraryGetGlobal(&global_of_managed, NULL, lib, "lib_managed"), -1);
    size_t only = 0;
    probe("cudaLibraryGetGlobal(NULL dptr)", cudaLibraryGetGlobal(NULL, &only, lib, "lib_counter"),
          cudaSuccess);
    expect_long("size with NULL dptr", (long)only, 4);
    CHECK(cudaFree(out));
}

static void attributes(cudaKernel_t fill)
{
    cudaFuncAttributes a;
    memset(&a, 0, sizeof a);
    probe("cudaFuncGetAttributes(lib_fill)", cudaFuncGetAttributes(&a, (const void *)fill),
          cudaSuccess);
    show("lib_fill maxThreadsPerBlock", a.maxThreadsPerBlock);
    show("lib_fill ptxVersion", a.ptxVersion);
    show("lib_fill binaryVersion", a.binaryVersion);
    show("lib_fill maxDynamicSharedSizeBytes", a.maxDynamicSharedSizeBytes);
    int blocks = 0;
    probe("cudaOccupancyMaxActiveBlocksPerMultiprocessor(lib_fill, 256)",
          cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, (const void *)fill, 256, 0),
          cudaSuccess);
    show("lib_fill blocks per SM at 256", blocks);
    size_t offset = 0, size = 0;
    probe("cudaFuncGetParamInfo(lib_fill, 2)",
          cudaFuncGetParamInfo((const void *)fill, 2, &offset, &size), -1);
    show("lib_fill param 2 offset", (long)offset);
    cudaFunction_t f = NULL;
    probe("cudaGetFuncBySymbol(lib_fill)", cudaGetFuncBySymbol(&f, (const void *)fill), -1);

    // The device-wide setting, then a launch that needs it.
    probe("cudaKernelSetAttributeForDevice(lib_fill, MaxDynShared 65536, 0)",
          cudaKernelSetAttributeForDevice(fill, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          65536, 0),
          cudaSuccess);
    memset(&a, 0, sizeof a);
    probe("cudaFuncGetAttributes(lib_fill) after", cudaFuncGetAttributes(&a, (const void *)fill),
          cudaSuccess);
    show("lib_fill maxDynamicSharedSizeBytes after", a.maxDynamicSharedSizeBytes);
    int *out = NULL;
    CHECK(cudaMalloc((void **)&out, 64 * sizeof *out));
    int v = 1, n = 64;
    void *args[] = {&out, &v, &n};
    probe("cudaLaunchKernel(lib_fill, 65536 dynamic shared)",
          cudaLaunchKernel((const void *)fill, dim3(1), dim3(64), args, 65536, 0), -1);
    probe("cudaDeviceSynchronize", cudaDeviceSynchronize(), cudaSuccess);
    probe("cudaKernelSetAttributeForDevice(lib_fill, carveout 50, 0)",
          cudaKernelSetAttributeForDevice(fill, cudaFuncAttributePreferredSharedMemoryCarveout,
                                          50, 0),
          cudaSuccess);
    probe("cudaKernelSetAttributeForDevice(lib_fill, MaxDynShared 1<<20, 0)",
          cudaKernelSetAttributeForDevice(fill, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          1 << 20, 0),
          -1);
    CHECK(cudaFree(out));
}

static void registered(void)
{
    cudaKernel_t k = NULL;
    probe("cudaGetKernel(registered_dyn)", cudaGetKernel(&k, (const void *)registered_dyn),
          cudaSuccess);
    probe("cudaKernelSetAttributeForDevice(registered, MaxDynShared 50000, 0)",
          cudaKernelSetAttributeForDevice(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 50000,
                                          0),
          cudaSuccess);
    cudaFuncAttributes a;
    memset(&a, 0, sizeof a);
    probe("cudaFuncGetAttributes(registered)",
          cudaFuncGetAttributes(&a, (const void *)registered_dyn), cudaSuccess);
    show("registered maxDynamicSharedSizeBytes", a.maxDynamicSharedSizeBytes);
    int *out = NULL;
    CHECK(cudaMalloc((void **)&out, 32 * sizeof *out));
    registered_dyn<<<1, 32, 50000>>>(out);
    probe("registered_dyn<<<1, 32, 50000>>>", cudaGetLastError(), cudaSuccess);
    probe("cudaDeviceSynchronize", cudaDeviceSynchronize(), cudaSuccess);
    int host[32];
    CHECK(cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost));
    expect_long("registered_dyn out[31]", host[31], 32);
    // cudaFuncSetAttribute's setting overrides the device-wide one, whichever came first.
    probe("cudaFuncSetAttribute(registered, MaxDynShared 40000)",
          cudaFuncSetAttribute((const void *)registered_dyn,
                               cudaFuncAttributeMaxDynamicSharedMemorySize, 40000),
          cudaSuccess);
    probe("cudaKernelSetAttributeForDevice(registered, MaxDynShared 60000, 0)",
          cudaKernelSetAttributeForDevice(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 60000,
                                          0),
          cudaSuccess);
    memset(&a, 0, sizeof a);
    probe("cudaFuncGetAttributes(registered) after both",
          cudaFuncGetAttributes(&a, (const void *)registered_dyn), cudaSuccess);
    show("registered maxDynamicSharedSizeBytes after both", a.maxDynamicSharedSizeBytes);
    registered_dyn<<<1, 32, 50000>>>(out);
    probe("registered_dyn<<<1, 32, 50000>>> after both", cudaGetLastError(), -1);
    (void)cudaDeviceSynchronize();
    (void)cudaGetLastError();
    CHECK(cudaFree(out));
}

static void invalid(cudaLibrary_t lib)
{
    cudaKernel_t k = NULL;
    void *p = NULL;
    size_t bytes = 0;
    probe("cudaLibraryGetKernel(unknown name)", cudaLibraryGetKernel(&k, lib, "nothing"), -1);
    probe("cudaLibraryGetKernel(NULL out)", cudaLibraryGetKernel(NULL, lib, "lib_fill"), -1);
    probe("cudaLibraryGetKernel(NULL name)", cudaLibraryGetKernel(&k, lib, NULL), -1);
    probe("cudaLibraryGetKernelCount(NULL)", cudaLibraryGetKernelCount(NULL, lib), -1);
    probe("cudaLibraryEnumerateKernels(NULL)", cudaLibraryEnumerateKernels(NULL, 2, lib), -1);
    probe("cudaLibraryGetGlobal(unknown)", cudaLibraryGetGlobal(&p, &bytes, lib, "nothing"), -1);
    probe("cudaLibraryGetGlobal(both outputs NULL)",
          cudaLibraryGetGlobal(NULL, NULL, lib, "lib_counter"), -1);
    probe("cudaLibraryGetManaged(not managed)",
          cudaLibraryGetManaged(&p, &bytes, lib, "lib_counter"), -1);
    probe("cudaLibraryGetManaged(unknown)", cudaLibraryGetManaged(&p, &bytes, lib, "nothing"),
          -1);
    void *fptr = NULL;
    probe("cudaLibraryGetUnifiedFunction(lib_fill)",
          cudaLibraryGetUnifiedFunction(&fptr, lib, "lib_fill"), -1);
    probe("cudaLibraryGetUnifiedFunction(unknown)",
          cudaLibraryGetUnifiedFunction(&fptr, lib, "nothing"), -1);
    probe("cudaLibraryGetUnifiedFunction(NULL out)",
          cudaLibraryGetUnifiedFunction(NULL, lib, "lib_fill"), -1);
    cudaLibrary_t bad = NULL;
    static const unsigned char junk[256] = {1, 2, 3, 4, 5, 6, 7, 8};
    probe("cudaLibraryLoadData(junk)",
          cudaLibraryLoadData(&bad, junk, NULL, NULL, 0, NULL, NULL, 0), -1);
    static const char broken_ptx[] = ".version 9.0\n.target sm_90\n.address_size 64\n"
                                     ".visible .entry broken()\n{\n\tthis is not ptx;\n}\n";
    probe("cudaLibraryLoadData(broken PTX)",
          cudaLibraryLoadData(&bad, broken_ptx, NULL, NULL, 0, NULL, NULL, 0), -1);
    probe("cudaLibraryLoadData(NULL code)",
          cudaLibraryLoadData(&bad, NULL, NULL, NULL, 0, NULL, NULL, 0), -1);
    probe("cudaLibraryLoadFromFile(missing file)",
          cudaLibraryLoadFromFile(&bad, "/nonexistent/library.ptx", NULL, NULL, 0, NULL, NULL,
                                  0),
          -1);
    probe("cudaLibraryUnload(NULL)", cudaLibraryUnload(NULL), -1);
    probe("cudaKernelSetAttributeForDevice(NULL kernel)",
          cudaKernelSetAttributeForDevice(NULL, cudaFuncAttributeMaxDynamicSharedMemorySize, 1024,
                                          0),
          -1);
}

static void from_file(void)
{
    char path[] = "/tmp/conf_library_XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0 || write(fd, library_ptx, sizeof library_ptx - 1) !=
                      (ssize_t)(sizeof library_ptx - 1)) {
        printf("FAIL cannot write %s\n", path);
        exit(1);
    }
    close(fd);
    cudaLibrary_t lib = NULL;
    probe("cudaLibraryLoadFromFile(ptx file)",
          cudaLibraryLoadFromFile(&lib, path, NULL, NULL, 0, NULL, NULL, 0), cudaSuccess);
    unlink(path);
    unsigned count = 0;
    probe("cudaLibraryGetKernelCount(from file)", cudaLibraryGetKernelCount(&count, lib),
          cudaSuccess);
    expect_long("kernels in the file's library", count, 2);
    // Its own copy of lib_counter, at its initial value.
    void *counter = NULL;
    probe("cudaLibraryGetGlobal(lib_counter, from file)",
          cudaLibraryGetGlobal(&counter, NULL, lib, "lib_counter"), cudaSuccess);
    expect_long("the file's lib_counter", read_int(counter), 7);
    probe("cudaLibraryUnload(from file)", cudaLibraryUnload(lib), cudaSuccess);
}

// The library outlives a device reset: its kernels launch in the new context, its globals are
// loaded afresh.
static void reset(cudaLibrary_t lib, cudaKernel_t bump)
{
    probe("cudaDeviceReset", cudaDeviceReset(), cudaSuccess);
    int by = 1;
    void *args[] = {&by};
    probe("cudaLaunchKernel(lib_bump) after reset",
          cudaLaunchKernel((const void *)bump, dim3(1), dim3(1), args, 0, 0), -1);
    probe("cudaDeviceSynchronize after reset", cudaDeviceSynchronize(), -1);
    void *counter = NULL;
    cudaError_t e = cudaLibraryGetGlobal(&counter, NULL, lib, "lib_counter");
    probe("cudaLibraryGetGlobal(lib_counter) after reset", e, -1);
    if (e == cudaSuccess)
        show("lib_counter after reset and one bump", read_int(counter));
}

int main(void)
{
    gpu_require("conf_library");
    CHECK(cudaFree(NULL));
    cudaLibrary_t lib = load();
    cudaKernel_t fill = NULL, bump = NULL;
    kernels(lib, &fill, &bump);
    launches(lib, fill, bump);
    attributes(fill);
    registered();
    invalid(lib);
    from_file();
    reset(lib, bump);
    probe("cudaLibraryUnload", cudaLibraryUnload(lib), cudaSuccess);
    printf("conf_library: %s\n", failures ? "FAIL" : "PASS");
    return failures ? 1 : 0;
}
