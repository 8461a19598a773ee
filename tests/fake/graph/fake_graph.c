/*
 * fake_graph.c - the fake driver's graphs, their nodes and edges (see fake_graph.h; node
 * parameters are in fake_graph_node.c, conditional handles and user objects in
 * fake_graph_objects.c, executable graphs in fake_graph_exec.c, capture in fake_capture.c).
 *
 * What it models:
 *   - A graph holds nodes in insertion order; each node its incoming edges with their
 *     CUgraphEdgeData.  Graphs a node owns (a child graph, a conditional node's bodies) are
 *     user-side graphs too: registered, so that cuGraphChildGraphNodeGetGraph and phGraph_out
 *     hand out usable handles, but they cannot be destroyed on their own.
 *   - Clones remember the node each of their nodes came from (cuGraphNodeFindInClone, and the
 *     executable graph's copies).  As cuda.h says, a graph with memory or conditional nodes
 *     cannot be cloned (CUDA_ERROR_NOT_SUPPORTED), and one with memory nodes keeps its
 *     nodes and edges (CUDA_ERROR_NOT_SUPPORTED).
 * Handles are checked against registries before use: NULL gives CUDA_ERROR_INVALID_VALUE, a
 * stale or bogus graph or executable graph CUDA_ERROR_INVALID_HANDLE as before, a stale node
 * CUDA_ERROR_INVALID_VALUE (fake_node_check).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph/fake_graph.h"

ptr_vec fake_graphs, fake_execs;       /* live user-side graphs and executable graphs */

int fake_vec_find(const ptr_vec *v, const void *item)
{
    for (size_t i = 0; i < v->count; i++)
        if (v->items[i] == item)
            return (int)i;
    return -1;
}

CUresult fake_graph_check(CUgraph handle, fake_graph **out)
{
    if (!handle)
        return CUDA_ERROR_INVALID_VALUE;
    if (fake_vec_find(&fake_graphs, handle) < 0)
        return CUDA_ERROR_INVALID_HANDLE;
    *out = (fake_graph *)handle;
    return CUDA_SUCCESS;
}

CUresult fake_exec_check(CUgraphExec handle, fake_exec **out)
{
    if (!handle)
        return CUDA_ERROR_INVALID_VALUE;
    if (fake_vec_find(&fake_execs, handle) < 0)
        return CUDA_ERROR_INVALID_HANDLE;
    *out = (fake_exec *)handle;
    return CUDA_SUCCESS;
}

/* A node of a live user-side graph.  An unknown or destroyed node is CUDA_ERROR_INVALID_VALUE
 * (cudaGraphDestroyNode of a destroyed node answers cudaErrorInvalidValue on the driver). */
CUresult fake_node_check(CUgraphNode handle, fake_node **out)
{
    if (!handle)
        return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < fake_graphs.count; i++) {
        fake_graph *g = fake_graphs.items[i];
        if (fake_vec_find(&g->nodes, handle) >= 0) {
            *out = (fake_node *)handle;
            return CUDA_SUCCESS;
        }
    }
    return CUDA_ERROR_INVALID_VALUE;   /* a stale node: as the runtime's tests measured */
}

int fake_dep_push(dep_vec *v, fake_node *node, const CUgraphEdgeData *data)
{
    if (v->count == v->cap) {
        size_t cap = v->cap ? 2 * v->cap : 4;
        fake_dep *items = realloc(v->items, cap * sizeof *items);
        if (!items)
            return -1;
        v->items = items;
        v->cap = cap;
    }
    v->items[v->count].node = node;
    if (data)
        v->items[v->count].data = *data;
    else
        memset(&v->items[v->count].data, 0, sizeof(CUgraphEdgeData));
    v->count++;
    return 0;
}

static int dep_find(const dep_vec *v, const fake_node *node)
{
    for (size_t i = 0; i < v->count; i++)
        if (v->items[i].node == node)
            return (int)i;
    return -1;
}

static int edge_data_is_zero(const CUgraphEdgeData *d)
{
    static const CUgraphEdgeData zero;
    return memcmp(d, &zero, sizeof zero) == 0;
}

/* CUgraphEdgeData as cuda.h defines it: to_port must be 0 (no node type has inbound ports);
 * a non-zero from_port (programmatic or launch-order) only out of a kernel node; the
 * programmatic type only between kernel nodes, out of such a port; reserved bytes zero. */
static int edge_data_ok(const CUgraphEdgeData *d, const fake_node *from, CUgraphNodeType to)
{
    for (size_t i = 0; i < sizeof d->reserved; i++)
        if (d->reserved[i])
            return 0;
    if (d->to_port != 0 || d->type > CU_GRAPH_DEPENDENCY_TYPE_PROGRAMMATIC ||
        d->from_port > CU_GRAPH_KERNEL_NODE_PORT_LAUNCH_ORDER)
        return 0;
    if (d->from_port && from->type != CU_GRAPH_NODE_TYPE_KERNEL)
        return 0;
    if (d->type == CU_GRAPH_DEPENDENCY_TYPE_PROGRAMMATIC &&
        (from->type != CU_GRAPH_NODE_TYPE_KERNEL || to != CU_GRAPH_NODE_TYPE_KERNEL ||
         d->from_port == CU_GRAPH_KERNEL_NODE_PORT_DEFAULT))
        return 0;
    return 1;
}

/* ---- graphs and nodes ----------------------------------------------------------------------- */

fake_graph *fake_graph_new(int registered)
{
    fake_graph *g = calloc(1, sizeof *g);
    if (g && registered && fake_vec_push(&fake_graphs, g) != 0) {
        free(g);
        return NULL;
    }
    if (g) {
        g->registered = registered;
        g->id = fake_graph_next_id();
    }
    return g;
}

void fake_node_free(fake_node *n)
{
    free(n->deps.items);
    free(n->params);
    free(n->arg_ptrs);
    free(n->access);
    if (n->child)
        fake_graph_free(n->child);
    for (unsigned i = 0; n->bodies && i < n->cond_size; i++)
        if (n->bodies[i])
            fake_graph_free(n->bodies[i]);
    free(n->bodies);
    free(n->body_handles);
    free(n->ext_sems);
    free(n->ext_params);
    if (n->gmem)
        fake_gmem_put(n->gmem);
    if (n->cond)
        fake_cond_put(n->cond);
    free(n);
}

void fake_graph_free(fake_graph *g)
{
    int at = fake_vec_find(&fake_graphs, g);
    if (at >= 0)
        fake_vec_remove(&fake_graphs, (size_t)at);
    for (size_t i = 0; i < fake_execs.count; i++) {
        fake_exec *x = fake_execs.items[i];
        if (x->source == g)
            x->source = NULL;
    }
    for (size_t i = 0; i < g->nodes.count; i++)
        fake_node_free(g->nodes.items[i]);
    free(g->nodes.items);
    for (size_t i = 0; i < g->conds.count; i++) {
        fake_cond *c = g->conds.items[i];
        c->graph = NULL;
        fake_cond_put(c);
    }
    free(g->conds.items);
    for (size_t i = 0; i < g->uref_count; i++)
        fake_uobj_release(g->urefs[i].obj, g->urefs[i].count);
    free(g->urefs);
    free(g);
}

int fake_graph_kinds(const fake_graph *g)
{
    int kinds = 0;
    for (size_t i = 0; i < g->nodes.count; i++) {
        const fake_node *n = g->nodes.items[i];
        if (n->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC || n->type == CU_GRAPH_NODE_TYPE_MEM_FREE)
            kinds |= 1;
        if (n->type == CU_GRAPH_NODE_TYPE_CONDITIONAL)
            kinds |= 2;
        if (n->child)
            kinds |= fake_graph_kinds(n->child);
        for (unsigned j = 0; n->bodies && j < n->cond_size; j++)
            kinds |= fake_graph_kinds(n->bodies[j]);
    }
    return kinds;
}

/* Fills in the argument pointers of a kernel node into its own packed copy. */
int fake_node_arg_ptrs(fake_node *n)
{
    free(n->arg_ptrs);
    n->arg_ptrs = NULL;
    if (!n->kernel || !n->kernel->param_count)
        return 0;
    if (!(n->arg_ptrs = calloc(n->kernel->param_count, sizeof *n->arg_ptrs)))
        return -1;
    for (unsigned i = 0; i < n->kernel->param_count; i++)
        n->arg_ptrs[i] = n->params + n->kernel->params[i].offset;
    return 0;
}

static fake_node *node_clone(const fake_node *n, fake_graph *into, int for_exec)
{
    fake_node *c = malloc(sizeof *c);
    if (!c)
        return NULL;
    *c = *n;
    c->graph = into;
    c->origin = n;
    c->deps = (dep_vec){ NULL, 0, 0 };
    c->params = NULL;
    c->arg_ptrs = NULL;
    c->access = NULL;
    c->child = NULL;
    c->bodies = NULL;
    c->body_handles = NULL;
    c->gmem = NULL;
    c->cond = NULL;
    c->ext_sems = NULL;
    c->ext_params = NULL;
    int ok = fake_node_extsem_copy(c, n) == 0;
    if (ok && n->kernel && (ok = (c->params = malloc(n->kernel->param_size + 1)) != NULL))
        memcpy(c->params, n->params, n->kernel->param_size + 1);
    if (ok && n->kernel && n->arg_ptrs)
        ok = fake_node_arg_ptrs(c) == 0;
    if (ok && n->access && (ok = (c->access = malloc(n->alloc.accessDescCount *
                                                      sizeof *c->access)) != NULL))
        memcpy(c->access, n->access, n->alloc.accessDescCount * sizeof *c->access);
    c->alloc.accessDescs = c->access;
    if (ok && n->child)
        ok = fake_graph_clone(n->child, for_exec, c, &c->child) == CUDA_SUCCESS;
    if (ok && n->bodies) {
        ok = (c->bodies = calloc(n->cond_size, sizeof *c->bodies)) &&
             (c->body_handles = calloc(n->cond_size, sizeof *c->body_handles));
        for (unsigned i = 0; ok && i < n->cond_size; i++) {
            ok = fake_graph_clone(n->bodies[i], for_exec, c, &c->bodies[i]) == CUDA_SUCCESS;
            if (ok)
                c->body_handles[i] = (CUgraph)c->bodies[i];
        }
    }
    if (ok && n->gmem)
        (c->gmem = n->gmem)->refs++;
    if (ok && n->cond)
        (c->cond = n->cond)->refs++;
    if (!ok) {
        fake_node_free(c);             /* releases what was copied so far */
        return NULL;
    }
    return c;
}

CUresult fake_graph_clone(const fake_graph *g, int for_exec, const fake_node *owner,
                          fake_graph **out)
{
    if (!for_exec && fake_graph_kinds(g))
        return CUDA_ERROR_NOT_SUPPORTED;
    fake_graph *c = fake_graph_new(!for_exec);
    if (!c)
        return CUDA_ERROR_OUT_OF_MEMORY;
    c->owner = owner;
    c->next_local = g->next_local;     /* its nodes keep their local ids (node_clone) */
    for (size_t i = 0; i < g->nodes.count; i++) {
        fake_node *n = node_clone(g->nodes.items[i], c, for_exec);
        if (!n || fake_vec_push(&c->nodes, n) != 0) {
            if (n)
                fake_node_free(n);
            fake_graph_free(c);
            return CUDA_ERROR_OUT_OF_MEMORY;
        }
    }
    for (size_t i = 0; i < g->nodes.count; i++) {
        const fake_node *n = g->nodes.items[i];
        for (size_t j = 0; j < n->deps.count; j++) {
            int at = fake_vec_find(&g->nodes, n->deps.items[j].node);
            if (fake_dep_push(&((fake_node *)c->nodes.items[i])->deps, c->nodes.items[at],
                              &n->deps.items[j].data) != 0) {
                fake_graph_free(c);
                return CUDA_ERROR_OUT_OF_MEMORY;
            }
        }
    }
    if (fake_graph_retain_urefs(c, g) != 0) {
        fake_graph_free(c);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    *out = c;
    return CUDA_SUCCESS;
}

fake_node *fake_node_in_clone(const fake_graph *g, const fake_node *node)
{
    for (size_t i = 0; i < g->nodes.count; i++) {
        fake_node *n = g->nodes.items[i];
        if (n->origin == node)
            return n;
        fake_node *inner = n->child ? fake_node_in_clone(n->child, node) : NULL;
        for (unsigned j = 0; !inner && n->bodies && j < n->cond_size; j++)
            inner = fake_node_in_clone(n->bodies[j], node);
        if (inner)
            return inner;
    }
    return NULL;
}

CUresult fake_node_new(fake_graph *g, const fake_dep *deps, size_t count, CUgraphNodeType type,
                       fake_node **out)
{
    if (count && !deps)
        return CUDA_ERROR_INVALID_VALUE;
    fake_node *n = calloc(1, sizeof *n);
    if (!n)
        return CUDA_ERROR_OUT_OF_MEMORY;
    n->type = type;
    n->graph = g;
    n->enabled = 1;
    n->ctx = (CUcontext)fake_current_ctx();
    for (size_t i = 0; i < count; i++) {
        if (fake_vec_find(&g->nodes, deps[i].node) < 0 || dep_find(&n->deps, deps[i].node) >= 0 ||
            !edge_data_ok(&deps[i].data, deps[i].node, type) ||
            fake_dep_push(&n->deps, deps[i].node, &deps[i].data) != 0) {
            fake_node_free(n);
            return CUDA_ERROR_INVALID_VALUE;
        }
    }
    *out = n;
    return CUDA_SUCCESS;
}

/* The handle form: dependencies, optional edge data (NULL: all default). */
CUresult fake_node_new_h(fake_graph *g, const CUgraphNode *deps, const CUgraphEdgeData *data,
                         size_t count, CUgraphNodeType type, fake_node **out)
{
    if (count && !deps)
        return CUDA_ERROR_INVALID_VALUE;
    fake_dep *all = count ? calloc(count, sizeof *all) : NULL;
    if (count && !all)
        return CUDA_ERROR_OUT_OF_MEMORY;
    for (size_t i = 0; i < count; i++) {
        all[i].node = (fake_node *)deps[i];
        if (data)
            all[i].data = data[i];
    }
    CUresult rc = fake_node_new(g, all, count, type, out);
    free(all);
    return rc;
}

CUresult fake_node_commit(fake_graph *g, fake_node *n, CUgraphNode *out)
{
    if (fake_vec_push(&g->nodes, n) != 0) {
        fake_node_free(n);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    n->local_id = g->next_local++;
    *out = (CUgraphNode)n;
    return CUDA_SUCCESS;
}

/* ---- graph entry points --------------------------------------------------------------------- */

static CUresult CUDAAPI f_cuGraphCreate(CUgraph *graph, unsigned int flags)
{
    CUresult rc = fake_enter("cuGraphCreate", "flags=%u", flags);
    fake_graph *g = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && (!graph || flags != 0))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && !(g = fake_graph_new(1)))
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    if (rc == CUDA_SUCCESS)
        *graph = (CUgraph)g;
    return fake_leave(rc);
}

/* A graph a node owns goes with its node: destroying it alone is refused (the real driver's
 * behaviour is undefined there). */
static CUresult CUDAAPI f_cuGraphDestroy(CUgraph graph)
{
    CUresult rc = fake_enter("cuGraphDestroy", "graph=%p", (void *)graph);
    fake_graph *g = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_graph_check(graph, &g);
    if (rc == CUDA_SUCCESS && g->owner)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        fake_graph_free(g);
    return fake_leave_flush(rc);
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
        rc = fake_graph_check(graph, &g);
    if (rc == CUDA_SUCCESS)
        rc = fake_graph_clone(g, 0, NULL, &c);
    if (rc == CUDA_SUCCESS)
        *clone = (CUgraph)c;
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
        rc = fake_graph_check(graph, &g);
    if (rc == CUDA_SUCCESS && count && (!from || !to))
        rc = CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; rc == CUDA_SUCCESS && i < count; i++) {
        fake_node *src = (fake_node *)from[i], *dst = (fake_node *)to[i];
        if (fake_vec_find(&g->nodes, src) < 0 || fake_vec_find(&g->nodes, dst) < 0 ||
            src == dst || dep_find(&dst->deps, src) >= 0 ||
            (edges && !edge_data_ok(&edges[i], src, dst->type)))
            rc = CUDA_ERROR_INVALID_VALUE;
        else if (fake_dep_push(&dst->deps, src, edges ? &edges[i] : NULL) != 0)
            rc = CUDA_ERROR_OUT_OF_MEMORY;
    }
    return fake_leave(rc);
}

/* An edge must exist with the same data (NULL edgeData: default data), as cuda.h says; a graph
 * with memory nodes keeps its edges (CUDA_ERROR_NOT_SUPPORTED, cuda.h names no code). */
static CUresult CUDAAPI f_cuGraphRemoveDependencies(CUgraph graph, const CUgraphNode *from,
                                                    const CUgraphNode *to,
                                                    const CUgraphEdgeData *edges, size_t count)
{
    CUresult rc = fake_enter("cuGraphRemoveDependencies", "graph=%p count=%zu edgeData=%s",
                             (void *)graph, count, edges ? "yes" : "no");
    fake_graph *g = NULL;
    static const CUgraphEdgeData zero;
    if (rc == CUDA_SUCCESS)
        rc = fake_graph_check(graph, &g);
    if (rc == CUDA_SUCCESS && count && (!from || !to))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && count && (fake_graph_kinds(g) & 1))
        rc = CUDA_ERROR_NOT_SUPPORTED;
    for (size_t i = 0; rc == CUDA_SUCCESS && i < count; i++) {
        fake_node *dst = (fake_node *)to[i];
        int at = fake_vec_find(&g->nodes, dst) < 0 ? -1 : dep_find(&dst->deps, (fake_node *)from[i]);
        if (at < 0 || memcmp(&dst->deps.items[at].data, edges ? &edges[i] : &zero,
                             sizeof zero) != 0)
            rc = CUDA_ERROR_INVALID_VALUE;
    }
    for (size_t i = 0; rc == CUDA_SUCCESS && i < count; i++) {
        fake_node *dst = (fake_node *)to[i];
        int at = dep_find(&dst->deps, (fake_node *)from[i]);
        if (at >= 0) {
            memmove(&dst->deps.items[at], &dst->deps.items[at + 1],
                    (dst->deps.count - (size_t)at - 1) * sizeof *dst->deps.items);
            dst->deps.count--;
        }
    }
    return fake_leave(rc);
}

/* The size-query protocol of cuGraphGetNodes and friends: NULL array: *count = the number;
 * otherwise fill up to *count, NULL the rest, *count = the number filled. */
static void fill_nodes(fake_node *const *all, const CUgraphEdgeData *data, size_t n,
                       CUgraphNode *out, CUgraphEdgeData *data_out, size_t *count)
{
    if (!out) {
        *count = n;
        return;
    }
    for (size_t i = 0; i < *count; i++) {
        out[i] = i < n ? (CUgraphNode)all[i] : NULL;
        if (data_out && i < n)
            data_out[i] = data[i];
        else if (data_out)
            memset(&data_out[i], 0, sizeof data_out[i]);
    }
    if (n < *count)
        *count = n;
}

static CUresult list_nodes(CUgraph graph, int roots_only, CUgraphNode *out, size_t *count)
{
    fake_graph *g = NULL;
    CUresult rc = count ? fake_graph_check(graph, &g) : CUDA_ERROR_INVALID_VALUE;
    fake_node **all = rc == CUDA_SUCCESS ? calloc(g->nodes.count + 1, sizeof *all) : NULL;
    if (rc == CUDA_SUCCESS && !all)
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    size_t n = 0;
    for (size_t i = 0; rc == CUDA_SUCCESS && i < g->nodes.count; i++) {
        fake_node *node = g->nodes.items[i];
        if (!roots_only || !node->deps.count)
            all[n++] = node;
    }
    if (rc == CUDA_SUCCESS)
        fill_nodes(all, NULL, n, out, NULL, count);
    free(all);
    return rc;
}

static CUresult CUDAAPI f_cuGraphGetNodes(CUgraph graph, CUgraphNode *nodes, size_t *count)
{
    CUresult rc = fake_enter("cuGraphGetNodes", "graph=%p nodes=%s", (void *)graph,
                             nodes ? "array" : "NULL");
    if (rc == CUDA_SUCCESS)
        rc = list_nodes(graph, 0, nodes, count);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphGetRootNodes(CUgraph graph, CUgraphNode *nodes, size_t *count)
{
    CUresult rc = fake_enter("cuGraphGetRootNodes", "graph=%p nodes=%s", (void *)graph,
                             nodes ? "array" : "NULL");
    if (rc == CUDA_SUCCESS)
        rc = list_nodes(graph, 1, nodes, count);
    return fake_leave(rc);
}

/* cuGraphGetEdges: edges in node order, then dependency order.  NULL edgeData while an edge has
 * non-default data is CUDA_ERROR_LOSSY_QUERY (with arrays: a lossy fill), as cuda.h says. */
static CUresult CUDAAPI f_cuGraphGetEdges(CUgraph graph, CUgraphNode *from, CUgraphNode *to,
                                          CUgraphEdgeData *data, size_t *count)
{
    CUresult rc = fake_enter("cuGraphGetEdges", "graph=%p from=%s to=%s edgeData=%s",
                             (void *)graph, from ? "array" : "NULL", to ? "array" : "NULL",
                             data ? "array" : "NULL");
    fake_graph *g = NULL;
    if (rc == CUDA_SUCCESS && (!count || (!from) != (!to) || (data && !from)))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = fake_graph_check(graph, &g);
    size_t n = 0;
    int lossy = 0;
    for (size_t i = 0; rc == CUDA_SUCCESS && i < g->nodes.count; i++) {
        fake_node *dst = g->nodes.items[i];
        for (size_t j = 0; j < dst->deps.count; j++, n++) {
            lossy |= !edge_data_is_zero(&dst->deps.items[j].data);
            if (from && n < *count) {
                from[n] = (CUgraphNode)dst->deps.items[j].node;
                to[n] = (CUgraphNode)dst;
                if (data)
                    data[n] = dst->deps.items[j].data;
            }
        }
    }
    if (rc == CUDA_SUCCESS && lossy && !data && from)
        rc = CUDA_ERROR_LOSSY_QUERY;            /* (a count alone loses nothing) */
    if (rc == CUDA_SUCCESS && from) {
        for (size_t i = n; i < *count; i++) {
            from[i] = to[i] = NULL;
            if (data)
                memset(&data[i], 0, sizeof data[i]);
        }
        if (n < *count)
            *count = n;
    } else if (rc == CUDA_SUCCESS) {
        *count = n;
    }
    return fake_leave(rc);
}

/* cuGraphNodeGetDependencies (incoming) and cuGraphNodeGetDependentNodes (outgoing). */
static CUresult node_neighbours(CUgraphNode node, int outgoing, CUgraphNode *out,
                                CUgraphEdgeData *data, size_t *count)
{
    fake_node *n = NULL;
    CUresult rc = count && (!data || out) ? fake_node_check(node, &n) : CUDA_ERROR_INVALID_VALUE;
    if (rc != CUDA_SUCCESS)
        return rc;
    size_t cap = outgoing ? n->graph->nodes.count : n->deps.count, k = 0;
    fake_node **all = calloc(cap + 1, sizeof *all);
    CUgraphEdgeData *edata = calloc(cap + 1, sizeof *edata);
    int lossy = 0;
    if (!all || !edata)
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    for (size_t i = 0; rc == CUDA_SUCCESS && !outgoing && i < n->deps.count; i++, k++) {
        all[k] = n->deps.items[i].node;
        edata[k] = n->deps.items[i].data;
    }
    for (size_t i = 0; rc == CUDA_SUCCESS && outgoing && i < n->graph->nodes.count; i++) {
        fake_node *other = n->graph->nodes.items[i];
        int at = dep_find(&other->deps, n);
        if (at >= 0) {
            all[k] = other;
            edata[k++] = other->deps.items[at].data;
        }
    }
    for (size_t i = 0; i < k; i++)
        lossy |= !edge_data_is_zero(&edata[i]);
    if (rc == CUDA_SUCCESS && lossy && !data && out)
        rc = CUDA_ERROR_LOSSY_QUERY;
    if (rc == CUDA_SUCCESS)
        fill_nodes(all, edata, k, out, data, count);
    free(all);
    free(edata);
    return rc;
}

static CUresult CUDAAPI f_cuGraphNodeGetDependencies(CUgraphNode node, CUgraphNode *deps,
                                                     CUgraphEdgeData *data, size_t *count)
{
    CUresult rc = fake_enter("cuGraphNodeGetDependencies", "node=%p deps=%s edgeData=%s",
                             (void *)node, deps ? "array" : "NULL", data ? "array" : "NULL");
    if (rc == CUDA_SUCCESS)
        rc = node_neighbours(node, 0, deps, data, count);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphNodeGetDependentNodes(CUgraphNode node, CUgraphNode *nodes,
                                                       CUgraphEdgeData *data, size_t *count)
{
    CUresult rc = fake_enter("cuGraphNodeGetDependentNodes", "node=%p nodes=%s edgeData=%s",
                             (void *)node, nodes ? "array" : "NULL", data ? "array" : "NULL");
    if (rc == CUDA_SUCCESS)
        rc = node_neighbours(node, 1, nodes, data, count);
    return fake_leave(rc);
}

/* Removes the node and every edge into or out of it.  A graph with memory nodes keeps its
 * nodes (cuda.h: "will return an error"; the fake says CUDA_ERROR_NOT_SUPPORTED). */
static CUresult CUDAAPI f_cuGraphDestroyNode(CUgraphNode node)
{
    CUresult rc = fake_enter("cuGraphDestroyNode", "node=%p", (void *)node);
    fake_node *n = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_node_check(node, &n);
    if (rc == CUDA_SUCCESS && (fake_graph_kinds(n->graph) & 1))
        rc = CUDA_ERROR_NOT_SUPPORTED;
    if (rc == CUDA_SUCCESS) {
        fake_graph *g = n->graph;
        fake_vec_remove(&g->nodes, (size_t)fake_vec_find(&g->nodes, n));
        for (size_t i = 0; i < g->nodes.count; i++) {
            fake_node *other = g->nodes.items[i];
            int at = dep_find(&other->deps, n);
            if (at >= 0) {
                memmove(&other->deps.items[at], &other->deps.items[at + 1],
                        (other->deps.count - (size_t)at - 1) * sizeof *other->deps.items);
                other->deps.count--;
            }
        }
        fake_node_free(n);
    }
    return fake_leave_flush(rc);
}

static CUresult CUDAAPI f_cuGraphNodeGetType(CUgraphNode node, CUgraphNodeType *type)
{
    CUresult rc = fake_enter("cuGraphNodeGetType", "node=%p", (void *)node);
    fake_node *n = NULL;
    if (rc == CUDA_SUCCESS && !type)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = fake_node_check(node, &n);
    if (rc == CUDA_SUCCESS)
        *type = n->type;
    return fake_leave(rc);
}

/* The clone's node made from hOriginalNode (searching the graphs its nodes own too); none:
 * CUDA_ERROR_INVALID_VALUE, as cuda.h says. */
static CUresult CUDAAPI f_cuGraphNodeFindInClone(CUgraphNode *found, CUgraphNode original,
                                                 CUgraph clone)
{
    CUresult rc = fake_enter("cuGraphNodeFindInClone", "node=%p clone=%p", (void *)original,
                             (void *)clone);
    fake_graph *g = NULL;
    fake_node *n = NULL;
    if (rc == CUDA_SUCCESS && (!found || !original))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = fake_graph_check(clone, &g);
    if (rc == CUDA_SUCCESS && !(n = fake_node_in_clone(g, (const fake_node *)original)))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        *found = (CUgraphNode)n;
    return fake_leave(rc);
}

/* cuGraphDebugDotPrint is in fake_graph_info.c (hidden with FAKECUDA_HIDE, the runtime's answer
 * without it is tested too). */
const proc_entry fake_procs_graph[] = {
    {"cuGraphCreate", 10000, 99999, (void *)f_cuGraphCreate},
    {"cuGraphDestroy", 10000, 99999, (void *)f_cuGraphDestroy},
    {"cuGraphClone", 10000, 99999, (void *)f_cuGraphClone},
    {"cuGraphAddDependencies", 12030, 99999, (void *)f_cuGraphAddDependencies},
    {"cuGraphRemoveDependencies", 12030, 99999, (void *)f_cuGraphRemoveDependencies},
    {"cuGraphGetNodes", 10000, 99999, (void *)f_cuGraphGetNodes},
    {"cuGraphGetRootNodes", 10000, 99999, (void *)f_cuGraphGetRootNodes},
    {"cuGraphGetEdges", 12030, 99999, (void *)f_cuGraphGetEdges},
    {"cuGraphNodeGetDependencies", 12030, 99999, (void *)f_cuGraphNodeGetDependencies},
    {"cuGraphNodeGetDependentNodes", 12030, 99999, (void *)f_cuGraphNodeGetDependentNodes},
    {"cuGraphDestroyNode", 10000, 99999, (void *)f_cuGraphDestroyNode},
    {"cuGraphNodeGetType", 10000, 99999, (void *)f_cuGraphNodeGetType},
    {"cuGraphNodeFindInClone", 10000, 99999, (void *)f_cuGraphNodeFindInClone},
    {NULL, 0, 0, NULL},
};
