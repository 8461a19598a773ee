/*
 * fake_graph.c - the fake driver's graphs, stream capture and memory pools (see fake_internal.h).
 *
 * What it models:
 *   - Graphs hold nodes (kernel, memcpy, memset, host, child graph, empty) and their
 *     dependencies.  A kernel node copies its arguments when it is created or set, as the driver
 *     does.  Instantiation clones the graph; a launch runs the nodes in dependency order, kernels
 *     through their registered host implementation (each recorded like a cuLaunchKernel), all
 *     after the lock is dropped, in one go: the fake has no real streams, so a launch completes
 *     before it returns.
 *   - Capture: a per-stream state machine (begin, is-capturing, info, end), legacy stream
 *     refused.  Launches into a capturing stream are NOT recorded into the graph (that needs a
 *     hook in fakecuda.c's launch path): a captured graph has no nodes.
 *   - Pools: one default pool per device, explicit pools, attributes, access, and
 *     cuMemAllocAsync / cuMemFreeAsync on the fake's host allocations (they complete at once).
 * Handles are checked against registries before use, so stale or bogus ones give
 * CUDA_ERROR_INVALID_HANDLE (NULL gives CUDA_ERROR_INVALID_VALUE) instead of a crash.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_internal.h"

/* ---- graphs and nodes ----------------------------------------------------------------------- */

typedef struct fake_graph fake_graph;

typedef struct fake_node {
    CUgraphNodeType type;
    fake_graph *graph;
    ptr_vec deps;                      /* fake_node * this node waits for */
    const struct fake_node *origin;    /* the node it was cloned from (compared, never read) */
    /* kernel */
    fake_kernel *kernel;
    unsigned grid[3], block[3], shm;
    unsigned char *params;             /* packed, kernel->param_size bytes */
    int used_extra;
    void **user_params, **user_extra;  /* what the caller passed, handed back by GetParams */
    /* the other kinds */
    CUDA_MEMCPY3D copy;
    CUDA_MEMSET_NODE_PARAMS set;
    CUDA_HOST_NODE_PARAMS host;
    fake_graph *child;                 /* owned clone */
} fake_node;

struct fake_graph {
    ptr_vec nodes;                     /* insertion order */
};

typedef struct fake_exec {
    fake_graph *graph;                 /* owned clone */
    int uploaded;
} fake_exec;

static ptr_vec graphs, execs;           /* live handles */

static int vec_find(const ptr_vec *v, const void *item)
{
    for (size_t i = 0; i < v->count; i++)
        if (v->items[i] == item)
            return (int)i;
    return -1;
}

static CUresult graph_check(CUgraph handle, fake_graph **out)
{
    if (!handle)
        return CUDA_ERROR_INVALID_VALUE;
    if (vec_find(&graphs, handle) < 0)
        return CUDA_ERROR_INVALID_HANDLE;
    *out = (fake_graph *)handle;
    return CUDA_SUCCESS;
}

static CUresult exec_check(CUgraphExec handle, fake_exec **out)
{
    if (!handle)
        return CUDA_ERROR_INVALID_VALUE;
    if (vec_find(&execs, handle) < 0)
        return CUDA_ERROR_INVALID_HANDLE;
    *out = (fake_exec *)handle;
    return CUDA_SUCCESS;
}

/* A node of a live user graph. */
static CUresult node_check(CUgraphNode handle, fake_node **out)
{
    if (!handle)
        return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < graphs.count; i++) {
        fake_graph *g = graphs.items[i];
        if (vec_find(&g->nodes, handle) >= 0) {
            *out = (fake_node *)handle;
            return CUDA_SUCCESS;
        }
    }
    return CUDA_ERROR_INVALID_HANDLE;
}

static void graph_free(fake_graph *g);

static void node_free(fake_node *n)
{
    free(n->deps.items);
    free(n->params);
    if (n->child)
        graph_free(n->child);
    free(n);
}

static void graph_free(fake_graph *g)
{
    for (size_t i = 0; i < g->nodes.count; i++)
        node_free(g->nodes.items[i]);
    free(g->nodes.items);
    free(g);
}

static fake_graph *graph_clone(const fake_graph *g);

static fake_node *node_clone(const fake_node *n, fake_graph *into)
{
    fake_node *c = malloc(sizeof *c);
    if (!c)
        return NULL;
    *c = *n;
    c->graph = into;
    c->origin = n;
    c->deps = (ptr_vec){ NULL, 0, 0 };
    c->params = NULL;
    c->child = NULL;
    if (n->kernel && !(c->params = malloc(n->kernel->param_size + 1)))
        goto fail;
    if (n->kernel)
        memcpy(c->params, n->params, n->kernel->param_size + 1);
    if (n->child && !(c->child = graph_clone(n->child)))
        goto fail;
    return c;
fail:
    free(c->params);
    free(c);
    return NULL;
}

/* A deep copy; dependencies are remapped by position. */
static fake_graph *graph_clone(const fake_graph *g)
{
    fake_graph *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    for (size_t i = 0; i < g->nodes.count; i++) {
        fake_node *n = node_clone(g->nodes.items[i], c);
        if (!n || fake_vec_push(&c->nodes, n) != 0) {
            if (n)
                node_free(n);
            graph_free(c);
            return NULL;
        }
    }
    for (size_t i = 0; i < g->nodes.count; i++) {
        const fake_node *n = g->nodes.items[i];
        for (size_t j = 0; j < n->deps.count; j++) {
            int at = vec_find(&g->nodes, n->deps.items[j]);
            if (fake_vec_push(&((fake_node *)c->nodes.items[i])->deps, c->nodes.items[at]) != 0) {
                graph_free(c);
                return NULL;
            }
        }
    }
    return c;
}

/* Adds a node of `type` with its dependencies (which must be nodes of g, without repeats). */
static CUresult node_add(fake_graph *g, const CUgraphNode *deps, size_t count,
                         CUgraphNodeType type, fake_node **out)
{
    if (count && !deps)
        return CUDA_ERROR_INVALID_VALUE;
    fake_node *n = calloc(1, sizeof *n);
    if (!n)
        return CUDA_ERROR_OUT_OF_MEMORY;
    n->type = type;
    n->graph = g;
    for (size_t i = 0; i < count; i++) {
        if (vec_find(&g->nodes, deps[i]) < 0 || vec_find(&n->deps, deps[i]) >= 0 ||
            fake_vec_push(&n->deps, deps[i]) != 0) {
            node_free(n);
            return CUDA_ERROR_INVALID_VALUE;
        }
    }
    *out = n;
    return CUDA_SUCCESS;
}

static CUresult node_commit(fake_graph *g, fake_node *n, CUgraphNode *out)
{
    if (fake_vec_push(&g->nodes, n) != 0) {
        node_free(n);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    *out = (CUgraphNode)n;
    return CUDA_SUCCESS;
}

/* Validates kernel parameters and packs the arguments into n. */
static CUresult node_set_kernel(fake_node *n, const CUDA_KERNEL_NODE_PARAMS *p)
{
    fake_ctx *ctx = NULL;
    fake_kernel *k = NULL;
    CUresult rc = fake_need_ctx(&ctx);
    if (rc == CUDA_SUCCESS && !p)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && !p->func)
        rc = CUDA_ERROR_INVALID_VALUE;      /* the fake has no CUkernel handles */
    if (rc == CUDA_SUCCESS)
        rc = fake_live_kernel(p->func, &k);
    if (rc != CUDA_SUCCESS)
        return rc;
    const unsigned grid[3] = { p->gridDimX, p->gridDimY, p->gridDimZ };
    const unsigned block[3] = { p->blockDimX, p->blockDimY, p->blockDimZ };
    rc = fake_launch_check_dims(k, grid, block, p->sharedMemBytes);
    unsigned char *params = rc == CUDA_SUCCESS ? calloc(k->param_size + 1, 1) : NULL;
    if (rc == CUDA_SUCCESS && !params)
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    int used_extra = 0;
    if (rc == CUDA_SUCCESS)
        rc = fake_launch_pack(k, p->kernelParams, p->extra, params, &used_extra);
    if (rc != CUDA_SUCCESS) {
        free(params);
        return rc;
    }
    free(n->params);
    n->params = params;
    n->used_extra = used_extra;
    n->kernel = k;
    memcpy(n->grid, grid, sizeof grid);
    memcpy(n->block, block, sizeof block);
    n->shm = p->sharedMemBytes;
    n->user_params = p->kernelParams;
    n->user_extra = p->extra;
    return CUDA_SUCCESS;
}

static CUresult CUDAAPI f_cuGraphCreate(CUgraph *graph, unsigned int flags)
{
    CUresult rc = fake_enter("cuGraphCreate", "flags=%u", flags);
    fake_graph *g = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && (!graph || flags != 0))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && (!(g = calloc(1, sizeof *g)) || fake_vec_push(&graphs, g) != 0)) {
        free(g);
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    }
    if (rc == CUDA_SUCCESS)
        *graph = (CUgraph)g;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphDestroy(CUgraph graph)
{
    CUresult rc = fake_enter("cuGraphDestroy", "graph=%p", (void *)graph);
    fake_graph *g = NULL;
    if (rc == CUDA_SUCCESS)
        rc = graph_check(graph, &g);
    if (rc == CUDA_SUCCESS) {
        fake_vec_remove(&graphs, (size_t)vec_find(&graphs, g));
        graph_free(g);
    }
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphClone(CUgraph *clone, CUgraph graph)
{
    CUresult rc = fake_enter("cuGraphClone", "graph=%p", (void *)graph);
    fake_graph *g = NULL, *c = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && !clone)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = graph_check(graph, &g);
    if (rc == CUDA_SUCCESS && (!(c = graph_clone(g)) || fake_vec_push(&graphs, c) != 0)) {
        if (c)
            graph_free(c);
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    }
    if (rc == CUDA_SUCCESS)
        *clone = (CUgraph)c;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphAddKernelNode(CUgraphNode *node, CUgraph graph,
                                               const CUgraphNode *deps, size_t count,
                                               const CUDA_KERNEL_NODE_PARAMS *p)
{
    CUresult rc = fake_enter("cuGraphAddKernelNode",
                             "graph=%p deps=%zu func=%p grid=(%u,%u,%u) block=(%u,%u,%u) shm=%u %s",
                             (void *)graph, count, p ? (void *)p->func : NULL,
                             p ? p->gridDimX : 0, p ? p->gridDimY : 0, p ? p->gridDimZ : 0,
                             p ? p->blockDimX : 0, p ? p->blockDimY : 0, p ? p->blockDimZ : 0,
                             p ? p->sharedMemBytes : 0,
                             !p ? "no-params" : p->kernelParams ? "kernelParams"
                             : p->extra ? "extra" : "no-args");
    fake_graph *g = NULL;
    fake_node *n = NULL;
    if (rc == CUDA_SUCCESS && !node)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = graph_check(graph, &g);
    if (rc == CUDA_SUCCESS)
        rc = node_add(g, deps, count, CU_GRAPH_NODE_TYPE_KERNEL, &n);
    if (rc == CUDA_SUCCESS && (rc = node_set_kernel(n, p)) != CUDA_SUCCESS)
        node_free(n);
    if (rc == CUDA_SUCCESS)
        rc = node_commit(g, n, node);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphKernelNodeGetParams(CUgraphNode node, CUDA_KERNEL_NODE_PARAMS *p)
{
    CUresult rc = fake_enter("cuGraphKernelNodeGetParams", "node=%p", (void *)node);
    fake_node *n = NULL;
    if (rc == CUDA_SUCCESS && !p)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = node_check(node, &n);
    if (rc == CUDA_SUCCESS && n->type != CU_GRAPH_NODE_TYPE_KERNEL)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS) {
        memset(p, 0, sizeof *p);
        p->func = (CUfunction)n->kernel;
        p->gridDimX = n->grid[0], p->gridDimY = n->grid[1], p->gridDimZ = n->grid[2];
        p->blockDimX = n->block[0], p->blockDimY = n->block[1], p->blockDimZ = n->block[2];
        p->sharedMemBytes = n->shm;
        p->kernelParams = n->user_params;
        p->extra = n->user_extra;
    }
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphKernelNodeSetParams(CUgraphNode node,
                                                     const CUDA_KERNEL_NODE_PARAMS *p)
{
    CUresult rc = fake_enter("cuGraphKernelNodeSetParams", "node=%p func=%p", (void *)node,
                             p ? (void *)p->func : NULL);
    fake_node *n = NULL;
    if (rc == CUDA_SUCCESS)
        rc = node_check(node, &n);
    if (rc == CUDA_SUCCESS && n->type != CU_GRAPH_NODE_TYPE_KERNEL)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = node_set_kernel(n, p);
    return fake_leave(rc);
}

/* Whether one side of a copy names memory the fake can reach; arrays are not modelled. */
static int copy_side_ok(CUmemorytype type, const void *host, CUdeviceptr device)
{
    switch (type) {
    case CU_MEMORYTYPE_HOST: return host != NULL;
    case CU_MEMORYTYPE_DEVICE: return fake_is_device_range((const unsigned char *)device, 1);
    case CU_MEMORYTYPE_UNIFIED: return device != 0;
    default: return 0;
    }
}

static CUresult CUDAAPI f_cuGraphAddMemcpyNode(CUgraphNode *node, CUgraph graph,
                                               const CUgraphNode *deps, size_t count,
                                               const CUDA_MEMCPY3D *copy, CUcontext ctx)
{
    CUresult rc = fake_enter("cuGraphAddMemcpyNode",
                             "graph=%p deps=%zu srcType=%d dstType=%d width=%zu height=%zu "
                             "depth=%zu ctx=%p", (void *)graph, count,
                             copy ? (int)copy->srcMemoryType : -1,
                             copy ? (int)copy->dstMemoryType : -1, copy ? copy->WidthInBytes : 0,
                             copy ? copy->Height : 0, copy ? copy->Depth : 0, (void *)ctx);
    fake_graph *g = NULL;
    fake_node *n = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && (!node || !copy || !ctx))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = graph_check(graph, &g);
    if (rc == CUDA_SUCCESS &&
        (!copy_side_ok(copy->srcMemoryType, copy->srcHost, copy->srcDevice) ||
         !copy_side_ok(copy->dstMemoryType, copy->dstHost, copy->dstDevice)))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = node_add(g, deps, count, CU_GRAPH_NODE_TYPE_MEMCPY, &n);
    if (rc == CUDA_SUCCESS) {
        n->copy = *copy;
        rc = node_commit(g, n, node);
    }
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphAddMemsetNode(CUgraphNode *node, CUgraph graph,
                                               const CUgraphNode *deps, size_t count,
                                               const CUDA_MEMSET_NODE_PARAMS *set, CUcontext ctx)
{
    CUresult rc = fake_enter("cuGraphAddMemsetNode",
                             "graph=%p deps=%zu value=0x%x elementSize=%u width=%zu height=%zu "
                             "pitch=%zu ctx=%p", (void *)graph, count, set ? set->value : 0,
                             set ? set->elementSize : 0, set ? set->width : 0,
                             set ? set->height : 0, set ? set->pitch : 0, (void *)ctx);
    fake_graph *g = NULL;
    fake_node *n = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && (!node || !set || !ctx))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = graph_check(graph, &g);
    if (rc == CUDA_SUCCESS && set->elementSize != 1 && set->elementSize != 2 &&
        set->elementSize != 4)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && set->height > 1 && set->pitch < set->width * set->elementSize)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS &&
        !fake_is_device_range((const unsigned char *)(uintptr_t)set->dst,
                              set->width * set->elementSize))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = node_add(g, deps, count, CU_GRAPH_NODE_TYPE_MEMSET, &n);
    if (rc == CUDA_SUCCESS) {
        n->set = *set;
        rc = node_commit(g, n, node);
    }
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphAddHostNode(CUgraphNode *node, CUgraph graph,
                                             const CUgraphNode *deps, size_t count,
                                             const CUDA_HOST_NODE_PARAMS *host)
{
    CUresult rc = fake_enter("cuGraphAddHostNode", "graph=%p deps=%zu userData=%p",
                             (void *)graph, count, host ? host->userData : NULL);
    fake_graph *g = NULL;
    fake_node *n = NULL;
    if (rc == CUDA_SUCCESS && (!node || !host || !host->fn))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = graph_check(graph, &g);
    if (rc == CUDA_SUCCESS)
        rc = node_add(g, deps, count, CU_GRAPH_NODE_TYPE_HOST, &n);
    if (rc == CUDA_SUCCESS) {
        n->host = *host;
        rc = node_commit(g, n, node);
    }
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphAddChildGraphNode(CUgraphNode *node, CUgraph graph,
                                                   const CUgraphNode *deps, size_t count,
                                                   CUgraph child)
{
    CUresult rc = fake_enter("cuGraphAddChildGraphNode", "graph=%p deps=%zu child=%p",
                             (void *)graph, count, (void *)child);
    fake_graph *g = NULL, *c = NULL;
    fake_node *n = NULL;
    if (rc == CUDA_SUCCESS && !node)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = graph_check(graph, &g);
    if (rc == CUDA_SUCCESS)
        rc = graph_check(child, &c);
    if (rc == CUDA_SUCCESS && c == g)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = node_add(g, deps, count, CU_GRAPH_NODE_TYPE_GRAPH, &n);
    if (rc == CUDA_SUCCESS && !(n->child = graph_clone(c))) {
        node_free(n);
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    }
    if (rc == CUDA_SUCCESS)
        rc = node_commit(g, n, node);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphAddEmptyNode(CUgraphNode *node, CUgraph graph,
                                              const CUgraphNode *deps, size_t count)
{
    CUresult rc = fake_enter("cuGraphAddEmptyNode", "graph=%p deps=%zu", (void *)graph, count);
    fake_graph *g = NULL;
    fake_node *n = NULL;
    if (rc == CUDA_SUCCESS && !node)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = graph_check(graph, &g);
    if (rc == CUDA_SUCCESS)
        rc = node_add(g, deps, count, CU_GRAPH_NODE_TYPE_EMPTY, &n);
    if (rc == CUDA_SUCCESS)
        rc = node_commit(g, n, node);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphAddDependencies(CUgraph graph, const CUgraphNode *from,
                                                 const CUgraphNode *to,
                                                 const CUgraphEdgeData *edges, size_t count)
{
    CUresult rc = fake_enter("cuGraphAddDependencies", "graph=%p count=%zu edgeData=%s",
                             (void *)graph, count, edges ? "yes" : "no");
    fake_graph *g = NULL;
    if (rc == CUDA_SUCCESS)
        rc = graph_check(graph, &g);
    if (rc == CUDA_SUCCESS && count && (!from || !to))
        rc = CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; rc == CUDA_SUCCESS && i < count; i++) {
        fake_node *src = (fake_node *)from[i], *dst = (fake_node *)to[i];
        if (vec_find(&g->nodes, src) < 0 || vec_find(&g->nodes, dst) < 0 || src == dst ||
            vec_find(&dst->deps, src) >= 0)
            rc = CUDA_ERROR_INVALID_VALUE;
        else if (fake_vec_push(&dst->deps, src) != 0)
            rc = CUDA_ERROR_OUT_OF_MEMORY;
    }
    return fake_leave(rc);
}

/* The size-query protocol of cuGraphGetNodes / cuGraphGetRootNodes. */
static void list_nodes(const fake_graph *g, int roots_only, CUgraphNode *out, size_t *count)
{
    size_t n = 0;
    for (size_t i = 0; i < g->nodes.count; i++) {
        const fake_node *node = g->nodes.items[i];
        if (roots_only && node->deps.count)
            continue;
        if (out && n < *count)
            out[n] = (CUgraphNode)node;
        n++;
    }
    if (!out || n < *count)
        *count = n;
}

static CUresult CUDAAPI f_cuGraphGetNodes(CUgraph graph, CUgraphNode *nodes, size_t *count)
{
    CUresult rc = fake_enter("cuGraphGetNodes", "graph=%p nodes=%s", (void *)graph,
                             nodes ? "array" : "NULL");
    fake_graph *g = NULL;
    if (rc == CUDA_SUCCESS && !count)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = graph_check(graph, &g);
    if (rc == CUDA_SUCCESS)
        list_nodes(g, 0, nodes, count);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphGetRootNodes(CUgraph graph, CUgraphNode *nodes, size_t *count)
{
    CUresult rc = fake_enter("cuGraphGetRootNodes", "graph=%p nodes=%s", (void *)graph,
                             nodes ? "array" : "NULL");
    fake_graph *g = NULL;
    if (rc == CUDA_SUCCESS && !count)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = graph_check(graph, &g);
    if (rc == CUDA_SUCCESS)
        list_nodes(g, 1, nodes, count);
    return fake_leave(rc);
}

/* ---- executable graphs ---------------------------------------------------------------------- */

/* Whether the dependencies of g have a cycle (Kahn's algorithm leaves nodes over). */
static int graph_has_cycle(const fake_graph *g)
{
    size_t done = 0, count = g->nodes.count;
    char *ran = calloc(count + 1, 1);
    if (!ran)
        return 1;
    for (int progress = 1; progress && done < count;) {
        progress = 0;
        for (size_t i = 0; i < count; i++) {
            const fake_node *n = g->nodes.items[i];
            int ready = !ran[i];
            for (size_t j = 0; ready && j < n->deps.count; j++)
                ready = ran[vec_find(&g->nodes, n->deps.items[j])];
            if (ready) {
                ran[i] = 1;
                done++;
                progress = 1;
            }
        }
    }
    free(ran);
    return done < count;
}

static CUresult instantiate(CUgraphExec *out, CUgraph graph)
{
    fake_graph *g = NULL;
    fake_exec *x = NULL;
    CUresult rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && !out)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = graph_check(graph, &g);
    if (rc == CUDA_SUCCESS && graph_has_cycle(g))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && !(x = calloc(1, sizeof *x)))
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    if (rc == CUDA_SUCCESS && (!(x->graph = graph_clone(g)) || fake_vec_push(&execs, x) != 0)) {
        if (x->graph)
            graph_free(x->graph);
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    }
    if (rc == CUDA_SUCCESS)
        *out = (CUgraphExec)x;
    else
        free(x);
    return rc;
}

static CUresult CUDAAPI f_cuGraphInstantiateWithFlags(CUgraphExec *exec, CUgraph graph,
                                                      unsigned long long flags)
{
    CUresult rc = fake_enter("cuGraphInstantiateWithFlags", "graph=%p flags=0x%llx",
                             (void *)graph, flags);
    if (rc == CUDA_SUCCESS && (flags & ~0xfull))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = instantiate(exec, graph);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphInstantiateWithParams(CUgraphExec *exec, CUgraph graph,
                                                       CUDA_GRAPH_INSTANTIATE_PARAMS *p)
{
    CUresult rc = fake_enter("cuGraphInstantiateWithParams", "graph=%p flags=0x%llx stream=%p",
                             (void *)graph, p ? (unsigned long long)p->flags : 0ull,
                             p ? (void *)p->hUploadStream : NULL);
    if (rc == CUDA_SUCCESS && !p)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && (p->flags & ~0xfull))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && !fake_stream_is_valid(p->hUploadStream))
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS)
        rc = instantiate(exec, graph);
    if (p) {
        p->hErrNode_out = NULL;
        p->result_out = rc == CUDA_SUCCESS ? CUDA_GRAPH_INSTANTIATE_SUCCESS
                                           : CUDA_GRAPH_INSTANTIATE_ERROR;
    }
    return fake_leave(rc);
}

/* One thing a launch does, prepared under the lock and done after it. */
typedef struct fake_step {
    const fake_node *node;
    fake_host_kernel kernel;           /* NULL: no host implementation registered */
    const fake_launch *launch;
} fake_step;

typedef struct fake_plan {
    fake_step *steps;
    size_t count, cap;
} fake_plan;

static CUresult plan_push(fake_plan *plan, fake_step step)
{
    if (plan->count == plan->cap) {
        size_t cap = plan->cap ? 2 * plan->cap : 16;
        fake_step *steps = realloc(plan->steps, cap * sizeof *steps);
        if (!steps)
            return CUDA_ERROR_OUT_OF_MEMORY;
        plan->steps = steps;
        plan->cap = cap;
    }
    plan->steps[plan->count++] = step;
    return CUDA_SUCCESS;
}

/* Records a kernel node's launch like cuLaunchKernel would, and plans its host run. */
static CUresult plan_kernel(fake_plan *plan, const fake_node *n, CUstream stream)
{
    fake_kernel *k = NULL;
    CUresult rc = fake_live_kernel((CUfunction)n->kernel, &k);
    fake_launch *l = NULL;
    if (rc == CUDA_SUCCESS && (!(l = calloc(1, sizeof *l)) ||
                               !(l->params = malloc(k->param_size + 1)) ||
                               fake_vec_push(&fake_g.launches, l) != 0)) {
        if (l)
            free(l->params);
        free(l);
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    }
    if (rc != CUDA_SUCCESS)
        return rc;
    memcpy(l->params, n->params, k->param_size + 1);
    snprintf(l->kernel, sizeof l->kernel, "%s", k->name);
    memcpy(l->grid, n->grid, sizeof l->grid);
    memcpy(l->block, n->block, sizeof l->block);
    l->shared_mem = n->shm;
    l->stream = (uintptr_t)stream;
    l->used_extra = n->used_extra;
    l->params_size = k->param_size;
    l->module = (uintptr_t)k->module;
    l->module_sm = k->module->sm;
    l->module_jit = k->module->jit;
    return plan_push(plan, (fake_step){ n, fake_host_kernel_for(k->name), l });
}

/* Plans every node of g in dependency order; child graphs in place. */
static CUresult plan_graph(fake_plan *plan, const fake_graph *g, CUstream stream)
{
    size_t count = g->nodes.count, done = 0;
    char *ran = calloc(count + 1, 1);
    CUresult rc = ran ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
    while (rc == CUDA_SUCCESS && done < count) {
        size_t before = done;
        for (size_t i = 0; rc == CUDA_SUCCESS && i < count; i++) {
            const fake_node *n = g->nodes.items[i];
            int ready = !ran[i];
            for (size_t j = 0; ready && j < n->deps.count; j++)
                ready = ran[vec_find(&g->nodes, n->deps.items[j])];
            if (!ready)
                continue;
            ran[i] = 1;
            done++;
            if (n->type == CU_GRAPH_NODE_TYPE_KERNEL)
                rc = plan_kernel(plan, n, stream);
            else if (n->type == CU_GRAPH_NODE_TYPE_GRAPH)
                rc = plan_graph(plan, n->child, stream);
            else if (n->type != CU_GRAPH_NODE_TYPE_EMPTY)
                rc = plan_push(plan, (fake_step){ n, NULL, NULL });
        }
        if (done == before)
            rc = CUDA_ERROR_INVALID_VALUE;     /* a cycle: instantiation refuses those */
    }
    free(ran);
    return rc;
}

static unsigned char *copy_address(CUmemorytype type, const void *host, CUdeviceptr device,
                                   size_t x, size_t y, size_t z, size_t pitch, size_t height)
{
    unsigned char *base = type == CU_MEMORYTYPE_HOST ? (unsigned char *)(uintptr_t)host
                                                     : (unsigned char *)(uintptr_t)device;
    return base + x + y * pitch + z * pitch * height;
}

static void run_copy(const CUDA_MEMCPY3D *c)
{
    size_t height = c->Height ? c->Height : 1, depth = c->Depth ? c->Depth : 1;
    for (size_t z = 0; z < depth; z++)
        for (size_t y = 0; y < height; y++)
            memmove(copy_address(c->dstMemoryType, c->dstHost, c->dstDevice, c->dstXInBytes,
                                 c->dstY + y, c->dstZ + z, c->dstPitch, c->dstHeight),
                    copy_address(c->srcMemoryType, c->srcHost, c->srcDevice, c->srcXInBytes,
                                 c->srcY + y, c->srcZ + z, c->srcPitch, c->srcHeight),
                    c->WidthInBytes);
}

static void run_set(const CUDA_MEMSET_NODE_PARAMS *s)
{
    size_t rows = s->height ? s->height : 1;
    for (size_t row = 0; row < rows; row++) {
        unsigned char *p = (unsigned char *)(uintptr_t)s->dst + row * s->pitch;
        for (size_t i = 0; i < s->width; i++) {
            if (s->elementSize == 1)
                p[i] = (unsigned char)s->value;
            else if (s->elementSize == 2)
                memcpy(p + 2 * i, &(uint16_t){ (uint16_t)s->value }, 2);
            else
                memcpy(p + 4 * i, &s->value, 4);
        }
    }
}

static void plan_run(const fake_plan *plan)
{
    for (size_t i = 0; i < plan->count; i++) {
        const fake_step *s = &plan->steps[i];
        switch (s->node->type) {
        case CU_GRAPH_NODE_TYPE_KERNEL:
            if (s->kernel)
                s->kernel(s->launch->params, s->launch->params_size, s->launch->grid,
                          s->launch->block);
            break;
        case CU_GRAPH_NODE_TYPE_MEMCPY: run_copy(&s->node->copy); break;
        case CU_GRAPH_NODE_TYPE_MEMSET: run_set(&s->node->set); break;
        case CU_GRAPH_NODE_TYPE_HOST: s->node->host.fn(s->node->host.userData); break;
        default: break;
        }
    }
}

static CUresult CUDAAPI f_cuGraphLaunch(CUgraphExec exec, CUstream stream)
{
    CUresult rc = fake_enter("cuGraphLaunch", "exec=%p stream=%p", (void *)exec, (void *)stream);
    fake_exec *x = NULL;
    fake_plan plan = { NULL, 0, 0 };
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS)
        rc = exec_check(exec, &x);
    if (rc == CUDA_SUCCESS && !fake_stream_is_valid(stream))
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS)
        rc = plan_graph(&plan, x->graph, stream);
    fake_leave(rc);
    if (rc == CUDA_SUCCESS)
        plan_run(&plan);
    free(plan.steps);
    return rc;
}

static CUresult CUDAAPI f_cuGraphUpload(CUgraphExec exec, CUstream stream)
{
    CUresult rc = fake_enter("cuGraphUpload", "exec=%p stream=%p", (void *)exec, (void *)stream);
    fake_exec *x = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS)
        rc = exec_check(exec, &x);
    if (rc == CUDA_SUCCESS && !fake_stream_is_valid(stream))
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS)
        x->uploaded = 1;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphExecDestroy(CUgraphExec exec)
{
    CUresult rc = fake_enter("cuGraphExecDestroy", "exec=%p", (void *)exec);
    fake_exec *x = NULL;
    if (rc == CUDA_SUCCESS)
        rc = exec_check(exec, &x);
    if (rc == CUDA_SUCCESS) {
        fake_vec_remove(&execs, (size_t)vec_find(&execs, x));
        graph_free(x->graph);
        free(x);
    }
    return fake_leave(rc);
}

/* The node of an executable graph instantiated from `node` (searching child graphs too). */
static fake_node *exec_node_for(const fake_graph *g, const fake_node *node)
{
    for (size_t i = 0; i < g->nodes.count; i++) {
        fake_node *n = g->nodes.items[i];
        if (n->origin == node)
            return n;
        fake_node *inner = n->child ? exec_node_for(n->child, node) : NULL;
        if (inner)
            return inner;
    }
    return NULL;
}

static CUresult CUDAAPI f_cuGraphExecKernelNodeSetParams(CUgraphExec exec, CUgraphNode node,
                                                         const CUDA_KERNEL_NODE_PARAMS *p)
{
    CUresult rc = fake_enter("cuGraphExecKernelNodeSetParams", "exec=%p node=%p func=%p",
                             (void *)exec, (void *)node, p ? (void *)p->func : NULL);
    fake_exec *x = NULL;
    fake_node *n = NULL;
    if (rc == CUDA_SUCCESS)
        rc = exec_check(exec, &x);
    if (rc == CUDA_SUCCESS && !node)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && (!(n = exec_node_for(x->graph, (fake_node *)node)) ||
                               n->type != CU_GRAPH_NODE_TYPE_KERNEL))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = node_set_kernel(n, p);
    return fake_leave(rc);
}

/* Whether `from` can replace `into` in place: same shape, same node kinds, same edges. */
static CUresult graph_update_check(const fake_graph *into, const fake_graph *from,
                                   CUgraphExecUpdateResultInfo *info)
{
    if (into->nodes.count != from->nodes.count) {
        info->result = CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED;
        return CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE;
    }
    for (size_t i = 0; i < from->nodes.count; i++) {
        const fake_node *a = into->nodes.items[i], *b = from->nodes.items[i];
        if (a->type != b->type) {
            info->result = CU_GRAPH_EXEC_UPDATE_ERROR_NODE_TYPE_CHANGED;
            info->errorNode = (CUgraphNode)b;
            return CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE;
        }
        int same_edges = a->deps.count == b->deps.count;
        for (size_t j = 0; same_edges && j < b->deps.count; j++)
            same_edges = vec_find(&into->nodes, a->deps.items[j]) ==
                         vec_find(&from->nodes, b->deps.items[j]);
        if (!same_edges) {
            info->result = CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED;
            info->errorNode = (CUgraphNode)b;
            return CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE;
        }
        if (a->type == CU_GRAPH_NODE_TYPE_GRAPH) {
            CUresult rc = graph_update_check(a->child, b->child, info);
            if (rc != CUDA_SUCCESS)
                return rc;
        }
    }
    return CUDA_SUCCESS;
}

/* Copies the parameters of every node of `from` into the matching node of `into`. */
static CUresult graph_update_apply(fake_graph *into, const fake_graph *from)
{
    for (size_t i = 0; i < from->nodes.count; i++) {
        fake_node *a = into->nodes.items[i];
        const fake_node *b = from->nodes.items[i];
        if (b->kernel) {
            unsigned char *params = malloc(b->kernel->param_size + 1);
            if (!params)
                return CUDA_ERROR_OUT_OF_MEMORY;
            memcpy(params, b->params, b->kernel->param_size + 1);
            free(a->params);
            a->params = params;
            a->kernel = b->kernel;
            memcpy(a->grid, b->grid, sizeof a->grid);
            memcpy(a->block, b->block, sizeof a->block);
            a->shm = b->shm;
            a->used_extra = b->used_extra;
        }
        a->copy = b->copy;
        a->set = b->set;
        a->host = b->host;
        if (a->child) {
            CUresult rc = graph_update_apply(a->child, b->child);
            if (rc != CUDA_SUCCESS)
                return rc;
        }
    }
    return CUDA_SUCCESS;
}

static CUresult CUDAAPI f_cuGraphExecUpdate(CUgraphExec exec, CUgraph graph,
                                            CUgraphExecUpdateResultInfo *info)
{
    CUresult rc = fake_enter("cuGraphExecUpdate", "exec=%p graph=%p", (void *)exec,
                             (void *)graph);
    fake_exec *x = NULL;
    fake_graph *g = NULL;
    if (rc == CUDA_SUCCESS && !info)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = exec_check(exec, &x);
    if (rc == CUDA_SUCCESS)
        rc = graph_check(graph, &g);
    if (rc == CUDA_SUCCESS) {
        memset(info, 0, sizeof *info);
        rc = graph_update_check(x->graph, g, info);
    }
    if (rc == CUDA_SUCCESS)
        rc = graph_update_apply(x->graph, g);
    return fake_leave(rc);
}

/* ---- stream capture ------------------------------------------------------------------------- */

typedef struct fake_capture {
    CUstream stream;
    pthread_t thread;                  /* the owner of a per-thread stream */
    fake_graph *graph;
    cuuint64_t id;
    CUstreamCaptureMode mode;
} fake_capture;

static ptr_vec captures;
static cuuint64_t capture_ids;
static _Thread_local CUstreamCaptureMode thread_capture_mode = CU_STREAM_CAPTURE_MODE_GLOBAL;

static int is_legacy(CUstream stream)
{
    return stream == NULL || stream == CU_STREAM_LEGACY;
}

static int capture_find(CUstream stream)
{
    for (size_t i = 0; i < captures.count; i++) {
        const fake_capture *c = captures.items[i];
        if (c->stream == stream &&
            (stream != CU_STREAM_PER_THREAD || pthread_equal(c->thread, pthread_self())))
            return (int)i;
    }
    return -1;
}

static CUresult capture_begin(CUstream stream, CUgraph graph, CUstreamCaptureMode mode)
{
    fake_graph *g = NULL;
    fake_capture *c = NULL;
    CUresult rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && mode > CU_STREAM_CAPTURE_MODE_RELAXED)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && !fake_stream_is_valid(stream))
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS && is_legacy(stream))
        rc = CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
    if (rc == CUDA_SUCCESS && capture_find(stream) >= 0)
        rc = CUDA_ERROR_ILLEGAL_STATE;
    if (rc == CUDA_SUCCESS && graph)
        rc = graph_check(graph, &g);
    if (rc == CUDA_SUCCESS && !graph && (!(g = calloc(1, sizeof *g)) ||
                                         fake_vec_push(&graphs, g) != 0)) {
        free(g);
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    }
    if (rc == CUDA_SUCCESS && (!(c = calloc(1, sizeof *c)) || fake_vec_push(&captures, c) != 0)) {
        free(c);
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    }
    if (rc == CUDA_SUCCESS)
        *c = (fake_capture){ stream, pthread_self(), g, ++capture_ids, mode };
    return rc;
}

static CUresult CUDAAPI f_cuStreamBeginCapture(CUstream stream, CUstreamCaptureMode mode)
{
    CUresult rc = fake_enter("cuStreamBeginCapture", "stream=%p mode=%d", (void *)stream,
                             (int)mode);
    if (rc == CUDA_SUCCESS)
        rc = capture_begin(stream, NULL, mode);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuStreamBeginCaptureToGraph(CUstream stream, CUgraph graph,
                                                      const CUgraphNode *deps,
                                                      const CUgraphEdgeData *edges, size_t count,
                                                      CUstreamCaptureMode mode)
{
    CUresult rc = fake_enter("cuStreamBeginCaptureToGraph",
                             "stream=%p graph=%p deps=%zu edgeData=%s mode=%d", (void *)stream,
                             (void *)graph, count, edges ? "yes" : "no", (int)mode);
    if (rc == CUDA_SUCCESS && (!graph || (count && !deps)))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = capture_begin(stream, graph, mode);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuStreamEndCapture(CUstream stream, CUgraph *graph)
{
    CUresult rc = fake_enter("cuStreamEndCapture", "stream=%p", (void *)stream);
    int at = -1;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && !graph)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && !fake_stream_is_valid(stream))
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS && (at = capture_find(stream)) < 0)
        rc = CUDA_ERROR_ILLEGAL_STATE;
    if (rc == CUDA_SUCCESS) {
        fake_capture *c = captures.items[at];
        *graph = (CUgraph)c->graph;
        fake_vec_remove(&captures, (size_t)at);
        free(c);
    }
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuStreamIsCapturing(CUstream stream, CUstreamCaptureStatus *status)
{
    CUresult rc = fake_enter("cuStreamIsCapturing", "stream=%p", (void *)stream);
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && !status)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && !fake_stream_is_valid(stream))
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS)
        *status = capture_find(stream) >= 0 ? CU_STREAM_CAPTURE_STATUS_ACTIVE
                                            : CU_STREAM_CAPTURE_STATUS_NONE;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuStreamGetCaptureInfo(CUstream stream, CUstreamCaptureStatus *status,
                                                 cuuint64_t *id, CUgraph *graph,
                                                 const CUgraphNode **deps,
                                                 const CUgraphEdgeData **edges, size_t *count)
{
    CUresult rc = fake_enter("cuStreamGetCaptureInfo", "stream=%p", (void *)stream);
    int at = -1;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && !status)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && !fake_stream_is_valid(stream))
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS) {
        at = capture_find(stream);
        const fake_capture *c = at >= 0 ? captures.items[at] : NULL;
        *status = c ? CU_STREAM_CAPTURE_STATUS_ACTIVE : CU_STREAM_CAPTURE_STATUS_NONE;
        if (c && id)
            *id = c->id;
        if (c && graph)
            *graph = (CUgraph)c->graph;
        if (c && deps)
            *deps = NULL;                      /* launches are not captured: no frontier */
        if (c && edges)
            *edges = NULL;
        if (c && count)
            *count = 0;
    }
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuStreamUpdateCaptureDependencies(CUstream stream, CUgraphNode *deps,
                                                            const CUgraphEdgeData *edges,
                                                            size_t count, unsigned int flags)
{
    CUresult rc = fake_enter("cuStreamUpdateCaptureDependencies",
                             "stream=%p count=%zu edgeData=%s flags=%u", (void *)stream, count,
                             edges ? "yes" : "no", flags);
    int at = -1;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && (flags > CU_STREAM_SET_CAPTURE_DEPENDENCIES || (count && !deps)))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && !fake_stream_is_valid(stream))
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS && (at = capture_find(stream)) < 0)
        rc = CUDA_ERROR_ILLEGAL_STATE;
    for (size_t i = 0; rc == CUDA_SUCCESS && i < count; i++)
        if (vec_find(&((fake_capture *)captures.items[at])->graph->nodes, deps[i]) < 0)
            rc = CUDA_ERROR_INVALID_VALUE;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuThreadExchangeStreamCaptureMode(CUstreamCaptureMode *mode)
{
    CUresult rc = fake_enter("cuThreadExchangeStreamCaptureMode", "mode=%d",
                             mode ? (int)*mode : -1);
    if (rc == CUDA_SUCCESS && (!mode || *mode > CU_STREAM_CAPTURE_MODE_RELAXED))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS) {
        CUstreamCaptureMode old = thread_capture_mode;
        thread_capture_mode = *mode;
        *mode = old;
    }
    return fake_leave(rc);
}

/* ---- memory pools --------------------------------------------------------------------------- */

typedef struct fake_pool {
    CUdevice device;
    int is_default;
    cuuint64_t release_threshold;
    int reuse[3];                      /* FOLLOW_EVENT_DEPENDENCIES, OPPORTUNISTIC, INTERNAL */
    cuuint64_t used, used_high, reserved_high;
    CUmemAccess_flags access[FAKE_MAX_DEVICES];
} fake_pool;

typedef struct fake_pool_alloc {
    CUdeviceptr ptr;
    size_t size;
    fake_pool *pool;
} fake_pool_alloc;

static ptr_vec pools, pool_allocs;
static fake_pool *default_pools[FAKE_MAX_DEVICES];
static fake_pool *current_pools[FAKE_MAX_DEVICES];

static fake_pool *pool_new(CUdevice dev, int is_default)
{
    fake_pool *p = calloc(1, sizeof *p);
    if (!p || fake_vec_push(&pools, p) != 0) {
        free(p);
        return NULL;
    }
    p->device = dev;
    p->is_default = is_default;
    p->reuse[0] = p->reuse[1] = p->reuse[2] = 1;
    p->access[dev] = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    return p;
}

static fake_pool *pool_default(CUdevice dev)
{
    if (!default_pools[dev])
        default_pools[dev] = pool_new(dev, 1);
    return default_pools[dev];
}

static CUresult pool_check(CUmemoryPool handle, fake_pool **out)
{
    if (!handle)
        return CUDA_ERROR_INVALID_VALUE;
    if (vec_find(&pools, handle) < 0)
        return CUDA_ERROR_INVALID_HANDLE;
    *out = (fake_pool *)handle;
    return CUDA_SUCCESS;
}

static CUresult pool_alloc(CUdeviceptr *dptr, size_t bytes, fake_pool *pool, CUstream stream)
{
    fake_pool_alloc *a = NULL;
    CUresult rc = fake_stream_is_valid(stream) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS)
        rc = fake_mem_alloc(dptr, bytes, 0);
    if (rc == CUDA_SUCCESS &&
        (!(a = calloc(1, sizeof *a)) || fake_vec_push(&pool_allocs, a) != 0)) {
        free(a);
        return CUDA_ERROR_OUT_OF_MEMORY;       /* the block stays: freed at context reset */
    }
    if (rc == CUDA_SUCCESS) {
        *a = (fake_pool_alloc){ *dptr, bytes, pool };
        pool->used += bytes;
        if (pool->used > pool->used_high)
            pool->used_high = pool->used;
        if (pool->used > pool->reserved_high)
            pool->reserved_high = pool->used;
    }
    return rc;
}

static CUresult CUDAAPI f_cuMemAllocAsync(CUdeviceptr *dptr, size_t bytes, CUstream stream)
{
    CUresult rc = fake_enter("cuMemAllocAsync", "bytesize=%zu stream=%p", bytes, (void *)stream);
    fake_ctx *ctx = NULL;
    fake_pool *pool = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(&ctx);
    if (rc == CUDA_SUCCESS) {
        pool = current_pools[ctx->device] ? current_pools[ctx->device]
                                          : pool_default(ctx->device);
        rc = pool ? pool_alloc(dptr, bytes, pool, stream) : CUDA_ERROR_OUT_OF_MEMORY;
    }
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuMemAllocFromPoolAsync(CUdeviceptr *dptr, size_t bytes,
                                                  CUmemoryPool pool, CUstream stream)
{
    CUresult rc = fake_enter("cuMemAllocFromPoolAsync", "bytesize=%zu pool=%p stream=%p", bytes,
                             (void *)pool, (void *)stream);
    fake_pool *p = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS)
        rc = pool_check(pool, &p);
    if (rc == CUDA_SUCCESS)
        rc = pool_alloc(dptr, bytes, p, stream);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuMemFreeAsync(CUdeviceptr dptr, CUstream stream)
{
    CUresult rc = fake_enter("cuMemFreeAsync", "dptr=0x%llx stream=%p", (unsigned long long)dptr,
                             (void *)stream);
    size_t index = 0;
    fake_alloc *a = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && !fake_stream_is_valid(stream))
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS && !(a = fake_find_alloc((void *)(uintptr_t)dptr, &index)))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS) {
        free(a->ptr);
        free(a);
        fake_vec_remove(&fake_g.allocs, index);
        for (size_t i = 0; i < pool_allocs.count; i++) {
            fake_pool_alloc *pa = pool_allocs.items[i];
            if (pa->ptr != dptr)
                continue;
            if (vec_find(&pools, pa->pool) >= 0)
                pa->pool->used -= pa->size;
            fake_vec_remove(&pool_allocs, i);
            free(pa);
            break;
        }
    }
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuDeviceGetDefaultMemPool(CUmemoryPool *pool, CUdevice dev)
{
    CUresult rc = fake_enter("cuDeviceGetDefaultMemPool", "dev=%d", dev);
    fake_pool *p = NULL;
    if (rc == CUDA_SUCCESS && !pool)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_device(dev);
    if (rc == CUDA_SUCCESS && !(p = pool_default(dev)))
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    if (rc == CUDA_SUCCESS)
        *pool = (CUmemoryPool)p;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuDeviceGetMemPool(CUmemoryPool *pool, CUdevice dev)
{
    CUresult rc = fake_enter("cuDeviceGetMemPool", "dev=%d", dev);
    fake_pool *p = NULL;
    if (rc == CUDA_SUCCESS && !pool)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_device(dev);
    if (rc == CUDA_SUCCESS && !(p = current_pools[dev] ? current_pools[dev] : pool_default(dev)))
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    if (rc == CUDA_SUCCESS)
        *pool = (CUmemoryPool)p;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuDeviceSetMemPool(CUdevice dev, CUmemoryPool pool)
{
    CUresult rc = fake_enter("cuDeviceSetMemPool", "dev=%d pool=%p", dev, (void *)pool);
    fake_pool *p = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_device(dev);
    if (rc == CUDA_SUCCESS)
        rc = pool_check(pool, &p);
    if (rc == CUDA_SUCCESS && p->device != dev)
        rc = CUDA_ERROR_INVALID_DEVICE;
    if (rc == CUDA_SUCCESS)
        current_pools[dev] = p;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuMemPoolCreate(CUmemoryPool *pool, const CUmemPoolProps *props)
{
    CUresult rc = fake_enter("cuMemPoolCreate", "allocType=%d locationType=%d id=%d",
                             props ? (int)props->allocType : -1,
                             props ? (int)props->location.type : -1,
                             props ? props->location.id : -1);
    fake_pool *p = NULL;
    if (rc == CUDA_SUCCESS && (!pool || !props || props->allocType != CU_MEM_ALLOCATION_TYPE_PINNED ||
                               props->location.type != CU_MEM_LOCATION_TYPE_DEVICE))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_device(props->location.id);
    if (rc == CUDA_SUCCESS && !(p = pool_new(props->location.id, 0)))
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    if (rc == CUDA_SUCCESS)
        *pool = (CUmemoryPool)p;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuMemPoolDestroy(CUmemoryPool pool)
{
    CUresult rc = fake_enter("cuMemPoolDestroy", "pool=%p", (void *)pool);
    fake_pool *p = NULL;
    if (rc == CUDA_SUCCESS)
        rc = pool_check(pool, &p);
    if (rc == CUDA_SUCCESS && p->is_default)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS) {
        if (current_pools[p->device] == p)
            current_pools[p->device] = NULL;
        fake_vec_remove(&pools, (size_t)vec_find(&pools, p));
        free(p);
    }
    return fake_leave(rc);
}

static CUresult pool_attribute(fake_pool *p, CUmemPool_attribute attr, void *value, int set)
{
    int *flag = NULL;
    cuuint64_t *u64 = NULL, scratch = 0;
    switch (attr) {
    case CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES: flag = &p->reuse[0]; break;
    case CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC: flag = &p->reuse[1]; break;
    case CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES: flag = &p->reuse[2]; break;
    case CU_MEMPOOL_ATTR_RELEASE_THRESHOLD: u64 = &p->release_threshold; break;
    case CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT:
    case CU_MEMPOOL_ATTR_USED_MEM_CURRENT:
        if (set)
            return CUDA_ERROR_INVALID_VALUE;
        scratch = p->used;
        u64 = &scratch;
        break;
    case CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH: u64 = &p->reserved_high; break;
    case CU_MEMPOOL_ATTR_USED_MEM_HIGH: u64 = &p->used_high; break;
    default: return CUDA_ERROR_INVALID_VALUE;
    }
    if (flag && set)
        *flag = *(const int *)value != 0;
    else if (flag)
        *(int *)value = *flag;
    else if (set && u64 != &p->release_threshold && *(const cuuint64_t *)value != 0)
        return CUDA_ERROR_INVALID_VALUE;     /* high-water marks can only be reset */
    else if (set)
        *u64 = *(const cuuint64_t *)value;
    else
        memcpy(value, u64, sizeof *u64);
    return CUDA_SUCCESS;
}

static CUresult CUDAAPI f_cuMemPoolSetAttribute(CUmemoryPool pool, CUmemPool_attribute attr,
                                                void *value)
{
    CUresult rc = fake_enter("cuMemPoolSetAttribute", "pool=%p attr=%d", (void *)pool, (int)attr);
    fake_pool *p = NULL;
    if (rc == CUDA_SUCCESS && !value)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = pool_check(pool, &p);
    if (rc == CUDA_SUCCESS)
        rc = pool_attribute(p, attr, value, 1);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuMemPoolGetAttribute(CUmemoryPool pool, CUmemPool_attribute attr,
                                                void *value)
{
    CUresult rc = fake_enter("cuMemPoolGetAttribute", "pool=%p attr=%d", (void *)pool, (int)attr);
    fake_pool *p = NULL;
    if (rc == CUDA_SUCCESS && !value)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = pool_check(pool, &p);
    if (rc == CUDA_SUCCESS)
        rc = pool_attribute(p, attr, value, 0);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuMemPoolTrimTo(CUmemoryPool pool, size_t keep)
{
    CUresult rc = fake_enter("cuMemPoolTrimTo", "pool=%p minBytesToKeep=%zu", (void *)pool, keep);
    fake_pool *p = NULL;
    if (rc == CUDA_SUCCESS)
        rc = pool_check(pool, &p);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuMemPoolSetAccess(CUmemoryPool pool, const CUmemAccessDesc *map,
                                             size_t count)
{
    CUresult rc = fake_enter("cuMemPoolSetAccess", "pool=%p count=%zu first=(%d,%d,%d)",
                             (void *)pool, count, map && count ? (int)map[0].location.type : -1,
                             map && count ? map[0].location.id : -1,
                             map && count ? (int)map[0].flags : -1);
    fake_pool *p = NULL;
    if (rc == CUDA_SUCCESS)
        rc = pool_check(pool, &p);
    if (rc == CUDA_SUCCESS && count && !map)
        rc = CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; rc == CUDA_SUCCESS && i < count; i++) {
        const CUmemAccessDesc *d = &map[i];
        if (d->location.type != CU_MEM_LOCATION_TYPE_DEVICE || d->location.id < 0 ||
            d->location.id >= fake_g.device_count ||
            (d->flags != CU_MEM_ACCESS_FLAGS_PROT_NONE &&
             d->flags != CU_MEM_ACCESS_FLAGS_PROT_READ &&
             d->flags != CU_MEM_ACCESS_FLAGS_PROT_READWRITE) ||
            (d->location.id == p->device && d->flags != CU_MEM_ACCESS_FLAGS_PROT_READWRITE))
            rc = CUDA_ERROR_INVALID_VALUE;
    }
    for (size_t i = 0; rc == CUDA_SUCCESS && i < count; i++)
        p->access[map[i].location.id] = map[i].flags;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuMemPoolGetAccess(CUmemAccess_flags *flags, CUmemoryPool pool,
                                             CUmemLocation *location)
{
    CUresult rc = fake_enter("cuMemPoolGetAccess", "pool=%p locationType=%d id=%d", (void *)pool,
                             location ? (int)location->type : -1, location ? location->id : -1);
    fake_pool *p = NULL;
    if (rc == CUDA_SUCCESS && (!flags || !location))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = pool_check(pool, &p);
    if (rc == CUDA_SUCCESS && (location->type != CU_MEM_LOCATION_TYPE_DEVICE ||
                               location->id < 0 || location->id >= fake_g.device_count))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        *flags = p->access[location->id];
    return fake_leave(rc);
}

/* cuGraphDebugDotPrint is left out on purpose: the runtime must cope with an optional entry
 * point the driver lacks. */
const proc_entry fake_procs_graph[] = {
    {"cuStreamBeginCapture", 10010, 99999, (void *)f_cuStreamBeginCapture},
    {"cuStreamBeginCaptureToGraph", 12030, 99999, (void *)f_cuStreamBeginCaptureToGraph},
    {"cuStreamEndCapture", 10000, 99999, (void *)f_cuStreamEndCapture},
    {"cuStreamIsCapturing", 10000, 99999, (void *)f_cuStreamIsCapturing},
    {"cuStreamGetCaptureInfo", 12030, 99999, (void *)f_cuStreamGetCaptureInfo},
    {"cuStreamUpdateCaptureDependencies", 12030, 99999,
     (void *)f_cuStreamUpdateCaptureDependencies},
    {"cuThreadExchangeStreamCaptureMode", 10010, 99999,
     (void *)f_cuThreadExchangeStreamCaptureMode},
    {"cuGraphCreate", 10000, 99999, (void *)f_cuGraphCreate},
    {"cuGraphDestroy", 10000, 99999, (void *)f_cuGraphDestroy},
    {"cuGraphClone", 10000, 99999, (void *)f_cuGraphClone},
    {"cuGraphAddKernelNode", 12000, 99999, (void *)f_cuGraphAddKernelNode},
    {"cuGraphKernelNodeGetParams", 12000, 99999, (void *)f_cuGraphKernelNodeGetParams},
    {"cuGraphKernelNodeSetParams", 12000, 99999, (void *)f_cuGraphKernelNodeSetParams},
    {"cuGraphAddMemcpyNode", 10000, 99999, (void *)f_cuGraphAddMemcpyNode},
    {"cuGraphAddMemsetNode", 10000, 99999, (void *)f_cuGraphAddMemsetNode},
    {"cuGraphAddHostNode", 10000, 99999, (void *)f_cuGraphAddHostNode},
    {"cuGraphAddChildGraphNode", 10000, 99999, (void *)f_cuGraphAddChildGraphNode},
    {"cuGraphAddEmptyNode", 10000, 99999, (void *)f_cuGraphAddEmptyNode},
    {"cuGraphAddDependencies", 12030, 99999, (void *)f_cuGraphAddDependencies},
    {"cuGraphGetNodes", 10000, 99999, (void *)f_cuGraphGetNodes},
    {"cuGraphGetRootNodes", 10000, 99999, (void *)f_cuGraphGetRootNodes},
    {"cuGraphInstantiateWithFlags", 11040, 99999, (void *)f_cuGraphInstantiateWithFlags},
    {"cuGraphInstantiateWithParams", 12000, 99999, (void *)f_cuGraphInstantiateWithParams},
    {"cuGraphLaunch", 10000, 99999, (void *)f_cuGraphLaunch},
    {"cuGraphUpload", 11010, 99999, (void *)f_cuGraphUpload},
    {"cuGraphExecDestroy", 10000, 99999, (void *)f_cuGraphExecDestroy},
    {"cuGraphExecKernelNodeSetParams", 12000, 99999, (void *)f_cuGraphExecKernelNodeSetParams},
    {"cuGraphExecUpdate", 12000, 99999, (void *)f_cuGraphExecUpdate},
    {"cuMemAllocAsync", 11020, 99999, (void *)f_cuMemAllocAsync},
    {"cuMemFreeAsync", 11020, 99999, (void *)f_cuMemFreeAsync},
    {"cuMemAllocFromPoolAsync", 11020, 99999, (void *)f_cuMemAllocFromPoolAsync},
    {"cuDeviceGetDefaultMemPool", 11020, 99999, (void *)f_cuDeviceGetDefaultMemPool},
    {"cuDeviceGetMemPool", 11020, 99999, (void *)f_cuDeviceGetMemPool},
    {"cuDeviceSetMemPool", 11020, 99999, (void *)f_cuDeviceSetMemPool},
    {"cuMemPoolCreate", 11020, 99999, (void *)f_cuMemPoolCreate},
    {"cuMemPoolDestroy", 11020, 99999, (void *)f_cuMemPoolDestroy},
    {"cuMemPoolSetAttribute", 11020, 99999, (void *)f_cuMemPoolSetAttribute},
    {"cuMemPoolGetAttribute", 11020, 99999, (void *)f_cuMemPoolGetAttribute},
    {"cuMemPoolTrimTo", 11020, 99999, (void *)f_cuMemPoolTrimTo},
    {"cuMemPoolSetAccess", 11020, 99999, (void *)f_cuMemPoolSetAccess},
    {"cuMemPoolGetAccess", 11020, 99999, (void *)f_cuMemPoolGetAccess},
    {NULL, 0, 0, NULL},
};
