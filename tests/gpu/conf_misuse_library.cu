// conf_misuse_library.cu - invalid inputs to library management (cudaLibrary*,
// cudaKernelSetAttributeForDevice) and to the kernel functions given a library's kernel after its
// library was unloaded, one case each (the runner and the line format: misuse.h).  The library
// is PTX text (library_ptx.h).  Ordinals are written relative to the device count.
#include <stdint.h>

#include "library_ptx.h"
#include "misuse.h"

static int count;                     // devices; also the first invalid ordinal
static cudaLibrary_t lib;             // the fixture: loaded at every start
static cudaKernel_t fill;
static cudaLibrary_t out_lib;
static cudaKernel_t out_kernel;
static unsigned out_count;
static void *out_ptr;
static size_t out_size;
static cudaKernel_t out_kernels[4];

static const unsigned char junk[256] = {1, 2, 3, 4, 5, 6, 7, 8};

static void setup(void)
{
    CHECK(cudaGetDeviceCount(&count));
    CHECK(cudaFree(NULL));
    CHECK(cudaLibraryLoadData(&lib, library_ptx, NULL, NULL, 0, NULL, NULL, 0));
    CHECK(cudaLibraryGetKernel(&fill, lib, "lib_fill"));
}

// Unloads what a case loaded (a library that loaded by mistake included).
static void unload_out_lib(void)
{
    if (out_lib)
        (void)cudaLibraryUnload(out_lib);
    out_lib = NULL;
}

// A library loaded and unloaded again, and a kernel of it: what "stale handle" cases pass.
static cudaLibrary_t stale_library(cudaKernel_t *kernel)
{
    cudaLibrary_t l = NULL;
    cudaKernel_t k = NULL;
    if (cudaLibraryLoadData(&l, library_ptx, NULL, NULL, 0, NULL, NULL, 0) != cudaSuccess ||
        cudaLibraryGetKernel(&k, l, "lib_fill") != cudaSuccess ||
        cudaLibraryUnload(l) != cudaSuccess)
        misuse_note("stale_library_setup_failed");
    misuse_clear();
    if (kernel)
        *kernel = k;
    return l;
}

static cudaError_t load_with_jit(cudaJitOption option, unsigned n, bool null_options,
                                 bool null_values)
{
    cudaJitOption jit[] = {option};
    void *values[] = {(void *)(uintptr_t)32};
    return cudaLibraryLoadData(&out_lib, library_ptx, null_options ? NULL : jit,
                               null_values ? NULL : values, n, NULL, NULL, 0);
}

static cudaError_t load_with_library_option(int option, bool null_values)
{
    cudaLibraryOption lopt[] = {(cudaLibraryOption)option};
    void *values[] = {(void *)(uintptr_t)1};
    return cudaLibraryLoadData(&out_lib, library_ptx, NULL, NULL, 0, lopt,
                               null_values ? NULL : values, 1);
}

static cudaError_t set_for_device(cudaKernel_t k, int attr, int value, int device)
{
    return cudaKernelSetAttributeForDevice(k, (cudaFuncAttribute)attr, value, device);
}

static const misuse_case cases[] = {
    // ---- loading ----
    {"cudaLibraryLoadData.null_library",
     [] { return cudaLibraryLoadData(NULL, library_ptx, NULL, NULL, 0, NULL, NULL, 0); }},
    {"cudaLibraryLoadData.null_code",
     [] { return cudaLibraryLoadData(&out_lib, NULL, NULL, NULL, 0, NULL, NULL, 0); },
     unload_out_lib},
    {"cudaLibraryLoadData.junk_image",
     [] { return cudaLibraryLoadData(&out_lib, junk, NULL, NULL, 0, NULL, NULL, 0); },
     unload_out_lib},
    {"cudaLibraryLoadData.empty_string",
     [] { return cudaLibraryLoadData(&out_lib, "", NULL, NULL, 0, NULL, NULL, 0); },
     unload_out_lib},
    {"cudaLibraryLoadData.ptx_for_a_newer_target",
     [] {
         static const char newer[] = ".version 9.0\n.target sm_120\n.address_size 64\n";
         return cudaLibraryLoadData(&out_lib, newer, NULL, NULL, 0, NULL, NULL, 0);
     },
     unload_out_lib},
    {"cudaLibraryLoadData.jit_count_without_options",
     [] { return load_with_jit(cudaJitMaxRegisters, 1, true, false); }, unload_out_lib},
    {"cudaLibraryLoadData.jit_count_without_values",
     [] { return load_with_jit(cudaJitMaxRegisters, 1, false, true); }, unload_out_lib},
    {"cudaLibraryLoadData.jit_option_8", [] { return load_with_jit((cudaJitOption)8, 1, false,
                                                                   false); },
     unload_out_lib},
    {"cudaLibraryLoadData.jit_option_99", [] { return load_with_jit((cudaJitOption)99, 1, false,
                                                                    false); },
     unload_out_lib},
    {"cudaLibraryLoadData.jit_option_negative",
     [] { return load_with_jit((cudaJitOption)-1, 1, false, false); }, unload_out_lib},
    {"cudaLibraryLoadData.library_option_2", [] { return load_with_library_option(2, false); },
     unload_out_lib},
    {"cudaLibraryLoadData.library_option_without_values",
     [] { return load_with_library_option(cudaLibraryBinaryIsPreserved, true); },
     unload_out_lib},
    {"cudaLibraryLoadFromFile.null_name",
     [] { return cudaLibraryLoadFromFile(&out_lib, NULL, NULL, NULL, 0, NULL, NULL, 0); },
     unload_out_lib},
    {"cudaLibraryLoadFromFile.null_library",
     [] { return cudaLibraryLoadFromFile(NULL, "/nonexistent.ptx", NULL, NULL, 0, NULL, NULL,
                                         0); }},
    {"cudaLibraryLoadFromFile.missing_file",
     [] { return cudaLibraryLoadFromFile(&out_lib, "/nonexistent/x.ptx", NULL, NULL, 0, NULL,
                                         NULL, 0); },
     unload_out_lib},
    {"cudaLibraryLoadFromFile.directory",
     [] { return cudaLibraryLoadFromFile(&out_lib, "/tmp", NULL, NULL, 0, NULL, NULL, 0); },
     unload_out_lib},
    // ---- unloading ----
    {"cudaLibraryUnload.null", [] { return cudaLibraryUnload(NULL); }},
    {"cudaLibraryUnload.twice", [] { return cudaLibraryUnload(stale_library(NULL)); }},
    // ---- kernels ----
    {"cudaLibraryGetKernel.null_out", [] { return cudaLibraryGetKernel(NULL, lib, "lib_fill"); }},
    {"cudaLibraryGetKernel.null_name", [] { return cudaLibraryGetKernel(&out_kernel, lib, NULL); }},
    {"cudaLibraryGetKernel.unknown_name",
     [] { return cudaLibraryGetKernel(&out_kernel, lib, "no_such_kernel"); }},
    {"cudaLibraryGetKernel.variable_name",
     [] { return cudaLibraryGetKernel(&out_kernel, lib, "lib_counter"); }},
    {"cudaLibraryGetKernel.null_library",
     [] { return cudaLibraryGetKernel(&out_kernel, NULL, "lib_fill"); }},
    {"cudaLibraryGetKernel.unloaded_library",
     [] { return cudaLibraryGetKernel(&out_kernel, stale_library(NULL), "lib_fill"); }},
    {"cudaLibraryGetKernelCount.null_count", [] { return cudaLibraryGetKernelCount(NULL, lib); }},
    {"cudaLibraryGetKernelCount.null_library",
     [] { return cudaLibraryGetKernelCount(&out_count, NULL); }},
    {"cudaLibraryGetKernelCount.unloaded_library",
     [] { return cudaLibraryGetKernelCount(&out_count, stale_library(NULL)); }},
    {"cudaLibraryEnumerateKernels.null_kernels",
     [] { return cudaLibraryEnumerateKernels(NULL, 2, lib); }},
    {"cudaLibraryEnumerateKernels.zero_slots",
     [] { return cudaLibraryEnumerateKernels(out_kernels, 0, lib); }},
    {"cudaLibraryEnumerateKernels.null_library",
     [] { return cudaLibraryEnumerateKernels(out_kernels, 4, NULL); }},
    // ---- globals, managed variables, unified functions ----
    {"cudaLibraryGetGlobal.both_outputs_null",
     [] { return cudaLibraryGetGlobal(NULL, NULL, lib, "lib_counter"); }},
    {"cudaLibraryGetGlobal.null_name",
     [] { return cudaLibraryGetGlobal(&out_ptr, &out_size, lib, NULL); }},
    {"cudaLibraryGetGlobal.unknown_name",
     [] { return cudaLibraryGetGlobal(&out_ptr, &out_size, lib, "nothing"); }},
    {"cudaLibraryGetGlobal.kernel_name",
     [] { return cudaLibraryGetGlobal(&out_ptr, &out_size, lib, "lib_fill"); }},
    {"cudaLibraryGetGlobal.null_library",
     [] { return cudaLibraryGetGlobal(&out_ptr, &out_size, NULL, "lib_counter"); }},
    {"cudaLibraryGetGlobal.unloaded_library",
     [] { return cudaLibraryGetGlobal(&out_ptr, &out_size, stale_library(NULL), "lib_counter"); }},
    {"cudaLibraryGetManaged.both_outputs_null",
     [] { return cudaLibraryGetManaged(NULL, NULL, lib, "lib_managed"); }},
    {"cudaLibraryGetManaged.not_managed",
     [] { return cudaLibraryGetManaged(&out_ptr, &out_size, lib, "lib_counter"); }},
    {"cudaLibraryGetManaged.unknown_name",
     [] { return cudaLibraryGetManaged(&out_ptr, &out_size, lib, "nothing"); }},
    {"cudaLibraryGetManaged.null_name",
     [] { return cudaLibraryGetManaged(&out_ptr, &out_size, lib, NULL); }},
    {"cudaLibraryGetManaged.null_library",
     [] { return cudaLibraryGetManaged(&out_ptr, &out_size, NULL, "lib_managed"); }},
    {"cudaLibraryGetUnifiedFunction.null_out",
     [] { return cudaLibraryGetUnifiedFunction(NULL, lib, "lib_fill"); }},
    {"cudaLibraryGetUnifiedFunction.null_symbol",
     [] { return cudaLibraryGetUnifiedFunction(&out_ptr, lib, NULL); }},
    {"cudaLibraryGetUnifiedFunction.kernel_name",
     [] { return cudaLibraryGetUnifiedFunction(&out_ptr, lib, "lib_fill"); }},
    {"cudaLibraryGetUnifiedFunction.unknown",
     [] { return cudaLibraryGetUnifiedFunction(&out_ptr, lib, "nothing"); }},
    {"cudaLibraryGetUnifiedFunction.null_library",
     [] { return cudaLibraryGetUnifiedFunction(&out_ptr, NULL, "lib_fill"); }},
    // ---- cudaKernelSetAttributeForDevice ----
    {"cudaKernelSetAttributeForDevice.null_kernel",
     [] { return set_for_device(NULL, cudaFuncAttributeMaxDynamicSharedMemorySize, 1024, 0); }},
    {"cudaKernelSetAttributeForDevice.host_page",
     [] { return set_for_device((cudaKernel_t)misuse_host_page,
                                cudaFuncAttributeMaxDynamicSharedMemorySize, 1024, 0); }},
    {"cudaKernelSetAttributeForDevice.attr_0", [] { return set_for_device(fill, 0, 1, 0); }},
    {"cudaKernelSetAttributeForDevice.attr_max",
     [] { return set_for_device(fill, cudaFuncAttributeMax, 1, 0); }},
    {"cudaKernelSetAttributeForDevice.attr_negative",
     [] { return set_for_device(fill, -1, 1, 0); }},
    {"cudaKernelSetAttributeForDevice.device_negative",
     [] { return set_for_device(fill, cudaFuncAttributeMaxDynamicSharedMemorySize, 1024, -1); }},
    {"cudaKernelSetAttributeForDevice.device_count",
     [] { return set_for_device(fill, cudaFuncAttributeMaxDynamicSharedMemorySize, 1024,
                                count); }},
    {"cudaKernelSetAttributeForDevice.shared_negative",
     [] { return set_for_device(fill, cudaFuncAttributeMaxDynamicSharedMemorySize, -1, 0); }},
    {"cudaKernelSetAttributeForDevice.shared_too_large",
     [] { return set_for_device(fill, cudaFuncAttributeMaxDynamicSharedMemorySize, 1 << 20,
                                0); }},
    {"cudaKernelSetAttributeForDevice.carveout_101",
     [] { return set_for_device(fill, cudaFuncAttributePreferredSharedMemoryCarveout, 101,
                                0); }},
    {"cudaKernelSetAttributeForDevice.unloaded_kernel",
     [] {
         cudaKernel_t k = NULL;
         stale_library(&k);
         return set_for_device(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 1024, 0);
     }},
    // ---- a library's kernel after its library was unloaded ----
    {"cudaLaunchKernel.unloaded_library_kernel",
     [] {
         cudaKernel_t k = NULL;
         stale_library(&k);
         int *p = NULL;
         int v = 0, n = 0;
         void *args[] = {&p, &v, &n};
         return cudaLaunchKernel((const void *)k, dim3(1), dim3(1), args, 0, 0);
     }},
    {"cudaFuncGetAttributes.unloaded_library_kernel",
     [] {
         cudaKernel_t k = NULL;
         stale_library(&k);
         cudaFuncAttributes a;
         return cudaFuncGetAttributes(&a, (const void *)k);
     }},
    {"cudaFuncGetName.unloaded_library_kernel",
     [] {
         cudaKernel_t k = NULL;
         stale_library(&k);
         const char *name = NULL;
         return cudaFuncGetName(&name, (const void *)k);
     }},
    {"cudaLaunchKernel.library_handle_as_kernel",
     [] { return cudaLaunchKernel((const void *)lib, dim3(1), dim3(1), NULL, 0, 0); }},
};

int main(int argc, char **argv)
{
    return misuse_main("conf_misuse_library", argc, argv, setup, cases, MISUSE_COUNT(cases));
}
