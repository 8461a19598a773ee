// conf_graph_memory.cu - CUDA graph memory under both runtimes (the node types and topology:
// conf_graph_nodes.cu):
//   - memory nodes: cudaGraphAddMemAllocNode (device 0, pinned pool) + kernels writing into the
//     allocation + a memcpy out + cudaGraphAddMemFreeNode; cudaGraphMemAllocNodeGetParams,
//     cudaGraphMemFreeNodeGetParams; the same through cudaGraphAddNode; cudaGraphExecUpdate of a
//     graph with memory nodes; cudaGraphNodeSetParams / cudaGraphExecNodeSetParams on them;
//   - cudaDeviceGetGraphMemAttribute (all four; only whether a value is zero or at least the
//     allocation's size is printed), cudaDeviceSetGraphMemAttribute (reset of the high
//     watermarks, invalid sets), cudaDeviceGraphMemTrim;
//   - an allocation made by a graph and freed outside it (cudaFree, cudaFreeAsync), the relaunch
//     refused while it is unfreed, cudaGraphInstantiateFlagAutoFreeOnLaunch, cudaGraphExecGetFlags;
//   - memcpy nodes: cudaGraphAddMemcpyNodeToSymbol / FromSymbol with offsets,
//     cudaGraphMemcpyNodeGetParams, cudaGraphMemcpyNodeSetParams / 1D / ToSymbol / FromSymbol
//     and the cudaGraphExecMemcpyNodeSetParams / 1D / ToSymbol / FromSymbol variants, each
//     verified by the next launch; memcpy nodes with CUDA array operands (host -> array,
//     array -> device with a row offset);
//   - a stream capture that inspects and extends its own graph while capturing, as PyTorch's
//     caching allocator does (cudaStreamGetCaptureInfo, cudaGraphGetNodes, NodeGetType,
//     GetDependentNodes / GetDependencies, cudaStreamUpdateCaptureDependencies set and add,
//     fork/join onto a second stream), and cudaMallocAsync / cudaFreeAsync captured as memory
//     alloc / free nodes.
// Only results, counts, booleans (pointer equals X) and error codes are printed.
#include "graph_conf.h"

__device__ int sym[64];

__global__ void fill(int *p, int n, int v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = v;
}

__global__ void add(int *p, int n, int v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] += v;
}

// dst[i] = src[i] + v
__global__ void copy_add(int *dst, const int *src, int n, int v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        dst[i] = src[i] + v;
}

/* d[0..count) equals want[0..count). */
static void expect_ints(const char *what, const int *d, const int *want, int count)
{
    int h[64];
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h, d, count * sizeof(int), cudaMemcpyDeviceToHost));
    long long sum = 0;
    int bad = 0;
    for (int i = 0; i < count; i++) {
        sum += h[i];
        bad += h[i] != want[i];
    }
    printf("%-56s: %d values, sum %lld, %d wrong\n", what, count, sum, bad);
    ok &= bad == 0;
}

static cudaKernelNodeParams kernel_params(const void *func, void **args)
{
    cudaKernelNodeParams kp;
    memset(&kp, 0, sizeof kp);
    kp.func = (void *)func;
    kp.gridDim = dim3(GRID);
    kp.blockDim = dim3(128);
    kp.kernelParams = args;
    return kp;
}

static cudaMemPoolProps pinned_on_device_0(void)
{
    cudaMemPoolProps props;
    memset(&props, 0, sizeof props);
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = 0;
    return props;
}

// A graph memory attribute as a class: zero, at least `size`, or in between.
static const char *size_class(unsigned long long v, size_t size)
{
    return v == 0 ? "zero" : v >= size ? "at least the allocation" : "below the allocation";
}

static void print_mem_attributes(const char *when, size_t size)
{
    static const cudaGraphMemAttributeType attrs[4] = {
        cudaGraphMemAttrUsedMemCurrent, cudaGraphMemAttrUsedMemHigh,
        cudaGraphMemAttrReservedMemCurrent, cudaGraphMemAttrReservedMemHigh};
    static const char *const names[4] = {"used", "used high", "reserved", "reserved high"};
    printf("graph memory %s:", when);
    for (int i = 0; i < 4; i++) {
        unsigned long long v = 0;
        cudaError_t e = cudaDeviceGetGraphMemAttribute(0, attrs[i], &v);
        if (e != cudaSuccess)
            printf(" %s error " ERR_FMT ";", names[i], ERR_ARGS(e));
        else
            printf(" %s %s;", names[i], size_class(v, size));
    }
    printf("\n");
}

// ---- alloc node -> kernels -> memcpy out -> free node; graph memory attributes ----
static void alloc_nodes(void)
{
    const size_t size = N * sizeof(int);
    int *out, n = N, seven = 7, one = 1;
    CHECK(cudaMalloc((void **)&out, size));
    cudaGraph_t g;
    cudaGraphNode_t alloc, set, inc, copy, release;
    CHECK(cudaGraphCreate(&g, 0));
    cudaMemAllocNodeParams ap;
    memset(&ap, 0, sizeof ap);
    ap.poolProps = pinned_on_device_0();
    ap.bytesize = size;
    CHECK(cudaGraphAddMemAllocNode(&alloc, g, NULL, 0, &ap));
    int *buf = (int *)ap.dptr;
    printf("alloc node: address returned %d\n", buf != NULL);
    void *fill_args[] = {&buf, &n, &seven}, *add_args[] = {&buf, &n, &one};
    cudaKernelNodeParams kp = kernel_params((const void *)fill, fill_args);
    CHECK(cudaGraphAddKernelNode(&set, g, &alloc, 1, &kp));
    kp = kernel_params((const void *)add, add_args);
    CHECK(cudaGraphAddKernelNode(&inc, g, &set, 1, &kp));
    CHECK(cudaGraphAddMemcpyNode1D(&copy, g, &inc, 1, out, buf, size, cudaMemcpyDeviceToDevice));
    CHECK(cudaGraphAddMemFreeNode(&release, g, &copy, 1, buf));
    print_types("alloc graph", g, cudaGraphNodeTypeCount);

    cudaMemAllocNodeParams back;
    memset(&back, 0, sizeof back);
    CHECK(cudaGraphMemAllocNodeGetParams(alloc, &back));
    printf("alloc node params: bytesize %zu, alloc type %d, handle types %d, location %d/%d, "
           "max size %zu, access descs %zu, dptr is the one given %d\n",
           back.bytesize, (int)back.poolProps.allocType, (int)back.poolProps.handleTypes,
           (int)back.poolProps.location.type, back.poolProps.location.id, back.poolProps.maxSize,
           back.accessDescCount, back.dptr == buf);
    void *freed = NULL;
    CHECK(cudaGraphMemFreeNodeGetParams(release, &freed));
    printf("free node params: dptr is the allocation %d\n", freed == buf);

    CHECK(cudaDeviceGraphMemTrim(0));
    unsigned long long zero = 0;
    CHECK(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &zero));
    CHECK(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrReservedMemHigh, &zero));
    print_mem_attributes("before instantiation", size);
    cudaGraphExec_t exec;
    CHECK(cudaGraphInstantiate(&exec, g, 0));
    for (int round = 1; round <= 3; round++) {
        CHECK(cudaGraphLaunch(exec, 0));
        char what[64];
        snprintf(what, sizeof what, "alloc graph launch %d: out", round);
        expect_all(what, out, 8);
    }
    print_mem_attributes("after 3 launches", size);
    probe("set used high to 0", cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh,
                                                                &zero));
    probe("set reserved high to 0",
          cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrReservedMemHigh, &zero));
    unsigned long long one_byte = 1;
    probe("set used high to 1",
          cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &one_byte));
    probe("set used current to 0",
          cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &zero));
    unsigned long long v = 0;
    probe("get attribute 99", cudaDeviceGetGraphMemAttribute(0, (cudaGraphMemAttributeType)99,
                                                             &v));
    probe("get used current, device 99",
          cudaDeviceGetGraphMemAttribute(99, cudaGraphMemAttrUsedMemCurrent, &v));
    print_mem_attributes("after resetting the high watermarks", size);

    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaDeviceSynchronize());
    probe("cudaDeviceGraphMemTrim(0)", cudaDeviceGraphMemTrim(0));
    probe("cudaDeviceGraphMemTrim(99)", cudaDeviceGraphMemTrim(99));
    print_mem_attributes("after exec destroy and trim", size);
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaFree(out));
}

// ---- an allocation the graph makes and the program frees ----
static void free_outside(void)
{
    const size_t size = N * sizeof(int);
    int n = N, v = 42;
    cudaGraph_t g;
    cudaGraphNode_t alloc, set;
    CHECK(cudaGraphCreate(&g, 0));
    cudaMemAllocNodeParams ap;
    memset(&ap, 0, sizeof ap);
    ap.poolProps = pinned_on_device_0();
    ap.bytesize = size;
    CHECK(cudaGraphAddMemAllocNode(&alloc, g, NULL, 0, &ap));
    int *buf = (int *)ap.dptr;
    void *args[] = {&buf, &n, &v};
    cudaKernelNodeParams kp = kernel_params((const void *)fill, args);
    CHECK(cudaGraphAddKernelNode(&set, g, &alloc, 1, &kp));

    cudaGraphExec_t exec, second = NULL;
    unsigned long long flags = 99;
    CHECK(cudaGraphInstantiate(&exec, g, 0));
    CHECK(cudaGraphExecGetFlags(exec, &flags));
    printf("exec flags: %llu\n", flags);
    probe("second instantiation of a graph with alloc nodes", cudaGraphInstantiate(&second, g, 0));
    if (second)
        CHECK(cudaGraphExecDestroy(second));
    CHECK(cudaGraphLaunch(exec, 0));
    expect_all("graph allocation read after the launch", buf, 42);
    probe("relaunch while the allocation is unfreed", cudaGraphLaunch(exec, 0));
    CHECK(cudaDeviceSynchronize());
    probe("cudaFree(graph allocation)", cudaFree(buf));
    v = 43;
    CHECK(cudaGraphExecKernelNodeSetParams(exec, set, &kp));
    probe("relaunch after cudaFree", cudaGraphLaunch(exec, 0));
    expect_all("graph allocation after relaunch", buf, 43);
    probe("cudaFreeAsync(graph allocation)", cudaFreeAsync(buf, 0));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaGraphExecDestroy(exec));

    CHECK(cudaGraphInstantiate(&exec, g, cudaGraphInstantiateFlagAutoFreeOnLaunch));
    CHECK(cudaGraphExecGetFlags(exec, &flags));
    printf("exec flags (auto free on launch): %llu\n", flags);
    for (int round = 1; round <= 2; round++) {
        // The graph's kernel node still fills 42: the 43 was set on the first exec only.
        probe("launch with auto free", cudaGraphLaunch(exec, 0));
        expect_all("graph allocation (auto free)", buf, 42);
    }
    probe("cudaFree(graph allocation) after auto-free launches", cudaFree(buf));
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(g));
}

// ---- memory nodes through cudaGraphAddNode; cudaGraphExecUpdate of such a graph ----
static void generic_memory_nodes(void)
{
    const size_t size = N * sizeof(int);
    int *out, n = N, v = 3;
    CHECK(cudaMalloc((void **)&out, size));
    cudaGraph_t g;
    cudaGraphNode_t alloc, set, copy, release;
    CHECK(cudaGraphCreate(&g, 0));
    cudaGraphNodeParams p = {};
    memset(&p, 0, sizeof p);
    p.type = cudaGraphNodeTypeMemAlloc;
    p.alloc.poolProps = pinned_on_device_0();
    p.alloc.bytesize = size;
    CHECK(cudaGraphAddNode(&alloc, g, NULL, NULL, 0, &p));
    int *buf = (int *)p.alloc.dptr;
    void *args[] = {&buf, &n, &v};
    cudaKernelNodeParams kp = kernel_params((const void *)fill, args);
    CHECK(cudaGraphAddKernelNode(&set, g, &alloc, 1, &kp));
    CHECK(cudaGraphAddMemcpyNode1D(&copy, g, &set, 1, out, buf, size, cudaMemcpyDeviceToDevice));
    cudaGraphNodeParams fp = {};
    memset(&fp, 0, sizeof fp);
    fp.type = cudaGraphNodeTypeMemFree;
    fp.free.dptr = buf;
    cudaGraphEdgeData edge;
    memset(&edge, 0, sizeof edge);
    CHECK(cudaGraphAddNode(&release, g, &copy, &edge, 1, &fp));
    printf("generic alloc node type %d, free node type %d\n", (int)type_of(alloc),
           (int)type_of(release));
    cudaMemAllocNodeParams back;
    memset(&back, 0, sizeof back);
    CHECK(cudaGraphMemAllocNodeGetParams(alloc, &back));
    printf("generic alloc node: bytesize %zu, dptr is the one returned %d\n", back.bytesize,
           back.dptr == buf);
    void *freed = NULL;
    CHECK(cudaGraphMemFreeNodeGetParams(release, &freed));
    printf("generic free node: dptr is the allocation %d\n", freed == buf);
    probe("cudaGraphNodeSetParams(alloc node)", cudaGraphNodeSetParams(alloc, &p));
    probe("cudaGraphNodeSetParams(free node)", cudaGraphNodeSetParams(release, &fp));

    cudaGraphExec_t exec;
    CHECK(cudaGraphInstantiate(&exec, g, 0));
    probe("cudaGraphExecNodeSetParams(free node)", cudaGraphExecNodeSetParams(exec, release, &fp));
    for (int round = 1; round <= 2; round++) {
        CHECK(cudaGraphLaunch(exec, 0));
        expect_all("generic memory nodes: out", out, 3);
    }
    v = 9;
    CHECK(cudaGraphKernelNodeSetParams(set, &kp));
    cudaGraphExecUpdateResultInfo info;
    memset(&info, 0, sizeof info);
    cudaError_t e = cudaGraphExecUpdate(exec, g, &info);
    printf("exec update of a graph with memory nodes -> " ERR_FMT ", result %d, error node %d\n",
           ERR_ARGS(e), (int)info.result, info.errorNode != NULL);
    (void)cudaGetLastError();
    CHECK(cudaGraphLaunch(exec, 0));
    expect_all("after exec update: out", out, e == cudaSuccess ? 9 : 3);
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaFree(out));
}

// Prints a memcpy node's parameters: kind, extent, positions, and which pointers it holds.
static void show_copy(const char *what, cudaGraphNode_t node, const void *src, const void *dst,
                      size_t offset)
{
    cudaMemcpy3DParms m;
    memset(&m, 0, sizeof m);
    CHECK(cudaGraphMemcpyNodeGetParams(node, &m));
    const char *s = (const char *)m.srcPtr.ptr, *d = (const char *)m.dstPtr.ptr;
    printf("%s: kind %d, extent %zu/%zu/%zu, src pos %zu/%zu/%zu, dst pos %zu/%zu/%zu, "
           "src is given %d (+offset %d), dst is given %d (+offset %d), arrays %d/%d\n",
           what, (int)m.kind, m.extent.width, m.extent.height, m.extent.depth, m.srcPos.x,
           m.srcPos.y, m.srcPos.z, m.dstPos.x, m.dstPos.y, m.dstPos.z, s == src,
           s == (const char *)src + offset, d == dst, d == (const char *)dst + offset,
           m.srcArray != NULL, m.dstArray != NULL);
}

// ---- memcpy nodes to and from a __device__ symbol, and every setter ----
static void symbol_copies(void)
{
    const size_t chunk = 16 * sizeof(int);
    int ha[N], hb[N], zeros[64] = {0};
    for (int i = 0; i < N; i++) {
        ha[i] = i + 1;
        hb[i] = 1000 + i;
    }
    int *a, *b, *out, *out2;
    CHECK(cudaMalloc((void **)&a, sizeof ha));
    CHECK(cudaMalloc((void **)&b, sizeof hb));
    CHECK(cudaMalloc((void **)&out, N * sizeof(int)));
    CHECK(cudaMalloc((void **)&out2, N * sizeof(int)));
    CHECK(cudaMemcpy(a, ha, sizeof ha, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(b, hb, sizeof hb, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(out, 0, N * sizeof(int)));
    CHECK(cudaMemset(out2, 0, N * sizeof(int)));
    CHECK(cudaMemcpyToSymbol(sym, zeros, sizeof zeros));
    void *sym_addr = NULL;
    CHECK(cudaGetSymbolAddress(&sym_addr, sym));

    // a[0..16) -> sym[8..24) -> out[0..16) -> out2[0..16)
    cudaGraph_t g;
    cudaGraphNode_t to, from, one;
    CHECK(cudaGraphCreate(&g, 0));
    CHECK(cudaGraphAddMemcpyNodeToSymbol(&to, g, NULL, 0, sym, a, chunk, 8 * sizeof(int),
                                         cudaMemcpyDeviceToDevice));
    CHECK(cudaGraphAddMemcpyNodeFromSymbol(&from, g, &to, 1, out, sym, chunk, 8 * sizeof(int),
                                           cudaMemcpyDeviceToDevice));
    CHECK(cudaGraphAddMemcpyNode1D(&one, g, &from, 1, out2, out, chunk,
                                   cudaMemcpyDeviceToDevice));
    show_copy("to symbol node", to, a, sym_addr, 8 * sizeof(int));
    show_copy("from symbol node", from, sym_addr, out, 8 * sizeof(int));
    show_copy("1D node", one, out, out2, 0);
    cudaGraphExec_t exec, exec2;
    CHECK(cudaGraphInstantiate(&exec, g, 0));
    CHECK(cudaGraphLaunch(exec, 0));
    expect_ints("symbol round trip: out[0..16) = a[0..16)", out, ha, 16);
    expect_ints("1D copy: out2[0..16) = a[0..16)", out2, ha, 16);

    // Graph setters: b[0..16) -> sym[0..16) -> out[0..16); 1D then 3D params on the last node.
    CHECK(cudaGraphMemcpyNodeSetParamsToSymbol(to, sym, b, chunk, 0, cudaMemcpyDeviceToDevice));
    CHECK(cudaGraphMemcpyNodeSetParamsFromSymbol(from, out, sym, chunk, 0,
                                                 cudaMemcpyDeviceToDevice));
    CHECK(cudaGraphMemcpyNodeSetParams1D(one, out2 + 16, out, chunk, cudaMemcpyDeviceToDevice));
    show_copy("1D node after SetParams1D", one, out, out2 + 16, 0);
    cudaMemcpy3DParms m;
    memset(&m, 0, sizeof m);
    m.srcPtr = make_cudaPitchedPtr(out, chunk, 16, 1);
    m.dstPtr = make_cudaPitchedPtr(out2 + 32, chunk, 16, 1);
    m.extent = make_cudaExtent(chunk, 1, 1);
    m.kind = cudaMemcpyDeviceToDevice;
    CHECK(cudaGraphMemcpyNodeSetParams(one, &m));
    show_copy("to symbol node after SetParamsToSymbol", to, b, sym_addr, 0);
    show_copy("from symbol node after SetParamsFromSymbol", from, sym_addr, out, 0);
    show_copy("1D node after SetParams", one, out, out2 + 32, 0);
    CHECK(cudaGraphInstantiate(&exec2, g, 0));
    CHECK(cudaGraphLaunch(exec2, 0));
    expect_ints("graph setters: out[0..16) = b[0..16)", out, hb, 16);
    expect_ints("graph setters: out2[32..48) = b[0..16)", out2 + 32, hb, 16);
    expect_ints("graph setters: out2[16..32) untouched", out2 + 16, zeros, 16);

    // Exec setters on the first exec: b[16..32) -> sym[32..48) -> out[16..32) -> out2[48..64).
    CHECK(cudaGraphExecMemcpyNodeSetParamsToSymbol(exec, to, sym, b + 16, chunk,
                                                   32 * sizeof(int), cudaMemcpyDeviceToDevice));
    CHECK(cudaGraphExecMemcpyNodeSetParamsFromSymbol(exec, from, out + 16, sym, chunk,
                                                     32 * sizeof(int), cudaMemcpyDeviceToDevice));
    CHECK(cudaGraphExecMemcpyNodeSetParams1D(exec, one, out2 + 48, out + 16, chunk,
                                             cudaMemcpyDeviceToDevice));
    CHECK(cudaGraphLaunch(exec, 0));
    expect_ints("exec setters: out[16..32) = b[16..32)", out + 16, hb + 16, 16);
    expect_ints("exec setters: out2[48..64) = b[16..32)", out2 + 48, hb + 16, 16);
    // ... and 3D params on the second: out[0..16) -> out2[64..80).
    m.dstPtr = make_cudaPitchedPtr(out2 + 64, chunk, 16, 1);
    CHECK(cudaGraphExecMemcpyNodeSetParams(exec2, one, &m));
    CHECK(cudaGraphLaunch(exec2, 0));
    expect_ints("exec 3D setter: out2[64..80) = b[0..16)", out2 + 64, hb, 16);
    show_copy("1D node unchanged by exec setters", one, out, out2 + 32, 0);
    int hsym[64];
    CHECK(cudaMemcpyFromSymbol(hsym, sym, sizeof hsym));
    int bad = 0;
    for (int i = 0; i < 64; i++)
        bad += hsym[i] != (i < 16   ? hb[i]
                           : i < 24 ? ha[i - 8]
                           : i < 32 ? 0
                           : i < 48 ? hb[i - 16]
                                    : 0);
    printf("symbol contents: %d wrong\n", bad);
    ok &= bad == 0;

    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphExecDestroy(exec2));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
    CHECK(cudaFree(out));
    CHECK(cudaFree(out2));
}

// ---- memcpy nodes with a CUDA array: host -> array (16x4 floats), array rows 1..3 -> device ----
static void array_copies(void)
{
    cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
    cudaArray_t arr;
    CHECK(cudaMallocArray(&arr, &desc, 16, 4));
    float *host, *dev, back[64];
    CHECK(cudaMallocHost((void **)&host, 64 * sizeof(float)));
    CHECK(cudaMalloc((void **)&dev, 64 * sizeof(float)));
    CHECK(cudaMemset(dev, 0, 64 * sizeof(float)));
    for (int i = 0; i < 64; i++)
        host[i] = 0.5f * (float)i;

    cudaMemcpy3DParms in, out;
    memset(&in, 0, sizeof in);
    in.srcPtr = make_cudaPitchedPtr(host, 16 * sizeof(float), 16, 4);
    in.dstArray = arr;
    in.extent = make_cudaExtent(16, 4, 1);
    in.kind = cudaMemcpyHostToDevice;
    memset(&out, 0, sizeof out);
    out.srcArray = arr;
    out.srcPos = make_cudaPos(0, 1, 0);
    out.dstPtr = make_cudaPitchedPtr(dev, 16 * sizeof(float), 16, 4);
    out.extent = make_cudaExtent(16, 3, 1);
    out.kind = cudaMemcpyDeviceToDevice;
    cudaGraph_t g;
    cudaGraphNode_t n_in, n_out;
    CHECK(cudaGraphCreate(&g, 0));
    CHECK(cudaGraphAddMemcpyNode(&n_in, g, NULL, 0, &in));
    CHECK(cudaGraphAddMemcpyNode(&n_out, g, &n_in, 1, &out));
    cudaMemcpy3DParms m;
    memset(&m, 0, sizeof m);
    CHECK(cudaGraphMemcpyNodeGetParams(n_out, &m));
    printf("array -> device node: src array is arr %d, dst array %d, src pos %zu/%zu/%zu, "
           "extent %zu/%zu/%zu, kind %d, dst is dev %d\n", m.srcArray == arr,
           m.dstArray != NULL, m.srcPos.x, m.srcPos.y, m.srcPos.z, m.extent.width,
           m.extent.height, m.extent.depth, (int)m.kind, m.dstPtr.ptr == dev);
    memset(&m, 0, sizeof m);
    CHECK(cudaGraphMemcpyNodeGetParams(n_in, &m));
    printf("host -> array node: dst array is arr %d, src is host %d, extent %zu/%zu/%zu, "
           "kind %d\n", m.dstArray == arr, m.srcPtr.ptr == host, m.extent.width,
           m.extent.height, m.extent.depth, (int)m.kind);

    cudaGraphExec_t exec;
    CHECK(cudaGraphInstantiate(&exec, g, 0));
    CHECK(cudaGraphLaunch(exec, 0));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(back, dev, sizeof back, cudaMemcpyDeviceToHost));
    int bad = 0;
    double sum = 0;
    for (int i = 0; i < 64; i++) {
        float want = i < 48 ? host[i + 16] : 0.0f;
        bad += back[i] != want;
        sum += back[i];
    }
    printf("array copies: sum %.1f, %d wrong\n", sum, bad);
    ok &= bad == 0;
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaFreeArray(arr));
    CHECK(cudaFreeHost(host));
    CHECK(cudaFree(dev));
}

// ---- a capture that inspects and extends its own graph ----
static void capture_introspection(void)
{
    int *x, *y, *z, n = N, three = 3, four = 4, hundred = 100, five = 5;
    CHECK(cudaMalloc((void **)&x, N * sizeof(int)));
    CHECK(cudaMalloc((void **)&y, N * sizeof(int)));
    CHECK(cudaMalloc((void **)&z, N * sizeof(int)));
    cudaStream_t s, s2;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    cudaEvent_t fork, join;
    CHECK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
    CHECK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));

    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    fill<<<GRID, 128, 0, s>>>(x, n, three);
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    unsigned long long id = 0;
    cudaGraph_t capturing = NULL;
    const cudaGraphNode_t *deps = NULL;
    const cudaGraphEdgeData *edge_data = NULL;
    size_t ndeps = 0;
    CHECK(cudaStreamGetCaptureInfo(s, &status, &id, &capturing, &deps, &edge_data, &ndeps));
    printf("capturing: status %d, graph given %d, %zu dependencies\n", (int)status,
           capturing != NULL, ndeps);
    cudaGraphNode_t first = ndeps ? deps[0] : NULL;
    printf("capturing: dependency type %d, graph has %zu nodes\n", (int)type_of(first),
           node_count(capturing));

    // A node added by hand after the captured kernel becomes the stream's dependency.
    cudaGraphNode_t manual, extra;
    void *add_args[] = {&x, &n, &four};
    cudaKernelNodeParams kp = kernel_params((const void *)add, add_args);
    CHECK(cudaGraphAddKernelNode(&manual, capturing, &first, 1, &kp));
    CHECK(cudaStreamUpdateCaptureDependencies(s, &manual, NULL, 1,
                                              cudaStreamSetCaptureDependencies));
    cudaGraphNode_t list[8];
    size_t nl = 8;
    CHECK(cudaGraphNodeGetDependentNodes(first, list, NULL, &nl));
    printf("captured kernel: %zu dependents, the manual node %d\n", nl,
           contains(list, nl, manual));
    nl = 8;
    CHECK(cudaGraphNodeGetDependencies(manual, list, NULL, &nl));
    printf("manual node: %zu dependencies, the captured kernel %d\n", nl,
           contains(list, nl, first));
    CHECK(cudaGraphAddEmptyNode(&extra, capturing, NULL, 0));
    CHECK(cudaStreamUpdateCaptureDependencies(s, &extra, NULL, 1,
                                              cudaStreamAddCaptureDependencies));
    CHECK(cudaStreamGetCaptureInfo(s, &status, NULL, NULL, &deps, NULL, &ndeps));
    printf("after add dependencies: %zu, manual %d, empty %d\n", ndeps,
           contains(deps, ndeps, manual), contains(deps, ndeps, extra));

    // Fork: s2 computes y = x + 100 while s fills z = 5; join: z += ... via copy_add.
    CHECK(cudaEventRecord(fork, s));
    CHECK(cudaStreamWaitEvent(s2, fork, 0));
    copy_add<<<GRID, 128, 0, s2>>>(y, x, n, hundred);
    CHECK(cudaStreamIsCapturing(s2, &status));
    printf("forked stream capture status %d\n", (int)status);
    fill<<<GRID, 128, 0, s>>>(z, n, five);
    CHECK(cudaEventRecord(join, s2));
    CHECK(cudaStreamWaitEvent(s, join, 0));
    copy_add<<<GRID, 128, 0, s>>>(z, y, n, five);
    cudaGraph_t graph = NULL;
    CHECK(cudaStreamEndCapture(s, &graph));
    printf("end capture: the graph inspected %d\n", graph == capturing);
    print_types("captured graph", graph, cudaGraphNodeTypeCount);
    printf("captured graph: %zu edges\n", edge_count(graph));
    printf("last error after capture: " ERR_FMT "\n", ERR_ARGS(cudaGetLastError()));

    cudaGraphExec_t exec;
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    for (int round = 1; round <= 2; round++) {
        CHECK(cudaGraphLaunch(exec, s));
        CHECK(cudaStreamSynchronize(s));
        expect_all("captured: x = 3 + 4", x, 7);
        expect_all("captured: y = x + 100", y, 107);
        expect_all("captured: z = y + 5", z, 112);
    }
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(graph));
    CHECK(cudaEventDestroy(fork));
    CHECK(cudaEventDestroy(join));
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaStreamDestroy(s2));
    CHECK(cudaFree(x));
    CHECK(cudaFree(y));
    CHECK(cudaFree(z));
}


// ---- cudaMallocAsync / cudaFreeAsync captured: memory alloc and free nodes ----
static void capture_allocations(void)
{
    const size_t size = N * sizeof(int);
    int *out, *buf = NULL, n = N;
    CHECK(cudaMalloc((void **)&out, size));
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    probe("cudaMallocAsync while capturing", cudaMallocAsync((void **)&buf, size, s));
    fill<<<GRID, 128, 0, s>>>(buf, n, 11);
    copy_add<<<GRID, 128, 0, s>>>(out, buf, n, 1);
    probe("cudaFreeAsync while capturing", cudaFreeAsync(buf, s));
    cudaGraph_t graph = NULL;
    CHECK(cudaStreamEndCapture(s, &graph));
    cudaGraphNode_t alloc = print_types("captured allocations", graph, cudaGraphNodeTypeMemAlloc);
    cudaGraphNode_t release = print_types("captured allocations (again)", graph,
                                          cudaGraphNodeTypeMemFree);
    printf("captured allocations: %zu edges\n", edge_count(graph));
    if (alloc && release) {
        cudaMemAllocNodeParams back;
        memset(&back, 0, sizeof back);
        CHECK(cudaGraphMemAllocNodeGetParams(alloc, &back));
        void *freed = NULL;
        CHECK(cudaGraphMemFreeNodeGetParams(release, &freed));
        printf("captured alloc node: bytesize %zu, alloc type %d, location %d/%d, dptr is the "
               "captured pointer %d, free node frees it %d\n",
               back.bytesize, (int)back.poolProps.allocType, (int)back.poolProps.location.type,
               back.poolProps.location.id, back.dptr == buf, freed == buf);
    }
    cudaGraphExec_t exec;
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    for (int round = 1; round <= 2; round++) {
        CHECK(cudaGraphLaunch(exec, s));
        CHECK(cudaStreamSynchronize(s));
        expect_all("captured allocation: out = 11 + 1", out, 12);
    }
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(graph));
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFree(out));
}

int main(void)
{
    gpu_require("conf_graph_memory");
    alloc_nodes();
    free_outside();
    generic_memory_nodes();
    symbol_copies();
    array_copies();
    capture_introspection();
    capture_allocations();
    printf("last error at the end: " ERR_FMT "\n", ERR_ARGS(cudaGetLastError()));
    printf("conf_graph_memory: %s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
