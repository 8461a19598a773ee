/*
 * fake_graph_node.c - the parameters of graph nodes of every kind the runtime adds: the
 * per-kind cuGraphAdd*Node entry points with their getters and setters, the generic
 * cuGraphAddNode / cuGraphNodeSetParams forms, and kernel node attributes (see fake_graph.h).
 *
 * What it models:
 *   - A kernel node copies its arguments when it is created or set, as the driver does;
 *     GetParams hands back the caller's kernelParams/extra, or for a captured node an array of
 *     pointers into the node's own copy.  `func`, or `kern` (a library's CUkernel, resolved as
 *     cuKernelGetFunction would).
 *   - Memcpy nodes keep the CUDA_MEMCPY3D as given (an array side must be a live array; such a
 *     node runs through cuMemcpy3D's copy), memset nodes the CUDA_MEMSET_NODE_PARAMS; their
 *     device operands must be device memory (allocations, graph allocations, globals,
 *     page-locked memory).
 *   - Event nodes take the fake's CUevent handles.  A mem alloc node gets its address when it is
 *     created (fixed for the node's life, fake_mempool.c); a mem free node needs the start of a
 *     graph allocation.  Their parameters cannot be changed, as cuda.h says.
 *   - A conditional node owns `size` body graphs, handed out in phGraph_out.
 *   - The generic form checks that reserved fields and the bytes past the union member in use
 *     are zero (CUDA_ERROR_INVALID_VALUE); external semaphore and batch memop nodes are not
 *     modelled: CUDA_ERROR_NOT_SUPPORTED, a code cuGraphAddNode documents.
 *   - A getter or setter on a node of another kind: CUDA_ERROR_INVALID_VALUE.
 */
#include <stdlib.h>
#include <string.h>

#include "memory/fake_array.h"
#include "graph/fake_graph.h"

/* ---- per-kind parameters -------------------------------------------------------------------- */

CUresult fake_node_kernel(fake_node *n, const CUDA_KERNEL_NODE_PARAMS *p)
{
    fake_ctx *ctx = NULL;
    fake_kernel *k = NULL;
    CUresult rc = fake_need_ctx(&ctx);
    if (rc == CUDA_SUCCESS && !p)
        rc = CUDA_ERROR_INVALID_VALUE;
    /* A CUkernel (kern, func NULL) runs in the node's context: the driver's context-independent
     * kernel, which the fake resolves as cuKernelGetFunction would. */
    CUfunction func = p ? p->func : NULL;
    if (rc == CUDA_SUCCESS && !func && p->kern)
        rc = fake_kernel_function(p->kern, &func);
    else if (rc == CUDA_SUCCESS && !func)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = fake_live_kernel(func, &k);
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
    return fake_node_arg_ptrs(n) == 0 ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

/* Whether one side of a copy names memory the fake can reach (an array: a live one). */
static int copy_side_ok(CUmemorytype type, const void *host, CUdeviceptr device, CUarray array)
{
    unsigned char *storage;
    size_t w, h, d;
    switch (type) {
    case CU_MEMORYTYPE_ARRAY: return fake_array_lookup(array, &storage, &w, &h, &d) == 0;
    case CU_MEMORYTYPE_HOST: return host != NULL;
    case CU_MEMORYTYPE_DEVICE: return fake_is_device_reachable((const void *)(uintptr_t)device, 1);
    case CU_MEMORYTYPE_UNIFIED: return device != 0;
    default: return 0;
    }
}

CUresult fake_node_memcpy(fake_node *n, const CUDA_MEMCPY3D *c)
{
    CUresult rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS &&
        (!c || !copy_side_ok(c->srcMemoryType, c->srcHost, c->srcDevice, c->srcArray) ||
         !copy_side_ok(c->dstMemoryType, c->dstHost, c->dstDevice, c->dstArray)))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        n->copy = *c;
    return rc;
}

CUresult fake_node_memset(fake_node *n, const CUDA_MEMSET_NODE_PARAMS *s)
{
    CUresult rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && (!s || (s->elementSize != 1 && s->elementSize != 2 &&
                                      s->elementSize != 4)))
        rc = CUDA_ERROR_INVALID_VALUE;
    size_t row = rc == CUDA_SUCCESS ? s->width * s->elementSize : 0;
    if (rc == CUDA_SUCCESS && s->height > 1 && s->pitch < row)
        rc = CUDA_ERROR_INVALID_VALUE;
    size_t span = rc == CUDA_SUCCESS && s->height > 1 ? (s->height - 1) * s->pitch + row : row;
    if (rc == CUDA_SUCCESS && !fake_is_device_reachable((const void *)(uintptr_t)s->dst, span))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        n->set = *s;
    return rc;
}

CUresult fake_node_host(fake_node *n, const CUDA_HOST_NODE_PARAMS *h)
{
    if (!h || !h->fn)
        return CUDA_ERROR_INVALID_VALUE;
    n->host = *h;
    return CUDA_SUCCESS;
}

/* NULL: CUDA_ERROR_INVALID_VALUE; not a live event: CUDA_ERROR_INVALID_HANDLE, as the fake's
 * event entry points answer. */
CUresult fake_node_event(fake_node *n, CUevent e)
{
    if (!e)
        return CUDA_ERROR_INVALID_VALUE;
    if (!fake_event_is_live(e))
        return CUDA_ERROR_INVALID_HANDLE;
    n->event = e;
    return CUDA_SUCCESS;
}

CUresult fake_node_alloc(fake_node *n, CUDA_MEM_ALLOC_NODE_PARAMS *p)
{
    CUresult rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && (!p || !p->bytesize || (p->accessDescCount && !p->accessDescs) ||
                               p->accessDescCount > (size_t)fake_g.device_count))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = fake_pool_props_check(&p->poolProps);
    for (size_t i = 0; rc == CUDA_SUCCESS && i < p->accessDescCount; i++) {
        const CUmemAccessDesc *d = &p->accessDescs[i];
        if (d->location.type != CU_MEM_LOCATION_TYPE_DEVICE || d->location.id < 0 ||
            d->location.id >= fake_g.device_count || d->flags > CU_MEM_ACCESS_FLAGS_PROT_READWRITE)
            rc = CUDA_ERROR_INVALID_VALUE;
    }
    if (rc == CUDA_SUCCESS && p->accessDescCount &&
        !(n->access = malloc(p->accessDescCount * sizeof *n->access)))
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    if (rc == CUDA_SUCCESS)
        rc = fake_gmem_new(p->bytesize, p->poolProps.location.id, &n->gmem);
    if (rc != CUDA_SUCCESS)
        return rc;
    if (p->accessDescCount)
        memcpy(n->access, p->accessDescs, p->accessDescCount * sizeof *n->access);
    p->dptr = (CUdeviceptr)(uintptr_t)n->gmem->ptr;
    n->alloc = *p;
    n->alloc.accessDescs = n->access;
    return CUDA_SUCCESS;
}

CUresult fake_node_mem_free(fake_node *n, CUdeviceptr dptr)
{
    if (!fake_gmem_at(dptr))
        return CUDA_ERROR_INVALID_VALUE;    /* only graph allocations, as cuda.h says */
    n->free_ptr = dptr;
    return CUDA_SUCCESS;
}

/* A child graph node's graph: cloned, or moved in (the node then owns that handle).  cuda.h:
 * no conditional nodes in it; memory nodes only when moved. */
static CUresult node_child(fake_node *n, CUgraph child, CUgraphChildGraphNodeOwnership own)
{
    fake_graph *c = NULL;
    CUresult rc = fake_graph_check(child, &c);
    for (fake_graph *up = n->graph; rc == CUDA_SUCCESS && up; up = up->owner ? up->owner->graph
                                                                              : NULL)
        if (up == c)
            rc = CUDA_ERROR_INVALID_VALUE;
    int kinds = rc == CUDA_SUCCESS ? fake_graph_kinds(c) : 0;
    if (rc == CUDA_SUCCESS && ((kinds & 2) || own > CU_GRAPH_CHILD_GRAPH_OWNERSHIP_MOVE ||
                               ((kinds & 1) && own != CU_GRAPH_CHILD_GRAPH_OWNERSHIP_MOVE) ||
                               (own == CU_GRAPH_CHILD_GRAPH_OWNERSHIP_MOVE && c->owner)))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && own == CU_GRAPH_CHILD_GRAPH_OWNERSHIP_MOVE) {
        c->owner = n;
        n->child = c;
    } else if (rc == CUDA_SUCCESS) {
        rc = fake_graph_clone(c, 0, n, &n->child);
    }
    return rc;
}

/* The handle must belong to this graph or to one the graph is nested in; ctx NULL or the
 * handle's context; size 1 (WHILE), 1 or 2 (IF), at least 1 (SWITCH). */
static CUresult node_conditional(fake_node *n, CUDA_CONDITIONAL_NODE_PARAMS *p)
{
    fake_cond *c = NULL;
    CUresult rc = fake_cond_check(p->handle, &c);
    int ours = 0;
    for (fake_graph *up = n->graph; rc == CUDA_SUCCESS && up; up = up->owner ? up->owner->graph
                                                                              : NULL)
        ours |= up == c->graph;
    if (rc == CUDA_SUCCESS && (!ours || (p->ctx && fake_ctx_base(fake_ctx_from_handle(p->ctx)) !=
                                                  fake_ctx_base(c->ctx))))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS &&
        !((p->type == CU_GRAPH_COND_TYPE_IF && (p->size == 1 || p->size == 2)) ||
          (p->type == CU_GRAPH_COND_TYPE_WHILE && p->size == 1) ||
          (p->type == CU_GRAPH_COND_TYPE_SWITCH && p->size >= 1 && p->size <= 4096)))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && (!(n->bodies = calloc(p->size, sizeof *n->bodies)) ||
                               !(n->body_handles = calloc(p->size, sizeof *n->body_handles))))
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    if (rc == CUDA_SUCCESS)
        n->cond_size = p->size;
    for (unsigned i = 0; rc == CUDA_SUCCESS && i < p->size; i++) {
        if (!(n->bodies[i] = fake_graph_new(1)))
            rc = CUDA_ERROR_OUT_OF_MEMORY;
        else
            n->bodies[i]->owner = n;
        n->body_handles[i] = (CUgraph)n->bodies[i];
    }
    if (rc == CUDA_SUCCESS) {
        (n->cond = c)->refs++;
        n->cond_type = p->type;
        p->phGraph_out = n->body_handles;
    }
    return rc;
}

/* ---- the generic form ----------------------------------------------------------------------- */

/* reserved0, reserved2 and the union's bytes past `used` must be zero. */
static int params_padding_ok(const CUgraphNodeParams *p, size_t used)
{
    const unsigned char *u = (const unsigned char *)p->reserved1;
    for (size_t i = used; i < sizeof p->reserved1; i++)
        if (u[i])
            return 0;
    return !p->reserved0[0] && !p->reserved0[1] && !p->reserved0[2] && !p->reserved2;
}

static size_t params_used(CUgraphNodeType type)
{
    switch (type) {
    case CU_GRAPH_NODE_TYPE_KERNEL: return sizeof(CUDA_KERNEL_NODE_PARAMS_v3);
    case CU_GRAPH_NODE_TYPE_MEMCPY: return sizeof(CUDA_MEMCPY_NODE_PARAMS);
    case CU_GRAPH_NODE_TYPE_MEMSET: return sizeof(CUDA_MEMSET_NODE_PARAMS_v2);
    case CU_GRAPH_NODE_TYPE_HOST: return sizeof(CUDA_HOST_NODE_PARAMS_v2);
    case CU_GRAPH_NODE_TYPE_GRAPH: return sizeof(CUDA_CHILD_GRAPH_NODE_PARAMS);
    case CU_GRAPH_NODE_TYPE_EMPTY: return 0;
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT: return sizeof(CUDA_EVENT_WAIT_NODE_PARAMS);
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD: return sizeof(CUDA_EVENT_RECORD_NODE_PARAMS);
    case CU_GRAPH_NODE_TYPE_MEM_ALLOC: return sizeof(CUDA_MEM_ALLOC_NODE_PARAMS_v2);
    case CU_GRAPH_NODE_TYPE_MEM_FREE: return sizeof(CUDA_MEM_FREE_NODE_PARAMS);
    case CU_GRAPH_NODE_TYPE_CONDITIONAL: return sizeof(CUDA_CONDITIONAL_NODE_PARAMS);
    case CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL: return sizeof(CUDA_EXT_SEM_SIGNAL_NODE_PARAMS_v2);
    case CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT: return sizeof(CUDA_EXT_SEM_WAIT_NODE_PARAMS_v2);
    default: return sizeof(((CUgraphNodeParams *)0)->reserved1);
    }
}

static CUDA_KERNEL_NODE_PARAMS kernel_v2(const CUDA_KERNEL_NODE_PARAMS_v3 *k)
{
    return (CUDA_KERNEL_NODE_PARAMS){
        .func = k->func, .gridDimX = k->gridDimX, .gridDimY = k->gridDimY,
        .gridDimZ = k->gridDimZ, .blockDimX = k->blockDimX, .blockDimY = k->blockDimY,
        .blockDimZ = k->blockDimZ, .sharedMemBytes = k->sharedMemBytes,
        .kernelParams = k->kernelParams, .extra = k->extra, .kern = k->kern, .ctx = k->ctx,
    };
}

static CUDA_MEMSET_NODE_PARAMS memset_v1(const CUDA_MEMSET_NODE_PARAMS_v2 *s)
{
    return (CUDA_MEMSET_NODE_PARAMS){ s->dst, s->pitch, s->value, s->elementSize, s->width,
                                      s->height };
}

/* The kinds whose parameters can be set on an existing node (user or executable graph). */
static CUresult set_kind(fake_node *n, CUgraphNodeParams *p)
{
    switch (p->type) {
    case CU_GRAPH_NODE_TYPE_KERNEL: {
        CUDA_KERNEL_NODE_PARAMS k = kernel_v2(&p->kernel);
        return fake_node_kernel(n, &k);
    }
    case CU_GRAPH_NODE_TYPE_MEMCPY:
        if (p->memcpy.flags || p->memcpy.reserved)
            return CUDA_ERROR_INVALID_VALUE;
        return fake_node_memcpy(n, &p->memcpy.copyParams);
    case CU_GRAPH_NODE_TYPE_MEMSET: {
        CUDA_MEMSET_NODE_PARAMS s = memset_v1(&p->memset);
        return fake_node_memset(n, &s);
    }
    case CU_GRAPH_NODE_TYPE_HOST: {
        CUDA_HOST_NODE_PARAMS h = { p->host.fn, p->host.userData };
        return fake_node_host(n, &h);
    }
    case CU_GRAPH_NODE_TYPE_EMPTY: return CUDA_SUCCESS;
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT: return fake_node_event(n, p->eventWait.event);
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD: return fake_node_event(n, p->eventRecord.event);
    case CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL:
        return fake_node_extsem(n, p->extSemSignal.extSemArray, p->extSemSignal.paramsArray,
                                p->extSemSignal.numExtSems);
    case CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT:
        return fake_node_extsem(n, p->extSemWait.extSemArray, p->extSemWait.paramsArray,
                                p->extSemWait.numExtSems);
    case CU_GRAPH_NODE_TYPE_BATCH_MEM_OP:
        return CUDA_ERROR_NOT_SUPPORTED;        /* not modelled */
    default: return CUDA_ERROR_INVALID_VALUE;
    }
}

/* cuGraphNodeSetParams and cuGraphExecNodeSetParams: the type must match; a child graph takes
 * a graph of the same topology (its parameters are copied); mem alloc, mem free and
 * conditional nodes cannot be changed: CUDA_ERROR_NOT_SUPPORTED (cuda.h names it for the memory
 * nodes; the fake says the same for conditional ones). */
CUresult fake_node_set_generic(fake_node *n, CUgraphNodeParams *p)
{
    if (!p || p->type != n->type || !params_padding_ok(p, params_used(p->type)))
        return CUDA_ERROR_INVALID_VALUE;
    if (p->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC || p->type == CU_GRAPH_NODE_TYPE_MEM_FREE ||
        p->type == CU_GRAPH_NODE_TYPE_CONDITIONAL)
        return CUDA_ERROR_NOT_SUPPORTED;
    if (p->type == CU_GRAPH_NODE_TYPE_GRAPH) {
        fake_graph *c = NULL;
        CUgraphExecUpdateResultInfo info;
        CUresult rc = fake_graph_check(p->graph.graph, &c);
        if (rc == CUDA_SUCCESS && fake_graph_update_check(n->child, c, &info) != CUDA_SUCCESS)
            rc = CUDA_ERROR_INVALID_VALUE;
        return rc == CUDA_SUCCESS ? fake_graph_update_apply(n->child, c) : rc;
    }
    return set_kind(n, p);
}

CUresult fake_graph_add_node(CUgraphNode *node, CUgraph graph, const CUgraphNode *deps,
                             const CUgraphEdgeData *data, size_t count, CUgraphNodeParams *p,
                             fake_node **made)
{
    fake_graph *g = NULL;
    fake_node *n = NULL;
    CUresult rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && (!node || !p || !params_padding_ok(p, params_used(p->type))))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = fake_graph_check(graph, &g);
    if (rc == CUDA_SUCCESS)
        rc = fake_node_new_h(g, deps, data, count, p->type, &n);
    if (rc == CUDA_SUCCESS) {
        switch (p->type) {
        case CU_GRAPH_NODE_TYPE_GRAPH:
            rc = node_child(n, p->graph.graph, p->graph.ownership);
            break;
        case CU_GRAPH_NODE_TYPE_MEM_ALLOC:
            /* v1 and v2 of the alloc parameters are the same structure */
            rc = fake_node_alloc(n, (CUDA_MEM_ALLOC_NODE_PARAMS *)&p->alloc);
            break;
        case CU_GRAPH_NODE_TYPE_MEM_FREE: rc = fake_node_mem_free(n, p->free.dptr); break;
        case CU_GRAPH_NODE_TYPE_CONDITIONAL: rc = node_conditional(n, &p->conditional); break;
        default: rc = set_kind(n, p); break;
        }
        if (rc != CUDA_SUCCESS)
            fake_node_free(n);
    }
    if (rc == CUDA_SUCCESS && (rc = fake_node_commit(g, n, node)) == CUDA_SUCCESS && made)
        *made = n;
    return rc;
}

static CUresult CUDAAPI f_cuGraphAddNode(CUgraphNode *node, CUgraph graph,
                                         const CUgraphNode *deps, const CUgraphEdgeData *data,
                                         size_t count, CUgraphNodeParams *p)
{
    /* The context of the kinds whose parameters name one (the runtime fills it in). */
    CUcontext ctx = !p ? NULL
                    : p->type == CU_GRAPH_NODE_TYPE_KERNEL ? p->kernel.ctx
                    : p->type == CU_GRAPH_NODE_TYPE_MEMSET ? p->memset.ctx
                    : p->type == CU_GRAPH_NODE_TYPE_MEMCPY ? p->memcpy.copyCtx
                    : p->type == CU_GRAPH_NODE_TYPE_CONDITIONAL ? p->conditional.ctx : NULL;
    CUresult rc = fake_enter("cuGraphAddNode", "graph=%p deps=%zu edgeData=%s type=%d ctx=%p",
                             (void *)graph, count, data ? "yes" : "no", p ? (int)p->type : -1,
                             (void *)ctx);
    if (rc == CUDA_SUCCESS)
        rc = fake_graph_add_node(node, graph, deps, data, count, p, NULL);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphNodeSetParams(CUgraphNode node, CUgraphNodeParams *p)
{
    CUresult rc = fake_enter("cuGraphNodeSetParams", "node=%p type=%d", (void *)node,
                             p ? (int)p->type : -1);
    fake_node *n = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_node_check(node, &n);
    if (rc == CUDA_SUCCESS)
        rc = fake_node_set_generic(n, p);
    return fake_leave(rc);
}

/* ---- the per-kind entry points -------------------------------------------------------------- */

/* The common part of cuGraphAdd*Node: the graph, a new node, its parameters (set_params stores
 * them, with the lock held), commit. */
#define ADD_NODE(kind, ...)                                                                   \
    do {                                                                                      \
        fake_graph *g = NULL;                                                                 \
        fake_node *n = NULL;                                                                  \
        if (rc == CUDA_SUCCESS && !node)                                                      \
            rc = CUDA_ERROR_INVALID_VALUE;                                                    \
        if (rc == CUDA_SUCCESS)                                                               \
            rc = fake_graph_check(graph, &g);                                                 \
        if (rc == CUDA_SUCCESS)                                                               \
            rc = fake_node_new_h(g, deps, NULL, count, kind, &n);                             \
        if (rc == CUDA_SUCCESS && (rc = (__VA_ARGS__)) != CUDA_SUCCESS)                       \
            fake_node_free(n);                                                                \
        if (rc == CUDA_SUCCESS)                                                               \
            rc = fake_node_commit(g, n, node);                                                \
    } while (0)

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
    ADD_NODE(CU_GRAPH_NODE_TYPE_KERNEL, fake_node_kernel(n, p));
    return fake_leave(rc);
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
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && !ctx)
        rc = CUDA_ERROR_INVALID_VALUE;
    ADD_NODE(CU_GRAPH_NODE_TYPE_MEMCPY, fake_node_memcpy(n, copy));
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
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && !ctx)
        rc = CUDA_ERROR_INVALID_VALUE;
    ADD_NODE(CU_GRAPH_NODE_TYPE_MEMSET, fake_node_memset(n, set));
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphAddHostNode(CUgraphNode *node, CUgraph graph,
                                             const CUgraphNode *deps, size_t count,
                                             const CUDA_HOST_NODE_PARAMS *host)
{
    CUresult rc = fake_enter("cuGraphAddHostNode", "graph=%p deps=%zu userData=%p",
                             (void *)graph, count, host ? host->userData : NULL);
    ADD_NODE(CU_GRAPH_NODE_TYPE_HOST, fake_node_host(n, host));
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphAddChildGraphNode(CUgraphNode *node, CUgraph graph,
                                                   const CUgraphNode *deps, size_t count,
                                                   CUgraph child)
{
    CUresult rc = fake_enter("cuGraphAddChildGraphNode", "graph=%p deps=%zu child=%p",
                             (void *)graph, count, (void *)child);
    ADD_NODE(CU_GRAPH_NODE_TYPE_GRAPH, node_child(n, child, CU_GRAPH_CHILD_GRAPH_OWNERSHIP_CLONE));
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphAddEmptyNode(CUgraphNode *node, CUgraph graph,
                                              const CUgraphNode *deps, size_t count)
{
    CUresult rc = fake_enter("cuGraphAddEmptyNode", "graph=%p deps=%zu", (void *)graph, count);
    ADD_NODE(CU_GRAPH_NODE_TYPE_EMPTY, CUDA_SUCCESS);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphAddEventRecordNode(CUgraphNode *node, CUgraph graph,
                                                    const CUgraphNode *deps, size_t count,
                                                    CUevent event)
{
    CUresult rc = fake_enter("cuGraphAddEventRecordNode", "graph=%p deps=%zu event=%p",
                             (void *)graph, count, (void *)event);
    ADD_NODE(CU_GRAPH_NODE_TYPE_EVENT_RECORD, fake_node_event(n, event));
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphAddEventWaitNode(CUgraphNode *node, CUgraph graph,
                                                  const CUgraphNode *deps, size_t count,
                                                  CUevent event)
{
    CUresult rc = fake_enter("cuGraphAddEventWaitNode", "graph=%p deps=%zu event=%p",
                             (void *)graph, count, (void *)event);
    ADD_NODE(CU_GRAPH_NODE_TYPE_WAIT_EVENT, fake_node_event(n, event));
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphAddMemAllocNode(CUgraphNode *node, CUgraph graph,
                                                 const CUgraphNode *deps, size_t count,
                                                 CUDA_MEM_ALLOC_NODE_PARAMS *p)
{
    CUresult rc = fake_enter("cuGraphAddMemAllocNode",
                             "graph=%p deps=%zu bytesize=%zu allocType=%d locationType=%d id=%d",
                             (void *)graph, count, p ? p->bytesize : 0,
                             p ? (int)p->poolProps.allocType : -1,
                             p ? (int)p->poolProps.location.type : -1,
                             p ? p->poolProps.location.id : -1);
    ADD_NODE(CU_GRAPH_NODE_TYPE_MEM_ALLOC, fake_node_alloc(n, p));
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphAddMemFreeNode(CUgraphNode *node, CUgraph graph,
                                                const CUgraphNode *deps, size_t count,
                                                CUdeviceptr dptr)
{
    CUresult rc = fake_enter("cuGraphAddMemFreeNode", "graph=%p deps=%zu dptr=0x%llx",
                             (void *)graph, count, (unsigned long long)dptr);
    ADD_NODE(CU_GRAPH_NODE_TYPE_MEM_FREE, fake_node_mem_free(n, dptr));
    return fake_leave(rc);
}

/* A live user node of `type` (and a non-NULL `out`), or the error. */
static CUresult node_of(CUgraphNode node, CUgraphNodeType type, const void *out, fake_node **n)
{
    CUresult rc = out ? fake_node_check(node, n) : CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && (*n)->type != type)
        rc = CUDA_ERROR_INVALID_VALUE;
    return rc;
}

#define NODE_ENTRY(name, type, out)                                                           \
    CUresult rc = fake_enter(name, "node=%p", (void *)node);                                  \
    fake_node *n = NULL;                                                                      \
    if (rc == CUDA_SUCCESS)                                                                   \
        rc = node_of(node, type, out, &n)

static CUresult CUDAAPI f_cuGraphKernelNodeGetParams(CUgraphNode node, CUDA_KERNEL_NODE_PARAMS *p)
{
    NODE_ENTRY("cuGraphKernelNodeGetParams", CU_GRAPH_NODE_TYPE_KERNEL, p);
    if (rc == CUDA_SUCCESS) {
        memset(p, 0, sizeof *p);
        p->func = (CUfunction)n->kernel;
        p->gridDimX = n->grid[0], p->gridDimY = n->grid[1], p->gridDimZ = n->grid[2];
        p->blockDimX = n->block[0], p->blockDimY = n->block[1], p->blockDimZ = n->block[2];
        p->sharedMemBytes = n->shm;
        p->kernelParams = n->user_params;
        p->extra = n->user_extra;
        if (!n->user_params && !n->user_extra)
            p->kernelParams = n->arg_ptrs;     /* a captured node: its own copy */
    }
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphKernelNodeSetParams(CUgraphNode node,
                                                     const CUDA_KERNEL_NODE_PARAMS *p)
{
    NODE_ENTRY("cuGraphKernelNodeSetParams", CU_GRAPH_NODE_TYPE_KERNEL, "");
    if (rc == CUDA_SUCCESS)
        rc = fake_node_kernel(n, p);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphMemcpyNodeGetParams(CUgraphNode node, CUDA_MEMCPY3D *p)
{
    NODE_ENTRY("cuGraphMemcpyNodeGetParams", CU_GRAPH_NODE_TYPE_MEMCPY, p);
    if (rc == CUDA_SUCCESS)
        *p = n->copy;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphMemcpyNodeSetParams(CUgraphNode node, const CUDA_MEMCPY3D *p)
{
    NODE_ENTRY("cuGraphMemcpyNodeSetParams", CU_GRAPH_NODE_TYPE_MEMCPY, "");
    if (rc == CUDA_SUCCESS)
        rc = fake_node_memcpy(n, p);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphMemsetNodeGetParams(CUgraphNode node, CUDA_MEMSET_NODE_PARAMS *p)
{
    NODE_ENTRY("cuGraphMemsetNodeGetParams", CU_GRAPH_NODE_TYPE_MEMSET, p);
    if (rc == CUDA_SUCCESS)
        *p = n->set;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphMemsetNodeSetParams(CUgraphNode node,
                                                     const CUDA_MEMSET_NODE_PARAMS *p)
{
    NODE_ENTRY("cuGraphMemsetNodeSetParams", CU_GRAPH_NODE_TYPE_MEMSET, "");
    if (rc == CUDA_SUCCESS)
        rc = fake_node_memset(n, p);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphHostNodeGetParams(CUgraphNode node, CUDA_HOST_NODE_PARAMS *p)
{
    NODE_ENTRY("cuGraphHostNodeGetParams", CU_GRAPH_NODE_TYPE_HOST, p);
    if (rc == CUDA_SUCCESS)
        *p = n->host;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphHostNodeSetParams(CUgraphNode node,
                                                   const CUDA_HOST_NODE_PARAMS *p)
{
    NODE_ENTRY("cuGraphHostNodeSetParams", CU_GRAPH_NODE_TYPE_HOST, "");
    if (rc == CUDA_SUCCESS)
        rc = fake_node_host(n, p);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphChildGraphNodeGetGraph(CUgraphNode node, CUgraph *graph)
{
    NODE_ENTRY("cuGraphChildGraphNodeGetGraph", CU_GRAPH_NODE_TYPE_GRAPH, graph);
    if (rc == CUDA_SUCCESS)
        *graph = (CUgraph)n->child;            /* the node's own graph, not a clone */
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphEventRecordNodeGetEvent(CUgraphNode node, CUevent *event)
{
    NODE_ENTRY("cuGraphEventRecordNodeGetEvent", CU_GRAPH_NODE_TYPE_EVENT_RECORD, event);
    if (rc == CUDA_SUCCESS)
        *event = n->event;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphEventRecordNodeSetEvent(CUgraphNode node, CUevent event)
{
    NODE_ENTRY("cuGraphEventRecordNodeSetEvent", CU_GRAPH_NODE_TYPE_EVENT_RECORD, "");
    if (rc == CUDA_SUCCESS)
        rc = fake_node_event(n, event);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphEventWaitNodeGetEvent(CUgraphNode node, CUevent *event)
{
    NODE_ENTRY("cuGraphEventWaitNodeGetEvent", CU_GRAPH_NODE_TYPE_WAIT_EVENT, event);
    if (rc == CUDA_SUCCESS)
        *event = n->event;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphEventWaitNodeSetEvent(CUgraphNode node, CUevent event)
{
    NODE_ENTRY("cuGraphEventWaitNodeSetEvent", CU_GRAPH_NODE_TYPE_WAIT_EVENT, "");
    if (rc == CUDA_SUCCESS)
        rc = fake_node_event(n, event);
    return fake_leave(rc);
}

/* accessDescs points at the node's own copy, valid for the node's life. */
static CUresult CUDAAPI f_cuGraphMemAllocNodeGetParams(CUgraphNode node,
                                                       CUDA_MEM_ALLOC_NODE_PARAMS *p)
{
    NODE_ENTRY("cuGraphMemAllocNodeGetParams", CU_GRAPH_NODE_TYPE_MEM_ALLOC, p);
    if (rc == CUDA_SUCCESS)
        *p = n->alloc;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphMemFreeNodeGetParams(CUgraphNode node, CUdeviceptr *dptr)
{
    NODE_ENTRY("cuGraphMemFreeNodeGetParams", CU_GRAPH_NODE_TYPE_MEM_FREE, dptr);
    if (rc == CUDA_SUCCESS)
        *dptr = n->free_ptr;
    return fake_leave(rc);
}

/* ---- kernel node attributes ----------------------------------------------------------------- */

/* The CUlaunchAttributeID values cuda.h says are valid for graph nodes. */
static int kernel_attr_ok(CUkernelNodeAttrID attr)
{
    switch ((int)attr) {
    case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW:
    case CU_LAUNCH_ATTRIBUTE_COOPERATIVE:
    case CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION:
    case CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
    case CU_LAUNCH_ATTRIBUTE_PRIORITY:
    case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP:
    case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN:
    case CU_LAUNCH_ATTRIBUTE_PREFERRED_CLUSTER_DIMENSION:
    case CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE:
        return (int)attr < FAKE_NODE_ATTR_MAX;
    default:
        return 0;
    }
}

static CUresult CUDAAPI f_cuGraphKernelNodeGetAttribute(CUgraphNode node, CUkernelNodeAttrID attr,
                                                        CUkernelNodeAttrValue *value)
{
    CUresult rc = fake_enter("cuGraphKernelNodeGetAttribute", "node=%p attr=%d", (void *)node,
                             (int)attr);
    fake_node *n = NULL;
    if (rc == CUDA_SUCCESS)
        rc = node_of(node, CU_GRAPH_NODE_TYPE_KERNEL, value, &n);
    if (rc == CUDA_SUCCESS && !kernel_attr_ok(attr))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        *value = n->attr[attr];                /* zeros when never set */
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphKernelNodeSetAttribute(CUgraphNode node, CUkernelNodeAttrID attr,
                                                        const CUkernelNodeAttrValue *value)
{
    CUresult rc = fake_enter("cuGraphKernelNodeSetAttribute", "node=%p attr=%d", (void *)node,
                             (int)attr);
    fake_node *n = NULL;
    if (rc == CUDA_SUCCESS)
        rc = node_of(node, CU_GRAPH_NODE_TYPE_KERNEL, value, &n);
    if (rc == CUDA_SUCCESS && !kernel_attr_ok(attr))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        n->attr[attr] = *value;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphKernelNodeCopyAttributes(CUgraphNode dst, CUgraphNode src)
{
    CUresult rc = fake_enter("cuGraphKernelNodeCopyAttributes", "dst=%p src=%p", (void *)dst,
                             (void *)src);
    fake_node *to = NULL, *from = NULL;
    if (rc == CUDA_SUCCESS)
        rc = node_of(dst, CU_GRAPH_NODE_TYPE_KERNEL, "", &to);
    if (rc == CUDA_SUCCESS)
        rc = node_of(src, CU_GRAPH_NODE_TYPE_KERNEL, "", &from);
    if (rc == CUDA_SUCCESS)
        memcpy(to->attr, from->attr, sizeof to->attr);
    return fake_leave(rc);
}

const proc_entry fake_procs_graph_node[] = {
    {"cuGraphAddNode", 12030, 13039, (void *)f_cuGraphAddNode},
    {"cuGraphNodeSetParams", 12020, 13039, (void *)f_cuGraphNodeSetParams},
    {"cuGraphAddKernelNode", 12000, 99999, (void *)f_cuGraphAddKernelNode},
    {"cuGraphKernelNodeGetParams", 12000, 99999, (void *)f_cuGraphKernelNodeGetParams},
    {"cuGraphKernelNodeSetParams", 12000, 99999, (void *)f_cuGraphKernelNodeSetParams},
    {"cuGraphAddMemcpyNode", 10000, 99999, (void *)f_cuGraphAddMemcpyNode},
    {"cuGraphMemcpyNodeGetParams", 10000, 99999, (void *)f_cuGraphMemcpyNodeGetParams},
    {"cuGraphMemcpyNodeSetParams", 10000, 99999, (void *)f_cuGraphMemcpyNodeSetParams},
    {"cuGraphAddMemsetNode", 10000, 99999, (void *)f_cuGraphAddMemsetNode},
    {"cuGraphMemsetNodeGetParams", 10000, 99999, (void *)f_cuGraphMemsetNodeGetParams},
    {"cuGraphMemsetNodeSetParams", 10000, 99999, (void *)f_cuGraphMemsetNodeSetParams},
    {"cuGraphAddHostNode", 10000, 99999, (void *)f_cuGraphAddHostNode},
    {"cuGraphHostNodeGetParams", 10000, 99999, (void *)f_cuGraphHostNodeGetParams},
    {"cuGraphHostNodeSetParams", 10000, 99999, (void *)f_cuGraphHostNodeSetParams},
    {"cuGraphAddChildGraphNode", 10000, 99999, (void *)f_cuGraphAddChildGraphNode},
    {"cuGraphChildGraphNodeGetGraph", 10000, 99999, (void *)f_cuGraphChildGraphNodeGetGraph},
    {"cuGraphAddEmptyNode", 10000, 99999, (void *)f_cuGraphAddEmptyNode},
    {"cuGraphAddEventRecordNode", 11010, 99999, (void *)f_cuGraphAddEventRecordNode},
    {"cuGraphEventRecordNodeGetEvent", 11010, 99999, (void *)f_cuGraphEventRecordNodeGetEvent},
    {"cuGraphEventRecordNodeSetEvent", 11010, 99999, (void *)f_cuGraphEventRecordNodeSetEvent},
    {"cuGraphAddEventWaitNode", 11010, 99999, (void *)f_cuGraphAddEventWaitNode},
    {"cuGraphEventWaitNodeGetEvent", 11010, 99999, (void *)f_cuGraphEventWaitNodeGetEvent},
    {"cuGraphEventWaitNodeSetEvent", 11010, 99999, (void *)f_cuGraphEventWaitNodeSetEvent},
    {"cuGraphAddMemAllocNode", 11040, 99999, (void *)f_cuGraphAddMemAllocNode},
    {"cuGraphMemAllocNodeGetParams", 11040, 99999, (void *)f_cuGraphMemAllocNodeGetParams},
    {"cuGraphAddMemFreeNode", 11040, 99999, (void *)f_cuGraphAddMemFreeNode},
    {"cuGraphMemFreeNodeGetParams", 11040, 99999, (void *)f_cuGraphMemFreeNodeGetParams},
    {"cuGraphKernelNodeGetAttribute", 11000, 99999, (void *)f_cuGraphKernelNodeGetAttribute},
    {"cuGraphKernelNodeSetAttribute", 11000, 99999, (void *)f_cuGraphKernelNodeSetAttribute},
    {"cuGraphKernelNodeCopyAttributes", 11000, 99999, (void *)f_cuGraphKernelNodeCopyAttributes},
    {NULL, 0, 0, NULL},
};
