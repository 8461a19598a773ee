// conf_graph_nodes.cu - CUDA graph nodes under both runtimes, beyond conf_graphs.cu:
//   - cudaGraphAddNode for kernel (cudaKernelNodeParamsV2, host-stub func), memcpy, memset,
//     host, child graph (clone ownership), empty, event record, event wait and conditional
//     nodes, with and without cudaGraphEdgeData; cudaGraphNodeSetParams and
//     cudaGraphExecNodeSetParams; the typed getters/setters of memset, host and child nodes
//     and their cudaGraphExec*SetParams (cudaGraphExecChildGraphNodeSetParams);
//   - conditional nodes: cudaGraphConditionalHandleCreate, a WHILE node whose body kernel counts
//     down and calls cudaGraphSetConditional, an IF node with then/else bodies taken by the
//     default value (cudaGraphCondAssignDefault) or by a kernel;
//   - event record / wait nodes and their Get/Set/Exec setters; the recorded event completes;
//   - kernel node attributes (priority, cooperative, cluster dimension, access policy window),
//     cudaGraphKernelNodeCopyAttributes;
//   - topology: cudaGraphGetEdges (with and without edge data, cudaErrorLossyQuery),
//     GetDependencies / GetDependentNodes, RemoveDependencies, DestroyNode, NodeGetType,
//     NodeFindInClone, NodeSetEnabled / GetEnabled, cudaGraphExecGetFlags;
//   - user objects: create, retain / release, graph retain (copy and move) / release; the
//     destructor runs once, asynchronously, when the last reference goes.
// Memory nodes, memcpy variants, graph memory attributes and a capture that inspects its own
// graph: conf_graph_memory.cu.
// Only results, counts, booleans (handle equals X) and error codes are printed.
#include "graph_conf.h"

#include <atomic>
#include <unistd.h>

__global__ void add(int *p, int n, int v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] += v;
}

// Spins about `cycles` clock cycles, then fills: work that an event wait must really wait for.
__global__ void slow_fill(int *p, int n, int v, long long cycles)
{
    long long start = clock64();
    while (clock64() - start < cycles) {
    }
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = v;
}

// The body of a WHILE node: one iteration, until the counter reaches 0.
__global__ void countdown(int *counter, int *iterations, cudaGraphConditionalHandle h)
{
    ++*iterations;
    if (--*counter <= 0)
        cudaGraphSetConditional(h, 0);
}

// Sets the condition from *flag, or leaves the default when *flag < 0.
__global__ void set_condition(cudaGraphConditionalHandle h, const int *flag)
{
    if (*flag >= 0)
        cudaGraphSetConditional(h, (unsigned)*flag);
}

static int read_int(const int *d)
{
    int v = 0;
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(&v, d, sizeof v, cudaMemcpyDeviceToHost));
    return v;
}

static cudaGraphNodeParams params_of(cudaGraphNodeType type)
{
    cudaGraphNodeParams p = {};
    memset(&p, 0, sizeof p);
    p.type = type;
    return p;
}

// A kernel node's parameters, for cudaGraphAddNode; args must outlive the call.
static cudaGraphNodeParams kernel_of(const void *func, void **args)
{
    cudaGraphNodeParams p = params_of(cudaGraphNodeTypeKernel);
    p.kernel.func = (void *)func;
    p.kernel.gridDim = dim3(GRID);
    p.kernel.blockDim = dim3(128);
    p.kernel.kernelParams = args;
    return p;
}

static cudaKernelNodeParams legacy_kernel(const void *func, void **args, unsigned grid)
{
    cudaKernelNodeParams kp;
    memset(&kp, 0, sizeof kp);
    kp.func = (void *)func;
    kp.gridDim = dim3(grid);
    kp.blockDim = dim3(grid == 1 ? 1 : 128);
    kp.kernelParams = args;
    return kp;
}

static int host_a_calls, host_b_calls;
static void CUDART_CB host_a(void *user) { host_a_calls += *(int *)user; }
static void CUDART_CB host_b(void *user) { host_b_calls += *(int *)user; }

// ---- every node type through cudaGraphAddNode, then the generic and typed setters ----
static void generic_nodes(void)
{
    int *x, *y, n = N, two = 2, five = 5, four = 4, ten = 10, twenty = 20, one = 1;
    CHECK(cudaMalloc((void **)&x, N * sizeof(int)));
    CHECK(cudaMalloc((void **)&y, N * sizeof(int)));
    cudaEvent_t rec, waited, rec2;
    CHECK(cudaEventCreate(&rec));
    CHECK(cudaEventCreate(&rec2));
    CHECK(cudaEventCreate(&waited));
    CHECK(cudaEventRecord(waited, 0));

    // child: y += 10 (one kernel node)
    cudaGraph_t child, child2;
    cudaGraphNode_t cn;
    void *child_args[] = {&y, &n, &ten};
    cudaGraphNodeParams p = kernel_of((const void *)add, child_args);
    CHECK(cudaGraphCreate(&child, 0));
    CHECK(cudaGraphAddNode(&cn, child, NULL, NULL, 0, &p));

    // wait(waited) -> memset x = 1 -> kernel x += 2 -> memcpy y = x -> host a, child y += 10
    //   -> empty -> record(rec)
    cudaGraph_t g;
    cudaGraphNode_t wait, set, kern, copy, host, sub, join, record;
    CHECK(cudaGraphCreate(&g, 0));
    p = params_of(cudaGraphNodeTypeWaitEvent);
    p.eventWait.event = waited;
    CHECK(cudaGraphAddNode(&wait, g, NULL, NULL, 0, &p));
    p = params_of(cudaGraphNodeTypeMemset);
    p.memset.dst = x;
    p.memset.value = 1;
    p.memset.elementSize = 4;
    p.memset.width = N;
    p.memset.height = 1;
    CHECK(cudaGraphAddNode(&set, g, &wait, NULL, 1, &p));
    void *add_args[] = {&x, &n, &two};
    p = kernel_of((const void *)add, add_args);
    cudaGraphEdgeData edge;
    memset(&edge, 0, sizeof edge);
    CHECK(cudaGraphAddNode(&kern, g, &set, &edge, 1, &p));   // with (default) edge data
    p = params_of(cudaGraphNodeTypeMemcpy);
    p.memcpy.copyParams.srcPtr = make_cudaPitchedPtr(x, N * sizeof(int), N * sizeof(int), 1);
    p.memcpy.copyParams.dstPtr = make_cudaPitchedPtr(y, N * sizeof(int), N * sizeof(int), 1);
    p.memcpy.copyParams.extent = make_cudaExtent(N * sizeof(int), 1, 1);
    p.memcpy.copyParams.kind = cudaMemcpyDeviceToDevice;
    CHECK(cudaGraphAddNode(&copy, g, &kern, NULL, 1, &p));
    p = params_of(cudaGraphNodeTypeHost);
    p.host.fn = host_a;
    p.host.userData = &one;
    CHECK(cudaGraphAddNode(&host, g, &copy, NULL, 1, &p));
    p = params_of(cudaGraphNodeTypeGraph);
    p.graph.graph = child;
    p.graph.ownership = cudaGraphChildGraphOwnershipClone;
    CHECK(cudaGraphAddNode(&sub, g, &copy, NULL, 1, &p));
    p = params_of(cudaGraphNodeTypeEmpty);
    cudaGraphNode_t ends[2] = {host, sub};
    cudaGraphEdgeData edges[2];
    memset(edges, 0, sizeof edges);
    CHECK(cudaGraphAddNode(&join, g, ends, edges, 2, &p));
    p = params_of(cudaGraphNodeTypeEventRecord);
    p.eventRecord.event = rec;
    CHECK(cudaGraphAddNode(&record, g, &join, NULL, 1, &p));
    print_types("generic graph", g, cudaGraphNodeTypeCount);
    printf("generic graph: %zu edges\n", edge_count(g));
    cudaGraphNode_t all[8] = {wait, set, kern, copy, host, sub, join, record};
    for (int i = 0; i < 8; i++)
        printf("node %d type %d %s\n", i, (int)type_of(all[i]), type_name(type_of(all[i])));

    // Child node: its graph is a clone (not the one given), with the one kernel node.
    cudaGraph_t inner = NULL;
    CHECK(cudaGraphChildGraphNodeGetGraph(sub, &inner));
    printf("child node graph: %zu nodes, is the graph given %d\n", node_count(inner),
           inner == child);

    cudaGraphExec_t exec, exec2;
    CHECK(cudaGraphInstantiate(&exec, g, 0));
    cudaEvent_t before;
    CHECK(cudaEventCreate(&before));
    CHECK(cudaEventRecord(before, 0));
    CHECK(cudaGraphLaunch(exec, 0));
    CHECK(cudaEventSynchronize(rec));
    float ms = 0;
    probe("recorded event: query", cudaEventQuery(rec));
    probe("recorded event: elapsed time from before the launch",
          cudaEventElapsedTime(&ms, before, rec));
    expect_all("generic graph launch 1: x", x, 3);
    expect_all("generic graph launch 1: y", y, 13);

    // Typed getters on nodes made by cudaGraphAddNode.
    cudaMemsetParams mp;
    memset(&mp, 0, sizeof mp);
    CHECK(cudaGraphMemsetNodeGetParams(set, &mp));
    printf("memset node: dst is x %d, value %u, element %u, width %zu, height %zu\n", mp.dst == x,
           mp.value, mp.elementSize, mp.width, mp.height);
    cudaHostNodeParams hp = {NULL, NULL};
    CHECK(cudaGraphHostNodeGetParams(host, &hp));
    printf("host node: fn is host_a %d, user data is &one %d\n", hp.fn == host_a,
           hp.userData == &one);
    cudaEvent_t got = NULL;
    CHECK(cudaGraphEventWaitNodeGetEvent(wait, &got));
    printf("wait node: event is the one given %d\n", got == waited);
    CHECK(cudaGraphEventRecordNodeGetEvent(record, &got));
    printf("record node: event is the one given %d\n", got == rec);

    // The graph's nodes change; the executable does not (launch 2: same results).
    void *add5_args[] = {&x, &n, &five};
    p = kernel_of((const void *)add, add5_args);
    CHECK(cudaGraphNodeSetParams(kern, &p));
    p = params_of(cudaGraphNodeTypeMemset);
    p.memset.dst = x;
    p.memset.value = 2;
    p.memset.elementSize = 4;
    p.memset.width = N;
    p.memset.height = 1;
    CHECK(cudaGraphNodeSetParams(set, &p));
    p = params_of(cudaGraphNodeTypeHost);
    p.host.fn = host_b;
    p.host.userData = &one;
    CHECK(cudaGraphNodeSetParams(host, &p));
    CHECK(cudaGraphLaunch(exec, 0));
    expect_all("after graph set params, old exec: x", x, 3);
    CHECK(cudaGraphInstantiate(&exec2, g, 0));
    CHECK(cudaGraphLaunch(exec2, 0));
    expect_all("new exec from changed graph: x", x, 7);
    expect_all("new exec from changed graph: y", y, 17);
    CHECK(cudaGraphHostNodeGetParams(host, &hp));
    printf("host node after set params: fn is host_b %d\n", hp.fn == host_b);

    // Exec-only changes: kernel adds 4, host calls host_b, child adds 20 (same topology).
    void *add4_args[] = {&x, &n, &four};
    p = kernel_of((const void *)add, add4_args);
    CHECK(cudaGraphExecNodeSetParams(exec, kern, &p));
    p = params_of(cudaGraphNodeTypeHost);
    p.host.fn = host_b;
    p.host.userData = &one;
    CHECK(cudaGraphExecNodeSetParams(exec, host, &p));
    void *child2_args[] = {&y, &n, &twenty};
    p = kernel_of((const void *)add, child2_args);
    CHECK(cudaGraphCreate(&child2, 0));
    CHECK(cudaGraphAddNode(&cn, child2, NULL, NULL, 0, &p));
    probe("cudaGraphExecChildGraphNodeSetParams", cudaGraphExecChildGraphNodeSetParams(exec, sub,
                                                                                     child2));
    CHECK(cudaGraphExecEventRecordNodeSetEvent(exec, record, rec2));
    CHECK(cudaGraphLaunch(exec, 0));
    CHECK(cudaEventSynchronize(rec2));
    probe("exec record node set event: elapsed time to new event",
          cudaEventElapsedTime(&ms, before, rec2));
    expect_all("exec set params launch: x", x, 5);
    expect_all("exec set params launch: y", y, 25);

    // Typed setters: memset value 9 in the graph, 6 in the exec; host_a back in the exec.
    mp.value = 9;
    CHECK(cudaGraphMemsetNodeSetParams(set, &mp));
    CHECK(cudaGraphMemsetNodeGetParams(set, &mp));
    printf("memset node after set params: value %u\n", mp.value);
    mp.value = 6;
    CHECK(cudaGraphExecMemsetNodeSetParams(exec, set, &mp));
    hp.fn = host_a;
    hp.userData = &one;
    CHECK(cudaGraphExecHostNodeSetParams(exec, host, &hp));
    hp.fn = host_a;
    CHECK(cudaGraphHostNodeSetParams(host, &hp));
    CHECK(cudaGraphLaunch(exec, 0));
    expect_all("exec memset 6 + 4: x", x, 10);
    expect_all("exec memset 6 + 4 + child 20: y", y, 30);
    printf("host calls: host_a %d, host_b %d\n", host_a_calls, host_b_calls);
    ok &= host_a_calls == 3 && host_b_calls == 2;

    CHECK(cudaGraphExecDestroy(exec2));
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaGraphDestroy(child));
    CHECK(cudaGraphDestroy(child2));
    CHECK(cudaEventDestroy(before));
    CHECK(cudaEventDestroy(rec));
    CHECK(cudaEventDestroy(rec2));
    CHECK(cudaEventDestroy(waited));
    CHECK(cudaFree(x));
    CHECK(cudaFree(y));
}

// ---- event record / wait nodes across streams ----
static void event_nodes(void)
{
    int *x, n = N, one = 1;
    CHECK(cudaMalloc((void **)&x, N * sizeof(int)));
    cudaStream_t s1, s2;
    CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    cudaEvent_t e1, e2, other;
    CHECK(cudaEventCreate(&e1));
    CHECK(cudaEventCreate(&e2));
    CHECK(cudaEventCreate(&other));

    // Graph: wait(e1) -> x += 1 -> record(other).  Set events afterwards and check them.
    cudaGraph_t g;
    cudaGraphNode_t wait, kern, record;
    CHECK(cudaGraphCreate(&g, 0));
    CHECK(cudaGraphAddEventWaitNode(&wait, g, NULL, 0, other));
    void *args[] = {&x, &n, &one};
    cudaKernelNodeParams kp = legacy_kernel((const void *)add, args, GRID);
    CHECK(cudaGraphAddKernelNode(&kern, g, &wait, 1, &kp));
    CHECK(cudaGraphAddEventRecordNode(&record, g, &kern, 1, other));
    CHECK(cudaGraphEventWaitNodeSetEvent(wait, e1));
    CHECK(cudaGraphEventRecordNodeSetEvent(record, e2));
    cudaEvent_t got = NULL;
    CHECK(cudaGraphEventWaitNodeGetEvent(wait, &got));
    printf("wait node after set: event is e1 %d\n", got == e1);
    CHECK(cudaGraphEventRecordNodeGetEvent(record, &got));
    printf("record node after set: event is e2 %d\n", got == e2);
    printf("wait node type %d, record node type %d\n", (int)type_of(wait), (int)type_of(record));

    cudaGraphExec_t exec;
    CHECK(cudaGraphInstantiate(&exec, g, 0));
    for (int round = 1; round <= 2; round++) {
        // s2 fills x = 100 slowly, then records e1; the graph on s1 must wait for it.
        slow_fill<<<GRID, 128, 0, s2>>>(x, n, 100, 20000000LL);
        CHECK(cudaEventRecord(e1, s2));
        CHECK(cudaGraphLaunch(exec, s1));
        CHECK(cudaStreamSynchronize(s1));
        probe("recorded e2: query after the graph's stream", cudaEventQuery(e2));
        expect_all(round == 1 ? "wait node waited (launch 1)" : "wait node waited (launch 2)",
                   x, 101);
    }
    // Exec: wait on e2 instead (recorded by s2 now), record into other.
    CHECK(cudaGraphExecEventWaitNodeSetEvent(exec, wait, e2));
    CHECK(cudaGraphExecEventRecordNodeSetEvent(exec, record, other));
    slow_fill<<<GRID, 128, 0, s2>>>(x, n, 200, 20000000LL);
    CHECK(cudaEventRecord(e2, s2));
    CHECK(cudaGraphLaunch(exec, s1));
    probe("exec-set record event: synchronize", cudaEventSynchronize(other));
    expect_all("exec wait node set event: waited", x, 201);
    CHECK(cudaGraphEventWaitNodeGetEvent(wait, &got));
    printf("graph wait node unchanged by exec set: event is e1 %d\n", got == e1);

    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaEventDestroy(e1));
    CHECK(cudaEventDestroy(e2));
    CHECK(cudaEventDestroy(other));
    CHECK(cudaStreamDestroy(s1));
    CHECK(cudaStreamDestroy(s2));
    CHECK(cudaFree(x));
}

// ---- conditional nodes ----
static void conditional_nodes(void)
{
    int *counter, *iterations, *x, *flag, n = N, ten = 10, hundred = 100;
    CHECK(cudaMalloc((void **)&counter, sizeof(int)));
    CHECK(cudaMalloc((void **)&iterations, sizeof(int)));
    CHECK(cudaMalloc((void **)&flag, sizeof(int)));
    CHECK(cudaMalloc((void **)&x, N * sizeof(int)));
    CHECK(cudaMemset(iterations, 0, sizeof(int)));
    CHECK(cudaMemset(x, 0, N * sizeof(int)));

    // WHILE: memset counter = 5 -> while (cond) { countdown }, cond starts at 1.
    cudaGraph_t g;
    cudaGraphConditionalHandle h;
    cudaGraphNode_t set, loop, body_kernel;
    CHECK(cudaGraphCreate(&g, 0));
    CHECK(cudaGraphConditionalHandleCreate(&h, g, 1, cudaGraphCondAssignDefault));
    cudaMemsetParams mp;
    memset(&mp, 0, sizeof mp);
    mp.dst = counter;
    mp.value = 5;
    mp.elementSize = 4;
    mp.width = 1;
    mp.height = 1;
    CHECK(cudaGraphAddMemsetNode(&set, g, NULL, 0, &mp));
    cudaGraphNodeParams p = params_of(cudaGraphNodeTypeConditional);
    p.conditional.handle = h;
    p.conditional.type = cudaGraphCondTypeWhile;
    p.conditional.size = 1;
    CHECK(cudaGraphAddNode(&loop, g, &set, NULL, 1, &p));
    cudaGraph_t body = p.conditional.phGraph_out[0];
    void *args[] = {&counter, &iterations, &h};
    cudaKernelNodeParams kp = legacy_kernel((const void *)countdown, args, 1);
    CHECK(cudaGraphAddKernelNode(&body_kernel, body, NULL, 0, &kp));
    printf("while node: type %d, body nodes %zu\n", (int)type_of(loop), node_count(body));
    cudaGraphExec_t exec;
    CHECK(cudaGraphInstantiate(&exec, g, 0));
    for (int round = 1; round <= 2; round++) {
        CHECK(cudaGraphLaunch(exec, 0));
        int c = read_int(counter), it = read_int(iterations);
        printf("while launch %d: counter %d, body ran %d times in all\n", round, c, it);
        ok &= c == 0 && it == 5 * round;
    }
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(g));

    // IF/ELSE: set_condition(flag) -> if (cond) x += 10 else x += 100; default 1.
    cudaGraph_t g2;
    cudaGraphConditionalHandle h2;
    cudaGraphNode_t setter, branch, then_k, else_k;
    CHECK(cudaGraphCreate(&g2, 0));
    CHECK(cudaGraphConditionalHandleCreate(&h2, g2, 1, cudaGraphCondAssignDefault));
    void *set_args[] = {&h2, &flag};
    kp = legacy_kernel((const void *)set_condition, set_args, 1);
    CHECK(cudaGraphAddKernelNode(&setter, g2, NULL, 0, &kp));
    p = params_of(cudaGraphNodeTypeConditional);
    p.conditional.handle = h2;
    p.conditional.type = cudaGraphCondTypeIf;
    p.conditional.size = 2;
    CHECK(cudaGraphAddNode(&branch, g2, &setter, NULL, 1, &p));
    cudaGraph_t then_g = p.conditional.phGraph_out[0], else_g = p.conditional.phGraph_out[1];
    void *then_args[] = {&x, &n, &ten}, *else_args[] = {&x, &n, &hundred};
    kp = legacy_kernel((const void *)add, then_args, GRID);
    CHECK(cudaGraphAddKernelNode(&then_k, then_g, NULL, 0, &kp));
    kp = legacy_kernel((const void *)add, else_args, GRID);
    CHECK(cudaGraphAddKernelNode(&else_k, else_g, NULL, 0, &kp));
    printf("if node: type %d, then nodes %zu, else nodes %zu\n", (int)type_of(branch),
           node_count(then_g), node_count(else_g));
    CHECK(cudaGraphInstantiate(&exec, g2, 0));
    const int flags[4] = {-1, 0, 1, -1};   // default (then), else, then, default (then)
    int want = 0;
    for (int round = 0; round < 4; round++) {
        CHECK(cudaMemcpy(flag, &flags[round], sizeof(int), cudaMemcpyHostToDevice));
        CHECK(cudaGraphLaunch(exec, 0));
        want += flags[round] == 0 ? 100 : 10;
        char what[64];
        snprintf(what, sizeof what, "if node, flag %d", flags[round]);
        expect_all(what, x, want);
    }
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(g2));
    CHECK(cudaFree(counter));
    CHECK(cudaFree(iterations));
    CHECK(cudaFree(flag));
    CHECK(cudaFree(x));
}

// ---- kernel node attributes ----
static void attributes(void)
{
    int *x, n = N, one = 1;
    CHECK(cudaMalloc((void **)&x, N * sizeof(int)));
    CHECK(cudaMemset(x, 0, N * sizeof(int)));
    cudaGraph_t g;
    cudaGraphNode_t a, b, c;
    void *args[] = {&x, &n, &one};
    cudaKernelNodeParams kp = legacy_kernel((const void *)add, args, GRID);
    CHECK(cudaGraphCreate(&g, 0));
    CHECK(cudaGraphAddKernelNode(&a, g, NULL, 0, &kp));
    CHECK(cudaGraphAddKernelNode(&b, g, &a, 1, &kp));
    CHECK(cudaGraphAddKernelNode(&c, g, &b, 1, &kp));

    int least = 0, greatest = 0;
    CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    cudaKernelNodeAttrValue v;
    memset(&v, 0, sizeof v);
    v.priority = greatest;
    probe("set priority (greatest)",
          cudaGraphKernelNodeSetAttribute(a, cudaLaunchAttributePriority, &v));
    memset(&v, 0, sizeof v);
    v.cooperative = 1;
    probe("set cooperative 1",
          cudaGraphKernelNodeSetAttribute(a, cudaLaunchAttributeCooperative, &v));
    memset(&v, 0, sizeof v);
    v.accessPolicyWindow.base_ptr = x;
    v.accessPolicyWindow.num_bytes = N * sizeof(int);
    v.accessPolicyWindow.hitRatio = 0.5f;
    v.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
    v.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
    probe("set access policy window",
          cudaGraphKernelNodeSetAttribute(a, cudaLaunchAttributeAccessPolicyWindow, &v));
    memset(&v, 0, sizeof v);
    v.clusterDim.x = 2;
    v.clusterDim.y = 1;
    v.clusterDim.z = 1;
    probe("set cluster dimension 2x1x1 on node b",
          cudaGraphKernelNodeSetAttribute(b, cudaLaunchAttributeClusterDimension, &v));

    memset(&v, 0, sizeof v);
    CHECK(cudaGraphKernelNodeGetAttribute(a, cudaLaunchAttributePriority, &v));
    printf("a: priority is the greatest %d\n", v.priority == greatest);
    memset(&v, 0, sizeof v);
    CHECK(cudaGraphKernelNodeGetAttribute(a, cudaLaunchAttributeCooperative, &v));
    printf("a: cooperative %d\n", v.cooperative);
    memset(&v, 0, sizeof v);
    CHECK(cudaGraphKernelNodeGetAttribute(a, cudaLaunchAttributeAccessPolicyWindow, &v));
    printf("a: window base is x %d, bytes %zu, hit ratio %.2f, hit %d, miss %d\n",
           v.accessPolicyWindow.base_ptr == x, v.accessPolicyWindow.num_bytes,
           v.accessPolicyWindow.hitRatio, (int)v.accessPolicyWindow.hitProp,
           (int)v.accessPolicyWindow.missProp);
    memset(&v, 0, sizeof v);
    CHECK(cudaGraphKernelNodeGetAttribute(b, cudaLaunchAttributeClusterDimension, &v));
    printf("b: cluster %ux%ux%u\n", v.clusterDim.x, v.clusterDim.y, v.clusterDim.z);
    memset(&v, 0, sizeof v);
    CHECK(cudaGraphKernelNodeGetAttribute(c, cudaLaunchAttributeCooperative, &v));
    printf("c before copy: cooperative %d\n", v.cooperative);

    probe("cudaGraphKernelNodeCopyAttributes(c <- a)", cudaGraphKernelNodeCopyAttributes(c, a));
    memset(&v, 0, sizeof v);
    CHECK(cudaGraphKernelNodeGetAttribute(c, cudaLaunchAttributeCooperative, &v));
    printf("c after copy: cooperative %d\n", v.cooperative);
    memset(&v, 0, sizeof v);
    CHECK(cudaGraphKernelNodeGetAttribute(c, cudaLaunchAttributePriority, &v));
    printf("c after copy: priority is the greatest %d\n", v.priority == greatest);
    memset(&v, 0, sizeof v);
    CHECK(cudaGraphKernelNodeGetAttribute(c, cudaLaunchAttributeAccessPolicyWindow, &v));
    printf("c after copy: window bytes %zu\n", v.accessPolicyWindow.num_bytes);

    cudaGraphExec_t exec;
    CHECK(cudaGraphInstantiate(&exec, g, 0));
    CHECK(cudaGraphLaunch(exec, 0));
    expect_all("three kernels with attributes ran", x, 3);
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaFree(x));
}

// ---- topology, clones, enabling, flags ----
static void topology(void)
{
    int *x, n = N, one = 1;
    CHECK(cudaMalloc((void **)&x, N * sizeof(int)));
    CHECK(cudaMemset(x, 0, N * sizeof(int)));
    // a -> b, a -> c, b -> d, c -> d; a, b, d kernels (x += 1 each), c empty.
    cudaGraph_t g;
    cudaGraphNode_t a, b, c, d;
    void *args[] = {&x, &n, &one};
    cudaKernelNodeParams kp = legacy_kernel((const void *)add, args, GRID);
    CHECK(cudaGraphCreate(&g, 0));
    CHECK(cudaGraphAddKernelNode(&a, g, NULL, 0, &kp));
    CHECK(cudaGraphAddKernelNode(&b, g, &a, 1, &kp));
    CHECK(cudaGraphAddEmptyNode(&c, g, &a, 1));
    cudaGraphNode_t bc[2] = {b, c};
    CHECK(cudaGraphAddKernelNode(&d, g, bc, 2, &kp));

    size_t ne = edge_count(g);
    cudaGraphNode_t from[8], to[8];
    cudaGraphEdgeData data[8];
    memset(data, 0xff, sizeof data);
    CHECK(cudaGraphGetEdges(g, from, to, data, &ne));
    bool want[4] = {false, false, false, false}, zero_data = true;
    for (size_t i = 0; i < ne; i++) {
        want[0] |= from[i] == a && to[i] == b;
        want[1] |= from[i] == a && to[i] == c;
        want[2] |= from[i] == b && to[i] == d;
        want[3] |= from[i] == c && to[i] == d;
        zero_data &= data[i].from_port == 0 && data[i].to_port == 0 && data[i].type == 0;
    }
    printf("edges: %zu, a->b %d, a->c %d, b->d %d, c->d %d, edge data all default %d\n", ne,
           want[0], want[1], want[2], want[3], zero_data);
    size_t small = 2;
    probe("cudaGraphGetEdges(count 2 of 4)", cudaGraphGetEdges(g, from, to, NULL, &small));
    printf("  count after: %zu\n", small);

    cudaGraphNode_t list[8];
    size_t nl = 8;
    CHECK(cudaGraphNodeGetDependencies(d, list, NULL, &nl));
    printf("d depends on %zu: b %d, c %d\n", nl, contains(list, nl, b), contains(list, nl, c));
    nl = 8;
    CHECK(cudaGraphNodeGetDependentNodes(a, list, data, &nl));
    printf("a has %zu dependents: b %d, c %d\n", nl, contains(list, nl, b), contains(list, nl, c));
    nl = 0;
    CHECK(cudaGraphNodeGetDependentNodes(d, NULL, NULL, &nl));
    printf("d has %zu dependents\n", nl);

    // Clone before changing: node lookup in the clone.
    cudaGraph_t clone;
    cudaGraphNode_t in_clone = NULL;
    CHECK(cudaGraphClone(&clone, g));
    CHECK(cudaGraphNodeFindInClone(&in_clone, b, clone));
    nl = 8;
    CHECK(cudaGraphNodeGetDependencies(in_clone, list, NULL, &nl));
    printf("b in clone: other handle %d, type %d, %zu dependencies\n", in_clone != b,
           (int)type_of(in_clone), nl);
    cudaGraphNode_t none = NULL;
    probe("cudaGraphNodeFindInClone(node of the clone itself)",
          cudaGraphNodeFindInClone(&none, in_clone, clone));

    // A programmatic edge b -> e, and the lossy query without edge data.
    cudaGraphNode_t e;
    CHECK(cudaGraphAddKernelNode(&e, clone, NULL, 0, &kp));
    cudaGraphEdgeData prog;
    memset(&prog, 0, sizeof prog);
    prog.from_port = cudaGraphKernelNodePortProgrammatic;
    prog.type = cudaGraphDependencyTypeProgrammatic;
    probe("programmatic edge b -> e in clone",
          cudaGraphAddDependencies(clone, &in_clone, &e, &prog, 1));
    nl = 8;
    probe("cudaGraphNodeGetDependencies(e, no edge data)",
          cudaGraphNodeGetDependencies(e, list, NULL, &nl));
    nl = 8;
    memset(data, 0, sizeof data);
    CHECK(cudaGraphNodeGetDependencies(e, list, data, &nl));
    printf("e: %zu dependencies, from_port %d, to_port %d, type %d\n", nl, data[0].from_port,
           data[0].to_port, data[0].type);
    ne = 8;
    probe("cudaGraphGetEdges(clone, no edge data)", cudaGraphGetEdges(clone, from, to, NULL, &ne));
    CHECK(cudaGraphDestroy(clone));

    // Remove a -> c, then destroy c (and its c -> d).
    probe("cudaGraphRemoveDependencies(a -> c)", cudaGraphRemoveDependencies(g, &a, &c, NULL, 1));
    printf("after remove: %zu edges\n", edge_count(g));
    CHECK(cudaGraphDestroyNode(c));
    nl = 8;
    CHECK(cudaGraphNodeGetDependencies(d, list, NULL, &nl));
    printf("after destroying c: %zu nodes, %zu edges, d depends on %zu (b %d)\n",
           node_count(g), edge_count(g), nl, contains(list, nl, b));

    // Enable / disable b: 3 kernels add 3, without b 2.
    cudaGraphExec_t exec, auto_exec;
    unsigned long long flags = 99;
    CHECK(cudaGraphInstantiate(&exec, g, 0));
    CHECK(cudaGraphExecGetFlags(exec, &flags));
    printf("exec flags (instantiated with 0): %llu\n", flags);
    CHECK(cudaGraphInstantiate(&auto_exec, g, cudaGraphInstantiateFlagAutoFreeOnLaunch));
    CHECK(cudaGraphExecGetFlags(auto_exec, &flags));
    printf("exec flags (auto free on launch): %llu\n", flags);
    CHECK(cudaGraphExecDestroy(auto_exec));
    unsigned enabled = 99;
    CHECK(cudaGraphNodeGetEnabled(exec, b, &enabled));
    printf("b enabled: %u\n", enabled);
    CHECK(cudaGraphLaunch(exec, 0));
    expect_all("all enabled", x, 3);
    CHECK(cudaGraphNodeSetEnabled(exec, b, 0));
    CHECK(cudaGraphNodeGetEnabled(exec, b, &enabled));
    printf("b enabled after disable: %u\n", enabled);
    CHECK(cudaGraphLaunch(exec, 0));
    expect_all("b disabled", x, 5);
    CHECK(cudaGraphNodeSetEnabled(exec, b, 1));
    CHECK(cudaGraphNodeGetEnabled(exec, b, &enabled));
    printf("b enabled after enable: %u\n", enabled);
    CHECK(cudaGraphLaunch(exec, 0));
    expect_all("b enabled again", x, 8);
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaFree(x));
}

// ---- user objects ----
static std::atomic<int> destroyed_a{0}, destroyed_b{0};
static void CUDART_CB destroy_object(void *counter) { ++*(std::atomic<int> *)counter; }

// Destructors run on another thread, later: wait up to 5 s for the count to reach `want`.
static int wait_for(std::atomic<int> &counter, int want)
{
    for (int i = 0; i < 500 && counter.load() < want; i++) {
        CHECK(cudaDeviceSynchronize());
        usleep(10000);
    }
    return counter.load();
}

static void user_objects(void)
{
    // a: one reference moved into a graph; the exec keeps it alive after cudaGraphDestroy.
    cudaUserObject_t a, b;
    CHECK(cudaUserObjectCreate(&a, &destroyed_a, destroy_object, 1,
                               cudaUserObjectNoDestructorSync));
    cudaGraph_t g;
    cudaGraphNode_t empty;
    CHECK(cudaGraphCreate(&g, 0));
    CHECK(cudaGraphAddEmptyNode(&empty, g, NULL, 0));
    CHECK(cudaGraphRetainUserObject(g, a, 1, cudaGraphUserObjectMove));
    cudaGraphExec_t exec;
    CHECK(cudaGraphInstantiate(&exec, g, 0));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaGraphLaunch(exec, 0));
    CHECK(cudaDeviceSynchronize());
    usleep(50000);
    printf("user object a after cudaGraphDestroy (exec alive): destroyed %d\n",
           destroyed_a.load());
    CHECK(cudaGraphExecDestroy(exec));
    int got = wait_for(destroyed_a, 1);
    printf("user object a after cudaGraphExecDestroy: destroyed %d\n", got);
    ok &= got == 1;

    // b: 2 initial references, +2 retained, +1 copied into a graph; released step by step.
    CHECK(cudaUserObjectCreate(&b, &destroyed_b, destroy_object, 2,
                               cudaUserObjectNoDestructorSync));
    CHECK(cudaUserObjectRetain(b, 2));
    CHECK(cudaGraphCreate(&g, 0));
    CHECK(cudaGraphRetainUserObject(g, b, 3, 0));
    CHECK(cudaGraphReleaseUserObject(g, b, 2));
    CHECK(cudaUserObjectRelease(b, 3));
    CHECK(cudaUserObjectRelease(b, 1));
    CHECK(cudaDeviceSynchronize());
    usleep(50000);
    printf("user object b with only the graph's reference: destroyed %d\n", destroyed_b.load());
    CHECK(cudaGraphReleaseUserObject(g, b, 1));
    got = wait_for(destroyed_b, 1);
    printf("user object b after the graph released it: destroyed %d\n", got);
    ok &= got == 1;
    CHECK(cudaGraphDestroy(g));
    usleep(50000);
    printf("destructor calls in all: a %d, b %d\n", destroyed_a.load(), destroyed_b.load());
}

int main(void)
{
    gpu_require("conf_graph_nodes");
    generic_nodes();
    event_nodes();
    conditional_nodes();
    attributes();
    topology();
    user_objects();
    printf("last error at the end: " ERR_FMT "\n", ERR_ARGS(cudaGetLastError()));
    printf("conf_graph_nodes: %s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
