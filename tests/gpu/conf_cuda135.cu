// gpu-cuda: 13.5
// conf_cuda135.cu - what CUDA 13.5 added to functions the runtime already had, where driver 580
// (CUDA 13.0) has what they need or the answer is a documented fact, compared line by line
// between NVIDIA's 13.5 runtime and minicudart: the version, the new error codes' names and
// messages, the new members of cudaFuncAttributes and cudaPointerAttributes, device attributes
// 148-160, the per-block memory limit, the shared memory mode of a function and of a launch,
// the portable cluster size mode, memory pool attributes 0x9-0xF, and graph nodes with 13.5's
// new members (a context, a kernel's function type, a host node's sync mode).  A member the
// runtime did not write keeps a marker (12345 here) that the line shows.  Codes are printed
// as number and name; exit 0 pass, 1 fail, 2 no GPU.
#include "probe.h"

#if CUDART_VERSION < 13050
#error "needs CUDA 13.5's headers (the gpu-cuda mark: run.sh and the CMake trees build it only with nvcc 13.5)"
#endif

static const int UNTOUCHED = 12345;

static const int N = 4096;

__global__ void add(int *p, int n, int value)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] += value;
}

__global__ void store(int *out, int value)
{
    *out = value;
}

// Static shared memory, so that the attributes have something to say.
__global__ void with_shared(int *out)
{
    __shared__ int buffer[256];
    buffer[threadIdx.x] = (int)threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = buffer[255 - threadIdx.x];
}

// ---- version and error codes ----------------------------------------------------------------

static void version_and_errors(void)
{
    int runtime = 0, driver = 0;
    CHECK(cudaRuntimeGetVersion(&runtime));
    CHECK(cudaDriverGetVersion(&driver));
    printf("cudaRuntimeGetVersion: %d (headers %d)\n", runtime, CUDART_VERSION);
    printf("cudaDriverGetVersion: %d\n", driver);
    ok &= runtime == CUDART_VERSION;

    static const struct {
        int code;
        const char *name;
    } added[] = {
        {10, "cudaErrorVersionTranslation"},   {227, "cudaErrorInsufficientLoaderVersion"},
        {917, "cudaErrorStreamDetached"},      {918, "cudaErrorGraphRecaptureFailure"},
        {919, "cudaErrorFabricNotReady"},
    };
    for (auto &a : added) {
        const char *name = cudaGetErrorName((cudaError_t)a.code);
        printf("error %d: %s: %s\n", a.code, name, cudaGetErrorString((cudaError_t)a.code));
        if (strcmp(name, a.name) != 0) {
            printf("  expected the name %s\n", a.name);
            ok = 0;
        }
    }
    check("the enumerators have the codes", cudaErrorVersionTranslation == 10 &&
                                                cudaErrorInsufficientLoaderVersion == 227 &&
                                                cudaErrorStreamDetached == 917 &&
                                                cudaErrorGraphRecaptureFailure == 918 &&
                                                cudaErrorFabricNotReady == 919);
}

// ---- function attributes and the shared memory mode -----------------------------------------

static void print_func_attributes(const char *what, const void *func)
{
    cudaFuncAttributes a;
    memset(&a, 0, sizeof a);
    a.deviceNodeUpdateStatus = UNTOUCHED;
    a.sharedMemoryMode = (cudaSharedMemoryMode)UNTOUCHED;
    cudaError_t e = probe(what, cudaFuncGetAttributes(&a, func));
    if (e != cudaSuccess) {
        ok = 0;
        return;
    }
    printf("  shared %zu, const %zu, local %zu, maxThreads %d, regs %d, ptx %d, binary %d, "
           "cacheModeCA %d, maxDynamicShared %d, carveout %d\n",
           a.sharedSizeBytes, a.constSizeBytes, a.localSizeBytes, a.maxThreadsPerBlock,
           a.numRegs, a.ptxVersion, a.binaryVersion, a.cacheModeCA, a.maxDynamicSharedSizeBytes,
           a.preferredShmemCarveout);
    printf("  clusterDimMustBeSet %d, requiredCluster %d %d %d, schedulingPolicy %d, "
           "nonPortableClusterSizeAllowed %d\n",
           a.clusterDimMustBeSet, a.requiredClusterWidth, a.requiredClusterHeight,
           a.requiredClusterDepth, a.clusterSchedulingPolicyPreference,
           a.nonPortableClusterSizeAllowed);
    printf("  deviceNodeUpdateStatus %d\n", a.deviceNodeUpdateStatus);
    // On its own line: NVIDIA's 13.5 runtime answers a size there on driver 580
    // (expected_differences.txt).
    printf("  sharedMemoryMode %d\n", (int)a.sharedMemoryMode);
    int reserved_set = 0;
    for (int i = 0; i < 14; i++)
        reserved_set += a.reserved[i] != 0;
    printf("  reserved members nonzero: %d\n", reserved_set);
}

static void function_attributes(void)
{
    print_func_attributes("cudaFuncGetAttributes(add)", (const void *)add);
    print_func_attributes("cudaFuncGetAttributes(with_shared)", (const void *)with_shared);
    probe("cudaFuncSetAttribute(add, SharedMemoryMode, RequirePortable)",
          cudaFuncSetAttribute((const void *)add, cudaFuncAttributeSharedMemoryMode,
                               cudaSharedMemoryModeRequirePortable));
    print_func_attributes("cudaFuncGetAttributes(add) after it", (const void *)add);
    probe("cudaFuncSetAttribute(add, SharedMemoryMode, AllowNonPortable)",
          cudaFuncSetAttribute((const void *)add, cudaFuncAttributeSharedMemoryMode,
                               cudaSharedMemoryModeAllowNonPortable));
    probe("cudaFuncSetAttribute(add, SharedMemoryMode, 99)",
          cudaFuncSetAttribute((const void *)add, cudaFuncAttributeSharedMemoryMode, 99));
    probe("cudaFuncSetAttribute(add, SharedMemoryMode, Default)",
          cudaFuncSetAttribute((const void *)add, cudaFuncAttributeSharedMemoryMode,
                               cudaSharedMemoryModeDefault));
    // The function still launches, whatever the mode calls answered.
    int *out = NULL, h = 0;
    CHECK(cudaMalloc((void **)&out, sizeof(int)));
    CHECK(cudaMemset(out, 0, sizeof(int)));
    add<<<1, 1>>>(out, 1, 5);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(&h, out, sizeof h, cudaMemcpyDeviceToHost));
    check("add launches after the shared memory mode calls", h == 5);
    CHECK(cudaFree(out));
}

// ---- pointer attributes: the locality domain ordinal ----------------------------------------

static void pointer_attributes(void)
{
    void *device = NULL, *pinned = NULL, *managed = NULL;
    CHECK(cudaMalloc(&device, 1 << 20));
    CHECK(cudaMallocHost(&pinned, 1 << 20));
    CHECK(cudaMallocManaged(&managed, 1 << 20));
    void *pageable = malloc(1 << 20);
    struct {
        const char *what;
        void *ptr;
    } cases[] = {
        {"cudaPointerGetAttributes(cudaMalloc)", device},
        {"cudaPointerGetAttributes(cudaMallocHost)", pinned},
        {"cudaPointerGetAttributes(cudaMallocManaged)", managed},
        {"cudaPointerGetAttributes(malloc)", pageable},
    };
    for (auto &c : cases) {
        cudaPointerAttributes a;
        memset(&a, 0, sizeof a);
        a.localityDomainOrdinal = UNTOUCHED;
        if (probe(c.what, cudaPointerGetAttributes(&a, c.ptr)) == cudaSuccess)
            printf("  type %d, device %d, localityDomainOrdinal %d\n", (int)a.type, a.device,
                   a.localityDomainOrdinal);
    }
    free(pageable);
    CHECK(cudaFree(device));
    CHECK(cudaFreeHost(pinned));
    CHECK(cudaFree(managed));
}

// ---- device attributes 148-160 and the per-block memory limit -------------------------------

static void device_attributes(void)
{
    for (int attr = 148; attr <= 160; attr++) {
        const char *name = "(undeclared)";
        switch (attr) {
        case cudaDevAttrAtomicReductionSupported: name = "AtomicReductionSupported"; break;
        case cudaDevAttrLocalityDomainCount: name = "LocalityDomainCount"; break;
        case cudaDevAttrOversizedSharedMemoryPerBlock: name = "OversizedSharedMemoryPerBlock"; break;
        case cudaDevAttrCigStreamsSupported: name = "CigStreamsSupported"; break;
        case cudaDevAttrLocalityDomainMultiprocessorCount:
            name = "LocalityDomainMultiprocessorCount";
            break;
        case cudaDevAttrTensorMapLargeTensorMinSize: name = "TensorMapLargeTensorMinSize"; break;
        }
        char what[96];
        snprintf(what, sizeof what, "cudaDeviceGetAttribute(%d %s)", attr, name);
        int value = UNTOUCHED;
        if (probe(what, cudaDeviceGetAttribute(&value, (cudaDeviceAttr)attr, 0)) == cudaSuccess)
            printf("  value %d\n", value);
    }
    size_t limit = UNTOUCHED;
    if (probe("cudaDeviceGetLimit(cudaLimitPerBlockMemorySize)",
              cudaDeviceGetLimit(&limit, cudaLimitPerBlockMemorySize)) == cudaSuccess)
        printf("  value %zu\n", limit);
}

// ---- memory pool attributes 0x9-0xF of the default pool -------------------------------------

static void mempool_attributes(void)
{
    cudaMemPool_t pool = NULL;
    CHECK(cudaDeviceGetDefaultMemPool(&pool, 0));
    static const struct {
        cudaMemPoolAttr attr;
        const char *name;
        bool wide;   // a 64-bit value (cuuint64_t); the others are int or an enum
    } attrs[] = {
        {cudaMemPoolAttrAllocationType, "AllocationType", false},
        {cudaMemPoolAttrExportHandleTypes, "ExportHandleTypes", false},
        {cudaMemPoolAttrLocationId, "LocationId", false},
        {cudaMemPoolAttrLocationType, "LocationType", false},
        {cudaMemPoolAttrMaxPoolSize, "MaxPoolSize", true},
        {cudaMemPoolAttrHwDecompressEnabled, "HwDecompressEnabled", false},
        {cudaMemPoolAttrLocalityDomainId, "LocalityDomainId", false},
    };
    for (auto &a : attrs) {
        char what[96];
        snprintf(what, sizeof what, "cudaMemPoolGetAttribute(default pool, 0x%X %s)",
                 (unsigned)a.attr, a.name);
        unsigned long long value[2] = {0, 0};
        if (probe(what, cudaMemPoolGetAttribute(pool, a.attr, value)) != cudaSuccess)
            continue;
        if (a.wide)
            printf("  value %llu\n", value[0]);
        else
            printf("  value %d\n", *(int *)value);
    }
}

// ---- launch attributes 17 (portable cluster size mode) and 18 (shared memory mode) ----------

static void launch_attributes(void)
{
    int *out = NULL;
    CHECK(cudaMalloc((void **)&out, sizeof(int)));
    struct {
        const char *what;
        int portable;   // -1: attribute 17 not set
        int shared;     // -1: attribute 18 not set
    } cases[] = {
        {"PortableClusterSizeMode RequirePortable", cudaLaunchPortableClusterModeRequirePortable,
         -1},
        {"PortableClusterSizeMode AllowNonPortable",
         cudaLaunchPortableClusterModeAllowNonPortable, -1},
        {"PortableClusterSizeMode Default", cudaLaunchPortableClusterModeDefault, -1},
        {"PortableClusterSizeMode 7 (not a mode)", 7, -1},
        {"SharedMemoryMode Default", -1, cudaSharedMemoryModeDefault},
        {"SharedMemoryMode RequirePortable", -1, cudaSharedMemoryModeRequirePortable},
        {"SharedMemoryMode AllowNonPortable", -1, cudaSharedMemoryModeAllowNonPortable},
        {"both: RequirePortable, RequirePortable", cudaLaunchPortableClusterModeRequirePortable,
         cudaSharedMemoryModeRequirePortable},
    };
    int value = 0;
    for (auto &c : cases) {
        cudaLaunchAttribute attrs[2];
        memset(attrs, 0, sizeof attrs);
        unsigned n = 0;
        if (c.portable >= 0) {
            attrs[n].id = cudaLaunchAttributePortableClusterSizeMode;
            attrs[n++].val.portableClusterSizeMode =
                (cudaLaunchAttributePortableClusterMode)c.portable;
        }
        if (c.shared >= 0) {
            attrs[n].id = cudaLaunchAttributeSharedMemoryMode;
            attrs[n++].val.sharedMemoryMode = (cudaSharedMemoryMode)c.shared;
        }
        cudaLaunchConfig_t config;
        memset(&config, 0, sizeof config);
        config.gridDim = dim3(1);
        config.blockDim = dim3(1);
        config.attrs = attrs;
        config.numAttrs = n;
        CHECK(cudaMemset(out, 0, sizeof(int)));
        value++;
        void *args[] = {&out, &value};
        char what[120];
        snprintf(what, sizeof what, "cudaLaunchKernelExC(store, %s)", c.what);
        if (probe(what, cudaLaunchKernelExC(&config, (const void *)store, args)) == cudaSuccess) {
            int h = 0;
            CHECK(cudaMemcpy(&h, out, sizeof h, cudaMemcpyDeviceToHost));
            check("  the kernel ran", h == value);
        }
    }
    CHECK(cudaFree(out));
}

// ---- graph nodes with 13.5's members --------------------------------------------------------

static int host_calls;
static void CUDART_CB count_call(void *user)
{
    host_calls += (int)(intptr_t)user;
}

// Adds a node after *last (when there is one) and makes it the new last one, if it was added.
static bool add_node(const char *what, cudaGraph_t g, cudaGraphNode_t *last,
                     cudaGraphNodeParams *p)
{
    cudaGraphNode_t node = NULL;
    cudaError_t e = probe(what, cudaGraphAddNode(&node, g, *last ? last : NULL, NULL,
                                                 *last ? 1 : 0, p));
    if (e != cudaSuccess)
        return false;
    *last = node;
    return true;
}

static void graph_nodes(void)
{
    int *d = NULL, n = N;
    CHECK(cudaMalloc((void **)&d, N * sizeof(int)));
    CHECK(cudaMemset(d, 0x7f, N * sizeof(int)));
    cudaExecutionContext_t primary = NULL;
    CHECK(cudaDeviceGetExecutionCtx(&primary, 0));
    cudaKernel_t kernel = NULL;
    CHECK(cudaGetKernel(&kernel, add));
    cudaFunction_t function = NULL;
    CHECK(cudaGetFuncBySymbol(&function, (const void *)add));

    cudaGraph_t g = NULL;
    CHECK(cudaGraphCreate(&g, 0));
    cudaGraphNode_t last = NULL;
    int want = 0, want_calls = 0;

    cudaGraphNodeParams p = {};
    p.type = cudaGraphNodeTypeMemset;
    p.memset.dst = d;
    p.memset.value = 0;
    p.memset.elementSize = 4;
    p.memset.width = N;
    p.memset.height = 1;
    p.memset.ctx = primary;
    bool zeroed = add_node("cudaGraphAddNode(memset, ctx primary)", g, &last, &p);

    int one = 1, two = 2, four = 4, eight = 8;
    void *args1[] = {&d, &n, &one}, *args2[] = {&d, &n, &two}, *args4[] = {&d, &n, &four},
         *args8[] = {&d, &n, &eight};
    struct {
        const char *what;
        cudaKernelFunctionType type;
        cudaExecutionContext_t ctx;
        void **args;
        int adds;
    } kernels[] = {
        {"cudaGraphAddNode(kernel, DeviceEntry, ctx NULL)", cudaKernelFunctionTypeDeviceEntry,
         NULL, args1, 1},
        {"cudaGraphAddNode(kernel, Kernel, ctx NULL)", cudaKernelFunctionTypeKernel, NULL, args2,
         2},
        {"cudaGraphAddNode(kernel, Unspecified, ctx primary)",
         cudaKernelFunctionTypeUnspecified, primary, args4, 4},
        {"cudaGraphAddNode(kernel, Function, ctx NULL)", cudaKernelFunctionTypeFunction, NULL,
         args8, 8},
    };
    for (auto &k : kernels) {
        p = {};
        p.type = cudaGraphNodeTypeKernel;
        if (k.type == cudaKernelFunctionTypeKernel)
            p.kernel.kern = kernel;
        else if (k.type == cudaKernelFunctionTypeFunction)
            p.kernel.cuFunc = function;
        else
            p.kernel.func = (void *)add;
        p.kernel.functionType = k.type;
        p.kernel.ctx = k.ctx;
        p.kernel.gridDim = dim3(N / 256);
        p.kernel.blockDim = dim3(256);
        p.kernel.kernelParams = k.args;
        if (add_node(k.what, g, &last, &p))
            want += k.adds;
    }

    p = {};
    p.type = cudaGraphNodeTypeHost;
    p.host.fn = count_call;
    p.host.userData = (void *)(intptr_t)1;
    p.host.syncMode = cudaHostTaskBlocking;
    if (add_node("cudaGraphAddNode(host, syncMode 0, ctx NULL)", g, &last, &p))
        want_calls += 1;
    p.host.userData = (void *)(intptr_t)10;
    p.host.syncMode = cudaHostTaskSpinWait;
    if (add_node("cudaGraphAddNode(host, syncMode 1)", g, &last, &p))
        want_calls += 10;
    p.host.userData = (void *)(intptr_t)100;
    p.host.syncMode = 0;
    p.host.ctx = primary;
    if (add_node("cudaGraphAddNode(host, syncMode 0, ctx primary)", g, &last, &p))
        want_calls += 100;

    size_t count = 0;
    CHECK(cudaGraphGetNodes(g, NULL, &count));
    printf("graph: %zu nodes\n", count);
    // Instantiated and launched with whatever nodes were accepted (a runtime may take a sync
    // mode or a function type at cudaGraphAddNode that driver 580 then refuses: the codes show).
    cudaGraphExec_t exec = NULL;
    if (probe("cudaGraphInstantiate", cudaGraphInstantiate(&exec, g, 0)) == cudaSuccess) {
        CHECK(cudaGraphLaunch(exec, 0));
        CHECK(cudaDeviceSynchronize());
        static int h[N];
        CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
        int wrong = 0;
        for (int i = 0; i < N; i++)
            wrong += zeroed ? h[i] != want : h[i] != 0x7f7f7f7f + want;
        printf("graph launched: kernels added %d to each element (%d wrong), host nodes %d\n",
               want, wrong, host_calls);
        ok &= wrong == 0 && host_calls == want_calls;
        CHECK(cudaGraphExecDestroy(exec));
    }
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaFree(d));
}

int main(void)
{
    gpu_require("conf_cuda135");
    version_and_errors();
    function_attributes();
    pointer_attributes();
    device_attributes();
    mempool_attributes();
    launch_attributes();
    graph_nodes();
    expect("cudaGetLastError at the end", cudaGetLastError(), cudaSuccess);
    printf("conf_cuda135: %s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
