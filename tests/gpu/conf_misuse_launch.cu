// conf_misuse_launch.cu - invalid launches through every launch entry point (<<<>>>, which is
// __cudaPushCallConfiguration + __cudaPopCallConfiguration + __cudaGetKernel +
// __cudaLaunchKernel; cudaLaunchKernel; cooperative and extended launches; the _ptsz forms),
// invalid inputs to function attributes and occupancy, and to nvcc's registration entry points,
// one case each (the runner and the line format: misuse.h).
//
// Every kernel here does nothing when its pointer argument is NULL, which is all they get: a
// launch that a runtime accepts by mistake runs harmlessly and cannot break the context.
#include "misuse.h"

// cudaFuncSetSharedMemConfig is deprecated, and still part of the API under test.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

// The per-thread-default-stream variants; the toolkit declares them only in such builds.
extern "C" {
cudaError_t CUDARTAPI cudaLaunchKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim,
                                            void **args, size_t sharedMem, cudaStream_t stream);
cudaError_t CUDARTAPI cudaLaunchCooperativeKernel_ptsz(const void *func, dim3 gridDim,
                                                       dim3 blockDim, void **args,
                                                       size_t sharedMem, cudaStream_t stream);
cudaError_t CUDARTAPI cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *config,
                                               const void *func, void **args);
// nvcc's own entry points that crt/host_runtime.h declares only for the generated stub file.
cudaError_t CUDARTAPI __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim,
                                                 size_t *sharedMem, void *stream);
void **CUDARTAPI __cudaRegisterFatBinary(void *fatCubin);
void CUDARTAPI __cudaRegisterFatBinaryEnd(void **fatCubinHandle);
void CUDARTAPI __cudaUnregisterFatBinary(void **fatCubinHandle);
void CUDARTAPI __cudaRegisterVar(void **fatCubinHandle, char *hostVar, char *deviceAddress,
                                 const char *deviceName, int ext, size_t size, int constant,
                                 int global);
void CUDARTAPI __cudaRegisterManagedVar(void **fatCubinHandle, void **hostVarPtrAddress,
                                        char *deviceAddress, const char *deviceName, int ext,
                                        size_t size, int constant, int global);
char CUDARTAPI __cudaInitModule(void **fatCubinHandle);
void CUDARTAPI __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun,
                                      char *deviceFun, const char *deviceName, int thread_limit,
                                      uint3 *tid, uint3 *bid, dim3 *bDim, dim3 *gDim, int *wSize);
}

// The kernel every launch case uses.  Dynamic shared memory is touched only with a pointer.
__global__ void k_params(int *p, int v)
{
    extern __shared__ int buffer[];
    if (p) {
        buffer[threadIdx.x] = v;
        __syncthreads();
        p[threadIdx.x] = buffer[0];
    }
}

__global__ void __launch_bounds__(128) k_bounded(int *p, int v)
{
    if (p)
        p[threadIdx.x] = v;
}

// Only function attribute cases touch this one, so that what they set never reaches a launch.
__global__ void k_attr(int *p)
{
    if (p)
        *p = 1;
}

static const void *const K = (const void *)k_params;
static const void *const NOT_A_KERNEL = MISUSE_NOT_A_KERNEL;

static int *null_pointer = NULL;
static int one = 1;
static void *args[] = {&null_pointer, &one};
static void *null_argument_pointers[] = {NULL, NULL};

static const dim3 G1(1), B1(1), B32(32);
static const size_t SHARED_1MB = (size_t)1 << 20;
static const size_t SHARED_100KB = 100 * 1024;
static const size_t SHARED_4GB_PLUS_1 = ((size_t)1 << 32) + 1;

static cudaKernel_t handle;           // __cudaGetKernel's handle of k_params

static void setup(void)
{
    CHECK(__cudaGetKernel(&handle, K));
    // Loads the module, so that no case is the first use of the kernels.
    k_params<<<1, 1>>>(NULL, 0);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
}

// Waits for whatever a case launched (a launch accepted by mistake must finish in its case).
static void synchronize(void)
{
    cudaDeviceSynchronize();
}

static cudaError_t launch(dim3 grid, dim3 block, size_t shared)
{
    return cudaLaunchKernel(K, grid, block, args, shared, 0);
}

static cudaLaunchConfig_t config_of(dim3 grid, dim3 block, size_t shared)
{
    cudaLaunchConfig_t c;
    memset(&c, 0, sizeof c);
    c.gridDim = grid;
    c.blockDim = block;
    c.dynamicSmemBytes = shared;
    return c;
}

static cudaLaunchAttribute attribute;

static cudaLaunchConfig_t cluster_config(dim3 grid, unsigned cluster_x)
{
    cudaLaunchConfig_t c = config_of(grid, B32, 0);
    memset(&attribute, 0, sizeof attribute);
    attribute.id = cudaLaunchAttributeClusterDimension;
    attribute.val.clusterDim.x = cluster_x;
    attribute.val.clusterDim.y = 1;
    attribute.val.clusterDim.z = 1;
    c.attrs = &attribute;
    c.numAttrs = 1;
    return c;
}

static cudaError_t launch_ex(cudaLaunchConfig_t c)
{
    return cudaLaunchKernelExC(&c, K, args);
}

static cudaFuncAttributes fattr;
static int out_int;
static size_t out_size, out_offset;
static const char *out_name;
static cudaKernel_t out_kernel;
static cudaFunction_t out_function;

// A wrapper that is no fatbin (its magic is 0): what __cudaRegisterFatBinary gets.
static unsigned long long bad_wrapper[3];
static void *null_slot;               // a "handle" whose module slot is NULL

static const misuse_case cases[] = {
    // ---- <<<>>>: push, pop, __cudaGetKernel, __cudaLaunchKernel; the last error tells ----
    {"__cudaLaunchKernel.chevrons_grid_0",
     [] { k_params<<<dim3(0), B32>>>(NULL, 1); return MISUSE_VOID; }, synchronize},
    {"__cudaLaunchKernel.chevrons_grid_y_0",
     [] { k_params<<<dim3(1, 0), B32>>>(NULL, 1); return MISUSE_VOID; }, synchronize},
    {"__cudaLaunchKernel.chevrons_block_0",
     [] { k_params<<<G1, dim3(0)>>>(NULL, 1); return MISUSE_VOID; }, synchronize},
    {"__cudaLaunchKernel.chevrons_block_2048",
     [] { k_params<<<G1, 2048>>>(NULL, 1); return MISUSE_VOID; }, synchronize},
    {"__cudaLaunchKernel.chevrons_block_1024x2",
     [] { k_params<<<G1, dim3(1024, 2)>>>(NULL, 1); return MISUSE_VOID; }, synchronize},
    {"__cudaLaunchKernel.chevrons_block_z_128",
     [] { k_params<<<G1, dim3(1, 1, 128)>>>(NULL, 1); return MISUSE_VOID; }, synchronize},
    {"__cudaLaunchKernel.chevrons_grid_y_65536",
     [] { k_params<<<dim3(1, 65536), B1>>>(NULL, 1); return MISUSE_VOID; }, synchronize},
    {"__cudaLaunchKernel.chevrons_grid_z_65536",
     [] { k_params<<<dim3(1, 1, 65536), B1>>>(NULL, 1); return MISUSE_VOID; }, synchronize},
    {"__cudaLaunchKernel.chevrons_grid_x_2pow31",
     [] { k_params<<<dim3(1u << 31), B1>>>(NULL, 1); return MISUSE_VOID; }, synchronize},
    {"__cudaLaunchKernel.chevrons_shared_1MB",
     [] { k_params<<<G1, B32, SHARED_1MB>>>(NULL, 1); return MISUSE_VOID; }, synchronize},
    {"__cudaLaunchKernel.chevrons_shared_100KB_without_opt_in",
     [] { k_params<<<G1, B32, SHARED_100KB>>>(NULL, 1); return MISUSE_VOID; }, synchronize},
    {"__cudaLaunchKernel.chevrons_block_above_launch_bounds",
     [] { k_bounded<<<G1, 256>>>(NULL, 1); return MISUSE_VOID; }, synchronize},
    {"__cudaLaunchKernel.null_kernel",
     [] { return __cudaLaunchKernel(NULL, G1, B32, args, 0, 0); }, synchronize},
    {"__cudaLaunchKernel.host_function_as_kernel",
     [] { return __cudaLaunchKernel((cudaKernel_t)NOT_A_KERNEL, G1, B32, args, 0, 0); },
     synchronize},
    {"__cudaLaunchKernel.grid_0",
     [] { return __cudaLaunchKernel(handle, dim3(0), B32, args, 0, 0); }, synchronize},
    {"__cudaLaunchKernel.block_2048",
     [] { return __cudaLaunchKernel(handle, G1, dim3(2048), args, 0, 0); }, synchronize},
    {"__cudaLaunchKernel.shared_1MB",
     [] { return __cudaLaunchKernel(handle, G1, B32, args, SHARED_1MB, 0); }, synchronize},
    {"__cudaLaunchKernel.null_args",
     [] { return __cudaLaunchKernel(handle, G1, B32, NULL, 0, 0); }, synchronize},
    {"__cudaLaunchKernel_ptsz.null_kernel",
     [] { return __cudaLaunchKernel_ptsz(NULL, G1, B32, args, 0, 0); }, synchronize},
    {"__cudaLaunchKernel_ptsz.grid_0",
     [] { return __cudaLaunchKernel_ptsz(handle, dim3(0), B32, args, 0, 0); }, synchronize},
    {"__cudaLaunchKernel_ptsz.block_2048",
     [] { return __cudaLaunchKernel_ptsz(handle, G1, dim3(2048), args, 0, 0); }, synchronize},
    {"__cudaGetKernel.null_out", [] { return __cudaGetKernel(NULL, K); }},
    {"__cudaGetKernel.not_a_kernel", [] { return __cudaGetKernel(&out_kernel, NOT_A_KERNEL); }},
    {"__cudaGetKernel.null_function", [] { return __cudaGetKernel(&out_kernel, NULL); }},
    {"__cudaPushCallConfiguration.invalid_then_popped",
     [] {
         unsigned pushed = __cudaPushCallConfiguration(dim3(0), dim3(2048), SHARED_1MB, NULL);
         dim3 grid, block;
         size_t shared = 0;
         cudaStream_t stream = NULL;
         cudaError_t popped = __cudaPopCallConfiguration(&grid, &block, &shared, &stream);
         misuse_note("push_%u_pop_%d_grid_%u_block_%u_shared_%zu", pushed, (int)popped, grid.x,
                     block.x, shared);
         return MISUSE_VOID;
     }},
    {"__cudaPopCallConfiguration.null_outputs",
     [] {
         __cudaPushCallConfiguration(G1, B32, 0, NULL);
         return __cudaPopCallConfiguration(NULL, NULL, NULL, NULL);
     }},
    {"__cudaPopCallConfiguration.empty_stack",
     [] {
         dim3 grid, block;
         size_t shared = 0;
         cudaStream_t stream = NULL;
         return __cudaPopCallConfiguration(&grid, &block, &shared, &stream);
     }},

    // ---- cudaLaunchKernel ----
    {"cudaLaunchKernel.grid_0", [] { return launch(dim3(0), B32, 0); }, synchronize},
    {"cudaLaunchKernel.grid_z_0", [] { return launch(dim3(1, 1, 0), B32, 0); }, synchronize},
    {"cudaLaunchKernel.block_0", [] { return launch(G1, dim3(0), 0); }, synchronize},
    {"cudaLaunchKernel.block_2048", [] { return launch(G1, dim3(2048), 0); }, synchronize},
    {"cudaLaunchKernel.block_1024x2", [] { return launch(G1, dim3(1024, 2), 0); }, synchronize},
    {"cudaLaunchKernel.block_z_128", [] { return launch(G1, dim3(1, 1, 128), 0); }, synchronize},
    {"cudaLaunchKernel.grid_y_65536", [] { return launch(dim3(1, 65536), B1, 0); }, synchronize},
    {"cudaLaunchKernel.grid_z_65536",
     [] { return launch(dim3(1, 1, 65536), B1, 0); }, synchronize},
    {"cudaLaunchKernel.grid_x_2pow31", [] { return launch(dim3(1u << 31), B1, 0); }, synchronize},
    {"cudaLaunchKernel.shared_1MB", [] { return launch(G1, B32, SHARED_1MB); }, synchronize},
    {"cudaLaunchKernel.shared_100KB_without_opt_in",
     [] { return launch(G1, B32, SHARED_100KB); }, synchronize},
    {"cudaLaunchKernel.shared_4GB_plus_1",
     [] { return launch(G1, B32, SHARED_4GB_PLUS_1); }, synchronize},
    {"cudaLaunchKernel.block_above_launch_bounds",
     [] { return cudaLaunchKernel((const void *)k_bounded, G1, dim3(256), args, 0, 0); },
     synchronize},
    {"cudaLaunchKernel.not_a_kernel",
     [] { return cudaLaunchKernel(NOT_A_KERNEL, G1, B32, args, 0, 0); }, synchronize},
    {"cudaLaunchKernel.null_function",
     [] { return cudaLaunchKernel(NULL, G1, B32, args, 0, 0); }, synchronize},
    {"cudaLaunchKernel.null_args",
     [] { return cudaLaunchKernel(K, G1, B32, NULL, 0, 0); }, synchronize},
    {"cudaLaunchKernel.null_argument_pointers",
     [] { return cudaLaunchKernel(K, G1, B32, null_argument_pointers, 0, 0); }, synchronize},
    {"cudaLaunchKernel_ptsz.grid_0",
     [] { return cudaLaunchKernel_ptsz(K, dim3(0), B32, args, 0, 0); }, synchronize},
    {"cudaLaunchKernel_ptsz.block_2048",
     [] { return cudaLaunchKernel_ptsz(K, G1, dim3(2048), args, 0, 0); }, synchronize},
    {"cudaLaunchKernel_ptsz.grid_y_65536",
     [] { return cudaLaunchKernel_ptsz(K, dim3(1, 65536), B1, args, 0, 0); }, synchronize},
    {"cudaLaunchKernel_ptsz.shared_1MB",
     [] { return cudaLaunchKernel_ptsz(K, G1, B32, args, SHARED_1MB, 0); }, synchronize},
    {"cudaLaunchKernel_ptsz.not_a_kernel",
     [] { return cudaLaunchKernel_ptsz(NOT_A_KERNEL, G1, B32, args, 0, 0); }, synchronize},
    {"cudaLaunchKernel_ptsz.null_function",
     [] { return cudaLaunchKernel_ptsz(NULL, G1, B32, args, 0, 0); }, synchronize},

    // ---- cooperative launches ----
    {"cudaLaunchCooperativeKernel.grid_0",
     [] { return cudaLaunchCooperativeKernel(K, dim3(0), B32, args, 0, 0); }, synchronize},
    {"cudaLaunchCooperativeKernel.block_2048",
     [] { return cudaLaunchCooperativeKernel(K, G1, dim3(2048), args, 0, 0); }, synchronize},
    {"cudaLaunchCooperativeKernel.shared_1MB",
     [] { return cudaLaunchCooperativeKernel(K, G1, B32, args, SHARED_1MB, 0); }, synchronize},
    {"cudaLaunchCooperativeKernel.grid_too_large_to_be_resident",
     [] { return cudaLaunchCooperativeKernel(K, dim3(1 << 20), dim3(1024), args, 0, 0); },
     synchronize},
    {"cudaLaunchCooperativeKernel.not_a_kernel",
     [] { return cudaLaunchCooperativeKernel(NOT_A_KERNEL, G1, B32, args, 0, 0); }, synchronize},
    {"cudaLaunchCooperativeKernel.null_function",
     [] { return cudaLaunchCooperativeKernel(NULL, G1, B32, args, 0, 0); }, synchronize},
    {"cudaLaunchCooperativeKernel.null_args",
     [] { return cudaLaunchCooperativeKernel(K, G1, B32, NULL, 0, 0); }, synchronize},
    {"cudaLaunchCooperativeKernel_ptsz.block_2048",
     [] { return cudaLaunchCooperativeKernel_ptsz(K, G1, dim3(2048), args, 0, 0); },
     synchronize},
    {"cudaLaunchCooperativeKernel_ptsz.not_a_kernel",
     [] { return cudaLaunchCooperativeKernel_ptsz(NOT_A_KERNEL, G1, B32, args, 0, 0); },
     synchronize},

    // ---- extended launches ----
    {"cudaLaunchKernelExC.null_config", [] { return cudaLaunchKernelExC(NULL, K, args); },
     synchronize},
    {"cudaLaunchKernelExC.attrs_null_with_count",
     [] {
         cudaLaunchConfig_t c = config_of(G1, B32, 0);
         c.numAttrs = 1;
         return launch_ex(c);
     },
     synchronize},
    {"cudaLaunchKernelExC.grid_0", [] { return launch_ex(config_of(dim3(0), B32, 0)); },
     synchronize},
    {"cudaLaunchKernelExC.block_2048", [] { return launch_ex(config_of(G1, dim3(2048), 0)); },
     synchronize},
    {"cudaLaunchKernelExC.shared_1MB", [] { return launch_ex(config_of(G1, B32, SHARED_1MB)); },
     synchronize},
    {"cudaLaunchKernelExC.unknown_attribute",
     [] {
         cudaLaunchConfig_t c = config_of(G1, B32, 0);
         memset(&attribute, 0, sizeof attribute);
         attribute.id = (cudaLaunchAttributeID)99;
         c.attrs = &attribute;
         c.numAttrs = 1;
         return launch_ex(c);
     },
     synchronize},
    {"cudaLaunchKernelExC.cluster_not_dividing_grid",
     [] { return launch_ex(cluster_config(dim3(3), 2)); }, synchronize},
    {"cudaLaunchKernelExC.cluster_64", [] { return launch_ex(cluster_config(dim3(64), 64)); },
     synchronize},
    {"cudaLaunchKernelExC.not_a_kernel",
     [] {
         cudaLaunchConfig_t c = config_of(G1, B32, 0);
         return cudaLaunchKernelExC(&c, NOT_A_KERNEL, args);
     },
     synchronize},
    {"cudaLaunchKernelExC.null_function",
     [] {
         cudaLaunchConfig_t c = config_of(G1, B32, 0);
         return cudaLaunchKernelExC(&c, NULL, args);
     },
     synchronize},
    {"cudaLaunchKernelExC.null_args",
     [] {
         cudaLaunchConfig_t c = config_of(G1, B32, 0);
         return cudaLaunchKernelExC(&c, K, NULL);
     },
     synchronize},
    {"cudaLaunchKernelExC_ptsz.null_config",
     [] { return cudaLaunchKernelExC_ptsz(NULL, K, args); }, synchronize},
    {"cudaLaunchKernelExC_ptsz.block_2048",
     [] {
         cudaLaunchConfig_t c = config_of(G1, dim3(2048), 0);
         return cudaLaunchKernelExC_ptsz(&c, K, args);
     },
     synchronize},
    {"cudaLaunchKernelExC_ptsz.not_a_kernel",
     [] {
         cudaLaunchConfig_t c = config_of(G1, B32, 0);
         return cudaLaunchKernelExC_ptsz(&c, NOT_A_KERNEL, args);
     },
     synchronize},

    // ---- kernel handles and function attributes ----
    {"cudaGetKernel.null_out", [] { return cudaGetKernel(NULL, K); }},
    {"cudaGetKernel.not_a_kernel", [] { return cudaGetKernel(&out_kernel, NOT_A_KERNEL); }},
    {"cudaGetKernel.null_function", [] { return cudaGetKernel(&out_kernel, NULL); }},
    {"cudaGetFuncBySymbol.null_out", [] { return cudaGetFuncBySymbol(NULL, K); }},
    {"cudaGetFuncBySymbol.not_a_kernel",
     [] { return cudaGetFuncBySymbol(&out_function, NOT_A_KERNEL); }},
    {"cudaGetFuncBySymbol.null_function", [] { return cudaGetFuncBySymbol(&out_function, NULL); }},
    {"cudaFuncGetAttributes.null_out", [] { return cudaFuncGetAttributes(NULL, K); }},
    {"cudaFuncGetAttributes.not_a_kernel",
     [] { return cudaFuncGetAttributes(&fattr, NOT_A_KERNEL); }},
    {"cudaFuncGetAttributes.null_function", [] { return cudaFuncGetAttributes(&fattr, NULL); }},
    {"cudaFuncSetAttribute.not_a_kernel",
     [] {
         return cudaFuncSetAttribute(NOT_A_KERNEL, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     1024);
     }},
    {"cudaFuncSetAttribute.null_function",
     [] {
         return cudaFuncSetAttribute(NULL, cudaFuncAttributeMaxDynamicSharedMemorySize, 1024);
     }},
    {"cudaFuncSetAttribute.unknown_attribute",
     [] { return cudaFuncSetAttribute((const void *)k_attr, (cudaFuncAttribute)99, 1); }},
    {"cudaFuncSetAttribute.read_only_attribute",
     [] {
         return cudaFuncSetAttribute((const void *)k_attr, cudaFuncAttributeRequiredClusterWidth,
                                     2);
     }},
    {"cudaFuncSetAttribute.max_dynamic_shared_1GB",
     [] {
         return cudaFuncSetAttribute((const void *)k_attr,
                                     cudaFuncAttributeMaxDynamicSharedMemorySize, 1 << 30);
     }},
    {"cudaFuncSetAttribute.max_dynamic_shared_negative",
     [] {
         return cudaFuncSetAttribute((const void *)k_attr,
                                     cudaFuncAttributeMaxDynamicSharedMemorySize, -1);
     }},
    {"cudaFuncSetAttribute.carveout_101",
     [] {
         return cudaFuncSetAttribute((const void *)k_attr,
                                     cudaFuncAttributePreferredSharedMemoryCarveout, 101);
     }},
    {"cudaFuncSetCacheConfig.not_a_kernel",
     [] { return cudaFuncSetCacheConfig(NOT_A_KERNEL, cudaFuncCachePreferShared); }},
    {"cudaFuncSetCacheConfig.unknown_config",
     [] { return cudaFuncSetCacheConfig((const void *)k_attr, (cudaFuncCache)99); }},
    {"cudaFuncSetSharedMemConfig.not_a_kernel",
     [] { return cudaFuncSetSharedMemConfig(NOT_A_KERNEL, cudaSharedMemBankSizeFourByte); }},
    {"cudaFuncSetSharedMemConfig.unknown_config",
     [] { return cudaFuncSetSharedMemConfig((const void *)k_attr, (cudaSharedMemConfig)99); }},
    {"cudaFuncGetName.null_out", [] { return cudaFuncGetName(NULL, K); }},
    {"cudaFuncGetName.not_a_kernel", [] { return cudaFuncGetName(&out_name, NOT_A_KERNEL); }},
    {"cudaFuncGetName.null_function", [] { return cudaFuncGetName(&out_name, NULL); }},
    {"cudaFuncGetParamInfo.not_a_kernel",
     [] { return cudaFuncGetParamInfo(NOT_A_KERNEL, 0, &out_offset, &out_size); }},
    {"cudaFuncGetParamInfo.index_past_end",
     [] { return cudaFuncGetParamInfo(K, 2, &out_offset, &out_size); }},
    {"cudaFuncGetParamInfo.null_outputs", [] { return cudaFuncGetParamInfo(K, 0, NULL, NULL); }},

    // ---- occupancy ----
    {"cudaOccupancyMaxActiveBlocksPerMultiprocessor.both_null",
     [] { return cudaOccupancyMaxActiveBlocksPerMultiprocessor(NULL, NULL, 32, 0); }},
    {"cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags.both_null_bad_flags",
     [] { return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(NULL, NULL, 32, 0, 8); }},
    {"cudaOccupancyAvailableDynamicSMemPerBlock.both_null",
     [] { return cudaOccupancyAvailableDynamicSMemPerBlock(NULL, NULL, 1, 32); }},
    {"cudaOccupancyMaxActiveBlocksPerMultiprocessor.null_out",
     [] { return cudaOccupancyMaxActiveBlocksPerMultiprocessor(NULL, K, 32, 0); }},
    {"cudaOccupancyMaxActiveBlocksPerMultiprocessor.not_a_kernel",
     [] { return cudaOccupancyMaxActiveBlocksPerMultiprocessor(&out_int, NOT_A_KERNEL, 32, 0); }},
    {"cudaOccupancyMaxActiveBlocksPerMultiprocessor.block_0",
     [] { return cudaOccupancyMaxActiveBlocksPerMultiprocessor(&out_int, K, 0, 0); }},
    {"cudaOccupancyMaxActiveBlocksPerMultiprocessor.block_2048",
     [] { return cudaOccupancyMaxActiveBlocksPerMultiprocessor(&out_int, K, 2048, 0); }},
    {"cudaOccupancyMaxActiveBlocksPerMultiprocessor.shared_1MB",
     [] { return cudaOccupancyMaxActiveBlocksPerMultiprocessor(&out_int, K, 32, SHARED_1MB); }},
    {"cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags.unknown_flags",
     [] {
         return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&out_int, K, 32, 0, 0x10);
     }},
    {"cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags.null_out",
     [] { return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(NULL, K, 32, 0, 0); }},
    {"cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags.not_a_kernel",
     [] {
         return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&out_int, NOT_A_KERNEL, 32,
                                                                       0, 0);
     }},
    {"cudaOccupancyAvailableDynamicSMemPerBlock.null_out",
     [] { return cudaOccupancyAvailableDynamicSMemPerBlock(NULL, K, 1, 32); }},
    {"cudaOccupancyAvailableDynamicSMemPerBlock.not_a_kernel",
     [] { return cudaOccupancyAvailableDynamicSMemPerBlock(&out_size, NOT_A_KERNEL, 1, 32); }},
    {"cudaOccupancyAvailableDynamicSMemPerBlock.block_2048",
     [] { return cudaOccupancyAvailableDynamicSMemPerBlock(&out_size, K, 1, 2048); }},
    {"cudaOccupancyAvailableDynamicSMemPerBlock.blocks_1M",
     [] { return cudaOccupancyAvailableDynamicSMemPerBlock(&out_size, K, 1 << 20, 32); }},
    {"cudaOccupancyMaxPotentialClusterSize.null_out",
     [] {
         cudaLaunchConfig_t c = config_of(G1, B32, 0);
         return cudaOccupancyMaxPotentialClusterSize(NULL, K, &c);
     }},
    {"cudaOccupancyMaxPotentialClusterSize.null_config",
     [] { return cudaOccupancyMaxPotentialClusterSize(&out_int, K, NULL); }},
    {"cudaOccupancyMaxPotentialClusterSize.not_a_kernel",
     [] {
         cudaLaunchConfig_t c = config_of(G1, B32, 0);
         return cudaOccupancyMaxPotentialClusterSize(&out_int, NOT_A_KERNEL, &c);
     }},
    {"cudaOccupancyMaxPotentialClusterSize.block_2048",
     [] {
         cudaLaunchConfig_t c = config_of(G1, dim3(2048), 0);
         return cudaOccupancyMaxPotentialClusterSize(&out_int, K, &c);
     }},
    {"cudaOccupancyMaxActiveClusters.null_out",
     [] {
         cudaLaunchConfig_t c = cluster_config(dim3(2), 2);
         return cudaOccupancyMaxActiveClusters(NULL, K, &c);
     }},
    {"cudaOccupancyMaxActiveClusters.null_config",
     [] { return cudaOccupancyMaxActiveClusters(&out_int, K, NULL); }},
    {"cudaOccupancyMaxActiveClusters.not_a_kernel",
     [] {
         cudaLaunchConfig_t c = cluster_config(dim3(2), 2);
         return cudaOccupancyMaxActiveClusters(&out_int, NOT_A_KERNEL, &c);
     }},
    {"cudaOccupancyMaxActiveClusters.cluster_64",
     [] {
         cudaLaunchConfig_t c = cluster_config(dim3(64), 64);
         return cudaOccupancyMaxActiveClusters(&out_int, K, &c);
     }},

    // ---- registration: what nvcc's constructors call, with handles that name no module ----
    {"__cudaRegisterFatBinaryEnd.null_module",
     [] { __cudaRegisterFatBinaryEnd(&null_slot); return MISUSE_VOID; }},
    {"__cudaInitModule.null_module",
     [] {
         misuse_note("returned_%d", (int)__cudaInitModule(&null_slot));
         return MISUSE_VOID;
     }},
    {"__cudaRegisterFunction.null_module",
     [] {
         __cudaRegisterFunction(&null_slot, (const char *)misuse_not_a_kernel,
                                (char *)"no_such_kernel", "no_such_kernel", -1, NULL, NULL, NULL,
                                NULL, NULL);
         return MISUSE_VOID;
     }},
    {"__cudaRegisterVar.null_module",
     [] {
         __cudaRegisterVar(&null_slot, (char *)&out_int, (char *)"no_such_var", "no_such_var", 0,
                           sizeof out_int, 0, 0);
         return MISUSE_VOID;
     }},
    {"__cudaRegisterManagedVar.null_module",
     [] {
         static void *slot;
         __cudaRegisterManagedVar(&null_slot, &slot, (char *)"no_such_var", "no_such_var", 0,
                                  sizeof(int), 0, 0);
         return MISUSE_VOID;
     }},
    {"__cudaUnregisterFatBinary.null_module",
     [] { __cudaUnregisterFatBinary(&null_slot); return MISUSE_VOID; }},
    // Last: whatever a runtime keeps of a bad wrapper stays registered until exit.
    {"__cudaRegisterFatBinary.bad_magic",
     [] {
         void **h = __cudaRegisterFatBinary(bad_wrapper);
         misuse_note("handle_%s", h ? "returned" : "null");
         if (h)
             __cudaUnregisterFatBinary(h);
         return MISUSE_VOID;
     }},
};

int main(int argc, char **argv)
{
    int rc = misuse_main("conf_misuse_launch", argc, argv, setup, cases, MISUSE_COUNT(cases));
    cudaDeviceSynchronize();
    return rc;
}
