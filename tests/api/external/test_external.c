/* test_external.c - imported memory and semaphores (lib/interop/external.c) and the graph nodes that
 * signal and wait on semaphores (lib/graph/graph_extsem.c), over the fake driver
 * (tests/fake/interop/fake_external.c): a memfd stands for the exporting API's memory.  What reaches the
 * driver (the fake's call log), what comes back, the trace, and every error path asserted on both
 * the returned code and the thread's last error. */
#define _GNU_SOURCE
#include "e2e.h"

#include <cuda.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "minicudart.h"

cudaError_t cudaSignalExternalSemaphoresAsync_ptsz(const cudaExternalSemaphore_t *extSemArray,
                                                   const struct cudaExternalSemaphoreSignalParams *paramsArray,
                                                   unsigned int numExtSems, cudaStream_t stream);
cudaError_t cudaWaitExternalSemaphoresAsync_ptsz(const cudaExternalSemaphore_t *extSemArray,
                                                 const struct cudaExternalSemaphoreWaitParams *paramsArray,
                                                 unsigned int numExtSems, cudaStream_t stream);

#define BYTES 65536

/* ---- helpers -------------------------------------------------------------------------------- */

static void *fake_symbol(const char *name)
{
    void *lib = dlopen(getenv("MINICUDART_DRIVER"), RTLD_NOW | RTLD_NOLOAD);
    assert_non_null(lib);
    void *sym = dlsym(lib, name);
    assert_non_null(sym);
    return sym;
}

static void live_external(size_t *memories, size_t *semaphores)
{
    typedef void (*fn)(size_t *, size_t *);
    ((fn)fake_symbol("fake_external_live"))(memories, semaphores);
}

typedef struct sem_state {
    unsigned long long value, waited;
    unsigned signals, waits;
} sem_state;

static sem_state semaphore_state(cudaExternalSemaphore_t s)
{
    typedef int (*fn)(uintptr_t, unsigned long long *, unsigned long long *, unsigned *,
                      unsigned *);
    sem_state st = { 0, 0, 0, 0 };
    assert_int_equal(((fn)fake_symbol("fake_extsem_state"))((uintptr_t)s, &st.value, &st.waited,
                                                              &st.signals, &st.waits), 0);
    return st;
}

static const char *last_call_args(const char *name)
{
    for (size_t i = fk.fake_call_count(); i-- > 0;) {
        const fake_call *c = fk.fake_call_at(i);
        if (strcmp(c->name, name) == 0)
            return c->args;
    }
    return NULL;
}

#define assert_last_call_has(name, part)                                                    \
    do {                                                                                    \
        const char *args_ = last_call_args(name);                                           \
        if (!args_ || !strstr(args_, (part)))                                               \
            fail_msg("%s: wanted \"%s\" in \"%s\"", (name), (part), args_ ? args_ : "(none)"); \
    } while (0)

/* A memfd of BYTES bytes whose byte i is (i * 7) & 0xff: the "exported" memory. */
static int memfd_with_pattern(void)
{
    int fd = memfd_create("external", MFD_CLOEXEC);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, BYTES), 0);
    unsigned char *p = mmap(NULL, BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    assert_true(p != MAP_FAILED);
    for (size_t i = 0; i < BYTES; i++)
        p[i] = (unsigned char)(i * 7);
    munmap(p, BYTES);
    return fd;
}

static int fd_is_open(int fd)
{
    return fcntl(fd, F_GETFD) != -1;
}

static struct cudaExternalMemoryHandleDesc memory_desc(int fd, unsigned long long size)
{
    struct cudaExternalMemoryHandleDesc d;
    memset(&d, 0, sizeof d);
    d.type = cudaExternalMemoryHandleTypeOpaqueFd;
    d.handle.fd = fd;
    d.size = size;
    return d;
}

static cudaExternalMemory_t import_memfd(int *fd_out)
{
    int fd = memfd_with_pattern();
    struct cudaExternalMemoryHandleDesc d = memory_desc(fd, BYTES);
    cudaExternalMemory_t mem = NULL;
    assert_cuda(cudaImportExternalMemory(&mem, &d), cudaSuccess);
    assert_non_null(mem);
    if (fd_out)
        *fd_out = fd;
    return mem;
}

static cudaExternalSemaphore_t import_semaphore(void)
{
    struct cudaExternalSemaphoreHandleDesc d;
    memset(&d, 0, sizeof d);
    d.type = cudaExternalSemaphoreHandleTypeOpaqueFd;
    d.handle.fd = memfd_create("semaphore", MFD_CLOEXEC);
    assert_true(d.handle.fd >= 0);
    cudaExternalSemaphore_t s = NULL;
    assert_cuda(cudaImportExternalSemaphore(&s, &d), cudaSuccess);
    assert_non_null(s);
    return s;
}

static struct cudaExternalSemaphoreSignalParams signal_value(unsigned long long v)
{
    struct cudaExternalSemaphoreSignalParams p;
    memset(&p, 0, sizeof p);
    p.params.fence.value = v;
    return p;
}

static struct cudaExternalSemaphoreWaitParams wait_value(unsigned long long v)
{
    struct cudaExternalSemaphoreWaitParams p;
    memset(&p, 0, sizeof p);
    p.params.fence.value = v;
    return p;
}

/* The trace, collected through minicudart_set_trace_hook. */
static char trace_text[16384];

static void collect_trace(const char *line, void *user)
{
    (void)user;
    size_t used = strlen(trace_text);
    snprintf(trace_text + used, sizeof trace_text - used, "%s\n", line);
}

/* ---- memory --------------------------------------------------------------------------------- */

static void imported_memfd_reads_and_writes_through_a_mapped_buffer(void **state)
{
    (void)state;
    int fd = memfd_with_pattern();
    struct cudaExternalMemoryHandleDesc d = memory_desc(fd, BYTES);
    d.flags = cudaExternalMemoryDedicated;
    cudaExternalMemory_t mem = NULL;
    assert_cuda(cudaImportExternalMemory(&mem, &d), cudaSuccess);
    char want[64];
    snprintf(want, sizeof want, "type=1 fd=%d size=65536 flags=0x1", fd);
    assert_last_call_has("cuImportExternalMemory", want);
    assert_false(fd_is_open(fd));              /* the import owns the fd now */

    struct cudaExternalMemoryBufferDesc b;
    memset(&b, 0, sizeof b);
    b.offset = 4096;
    b.size = 8192;
    void *buffer = NULL;
    assert_cuda(cudaExternalMemoryGetMappedBuffer(&buffer, mem, &b), cudaSuccess);
    assert_non_null(buffer);
    assert_last_call_has("cuExternalMemoryGetMappedBuffer", "offset=4096 size=8192 flags=0x0");

    unsigned char host[256];
    assert_cuda(cudaMemcpy(host, buffer, sizeof host, cudaMemcpyDeviceToHost), cudaSuccess);
    for (size_t i = 0; i < sizeof host; i++)
        assert_int_equal(host[i], (unsigned char)((4096 + i) * 7));
    /* A device-side write is seen by the exporter (the memfd): write, then read back through a
     * second buffer over the same bytes. */
    memset(host, 0xab, sizeof host);
    assert_cuda(cudaMemcpy(buffer, host, sizeof host, cudaMemcpyHostToDevice), cudaSuccess);
    b.offset = 0;
    b.size = BYTES;
    void *whole = NULL;
    assert_cuda(cudaExternalMemoryGetMappedBuffer(&whole, mem, &b), cudaSuccess);
    unsigned char back[4];
    assert_cuda(cudaMemcpy(back, (char *)whole + 4096, sizeof back, cudaMemcpyDeviceToHost),
                cudaSuccess);
    assert_int_equal(back[0], 0xab);
    assert_int_equal(back[3], 0xab);

    /* Destroying the object leaves the buffers to cudaFree. */
    assert_cuda(cudaDestroyExternalMemory(mem), cudaSuccess);
    assert_cuda(cudaFree(buffer), cudaSuccess);
    assert_cuda(cudaFree(whole), cudaSuccess);
    size_t memories = 1;
    live_external(&memories, NULL);
    assert_int_equal(memories, 0);
}

static void mipmapped_array_import_translates_the_descriptor(void **state)
{
    (void)state;
    cudaExternalMemory_t mem = import_memfd(NULL);
    struct cudaExternalMemoryMipmappedArrayDesc d;
    memset(&d, 0, sizeof d);
    d.offset = 0;
    d.formatDesc = cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindUnsigned);
    d.extent = (struct cudaExtent){ 64, 16, 0 };
    d.flags = cudaArraySurfaceLoadStore;
    d.numLevels = 2;
    cudaMipmappedArray_t mm = NULL;
    assert_cuda(cudaExternalMemoryGetMappedMipmappedArray(&mm, mem, &d), cudaSuccess);
    assert_non_null(mm);
    assert_last_call_has("cuExternalMemoryGetMappedMipmappedArray",
                         "offset=0 Width=64 Height=16 Depth=0 Format=0x1 NumChannels=1 Flags=0x2 "
                         "numLevels=2");
    /* The runtime's own kind of mipmapped array: its levels, its copies, its free. */
    cudaArray_t level = NULL;
    assert_cuda(cudaGetMipmappedArrayLevel(&level, mm, 0), cudaSuccess);
    unsigned char row[64];
    assert_cuda(cudaMemcpy2DFromArray(row, 64, level, 0, 1, 64, 1, cudaMemcpyDeviceToHost),
                cudaSuccess);
    for (size_t i = 0; i < 64; i++)
        assert_int_equal(row[i], (unsigned char)((64 + i) * 7));
    assert_cuda(cudaGetMipmappedArrayLevel(&level, mm, 2), cudaErrorInvalidValue);
    assert_cuda(cudaFreeMipmappedArray(mm), cudaSuccess);

    /* A channel descriptor the driver cannot represent never reaches it. */
    d.formatDesc = cudaCreateChannelDesc(8, 16, 0, 0, cudaChannelFormatKindUnsigned);
    fk.fake_reset_log();
    assert_cuda(cudaExternalMemoryGetMappedMipmappedArray(&mm, mem, &d),
                cudaErrorInvalidChannelDescriptor);
    assert_int_equal(fk.fake_count_calls("cuExternalMemoryGetMappedMipmappedArray"), 0);
    /* An array larger than the memory. */
    d.formatDesc = cudaCreateChannelDesc(32, 32, 32, 32, cudaChannelFormatKindFloat);
    d.extent = (struct cudaExtent){ 1024, 1024, 0 };
    d.numLevels = 1;
    assert_cuda(cudaExternalMemoryGetMappedMipmappedArray(&mm, mem, &d), cudaErrorInvalidValue);
    assert_cuda(cudaExternalMemoryGetMappedMipmappedArray(NULL, mem, &d), cudaErrorInvalidValue);
    assert_cuda(cudaExternalMemoryGetMappedMipmappedArray(&mm, mem, NULL), cudaErrorInvalidValue);
    assert_cuda(cudaDestroyExternalMemory(mem), cudaSuccess);
}

static void memory_error_paths(void **state)
{
    (void)state;
    int fd = memfd_with_pattern();
    struct cudaExternalMemoryHandleDesc d = memory_desc(fd, BYTES);
    cudaExternalMemory_t mem = NULL;
    assert_cuda(cudaImportExternalMemory(NULL, &d), cudaErrorInvalidValue);
    assert_cuda(cudaImportExternalMemory(&mem, NULL), cudaErrorInvalidValue);
    d.type = (enum cudaExternalMemoryHandleType)99;
    assert_cuda(cudaImportExternalMemory(&mem, &d), cudaErrorInvalidValue);
    d.type = cudaExternalMemoryHandleTypeOpaqueWin32;   /* not on this machine */
    assert_cuda(cudaImportExternalMemory(&mem, &d), cudaErrorNotSupported);
    d = memory_desc(fd, 0);
    assert_cuda(cudaImportExternalMemory(&mem, &d), cudaErrorInvalidValue);
    d = memory_desc(fd, 2 * BYTES);                    /* larger than what the fd holds */
    assert_cuda(cudaImportExternalMemory(&mem, &d), cudaErrorInvalidValue);
    d = memory_desc(-1, BYTES);
    assert_cuda(cudaImportExternalMemory(&mem, &d), cudaErrorInvalidValue);
    assert_true(fd_is_open(fd));                       /* a failed import leaves the fd */
    close(fd);

    /* The reserved words do not reach the driver (the fake refuses nonzero ones): NVIDIA's
     * runtime ignores them (measured). */
    struct cudaExternalMemoryHandleDesc r = memory_desc(memfd_with_pattern(), BYTES);
    r.reserved[0] = 1;
    assert_cuda(cudaImportExternalMemory(&mem, &r), cudaSuccess);
    assert_cuda(cudaDestroyExternalMemory(mem), cudaSuccess);

    mem = import_memfd(NULL);
    struct cudaExternalMemoryBufferDesc b;
    memset(&b, 0, sizeof b);
    b.size = 4096;
    void *p = NULL;
    assert_cuda(cudaExternalMemoryGetMappedBuffer(NULL, mem, &b), cudaErrorInvalidValue);
    assert_cuda(cudaExternalMemoryGetMappedBuffer(&p, mem, NULL), cudaErrorInvalidValue);
    /* A NULL memory is cudaErrorInvalidValue, as NVIDIA's runtime answers (measured). */
    assert_cuda(cudaExternalMemoryGetMappedBuffer(&p, NULL, &b), cudaErrorInvalidValue);
    b.size = 0;
    assert_cuda(cudaExternalMemoryGetMappedBuffer(&p, mem, &b), cudaErrorInvalidValue);
    b.size = 4096;
    b.offset = BYTES;                                  /* past the end */
    assert_cuda(cudaExternalMemoryGetMappedBuffer(&p, mem, &b), cudaErrorInvalidValue);
    b.offset = BYTES - 4096;
    b.size = 8192;                                     /* runs past the end */
    assert_cuda(cudaExternalMemoryGetMappedBuffer(&p, mem, &b), cudaErrorInvalidValue);
    b.offset = 0;
    b.size = 4096;
    b.flags = 1;
    assert_cuda(cudaExternalMemoryGetMappedBuffer(&p, mem, &b), cudaErrorInvalidValue);
    b.flags = 0;

    assert_cuda(cudaDestroyExternalMemory(mem), cudaSuccess);
    assert_cuda(cudaDestroyExternalMemory(mem), cudaErrorInvalidResourceHandle);
    assert_cuda(cudaExternalMemoryGetMappedBuffer(&p, mem, &b), cudaErrorInvalidResourceHandle);
    assert_cuda(cudaDestroyExternalMemory(NULL), cudaErrorInvalidValue);
    /* A driver failure comes back translated. */
    mem = import_memfd(NULL);
    fk.fake_fail_call("cuDestroyExternalMemory", 1, CUDA_ERROR_OUT_OF_MEMORY);
    assert_cuda(cudaDestroyExternalMemory(mem), cudaErrorMemoryAllocation);
    assert_cuda(cudaDestroyExternalMemory(mem), cudaSuccess);
}

/* ---- semaphores ----------------------------------------------------------------------------- */

static void semaphores_signal_and_wait_with_values(void **state)
{
    (void)state;
    cudaExternalSemaphore_t s[2] = { import_semaphore(), import_semaphore() };
    assert_last_call_has("cuImportExternalSemaphore", "type=1");
    cudaStream_t stream = NULL;
    assert_cuda(cudaStreamCreate(&stream), cudaSuccess);

    struct cudaExternalSemaphoreSignalParams sp[2] = { signal_value(5), signal_value(9) };
    assert_cuda(cudaSignalExternalSemaphoresAsync(s, sp, 2, stream), cudaSuccess);
    char want[64];
    snprintf(want, sizeof want, "count=2 stream=%p values=5,9", (void *)stream);
    assert_last_call_has("cuSignalExternalSemaphoresAsync", want);
    assert_int_equal(semaphore_state(s[0]).value, 5);
    assert_int_equal(semaphore_state(s[1]).value, 9);
    assert_int_equal(semaphore_state(s[1]).signals, 1);

    struct cudaExternalSemaphoreWaitParams wp = wait_value(9);
    assert_cuda(cudaWaitExternalSemaphoresAsync(&s[1], &wp, 1, stream), cudaSuccess);
    assert_int_equal(semaphore_state(s[1]).waits, 1);
    assert_int_equal(semaphore_state(s[1]).waited, 9);

    /* The _ptsz variants: stream 0 is this thread's per-thread stream (0x2). */
    sp[0] = signal_value(11);
    assert_cuda(cudaSignalExternalSemaphoresAsync_ptsz(s, sp, 1, 0), cudaSuccess);
    assert_last_call_has("cuSignalExternalSemaphoresAsync", "count=1 stream=0x2 values=11");
    wp = wait_value(11);
    assert_cuda(cudaWaitExternalSemaphoresAsync_ptsz(s, &wp, 1, 0), cudaSuccess);
    assert_last_call_has("cuWaitExternalSemaphoresAsync", "count=1 stream=0x2 values=11");
    assert_cuda(cudaSignalExternalSemaphoresAsync(s, sp, 1, 0), cudaSuccess);
    assert_last_call_has("cuSignalExternalSemaphoresAsync", "count=1 stream=(nil)");

    /* Errors. */
    assert_cuda(cudaSignalExternalSemaphoresAsync(NULL, sp, 1, stream), cudaErrorInvalidValue);
    assert_cuda(cudaSignalExternalSemaphoresAsync(s, NULL, 1, stream), cudaErrorInvalidValue);
    assert_cuda(cudaWaitExternalSemaphoresAsync(s, NULL, 1, stream), cudaErrorInvalidValue);
    cudaExternalSemaphore_t none[1] = { NULL };
    assert_cuda(cudaSignalExternalSemaphoresAsync(none, sp, 1, stream), cudaErrorInvalidValue);
    assert_cuda(cudaWaitExternalSemaphoresAsync(none, &wp, 1, stream), cudaErrorInvalidValue);
    sp[0].flags = 0x80;
    assert_cuda(cudaSignalExternalSemaphoresAsync(s, sp, 1, stream), cudaErrorInvalidValue);
    sp[0].flags = 0;

    assert_cuda(cudaDestroyExternalSemaphore(s[0]), cudaSuccess);
    assert_cuda(cudaSignalExternalSemaphoresAsync(s, sp, 1, stream),
                cudaErrorInvalidResourceHandle);
    assert_cuda(cudaDestroyExternalSemaphore(s[0]), cudaErrorInvalidResourceHandle);
    assert_cuda(cudaDestroyExternalSemaphore(NULL), cudaErrorInvalidValue);
    assert_cuda(cudaDestroyExternalSemaphore(s[1]), cudaSuccess);
    assert_cuda(cudaStreamDestroy(stream), cudaSuccess);
    size_t semaphores = 1;
    live_external(NULL, &semaphores);
    assert_int_equal(semaphores, 0);
}

static void semaphore_import_error_paths(void **state)
{
    (void)state;
    struct cudaExternalSemaphoreHandleDesc d;
    memset(&d, 0, sizeof d);
    d.type = cudaExternalSemaphoreHandleTypeOpaqueFd;
    d.handle.fd = -1;
    cudaExternalSemaphore_t s = NULL;
    assert_cuda(cudaImportExternalSemaphore(NULL, &d), cudaErrorInvalidValue);
    assert_cuda(cudaImportExternalSemaphore(&s, NULL), cudaErrorInvalidValue);
    assert_cuda(cudaImportExternalSemaphore(&s, &d), cudaErrorInvalidValue);
    d.type = (enum cudaExternalSemaphoreHandleType)0;
    assert_cuda(cudaImportExternalSemaphore(&s, &d), cudaErrorInvalidValue);
    d.type = cudaExternalSemaphoreHandleTypeNvSciSync;
    assert_cuda(cudaImportExternalSemaphore(&s, &d), cudaErrorNotSupported);
    d.type = cudaExternalSemaphoreHandleTypeD3D12Fence;
    assert_cuda(cudaImportExternalSemaphore(&s, &d), cudaErrorNotSupported);
}

static void nvscisync_attributes_are_not_supported_without_nvsci(void **state)
{
    (void)state;
    char list[64];
    assert_cuda(cudaDeviceGetNvSciSyncAttributes(list, 0, cudaNvSciSyncAttrSignal),
                cudaErrorNotSupported);
    assert_last_call_has("cuDeviceGetNvSciSyncAttributes", "dev=0 flags=1");
    assert_cuda(cudaDeviceGetNvSciSyncAttributes(list, 7, cudaNvSciSyncAttrWait),
                cudaErrorInvalidDevice);
    assert_cuda(cudaDeviceGetNvSciSyncAttributes(list, -1, cudaNvSciSyncAttrWait),
                cudaErrorInvalidDevice);
    assert_cuda(cudaDeviceGetNvSciSyncAttributes(NULL, 0, cudaNvSciSyncAttrWait),
                cudaErrorInvalidResourceHandle);
}

/* ---- graph nodes ---------------------------------------------------------------------------- */

static void launch_graph(cudaGraphExec_t exec)
{
    assert_cuda(cudaGraphLaunch(exec, 0), cudaSuccess);
    assert_cuda(cudaStreamSynchronize(0), cudaSuccess);
}

static void graph_nodes_add_get_set_and_exec_set(void **state)
{
    (void)state;
    cudaExternalSemaphore_t s[2] = { import_semaphore(), import_semaphore() };
    cudaGraph_t graph = NULL;
    assert_cuda(cudaGraphCreate(&graph, 0), cudaSuccess);

    struct cudaExternalSemaphoreSignalParams sp[2] = { signal_value(3), signal_value(4) };
    struct cudaExternalSemaphoreSignalNodeParams signal = { s, sp, 2 };
    cudaGraphNode_t sig = NULL;
    assert_cuda(cudaGraphAddExternalSemaphoresSignalNode(&sig, graph, NULL, 0, &signal),
                cudaSuccess);
    assert_last_call_has("cuGraphAddExternalSemaphoresSignalNode", "count=2 values=3,4");
    sp[0] = signal_value(100);                          /* the driver copied the arrays */

    struct cudaExternalSemaphoreWaitParams wp[1] = { wait_value(4) };
    struct cudaExternalSemaphoreWaitNodeParams wait = { &s[1], wp, 1 };
    cudaGraphNode_t wt = NULL;
    assert_cuda(cudaGraphAddExternalSemaphoresWaitNode(&wt, graph, &sig, 1, &wait), cudaSuccess);

    enum cudaGraphNodeType type;
    assert_cuda(cudaGraphNodeGetType(sig, &type), cudaSuccess);
    assert_int_equal(type, cudaGraphNodeTypeExtSemaphoreSignal);
    assert_cuda(cudaGraphNodeGetType(wt, &type), cudaSuccess);
    assert_int_equal(type, cudaGraphNodeTypeExtSemaphoreWait);
    size_t count = 0;
    assert_cuda(cudaGraphGetNodes(graph, NULL, &count), cudaSuccess);
    assert_int_equal(count, 2);

    struct cudaExternalSemaphoreSignalNodeParams got;
    memset(&got, 0, sizeof got);
    assert_cuda(cudaGraphExternalSemaphoresSignalNodeGetParams(sig, &got), cudaSuccess);
    assert_int_equal(got.numExtSems, 2);
    assert_ptr_equal(got.extSemArray[1], s[1]);
    assert_int_equal(got.paramsArray[0].params.fence.value, 3);
    assert_int_equal(got.paramsArray[1].params.fence.value, 4);
    struct cudaExternalSemaphoreWaitNodeParams got_wait;
    assert_cuda(cudaGraphExternalSemaphoresWaitNodeGetParams(wt, &got_wait), cudaSuccess);
    assert_int_equal(got_wait.numExtSems, 1);
    assert_int_equal(got_wait.paramsArray[0].params.fence.value, 4);
    /* The getter of the other kind refuses. */
    assert_cuda(cudaGraphExternalSemaphoresWaitNodeGetParams(sig, &got_wait),
                cudaErrorInvalidValue);

    sp[0] = signal_value(6);
    sp[1] = signal_value(7);
    assert_cuda(cudaGraphExternalSemaphoresSignalNodeSetParams(sig, &signal), cudaSuccess);
    wp[0] = wait_value(7);
    assert_cuda(cudaGraphExternalSemaphoresWaitNodeSetParams(wt, &wait), cudaSuccess);

    cudaGraphExec_t exec = NULL;
    assert_cuda(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
    launch_graph(exec);
    assert_int_equal(semaphore_state(s[0]).value, 6);
    assert_int_equal(semaphore_state(s[1]).value, 7);
    assert_int_equal(semaphore_state(s[1]).waited, 7);

    /* Edits of the executable graph change the next launch only. */
    sp[0] = signal_value(20);
    sp[1] = signal_value(21);
    assert_cuda(cudaGraphExecExternalSemaphoresSignalNodeSetParams(exec, sig, &signal),
                cudaSuccess);
    wp[0] = wait_value(21);
    assert_cuda(cudaGraphExecExternalSemaphoresWaitNodeSetParams(exec, wt, &wait), cudaSuccess);
    launch_graph(exec);
    assert_int_equal(semaphore_state(s[0]).value, 20);
    assert_int_equal(semaphore_state(s[1]).waited, 21);
    assert_cuda(cudaGraphExternalSemaphoresSignalNodeGetParams(sig, &got), cudaSuccess);
    assert_int_equal(got.paramsArray[0].params.fence.value, 6);
    /* The number of semaphores of an instantiated node cannot change. */
    signal.numExtSems = 1;
    assert_cuda(cudaGraphExecExternalSemaphoresSignalNodeSetParams(exec, sig, &signal),
                cudaErrorInvalidValue);
    signal.numExtSems = 2;

    /* Null parameters and arrays. */
    assert_cuda(cudaGraphAddExternalSemaphoresSignalNode(NULL, graph, NULL, 0, &signal),
                cudaErrorInvalidValue);
    assert_cuda(cudaGraphAddExternalSemaphoresSignalNode(&sig, graph, NULL, 0, NULL),
                cudaErrorInvalidValue);
    struct cudaExternalSemaphoreSignalNodeParams no_arrays = { NULL, NULL, 1 };
    assert_cuda(cudaGraphAddExternalSemaphoresSignalNode(&sig, graph, NULL, 0, &no_arrays),
                cudaErrorInvalidValue);
    assert_cuda(cudaGraphExternalSemaphoresSignalNodeSetParams(sig, NULL), cudaErrorInvalidValue);
    assert_cuda(cudaGraphExternalSemaphoresSignalNodeGetParams(sig, NULL), cudaErrorInvalidValue);
    assert_cuda(cudaGraphExecExternalSemaphoresWaitNodeSetParams(exec, wt, NULL),
                cudaErrorInvalidValue);

    /* A clone has the node with its own copy of the parameters. */
    cudaGraph_t clone = NULL;
    assert_cuda(cudaGraphClone(&clone, graph), cudaSuccess);
    cudaGraphNode_t sig_clone = NULL;
    assert_cuda(cudaGraphNodeFindInClone(&sig_clone, sig, clone), cudaSuccess);
    assert_cuda(cudaGraphExternalSemaphoresSignalNodeGetParams(sig_clone, &got), cudaSuccess);
    assert_int_equal(got.numExtSems, 2);
    assert_int_equal(got.paramsArray[1].params.fence.value, 7);
    assert_cuda(cudaGraphDestroy(clone), cudaSuccess);

    assert_cuda(cudaGraphExecDestroy(exec), cudaSuccess);
    assert_cuda(cudaGraphDestroy(graph), cudaSuccess);
    assert_cuda(cudaDestroyExternalSemaphore(s[0]), cudaSuccess);
    assert_cuda(cudaDestroyExternalSemaphore(s[1]), cudaSuccess);
}

/* cudaDeviceReset destroys what was imported into the context: later calls on those handles
 * are refused before the driver sees them. */
static void handles_from_before_a_reset_are_refused(void **state)
{
    (void)state;
    cudaExternalMemory_t mem = import_memfd(NULL);
    cudaExternalSemaphore_t s = import_semaphore();
    struct cudaExternalMemoryBufferDesc b;
    memset(&b, 0, sizeof b);
    b.size = 4096;
    void *buffer = NULL;
    assert_cuda(cudaExternalMemoryGetMappedBuffer(&buffer, mem, &b), cudaSuccess);
    assert_cuda(cudaDeviceReset(), cudaSuccess);
    fk.fake_reset_log();
    assert_cuda(cudaExternalMemoryGetMappedBuffer(&buffer, mem, &b),
                cudaErrorInvalidResourceHandle);
    assert_cuda(cudaDestroyExternalMemory(mem), cudaErrorInvalidResourceHandle);
    struct cudaExternalSemaphoreSignalParams sp = signal_value(1);
    assert_cuda(cudaSignalExternalSemaphoresAsync(&s, &sp, 1, 0), cudaErrorInvalidResourceHandle);
    assert_cuda(cudaDestroyExternalSemaphore(s), cudaErrorInvalidResourceHandle);
    assert_int_equal(fk.fake_count_calls("cuDestroyExternalMemory"), 0);
    assert_int_equal(fk.fake_count_calls("cuSignalExternalSemaphoresAsync"), 0);
    /* New imports work in the new context. */
    mem = import_memfd(NULL);
    assert_cuda(cudaDestroyExternalMemory(mem), cudaSuccess);
}

static void generic_nodes_and_capture_make_semaphore_nodes(void **state)
{
    (void)state;
    cudaExternalSemaphore_t s = import_semaphore();
    cudaGraph_t graph = NULL;
    assert_cuda(cudaGraphCreate(&graph, 0), cudaSuccess);
    struct cudaExternalSemaphoreSignalParams sp = signal_value(42);
    struct cudaGraphNodeParams p;
    memset(&p, 0, sizeof p);
    p.type = cudaGraphNodeTypeExtSemaphoreSignal;
    p.extSemSignal.extSemArray = &s;
    p.extSemSignal.paramsArray = &sp;
    p.extSemSignal.numExtSems = 1;
    cudaGraphNode_t node = NULL;
    assert_cuda(cudaGraphAddNode(&node, graph, NULL, NULL, 0, &p), cudaSuccess);
    enum cudaGraphNodeType type;
    assert_cuda(cudaGraphNodeGetType(node, &type), cudaSuccess);
    assert_int_equal(type, cudaGraphNodeTypeExtSemaphoreSignal);
    sp = signal_value(43);
    assert_cuda(cudaGraphNodeSetParams(node, &p), cudaSuccess);
    struct cudaExternalSemaphoreSignalNodeParams got;
    assert_cuda(cudaGraphExternalSemaphoresSignalNodeGetParams(node, &got), cudaSuccess);
    assert_int_equal(got.paramsArray[0].params.fence.value, 43);
    /* The arrays missing: refused before the driver. */
    p.extSemSignal.paramsArray = NULL;
    assert_cuda(cudaGraphAddNode(&node, graph, NULL, NULL, 0, &p), cudaErrorInvalidValue);
    p.type = cudaGraphNodeTypeExtSemaphoreWait;
    assert_cuda(cudaGraphNodeSetParams(node, &p), cudaErrorInvalidValue);
    assert_cuda(cudaGraphDestroy(graph), cudaSuccess);

    /* Captured: a node of the capture, signalled only when the graph runs. */
    cudaStream_t stream = NULL;
    assert_cuda(cudaStreamCreate(&stream), cudaSuccess);
    assert_cuda(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal), cudaSuccess);
    sp = signal_value(77);
    assert_cuda(cudaSignalExternalSemaphoresAsync(&s, &sp, 1, stream), cudaSuccess);
    assert_cuda(cudaStreamEndCapture(stream, &graph), cudaSuccess);
    assert_int_equal(semaphore_state(s).signals, 0);
    cudaGraphNode_t nodes[2];
    size_t count = 2;
    assert_cuda(cudaGraphGetNodes(graph, nodes, &count), cudaSuccess);
    assert_int_equal(count, 1);
    assert_cuda(cudaGraphNodeGetType(nodes[0], &type), cudaSuccess);
    assert_int_equal(type, cudaGraphNodeTypeExtSemaphoreSignal);
    cudaGraphExec_t exec = NULL;
    assert_cuda(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
    launch_graph(exec);
    assert_int_equal(semaphore_state(s).value, 77);
    assert_cuda(cudaGraphExecDestroy(exec), cudaSuccess);
    assert_cuda(cudaGraphDestroy(graph), cudaSuccess);
    assert_cuda(cudaStreamDestroy(stream), cudaSuccess);
    assert_cuda(cudaDestroyExternalSemaphore(s), cudaSuccess);
}

/* ---- the trace ------------------------------------------------------------------------------ */

static void trace_names_each_handle(void **state)
{
    (void)state;
    trace_text[0] = 0;
    minicudart_set_trace_hook(collect_trace, NULL);
    int fd = -1;
    cudaExternalMemory_t mem = import_memfd(&fd);
    struct cudaExternalMemoryBufferDesc b;
    memset(&b, 0, sizeof b);
    b.size = 4096;
    void *buffer = NULL;
    assert_cuda(cudaExternalMemoryGetMappedBuffer(&buffer, mem, &b), cudaSuccess);
    cudaExternalSemaphore_t s = import_semaphore();
    struct cudaExternalSemaphoreSignalParams sp = signal_value(8);
    assert_cuda(cudaSignalExternalSemaphoresAsync(&s, &sp, 1, 0), cudaSuccess);
    minicudart_set_trace_hook(NULL, NULL);

    char want[160];
    snprintf(want, sizeof want, "cudaImportExternalMemory: OpaqueFd fd %d, 65536 bytes, flags 0x0 -> %p",
             fd, (void *)mem);
    assert_non_null(strstr(trace_text, want));
    snprintf(want, sizeof want, "(OpaqueFd): bytes [0, +4096) at %p", buffer);
    assert_non_null(strstr(trace_text, want));
    snprintf(want, sizeof want, "cudaSignalExternalSemaphoresAsync: [0] %p (OpaqueFd) value 8",
             (void *)s);
    assert_non_null(strstr(trace_text, want));
    assert_non_null(strstr(trace_text, "cudaImportExternalSemaphore: OpaqueFd fd "));

    assert_cuda(cudaFree(buffer), cudaSuccess);
    assert_cuda(cudaDestroyExternalMemory(mem), cudaSuccess);
    assert_cuda(cudaDestroyExternalSemaphore(s), cudaSuccess);
}

static int setup(void **state)
{
    (void)state;
    if (fake_api_load() != 0)
        return -1;
    return cudaFree(NULL) == cudaSuccess ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(imported_memfd_reads_and_writes_through_a_mapped_buffer),
        cmocka_unit_test(mipmapped_array_import_translates_the_descriptor),
        cmocka_unit_test(memory_error_paths),
        cmocka_unit_test(semaphores_signal_and_wait_with_values),
        cmocka_unit_test(semaphore_import_error_paths),
        cmocka_unit_test(nvscisync_attributes_are_not_supported_without_nvsci),
        cmocka_unit_test(graph_nodes_add_get_set_and_exec_set),
        cmocka_unit_test(generic_nodes_and_capture_make_semaphore_nodes),
        cmocka_unit_test(trace_names_each_handle),
        cmocka_unit_test(handles_from_before_a_reset_are_refused),
    };
    return cmocka_run_group_tests_name("external", tests, setup, NULL);
}
