/*
 * test_graph_nodes.c - the graph node API against the fake driver: every node kind through its
 * own functions and through the generic cudaGraphAddNode, the getters and setters, edits of an
 * executable graph, kernel node attributes, topology, user objects, graph memory, and graphs made
 * by stream capture queried while the capture goes on.  What each call hands the driver is read
 * from the fake's call log, what a launch does from host implementations of the kernels, and the
 * error paths from the returned code and the last error.  One test per process run: the program
 * takes the test's name.
 */
#include "graph_test.h"

#include <stdio.h>


/* ---- helpers -------------------------------------------------------------------------------- */

/* countdown(int *left, cudaGraphConditionalHandle handle): what the device code does, with the
 * fake's stand-in for cudaGraphSetConditional. */
static void host_countdown(const void *params, size_t size, const unsigned grid[3],
                           const unsigned block[3])
{
    (void)size, (void)grid, (void)block;
    int *left = NULL;
    uint64_t handle = 0;
    memcpy(&left, params, sizeof left);
    memcpy(&handle, (const char *)params + 8, sizeof handle);
    *left -= 1;
    fk.fake_set_conditional(handle, *left > 0);
}

static int setup(void **state)
{
    if (e2e_setup(state) != 0)
        return -1;
    fk.fake_register_host_kernel("_Z7add_onePii", host_add_one);
    fk.fake_register_host_kernel("_Z9countdownPiy", host_countdown);
    return 0;
}

static enum cudaGraphNodeType type_of(cudaGraphNode_t node)
{
    enum cudaGraphNodeType type = cudaGraphNodeTypeCount;
    assert_cuda(cudaGraphNodeGetType(node, &type), cudaSuccess);
    return type;
}

static struct cudaGraphNodeParams kernel_node(const void *func, unsigned block, void **args)
{
    struct cudaGraphNodeParams p;
    memset(&p, 0, sizeof p);
    p.type = cudaGraphNodeTypeKernel;
    p.kernel.func = (void *)func;
    p.kernel.gridDim = (dim3){ 1, 1, 1 };
    p.kernel.blockDim = (dim3){ block, 1, 1 };
    p.kernel.kernelParams = args;
    return p;
}

/* ---- the generic form ----------------------------------------------------------------------- */

/* memset(a, 4) -> kernel add_one(a) -> memcpy a to b -> host; event record after the host node,
 * event wait at the root: every kind through cudaGraphAddNode, run by one launch. */
static void generic_add_node_builds_and_runs_every_kind(void **state)
{
    (void)state;
    int *a = device_ints(), *b = device_ints(), n = N, calls = 0;
    void *args[] = { &a, &n };
    cudaEvent_t ev;
    assert_cuda(cudaEventCreate(&ev), cudaSuccess);
    cudaGraph_t g, child;
    assert_cuda(cudaGraphCreate(&g, 0), cudaSuccess);
    assert_cuda(cudaGraphCreate(&child, 0), cudaSuccess);
    cudaGraphNode_t set, kernel, copy, host, empty, sub, record, wait;

    struct cudaGraphNodeParams p;
    memset(&p, 0, sizeof p);
    p.type = cudaGraphNodeTypeMemset;
    p.memset = (struct cudaMemsetParamsV2){ .dst = a, .value = 4, .elementSize = 4, .width = N,
                                            .height = 1 };
    assert_cuda(cudaGraphAddNode(&set, g, NULL, NULL, 0, &p), cudaSuccess);
    p = kernel_node(graph_add_one(), N, args);
    assert_cuda(cudaGraphAddNode(&kernel, g, &set, NULL, 1, &p), cudaSuccess);
    memset(&p, 0, sizeof p);
    p.type = cudaGraphNodeTypeMemcpy;
    p.memcpy.copyParams.srcPtr = (struct cudaPitchedPtr){ a, N * 4, N * 4, 1 };
    p.memcpy.copyParams.dstPtr = (struct cudaPitchedPtr){ b, N * 4, N * 4, 1 };
    p.memcpy.copyParams.extent = (struct cudaExtent){ N * 4, 1, 1 };
    p.memcpy.copyParams.kind = cudaMemcpyDeviceToDevice;
    cudaGraphEdgeData edge;
    memset(&edge, 0, sizeof edge);
    assert_cuda(cudaGraphAddNode(&copy, g, &kernel, &edge, 1, &p), cudaSuccess);
    memset(&p, 0, sizeof p);
    p.type = cudaGraphNodeTypeHost;
    p.host = (struct cudaHostNodeParamsV2){ host_mark, &calls };
    assert_cuda(cudaGraphAddNode(&host, g, &copy, NULL, 1, &p), cudaSuccess);
    memset(&p, 0, sizeof p);
    p.type = cudaGraphNodeTypeEmpty;
    assert_cuda(cudaGraphAddNode(&empty, child, NULL, NULL, 0, &p), cudaSuccess);
    memset(&p, 0, sizeof p);
    p.type = cudaGraphNodeTypeGraph;
    p.graph.graph = child;
    assert_cuda(cudaGraphAddNode(&sub, g, &host, NULL, 1, &p), cudaSuccess);
    memset(&p, 0, sizeof p);
    p.type = cudaGraphNodeTypeEventRecord;
    p.eventRecord.event = ev;
    assert_cuda(cudaGraphAddNode(&record, g, &sub, NULL, 1, &p), cudaSuccess);
    memset(&p, 0, sizeof p);
    p.type = cudaGraphNodeTypeWaitEvent;
    p.eventWait.event = ev;
    assert_cuda(cudaGraphAddNode(&wait, g, NULL, NULL, 0, &p), cudaSuccess);

    assert_int_equal(type_of(set), cudaGraphNodeTypeMemset);
    assert_int_equal(type_of(kernel), cudaGraphNodeTypeKernel);
    assert_int_equal(type_of(copy), cudaGraphNodeTypeMemcpy);
    assert_int_equal(type_of(host), cudaGraphNodeTypeHost);
    assert_int_equal(type_of(sub), cudaGraphNodeTypeGraph);
    assert_int_equal(type_of(record), cudaGraphNodeTypeEventRecord);
    assert_int_equal(type_of(wait), cudaGraphNodeTypeWaitEvent);
    assert_int_equal(fk.fake_count_calls("cuGraphAddNode"), 8);

    /* The kernel node names the host stub again, as the runtime's own Add would leave it. */
    struct cudaKernelNodeParams k;
    assert_cuda(cudaGraphKernelNodeGetParams(kernel, &k), cudaSuccess);
    assert_ptr_equal(k.func, graph_add_one());
    launch_once(g);
    assert_all(a, 5);
    assert_all(b, 5);
    assert_int_equal(calls, 1);
    assert_cuda(cudaEventQuery(ev), cudaSuccess);

    /* cudaGraphNodeSetParams: the memset now writes 9 (a = 10 after the kernel). */
    memset(&p, 0, sizeof p);
    p.type = cudaGraphNodeTypeMemset;
    p.memset = (struct cudaMemsetParamsV2){ .dst = a, .value = 9, .elementSize = 4, .width = N,
                                            .height = 1 };
    assert_cuda(cudaGraphNodeSetParams(set, &p), cudaSuccess);
    launch_once(g);
    assert_all(b, 10);
    assert_cuda(cudaGraphDestroy(g), cudaSuccess);
    assert_cuda(cudaGraphDestroy(child), cudaSuccess);
    assert_cuda(cudaEventDestroy(ev), cudaSuccess);
    assert_cuda(cudaFree(a), cudaSuccess);
    assert_cuda(cudaFree(b), cudaSuccess);
}

static void never_registered(void) {}

static void generic_add_node_refuses_what_cannot_be_translated(void **state)
{
    (void)state;
    cudaGraph_t g;
    cudaGraphNode_t node = NULL;
    assert_cuda(cudaGraphCreate(&g, 0), cudaSuccess);
    struct cudaGraphNodeParams p = kernel_node((const void *)never_registered, 1, NULL);
    size_t before = fk.fake_count_calls("cuGraphAddNode");
    assert_cuda(cudaGraphAddNode(&node, g, NULL, NULL, 0, &p), cudaErrorInvalidValue);  /* 13.5 */
    assert_cuda(cudaGraphAddNode(NULL, g, NULL, NULL, 0, &p), cudaErrorInvalidValue);
    assert_cuda(cudaGraphAddNode(&node, g, NULL, NULL, 0, NULL), cudaErrorInvalidValue);
    assert_cuda(cudaGraphNodeSetParams(node, NULL), cudaErrorInvalidValue);
    memset(&p, 0, sizeof p);
    p.type = cudaGraphNodeTypeMemcpy;
    p.memcpy.copyParams.kind = (enum cudaMemcpyKind)9;
    assert_cuda(cudaGraphAddNode(&node, g, NULL, NULL, 0, &p), cudaErrorInvalidMemcpyDirection);
    assert_int_equal(fk.fake_count_calls("cuGraphAddNode"), before);
    /* Reserved fields reach the driver, which refuses them when they are not zero. */
    memset(&p, 0, sizeof p);
    p.type = cudaGraphNodeTypeEmpty;
    p.reserved0[1] = 7;
    assert_cuda(cudaGraphAddNode(&node, g, NULL, NULL, 0, &p), cudaErrorInvalidValue);
    assert_int_equal(fk.fake_count_calls("cuGraphAddNode"), before + 1);
    /* A driver failure is the runtime's answer, stored as the last error. */
    memset(&p, 0, sizeof p);
    p.type = cudaGraphNodeTypeEmpty;
    fk.fake_fail_call("cuGraphAddNode", 1, 2 /* CUDA_ERROR_OUT_OF_MEMORY */);
    assert_cuda(cudaGraphAddNode(&node, g, NULL, NULL, 0, &p), cudaErrorMemoryAllocation);
    assert_cuda(cudaGraphDestroy(g), cudaSuccess);
}

/* A WHILE node runs its body until the body's kernel clears the condition: 3 rounds. */
static void conditional_while_node_loops_until_the_handle_is_cleared(void **state)
{
    (void)state;
    int *left = device_ints();
    int three = 3;
    assert_cuda(cudaMemcpy(left, &three, sizeof three, cudaMemcpyHostToDevice), cudaSuccess);
    cudaGraph_t g;
    assert_cuda(cudaGraphCreate(&g, 0), cudaSuccess);
    cudaGraphConditionalHandle handle = 0;
    assert_cuda(cudaGraphConditionalHandleCreate(&handle, g, 1, cudaGraphCondAssignDefault),
                cudaSuccess);
    assert_cuda(cudaGraphConditionalHandleCreate(NULL, g, 1, 0), cudaErrorInvalidValue);
    struct cudaGraphNodeParams p;
    memset(&p, 0, sizeof p);
    p.type = cudaGraphNodeTypeConditional;
    p.conditional.handle = handle;
    p.conditional.type = cudaGraphCondTypeWhile;
    p.conditional.size = 1;
    cudaGraphNode_t cond;
    assert_cuda(cudaGraphAddNode(&cond, g, NULL, NULL, 0, &p), cudaSuccess);
    assert_non_null(p.conditional.phGraph_out);
    cudaGraph_t body = p.conditional.phGraph_out[0];
    assert_non_null(body);
    void *args[] = { &left, &handle };
    struct cudaGraphNodeParams k = kernel_node(graph_countdown(), 1, args);
    cudaGraphNode_t step;
    assert_cuda(cudaGraphAddNode(&step, body, NULL, NULL, 0, &k), cudaSuccess);
    assert_int_equal(type_of(cond), cudaGraphNodeTypeConditional);
    launch_once(g);
    int after = -1;
    assert_cuda(cudaMemcpy(&after, left, sizeof after, cudaMemcpyDeviceToHost), cudaSuccess);
    assert_int_equal(after, 0);
    assert_cuda(cudaGraphDestroy(g), cudaSuccess);
    assert_cuda(cudaFree(left), cudaSuccess);
}

/* ---- per-kind getters and setters ----------------------------------------------------------- */

static void memcpy_node_with_arrays_counts_elements(void **state)
{
    (void)state;
    struct cudaChannelFormatDesc desc = cudaCreateChannelDesc(32, 0, 0, 0,
                                                              cudaChannelFormatKindFloat);
    cudaArray_t array;
    assert_cuda(cudaMallocArray(&array, &desc, N, 0, 0), cudaSuccess);
    float host[N], back[N];
    for (int i = 0; i < N; i++)
        host[i] = (float)i + 0.5f;
    cudaGraph_t g;
    assert_cuda(cudaGraphCreate(&g, 0), cudaSuccess);
    struct cudaMemcpy3DParms in;
    memset(&in, 0, sizeof in);
    in.srcPtr = (struct cudaPitchedPtr){ host, sizeof host, N, 1 };
    in.dstArray = array;
    in.extent = (struct cudaExtent){ N, 1, 1 };
    in.kind = cudaMemcpyHostToDevice;
    struct cudaMemcpy3DParms out = in;
    out.srcPtr = (struct cudaPitchedPtr){ NULL, 0, 0, 0 };
    out.dstArray = NULL;
    out.srcArray = array;
    out.dstPtr = (struct cudaPitchedPtr){ back, sizeof back, N, 1 };
    out.kind = cudaMemcpyDeviceToHost;
    cudaGraphNode_t to, from;
    assert_cuda(cudaGraphAddMemcpyNode(&to, g, NULL, 0, &in), cudaSuccess);
    /* The driver counts bytes: 8 floats are 32 bytes; the array side is CU_MEMORYTYPE_ARRAY. */
    const fake_call *c = fk.fake_call_at(fk.fake_call_count() - 1);
    assert_string_equal(c->name, "cuGraphAddMemcpyNode");
    assert_non_null(strstr(c->args, "srcType=1 dstType=3 width=32"));
    assert_cuda(cudaGraphAddMemcpyNode(&from, g, &to, 1, &out), cudaSuccess);
    launch_once(g);
    assert_memory_equal(back, host, sizeof host);
    /* Read back in the runtime's terms: elements, the array, the kind. */
    struct cudaMemcpy3DParms got;
    assert_cuda(cudaGraphMemcpyNodeGetParams(from, &got), cudaSuccess);
    assert_ptr_equal(got.srcArray, array);
    assert_ptr_equal(got.dstPtr.ptr, back);
    assert_int_equal(got.extent.width, N);
    assert_int_equal(got.kind, cudaMemcpyDeviceToHost);
    /* Both operands given on one side is refused before the driver. */
    in.srcArray = array;
    assert_cuda(cudaGraphMemcpyNodeSetParams(to, &in), cudaErrorInvalidValue);
    assert_cuda(cudaGraphDestroy(g), cudaSuccess);
    assert_cuda(cudaFreeArray(array), cudaSuccess);
}

static void symbol_memcpy_nodes_reach_the_variable(void **state)
{
    (void)state;
    int in[N], out[N] = {0};
    for (int i = 0; i < N; i++)
        in[i] = 100 + i;
    const void *symbol = graph_table_symbol();
    cudaGraph_t g;
    cudaGraphNode_t to, from;
    assert_cuda(cudaGraphCreate(&g, 0), cudaSuccess);
    /* in[0..3] -> table[4..7], then table[4..7] -> out[0..3]. */
    assert_cuda(cudaGraphAddMemcpyNodeToSymbol(&to, g, NULL, 0, symbol, in, 4 * sizeof(int),
                                               4 * sizeof(int), cudaMemcpyHostToDevice),
                cudaSuccess);
    assert_cuda(cudaGraphAddMemcpyNodeFromSymbol(&from, g, &to, 1, out, symbol, 4 * sizeof(int),
                                                 4 * sizeof(int), cudaMemcpyDeviceToHost),
                cudaSuccess);
    launch_once(g);
    assert_memory_equal(out, in, 4 * sizeof(int));
    size_t size = 0;
    int *table = fk.fake_global_storage("graph_table", &size);
    assert_non_null(table);
    assert_int_equal(table[4], 100);
    /* Set: now in[4..7] -> table[0..3] -> out[4..7]. */
    assert_cuda(cudaGraphMemcpyNodeSetParamsToSymbol(to, symbol, in + 4, 4 * sizeof(int), 0,
                                                     cudaMemcpyHostToDevice), cudaSuccess);
    assert_cuda(cudaGraphMemcpyNodeSetParamsFromSymbol(from, out + 4, symbol, 4 * sizeof(int), 0,
                                                       cudaMemcpyDeviceToHost), cudaSuccess);
    launch_once(g);
    assert_memory_equal(out, in, sizeof in);
    /* Not a symbol, out of its bounds, the wrong direction. */
    cudaGraphNode_t node;
    assert_cuda(cudaGraphAddMemcpyNodeToSymbol(&node, g, NULL, 0, in, in, 4, 0,
                                               cudaMemcpyHostToDevice), cudaErrorInvalidSymbol);
    assert_cuda(cudaGraphAddMemcpyNodeToSymbol(&node, g, NULL, 0, symbol, in, 4, N * sizeof(int),
                                               cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    assert_cuda(cudaGraphAddMemcpyNodeFromSymbol(&node, g, NULL, 0, out, symbol, 4, 0,
                                                 cudaMemcpyHostToDevice),
                cudaErrorInvalidMemcpyDirection);
    assert_cuda(cudaGraphAddMemcpyNodeToSymbol(NULL, g, NULL, 0, symbol, in, 4, 0,
                                               cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    assert_cuda(cudaGraphDestroy(g), cudaSuccess);
}

static void node_getters_return_what_the_setters_gave(void **state)
{
    (void)state;
    int *a = device_ints(), *b = device_ints(), calls = 0, other = 0;
    cudaGraph_t g;
    assert_cuda(cudaGraphCreate(&g, 0), cudaSuccess);
    cudaGraphNode_t set, copy, host;
    struct cudaMemsetParams ms = { .dst = a, .value = 3, .elementSize = 4, .width = N,
                                   .height = 1 };
    assert_cuda(cudaGraphAddMemsetNode(&set, g, NULL, 0, &ms), cudaSuccess);
    assert_cuda(cudaGraphAddMemcpyNode1D(&copy, g, &set, 1, b, a, N * sizeof(int),
                                         cudaMemcpyDeviceToDevice), cudaSuccess);
    struct cudaHostNodeParams hp = { host_mark, &calls };
    assert_cuda(cudaGraphAddHostNode(&host, g, &copy, 1, &hp), cudaSuccess);

    struct cudaMemsetParams ms_back;
    assert_cuda(cudaGraphMemsetNodeGetParams(set, &ms_back), cudaSuccess);
    assert_ptr_equal(ms_back.dst, a);
    assert_int_equal(ms_back.value, 3);
    assert_int_equal(ms_back.width, N);
    struct cudaMemcpy3DParms cp;
    assert_cuda(cudaGraphMemcpyNodeGetParams(copy, &cp), cudaSuccess);
    assert_ptr_equal(cp.srcPtr.ptr, a);
    assert_ptr_equal(cp.dstPtr.ptr, b);
    assert_int_equal(cp.extent.width, N * sizeof(int));
    assert_int_equal(cp.kind, cudaMemcpyDeviceToDevice);
    struct cudaHostNodeParams hp_back;
    assert_cuda(cudaGraphHostNodeGetParams(host, &hp_back), cudaSuccess);
    assert_ptr_equal(hp_back.userData, &calls);

    ms.value = 8;
    assert_cuda(cudaGraphMemsetNodeSetParams(set, &ms), cudaSuccess);
    assert_cuda(cudaGraphMemcpyNodeSetParams1D(copy, a, b, N * sizeof(int), cudaMemcpyDefault),
                cudaSuccess);
    hp.userData = &other;
    assert_cuda(cudaGraphHostNodeSetParams(host, &hp), cudaSuccess);
    assert_cuda(cudaMemset(b, 0, N * sizeof(int)), cudaSuccess);
    launch_once(g);
    assert_all(a, 0);                       /* the copy now runs b -> a */
    assert_int_equal(calls, 0);
    assert_int_equal(other, 1);
    assert_cuda(cudaGraphMemcpyNodeGetParams(copy, &cp), cudaSuccess);
    assert_int_equal(cp.kind, cudaMemcpyDefault);

    /* A getter on a node of another kind, and NULL outputs. */
    assert_cuda(cudaGraphMemsetNodeGetParams(copy, &ms_back), cudaErrorInvalidValue);
    assert_cuda(cudaGraphHostNodeGetParams(set, &hp_back), cudaErrorInvalidValue);
    assert_cuda(cudaGraphMemsetNodeGetParams(set, NULL), cudaErrorInvalidValue);
    assert_cuda(cudaGraphMemcpyNodeGetParams(copy, NULL), cudaErrorInvalidValue);
    assert_cuda(cudaGraphHostNodeGetParams(host, NULL), cudaErrorInvalidValue);
    assert_cuda(cudaGraphDestroy(g), cudaSuccess);
    assert_cuda(cudaFree(a), cudaSuccess);
    assert_cuda(cudaFree(b), cudaSuccess);
}

static void event_and_child_nodes_hand_back_their_objects(void **state)
{
    (void)state;
    cudaEvent_t e1, e2, got = NULL;
    assert_cuda(cudaEventCreate(&e1), cudaSuccess);
    assert_cuda(cudaEventCreate(&e2), cudaSuccess);
    cudaGraph_t g, child, owned = NULL;
    assert_cuda(cudaGraphCreate(&g, 0), cudaSuccess);
    assert_cuda(cudaGraphCreate(&child, 0), cudaSuccess);
    cudaGraphNode_t record, wait, sub, inner;
    assert_cuda(cudaGraphAddEmptyNode(&inner, child, NULL, 0), cudaSuccess);
    assert_cuda(cudaGraphAddEventRecordNode(&record, g, NULL, 0, e1), cudaSuccess);
    assert_cuda(cudaGraphAddEventWaitNode(&wait, g, &record, 1, e1), cudaSuccess);
    assert_cuda(cudaGraphAddChildGraphNode(&sub, g, &wait, 1, child), cudaSuccess);
    assert_cuda(cudaGraphEventRecordNodeGetEvent(record, &got), cudaSuccess);
    assert_ptr_equal(got, e1);
    assert_cuda(cudaGraphEventRecordNodeSetEvent(record, e2), cudaSuccess);
    assert_cuda(cudaGraphEventRecordNodeGetEvent(record, &got), cudaSuccess);
    assert_ptr_equal(got, e2);
    assert_cuda(cudaGraphEventWaitNodeSetEvent(wait, e2), cudaSuccess);
    assert_cuda(cudaGraphEventWaitNodeGetEvent(wait, &got), cudaSuccess);
    assert_ptr_equal(got, e2);
    /* The child node owns a clone: one node, not the graph it was made from. */
    assert_cuda(cudaGraphChildGraphNodeGetGraph(sub, &owned), cudaSuccess);
    assert_non_null(owned);
    assert_ptr_not_equal(owned, child);
    size_t count = 0;
    assert_cuda(cudaGraphGetNodes(owned, NULL, &count), cudaSuccess);
    assert_int_equal(count, 1);
    assert_cuda(cudaGraphEventRecordNodeGetEvent(wait, &got), cudaErrorInvalidValue);
    assert_cuda(cudaGraphEventRecordNodeGetEvent(record, NULL), cudaErrorInvalidValue);
    assert_cuda(cudaGraphEventWaitNodeGetEvent(wait, NULL), cudaErrorInvalidValue);
    assert_cuda(cudaGraphChildGraphNodeGetGraph(sub, NULL), cudaErrorInvalidValue);
    assert_cuda(cudaGraphAddEventRecordNode(NULL, g, NULL, 0, e1), cudaErrorInvalidValue);
    assert_cuda(cudaGraphAddEventWaitNode(NULL, g, NULL, 0, e1), cudaErrorInvalidValue);
    assert_cuda(cudaGraphDestroy(g), cudaSuccess);
    assert_cuda(cudaGraphDestroy(child), cudaSuccess);
    assert_cuda(cudaEventDestroy(e1), cudaSuccess);
    assert_cuda(cudaEventDestroy(e2), cudaSuccess);
}

static void kernel_node_attributes_round_trip_and_copy(void **state)
{
    (void)state;
    int *a = device_ints(), n = N;
    void *args[] = { &a, &n };
    cudaGraph_t g;
    assert_cuda(cudaGraphCreate(&g, 0), cudaSuccess);
    struct cudaKernelNodeParams kp = { .func = (void *)graph_add_one(), .gridDim = { 1, 1, 1 },
                                       .blockDim = { N, 1, 1 }, .kernelParams = args };
    cudaGraphNode_t k1, k2, empty;
    assert_cuda(cudaGraphAddKernelNode(&k1, g, NULL, 0, &kp), cudaSuccess);
    assert_cuda(cudaGraphAddKernelNode(&k2, g, NULL, 0, &kp), cudaSuccess);
    assert_cuda(cudaGraphAddEmptyNode(&empty, g, NULL, 0), cudaSuccess);
    cudaLaunchAttributeValue v, got;
    memset(&v, 0, sizeof v);
    v.priority = 2;
    assert_cuda(cudaGraphKernelNodeSetAttribute(k1, cudaLaunchAttributePriority, &v),
                cudaSuccess);
    memset(&got, 0xff, sizeof got);
    assert_cuda(cudaGraphKernelNodeGetAttribute(k1, cudaLaunchAttributePriority, &got),
                cudaSuccess);
    assert_int_equal(got.priority, 2);
    assert_cuda(cudaGraphKernelNodeCopyAttributes(k2, k1), cudaSuccess);
    memset(&got, 0, sizeof got);
    assert_cuda(cudaGraphKernelNodeGetAttribute(k2, cudaLaunchAttributePriority, &got),
                cudaSuccess);
    assert_int_equal(got.priority, 2);
    assert_cuda(cudaGraphKernelNodeGetAttribute(k1, cudaLaunchAttributePriority, NULL),
                cudaErrorInvalidValue);
    assert_cuda(cudaGraphKernelNodeSetAttribute(k1, cudaLaunchAttributePriority, NULL),
                cudaErrorInvalidValue);
    assert_cuda(cudaGraphKernelNodeGetAttribute(empty, cudaLaunchAttributePriority, &got),
                cudaErrorInvalidValue);
    assert_cuda(cudaGraphKernelNodeCopyAttributes(empty, k1), cudaErrorInvalidValue);
    assert_cuda(cudaGraphDestroy(g), cudaSuccess);
    assert_cuda(cudaFree(a), cudaSuccess);
}

/* ---- executable graphs ---------------------------------------------------------------------- */

static void exec_edits_change_the_executable_only(void **state)
{
    (void)state;
    int *a = device_ints(), *b = device_ints(), n = N, calls = 0, other = 0;
    void *args[] = { &a, &n };
    cudaGraph_t g, child;
    assert_cuda(cudaGraphCreate(&g, 0), cudaSuccess);
    assert_cuda(cudaGraphCreate(&child, 0), cudaSuccess);
    cudaGraphNode_t set, kernel, copy, host, sub, inner;
    struct cudaMemsetParams ms = { .dst = a, .value = 1, .elementSize = 4, .width = N,
                                   .height = 1 };
    assert_cuda(cudaGraphAddMemsetNode(&set, g, NULL, 0, &ms), cudaSuccess);
    struct cudaKernelNodeParams kp = { .func = (void *)graph_add_one(), .gridDim = { 1, 1, 1 },
                                       .blockDim = { N, 1, 1 }, .kernelParams = args };
    assert_cuda(cudaGraphAddKernelNode(&kernel, g, &set, 1, &kp), cudaSuccess);
    assert_cuda(cudaGraphAddMemcpyNode1D(&copy, g, &kernel, 1, b, a, N * sizeof(int),
                                         cudaMemcpyDeviceToDevice), cudaSuccess);
    struct cudaHostNodeParams hp = { host_mark, &calls };
    assert_cuda(cudaGraphAddHostNode(&host, g, &copy, 1, &hp), cudaSuccess);
    assert_cuda(cudaGraphAddEmptyNode(&inner, child, NULL, 0), cudaSuccess);
    assert_cuda(cudaGraphAddChildGraphNode(&sub, g, &host, 1, child), cudaSuccess);

    cudaGraphExec_t exec;
    assert_cuda(cudaGraphInstantiateWithFlags(&exec, g, cudaGraphInstantiateFlagAutoFreeOnLaunch),
                cudaSuccess);
    unsigned long long flags = 0;
    assert_cuda(cudaGraphExecGetFlags(exec, &flags), cudaSuccess);
    assert_int_equal(flags, cudaGraphInstantiateFlagAutoFreeOnLaunch);
    assert_cuda(cudaGraphExecGetFlags(exec, NULL), cudaErrorInvalidValue);

    /* memset 6, copy a -> a's first half only (the rest of b stays 0), other host function. */
    ms.value = 6;
    assert_cuda(cudaGraphExecMemsetNodeSetParams(exec, set, &ms), cudaSuccess);
    assert_cuda(cudaMemset(b, 0, N * sizeof(int)), cudaSuccess);
    assert_cuda(cudaGraphExecMemcpyNodeSetParams1D(exec, copy, b, a, N / 2 * sizeof(int),
                                                   cudaMemcpyDeviceToDevice), cudaSuccess);
    hp.userData = &other;
    assert_cuda(cudaGraphExecHostNodeSetParams(exec, host, &hp), cudaSuccess);
    assert_cuda(cudaGraphExecChildGraphNodeSetParams(exec, sub, child), cudaSuccess);
    assert_cuda(cudaGraphLaunch(exec, 0), cudaSuccess);
    assert_all(a, 7);
    int h[N];
    assert_cuda(cudaMemcpy(h, b, sizeof h, cudaMemcpyDeviceToHost), cudaSuccess);
    assert_int_equal(h[0], 7);
    assert_int_equal(h[N - 1], 0);
    assert_int_equal(calls, 0);
    assert_int_equal(other, 1);
    /* The graph itself still memsets 1. */
    struct cudaMemsetParams ms_back;
    assert_cuda(cudaGraphMemsetNodeGetParams(set, &ms_back), cudaSuccess);
    assert_int_equal(ms_back.value, 1);

    /* A disabled kernel node does nothing: a stays at the memset's 6. */
    unsigned enabled = 0;
    assert_cuda(cudaGraphNodeGetEnabled(exec, kernel, &enabled), cudaSuccess);
    assert_int_equal(enabled, 1);
    assert_cuda(cudaGraphNodeSetEnabled(exec, kernel, 0), cudaSuccess);
    assert_cuda(cudaGraphNodeGetEnabled(exec, kernel, &enabled), cudaSuccess);
    assert_int_equal(enabled, 0);
    assert_cuda(cudaGraphLaunch(exec, 0), cudaSuccess);
    assert_all(a, 6);
    assert_cuda(cudaGraphNodeGetEnabled(exec, kernel, NULL), cudaErrorInvalidValue);
    assert_cuda(cudaGraphNodeSetEnabled(exec, host, 0), cudaErrorInvalidValue);

    /* The generic edit: the memset writes 2 again, the kernel re-enabled adds one. */
    assert_cuda(cudaGraphNodeSetEnabled(exec, kernel, 1), cudaSuccess);
    struct cudaGraphNodeParams p;
    memset(&p, 0, sizeof p);
    p.type = cudaGraphNodeTypeMemset;
    p.memset = (struct cudaMemsetParamsV2){ .dst = a, .value = 2, .elementSize = 4, .width = N,
                                            .height = 1 };
    assert_cuda(cudaGraphExecNodeSetParams(exec, set, &p), cudaSuccess);
    assert_cuda(cudaGraphLaunch(exec, 0), cudaSuccess);
    assert_all(a, 3);
    assert_cuda(cudaGraphExecNodeSetParams(exec, set, NULL), cudaErrorInvalidValue);
    assert_cuda(cudaGraphExecMemsetNodeSetParams(exec, set, NULL), cudaErrorInvalidValue);
    assert_cuda(cudaGraphExecHostNodeSetParams(exec, host, NULL), cudaErrorInvalidValue);
    assert_cuda(cudaGraphExecMemcpyNodeSetParams(exec, copy, NULL), cudaErrorInvalidValue);

    assert_cuda(cudaGraphExecDestroy(exec), cudaSuccess);
    assert_cuda(cudaGraphDestroy(g), cudaSuccess);
    assert_cuda(cudaGraphDestroy(child), cudaSuccess);
    assert_cuda(cudaFree(a), cudaSuccess);
    assert_cuda(cudaFree(b), cudaSuccess);
}

/* ---- topology ------------------------------------------------------------------------------- */

static void edges_dependencies_and_node_removal(void **state)
{
    (void)state;
    cudaGraph_t g, clone;
    assert_cuda(cudaGraphCreate(&g, 0), cudaSuccess);
    cudaGraphNode_t a, b, c, found;
    assert_cuda(cudaGraphAddEmptyNode(&a, g, NULL, 0), cudaSuccess);
    assert_cuda(cudaGraphAddEmptyNode(&b, g, &a, 1), cudaSuccess);
    assert_cuda(cudaGraphAddEmptyNode(&c, g, &a, 1), cudaSuccess);
    size_t count = 0;
    assert_cuda(cudaGraphGetEdges(g, NULL, NULL, NULL, &count), cudaSuccess);
    assert_int_equal(count, 2);
    cudaGraphNode_t from[4], to[4];
    cudaGraphEdgeData data[4];
    count = 4;
    assert_cuda(cudaGraphGetEdges(g, from, to, data, &count), cudaSuccess);
    assert_int_equal(count, 2);
    assert_ptr_equal(from[0], a);
    assert_ptr_equal(from[1], a);
    assert_int_equal(data[0].type, cudaGraphDependencyTypeDefault);
    count = 4;
    cudaGraphNode_t list[4];
    assert_cuda(cudaGraphNodeGetDependentNodes(a, list, NULL, &count), cudaSuccess);
    assert_int_equal(count, 2);
    count = 4;
    assert_cuda(cudaGraphNodeGetDependencies(b, list, data, &count), cudaSuccess);
    assert_int_equal(count, 1);
    assert_ptr_equal(list[0], a);

    assert_cuda(cudaGraphClone(&clone, g), cudaSuccess);
    assert_cuda(cudaGraphNodeFindInClone(&found, c, clone), cudaSuccess);
    assert_non_null(found);
    assert_ptr_not_equal(found, c);
    assert_int_equal(type_of(found), cudaGraphNodeTypeEmpty);
    assert_cuda(cudaGraphNodeFindInClone(NULL, c, clone), cudaErrorInvalidValue);

    assert_cuda(cudaGraphRemoveDependencies(g, &a, &b, NULL, 1), cudaSuccess);
    count = 0;
    assert_cuda(cudaGraphGetEdges(g, NULL, NULL, NULL, &count), cudaSuccess);
    assert_int_equal(count, 1);
    assert_cuda(cudaGraphRemoveDependencies(g, &a, &b, NULL, 1), cudaErrorInvalidValue);
    assert_cuda(cudaGraphDestroyNode(c), cudaSuccess);
    count = 0;
    assert_cuda(cudaGraphGetNodes(g, NULL, &count), cudaSuccess);
    assert_int_equal(count, 2);
    assert_cuda(cudaGraphGetEdges(g, NULL, NULL, NULL, &count), cudaSuccess);
    assert_int_equal(count, 0);
    assert_cuda(cudaGraphDestroyNode(c), cudaErrorInvalidValue);
    assert_cuda(cudaGraphGetEdges(g, NULL, NULL, NULL, NULL), cudaErrorInvalidValue);
    assert_cuda(cudaGraphNodeGetDependencies(a, NULL, NULL, NULL), cudaErrorInvalidValue);
    assert_cuda(cudaGraphNodeGetDependentNodes(a, NULL, NULL, NULL), cudaErrorInvalidValue);
    assert_cuda(cudaGraphNodeGetType(a, NULL), cudaErrorInvalidValue);
    assert_cuda(cudaGraphDestroy(clone), cudaSuccess);
    assert_cuda(cudaGraphDestroy(g), cudaSuccess);
}

/* ---- user objects --------------------------------------------------------------------------- */

static int destroyed;

static void destroy_counter(void *user)
{
    (void)user;
    destroyed++;
}

static void user_object_destructor_runs_when_the_last_reference_goes(void **state)
{
    (void)state;
    destroyed = 0;
    cudaUserObject_t obj;
    assert_cuda(cudaUserObjectCreate(&obj, &destroyed, destroy_counter, 2,
                                     cudaUserObjectNoDestructorSync), cudaSuccess);
    cudaGraph_t g;
    assert_cuda(cudaGraphCreate(&g, 0), cudaSuccess);
    /* The graph takes one of our two references; a second graph reference of its own. */
    assert_cuda(cudaGraphRetainUserObject(g, obj, 1, cudaGraphUserObjectMove), cudaSuccess);
    assert_cuda(cudaGraphRetainUserObject(g, obj, 1, 0), cudaSuccess);
    assert_cuda(cudaUserObjectRetain(obj, 1), cudaSuccess);
    assert_cuda(cudaUserObjectRelease(obj, 2), cudaSuccess);
    assert_int_equal(destroyed, 0);
    assert_cuda(cudaGraphReleaseUserObject(g, obj, 1), cudaSuccess);
    assert_int_equal(destroyed, 0);
    assert_cuda(cudaGraphDestroy(g), cudaSuccess);
    assert_int_equal(destroyed, 1);
    assert_cuda(cudaUserObjectCreate(NULL, NULL, destroy_counter, 1,
                                     cudaUserObjectNoDestructorSync), cudaErrorInvalidValue);
}

/* ---- graph memory --------------------------------------------------------------------------- */

static void memory_nodes_allocate_at_creation_and_count_in_the_pool(void **state)
{
    (void)state;
    cudaGraph_t g;
    assert_cuda(cudaGraphCreate(&g, 0), cudaSuccess);
    struct cudaMemAllocNodeParams ap;
    memset(&ap, 0, sizeof ap);
    ap.poolProps.allocType = cudaMemAllocationTypePinned;
    ap.poolProps.location = (struct cudaMemLocation){ cudaMemLocationTypeDevice, 0 };
    ap.bytesize = N * sizeof(int);
    cudaGraphNode_t alloc, set, free_node;
    assert_cuda(cudaGraphAddMemAllocNode(&alloc, g, NULL, 0, &ap), cudaSuccess);
    assert_non_null(ap.dptr);
    struct cudaMemsetParams ms = { .dst = ap.dptr, .value = 5, .elementSize = 4, .width = N,
                                   .height = 1 };
    assert_cuda(cudaGraphAddMemsetNode(&set, g, &alloc, 1, &ms), cudaSuccess);
    assert_cuda(cudaGraphAddMemFreeNode(&free_node, g, &set, 1, ap.dptr), cudaSuccess);
    assert_int_equal(type_of(alloc), cudaGraphNodeTypeMemAlloc);
    assert_int_equal(type_of(free_node), cudaGraphNodeTypeMemFree);
    struct cudaMemAllocNodeParams back;
    assert_cuda(cudaGraphMemAllocNodeGetParams(alloc, &back), cudaSuccess);
    assert_ptr_equal(back.dptr, ap.dptr);
    assert_int_equal(back.bytesize, N * sizeof(int));
    void *freed = NULL;
    assert_cuda(cudaGraphMemFreeNodeGetParams(free_node, &freed), cudaSuccess);
    assert_ptr_equal(freed, ap.dptr);

    unsigned long long used = 0, reserved = 0, zero = 0;
    assert_cuda(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrReservedMemCurrent, &reserved),
                cudaSuccess);
    assert_true(reserved >= N * sizeof(int));
    launch_once(g);
    assert_cuda(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &used),
                cudaSuccess);
    assert_cuda(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &zero),
                cudaSuccess);
    assert_cuda(cudaDeviceGraphMemTrim(0), cudaSuccess);
    assert_cuda(cudaDeviceGetGraphMemAttribute(9, cudaGraphMemAttrUsedMemHigh, &used),
                cudaErrorInvalidDevice);
    assert_cuda(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, NULL),
                cudaErrorInvalidValue);
    assert_cuda(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, NULL),
                cudaErrorInvalidValue);
    assert_cuda(cudaDeviceGraphMemTrim(-1), cudaErrorInvalidDevice);
    assert_cuda(cudaGraphMemAllocNodeGetParams(alloc, NULL), cudaErrorInvalidValue);
    assert_cuda(cudaGraphMemFreeNodeGetParams(free_node, NULL), cudaErrorInvalidValue);
    assert_cuda(cudaGraphAddMemAllocNode(&alloc, g, NULL, 0, NULL), cudaErrorInvalidValue);
    /* Freeing what no allocation node gave: the driver refuses. */
    int local = 0;
    assert_cuda(cudaGraphAddMemFreeNode(&free_node, g, NULL, 0, &local), cudaErrorInvalidValue);
    assert_cuda(cudaGraphDestroy(g), cudaSuccess);
}

/* ---- capture -------------------------------------------------------------------------------- */

/* The graph a capture is building, walked while the capture goes on (as PyTorch's caching
 * allocator does), then finished and run. */
static void captured_graph_is_queried_while_capturing(void **state)
{
    (void)state;
    int *a = device_ints(), n = N;
    void *args[] = { &a, &n };
    cudaStream_t s;
    assert_cuda(cudaStreamCreate(&s), cudaSuccess);
    assert_cuda(cudaMemset(a, 0, N * sizeof(int)), cudaSuccess);
    assert_cuda(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), cudaSuccess);
    assert_cuda(cudaLaunchKernel(graph_add_one(), (dim3){ 1, 1, 1 }, (dim3){ N, 1, 1 }, args, 0,
                                 s), cudaSuccess);
    void *scratch = NULL;
    assert_cuda(cudaMallocAsync(&scratch, 64, s), cudaSuccess);
    assert_non_null(scratch);
    assert_cuda(cudaFreeAsync(scratch, s), cudaSuccess);
    assert_cuda(cudaLaunchKernel(graph_add_one(), (dim3){ 1, 1, 1 }, (dim3){ N, 1, 1 }, args, 0,
                                 s), cudaSuccess);

    enum cudaStreamCaptureStatus status;
    cudaGraph_t building = NULL;
    const cudaGraphNode_t *deps = NULL;
    size_t ndeps = 0;
    assert_cuda(cudaStreamGetCaptureInfo(s, &status, NULL, &building, &deps, NULL, &ndeps),
                cudaSuccess);
    assert_int_equal(status, cudaStreamCaptureStatusActive);
    assert_int_equal(ndeps, 1);
    assert_int_equal(type_of(deps[0]), cudaGraphNodeTypeKernel);
    size_t count = 0;
    assert_cuda(cudaGraphGetNodes(building, NULL, &count), cudaSuccess);
    assert_int_equal(count, 4);
    cudaGraphNode_t before[2];
    count = 2;
    assert_cuda(cudaGraphNodeGetDependencies(deps[0], before, NULL, &count), cudaSuccess);
    assert_int_equal(count, 1);
    assert_int_equal(type_of(before[0]), cudaGraphNodeTypeMemFree);
    /* Leave the frontier at the last node explicitly: the capture goes on from there. */
    cudaGraphNode_t last = deps[0];
    assert_cuda(cudaStreamUpdateCaptureDependencies(s, &last, NULL, 1,
                                                    cudaStreamSetCaptureDependencies),
                cudaSuccess);

    cudaGraph_t graph = NULL;
    assert_cuda(cudaStreamEndCapture(s, &graph), cudaSuccess);
    assert_ptr_equal(graph, building);
    assert_all(a, 0);                       /* captured, not run */
    cudaGraphExec_t exec;
    assert_cuda(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
    assert_cuda(cudaGraphLaunch(exec, s), cudaSuccess);
    assert_cuda(cudaStreamSynchronize(s), cudaSuccess);
    assert_all(a, 2);
    assert_cuda(cudaGraphExecDestroy(exec), cudaSuccess);
    assert_cuda(cudaGraphDestroy(graph), cudaSuccess);
    assert_cuda(cudaStreamDestroy(s), cudaSuccess);
    assert_cuda(cudaFree(a), cudaSuccess);
}

#define TEST(name) { #name, name }

int main(int argc, char **argv)
{
    static const struct { const char *name; CMUnitTestFunction fn; } all[] = {
        TEST(generic_add_node_builds_and_runs_every_kind),
        TEST(generic_add_node_refuses_what_cannot_be_translated),
        TEST(conditional_while_node_loops_until_the_handle_is_cleared),
        TEST(memcpy_node_with_arrays_counts_elements),
        TEST(symbol_memcpy_nodes_reach_the_variable),
        TEST(node_getters_return_what_the_setters_gave),
        TEST(event_and_child_nodes_hand_back_their_objects),
        TEST(kernel_node_attributes_round_trip_and_copy),
        TEST(exec_edits_change_the_executable_only),
        TEST(edges_dependencies_and_node_removal),
        TEST(user_object_destructor_runs_when_the_last_reference_goes),
        TEST(memory_nodes_allocate_at_creation_and_count_in_the_pool),
        TEST(captured_graph_is_queried_while_capturing),
    };
    for (size_t i = 0; argc == 2 && i < sizeof all / sizeof *all; i++) {
        if (strcmp(argv[1], all[i].name) != 0)
            continue;
        const struct CMUnitTest tests[] = { { all[i].name, all[i].fn, NULL, NULL, NULL } };
        return cmocka_run_group_tests_name(all[i].name, tests, setup, NULL);
    }
    fprintf(stderr, "usage: %s TEST\n", argv[0]);
    return 2;
}
