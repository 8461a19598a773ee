// gpu-cuda-max: 12.9
// gpu-flags: -Wno-deprecated-declarations
// gpu-libs: -ldl
// gpu-cases: yes
// conf_cuda12.cu - what differs between CUDA 12.9's runtime ABI and 13's, asked of the runtime a
// program built by a CUDA 12 nvcc loads (libcudart.so.12), so that NVIDIA's 12.9 library and
// minicudart's answer side by side (tests/gpu/cuda12.sh): the version; every field of 12.9's
// cudaDeviceProp (the eight 13 removed among them) and how many bytes cudaGetDeviceProperties_v2
// and the legacy plain-named export write; attributes at the edge of 12.9's range; which driver
// ABI cudaGetDriverEntryPoint hands out; the functions 13 removed (cudaSetDouble*, cudaThread*,
// cudaLaunchCooperativeKernelMultiDevice); pools at host locations; the argument order of
// cudaGraphKernelNodeCopyAttributes; 12.9's cudaPointerAttributes and resource descriptors;
// stream capture's three cudaStreamGetCaptureInfo forms; managed memory advice and prefetch by
// device number; edges without edge data; the semaphores' legacy plain names.
//
// Only a CUDA 12 nvcc builds it (the "gpu-cuda-max" mark: run.sh and the CMake trees skip it
// with a newer one; 12.9's names and structs are what it asks about).  Every answer is a line
// "case <n> <name>: <field>: <value>", the same under both runtimes unless the runtimes differ.
// A program of cases (the "gpu-cases" mark): each case runs all its calls before it prints, so
// a crash leaves "case <n> <name>:" unfinished and run.sh starts the program again at the next
// case (argv[1]).  Buffers a call fills are patterned twice (0xA5, then 0x5A): a byte is written
// when it differs from the pattern in either call, which the "bytes written" lines count.
// Exit 0 pass, 1 a check failed (a result both runtimes must give), 2 no GPU.
#include "gpu_check.h"

#include <cuda.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#if CUDART_VERSION >= 13000
#error "needs a CUDA 12 toolkit's headers (the gpu-cuda-max mark: tests/gpu/cuda12.sh builds it with nvcc 12)"
#endif

static int ok = 1;

// ---- the lines of a case: collected while its calls run, printed after --------------------------

static char lines[96 * 1024];
static size_t used;

static void say(const char *field, const char *fmt, ...)
{
    if (used >= sizeof lines - 1)
        return;
    int n = snprintf(lines + used, sizeof lines - used, "%s: ", field);
    if (n > 0)
        used += (size_t)n;
    if (used >= sizeof lines - 1)
        return;
    va_list ap;
    va_start(ap, fmt);
    n = vsnprintf(lines + used, sizeof lines - used, fmt, ap);
    va_end(ap);
    if (n > 0)
        used += (size_t)n;
    if (used < sizeof lines - 1)
        lines[used++] = '\n';
    lines[used] = '\0';
}

// A call's code and the last error after it (which this clears).
static void code(const char *field, cudaError_t e)
{
    cudaError_t last = cudaGetLastError();
    say(field, ERR_FMT " (last " ERR_FMT ")", ERR_ARGS(e), ERR_ARGS(last));
}

static void expect_true(const char *what, bool cond)
{
    if (!cond) {
        say("CHECK FAILED", "%s", what);
        ok = 0;
    }
}

// ---- patterned buffers ---------------------------------------------------------------------------

enum { PATTERN_A = 0xA5, PATTERN_B = 0x5A };

// The written bytes of two calls into `size` bytes: the extent (last written byte + 1) and how
// many bytes below it neither call wrote.
struct written {
    size_t extent, gaps;
};

static struct written written_bytes(const unsigned char *a, const unsigned char *b, size_t size)
{
    struct written w = {0, 0};
    for (size_t i = 0; i < size; i++)
        if (a[i] != PATTERN_A || b[i] != PATTERN_B)
            w.extent = i + 1;
    for (size_t i = 0; i < w.extent; i++)
        if (a[i] == PATTERN_A && b[i] == PATTERN_B)
            w.gaps++;
    return w;
}

static void say_written(const char *field, struct written w)
{
    say(field, "%zu (bytes below it not written: %zu)", w.extent, w.gaps);
}

template <typename F>
static struct written patterned(unsigned char *a, unsigned char *b, size_t size, cudaError_t *rc,
                                F call)
{
    memset(a, PATTERN_A, size);
    *rc = call(a);
    memset(b, PATTERN_B, size);
    cudaError_t again = call(b);
    if (again != *rc)
        say("second call differs", ERR_FMT, ERR_ARGS(again));
    return written_bytes(a, b, size);
}

static void *runtime_symbol(const char *name)
{
    return dlsym(RTLD_DEFAULT, name);
}

// ---- kernels --------------------------------------------------------------------------------------

__global__ void fill(int *out, int n, int base)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = base + i;
}

// ---- the cases -----------------------------------------------------------------------------------

static void case_versions(void)
{
    int runtime = -1, driver = -1;
    cudaError_t e = cudaRuntimeGetVersion(&runtime);
    code("cudaRuntimeGetVersion", e);
    say("runtime version", "%d", runtime);
    expect_true("runtime version is 12.x", e == cudaSuccess && runtime >= 12000 && runtime < 13000);
    code("cudaDriverGetVersion", cudaDriverGetVersion(&driver));
    say("driver version", "%d", driver);
}

// Every field of 12.9's cudaDeviceProp, as the caller's 1032 bytes hold them.
static void say_props(const struct cudaDeviceProp *p)
{
    char text[96];
    say("name", "%.256s", p->name);
    for (int i = 0; i < 16; i++)
        snprintf(text + 2 * i, 3, "%02x", (unsigned char)p->uuid.bytes[i]);
    say("uuid", "%s", text);
    for (int i = 0; i < 8; i++)
        snprintf(text + 2 * i, 3, "%02x", (unsigned char)p->luid[i]);
    say("luid", "%s", text);
#define F(field, fmt) say(#field, fmt, p->field)
#define F2(field) say(#field, "%d %d", p->field[0], p->field[1])
#define F3(field) say(#field, "%d %d %d", p->field[0], p->field[1], p->field[2])
    F(luidDeviceNodeMask, "%u");
    F(totalGlobalMem, "%zu");
    F(sharedMemPerBlock, "%zu");
    F(regsPerBlock, "%d");
    F(warpSize, "%d");
    F(memPitch, "%zu");
    F(maxThreadsPerBlock, "%d");
    F3(maxThreadsDim);
    F3(maxGridSize);
    F(clockRate, "%d");
    F(totalConstMem, "%zu");
    F(major, "%d");
    F(minor, "%d");
    F(textureAlignment, "%zu");
    F(texturePitchAlignment, "%zu");
    F(deviceOverlap, "%d");
    F(multiProcessorCount, "%d");
    F(kernelExecTimeoutEnabled, "%d");
    F(integrated, "%d");
    F(canMapHostMemory, "%d");
    F(computeMode, "%d");
    F(maxTexture1D, "%d");
    F(maxTexture1DMipmap, "%d");
    F(maxTexture1DLinear, "%d");
    F2(maxTexture2D);
    F2(maxTexture2DMipmap);
    F3(maxTexture2DLinear);
    F2(maxTexture2DGather);
    F3(maxTexture3D);
    F3(maxTexture3DAlt);
    F(maxTextureCubemap, "%d");
    F2(maxTexture1DLayered);
    F3(maxTexture2DLayered);
    F2(maxTextureCubemapLayered);
    F(maxSurface1D, "%d");
    F2(maxSurface2D);
    F3(maxSurface3D);
    F2(maxSurface1DLayered);
    F3(maxSurface2DLayered);
    F(maxSurfaceCubemap, "%d");
    F2(maxSurfaceCubemapLayered);
    F(surfaceAlignment, "%zu");
    F(concurrentKernels, "%d");
    F(ECCEnabled, "%d");
    F(pciBusID, "%d");
    F(pciDeviceID, "%d");
    F(pciDomainID, "%d");
    F(tccDriver, "%d");
    F(asyncEngineCount, "%d");
    F(unifiedAddressing, "%d");
    F(memoryClockRate, "%d");
    F(memoryBusWidth, "%d");
    F(l2CacheSize, "%d");
    F(persistingL2CacheMaxSize, "%d");
    F(maxThreadsPerMultiProcessor, "%d");
    F(streamPrioritiesSupported, "%d");
    F(globalL1CacheSupported, "%d");
    F(localL1CacheSupported, "%d");
    F(sharedMemPerMultiprocessor, "%zu");
    F(regsPerMultiprocessor, "%d");
    F(managedMemory, "%d");
    F(isMultiGpuBoard, "%d");
    F(multiGpuBoardGroupID, "%d");
    F(hostNativeAtomicSupported, "%d");
    F(singleToDoublePrecisionPerfRatio, "%d");
    F(pageableMemoryAccess, "%d");
    F(concurrentManagedAccess, "%d");
    F(computePreemptionSupported, "%d");
    F(canUseHostPointerForRegisteredMem, "%d");
    F(cooperativeLaunch, "%d");
    F(cooperativeMultiDeviceLaunch, "%d");
    F(sharedMemPerBlockOptin, "%zu");
    F(pageableMemoryAccessUsesHostPageTables, "%d");
    F(directManagedMemAccessFromHost, "%d");
    F(maxBlocksPerMultiProcessor, "%d");
    F(accessPolicyMaxWindowSize, "%d");
    F(reservedSharedMemPerBlock, "%zu");
    F(hostRegisterSupported, "%d");
    F(sparseCudaArraySupported, "%d");
    F(hostRegisterReadOnlySupported, "%d");
    F(timelineSemaphoreInteropSupported, "%d");
    F(memoryPoolsSupported, "%d");
    F(gpuDirectRDMASupported, "%d");
    F(gpuDirectRDMAFlushWritesOptions, "%u");
    F(gpuDirectRDMAWritesOrdering, "%d");
    F(memoryPoolSupportedHandleTypes, "%u");
    F(deferredMappingCudaArraySupported, "%d");
    F(ipcEventSupported, "%d");
    F(clusterLaunch, "%d");
    F(unifiedFunctionPointers, "%d");
    F2(reserved2);
    F(reserved1[0], "%d");
    F(reserved[0], "%d");
    F(reserved[59], "%d");
#undef F
#undef F2
#undef F3
}

// cudaGetDeviceProperties, which 12's header makes cudaGetDeviceProperties_v2.
static void case_device_props_v2(void)
{
    static unsigned char a[sizeof(cudaDeviceProp)], b[sizeof(cudaDeviceProp)];
    cudaError_t rc;
    struct written w = patterned(a, b, sizeof a, &rc, [](unsigned char *buf) {
        return cudaGetDeviceProperties((struct cudaDeviceProp *)buf, 0);
    });
    code("cudaGetDeviceProperties_v2", rc);
    say("sizeof(cudaDeviceProp)", "%zu", sizeof(cudaDeviceProp));
    say_written("bytes written", w);
    say_props((const struct cudaDeviceProp *)a);
    expect_true("cudaGetDeviceProperties_v2 succeeds", rc == cudaSuccess);
    expect_true("a compute capability", ((const struct cudaDeviceProp *)a)->major >= 1);
}

// The plain-named export, which only a caller that bypasses the header reaches.
static void case_device_props_legacy(void)
{
    typedef cudaError_t (*props_fn)(struct cudaDeviceProp *, int);
    props_fn legacy = (props_fn)runtime_symbol("cudaGetDeviceProperties");
    say("dlsym cudaGetDeviceProperties", "%s", legacy ? "found" : "not found");
    if (!legacy)
        return;
    static unsigned char a[sizeof(cudaDeviceProp)], b[sizeof(cudaDeviceProp)];
    cudaError_t rc;
    struct written w = patterned(a, b, sizeof a, &rc, [legacy](unsigned char *buf) {
        return legacy((struct cudaDeviceProp *)buf, 0);
    });
    code("cudaGetDeviceProperties", rc);
    say_written("bytes written", w);
    say_props((const struct cudaDeviceProp *)a);
}

static void case_device_props_errors(void)
{
    struct cudaDeviceProp p;
    code("cudaGetDeviceProperties_v2(NULL, 0)", cudaGetDeviceProperties(NULL, 0));
    code("cudaGetDeviceProperties_v2(&p, 99)", cudaGetDeviceProperties(&p, 99));
    code("cudaGetDeviceProperties_v2(&p, -1)", cudaGetDeviceProperties(&p, -1));
}

static void case_choose_device(void)
{
    struct cudaDeviceProp want;
    memset(&want, 0, sizeof want);
    want.major = 9;
    want.minor = 0;
    int device = -7;
    code("cudaChooseDevice(9.0)", cudaChooseDevice(&device, &want));
    say("device", "%d", device);
}

static void case_attributes(void)
{
    static const int attrs[] = {1, 13, 15, 17, 20, 36, 69, 87, 96, 134, 135, 143, 144, 145, 146, 147, 148, 1000};
    for (int attr : attrs) {
        int value = -7;
        char field[64];
        cudaError_t e = cudaDeviceGetAttribute(&value, (enum cudaDeviceAttr)attr, 0);
        snprintf(field, sizeof field, "cudaDeviceGetAttribute(%d)", attr);
        code(field, e);
        snprintf(field, sizeof field, "attribute %d", attr);
        say(field, "%d", value);
    }
}

// cudaGetDriverEntryPoint asks the driver at the runtime's CUDA version: 12090 gives 12's ABI of
// cuCtxSynchronize, CUresult(void), where 13000 gives CUresult(CUcontext).  The driver's own
// cuGetProcAddress tells which of its entries the runtime handed out.
typedef CUresult (*get_proc_fn)(const char *, void **, int, cuuint64_t, CUdriverProcAddressQueryResult *);

static void *driver_entry(get_proc_fn get_proc, const char *symbol, int version)
{
    void *fn = NULL;
    CUdriverProcAddressQueryResult status = CU_GET_PROC_ADDRESS_SUCCESS;
    if (!get_proc || get_proc(symbol, &fn, version, CU_GET_PROC_ADDRESS_DEFAULT, &status) != CUDA_SUCCESS ||
        status != CU_GET_PROC_ADDRESS_SUCCESS)
        return NULL;
    return fn;
}

static void entry_point_vs_driver(const char *symbol, void *fn)
{
    void *libcuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    get_proc_fn get_proc = libcuda ? (get_proc_fn)dlsym(libcuda, "cuGetProcAddress_v2") : NULL;
    static const int versions[] = {11030, 12000, 12040, 12090, 13000};
    char field[96];
    for (int v : versions) {
        void *d = driver_entry(get_proc, symbol, v);
        snprintf(field, sizeof field, "%s is the driver's entry at %d", symbol, v);
        say(field, "%s", !d ? "(driver has none)" : d == fn ? "yes" : "no");
    }
}

static void case_entry_point(void)
{
    static const char *const symbols[] = {"cuCtxSynchronize", "cuCtxGetDevice", "cuMemAdvise",
                                          "cuMemPrefetchAsync", "cuGraphGetEdges",
                                          "cuStreamGetCaptureInfo", "cuLaunchKernel"};
    char field[96];
    void *sync = NULL;
    CHECK(cudaFree(NULL));   // a current context, for cuCtxSynchronize below
    for (const char *symbol : symbols) {
        void *fn = NULL;
        enum cudaDriverEntryPointQueryResult status = (enum cudaDriverEntryPointQueryResult)7;
        cudaError_t e = cudaGetDriverEntryPoint(symbol, &fn, cudaEnableDefault, &status);
        snprintf(field, sizeof field, "cudaGetDriverEntryPoint(%s)", symbol);
        code(field, e);
        snprintf(field, sizeof field, "%s status", symbol);
        say(field, "%d, function %s", (int)status, fn ? "set" : "NULL");
        entry_point_vs_driver(symbol, fn);
        if (!strcmp(symbol, "cuCtxSynchronize"))
            sync = fn;
    }
    if (sync) {
        CUresult r = ((CUresult(*)(void))sync)();   // 12's ABI: no argument
        say("cuCtxSynchronize() through the entry point", "%d", (int)r);
        expect_true("cuCtxSynchronize() succeeds", r == CUDA_SUCCESS);
    }
}

static void case_set_double(void)
{
    double d = 1.5;
    code("cudaSetDoubleForDevice(NULL)", cudaSetDoubleForDevice(NULL));
    code("cudaSetDoubleForDevice(&d)", cudaSetDoubleForDevice(&d));
    say("d after cudaSetDoubleForDevice", "%g", d);
    code("cudaSetDoubleForHost(NULL)", cudaSetDoubleForHost(NULL));
    code("cudaSetDoubleForHost(&d)", cudaSetDoubleForHost(&d));
    say("d after cudaSetDoubleForHost", "%g", d);
}

static void pool_at(const char *field, enum cudaMemLocationType type, int id)
{
    struct cudaMemPoolProps props;
    memset(&props, 0, sizeof props);
    props.allocType = cudaMemAllocationTypePinned;
    props.handleTypes = cudaMemHandleTypeNone;
    props.location.type = type;
    props.location.id = id;
    cudaMemPool_t pool = NULL;
    cudaError_t e = cudaMemPoolCreate(&pool, &props);
    code(field, e);
    if (e == cudaSuccess) {
        void *p = NULL;
        code("  cudaMallocFromPoolAsync", cudaMallocFromPoolAsync(&p, 4096, pool, 0));
        if (p)
            code("  cudaFreeAsync", cudaFreeAsync(p, 0));
        code("  cudaStreamSynchronize", cudaStreamSynchronize(0));
        code("  cudaMemPoolDestroy", cudaMemPoolDestroy(pool));
    }
}

static void case_mempool_locations(void)
{
    pool_at("cudaMemPoolCreate(device 0)", cudaMemLocationTypeDevice, 0);
    pool_at("cudaMemPoolCreate(host)", cudaMemLocationTypeHost, 0);
    pool_at("cudaMemPoolCreate(host NUMA 0)", cudaMemLocationTypeHostNuma, 0);
    pool_at("cudaMemPoolCreate(host NUMA current)", cudaMemLocationTypeHostNumaCurrent, 0);
    pool_at("cudaMemPoolCreate(location type 0)", cudaMemLocationTypeInvalid, 0);
}

// Which way cudaGraphKernelNodeCopyAttributes(A, B) copies: 12.9's header names the parameters
// (hSrc, hDst), 13's (hDst, hSrc).  Only A has its attributes set.
static void case_copy_attributes(void)
{
    int *d = NULL;
    CHECK(cudaMalloc(&d, 256 * sizeof(int)));
    cudaGraph_t graph;
    CHECK(cudaGraphCreate(&graph, 0));
    int n = 256, base = 1;
    void *args[] = {&d, &n, &base};
    struct cudaKernelNodeParams params;
    memset(&params, 0, sizeof params);
    params.func = (void *)fill;
    params.gridDim = dim3(1);
    params.blockDim = dim3(256);
    params.kernelParams = args;
    cudaGraphNode_t a = NULL, b = NULL;
    CHECK(cudaGraphAddKernelNode(&a, graph, NULL, 0, &params));
    CHECK(cudaGraphAddKernelNode(&b, graph, NULL, 0, &params));
    int least = 0, greatest = 0;
    CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    cudaKernelNodeAttrValue v;
    memset(&v, 0, sizeof v);
    v.priority = greatest;
    code("set priority on A", cudaGraphKernelNodeSetAttribute(a, cudaKernelNodeAttributePriority, &v));
    memset(&v, 0, sizeof v);
    v.cooperative = 1;
    code("set cooperative on A", cudaGraphKernelNodeSetAttribute(a, cudaKernelNodeAttributeCooperative, &v));
    cudaKernelNodeAttrValue pa, pb, ca, cb;
    auto read = [&](const char *when) {
        memset(&pa, 0, sizeof pa);
        memset(&pb, 0, sizeof pb);
        memset(&ca, 0, sizeof ca);
        memset(&cb, 0, sizeof cb);
        CHECK(cudaGraphKernelNodeGetAttribute(a, cudaKernelNodeAttributePriority, &pa));
        CHECK(cudaGraphKernelNodeGetAttribute(b, cudaKernelNodeAttributePriority, &pb));
        CHECK(cudaGraphKernelNodeGetAttribute(a, cudaKernelNodeAttributeCooperative, &ca));
        CHECK(cudaGraphKernelNodeGetAttribute(b, cudaKernelNodeAttributeCooperative, &cb));
        say(when, "A priority %s, cooperative %d; B priority %s, cooperative %d",
            pa.priority == greatest ? "set" : pa.priority == 0 ? "0" : "other", ca.cooperative,
            pb.priority == greatest ? "set" : pb.priority == 0 ? "0" : "other", cb.cooperative);
    };
    read("before");
    code("cudaGraphKernelNodeCopyAttributes(A, B)", cudaGraphKernelNodeCopyAttributes(a, b));
    read("after");
    bool a_to_b = pb.priority == greatest && cb.cooperative == 1;
    bool b_to_a = pa.priority != greatest && ca.cooperative == 0;
    say("copied", "%s", a_to_b ? "from A to B (first argument is the source)"
                       : b_to_a ? "from B to A (first argument is the destination)"
                                : "neither way");
    CHECK(cudaGraphDestroy(graph));
    CHECK(cudaFree(d));
}

static void pointer_attributes(const char *what, const void *ptr)
{
    static unsigned char a[128], b[128];
    cudaError_t rc;
    struct written w = patterned(a, b, sizeof a, &rc, [ptr](unsigned char *buf) {
        return cudaPointerGetAttributes((struct cudaPointerAttributes *)buf, ptr);
    });
    char field[96];
    snprintf(field, sizeof field, "cudaPointerGetAttributes(%s)", what);
    code(field, rc);
    snprintf(field, sizeof field, "%s bytes written", what);
    say_written(field, w);
    const struct cudaPointerAttributes *p = (const struct cudaPointerAttributes *)a;
    snprintf(field, sizeof field, "%s attributes", what);
    say(field, "type %d, device %d, devicePointer %s, hostPointer %s", (int)p->type, p->device,
        p->devicePointer == ptr ? "= ptr" : p->devicePointer ? "other" : "NULL",
        p->hostPointer == ptr ? "= ptr" : p->hostPointer ? "other" : "NULL");
}

static void case_pointer_attributes(void)
{
    say("sizeof(cudaPointerAttributes)", "%zu", sizeof(struct cudaPointerAttributes));
    void *dev = NULL, *host = NULL, *managed = NULL;
    CHECK(cudaMalloc(&dev, 4096));
    CHECK(cudaMallocHost(&host, 4096));
    CHECK(cudaMallocManaged(&managed, 4096));
    static char pageable[4096];
    pointer_attributes("device", dev);
    pointer_attributes("pinned host", host);
    pointer_attributes("managed", managed);
    pointer_attributes("pageable", pageable);
    CHECK(cudaFree(dev));
    CHECK(cudaFreeHost(host));
    CHECK(cudaFree(managed));
}

// During a capture: the header's cudaStreamGetCaptureInfo (12's 6-argument _v2), the explicit
// _v3 (edge data), and the plain export's 3 arguments (dlsym).
static void case_capture_info(void)
{
    int *d = NULL;
    CHECK(cudaMalloc(&d, 256 * sizeof(int)));
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed));
    fill<<<1, 256, 0, s>>>(d, 256, 3);
    enum cudaStreamCaptureStatus st = (enum cudaStreamCaptureStatus)7;
    unsigned long long id2 = 0, id3 = 0, id_plain = 0;
    cudaGraph_t graph = NULL;
    const cudaGraphNode_t *deps = NULL;
    size_t ndeps = 99;
    code("cudaStreamGetCaptureInfo_v2", cudaStreamGetCaptureInfo(s, &st, &id2, &graph, &deps, &ndeps));
    say("_v2 answers", "status %d, id %s, graph %s, dependencies %zu%s", (int)st, id2 ? "set" : "0",
        graph ? "set" : "NULL", ndeps, deps ? "" : " (NULL list)");
    st = (enum cudaStreamCaptureStatus)7;
    const cudaGraphEdgeData *edges = NULL;
    ndeps = 99;
    code("cudaStreamGetCaptureInfo_v3", cudaStreamGetCaptureInfo_v3(s, &st, &id3, NULL, &deps, &edges, &ndeps));
    say("_v3 answers", "status %d, same id %s, dependencies %zu, edge data %s", (int)st,
        id3 == id2 ? "yes" : "no", ndeps, edges ? "set" : "NULL");
    typedef cudaError_t (*plain_fn)(cudaStream_t, enum cudaStreamCaptureStatus *, unsigned long long *);
    plain_fn plain = (plain_fn)runtime_symbol("cudaStreamGetCaptureInfo");
    say("dlsym cudaStreamGetCaptureInfo", "%s", plain ? "found" : "not found");
    if (plain) {
        st = (enum cudaStreamCaptureStatus)7;
        code("cudaStreamGetCaptureInfo (3 arguments)", plain(s, &st, &id_plain));
        say("plain answers", "status %d, same id %s", (int)st, id_plain == id2 ? "yes" : "no");
    }
    cudaGraph_t captured = NULL;
    code("cudaStreamEndCapture", cudaStreamEndCapture(s, &captured));
    if (plain) {
        st = (enum cudaStreamCaptureStatus)7;
        id_plain = 5;
        code("cudaStreamGetCaptureInfo (3 arguments) after", plain(s, &st, &id_plain));
        say("plain answers after", "status %d, id %llu", (int)st, id_plain);
    }
    if (captured) {
        size_t nodes = 0;
        code("cudaGraphGetNodes", cudaGraphGetNodes(captured, NULL, &nodes));
        say("captured nodes", "%zu", nodes);
        CHECK(cudaGraphDestroy(captured));
    }
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFree(d));
}

static void range_attribute(const char *field, void *p, size_t size, enum cudaMemRangeAttribute attr)
{
    int value = -7;
    cudaError_t e = cudaMemRangeGetAttribute(&value, sizeof value, attr, p, size);
    if (e != cudaSuccess)
        code(field, e);
    else
        say(field, "%d", value);
}

static void case_managed_advice(void)
{
    const size_t size = 2 << 20;
    void *p = NULL;
    CHECK(cudaMallocManaged(&p, size));
    memset(p, 1, size);
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    code("cudaMemAdvise(SetPreferredLocation, 0)", cudaMemAdvise(p, size, cudaMemAdviseSetPreferredLocation, 0));
    range_attribute("preferred location", p, size, cudaMemRangeAttributePreferredLocation);
    code("cudaMemAdvise(SetPreferredLocation, cudaCpuDeviceId)",
         cudaMemAdvise(p, size, cudaMemAdviseSetPreferredLocation, cudaCpuDeviceId));
    range_attribute("preferred location", p, size, cudaMemRangeAttributePreferredLocation);
    code("cudaMemAdvise(UnsetPreferredLocation, 0)", cudaMemAdvise(p, size, cudaMemAdviseUnsetPreferredLocation, 0));
    range_attribute("preferred location", p, size, cudaMemRangeAttributePreferredLocation);
    code("cudaMemAdvise(SetReadMostly, 0)", cudaMemAdvise(p, size, cudaMemAdviseSetReadMostly, 0));
    range_attribute("read mostly", p, size, cudaMemRangeAttributeReadMostly);
    code("cudaMemAdvise(UnsetReadMostly, 0)", cudaMemAdvise(p, size, cudaMemAdviseUnsetReadMostly, 0));
    code("cudaMemAdvise(SetAccessedBy, 0)", cudaMemAdvise(p, size, cudaMemAdviseSetAccessedBy, 0));
    code("cudaMemAdvise(SetAccessedBy, cudaCpuDeviceId)", cudaMemAdvise(p, size, cudaMemAdviseSetAccessedBy, cudaCpuDeviceId));
    code("cudaMemAdvise(SetPreferredLocation, 99)", cudaMemAdvise(p, size, cudaMemAdviseSetPreferredLocation, 99));
    code("cudaMemAdvise(SetPreferredLocation, -2)", cudaMemAdvise(p, size, cudaMemAdviseSetPreferredLocation, -2));
    code("cudaMemAdvise(advice 99, 0)", cudaMemAdvise(p, size, (enum cudaMemoryAdvise)99, 0));
    code("cudaMemAdvise(NULL pointer)", cudaMemAdvise((void *)0, size, cudaMemAdviseSetReadMostly, 0));

    code("cudaMemPrefetchAsync(0)", cudaMemPrefetchAsync(p, size, 0, s));
    code("  cudaStreamSynchronize", cudaStreamSynchronize(s));
    range_attribute("last prefetch location", p, size, cudaMemRangeAttributeLastPrefetchLocation);
    code("cudaMemPrefetchAsync(cudaCpuDeviceId)", cudaMemPrefetchAsync(p, size, cudaCpuDeviceId, s));
    code("  cudaStreamSynchronize", cudaStreamSynchronize(s));
    range_attribute("last prefetch location", p, size, cudaMemRangeAttributeLastPrefetchLocation);
    code("cudaMemPrefetchAsync(99)", cudaMemPrefetchAsync(p, size, 99, s));
    code("cudaMemPrefetchAsync(-2)", cudaMemPrefetchAsync(p, size, -2, s));
    code("cudaMemPrefetchAsync(0, legacy stream)", cudaMemPrefetchAsync(p, size, 0, 0));
    code("  cudaDeviceSynchronize", cudaDeviceSynchronize());
    range_attribute("last prefetch location", p, size, cudaMemRangeAttributeLastPrefetchLocation);

    // The _v2 names: 13's prototypes under 12's explicit names.
    struct cudaMemLocation host = {cudaMemLocationTypeHost, 0}, dev0 = {cudaMemLocationTypeDevice, 0};
    code("cudaMemAdvise_v2(SetPreferredLocation, device 0)", cudaMemAdvise_v2(p, size, cudaMemAdviseSetPreferredLocation, dev0));
    range_attribute("preferred location", p, size, cudaMemRangeAttributePreferredLocation);
    code("cudaMemAdvise_v2(SetPreferredLocation, host)", cudaMemAdvise_v2(p, size, cudaMemAdviseSetPreferredLocation, host));
    range_attribute("preferred location", p, size, cudaMemRangeAttributePreferredLocation);
    code("cudaMemPrefetchAsync_v2(device 0)", cudaMemPrefetchAsync_v2(p, size, dev0, 0, s));
    code("  cudaStreamSynchronize", cudaStreamSynchronize(s));
    range_attribute("last prefetch location", p, size, cudaMemRangeAttributeLastPrefetchLocation);
    code("cudaMemPrefetchAsync_v2(host)", cudaMemPrefetchAsync_v2(p, size, host, 0, s));
    code("  cudaStreamSynchronize", cudaStreamSynchronize(s));
    range_attribute("last prefetch location", p, size, cudaMemRangeAttributeLastPrefetchLocation);
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFree(p));
}

// ---- cudaLaunchCooperativeKernelMultiDevice ------------------------------------------------------

static int *coop_out;
static int coop_n = 4 * 64, coop_base = 100;
static void *coop_args[] = {&coop_out, &coop_n, &coop_base};

static struct cudaLaunchParams coop_params(cudaStream_t s)
{
    struct cudaLaunchParams p;
    memset(&p, 0, sizeof p);
    p.func = (void *)fill;
    p.gridDim = dim3(4);
    p.blockDim = dim3(64);
    p.args = coop_args;
    p.sharedMem = 0;
    p.stream = s;
    return p;
}

static void case_coop_multi_device(void)
{
    CHECK(cudaMalloc(&coop_out, coop_n * sizeof(int)));
    CHECK(cudaMemset(coop_out, 0, coop_n * sizeof(int)));
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    struct cudaLaunchParams p = coop_params(s);
    cudaError_t e = cudaLaunchCooperativeKernelMultiDevice(&p, 1, 0);
    code("cudaLaunchCooperativeKernelMultiDevice(1 device, flags 0)", e);
    code("  cudaStreamSynchronize", cudaStreamSynchronize(s));
    int *h = (int *)malloc(coop_n * sizeof(int));
    CHECK(cudaMemcpy(h, coop_out, coop_n * sizeof(int), cudaMemcpyDeviceToHost));
    int right = 0;
    for (int i = 0; i < coop_n; i++)
        right += h[i] == coop_base + i;
    say("elements the kernel wrote", "%d of %d", right, coop_n);
    if (e == cudaSuccess)
        expect_true("the cooperative kernel ran", right == coop_n);
    CHECK(cudaMemset(coop_out, 0, coop_n * sizeof(int)));
    code("cudaLaunchCooperativeKernelMultiDevice(1 device, no pre/post sync)",
         cudaLaunchCooperativeKernelMultiDevice(&p, 1, cudaCooperativeLaunchMultiDeviceNoPreSync |
                                                           cudaCooperativeLaunchMultiDeviceNoPostSync));
    code("  cudaStreamSynchronize", cudaStreamSynchronize(s));
    CHECK(cudaMemcpy(h, coop_out, coop_n * sizeof(int), cudaMemcpyDeviceToHost));
    right = 0;
    for (int i = 0; i < coop_n; i++)
        right += h[i] == coop_base + i;
    say("elements the kernel wrote", "%d of %d", right, coop_n);
    free(h);
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFree(coop_out));
    coop_out = NULL;
}

// One bad argument per case (each its own case, should one crash a runtime).
static cudaStream_t bad_stream(void)
{
    static cudaStream_t s;
    if (!s)
        CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    return s;
}

static void case_coop_null_list(void)
{
    code("cudaLaunchCooperativeKernelMultiDevice(NULL, 1, 0)", cudaLaunchCooperativeKernelMultiDevice(NULL, 1, 0));
}

static void case_coop_zero_devices(void)
{
    struct cudaLaunchParams p = coop_params(bad_stream());
    code("cudaLaunchCooperativeKernelMultiDevice(list, 0, 0)", cudaLaunchCooperativeKernelMultiDevice(&p, 0, 0));
}

static void case_coop_bad_flags(void)
{
    struct cudaLaunchParams p = coop_params(bad_stream());
    CHECK(cudaMalloc(&coop_out, coop_n * sizeof(int)));
    code("cudaLaunchCooperativeKernelMultiDevice(list, 1, 4)", cudaLaunchCooperativeKernelMultiDevice(&p, 1, 4));
    code("  cudaDeviceSynchronize", cudaDeviceSynchronize());
    CHECK(cudaFree(coop_out));
    coop_out = NULL;
}

static void case_coop_null_stream(void)
{
    struct cudaLaunchParams p = coop_params(NULL);
    CHECK(cudaMalloc(&coop_out, coop_n * sizeof(int)));
    code("cudaLaunchCooperativeKernelMultiDevice(NULL stream)", cudaLaunchCooperativeKernelMultiDevice(&p, 1, 0));
    code("  cudaDeviceSynchronize", cudaDeviceSynchronize());
    CHECK(cudaFree(coop_out));
    coop_out = NULL;
}

static void case_coop_same_device_twice(void)
{
    struct cudaLaunchParams p[2] = {coop_params(bad_stream()), coop_params(bad_stream())};
    CHECK(cudaMalloc(&coop_out, coop_n * sizeof(int)));
    code("cudaLaunchCooperativeKernelMultiDevice(2 entries, 1 device)", cudaLaunchCooperativeKernelMultiDevice(p, 2, 0));
    code("  cudaDeviceSynchronize", cudaDeviceSynchronize());
    CHECK(cudaFree(coop_out));
    coop_out = NULL;
}

static void case_coop_not_a_kernel(void)
{
    struct cudaLaunchParams p = coop_params(bad_stream());
    p.func = (void *)case_coop_not_a_kernel;
    code("cudaLaunchCooperativeKernelMultiDevice(not a kernel)", cudaLaunchCooperativeKernelMultiDevice(&p, 1, 0));
}

static void case_coop_too_many_blocks(void)
{
    struct cudaLaunchParams p = coop_params(bad_stream());
    p.gridDim = dim3(1 << 20);
    CHECK(cudaMalloc(&coop_out, coop_n * sizeof(int)));
    code("cudaLaunchCooperativeKernelMultiDevice(grid 1<<20)", cudaLaunchCooperativeKernelMultiDevice(&p, 1, 0));
    code("  cudaDeviceSynchronize", cudaDeviceSynchronize());
    CHECK(cudaFree(coop_out));
    coop_out = NULL;
}

// ---- the cudaThread* functions 13 removed ---------------------------------------------------------

static void case_thread_functions(void)
{
    code("cudaThreadSynchronize", cudaThreadSynchronize());
    size_t limit = 7;
    code("cudaThreadSetLimit(StackSize, 2048)", cudaThreadSetLimit(cudaLimitStackSize, 2048));
    code("cudaThreadGetLimit(StackSize)", cudaThreadGetLimit(&limit, cudaLimitStackSize));
    say("stack size", "%zu", limit);
    code("cudaThreadSetLimit(limit 99)", cudaThreadSetLimit((enum cudaLimit)99, 1));
    limit = 7;
    code("cudaThreadGetLimit(limit 99)", cudaThreadGetLimit(&limit, (enum cudaLimit)99));
    say("limit 99", "%zu", limit);
    enum cudaFuncCache cache = (enum cudaFuncCache)7;
    code("cudaThreadSetCacheConfig(PreferShared)", cudaThreadSetCacheConfig(cudaFuncCachePreferShared));
    code("cudaThreadGetCacheConfig", cudaThreadGetCacheConfig(&cache));
    say("cache config", "%d", (int)cache);
    code("cudaThreadSetCacheConfig(9)", cudaThreadSetCacheConfig((enum cudaFuncCache)9));
    code("cudaThreadSetCacheConfig(PreferNone)", cudaThreadSetCacheConfig(cudaFuncCachePreferNone));
    code("cudaThreadGetLimit(NULL)", cudaThreadGetLimit(NULL, cudaLimitStackSize));
    code("cudaThreadGetCacheConfig(NULL)", cudaThreadGetCacheConfig(NULL));
}

static void case_thread_exit(void)
{
    void *p = NULL;
    CHECK(cudaMalloc(&p, 4096));
    code("cudaThreadExit", cudaThreadExit());
    unsigned flags = 99;
    code("cudaGetDeviceFlags after", cudaGetDeviceFlags(&flags));
    code("cudaFree(pointer from before) after", cudaFree(p));
    void *q = NULL;
    code("cudaMalloc after", cudaMalloc(&q, 4096));
    if (q)
        code("cudaFree", cudaFree(q));
}

// ---- events, graph edges ---------------------------------------------------------------------------

static void case_elapsed_time(void)
{
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    float ms = -1;
    code("cudaEventElapsedTime(not recorded)", cudaEventElapsedTime(&ms, a, b));
    CHECK(cudaEventRecord(a, 0));
    code("cudaEventElapsedTime(end not recorded)", cudaEventElapsedTime(&ms, a, b));
    CHECK(cudaEventRecord(b, 0));
    CHECK(cudaEventSynchronize(b));
    code("cudaEventElapsedTime(both recorded)", cudaEventElapsedTime(&ms, a, b));
    say("elapsed time is a number >= 0", "%s", ms >= 0 ? "yes" : "no");
    typedef cudaError_t (*elapsed_fn)(float *, cudaEvent_t, cudaEvent_t);
    elapsed_fn v2 = (elapsed_fn)runtime_symbol("cudaEventElapsedTime_v2");
    say("dlsym cudaEventElapsedTime_v2", "%s", v2 ? "found" : "not found");
    if (v2) {
        cudaEvent_t c;
        CHECK(cudaEventCreate(&c));
        code("cudaEventElapsedTime_v2(end not recorded)", v2(&ms, a, c));
        code("cudaEventElapsedTime_v2(both recorded)", v2(&ms, a, b));
        CHECK(cudaEventDestroy(c));
    }
    cudaEvent_t nt;
    CHECK(cudaEventCreateWithFlags(&nt, cudaEventDisableTiming));
    CHECK(cudaEventRecord(nt, 0));
    CHECK(cudaEventSynchronize(nt));
    code("cudaEventElapsedTime(timing disabled)", cudaEventElapsedTime(&ms, a, nt));
    CHECK(cudaEventDestroy(nt));
    CHECK(cudaEventDestroy(a));
    CHECK(cudaEventDestroy(b));
}

static void case_graph_edges(void)
{
    cudaGraph_t g;
    CHECK(cudaGraphCreate(&g, 0));
    cudaGraphNode_t a, b, c = NULL;
    CHECK(cudaGraphAddEmptyNode(&a, g, NULL, 0));
    CHECK(cudaGraphAddEmptyNode(&b, g, &a, 1));
    // The union's members have constructors in C++: a zeroed buffer of its size instead.
    alignas(struct cudaGraphNodeParams) unsigned char raw[sizeof(struct cudaGraphNodeParams)];
    memset(raw, 0, sizeof raw);
    struct cudaGraphNodeParams *np = (struct cudaGraphNodeParams *)raw;
    np->type = cudaGraphNodeTypeEmpty;
    code("cudaGraphAddNode (5 arguments)", cudaGraphAddNode(&c, g, &b, 1, np));
    size_t n = 99;
    code("cudaGraphGetEdges (4 arguments)", cudaGraphGetEdges(g, NULL, NULL, &n));
    say("edges", "%zu", n);
    cudaGraphNode_t from[4], to[4];
    n = 4;
    code("cudaGraphGetEdges (lists)", cudaGraphGetEdges(g, from, to, &n));
    say("edges listed", "%zu, first %s", n, n >= 1 && from[0] == a && to[0] == b ? "a->b" : "other");
    cudaGraphEdgeData data[4];
    memset(data, 0x7f, sizeof data);
    n = 4;
    code("cudaGraphGetEdges_v2", cudaGraphGetEdges_v2(g, from, to, data, &n));
    say("edge data type of the first", "%d", n ? (int)data[0].type : -1);
    n = 99;
    code("cudaGraphNodeGetDependencies (3 arguments)", cudaGraphNodeGetDependencies(b, NULL, &n));
    say("dependencies of b", "%zu", n);
    n = 99;
    code("cudaGraphNodeGetDependentNodes (3 arguments)", cudaGraphNodeGetDependentNodes(b, NULL, &n));
    say("dependents of b", "%zu", n);
    code("cudaGraphRemoveDependencies (4 arguments)", cudaGraphRemoveDependencies(g, &a, &b, 1));
    code("cudaGraphAddDependencies (4 arguments)", cudaGraphAddDependencies(g, &a, &b, 1));
    code("cudaGraphAddDependencies (again)", cudaGraphAddDependencies(g, &a, &b, 1));
    CHECK(cudaGraphDestroy(g));
}

// ---- resource descriptors of 64 and 48 bytes --------------------------------------------------------

static void case_resource_descs(void)
{
    say("sizeof(cudaResourceDesc)", "%zu", sizeof(struct cudaResourceDesc));
    say("sizeof(cudaResourceViewDesc)", "%zu", sizeof(struct cudaResourceViewDesc));
    cudaChannelFormatDesc ch = cudaCreateChannelDesc<float>();
    cudaArray_t arr = NULL;
    CHECK(cudaMallocArray(&arr, &ch, 16, 16, cudaArraySurfaceLoadStore));
    struct cudaResourceDesc res;
    memset(&res, 0, sizeof res);
    res.resType = cudaResourceTypeArray;
    res.res.array.array = arr;
    struct cudaTextureDesc td;
    memset(&td, 0, sizeof td);
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t tex = 0;
    code("cudaCreateTextureObject", cudaCreateTextureObject(&tex, &res, &td, NULL));
    cudaSurfaceObject_t surf = 0;
    code("cudaCreateSurfaceObject", cudaCreateSurfaceObject(&surf, &res));
    static unsigned char a[256], b[256];
    cudaError_t rc;
    struct written w = patterned(a, b, sizeof a, &rc, [tex](unsigned char *buf) {
        return cudaGetTextureObjectResourceDesc((struct cudaResourceDesc *)buf, tex);
    });
    code("cudaGetTextureObjectResourceDesc", rc);
    say_written("bytes written", w);
    say("resType, same array", "%d, %s", (int)((struct cudaResourceDesc *)a)->resType,
        ((struct cudaResourceDesc *)a)->res.array.array == arr ? "yes" : "no");
    w = patterned(a, b, sizeof a, &rc, [tex](unsigned char *buf) {
        return cudaGetTextureObjectResourceViewDesc((struct cudaResourceViewDesc *)buf, tex);
    });
    code("cudaGetTextureObjectResourceViewDesc", rc);
    say_written("bytes written", w);
    w = patterned(a, b, sizeof a, &rc, [surf](unsigned char *buf) {
        return cudaGetSurfaceObjectResourceDesc((struct cudaResourceDesc *)buf, surf);
    });
    code("cudaGetSurfaceObjectResourceDesc", rc);
    say_written("bytes written", w);
    // Linear memory: the union's largest member (pitch2D) ends the 64 bytes.
    float *lin = NULL;
    CHECK(cudaMalloc(&lin, 16 * 16 * sizeof(float)));
    memset(&res, 0, sizeof res);
    res.resType = cudaResourceTypePitch2D;
    res.res.pitch2D.devPtr = lin;
    res.res.pitch2D.desc = ch;
    res.res.pitch2D.width = 16;
    res.res.pitch2D.height = 16;
    res.res.pitch2D.pitchInBytes = 16 * sizeof(float);
    cudaTextureObject_t tex2 = 0;
    code("cudaCreateTextureObject(pitch2D)", cudaCreateTextureObject(&tex2, &res, &td, NULL));
    w = patterned(a, b, sizeof a, &rc, [tex2](unsigned char *buf) {
        return cudaGetTextureObjectResourceDesc((struct cudaResourceDesc *)buf, tex2);
    });
    code("cudaGetTextureObjectResourceDesc(pitch2D)", rc);
    say_written("bytes written", w);
    const struct cudaResourceDesc *r = (const struct cudaResourceDesc *)a;
    say("pitch2D back", "type %d, same pointer %s, %zu x %zu, pitch %zu", (int)r->resType,
        r->res.pitch2D.devPtr == lin ? "yes" : "no", r->res.pitch2D.width, r->res.pitch2D.height,
        r->res.pitch2D.pitchInBytes);
    if (tex2)
        CHECK(cudaDestroyTextureObject(tex2));
    if (tex)
        CHECK(cudaDestroyTextureObject(tex));
    if (surf)
        CHECK(cudaDestroySurfaceObject(surf));
    CHECK(cudaFree(lin));
    CHECK(cudaFreeArray(arr));
}

// ---- the semaphores' legacy plain names (CUDA 11.1's _v1 parameters), one bad input per case ----

typedef cudaError_t (*signal_v1_fn)(const cudaExternalSemaphore_t *,
                                    const struct cudaExternalSemaphoreSignalParams_v1 *,
                                    unsigned int, cudaStream_t);
typedef cudaError_t (*wait_v1_fn)(const cudaExternalSemaphore_t *,
                                  const struct cudaExternalSemaphoreWaitParams_v1 *, unsigned int,
                                  cudaStream_t);

static void semaphore_signal_plain(const char *name, unsigned count, bool null_params)
{
    signal_v1_fn f = (signal_v1_fn)runtime_symbol(name);
    say("dlsym", "%s %s", name, f ? "found" : "not found");
    if (!f)
        return;
    cudaExternalSemaphore_t sems[1] = {NULL};
    struct cudaExternalSemaphoreSignalParams_v1 params[1];
    memset(params, 0, sizeof params);
    code(name, f(sems, null_params ? NULL : params, count, 0));
}

static void semaphore_wait_plain(const char *name, unsigned count, bool null_params)
{
    wait_v1_fn f = (wait_v1_fn)runtime_symbol(name);
    say("dlsym", "%s %s", name, f ? "found" : "not found");
    if (!f)
        return;
    cudaExternalSemaphore_t sems[1] = {NULL};
    struct cudaExternalSemaphoreWaitParams_v1 params[1];
    memset(params, 0, sizeof params);
    code(name, f(sems, null_params ? NULL : params, count, 0));
}

static void case_signal_plain_none(void) { semaphore_signal_plain("cudaSignalExternalSemaphoresAsync", 0, false); }
static void case_signal_plain_null_params(void) { semaphore_signal_plain("cudaSignalExternalSemaphoresAsync", 1, true); }
static void case_signal_plain_null_handle(void) { semaphore_signal_plain("cudaSignalExternalSemaphoresAsync", 1, false); }
static void case_signal_plain_ptsz_null_handle(void) { semaphore_signal_plain("cudaSignalExternalSemaphoresAsync_ptsz", 1, false); }
static void case_wait_plain_none(void) { semaphore_wait_plain("cudaWaitExternalSemaphoresAsync", 0, false); }
static void case_wait_plain_null_params(void) { semaphore_wait_plain("cudaWaitExternalSemaphoresAsync", 1, true); }
static void case_wait_plain_null_handle(void) { semaphore_wait_plain("cudaWaitExternalSemaphoresAsync", 1, false); }
static void case_wait_plain_ptsz_null_handle(void) { semaphore_wait_plain("cudaWaitExternalSemaphoresAsync_ptsz", 1, false); }

// The same through 12's header (cudaSignalExternalSemaphoresAsync_v2, 13's parameters).
static void case_signal_v2_none(void)
{
    cudaExternalSemaphore_t sems[1] = {NULL};
    struct cudaExternalSemaphoreSignalParams params[1];
    memset(params, 0, sizeof params);
    code("cudaSignalExternalSemaphoresAsync_v2(0 semaphores)", cudaSignalExternalSemaphoresAsync(sems, params, 0, 0));
}

static void case_wait_v2_none(void)
{
    cudaExternalSemaphore_t sems[1] = {NULL};
    struct cudaExternalSemaphoreWaitParams params[1];
    memset(params, 0, sizeof params);
    code("cudaWaitExternalSemaphoresAsync_v2(0 semaphores)", cudaWaitExternalSemaphoresAsync(sems, params, 0, 0));
}

// ---- the runner ------------------------------------------------------------------------------------

struct probe_case {
    const char *name;   // no spaces, no ':'
    void (*run)(void);
};

static const probe_case cases[] = {
    {"versions", case_versions},
    {"device_props_v2", case_device_props_v2},
    {"device_props_legacy", case_device_props_legacy},
    {"device_props_errors", case_device_props_errors},
    {"choose_device", case_choose_device},
    {"attributes", case_attributes},
    {"driver_entry_point", case_entry_point},
    {"set_double", case_set_double},
    {"mempool_locations", case_mempool_locations},
    {"kernel_node_copy_attributes", case_copy_attributes},
    {"pointer_attributes", case_pointer_attributes},
    {"capture_info", case_capture_info},
    {"managed_advice_prefetch", case_managed_advice},
    {"coop_multi_device", case_coop_multi_device},
    {"coop_multi_device.null_list", case_coop_null_list},
    {"coop_multi_device.zero_devices", case_coop_zero_devices},
    {"coop_multi_device.flags_4", case_coop_bad_flags},
    {"coop_multi_device.null_stream", case_coop_null_stream},
    {"coop_multi_device.same_device_twice", case_coop_same_device_twice},
    {"coop_multi_device.not_a_kernel", case_coop_not_a_kernel},
    {"coop_multi_device.grid_too_large", case_coop_too_many_blocks},
    {"thread_functions", case_thread_functions},
    {"elapsed_time", case_elapsed_time},
    {"graph_edges", case_graph_edges},
    {"resource_descs", case_resource_descs},
    {"signal_plain.none", case_signal_plain_none},
    {"signal_plain.null_params", case_signal_plain_null_params},
    {"signal_plain.null_handle", case_signal_plain_null_handle},
    {"signal_plain_ptsz.null_handle", case_signal_plain_ptsz_null_handle},
    {"wait_plain.none", case_wait_plain_none},
    {"wait_plain.null_params", case_wait_plain_null_params},
    {"wait_plain.null_handle", case_wait_plain_null_handle},
    {"wait_plain_ptsz.null_handle", case_wait_plain_ptsz_null_handle},
    {"signal_v2.none", case_signal_v2_none},
    {"wait_v2.none", case_wait_v2_none},
    {"thread_exit", case_thread_exit},   // last: it resets the device
};

int main(int argc, char **argv)
{
    gpu_require("conf_cuda12");
    const int count = (int)(sizeof cases / sizeof cases[0]);
    int start = argc > 1 ? atoi(argv[1]) : 0;
    if (start < 0 || start > count) {
        printf("conf_cuda12: start index %d outside 0..%d\n", start, count);
        return 1;
    }
    for (int i = start; i < count; i++) {
        printf("case %d %s:", i, cases[i].name);   // unbuffered: written before the calls
        (void)cudaGetLastError();
        used = 0;
        lines[0] = '\0';
        cases[i].run();
        int n = 0;
        for (size_t k = 0; k < used; k++)
            n += lines[k] == '\n';
        // The rest in one piece per line, each line of the case carrying its name, so that a
        // case listed in expected_differences12.txt leaves the comparison whole.
        printf(" %d lines\n", n);
        for (char *line = lines, *end; *line; line = end + 1) {
            end = strchr(line, '\n');
            *end = '\0';
            printf("case %d %s: %s\n", i, cases[i].name, line);
        }
    }
    printf("conf_cuda12: end of %d cases, %s\n", count, ok ? "every check passed" : "a check FAILED");
    return ok ? 0 : 1;
}
