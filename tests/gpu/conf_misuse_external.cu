// conf_misuse_external.cu - invalid inputs to external memory and semaphores and to the graph
// nodes that signal and wait on semaphores, one case each (the runner and the line format:
// misuse.h).  Nothing here exports memory or a semaphore with another API, so the handles are
// NULL, or what an import of a memfd gave (the fake driver of the CI tests imports one; a real
// driver refuses it, and then the handle stays NULL): either way the same on both runtimes of a
// machine.
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "misuse.h"

// The per-thread-default-stream variants; the toolkit declares them only in such builds.
extern "C" {
cudaError_t CUDARTAPI cudaSignalExternalSemaphoresAsync_ptsz(
    const cudaExternalSemaphore_t *extSemArray,
    const struct cudaExternalSemaphoreSignalParams *paramsArray, unsigned int numExtSems,
    cudaStream_t stream);
cudaError_t CUDARTAPI cudaWaitExternalSemaphoresAsync_ptsz(
    const cudaExternalSemaphore_t *extSemArray,
    const struct cudaExternalSemaphoreWaitParams *paramsArray, unsigned int numExtSems,
    cudaStream_t stream);
}

#define BYTES (1 << 21)

static cudaStream_t s;
static cudaGraph_t graph;             // fixtures: made at every start
static cudaGraphNode_t empty;
static cudaGraphExec_t exec;
static cudaExternalMemory_t mem;      // what a case imported, destroyed by its cleanup
static cudaExternalSemaphore_t sem;
static cudaExternalSemaphore_t no_sem[2];
static cudaExternalSemaphoreSignalParams sp[2];
static cudaExternalSemaphoreWaitParams wp[2];
static cudaGraphNode_t out_node;
static void *out_ptr;
static cudaMipmappedArray_t out_mipmap;
static char nvsci_list[256];

static void setup(void)
{
    CHECK(cudaFree(NULL));
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaGraphCreate(&graph, 0));
    CHECK(cudaGraphAddEmptyNode(&empty, graph, NULL, 0));
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
}

// A memfd of BYTES bytes, or -1.
static int memfd(void)
{
    int fd = memfd_create("misuse-external", MFD_CLOEXEC);
    if (fd >= 0 && ftruncate(fd, BYTES) != 0) {
        close(fd);
        fd = -1;
    }
    return fd;
}

static cudaExternalMemoryHandleDesc memory_desc(int type, int fd, unsigned long long size)
{
    cudaExternalMemoryHandleDesc d;
    memset(&d, 0, sizeof d);
    d.type = (cudaExternalMemoryHandleType)type;
    d.handle.fd = fd;
    d.size = size;
    return d;
}

static cudaExternalSemaphoreHandleDesc semaphore_desc(int type, int fd)
{
    cudaExternalSemaphoreHandleDesc d;
    memset(&d, 0, sizeof d);
    d.type = (cudaExternalSemaphoreHandleType)type;
    d.handle.fd = fd;
    return d;
}

// Imports a memfd as OpaqueFd memory (the call under test when `desc_size` is what a case
// varies); the fd is the driver's after a success, closed here after a failure.
static cudaError_t import_memfd(unsigned long long size, unsigned flags)
{
    int fd = memfd();
    cudaExternalMemoryHandleDesc d = memory_desc(cudaExternalMemoryHandleTypeOpaqueFd, fd, size);
    d.flags = flags;
    cudaError_t e = cudaImportExternalMemory(&mem, &d);
    if (e != cudaSuccess) {
        mem = NULL;
        if (fd >= 0)
            close(fd);
    }
    return e;
}

// mem imported from a memfd (a real driver refuses: then NULL), the last error cleared.
static void memfd_memory(void)
{
    if (import_memfd(BYTES, 0) != cudaSuccess)
        misuse_note("memfd_import_refused");
    misuse_clear();
}

static void destroy_memory(void)
{
    if (out_ptr)
        (void)cudaFree(out_ptr);
    out_ptr = NULL;
    if (out_mipmap)
        (void)cudaFreeMipmappedArray(out_mipmap);
    out_mipmap = NULL;
    if (mem)
        (void)cudaDestroyExternalMemory(mem);
    mem = NULL;
}

static cudaError_t import_semaphore(int type, int fd)
{
    cudaExternalSemaphoreHandleDesc d = semaphore_desc(type, fd);
    cudaError_t e = cudaImportExternalSemaphore(&sem, &d);
    if (e != cudaSuccess)
        sem = NULL;
    return e;
}

// A semaphore imported from a memfd (refused by a real driver: NULL then).
static void memfd_semaphore(void)
{
    int fd = memfd();
    if (import_semaphore(cudaExternalSemaphoreHandleTypeOpaqueFd, fd) != cudaSuccess) {
        misuse_note("memfd_semaphore_refused");
        if (fd >= 0)
            close(fd);
    }
    misuse_clear();
}

static void destroy_semaphore(void)
{
    if (sem)
        (void)cudaDestroyExternalSemaphore(sem);
    sem = NULL;
}

static cudaError_t map_buffer(unsigned long long offset, unsigned long long size, unsigned flags)
{
    memfd_memory();
    cudaExternalMemoryBufferDesc b;
    memset(&b, 0, sizeof b);
    b.offset = offset;
    b.size = size;
    b.flags = flags;
    cudaError_t e = cudaExternalMemoryGetMappedBuffer(&out_ptr, mem, &b);
    if (e != cudaSuccess)
        out_ptr = NULL;
    return e;
}

static cudaError_t map_mipmap(cudaChannelFormatDesc format, size_t w, size_t h, unsigned levels)
{
    memfd_memory();
    cudaExternalMemoryMipmappedArrayDesc d;
    memset(&d, 0, sizeof d);
    d.formatDesc = format;
    d.extent = make_cudaExtent(w, h, 0);
    d.numLevels = levels;
    cudaError_t e = cudaExternalMemoryGetMappedMipmappedArray(&out_mipmap, mem, &d);
    if (e != cudaSuccess)
        out_mipmap = NULL;
    return e;
}

static void remove_out_node(void)
{
    if (out_node)
        (void)cudaGraphDestroyNode(out_node);
    out_node = NULL;
}

static cudaError_t add_signal_node(cudaExternalSemaphore_t *sems, bool with_params, unsigned n)
{
    cudaExternalSemaphoreSignalNodeParams p = {sems, with_params ? sp : NULL, n};
    cudaError_t e = cudaGraphAddExternalSemaphoresSignalNode(&out_node, graph, NULL, 0, &p);
    if (e != cudaSuccess)
        out_node = NULL;
    return e;
}

static cudaError_t add_wait_node(cudaExternalSemaphore_t *sems, bool with_params, unsigned n)
{
    cudaExternalSemaphoreWaitNodeParams p = {sems, with_params ? wp : NULL, n};
    cudaError_t e = cudaGraphAddExternalSemaphoresWaitNode(&out_node, graph, NULL, 0, &p);
    if (e != cudaSuccess)
        out_node = NULL;
    return e;
}

static cudaError_t add_generic(cudaGraphNodeType type, bool with_arrays, unsigned n)
{
    cudaGraphNodeParams p = {};
    p.type = type;
    p.extSemSignal.extSemArray = with_arrays ? no_sem : NULL;
    p.extSemSignal.paramsArray = with_arrays ? sp : NULL;
    p.extSemSignal.numExtSems = n;
    cudaError_t e = cudaGraphAddNode(&out_node, graph, NULL, NULL, 0, &p);
    if (e != cudaSuccess)
        out_node = NULL;
    return e;
}

static const misuse_case cases[] = {
    // ---- importing memory ----
    {"cudaImportExternalMemory.null_out",
     [] { cudaExternalMemoryHandleDesc d = memory_desc(1, -1, BYTES);
          return cudaImportExternalMemory(NULL, &d); }},
    {"cudaImportExternalMemory.null_desc", [] { return cudaImportExternalMemory(&mem, NULL); }},
    {"cudaImportExternalMemory.fd_minus_1",
     [] { cudaExternalMemoryHandleDesc d = memory_desc(1, -1, BYTES);
          return cudaImportExternalMemory(&mem, &d); }, destroy_memory},
    {"cudaImportExternalMemory.memfd", [] { return import_memfd(BYTES, 0); }, destroy_memory},
    {"cudaImportExternalMemory.memfd_dedicated",
     [] { return import_memfd(BYTES, cudaExternalMemoryDedicated); }, destroy_memory},
    {"cudaImportExternalMemory.size_0", [] { return import_memfd(0, 0); }, destroy_memory},
    {"cudaImportExternalMemory.size_past_the_fd",
     [] { return import_memfd(2ull * BYTES, 0); }, destroy_memory},
    {"cudaImportExternalMemory.flags_2", [] { return import_memfd(BYTES, 2); }, destroy_memory},
    {"cudaImportExternalMemory.type_0",
     [] { cudaExternalMemoryHandleDesc d = memory_desc(0, -1, BYTES);
          return cudaImportExternalMemory(&mem, &d); }, destroy_memory},
    {"cudaImportExternalMemory.type_99",
     [] { cudaExternalMemoryHandleDesc d = memory_desc(99, -1, BYTES);
          return cudaImportExternalMemory(&mem, &d); }, destroy_memory},
    {"cudaImportExternalMemory.win32_null_handle",
     [] { cudaExternalMemoryHandleDesc d = memory_desc(2, 0, BYTES);
          return cudaImportExternalMemory(&mem, &d); }, destroy_memory},
    {"cudaImportExternalMemory.d3d12_heap_null_handle",
     [] { cudaExternalMemoryHandleDesc d = memory_desc(4, 0, BYTES);
          return cudaImportExternalMemory(&mem, &d); }, destroy_memory},
    {"cudaImportExternalMemory.nvscibuf_null_object",
     [] { cudaExternalMemoryHandleDesc d = memory_desc(8, 0, BYTES);
          return cudaImportExternalMemory(&mem, &d); }, destroy_memory},
    {"cudaImportExternalMemory.reserved_nonzero",
     [] { int fd = memfd();
          cudaExternalMemoryHandleDesc d = memory_desc(1, fd, BYTES);
          d.reserved[0] = 1;
          cudaError_t e = cudaImportExternalMemory(&mem, &d);
          if (e != cudaSuccess) { mem = NULL; if (fd >= 0) close(fd); }
          return e; }, destroy_memory},

    // ---- mapping ----
    {"cudaExternalMemoryGetMappedBuffer.null_memory",
     [] { cudaExternalMemoryBufferDesc b = {};
          b.size = 4096;
          return cudaExternalMemoryGetMappedBuffer(&out_ptr, NULL, &b); }},
    {"cudaExternalMemoryGetMappedBuffer.null_out",
     [] { memfd_memory();
          cudaExternalMemoryBufferDesc b = {};
          b.size = 4096;
          return cudaExternalMemoryGetMappedBuffer(NULL, mem, &b); }, destroy_memory},
    {"cudaExternalMemoryGetMappedBuffer.null_desc",
     [] { memfd_memory(); return cudaExternalMemoryGetMappedBuffer(&out_ptr, mem, NULL); },
     destroy_memory},
    {"cudaExternalMemoryGetMappedBuffer.whole", [] { return map_buffer(0, BYTES, 0); },
     destroy_memory},
    {"cudaExternalMemoryGetMappedBuffer.size_0", [] { return map_buffer(0, 0, 0); },
     destroy_memory},
    {"cudaExternalMemoryGetMappedBuffer.offset_at_end", [] { return map_buffer(BYTES, 4096, 0); },
     destroy_memory},
    {"cudaExternalMemoryGetMappedBuffer.runs_past_end",
     [] { return map_buffer(BYTES - 4096, 8192, 0); }, destroy_memory},
    {"cudaExternalMemoryGetMappedBuffer.flags_1", [] { return map_buffer(0, 4096, 1); },
     destroy_memory},
    {"cudaExternalMemoryGetMappedBuffer.destroyed_memory",
     [] { memfd_memory();
          if (mem)
              (void)cudaDestroyExternalMemory(mem);
          misuse_clear();
          cudaExternalMemoryBufferDesc b = {};
          b.size = 4096;
          cudaError_t e = cudaExternalMemoryGetMappedBuffer(&out_ptr, mem, &b);
          mem = NULL;
          if (e != cudaSuccess)
              out_ptr = NULL;
          return e; }, destroy_memory},
    {"cudaExternalMemoryGetMappedMipmappedArray.null_memory",
     [] { cudaExternalMemoryMipmappedArrayDesc d = {};
          d.formatDesc = cudaCreateChannelDesc<float>();
          d.extent = make_cudaExtent(16, 16, 0);
          d.numLevels = 1;
          return cudaExternalMemoryGetMappedMipmappedArray(&out_mipmap, NULL, &d); }},
    {"cudaExternalMemoryGetMappedMipmappedArray.null_desc",
     [] { memfd_memory();
          return cudaExternalMemoryGetMappedMipmappedArray(&out_mipmap, mem, NULL); },
     destroy_memory},
    {"cudaExternalMemoryGetMappedMipmappedArray.null_out",
     [] { memfd_memory();
          cudaExternalMemoryMipmappedArrayDesc d = {};
          d.formatDesc = cudaCreateChannelDesc<float>();
          d.extent = make_cudaExtent(16, 16, 0);
          d.numLevels = 1;
          return cudaExternalMemoryGetMappedMipmappedArray(NULL, mem, &d); }, destroy_memory},
    {"cudaExternalMemoryGetMappedMipmappedArray.float_16x16",
     [] { return map_mipmap(cudaCreateChannelDesc<float>(), 16, 16, 1); }, destroy_memory},
    {"cudaExternalMemoryGetMappedMipmappedArray.levels_0",
     [] { return map_mipmap(cudaCreateChannelDesc<float>(), 16, 16, 0); }, destroy_memory},
    {"cudaExternalMemoryGetMappedMipmappedArray.bad_channel_desc",
     [] { return map_mipmap(cudaCreateChannelDesc(8, 16, 0, 0, cudaChannelFormatKindUnsigned),
                            16, 16, 1); }, destroy_memory},
    {"cudaExternalMemoryGetMappedMipmappedArray.larger_than_memory",
     [] { return map_mipmap(cudaCreateChannelDesc<float4>(), 4096, 4096, 1); }, destroy_memory},
    {"cudaDestroyExternalMemory.null", [] { return cudaDestroyExternalMemory(NULL); }},
    {"cudaDestroyExternalMemory.twice",
     [] { memfd_memory();
          if (mem)
              (void)cudaDestroyExternalMemory(mem);
          misuse_clear();
          cudaError_t e = cudaDestroyExternalMemory(mem);
          mem = NULL;
          return e; }},

    // ---- semaphores ----
    {"cudaImportExternalSemaphore.null_out",
     [] { cudaExternalSemaphoreHandleDesc d = semaphore_desc(1, -1);
          return cudaImportExternalSemaphore(NULL, &d); }},
    {"cudaImportExternalSemaphore.null_desc",
     [] { return cudaImportExternalSemaphore(&sem, NULL); }, destroy_semaphore},
    {"cudaImportExternalSemaphore.fd_minus_1", [] { return import_semaphore(1, -1); },
     destroy_semaphore},
    {"cudaImportExternalSemaphore.timeline_fd_minus_1", [] { return import_semaphore(9, -1); },
     destroy_semaphore},
    {"cudaImportExternalSemaphore.type_0", [] { return import_semaphore(0, -1); },
     destroy_semaphore},
    {"cudaImportExternalSemaphore.type_99", [] { return import_semaphore(99, -1); },
     destroy_semaphore},
    {"cudaImportExternalSemaphore.nvscisync_null_object", [] { return import_semaphore(6, 0); },
     destroy_semaphore},
    {"cudaImportExternalSemaphore.d3d12_fence_null_handle", [] { return import_semaphore(4, 0); },
     destroy_semaphore},
    {"cudaImportExternalSemaphore.keyed_mutex_null_handle", [] { return import_semaphore(7, 0); },
     destroy_semaphore},
    {"cudaImportExternalSemaphore.flags_1",
     [] { int fd = memfd();
          cudaExternalSemaphoreHandleDesc d = semaphore_desc(1, fd);
          d.flags = 1;
          cudaError_t e = cudaImportExternalSemaphore(&sem, &d);
          if (e != cudaSuccess) { sem = NULL; if (fd >= 0) close(fd); }
          return e; }, destroy_semaphore},
    {"cudaSignalExternalSemaphoresAsync.count_0",
     [] { return cudaSignalExternalSemaphoresAsync(NULL, NULL, 0, s); }},
    {"cudaSignalExternalSemaphoresAsync.null_arrays",
     [] { return cudaSignalExternalSemaphoresAsync(NULL, NULL, 1, s); }},
    {"cudaSignalExternalSemaphoresAsync.null_params",
     [] { return cudaSignalExternalSemaphoresAsync(no_sem, NULL, 1, s); }},
    {"cudaSignalExternalSemaphoresAsync.null_semaphore",
     [] { return cudaSignalExternalSemaphoresAsync(no_sem, sp, 1, s); }},
    {"cudaSignalExternalSemaphoresAsync.memfd_semaphore",
     [] { memfd_semaphore();
          return cudaSignalExternalSemaphoresAsync(&sem, sp, sem ? 1 : 0, s); },
     destroy_semaphore},
    {"cudaSignalExternalSemaphoresAsync.flags_0x80",
     [] { memfd_semaphore();
          sp[0].flags = 0x80;
          cudaError_t e = cudaSignalExternalSemaphoresAsync(&sem, sp, 1, s);
          sp[0].flags = 0;
          return e; }, destroy_semaphore},
    {"cudaSignalExternalSemaphoresAsync_ptsz.count_0",
     [] { return cudaSignalExternalSemaphoresAsync_ptsz(NULL, NULL, 0, 0); }},
    {"cudaWaitExternalSemaphoresAsync.count_0",
     [] { return cudaWaitExternalSemaphoresAsync(NULL, NULL, 0, s); }},
    {"cudaWaitExternalSemaphoresAsync.null_arrays",
     [] { return cudaWaitExternalSemaphoresAsync(NULL, NULL, 1, s); }},
    {"cudaWaitExternalSemaphoresAsync.null_semaphore",
     [] { return cudaWaitExternalSemaphoresAsync(no_sem, wp, 2, s); }},
    {"cudaWaitExternalSemaphoresAsync_ptsz.null_semaphore",
     [] { return cudaWaitExternalSemaphoresAsync_ptsz(no_sem, wp, 1, 0); }},
    {"cudaDestroyExternalSemaphore.null", [] { return cudaDestroyExternalSemaphore(NULL); }},
    {"cudaDestroyExternalSemaphore.twice",
     [] { memfd_semaphore();
          if (sem)
              (void)cudaDestroyExternalSemaphore(sem);
          misuse_clear();
          cudaError_t e = cudaDestroyExternalSemaphore(sem);
          sem = NULL;
          return e; }},
    {"cudaDeviceGetNvSciSyncAttributes.signal",
     [] { return cudaDeviceGetNvSciSyncAttributes(nvsci_list, 0, cudaNvSciSyncAttrSignal); }},
    {"cudaDeviceGetNvSciSyncAttributes.null_list",
     [] { return cudaDeviceGetNvSciSyncAttributes(NULL, 0, cudaNvSciSyncAttrSignal); }},
    {"cudaDeviceGetNvSciSyncAttributes.device_minus_1",
     [] { return cudaDeviceGetNvSciSyncAttributes(nvsci_list, -1, cudaNvSciSyncAttrSignal); }},
    {"cudaDeviceGetNvSciSyncAttributes.device_1000",
     [] { return cudaDeviceGetNvSciSyncAttributes(nvsci_list, 1000, cudaNvSciSyncAttrSignal); }},
    {"cudaDeviceGetNvSciSyncAttributes.flags_0",
     [] { return cudaDeviceGetNvSciSyncAttributes(nvsci_list, 0, 0); }},
    {"cudaDeviceGetNvSciSyncAttributes.flags_4",
     [] { return cudaDeviceGetNvSciSyncAttributes(nvsci_list, 0, 4); }},

    // ---- graph nodes ----
    {"cudaGraphAddExternalSemaphoresSignalNode.null_node",
     [] { cudaExternalSemaphoreSignalNodeParams p = {NULL, NULL, 0};
          return cudaGraphAddExternalSemaphoresSignalNode(NULL, graph, NULL, 0, &p); }},
    {"cudaGraphAddExternalSemaphoresSignalNode.null_params",
     [] { return cudaGraphAddExternalSemaphoresSignalNode(&out_node, graph, NULL, 0, NULL); },
     remove_out_node},
    {"cudaGraphAddExternalSemaphoresSignalNode.count_0",
     [] { return add_signal_node(NULL, false, 0); }, remove_out_node},
    {"cudaGraphAddExternalSemaphoresSignalNode.null_arrays",
     [] { return add_signal_node(NULL, false, 1); }, remove_out_node},
    {"cudaGraphAddExternalSemaphoresSignalNode.null_semaphore",
     [] { return add_signal_node(no_sem, true, 1); }, remove_out_node},
    {"cudaGraphAddExternalSemaphoresSignalNode.null_graph",
     [] { cudaExternalSemaphoreSignalNodeParams p = {no_sem, sp, 1};
          cudaError_t e = cudaGraphAddExternalSemaphoresSignalNode(&out_node, NULL, NULL, 0, &p);
          out_node = NULL;
          return e; }},
    {"cudaGraphAddExternalSemaphoresWaitNode.count_0",
     [] { return add_wait_node(NULL, false, 0); }, remove_out_node},
    {"cudaGraphAddExternalSemaphoresWaitNode.null_arrays",
     [] { return add_wait_node(NULL, false, 2); }, remove_out_node},
    {"cudaGraphAddExternalSemaphoresWaitNode.null_semaphore",
     [] { return add_wait_node(no_sem, true, 2); }, remove_out_node},
    {"cudaGraphAddNode.ext_semaphore_signal_count_0",
     [] { return add_generic(cudaGraphNodeTypeExtSemaphoreSignal, false, 0); }, remove_out_node},
    {"cudaGraphAddNode.ext_semaphore_wait_null_arrays",
     [] { return add_generic(cudaGraphNodeTypeExtSemaphoreWait, false, 1); }, remove_out_node},
    {"cudaGraphAddNode.ext_semaphore_signal_null_semaphore",
     [] { return add_generic(cudaGraphNodeTypeExtSemaphoreSignal, true, 1); }, remove_out_node},
    {"cudaGraphExternalSemaphoresSignalNodeGetParams.empty_node",
     [] { cudaExternalSemaphoreSignalNodeParams p;
          return cudaGraphExternalSemaphoresSignalNodeGetParams(empty, &p); }},
    {"cudaGraphExternalSemaphoresSignalNodeGetParams.null_out",
     [] { return cudaGraphExternalSemaphoresSignalNodeGetParams(empty, NULL); }},
    {"cudaGraphExternalSemaphoresWaitNodeGetParams.empty_node",
     [] { cudaExternalSemaphoreWaitNodeParams p;
          return cudaGraphExternalSemaphoresWaitNodeGetParams(empty, &p); }},
    {"cudaGraphExternalSemaphoresSignalNodeSetParams.empty_node",
     [] { cudaExternalSemaphoreSignalNodeParams p = {NULL, NULL, 0};
          return cudaGraphExternalSemaphoresSignalNodeSetParams(empty, &p); }},
    {"cudaGraphExternalSemaphoresWaitNodeSetParams.null_params",
     [] { return cudaGraphExternalSemaphoresWaitNodeSetParams(empty, NULL); }},
    {"cudaGraphExecExternalSemaphoresSignalNodeSetParams.empty_node",
     [] { cudaExternalSemaphoreSignalNodeParams p = {NULL, NULL, 0};
          return cudaGraphExecExternalSemaphoresSignalNodeSetParams(exec, empty, &p); }},
    {"cudaGraphExecExternalSemaphoresSignalNodeSetParams.null_exec",
     [] { cudaExternalSemaphoreSignalNodeParams p = {NULL, NULL, 0};
          return cudaGraphExecExternalSemaphoresSignalNodeSetParams(NULL, empty, &p); }},
    {"cudaGraphExecExternalSemaphoresWaitNodeSetParams.null_params",
     [] { return cudaGraphExecExternalSemaphoresWaitNodeSetParams(exec, empty, NULL); }},
    {"cudaGraphExecExternalSemaphoresWaitNodeSetParams.empty_node",
     [] { cudaExternalSemaphoreWaitNodeParams p = {NULL, NULL, 0};
          return cudaGraphExecExternalSemaphoresWaitNodeSetParams(exec, empty, &p); }},
};

int main(int argc, char **argv)
{
    int rc = misuse_main("conf_misuse_external", argc, argv, setup, cases, MISUSE_COUNT(cases));
    cudaDeviceSynchronize();
    return rc;
}
