/*
 * fake_graph_exec.c - the fake driver's executable graphs: instantiation, launch, upload,
 * update, the cuGraphExec*SetParams family, enabling and disabling nodes (see fake_graph.h).
 *
 * What it models:
 *   - Instantiation clones the graph (with its user object references) and keeps the flags.  A
 *     graph with memory or conditional nodes may have one executable graph at a time (cuda.h);
 *     a second instantiation is CUDA_ERROR_NOT_SUPPORTED (cuda.h names no code).
 *   - A launch runs the nodes in dependency order after the lock is dropped, in one go (the
 *     fake has no real streams, so a launch completes before it returns): each node's
 *     bookkeeping is done under the lock, its work (a host kernel, a copy, a host function)
 *     without it, so host code may call back into the driver, and fake_set_conditional in
 *     particular.  Kernels are recorded like cuLaunchKernel's launches; disabled nodes are
 *     skipped; an event record node marks its event recorded; a mem alloc node makes its
 *     (fixed) allocation live and a mem free node ends it; a conditional node runs its bodies by
 *     its handle's value (IF, WHILE until the value is 0, SWITCH), handles made with
 *     CU_GRAPH_COND_ASSIGN_DEFAULT are reset to their default when the launch starts.
 *   - The executable graph's nodes are found from the user graph's through their origin; the
 *     setters change only the executable graph's copy.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph/fake_graph.h"

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
                ready = ran[fake_vec_find(&g->nodes, n->deps.items[j].node)];
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

static int graph_tree_has_cycle(const fake_graph *g)
{
    if (graph_has_cycle(g))
        return 1;
    for (size_t i = 0; i < g->nodes.count; i++) {
        const fake_node *n = g->nodes.items[i];
        if (n->child && graph_tree_has_cycle(n->child))
            return 1;
        for (unsigned j = 0; n->bodies && j < n->cond_size; j++)
            if (graph_tree_has_cycle(n->bodies[j]))
                return 1;
    }
    return 0;
}

#define INSTANTIATE_FLAGS 0xfull       /* AUTO_FREE_ON_LAUNCH, UPLOAD, DEVICE_LAUNCH, PRIORITY */

static CUresult instantiate(CUgraphExec *out, CUgraph graph, cuuint64_t flags)
{
    fake_graph *g = NULL;
    fake_exec *x = NULL;
    CUresult rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && (!out || (flags & ~INSTANTIATE_FLAGS)))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = fake_graph_check(graph, &g);
    if (rc == CUDA_SUCCESS && graph_tree_has_cycle(g))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && g->instances && fake_graph_kinds(g))
        rc = CUDA_ERROR_NOT_SUPPORTED;
    if (rc == CUDA_SUCCESS && !(x = calloc(1, sizeof *x)))
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    if (rc == CUDA_SUCCESS)
        rc = fake_graph_clone(g, 1, NULL, &x->graph);
    if (rc == CUDA_SUCCESS && fake_vec_push(&fake_execs, x) != 0) {
        fake_graph_free(x->graph);
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    }
    if (rc != CUDA_SUCCESS) {
        free(x);
        return rc;
    }
    x->source = g;
    x->flags = flags;
    x->id = fake_graph_next_id();
    g->instances++;
    *out = (CUgraphExec)x;
    return CUDA_SUCCESS;
}

static CUresult CUDAAPI f_cuGraphInstantiateWithFlags(CUgraphExec *exec, CUgraph graph,
                                                      unsigned long long flags)
{
    CUresult rc = fake_enter("cuGraphInstantiateWithFlags", "graph=%p flags=0x%llx",
                             (void *)graph, flags);
    if (rc == CUDA_SUCCESS)
        rc = instantiate(exec, graph, flags);
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
    if (rc == CUDA_SUCCESS && (p->flags & ~INSTANTIATE_FLAGS))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = fake_stream_check(p->hUploadStream);
    if (rc == CUDA_SUCCESS)
        rc = instantiate(exec, graph, p->flags);
    if (p) {
        p->hErrNode_out = NULL;
        p->result_out = rc == CUDA_SUCCESS ? CUDA_GRAPH_INSTANTIATE_SUCCESS
                                           : CUDA_GRAPH_INSTANTIATE_ERROR;
    }
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphExecGetFlags(CUgraphExec exec, cuuint64_t *flags)
{
    CUresult rc = fake_enter("cuGraphExecGetFlags", "exec=%p", (void *)exec);
    fake_exec *x = NULL;
    if (rc == CUDA_SUCCESS && !flags)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = fake_exec_check(exec, &x);
    if (rc == CUDA_SUCCESS)
        *flags = x->flags;
    return fake_leave(rc);
}

/* ---- launch --------------------------------------------------------------------------------- */

/* With the lock held: every kernel still loaded, and handles reset to their defaults. */
static CUresult launch_prepare(const fake_graph *g)
{
    for (size_t i = 0; i < g->nodes.count; i++) {
        const fake_node *n = g->nodes.items[i];
        fake_kernel *k = NULL;
        CUresult rc = CUDA_SUCCESS;
        if (n->type == CU_GRAPH_NODE_TYPE_KERNEL)
            rc = fake_live_kernel((CUfunction)n->kernel, &k);
        if (rc == CUDA_SUCCESS && n->child)
            rc = launch_prepare(n->child);
        for (unsigned j = 0; rc == CUDA_SUCCESS && n->bodies && j < n->cond_size; j++)
            rc = launch_prepare(n->bodies[j]);
        if (rc != CUDA_SUCCESS)
            return rc;
        if (n->cond && (n->cond->flags & CU_GRAPH_COND_ASSIGN_DEFAULT))
            n->cond->value = n->cond->default_value;
    }
    return CUDA_SUCCESS;
}

/* With the lock held: g's nodes in dependency order (NULL on failure). */
static fake_node **graph_order(const fake_graph *g)
{
    size_t count = g->nodes.count, done = 0;
    char *ran = calloc(count + 1, 1);
    fake_node **order = calloc(count + 1, sizeof *order);
    while (ran && order && done < count) {
        size_t before = done;
        for (size_t i = 0; i < count; i++) {
            fake_node *n = g->nodes.items[i];
            int ready = !ran[i];
            for (size_t j = 0; ready && j < n->deps.count; j++)
                ready = ran[fake_vec_find(&g->nodes, n->deps.items[j].node)];
            if (ready) {
                ran[i] = 1;
                order[done++] = n;
            }
        }
        if (done == before)
            break;                     /* a cycle: instantiation refuses those */
    }
    free(ran);
    if (order && done < count) {
        free(order);
        order = NULL;
    }
    return order;
}

/* Records a kernel node's launch like cuLaunchKernel would (lock held). */
static const fake_launch *record_kernel(const fake_node *n, CUstream stream,
                                        fake_host_kernel *fn)
{
    const fake_kernel *k = n->kernel;
    fake_launch *l = calloc(1, sizeof *l);
    if (l && (!(l->params = malloc(k->param_size + 1)) ||
              fake_vec_push(&fake_g.launches, l) != 0)) {
        free(l->params);
        free(l);
        l = NULL;
    }
    if (!l)
        return NULL;
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
    l->sm_count = fake_stream_sms(stream, &l->green_ctx);
    *fn = fake_host_kernel_for(k->name);
    return l;
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

/* The body a conditional node runs now (lock held), or NULL. */
static const fake_graph *cond_body(const fake_node *n)
{
    unsigned v = n->cond->value;
    switch (n->cond_type) {
    case CU_GRAPH_COND_TYPE_IF: return v ? n->bodies[0] : n->cond_size == 2 ? n->bodies[1] : NULL;
    case CU_GRAPH_COND_TYPE_WHILE: return v ? n->bodies[0] : NULL;
    default: return v < n->cond_size ? n->bodies[v] : NULL;
    }
}

/* Runs g without the lock held; takes it for each node's bookkeeping. */
static void run_graph(const fake_graph *g, CUstream stream)
{
    fake_lock();
    fake_node **order = graph_order(g);
    fake_unlock();
    for (size_t i = 0; order && i < g->nodes.count; i++) {
        const fake_node *n = order[i];
        fake_host_kernel fn = NULL;
        const fake_launch *l = NULL;
        CUDA_MEMCPY3D copy = { 0 };
        CUDA_MEMSET_NODE_PARAMS set = { 0 };
        CUDA_HOST_NODE_PARAMS host = { NULL, NULL };
        const fake_graph *body = NULL;
        fake_lock();
        int enabled = n->enabled;
        switch (n->type) {
        case CU_GRAPH_NODE_TYPE_KERNEL:
            if (enabled)
                l = record_kernel(n, stream, &fn);
            break;
        case CU_GRAPH_NODE_TYPE_MEMCPY:
            copy = n->copy;
            if (enabled && (copy.srcMemoryType == CU_MEMORYTYPE_ARRAY ||
                            copy.dstMemoryType == CU_MEMORYTYPE_ARRAY)) {
                fake_copy_3d(&copy);   /* arrays: cuMemcpy3D's copy, under the lock */
                enabled = 0;
            }
            break;
        case CU_GRAPH_NODE_TYPE_MEMSET: set = n->set; break;
        case CU_GRAPH_NODE_TYPE_HOST: host = n->host; break;
        case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
            if (fake_event_is_live(n->event))
                fake_event_mark_recorded(n->event);
            break;
        case CU_GRAPH_NODE_TYPE_MEM_ALLOC: fake_gmem_mark(n->gmem, 1); break;
        case CU_GRAPH_NODE_TYPE_MEM_FREE:
            if (fake_gmem_at(n->free_ptr))
                fake_gmem_mark(fake_gmem_at(n->free_ptr), 0);
            break;
        case CU_GRAPH_NODE_TYPE_CONDITIONAL: body = cond_body(n); break;
        case CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL:
        case CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT:
            if (enabled)
                fake_node_extsem_run(n);
            break;
        default: break;
        }
        fake_unlock();
        switch (n->type) {
        case CU_GRAPH_NODE_TYPE_KERNEL:
            if (l && fn)
                fn(l->params, l->params_size, l->grid, l->block);
            break;
        case CU_GRAPH_NODE_TYPE_MEMCPY:
            if (enabled)
                run_copy(&copy);
            break;
        case CU_GRAPH_NODE_TYPE_MEMSET:
            if (enabled)
                run_set(&set);
            break;
        case CU_GRAPH_NODE_TYPE_HOST: host.fn(host.userData); break;
        case CU_GRAPH_NODE_TYPE_GRAPH: run_graph(n->child, stream); break;
        case CU_GRAPH_NODE_TYPE_CONDITIONAL:
            while (body) {
                run_graph(body, stream);
                if (n->cond_type != CU_GRAPH_COND_TYPE_WHILE)
                    break;
                fake_lock();
                body = cond_body(n);
                fake_unlock();
            }
            break;
        default: break;
        }
    }
    free(order);
}

/* A launch into a capturing stream is not captured as a child graph node: the fake runs it. */
static CUresult CUDAAPI f_cuGraphLaunch(CUgraphExec exec, CUstream stream)
{
    CUresult rc = fake_enter("cuGraphLaunch", "exec=%p stream=%p", (void *)exec, (void *)stream);
    fake_exec *x = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS)
        rc = fake_exec_check(exec, &x);
    if (rc == CUDA_SUCCESS)
        rc = fake_stream_check(stream);
    if (rc == CUDA_SUCCESS)
        rc = launch_prepare(x->graph);
    fake_leave(rc);
    if (rc == CUDA_SUCCESS)
        run_graph(x->graph, stream);
    return rc;
}

static CUresult CUDAAPI f_cuGraphUpload(CUgraphExec exec, CUstream stream)
{
    CUresult rc = fake_enter("cuGraphUpload", "exec=%p stream=%p", (void *)exec, (void *)stream);
    fake_exec *x = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS)
        rc = fake_exec_check(exec, &x);
    if (rc == CUDA_SUCCESS)
        rc = fake_stream_check(stream);
    if (rc == CUDA_SUCCESS)
        x->uploaded = 1;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphExecDestroy(CUgraphExec exec)
{
    CUresult rc = fake_enter("cuGraphExecDestroy", "exec=%p", (void *)exec);
    fake_exec *x = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_exec_check(exec, &x);
    if (rc == CUDA_SUCCESS) {
        fake_vec_remove(&fake_execs, (size_t)fake_vec_find(&fake_execs, x));
        if (x->source)
            x->source->instances--;
        fake_graph_free(x->graph);
        free(x);
    }
    return fake_leave_flush(rc);
}

/* ---- update --------------------------------------------------------------------------------- */

CUresult fake_graph_update_check(const fake_graph *into, const fake_graph *from,
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
        int same = a->deps.count == b->deps.count && a->cond_size == b->cond_size;
        for (size_t j = 0; same && j < b->deps.count; j++)
            same = fake_vec_find(&into->nodes, a->deps.items[j].node) ==
                   fake_vec_find(&from->nodes, b->deps.items[j].node) &&
                   memcmp(&a->deps.items[j].data, &b->deps.items[j].data,
                          sizeof(CUgraphEdgeData)) == 0;
        if (!same) {
            info->result = CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED;
            info->errorNode = (CUgraphNode)b;
            return CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE;
        }
        if ((a->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC && a->gmem != b->gmem) ||
            (a->type == CU_GRAPH_NODE_TYPE_MEM_FREE && a->free_ptr != b->free_ptr)) {
            info->result = CU_GRAPH_EXEC_UPDATE_ERROR_UNSUPPORTED_FUNCTION_CHANGE;
            info->errorNode = (CUgraphNode)b;
            return CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE;
        }
        CUresult rc = a->child ? fake_graph_update_check(a->child, b->child, info)
                               : CUDA_SUCCESS;
        for (unsigned j = 0; rc == CUDA_SUCCESS && a->bodies && j < a->cond_size; j++)
            rc = fake_graph_update_check(a->bodies[j], b->bodies[j], info);
        if (rc != CUDA_SUCCESS)
            return rc;
    }
    return CUDA_SUCCESS;
}

CUresult fake_graph_update_apply(fake_graph *into, const fake_graph *from)
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
            a->user_params = b->user_params;
            a->user_extra = b->user_extra;
            if (fake_node_arg_ptrs(a) != 0)
                return CUDA_ERROR_OUT_OF_MEMORY;
        }
        a->copy = b->copy;
        a->set = b->set;
        a->host = b->host;
        a->host_sync = b->host_sync;
        a->pref_ctx = b->pref_ctx;
        a->ctx = b->ctx;
        a->event = b->event;
        if ((a->ext_sems || b->ext_sems) && fake_node_extsem_copy(a, b) != 0)
            return CUDA_ERROR_OUT_OF_MEMORY;
        CUresult rc = a->child ? fake_graph_update_apply(a->child, b->child) : CUDA_SUCCESS;
        for (unsigned j = 0; rc == CUDA_SUCCESS && a->bodies && j < a->cond_size; j++)
            rc = fake_graph_update_apply(a->bodies[j], b->bodies[j]);
        if (rc != CUDA_SUCCESS)
            return rc;
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
        rc = fake_exec_check(exec, &x);
    if (rc == CUDA_SUCCESS)
        rc = fake_graph_check(graph, &g);
    if (rc == CUDA_SUCCESS) {
        memset(info, 0, sizeof *info);
        rc = fake_graph_update_check(x->graph, g, info);
    }
    if (rc == CUDA_SUCCESS)
        rc = fake_graph_update_apply(x->graph, g);
    return fake_leave(rc);
}

/* ---- per-node setters of an executable graph ------------------------------------------------ */

/* The executable graph's copy of the user node `node`, of `type` (any when type < 0). */
static CUresult exec_node(CUgraphExec exec, CUgraphNode node, int type, fake_node **out)
{
    fake_exec *x = NULL;
    CUresult rc = fake_exec_check(exec, &x);
    if (rc == CUDA_SUCCESS && !node)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && (!(*out = fake_node_in_clone(x->graph, (const fake_node *)node)) ||
                               (type >= 0 && (int)(*out)->type != type)))
        rc = CUDA_ERROR_INVALID_VALUE;
    return rc;
}

#define EXEC_ENTRY(name, type, fmt, ...)                                                      \
    CUresult rc = fake_enter(name, "exec=%p node=%p" fmt, (void *)exec, (void *)node,         \
                             __VA_ARGS__);                                                    \
    fake_node *n = NULL;                                                                      \
    if (rc == CUDA_SUCCESS)                                                                   \
        rc = exec_node(exec, node, type, &n)

static CUresult CUDAAPI f_cuGraphExecKernelNodeSetParams(CUgraphExec exec, CUgraphNode node,
                                                         const CUDA_KERNEL_NODE_PARAMS *p)
{
    EXEC_ENTRY("cuGraphExecKernelNodeSetParams", CU_GRAPH_NODE_TYPE_KERNEL, " func=%p",
               p ? (void *)p->func : NULL);
    if (rc == CUDA_SUCCESS)
        rc = fake_node_kernel(n, p);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphExecMemcpyNodeSetParams(CUgraphExec exec, CUgraphNode node,
                                                         const CUDA_MEMCPY3D *copy, CUcontext ctx)
{
    EXEC_ENTRY("cuGraphExecMemcpyNodeSetParams", CU_GRAPH_NODE_TYPE_MEMCPY, " ctx=%p",
               (void *)ctx);
    if (rc == CUDA_SUCCESS)
        rc = fake_node_memcpy(n, copy);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphExecMemsetNodeSetParams(CUgraphExec exec, CUgraphNode node,
                                                         const CUDA_MEMSET_NODE_PARAMS *set,
                                                         CUcontext ctx)
{
    EXEC_ENTRY("cuGraphExecMemsetNodeSetParams", CU_GRAPH_NODE_TYPE_MEMSET, " ctx=%p",
               (void *)ctx);
    if (rc == CUDA_SUCCESS)
        rc = fake_node_memset(n, set);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphExecHostNodeSetParams(CUgraphExec exec, CUgraphNode node,
                                                       const CUDA_HOST_NODE_PARAMS *host)
{
    EXEC_ENTRY("cuGraphExecHostNodeSetParams", CU_GRAPH_NODE_TYPE_HOST, "%s", "");
    if (rc == CUDA_SUCCESS)
        rc = fake_node_host(n, host);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphExecEventRecordNodeSetEvent(CUgraphExec exec, CUgraphNode node,
                                                             CUevent event)
{
    EXEC_ENTRY("cuGraphExecEventRecordNodeSetEvent", CU_GRAPH_NODE_TYPE_EVENT_RECORD,
               " event=%p", (void *)event);
    if (rc == CUDA_SUCCESS)
        rc = fake_node_event(n, event);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphExecEventWaitNodeSetEvent(CUgraphExec exec, CUgraphNode node,
                                                           CUevent event)
{
    EXEC_ENTRY("cuGraphExecEventWaitNodeSetEvent", CU_GRAPH_NODE_TYPE_WAIT_EVENT, " event=%p",
               (void *)event);
    if (rc == CUDA_SUCCESS)
        rc = fake_node_event(n, event);
    return fake_leave(rc);
}

/* The new child graph must have the topology of the one instantiated (cuGraphExecUpdate's
 * rules): else CUDA_ERROR_INVALID_VALUE. */
static CUresult CUDAAPI f_cuGraphExecChildGraphNodeSetParams(CUgraphExec exec, CUgraphNode node,
                                                             CUgraph child)
{
    EXEC_ENTRY("cuGraphExecChildGraphNodeSetParams", CU_GRAPH_NODE_TYPE_GRAPH, " child=%p",
               (void *)child);
    fake_graph *c = NULL;
    CUgraphExecUpdateResultInfo info;
    if (rc == CUDA_SUCCESS)
        rc = fake_graph_check(child, &c);
    if (rc == CUDA_SUCCESS && fake_graph_update_check(n->child, c, &info) != CUDA_SUCCESS)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = fake_graph_update_apply(n->child, c);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphExecNodeSetParams(CUgraphExec exec, CUgraphNode node,
                                                   CUgraphNodeParams *p)
{
    EXEC_ENTRY("cuGraphExecNodeSetParams", -1, " type=%d", p ? (int)p->type : -1);
    if (rc == CUDA_SUCCESS)
        rc = fake_node_set_generic(n, p);
    return fake_leave(rc);
}

/* Kernel, memcpy and memset nodes only, as cuda.h says; others CUDA_ERROR_INVALID_VALUE. */
static CUresult CUDAAPI f_cuGraphNodeSetEnabled(CUgraphExec exec, CUgraphNode node,
                                                unsigned int enabled)
{
    EXEC_ENTRY("cuGraphNodeSetEnabled", -1, " isEnabled=%u", enabled);
    if (rc == CUDA_SUCCESS && n->type != CU_GRAPH_NODE_TYPE_KERNEL &&
        n->type != CU_GRAPH_NODE_TYPE_MEMCPY && n->type != CU_GRAPH_NODE_TYPE_MEMSET)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        n->enabled = enabled != 0;
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphNodeGetEnabled(CUgraphExec exec, CUgraphNode node,
                                                unsigned int *enabled)
{
    EXEC_ENTRY("cuGraphNodeGetEnabled", -1, "%s", "");
    if (rc == CUDA_SUCCESS && (!enabled || (n->type != CU_GRAPH_NODE_TYPE_KERNEL &&
                                            n->type != CU_GRAPH_NODE_TYPE_MEMCPY &&
                                            n->type != CU_GRAPH_NODE_TYPE_MEMSET)))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        *enabled = (unsigned)n->enabled;
    return fake_leave(rc);
}

const proc_entry fake_procs_graph_exec[] = {
    {"cuGraphInstantiateWithFlags", 11040, 99999, (void *)f_cuGraphInstantiateWithFlags},
    {"cuGraphInstantiateWithParams", 12000, 99999, (void *)f_cuGraphInstantiateWithParams},
    {"cuGraphExecGetFlags", 12000, 99999, (void *)f_cuGraphExecGetFlags},
    {"cuGraphLaunch", 10000, 99999, (void *)f_cuGraphLaunch},
    {"cuGraphUpload", 11010, 99999, (void *)f_cuGraphUpload},
    {"cuGraphExecDestroy", 10000, 99999, (void *)f_cuGraphExecDestroy},
    {"cuGraphExecUpdate", 12000, 99999, (void *)f_cuGraphExecUpdate},
    {"cuGraphExecNodeSetParams", 12020, 99999, (void *)f_cuGraphExecNodeSetParams},
    {"cuGraphExecKernelNodeSetParams", 12000, 99999, (void *)f_cuGraphExecKernelNodeSetParams},
    {"cuGraphExecMemcpyNodeSetParams", 10020, 99999, (void *)f_cuGraphExecMemcpyNodeSetParams},
    {"cuGraphExecMemsetNodeSetParams", 10020, 99999, (void *)f_cuGraphExecMemsetNodeSetParams},
    {"cuGraphExecHostNodeSetParams", 10020, 99999, (void *)f_cuGraphExecHostNodeSetParams},
    {"cuGraphExecChildGraphNodeSetParams", 11010, 99999,
     (void *)f_cuGraphExecChildGraphNodeSetParams},
    {"cuGraphExecEventRecordNodeSetEvent", 11010, 99999,
     (void *)f_cuGraphExecEventRecordNodeSetEvent},
    {"cuGraphExecEventWaitNodeSetEvent", 11010, 99999,
     (void *)f_cuGraphExecEventWaitNodeSetEvent},
    {"cuGraphNodeSetEnabled", 11060, 99999, (void *)f_cuGraphNodeSetEnabled},
    {"cuGraphNodeGetEnabled", 11060, 99999, (void *)f_cuGraphNodeGetEnabled},
    {NULL, 0, 0, NULL},
};
