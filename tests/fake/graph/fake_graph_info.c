/*
 * fake_graph_info.c - what drivers 13.1 to 13.4 tell about graphs (see fake_graph.h): the ids of
 * graphs, executable graphs and nodes (cuGraphGetId, cuGraphExecGetId, cuGraphNodeGetLocalId,
 * cuGraphNodeGetToolsId, 13.1), the graph holding a node (cuGraphNodeGetContainingGraph, 13.1),
 * a node's generic parameters (cuGraphNodeGetParams, 13.2), and cuGraphAddNode /
 * cuGraphNodeSetParams of ABI 13040, which read 13.5's node parameters.
 *
 * What it models:
 *   - Graphs and executable graphs take their ids from one process-wide sequence starting at 1,
 *     so an id names one of them for the process's life (a clone or an instantiation gets a new
 *     one).  A node's local id is its place in its graph's creation order (0, 1, ...; never
 *     reused after a node is destroyed), kept by clones; its tools id is the graph's id in the
 *     high 32 bits and the local id in the low ones: unique in the process.  The driver's own
 *     numbers are not known; only their promises are kept.  Stale or NULL handles:
 *     CUDA_ERROR_INVALID_VALUE, the one code cuda.h names.
 *   - cuGraphNodeGetParams fills 13.5's CUgraphNodeParams from what the fake keeps of the node:
 *     pointers into the node (a kernel's kernelParams are the node's own argument copies, extra
 *     NULL; a child graph's ownership CU_GRAPH_CHILD_GRAPH_OWNERSHIP_INVALID, as cuda.h says a
 *     query sets it); a kernel's, memcpy's and memset's context is the one current when the node
 *     was made; a host node's sync mode and a host, event record or semaphore node's preferred
 *     context come from cuLaunchHostFunc_v2 and the 13040 entry points (else 0 and NULL).
 *   - cuGraphAddNode / cuGraphNodeSetParams of 13040: as the 12.3 forms (fake_graph_node.c), plus
 *     those 13.5 members: a sync mode of 0 or 1 and a preferred context that is NULL or one of
 *     the fake's (a CUcontext or a CUgreenCtx), else CUDA_ERROR_INVALID_VALUE.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph/fake_graph.h"

static unsigned graph_ids;

unsigned fake_graph_next_id(void)
{
    return ++graph_ids;
}

/* ---- ids ------------------------------------------------------------------------------------ */

static CUresult CUDAAPI f_cuGraphGetId(CUgraph graph, unsigned int *id)
{
    CUresult rc = fake_enter("cuGraphGetId", "graph=%p", (void *)graph);
    fake_graph *g = NULL;
    if (rc == CUDA_SUCCESS && (!id || fake_graph_check(graph, &g) != CUDA_SUCCESS))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        *id = g->id;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphExecGetId(CUgraphExec exec, unsigned int *id)
{
    CUresult rc = fake_enter("cuGraphExecGetId", "exec=%p", (void *)exec);
    fake_exec *x = NULL;
    if (rc == CUDA_SUCCESS && (!id || fake_exec_check(exec, &x) != CUDA_SUCCESS))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        *id = x->id;
    return fake_leave(rc);
}

/* The checks of the node queries: a live user node and somewhere to put the answer. */
static CUresult node_query(CUgraphNode node, const void *out, fake_node **n)
{
    return out && fake_node_check(node, n) == CUDA_SUCCESS ? CUDA_SUCCESS
                                                           : CUDA_ERROR_INVALID_VALUE;
}

static CUresult CUDAAPI f_cuGraphNodeGetLocalId(CUgraphNode node, unsigned int *id)
{
    CUresult rc = fake_enter("cuGraphNodeGetLocalId", "node=%p", (void *)node);
    fake_node *n = NULL;
    if (rc == CUDA_SUCCESS)
        rc = node_query(node, id, &n);
    if (rc == CUDA_SUCCESS)
        *id = n->local_id;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphNodeGetToolsId(CUgraphNode node, unsigned long long *id)
{
    CUresult rc = fake_enter("cuGraphNodeGetToolsId", "node=%p", (void *)node);
    fake_node *n = NULL;
    if (rc == CUDA_SUCCESS)
        rc = node_query(node, id, &n);
    if (rc == CUDA_SUCCESS)
        *id = (unsigned long long)n->graph->id << 32 | n->local_id;
    return fake_leave(rc);
}

/* A node of a child graph (or of a conditional body) is in that graph, as cuda.h says. */
static CUresult CUDAAPI f_cuGraphNodeGetContainingGraph(CUgraphNode node, CUgraph *graph)
{
    CUresult rc = fake_enter("cuGraphNodeGetContainingGraph", "node=%p", (void *)node);
    fake_node *n = NULL;
    if (rc == CUDA_SUCCESS)
        rc = node_query(node, graph, &n);
    if (rc == CUDA_SUCCESS)
        *graph = (CUgraph)n->graph;
    return fake_leave(rc);
}

/* ---- generic parameters --------------------------------------------------------------------- */

/* The union of CUgraphNodeParams, written through 13.5's layout of the member `type` uses. */
static void put_member(CUgraphNodeParams *p, const void *member, size_t size)
{
    memcpy((unsigned char *)p + offsetof(CUgraphNodeParams, kernel), member, size);
}

static void get_kernel(const fake_node *n, CUgraphNodeParams *p)
{
    p->kernel.func = (CUfunction)n->kernel;
    p->kernel.gridDimX = n->grid[0];
    p->kernel.gridDimY = n->grid[1];
    p->kernel.gridDimZ = n->grid[2];
    p->kernel.blockDimX = n->block[0];
    p->kernel.blockDimY = n->block[1];
    p->kernel.blockDimZ = n->block[2];
    p->kernel.sharedMemBytes = n->shm;
    p->kernel.kernelParams = n->arg_ptrs;      /* the node's copies, valid for its life */
    p->kernel.ctx = n->ctx;
}

void fake_node_get_generic(const fake_node *n, CUgraphNodeParams *p)
{
    memset(p, 0, sizeof *p);
    p->type = n->type;
    switch (n->type) {
    case CU_GRAPH_NODE_TYPE_KERNEL: get_kernel(n, p); break;
    case CU_GRAPH_NODE_TYPE_MEMCPY:
        p->memcpy.copyCtx = n->ctx;
        p->memcpy.copyParams = n->copy;
        break;
    case CU_GRAPH_NODE_TYPE_MEMSET:
        p->memset = (CUDA_MEMSET_NODE_PARAMS_v2){ n->set.dst, n->set.pitch, n->set.value,
                                                  n->set.elementSize, n->set.width,
                                                  n->set.height, n->ctx };
        break;
    case CU_GRAPH_NODE_TYPE_HOST: {
        const FAKE_HOST_NODE_PARAMS_135 host = { n->host.fn, n->host.userData, n->host_sync,
                                                 n->pref_ctx };
        put_member(p, &host, sizeof host);
        break;
    }
    case CU_GRAPH_NODE_TYPE_GRAPH:
        p->graph.graph = (CUgraph)n->child;
        p->graph.ownership = FAKE_GRAPH_CHILD_GRAPH_OWNERSHIP_INVALID;
        break;
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT: p->eventWait.event = n->event; break;
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD: {
        const FAKE_EVENT_RECORD_NODE_PARAMS_135 record = { n->event, n->pref_ctx };
        put_member(p, &record, sizeof record);
        break;
    }
    case CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL:
    case CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT: {
        const FAKE_EXT_SEM_NODE_PARAMS_135 sem = { n->ext_sems, n->ext_params, n->ext_count,
                                                   n->pref_ctx };
        put_member(p, &sem, sizeof sem);
        break;
    }
    case CU_GRAPH_NODE_TYPE_MEM_ALLOC:
        /* v1 and v2 of the alloc parameters are the same structure (fake_graph_node.c) */
        memcpy(&p->alloc, &n->alloc, sizeof n->alloc);
        break;
    case CU_GRAPH_NODE_TYPE_MEM_FREE: p->free.dptr = n->free_ptr; break;
    case CU_GRAPH_NODE_TYPE_CONDITIONAL:
        p->conditional.handle = (CUgraphConditionalHandle)(uintptr_t)n->cond;
        p->conditional.type = n->cond_type;
        p->conditional.size = n->cond_size;
        p->conditional.phGraph_out = n->body_handles;
        p->conditional.ctx = n->cond ? (CUcontext)n->cond->ctx : NULL;
        break;
    default: break;                            /* empty: nothing but the type */
    }
}

static CUresult CUDAAPI f_cuGraphNodeGetParams(CUgraphNode node, CUgraphNodeParams *params)
{
    CUresult rc = fake_enter("cuGraphNodeGetParams", "node=%p", (void *)node);
    fake_node *n = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_init();
    if (rc == CUDA_SUCCESS)
        rc = node_query(node, params, &n);
    if (rc == CUDA_SUCCESS)
        fake_node_get_generic(n, params);
    return fake_leave(rc);
}

/* Field by field: the structures have padding that assignment need not copy. */
static int copy_equal(const CUDA_MEMCPY3D *a, const CUDA_MEMCPY3D *b)
{
#define SAME(f) (a->f == b->f)
    return SAME(srcXInBytes) && SAME(srcY) && SAME(srcZ) && SAME(srcLOD) &&
           SAME(srcMemoryType) && SAME(srcHost) && SAME(srcDevice) && SAME(srcArray) &&
           SAME(srcPitch) && SAME(srcHeight) && SAME(dstXInBytes) && SAME(dstY) && SAME(dstZ) &&
           SAME(dstLOD) && SAME(dstMemoryType) && SAME(dstHost) && SAME(dstDevice) &&
           SAME(dstArray) && SAME(dstPitch) && SAME(dstHeight) && SAME(WidthInBytes) &&
           SAME(Height) && SAME(Depth);
#undef SAME
}

static int kernel_equal(const fake_node *a, const fake_node *b)
{
    return a->kernel == b->kernel && !memcmp(a->grid, b->grid, sizeof a->grid) &&
           !memcmp(a->block, b->block, sizeof a->block) && a->shm == b->shm &&
           (!a->kernel || !memcmp(a->params, b->params, a->kernel->param_size));
}

/* A child graph's nodes are not compared here: fake_graph_update_check compares its shape. */
int fake_node_params_equal(const fake_node *a, const fake_node *b)
{
    if (a->type != b->type)
        return 0;
    switch (a->type) {
    case CU_GRAPH_NODE_TYPE_KERNEL: return kernel_equal(a, b);
    case CU_GRAPH_NODE_TYPE_MEMCPY: return copy_equal(&a->copy, &b->copy);
    case CU_GRAPH_NODE_TYPE_MEMSET:
        return a->set.dst == b->set.dst && a->set.pitch == b->set.pitch &&
               a->set.value == b->set.value && a->set.elementSize == b->set.elementSize &&
               a->set.width == b->set.width && a->set.height == b->set.height;
    case CU_GRAPH_NODE_TYPE_HOST:
        return a->host.fn == b->host.fn && a->host.userData == b->host.userData &&
               a->host_sync == b->host_sync;
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD: return a->event == b->event;
    case CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL:
    case CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT:
        return a->ext_count == b->ext_count &&
               !memcmp(a->ext_sems, b->ext_sems, a->ext_count * sizeof *a->ext_sems) &&
               !memcmp(a->ext_params, b->ext_params,
                       a->ext_count * sizeof(CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS));
    case CU_GRAPH_NODE_TYPE_MEM_ALLOC:
        return a->alloc.bytesize == b->alloc.bytesize && a->alloc.dptr == b->alloc.dptr &&
               a->alloc.poolProps.allocType == b->alloc.poolProps.allocType &&
               a->alloc.poolProps.location.type == b->alloc.poolProps.location.type &&
               a->alloc.poolProps.location.id == b->alloc.poolProps.location.id;
    case CU_GRAPH_NODE_TYPE_MEM_FREE: return a->free_ptr == b->free_ptr;
    case CU_GRAPH_NODE_TYPE_CONDITIONAL:
        return a->cond == b->cond && a->cond_type == b->cond_type &&
               a->cond_size == b->cond_size;
    default: return 1;
    }
}

/* ---- 13.5's node parameters (ABI 13040) ----------------------------------------------------- */

/* Whether 13.5 added members to the parameters of this kind of node. */
static int extended_135(CUgraphNodeType type)
{
    return type == CU_GRAPH_NODE_TYPE_HOST || type == CU_GRAPH_NODE_TYPE_EVENT_RECORD ||
           type == CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL || type == CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT;
}

/* The members 13.5 added to p's kind, checked, and p without them (what the 12.3 forms take). */
static CUresult strip_135(const CUgraphNodeParams *p, CUgraphNodeParams *plain,
                          unsigned *sync_mode, CUcontext *pref)
{
    memcpy(plain, p, sizeof *plain);
    *sync_mode = 0;
    *pref = NULL;
    unsigned char *u = (unsigned char *)plain + offsetof(CUgraphNodeParams, kernel);
    if (p->type == CU_GRAPH_NODE_TYPE_HOST) {
        FAKE_HOST_NODE_PARAMS_135 host;
        memcpy(&host, u, sizeof host);
        *sync_mode = host.syncMode;
        *pref = host.ctx;
        memset(u + offsetof(FAKE_HOST_NODE_PARAMS_135, syncMode), 0,
               sizeof host - offsetof(FAKE_HOST_NODE_PARAMS_135, syncMode));
    } else if (p->type == CU_GRAPH_NODE_TYPE_EVENT_RECORD) {
        memcpy(pref, u + offsetof(FAKE_EVENT_RECORD_NODE_PARAMS_135, ctx), sizeof *pref);
        memset(u + offsetof(FAKE_EVENT_RECORD_NODE_PARAMS_135, ctx), 0, sizeof *pref);
    } else if (p->type == CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL ||
               p->type == CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT) {
        memcpy(pref, u + offsetof(FAKE_EXT_SEM_NODE_PARAMS_135, ctx), sizeof *pref);
        memset(u + offsetof(FAKE_EXT_SEM_NODE_PARAMS_135, ctx), 0, sizeof *pref);
    }
    if (*sync_mode > FAKE_HOST_TASK_SPINWAIT ||
        (*pref && !fake_ctx_from_handle(*pref) && !fake_ctx_of_green((CUgreenCtx)*pref)))
        return CUDA_ERROR_INVALID_VALUE;
    return CUDA_SUCCESS;
}

static CUresult CUDAAPI f_cuGraphAddNode_v3(CUgraphNode *node, CUgraph graph,
                                            const CUgraphNode *deps, const CUgraphEdgeData *data,
                                            size_t count, CUgraphNodeParams *p)
{
    CUresult rc = fake_enter("cuGraphAddNode_v3", "graph=%p deps=%zu edgeData=%s type=%d",
                             (void *)graph, count, data ? "yes" : "no", p ? (int)p->type : -1);
    CUgraphNodeParams plain;
    unsigned sync_mode = 0;
    CUcontext pref = NULL;
    fake_node *n = NULL;
    if (rc == CUDA_SUCCESS && !p)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = strip_135(p, &plain, &sync_mode, &pref);
    /* the kinds 13.5 extended write nothing back; the others get the caller's own struct,
     * which the 12.3 form fills in (an allocation's address, a conditional's bodies) */
    if (rc == CUDA_SUCCESS)
        rc = fake_graph_add_node(node, graph, deps, data, count,
                                 extended_135(p->type) ? &plain : p, &n);
    if (rc == CUDA_SUCCESS) {
        n->host_sync = sync_mode;
        n->pref_ctx = pref;
    }
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphNodeSetParams_v2(CUgraphNode node, CUgraphNodeParams *p)
{
    CUresult rc = fake_enter("cuGraphNodeSetParams_v2", "node=%p type=%d", (void *)node,
                             p ? (int)p->type : -1);
    CUgraphNodeParams plain;
    unsigned sync_mode = 0;
    CUcontext pref = NULL;
    fake_node *n = NULL;
    if (rc == CUDA_SUCCESS && !p)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = fake_node_check(node, &n);
    if (rc == CUDA_SUCCESS)
        rc = strip_135(p, &plain, &sync_mode, &pref);
    if (rc == CUDA_SUCCESS)
        rc = fake_node_set_generic(n, &plain);
    if (rc == CUDA_SUCCESS) {
        n->host_sync = sync_mode;
        n->pref_ctx = pref;
    }
    return fake_leave(rc);
}

/*
 * cuGraphDebugDotPrint (11.3), in the shape driver 580 prints (H200): the graph as a cluster
 * labelled with its id, each node named after the graph's id and its own local id, with its
 * handle when CU_GRAPH_DEBUG_DOT_FLAGS_HANDLES is set, then the edges.  The runtime reads the
 * graph's id back from the label (lib/graph/graph_ids.c).  Child graphs are not drawn.
 */
static CUresult CUDAAPI f_cuGraphDebugDotPrint(CUgraph graph, const char *path, unsigned flags)
{
    CUresult rc = fake_enter("cuGraphDebugDotPrint", "graph=%p path=%s flags=0x%x",
                             (void *)graph, path ? path : "NULL", flags);
    fake_graph *g = NULL;
    if (rc == CUDA_SUCCESS && (!path || fake_graph_check(graph, &g) != CUDA_SUCCESS))
        rc = CUDA_ERROR_INVALID_VALUE;
    FILE *f = rc == CUDA_SUCCESS ? fopen(path, "w") : NULL;
    if (rc == CUDA_SUCCESS && !f)
        rc = CUDA_ERROR_OPERATING_SYSTEM;
    if (rc != CUDA_SUCCESS)
        return fake_leave(rc);
    fprintf(f, "digraph dot {\nsubgraph cluster_%u {\nlabel=\"graph_%u\" graph[style=\"dashed\"];\n",
            g->id, g->id);
    for (size_t i = 0; i < g->nodes.count; i++) {
        const fake_node *n = g->nodes.items[i];
        fprintf(f, "\"graph_%u_node_%u\"[style=\"solid\" shape=\"rectangle\" label=\"%u\n",
                g->id, n->local_id, n->local_id);
        if (flags & CU_GRAPH_DEBUG_DOT_FLAGS_HANDLES)
            fprintf(f, "node handle: %p\n", (const void *)n);
        fprintf(f, "\"];\n\n");
    }
    for (size_t i = 0; i < g->nodes.count; i++) {
        const fake_node *n = g->nodes.items[i];
        for (size_t d = 0; d < n->deps.count; d++)
            fprintf(f, "\"graph_%u_node_%u\" -> \"graph_%u_node_%u\";\n", g->id,
                    n->deps.items[d].node->local_id, g->id, n->local_id);
    }
    fprintf(f, "}\n}\n");
    fclose(f);
    return fake_leave(CUDA_SUCCESS);
}

const proc_entry fake_procs_graph_info[] = {
    {"cuGraphDebugDotPrint", 11030, 99999, (void *)f_cuGraphDebugDotPrint},
    {"cuGraphGetId", 13010, 99999, (void *)f_cuGraphGetId},
    {"cuGraphExecGetId", 13010, 99999, (void *)f_cuGraphExecGetId},
    {"cuGraphNodeGetLocalId", 13010, 99999, (void *)f_cuGraphNodeGetLocalId},
    {"cuGraphNodeGetToolsId", 13010, 99999, (void *)f_cuGraphNodeGetToolsId},
    {"cuGraphNodeGetContainingGraph", 13010, 99999, (void *)f_cuGraphNodeGetContainingGraph},
    {"cuGraphNodeGetParams", 13020, 99999, (void *)f_cuGraphNodeGetParams},
    {"cuGraphAddNode", 13040, 99999, (void *)f_cuGraphAddNode_v3},
    {"cuGraphNodeSetParams", 13040, 99999, (void *)f_cuGraphNodeSetParams_v2},
    {NULL, 0, 0, NULL},
};
