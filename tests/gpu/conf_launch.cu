// conf_launch.cu - function attributes, occupancy, cooperative and extended launches, driver
// entry points: the same program under NVIDIA's runtime and minicudart, compared line by line.
// Prints only what the driver and the binary decide (attributes of this cubin, occupancy of this
// GPU, error codes), never pointers or names of the device.
#include <cooperative_groups.h>

#include "gpu_check.h"

// cudaGetDriverEntryPoint is deprecated, and still part of the API under test.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

namespace cg = cooperative_groups;

static int ok = 1;

static void probe(const char *what, cudaError_t e)
{
    cudaError_t last = cudaGetLastError();
    printf("%-58s -> " ERR_FMT ", last " ERR_FMT "\n", what, ERR_ARGS(e), ERR_ARGS(last));
}

static void expect(const char *what, bool good)
{
    printf("%-58s %s\n", what, good ? "ok" : "WRONG");
    ok &= good;
}

__global__ void k_small(int *out, int value)
{
    out[blockIdx.x * blockDim.x + threadIdx.x] = value;
}

__global__ void k_dyn(int *out, int n)
{
    extern __shared__ int buffer[];
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        buffer[i] = i;
    __syncthreads();
    int sum = 0;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        sum += buffer[n - 1 - i];
    atomicAdd(out, sum);
}

__global__ void k_coop(const int *data, int *partial, int *result, int n)
{
    cg::grid_group grid = cg::this_grid();
    __shared__ int block_sum;
    if (threadIdx.x == 0)
        block_sum = 0;
    __syncthreads();
    int sum = 0;
    for (int i = (int)grid.thread_rank(); i < n; i += (int)grid.size())
        sum += data[i];
    atomicAdd(&block_sum, sum);
    __syncthreads();
    if (threadIdx.x == 0)
        partial[blockIdx.x] = block_sum;
    grid.sync();
    if (grid.thread_rank() == 0) {
        int total = 0;
        for (unsigned b = 0; b < gridDim.x; b++)
            total += partial[b];
        *result = total;
    }
}

__global__ void k_local(float *out)
{
    float scratch[64];
    for (int i = 0; i < 64; i++)
        scratch[i] = out[(i * 7) % 64];
    out[threadIdx.x % 64] = scratch[(threadIdx.x * 13) % 64];
}

static void never_registered(void) {}

static void attributes(const char *name, const void *func)
{
    cudaFuncAttributes a;
    CHECK(cudaFuncGetAttributes(&a, func));
    printf("%s: maxThreadsPerBlock %d numRegs %d shared %zu const %zu local %zu ptx %d binary %d "
           "maxDynamicShared %d\n", name, a.maxThreadsPerBlock, a.numRegs, a.sharedSizeBytes,
           a.constSizeBytes, a.localSizeBytes, a.ptxVersion, a.binaryVersion,
           a.maxDynamicSharedSizeBytes);
}

int main(void)
{
    gpu_require("conf_launch");
    int sms = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));

    // Attributes of this binary's kernels.
    attributes("k_small", (const void *)k_small);
    attributes("k_dyn", (const void *)k_dyn);
    attributes("k_coop", (const void *)k_coop);
    attributes("k_local", (const void *)k_local);
    cudaFuncAttributes a;
    probe("cudaFuncGetAttributes(never registered)",
          cudaFuncGetAttributes(&a, (const void *)never_registered));
    probe("cudaFuncSetAttribute(k_small, attribute 99)",
          cudaFuncSetAttribute((const void *)k_small, (cudaFuncAttribute)99, 1));
    const char *name = NULL;
    CHECK(cudaFuncGetName(&name, (const void *)k_small));
    printf("cudaFuncGetName(k_small) %s\n", name);
    for (size_t i = 0; i < 5; i++) {
        size_t offset = 0, size = 0;
        cudaError_t e = cudaFuncGetParamInfo((const void *)k_coop, i, &offset, &size);
        if (e != cudaSuccess) {
            probe("cudaFuncGetParamInfo(k_coop, past the end)", e);
            break;
        }
        printf("k_coop param %zu: offset %zu size %zu\n", i, offset, size);
    }
    cudaKernel_t handle = NULL;
    CHECK(cudaGetKernel(&handle, (const void *)k_small));
    CHECK(cudaFuncGetAttributes(&a, (const void *)handle));
    printf("cudaGetKernel handle: maxThreadsPerBlock %d\n", a.maxThreadsPerBlock);

    // Dynamic shared memory above 48 KB needs the attribute.
    const int dyn_ints = 100 * 1024 / 4;
    int *d_sum = NULL;
    CHECK(cudaMalloc(&d_sum, sizeof(int)));
    CHECK(cudaMemset(d_sum, 0, sizeof(int)));
    k_dyn<<<1, 256, dyn_ints * 4>>>(d_sum, dyn_ints);
    probe("k_dyn with 100 KB, no attribute", cudaGetLastError());
    probe("cudaFuncSetAttribute(MaxDynamicSharedMemorySize, 100 KB)",
          cudaFuncSetAttribute((const void *)k_dyn, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               dyn_ints * 4));
    k_dyn<<<1, 256, dyn_ints * 4>>>(d_sum, dyn_ints);
    probe("k_dyn with 100 KB after the attribute", cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    int sum = 0;
    CHECK(cudaMemcpy(&sum, d_sum, sizeof sum, cudaMemcpyDeviceToHost));
    expect("k_dyn sum", sum == dyn_ints * (dyn_ints - 1) / 2);
    CHECK(cudaFuncGetAttributes(&a, (const void *)k_dyn));
    printf("k_dyn maxDynamicSharedSizeBytes after set %d\n", a.maxDynamicSharedSizeBytes);
    probe("cudaFuncSetCacheConfig(k_small, PreferL1)",
          cudaFuncSetCacheConfig((const void *)k_small, cudaFuncCachePreferL1));

    // Occupancy.
    const int sizes[] = {32, 128, 256, 512, 1024};
    for (int s : sizes) {
        int blocks = -1;
        CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, (const void *)k_small, s, 0));
        printf("occupancy k_small block %d: %d blocks per SM\n", s, blocks);
    }
    int blocks = -1;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
        &blocks, (const void *)k_dyn, 256, dyn_ints * 4, cudaOccupancyDisableCachingOverride));
    printf("occupancy k_dyn block 256 with 100 KB: %d\n", blocks);
    size_t avail = 0;
    CHECK(cudaOccupancyAvailableDynamicSMemPerBlock(&avail, (const void *)k_dyn, 2, 256));
    printf("available dynamic shared memory, 2 blocks of 256: %zu\n", avail);
    probe("cudaOccupancyMaxActiveBlocksPerMultiprocessor(flags 2)",
          cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&blocks, (const void *)k_small,
                                                                 32, 0, 2));

    // Cooperative launch with grid.sync().
    const int n = 1 << 20;
    int *h = (int *)malloc(n * sizeof(int));
    long long want = 0;
    for (int i = 0; i < n; i++) {
        h[i] = i % 1000;
        want += h[i];
    }
    int per_sm = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, (const void *)k_coop, 256, 0));
    int *d_data = NULL, *d_partial = NULL, *d_result = NULL;
    CHECK(cudaMalloc(&d_data, n * sizeof(int)));
    CHECK(cudaMalloc(&d_partial, (size_t)(per_sm * sms + 1) * sizeof(int)));
    CHECK(cudaMalloc(&d_result, sizeof(int)));
    CHECK(cudaMemcpy(d_data, h, n * sizeof(int), cudaMemcpyHostToDevice));
    int nn = n;
    void *coop_args[] = {&d_data, &d_partial, &d_result, &nn};
    probe("cudaLaunchCooperativeKernel(one block per SM)",
          cudaLaunchCooperativeKernel((const void *)k_coop, dim3(sms), dim3(256), coop_args, 0,
                                      0));
    CHECK(cudaDeviceSynchronize());
    int got = 0;
    CHECK(cudaMemcpy(&got, d_result, sizeof got, cudaMemcpyDeviceToHost));
    expect("cooperative sum", got == (int)want);
    probe("cudaLaunchCooperativeKernel(too large)",
          cudaLaunchCooperativeKernel((const void *)k_coop, dim3(per_sm * sms + 1), dim3(256),
                                      coop_args, 0, 0));
    probe("cudaLaunchCooperativeKernel(never registered)",
          cudaLaunchCooperativeKernel((const void *)never_registered, dim3(1), dim3(1),
                                      coop_args, 0, 0));

    // cudaLaunchKernelExC: cluster dimensions, cooperative and priority attributes.
    int *d_out = NULL;
    CHECK(cudaMalloc(&d_out, 8 * 128 * sizeof(int)));
    CHECK(cudaMemset(d_out, 0, 8 * 128 * sizeof(int)));
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = 2;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(8);
    config.blockDim = dim3(128);
    config.attrs = attr;
    config.numAttrs = 1;
    int value = 5;
    void *small_args[] = {&d_out, &value};
    probe("cudaLaunchKernelExC(cluster 2x1x1)",
          cudaLaunchKernelExC(&config, (const void *)k_small, small_args));
    CHECK(cudaDeviceSynchronize());
    int h_out[8 * 128];
    CHECK(cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost));
    bool all = true;
    for (int i = 0; i < 8 * 128; i++)
        all &= h_out[i] == 5;
    expect("cluster launch result", all);
    int cluster_size = 0;
    CHECK(cudaOccupancyMaxPotentialClusterSize(&cluster_size, (const void *)k_small, &config));
    printf("max potential cluster size (k_small, 128 threads) %d\n", cluster_size);
    config.gridDim = dim3(7);
    probe("cudaLaunchKernelExC(cluster 2 on a grid of 7)",
          cudaLaunchKernelExC(&config, (const void *)k_small, small_args));
    attr[0].id = cudaLaunchAttributePriority;
    attr[0].val.priority = 0;
    config.gridDim = dim3(8);
    value = 9;
    probe("cudaLaunchKernelExC(priority 0)",
          cudaLaunchKernelExC(&config, (const void *)k_small, small_args));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost));
    all = true;
    for (int i = 0; i < 8 * 128; i++)
        all &= h_out[i] == 9;
    expect("priority launch result", all);
    attr[0].id = cudaLaunchAttributeCooperative;
    attr[0].val.cooperative = 1;
    config.gridDim = dim3(per_sm * sms + 1);
    config.blockDim = dim3(256);
    probe("cudaLaunchKernelExC(cooperative, too large)",
          cudaLaunchKernelExC(&config, (const void *)k_coop, coop_args));
    config.gridDim = dim3(sms);
    CHECK(cudaMemset(d_result, 0, sizeof(int)));
    probe("cudaLaunchKernelExC(cooperative, one block per SM)",
          cudaLaunchKernelExC(&config, (const void *)k_coop, coop_args));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(&got, d_result, sizeof got, cudaMemcpyDeviceToHost));
    expect("cooperative sum through cudaLaunchKernelExC", got == (int)want);

    // Driver entry points.
    void *fn = NULL;
    cudaDriverEntryPointQueryResult status = cudaDriverEntryPointSymbolNotFound;
    probe("cudaGetDriverEntryPointByVersion(cuDriverGetVersion)",
          cudaGetDriverEntryPointByVersion("cuDriverGetVersion", &fn, 13000, cudaEnableDefault,
                                           &status));
    printf("status %d, function found %s\n", (int)status, fn ? "yes" : "no");
    int via_entry = -1, via_runtime = -2;
    if (fn)
        ((int (*)(int *))fn)(&via_entry);
    CHECK(cudaDriverGetVersion(&via_runtime));
    expect("driver version through the entry point equal", via_entry == via_runtime);
    fn = NULL;
    probe("cudaGetDriverEntryPoint(cuMemAlloc)",
          cudaGetDriverEntryPoint("cuMemAlloc", &fn, cudaEnableDefault, &status));
    printf("status %d, function found %s\n", (int)status, fn ? "yes" : "no");
    fn = &fn;
    probe("cudaGetDriverEntryPoint(cuNoSuchFunction)",
          cudaGetDriverEntryPoint("cuNoSuchFunction", &fn, cudaEnableDefault, &status));
    printf("status %d, function NULL %s\n", (int)status, fn ? "no" : "yes");

    CHECK(cudaFree(d_sum));
    CHECK(cudaFree(d_data));
    CHECK(cudaFree(d_partial));
    CHECK(cudaFree(d_result));
    CHECK(cudaFree(d_out));
    free(h);
    printf("conf_launch: %s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
