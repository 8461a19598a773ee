// misuse_graph_nodes.h - the fixtures and helpers that conf_misuse_graph_nodes.cu and
// conf_misuse_graph_params.cu share: invalid inputs to the graph node functions that
// conf_misuse_graph.cu does not cover (the runner and the line format: misuse.h).
// Fixtures, made at every start: graph g with one node of each kind that needs no allocation
// (empty, kernel after it, memset, host, memcpy, child, event record, event wait), its executable
// exec, graph g2 (one empty node), event ev and device memory d.  A case that could change a
// fixture works on its own copy instead: a clone of g (own(node) returns the node's copy in it)
// or an executable of its own (own_exec()), which its cleanup destroys.
#ifndef MINICUDART_GPU_MISUSE_GRAPH_NODES_H
#define MINICUDART_GPU_MISUSE_GRAPH_NODES_H

#include "misuse.h"

__global__ void k_params(int *p, int v)
{
    if (p)
        *p = v;
}

__device__ int sym[16];   // 64 bytes

static const void *const K = (const void *)k_params;
static int *null_pointer = NULL;
static int one = 1;
static void *args[] = {&null_pointer, &one};

static cudaGraph_t g, g2;
static cudaGraphNode_t empty, knode, mnode, hnode, cnode, childnode, rnode, wnode, other_empty;
static cudaGraphExec_t exec;
static cudaEvent_t ev;
static char *d;

// What a case made, for its cleanup.
static cudaGraph_t made_graph, made_graph2;
static cudaGraphExec_t made_exec;
static cudaUserObject_t made_object;
static unsigned object_refs;   // references to made_object the program still owns

static cudaGraphNode_t out_node;
static cudaGraph_t out_graph;
static cudaEvent_t out_event;
static cudaGraphNodeType out_type;
static cudaGraphNode_t nodes[16], nodes2[16];
static cudaGraphEdgeData edge_data[16];
static size_t n;
static cudaGraphNodeParams gp = {};
static cudaMemAllocNodeParams ap;
static cudaMemcpy3DParms p3;
static cudaMemsetParams mp;
static cudaHostNodeParams hp;
static cudaKernelNodeAttrValue av;
static cudaGraphConditionalHandle handle;
static unsigned long long value64;
static unsigned enabled;
static void *out_ptr;

static inline void CUDART_CB host_fn(void *) {}
static inline void CUDART_CB object_destroyed(void *) {}

static inline void setup(void)
{
    CHECK(cudaMalloc((void **)&d, 4096));
    CHECK(cudaEventCreate(&ev));
    CHECK(cudaGraphCreate(&g2, 0));
    CHECK(cudaGraphAddEmptyNode(&other_empty, g2, NULL, 0));
    CHECK(cudaGraphCreate(&g, 0));
    CHECK(cudaGraphAddEmptyNode(&empty, g, NULL, 0));
    cudaKernelNodeParams kp;
    memset(&kp, 0, sizeof kp);
    kp.func = (void *)K;
    kp.gridDim = dim3(1);
    kp.blockDim = dim3(32);
    kp.kernelParams = args;
    CHECK(cudaGraphAddKernelNode(&knode, g, &empty, 1, &kp));
    cudaMemsetParams msp;
    memset(&msp, 0, sizeof msp);
    msp.dst = d;
    msp.elementSize = 4;
    msp.width = 16;
    msp.height = 1;
    CHECK(cudaGraphAddMemsetNode(&mnode, g, NULL, 0, &msp));
    cudaHostNodeParams hnp = {host_fn, NULL};
    CHECK(cudaGraphAddHostNode(&hnode, g, NULL, 0, &hnp));
    CHECK(cudaGraphAddMemcpyNode1D(&cnode, g, NULL, 0, d + 1024, d, 64,
                                   cudaMemcpyDeviceToDevice));
    CHECK(cudaGraphAddChildGraphNode(&childnode, g, NULL, 0, g2));
    CHECK(cudaGraphAddEventRecordNode(&rnode, g, NULL, 0, ev));
    CHECK(cudaGraphAddEventWaitNode(&wnode, g, NULL, 0, ev));
    CHECK(cudaGraphInstantiate(&exec, g, 0));
}

// A graph of the case's own, empty.
static inline cudaGraph_t fresh_graph(void)
{
    CHECK(cudaGraphCreate(&made_graph, 0));
    return made_graph;
}

// The copy of fixture node `node` in a clone of g that the case owns.
static inline cudaGraphNode_t own(cudaGraphNode_t node)
{
    if (!made_graph)
        CHECK(cudaGraphClone(&made_graph, g));
    cudaGraphNode_t copy = NULL;
    CHECK(cudaGraphNodeFindInClone(&copy, node, made_graph));
    misuse_clear();
    return copy;
}

// An executable of g that the case owns.
static inline cudaGraphExec_t own_exec(void)
{
    CHECK(cudaGraphInstantiate(&made_exec, g, 0));
    return made_exec;
}

// A user object with `refs` references owned by the program.
static inline cudaUserObject_t fresh_object(unsigned refs)
{
    CHECK(cudaUserObjectCreate(&made_object, NULL, object_destroyed, refs,
                               cudaUserObjectNoDestructorSync));
    object_refs = refs;
    return made_object;
}

static inline void clean(void)
{
    if (made_exec)
        cudaGraphExecDestroy(made_exec);
    if (made_graph)
        cudaGraphDestroy(made_graph);
    if (made_graph2)
        cudaGraphDestroy(made_graph2);
    if (made_object && object_refs)
        cudaUserObjectRelease(made_object, object_refs);
    made_exec = NULL;
    made_graph = made_graph2 = NULL;
    made_object = NULL;
    object_refs = 0;
}

// A zeroed cudaGraphNodeParams of type `type`.
static inline cudaGraphNodeParams *params(cudaGraphNodeType type)
{
    memset(&gp, 0, sizeof gp);
    gp.type = type;
    return &gp;
}

static inline cudaGraphNodeParams *kernel_node(const void *func, unsigned block)
{
    cudaGraphNodeParams *p = params(cudaGraphNodeTypeKernel);
    p->kernel.func = (void *)func;
    p->kernel.gridDim = dim3(1);
    p->kernel.blockDim = dim3(block);
    p->kernel.kernelParams = args;
    return p;
}

static inline cudaGraphNodeParams *memset_node(unsigned element_size)
{
    cudaGraphNodeParams *p = params(cudaGraphNodeTypeMemset);
    p->memset.dst = d;
    p->memset.elementSize = element_size;
    p->memset.width = 16;
    p->memset.height = 1;
    return p;
}

static inline cudaGraphNodeParams *memcpy_node(void)
{
    cudaGraphNodeParams *p = params(cudaGraphNodeTypeMemcpy);
    p->memcpy.copyParams.srcPtr = make_cudaPitchedPtr(d, 64, 64, 1);
    p->memcpy.copyParams.dstPtr = make_cudaPitchedPtr(d + 1024, 64, 64, 1);
    p->memcpy.copyParams.extent = make_cudaExtent(64, 1, 1);
    p->memcpy.copyParams.kind = cudaMemcpyDeviceToDevice;
    return p;
}

static inline cudaGraphNodeParams *conditional_node(cudaGraphConditionalNodeType type, unsigned size)
{
    cudaGraphNodeParams *p = params(cudaGraphNodeTypeConditional);
    p->conditional.handle = handle;
    p->conditional.type = type;
    p->conditional.size = size;
    return p;
}

static inline cudaMemAllocNodeParams *alloc_params(size_t size)
{
    memset(&ap, 0, sizeof ap);
    ap.poolProps.allocType = cudaMemAllocationTypePinned;
    ap.poolProps.location.type = cudaMemLocationTypeDevice;
    ap.poolProps.location.id = 0;
    ap.bytesize = size;
    return &ap;
}

// made_graph with an allocation node (its address in ap.dptr).
static inline cudaGraphNode_t alloc_graph(void)
{
    cudaGraphNode_t node;
    CHECK(cudaGraphAddMemAllocNode(&node, fresh_graph(), NULL, 0, alloc_params(4096)));
    return node;
}

static inline cudaMemcpy3DParms *copy_params(cudaMemcpyKind kind)
{
    memset(&p3, 0, sizeof p3);
    p3.srcPtr = make_cudaPitchedPtr(d, 64, 64, 1);
    p3.dstPtr = make_cudaPitchedPtr(d + 1024, 64, 64, 1);
    p3.extent = make_cudaExtent(64, 1, 1);
    p3.kind = kind;
    return &p3;
}

static inline cudaMemsetParams *memset_params(unsigned element_size)
{
    memset(&mp, 0, sizeof mp);
    mp.dst = d;
    mp.elementSize = element_size;
    mp.width = 16;
    mp.height = 1;
    return &mp;
}

// cudaGraphAddNode(p) into a graph of the case's own, with no dependencies.
static inline cudaError_t add_node(cudaGraphNodeParams *p)
{
    return cudaGraphAddNode(&out_node, fresh_graph(), NULL, NULL, 0, p);
}

#endif
