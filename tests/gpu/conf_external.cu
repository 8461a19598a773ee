// conf_external.cu - external memory and semaphores: memory the driver exports as a POSIX fd
// (cuMemCreate with CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, cuMemExportToShareableHandle)
// imported with cudaImportExternalMemory(OpaqueFd), mapped as a buffer and as a mipmapped array;
// a kernel writes the buffer and the original mapping (cuMemMap) reads it.  Semaphores: the
// driver alone cannot export one, so only the codes of imports this machine cannot serve
// (invalid fds, NvSci, D3D, Win32 and keyed-mutex types on Linux), of signals, waits and graph
// nodes without a semaphore, and cudaDeviceGetNvSciSyncAttributes.  Codes and checks only, each
// call followed by the last error; never pointers.  Lines must match under both runtimes.
// gpu-libs: -lcuda
#include <cuda.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "gpu_check.h"

__global__ void pattern(int *p, int n, int base)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = base + i * 3;
}

static int failures;

// Prints a call's code and the last error after it; when `want` is not -1 the code must match.
static void probe(const char *what, cudaError_t got, int want)
{
    cudaError_t last = cudaGetLastError();
    printf("%-60s -> " ERR_FMT ", last " ERR_FMT "\n", what, ERR_ARGS(got), ERR_ARGS(last));
    if (want >= 0 && (int)got != want) {
        printf("  expected %d\n", want);
        failures++;
    }
}

static void check(const char *what, bool ok)
{
    printf("check %-54s : %s\n", what, ok ? "ok" : "FAIL");
    if (!ok)
        failures++;
}

static void driver_probe(const char *what, CUresult r)
{
    const char *name = NULL;
    cuGetErrorName(r, &name);
    printf("driver %-53s -> %d %s\n", what, (int)r, name ? name : "?");
}

static cudaExternalMemoryHandleDesc memory_desc(cudaExternalMemoryHandleType type, int fd,
                                                unsigned long long size)
{
    cudaExternalMemoryHandleDesc d;
    memset(&d, 0, sizeof d);
    d.type = type;
    d.handle.fd = fd;
    d.size = size;
    return d;
}

static cudaExternalSemaphoreHandleDesc semaphore_desc(cudaExternalSemaphoreHandleType type, int fd)
{
    cudaExternalSemaphoreHandleDesc d;
    memset(&d, 0, sizeof d);
    d.type = type;
    d.handle.fd = fd;
    return d;
}

// The invalid imports of memory: each must fail (a success would leak; it is destroyed).
static void memory_import_errors(int fd_of_nothing)
{
    cudaExternalMemory_t mem = NULL;
    cudaExternalMemoryHandleDesc d = memory_desc(cudaExternalMemoryHandleTypeOpaqueFd, -1, 1 << 21);
    probe("import memory: NULL out", cudaImportExternalMemory(NULL, &d), -1);
    probe("import memory: NULL desc", cudaImportExternalMemory(&mem, NULL), -1);
    probe("import memory: OpaqueFd fd -1", cudaImportExternalMemory(&mem, &d), -1);
    d = memory_desc(cudaExternalMemoryHandleTypeOpaqueFd, fd_of_nothing, 1 << 21);
    cudaError_t e = cudaImportExternalMemory(&mem, &d);
    probe("import memory: OpaqueFd of a memfd", e, -1);
    if (e == cudaSuccess)
        cudaDestroyExternalMemory(mem);
    d = memory_desc((cudaExternalMemoryHandleType)0, -1, 1 << 21);
    probe("import memory: type 0", cudaImportExternalMemory(&mem, &d), -1);
    d = memory_desc((cudaExternalMemoryHandleType)99, -1, 1 << 21);
    probe("import memory: type 99", cudaImportExternalMemory(&mem, &d), -1);
    static const struct { cudaExternalMemoryHandleType type; const char *name; } others[] = {
        {cudaExternalMemoryHandleTypeOpaqueWin32, "import memory: OpaqueWin32 NULL handle"},
        {cudaExternalMemoryHandleTypeOpaqueWin32Kmt, "import memory: OpaqueWin32Kmt NULL handle"},
        {cudaExternalMemoryHandleTypeD3D12Heap, "import memory: D3D12Heap NULL handle"},
        {cudaExternalMemoryHandleTypeD3D12Resource, "import memory: D3D12Resource NULL handle"},
        {cudaExternalMemoryHandleTypeD3D11Resource, "import memory: D3D11Resource NULL handle"},
        {cudaExternalMemoryHandleTypeD3D11ResourceKmt, "import memory: D3D11ResourceKmt NULL"},
        {cudaExternalMemoryHandleTypeNvSciBuf, "import memory: NvSciBuf NULL object"},
    };
    for (const auto &o : others) {
        memset(&d, 0, sizeof d);
        d.type = o.type;
        d.size = 1 << 21;
        e = cudaImportExternalMemory(&mem, &d);
        probe(o.name, e, -1);
        if (e == cudaSuccess)
            cudaDestroyExternalMemory(mem);
    }
}

static void semaphore_errors(int fd_of_nothing)
{
    cudaExternalSemaphore_t sem = NULL;
    cudaExternalSemaphoreHandleDesc d = semaphore_desc(cudaExternalSemaphoreHandleTypeOpaqueFd, -1);
    probe("import semaphore: NULL out", cudaImportExternalSemaphore(NULL, &d), -1);
    probe("import semaphore: NULL desc", cudaImportExternalSemaphore(&sem, NULL), -1);
    probe("import semaphore: OpaqueFd fd -1", cudaImportExternalSemaphore(&sem, &d), -1);
    d = semaphore_desc(cudaExternalSemaphoreHandleTypeOpaqueFd, fd_of_nothing);
    cudaError_t e = cudaImportExternalSemaphore(&sem, &d);
    probe("import semaphore: OpaqueFd of a memfd", e, -1);
    if (e == cudaSuccess)
        cudaDestroyExternalSemaphore(sem);
    d = semaphore_desc(cudaExternalSemaphoreHandleTypeTimelineSemaphoreFd, -1);
    probe("import semaphore: TimelineSemaphoreFd fd -1", cudaImportExternalSemaphore(&sem, &d), -1);
    d = semaphore_desc((cudaExternalSemaphoreHandleType)0, -1);
    probe("import semaphore: type 0", cudaImportExternalSemaphore(&sem, &d), -1);
    d = semaphore_desc((cudaExternalSemaphoreHandleType)99, -1);
    probe("import semaphore: type 99", cudaImportExternalSemaphore(&sem, &d), -1);
    static const struct { cudaExternalSemaphoreHandleType type; const char *name; } others[] = {
        {cudaExternalSemaphoreHandleTypeOpaqueWin32, "import semaphore: OpaqueWin32 NULL"},
        {cudaExternalSemaphoreHandleTypeOpaqueWin32Kmt, "import semaphore: OpaqueWin32Kmt NULL"},
        {cudaExternalSemaphoreHandleTypeD3D12Fence, "import semaphore: D3D12Fence NULL"},
        {cudaExternalSemaphoreHandleTypeD3D11Fence, "import semaphore: D3D11Fence NULL"},
        {cudaExternalSemaphoreHandleTypeNvSciSync, "import semaphore: NvSciSync NULL object"},
        {cudaExternalSemaphoreHandleTypeKeyedMutex, "import semaphore: KeyedMutex NULL"},
        {cudaExternalSemaphoreHandleTypeKeyedMutexKmt, "import semaphore: KeyedMutexKmt NULL"},
        {cudaExternalSemaphoreHandleTypeTimelineSemaphoreWin32,
         "import semaphore: TimelineSemaphoreWin32 NULL"},
    };
    for (const auto &o : others) {
        memset(&d, 0, sizeof d);
        d.type = o.type;
        e = cudaImportExternalSemaphore(&sem, &d);
        probe(o.name, e, -1);
        if (e == cudaSuccess)
            cudaDestroyExternalSemaphore(sem);
    }

    // Signals, waits and nodes with no semaphore.
    cudaStream_t s = NULL;
    CHECK(cudaStreamCreate(&s));
    cudaExternalSemaphoreSignalParams sp;
    memset(&sp, 0, sizeof sp);
    cudaExternalSemaphoreWaitParams wp;
    memset(&wp, 0, sizeof wp);
    probe("signal: count 0", cudaSignalExternalSemaphoresAsync(NULL, NULL, 0, s), -1);
    probe("wait: count 0", cudaWaitExternalSemaphoresAsync(NULL, NULL, 0, s), -1);
    probe("signal: count 0 on the legacy stream",
          cudaSignalExternalSemaphoresAsync(NULL, NULL, 0, cudaStreamLegacy), -1);
    probe("signal: NULL arrays, count 1", cudaSignalExternalSemaphoresAsync(NULL, NULL, 1, s), -1);
    cudaExternalSemaphore_t none = NULL;
    probe("wait: NULL params, count 1", cudaWaitExternalSemaphoresAsync(&none, NULL, 1, s), -1);
    CHECK(cudaStreamSynchronize(s));

    cudaGraph_t graph = NULL;
    CHECK(cudaGraphCreate(&graph, 0));
    cudaGraphNode_t node = NULL;
    cudaExternalSemaphoreSignalNodeParams signal = {NULL, NULL, 0};
    probe("signal node: count 0",
          cudaGraphAddExternalSemaphoresSignalNode(&node, graph, NULL, 0, &signal), -1);
    cudaExternalSemaphoreWaitNodeParams wait = {NULL, NULL, 0};
    probe("wait node: count 0",
          cudaGraphAddExternalSemaphoresWaitNode(&node, graph, NULL, 0, &wait), -1);
    probe("signal node: NULL params",
          cudaGraphAddExternalSemaphoresSignalNode(&node, graph, NULL, 0, NULL), -1);
    cudaGraphNodeParams p = {};
    p.type = cudaGraphNodeTypeExtSemaphoreSignal;
    probe("generic signal node: count 0", cudaGraphAddNode(&node, graph, NULL, NULL, 0, &p), -1);
    cudaGraphNode_t empty = NULL;
    CHECK(cudaGraphAddEmptyNode(&empty, graph, NULL, 0));
    cudaExternalSemaphoreSignalNodeParams got;
    probe("signal node get params: an empty node",
          cudaGraphExternalSemaphoresSignalNodeGetParams(empty, &got), -1);
    probe("wait node set params: an empty node",
          cudaGraphExternalSemaphoresWaitNodeSetParams(empty, &wait), -1);
    size_t count = 0;
    CHECK(cudaGraphGetNodes(graph, NULL, &count));
    printf("graph nodes after the semaphore node attempts: %zu\n", count);
    CHECK(cudaGraphDestroy(graph));
    CHECK(cudaStreamDestroy(s));

    char list[256];
    probe("cudaDeviceGetNvSciSyncAttributes(signal)",
          cudaDeviceGetNvSciSyncAttributes(list, 0, cudaNvSciSyncAttrSignal), -1);
    probe("cudaDeviceGetNvSciSyncAttributes(wait)",
          cudaDeviceGetNvSciSyncAttributes(list, 0, cudaNvSciSyncAttrWait), -1);
    probe("cudaDeviceGetNvSciSyncAttributes(device 99)",
          cudaDeviceGetNvSciSyncAttributes(list, 99, cudaNvSciSyncAttrWait), -1);
}

int main(void)
{
    gpu_require("conf_external");
    CHECK(cudaSetDevice(0));
    CHECK(cudaFree(0));          // the primary context, current: the driver calls below use it
    int fd_of_nothing = memfd_create("not-exported", MFD_CLOEXEC);
    if (fd_of_nothing < 0 || ftruncate(fd_of_nothing, 1 << 22) != 0) {
        printf("FAIL memfd_create\n");
        return 1;
    }

    // ---- memory exported by the driver -----------------------------------------------------
    CUdevice dev = 0;
    cuDeviceGet(&dev, 0);
    int fd_supported = 0;
    cuDeviceGetAttribute(&fd_supported, CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED,
                         dev);
    printf("device supports POSIX fd handles: %d\n", fd_supported);
    CUmemAllocationProp prop;
    memset(&prop, 0, sizeof prop);
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = 0;
    prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    size_t size = 0;
    driver_probe("cuMemGetAllocationGranularity",
                 cuMemGetAllocationGranularity(&size, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
    size *= 2;                   // two granules: a buffer at an offset fits
    CUmemGenericAllocationHandle handle = 0;
    CUresult r = cuMemCreate(&handle, size, &prop, 0);
    driver_probe("cuMemCreate(POSIX fd requested)", r);
    int fd = -1;
    if (r == CUDA_SUCCESS)
        driver_probe("cuMemExportToShareableHandle",
                     r = cuMemExportToShareableHandle(&fd, handle,
                                                      CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
    CUdeviceptr va = 0;
    if (r == CUDA_SUCCESS) {
        CUmemAccessDesc access;
        memset(&access, 0, sizeof access);
        access.location = prop.location;
        access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
        driver_probe("cuMemAddressReserve", r = cuMemAddressReserve(&va, size, 0, 0, 0));
        if (r == CUDA_SUCCESS)
            driver_probe("cuMemMap", r = cuMemMap(va, size, 0, handle, 0));
        if (r == CUDA_SUCCESS)
            driver_probe("cuMemSetAccess", r = cuMemSetAccess(va, size, &access, 1));
    }
    if (r != CUDA_SUCCESS || fd < 0) {
        printf("no exported memory: the import checks are skipped\n");
    } else {
        cudaExternalMemory_t mem = NULL;
        cudaExternalMemoryHandleDesc d =
            memory_desc(cudaExternalMemoryHandleTypeOpaqueFd, fd, size);
        cudaError_t e = cudaImportExternalMemory(&mem, &d);
        probe("import memory: OpaqueFd of the exported allocation", e, cudaSuccess);
        if (e == cudaSuccess) {
            // The buffer at offset `size / 2`: a kernel writes it, the original mapping reads.
            const int n = 4096;
            cudaExternalMemoryBufferDesc b;
            memset(&b, 0, sizeof b);
            b.offset = size / 2;
            b.size = n * sizeof(int);
            int *buf = NULL;
            probe("map buffer: offset size/2, 16 KiB",
                  cudaExternalMemoryGetMappedBuffer((void **)&buf, mem, &b), cudaSuccess);
            if (buf) {
                pattern<<<(n + 255) / 256, 256>>>(buf, n, 11);
                CHECK(cudaDeviceSynchronize());
                static int host[4096];
                driver_probe("cuMemcpyDtoH from the original mapping",
                             cuMemcpyDtoH(host, va + size / 2, n * sizeof(int)));
                bool same = true;
                for (int i = 0; i < n; i++)
                    same = same && host[i] == 11 + i * 3;
                check("kernel write through the buffer seen through cuMemMap", same);
                // And the other way: a set through the original mapping, read from the buffer.
                CHECK(cudaMemset((void *)(uintptr_t)(va + size / 2), 0x01, 64));
                CHECK(cudaMemcpy(host, buf, 64, cudaMemcpyDeviceToHost));
                check("set through cuMemMap seen through the buffer", host[0] == 0x01010101);
                probe("cudaFree(mapped buffer)", cudaFree(buf), cudaSuccess);
            }
            b.offset = size;
            b.size = 4096;
            probe("map buffer: offset at the end", cudaExternalMemoryGetMappedBuffer((void **)&buf,
                                                                                     mem, &b), -1);
            b.offset = 0;
            b.size = 0;
            probe("map buffer: size 0", cudaExternalMemoryGetMappedBuffer((void **)&buf, mem, &b),
                  -1);
            b.size = size + 4096;
            probe("map buffer: larger than the memory",
                  cudaExternalMemoryGetMappedBuffer((void **)&buf, mem, &b), -1);
            b.size = 4096;
            b.flags = 1;
            probe("map buffer: flags 1", cudaExternalMemoryGetMappedBuffer((void **)&buf, mem, &b),
                  -1);
            probe("map buffer: NULL desc", cudaExternalMemoryGetMappedBuffer((void **)&buf, mem,
                                                                              NULL), -1);

            // A mipmapped array over the memory: written and read back through the runtime.
            cudaExternalMemoryMipmappedArrayDesc md;
            memset(&md, 0, sizeof md);
            md.formatDesc = cudaCreateChannelDesc<float>();
            md.extent = make_cudaExtent(64, 64, 0);
            md.numLevels = 1;
            cudaMipmappedArray_t mm = NULL;
            e = cudaExternalMemoryGetMappedMipmappedArray(&mm, mem, &md);
            probe("map mipmapped array: float 64x64, 1 level", e, -1);
            if (e == cudaSuccess) {
                cudaArray_t level = NULL;
                probe("cudaGetMipmappedArrayLevel(0)", cudaGetMipmappedArrayLevel(&level, mm, 0),
                      cudaSuccess);
                cudaChannelFormatDesc cd;
                cudaExtent ext;
                unsigned flags = 0;
                probe("cudaArrayGetInfo(level 0)", cudaArrayGetInfo(&cd, &ext, &flags, level),
                      cudaSuccess);
                printf("level 0: x %d f %d extent %zux%zux%zu flags 0x%x\n", cd.x, (int)cd.f,
                       ext.width, ext.height, ext.depth, flags);
                static float in[64 * 64], out[64 * 64];
                for (int i = 0; i < 64 * 64; i++)
                    in[i] = (float)i * 0.5f;
                CHECK(cudaMemcpy2DToArray(level, 0, 0, in, 64 * sizeof(float), 64 * sizeof(float),
                                          64, cudaMemcpyHostToDevice));
                CHECK(cudaMemcpy2DFromArray(out, 64 * sizeof(float), level, 0, 0,
                                            64 * sizeof(float), 64, cudaMemcpyDeviceToHost));
                check("mipmapped array level 0 round trip", memcmp(in, out, sizeof in) == 0);
                probe("cudaFreeMipmappedArray(mapped)", cudaFreeMipmappedArray(mm), cudaSuccess);
            }
            md.numLevels = 2;
            e = cudaExternalMemoryGetMappedMipmappedArray(&mm, mem, &md);
            probe("map mipmapped array: 2 levels", e, -1);
            if (e == cudaSuccess)
                cudaFreeMipmappedArray(mm);
            md.numLevels = 1;
            md.formatDesc = cudaCreateChannelDesc(8, 16, 0, 0, cudaChannelFormatKindUnsigned);
            probe("map mipmapped array: bad channel descriptor",
                  cudaExternalMemoryGetMappedMipmappedArray(&mm, mem, &md), -1);
            md.formatDesc = cudaCreateChannelDesc<float4>();
            md.extent = make_cudaExtent(4096, 4096, 0);
            probe("map mipmapped array: larger than the memory",
                  cudaExternalMemoryGetMappedMipmappedArray(&mm, mem, &md), -1);
            probe("cudaDestroyExternalMemory", cudaDestroyExternalMemory(mem), cudaSuccess);
        } else {
            close(fd);
        }
    }
    if (va) {
        cuMemUnmap(va, size);
        cuMemAddressFree(va, size);
    }
    if (handle)
        cuMemRelease(handle);

    memory_import_errors(fd_of_nothing);
    semaphore_errors(fd_of_nothing);
    close(fd_of_nothing);
    CHECK(cudaDeviceSynchronize());
    printf("conf_external: %s\n", failures ? "FAIL" : "PASS");
    return failures ? 1 : 0;
}
