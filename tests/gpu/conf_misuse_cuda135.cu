// gpu-cuda: 13.5
// conf_misuse_cuda135.cu - invalid inputs to the 36 functions CUDA 13.5 added, one case each
// (the runner and the line format: misuse.h): NULL outputs, devices -1 and "count", resource
// types that are not one, zeroed and garbage resources, split counts out of range, flags that
// must be 0, NULL descriptors, contexts, events, nodes and graphs, a host function that is not
// a kernel, bad sync modes and copy attributes, and the undeclared cudaSubgrid* exports called
// with nothing.  Destroyed handles are never passed (undefined behaviour, SEMANTICS.md section
// 0), nor the primary execution context to cudaExecutionCtxDestroy (undefined, its docs say).
#include "misuse.h"

#if CUDART_VERSION < 13050
#error "needs CUDA 13.5's headers (the gpu-cuda mark: run.sh and the CMake trees build it only with nvcc 13.5)"
#endif

// The per-thread-default-stream forms (declared by the toolkit only in such builds), and the
// three functions 13.5 exports but declares in no header: their parameters are unknown, so
// they are called with six zero arguments (which covers fewer ones in the x86-64 ABI).
extern "C" {
cudaError_t CUDARTAPI cudaStreamGetDevResource_ptsz(cudaStream_t hStream,
                                                    cudaDevResource *resource,
                                                    enum cudaDevResourceType type);
cudaError_t CUDARTAPI cudaLaunchHostFunc_v2_ptsz(cudaStream_t stream, cudaHostFn_t fn,
                                                 void *userData, unsigned int syncMode);
cudaError_t CUDARTAPI cudaMemcpyWithAttributesAsync_ptsz(void *dst, const void *src, size_t size,
                                                         struct cudaMemcpyAttributes *attr,
                                                         cudaStream_t stream);
cudaError_t CUDARTAPI cudaMemcpy3DWithAttributesAsync_ptsz(struct cudaMemcpy3DBatchOp *op,
                                                           unsigned long long flags,
                                                           cudaStream_t stream);
cudaError_t CUDARTAPI cudaStreamBeginRecaptureToGraph_ptsz(
    cudaStream_t stream, enum cudaStreamCaptureMode mode, cudaGraph_t graph,
    struct cudaGraphRecaptureCallbackData *callbackData);
cudaError_t cudaSubgridCreate(void *, void *, void *, void *, void *, void *);
cudaError_t cudaSubgridWorkerGridCreate(void *, void *, void *, void *, void *, void *);
cudaError_t cudaSubgridWorksetCreate(void *, void *, void *, void *, void *, void *);
}

__global__ void three_params(int *out, int a, int b)
{
    *out = a + b;
}

// Fixtures, made at every start.  Those of 13.5 (resources, contexts) are made when the
// runtime gives them and left zero otherwise, so that every case still runs and answers.
static cudaStream_t s;
static cudaEvent_t ev;
static cudaGraph_t graph;
static cudaGraphNode_t node;
static int device_count;
static int *dmem;
static void *managed;
static const size_t MANAGED_BYTES = 4 << 20;
static cudaDevResource device_sm, group, zeroed, garbage;
static cudaDevResourceDesc_t desc;
static cudaExecutionContext_t green, primary;

// What a case made, for its cleanup.
static cudaStream_t made_stream;
static cudaExecutionContext_t made_ctx;
static cudaGraph_t made_graph;
static cudaGraphExec_t made_exec;
static cudaDevResourceDesc_t made_desc;
static cudaEvent_t made_event;

// Outputs the cases write to.
static cudaDevResource out_resource, out_groups[4];
static unsigned out_count;
static cudaExecutionContext_t out_ctx;
static int out_int;
static unsigned out_uint;
static unsigned long long out_ull;
static size_t out_size;
static cudaGraph_t out_graph;
static cudaGraphConditionalHandle out_handle;
static cudaMemLocation out_locations[4];
static int host_calls;

static void CUDART_CB count_call(void *)
{
    host_calls++;
}

static void setup(void)
{
    CHECK(cudaGetDeviceCount(&device_count));
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaEventCreate(&ev));
    CHECK(cudaEventRecord(ev, s));
    CHECK(cudaGraphCreate(&graph, 0));
    CHECK(cudaGraphAddEmptyNode(&node, graph, NULL, 0));
    CHECK(cudaMalloc((void **)&dmem, 1 << 16));
    CHECK(cudaMallocManaged(&managed, MANAGED_BYTES));
    CHECK(cudaStreamSynchronize(s));
    memset(&zeroed, 0, sizeof zeroed);
    // Garbage contents but no chain: nextResource stays NULL, so no call follows a wild link.
    memset(&garbage, 0xab, sizeof garbage);
    garbage.type = cudaDevResourceTypeSm;
    garbage.nextResource = NULL;
    memset(&device_sm, 0, sizeof device_sm);
    memset(&group, 0, sizeof group);
    if (cudaDeviceGetDevResource(0, &device_sm, cudaDevResourceTypeSm) == cudaSuccess) {
        unsigned one = 1;
        if (cudaDevSmResourceSplitByCount(&group, &one, &device_sm, NULL, 0, 16) == cudaSuccess &&
            cudaDevResourceGenerateDesc(&desc, &group, 1) == cudaSuccess &&
            cudaGreenCtxCreate(&green, desc, 0, 0) != cudaSuccess)
            green = NULL;
    }
    if (cudaDeviceGetExecutionCtx(&primary, 0) != cudaSuccess)
        primary = NULL;
    misuse_clear();
}

// Destroys what a case made, whether or not its call failed.
static void destroy_made(void)
{
    if (made_stream) {
        cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
        if (cudaStreamIsCapturing(made_stream, &st) == cudaSuccess &&
            st != cudaStreamCaptureStatusNone) {
            cudaGraph_t g = NULL;
            cudaStreamEndCapture(made_stream, &g);
            if (g)
                cudaGraphDestroy(g);
        }
        cudaStreamDestroy(made_stream);
    }
    if (made_event)
        cudaEventDestroy(made_event);   // after the capture that recorded it has ended
    if (made_exec)
        cudaGraphExecDestroy(made_exec);
    if (made_graph)
        cudaGraphDestroy(made_graph);
    if (made_ctx)
        cudaExecutionCtxDestroy(made_ctx);
    made_stream = NULL;
    made_exec = NULL;
    made_graph = NULL;
    made_ctx = NULL;
    made_desc = NULL;
    made_event = NULL;
}

// After a case that may have queued work (a call that took a bad input anyway): let it finish
// and end any capture the call began on s, the legacy or the per-thread stream.
static void settle(void)
{
    cudaStream_t streams[3] = {s, cudaStreamLegacy, cudaStreamPerThread};
    for (cudaStream_t stream : streams) {
        cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
        if (cudaStreamIsCapturing(stream, &st) == cudaSuccess &&
            st != cudaStreamCaptureStatusNone) {
            cudaGraph_t g = NULL;
            cudaStreamEndCapture(stream, &g);
            if (g && g != graph)
                cudaGraphDestroy(g);
        }
    }
    cudaStreamSynchronize(s);
    cudaStreamSynchronize(cudaStreamPerThread);
    destroy_made();
}

// A copy attribute in stream order with no hints (they only apply to managed memory).
static cudaMemcpyAttributes stream_order(void)
{
    cudaMemcpyAttributes attr;
    memset(&attr, 0, sizeof attr);
    attr.srcAccessOrder = cudaMemcpySrcAccessOrderStream;
    return attr;
}

// A valid 3D copy of 64 bytes, device to device within dmem.
static cudaMemcpy3DBatchOp copy_op(void)
{
    cudaMemcpy3DBatchOp op;
    memset(&op, 0, sizeof op);
    op.src.type = cudaMemcpyOperandTypePointer;
    op.src.op.ptr.ptr = dmem;
    op.dst.type = cudaMemcpyOperandTypePointer;
    op.dst.op.ptr.ptr = dmem + 1024;
    op.extent = make_cudaExtent(64, 1, 1);
    op.srcAccessOrder = cudaMemcpySrcAccessOrderStream;
    return op;
}

// A stream of the green context (or an ordinary one without it) in relaxed capture.
static cudaStream_t capturing_green_stream(void)
{
    if (green)
        CHECK(cudaExecutionCtxStreamCreate(&made_stream, green, cudaStreamNonBlocking, 0));
    else
        CHECK(cudaStreamCreateWithFlags(&made_stream, cudaStreamNonBlocking));
    CHECK(cudaStreamBeginCapture(made_stream, cudaStreamCaptureModeRelaxed));
    misuse_clear();
    return made_stream;
}

static cudaError_t split_by_count(unsigned count, const cudaDevResource *input, unsigned flags,
                                  unsigned min_count)
{
    out_count = count;
    memset(out_groups, 0, sizeof out_groups);
    cudaError_t e = cudaDevSmResourceSplitByCount(out_groups, &out_count, input, NULL, flags,
                                                  min_count);
    if (e == cudaSuccess)
        misuse_note("groups_%u_of_%u", out_count, out_groups[0].sm.smCount);
    return e;
}

static cudaError_t split(unsigned count, const cudaDevResource *input, unsigned flags,
                         unsigned sm_count)
{
    cudaDevSmResourceGroupParams params[4];
    memset(params, 0, sizeof params);
    params[0].smCount = sm_count;
    memset(out_groups, 0, sizeof out_groups);
    cudaError_t e = cudaDevSmResourceSplit(out_groups, count, input, NULL, flags, params);
    if (e == cudaSuccess)
        misuse_note("smCount_%u", out_groups[0].sm.smCount);
    return e;
}

static cudaError_t stream_resource(cudaStream_t stream, cudaDevResourceType type)
{
    memset(&out_resource, 0, sizeof out_resource);
    cudaError_t e = cudaStreamGetDevResource(stream, &out_resource, type);
    if (e == cudaSuccess)
        misuse_note("type_%d_smCount_%u", (int)out_resource.type, out_resource.sm.smCount);
    return e;
}

static cudaError_t location_info(void *ptr, size_t size, size_t summary, size_t sampling)
{
    memset(out_locations, 0, sizeof out_locations);
    return cudaMemGetLocationInfo(ptr, size, summary, sampling, out_locations);
}

static const misuse_case cases[] = {
    // ---- device resources ----
    {"cudaDeviceGetDevResource.null_out",
     [] { return cudaDeviceGetDevResource(0, NULL, cudaDevResourceTypeSm); }},
    {"cudaDeviceGetDevResource.device_minus_1",
     [] { return cudaDeviceGetDevResource(-1, &out_resource, cudaDevResourceTypeSm); }},
    {"cudaDeviceGetDevResource.device_count",
     [] { return cudaDeviceGetDevResource(device_count, &out_resource, cudaDevResourceTypeSm); }},
    {"cudaDeviceGetDevResource.type_invalid",
     [] { return cudaDeviceGetDevResource(0, &out_resource, cudaDevResourceTypeInvalid); }},
    {"cudaDeviceGetDevResource.type_999",
     [] { return cudaDeviceGetDevResource(0, &out_resource, (cudaDevResourceType)999); }},
    {"cudaDeviceGetDevResource.type_workqueue_config",
     [] {
         return cudaDeviceGetDevResource(0, &out_resource, cudaDevResourceTypeWorkqueueConfig);
     }},
    {"cudaDeviceGetDevResource.type_workqueue",
     [] { return cudaDeviceGetDevResource(0, &out_resource, cudaDevResourceTypeWorkqueue); }},

    // ---- splits ----
    {"cudaDevSmResourceSplitByCount.null_nb_groups",
     [] { return cudaDevSmResourceSplitByCount(NULL, NULL, &device_sm, NULL, 0, 16); }},
    {"cudaDevSmResourceSplitByCount.null_input",
     [] {
         out_count = 1;
         return cudaDevSmResourceSplitByCount(out_groups, &out_count, NULL, NULL, 0, 16);
     }},
    {"cudaDevSmResourceSplitByCount.min_count_0", [] { return split_by_count(2, &device_sm, 0, 0); }},
    {"cudaDevSmResourceSplitByCount.min_count_1", [] { return split_by_count(2, &device_sm, 0, 1); }},
    {"cudaDevSmResourceSplitByCount.min_count_above_sm_count",
     [] { return split_by_count(1, &device_sm, 0, device_sm.sm.smCount + 1); }},
    {"cudaDevSmResourceSplitByCount.min_count_max",
     [] { return split_by_count(1, &device_sm, 0, ~0u); }},
    {"cudaDevSmResourceSplitByCount.nb_groups_0",
     [] { return split_by_count(0, &device_sm, 0, 16); }},
    {"cudaDevSmResourceSplitByCount.unknown_flags",
     [] { return split_by_count(1, &device_sm, 0x80, 16); }},
    {"cudaDevSmResourceSplitByCount.zeroed_input",
     [] { return split_by_count(1, &zeroed, 0, 16); }},
    {"cudaDevSmResourceSplitByCount.garbage_sm_input",
     [] { return split_by_count(1, &garbage, 0, 16); }},
    {"cudaDevSmResourceSplitByCount.query_null_input",
     [] {
         out_count = 0;
         return cudaDevSmResourceSplitByCount(NULL, &out_count, NULL, NULL, 0, 16);
     }},
    {"cudaDevSmResourceSplit.null_input", [] { return split(1, NULL, 0, 16); }},
    {"cudaDevSmResourceSplit.nb_groups_0", [] { return split(0, &device_sm, 0, 16); }},
    {"cudaDevSmResourceSplit.null_params",
     [] { return cudaDevSmResourceSplit(out_groups, 1, &device_sm, NULL, 0, NULL); }},
    {"cudaDevSmResourceSplit.flags_1", [] { return split(1, &device_sm, 1, 16); }},
    {"cudaDevSmResourceSplit.sm_count_3", [] { return split(1, &device_sm, 0, 3); }},
    {"cudaDevSmResourceSplit.sm_count_above_input",
     [] { return split(1, &device_sm, 0, device_sm.sm.smCount + 2); }},
    {"cudaDevSmResourceSplit.zeroed_input", [] { return split(1, &zeroed, 0, 16); }},
    {"cudaDevSmResourceSplit.garbage_sm_input", [] { return split(1, &garbage, 0, 16); }},

    // ---- descriptors and green contexts ----
    {"cudaDevResourceGenerateDesc.null_out",
     [] { return cudaDevResourceGenerateDesc(NULL, &group, 1); }},
    {"cudaDevResourceGenerateDesc.null_resources",
     [] { return cudaDevResourceGenerateDesc(&made_desc, NULL, 1); }, destroy_made},
    {"cudaDevResourceGenerateDesc.count_0",
     [] { return cudaDevResourceGenerateDesc(&made_desc, &group, 0); }, destroy_made},
    {"cudaDevResourceGenerateDesc.zeroed_resource",
     [] { return cudaDevResourceGenerateDesc(&made_desc, &zeroed, 1); }, destroy_made},
    {"cudaDevResourceGenerateDesc.garbage_sm_resource",
     [] { return cudaDevResourceGenerateDesc(&made_desc, &garbage, 1); }, destroy_made},
    {"cudaDevResourceGenerateDesc.groups_of_two_splits",
     [] {
         // "Outputs of the same split API instance" only: each group here comes from its own.
         cudaDevResource two[2];
         memset(two, 0, sizeof two);
         unsigned one = 1;
         cudaDevSmResourceSplitByCount(&two[0], &one, &device_sm, NULL, 0, 16);
         one = 1;
         cudaDevSmResourceSplitByCount(&two[1], &one, &device_sm, NULL, 0, 16);
         misuse_clear();
         return cudaDevResourceGenerateDesc(&made_desc, two, 2);
     },
     destroy_made},
    {"cudaGreenCtxCreate.null_out", [] { return cudaGreenCtxCreate(NULL, desc, 0, 0); }},
    {"cudaGreenCtxCreate.null_desc",
     [] { return cudaGreenCtxCreate(&made_ctx, NULL, 0, 0); }, destroy_made},
    {"cudaGreenCtxCreate.device_minus_1",
     [] { return cudaGreenCtxCreate(&made_ctx, desc, -1, 0); }, destroy_made},
    {"cudaGreenCtxCreate.device_count",
     [] { return cudaGreenCtxCreate(&made_ctx, desc, device_count, 0); }, destroy_made},
    {"cudaGreenCtxCreate.flags_1",
     [] { return cudaGreenCtxCreate(&made_ctx, desc, 0, 1); }, destroy_made},

    // ---- execution contexts ----
    {"cudaDeviceGetExecutionCtx.null_out", [] { return cudaDeviceGetExecutionCtx(NULL, 0); }},
    {"cudaDeviceGetExecutionCtx.device_minus_1",
     [] { return cudaDeviceGetExecutionCtx(&out_ctx, -1); }},
    {"cudaDeviceGetExecutionCtx.device_count",
     [] { return cudaDeviceGetExecutionCtx(&out_ctx, device_count); }},
    {"cudaExecutionCtxDestroy.null", [] { return cudaExecutionCtxDestroy(NULL); }},
    {"cudaExecutionCtxGetDevResource.null_ctx",
     [] { return cudaExecutionCtxGetDevResource(NULL, &out_resource, cudaDevResourceTypeSm); }},
    {"cudaExecutionCtxGetDevResource.null_out",
     [] { return cudaExecutionCtxGetDevResource(primary, NULL, cudaDevResourceTypeSm); }},
    {"cudaExecutionCtxGetDevResource.type_invalid",
     [] {
         return cudaExecutionCtxGetDevResource(primary, &out_resource,
                                               cudaDevResourceTypeInvalid);
     }},
    {"cudaExecutionCtxGetDevResource.green_type_999",
     [] {
         return cudaExecutionCtxGetDevResource(green, &out_resource, (cudaDevResourceType)999);
     }},
    {"cudaExecutionCtxGetDevice.null_out", [] { return cudaExecutionCtxGetDevice(NULL, primary); }},
    {"cudaExecutionCtxGetDevice.null_ctx", [] { return cudaExecutionCtxGetDevice(&out_int, NULL); }},
    {"cudaExecutionCtxGetDevice.green_null_out",
     [] { return cudaExecutionCtxGetDevice(NULL, green); }},
    {"cudaExecutionCtxGetId.null_out", [] { return cudaExecutionCtxGetId(primary, NULL); }},
    {"cudaExecutionCtxGetId.null_ctx", [] { return cudaExecutionCtxGetId(NULL, &out_ull); }},
    {"cudaExecutionCtxRecordEvent.null_ctx", [] { return cudaExecutionCtxRecordEvent(NULL, ev); }},
    {"cudaExecutionCtxRecordEvent.null_event",
     [] { return cudaExecutionCtxRecordEvent(primary, NULL); }},
    {"cudaExecutionCtxRecordEvent.green_stream_capturing",
     [] {
         capturing_green_stream();
         return cudaExecutionCtxRecordEvent(green, ev);
     },
     destroy_made},
    {"cudaExecutionCtxWaitEvent.null_ctx", [] { return cudaExecutionCtxWaitEvent(NULL, ev); }},
    {"cudaExecutionCtxWaitEvent.null_event",
     [] { return cudaExecutionCtxWaitEvent(primary, NULL); }},
    {"cudaExecutionCtxWaitEvent.event_recorded_in_capture",
     [] {
         cudaStream_t stream = capturing_green_stream();
         CHECK(cudaEventCreate(&made_event));
         CHECK(cudaEventRecord(made_event, stream));
         misuse_clear();
         return cudaExecutionCtxWaitEvent(primary, made_event);
     },
     destroy_made},
    {"cudaExecutionCtxStreamCreate.null_out",
     [] { return cudaExecutionCtxStreamCreate(NULL, green, 0, 0); }},
    {"cudaExecutionCtxStreamCreate.null_ctx",
     [] { return cudaExecutionCtxStreamCreate(&made_stream, NULL, 0, 0); }, destroy_made},
    {"cudaExecutionCtxStreamCreate.green_unknown_flags",
     [] { return cudaExecutionCtxStreamCreate(&made_stream, green, 0x10, 0); }, destroy_made},
    {"cudaExecutionCtxStreamCreate.primary_unknown_flags",
     [] { return cudaExecutionCtxStreamCreate(&made_stream, primary, 0x10, 0); }, destroy_made},
    {"cudaExecutionCtxStreamCreate.primary_priority_out_of_range",
     [] {
         cudaError_t e = cudaExecutionCtxStreamCreate(&made_stream, primary, 0, 1000);
         if (e == cudaSuccess && cudaStreamGetPriority(made_stream, &out_int) == cudaSuccess)
             misuse_note("priority_%d", out_int);
         return e;
     },
     destroy_made},
    {"cudaExecutionCtxSynchronize.null_ctx", [] { return cudaExecutionCtxSynchronize(NULL); }},

    // ---- stream resources ----
    {"cudaStreamGetDevResource.null_out",
     [] { return cudaStreamGetDevResource(s, NULL, cudaDevResourceTypeSm); }},
    {"cudaStreamGetDevResource.type_invalid",
     [] { return stream_resource(s, cudaDevResourceTypeInvalid); }},
    {"cudaStreamGetDevResource.type_999",
     [] { return stream_resource(s, (cudaDevResourceType)999); }},
    {"cudaStreamGetDevResource.type_workqueue_config",
     [] { return stream_resource(s, cudaDevResourceTypeWorkqueueConfig); }},
    {"cudaStreamGetDevResource.type_workqueue",
     [] { return stream_resource(s, cudaDevResourceTypeWorkqueue); }},
    // An ordinary stream where a green one is expected: the device's SMs, or a refusal.
    {"cudaStreamGetDevResource.ordinary_stream",
     [] { return stream_resource(s, cudaDevResourceTypeSm); }},
    {"cudaStreamGetDevResource.legacy_stream",
     [] { return stream_resource(0, cudaDevResourceTypeSm); }},
    {"cudaStreamGetDevResource.per_thread_stream",
     [] { return stream_resource(cudaStreamPerThread, cudaDevResourceTypeSm); }},
    {"cudaStreamGetDevResource_ptsz.null_out",
     [] { return cudaStreamGetDevResource_ptsz(0, NULL, cudaDevResourceTypeSm); }},
    {"cudaStreamGetDevResource_ptsz.type_invalid",
     [] { return cudaStreamGetDevResource_ptsz(0, &out_resource, cudaDevResourceTypeInvalid); }},

    // ---- functions and graphs ----
    {"cudaFuncGetParamCount.null_func", [] { return cudaFuncGetParamCount(NULL, &out_size); }},
    {"cudaFuncGetParamCount.not_a_kernel",
     [] { return cudaFuncGetParamCount(MISUSE_NOT_A_KERNEL, &out_size); }},
    {"cudaFuncGetParamCount.host_data_pointer",
     [] { return cudaFuncGetParamCount(misuse_host_page, &out_size); }},
    {"cudaFuncGetParamCount.null_out",
     [] { return cudaFuncGetParamCount((const void *)three_params, NULL); }},
    {"cudaGraphNodeGetParams.null_node",
     [] {
         cudaGraphNodeParams p = {};
         return cudaGraphNodeGetParams(NULL, &p);
     }},
    {"cudaGraphNodeGetParams.null_out", [] { return cudaGraphNodeGetParams(node, NULL); }},
    {"cudaGraphGetId.null_graph", [] { return cudaGraphGetId(NULL, &out_uint); }},
    {"cudaGraphGetId.null_out", [] { return cudaGraphGetId(graph, NULL); }},
    {"cudaGraphExecGetId.null_exec", [] { return cudaGraphExecGetId(NULL, &out_uint); }},
    {"cudaGraphExecGetId.null_out",
     [] {
         CHECK(cudaGraphInstantiate(&made_exec, graph, 0));
         return cudaGraphExecGetId(made_exec, NULL);
     },
     destroy_made},
    {"cudaGraphNodeGetLocalId.null_node", [] { return cudaGraphNodeGetLocalId(NULL, &out_uint); }},
    {"cudaGraphNodeGetLocalId.null_out", [] { return cudaGraphNodeGetLocalId(node, NULL); }},
    {"cudaGraphNodeGetToolsId.null_node", [] { return cudaGraphNodeGetToolsId(NULL, &out_ull); }},
    {"cudaGraphNodeGetToolsId.null_out", [] { return cudaGraphNodeGetToolsId(node, NULL); }},
    {"cudaGraphNodeGetContainingGraph.null_node",
     [] { return cudaGraphNodeGetContainingGraph(NULL, &out_graph); }},
    {"cudaGraphNodeGetContainingGraph.null_out",
     [] { return cudaGraphNodeGetContainingGraph(node, NULL); }},
    {"cudaGraphConditionalHandleCreate_v2.null_out",
     [] { return cudaGraphConditionalHandleCreate_v2(NULL, graph, NULL, 0, 0); }},
    {"cudaGraphConditionalHandleCreate_v2.null_graph",
     [] { return cudaGraphConditionalHandleCreate_v2(&out_handle, NULL, NULL, 0, 0); }},
    {"cudaGraphConditionalHandleCreate_v2.flags_2",
     [] {
         CHECK(cudaGraphCreate(&made_graph, 0));
         return cudaGraphConditionalHandleCreate_v2(&out_handle, made_graph, NULL, 0, 2);
     },
     destroy_made},
    {"cudaGraphConditionalHandleCreate_v2.green_flags_2",
     [] {
         CHECK(cudaGraphCreate(&made_graph, 0));
         return cudaGraphConditionalHandleCreate_v2(&out_handle, made_graph, green, 0, 2);
     },
     destroy_made},

    // ---- host functions ----
    {"cudaLaunchHostFunc_v2.null_fn", [] { return cudaLaunchHostFunc_v2(s, NULL, NULL, 0); },
     settle},
    {"cudaLaunchHostFunc_v2.sync_mode_7",
     [] { return cudaLaunchHostFunc_v2(s, count_call, NULL, 7); }, settle},
    {"cudaLaunchHostFunc_v2_ptsz.null_fn",
     [] { return cudaLaunchHostFunc_v2_ptsz(0, NULL, NULL, 0); }, settle},
    {"cudaLaunchHostFunc_v2_ptsz.sync_mode_7",
     [] { return cudaLaunchHostFunc_v2_ptsz(0, count_call, NULL, 7); }, settle},

    // ---- copies with attributes ----
    {"cudaMemcpyWithAttributesAsync.null_attr",
     [] { return cudaMemcpyWithAttributesAsync(dmem, dmem + 1024, 64, NULL, s); }, settle},
    {"cudaMemcpyWithAttributesAsync.size_0",
     [] {
         cudaMemcpyAttributes attr = stream_order();
         return cudaMemcpyWithAttributesAsync(dmem, dmem + 1024, 0, &attr, s);
     },
     settle},
    {"cudaMemcpyWithAttributesAsync.src_access_order_invalid",
     [] {
         cudaMemcpyAttributes attr = stream_order();
         attr.srcAccessOrder = cudaMemcpySrcAccessOrderInvalid;
         return cudaMemcpyWithAttributesAsync(dmem, dmem + 1024, 64, &attr, s);
     },
     settle},
    {"cudaMemcpyWithAttributesAsync.src_access_order_7",
     [] {
         cudaMemcpyAttributes attr = stream_order();
         attr.srcAccessOrder = (cudaMemcpySrcAccessOrder)7;
         return cudaMemcpyWithAttributesAsync(dmem, dmem + 1024, 64, &attr, s);
     },
     settle},
    {"cudaMemcpyWithAttributesAsync.unknown_flags",
     [] {
         cudaMemcpyAttributes attr = stream_order();
         attr.flags = 0x80;
         return cudaMemcpyWithAttributesAsync(dmem, dmem + 1024, 64, &attr, s);
     },
     settle},
    {"cudaMemcpyWithAttributesAsync.null_dst",
     [] {
         cudaMemcpyAttributes attr = stream_order();
         return cudaMemcpyWithAttributesAsync(NULL, dmem, 64, &attr, s);
     },
     settle},
    {"cudaMemcpyWithAttributesAsync.legacy_stream",
     [] {
         cudaMemcpyAttributes attr = stream_order();
         return cudaMemcpyWithAttributesAsync(dmem, dmem + 1024, 64, &attr, 0);
     },
     settle},
    {"cudaMemcpyWithAttributesAsync_ptsz.null_attr",
     [] { return cudaMemcpyWithAttributesAsync_ptsz(dmem, dmem + 1024, 64, NULL, 0); }, settle},
    {"cudaMemcpy3DWithAttributesAsync.null_op",
     [] { return cudaMemcpy3DWithAttributesAsync(NULL, 0, s); }, settle},
    {"cudaMemcpy3DWithAttributesAsync.flags_1",
     [] {
         cudaMemcpy3DBatchOp op = copy_op();
         return cudaMemcpy3DWithAttributesAsync(&op, 1, s);
     },
     settle},
    {"cudaMemcpy3DWithAttributesAsync.zero_extent",
     [] {
         cudaMemcpy3DBatchOp op = copy_op();
         op.extent = make_cudaExtent(0, 0, 0);
         return cudaMemcpy3DWithAttributesAsync(&op, 0, s);
     },
     settle},
    {"cudaMemcpy3DWithAttributesAsync.src_access_order_invalid",
     [] {
         cudaMemcpy3DBatchOp op = copy_op();
         op.srcAccessOrder = cudaMemcpySrcAccessOrderInvalid;
         return cudaMemcpy3DWithAttributesAsync(&op, 0, s);
     },
     settle},
    {"cudaMemcpy3DWithAttributesAsync.operand_type_7",
     [] {
         cudaMemcpy3DBatchOp op = copy_op();
         op.src.type = (cudaMemcpy3DOperandType)7;
         return cudaMemcpy3DWithAttributesAsync(&op, 0, s);
     },
     settle},
    {"cudaMemcpy3DWithAttributesAsync.null_src_pointer",
     [] {
         cudaMemcpy3DBatchOp op = copy_op();
         op.src.op.ptr.ptr = NULL;
         return cudaMemcpy3DWithAttributesAsync(&op, 0, s);
     },
     settle},
    {"cudaMemcpy3DWithAttributesAsync.row_length_below_width",
     [] {
         cudaMemcpy3DBatchOp op = copy_op();
         op.extent = make_cudaExtent(64, 2, 1);
         op.src.op.ptr.rowLength = 32;
         return cudaMemcpy3DWithAttributesAsync(&op, 0, s);
     },
     settle},
    {"cudaMemcpy3DWithAttributesAsync_ptsz.null_op",
     [] { return cudaMemcpy3DWithAttributesAsync_ptsz(NULL, 0, 0); }, settle},

    // ---- recapture ----
    {"cudaStreamBeginRecaptureToGraph.null_graph",
     [] { return cudaStreamBeginRecaptureToGraph(s, cudaStreamCaptureModeGlobal, NULL, NULL); },
     settle},
    {"cudaStreamBeginRecaptureToGraph.legacy_stream",
     [] { return cudaStreamBeginRecaptureToGraph(0, cudaStreamCaptureModeGlobal, graph, NULL); },
     settle},
    {"cudaStreamBeginRecaptureToGraph.mode_7",
     [] {
         return cudaStreamBeginRecaptureToGraph(s, (cudaStreamCaptureMode)7, graph, NULL);
     },
     settle},
    {"cudaStreamBeginRecaptureToGraph.already_capturing",
     [] {
         cudaStream_t stream = capturing_green_stream();
         return cudaStreamBeginRecaptureToGraph(stream, cudaStreamCaptureModeRelaxed, graph,
                                                NULL);
     },
     settle},
    {"cudaStreamBeginRecaptureToGraph_ptsz.null_graph",
     [] {
         return cudaStreamBeginRecaptureToGraph_ptsz(0, cudaStreamCaptureModeGlobal, NULL, NULL);
     },
     settle},

    // ---- location info ----
    {"cudaMemGetLocationInfo.null_ptr", [] { return location_info(NULL, 4096, 4096, 0); }},
    {"cudaMemGetLocationInfo.null_out",
     [] { return cudaMemGetLocationInfo(managed, MANAGED_BYTES, MANAGED_BYTES, 0, NULL); }},
    {"cudaMemGetLocationInfo.size_0", [] { return location_info(managed, 0, 4096, 0); }},
    {"cudaMemGetLocationInfo.summary_0",
     [] { return location_info(managed, MANAGED_BYTES, 0, 0); }},
    {"cudaMemGetLocationInfo.summary_above_size",
     [] { return location_info(managed, 4096, 8192, 0); }},
    {"cudaMemGetLocationInfo.sampling_above_summary",
     [] { return location_info(managed, MANAGED_BYTES, MANAGED_BYTES, 2 * MANAGED_BYTES); }},
    {"cudaMemGetLocationInfo.device_memory", [] { return location_info(dmem, 4096, 4096, 0); }},
    {"cudaMemGetLocationInfo.registered_host_page",
     [] {
         CHECK(cudaHostRegister(misuse_host_page, sizeof misuse_host_page, 0));
         misuse_clear();
         cudaError_t e = location_info(misuse_host_page, sizeof misuse_host_page,
                                       sizeof misuse_host_page, 0);
         cudaHostUnregister(misuse_host_page);
         return e;
     }},

    // ---- the undeclared exports ----
    {"cudaSubgridCreate.all_zero", [] { return cudaSubgridCreate(0, 0, 0, 0, 0, 0); }},
    {"cudaSubgridWorkerGridCreate.all_zero",
     [] { return cudaSubgridWorkerGridCreate(0, 0, 0, 0, 0, 0); }},
    {"cudaSubgridWorksetCreate.all_zero",
     [] { return cudaSubgridWorksetCreate(0, 0, 0, 0, 0, 0); }},
};

int main(int argc, char **argv)
{
    return misuse_main("conf_misuse_cuda135", argc, argv, setup, cases, MISUSE_COUNT(cases));
}
