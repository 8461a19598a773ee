// conf_memory.cu - host, pinned, mapped, registered and managed memory, asynchronous, 2D, 3D,
// peer and batched copies and sets, prefetch and discard batches, symbols and pointer attributes: results as checksums, and the codes of
// invalid calls (each followed by the last error).  Lines must match under both runtimes.
#include "gpu_check.h"

#include <stdint.h>
#include <string.h>

__device__ int sym[16];

__global__ void scale(int *p, int n, int k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = p[i] * k + i;
}

__global__ void sym_add(int *p) { p[threadIdx.x] += 100; }

__global__ void iota(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = i * 5 + 1;
}

static int failures;

static unsigned long checksum(const void *data, size_t n)
{
    const unsigned char *b = (const unsigned char *)data;
    unsigned long h = 5381;
    for (size_t i = 0; i < n; i++)
        h = h * 33 + b[i];
    return h & 0xffffffffUL;
}

// Prints a call's code and the last error after it; when `want` is not -1 the code must match.
static void probe(const char *what, cudaError_t got, int want)
{
    cudaError_t last = cudaGetLastError();
    printf("%-52s -> " ERR_FMT ", last " ERR_FMT "\n", what, ERR_ARGS(got), ERR_ARGS(last));
    if (want >= 0 && (int)got != want) {
        printf("  expected %d\n", want);
        failures++;
    }
}

static void expect_int(const char *what, long got, long want)
{
    printf("%-52s = %ld\n", what, got);
    if (got != want) {
        printf("  expected %ld\n", want);
        failures++;
    }
}

static void fill(int *p, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = i * 3 + 1;
}

static long sum_scaled(int n, int k)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += (long)(i * 3 + 1) * k + i;
    return s;
}

static long sum(const int *p, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += p[i];
    return s;
}

static const char *yes(bool b) { return b ? "yes" : "no"; }

static void attributes(const char *what, const void *ptr, const void *want_dev,
                       const void *want_host)
{
    cudaPointerAttributes a;
    memset(&a, 0, sizeof a);
    cudaError_t e = cudaPointerGetAttributes(&a, ptr);
    if (e != cudaSuccess || a.type == cudaMemoryTypeUnregistered) {
        printf("attributes %-14s -> " ERR_FMT " type %d\n", what, ERR_ARGS(e), (int)a.type);
        return;
    }
    printf("attributes %-14s -> " ERR_FMT " type %d device %d devicePointer %s hostPointer %s\n",
           what, ERR_ARGS(e), (int)a.type, a.device, yes(a.devicePointer == want_dev),
           yes(a.hostPointer == want_host));
}

// Batches of copies (CUDA 12.8/13.0) on the per-thread stream (a batch may not use the legacy
// stream): host to device, device to device, device to host, each checked by its data.
static void copy_batches(void)
{
    const int n = 256;
    const size_t bytes = n * sizeof(int);
    cudaStream_t ps = cudaStreamPerThread;
    static int host_a[256], host_b[256], back[256];
    fill(host_a, n);
    for (int i = 0; i < n; i++)
        host_b[i] = 7 * i - 3;
    int *da = NULL, *db = NULL, *dc = NULL;
    CHECK(cudaMalloc((void **)&da, bytes));
    CHECK(cudaMalloc((void **)&db, bytes));
    CHECK(cudaMalloc((void **)&dc, bytes));
    cudaMemcpyAttributes attrs[2];
    memset(attrs, 0, sizeof attrs);
    attrs[0].srcAccessOrder = cudaMemcpySrcAccessOrderStream;
    attrs[1].srcAccessOrder = cudaMemcpySrcAccessOrderDuringApiCall;
    attrs[1].flags = cudaMemcpyFlagPreferOverlapWithCompute;
    size_t idxs[2] = {0, 1};
    void *h2d_dsts[2] = {da, db};
    const void *h2d_srcs[2] = {host_a, host_b};
    size_t whole[2] = {bytes, bytes}, halves[2] = {bytes / 2, bytes / 2};
    probe("cudaMemcpyBatchAsync(H2D x2, 2 attributes)",
          cudaMemcpyBatchAsync(h2d_dsts, h2d_srcs, whole, 2, attrs, idxs, 2, ps), cudaSuccess);
    void *d2d_dsts[2] = {dc, dc + n / 2};
    const void *d2d_srcs[2] = {da, db + n / 2};
    probe("cudaMemcpyBatchAsync(D2D x2)",
          cudaMemcpyBatchAsync(d2d_dsts, d2d_srcs, halves, 2, attrs, idxs, 1, ps), cudaSuccess);
    void *d2h_dsts[1] = {back};
    const void *d2h_srcs[1] = {dc};
    probe("cudaMemcpyBatchAsync(D2H)",
          cudaMemcpyBatchAsync(d2h_dsts, d2h_srcs, whole, 1, attrs, idxs, 1, ps), cudaSuccess);
    CHECK(cudaStreamSynchronize(ps));
    expect_int("batch copies: sum of the halves", sum(back, n),
               sum(host_a, n / 2) + sum(host_b + n / 2, n / 2));
    printf("batch copies checksum %lu\n", checksum(back, bytes));
    probe("cudaMemcpyBatchAsync(stream 0)",
          cudaMemcpyBatchAsync(d2h_dsts, d2h_srcs, whole, 1, attrs, idxs, 1, 0), -1);
    probe("cudaMemcpyBatchAsync(count 0)",
          cudaMemcpyBatchAsync(NULL, NULL, NULL, 0, NULL, NULL, 0, ps), -1);
    CHECK(cudaFree(da));
    CHECK(cudaFree(db));
    CHECK(cudaFree(dc));
}

static cudaMemcpy3DBatchOp batch_op(cudaMemcpy3DOperand src, cudaMemcpy3DOperand dst,
                                    cudaExtent extent)
{
    cudaMemcpy3DBatchOp op;
    memset(&op, 0, sizeof op);
    op.src = src;
    op.dst = dst;
    op.extent = extent;
    op.srcAccessOrder = cudaMemcpySrcAccessOrderStream;
    return op;
}

static cudaMemcpy3DOperand pointer_operand(void *p, size_t row, size_t layer)
{
    cudaMemcpy3DOperand o;
    memset(&o, 0, sizeof o);
    o.type = cudaMemcpyOperandTypePointer;
    o.op.ptr.ptr = p;
    o.op.ptr.rowLength = row;
    o.op.ptr.layerHeight = layer;
    return o;
}

// 3D batches: an 8 x 4 x 2 box of bytes from host rows of 16 (layers of 6 rows) into a 3D array
// at (4, 2, 0), out of it into packed device memory, and back to the host.
static void copy_3d_batches(void)
{
    cudaStream_t ps = cudaStreamPerThread;
    static unsigned char src[2][6][16], box[2][4][8];
    for (size_t i = 0; i < sizeof src; i++)
        ((unsigned char *)src)[i] = (unsigned char)(i * 11 + 3);
    cudaChannelFormatDesc desc = cudaCreateChannelDesc<unsigned char>();
    cudaArray_t array = NULL;
    CHECK(cudaMalloc3DArray(&array, &desc, make_cudaExtent(16, 8, 2), 0));
    unsigned char *packed = NULL;
    CHECK(cudaMalloc((void **)&packed, sizeof box));
    cudaMemcpy3DOperand in_array;
    memset(&in_array, 0, sizeof in_array);
    in_array.type = cudaMemcpyOperandTypeArray;
    in_array.op.array.array = array;
    in_array.op.array.offset.x = 4;
    in_array.op.array.offset.y = 2;
    cudaExtent extent = make_cudaExtent(8, 4, 2);
    cudaMemcpy3DBatchOp op = batch_op(pointer_operand(src, 16, 6), in_array, extent);
    probe("cudaMemcpy3DBatchAsync(host -> array)", cudaMemcpy3DBatchAsync(1, &op, 0, ps),
          cudaSuccess);
    op = batch_op(in_array, pointer_operand(packed, 0, 0), extent);
    probe("cudaMemcpy3DBatchAsync(array -> device)", cudaMemcpy3DBatchAsync(1, &op, 0, ps),
          cudaSuccess);
    op = batch_op(pointer_operand(packed, 8, 4), pointer_operand(box, 0, 0), extent);
    probe("cudaMemcpy3DBatchAsync(device -> host)", cudaMemcpy3DBatchAsync(1, &op, 0, ps),
          cudaSuccess);
    CHECK(cudaStreamSynchronize(ps));
    int mismatches = 0;
    for (int z = 0; z < 2; z++)
        for (int y = 0; y < 4; y++)
            for (int x = 0; x < 8; x++)
                mismatches += box[z][y][x] != src[z][y][x];
    expect_int("3D batches: bytes that differ from the source box", mismatches, 0);
    printf("3D batch checksum %lu\n", checksum(box, sizeof box));
    probe("cudaMemcpy3DBatchAsync(stream 0)", cudaMemcpy3DBatchAsync(1, &op, 0, 0), -1);
    CHECK(cudaFreeArray(array));
    CHECK(cudaFree(packed));
}

// Prefetch and discard batches of managed memory, with a kernel between them.
static void range_batches(void)
{
    const int n = 1024;
    const size_t half = n * sizeof(int);
    cudaStream_t ps = cudaStreamPerThread;
    int *m = NULL;
    CHECK(cudaMallocManaged((void **)&m, 2 * half, cudaMemAttachGlobal));
    fill(m, 2 * n);
    void *ptrs[2] = {m, m + n};
    size_t sizes[2] = {half, half}, idxs[2] = {0, 1};
    cudaMemLocation locs[2] = {{cudaMemLocationTypeDevice, 0}, {cudaMemLocationTypeHost, 0}};
    probe("cudaMemPrefetchBatchAsync(device, host)",
          cudaMemPrefetchBatchAsync(ptrs, sizes, 2, locs, idxs, 2, 0, ps), cudaSuccess);
    CHECK(cudaStreamSynchronize(ps));
    int first = -9, second = -9;
    CHECK(cudaMemRangeGetAttribute(&first, 4, cudaMemRangeAttributeLastPrefetchLocation, m, half));
    CHECK(cudaMemRangeGetAttribute(&second, 4, cudaMemRangeAttributeLastPrefetchLocation, m + n,
                                   half));
    printf("prefetch batch: last prefetch locations %d and %d\n", first, second);
    scale<<<(2 * n + 255) / 256, 256, 0, ps>>>(m, 2 * n, 2);
    CHECK(cudaStreamSynchronize(ps));
    expect_int("prefetch batch: sum after kernel", sum(m, 2 * n), sum_scaled(2 * n, 2));
    probe("cudaMemDiscardBatchAsync", cudaMemDiscardBatchAsync(ptrs, sizes, 2, 0, ps),
          cudaSuccess);
    // discarded contents are indeterminate: the kernel writes every element before a read
    probe("cudaMemDiscardAndPrefetchBatchAsync(device)",
          cudaMemDiscardAndPrefetchBatchAsync(ptrs, sizes, 2, locs, idxs, 1, 0, ps), cudaSuccess);
    iota<<<(2 * n + 255) / 256, 256, 0, ps>>>(m, 2 * n);
    CHECK(cudaStreamSynchronize(ps));
    long want = 0;
    for (int i = 0; i < 2 * n; i++)
        want += i * 5 + 1;
    expect_int("discard and prefetch batch: sum after kernel", sum(m, 2 * n), want);
    probe("cudaMemPrefetchBatchAsync(stream 0)",
          cudaMemPrefetchBatchAsync(ptrs, sizes, 2, locs, idxs, 2, 0, 0), -1);
    probe("cudaMemDiscardBatchAsync(count 0)",
          cudaMemDiscardBatchAsync(ptrs, sizes, 0, 0, ps), -1);
    CHECK(cudaFree(m));
}

int main(void)
{
    gpu_require("conf_memory");
    const int n = 1000;
    const size_t bytes = n * sizeof(int);

    // pinned and mapped: a kernel works on host memory through its device alias
    int *pinned = NULL, *pinned_dev = NULL;
    CHECK(cudaHostAlloc((void **)&pinned, bytes, cudaHostAllocMapped));
    CHECK(cudaHostGetDevicePointer((void **)&pinned_dev, pinned, 0));
    fill(pinned, n);
    scale<<<(n + 255) / 256, 256>>>(pinned_dev, n, 2);
    CHECK(cudaDeviceSynchronize());
    expect_int("mapped pinned: sum after kernel", sum(pinned, n), sum_scaled(n, 2));
    unsigned flags = 0;
    CHECK(cudaHostGetFlags(&flags, pinned));
    printf("cudaHostGetFlags(Mapped) has Mapped: %s\n", yes(flags & cudaHostAllocMapped));

    // registered host memory
    int *reg = (int *)aligned_alloc(4096, 4096 * 2), *reg_dev = NULL;
    CHECK(cudaHostRegister(reg, 4096 * 2, cudaHostRegisterMapped));
    CHECK(cudaHostGetDevicePointer((void **)&reg_dev, reg, 0));
    fill(reg, n);
    scale<<<(n + 255) / 256, 256>>>(reg_dev, n, 3);
    CHECK(cudaDeviceSynchronize());
    expect_int("registered: sum after kernel", sum(reg, n), sum_scaled(n, 3));

    // managed memory, prefetched and advised
    int *managed = NULL;
    CHECK(cudaMallocManaged((void **)&managed, bytes, cudaMemAttachGlobal));
    fill(managed, n);
    cudaMemLocation dev0 = {cudaMemLocationTypeDevice, 0};
    CHECK(cudaMemAdvise(managed, bytes, cudaMemAdviseSetPreferredLocation, dev0));
    CHECK(cudaMemPrefetchAsync(managed, bytes, dev0, 0, 0));
    scale<<<(n + 255) / 256, 256>>>(managed, n, 4);
    CHECK(cudaDeviceSynchronize());
    expect_int("managed: sum after kernel", sum(managed, n), sum_scaled(n, 4));
    // the legacy stream stands for a stream: stream creation belongs to another area's program
    cudaStream_t s = cudaStreamLegacy;
    CHECK(cudaStreamAttachMemAsync(s, managed, 0, cudaMemAttachGlobal));
    CHECK(cudaDeviceSynchronize());
    // its range attributes after the advice and the prefetch above
    int read_mostly = -9, preferred = -9, last_prefetch = -9;
    CHECK(cudaMemRangeGetAttribute(&read_mostly, 4, cudaMemRangeAttributeReadMostly, managed,
                                   bytes));
    CHECK(cudaMemRangeGetAttribute(&preferred, 4, cudaMemRangeAttributePreferredLocation,
                                   managed, bytes));
    cudaMemLocationType pref_type = cudaMemLocationTypeInvalid;
    void *range_data[] = {&pref_type, &last_prefetch};
    size_t range_sizes[] = {sizeof pref_type, sizeof last_prefetch};
    cudaMemRangeAttribute range_attrs[] = {cudaMemRangeAttributePreferredLocationType,
                                           cudaMemRangeAttributeLastPrefetchLocation};
    CHECK(cudaMemRangeGetAttributes(range_data, range_sizes, range_attrs, 2, managed, bytes));
    printf("managed range: read mostly %d, preferred %d (type %d), last prefetch %d\n",
           read_mostly, preferred, (int)pref_type, last_prefetch);

    // pools by location: the device's default pool, pinned
    cudaMemPool_t by_device = NULL, by_location = NULL, current = NULL;
    CHECK(cudaDeviceGetDefaultMemPool(&by_device, 0));
    CHECK(cudaMemGetDefaultMemPool(&by_location, &dev0, cudaMemAllocationTypePinned));
    CHECK(cudaMemGetMemPool(&current, &dev0, cudaMemAllocationTypePinned));
    printf("cudaMemGetDefaultMemPool(device 0, pinned) is the device default: %s\n",
           yes(by_location == by_device));
    printf("cudaMemGetMemPool(device 0, pinned) is the device default: %s\n",
           yes(current == by_device));
    CHECK(cudaMemSetMemPool(&dev0, cudaMemAllocationTypePinned, by_device));

    // 2D: pitched memory, a copy in, a set of a sub-rectangle, a copy out
    const size_t w = 100, h = 7;
    unsigned char host2d[7][100], back2d[7][100];
    for (size_t i = 0; i < sizeof host2d; i++)
        ((unsigned char *)host2d)[i] = (unsigned char)(i * 7);
    unsigned char *d2 = NULL;
    size_t pitch = 0;
    CHECK(cudaMallocPitch((void **)&d2, &pitch, w, h));
    printf("cudaMallocPitch pitch >= width: %s\n", yes(pitch >= w));
    CHECK(cudaMemcpy2D(d2, pitch, host2d, w, w, h, cudaMemcpyHostToDevice));
    CHECK(cudaMemset2D(d2 + 10, pitch, 0xab, 20, 3));
    CHECK(cudaMemcpy2D(back2d, w, d2, pitch, w, h, cudaMemcpyDeviceToHost));
    printf("2D copy + set checksum %lu\n", checksum(back2d, sizeof back2d));

    // 3D: pitched volume, copy in, partial set, copy out
    cudaExtent ext = make_cudaExtent(40, 5, 3);
    unsigned char host3d[3][5][40], back3d[3][5][40];
    for (size_t i = 0; i < sizeof host3d; i++)
        ((unsigned char *)host3d)[i] = (unsigned char)(i * 13 + 5);
    cudaPitchedPtr vol;
    CHECK(cudaMalloc3D(&vol, ext));
    printf("cudaMalloc3D xsize %zu ysize %zu pitch >= width: %s\n", vol.xsize, vol.ysize,
           yes(vol.pitch >= 40));
    cudaMemcpy3DParms in = {};
    in.srcPtr = make_cudaPitchedPtr(host3d, 40, 40, 5);
    in.dstPtr = vol;
    in.extent = ext;
    in.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&in));
    CHECK(cudaMemset3D(vol, 0x5a, make_cudaExtent(10, 2, 3)));
    cudaMemcpy3DParms out = {};
    out.srcPtr = vol;
    out.srcPos = make_cudaPos(5, 1, 0);
    out.dstPtr = make_cudaPitchedPtr(back3d, 40, 40, 5);
    out.dstPos = make_cudaPos(5, 1, 0);
    out.extent = make_cudaExtent(30, 4, 3);
    out.kind = cudaMemcpyDefault;
    memcpy(back3d, host3d, sizeof back3d);
    memset(back3d, 0, 40);   // row 0 of slice 0 is not copied back: make that visible
    CHECK(cudaMemcpy3D(&out));
    printf("3D copy + set checksum %lu\n", checksum(back3d, sizeof back3d));

    // asynchronous copies and sets on a stream
    int *da = NULL, *db = NULL, result[1000];
    CHECK(cudaMalloc((void **)&da, bytes));
    CHECK(cudaMalloc((void **)&db, bytes));
    CHECK(cudaMemcpyAsync(da, pinned, bytes, cudaMemcpyHostToDevice, s));
    CHECK(cudaMemsetAsync(da, 0, 10 * sizeof(int), s));
    CHECK(cudaMemcpy2DAsync(db, 8, da, 8, 8, n / 2, cudaMemcpyDeviceToDevice, s));
    CHECK(cudaMemset2DAsync(db, 8, 0xff, 4, 3, s));
    cudaMemcpy3DParms a3 = {};
    a3.srcPtr = make_cudaPitchedPtr(db, bytes, bytes, 1);
    a3.dstPtr = make_cudaPitchedPtr(result, bytes, bytes, 1);
    a3.extent = make_cudaExtent(bytes, 1, 1);
    a3.kind = cudaMemcpyDeviceToHost;
    CHECK(cudaMemcpy3DAsync(&a3, s));
    CHECK(cudaDeviceSynchronize());
    printf("async copies checksum %lu\n", checksum(result, bytes));

    copy_batches();
    copy_3d_batches();
    range_batches();

    // peer copies on one device
    CHECK(cudaMemcpyPeer(db, 0, da, 0, bytes));
    // Peer copies take device memory on both sides: NVIDIA's runtime refuses a host pointer.
    probe("cudaMemcpyPeerAsync(host dst)", cudaMemcpyPeerAsync(result, 0, db, 0, bytes, s), -1);
    CHECK(cudaMemcpyPeerAsync(da, 0, db, 0, bytes, s));
    CHECK(cudaMemcpy(result, da, bytes, cudaMemcpyDeviceToHost));
    CHECK(cudaDeviceSynchronize());
    printf("peer copy checksum %lu\n", checksum(result, bytes));
    cudaMemcpy3DPeerParms peer = {};
    peer.srcPtr = make_cudaPitchedPtr(da, 400, 400, 10);
    peer.dstPtr = make_cudaPitchedPtr(db, 400, 400, 10);
    peer.extent = make_cudaExtent(400, 10, 1);
    CHECK(cudaMemcpy3DPeer(&peer));
    CHECK(cudaMemcpy(result, db, bytes, cudaMemcpyDeviceToHost));
    printf("3D peer copy checksum %lu\n", checksum(result, bytes));

    // symbols
    size_t sym_size = 0;
    CHECK(cudaGetSymbolSize(&sym_size, sym));
    printf("cudaGetSymbolSize(sym) %zu\n", sym_size);
    int *sym_ptr = NULL, vals[16], got[16];
    CHECK(cudaGetSymbolAddress((void **)&sym_ptr, sym));
    for (int i = 0; i < 16; i++)
        vals[i] = i * i;
    CHECK(cudaMemcpyToSymbolAsync(sym, vals, sizeof vals, 0, cudaMemcpyHostToDevice, s));
    sym_add<<<1, 16, 0, s>>>(sym_ptr);
    CHECK(cudaMemcpyFromSymbolAsync(got, sym, 8 * sizeof(int), 8 * sizeof(int),
                                    cudaMemcpyDeviceToHost, s));
    CHECK(cudaDeviceSynchronize());
    expect_int("symbol: sum of elements 8..15 after kernel", sum(got, 8), 100 * 8 + 1100);

    // pointer attributes of each kind
    int local = 0;
    attributes("device", da, da, NULL);
    attributes("pinned", pinned, pinned_dev, pinned);
    attributes("registered", reg, reg_dev, reg);
    attributes("managed", managed, managed, managed);
    attributes("symbol", sym_ptr, sym_ptr, NULL);
    attributes("unregistered", &local, NULL, &local);

    size_t free_bytes = 0, total = 0;
    CHECK(cudaMemGetInfo(&free_bytes, &total));
    printf("cudaMemGetInfo free <= total: %s\n", free_bytes <= total && total > 0 ? "ok" : "BAD");

    // invalid arguments
    void *p = NULL;
    probe("cudaMemcpyAsync(kind 7)",
          cudaMemcpyAsync(da, db, 4, (cudaMemcpyKind)7, s), cudaErrorInvalidMemcpyDirection);
    probe("cudaMemcpy2D(kind 7)",
          cudaMemcpy2D(da, 8, db, 8, 4, 2, (cudaMemcpyKind)7), cudaErrorInvalidMemcpyDirection);
    probe("cudaMemcpy3D(kind 7)", (in.kind = (cudaMemcpyKind)7, cudaMemcpy3D(&in)),
          cudaErrorInvalidMemcpyDirection);
    probe("cudaMemcpyToSymbolAsync(DeviceToHost)",
          cudaMemcpyToSymbolAsync(sym, vals, 4, 0, cudaMemcpyDeviceToHost, s),
          cudaErrorInvalidMemcpyDirection);
    probe("cudaMemcpy2D(dpitch < width)",
          cudaMemcpy2D(da, 4, db, 8, 8, 2, cudaMemcpyDeviceToDevice), -1);
    probe("cudaMemset2D(pitch < width)", cudaMemset2D(da, 4, 0, 8, 2), -1);
    probe("cudaMemcpyAsync(NULL dst)",
          cudaMemcpyAsync(NULL, db, 4, cudaMemcpyDeviceToDevice, s), cudaErrorInvalidValue);
    probe("cudaMemcpy3D(NULL)", cudaMemcpy3D(NULL), cudaErrorInvalidValue);
    probe("cudaMallocManaged(size 0)", cudaMallocManaged(&p, 0, cudaMemAttachGlobal),
          cudaSuccess);                     /* documented InvalidValue; NVIDIA's runtime: 0 */
    probe("cudaMallocManaged(flags Single)", cudaMallocManaged(&p, 16, cudaMemAttachSingle),
          cudaErrorInvalidValue);
    probe("cudaHostAlloc(NULL)", cudaHostAlloc(NULL, 16, 0), cudaErrorInvalidValue);
    probe("cudaHostAlloc(flags 0x100)", cudaHostAlloc(&p, 16, 0x100), cudaErrorInvalidValue);
    probe("cudaHostUnregister(never registered)", cudaHostUnregister(&local),
          cudaErrorHostMemoryNotRegistered);
    probe("cudaHostGetDevicePointer(flags 1)", cudaHostGetDevicePointer(&p, pinned, 1),
          cudaErrorInvalidValue);
    probe("cudaFreeHost(device pointer)", cudaFreeHost(da), -1);
    probe("cudaMemcpyPeer(device 99)", cudaMemcpyPeer(db, 99, da, 0, 4), cudaErrorInvalidDevice);
    probe("cudaGetSymbolSize(not a symbol)", cudaGetSymbolSize(&sym_size, &local),
          cudaErrorInvalidSymbol);
    probe("cudaGetSymbolAddress(not a symbol)", cudaGetSymbolAddress(&p, &local),
          cudaErrorInvalidSymbol);
    probe("cudaPointerGetAttributes(NULL attributes)", cudaPointerGetAttributes(NULL, da),
          cudaErrorInvalidValue);
    probe("cudaMemPrefetchAsync(device memory)", cudaMemPrefetchAsync(da, 4, dev0, 0, s), -1);

    CHECK(cudaHostUnregister(reg));
    free(reg);
    CHECK(cudaFreeHost(pinned));
    CHECK(cudaFree(managed));
    CHECK(cudaFree(d2));
    CHECK(cudaFree(vol.ptr));
    CHECK(cudaFree(da));
    CHECK(cudaFree(db));
    printf("conf_memory: %s\n", failures ? "FAIL" : "PASS");
    return failures ? 1 : 0;
}
