/*
 * test_cuda135.c - the functions CUDA 13.5 added, over the fake driver.  On driver 580 (the
 * fake's default, 13000): what the driver serves (device resources, green and execution
 * contexts), what minicudart answers itself where NVIDIA's runtime refuses (parameter counts,
 * copies with attributes as batches of one, the generic node getter, a graph's id from the
 * driver's DOT, blocking host functions), and what it refuses as NVIDIA's does.  With
 * FAKECUDA_DRIVER_VERSION=13050 the driver's own entry points are used instead.  Every check
 * asserts the code and the last error (assert_cuda).  One test per process: argv[1] names it.
 */
#define _GNU_SOURCE
#include "e2e.h"

#include <cuda.h>
#include <stdio.h>
#include <unistd.h>

#include "core/cuda135.h"

const void *k135_three_stub(void);
const void *k135_none_stub(void);

static int setup(void **state)
{
    return e2e_setup(state);
}

/* A green context of 16 SMs of device 0, with the resources it was made from. */
static cudaExecutionContext_t make_green(unsigned sms)
{
    cudaDevResource device, groups[2], rest;
    unsigned count = 2;
    assert_cuda(cudaDeviceGetDevResource(0, &device, cudaDevResourceTypeSm), cudaSuccess);
    assert_cuda(cudaDevSmResourceSplitByCount(groups, &count, &device, &rest, 0, sms),
                cudaSuccess);
    cudaDevResourceDesc_t desc = NULL;
    assert_cuda(cudaDevResourceGenerateDesc(&desc, groups, 1), cudaSuccess);
    cudaExecutionContext_t green = NULL;
    assert_cuda(cudaGreenCtxCreate(&green, desc, 0, 0), cudaSuccess);
    assert_non_null(green);
    return green;
}

/* ---- the runtime's version and codes -------------------------------------------------------- */

static void runtime_is_13_5_with_its_error_codes(void **state)
{
    (void)state;
    int version = 0;
    assert_cuda(cudaRuntimeGetVersion(&version), cudaSuccess);
    assert_int_equal(version, 13050);
    assert_string_equal(cudaGetErrorName(cudaErrorStreamDetached), "cudaErrorStreamDetached");
    assert_string_equal(cudaGetErrorString(cudaErrorGraphRecaptureFailure),
                        "recapturing to the source graph failed and had to be terminated");
    assert_string_equal(cudaGetErrorName(cudaErrorVersionTranslation),
                        "cudaErrorVersionTranslation");
    assert_string_equal(cudaGetErrorName(cudaErrorInsufficientLoaderVersion),
                        "cudaErrorInsufficientLoaderVersion");
    assert_string_equal(cudaGetErrorName(cudaErrorFabricNotReady), "cudaErrorFabricNotReady");
    /* The driver's new codes come back as the runtime's of the same value. */
    fk.fake_fail_call("cuDeviceGetDevResource", 1, 917);
    cudaDevResource r;
    assert_cuda(cudaDeviceGetDevResource(0, &r, cudaDevResourceTypeSm), cudaErrorStreamDetached);
    /* 47 (MULTICAST_RESOURCE_FULL) has no runtime code. */
    fk.fake_fail_call("cuDeviceGetDevResource", 1, 47);
    assert_cuda(cudaDeviceGetDevResource(0, &r, cudaDevResourceTypeSm), cudaErrorUnknown);
}

/* ---- device resources ----------------------------------------------------------------------- */

static void device_resources_pass_through_and_split(void **state)
{
    (void)state;
    cudaDevResource device;
    memset(&device, 0x5a, sizeof device);
    assert_cuda(cudaDeviceGetDevResource(0, &device, cudaDevResourceTypeSm), cudaSuccess);
    /* What an H200 answers (and the fake models): 132 SMs, partitions of 8. */
    assert_int_equal(device.type, cudaDevResourceTypeSm);
    assert_int_equal(device.sm.smCount, 132);
    assert_int_equal(device.sm.minSmPartitionSize, 8);
    assert_int_equal(device.sm.smCoscheduledAlignment, 8);
    unsigned count = 0;
    assert_cuda(cudaDevSmResourceSplitByCount(NULL, &count, &device, NULL, 0, 16), cudaSuccess);
    assert_int_equal(count, 8);
    cudaDevResource groups[2], rest;
    count = 2;
    assert_cuda(cudaDevSmResourceSplitByCount(groups, &count, &device, &rest, 0, 16),
                cudaSuccess);
    assert_int_equal(count, 2);
    assert_int_equal(groups[0].sm.smCount, 16);
    assert_int_equal(groups[1].sm.smCount, 16);
    assert_int_equal(rest.sm.smCount, 100);
    count = 2;
    assert_cuda(cudaDevSmResourceSplitByCount(groups, &count, &device, &rest, 0, 1000),
                cudaErrorInvalidResourceConfiguration);
    cudaDevResourceDesc_t desc = NULL;
    assert_cuda(cudaDevResourceGenerateDesc(&desc, groups, 2), cudaSuccess);
    assert_non_null(desc);
}

static void device_resources_refuse_bad_arguments(void **state)
{
    (void)state;
    cudaDevResource device, groups[2];
    unsigned count = 2;
    assert_cuda(cudaDeviceGetDevResource(0, NULL, cudaDevResourceTypeSm), cudaErrorInvalidValue);
    assert_cuda(cudaDeviceGetDevResource(1, &device, cudaDevResourceTypeSm),
                cudaErrorInvalidDevice);
    assert_cuda(cudaDeviceGetDevResource(-1, &device, cudaDevResourceTypeSm),
                cudaErrorInvalidDevice);
    assert_cuda(cudaDeviceGetDevResource(0, &device, cudaDevResourceTypeWorkqueueConfig),
                cudaErrorInvalidResourceType);
    assert_cuda(cudaDeviceGetDevResource(0, &device, cudaDevResourceTypeSm), cudaSuccess);
    assert_cuda(cudaDevSmResourceSplitByCount(groups, NULL, &device, NULL, 0, 16),
                cudaErrorInvalidValue);
    assert_cuda(cudaDevSmResourceSplitByCount(groups, &count, NULL, NULL, 0, 16),
                cudaErrorInvalidValue);
    cudaDevResourceDesc_t desc = NULL;
    /* NULL and 0 resources: refused before the driver (NVIDIA's runtime crashes on 0, H200). */
    size_t before = fk.fake_count_calls("cuDevResourceGenerateDesc");
    assert_cuda(cudaDevResourceGenerateDesc(NULL, &device, 1), cudaErrorInvalidValue);
    assert_cuda(cudaDevResourceGenerateDesc(&desc, NULL, 1), cudaErrorInvalidValue);
    assert_cuda(cudaDevResourceGenerateDesc(&desc, &device, 0), cudaErrorInvalidValue);
    assert_int_equal(fk.fake_count_calls("cuDevResourceGenerateDesc"), before);
    cudaExecutionContext_t green = NULL;
    assert_cuda(cudaGreenCtxCreate(&green, NULL, 0, 0), cudaErrorInvalidValue);
    assert_cuda(cudaDevResourceGenerateDesc(&desc, &device, 1), cudaSuccess);
    assert_cuda(cudaGreenCtxCreate(NULL, desc, 0, 0), cudaErrorInvalidValue);
    assert_cuda(cudaGreenCtxCreate(&green, desc, 0, 1), cudaErrorInvalidValue);
    assert_cuda(cudaGreenCtxCreate(&green, desc, 5, 0), cudaErrorInvalidDevice);
    assert_null(green);
}

/* ---- green and execution contexts ----------------------------------------------------------- */

static void green_context_streams_events_and_destroy(void **state)
{
    (void)state;
    fk.fake_reset_log();
    cudaExecutionContext_t green = make_green(16);
    /* Driver 580 requires the default-stream flag (flags 0 is its cudaErrorInvalidValue). */
    assert_int_equal(e2e_calls_with("cuGreenCtxCreate", "flags=0x1"), 1);
    assert_int_equal(fk.fake_green_count(), 1);
    int device = -1;
    assert_cuda(cudaExecutionCtxGetDevice(&device, green), cudaSuccess);
    assert_int_equal(device, 0);
    unsigned long long id = 0, primary_id = 0;
    assert_cuda(cudaExecutionCtxGetId(green, &id), cudaSuccess);
    cudaExecutionContext_t primary = NULL;
    assert_cuda(cudaDeviceGetExecutionCtx(&primary, 0), cudaSuccess);
    assert_cuda(cudaExecutionCtxGetId(primary, &primary_id), cudaSuccess);
    assert_true(id != 0 && id != primary_id);
    cudaDevResource r;
    assert_cuda(cudaExecutionCtxGetDevResource(green, &r, cudaDevResourceTypeSm), cudaSuccess);
    assert_int_equal(r.sm.smCount, 16);

    /* cudaStreamDefault is non-blocking on a green context (13.5's documentation). */
    cudaStream_t s = NULL;
    assert_cuda(cudaExecutionCtxStreamCreate(&s, green, cudaStreamDefault, -100), cudaSuccess);
    unsigned flags = 0;
    int priority = 0;
    assert_cuda(cudaStreamGetFlags(s, &flags), cudaSuccess);
    assert_int_equal(flags, cudaStreamNonBlocking);
    assert_cuda(cudaStreamGetPriority(s, &priority), cudaSuccess);
    assert_int_equal(priority, -5);
    assert_int_equal(fk.fake_stream_sm_count((uintptr_t)s), 16);
    assert_cuda(cudaExecutionCtxStreamCreate(&s, green, 4, 0), cudaErrorInvalidValue);

    /* Work on its stream, with the primary context current. */
    int *p = NULL;
    assert_cuda(cudaMalloc((void **)&p, 64), cudaSuccess);
    assert_cuda(cudaMemsetAsync(p, 0, 64, s), cudaSuccess);
    assert_cuda(cudaStreamSynchronize(s), cudaSuccess);

    cudaEvent_t ev;
    assert_cuda(cudaEventCreate(&ev), cudaSuccess);
    assert_cuda(cudaExecutionCtxRecordEvent(green, ev), cudaSuccess);
    assert_cuda(cudaExecutionCtxWaitEvent(primary, ev), cudaSuccess);
    assert_cuda(cudaExecutionCtxRecordEvent(primary, ev), cudaSuccess);
    assert_cuda(cudaExecutionCtxWaitEvent(green, ev), cudaSuccess);
    assert_cuda(cudaExecutionCtxSynchronize(green), cudaSuccess);
    assert_cuda(cudaExecutionCtxSynchronize(primary), cudaSuccess);
    assert_cuda(cudaEventDestroy(ev), cudaSuccess);

    /* The thread's device and context are untouched by all of it. */
    assert_cuda(cudaGetDevice(&device), cudaSuccess);
    assert_int_equal(device, 0);

    assert_cuda(cudaExecutionCtxDestroy(green), cudaSuccess);
    assert_int_equal(fk.fake_green_count(), 0);
    /* Its stream is detached: the driver's answer. */
    assert_cuda(cudaStreamQuery(s), cudaErrorStreamDetached);
    assert_cuda(cudaStreamDestroy(s), cudaSuccess);
    /* Destroyed, it is no longer the runtime's to destroy. */
    assert_cuda(cudaExecutionCtxDestroy(green), cudaErrorInvalidValue);
    assert_cuda(cudaFree(p), cudaSuccess);
}

static void primary_execution_context_is_the_primary_context(void **state)
{
    (void)state;
    cudaExecutionContext_t primary = NULL;
    assert_cuda(cudaDeviceGetExecutionCtx(&primary, 0), cudaSuccess);
    CUcontext current = NULL;
    assert_cuda(cudaFree(0), cudaSuccess);
    void *get_current = NULL;
    assert_cuda(cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &get_current, 4000,
                                                 cudaEnableDefault, NULL),
                cudaSuccess);
    assert_int_equal(((CUresult (*)(CUcontext *))get_current)(&current), CUDA_SUCCESS);
    assert_ptr_equal((void *)primary, (void *)current);
    assert_cuda(cudaDeviceGetExecutionCtx(NULL, 0), cudaErrorInvalidValue);
    assert_cuda(cudaDeviceGetExecutionCtx(&primary, 1), cudaErrorInvalidDevice);
    /* A stream of the primary context, made without it being current, is reset with it. */
    cudaStream_t s = NULL;
    assert_cuda(cudaExecutionCtxStreamCreate(&s, primary, cudaStreamNonBlocking, 0), cudaSuccess);
    unsigned flags = 0;
    assert_cuda(cudaStreamGetFlags(s, &flags), cudaSuccess);
    assert_int_equal(flags, cudaStreamNonBlocking);
    cudaDevResource r;
    assert_cuda(cudaExecutionCtxGetDevResource(primary, &r, cudaDevResourceTypeSm), cudaSuccess);
    assert_int_equal(r.sm.smCount, 132);
    /* Not the program's to destroy: NVIDIA's answer on the H200. */
    assert_cuda(cudaExecutionCtxDestroy(primary), cudaErrorInvalidValue);
    assert_cuda(cudaDeviceReset(), cudaSuccess);
    assert_cuda(cudaStreamSynchronize(s), cudaErrorInvalidResourceHandle);
}

static void execution_context_calls_refuse_null(void **state)
{
    (void)state;
    cudaExecutionContext_t primary = NULL;
    assert_cuda(cudaDeviceGetExecutionCtx(&primary, 0), cudaSuccess);
    int device;
    unsigned long long id;
    cudaDevResource r;
    cudaStream_t s;
    cudaEvent_t ev;
    assert_cuda(cudaEventCreate(&ev), cudaSuccess);
    assert_cuda(cudaExecutionCtxGetDevice(&device, NULL), cudaErrorInvalidValue);
    assert_cuda(cudaExecutionCtxGetDevice(NULL, primary), cudaErrorInvalidValue);
    assert_cuda(cudaExecutionCtxGetId(NULL, &id), cudaErrorInvalidValue);
    assert_cuda(cudaExecutionCtxGetId(primary, NULL), cudaErrorInvalidValue);
    assert_cuda(cudaExecutionCtxGetDevResource(NULL, &r, cudaDevResourceTypeSm),
                cudaErrorInvalidValue);
    assert_cuda(cudaExecutionCtxGetDevResource(primary, NULL, cudaDevResourceTypeSm),
                cudaErrorInvalidValue);
    assert_cuda(cudaExecutionCtxStreamCreate(&s, NULL, 0, 0), cudaErrorInvalidValue);
    assert_cuda(cudaExecutionCtxStreamCreate(NULL, primary, 0, 0), cudaErrorInvalidValue);
    assert_cuda(cudaExecutionCtxRecordEvent(NULL, ev), cudaErrorInvalidValue);
    assert_cuda(cudaExecutionCtxWaitEvent(NULL, ev), cudaErrorInvalidValue);
    assert_cuda(cudaExecutionCtxSynchronize(NULL), cudaErrorInvalidValue);
    assert_cuda(cudaExecutionCtxDestroy(NULL), cudaErrorInvalidValue);
    /* A NULL event is the driver's invalid handle, as NVIDIA's runtime answers (H200). */
    assert_cuda(cudaExecutionCtxRecordEvent(primary, NULL), cudaErrorInvalidResourceHandle);
    assert_cuda(cudaExecutionCtxWaitEvent(primary, NULL), cudaErrorInvalidResourceHandle);
    /* A context the driver does not know is its answer too. */
    assert_cuda(cudaExecutionCtxGetDevice(&device, (cudaExecutionContext_t)&device),
                cudaErrorDeviceUninitialized);
}

static void stream_resources_come_from_the_streams_context(void **state)
{
    (void)state;
    cudaExecutionContext_t green = make_green(16);
    cudaStream_t gs = NULL, plain = NULL;
    assert_cuda(cudaExecutionCtxStreamCreate(&gs, green, 0, 0), cudaSuccess);
    assert_cuda(cudaStreamCreate(&plain), cudaSuccess);
    cudaDevResource r;
    /* Driver 580 has no cuStreamGetDevResource: the stream's context answers. */
    assert_cuda(cudaStreamGetDevResource(gs, &r, cudaDevResourceTypeSm), cudaSuccess);
    assert_int_equal(r.sm.smCount, 16);
    assert_int_equal(fk.fake_count_calls("cuStreamGetDevResource"), 0);
    assert_cuda(cudaStreamGetDevResource(plain, &r, cudaDevResourceTypeSm), cudaSuccess);
    assert_int_equal(r.sm.smCount, 132);
    assert_cuda(cudaStreamGetDevResource(0, &r, cudaDevResourceTypeSm), cudaSuccess);
    assert_int_equal(r.sm.smCount, 132);
    assert_cuda(cudaStreamGetDevResource_ptsz(0, &r, cudaDevResourceTypeSm), cudaSuccess);
    assert_int_equal(r.sm.smCount, 132);
    assert_cuda(cudaStreamGetDevResource(gs, &r, cudaDevResourceTypeWorkqueue),
                cudaErrorInvalidResourceType);
    assert_cuda(cudaStreamGetDevResource(gs, NULL, cudaDevResourceTypeSm), cudaErrorInvalidValue);
    assert_cuda(cudaStreamDestroy(gs), cudaSuccess);
    assert_cuda(cudaStreamDestroy(plain), cudaSuccess);
    assert_cuda(cudaExecutionCtxDestroy(green), cudaSuccess);
}

/* ---- what minicudart answers on driver 580 -------------------------------------------------- */

static void param_count_is_read_from_the_layout(void **state)
{
    (void)state;
    size_t count = 99;
    assert_cuda(cudaFuncGetParamCount(k135_three_stub(), &count), cudaSuccess);
    assert_int_equal(count, 3);
    assert_cuda(cudaFuncGetParamCount(k135_none_stub(), &count), cudaSuccess);
    assert_int_equal(count, 0);
    assert_int_equal(fk.fake_count_calls("cuFuncGetParamCount"), 0);
    cudaKernel_t kernel = NULL;
    assert_cuda(cudaGetKernel(&kernel, k135_three_stub()), cudaSuccess);
    assert_cuda(cudaFuncGetParamCount((const void *)kernel, &count), cudaSuccess);
    assert_int_equal(count, 3);
    assert_cuda(cudaFuncGetParamCount(k135_three_stub(), NULL), cudaErrorInvalidValue);
    assert_cuda(cudaFuncGetParamCount(NULL, &count), cudaErrorInvalidDeviceFunction);
    assert_cuda(cudaFuncGetParamCount((const void *)&count, &count),
                cudaErrorInvalidResourceHandle);
}

static void memcpy_with_attributes_is_a_batch_of_one(void **state)
{
    (void)state;
    cudaStream_t s;
    assert_cuda(cudaStreamCreate(&s), cudaSuccess);
    int host[16], back[16];
    for (int i = 0; i < 16; i++)
        host[i] = i * 7;
    int *dev = NULL;
    assert_cuda(cudaMalloc((void **)&dev, sizeof host), cudaSuccess);
    struct cudaMemcpyAttributes attr;
    memset(&attr, 0, sizeof attr);
    attr.srcAccessOrder = cudaMemcpySrcAccessOrderStream;
    fk.fake_reset_log();
    assert_cuda(cudaMemcpyWithAttributesAsync(dev, host, sizeof host, &attr, s), cudaSuccess);
    assert_int_equal(fk.fake_count_calls("cuMemcpyBatchAsync"), 1);
    assert_int_equal(e2e_calls_with("cuMemcpyBatchAsync", "count=1"), 1);
    assert_cuda(cudaMemcpyWithAttributesAsync_ptsz(back, dev, sizeof back, &attr, s),
                cudaSuccess);
    assert_cuda(cudaStreamSynchronize(s), cudaSuccess);
    assert_memory_equal(back, host, sizeof host);
    assert_cuda(cudaMemcpyWithAttributesAsync(dev, host, sizeof host, NULL, s),
                cudaErrorInvalidValue);
    /* The batch's rules hold: no legacy stream. */
    assert_cuda(cudaMemcpyWithAttributesAsync(dev, host, sizeof host, &attr, 0),
                cudaErrorInvalidValue);

    /* A 3D copy between pointers, 16 bytes by 2 rows by 2 layers (for pointers an element is a
     * byte: rows and extent count bytes). */
    int *dst = NULL;
    assert_cuda(cudaMalloc((void **)&dst, sizeof host), cudaSuccess);
    struct cudaMemcpy3DBatchOp op;
    memset(&op, 0, sizeof op);
    op.src.type = cudaMemcpyOperandTypePointer;
    op.src.op.ptr.ptr = dev;
    op.src.op.ptr.rowLength = 4 * sizeof(int);
    op.src.op.ptr.layerHeight = 2;
    op.dst.type = cudaMemcpyOperandTypePointer;
    op.dst.op.ptr.ptr = dst;
    op.dst.op.ptr.rowLength = 4 * sizeof(int);
    op.dst.op.ptr.layerHeight = 2;
    op.extent = (struct cudaExtent){ 4 * sizeof(int), 2, 2 };
    op.srcAccessOrder = cudaMemcpySrcAccessOrderStream;
    assert_cuda(cudaMemcpy3DWithAttributesAsync(&op, 0, s), cudaSuccess);
    assert_int_equal(e2e_calls_with("cuMemcpy3DBatchAsync", "numOps=1"), 1);
    assert_cuda(cudaMemcpy(back, dst, sizeof back, cudaMemcpyDeviceToHost), cudaSuccess);
    assert_memory_equal(back, host, sizeof host);
    assert_cuda(cudaMemcpy3DWithAttributesAsync(NULL, 0, s), cudaErrorInvalidValue);
    op.src.type = cudaMemcpyOperandTypeArray;
    op.src.op.array.array = NULL;
    assert_cuda(cudaMemcpy3DWithAttributesAsync_ptsz(&op, 0, s), cudaErrorInvalidValue);
    assert_cuda(cudaFree(dev), cudaSuccess);
    assert_cuda(cudaFree(dst), cudaSuccess);
    assert_cuda(cudaStreamDestroy(s), cudaSuccess);
}

static void count_up(void *user)
{
    (*(int *)user)++;
}

static void host_function_v2_blocking_is_cuLaunchHostFunc(void **state)
{
    (void)state;
    cudaStream_t s;
    assert_cuda(cudaStreamCreate(&s), cudaSuccess);
    int calls = 0;
    fk.fake_reset_log();
    assert_cuda(cudaLaunchHostFunc_v2(s, count_up, &calls, cudaHostTaskBlocking), cudaSuccess);
    assert_cuda(cudaLaunchHostFunc_v2_ptsz(0, count_up, &calls, cudaHostTaskBlocking),
                cudaSuccess);
    assert_cuda(cudaStreamSynchronize(s), cudaSuccess);
    assert_cuda(cudaStreamSynchronize(cudaStreamPerThread), cudaSuccess);
    assert_int_equal(calls, 2);
    assert_int_equal(fk.fake_count_calls("cuLaunchHostFunc"), 2);
    /* A spin-wait needs the 13.1 driver, as NVIDIA's runtime answers on driver 580. */
    assert_cuda(cudaLaunchHostFunc_v2(s, count_up, &calls, cudaHostTaskSpinWait),
                cudaErrorCallRequiresNewerDriver);
    assert_cuda(cudaLaunchHostFunc_v2(s, count_up, &calls, 7), cudaErrorInvalidValue);
    assert_cuda(cudaLaunchHostFunc_v2(s, NULL, &calls, cudaHostTaskBlocking),
                cudaErrorInvalidValue);
    assert_int_equal(fk.fake_count_calls("cuLaunchHostFunc"), 2);
    assert_int_equal(calls, 2);
    assert_cuda(cudaStreamDestroy(s), cudaSuccess);
}

static struct cudaGraphNodeParams *zeroed_params(void)
{
    static struct cudaGraphNodeParams p;
    memset(&p, 0, sizeof p);
    return &p;
}

static void graph_node_params_come_from_each_kinds_getter(void **state)
{
    (void)state;
    cudaGraph_t graph, child;
    assert_cuda(cudaGraphCreate(&graph, 0), cudaSuccess);
    assert_cuda(cudaGraphCreate(&child, 0), cudaSuccess);
    int *dev = NULL, n = 4;
    double scale = 2.0;
    assert_cuda(cudaMalloc((void **)&dev, 64), cudaSuccess);
    void *args[] = { &dev, &n, &scale };
    struct cudaKernelNodeParams kp = { .func = (void *)k135_three_stub(),
                                       .gridDim = { 2, 1, 1 }, .blockDim = { 32, 1, 1 },
                                       .kernelParams = args };
    cudaGraphNode_t kernel, memset_node, host, empty, sub;
    assert_cuda(cudaGraphAddKernelNode(&kernel, graph, NULL, 0, &kp), cudaSuccess);
    struct cudaMemsetParams mp = { .dst = dev, .value = 7, .elementSize = 4, .width = 16,
                                   .height = 1 };
    assert_cuda(cudaGraphAddMemsetNode(&memset_node, graph, NULL, 0, &mp), cudaSuccess);
    int calls = 0;
    struct cudaHostNodeParams hp = { count_up, &calls };
    assert_cuda(cudaGraphAddHostNode(&host, graph, NULL, 0, &hp), cudaSuccess);
    assert_cuda(cudaGraphAddEmptyNode(&empty, graph, NULL, 0), cudaSuccess);
    assert_cuda(cudaGraphAddChildGraphNode(&sub, graph, NULL, 0, child), cudaSuccess);

    fk.fake_reset_log();
    struct cudaGraphNodeParams *p = zeroed_params();
    assert_cuda(cudaGraphNodeGetParams(kernel, p), cudaSuccess);
    assert_int_equal(fk.fake_count_calls("cuGraphNodeGetParams"), 0);
    assert_int_equal(fk.fake_count_calls("cuGraphKernelNodeGetParams"), 1);
    struct rt135_kernel_node_params k135;
    memcpy(&k135, &p->kernel, sizeof k135);
    assert_int_equal(p->type, cudaGraphNodeTypeKernel);
    assert_ptr_equal(k135.func, k135_three_stub());     /* named by its host stub */
    assert_int_equal(k135.functionType, cudaKernelFunctionTypeDeviceEntry);
    assert_int_equal(k135.gridDim.x, 2);
    assert_int_equal(k135.blockDim.x, 32);

    p = zeroed_params();
    assert_cuda(cudaGraphNodeGetParams(memset_node, p), cudaSuccess);
    assert_int_equal(p->type, cudaGraphNodeTypeMemset);
    assert_ptr_equal(p->memset.dst, dev);
    assert_int_equal(p->memset.value, 7);
    assert_int_equal(p->memset.width, 16);
    p = zeroed_params();
    assert_cuda(cudaGraphNodeGetParams(host, p), cudaSuccess);
    assert_int_equal(p->type, cudaGraphNodeTypeHost);
    assert_ptr_equal((void *)p->host.fn, (void *)count_up);
    assert_ptr_equal(p->host.userData, &calls);
    p = zeroed_params();
    assert_cuda(cudaGraphNodeGetParams(empty, p), cudaSuccess);
    assert_int_equal(p->type, cudaGraphNodeTypeEmpty);
    p = zeroed_params();
    assert_cuda(cudaGraphNodeGetParams(sub, p), cudaSuccess);
    assert_int_equal(p->type, cudaGraphNodeTypeGraph);
    cudaGraph_t embedded = NULL;      /* the node's clone of `child` */
    assert_cuda(cudaGraphChildGraphNodeGetGraph(sub, &embedded), cudaSuccess);
    assert_ptr_equal(p->graph.graph, embedded);
    assert_cuda(cudaGraphNodeGetParams(NULL, p), cudaErrorInvalidValue);
    assert_cuda(cudaGraphNodeGetParams(kernel, NULL), cudaErrorInvalidValue);

    /* A conditional node has no getter of its own in driver 580. */
    cudaGraphConditionalHandle handle;
    assert_cuda(cudaGraphConditionalHandleCreate(&handle, graph, 1, cudaGraphCondAssignDefault),
                cudaSuccess);
    p = zeroed_params();
    p->type = cudaGraphNodeTypeConditional;
    p->conditional.handle = handle;
    p->conditional.type = cudaGraphCondTypeIf;
    p->conditional.size = 1;
    cudaGraphNode_t cond;
    assert_cuda(cudaGraphAddNode(&cond, graph, NULL, NULL, 0, p), cudaSuccess);
    assert_cuda(cudaGraphNodeGetParams(cond, zeroed_params()), cudaErrorNotSupported);
    assert_cuda(cudaGraphDestroy(graph), cudaSuccess);
    assert_cuda(cudaGraphDestroy(child), cudaSuccess);
    assert_cuda(cudaFree(dev), cudaSuccess);
}

static void graph_id_is_the_label_of_the_drivers_dot(void **state)
{
    (void)state;
    cudaGraph_t first, second;
    assert_cuda(cudaGraphCreate(&first, 0), cudaSuccess);
    assert_cuda(cudaGraphCreate(&second, 0), cudaSuccess);
    unsigned a = 0, b = 0, again = 0;
    /* Asked in the other order than made: the ids are the graphs', not the order of asking. */
    assert_cuda(cudaGraphGetId(second, &b), cudaSuccess);
    assert_cuda(cudaGraphGetId(first, &a), cudaSuccess);
    assert_cuda(cudaGraphGetId(second, &again), cudaSuccess);
    assert_true(a != b);
    assert_int_equal(b, again);
    assert_int_equal(fk.fake_count_calls("cuGraphGetId"), 0);
    /* The same number as the DOT the program can print itself. */
    char path[] = "/tmp/cuda135-dot-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_cuda(cudaGraphDebugDotPrint(first, path, 0), cudaSuccess);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char text[4096] = "";
    size_t got = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    remove(path);
    text[got] = '\0';
    char label[64];
    snprintf(label, sizeof label, "label=\"graph_%u\"", a);
    assert_non_null(strstr(text, label));
    assert_cuda(cudaGraphGetId(NULL, &a), cudaErrorInvalidValue);
    assert_cuda(cudaGraphGetId(first, NULL), cudaErrorInvalidValue);
    assert_cuda(cudaGraphDestroy(first), cudaSuccess);
    assert_cuda(cudaGraphDestroy(second), cudaSuccess);
}

static void graph_id_without_the_dot_needs_a_newer_driver(void **state)
{
    (void)state;
    cudaGraph_t graph;
    assert_cuda(cudaGraphCreate(&graph, 0), cudaSuccess);
    unsigned id = 77;
    assert_cuda(cudaGraphGetId(graph, &id), cudaErrorCallRequiresNewerDriver);
    assert_int_equal(id, 77);
    assert_cuda(cudaGraphDestroy(graph), cudaSuccess);
}

/* ---- what is refused on driver 580 ---------------------------------------------------------- */

static void refused_functions_answer_before_their_arguments(void **state)
{
    (void)state;
    /* NVIDIA's 13.5 runtime on driver 580 answers these before it looks at its arguments
     * (H200): NULL arguments too get cudaErrorCallRequiresNewerDriver. */
    assert_cuda(cudaGraphExecGetId(NULL, NULL), cudaErrorCallRequiresNewerDriver);
    assert_cuda(cudaGraphNodeGetLocalId(NULL, NULL), cudaErrorCallRequiresNewerDriver);
    assert_cuda(cudaGraphNodeGetToolsId(NULL, NULL), cudaErrorCallRequiresNewerDriver);
    assert_cuda(cudaGraphNodeGetContainingGraph(NULL, NULL), cudaErrorCallRequiresNewerDriver);
    assert_cuda(cudaMemGetLocationInfo(NULL, 0, 0, 0, NULL), cudaErrorCallRequiresNewerDriver);
    assert_cuda(cudaDevSmResourceSplit(NULL, 0, NULL, NULL, 0, NULL),
                cudaErrorCallRequiresNewerDriver);
    cudaStream_t s;
    assert_cuda(cudaStreamCreate(&s), cudaSuccess);
    assert_cuda(cudaStreamBeginRecaptureToGraph(s, cudaStreamCaptureModeGlobal, NULL, NULL),
                cudaErrorCallRequiresNewerDriver);
    assert_cuda(cudaStreamBeginRecaptureToGraph_ptsz(0, cudaStreamCaptureModeGlobal, NULL, NULL),
                cudaErrorCallRequiresNewerDriver);
    enum cudaStreamCaptureStatus status = cudaStreamCaptureStatusActive;
    assert_cuda(cudaStreamIsCapturing(s, &status), cudaSuccess);
    assert_int_equal(status, cudaStreamCaptureStatusNone);
    assert_cuda(cudaStreamDestroy(s), cudaSuccess);
}

cudaError_t cudaSubgridCreate(void);
cudaError_t cudaSubgridWorkerGridCreate(void);
cudaError_t cudaSubgridWorksetCreate(void);

static void undeclared_functions_are_not_implemented(void **state)
{
    (void)state;
    assert_cuda(cudaSubgridCreate(), cudaErrorNotSupported);
    assert_cuda(cudaSubgridWorkerGridCreate(), cudaErrorNotSupported);
    assert_cuda(cudaSubgridWorksetCreate(), cudaErrorNotSupported);
}

/* ---- 13.5's members of the node parameters -------------------------------------------------- */

static void node_params_carry_the_execution_context(void **state)
{
    (void)state;
    cudaExecutionContext_t green = make_green(16);
    cudaGraph_t graph;
    assert_cuda(cudaGraphCreate(&graph, 0), cudaSuccess);
    int *dev = NULL, n = 4;
    double scale = 2.0;
    assert_cuda(cudaMalloc((void **)&dev, 64), cudaSuccess);
    void *args[] = { &dev, &n, &scale };
    struct rt135_kernel_node_params k135 = {
        .func = (void *)k135_three_stub(), .gridDim = { 1, 1, 1 }, .blockDim = { 4, 1, 1 },
        .kernelParams = args, .ctx = green, .functionType = cudaKernelFunctionTypeDeviceEntry,
    };
    struct cudaGraphNodeParams *p = zeroed_params();
    p->type = cudaGraphNodeTypeKernel;
    memcpy(&p->kernel, &k135, sizeof k135);
    cudaGraphNode_t node;
    fk.fake_reset_log();
    assert_cuda(cudaGraphAddNode(&node, graph, NULL, NULL, 0, p), cudaSuccess);
    char ctx_arg[64];
    snprintf(ctx_arg, sizeof ctx_arg, "ctx=%p", (void *)green);
    assert_int_equal(e2e_calls_with("cuGraphAddNode", ctx_arg), 1);
    /* Without a context named: the current one, as before 13.5. */
    cudaExecutionContext_t primary = NULL;
    assert_cuda(cudaDeviceGetExecutionCtx(&primary, 0), cudaSuccess);
    char primary_arg[64];
    snprintf(primary_arg, sizeof primary_arg, "ctx=%p", (void *)primary);
    k135.ctx = NULL;
    memcpy(&p->kernel, &k135, sizeof k135);
    fk.fake_reset_log();
    assert_cuda(cudaGraphAddNode(&node, graph, NULL, NULL, 0, p), cudaSuccess);
    assert_int_equal(e2e_calls_with("cuGraphAddNode", primary_arg), 1);

    /* A cudaFunction_t is passed through as the driver's function. */
    cudaFunction_t fn = NULL;
    assert_cuda(cudaGetFuncBySymbol(&fn, k135_three_stub()), cudaSuccess);
    k135.func = (void *)fn;
    k135.ctx = NULL;
    k135.functionType = cudaKernelFunctionTypeFunction;
    p = zeroed_params();
    p->type = cudaGraphNodeTypeKernel;
    memcpy(&p->kernel, &k135, sizeof k135);
    assert_cuda(cudaGraphAddNode(&node, graph, NULL, NULL, 0, p), cudaSuccess);
    k135.functionType = (enum cudaKernelFunctionType)7;
    memcpy(&p->kernel, &k135, sizeof k135);
    assert_cuda(cudaGraphAddNode(&node, graph, NULL, NULL, 0, p), cudaErrorInvalidValue);

    /* A memset node in the green context. */
    struct rt135_memset_node_params s135 = { .dst = dev, .value = 1, .elementSize = 4,
                                             .width = 4, .height = 1, .ctx = green };
    p = zeroed_params();
    p->type = cudaGraphNodeTypeMemset;
    memcpy(&p->memset, &s135, sizeof s135);
    fk.fake_reset_log();
    assert_cuda(cudaGraphAddNode(&node, graph, NULL, NULL, 0, p), cudaSuccess);
    assert_int_equal(e2e_calls_with("cuGraphAddNode", ctx_arg), 1);

    /* A host node with 13.5's sync mode or context: driver 580 reads them as bytes that must be
     * zero and refuses the node, as NVIDIA's 13.5 runtime answers there (H200). */
    int calls = 0;
    struct rt135_host_node_params h135;
    memset(&h135, 0, sizeof h135);
    h135 = (struct rt135_host_node_params){ count_up, &calls, cudaHostTaskSpinWait, NULL };
    p = zeroed_params();
    p->type = cudaGraphNodeTypeHost;
    memcpy(&p->host, &h135, sizeof h135);
    assert_cuda(cudaGraphAddNode(&node, graph, NULL, NULL, 0, p), cudaErrorInvalidValue);
    h135.syncMode = cudaHostTaskBlocking;
    h135.ctx = green;
    memcpy(&p->host, &h135, sizeof h135);
    assert_cuda(cudaGraphAddNode(&node, graph, NULL, NULL, 0, p), cudaErrorInvalidValue);
    h135.ctx = NULL;
    memcpy(&p->host, &h135, sizeof h135);
    assert_cuda(cudaGraphAddNode(&node, graph, NULL, NULL, 0, p), cudaSuccess);
    assert_cuda(cudaGraphDestroy(graph), cudaSuccess);
    assert_cuda(cudaExecutionCtxDestroy(green), cudaSuccess);
    assert_cuda(cudaFree(dev), cudaSuccess);
}

static void conditional_handle_v2_takes_the_context(void **state)
{
    (void)state;
    cudaExecutionContext_t green = make_green(16);
    cudaGraph_t graph;
    assert_cuda(cudaGraphCreate(&graph, 0), cudaSuccess);
    cudaGraphConditionalHandle handle = 0;
    fk.fake_reset_log();
    assert_cuda(cudaGraphConditionalHandleCreate_v2(&handle, graph, green, 1, 0), cudaSuccess);
    char ctx_arg[64];
    snprintf(ctx_arg, sizeof ctx_arg, "ctx=%p", (void *)green);
    assert_int_equal(e2e_calls_with("cuGraphConditionalHandleCreate", ctx_arg), 1);
    assert_cuda(cudaGraphConditionalHandleCreate_v2(&handle, graph, NULL, 1, 0), cudaSuccess);
    assert_cuda(cudaGraphConditionalHandleCreate_v2(NULL, graph, NULL, 1, 0),
                cudaErrorInvalidValue);
    assert_cuda(cudaGraphDestroy(graph), cudaSuccess);
    assert_cuda(cudaExecutionCtxDestroy(green), cudaSuccess);
}

/* ---- a newer driver (FAKECUDA_DRIVER_VERSION=13050) ----------------------------------------- */

static void newer_driver_serves_the_entry_points_it_has(void **state)
{
    (void)state;
    fk.fake_reset_log();
    size_t count = 0;
    assert_cuda(cudaFuncGetParamCount(k135_three_stub(), &count), cudaSuccess);
    assert_int_equal(count, 3);
    assert_int_equal(fk.fake_count_calls("cuFuncGetParamCount"), 1);

    cudaStream_t s;
    assert_cuda(cudaStreamCreate(&s), cudaSuccess);
    int host[4] = { 1, 2, 3, 4 }, *dev = NULL;
    assert_cuda(cudaMalloc((void **)&dev, sizeof host), cudaSuccess);
    struct cudaMemcpyAttributes attr = { .srcAccessOrder = cudaMemcpySrcAccessOrderStream };
    assert_cuda(cudaMemcpyWithAttributesAsync(dev, host, sizeof host, &attr, s), cudaSuccess);
    assert_int_equal(fk.fake_count_calls("cuMemcpyWithAttributesAsync"), 1);
    assert_int_equal(fk.fake_count_calls("cuMemcpyBatchAsync"), 0);

    int calls = 0;
    assert_cuda(cudaLaunchHostFunc_v2(s, count_up, &calls, cudaHostTaskSpinWait), cudaSuccess);
    assert_cuda(cudaStreamSynchronize(s), cudaSuccess);
    assert_int_equal(calls, 1);

    cudaDevResource r;
    assert_cuda(cudaStreamGetDevResource(s, &r, cudaDevResourceTypeSm), cudaSuccess);
    assert_int_equal(fk.fake_count_calls("cuStreamGetDevResource"), 1);
    assert_int_equal(r.sm.smCount, 132);

    cudaGraph_t graph;
    assert_cuda(cudaGraphCreate(&graph, 0), cudaSuccess);
    cudaGraphNode_t node, other;
    assert_cuda(cudaGraphAddEmptyNode(&node, graph, NULL, 0), cudaSuccess);
    assert_cuda(cudaGraphAddEmptyNode(&other, graph, &node, 1), cudaSuccess);
    unsigned graph_id = 0, local = 9, local_other = 9, exec_id = 0;
    unsigned long long tools = 0;
    cudaGraph_t owner = NULL;
    assert_cuda(cudaGraphGetId(graph, &graph_id), cudaSuccess);
    assert_int_equal(fk.fake_count_calls("cuGraphGetId"), 1);
    assert_cuda(cudaGraphNodeGetLocalId(node, &local), cudaSuccess);
    assert_cuda(cudaGraphNodeGetLocalId(other, &local_other), cudaSuccess);
    assert_int_equal(local, 0);
    assert_int_equal(local_other, 1);
    assert_cuda(cudaGraphNodeGetToolsId(node, &tools), cudaSuccess);
    assert_true(tools != 0);
    assert_cuda(cudaGraphNodeGetContainingGraph(other, &owner), cudaSuccess);
    assert_ptr_equal(owner, graph);
    cudaGraphExec_t exec;
    assert_cuda(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
    assert_cuda(cudaGraphExecGetId(exec, &exec_id), cudaSuccess);
    assert_true(exec_id != 0);
    assert_cuda(cudaGraphExecGetId(exec, NULL), cudaErrorInvalidValue);
    struct cudaGraphNodeParams *p = zeroed_params();
    assert_cuda(cudaGraphNodeGetParams(node, p), cudaSuccess);
    assert_int_equal(fk.fake_count_calls("cuGraphNodeGetParams"), 1);
    assert_int_equal(p->type, cudaGraphNodeTypeEmpty);

    /* 13.4's cuGraphAddNode takes a spin-wait host node. */
    struct rt135_host_node_params h135 = { count_up, &calls, cudaHostTaskSpinWait, NULL };
    p = zeroed_params();
    p->type = cudaGraphNodeTypeHost;
    memcpy(&p->host, &h135, sizeof h135);
    assert_cuda(cudaGraphAddNode(&node, graph, NULL, NULL, 0, p), cudaSuccess);

    assert_cuda(cudaGraphExecDestroy(exec), cudaSuccess);
    assert_cuda(cudaGraphDestroy(graph), cudaSuccess);
    assert_cuda(cudaFree(dev), cudaSuccess);
    assert_cuda(cudaStreamDestroy(s), cudaSuccess);
}

/* What the recapture callback saw. */
static struct {
    int calls;
    const void *original_func, *recaptured_func;
    unsigned original_block, recaptured_block;
} seen;

static cudaError_t on_mismatch(void *data, cudaGraphNode_t node,
                               const struct cudaGraphNodeParams *original,
                               const struct cudaGraphNodeParams *recaptured,
                               enum cudaGraphRecaptureStatus status)
{
    (void)node, (void)status;
    assert_ptr_equal(data, &seen);
    seen.calls++;
    seen.original_func = original->kernel.func;
    seen.recaptured_func = recaptured->kernel.func;
    seen.original_block = original->kernel.blockDim.x;
    seen.recaptured_block = recaptured->kernel.blockDim.x;
    return cudaSuccess;
}

static void launch_three(cudaStream_t s, unsigned block)
{
    int *p = NULL, n = 0;
    double scale = 1.0;
    void *args[] = { &p, &n, &scale };
    assert_cuda(cudaLaunchKernel(k135_three_stub(), (dim3){ 1, 1, 1 }, (dim3){ block, 1, 1 },
                                 args, 0, s), cudaSuccess);
}

static void recapture_callback_sees_the_runtimes_parameters(void **state)
{
    (void)state;
    cudaStream_t s;
    assert_cuda(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), cudaSuccess);
    cudaGraph_t graph = NULL;
    assert_cuda(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), cudaSuccess);
    launch_three(s, 32);
    assert_cuda(cudaStreamEndCapture(s, &graph), cudaSuccess);
    struct cudaGraphRecaptureCallbackData callback = { on_mismatch, &seen };
    assert_cuda(cudaStreamBeginRecaptureToGraph(s, cudaStreamCaptureModeGlobal, graph, &callback),
                cudaSuccess);
    launch_three(s, 64);
    cudaGraph_t again = NULL;
    assert_cuda(cudaStreamEndCapture(s, &again), cudaSuccess);
    assert_ptr_equal(again, graph);
    assert_int_equal(seen.calls, 1);
    /* Both sides named by the host stub, as the runtime names kernels. */
    assert_ptr_equal(seen.original_func, k135_three_stub());
    assert_ptr_equal(seen.recaptured_func, k135_three_stub());
    assert_int_equal(seen.original_block, 32);
    assert_int_equal(seen.recaptured_block, 64);
    assert_cuda(cudaStreamBeginRecaptureToGraph(s, cudaStreamCaptureModeGlobal, NULL, NULL),
                cudaErrorInvalidValue);
    assert_cuda(cudaGraphDestroy(graph), cudaSuccess);
    assert_cuda(cudaStreamDestroy(s), cudaSuccess);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(runtime_is_13_5_with_its_error_codes),
        cmocka_unit_test(device_resources_pass_through_and_split),
        cmocka_unit_test(device_resources_refuse_bad_arguments),
        cmocka_unit_test(green_context_streams_events_and_destroy),
        cmocka_unit_test(primary_execution_context_is_the_primary_context),
        cmocka_unit_test(execution_context_calls_refuse_null),
        cmocka_unit_test(stream_resources_come_from_the_streams_context),
        cmocka_unit_test(param_count_is_read_from_the_layout),
        cmocka_unit_test(memcpy_with_attributes_is_a_batch_of_one),
        cmocka_unit_test(host_function_v2_blocking_is_cuLaunchHostFunc),
        cmocka_unit_test(graph_node_params_come_from_each_kinds_getter),
        cmocka_unit_test(graph_id_is_the_label_of_the_drivers_dot),
        cmocka_unit_test(graph_id_without_the_dot_needs_a_newer_driver),
        cmocka_unit_test(refused_functions_answer_before_their_arguments),
        cmocka_unit_test(undeclared_functions_are_not_implemented),
        cmocka_unit_test(node_params_carry_the_execution_context),
        cmocka_unit_test(conditional_handle_v2_takes_the_context),
        cmocka_unit_test(newer_driver_serves_the_entry_points_it_has),
        cmocka_unit_test(recapture_callback_sees_the_runtimes_parameters),
    };
    if (argc < 2) {
        fprintf(stderr, "usage: %s TEST\n", argv[0]);
        return 2;
    }
    /* The named test alone, in a process of its own. */
    for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++)
        if (strcmp(tests[i].name, argv[1]) == 0)
            return _cmocka_run_group_tests("cuda135", &tests[i], 1, setup, NULL);
    fprintf(stderr, "%s: no test named %s\n", argv[0], argv[1]);
    return 2;
}
