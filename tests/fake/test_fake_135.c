/*
 * test_fake_135.c - the fake driver's entry points of drivers 13.1 to 13.4 (a 13.5 driver,
 * FAKECUDA_DRIVER_VERSION 13050, set in setup), reached as the runtime reaches them (dlopen
 * MINICUDART_DRIVER, then cuGetProcAddress_v2): parameter counts, graph and node ids, generic node
 * parameters and the 13.5 node layout, host functions with a sync mode, copies with attributes,
 * recapture, and where managed memory is.  The tests run in order in one process and share its
 * state.
 */
#include "fake_selftest.h"
#include "fake_cuda135.h"

#define D(name) ((__typeof__(&name))proc(#name, 13000))
#define V(name, ver) ((PFN_##name##_v##ver)proc(#name, ver))

static CUcontext primary;
static CUmodule mod;
static CUfunction add_fn, noargs_fn, kstruct_fn;
static unsigned char *cubin;

static int setup(void **state)
{
    (void)state;
    if (open_fake() != 0 || !p_fake_set_driver_version)
        return -1;
    p_fake_set_driver_version(13050);
    cubin = read_file(FAKE_FIXTURE_CUBIN);
    int ok = cubin && D(cuInit)(0) == CUDA_SUCCESS &&
             D(cuDevicePrimaryCtxRetain)(&primary, 0) == CUDA_SUCCESS &&
             D(cuCtxSetCurrent)(primary) == CUDA_SUCCESS &&
             D(cuModuleLoadDataEx)(&mod, cubin, 0, NULL, NULL) == CUDA_SUCCESS &&
             D(cuModuleGetFunction)(&add_fn, mod, "_Z3addPiPKii") == CUDA_SUCCESS &&
             D(cuModuleGetFunction)(&noargs_fn, mod, "_Z6noargsv") == CUDA_SUCCESS &&
             D(cuModuleGetFunction)(&kstruct_fn, mod, "_Z7kstruct2S3cPd") == CUDA_SUCCESS;
    return ok ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    free(cubin);
    return 0;
}

/* add(int *a, const int *b, int n): records the last n it saw. */
static int last_n = -1;
static void host_add(const void *params, size_t size, const unsigned grid[3],
                     const unsigned block[3])
{
    (void)size, (void)grid, (void)block;
    memcpy(&last_n, (const char *)params + 16, sizeof last_n);
}

static int host_runs;
static void host_fn(void *data)
{
    host_runs++;
    if (data)
        *(int *)data += 1;
}

static CUstream new_stream(void)
{
    CUstream s = NULL;
    assert_int_equal(D(cuStreamCreate)(&s, CU_STREAM_NON_BLOCKING), CUDA_SUCCESS);
    return s;
}

static CUgraphNode empty_node(CUgraph g)
{
    CUgraphNode n = NULL;
    assert_int_equal(D(cuGraphAddEmptyNode)(&n, g, NULL, 0), CUDA_SUCCESS);
    return n;
}

static unsigned local_id(CUgraphNode n)
{
    unsigned id = 99;
    assert_int_equal(V(cuGraphNodeGetLocalId, 13010)(n, &id), CUDA_SUCCESS);
    return id;
}

/* The latest logged call of `name`, or NULL. */
static const fake_call *last_call(const char *name)
{
    for (size_t i = p_fake_call_count(); i-- > 0;)
        if (strcmp(p_fake_call_at(i)->name, name) == 0)
            return p_fake_call_at(i);
    return NULL;
}

static CUgraphNodeParams params_of(CUgraphNode n)
{
    CUgraphNodeParams p;
    memset(&p, 0xab, sizeof p);
    assert_int_equal(V(cuGraphNodeGetParams, 13020)(n, &p), CUDA_SUCCESS);
    return p;
}

static FAKE_HOST_NODE_PARAMS_135 host_of(const CUgraphNodeParams *p)
{
    FAKE_HOST_NODE_PARAMS_135 h;
    memcpy(&h, (const unsigned char *)p + offsetof(CUgraphNodeParams, kernel), sizeof h);
    return h;
}

/* ---- parameter counts ----------------------------------------------------------------------- */

static void parameter_counts_come_from_the_kernels_tables(void **state)
{
    (void)state;
    PFN_cuFuncGetParamCount_v13020 count_fn = V(cuFuncGetParamCount, 13020);
    size_t n = 99;
    assert_int_equal(count_fn(add_fn, &n), CUDA_SUCCESS);
    assert_int_equal(n, 3);
    assert_int_equal(count_fn(noargs_fn, &n), CUDA_SUCCESS);
    assert_int_equal(n, 0);
    assert_int_equal(count_fn(kstruct_fn, &n), CUDA_SUCCESS);
    assert_int_equal(n, 3);
    assert_int_equal(count_fn(add_fn, NULL), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(count_fn((CUfunction)&n, &n), CUDA_ERROR_INVALID_HANDLE);
    CUmodule other = NULL;
    CUfunction gone = NULL;
    assert_int_equal(D(cuModuleLoadDataEx)(&other, cubin, 0, NULL, NULL), CUDA_SUCCESS);
    assert_int_equal(D(cuModuleGetFunction)(&gone, other, "_Z3addPiPKii"), CUDA_SUCCESS);
    assert_int_equal(D(cuModuleUnload)(other), CUDA_SUCCESS);
    assert_int_equal(count_fn(gone, &n), CUDA_ERROR_INVALID_HANDLE);
    /* A library's kernel, context-independent. */
    CUlibrary library = NULL;
    CUkernel k = NULL;
    assert_int_equal(D(cuLibraryLoadData)(&library, cubin, NULL, NULL, 0, NULL, NULL, 0),
                     CUDA_SUCCESS);
    assert_int_equal(D(cuLibraryGetKernel)(&k, library, "_Z7kstruct2S3cPd"), CUDA_SUCCESS);
    PFN_cuKernelGetParamCount_v13020 count_kernel = V(cuKernelGetParamCount, 13020);
    assert_int_equal(count_kernel(k, &n), CUDA_SUCCESS);
    assert_int_equal(n, 3);
    assert_int_equal(count_kernel(k, NULL), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(D(cuLibraryUnload)(library), CUDA_SUCCESS);
    assert_int_equal(count_kernel(k, &n), CUDA_ERROR_INVALID_HANDLE);
}

/* ---- ids ------------------------------------------------------------------------------------ */

static void graph_ids_are_unique_and_local_ids_follow_creation_order(void **state)
{
    (void)state;
    PFN_cuGraphGetId_v13010 graph_id = V(cuGraphGetId, 13010);
    PFN_cuGraphNodeGetToolsId_v13010 tools_id = V(cuGraphNodeGetToolsId, 13010);
    PFN_cuGraphNodeGetContainingGraph_v13010 containing = V(cuGraphNodeGetContainingGraph, 13010);
    CUgraph g1 = NULL, g2 = NULL, clone = NULL, child = NULL, in = NULL;
    unsigned id1 = 0, id2 = 0, idc = 0, xid1 = 0, xid2 = 0;
    assert_int_equal(D(cuGraphCreate)(&g1, 0), CUDA_SUCCESS);
    assert_int_equal(D(cuGraphCreate)(&g2, 0), CUDA_SUCCESS);
    assert_int_equal(graph_id(g1, &id1), CUDA_SUCCESS);
    assert_int_equal(graph_id(g2, &id2), CUDA_SUCCESS);
    assert_true(id1 != 0 && id2 != 0 && id1 != id2);
    CUgraphNode a = empty_node(g1), b = empty_node(g1), c = empty_node(g1), z = empty_node(g2);
    assert_int_equal(local_id(a), 0);
    assert_int_equal(local_id(b), 1);
    assert_int_equal(local_id(c), 2);
    assert_int_equal(local_id(z), 0);
    assert_int_equal(D(cuGraphDestroyNode)(b), CUDA_SUCCESS);
    assert_int_equal(local_id(empty_node(g1)), 3);             /* never reused */
    unsigned long long ta = 0, tz = 0;
    assert_int_equal(tools_id(a, &ta), CUDA_SUCCESS);
    assert_int_equal(tools_id(z, &tz), CUDA_SUCCESS);
    assert_true(ta != tz);
    assert_true(ta == ((unsigned long long)id1 << 32 | 0));
    assert_int_equal(containing(c, &in), CUDA_SUCCESS);
    assert_ptr_equal(in, g1);
    /* A child graph's node is in the child graph; a clone is another graph, same local ids. */
    CUgraphNode holder = NULL, inner = NULL, found = NULL;
    assert_int_equal(D(cuGraphAddChildGraphNode)(&holder, g1, NULL, 0, g2), CUDA_SUCCESS);
    assert_int_equal(D(cuGraphChildGraphNodeGetGraph)(holder, &child), CUDA_SUCCESS);
    size_t one = 1;
    assert_int_equal(D(cuGraphGetNodes)(child, &inner, &one), CUDA_SUCCESS);
    assert_int_equal(containing(inner, &in), CUDA_SUCCESS);
    assert_ptr_equal(in, child);
    assert_int_equal(D(cuGraphClone)(&clone, g1), CUDA_SUCCESS);
    assert_int_equal(graph_id(clone, &idc), CUDA_SUCCESS);
    assert_true(idc != id1 && idc != id2);
    assert_int_equal(D(cuGraphNodeFindInClone)(&found, c, clone), CUDA_SUCCESS);
    assert_int_equal(local_id(found), 2);
    /* Executable graphs: ids from the same sequence. */
    CUgraphExec x1 = NULL, x2 = NULL;
    PFN_cuGraphExecGetId_v13010 exec_id = V(cuGraphExecGetId, 13010);
    assert_int_equal(D(cuGraphInstantiateWithFlags)(&x1, g1, 0), CUDA_SUCCESS);
    assert_int_equal(D(cuGraphInstantiateWithFlags)(&x2, g1, 0), CUDA_SUCCESS);
    assert_int_equal(exec_id(x1, &xid1), CUDA_SUCCESS);
    assert_int_equal(exec_id(x2, &xid2), CUDA_SUCCESS);
    assert_true(xid1 != xid2 && xid1 != id1 && xid1 != idc);
    /* Stale and NULL handles: CUDA_ERROR_INVALID_VALUE, the one code cuda.h names. */
    assert_int_equal(D(cuGraphExecDestroy)(x2), CUDA_SUCCESS);
    assert_int_equal(exec_id(x2, &xid2), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(exec_id(x1, NULL), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(D(cuGraphDestroy)(clone), CUDA_SUCCESS);
    assert_int_equal(graph_id(clone, &idc), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(graph_id(NULL, &idc), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(V(cuGraphNodeGetLocalId, 13010)(found, &idc), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(tools_id(NULL, &ta), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(containing(a, NULL), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(D(cuGraphExecDestroy)(x1), CUDA_SUCCESS);
    assert_int_equal(D(cuGraphDestroy)(g1), CUDA_SUCCESS);
    assert_int_equal(D(cuGraphDestroy)(g2), CUDA_SUCCESS);
}

/* ---- generic parameters --------------------------------------------------------------------- */

static void node_params_describe_each_kind_from_the_node(void **state)
{
    (void)state;
    CUgraph g = NULL, child = NULL;
    CUdeviceptr d = 0;
    CUevent e = NULL;
    int host = 0, *pa = &host, n = 7;
    void *args[] = {&pa, &pa, &n};
    assert_int_equal(D(cuGraphCreate)(&g, 0), CUDA_SUCCESS);
    assert_int_equal(D(cuGraphCreate)(&child, 0), CUDA_SUCCESS);
    assert_int_equal(D(cuMemAlloc)(&d, 256), CUDA_SUCCESS);
    assert_int_equal(D(cuEventCreate)(&e, 0), CUDA_SUCCESS);
    CUgraphNode kn = NULL, cn = NULL, sn = NULL, hn = NULL, gn = NULL, rn = NULL, an = NULL,
                fn = NULL;
    CUDA_KERNEL_NODE_PARAMS k = { .func = add_fn, .gridDimX = 2, .gridDimY = 1, .gridDimZ = 1,
                                  .blockDimX = 32, .blockDimY = 1, .blockDimZ = 1,
                                  .kernelParams = args };
    assert_int_equal(D(cuGraphAddKernelNode)(&kn, g, NULL, 0, &k), CUDA_SUCCESS);
    n = 0;                                  /* the node copied the arguments */
    CUgraphNodeParams p = params_of(kn);
    assert_int_equal(p.type, CU_GRAPH_NODE_TYPE_KERNEL);
    assert_ptr_equal(p.kernel.func, add_fn);
    assert_int_equal(p.kernel.gridDimX, 2);
    assert_int_equal(p.kernel.blockDimX, 32);
    assert_null(p.kernel.extra);
    assert_ptr_equal(p.kernel.ctx, primary);
    assert_ptr_not_equal(p.kernel.kernelParams, args);
    assert_int_equal(*(int *)p.kernel.kernelParams[2], 7);
    assert_ptr_equal(*(int **)p.kernel.kernelParams[0], &host);
    assert_int_equal(p.reserved2, 0);

    CUDA_MEMCPY3D copy = { .srcMemoryType = CU_MEMORYTYPE_HOST, .srcHost = &host,
                           .dstMemoryType = CU_MEMORYTYPE_DEVICE, .dstDevice = d,
                           .WidthInBytes = sizeof host, .Height = 1, .Depth = 1 };
    assert_int_equal(D(cuGraphAddMemcpyNode)(&cn, g, &kn, 1, &copy, primary), CUDA_SUCCESS);
    p = params_of(cn);
    assert_int_equal(p.type, CU_GRAPH_NODE_TYPE_MEMCPY);
    assert_int_equal(p.memcpy.copyParams.dstDevice, d);
    assert_int_equal(p.memcpy.copyParams.WidthInBytes, sizeof host);
    assert_ptr_equal(p.memcpy.copyCtx, primary);
    CUDA_MEMSET_NODE_PARAMS set = { .dst = d, .value = 5, .elementSize = 4, .width = 8,
                                    .height = 1 };
    assert_int_equal(D(cuGraphAddMemsetNode)(&sn, g, NULL, 0, &set, primary), CUDA_SUCCESS);
    p = params_of(sn);
    assert_int_equal(p.memset.value, 5);
    assert_int_equal(p.memset.width, 8);
    assert_ptr_equal(p.memset.ctx, primary);
    CUDA_HOST_NODE_PARAMS h = { host_fn, &host };
    assert_int_equal(D(cuGraphAddHostNode)(&hn, g, NULL, 0, &h), CUDA_SUCCESS);
    p = params_of(hn);
    assert_ptr_equal(host_of(&p).fn, host_fn);
    assert_ptr_equal(host_of(&p).userData, &host);
    assert_int_equal(host_of(&p).syncMode, FAKE_HOST_TASK_BLOCKING);
    assert_null(host_of(&p).ctx);
    assert_int_equal(D(cuGraphAddChildGraphNode)(&gn, g, NULL, 0, child), CUDA_SUCCESS);
    p = params_of(gn);
    assert_non_null(p.graph.graph);
    assert_ptr_not_equal(p.graph.graph, child);               /* the node's own clone */
    assert_int_equal(p.graph.ownership, FAKE_GRAPH_CHILD_GRAPH_OWNERSHIP_INVALID);
    assert_int_equal(D(cuGraphAddEventRecordNode)(&rn, g, NULL, 0, e), CUDA_SUCCESS);
    p = params_of(rn);
    assert_ptr_equal(p.eventRecord.event, e);
    CUDA_MEM_ALLOC_NODE_PARAMS alloc;
    memset(&alloc, 0, sizeof alloc);
    alloc.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
    alloc.poolProps.location = (CUmemLocation){ CU_MEM_LOCATION_TYPE_DEVICE, 0 };
    alloc.bytesize = 1024;
    assert_int_equal(D(cuGraphAddMemAllocNode)(&an, g, NULL, 0, &alloc), CUDA_SUCCESS);
    p = params_of(an);
    assert_int_equal(p.alloc.bytesize, 1024);
    assert_int_equal(p.alloc.dptr, alloc.dptr);
    assert_int_equal(D(cuGraphAddMemFreeNode)(&fn, g, &an, 1, alloc.dptr), CUDA_SUCCESS);
    p = params_of(fn);
    assert_int_equal(p.type, CU_GRAPH_NODE_TYPE_MEM_FREE);
    assert_int_equal(p.free.dptr, alloc.dptr);
    p = params_of(empty_node(g));
    assert_int_equal(p.type, CU_GRAPH_NODE_TYPE_EMPTY);
    assert_int_equal(p.reserved1[0], 0);
    assert_int_equal(V(cuGraphNodeGetParams, 13020)(kn, NULL), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(V(cuGraphNodeGetParams, 13020)((CUgraphNode)&p, &p),
                     CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(D(cuGraphDestroy)(g), CUDA_SUCCESS);
    assert_int_equal(D(cuGraphDestroy)(child), CUDA_SUCCESS);
    assert_int_equal(V(cuGraphNodeGetParams, 13020)(kn, &p), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(D(cuMemFree)(d), CUDA_SUCCESS);
}

static void add_node_13040_takes_the_135_members(void **state)
{
    (void)state;
    PFN_cuGraphAddNode_v13040 add = V(cuGraphAddNode, 13040);
    PFN_cuGraphNodeSetParams_v13040 set = V(cuGraphNodeSetParams, 13040);
    assert_non_null(add);
    assert_ptr_not_equal(add, proc("cuGraphAddNode", 12030));
    CUgraph g = NULL;
    CUgraphNode hn = NULL;
    int data = 0;
    assert_int_equal(D(cuGraphCreate)(&g, 0), CUDA_SUCCESS);
    CUgraphNodeParams p;
    memset(&p, 0, sizeof p);
    p.type = CU_GRAPH_NODE_TYPE_HOST;
    FAKE_HOST_NODE_PARAMS_135 h = { host_fn, &data, FAKE_HOST_TASK_SPINWAIT, primary };
    memcpy((unsigned char *)&p + offsetof(CUgraphNodeParams, kernel), &h, sizeof h);
    /* The 12.3 form knows no sync mode: bytes past its members must be zero. */
    assert_int_equal(D(cuGraphAddNode)(&hn, g, NULL, NULL, 0, &p), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(add(&hn, g, NULL, NULL, 0, &p), CUDA_SUCCESS);
    CUgraphNodeParams got = params_of(hn);
    assert_int_equal(host_of(&got).syncMode, FAKE_HOST_TASK_SPINWAIT);
    assert_ptr_equal(host_of(&got).ctx, primary);
    h.syncMode = 2;
    memcpy((unsigned char *)&p + offsetof(CUgraphNodeParams, kernel), &h, sizeof h);
    assert_int_equal(add(&hn, g, NULL, NULL, 0, &p), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(set(hn, &p), CUDA_ERROR_INVALID_VALUE);
    h = (FAKE_HOST_NODE_PARAMS_135){ host_fn, &data, FAKE_HOST_TASK_BLOCKING, (CUcontext)&data };
    memcpy((unsigned char *)&p + offsetof(CUgraphNodeParams, kernel), &h, sizeof h);
    assert_int_equal(add(&hn, g, NULL, NULL, 0, &p), CUDA_ERROR_INVALID_VALUE);   /* no ctx */
    h.ctx = NULL;
    memcpy((unsigned char *)&p + offsetof(CUgraphNodeParams, kernel), &h, sizeof h);
    assert_int_equal(set(hn, &p), CUDA_SUCCESS);
    got = params_of(hn);
    assert_int_equal(host_of(&got).syncMode, FAKE_HOST_TASK_BLOCKING);
    /* Kinds 13.5 left alone still get their outputs written back. */
    memset(&p, 0, sizeof p);
    p.type = CU_GRAPH_NODE_TYPE_MEM_ALLOC;
    p.alloc.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
    p.alloc.poolProps.location = (CUmemLocation){ CU_MEM_LOCATION_TYPE_DEVICE, 0 };
    p.alloc.bytesize = 512;
    CUgraphNode an = NULL;
    assert_int_equal(add(&an, g, NULL, NULL, 0, &p), CUDA_SUCCESS);
    assert_int_not_equal(p.alloc.dptr, 0);
    assert_int_equal(params_of(an).alloc.dptr, p.alloc.dptr);
    assert_int_equal(D(cuGraphDestroy)(g), CUDA_SUCCESS);
}

/* ---- host functions ------------------------------------------------------------------------- */

static void host_func_v2_runs_in_both_modes_and_captures_its_mode(void **state)
{
    (void)state;
    PFN_cuLaunchHostFunc_v13010 launch = V(cuLaunchHostFunc, 13010);
    int data = 0;
    host_runs = 0;
    assert_int_equal(launch(NULL, host_fn, &data, FAKE_HOST_TASK_BLOCKING), CUDA_SUCCESS);
    assert_int_equal(launch(CU_STREAM_PER_THREAD, host_fn, &data, FAKE_HOST_TASK_SPINWAIT),
                     CUDA_SUCCESS);
    assert_int_equal(data, 2);
    assert_int_equal(launch(NULL, host_fn, &data, 2), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(launch(NULL, NULL, &data, 0), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(launch((CUstream)&data, host_fn, &data, 0), CUDA_ERROR_INVALID_HANDLE);
    assert_int_equal(host_runs, 2);
    assert_int_equal(p_fake_count_calls("cuLaunchHostFunc_v2"), 5);
    /* Captured: a host node that keeps the mode, run by the graph. */
    CUstream s = new_stream();
    CUgraph g = NULL;
    CUgraphNode node = NULL;
    size_t one = 1;
    assert_int_equal(D(cuStreamBeginCapture)(s, CU_STREAM_CAPTURE_MODE_GLOBAL), CUDA_SUCCESS);
    assert_int_equal(launch(s, host_fn, &data, FAKE_HOST_TASK_SPINWAIT), CUDA_SUCCESS);
    assert_int_equal(host_runs, 2);
    assert_int_equal(D(cuStreamEndCapture)(s, &g), CUDA_SUCCESS);
    assert_int_equal(D(cuGraphGetNodes)(g, &node, &one), CUDA_SUCCESS);
    CUgraphNodeParams p = params_of(node);
    assert_int_equal(p.type, CU_GRAPH_NODE_TYPE_HOST);
    assert_int_equal(host_of(&p).syncMode, FAKE_HOST_TASK_SPINWAIT);
    CUgraphExec x = NULL;
    assert_int_equal(D(cuGraphInstantiateWithFlags)(&x, g, 0), CUDA_SUCCESS);
    assert_int_equal(D(cuGraphLaunch)(x, s), CUDA_SUCCESS);
    assert_int_equal(host_runs, 3);
    assert_int_equal(D(cuGraphExecDestroy)(x), CUDA_SUCCESS);
    assert_int_equal(D(cuGraphDestroy)(g), CUDA_SUCCESS);
    assert_int_equal(D(cuStreamDestroy)(s), CUDA_SUCCESS);
}

/* ---- copies with attributes ----------------------------------------------------------------- */

static void copies_with_attributes_act_like_one_batch_element(void **state)
{
    (void)state;
    PFN_cuMemcpyWithAttributesAsync_v13020 copy = V(cuMemcpyWithAttributesAsync, 13020);
    PFN_cuMemcpy3DWithAttributesAsync_v13020 copy3d = V(cuMemcpy3DWithAttributesAsync, 13020);
    CUdeviceptr d = 0, gone = 0;
    int src[4] = {1, 2, 3, 4}, back[4] = {0};
    CUmemcpyAttributes attr;
    memset(&attr, 0, sizeof attr);
    attr.srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_STREAM;
    assert_int_equal(D(cuMemAlloc)(&d, sizeof src), CUDA_SUCCESS);
    /* The legacy stream is fine here (cuda.h keeps only the batches off it). */
    assert_int_equal(copy(d, (CUdeviceptr)(uintptr_t)src, sizeof src, &attr, NULL), CUDA_SUCCESS);
    assert_int_equal(copy((CUdeviceptr)(uintptr_t)back, d, sizeof back, &attr,
                          CU_STREAM_PER_THREAD), CUDA_SUCCESS);
    assert_memory_equal(src, back, sizeof src);
    assert_int_equal(copy(d, d, 0, &attr, NULL), CUDA_SUCCESS);
    assert_int_equal(copy(d, (CUdeviceptr)(uintptr_t)src, sizeof src, NULL, NULL),
                     CUDA_ERROR_INVALID_VALUE);
    attr.srcAccessOrder = (CUmemcpySrcAccessOrder)9;
    assert_int_equal(copy(d, (CUdeviceptr)(uintptr_t)src, 4, &attr, NULL),
                     CUDA_ERROR_INVALID_VALUE);
    attr.srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_ANY;
    attr.flags = 8;
    assert_int_equal(copy(d, (CUdeviceptr)(uintptr_t)src, 4, &attr, NULL),
                     CUDA_ERROR_INVALID_VALUE);
    attr.flags = CU_MEMCPY_FLAG_PREFER_OVERLAP_WITH_COMPUTE;
    assert_int_equal(copy(d, 0, 4, &attr, NULL), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(copy(d, (CUdeviceptr)(uintptr_t)src, 4, &attr, (CUstream)&attr),
                     CUDA_ERROR_INVALID_HANDLE);
    assert_int_equal(D(cuMemAlloc)(&gone, 64), CUDA_SUCCESS);
    assert_int_equal(D(cuMemFree)(gone), CUDA_SUCCESS);
    assert_int_equal(copy(gone, (CUdeviceptr)(uintptr_t)src, 4, &attr, NULL),
                     CUDA_ERROR_INVALID_VALUE);             /* freed memory stays refused */
    /* Captured: a memcpy node, nothing copied yet. */
    CUstream s = new_stream();
    CUgraph g = NULL;
    size_t nodes = 0;
    int later[4] = {9, 9, 9, 9};
    assert_int_equal(D(cuStreamBeginCapture)(s, CU_STREAM_CAPTURE_MODE_GLOBAL), CUDA_SUCCESS);
    assert_int_equal(copy(d, (CUdeviceptr)(uintptr_t)later, sizeof later, &attr, s),
                     CUDA_SUCCESS);
    assert_int_equal(D(cuStreamEndCapture)(s, &g), CUDA_SUCCESS);
    assert_int_equal(D(cuGraphGetNodes)(g, NULL, &nodes), CUDA_SUCCESS);
    assert_int_equal(nodes, 1);
    assert_int_equal(((int *)(uintptr_t)d)[0], 1);
    assert_int_equal(D(cuGraphDestroy)(g), CUDA_SUCCESS);
    /* The 3D form: one operation of cuMemcpy3DBatchAsync. */
    CUDA_MEMCPY3D_BATCH_OP op;
    memset(&op, 0, sizeof op);
    op.src.type = CU_MEMCPY_OPERAND_TYPE_POINTER;
    op.src.op.ptr.ptr = (CUdeviceptr)(uintptr_t)later;
    op.dst.type = CU_MEMCPY_OPERAND_TYPE_POINTER;
    op.dst.op.ptr.ptr = d;
    op.extent = (CUextent3D){ sizeof later, 1, 1 };
    op.srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_STREAM;
    assert_int_equal(copy3d(&op, 0, NULL), CUDA_SUCCESS);
    assert_int_equal(((int *)(uintptr_t)d)[3], 9);
    assert_int_equal(copy3d(&op, 1, NULL), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(copy3d(NULL, 0, NULL), CUDA_ERROR_INVALID_VALUE);
    op.extent.depth = 0;
    assert_int_equal(copy3d(&op, 0, NULL), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(D(cuStreamDestroy)(s), CUDA_SUCCESS);
    assert_int_equal(D(cuMemFree)(d), CUDA_SUCCESS);
}

/* ---- recapture ------------------------------------------------------------------------------ */

typedef struct seen {
    int calls;
    CUgraphNode node;
    int before_n, after_n;
    CUgraphRecaptureStatus status;
    CUresult answer;
    int node_live;                     /* the node was a live node of the graph then */
} seen;

static CUresult on_change(void *data, CUgraphNode node, const CUgraphNodeParams *before,
                          const CUgraphNodeParams *after, CUgraphRecaptureStatus status)
{
    seen *s = data;
    unsigned id = 0;
    s->calls++;
    s->node = node;
    s->status = status;
    /* the driver may be called from the callback (its lock is not held) */
    s->node_live = V(cuGraphNodeGetLocalId, 13010)(node, &id) == CUDA_SUCCESS;
    if (before->type == CU_GRAPH_NODE_TYPE_KERNEL && after->type == CU_GRAPH_NODE_TYPE_KERNEL) {
        s->before_n = *(const int *)before->kernel.kernelParams[2];
        s->after_n = *(const int *)after->kernel.kernelParams[2];
    }
    return s->answer;
}

/* A kernel with n, then a host function, on s (capturing). */
static void capture_body(CUstream s, int n, int with_host)
{
    int *pa = NULL;
    void *args[] = {&pa, &pa, &n};
    assert_int_equal(D(cuLaunchKernel)(add_fn, 1, 1, 1, 1, 1, 1, 0, s, args, NULL),
                     CUDA_SUCCESS);
    if (with_host)
        assert_int_equal(D(cuLaunchHostFunc)(s, host_fn, NULL), CUDA_SUCCESS);
}

static int destroyed;
static void destroy_counter(void *data)
{
    (void)data;
    destroyed++;
}

static void recapture_updates_parameters_and_keeps_the_nodes(void **state)
{
    (void)state;
    PFN_cuStreamBeginRecaptureToGraph_v13030 recapture = V(cuStreamBeginRecaptureToGraph, 13030);
    CUstream s = new_stream();
    CUgraph g = NULL, out = NULL;
    CUgraphNode nodes[2] = {NULL, NULL}, after[2] = {NULL, NULL};
    size_t count = 2;
    seen log = { 0 };
    assert_int_equal(D(cuStreamBeginCapture)(s, CU_STREAM_CAPTURE_MODE_GLOBAL), CUDA_SUCCESS);
    capture_body(s, 1, 1);
    assert_int_equal(D(cuStreamEndCapture)(s, &g), CUDA_SUCCESS);
    assert_int_equal(D(cuGraphGetNodes)(g, nodes, &count), CUDA_SUCCESS);
    CUgraphExec x = NULL;
    assert_int_equal(D(cuGraphInstantiateWithFlags)(&x, g, 0), CUDA_SUCCESS);
    /* A user object of the graph is released when the recapture begins. */
    CUuserObject obj = NULL;
    destroyed = 0;
    assert_int_equal(D(cuUserObjectCreate)(&obj, &log, destroy_counter, 1,
                                           CU_USER_OBJECT_NO_DESTRUCTOR_SYNC), CUDA_SUCCESS);
    assert_int_equal(D(cuGraphRetainUserObject)(g, obj, 1, CU_GRAPH_USER_OBJECT_MOVE),
                     CUDA_SUCCESS);

    assert_int_equal(recapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL, g, on_change, &log),
                     CUDA_SUCCESS);
    assert_int_equal(destroyed, 1);
    CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
    CUgraph target = NULL;
    assert_int_equal(D(cuStreamGetCaptureInfo)(s, &status, NULL, &target, NULL, NULL, NULL),
                     CUDA_SUCCESS);
    assert_ptr_equal(target, g);
    capture_body(s, 2, 1);
    assert_int_equal(D(cuStreamEndCapture)(s, &out), CUDA_SUCCESS);
    assert_ptr_equal(out, g);
    /* One changed node, reported as the graph's own node; the handles stay. */
    assert_int_equal(log.calls, 1);
    assert_ptr_equal(log.node, nodes[0]);
    assert_int_equal(log.before_n, 1);
    assert_int_equal(log.after_n, 2);
    assert_int_equal(log.status, CU_GRAPH_RECAPTURE_ELIGIBLE_FOR_UPDATE);
    assert_true(log.node_live);
    count = 2;
    assert_int_equal(D(cuGraphGetNodes)(g, after, &count), CUDA_SUCCESS);
    assert_memory_equal(after, nodes, sizeof nodes);
    assert_int_equal(local_id(after[1]), 1);
    assert_int_equal(*(int *)params_of(nodes[0]).kernel.kernelParams[2], 2);
    /* The call's log entry survives the callback's own driver calls. */
    assert_non_null(last_call("cuStreamEndCapture"));
    assert_int_equal(last_call("cuStreamEndCapture")->result, CUDA_SUCCESS);
    /* The executable graph takes the new parameters through an update. */
    CUgraphExecUpdateResultInfo info;
    p_fake_register_host_kernel("_Z3addPiPKii", host_add);
    assert_int_equal(D(cuGraphExecUpdate)(x, g, &info), CUDA_SUCCESS);
    assert_int_equal(D(cuGraphLaunch)(x, s), CUDA_SUCCESS);
    assert_int_equal(last_n, 2);

    /* A different shape fails and leaves the graph as it was. */
    log.calls = 0;
    assert_int_equal(recapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL, g, on_change, &log),
                     CUDA_SUCCESS);
    capture_body(s, 3, 0);
    assert_int_equal(D(cuStreamEndCapture)(s, &out), CUDA_ERROR_GRAPH_RECAPTURE_FAILURE);
    assert_null(out);
    assert_int_equal(log.calls, 0);
    count = 2;
    assert_int_equal(D(cuGraphGetNodes)(g, after, &count), CUDA_SUCCESS);
    assert_int_equal(count, 2);
    /* A callback that refuses fails the recapture: the parameters stay. */
    log.answer = CUDA_ERROR_UNKNOWN;
    assert_int_equal(recapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL, g, on_change, &log),
                     CUDA_SUCCESS);
    capture_body(s, 4, 1);
    assert_int_equal(D(cuStreamEndCapture)(s, &out), CUDA_ERROR_GRAPH_RECAPTURE_FAILURE);
    assert_int_equal(last_call("cuStreamEndCapture")->result, CUDA_ERROR_GRAPH_RECAPTURE_FAILURE);
    assert_int_equal(log.calls, 1);
    assert_int_equal(*(int *)params_of(nodes[0]).kernel.kernelParams[2], 2);
    /* No callback: the changes are taken. */
    assert_int_equal(recapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL, g, NULL, NULL), CUDA_SUCCESS);
    capture_body(s, 5, 1);
    assert_int_equal(D(cuStreamEndCapture)(s, &out), CUDA_SUCCESS);
    assert_int_equal(*(int *)params_of(nodes[0]).kernel.kernelParams[2], 5);

    /* Argument checks. */
    assert_int_equal(recapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL, NULL, NULL, NULL),
                     CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(recapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL, (CUgraph)&log, NULL, NULL),
                     CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(recapture(s, (CUstreamCaptureMode)7, g, NULL, NULL),
                     CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(recapture(NULL, CU_STREAM_CAPTURE_MODE_GLOBAL, g, NULL, NULL),
                     CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
    CUstream other = new_stream();
    assert_int_equal(recapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL, g, NULL, NULL), CUDA_SUCCESS);
    assert_int_equal(recapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL, g, NULL, NULL),
                     CUDA_ERROR_INVALID_VALUE);             /* g is being filled already */
    assert_int_equal(recapture(other, CU_STREAM_CAPTURE_MODE_GLOBAL, g, NULL, NULL),
                     CUDA_ERROR_INVALID_VALUE);
    capture_body(s, 5, 1);
    assert_int_equal(D(cuStreamEndCapture)(s, &out), CUDA_SUCCESS);
    assert_int_equal(D(cuGraphExecDestroy)(x), CUDA_SUCCESS);
    assert_int_equal(D(cuGraphDestroy)(g), CUDA_SUCCESS);
    assert_int_equal(D(cuStreamDestroy)(other), CUDA_SUCCESS);
    assert_int_equal(D(cuStreamDestroy)(s), CUDA_SUCCESS);
}

/* alloc, a kernel on the allocation, free. */
static void capture_memory(CUstream s, size_t bytes)
{
    CUdeviceptr p = 0;
    int n = 1;
    assert_int_equal(D(cuMemAllocAsync)(&p, bytes, s), CUDA_SUCCESS);
    void *args[] = {&p, &p, &n};
    assert_int_equal(D(cuLaunchKernel)(add_fn, 1, 1, 1, 1, 1, 1, 0, s, args, NULL),
                     CUDA_SUCCESS);
    assert_int_equal(D(cuMemFreeAsync)(p, s), CUDA_SUCCESS);
}

static void recapture_keeps_graph_allocations_and_refuses_other_sizes(void **state)
{
    (void)state;
    PFN_cuStreamBeginRecaptureToGraph_v13030 recapture = V(cuStreamBeginRecaptureToGraph, 13030);
    CUstream s = new_stream();
    CUgraph g = NULL, out = NULL;
    CUgraphNode nodes[3];
    size_t count = 3;
    seen log = { 0 };
    assert_int_equal(D(cuStreamBeginCapture)(s, CU_STREAM_CAPTURE_MODE_GLOBAL), CUDA_SUCCESS);
    capture_memory(s, 4096);
    assert_int_equal(D(cuStreamEndCapture)(s, &g), CUDA_SUCCESS);
    assert_int_equal(D(cuGraphGetNodes)(g, nodes, &count), CUDA_SUCCESS);
    CUdeviceptr was = params_of(nodes[0]).alloc.dptr;
    /* The same work again: the allocation keeps its address, so nothing changed. */
    assert_int_equal(recapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL, g, on_change, &log),
                     CUDA_SUCCESS);
    capture_memory(s, 4096);
    assert_int_equal(D(cuStreamEndCapture)(s, &out), CUDA_SUCCESS);
    assert_int_equal(log.calls, 0);
    assert_int_equal(params_of(nodes[0]).alloc.dptr, was);
    /* Another size: a memory node's parameters differ, which fails at once (cuda.h). */
    assert_int_equal(recapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL, g, on_change, &log),
                     CUDA_SUCCESS);
    capture_memory(s, 8192);
    assert_int_equal(D(cuStreamEndCapture)(s, &out), CUDA_ERROR_GRAPH_RECAPTURE_FAILURE);
    assert_int_equal(log.calls, 0);
    assert_int_equal(params_of(nodes[0]).alloc.bytesize, 4096);
    assert_int_equal(D(cuGraphDestroy)(g), CUDA_SUCCESS);
    assert_int_equal(D(cuStreamDestroy)(s), CUDA_SUCCESS);
}

/* ---- managed memory location ---------------------------------------------------------------- */

#define KIB ((size_t)1024)

static void location_info_reports_each_region_where_its_memory_is(void **state)
{
    (void)state;
    PFN_cuMemGetLocationInfo_v13040 info = V(cuMemGetLocationInfo, 13040);
    CUdeviceptr m = 0, plain = 0;
    CUmemLocation loc[5];
    const size_t size = 256 * KIB, region = 64 * KIB;
    assert_int_equal(D(cuMemAllocManaged)(&m, size, CU_MEM_ATTACH_GLOBAL), CUDA_SUCCESS);
    assert_int_equal(info(m, size, region, 0, loc), CUDA_SUCCESS);
    for (int i = 0; i < 4; i++) {
        assert_int_equal(loc[i].type, CU_MEM_LOCATION_TYPE_DEVICE);
        assert_int_equal(loc[i].id, 0);
    }
    /* A prefetch moves a region; a discard leaves one nowhere; a test's touch puts another. */
    CUmemLocation host = { CU_MEM_LOCATION_TYPE_HOST, 0 };
    assert_int_equal(D(cuMemPrefetchAsync)(m + region, region, host, 0, NULL), CUDA_SUCCESS);
    CUstream s = new_stream();
    CUdeviceptr third = m + 2 * region;
    size_t third_size = region;
    assert_int_equal(D(cuMemDiscardBatchAsync)(&third, &third_size, 1, 0, s), CUDA_SUCCESS);
    assert_int_equal(p_fake_set_residency(m + 3 * region, region, CU_MEM_LOCATION_TYPE_HOST_NUMA,
                                          0), 0);
    assert_int_equal(info(m, size, region, 4 * KIB, loc), CUDA_SUCCESS);
    assert_int_equal(loc[0].type, CU_MEM_LOCATION_TYPE_DEVICE);
    assert_int_equal(loc[1].type, CU_MEM_LOCATION_TYPE_HOST);
    assert_int_equal(loc[2].type, CU_MEM_LOCATION_TYPE_NONE);
    assert_int_equal(loc[3].type, CU_MEM_LOCATION_TYPE_HOST_NUMA);
    /* Each region answers its most common location; a region may be short (ceil). */
    assert_int_equal(D(cuMemPrefetchAsync)(m, 40 * KIB, host, 0, NULL), CUDA_SUCCESS);
    assert_int_equal(info(m, region, region, 4 * KIB, loc), CUDA_SUCCESS);
    assert_int_equal(loc[0].type, CU_MEM_LOCATION_TYPE_HOST);              /* 10 of 16 */
    assert_int_equal(info(m, 100 * KIB, region, 0, loc), CUDA_SUCCESS);
    assert_int_equal(loc[1].type, CU_MEM_LOCATION_TYPE_HOST);
    /* A whole-allocation prefetch paints it all. */
    CUmemLocation dev0 = { CU_MEM_LOCATION_TYPE_DEVICE, 0 };
    assert_int_equal(D(cuMemPrefetchAsync)(m, size, dev0, 0, s), CUDA_SUCCESS);
    assert_int_equal(info(m, size, size, 0, loc), CUDA_SUCCESS);
    assert_int_equal(loc[0].type, CU_MEM_LOCATION_TYPE_DEVICE);
    /* The granularity rules, and memory that is not managed. */
    assert_int_equal(info(m, size, 0, 0, loc), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(info(m, region, size, 0, loc), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(info(m, size, region, 2 * region, loc), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(info(m, size, region, 0, NULL), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(info(m + region, size, region, 0, loc), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(D(cuMemAlloc)(&plain, size), CUDA_SUCCESS);
    assert_int_equal(info(plain, size, region, 0, loc), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(p_fake_set_residency(plain, size, CU_MEM_LOCATION_TYPE_HOST, 0), -1);
    p_fake_fail_call("cuMemGetLocationInfo", 1, CUDA_ERROR_NOT_SUPPORTED);
    assert_int_equal(info(m, size, region, 0, loc), CUDA_ERROR_NOT_SUPPORTED);
    assert_int_equal(D(cuMemFree)(plain), CUDA_SUCCESS);
    assert_int_equal(D(cuMemFree)(m), CUDA_SUCCESS);
    assert_int_equal(D(cuStreamDestroy)(s), CUDA_SUCCESS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parameter_counts_come_from_the_kernels_tables),
        cmocka_unit_test(graph_ids_are_unique_and_local_ids_follow_creation_order),
        cmocka_unit_test(node_params_describe_each_kind_from_the_node),
        cmocka_unit_test(add_node_13040_takes_the_135_members),
        cmocka_unit_test(host_func_v2_runs_in_both_modes_and_captures_its_mode),
        cmocka_unit_test(copies_with_attributes_act_like_one_batch_element),
        cmocka_unit_test(recapture_updates_parameters_and_keeps_the_nodes),
        cmocka_unit_test(recapture_keeps_graph_allocations_and_refuses_other_sizes),
        cmocka_unit_test(location_info_reports_each_region_where_its_memory_is),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
