/*
 * test_memory_batch.c - cudaMemcpyBatchAsync, cudaMemcpy3DBatchAsync and the prefetch and
 * discard batches (lib/memory/memory_batch.c) against the fake driver (tests/fake/memory/fake_batch.c): the
 * data that moves, what reaches the driver, and every error path on both the returned code and
 * the thread's last error.  argv[1] picks one test (all when absent); the "without driver
 * support" test runs with the driver's batch entry points hidden.
 */
#include "e2e.h"

#include <cuda.h>
#include <stdio.h>

/* Declared by lib/memory/memory.h for the runtime; the toolkit shows them only to per-thread builds. */
cudaError_t cudaMemcpyBatchAsync_ptsz(void *const *dsts, const void *const *srcs,
                                      const size_t *sizes, size_t count,
                                      struct cudaMemcpyAttributes *attrs, size_t *attrsIdxs,
                                      size_t numAttrs, cudaStream_t stream);
cudaError_t cudaMemcpy3DBatchAsync_ptsz(size_t numOps, struct cudaMemcpy3DBatchOp *opList,
                                        unsigned long long flags, cudaStream_t stream);
cudaError_t cudaMemPrefetchBatchAsync_ptsz(void **dptrs, size_t *sizes, size_t count,
                                           struct cudaMemLocation *prefetchLocs,
                                           size_t *prefetchLocIdxs, size_t numPrefetchLocs,
                                           unsigned long long flags, cudaStream_t stream);
cudaError_t cudaMemDiscardBatchAsync_ptsz(void **dptrs, size_t *sizes, size_t count,
                                          unsigned long long flags, cudaStream_t stream);
cudaError_t cudaMemDiscardAndPrefetchBatchAsync_ptsz(void **dptrs, size_t *sizes, size_t count,
                                                     struct cudaMemLocation *prefetchLocs,
                                                     size_t *prefetchLocIdxs,
                                                     size_t numPrefetchLocs,
                                                     unsigned long long flags,
                                                     cudaStream_t stream);

#define STREAM_LEGACY ((cudaStream_t)0x1)
#define STREAM_BOGUS ((cudaStream_t)0x1234)

static cudaStream_t stream;

/* The arguments of the last recorded call of `name` (fails the test when there is none). */
static const char *last_args(const char *name)
{
    for (size_t i = fk.fake_call_count(); i-- > 0;) {
        const fake_call *c = fk.fake_call_at(i);
        if (strcmp(c->name, name) == 0)
            return c->args;
    }
    fail_msg("no call of %s", name);
    return "";
}

#define assert_args_have(name, text)                                                        \
    do {                                                                                    \
        const char *args_ = last_args(name);                                                \
        if (!strstr(args_, (text)))                                                         \
            fail_msg("%s(%s) lacks \"%s\"", (name), args_, (text));                         \
    } while (0)

static int setup(void **state)
{
    (void)state;
    if (fake_api_load() != 0 || cudaStreamCreate(&stream) != cudaSuccess)
        return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    return cudaStreamDestroy(stream) == cudaSuccess ? 0 : -1;
}

static struct cudaMemcpyAttributes attributes(enum cudaMemcpySrcAccessOrder order)
{
    struct cudaMemcpyAttributes a;
    memset(&a, 0, sizeof a);
    a.srcAccessOrder = order;
    return a;
}

static struct cudaMemLocation location(enum cudaMemLocationType type, int id)
{
    struct cudaMemLocation l = {type, id};
    return l;
}

/* ---- cudaMemcpyBatchAsync ------------------------------------------------------------------- */

static void copy_batch_moves_every_range_in_one_driver_call(void **state)
{
    (void)state;
    char *dev = NULL;
    assert_cuda(cudaMalloc((void **)&dev, 64), cudaSuccess);
    char host_in[16] = "batched copies!", more[8] = "seven..", mid[16] = {0}, host_out[8] = {0};
    assert_cuda(cudaMemcpy(dev, host_in, 16, cudaMemcpyHostToDevice), cudaSuccess);
    /* host to device, device to host, device to host; none depends on another */
    void *dsts[3] = {dev + 32, mid, host_out};
    const void *srcs[3] = {more, dev, dev + 4};
    size_t sizes[3] = {8, 16, 8};
    /* the first copy in stream order, the other two with another source order and a hint */
    struct cudaMemcpyAttributes attrs[2] = {attributes(cudaMemcpySrcAccessOrderStream),
                                            attributes(cudaMemcpySrcAccessOrderAny)};
    attrs[1].flags = cudaMemcpyFlagPreferOverlapWithCompute;
    size_t idxs[2] = {0, 1};
    fk.fake_reset_log();
    assert_cuda(cudaMemcpyBatchAsync(dsts, srcs, sizes, 3, attrs, idxs, 2, stream), cudaSuccess);
    assert_int_equal(fk.fake_count_calls("cuMemcpyBatchAsync"), 1);
    char want[40];
    snprintf(want, sizeof want, "stream=%p", (void *)stream);
    assert_args_have("cuMemcpyBatchAsync", "count=3 sizes=8,16,8 numAttrs=2 order=1 flags=0x0");
    assert_args_have("cuMemcpyBatchAsync", want);
    assert_string_equal(mid, "batched copies!");
    assert_memory_equal(host_out, "hed copi", 8);
    char back[8] = {0};
    assert_cuda(cudaMemcpy(back, dev + 32, 8, cudaMemcpyDeviceToHost), cudaSuccess);
    assert_string_equal(back, "seven..");
    assert_cuda(cudaFree(dev), cudaSuccess);
}

static void copy_batch_stream_0_is_the_legacy_stream_even_in_ptsz(void **state)
{
    (void)state;
    char a[4] = "abc", b[4] = {0};
    void *dsts[1] = {b};
    const void *srcs[1] = {a};
    size_t sizes[1] = {4}, idx = 0;
    struct cudaMemcpyAttributes attr = attributes(cudaMemcpySrcAccessOrderDuringApiCall);
    /* NVIDIA's _ptsz batch copy refuses stream 0 like the plain one (measured on the H200) */
    assert_cuda(cudaMemcpyBatchAsync_ptsz(dsts, srcs, sizes, 1, &attr, &idx, 1, 0),
                cudaErrorInvalidValue);
    assert_args_have("cuMemcpyBatchAsync", "stream=(nil)");
    assert_cuda(cudaMemcpyBatchAsync_ptsz(dsts, srcs, sizes, 1, &attr, &idx, 1,
                                          cudaStreamPerThread), cudaSuccess);
    assert_args_have("cuMemcpyBatchAsync", "stream=0x2");
    assert_string_equal(b, "abc");
    /* without _ptsz, stream 0 is the legacy stream, which a batch may not use */
    assert_cuda(cudaMemcpyBatchAsync(dsts, srcs, sizes, 1, &attr, &idx, 1, 0),
                cudaErrorInvalidValue);
    assert_args_have("cuMemcpyBatchAsync", "stream=(nil)");
    assert_cuda(cudaMemcpyBatchAsync(dsts, srcs, sizes, 1, &attr, &idx, 1, STREAM_LEGACY),
                cudaErrorInvalidValue);
}

static void copy_batch_error_paths(void **state)
{
    (void)state;
    char a[4] = "abc", b[4] = {0};
    void *dsts[2] = {b, b};
    const void *srcs[2] = {a, a};
    size_t sizes[2] = {4, 4}, idxs[2] = {0, 1};
    struct cudaMemcpyAttributes attrs[2] = {attributes(cudaMemcpySrcAccessOrderStream),
                                            attributes(cudaMemcpySrcAccessOrderStream)};
    fk.fake_reset_log();
    /* missing arrays with elements: the runtime answers without the driver */
    assert_cuda(cudaMemcpyBatchAsync(NULL, srcs, sizes, 2, attrs, idxs, 1, stream),
                cudaErrorInvalidValue);
    assert_cuda(cudaMemcpyBatchAsync(dsts, NULL, sizes, 2, attrs, idxs, 1, stream),
                cudaErrorInvalidValue);
    assert_cuda(cudaMemcpyBatchAsync(dsts, srcs, NULL, 2, attrs, idxs, 1, stream),
                cudaErrorInvalidValue);
    assert_cuda(cudaMemcpyBatchAsync(dsts, srcs, sizes, 2, NULL, idxs, 1, stream),
                cudaErrorInvalidValue);
    assert_cuda(cudaMemcpyBatchAsync(dsts, srcs, sizes, 2, attrs, NULL, 1, stream),
                cudaErrorInvalidValue);
    assert_int_equal(fk.fake_count_calls("cuMemcpyBatchAsync"), 0);
    /* the rest is the driver's to judge */
    assert_cuda(cudaMemcpyBatchAsync(NULL, NULL, NULL, 0, NULL, NULL, 0, stream),
                cudaErrorInvalidValue);                          /* an empty batch */
    assert_cuda(cudaMemcpyBatchAsync(dsts, srcs, sizes, 2, attrs, idxs, 0, stream),
                cudaErrorInvalidValue);                          /* no attributes */
    assert_cuda(cudaMemcpyBatchAsync(dsts, srcs, sizes, 2, attrs, idxs, 3, stream),
                cudaErrorInvalidValue);                          /* more attributes than copies */
    size_t late[2] = {1, 1};
    assert_cuda(cudaMemcpyBatchAsync(dsts, srcs, sizes, 2, attrs, late, 2, stream),
                cudaErrorInvalidValue);                          /* first index not 0 */
    attrs[1].srcAccessOrder = cudaMemcpySrcAccessOrderInvalid;
    assert_cuda(cudaMemcpyBatchAsync(dsts, srcs, sizes, 2, attrs, idxs, 2, stream),
                cudaErrorInvalidValue);
    attrs[1] = attributes(cudaMemcpySrcAccessOrderStream);
    attrs[1].flags = 0x10;
    assert_cuda(cudaMemcpyBatchAsync(dsts, srcs, sizes, 2, attrs, idxs, 2, stream),
                cudaErrorInvalidValue);
    dsts[1] = NULL;
    assert_cuda(cudaMemcpyBatchAsync(dsts, srcs, sizes, 2, attrs, idxs, 1, stream),
                cudaErrorInvalidValue);
    dsts[1] = b;
    assert_cuda(cudaMemcpyBatchAsync(dsts, srcs, sizes, 2, attrs, idxs, 1, STREAM_BOGUS),
                cudaErrorInvalidResourceHandle);
    assert_int_equal(fk.fake_count_calls("cuMemcpyBatchAsync"), 8);
    assert_int_equal(b[0], 0);                                  /* nothing was copied */
    /* a failure of the driver's is translated */
    fk.fake_fail_call("cuMemcpyBatchAsync", 1, CUDA_ERROR_NOT_PERMITTED);
    assert_cuda(cudaMemcpyBatchAsync(dsts, srcs, sizes, 2, attrs, idxs, 1, stream),
                cudaErrorNotPermitted);
}

/* ---- cudaMemcpy3DBatchAsync ----------------------------------------------------------------- */

static struct cudaMemcpy3DOperand pointer_operand(void *p, size_t row, size_t layer)
{
    struct cudaMemcpy3DOperand o;
    memset(&o, 0, sizeof o);
    o.type = cudaMemcpyOperandTypePointer;
    o.op.ptr.ptr = p;
    o.op.ptr.rowLength = row;
    o.op.ptr.layerHeight = layer;
    return o;
}

static struct cudaMemcpy3DOperand array_operand(cudaArray_t a, size_t x, size_t y, size_t z)
{
    struct cudaMemcpy3DOperand o;
    memset(&o, 0, sizeof o);
    o.type = cudaMemcpyOperandTypeArray;
    o.op.array.array = a;
    o.op.array.offset.x = x;
    o.op.array.offset.y = y;
    o.op.array.offset.z = z;
    return o;
}

static struct cudaMemcpy3DBatchOp batch_op(struct cudaMemcpy3DOperand src,
                                           struct cudaMemcpy3DOperand dst, size_t w, size_t h,
                                           size_t d)
{
    struct cudaMemcpy3DBatchOp op;
    memset(&op, 0, sizeof op);
    op.src = src;
    op.dst = dst;
    op.extent.width = w;
    op.extent.height = h;
    op.extent.depth = d;
    op.srcAccessOrder = cudaMemcpySrcAccessOrderStream;
    return op;
}

static void copy_3d_batch_moves_boxes_between_pointers_and_arrays(void **state)
{
    (void)state;
    const struct cudaChannelFormatDesc desc = {16, 0, 0, 0, cudaChannelFormatKindUnsigned};
    cudaArray_t array = NULL;
    assert_cuda(cudaMallocArray(&array, &desc, 8, 4, 0), cudaSuccess);
    unsigned short in[3][5], out[2][2];                 /* rows of 5 elements, 2x2 read back */
    for (int y = 0; y < 3; y++)
        for (int x = 0; x < 5; x++)
            in[y][x] = (unsigned short)(10 * y + x);
    memset(out, 0, sizeof out);
    char line_in[6] = "plain", line_out[6] = {0};
    struct cudaMemcpy3DBatchOp ops[2] = {
        /* a 4x3 box of the 5-element rows into the array at (2, 1) */
        batch_op(pointer_operand(in, 5, 0), array_operand(array, 2, 1, 0), 4, 3, 1),
        /* pointer to pointer: bytes, tightly packed */
        batch_op(pointer_operand(line_in, 0, 0), pointer_operand(line_out, 0, 0), 6, 1, 1),
    };
    fk.fake_reset_log();
    assert_cuda(cudaMemcpy3DBatchAsync(2, ops, 0, stream), cudaSuccess);
    assert_int_equal(fk.fake_count_calls("cuMemcpy3DBatchAsync"), 1);
    assert_args_have("cuMemcpy3DBatchAsync", "numOps=2 flags=0x0");
    assert_args_have("cuMemcpy3DBatchAsync", "op0=1->2 extent=(4,3,1) order=1");
    assert_string_equal(line_out, "plain");
    /* read (3, 2) .. (4, 3) back: in[1][1..2] and in[2][1..2] */
    struct cudaMemcpy3DBatchOp back = batch_op(array_operand(array, 3, 2, 0),
                                               pointer_operand(out, 0, 0), 2, 2, 1);
    assert_cuda(cudaMemcpy3DBatchAsync_ptsz(1, &back, 0, 0), cudaErrorInvalidValue);
    assert_args_have("cuMemcpy3DBatchAsync", "stream=(nil)");
    assert_cuda(cudaMemcpy3DBatchAsync_ptsz(1, &back, 0, cudaStreamPerThread), cudaSuccess);
    assert_args_have("cuMemcpy3DBatchAsync", "stream=0x2");
    assert_int_equal(out[0][0], 11);
    assert_int_equal(out[0][1], 12);
    assert_int_equal(out[1][0], 21);
    assert_int_equal(out[1][1], 22);
    assert_cuda(cudaFreeArray(array), cudaSuccess);
}

static void copy_3d_batch_error_paths(void **state)
{
    (void)state;
    char a[8] = "abcdefg", b[8] = {0};
    struct cudaMemcpy3DBatchOp op = batch_op(pointer_operand(a, 0, 0), pointer_operand(b, 0, 0),
                                             8, 1, 1);
    fk.fake_reset_log();
    assert_cuda(cudaMemcpy3DBatchAsync(1, NULL, 0, stream), cudaErrorInvalidValue);
    assert_int_equal(fk.fake_count_calls("cuMemcpy3DBatchAsync"), 0);
    assert_cuda(cudaMemcpy3DBatchAsync(0, NULL, 0, stream), cudaErrorInvalidValue);
    assert_cuda(cudaMemcpy3DBatchAsync(1, &op, 1, stream), cudaErrorInvalidValue);   /* flags */
    assert_cuda(cudaMemcpy3DBatchAsync(1, &op, 0, 0), cudaErrorInvalidValue);   /* legacy */
    assert_cuda(cudaMemcpy3DBatchAsync(1, &op, 0, STREAM_BOGUS),
                cudaErrorInvalidResourceHandle);
    struct cudaMemcpy3DBatchOp bad = op;
    bad.extent.height = 0;
    assert_cuda(cudaMemcpy3DBatchAsync(1, &bad, 0, stream), cudaErrorInvalidValue);
    bad = op;
    bad.srcAccessOrder = cudaMemcpySrcAccessOrderInvalid;
    assert_cuda(cudaMemcpy3DBatchAsync(1, &bad, 0, stream), cudaErrorInvalidValue);
    bad = op;
    bad.src.op.ptr.rowLength = 4;                               /* shorter than the width */
    assert_cuda(cudaMemcpy3DBatchAsync(1, &bad, 0, stream), cudaErrorInvalidValue);
    bad = op;
    bad.dst.type = (enum cudaMemcpy3DOperandType)7;
    assert_cuda(cudaMemcpy3DBatchAsync(1, &bad, 0, stream), cudaErrorInvalidValue);
    /* an array operand without an array: refused before the driver, which would crash on it */
    bad = op;
    bad.src = array_operand(NULL, 0, 0, 0);
    size_t before = fk.fake_count_calls("cuMemcpy3DBatchAsync");
    assert_cuda(cudaMemcpy3DBatchAsync(1, &bad, 0, stream), cudaErrorInvalidValue);
    assert_int_equal(fk.fake_count_calls("cuMemcpy3DBatchAsync"), before);
    bad = op;
    bad.dst = array_operand((cudaArray_t)(uintptr_t)0x5678, 0, 0, 0);
    assert_cuda(cudaMemcpy3DBatchAsync(1, &bad, 0, stream), cudaErrorInvalidResourceHandle);
    assert_int_equal(b[0], 0);
    /* arrays of different element sizes */
    const struct cudaChannelFormatDesc byte = {8, 0, 0, 0, cudaChannelFormatKindUnsigned};
    const struct cudaChannelFormatDesc word = {32, 0, 0, 0, cudaChannelFormatKindFloat};
    cudaArray_t x = NULL, y = NULL;
    assert_cuda(cudaMallocArray(&x, &byte, 4, 4, 0), cudaSuccess);
    assert_cuda(cudaMallocArray(&y, &word, 4, 4, 0), cudaSuccess);
    bad = batch_op(array_operand(x, 0, 0, 0), array_operand(y, 0, 0, 0), 2, 2, 1);
    assert_cuda(cudaMemcpy3DBatchAsync(1, &bad, 0, stream), cudaErrorInvalidValue);
    assert_cuda(cudaFreeArray(x), cudaSuccess);
    assert_cuda(cudaFreeArray(y), cudaSuccess);
}

/* ---- prefetches and discards ---------------------------------------------------------------- */

static void prefetch_and_discard_batches_pass_ranges_and_locations(void **state)
{
    (void)state;
    char *m = NULL;
    assert_cuda(cudaMallocManaged((void **)&m, 4096, cudaMemAttachGlobal), cudaSuccess);
    void *ptrs[3] = {m, m + 1024, m + 2048};
    size_t sizes[3] = {1024, 512, 2048};
    struct cudaMemLocation locs[2] = {location(cudaMemLocationTypeDevice, 0),
                                      location(cudaMemLocationTypeHost, 0)};
    size_t idxs[2] = {0, 2};
    fk.fake_reset_log();
    assert_cuda(cudaMemPrefetchBatchAsync(ptrs, sizes, 3, locs, idxs, 2, 0, stream),
                cudaSuccess);
    assert_args_have("cuMemPrefetchBatchAsync", "count=3 sizes=1024,512,2048 locs=1:0@0,2:0@2 "
                                                "flags=0x0");
    assert_cuda(cudaMemDiscardBatchAsync(ptrs, sizes, 3, 0, stream), cudaSuccess);
    assert_args_have("cuMemDiscardBatchAsync", "count=3 sizes=1024,512,2048");
    assert_cuda(cudaMemDiscardAndPrefetchBatchAsync(ptrs, sizes, 3, locs, idxs, 2, 0, stream),
                cudaSuccess);
    assert_args_have("cuMemDiscardAndPrefetchBatchAsync", "locs=1:0@0,2:0@2");
    /* _ptsz: stream 0 is the per-thread stream */
    assert_cuda(cudaMemPrefetchBatchAsync_ptsz(ptrs, sizes, 1, locs, idxs, 1, 0, 0), cudaSuccess);
    assert_args_have("cuMemPrefetchBatchAsync", "stream=0x2");
    assert_cuda(cudaMemDiscardBatchAsync_ptsz(ptrs, sizes, 1, 0, 0), cudaSuccess);
    assert_args_have("cuMemDiscardBatchAsync", "stream=0x2");
    assert_cuda(cudaMemDiscardAndPrefetchBatchAsync_ptsz(ptrs, sizes, 1, locs, idxs, 1, 0, 0),
                cudaSuccess);
    assert_args_have("cuMemDiscardAndPrefetchBatchAsync", "stream=0x2");
    assert_int_equal(fk.fake_count_calls("cuMemPrefetchBatchAsync"), 2);
    assert_cuda(cudaFree(m), cudaSuccess);
}

static void prefetch_and_discard_batch_error_paths(void **state)
{
    (void)state;
    char *m = NULL, *d = NULL;
    assert_cuda(cudaMallocManaged((void **)&m, 4096, cudaMemAttachGlobal), cudaSuccess);
    assert_cuda(cudaMalloc((void **)&d, 4096), cudaSuccess);
    void *ptrs[2] = {m, m + 2048};
    size_t sizes[2] = {2048, 2048}, idx = 0;
    struct cudaMemLocation loc = location(cudaMemLocationTypeDevice, 0);
    fk.fake_reset_log();
    /* missing arrays with elements: the runtime answers without the driver */
    assert_cuda(cudaMemPrefetchBatchAsync(NULL, sizes, 2, &loc, &idx, 1, 0, stream),
                cudaErrorInvalidValue);
    assert_cuda(cudaMemPrefetchBatchAsync(ptrs, sizes, 2, NULL, &idx, 1, 0, stream),
                cudaErrorInvalidValue);
    assert_cuda(cudaMemDiscardBatchAsync(ptrs, NULL, 2, 0, stream), cudaErrorInvalidValue);
    assert_cuda(cudaMemDiscardAndPrefetchBatchAsync(ptrs, sizes, 2, &loc, NULL, 1, 0, stream),
                cudaErrorInvalidValue);
    assert_int_equal(fk.fake_count_calls("cuMemPrefetchBatchAsync") +
                         fk.fake_count_calls("cuMemDiscardBatchAsync") +
                         fk.fake_count_calls("cuMemDiscardAndPrefetchBatchAsync"), 0);
    /* the driver's answers */
    assert_cuda(cudaMemPrefetchBatchAsync(NULL, NULL, 0, NULL, NULL, 0, 0, stream),
                cudaErrorInvalidValue);
    assert_cuda(cudaMemDiscardBatchAsync(ptrs, sizes, 2, 1, stream), cudaErrorInvalidValue);
    assert_cuda(cudaMemDiscardBatchAsync(ptrs, sizes, 2, 0, 0), cudaErrorInvalidValue);
    assert_cuda(cudaMemDiscardBatchAsync(ptrs, sizes, 2, 0, STREAM_BOGUS),
                cudaErrorInvalidResourceHandle);
    assert_cuda(cudaMemPrefetchBatchAsync(ptrs, sizes, 2, &loc, &idx, 0, 0, stream),
                cudaErrorInvalidValue);                          /* no location */
    struct cudaMemLocation far = location(cudaMemLocationTypeDevice, 5);
    assert_cuda(cudaMemPrefetchBatchAsync(ptrs, sizes, 2, &far, &idx, 1, 0, stream),
                cudaErrorInvalidDevice);
    assert_cuda(cudaMemDiscardAndPrefetchBatchAsync(ptrs, sizes, 2, &far, &idx, 1, 0, stream),
                cudaErrorInvalidDevice);
    void *device_ptrs[1] = {d};
    assert_cuda(cudaMemDiscardBatchAsync(device_ptrs, sizes, 1, 0, stream),
                cudaErrorInvalidValue);                          /* not managed */
    size_t too_long[1] = {8192};
    assert_cuda(cudaMemPrefetchBatchAsync(ptrs, too_long, 1, &loc, &idx, 1, 0, stream),
                cudaErrorInvalidValue);
    assert_cuda(cudaFree(m), cudaSuccess);
    assert_cuda(cudaFree(d), cudaSuccess);
}

/* Run with FAKECUDA_HIDE naming the five batch entry points. */
static void batches_without_driver_support_are_not_supported(void **state)
{
    (void)state;
    char a[4] = "abc", b[4] = {0};
    void *dsts[1] = {b};
    const void *srcs[1] = {a};
    size_t sizes[1] = {4}, idx = 0;
    struct cudaMemcpyAttributes attr = attributes(cudaMemcpySrcAccessOrderStream);
    assert_cuda(cudaMemcpyBatchAsync(dsts, srcs, sizes, 1, &attr, &idx, 1, stream),
                cudaErrorNotSupported);
    struct cudaMemcpy3DBatchOp op = batch_op(pointer_operand(a, 0, 0), pointer_operand(b, 0, 0),
                                             4, 1, 1);
    assert_cuda(cudaMemcpy3DBatchAsync(1, &op, 0, stream), cudaErrorNotSupported);
    struct cudaMemLocation loc = location(cudaMemLocationTypeDevice, 0);
    void *ptrs[1] = {b};
    assert_cuda(cudaMemPrefetchBatchAsync(ptrs, sizes, 1, &loc, &idx, 1, 0, stream),
                cudaErrorNotSupported);
    assert_cuda(cudaMemDiscardBatchAsync(ptrs, sizes, 1, 0, stream), cudaErrorNotSupported);
    assert_cuda(cudaMemDiscardAndPrefetchBatchAsync(ptrs, sizes, 1, &loc, &idx, 1, 0, stream),
                cudaErrorNotSupported);
    assert_int_equal(b[0], 0);
    /* the rest of the runtime works */
    assert_cuda(cudaMemcpyAsync(b, a, 4, cudaMemcpyDefault, stream), cudaSuccess);
    assert_string_equal(b, "abc");
}

int main(int argc, char **argv)
{
    const struct CMUnitTest all[] = {
        cmocka_unit_test(copy_batch_moves_every_range_in_one_driver_call),
        cmocka_unit_test(copy_batch_stream_0_is_the_legacy_stream_even_in_ptsz),
        cmocka_unit_test(copy_batch_error_paths),
        cmocka_unit_test(copy_3d_batch_moves_boxes_between_pointers_and_arrays),
        cmocka_unit_test(copy_3d_batch_error_paths),
        cmocka_unit_test(prefetch_and_discard_batches_pass_ranges_and_locations),
        cmocka_unit_test(prefetch_and_discard_batch_error_paths),
    };
    const struct CMUnitTest hidden[] = {
        cmocka_unit_test(batches_without_driver_support_are_not_supported),
    };
    if (argc > 1 && strcmp(argv[1], "without_driver_support") == 0)
        return cmocka_run_group_tests(hidden, setup, teardown);
    return cmocka_run_group_tests(all, setup, teardown);
}
