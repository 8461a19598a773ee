/*
 * test_library.c - library management over the fake driver: cudaLibraryLoadData and
 * cudaLibraryLoadFromFile (with their options translated), kernel count, enumeration and look-up,
 * launches of a library's kernel through cudaLaunchKernel and cudaLaunchKernelExC, attributes and
 * occupancy, globals and managed variables, unified functions, cudaKernelSetAttributeForDevice
 * on a library's kernel and on a registered one, unload, and the error paths.  Each check
 * asserts the returned code and the thread's last error; what reached the driver is read from
 * the fake's call log.  argv[1] names the test; FAKECUDA_DEVICES=2.
 */
#define _POSIX_C_SOURCE 200809L   /* mkstemp */
#include "e2e.h"

#include <cuda.h>
#include <stdio.h>
#include <unistd.h>

/* PTX as nvcc 13.0 makes it (-ptx -arch=compute_90) from:
 *     extern "C" __device__ int lib_counter = 7;
 *     extern "C" __managed__ int lib_managed = 5;
 *     extern "C" __global__ void lib_fill(int *p, int v, int n);   p[i] = v + lib_counter
 *     extern "C" __global__ void lib_bump(int by);                 both variables += by
 * trimmed to what the fake reads (it parses declarations and skips bodies). */
static const char lib_ptx[] =
    ".version 9.0\n"
    ".target sm_90\n"
    ".address_size 64\n"
    "\n"
    ".global .align 4 .u32 lib_counter = 7;\n"
    ".global .attribute(.managed) .align 4 .u32 lib_managed = 5;\n"
    "\n"
    ".visible .entry lib_fill(\n"
    "\t.param .u64 lib_fill_param_0,\n"
    "\t.param .u32 lib_fill_param_1,\n"
    "\t.param .u32 lib_fill_param_2\n"
    ")\n"
    "{\n"
    "\tret;\n"
    "}\n"
    ".visible .entry lib_bump(\n"
    "\t.param .u32 lib_bump_param_0\n"
    ")\n"
    "{\n"
    "\tret;\n"
    "}\n";

const void *lib_registered_stub(void);

static dim3 dim3_of(unsigned x)
{
    return (dim3){x, 1, 1};
}

/* The host implementation of lib_fill: p[i] = v for i < n (the fake has no lib_counter to add). */
static void host_lib_fill(const void *params, size_t size, const unsigned grid[3],
                          const unsigned block[3])
{
    assert_int_equal(size, 16);
    int *p;
    int v, n;
    memcpy(&p, params, sizeof p);
    memcpy(&v, (const char *)params + 8, sizeof v);
    memcpy(&n, (const char *)params + 12, sizeof n);
    for (unsigned i = 0; i < grid[0] * block[0] && (int)i < n; i++)
        p[i] = v;
}

static const fake_call *last_call(const char *name)
{
    for (size_t i = fk.fake_call_count(); i-- > 0;) {
        const fake_call *c = fk.fake_call_at(i);
        if (strcmp(c->name, name) == 0)
            return c;
    }
    return NULL;
}

static void assert_last_call_has(const char *name, const char *text)
{
    const fake_call *c = last_call(name);
    assert_non_null(c);
    if (!strstr(c->args, text))
        fprintf(stderr, "%s(%s) lacks \"%s\"\n", c->name, c->args, text);
    assert_non_null(strstr(c->args, text));
}

static cudaLibrary_t load_lib(void)
{
    cudaLibrary_t lib = NULL;
    assert_cuda(cudaLibraryLoadData(&lib, lib_ptx, NULL, NULL, 0, NULL, NULL, 0), cudaSuccess);
    assert_non_null(lib);
    return lib;
}

/* ---- loading ---------------------------------------------------------------------------------- */

static void load_translates_jit_and_library_options(void **state)
{
    (void)state;
    enum cudaJitOption jit[] = {cudaJitMaxRegisters, cudaJitCacheMode,
                                cudaJitMaxThreadsPerBlock};
    void *jit_values[] = {(void *)(uintptr_t)32, (void *)(uintptr_t)cudaJitCacheOptionCA,
                          (void *)(uintptr_t)256};
    enum cudaLibraryOption lopt[] = {cudaLibraryBinaryIsPreserved};
    void *lvals[] = {(void *)(uintptr_t)1};
    cudaLibrary_t lib = NULL;
    fk.fake_reset_log();
    assert_cuda(cudaLibraryLoadData(&lib, lib_ptx, jit, jit_values, 3, lopt, lvals, 1),
                cudaSuccess);
    assert_non_null(lib);
    char want[96];
    snprintf(want, sizeof want, "code=%p jit=[0:32 14:2 32:256] lib=[1:1]", (void *)lib_ptx);
    assert_last_call_has("cuLibraryLoadData", want);
    /* The library is the driver's handle, and its kernels are the library's. */
    unsigned count = 0;
    assert_cuda(cudaLibraryGetKernelCount(&count, lib), cudaSuccess);
    assert_int_equal(count, 2);
    assert_cuda(cudaLibraryUnload(lib), cudaSuccess);
    assert_int_equal(fk.fake_count_calls("cuLibraryUnload"), 1);
}

static void load_refuses_bad_arguments_before_the_driver(void **state)
{
    (void)state;
    cudaLibrary_t lib = NULL;
    enum cudaJitOption jit[] = {cudaJitMaxRegisters};
    enum cudaJitOption driver_only[] = {(enum cudaJitOption)CU_JIT_TARGET};
    void *values[] = {(void *)(uintptr_t)32};
    enum cudaLibraryOption lopt[] = {(enum cudaLibraryOption)2};
    fk.fake_reset_log();
    assert_cuda(cudaLibraryLoadData(NULL, lib_ptx, NULL, NULL, 0, NULL, NULL, 0),
                cudaErrorInvalidValue);
    assert_cuda(cudaLibraryLoadData(&lib, NULL, NULL, NULL, 0, NULL, NULL, 0),
                cudaErrorInvalidValue);
    assert_cuda(cudaLibraryLoadData(&lib, lib_ptx, NULL, values, 1, NULL, NULL, 0),
                cudaErrorInvalidValue);
    assert_cuda(cudaLibraryLoadData(&lib, lib_ptx, jit, NULL, 1, NULL, NULL, 0),
                cudaErrorInvalidValue);
    assert_cuda(cudaLibraryLoadData(&lib, lib_ptx, NULL, NULL, 0, NULL, values, 1),
                cudaErrorInvalidValue);
    /* Past the driver's last JIT option, an unknown library option. */
    enum cudaJitOption past[] = {(enum cudaJitOption)CU_JIT_NUM_OPTIONS};
    assert_cuda(cudaLibraryLoadData(&lib, lib_ptx, past, values, 1, NULL, NULL, 0),
                cudaErrorInvalidValue);
    assert_cuda(cudaLibraryLoadData(&lib, lib_ptx, NULL, NULL, 0, lopt, values, 1),
                cudaErrorInvalidValue);
    assert_cuda(cudaLibraryLoadFromFile(&lib, NULL, NULL, NULL, 0, NULL, NULL, 0),
                cudaErrorInvalidValue);
    assert_cuda(cudaLibraryLoadFromFile(NULL, "x.ptx", NULL, NULL, 0, NULL, NULL, 0),
                cudaErrorInvalidValue);
    assert_int_equal(fk.fake_count_calls("cuLibraryLoadData"), 0);
    assert_int_equal(fk.fake_count_calls("cuLibraryLoadFromFile"), 0);
    assert_null(lib);
    /* A driver option the runtime's enumeration does not name goes through (NVIDIA's runtime
     * loads with CU_JIT_TARGET on the H200); so do library options without values. */
    assert_cuda(cudaLibraryLoadData(&lib, lib_ptx, driver_only, values, 1, NULL, NULL, 0),
                cudaSuccess);
    assert_int_equal(e2e_calls_with("cuLibraryLoadData", "jit=[9:32]"), 1);
    assert_cuda(cudaLibraryUnload(lib), cudaSuccess);
    enum cudaLibraryOption preserved[] = {cudaLibraryBinaryIsPreserved};
    assert_cuda(cudaLibraryLoadData(&lib, lib_ptx, NULL, NULL, 0, preserved, NULL, 1),
                cudaSuccess);
    assert_cuda(cudaLibraryUnload(lib), cudaSuccess);
}

static void load_of_a_bad_image_is_the_drivers_error(void **state)
{
    (void)state;
    cudaLibrary_t lib = NULL;
    static const unsigned char junk[64] = {0x01, 0x02, 0x03, 0xff};
    char log[256] = "";
    enum cudaJitOption jit[] = {cudaJitErrorLogBuffer, cudaJitErrorLogBufferSizeBytes};
    void *values[] = {log, (void *)(uintptr_t)sizeof log};
    assert_cuda(cudaLibraryLoadData(&lib, junk, jit, values, 2, NULL, NULL, 0),
                cudaErrorInvalidKernelImage);
    assert_true(strlen(log) > 0);                 /* the driver's log reached the caller */
    /* PTX for a newer device than the fake's sm_90: the JIT refuses it. */
    static const char newer[] = ".version 9.0\n.target sm_120\n.address_size 64\n";
    assert_cuda(cudaLibraryLoadData(&lib, newer, NULL, NULL, 0, NULL, NULL, 0),
                cudaErrorInvalidPtx);
    assert_null(lib);
}

static void load_from_file_reads_the_file(void **state)
{
    (void)state;
    char path[] = "/tmp/minicudart_libXXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, lib_ptx, sizeof lib_ptx - 1), (ssize_t)(sizeof lib_ptx - 1));
    close(fd);
    cudaLibrary_t lib = NULL;
    enum cudaJitOption jit[] = {cudaJitOptimizationLevel};
    void *values[] = {(void *)(uintptr_t)3};
    assert_cuda(cudaLibraryLoadFromFile(&lib, path, jit, values, 1, NULL, NULL, 0), cudaSuccess);
    unlink(path);
    char want[96];
    snprintf(want, sizeof want, "file=%s jit=[7:3] lib=[]", path);
    assert_last_call_has("cuLibraryLoadFromFile", want);
    cudaKernel_t k = NULL;
    assert_cuda(cudaLibraryGetKernel(&k, lib, "lib_bump"), cudaSuccess);
    assert_cuda(cudaLibraryUnload(lib), cudaSuccess);
    lib = NULL;
    assert_cuda(cudaLibraryLoadFromFile(&lib, path, NULL, NULL, 0, NULL, NULL, 0),
                cudaErrorFileNotFound);
    assert_null(lib);
}

/* ---- kernels ---------------------------------------------------------------------------------- */

static void kernels_are_counted_enumerated_and_found_by_name(void **state)
{
    (void)state;
    cudaLibrary_t lib = load_lib();
    cudaKernel_t all[4] = {NULL, NULL, NULL, NULL};
    assert_cuda(cudaLibraryEnumerateKernels(all, 4, lib), cudaSuccess);
    assert_non_null(all[0]);
    assert_non_null(all[1]);
    assert_null(all[2]);                    /* two kernels: the rest is left alone */
    cudaKernel_t fill = NULL, bump = NULL;
    assert_cuda(cudaLibraryGetKernel(&fill, lib, "lib_fill"), cudaSuccess);
    assert_cuda(cudaLibraryGetKernel(&bump, lib, "lib_bump"), cudaSuccess);
    assert_true((fill == all[0] && bump == all[1]) || (fill == all[1] && bump == all[0]));
    /* The handle is the driver's CUkernel, and every kernel API takes it. */
    const char *name = NULL;
    assert_cuda(cudaFuncGetName(&name, (const void *)fill), cudaSuccess);
    assert_string_equal(name, "lib_fill");
    assert_cuda(cudaFuncGetName(&name, (const void *)all[0]), cudaSuccess);
    /* ... except cudaGetKernel, which takes entry functions only (NVIDIA on the H200). */
    cudaKernel_t again = NULL;
    assert_cuda(cudaGetKernel(&again, (const void *)bump), cudaErrorInvalidDeviceFunction);
    assert_null(again);
    /* Fewer slots than kernels: only those are written. */
    cudaKernel_t one[2] = {NULL, NULL};
    assert_cuda(cudaLibraryEnumerateKernels(one, 1, lib), cudaSuccess);
    assert_non_null(one[0]);
    assert_null(one[1]);
    assert_cuda(cudaLibraryUnload(lib), cudaSuccess);
}

static void kernel_lookups_refuse_bad_arguments(void **state)
{
    (void)state;
    cudaLibrary_t lib = load_lib();
    cudaKernel_t k = NULL;
    unsigned count = 0;
    int not_a_library = 0;
    cudaLibrary_t bogus = (cudaLibrary_t)&not_a_library;
    assert_cuda(cudaLibraryGetKernel(NULL, lib, "lib_fill"), cudaErrorInvalidValue);
    assert_cuda(cudaLibraryGetKernel(&k, lib, NULL), cudaErrorInvalidValue);
    assert_cuda(cudaLibraryGetKernel(&k, lib, "no_such_kernel"), cudaErrorSymbolNotFound);
    assert_cuda(cudaLibraryGetKernel(&k, bogus, "lib_fill"), cudaErrorInvalidResourceHandle);
    assert_cuda(cudaLibraryGetKernel(&k, NULL, "lib_fill"), cudaErrorInvalidResourceHandle);
    assert_null(k);
    assert_cuda(cudaLibraryGetKernelCount(NULL, lib), cudaErrorInvalidValue);
    assert_cuda(cudaLibraryGetKernelCount(&count, bogus), cudaErrorInvalidResourceHandle);
    assert_cuda(cudaLibraryEnumerateKernels(NULL, 2, lib), cudaErrorInvalidValue);
    cudaKernel_t all[2];
    assert_cuda(cudaLibraryEnumerateKernels(all, 2, bogus), cudaErrorInvalidResourceHandle);
    assert_cuda(cudaLibraryUnload(lib), cudaSuccess);
}

static void kernel_launches_like_a_registered_one(void **state)
{
    (void)state;
    fk.fake_register_host_kernel("lib_fill", host_lib_fill);
    cudaLibrary_t lib = load_lib();
    cudaKernel_t fill = NULL;
    assert_cuda(cudaLibraryGetKernel(&fill, lib, "lib_fill"), cudaSuccess);
    int *out = NULL;
    assert_cuda(cudaMalloc((void **)&out, 64 * sizeof *out), cudaSuccess);
    int v = 42, n = 64;
    void *args[] = {&out, &v, &n};
    fk.fake_reset_log();
    assert_cuda(cudaLaunchKernel((const void *)fill, dim3_of(2), dim3_of(32), args, 0, NULL),
                cudaSuccess);
    assert_int_equal(fk.fake_count_calls("cuKernelGetFunction"), 1);
    const fake_launch *l = fk.fake_last_launch();
    assert_non_null(l);
    assert_string_equal(l->kernel, "lib_fill");
    assert_int_equal(l->grid[0], 2);
    assert_int_equal(l->block[0], 32);
    assert_int_equal(l->module_jit, 1);
    int host[64];
    assert_cuda(cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost), cudaSuccess);
    for (int i = 0; i < 64; i++)
        assert_int_equal(host[i], 42);

    /* cudaLaunchKernelExC, with an attribute; the function is not asked for again. */
    cudaLaunchAttribute attr = {.id = cudaLaunchAttributePriority};
    attr.val.priority = 1;
    cudaLaunchConfig_t config = {.gridDim = dim3_of(1), .blockDim = dim3_of(64),
                                 .attrs = &attr, .numAttrs = 1};
    v = 7;
    assert_cuda(cudaLaunchKernelExC(&config, (const void *)fill, args), cudaSuccess);
    assert_int_equal(fk.fake_count_calls("cuKernelGetFunction"), 1);
    assert_int_equal(fk.fake_count_calls("cuLaunchKernelEx"), 1);
    assert_cuda(cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost), cudaSuccess);
    assert_int_equal(host[63], 7);

    /* A NULL argument pointer is refused as for any kernel. */
    void *bad[] = {&out, NULL, &n};
    assert_cuda(cudaLaunchKernel((const void *)fill, dim3_of(1), dim3_of(1), bad, 0, NULL),
                cudaErrorInvalidValue);
    assert_cuda(cudaFree(out), cudaSuccess);
    assert_cuda(cudaLibraryUnload(lib), cudaSuccess);
}

static void kernel_takes_attributes_and_occupancy(void **state)
{
    (void)state;
    cudaLibrary_t lib = load_lib();
    cudaKernel_t fill = NULL;
    assert_cuda(cudaLibraryGetKernel(&fill, lib, "lib_fill"), cudaSuccess);
    struct cudaFuncAttributes a;
    assert_cuda(cudaFuncGetAttributes(&a, (const void *)fill), cudaSuccess);
    assert_int_equal(a.maxThreadsPerBlock, 1024);
    assert_int_equal(a.ptxVersion, 90);
    assert_cuda(cudaFuncSetAttribute((const void *)fill,
                                     cudaFuncAttributeMaxDynamicSharedMemorySize, 65536),
                cudaSuccess);
    assert_last_call_has("cuFuncSetAttribute", "attrib=8 value=65536");
    int blocks = 0;
    assert_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, (const void *)fill, 256,
                                                              0),
                cudaSuccess);
    assert_int_equal(blocks, 8);
    size_t offset = 0, size = 0;
    assert_cuda(cudaFuncGetParamInfo((const void *)fill, 2, &offset, &size), cudaSuccess);
    assert_int_equal(offset, 12);
    assert_int_equal(size, 4);
    /* A library kernel is no symbol (NVIDIA on the H200). */
    cudaFunction_t f = NULL;
    assert_cuda(cudaGetFuncBySymbol(&f, (const void *)fill), cudaErrorInvalidDeviceFunction);
    assert_null(f);
    assert_cuda(cudaLibraryUnload(lib), cudaSuccess);
}

static void kernel_is_resolved_again_after_a_device_reset(void **state)
{
    (void)state;
    cudaLibrary_t lib = load_lib();
    cudaKernel_t bump = NULL;
    assert_cuda(cudaLibraryGetKernel(&bump, lib, "lib_bump"), cudaSuccess);
    int by = 1;
    void *args[] = {&by};
    fk.fake_reset_log();
    assert_cuda(cudaLaunchKernel((const void *)bump, dim3_of(1), dim3_of(1), args, 0, NULL),
                cudaSuccess);
    assert_cuda(cudaFuncSetAttribute((const void *)bump,
                                     cudaFuncAttributePreferredSharedMemoryCarveout, 50),
                cudaSuccess);
    const uintptr_t before = fk.fake_last_launch()->module;
    /* The library outlives the context; its kernel is asked for in the new one, and the
     * remembered setting is applied to the new function. */
    assert_cuda(cudaDeviceReset(), cudaSuccess);
    assert_cuda(cudaLaunchKernel((const void *)bump, dim3_of(1), dim3_of(1), args, 0, NULL),
                cudaSuccess);
    assert_int_equal(fk.fake_count_calls("cuKernelGetFunction"), 2);
    assert_int_equal(fk.fake_count_calls("cuFuncSetAttribute"), 2);
    assert_true(fk.fake_last_launch()->module != before);
    assert_cuda(cudaLibraryUnload(lib), cudaSuccess);
}

static void unload_withdraws_the_kernels(void **state)
{
    (void)state;
    cudaLibrary_t lib = load_lib();
    cudaKernel_t bump = NULL;
    assert_cuda(cudaLibraryGetKernel(&bump, lib, "lib_bump"), cudaSuccess);
    assert_cuda(cudaLibraryUnload(NULL), cudaErrorInvalidResourceHandle);   /* as NVIDIA's */
    assert_cuda(cudaLibraryUnload(lib), cudaSuccess);
    int by = 1;
    void *args[] = {&by};
    fk.fake_reset_log();
    assert_cuda(cudaLaunchKernel((const void *)bump, dim3_of(1), dim3_of(1), args, 0, NULL),
                cudaErrorInvalidResourceHandle);
    struct cudaFuncAttributes a;
    assert_cuda(cudaFuncGetAttributes(&a, (const void *)bump), cudaErrorInvalidResourceHandle);
    assert_int_equal(fk.fake_count_calls("cuLaunchKernel"), 0);
    /* The driver finds no kernel in an unloaded library (NVIDIA: cudaErrorSymbolNotFound)... */
    cudaKernel_t k = NULL;
    assert_cuda(cudaLibraryGetKernel(&k, lib, "lib_bump"), cudaErrorSymbolNotFound);
    /* ... and would crash on it elsewhere: the runtime refuses the unloaded handle itself. */
    unsigned count = 0;
    assert_cuda(cudaLibraryGetKernelCount(&count, lib), cudaErrorInvalidResourceHandle);
    assert_cuda(cudaLibraryUnload(lib), cudaErrorInvalidResourceHandle);
    assert_int_equal(fk.fake_count_calls("cuLibraryGetKernelCount"), 0);
    assert_int_equal(fk.fake_count_calls("cuLibraryUnload"), 0);
    /* Loaded again, its kernels launch again. */
    lib = load_lib();
    assert_cuda(cudaLibraryGetKernel(&k, lib, "lib_bump"), cudaSuccess);
    assert_cuda(cudaLaunchKernel((const void *)k, dim3_of(1), dim3_of(1), args, 0, NULL),
                cudaSuccess);
    assert_cuda(cudaLibraryUnload(lib), cudaSuccess);
}

/* ---- globals, managed variables, unified functions -------------------------------------------- */

static void globals_and_managed_variables_are_found(void **state)
{
    (void)state;
    cudaLibrary_t lib = load_lib();
    void *ptr = NULL;
    size_t bytes = 0;
    assert_cuda(cudaLibraryGetGlobal(&ptr, &bytes, lib, "lib_counter"), cudaSuccess);
    assert_non_null(ptr);
    assert_int_equal(bytes, sizeof(int));
    int value = 0;
    assert_cuda(cudaMemcpy(&value, ptr, sizeof value, cudaMemcpyDeviceToHost), cudaSuccess);
    assert_int_equal(value, 7);
    value = 11;
    assert_cuda(cudaMemcpy(ptr, &value, sizeof value, cudaMemcpyHostToDevice), cudaSuccess);
    void *same = NULL;
    assert_cuda(cudaLibraryGetGlobal(&same, NULL, lib, "lib_counter"), cudaSuccess);
    assert_ptr_equal(same, ptr);
    size_t only = 0;
    assert_cuda(cudaLibraryGetGlobal(NULL, &only, lib, "lib_counter"), cudaSuccess);
    assert_int_equal(only, sizeof(int));
    value = 0;
    assert_cuda(cudaMemcpy(&value, same, sizeof value, cudaMemcpyDeviceToHost), cudaSuccess);
    assert_int_equal(value, 11);

    int *managed = NULL;
    assert_cuda(cudaLibraryGetManaged((void **)&managed, &bytes, lib, "lib_managed"),
                cudaSuccess);
    assert_non_null(managed);
    assert_int_equal(bytes, sizeof(int));
    assert_int_equal(*managed, 5);            /* managed: readable from the host */

    assert_cuda(cudaLibraryGetGlobal(NULL, NULL, lib, "lib_counter"), cudaErrorInvalidValue);
    assert_cuda(cudaLibraryGetGlobal(&ptr, &bytes, lib, NULL), cudaErrorInvalidValue);
    assert_cuda(cudaLibraryGetGlobal(&ptr, &bytes, lib, "nothing"), cudaErrorSymbolNotFound);
    assert_cuda(cudaLibraryGetManaged(NULL, NULL, lib, "lib_managed"), cudaErrorInvalidValue);
    assert_cuda(cudaLibraryGetManaged(&ptr, &bytes, lib, "lib_counter"),
                cudaErrorSymbolNotFound);
    assert_cuda(cudaLibraryUnload(lib), cudaSuccess);
    assert_cuda(cudaLibraryGetGlobal(&ptr, &bytes, lib, "lib_counter"),
                cudaErrorInvalidResourceHandle);
    assert_cuda(cudaLibraryGetManaged(&ptr, &bytes, lib, "lib_managed"),
                cudaErrorInvalidResourceHandle);
}

static void unified_functions_are_the_drivers_answer(void **state)
{
    (void)state;
    cudaLibrary_t lib = load_lib();
    void *fptr = (void *)&fptr;
    assert_cuda(cudaLibraryGetUnifiedFunction(NULL, lib, "lib_fill"), cudaErrorInvalidValue);
    assert_cuda(cudaLibraryGetUnifiedFunction(&fptr, lib, NULL), cudaErrorInvalidValue);
    fk.fake_reset_log();
    assert_cuda(cudaLibraryGetUnifiedFunction(&fptr, lib, "lib_fill"), cudaErrorSymbolNotFound);
    assert_last_call_has("cuLibraryGetUnifiedFunction", "symbol=lib_fill");
    assert_ptr_equal(fptr, (void *)&fptr);
    assert_cuda(cudaLibraryUnload(lib), cudaSuccess);
    assert_cuda(cudaLibraryGetUnifiedFunction(&fptr, lib, "lib_fill"),
                cudaErrorInvalidResourceHandle);
}

/* ---- cudaKernelSetAttributeForDevice ------------------------------------------------------------ */

static void set_attribute_for_device_on_a_library_kernel(void **state)
{
    (void)state;
    cudaLibrary_t lib = load_lib();
    cudaKernel_t fill = NULL;
    assert_cuda(cudaLibraryGetKernel(&fill, lib, "lib_fill"), cudaSuccess);
    assert_cuda(cudaKernelSetAttributeForDevice(fill, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                100000, 1),
                cudaSuccess);
    char want[96];
    snprintf(want, sizeof want, "attrib=8 val=100000 kernel=%p dev=1", (void *)fill);
    assert_last_call_has("cuKernelSetAttribute", want);
    /* The driver's check of the value. */
    assert_cuda(cudaKernelSetAttributeForDevice(fill,
                                                cudaFuncAttributePreferredSharedMemoryCarveout,
                                                101, 0),
                cudaErrorInvalidValue);
    assert_cuda(cudaLibraryUnload(lib), cudaSuccess);
    assert_cuda(cudaKernelSetAttributeForDevice(fill, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                1024, 0),
                cudaErrorInvalidResourceHandle);
}

static void set_attribute_for_device_on_a_registered_kernel(void **state)
{
    (void)state;
    cudaKernel_t k = NULL;
    assert_cuda(cudaGetKernel(&k, lib_registered_stub()), cudaSuccess);
    fk.fake_reset_log();
    /* Device 1, from a thread on device 0: set on device 1's function, device 0's unchanged. */
    assert_cuda(cudaKernelSetAttributeForDevice(k, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                70000, 1),
                cudaSuccess);
    assert_int_equal(fk.fake_count_calls("cuFuncSetAttribute"), 1);
    assert_last_call_has("cuFuncSetAttribute", "attrib=8 value=70000");
    int device = -1;
    assert_cuda(cudaGetDevice(&device), cudaSuccess);
    assert_int_equal(device, 0);
    /* Of cudaFuncSetAttribute and a later device-wide setting, the later wins (NVIDIA on the
     * H200). */
    assert_cuda(cudaFuncSetAttribute(lib_registered_stub(),
                                     cudaFuncAttributeMaxDynamicSharedMemorySize, 60000),
                cudaSuccess);
    assert_cuda(cudaKernelSetAttributeForDevice(k, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                80000, 0),
                cudaSuccess);
    assert_last_call_has("cuFuncSetAttribute", "attrib=8 value=80000");
    /* And the other way round: cudaFuncSetAttribute after the device-wide setting wins. */
    assert_cuda(cudaFuncSetAttribute(lib_registered_stub(),
                                     cudaFuncAttributeMaxDynamicSharedMemorySize, 60000),
                cudaSuccess);
    assert_last_call_has("cuFuncSetAttribute", "attrib=8 value=60000");
    /* After a reset of device 0, the last setting comes back. */
    assert_cuda(cudaDeviceReset(), cudaSuccess);
    fk.fake_reset_log();
    int *p = NULL;
    void *args[] = {&p};
    assert_cuda(cudaLaunchKernel(lib_registered_stub(), dim3_of(1), dim3_of(1), args, 0, NULL),
                cudaSuccess);
    assert_int_equal(fk.fake_count_calls("cuFuncSetAttribute"), 1);
    assert_last_call_has("cuFuncSetAttribute", "attrib=8 value=60000");
    /* A bad value is the driver's error, and nothing is remembered. */
    assert_cuda(cudaKernelSetAttributeForDevice(k, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                -5, 1),
                cudaErrorInvalidValue);
}

static void set_attribute_for_device_refuses_bad_arguments(void **state)
{
    (void)state;
    cudaKernel_t k = NULL;
    assert_cuda(cudaGetKernel(&k, lib_registered_stub()), cudaSuccess);
    int not_a_kernel = 0;
    fk.fake_reset_log();
    assert_cuda(cudaKernelSetAttributeForDevice(k, (enum cudaFuncAttribute)0, 1, 0),
                cudaErrorInvalidValue);
    assert_cuda(cudaKernelSetAttributeForDevice(k, (enum cudaFuncAttribute)17, 1, 0),
                cudaErrorInvalidValue);     /* 13.5's cudaFuncAttributeMax */
    assert_cuda(cudaKernelSetAttributeForDevice(k, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                1024, 2),
                cudaErrorInvalidDevice);
    assert_cuda(cudaKernelSetAttributeForDevice(k, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                1024, -1),
                cudaErrorInvalidDevice);
    assert_cuda(cudaKernelSetAttributeForDevice(NULL, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                1024, 0),
                cudaErrorInvalidResourceHandle);                     /* as NVIDIA's */
    assert_cuda(cudaKernelSetAttributeForDevice((cudaKernel_t)&not_a_kernel,
                                                cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                1024, 0),
                cudaErrorInvalidResourceHandle);
    assert_int_equal(fk.fake_count_calls("cuFuncSetAttribute"), 0);
    assert_int_equal(fk.fake_count_calls("cuKernelSetAttribute"), 0);
}

/* ---- the driver failing ------------------------------------------------------------------------- */

static void driver_failures_reach_the_caller(void **state)
{
    (void)state;
    cudaLibrary_t lib = NULL;
    fk.fake_fail_call("cuLibraryLoadData", 1, 2 /* OUT_OF_MEMORY */);
    assert_cuda(cudaLibraryLoadData(&lib, lib_ptx, NULL, NULL, 0, NULL, NULL, 0),
                cudaErrorMemoryAllocation);
    assert_null(lib);
    lib = load_lib();
    cudaKernel_t fill = NULL;
    assert_cuda(cudaLibraryGetKernel(&fill, lib, "lib_fill"), cudaSuccess);
    /* The function cannot be had in this context: the launch fails, and works later. */
    fk.fake_fail_call("cuKernelGetFunction", 1, 2 /* OUT_OF_MEMORY */);
    int *p = NULL;
    int v = 1, n = 0;
    void *args[] = {&p, &v, &n};
    assert_cuda(cudaLaunchKernel((const void *)fill, dim3_of(1), dim3_of(1), args, 0, NULL),
                cudaErrorMemoryAllocation);
    assert_cuda(cudaLaunchKernel((const void *)fill, dim3_of(1), dim3_of(1), args, 0, NULL),
                cudaSuccess);
    fk.fake_fail_call("cuLibraryEnumerateKernels", 1, 400 /* INVALID_HANDLE */);
    cudaKernel_t all[2];
    assert_cuda(cudaLibraryEnumerateKernels(all, 2, lib), cudaErrorInvalidResourceHandle);
    /* A failed unload leaves the kernels usable. */
    fk.fake_fail_call("cuLibraryUnload", 1, 400 /* INVALID_HANDLE */);
    assert_cuda(cudaLibraryUnload(lib), cudaErrorInvalidResourceHandle);
    assert_cuda(cudaLaunchKernel((const void *)fill, dim3_of(1), dim3_of(1), args, 0, NULL),
                cudaSuccess);
    assert_cuda(cudaLibraryUnload(lib), cudaSuccess);
}

#define TEST(name) { #name, name }

int main(int argc, char **argv)
{
    static const struct { const char *name; CMUnitTestFunction fn; } all[] = {
        TEST(load_translates_jit_and_library_options),
        TEST(load_refuses_bad_arguments_before_the_driver),
        TEST(load_of_a_bad_image_is_the_drivers_error),
        TEST(load_from_file_reads_the_file),
        TEST(kernels_are_counted_enumerated_and_found_by_name),
        TEST(kernel_lookups_refuse_bad_arguments),
        TEST(kernel_launches_like_a_registered_one),
        TEST(kernel_takes_attributes_and_occupancy),
        TEST(kernel_is_resolved_again_after_a_device_reset),
        TEST(unload_withdraws_the_kernels),
        TEST(globals_and_managed_variables_are_found),
        TEST(unified_functions_are_the_drivers_answer),
        TEST(set_attribute_for_device_on_a_library_kernel),
        TEST(set_attribute_for_device_on_a_registered_kernel),
        TEST(set_attribute_for_device_refuses_bad_arguments),
        TEST(driver_failures_reach_the_caller),
    };
    for (size_t i = 0; argc == 2 && i < sizeof all / sizeof *all; i++) {
        if (strcmp(argv[1], all[i].name) != 0)
            continue;
        const struct CMUnitTest tests[] = { { all[i].name, all[i].fn, NULL, NULL, NULL } };
        return cmocka_run_group_tests_name(all[i].name, tests, e2e_setup, NULL);
    }
    fprintf(stderr, "usage: %s TEST\n", argv[0]);
    return 2;
}
