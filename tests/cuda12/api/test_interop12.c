/* test_interop12.c - external memory and semaphores through the CUDA 12 face
 * (lib/cuda12/interop12.c), as a CUDA 12 program calls them: descriptors of 12.9's sizes (40,
 * 24, 64 and 32 bytes) read no further than their end (each put at the end of a page, before a
 * PROT_NONE one) and with nothing from past it reaching the driver (each also followed by guard
 * bytes, which the fake refuses as nonzero reserved words); signals and waits through the
 * header's _v2 names with 13's parameters, and through the legacy plain names and their _ptsz
 * (dlsym) with _v1 arrays of 32- and 40-byte elements.  Every call asserted on its result and on
 * the thread's last error; what reached the driver read from the fake's call log and state. */
#include "cuda12_test.h"
#include "ptsz12.h"

#include <fcntl.h>

_Static_assert(sizeof(struct cudaExternalMemoryHandleDesc) == 40, "12.9's memory handle desc");
_Static_assert(sizeof(struct cudaExternalMemoryBufferDesc) == 24, "12.9's buffer desc");
_Static_assert(sizeof(struct cudaExternalMemoryMipmappedArrayDesc) == 64, "12.9's mipmap desc");
_Static_assert(sizeof(struct cudaExternalSemaphoreHandleDesc) == 32, "12.9's semaphore desc");
_Static_assert(sizeof(struct cudaExternalSemaphoreSignalParams_v1) == 32, "_v1 signal params");
_Static_assert(sizeof(struct cudaExternalSemaphoreWaitParams_v1) == 40, "_v1 wait params");

#define BYTES 65536

/* The legacy plain names' prototypes (CUDA 11.1's), which 12.9's header hides. */
typedef cudaError_t (*signal_v1_fn)(const cudaExternalSemaphore_t *,
                                    const struct cudaExternalSemaphoreSignalParams_v1 *,
                                    unsigned int, cudaStream_t);
typedef cudaError_t (*wait_v1_fn)(const cudaExternalSemaphore_t *,
                                  const struct cudaExternalSemaphoreWaitParams_v1 *, unsigned int,
                                  cudaStream_t);

/* ---- helpers -------------------------------------------------------------------------------- */

static void *fake_symbol(const char *name)
{
    void *lib = dlopen(getenv("MINICUDART_DRIVER"), RTLD_NOW | RTLD_NOLOAD);
    assert_non_null(lib);
    void *sym = dlsym(lib, name);
    assert_non_null(sym);
    dlclose(lib);
    return sym;
}

typedef struct sem_state {
    unsigned long long value, waited;
    unsigned signals, waits;
} sem_state;

static sem_state semaphore_state(cudaExternalSemaphore_t s)
{
    typedef int (*fn)(uintptr_t, unsigned long long *, unsigned long long *, unsigned *,
                      unsigned *);
    sem_state st = {0, 0, 0, 0};
    assert_int_equal(((fn)fake_symbol("fake_extsem_state"))((uintptr_t)s, &st.value, &st.waited,
                                                              &st.signals, &st.waits), 0);
    return st;
}

static int memfd_of(size_t bytes)
{
    int fd = memfd_create("external12", MFD_CLOEXEC);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, (off_t)bytes), 0);
    return fd;
}

/* A copy of the `size` bytes of src followed by guard bytes, in buf. */
static void *then_guard(unsigned char *buf, size_t cap, const void *src, size_t size)
{
    memset(buf, GUARD_BYTE, cap);
    memcpy(buf, src, size);
    return buf;
}

static struct cudaExternalMemoryHandleDesc memory_desc(int fd)
{
    struct cudaExternalMemoryHandleDesc d;
    memset(&d, 0, sizeof d);
    d.type = cudaExternalMemoryHandleTypeOpaqueFd;
    d.handle.fd = fd;
    d.size = BYTES;
    d.flags = cudaExternalMemoryDedicated;
    return d;
}

static cudaExternalSemaphore_t import_semaphore(void)
{
    struct cudaExternalSemaphoreHandleDesc d;
    memset(&d, 0, sizeof d);
    d.type = cudaExternalSemaphoreHandleTypeOpaqueFd;
    d.handle.fd = memfd_of(0);
    struct cudaExternalSemaphoreHandleDesc *slot = guard_page_tail(&d, sizeof d);
    cudaExternalSemaphore_t s = NULL;
    assert_cuda(cudaImportExternalSemaphore(&s, slot), cudaSuccess);
    guard_page_free(slot);
    char want[48];
    snprintf(want, sizeof want, "type=1 fd=%d flags=0x0", d.handle.fd);
    assert_last_call_has("cuImportExternalSemaphore", want);
    return s;
}

/* ---- descriptors ---------------------------------------------------------------------------- */

static void memory_descriptors_of_12_9_size_are_read_to_their_end_and_no_further(void **state)
{
    (void)state;
    /* the handle descriptor, 40 bytes at the end of a page */
    int fd = memfd_of(BYTES);
    struct cudaExternalMemoryHandleDesc d = memory_desc(fd);
    struct cudaExternalMemoryHandleDesc *slot = guard_page_tail(&d, sizeof d);
    fk.fake_reset_log();
    cudaExternalMemory_t mem = NULL;
    assert_cuda(cudaImportExternalMemory(&mem, slot), cudaSuccess);
    guard_page_free(slot);
    char want[64];
    snprintf(want, sizeof want, "type=1 fd=%d size=65536 flags=0x1", fd);
    assert_last_call_has("cuImportExternalMemory", want);
    /* and followed by guard bytes, where 13's reserved words would be */
    unsigned char buf[256];
    d = memory_desc(memfd_of(BYTES));
    cudaExternalMemory_t other = NULL;
    assert_cuda(cudaImportExternalMemory(&other, then_guard(buf, sizeof buf, &d, sizeof d)),
                cudaSuccess);
    assert_cuda(cudaDestroyExternalMemory(other), cudaSuccess);

    /* the buffer descriptor, 24 bytes: 13's body hands it to the driver as it is */
    struct cudaExternalMemoryBufferDesc b;
    memset(&b, 0, sizeof b);
    b.offset = 4096;
    b.size = 8192;
    struct cudaExternalMemoryBufferDesc *bslot = guard_page_tail(&b, sizeof b);
    void *p = NULL, *q = NULL;
    assert_cuda(cudaExternalMemoryGetMappedBuffer(&p, mem, bslot), cudaSuccess);
    guard_page_free(bslot);
    assert_non_null(p);
    assert_last_call_has("cuExternalMemoryGetMappedBuffer", "offset=4096 size=8192 flags=0x0");
    assert_cuda(cudaExternalMemoryGetMappedBuffer(&q, mem, then_guard(buf, sizeof buf, &b,
                                                                      sizeof b)),
                cudaSuccess);
    assert_cuda(cudaFree(p), cudaSuccess);
    assert_cuda(cudaFree(q), cudaSuccess);

    /* the mipmapped array descriptor, 64 bytes */
    struct cudaExternalMemoryMipmappedArrayDesc m;
    memset(&m, 0, sizeof m);
    m.formatDesc = cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindUnsigned);
    m.extent = (struct cudaExtent){64, 16, 0};
    m.flags = cudaArraySurfaceLoadStore;
    m.numLevels = 2;
    struct cudaExternalMemoryMipmappedArrayDesc *mslot = guard_page_tail(&m, sizeof m);
    cudaMipmappedArray_t mm = NULL, mm2 = NULL;
    assert_cuda(cudaExternalMemoryGetMappedMipmappedArray(&mm, mem, mslot), cudaSuccess);
    guard_page_free(mslot);
    assert_last_call_has("cuExternalMemoryGetMappedMipmappedArray",
                         "offset=0 Width=64 Height=16 Depth=0 Format=0x1 NumChannels=1 Flags=0x2 "
                         "numLevels=2");
    assert_cuda(cudaExternalMemoryGetMappedMipmappedArray(
                    &mm2, mem, then_guard(buf, sizeof buf, &m, sizeof m)),
                cudaSuccess);
    assert_cuda(cudaFreeMipmappedArray(mm), cudaSuccess);
    assert_cuda(cudaFreeMipmappedArray(mm2), cudaSuccess);

    /* errors of the body still answered */
    assert_cuda(cudaImportExternalMemory(&other, NULL), cudaErrorInvalidValue);
    assert_cuda(cudaExternalMemoryGetMappedBuffer(&p, mem, NULL), cudaErrorInvalidValue);
    assert_cuda(cudaExternalMemoryGetMappedMipmappedArray(&mm, mem, NULL), cudaErrorInvalidValue);
    b.flags = 1;
    assert_cuda(cudaExternalMemoryGetMappedBuffer(&p, mem, &b), cudaErrorInvalidValue);
    assert_cuda(cudaDestroyExternalMemory(mem), cudaSuccess);
}

static void semaphore_descriptor_of_32_bytes_is_read_to_its_end_and_no_further(void **state)
{
    (void)state;
    cudaExternalSemaphore_t s = import_semaphore();       /* from the end of a page */
    struct cudaExternalSemaphoreHandleDesc d;
    memset(&d, 0, sizeof d);
    d.type = cudaExternalSemaphoreHandleTypeOpaqueFd;
    d.handle.fd = memfd_of(0);
    unsigned char buf[128];
    cudaExternalSemaphore_t t = NULL;
    assert_cuda(cudaImportExternalSemaphore(&t, then_guard(buf, sizeof buf, &d, sizeof d)),
                cudaSuccess);
    assert_cuda(cudaImportExternalSemaphore(&t, NULL), cudaErrorInvalidValue);
    assert_cuda(cudaDestroyExternalSemaphore(s), cudaSuccess);
    assert_cuda(cudaDestroyExternalSemaphore(t), cudaSuccess);
}

/* ---- signal and wait ------------------------------------------------------------------------ */

static void signal_and_wait_v2_take_13_parameters(void **state)
{
    (void)state;
    cudaExternalSemaphore_t s[2] = {import_semaphore(), import_semaphore()};
    cudaStream_t stream = NULL;
    assert_cuda(cudaStreamCreate(&stream), cudaSuccess);
    struct cudaExternalSemaphoreSignalParams sp[2];
    memset(sp, 0, sizeof sp);
    sp[0].params.fence.value = 5;
    sp[1].params.fence.value = 9;
    /* 12.9's header: cudaSignalExternalSemaphoresAsync is cudaSignalExternalSemaphoresAsync_v2 */
    assert_cuda(cudaSignalExternalSemaphoresAsync(s, sp, 2, stream), cudaSuccess);
    char want[64];
    snprintf(want, sizeof want, "count=2 stream=%p values=5,9", (void *)stream);
    assert_last_call_has("cuSignalExternalSemaphoresAsync", want);
    assert_int_equal(semaphore_state(s[0]).value, 5);
    assert_int_equal(semaphore_state(s[1]).value, 9);
    struct cudaExternalSemaphoreWaitParams wp[2];
    memset(wp, 0, sizeof wp);
    wp[0].params.fence.value = 4;
    wp[1].params.fence.value = 8;
    assert_cuda(cudaWaitExternalSemaphoresAsync(s, wp, 2, stream), cudaSuccess);
    assert_int_equal(semaphore_state(s[1]).waited, 8);
    /* the per-thread build's names: _v2_ptsz, stream 0 the per-thread stream */
    sp[0].params.fence.value = 21;
    assert_cuda(ptsz_signal_semaphores(s, sp, 1, 0), cudaSuccess);
    assert_last_call_has("cuSignalExternalSemaphoresAsync", "count=1 stream=0x2 values=21");
    assert_cuda(ptsz_wait_semaphores(s, wp, 1, 0), cudaSuccess);
    assert_last_call_has("cuWaitExternalSemaphoresAsync", "count=1 stream=0x2 values=4");
    assert_cuda(cudaSignalExternalSemaphoresAsync(s, NULL, 2, stream), cudaErrorInvalidValue);
    assert_cuda(cudaStreamDestroy(stream), cudaSuccess);
    assert_cuda(cudaDestroyExternalSemaphore(s[0]), cudaSuccess);
    assert_cuda(cudaDestroyExternalSemaphore(s[1]), cudaSuccess);
}

static void legacy_signal_and_wait_take_v1_arrays(void **state)
{
    (void)state;
    signal_v1_fn signal = (signal_v1_fn)runtime_symbol("cudaSignalExternalSemaphoresAsync");
    signal_v1_fn signal_ptsz =
        (signal_v1_fn)runtime_symbol("cudaSignalExternalSemaphoresAsync_ptsz");
    wait_v1_fn wait = (wait_v1_fn)runtime_symbol("cudaWaitExternalSemaphoresAsync");
    wait_v1_fn wait_ptsz = (wait_v1_fn)runtime_symbol("cudaWaitExternalSemaphoresAsync_ptsz");
    assert_ptr_not_equal(signal, runtime_symbol("cudaSignalExternalSemaphoresAsync_v2"));
    cudaExternalSemaphore_t s[2] = {import_semaphore(), import_semaphore()};
    cudaStream_t stream = NULL;
    assert_cuda(cudaStreamCreate(&stream), cudaSuccess);

    /* two 32-byte elements at the end of a page: read at their stride, and no further */
    struct cudaExternalSemaphoreSignalParams_v1 sv[2];
    memset(sv, 0, sizeof sv);
    sv[0].params.fence.value = 11;
    sv[1].params.fence.value = 13;
    sv[1].flags = cudaExternalSemaphoreSignalSkipNvSciBufMemSync;
    struct cudaExternalSemaphoreSignalParams_v1 *sslot = guard_page_tail(sv, sizeof sv);
    assert_cuda(signal(s, sslot, 2, stream), cudaSuccess);
    char want[64];
    snprintf(want, sizeof want, "count=2 stream=%p values=11,13", (void *)stream);
    assert_last_call_has("cuSignalExternalSemaphoresAsync", want);
    assert_int_equal(semaphore_state(s[0]).value, 11);
    assert_int_equal(semaphore_state(s[1]).value, 13);
    /* the flags word is carried: one the driver does not know is refused */
    sslot[1].flags = 0x8;
    assert_cuda(signal(s, sslot, 2, stream), cudaErrorInvalidValue);
    assert_int_equal(semaphore_state(s[1]).signals, 1);
    guard_page_free(sslot);
    /* the legacy _ptsz: stream 0 is the per-thread stream */
    sv[1].flags = 0;
    sv[0].params.fence.value = 17;
    assert_cuda(signal_ptsz(s, sv, 1, 0), cudaSuccess);
    assert_last_call_has("cuSignalExternalSemaphoresAsync", "count=1 stream=0x2 values=17");

    /* 40-byte wait elements */
    struct cudaExternalSemaphoreWaitParams_v1 wv[2];
    memset(wv, 0, sizeof wv);
    wv[0].params.fence.value = 3;
    wv[1].params.fence.value = 7;
    wv[1].params.keyedMutex.timeoutMs = 100;
    struct cudaExternalSemaphoreWaitParams_v1 *wslot = guard_page_tail(wv, sizeof wv);
    assert_cuda(wait(s, wslot, 2, stream), cudaSuccess);
    snprintf(want, sizeof want, "count=2 stream=%p values=3,7", (void *)stream);
    assert_last_call_has("cuWaitExternalSemaphoresAsync", want);
    assert_int_equal(semaphore_state(s[0]).waited, 3);
    assert_int_equal(semaphore_state(s[1]).waited, 7);
    wslot[0].flags = 0x8;
    assert_cuda(wait(s, wslot, 2, stream), cudaErrorInvalidValue);
    guard_page_free(wslot);
    assert_cuda(wait_ptsz(s, wv, 1, 0), cudaSuccess);
    assert_last_call_has("cuWaitExternalSemaphoresAsync", "count=1 stream=0x2 values=3");

    /* what the body answers for missing arrays, the legacy names answer too */
    assert_cuda(signal(s, NULL, 2, stream), cudaErrorInvalidValue);
    assert_cuda(wait(NULL, wv, 2, stream), cudaErrorInvalidValue);
    assert_cuda(cudaStreamDestroy(stream), cudaSuccess);
    assert_cuda(cudaDestroyExternalSemaphore(s[0]), cudaSuccess);
    assert_cuda(cudaDestroyExternalSemaphore(s[1]), cudaSuccess);
}

#define T(name) cmocka_unit_test(name)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(memory_descriptors_of_12_9_size_are_read_to_their_end_and_no_further),
        T(semaphore_descriptor_of_32_bytes_is_read_to_its_end_and_no_further),
        T(signal_and_wait_v2_take_13_parameters),
        T(legacy_signal_and_wait_take_v1_arrays),
    };
    return cmocka_run_group_tests_name("interop12", tests, e2e_setup, NULL);
}
