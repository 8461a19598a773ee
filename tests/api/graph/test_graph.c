/*
 * test_graph.c - CUDA graphs and stream capture against the fake driver: what each runtime call
 * hands the driver (the fake's call log), what a launch does (host implementations of the
 * kernels), and the error paths (returned code and last error).  One test per process run:
 * the program takes the test's name.
 */
#define _GNU_SOURCE
#include "graph_test.h"

#include <stdio.h>
#include <unistd.h>

/* ---- helpers -------------------------------------------------------------------------------- */

static void host_scale(const void *params, size_t size, const unsigned grid[3],
                       const unsigned block[3])
{
    (void)size, (void)grid, (void)block;
    int *p = NULL, n = 0, factor = 0;
    memcpy(&p, params, sizeof p);
    memcpy(&n, (const char *)params + 8, sizeof n);
    memcpy(&factor, (const char *)params + 12, sizeof factor);
    for (int i = 0; i < n; i++)
        p[i] *= factor;
}

static int setup(void **state)
{
    if (e2e_setup(state) != 0)
        return -1;
    fk.fake_register_host_kernel("_Z7add_onePii", host_add_one);
    fk.fake_register_host_kernel("_Z5scalePiii", host_scale);
    return 0;
}

/* The arguments the fake logged for the last call of `name` (fails the test if none). */
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

static void assert_args_contain(const char *name, const char *text)
{
    const char *args = last_args(name);
    if (!strstr(args, text))
        fail_msg("%s(%s) lacks \"%s\"", name, args, text);
}

static struct cudaKernelNodeParams add_one_params(void **args)
{
    struct cudaKernelNodeParams p = {
        .func = (void *)graph_add_one(), .gridDim = {1, 1, 1}, .blockDim = {N, 1, 1},
        .sharedMemBytes = 0, .kernelParams = args, .extra = NULL,
    };
    return p;
}

/* memset(a, 5) -> add_one(a) -> copy a to b -> host callback: each launch leaves b = 6. */
typedef struct chain {
    cudaGraph_t graph;
    cudaGraphNode_t set, kernel, copy, host;
    int *a, *b;
    int n;
    void *args[2];
    int host_calls;
} chain;

static void chain_build(chain *c)
{
    memset(c, 0, sizeof *c);
    c->a = device_ints();
    c->b = device_ints();
    c->n = N;
    c->args[0] = &c->a;
    c->args[1] = &c->n;
    assert_cuda(cudaGraphCreate(&c->graph, 0), cudaSuccess);
    struct cudaMemsetParams set = { .dst = c->a, .pitch = 0, .value = 5, .elementSize = 4,
                                    .width = N, .height = 1 };
    assert_cuda(cudaGraphAddMemsetNode(&c->set, c->graph, NULL, 0, &set), cudaSuccess);
    struct cudaKernelNodeParams k = add_one_params(c->args);
    assert_cuda(cudaGraphAddKernelNode(&c->kernel, c->graph, &c->set, 1, &k), cudaSuccess);
    assert_cuda(cudaGraphAddMemcpyNode1D(&c->copy, c->graph, &c->kernel, 1, c->b, c->a,
                                         N * sizeof(int), cudaMemcpyDeviceToDevice),
                cudaSuccess);
    struct cudaHostNodeParams h = { .fn = host_mark, .userData = &c->host_calls };
    assert_cuda(cudaGraphAddHostNode(&c->host, c->graph, &c->copy, 1, &h), cudaSuccess);
}

static void chain_free(chain *c)
{
    assert_cuda(cudaGraphDestroy(c->graph), cudaSuccess);
    assert_cuda(cudaFree(c->a), cudaSuccess);
    assert_cuda(cudaFree(c->b), cudaSuccess);
}

/* ---- explicit graphs ------------------------------------------------------------------------ */

static void explicit_graph_runs_nodes_in_dependency_order(void **state)
{
    (void)state;
    chain c;
    chain_build(&c);
    cudaGraphExec_t exec = NULL;
    assert_cuda(cudaGraphInstantiate(&exec, c.graph, 0), cudaSuccess);
    for (int round = 1; round <= 3; round++) {
        assert_cuda(cudaGraphLaunch(exec, 0), cudaSuccess);
        assert_all(c.a, 6);
        assert_all(c.b, 6);
        assert_int_equal(c.host_calls, round);
    }
    const fake_launch *l = fk.fake_last_launch();
    assert_non_null(l);
    assert_string_equal(l->kernel, "_Z7add_onePii");
    assert_int_equal(l->block[0], N);
    assert_int_equal(cudaGraphExecDestroy(exec), cudaSuccess);
    chain_free(&c);
}

static void node_parameters_reach_the_driver_translated(void **state)
{
    (void)state;
    chain c;
    chain_build(&c);
    /* The memset keeps its shape; memcpy D2D names device memory (CU_MEMORYTYPE_DEVICE = 2) on
     * both sides; both carry the current context; the kernel gets its CUfunction and dims. */
    assert_args_contain("cuGraphAddMemsetNode", "value=0x5 elementSize=4 width=8 height=1");
    assert_true(strstr(last_args("cuGraphAddMemsetNode"), "ctx=(nil)") == NULL);
    assert_args_contain("cuGraphAddMemcpyNode", "deps=1 srcType=2 dstType=2 width=32 height=1 "
                                                "depth=1");
    assert_true(strstr(last_args("cuGraphAddMemcpyNode"), "ctx=(nil)") == NULL);
    assert_args_contain("cuGraphAddKernelNode", "deps=1");
    assert_args_contain("cuGraphAddKernelNode", "grid=(1,1,1) block=(8,1,1) shm=0 kernelParams");
    assert_true(strstr(last_args("cuGraphAddKernelNode"), "func=(nil)") == NULL);
    assert_args_contain("cuGraphAddHostNode", "deps=1");

    /* cudaMemcpyDefault: unified addressing (CU_MEMORYTYPE_UNIFIED = 4); H2D: host source. */
    cudaGraphNode_t node;
    int host[N] = {0};
    assert_cuda(cudaGraphAddMemcpyNode1D(&node, c.graph, NULL, 0, c.a, c.b, sizeof host,
                                         cudaMemcpyDefault), cudaSuccess);
    assert_args_contain("cuGraphAddMemcpyNode", "srcType=4 dstType=4");
    assert_cuda(cudaGraphAddMemcpyNode1D(&node, c.graph, NULL, 0, c.a, host, sizeof host,
                                         cudaMemcpyHostToDevice), cudaSuccess);
    assert_args_contain("cuGraphAddMemcpyNode", "srcType=1 dstType=2");
    chain_free(&c);
}

static void graph_node_queries_count_nodes_and_roots(void **state)
{
    (void)state;
    chain c;
    chain_build(&c);
    cudaGraphNode_t empty;
    assert_cuda(cudaGraphAddEmptyNode(&empty, c.graph, NULL, 0), cudaSuccess);
    size_t count = 0;
    assert_cuda(cudaGraphGetNodes(c.graph, NULL, &count), cudaSuccess);
    assert_int_equal(count, 5);
    cudaGraphNode_t nodes[8];
    count = 8;
    assert_cuda(cudaGraphGetNodes(c.graph, nodes, &count), cudaSuccess);
    assert_int_equal(count, 5);
    assert_ptr_equal(nodes[0], c.set);
    assert_ptr_equal(nodes[1], c.kernel);
    count = 0;
    assert_cuda(cudaGraphGetRootNodes(c.graph, NULL, &count), cudaSuccess);
    assert_int_equal(count, 2);
    count = 8;
    assert_cuda(cudaGraphGetRootNodes(c.graph, nodes, &count), cudaSuccess);
    assert_int_equal(count, 2);
    assert_ptr_equal(nodes[0], c.set);
    assert_ptr_equal(nodes[1], empty);
    assert_cuda(cudaGraphGetNodes(c.graph, nodes, NULL), cudaErrorInvalidValue);
    assert_cuda(cudaGraphGetRootNodes(c.graph, nodes, NULL), cudaErrorInvalidValue);
    chain_free(&c);
}

static void kernel_node_get_params_returns_the_host_stub(void **state)
{
    (void)state;
    chain c;
    chain_build(&c);
    struct cudaKernelNodeParams p;
    memset(&p, 0, sizeof p);
    assert_cuda(cudaGraphKernelNodeGetParams(c.kernel, &p), cudaSuccess);
    assert_ptr_equal(p.func, graph_add_one());
    assert_int_equal(p.gridDim.x, 1);
    assert_int_equal(p.blockDim.x, N);
    assert_ptr_equal(p.kernelParams, c.args);
    assert_null(p.extra);
    assert_cuda(cudaGraphKernelNodeGetParams(c.kernel, NULL), cudaErrorInvalidValue);
    /* A node of another kind: the driver refuses. */
    assert_cuda(cudaGraphKernelNodeGetParams(c.set, &p), cudaErrorInvalidValue);
    chain_free(&c);
}

static void kernel_node_set_params_changes_the_graph(void **state)
{
    (void)state;
    chain c;
    chain_build(&c);
    int factor = 3;
    void *args[3] = { &c.a, &c.n, &factor };
    struct cudaKernelNodeParams p = add_one_params(args);
    p.func = (void *)graph_scale();
    assert_cuda(cudaGraphKernelNodeSetParams(c.kernel, &p), cudaSuccess);
    assert_args_contain("cuGraphKernelNodeSetParams", "node=");
    launch_once(c.graph);
    assert_all(c.b, 15);
    struct cudaKernelNodeParams back;
    assert_cuda(cudaGraphKernelNodeGetParams(c.kernel, &back), cudaSuccess);
    assert_ptr_equal(back.func, graph_scale());
    assert_cuda(cudaGraphKernelNodeSetParams(c.kernel, NULL), cudaErrorInvalidValue);
    chain_free(&c);
}

static void never_registered(void) {}

static void kernel_node_of_unregistered_function_is_invalid_value(void **state)
{
    (void)state;
    cudaGraph_t g;
    cudaGraphNode_t node = NULL;
    assert_cuda(cudaGraphCreate(&g, 0), cudaSuccess);
    struct cudaKernelNodeParams p = add_one_params(NULL);
    p.func = (void *)never_registered;
    /* NVIDIA's 13.5 runtime (13.0 answered cudaErrorInvalidResourceHandle; H200). */
    size_t before = fk.fake_count_calls("cuGraphAddKernelNode");
    assert_cuda(cudaGraphAddKernelNode(&node, g, NULL, 0, &p), cudaErrorInvalidValue);
    assert_int_equal(fk.fake_count_calls("cuGraphAddKernelNode"), before);
    assert_cuda(cudaGraphKernelNodeSetParams(node, &p), cudaErrorInvalidValue);
    p.func = NULL;
    assert_cuda(cudaGraphAddKernelNode(&node, g, NULL, 0, &p), cudaErrorInvalidDeviceFunction);
    assert_cuda(cudaGraphDestroy(g), cudaSuccess);
}

static void node_creation_null_pointers_return_invalid_value(void **state)
{
    (void)state;
    cudaGraph_t g;
    cudaGraphNode_t node;
    int calls = 0;
    assert_cuda(cudaGraphCreate(NULL, 0), cudaErrorInvalidValue);
    assert_cuda(cudaGraphCreate(&g, 0), cudaSuccess);
    struct cudaKernelNodeParams k = add_one_params(NULL);
    struct cudaMemsetParams s = { 0 };
    struct cudaHostNodeParams h = { .fn = host_mark, .userData = &calls };
    struct cudaMemcpy3DParms m;
    memset(&m, 0, sizeof m);
    assert_cuda(cudaGraphAddKernelNode(NULL, g, NULL, 0, &k), cudaErrorInvalidValue);
    assert_cuda(cudaGraphAddKernelNode(&node, g, NULL, 0, NULL), cudaErrorInvalidValue);
    assert_cuda(cudaGraphAddMemsetNode(NULL, g, NULL, 0, &s), cudaErrorInvalidValue);
    assert_cuda(cudaGraphAddMemsetNode(&node, g, NULL, 0, NULL), cudaErrorInvalidValue);
    assert_cuda(cudaGraphAddHostNode(&node, g, NULL, 0, NULL), cudaErrorInvalidValue);
    assert_cuda(cudaGraphAddHostNode(NULL, g, NULL, 0, &h), cudaErrorInvalidValue);
    assert_cuda(cudaGraphAddMemcpyNode(&node, g, NULL, 0, NULL), cudaErrorInvalidValue);
    assert_cuda(cudaGraphAddMemcpyNode(NULL, g, NULL, 0, &m), cudaErrorInvalidValue);
    assert_cuda(cudaGraphAddEmptyNode(NULL, g, NULL, 0), cudaErrorInvalidValue);
    assert_cuda(cudaGraphAddChildGraphNode(NULL, g, NULL, 0, g), cudaErrorInvalidValue);
    assert_cuda(cudaGraphClone(NULL, g), cudaErrorInvalidValue);
    assert_cuda(cudaGraphInstantiate(NULL, g, 0), cudaErrorInvalidValue);
    assert_cuda(cudaGraphInstantiateWithFlags(NULL, g, 0), cudaErrorInvalidValue);
    assert_cuda(cudaGraphExecUpdate(NULL, g, NULL), cudaErrorInvalidValue);
    /* Handles the driver refuses: NULL graph, a bogus graph, a bogus dependency. */
    assert_cuda(cudaGraphAddEmptyNode(&node, NULL, NULL, 0), cudaErrorInvalidValue);
    assert_cuda(cudaGraphAddEmptyNode(&node, (cudaGraph_t)&calls, NULL, 0),
                cudaErrorInvalidResourceHandle);
    cudaGraphNode_t bogus = (cudaGraphNode_t)&calls;
    assert_cuda(cudaGraphAddEmptyNode(&node, g, &bogus, 1), cudaErrorInvalidValue);
    /* A memset of an unknown element size. */
    int *d = device_ints();
    s = (struct cudaMemsetParams){ .dst = d, .value = 1, .elementSize = 3, .width = 1,
                                   .height = 1 };
    assert_cuda(cudaGraphAddMemsetNode(&node, g, NULL, 0, &s), cudaErrorInvalidValue);
    assert_cuda(cudaFree(d), cudaSuccess);
    assert_cuda(cudaGraphDestroy(g), cudaSuccess);
}

static void memcpy_node_rejects_bad_kind_and_bad_arrays(void **state)
{
    (void)state;
    cudaGraph_t g;
    cudaGraphNode_t node;
    int *d = device_ints();
    assert_cuda(cudaGraphCreate(&g, 0), cudaSuccess);
    size_t before = fk.fake_count_calls("cuGraphAddMemcpyNode");
    assert_cuda(cudaGraphAddMemcpyNode1D(&node, g, NULL, 0, d, d, 4, (enum cudaMemcpyKind)7),
                cudaErrorInvalidMemcpyDirection);
    /* An array operand's element size comes from the driver: a bogus array is its handle
     * error, and nothing is added. */
    struct cudaMemcpy3DParms m;
    memset(&m, 0, sizeof m);
    m.srcArray = (cudaArray_t)d;
    m.dstPtr = (struct cudaPitchedPtr){ d, 16, 16, 1 };
    m.extent = (struct cudaExtent){ 16, 1, 1 };
    m.kind = cudaMemcpyDeviceToDevice;
    assert_cuda(cudaGraphAddMemcpyNode(&node, g, NULL, 0, &m), cudaErrorInvalidResourceHandle);
    assert_int_equal(fk.fake_count_calls("cuGraphAddMemcpyNode"), before);
    assert_cuda(cudaGraphDestroy(g), cudaSuccess);
    assert_cuda(cudaFree(d), cudaSuccess);
}

/* ---- executable graphs ---------------------------------------------------------------------- */

static void exec_kernel_node_set_params_changes_next_launch(void **state)
{
    (void)state;
    chain c;
    chain_build(&c);
    cudaGraphExec_t exec;
    assert_cuda(cudaGraphInstantiate(&exec, c.graph, 0), cudaSuccess);
    int factor = 4;
    void *args[3] = { &c.a, &c.n, &factor };
    struct cudaKernelNodeParams p = add_one_params(args);
    p.func = (void *)graph_scale();
    assert_cuda(cudaGraphExecKernelNodeSetParams(exec, c.kernel, &p), cudaSuccess);
    assert_cuda(cudaGraphLaunch(exec, 0), cudaSuccess);
    assert_all(c.b, 20);
    /* The graph itself is unchanged. */
    launch_once(c.graph);
    assert_all(c.b, 6);
    assert_cuda(cudaGraphExecKernelNodeSetParams(exec, c.kernel, NULL), cudaErrorInvalidValue);
    assert_cuda(cudaGraphExecKernelNodeSetParams(exec, c.set, &p), cudaErrorInvalidValue);
    assert_cuda(cudaGraphExecDestroy(exec), cudaSuccess);
    chain_free(&c);
}

static void exec_update_applies_parameters_and_refuses_new_topology(void **state)
{
    (void)state;
    chain c;
    chain_build(&c);
    cudaGraphExec_t exec;
    assert_cuda(cudaGraphInstantiate(&exec, c.graph, 0), cudaSuccess);
    int factor = 2;
    void *args[3] = { &c.a, &c.n, &factor };
    struct cudaKernelNodeParams p = add_one_params(args);
    p.func = (void *)graph_scale();
    assert_cuda(cudaGraphKernelNodeSetParams(c.kernel, &p), cudaSuccess);
    cudaGraphExecUpdateResultInfo info;
    memset(&info, 0xff, sizeof info);
    assert_cuda(cudaGraphExecUpdate(exec, c.graph, &info), cudaSuccess);
    assert_int_equal(info.result, cudaGraphExecUpdateSuccess);
    assert_cuda(cudaGraphLaunch(exec, 0), cudaSuccess);
    assert_all(c.b, 10);

    cudaGraphNode_t extra;
    assert_cuda(cudaGraphAddEmptyNode(&extra, c.graph, NULL, 0), cudaSuccess);
    assert_cuda(cudaGraphExecUpdate(exec, c.graph, &info), cudaErrorGraphExecUpdateFailure);
    assert_int_equal(info.result, cudaGraphExecUpdateErrorTopologyChanged);
    /* Without resultInfo the update is tried all the same, as by NVIDIA's runtime (H200). */
    assert_cuda(cudaGraphExecUpdate(exec, c.graph, NULL), cudaErrorGraphExecUpdateFailure);
    assert_cuda(cudaGraphExecDestroy(exec), cudaSuccess);
    chain_free(&c);
}

static void child_graph_and_clone_run_their_nodes(void **state)
{
    (void)state;
    chain c;
    chain_build(&c);
    cudaGraph_t parent, clone;
    cudaGraphNode_t child_node, after;
    assert_cuda(cudaGraphCreate(&parent, 0), cudaSuccess);
    assert_cuda(cudaGraphAddChildGraphNode(&child_node, parent, NULL, 0, c.graph), cudaSuccess);
    assert_args_contain("cuGraphAddChildGraphNode", "deps=0");
    /* add_one on b after the child: 7. */
    void *args[2] = { &c.b, &c.n };
    struct cudaKernelNodeParams k = add_one_params(args);
    assert_cuda(cudaGraphAddKernelNode(&after, parent, &child_node, 1, &k), cudaSuccess);
    launch_once(parent);
    assert_all(c.b, 7);
    assert_int_equal(c.host_calls, 1);

    assert_cuda(cudaGraphClone(&clone, parent), cudaSuccess);
    size_t count = 0;
    assert_cuda(cudaGraphGetNodes(clone, NULL, &count), cudaSuccess);
    assert_int_equal(count, 2);
    launch_once(clone);
    assert_all(c.b, 7);
    assert_int_equal(c.host_calls, 2);
    assert_cuda(cudaGraphDestroy(clone), cudaSuccess);
    assert_cuda(cudaGraphDestroy(parent), cudaSuccess);
    chain_free(&c);
}

static void dependencies_added_later_order_the_launch(void **state)
{
    (void)state;
    int *a = device_ints(), n = N, factor = 10;
    cudaGraph_t g;
    cudaGraphNode_t mul, add, set;
    assert_cuda(cudaGraphCreate(&g, 0), cudaSuccess);
    void *scale_args[3] = { &a, &n, &factor }, *add_args[2] = { &a, &n };
    struct cudaKernelNodeParams k = add_one_params(scale_args);
    k.func = (void *)graph_scale();
    assert_cuda(cudaGraphAddKernelNode(&mul, g, NULL, 0, &k), cudaSuccess);
    k = add_one_params(add_args);
    assert_cuda(cudaGraphAddKernelNode(&add, g, NULL, 0, &k), cudaSuccess);
    struct cudaMemsetParams s = { .dst = a, .value = 1, .elementSize = 4, .width = N,
                                  .height = 1 };
    assert_cuda(cudaGraphAddMemsetNode(&set, g, NULL, 0, &s), cudaSuccess);
    /* set -> add -> mul: (1 + 1) * 10. */
    cudaGraphNode_t from[2] = { set, add }, to[2] = { add, mul };
    assert_cuda(cudaGraphAddDependencies(g, from, to, NULL, 2), cudaSuccess);
    assert_args_contain("cuGraphAddDependencies", "count=2 edgeData=no");
    size_t roots = 0;
    assert_cuda(cudaGraphGetRootNodes(g, NULL, &roots), cudaSuccess);
    assert_int_equal(roots, 1);
    launch_once(g);
    assert_all(a, 20);
    /* A repeated edge is refused by the driver. */
    assert_cuda(cudaGraphAddDependencies(g, from, to, NULL, 1), cudaErrorInvalidValue);
    assert_cuda(cudaGraphDestroy(g), cudaSuccess);
    assert_cuda(cudaFree(a), cudaSuccess);
}

static void instantiate_and_launch_driver_failures_are_reported(void **state)
{
    (void)state;
    chain c;
    chain_build(&c);
    cudaGraphExec_t exec = NULL;
    fk.fake_fail_call("cuGraphInstantiateWithFlags", 1, 2 /* CUDA_ERROR_OUT_OF_MEMORY */);
    assert_cuda(cudaGraphInstantiate(&exec, c.graph, 0), cudaErrorMemoryAllocation);
    assert_cuda(cudaGraphInstantiateWithFlags(&exec, c.graph, cudaGraphInstantiateFlagUpload),
                cudaSuccess);
    assert_args_contain("cuGraphInstantiateWithFlags", "flags=0x2");
    fk.fake_fail_call("cuGraphLaunch", 1, 999 /* CUDA_ERROR_UNKNOWN */);
    assert_cuda(cudaGraphLaunch(exec, 0), cudaErrorUnknown);
    assert_int_equal(c.host_calls, 0);
    fk.fake_fail_call("cuGraphUpload", 1, 1);
    assert_cuda(cudaGraphUpload(exec, 0), cudaErrorInvalidValue);
    assert_cuda(cudaGraphUpload(exec, 0), cudaSuccess);
    fk.fake_fail_call("cuGraphAddKernelNode", 1, 1);
    cudaGraphNode_t node;
    struct cudaKernelNodeParams k = add_one_params(c.args);
    assert_cuda(cudaGraphAddKernelNode(&node, c.graph, NULL, 0, &k), cudaErrorInvalidValue);
    assert_cuda(cudaGraphExecDestroy(exec), cudaSuccess);
    chain_free(&c);
}

static void launch_of_null_or_bogus_exec_fails(void **state)
{
    (void)state;
    int bogus = 0;
    assert_cuda(cudaGraphLaunch(NULL, 0), cudaErrorInvalidValue);
    assert_cuda(cudaGraphLaunch((cudaGraphExec_t)&bogus, 0), cudaErrorInvalidResourceHandle);
    assert_cuda(cudaGraphUpload(NULL, 0), cudaErrorInvalidValue);
    assert_cuda(cudaGraphExecDestroy((cudaGraphExec_t)&bogus), cudaErrorInvalidResourceHandle);
    assert_cuda(cudaGraphDestroy((cudaGraph_t)&bogus), cudaErrorInvalidResourceHandle);
    assert_cuda(cudaGraphDestroy(NULL), cudaErrorInvalidValue);
}

cudaError_t cudaGraphLaunch_ptsz(cudaGraphExec_t graphExec, cudaStream_t stream);
cudaError_t cudaGraphUpload_ptsz(cudaGraphExec_t graphExec, cudaStream_t stream);
cudaError_t cudaGraphInstantiateWithParams_ptsz(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                                cudaGraphInstantiateParams *instantiateParams);
cudaError_t cudaStreamBeginCapture_ptsz(cudaStream_t stream, enum cudaStreamCaptureMode mode);
cudaError_t cudaStreamEndCapture_ptsz(cudaStream_t stream, cudaGraph_t *pGraph);
cudaError_t cudaStreamIsCapturing_ptsz(cudaStream_t stream,
                                       enum cudaStreamCaptureStatus *pCaptureStatus);
cudaError_t cudaStreamGetCaptureInfo_ptsz(cudaStream_t stream,
                                          enum cudaStreamCaptureStatus *captureStatus_out,
                                          unsigned long long *id_out, cudaGraph_t *graph_out,
                                          const cudaGraphNode_t **dependencies_out,
                                          const cudaGraphEdgeData **edgeData_out,
                                          size_t *numDependencies_out);
cudaError_t cudaStreamBeginCaptureToGraph_ptsz(cudaStream_t stream, cudaGraph_t graph,
                                               const cudaGraphNode_t *dependencies,
                                               const cudaGraphEdgeData *dependencyData,
                                               size_t numDependencies,
                                               enum cudaStreamCaptureMode mode);
cudaError_t cudaStreamUpdateCaptureDependencies_ptsz(cudaStream_t stream,
                                                     cudaGraphNode_t *dependencies,
                                                     const cudaGraphEdgeData *dependencyData,
                                                     size_t numDependencies, unsigned int flags);

static void ptsz_variants_pass_the_per_thread_stream(void **state)
{
    (void)state;
    chain c;
    chain_build(&c);
    cudaGraphExec_t exec;
    cudaGraphInstantiateParams ip = { .flags = 0, .uploadStream = 0 };
    assert_cuda(cudaGraphInstantiateWithParams_ptsz(&exec, c.graph, &ip), cudaSuccess);
    assert_args_contain("cuGraphInstantiateWithParams", "stream=0x2");
    assert_int_equal(ip.result_out, cudaGraphInstantiateSuccess);
    assert_cuda(cudaGraphLaunch_ptsz(exec, 0), cudaSuccess);
    assert_args_contain("cuGraphLaunch", "stream=0x2");
    assert_cuda(cudaGraphUpload_ptsz(exec, 0), cudaSuccess);
    assert_args_contain("cuGraphUpload", "stream=0x2");
    assert_cuda(cudaGraphLaunch(exec, 0), cudaSuccess);
    assert_args_contain("cuGraphLaunch", "stream=(nil)");
    assert_cuda(cudaGraphExecDestroy(exec), cudaSuccess);
    assert_cuda(cudaGraphInstantiateWithParams(&exec, c.graph, &ip), cudaSuccess);
    assert_args_contain("cuGraphInstantiateWithParams", "stream=(nil)");
    assert_cuda(cudaGraphExecDestroy(exec), cudaSuccess);
    assert_cuda(cudaGraphInstantiateWithParams(&exec, c.graph, NULL), cudaErrorInvalidValue);

    enum cudaStreamCaptureStatus status = cudaStreamCaptureStatusInvalidated;
    assert_cuda(cudaStreamBeginCapture_ptsz(0, cudaStreamCaptureModeThreadLocal), cudaSuccess);
    assert_args_contain("cuStreamBeginCapture", "stream=0x2 mode=1");
    assert_cuda(cudaStreamIsCapturing_ptsz(0, &status), cudaSuccess);
    assert_args_contain("cuStreamIsCapturing", "stream=0x2");
    assert_int_equal(status, cudaStreamCaptureStatusActive);
    assert_cuda(cudaStreamGetCaptureInfo_ptsz(0, &status, NULL, NULL, NULL, NULL, NULL),
                cudaSuccess);
    assert_args_contain("cuStreamGetCaptureInfo", "stream=0x2");
    assert_cuda(cudaStreamUpdateCaptureDependencies_ptsz(0, NULL, NULL, 0, 0), cudaSuccess);
    assert_args_contain("cuStreamUpdateCaptureDependencies", "stream=0x2");
    cudaGraph_t captured;
    assert_cuda(cudaStreamEndCapture_ptsz(0, &captured), cudaSuccess);
    assert_args_contain("cuStreamEndCapture", "stream=0x2");
    assert_cuda(cudaStreamBeginCaptureToGraph_ptsz(0, captured, NULL, NULL, 0,
                                                   cudaStreamCaptureModeRelaxed), cudaSuccess);
    assert_args_contain("cuStreamBeginCaptureToGraph", "stream=0x2");
    assert_cuda(cudaStreamEndCapture(cudaStreamPerThread, &captured), cudaSuccess);
    assert_cuda(cudaGraphDestroy(captured), cudaSuccess);
    chain_free(&c);
}

/* ---- stream capture ------------------------------------------------------------------------- */

static void capture_protocol_begin_query_end(void **state)
{
    (void)state;
    cudaStream_t s = cudaStreamPerThread;
    enum cudaStreamCaptureStatus status = cudaStreamCaptureStatusInvalidated;
    assert_cuda(cudaStreamIsCapturing(s, &status), cudaSuccess);
    assert_int_equal(status, cudaStreamCaptureStatusNone);
    assert_cuda(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), cudaSuccess);
    assert_args_contain("cuStreamBeginCapture", "stream=0x2 mode=0");
    assert_cuda(cudaStreamIsCapturing(s, &status), cudaSuccess);
    assert_int_equal(status, cudaStreamCaptureStatusActive);

    unsigned long long id = 0;
    cudaGraph_t graph = NULL;
    const cudaGraphNode_t *deps = (const cudaGraphNode_t *)&id;
    const cudaGraphEdgeData *edges = (const cudaGraphEdgeData *)&id;
    size_t count = 99;
    assert_cuda(cudaStreamGetCaptureInfo(s, &status, &id, &graph, &deps, &edges, &count),
                cudaSuccess);
    assert_int_equal(status, cudaStreamCaptureStatusActive);
    assert_true(id != 0);
    assert_non_null(graph);
    assert_null(deps);
    assert_null(edges);
    assert_int_equal(count, 0);
    assert_cuda(cudaStreamGetCaptureInfo(s, NULL, NULL, NULL, NULL, NULL, NULL),
                cudaErrorInvalidValue);

    assert_cuda(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), cudaErrorIllegalState);
    cudaGraph_t captured = NULL;
    assert_cuda(cudaStreamEndCapture(s, &captured), cudaSuccess);
    assert_ptr_equal(captured, graph);
    /* Nothing was issued to the stream: the captured graph is empty. */
    count = 99;
    assert_cuda(cudaGraphGetNodes(captured, NULL, &count), cudaSuccess);
    assert_int_equal(count, 0);
    assert_cuda(cudaStreamIsCapturing(s, &status), cudaSuccess);
    assert_int_equal(status, cudaStreamCaptureStatusNone);
    assert_cuda(cudaStreamEndCapture(s, &captured), cudaErrorIllegalState);
    assert_cuda(cudaStreamIsCapturing(s, NULL), cudaErrorInvalidValue);
    assert_cuda(cudaStreamGetCaptureInfo(s, &status, &id, NULL, NULL, NULL, NULL), cudaSuccess);
    assert_int_equal(status, cudaStreamCaptureStatusNone);
    /* Without an output the capture still ends and its graph is dropped: NVIDIA's runtime
     * succeeds (H200). */
    size_t destroyed = fk.fake_count_calls("cuGraphDestroy");
    assert_cuda(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), cudaSuccess);
    assert_cuda(cudaStreamEndCapture(s, NULL), cudaSuccess);
    assert_int_equal(fk.fake_count_calls("cuGraphDestroy"), destroyed + 1);
    assert_cuda(cudaStreamIsCapturing(s, &status), cudaSuccess);
    assert_int_equal(status, cudaStreamCaptureStatusNone);
    fk.fake_fail_call("cuStreamBeginCapture", 1, 1);
    assert_cuda(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), cudaErrorInvalidValue);
    assert_cuda(cudaGraphDestroy(captured), cudaSuccess);
}

static void capture_on_legacy_stream_is_unsupported(void **state)
{
    (void)state;
    assert_cuda(cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal),
                cudaErrorStreamCaptureUnsupported);
    assert_args_contain("cuStreamBeginCapture", "stream=(nil) mode=0");
    assert_cuda(cudaStreamBeginCapture(cudaStreamLegacy, cudaStreamCaptureModeRelaxed),
                cudaErrorStreamCaptureUnsupported);
    assert_args_contain("cuStreamBeginCapture", "stream=0x1 mode=2");
    assert_cuda(cudaStreamBeginCapture(cudaStreamPerThread, (enum cudaStreamCaptureMode)7),
                cudaErrorInvalidValue);
}

static void capture_to_graph_and_dependency_update(void **state)
{
    (void)state;
    cudaGraph_t g;
    cudaGraphNode_t root;
    assert_cuda(cudaGraphCreate(&g, 0), cudaSuccess);
    assert_cuda(cudaGraphAddEmptyNode(&root, g, NULL, 0), cudaSuccess);
    cudaStream_t s = cudaStreamPerThread;
    assert_cuda(cudaStreamBeginCaptureToGraph(s, g, &root, NULL, 1,
                                              cudaStreamCaptureModeThreadLocal), cudaSuccess);
    assert_args_contain("cuStreamBeginCaptureToGraph", "stream=0x2 graph=");
    assert_args_contain("cuStreamBeginCaptureToGraph", "deps=1 edgeData=no mode=1");
    assert_cuda(cudaStreamUpdateCaptureDependencies(s, &root, NULL, 1,
                                                    cudaStreamSetCaptureDependencies),
                cudaSuccess);
    assert_args_contain("cuStreamUpdateCaptureDependencies", "count=1 edgeData=no flags=1");
    assert_cuda(cudaStreamUpdateCaptureDependencies(s, &root, NULL, 1, 5),
                cudaErrorInvalidValue);
    cudaGraph_t out = NULL;
    assert_cuda(cudaStreamEndCapture(s, &out), cudaSuccess);
    assert_ptr_equal(out, g);
    assert_cuda(cudaStreamUpdateCaptureDependencies(s, &root, NULL, 1, 0),
                cudaErrorIllegalState);
    assert_cuda(cudaGraphDestroy(g), cudaSuccess);
}

static void thread_capture_mode_exchange_round_trips(void **state)
{
    (void)state;
    enum cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
    assert_cuda(cudaThreadExchangeStreamCaptureMode(&mode), cudaSuccess);
    assert_int_equal(mode, cudaStreamCaptureModeGlobal);
    assert_args_contain("cuThreadExchangeStreamCaptureMode", "mode=2");
    mode = cudaStreamCaptureModeGlobal;
    assert_cuda(cudaThreadExchangeStreamCaptureMode(&mode), cudaSuccess);
    assert_int_equal(mode, cudaStreamCaptureModeRelaxed);
    assert_cuda(cudaThreadExchangeStreamCaptureMode(NULL), cudaErrorInvalidValue);
    mode = (enum cudaStreamCaptureMode)9;
    assert_cuda(cudaThreadExchangeStreamCaptureMode(&mode), cudaErrorInvalidValue);
}

static void debug_dot_print_writes_the_drivers_dot(void **state)
{
    (void)state;
    cudaGraph_t g;
    cudaGraphNode_t node;
    assert_cuda(cudaGraphCreate(&g, 0), cudaSuccess);
    assert_cuda(cudaGraphAddEmptyNode(&node, g, NULL, 0), cudaSuccess);
    char path[] = "/tmp/graph-dot-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_cuda(cudaGraphDebugDotPrint(g, path, cudaGraphDebugDotFlagsHandles), cudaSuccess);
    assert_args_contain("cuGraphDebugDotPrint", "flags=0x400");
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char text[1024] = "";
    size_t got = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    remove(path);
    text[got] = '\0';
    assert_non_null(strstr(text, "digraph"));
    assert_cuda(cudaGraphDebugDotPrint(g, NULL, 0), cudaErrorInvalidValue);
    assert_cuda(cudaGraphDestroy(g), cudaSuccess);
}

static void debug_dot_print_without_driver_support_is_not_supported(void **state)
{
    (void)state;
    cudaGraph_t g;
    assert_cuda(cudaGraphCreate(&g, 0), cudaSuccess);
    assert_cuda(cudaGraphDebugDotPrint(g, "/dev/null", 0), cudaErrorNotSupported);
    assert_cuda(cudaGraphDebugDotPrint(g, NULL, 0), cudaErrorInvalidValue);
    assert_cuda(cudaGraphDestroy(g), cudaSuccess);
}

#define TEST(name) { #name, name }

int main(int argc, char **argv)
{
    static const struct { const char *name; CMUnitTestFunction fn; } all[] = {
        TEST(explicit_graph_runs_nodes_in_dependency_order),
        TEST(node_parameters_reach_the_driver_translated),
        TEST(graph_node_queries_count_nodes_and_roots),
        TEST(kernel_node_get_params_returns_the_host_stub),
        TEST(kernel_node_set_params_changes_the_graph),
        TEST(kernel_node_of_unregistered_function_is_invalid_value),
        TEST(node_creation_null_pointers_return_invalid_value),
        TEST(memcpy_node_rejects_bad_kind_and_bad_arrays),
        TEST(exec_kernel_node_set_params_changes_next_launch),
        TEST(exec_update_applies_parameters_and_refuses_new_topology),
        TEST(child_graph_and_clone_run_their_nodes),
        TEST(dependencies_added_later_order_the_launch),
        TEST(instantiate_and_launch_driver_failures_are_reported),
        TEST(launch_of_null_or_bogus_exec_fails),
        TEST(ptsz_variants_pass_the_per_thread_stream),
        TEST(capture_protocol_begin_query_end),
        TEST(capture_on_legacy_stream_is_unsupported),
        TEST(capture_to_graph_and_dependency_update),
        TEST(thread_capture_mode_exchange_round_trips),
        TEST(debug_dot_print_writes_the_drivers_dot),
        TEST(debug_dot_print_without_driver_support_is_not_supported),
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
