// device.cu - device queries: cudaGetDeviceProperties (a 1008-byte struct in 13.0) and
// cudaDeviceGetAttribute must agree with each other and between the two runtimes.
#include "gpu_check.h"

int main(void)
{
    gpu_require("device");
    int count = 0, dev = -1;
    CHECK(cudaGetDeviceCount(&count));
    CHECK(cudaSetDevice(0));
    CHECK(cudaGetDevice(&dev));
    printf("device count %d, current %d, sizeof(cudaDeviceProp) %zu\n", count, dev,
           sizeof(cudaDeviceProp));

    cudaDeviceProp p;
    CHECK(cudaGetDeviceProperties(&p, 0));
    printf("name %s\n", p.name);
    printf("cc %d.%d, SMs %d, warp %d, maxThreadsPerBlock %d, totalGlobalMem %zu\n", p.major,
           p.minor, p.multiProcessorCount, p.warpSize, p.maxThreadsPerBlock, p.totalGlobalMem);
    printf("sharedMemPerBlock %zu, sharedMemPerBlockOptin %zu, regsPerBlock %d, l2 %d\n",
           p.sharedMemPerBlock, p.sharedMemPerBlockOptin, p.regsPerBlock, p.l2CacheSize);
    printf("maxGrid %d %d %d, maxBlock %d %d %d, pciBus %d, managed %d, concurrentManaged %d\n",
           p.maxGridSize[0], p.maxGridSize[1], p.maxGridSize[2], p.maxThreadsDim[0],
           p.maxThreadsDim[1], p.maxThreadsDim[2], p.pciBusID, p.managedMemory,
           p.concurrentManagedAccess);

    static const struct {
        cudaDeviceAttr attr;
        const char *name;
    } attrs[] = {
        {cudaDevAttrComputeCapabilityMajor, "ComputeCapabilityMajor"},
        {cudaDevAttrComputeCapabilityMinor, "ComputeCapabilityMinor"},
        {cudaDevAttrMultiProcessorCount, "MultiProcessorCount"},
        {cudaDevAttrMaxThreadsPerBlock, "MaxThreadsPerBlock"},
        {cudaDevAttrWarpSize, "WarpSize"},
        {cudaDevAttrMaxSharedMemoryPerBlockOptin, "MaxSharedMemoryPerBlockOptin"},
        {cudaDevAttrConcurrentManagedAccess, "ConcurrentManagedAccess"},
    };
    int ok = count >= 1 && dev == 0;
    for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++) {
        int v = -1;
        CHECK(cudaDeviceGetAttribute(&v, attrs[i].attr, 0));
        printf("attribute %s = %d\n", attrs[i].name, v);
    }
    int v = -1;
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, 0));
    ok &= v == p.multiProcessorCount;
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrComputeCapabilityMajor, 0));
    ok &= v == p.major;
    cudaError_t e = cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, count);
    printf("attribute of device %d -> " ERR_FMT "\n", count, ERR_ARGS(e));
    printf("cudaGetLastError -> " ERR_FMT "\n", ERR_ARGS(cudaGetLastError()));
    printf("device: %s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
