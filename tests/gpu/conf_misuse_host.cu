// conf_misuse_host.cu - invalid inputs to page-locked, registered and managed memory and to
// pointer attributes, one case each (the runner and the line format: misuse.h).
#include "misuse.h"

// The per-thread-default-stream variants; the toolkit declares them only in such builds.
extern "C" {
cudaError_t CUDARTAPI cudaMemPrefetchAsync_ptsz(const void *devPtr, size_t count,
                                                struct cudaMemLocation location,
                                                unsigned int flags, cudaStream_t stream);
cudaError_t CUDARTAPI cudaStreamAttachMemAsync_ptsz(cudaStream_t stream, void *devPtr,
                                                    size_t length, unsigned int flags);
}

#define BYTES 4096

// Fixtures, made at every start.
static int count;                     // devices; also the first invalid ordinal
static cudaStream_t s;
static char *d;                       // device memory
static char *pinned;                  // cudaHostAlloc(Mapped)
static char *managed;                 // cudaMallocManaged
static unsigned char *page = misuse_host_page;

// What a case made or registered, for its cleanup.
static void *made_host;
static void *made_managed;
static void *registered;

static void *out_ptr;
static unsigned out_flags;
static cudaPointerAttributes attributes;

static void setup(void)
{
    CHECK(cudaGetDeviceCount(&count));
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaMalloc((void **)&d, BYTES));
    CHECK(cudaHostAlloc((void **)&pinned, BYTES, cudaHostAllocMapped));
    CHECK(cudaMallocManaged((void **)&managed, BYTES, cudaMemAttachGlobal));
}

static void free_made(void)
{
    if (made_host)
        cudaFreeHost(made_host);
    if (made_managed)
        cudaFree(made_managed);
    if (registered)
        cudaHostUnregister(registered);
    made_host = NULL;
    made_managed = NULL;
    registered = NULL;
}

// Registers [p, p + BYTES) with flags, and remembers it for free_made if that worked.
static cudaError_t register_host(void *p, unsigned flags)
{
    cudaError_t e = cudaHostRegister(p, BYTES, flags);
    if (e == cudaSuccess)
        registered = p;
    return e;
}

static cudaMemLocation device_location(int device)
{
    cudaMemLocation l;
    memset(&l, 0, sizeof l);
    l.type = cudaMemLocationTypeDevice;
    l.id = device;
    return l;
}

static cudaMemLocation bad_location_type(void)
{
    cudaMemLocation l;
    memset(&l, 0, sizeof l);
    l.type = (cudaMemLocationType)99;
    return l;
}

static const misuse_case cases[] = {
    // ---- page-locked host memory ----
    {"cudaMallocHost.null_out", [] { return cudaMallocHost(NULL, 16); }},
    {"cudaMallocHost.size_1EB",
     [] { return cudaMallocHost(&made_host, (size_t)1 << 60); }, free_made},
    {"cudaHostAlloc.null_out", [] { return cudaHostAlloc(NULL, 16, cudaHostAllocDefault); }},
    {"cudaHostAlloc.unknown_flags", [] { return cudaHostAlloc(&made_host, 16, 0x100); },
     free_made},
    {"cudaHostAlloc.size_1EB",
     [] { return cudaHostAlloc(&made_host, (size_t)1 << 60, cudaHostAllocMapped); }, free_made},
    {"cudaFreeHost.device_pointer", [] { return cudaFreeHost(d); }},
    {"cudaFreeHost.managed_pointer", [] { return cudaFreeHost(managed); }},
    {"cudaFreeHost.pageable_pointer", [] { return cudaFreeHost(page); }},
    {"cudaFreeHost.interior_pointer", [] { return cudaFreeHost(pinned + 16); }},
    {"cudaFreeHost.twice",
     [] {
         void *p = NULL;
         CHECK(cudaMallocHost(&p, 16));
         CHECK(cudaFreeHost(p));
         return cudaFreeHost(p);
     }},
    {"cudaHostRegister.null", [] { return cudaHostRegister(NULL, BYTES, 0); }},
    {"cudaHostRegister.size_0", [] { return cudaHostRegister(page, 0, 0); }},
    {"cudaHostRegister.unknown_flags", [] { return register_host(page, 0x100); }, free_made},
    {"cudaHostRegister.twice",
     [] {
         CHECK(register_host(page, cudaHostRegisterDefault));
         return cudaHostRegister(page, BYTES, cudaHostRegisterDefault);
     },
     free_made},
    {"cudaHostRegister.pinned_memory",
     [] {
         CHECK(cudaMallocHost(&made_host, BYTES));
         return register_host(made_host, 0);
     },
     free_made},
    {"cudaHostRegister.device_pointer", [] { return register_host(d, 0); }, free_made},
    {"cudaHostUnregister.null", [] { return cudaHostUnregister(NULL); }},
    {"cudaHostUnregister.not_registered", [] { return cudaHostUnregister(page); }},
    {"cudaHostUnregister.pinned_memory",
     [] {
         CHECK(cudaMallocHost(&made_host, BYTES));
         return cudaHostUnregister(made_host);
     },
     free_made},
    {"cudaHostUnregister.device_pointer", [] { return cudaHostUnregister(d); }},
    {"cudaHostGetDevicePointer.null_out",
     [] { return cudaHostGetDevicePointer(NULL, pinned, 0); }},
    {"cudaHostGetDevicePointer.null_host",
     [] { return cudaHostGetDevicePointer(&out_ptr, NULL, 0); }},
    {"cudaHostGetDevicePointer.pageable",
     [] { return cudaHostGetDevicePointer(&out_ptr, page, 0); }},
    {"cudaHostGetDevicePointer.flags_1",
     [] { return cudaHostGetDevicePointer(&out_ptr, pinned, 1); }},
    {"cudaHostGetFlags.null_out", [] { return cudaHostGetFlags(NULL, pinned); }},
    {"cudaHostGetFlags.null_host", [] { return cudaHostGetFlags(&out_flags, NULL); }},
    {"cudaHostGetFlags.pageable", [] { return cudaHostGetFlags(&out_flags, page); }},
    {"cudaHostGetFlags.device_pointer", [] { return cudaHostGetFlags(&out_flags, d); }},

    // ---- managed memory ----
    {"cudaMallocManaged.null_out",
     [] { return cudaMallocManaged(NULL, 16, cudaMemAttachGlobal); }},
    {"cudaMallocManaged.flags_0", [] { return cudaMallocManaged(&made_managed, 16, 0); },
     free_made},
    {"cudaMallocManaged.attach_single",
     [] { return cudaMallocManaged(&made_managed, 16, cudaMemAttachSingle); }, free_made},
    {"cudaMallocManaged.size_1EB",
     [] { return cudaMallocManaged(&made_managed, (size_t)1 << 60, cudaMemAttachGlobal); },
     free_made},
    {"cudaMemAdvise.null",
     [] { return cudaMemAdvise(NULL, BYTES, cudaMemAdviseSetReadMostly, device_location(0)); }},
    {"cudaMemAdvise.device_memory",
     [] { return cudaMemAdvise(d, BYTES, cudaMemAdviseSetReadMostly, device_location(0)); }},
    {"cudaMemAdvise.unknown_advice",
     [] { return cudaMemAdvise(managed, BYTES, (cudaMemoryAdvise)99, device_location(0)); }},
    {"cudaMemAdvise.location_device_count",
     [] {
         return cudaMemAdvise(managed, BYTES, cudaMemAdviseSetPreferredLocation,
                              device_location(count));
     }},
    {"cudaMemAdvise.unknown_location_type",
     [] {
         return cudaMemAdvise(managed, BYTES, cudaMemAdviseSetPreferredLocation,
                              bad_location_type());
     }},
    {"cudaMemAdvise.count_past_end",
     [] {
         return cudaMemAdvise(managed, (size_t)1 << 40, cudaMemAdviseSetReadMostly,
                              device_location(0));
     }},
    {"cudaMemPrefetchAsync.device_memory",
     [] { return cudaMemPrefetchAsync(d, BYTES, device_location(0), 0, s); }},
    {"cudaMemPrefetchAsync.null",
     [] { return cudaMemPrefetchAsync(NULL, BYTES, device_location(0), 0, s); }},
    {"cudaMemPrefetchAsync.location_device_count",
     [] { return cudaMemPrefetchAsync(managed, BYTES, device_location(count), 0, s); }},
    {"cudaMemPrefetchAsync.unknown_flags",
     [] { return cudaMemPrefetchAsync(managed, BYTES, device_location(0), 0x100, s); }},
    {"cudaMemPrefetchAsync.unknown_location_type",
     [] { return cudaMemPrefetchAsync(managed, BYTES, bad_location_type(), 0, s); }},
    {"cudaMemPrefetchAsync_ptsz.device_memory",
     [] { return cudaMemPrefetchAsync_ptsz(d, BYTES, device_location(0), 0, 0); }},
    {"cudaMemPrefetchAsync_ptsz.location_device_count",
     [] { return cudaMemPrefetchAsync_ptsz(managed, BYTES, device_location(count), 0, 0); }},
    {"cudaStreamAttachMemAsync.device_memory",
     [] { return cudaStreamAttachMemAsync(s, d, 0, cudaMemAttachSingle); }},
    {"cudaStreamAttachMemAsync.unknown_flags",
     [] { return cudaStreamAttachMemAsync(s, managed, 0, 0x10); }},
    {"cudaStreamAttachMemAsync.null",
     [] { return cudaStreamAttachMemAsync(s, NULL, 0, cudaMemAttachSingle); }},
    {"cudaStreamAttachMemAsync.partial_length",
     [] { return cudaStreamAttachMemAsync(s, managed, 16, cudaMemAttachSingle); }},
    {"cudaStreamAttachMemAsync_ptsz.device_memory",
     [] { return cudaStreamAttachMemAsync_ptsz(0, d, 0, cudaMemAttachSingle); }},
    {"cudaStreamAttachMemAsync_ptsz.unknown_flags",
     [] { return cudaStreamAttachMemAsync_ptsz(0, managed, 0, 0x10); }},

    // ---- pointer attributes ----
    {"cudaPointerGetAttributes.null_attributes", [] { return cudaPointerGetAttributes(NULL, d); }},
    {"cudaPointerGetAttributes.null_pointer",
     [] {
         memset(&attributes, 0, sizeof attributes);
         cudaError_t e = cudaPointerGetAttributes(&attributes, NULL);
         misuse_note("type_%d", (int)attributes.type);
         return e;
     }},
    {"cudaPointerGetAttributes.freed",
     [] {
         void *p = NULL;
         CHECK(cudaMalloc(&p, BYTES));
         CHECK(cudaFree(p));
         memset(&attributes, 0, sizeof attributes);
         cudaError_t e = cudaPointerGetAttributes(&attributes, p);
         misuse_note("type_%d", (int)attributes.type);
         return e;
     }},
};

int main(int argc, char **argv)
{
    int rc = misuse_main("conf_misuse_host", argc, argv, setup, cases, MISUSE_COUNT(cases));
    cudaDeviceSynchronize();
    return rc;
}
