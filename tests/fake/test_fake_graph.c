/*
 * test_fake_graph.c - the fake driver's graphs, reached as the runtime reaches them (dlopen
 * MINICUDART_DRIVER, then cuGetProcAddress_v2): stream capture with fork and join, conditional
 * nodes driven by fake_set_conditional, graph memory nodes and their attributes, user objects,
 * edges with edge data.  The tests run in order in one process and share its state.
 */
#include "fake_selftest.h"

/* An entry point with the signature cuda.h declares for `name` (the 12.3 ones for edge data). */
#define D(name) ((__typeof__(&name))proc(#name, 13000))

static CUfunction add_fn, noargs_fn;

static int setup(void **state)
{
    (void)state;
    if (open_fake() != 0)
        return -1;
    CUcontext ctx = NULL;
    CUmodule mod = NULL;
    unsigned char *cubin = read_file(FAKE_FIXTURE_CUBIN);
    int ok = get_proc && p_fake_set_conditional && cubin && D(cuInit)(0) == CUDA_SUCCESS &&
             D(cuDevicePrimaryCtxRetain)(&ctx, 0) == CUDA_SUCCESS &&
             D(cuCtxSetCurrent)(ctx) == CUDA_SUCCESS &&
             D(cuModuleLoadDataEx)(&mod, cubin, 0, NULL, NULL) == CUDA_SUCCESS &&
             D(cuModuleGetFunction)(&add_fn, mod, "_Z3addPiPKii") == CUDA_SUCCESS &&
             D(cuModuleGetFunction)(&noargs_fn, mod, "_Z6noargsv") == CUDA_SUCCESS;
    free(cubin);
    return ok ? 0 : -1;
}

/* add(int *a, const int *b, int n): a[i] += n on the host. */
static int add_runs;
static void host_add(const void *params, size_t size, const unsigned grid[3],
                     const unsigned block[3])
{
    int *a, n;
    memcpy(&a, params, sizeof a);
    memcpy(&n, (const char *)params + 16, sizeof n);
    assert_int_equal(size, 20);
    for (unsigned i = 0; i < grid[0] * block[0]; i++)
        a[i] += n;
    add_runs++;
}

static int host_fn_runs;
static void host_fn(void *data)
{
    host_fn_runs++;
    *(int *)data += 100;
}

static CUstream new_stream(void)
{
    CUstream s = NULL;
    assert_int_equal(D(cuStreamCreate)(&s, CU_STREAM_NON_BLOCKING), CUDA_SUCCESS);
    return s;
}

static CUevent new_event(void)
{
    CUevent e = NULL;
    assert_int_equal(D(cuEventCreate)(&e, CU_EVENT_DISABLE_TIMING), CUDA_SUCCESS);
    return e;
}

static size_t node_count(CUgraph g)
{
    size_t n = 99;
    assert_int_equal(D(cuGraphGetNodes)(g, NULL, &n), CUDA_SUCCESS);
    return n;
}

static CUgraphNodeType type_of(CUgraphNode node)
{
    CUgraphNodeType t = CU_GRAPH_NODE_TYPE_EMPTY;
    assert_int_equal(D(cuGraphNodeGetType)(node, &t), CUDA_SUCCESS);
    return t;
}

static void launch_once(CUgraph g)
{
    CUgraphExec x = NULL;
    assert_int_equal(D(cuGraphInstantiateWithFlags)(&x, g, 0), CUDA_SUCCESS);
    assert_int_equal(D(cuGraphLaunch)(x, NULL), CUDA_SUCCESS);
    assert_int_equal(D(cuGraphExecDestroy)(x), CUDA_SUCCESS);
}

static void capture_records_work_and_forks_and_joins_two_streams(void **state)
{
    (void)state;
    p_fake_register_host_kernel("_Z3addPiPKii", host_add);
    CUstream s1 = new_stream(), s2 = new_stream();
    CUevent fork = new_event(), join = new_event();
    CUdeviceptr dev = 0;
    assert_int_equal(D(cuMemAlloc)(&dev, 4 * sizeof(int)), CUDA_SUCCESS);
    int a[4] = {0}, back[4] = {0}, n = 5, host_data = 0;
    int *pa = a, *pb = a;
    void *args[] = {&pa, &pb, &n};
    size_t launches = p_fake_launch_count();
    add_runs = host_fn_runs = 0;

    assert_int_equal(D(cuStreamBeginCapture)(s1, CU_STREAM_CAPTURE_MODE_GLOBAL), CUDA_SUCCESS);
    assert_int_equal(D(cuLaunchKernel)(add_fn, 1, 1, 1, 4, 1, 1, 0, s1, args, NULL),
                     CUDA_SUCCESS);
    assert_int_equal(D(cuMemcpyHtoDAsync)(dev, a, sizeof a, s1), CUDA_SUCCESS);
    assert_int_equal(D(cuMemcpyDtoHAsync)(back, dev, sizeof back, s1), CUDA_SUCCESS);
    assert_int_equal(D(cuLaunchHostFunc)(s1, host_fn, &host_data), CUDA_SUCCESS);
    /* Nothing ran: the work became nodes.  The calls are logged, the launch is not recorded. */
    assert_int_equal(add_runs, 0);
    assert_int_equal(host_fn_runs, 0);
    assert_int_equal(p_fake_launch_count(), launches);
    assert_true(p_fake_count_calls("cuLaunchKernel") >= 1);

    CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
    cuuint64_t id = 0;
    CUgraph graph = NULL;
    const CUgraphNode *deps = NULL;
    const CUgraphEdgeData *edges = NULL;
    size_t count = 0;
    assert_int_equal(D(cuStreamGetCaptureInfo)(s1, &status, &id, &graph, &deps, &edges, &count),
                     CUDA_SUCCESS);
    assert_int_equal(status, CU_STREAM_CAPTURE_STATUS_ACTIVE);
    assert_int_equal(count, 1);
    assert_int_equal(type_of(deps[0]), CU_GRAPH_NODE_TYPE_HOST);
    CUgraphNode host_node = deps[0];
    assert_int_equal(node_count(graph), 4);

    /* Fork: s2 joins through the event, its kernel depends on the host node. */
    assert_int_equal(D(cuEventRecord)(fork, s1), CUDA_SUCCESS);
    assert_int_equal(D(cuStreamWaitEvent)(s2, fork, 0), CUDA_SUCCESS);
    assert_int_equal(D(cuStreamIsCapturing)(s2, &status), CUDA_SUCCESS);
    assert_int_equal(status, CU_STREAM_CAPTURE_STATUS_ACTIVE);
    assert_int_equal(D(cuLaunchKernel)(add_fn, 1, 1, 1, 4, 1, 1, 0, s2, args, NULL),
                     CUDA_SUCCESS);
    assert_int_equal(D(cuStreamGetCaptureInfo)(s2, &status, &id, NULL, &deps, NULL, &count),
                     CUDA_SUCCESS);
    assert_int_equal(count, 1);
    CUgraphNode side = deps[0];
    size_t ndeps = 1;
    CUgraphNode dep = NULL;
    assert_int_equal(D(cuGraphNodeGetDependencies)(side, &dep, NULL, &ndeps), CUDA_SUCCESS);
    assert_ptr_equal(dep, host_node);
    /* Ending on the joined stream is refused; an unjoined end is too (next test). */
    CUgraph out = NULL;
    assert_int_equal(D(cuStreamEndCapture)(s2, &out), CUDA_ERROR_STREAM_CAPTURE_UNMATCHED);
    /* Join: s1 waits for s2's work; its frontier has both branches. */
    assert_int_equal(D(cuLaunchKernel)(add_fn, 1, 1, 1, 4, 1, 1, 0, s1, args, NULL),
                     CUDA_SUCCESS);
    assert_int_equal(D(cuEventRecord)(join, s2), CUDA_SUCCESS);
    assert_int_equal(D(cuStreamWaitEvent)(s1, join, 0), CUDA_SUCCESS);
    assert_int_equal(D(cuStreamGetCaptureInfo)(s1, &status, NULL, NULL, &deps, NULL, &count),
                     CUDA_SUCCESS);
    assert_int_equal(count, 2);
    assert_ptr_equal(deps[1], side);

    assert_int_equal(D(cuStreamEndCapture)(s1, &out), CUDA_SUCCESS);
    assert_ptr_equal(out, graph);
    assert_int_equal(D(cuStreamIsCapturing)(s2, &status), CUDA_SUCCESS);
    assert_int_equal(status, CU_STREAM_CAPTURE_STATUS_NONE);
    assert_int_equal(node_count(out), 6);     /* 3 kernels, 2 copies, the host node */
    size_t nedges = 0;
    assert_int_equal(D(cuGraphGetEdges)(out, NULL, NULL, NULL, &nedges), CUDA_SUCCESS);
    assert_int_equal(nedges, 5);

    /* Running it: three kernels (+5 each), the copies, the host function once. */
    launch_once(out);
    assert_int_equal(add_runs, 3);
    assert_int_equal(host_fn_runs, 1);
    assert_int_equal(host_data, 100);
    assert_int_equal(p_fake_launch_count(), launches + 3);
    assert_int_equal(a[0], 15);
    assert_int_equal(back[0], 5);                  /* copied after the first kernel only */
    assert_int_equal(D(cuGraphDestroy)(out), CUDA_SUCCESS);
    assert_int_equal(D(cuMemFree)(dev), CUDA_SUCCESS);
}

static void capture_unjoined_or_invalidated_ends_without_a_graph(void **state)
{
    (void)state;
    CUstream s1 = new_stream(), s2 = new_stream();
    CUevent fork = new_event();
    CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
    CUgraph out = (CUgraph)1;
    assert_int_equal(D(cuStreamBeginCapture)(s1, CU_STREAM_CAPTURE_MODE_GLOBAL), CUDA_SUCCESS);
    assert_int_equal(D(cuLaunchKernel)(noargs_fn, 1, 1, 1, 1, 1, 1, 0, s1, NULL, NULL),
                     CUDA_SUCCESS);
    assert_int_equal(D(cuEventRecord)(fork, s1), CUDA_SUCCESS);
    assert_int_equal(D(cuStreamWaitEvent)(s2, fork, 0), CUDA_SUCCESS);
    assert_int_equal(D(cuLaunchKernel)(noargs_fn, 1, 1, 1, 1, 1, 1, 0, s2, NULL, NULL),
                     CUDA_SUCCESS);
    assert_int_equal(D(cuStreamEndCapture)(s1, &out), CUDA_ERROR_STREAM_CAPTURE_UNJOINED);
    assert_null(out);
    assert_int_equal(D(cuStreamIsCapturing)(s2, &status), CUDA_SUCCESS);
    assert_int_equal(status, CU_STREAM_CAPTURE_STATUS_NONE);

    /* Waiting on a capturing stream invalidates the capture. */
    assert_int_equal(D(cuStreamBeginCapture)(s1, CU_STREAM_CAPTURE_MODE_GLOBAL), CUDA_SUCCESS);
    assert_int_equal(D(cuStreamSynchronize)(s1), CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
    assert_int_equal(D(cuStreamIsCapturing)(s1, &status), CUDA_SUCCESS);
    assert_int_equal(status, CU_STREAM_CAPTURE_STATUS_INVALIDATED);
    assert_int_equal(D(cuLaunchKernel)(noargs_fn, 1, 1, 1, 1, 1, 1, 0, s1, NULL, NULL),
                     CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);
    out = (CUgraph)1;
    assert_int_equal(D(cuStreamEndCapture)(s1, &out), CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);
    assert_null(out);
    assert_int_equal(D(cuStreamIsCapturing)(s1, &status), CUDA_SUCCESS);
    assert_int_equal(status, CU_STREAM_CAPTURE_STATUS_NONE);
    assert_int_equal(D(cuStreamSynchronize)(s1), CUDA_SUCCESS);
}

static CUgraphConditionalHandle loop_handle;
static int loop_runs;
static void loop_body(const void *params, size_t size, const unsigned grid[3],
                      const unsigned block[3])
{
    (void)params, (void)size, (void)grid, (void)block;
    loop_runs++;
    p_fake_set_conditional(loop_handle, loop_runs % 3 != 0);   /* stop after 3 iterations */
}

static void conditional_while_loops_until_the_handle_is_zero(void **state)
{
    (void)state;
    p_fake_register_host_kernel("_Z6noargsv", loop_body);
    CUgraph g = NULL, clone = NULL;
    assert_int_equal(D(cuGraphCreate)(&g, 0), CUDA_SUCCESS);
    assert_int_equal(D(cuGraphConditionalHandleCreate)(&loop_handle, g, NULL, 1,
                                                       CU_GRAPH_COND_ASSIGN_DEFAULT),
                     CUDA_SUCCESS);
    CUgraphNodeParams p;
    memset(&p, 0, sizeof p);
    p.type = CU_GRAPH_NODE_TYPE_CONDITIONAL;
    p.conditional.handle = loop_handle;
    p.conditional.type = CU_GRAPH_COND_TYPE_WHILE;
    p.conditional.size = 2;
    CUgraphNode cond = NULL;
    assert_int_equal(D(cuGraphAddNode)(&cond, g, NULL, NULL, 0, &p), CUDA_ERROR_INVALID_VALUE);
    p.conditional.size = 1;
    assert_int_equal(D(cuGraphAddNode)(&cond, g, NULL, NULL, 0, &p), CUDA_SUCCESS);
    assert_non_null(p.conditional.phGraph_out);
    CUgraph body = p.conditional.phGraph_out[0];
    CUDA_KERNEL_NODE_PARAMS k;
    memset(&k, 0, sizeof k);
    k.func = noargs_fn;
    k.gridDimX = k.gridDimY = k.gridDimZ = k.blockDimX = k.blockDimY = k.blockDimZ = 1;
    CUgraphNode kn = NULL;
    assert_int_equal(D(cuGraphAddKernelNode)(&kn, body, NULL, 0, &k), CUDA_SUCCESS);
    assert_int_equal(type_of(cond), CU_GRAPH_NODE_TYPE_CONDITIONAL);
    assert_int_equal(D(cuGraphClone)(&clone, g), CUDA_ERROR_NOT_SUPPORTED);
    assert_int_equal(D(cuGraphDestroy)(body), CUDA_ERROR_INVALID_VALUE);   /* the node's */

    CUgraphExec x = NULL, second = NULL;
    loop_runs = 0;
    assert_int_equal(D(cuGraphInstantiateWithFlags)(&x, g, 0), CUDA_SUCCESS);
    assert_int_equal(D(cuGraphInstantiateWithFlags)(&second, g, 0), CUDA_ERROR_NOT_SUPPORTED);
    assert_int_equal(D(cuGraphLaunch)(x, NULL), CUDA_SUCCESS);
    assert_int_equal(loop_runs, 3);
    /* The value is back to its default (1) at the next launch: three more. */
    assert_int_equal(D(cuGraphLaunch)(x, NULL), CUDA_SUCCESS);
    assert_int_equal(loop_runs, 6);
    assert_int_equal(D(cuGraphExecDestroy)(x), CUDA_SUCCESS);
    assert_int_equal(D(cuGraphDestroy)(g), CUDA_SUCCESS);
}

static void mem_alloc_and_free_nodes_track_graph_memory(void **state)
{
    (void)state;
    CUgraph g = NULL;
    assert_int_equal(D(cuGraphCreate)(&g, 0), CUDA_SUCCESS);
    CUDA_MEM_ALLOC_NODE_PARAMS ap;
    memset(&ap, 0, sizeof ap);
    ap.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
    ap.poolProps.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    ap.poolProps.location.id = 0;
    ap.bytesize = 64;
    CUgraphNode alloc = NULL, set = NULL, copy = NULL, freen = NULL;
    ap.poolProps.location.id = 3;
    assert_int_equal(D(cuGraphAddMemAllocNode)(&alloc, g, NULL, 0, &ap), CUDA_ERROR_INVALID_VALUE);
    ap.poolProps.location.id = 0;
    assert_int_equal(D(cuGraphAddMemAllocNode)(&alloc, g, NULL, 0, &ap), CUDA_SUCCESS);
    assert_true(ap.dptr != 0);
    CUDA_MEMSET_NODE_PARAMS sp = { ap.dptr, 0, 0x2a, 1, 64, 1 };
    CUcontext ctx = NULL;
    assert_int_equal(D(cuCtxGetCurrent)(&ctx), CUDA_SUCCESS);
    assert_int_equal(D(cuGraphAddMemsetNode)(&set, g, &alloc, 1, &sp, ctx), CUDA_SUCCESS);
    unsigned char host[64] = {0};
    CUDA_MEMCPY3D cp;
    memset(&cp, 0, sizeof cp);
    cp.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    cp.srcDevice = ap.dptr;
    cp.dstMemoryType = CU_MEMORYTYPE_HOST;
    cp.dstHost = host;
    cp.WidthInBytes = sizeof host;
    cp.Height = cp.Depth = 1;
    assert_int_equal(D(cuGraphAddMemcpyNode)(&copy, g, &set, 1, &cp, ctx), CUDA_SUCCESS);
    assert_int_equal(D(cuGraphAddMemFreeNode)(&freen, g, &copy, 1, ap.dptr + 8),
                     CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(D(cuGraphAddMemFreeNode)(&freen, g, &copy, 1, ap.dptr), CUDA_SUCCESS);
    CUDA_MEM_ALLOC_NODE_PARAMS back;
    CUdeviceptr freed = 0;
    assert_int_equal(D(cuGraphMemAllocNodeGetParams)(alloc, &back), CUDA_SUCCESS);
    assert_int_equal(back.bytesize, 64);
    assert_int_equal(back.dptr, ap.dptr);
    assert_int_equal(D(cuGraphMemFreeNodeGetParams)(freen, &freed), CUDA_SUCCESS);
    assert_int_equal(freed, ap.dptr);
    assert_int_equal(D(cuGraphMemFreeNodeGetParams)(alloc, &freed), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(D(cuGraphDestroyNode)(set), CUDA_ERROR_NOT_SUPPORTED);

    cuuint64_t v = 99;
    assert_int_equal(D(cuDeviceGetGraphMemAttribute)(0, CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT, &v),
                     CUDA_SUCCESS);
    assert_int_equal(v, 0);
    launch_once(g);
    assert_int_equal(host[0], 0x2a);
    assert_int_equal(host[63], 0x2a);
    assert_int_equal(D(cuDeviceGetGraphMemAttribute)(0, CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT, &v),
                     CUDA_SUCCESS);
    assert_int_equal(v, 0);                        /* freed by the free node */
    assert_int_equal(D(cuDeviceGetGraphMemAttribute)(0, CU_GRAPH_MEM_ATTR_USED_MEM_HIGH, &v),
                     CUDA_SUCCESS);
    assert_int_equal(v, 64);
    assert_int_equal(D(cuDeviceGetGraphMemAttribute)(0, CU_GRAPH_MEM_ATTR_RESERVED_MEM_CURRENT,
                                                     &v), CUDA_SUCCESS);
    assert_int_equal(v, 64);
    assert_int_equal(D(cuDeviceGraphMemTrim)(0), CUDA_SUCCESS);
    assert_int_equal(D(cuDeviceGetGraphMemAttribute)(0, CU_GRAPH_MEM_ATTR_RESERVED_MEM_CURRENT,
                                                     &v), CUDA_SUCCESS);
    assert_int_equal(v, 0);
    v = 5;
    assert_int_equal(D(cuDeviceSetGraphMemAttribute)(0, CU_GRAPH_MEM_ATTR_USED_MEM_HIGH, &v),
                     CUDA_ERROR_INVALID_VALUE);
    v = 0;
    assert_int_equal(D(cuDeviceSetGraphMemAttribute)(0, CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT, &v),
                     CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(D(cuDeviceSetGraphMemAttribute)(0, CU_GRAPH_MEM_ATTR_USED_MEM_HIGH, &v),
                     CUDA_SUCCESS);
    assert_int_equal(D(cuDeviceGetGraphMemAttribute)(0, CU_GRAPH_MEM_ATTR_USED_MEM_HIGH, &v),
                     CUDA_SUCCESS);
    assert_int_equal(v, 0);
    assert_int_equal(D(cuGraphDestroy)(g), CUDA_SUCCESS);
}

static int destroyed;
static void destroy_counter(void *p)
{
    destroyed += *(int *)p;
}

static void user_object_outlives_its_graph_until_the_executable_goes(void **state)
{
    (void)state;
    static int weight = 1;
    CUuserObject obj = NULL;
    CUgraph g = NULL;
    CUgraphExec x = NULL;
    destroyed = 0;
    assert_int_equal(D(cuUserObjectCreate)(&obj, &weight, destroy_counter, 1, 0),
                     CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(D(cuUserObjectCreate)(&obj, &weight, destroy_counter, 1,
                                           CU_USER_OBJECT_NO_DESTRUCTOR_SYNC), CUDA_SUCCESS);
    assert_int_equal(D(cuGraphCreate)(&g, 0), CUDA_SUCCESS);
    assert_int_equal(D(cuGraphRetainUserObject)(g, obj, 1, CU_GRAPH_USER_OBJECT_MOVE),
                     CUDA_SUCCESS);
    assert_int_equal(D(cuGraphReleaseUserObject)(g, obj, 2), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(D(cuGraphInstantiateWithFlags)(&x, g, 0), CUDA_SUCCESS);
    assert_int_equal(D(cuGraphDestroy)(g), CUDA_SUCCESS);
    assert_int_equal(destroyed, 0);                /* the executable graph holds its own */
    assert_int_equal(D(cuGraphExecDestroy)(x), CUDA_SUCCESS);
    assert_int_equal(destroyed, 1);
    assert_int_equal(D(cuUserObjectRelease)(obj, 1), CUDA_ERROR_INVALID_HANDLE);
}

static void edges_keep_their_data_and_a_lossy_query_is_refused(void **state)
{
    (void)state;
    CUgraph g = NULL;
    assert_int_equal(D(cuGraphCreate)(&g, 0), CUDA_SUCCESS);
    CUDA_KERNEL_NODE_PARAMS k;
    memset(&k, 0, sizeof k);
    k.func = noargs_fn;
    k.gridDimX = k.gridDimY = k.gridDimZ = k.blockDimX = k.blockDimY = k.blockDimZ = 1;
    CUgraphNode k1 = NULL, k2 = NULL, e = NULL;
    assert_int_equal(D(cuGraphAddKernelNode)(&k1, g, NULL, 0, &k), CUDA_SUCCESS);
    assert_int_equal(D(cuGraphAddKernelNode)(&k2, g, NULL, 0, &k), CUDA_SUCCESS);
    assert_int_equal(D(cuGraphAddEmptyNode)(&e, g, NULL, 0), CUDA_SUCCESS);
    CUgraphEdgeData prog;
    memset(&prog, 0, sizeof prog);
    prog.from_port = CU_GRAPH_KERNEL_NODE_PORT_PROGRAMMATIC;
    prog.type = CU_GRAPH_DEPENDENCY_TYPE_PROGRAMMATIC;
    CUgraphNode from[2] = {e, k1}, to[2] = {k2, k2};
    CUgraphEdgeData data[2];
    memset(data, 0, sizeof data);
    data[1] = prog;
    /* A programmatic edge out of an empty node is refused. */
    assert_int_equal(D(cuGraphAddDependencies)(g, &e, &k2, &prog, 1), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(D(cuGraphAddDependencies)(g, from, to, data, 2), CUDA_SUCCESS);

    size_t n = 0;
    assert_int_equal(D(cuGraphGetEdges)(g, NULL, NULL, NULL, &n), CUDA_SUCCESS);
    assert_int_equal(n, 2);
    CUgraphNode f[3], t[3];
    CUgraphEdgeData d[3];
    n = 3;
    assert_int_equal(D(cuGraphGetEdges)(g, f, t, NULL, &n), CUDA_ERROR_LOSSY_QUERY);
    n = 3;
    assert_int_equal(D(cuGraphGetEdges)(g, f, t, d, &n), CUDA_SUCCESS);
    assert_int_equal(n, 2);
    assert_ptr_equal(f[1], k1);
    assert_ptr_equal(t[1], k2);
    assert_int_equal(d[1].type, CU_GRAPH_DEPENDENCY_TYPE_PROGRAMMATIC);
    assert_int_equal(d[1].from_port, CU_GRAPH_KERNEL_NODE_PORT_PROGRAMMATIC);
    assert_null(f[2]);
    n = 2;
    assert_int_equal(D(cuGraphNodeGetDependencies)(k2, f, NULL, &n), CUDA_ERROR_LOSSY_QUERY);
    n = 1;
    assert_int_equal(D(cuGraphNodeGetDependentNodes)(e, f, NULL, &n), CUDA_SUCCESS);
    assert_int_equal(n, 1);
    assert_ptr_equal(f[0], k2);

    /* Removal matches the data: the default data names no such edge. */
    assert_int_equal(D(cuGraphRemoveDependencies)(g, &k1, &k2, NULL, 1), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(D(cuGraphRemoveDependencies)(g, &k1, &k2, &prog, 1), CUDA_SUCCESS);
    n = 3;
    assert_int_equal(D(cuGraphGetEdges)(g, f, t, NULL, &n), CUDA_SUCCESS);
    assert_int_equal(n, 1);

    /* Kernel attributes: unset reads zero, set, copy, unknown id refused. */
    CUkernelNodeAttrValue v;
    memset(&v, 0x55, sizeof v);
    assert_int_equal(D(cuGraphKernelNodeGetAttribute)(k1, CU_LAUNCH_ATTRIBUTE_PRIORITY, &v),
                     CUDA_SUCCESS);
    assert_int_equal(v.priority, 0);
    v.priority = -3;
    assert_int_equal(D(cuGraphKernelNodeSetAttribute)(k1, CU_LAUNCH_ATTRIBUTE_PRIORITY, &v),
                     CUDA_SUCCESS);
    assert_int_equal(D(cuGraphKernelNodeCopyAttributes)(k2, k1), CUDA_SUCCESS);
    memset(&v, 0, sizeof v);
    assert_int_equal(D(cuGraphKernelNodeGetAttribute)(k2, CU_LAUNCH_ATTRIBUTE_PRIORITY, &v),
                     CUDA_SUCCESS);
    assert_int_equal(v.priority, -3);
    assert_int_equal(D(cuGraphKernelNodeSetAttribute)(
                         k1, CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY, &v),
                     CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(D(cuGraphKernelNodeCopyAttributes)(e, k1), CUDA_ERROR_INVALID_VALUE);

    /* Clone keeps edge data; FindInClone goes through the origin. */
    CUgraph c = NULL;
    CUgraphNode found = NULL;
    assert_int_equal(D(cuGraphClone)(&c, g), CUDA_SUCCESS);
    assert_int_equal(D(cuGraphNodeFindInClone)(&found, k2, c), CUDA_SUCCESS);
    assert_int_equal(type_of(found), CU_GRAPH_NODE_TYPE_KERNEL);
    assert_int_equal(D(cuGraphDestroyNode)(k2), CUDA_SUCCESS);
    n = 3;
    assert_int_equal(D(cuGraphGetEdges)(g, NULL, NULL, NULL, &n), CUDA_SUCCESS);
    assert_int_equal(n, 0);
    assert_int_equal(D(cuGraphNodeGetType)(k2, &(CUgraphNodeType){0}), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(D(cuGraphDestroy)(c), CUDA_SUCCESS);
    assert_int_equal(D(cuGraphDestroy)(g), CUDA_SUCCESS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(capture_records_work_and_forks_and_joins_two_streams),
        cmocka_unit_test(capture_unjoined_or_invalidated_ends_without_a_graph),
        cmocka_unit_test(conditional_while_loops_until_the_handle_is_zero),
        cmocka_unit_test(mem_alloc_and_free_nodes_track_graph_memory),
        cmocka_unit_test(user_object_outlives_its_graph_until_the_executable_goes),
        cmocka_unit_test(edges_keep_their_data_and_a_lossy_query_is_refused),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
