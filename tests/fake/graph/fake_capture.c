/*
 * fake_capture.c - the fake driver's stream capture (see fake_internal.h and fake_graph.h).
 *
 * What it models:
 *   - A capture sequence (session) starts on its origin stream (cuStreamBeginCapture, or
 *     ...ToGraph from given dependencies); the legacy stream is refused.  Work issued to a
 *     capturing stream becomes a node of the capture graph instead of running: kernels (every
 *     launch path of fake_launch_run), async copies and sets, host functions, cuMemAllocAsync /
 *     cuMemFreeAsync (mem alloc / free nodes, the address handed back at capture), event
 *     records with CU_EVENT_RECORD_EXTERNAL, and waits on events recorded outside any capture.
 *     Each node depends on the stream's frontier and becomes the new frontier.
 *   - Fork and join as the driver does them: cuEventRecord on a capturing stream stores the
 *     frontier in the event; cuStreamWaitEvent of that event makes another stream join the
 *     capture (its frontier = the event's) or, on a stream of the same capture, adds the event's
 *     frontier to its own (across two captures: CUDA_ERROR_STREAM_CAPTURE_ISOLATION).
 *   - cuStreamEndCapture on the origin ends the capture of every joined stream.  A joined
 *     stream whose frontier has work the origin's frontier does not depend on was not joined
 *     back: CUDA_ERROR_STREAM_CAPTURE_UNJOINED, and the capture ends without a graph.  On a
 *     joined stream: CUDA_ERROR_STREAM_CAPTURE_UNMATCHED.
 *   - A synchronous wait on a capturing stream (cuStreamSynchronize, cuStreamQuery) or on an
 *     event recorded in a capture (cuEventSynchronize, cuEventQuery) is
 *     CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED and invalidates the capture: the streams report
 *     CU_STREAM_CAPTURE_STATUS_INVALIDATED, more work into them is
 *     CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, and cuStreamEndCapture answers that with a NULL
 *     graph (the capture's own graph is destroyed), ending the capture.
 *   - Captured launches are logged calls, but reach fake_g.launches only when the graph runs.
 *   - Recapture (cuStreamBeginRecaptureToGraph, 13.3) captures into the caller's graph again;
 *     see recapture_end for what it checks and what it simplifies.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "graph/fake_graph.h"

typedef struct fake_session {
    fake_graph *graph;
    cuuint64_t id;
    CUstreamCaptureMode mode;
    int invalidated;
    int to_graph;                      /* cuStreamBeginCaptureToGraph: the caller's graph */
    /* cuStreamBeginRecaptureToGraph: the graph's nodes before (taken out of it while the new
     * ones are captured), its next local id then, and the caller's callback. */
    int recapture;
    ptr_vec old;
    unsigned old_next_local;
    CUgraphRecaptureCallback callback;
    void *user_data;
} fake_session;

typedef struct fake_capture {
    CUstream stream;
    fake_ctx *ctx;                     /* the stream's context (the current one for 0x1, 0x2) */
    pthread_t thread;                  /* the owner of a per-thread stream */
    fake_session *session;
    int origin;
    dep_vec frontier;
    CUgraphNode *info_nodes;           /* cuStreamGetCaptureInfo's arrays, valid until the next */
    CUgraphEdgeData *info_edges;
} fake_capture;

/* An event recorded on a capturing stream: the frontier it stands for. */
typedef struct fake_mark {
    CUevent event;
    fake_session *session;
    dep_vec frontier;
} fake_mark;

static ptr_vec captures, marks;
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

static fake_capture *capturing(CUstream stream)
{
    int at = capture_find(stream);
    return at >= 0 ? captures.items[at] : NULL;
}

static int frontier_copy(dep_vec *to, const dep_vec *from)
{
    to->count = 0;
    for (size_t i = 0; i < from->count; i++)
        if (fake_dep_push(to, from->items[i].node, &from->items[i].data) != 0)
            return -1;
    return 0;
}

static int frontier_add(dep_vec *to, fake_node *node, const CUgraphEdgeData *data)
{
    for (size_t i = 0; i < to->count; i++)
        if (to->items[i].node == node)
            return 0;
    return fake_dep_push(to, node, data);
}

static fake_capture *capture_new(CUstream stream, fake_session *s, int origin)
{
    fake_capture *c = calloc(1, sizeof *c);
    if (c && fake_vec_push(&captures, c) != 0) {
        free(c);
        c = NULL;
    }
    if (c) {
        c->stream = stream;
        c->ctx = fake_stream_ctx(stream) ? fake_stream_ctx(stream) : fake_current_ctx();
        c->thread = pthread_self();
        c->session = s;
        c->origin = origin;
    }
    return c;
}

static void capture_free(fake_capture *c)
{
    fake_vec_remove(&captures, (size_t)fake_vec_find(&captures, c));
    free(c->frontier.items);
    free(c->info_nodes);
    free(c->info_edges);
    free(c);
}

static void mark_free(size_t at)
{
    fake_mark *m = marks.items[at];
    fake_vec_remove(&marks, at);
    free(m->frontier.items);
    free(m);
}

/* Ends every stream's part in s and forgets the events recorded in it. */
static void session_end(fake_session *s)
{
    for (size_t i = captures.count; i-- > 0;)
        if (((fake_capture *)captures.items[i])->session == s)
            capture_free(captures.items[i]);
    for (size_t i = marks.count; i-- > 0;)
        if (((fake_mark *)marks.items[i])->session == s)
            mark_free(i);
    free(s->old.items);
    free(s);
}

static void session_invalidate(fake_session *s)
{
    s->invalidated = 1;
}

/* A new node of c's graph after c's frontier (capture_commit adds it and makes it the
 * frontier). */
static CUresult capture_add(fake_capture *c, CUgraphNodeType type, fake_node **out)
{
    if (c->session->invalidated)
        return CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
    return fake_node_new(c->session->graph, c->frontier.items, c->frontier.count, type, out);
}

static CUresult capture_commit(fake_capture *c, fake_node *n)
{
    CUgraphNode handle;
    CUresult rc = fake_node_commit(c->session->graph, n, &handle);
    if (rc == CUDA_SUCCESS) {
        c->frontier.count = 0;
        if (fake_dep_push(&c->frontier, n, NULL) != 0)
            rc = CUDA_ERROR_OUT_OF_MEMORY;
    }
    return rc;
}

/* Into capture c: a node of `type` set up by SETUP (with `n` the new node), then return 1. */
#define CAPTURE_INTO(c, type, SETUP)                                                          \
    do {                                                                                      \
        fake_node *n = NULL;                                                                  \
        *rc = capture_add(c, type, &n);                                                       \
        if (*rc == CUDA_SUCCESS && (*rc = (SETUP)) != CUDA_SUCCESS)                           \
            fake_node_free(n);                                                                \
        if (*rc == CUDA_SUCCESS)                                                              \
            *rc = capture_commit(c, n);                                                       \
        return 1;                                                                             \
    } while (0)

/* The common shape of the hooks: not capturing: 0; else CAPTURE_INTO. */
#define CAPTURE_NODE(type, SETUP)                                                             \
    fake_capture *c = capturing(stream);                                                      \
    if (!c)                                                                                   \
        return 0;                                                                             \
    CAPTURE_INTO(c, type, SETUP)

/* The node does not keep the launch's kernelParams (they are the caller's, gone after the
 * call): GetParams hands back the node's own argument pointers. */
static CUresult captured_kernel(fake_node *n, const CUDA_KERNEL_NODE_PARAMS *p)
{
    CUresult rc = fake_node_kernel(n, p);
    n->user_params = NULL;
    n->user_extra = NULL;
    return rc;
}

int fake_capture_kernel(CUstream stream, const CUDA_KERNEL_NODE_PARAMS *p, CUresult *rc)
{
    CAPTURE_NODE(CU_GRAPH_NODE_TYPE_KERNEL, captured_kernel(n, p));
}

int fake_capture_copy(CUstream stream, const CUDA_MEMCPY3D *copy, CUresult *rc)
{
    CAPTURE_NODE(CU_GRAPH_NODE_TYPE_MEMCPY, fake_node_memcpy(n, copy));
}

int fake_capture_memset(CUstream stream, const CUDA_MEMSET_NODE_PARAMS *set, CUresult *rc)
{
    CAPTURE_NODE(CU_GRAPH_NODE_TYPE_MEMSET, fake_node_memset(n, set));
}

int fake_capture_extsem(CUstream stream, CUgraphNodeType type, const CUexternalSemaphore *sems,
                        const void *params, unsigned count, CUresult *rc)
{
    CAPTURE_NODE(type, fake_node_extsem(n, sems, params, count));
}

static CUresult captured_host(fake_node *n, CUhostFn fn, void *user_data, unsigned sync_mode)
{
    const CUDA_HOST_NODE_PARAMS host = { fn, user_data };
    n->host_sync = sync_mode;
    return fake_node_host(n, &host);
}

int fake_capture_host(CUstream stream, CUhostFn fn, void *user_data, unsigned sync_mode,
                      CUresult *rc)
{
    CAPTURE_NODE(CU_GRAPH_NODE_TYPE_HOST, captured_host(n, fn, user_data, sync_mode));
}

/* In a recapture, the allocation node made in the place of one of the same size keeps that
 * one's address (the node keeps its allocation, fake_mempool.c), so that the work captured
 * after it, which uses the address, compares equal to the work it replaces. */
static void recaptured_alloc(const fake_session *s, fake_node *n)
{
    size_t at = s->graph->nodes.count;
    fake_node *was = s->recapture && at < s->old.count ? s->old.items[at] : NULL;
    if (!was || was->type != CU_GRAPH_NODE_TYPE_MEM_ALLOC || !was->gmem ||
        was->alloc.bytesize != n->alloc.bytesize ||
        was->alloc.poolProps.location.id != n->alloc.poolProps.location.id)
        return;
    fake_gmem_put(n->gmem);
    (n->gmem = was->gmem)->refs++;
    n->alloc.dptr = was->alloc.dptr;
}

static CUresult captured_alloc(const fake_session *s, fake_node *n, CUdevice device,
                               size_t bytes, CUdeviceptr *dptr)
{
    CUDA_MEM_ALLOC_NODE_PARAMS p;
    memset(&p, 0, sizeof p);
    p.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
    p.poolProps.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    p.poolProps.location.id = device;
    p.bytesize = bytes;
    CUresult rc = dptr ? fake_node_alloc(n, &p) : CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS) {
        recaptured_alloc(s, n);
        *dptr = n->alloc.dptr;
    }
    return rc;
}

int fake_capture_alloc(CUstream stream, CUdevice device, size_t bytes, CUdeviceptr *dptr,
                       CUresult *rc)
{
    CAPTURE_NODE(CU_GRAPH_NODE_TYPE_MEM_ALLOC,
                 captured_alloc(c->session, n, device, bytes, dptr));
}

int fake_capture_free(CUstream stream, CUdeviceptr dptr, CUresult *rc)
{
    CAPTURE_NODE(CU_GRAPH_NODE_TYPE_MEM_FREE, fake_node_mem_free(n, dptr));
}

static int mark_find(CUevent event)
{
    for (size_t i = 0; i < marks.count; i++)
        if (((fake_mark *)marks.items[i])->event == event)
            return (int)i;
    return -1;
}

int fake_capture_event_record(CUevent event, CUstream stream, unsigned flags, CUresult *rc)
{
    int at = mark_find(event);
    fake_capture *c = capturing(stream);
    if (!c) {
        if (at >= 0)
            mark_free((size_t)at);
        return 0;
    }
    if (flags & CU_EVENT_RECORD_EXTERNAL)
        CAPTURE_INTO(c, CU_GRAPH_NODE_TYPE_EVENT_RECORD, fake_node_event(n, event));
    *rc = c->session->invalidated ? CUDA_ERROR_STREAM_CAPTURE_INVALIDATED : CUDA_SUCCESS;
    fake_mark *m = at >= 0 ? marks.items[at] : calloc(1, sizeof *m);
    if (*rc == CUDA_SUCCESS && at < 0 && (!m || fake_vec_push(&marks, m) != 0)) {
        free(m);
        *rc = CUDA_ERROR_OUT_OF_MEMORY;
    }
    if (*rc == CUDA_SUCCESS) {
        m->event = event;
        m->session = c->session;
        if (frontier_copy(&m->frontier, &c->frontier) != 0)
            *rc = CUDA_ERROR_OUT_OF_MEMORY;
    }
    return 1;
}

int fake_capture_wait_event(CUstream stream, CUevent event, CUresult *rc)
{
    int at = mark_find(event);
    fake_mark *m = at >= 0 ? marks.items[at] : NULL;
    fake_capture *c = capturing(stream);
    if (!m && !c)
        return 0;
    if (!m)         /* recorded outside any capture: on a capturing stream, an event wait node */
        CAPTURE_INTO(c, CU_GRAPH_NODE_TYPE_WAIT_EVENT, fake_node_event(n, event));
    if (m->session->invalidated) {
        *rc = CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
        return 1;
    }
    if (c && c->session != m->session) {
        *rc = CUDA_ERROR_STREAM_CAPTURE_ISOLATION;
        return 1;
    }
    if (!c && is_legacy(stream)) {
        *rc = CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;     /* the legacy stream cannot join */
        return 1;
    }
    if (!c && !(c = capture_new(stream, m->session, 0))) {
        *rc = CUDA_ERROR_OUT_OF_MEMORY;
        return 1;
    }
    *rc = CUDA_SUCCESS;
    for (size_t i = 0; *rc == CUDA_SUCCESS && i < m->frontier.count; i++)
        if (frontier_add(&c->frontier, m->frontier.items[i].node, &m->frontier.items[i].data))
            *rc = CUDA_ERROR_OUT_OF_MEMORY;
    return 1;
}

CUresult fake_capture_sync_stream(CUstream stream)
{
    fake_capture *c = capturing(stream);
    if (!c)
        return CUDA_SUCCESS;
    session_invalidate(c->session);
    return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
}

CUresult fake_capture_sync_event(CUevent event)
{
    int at = mark_find(event);
    if (at < 0)
        return CUDA_SUCCESS;
    session_invalidate(((fake_mark *)marks.items[at])->session);
    return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
}

CUresult fake_capture_sync_ctx(const fake_ctx *ctx, int family)
{
    CUresult rc = CUDA_SUCCESS;
    for (size_t i = 0; i < captures.count; i++) {
        const fake_capture *c = captures.items[i];
        if (c->ctx == ctx || (family && fake_ctx_base(c->ctx) == fake_ctx_base((fake_ctx *)ctx))) {
            session_invalidate(c->session);
            rc = CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
        }
    }
    return rc;
}

/* ---- entry points --------------------------------------------------------------------------- */

static CUresult capture_begin(CUstream stream, CUgraph graph, const CUgraphNode *deps,
                              const CUgraphEdgeData *edges, size_t count,
                              CUstreamCaptureMode mode)
{
    fake_graph *g = NULL;
    fake_session *s = NULL;
    fake_capture *c = NULL;
    CUresult rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && mode > CU_STREAM_CAPTURE_MODE_RELAXED)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = fake_stream_check(stream);
    if (rc == CUDA_SUCCESS && is_legacy(stream))
        rc = CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
    if (rc == CUDA_SUCCESS && capture_find(stream) >= 0)
        rc = CUDA_ERROR_ILLEGAL_STATE;
    if (rc == CUDA_SUCCESS && graph)
        rc = fake_graph_check(graph, &g);
    for (size_t i = 0; rc == CUDA_SUCCESS && i < count; i++)
        if (fake_vec_find(&g->nodes, deps[i]) < 0)
            rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && !(s = calloc(1, sizeof *s)))
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    if (rc == CUDA_SUCCESS && !graph && !(g = fake_graph_new(1)))
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    if (rc == CUDA_SUCCESS && !(c = capture_new(stream, s, 1))) {
        if (!graph)
            fake_graph_free(g);
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    }
    for (size_t i = 0; rc == CUDA_SUCCESS && i < count; i++)
        if (frontier_add(&c->frontier, (fake_node *)deps[i], edges ? &edges[i] : NULL) != 0)
            rc = CUDA_ERROR_OUT_OF_MEMORY;    /* (the capture stays, with fewer deps) */
    if (s && !c) {
        free(s);
        return rc;
    }
    if (s)
        *s = (fake_session){ .graph = g, .id = ++capture_ids, .mode = mode,
                             .to_graph = graph != NULL };
    return rc;
}

static CUresult CUDAAPI f_cuStreamBeginCapture(CUstream stream, CUstreamCaptureMode mode)
{
    CUresult rc = fake_enter("cuStreamBeginCapture", "stream=%p mode=%d", (void *)stream,
                             (int)mode);
    if (rc == CUDA_SUCCESS)
        rc = capture_begin(stream, NULL, NULL, NULL, 0, mode);
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
        rc = capture_begin(stream, graph, deps, edges, count, mode);
    return fake_leave(rc);
}

/* Whether `node` is one of `frontier` or one of their (transitive) dependencies. */
static int reaches(const dep_vec *frontier, const fake_node *node)
{
    for (size_t i = 0; i < frontier->count; i++)
        if (frontier->items[i].node == node || reaches(&frontier->items[i].node->deps, node))
            return 1;
    return 0;
}

/* ---- recapture ------------------------------------------------------------------------------ */

static int graph_in_capture(const fake_graph *g)
{
    for (size_t i = 0; i < captures.count; i++)
        if (((fake_capture *)captures.items[i])->session->graph == g)
            return 1;
    return 0;
}

/*
 * cuStreamBeginRecaptureToGraph: a capture into `graph` like cuStreamBeginCaptureToGraph with no
 * dependencies, after the graph's nodes are taken out of it (kept in the session) and its user
 * objects released, as cuda.h says.  A graph another capture is filling is refused
 * (CUDA_ERROR_INVALID_VALUE, the only code cuda.h names).
 */
static CUresult CUDAAPI f_cuStreamBeginRecaptureToGraph(CUstream stream, CUstreamCaptureMode mode,
                                                        CUgraph graph,
                                                        CUgraphRecaptureCallback callback,
                                                        void *user_data)
{
    CUresult rc = fake_enter("cuStreamBeginRecaptureToGraph",
                             "stream=%p mode=%d graph=%p callback=%s userData=%p",
                             (void *)stream, (int)mode, (void *)graph,
                             callback ? "set" : "NULL", user_data);
    fake_graph *g = NULL;
    if (rc == CUDA_SUCCESS && (fake_graph_check(graph, &g) != CUDA_SUCCESS ||
                               graph_in_capture(g)))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = capture_begin(stream, graph, NULL, NULL, 0, mode);
    if (rc == CUDA_SUCCESS) {
        fake_session *s = capturing(stream)->session;
        s->recapture = 1;
        s->old = g->nodes;
        s->old_next_local = g->next_local;
        s->callback = callback;
        s->user_data = user_data;
        g->nodes = (ptr_vec){ NULL, 0, 0 };
        for (size_t i = 0; i < g->uref_count; i++)
            fake_uobj_release(g->urefs[i].obj, g->urefs[i].count);
        g->uref_count = 0;
    }
    return fake_leave_flush(rc);
}

/* The nodes whose parameters the recapture changed (indices into both lists), and the
 * parameters of each before and after, for the callback. */
typedef struct fake_changes {
    size_t count, *at;
    CUgraphNodeParams *before, *after;
} fake_changes;

static CUresult changes_find(const ptr_vec *old, const ptr_vec *fresh, fake_changes *out)
{
    out->at = calloc(old->count + 1, sizeof *out->at);
    out->before = calloc(old->count + 1, sizeof *out->before);
    out->after = calloc(old->count + 1, sizeof *out->after);
    if (!out->at || !out->before || !out->after)
        return CUDA_ERROR_OUT_OF_MEMORY;
    for (size_t i = 0; i < old->count; i++) {
        if (fake_node_params_equal(old->items[i], fresh->items[i]))
            continue;
        fake_node_get_generic(old->items[i], &out->before[out->count]);
        fake_node_get_generic(fresh->items[i], &out->after[out->count]);
        out->at[out->count++] = i;
    }
    return CUDA_SUCCESS;
}

/*
 * The end of a recapture (the lock held; it is dropped around the callbacks).  The graph keeps
 * its nodes and their handles: the new ones, captured in the same creation order, must match
 * them in number, types and edges (child graphs and conditional bodies too), and memory nodes in
 * their parameters, else CUDA_ERROR_GRAPH_RECAPTURE_FAILURE.  Each top-level node whose other
 * parameters changed goes to the callback with CU_GRAPH_RECAPTURE_ELIGIBLE_FOR_UPDATE (the fake
 * can apply any change), and an answer other than CUDA_SUCCESS fails the recapture
 * (CUDA_ERROR_GRAPH_RECAPTURE_FAILURE); then the new parameters replace the old ones, as
 * cuGraphExecUpdate would apply them.  Simplified: the driver checks each node as it is
 * captured, the fake at the end; nodes inside child graphs are not reported to the callback;
 * INELIGIBLE_FOR_UPDATE and ERROR are never given; a failed recapture leaves the graph as it
 * was (the driver leaves it undefined).
 */
static CUresult recapture_end(fake_session *s, CUresult rc, CUgraph *out)
{
    fake_graph *g = s->graph;
    fake_graph old = { .nodes = s->old }, fresh = { .nodes = g->nodes };
    CUgraphRecaptureCallback callback = s->callback;
    void *user_data = s->user_data;
    g->nodes = s->old;
    g->next_local = s->old_next_local;
    s->old = (ptr_vec){ NULL, 0, 0 };
    session_end(s);
    CUgraphExecUpdateResultInfo info;
    memset(&info, 0, sizeof info);
    if (rc == CUDA_SUCCESS && fake_graph_update_check(&old, &fresh, &info) != CUDA_SUCCESS)
        rc = CUDA_ERROR_GRAPH_RECAPTURE_FAILURE;
    for (size_t i = 0; rc == CUDA_SUCCESS && i < old.nodes.count; i++) {
        const fake_node *a = old.nodes.items[i];
        if ((a->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC || a->type == CU_GRAPH_NODE_TYPE_MEM_FREE) &&
            !fake_node_params_equal(a, fresh.nodes.items[i]))
            rc = CUDA_ERROR_GRAPH_RECAPTURE_FAILURE;
    }
    fake_changes changes = { 0, NULL, NULL, NULL };
    if (rc == CUDA_SUCCESS)
        rc = changes_find(&old.nodes, &fresh.nodes, &changes);
    if (rc == CUDA_SUCCESS && callback && changes.count) {
        fake_call *call = fake_suspend_call();
        for (size_t k = 0; rc == CUDA_SUCCESS && k < changes.count; k++)
            if (callback(user_data, (CUgraphNode)old.nodes.items[changes.at[k]],
                         &changes.before[k], &changes.after[k],
                         CU_GRAPH_RECAPTURE_ELIGIBLE_FOR_UPDATE) != CUDA_SUCCESS)
                rc = CUDA_ERROR_GRAPH_RECAPTURE_FAILURE;
        fake_resume_call(call);
    }
    if (rc == CUDA_SUCCESS)
        rc = fake_graph_update_apply(&old, &fresh);
    free(changes.at);
    free(changes.before);
    free(changes.after);
    for (size_t i = 0; i < fresh.nodes.count; i++)
        fake_node_free(fresh.nodes.items[i]);
    free(fresh.nodes.items);
    *out = rc == CUDA_SUCCESS ? (CUgraph)g : NULL;
    return rc;
}

static CUresult CUDAAPI f_cuStreamEndCapture(CUstream stream, CUgraph *graph)
{
    CUresult rc = fake_enter("cuStreamEndCapture", "stream=%p", (void *)stream);
    fake_capture *c = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && !graph)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = fake_stream_check(stream);
    if (rc == CUDA_SUCCESS && !(c = capturing(stream)))
        rc = CUDA_ERROR_ILLEGAL_STATE;
    if (rc == CUDA_SUCCESS && !c->origin)
        rc = CUDA_ERROR_STREAM_CAPTURE_UNMATCHED;
    if (rc != CUDA_SUCCESS)
        return fake_leave(rc);
    fake_session *s = c->session;
    for (size_t i = 0; !s->invalidated && i < captures.count; i++) {
        const fake_capture *other = captures.items[i];
        for (size_t j = 0; other->session == s && j < other->frontier.count; j++)
            if (!reaches(&c->frontier, other->frontier.items[j].node))
                rc = CUDA_ERROR_STREAM_CAPTURE_UNJOINED;
    }
    if (s->invalidated)
        rc = CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
    if (s->recapture)
        return fake_leave_flush(recapture_end(s, rc, graph));
    *graph = rc == CUDA_SUCCESS ? (CUgraph)s->graph : NULL;
    if (rc != CUDA_SUCCESS && !s->to_graph)
        fake_graph_free(s->graph);
    session_end(s);
    return fake_leave_flush(rc);
}

static CUstreamCaptureStatus status_of(const fake_capture *c)
{
    return !c ? CU_STREAM_CAPTURE_STATUS_NONE
           : c->session->invalidated ? CU_STREAM_CAPTURE_STATUS_INVALIDATED
                                     : CU_STREAM_CAPTURE_STATUS_ACTIVE;
}

static CUresult CUDAAPI f_cuStreamIsCapturing(CUstream stream, CUstreamCaptureStatus *status)
{
    CUresult rc = fake_enter("cuStreamIsCapturing", "stream=%p", (void *)stream);
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && !status)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = fake_stream_check(stream);
    if (rc == CUDA_SUCCESS)
        *status = status_of(capturing(stream));
    return fake_leave(rc);
}

/* deps/edges: arrays owned by the capture, valid until the next call on that stream (NULL when
 * the frontier is empty). */
static CUresult CUDAAPI f_cuStreamGetCaptureInfo(CUstream stream, CUstreamCaptureStatus *status,
                                                 cuuint64_t *id, CUgraph *graph,
                                                 const CUgraphNode **deps,
                                                 const CUgraphEdgeData **edges, size_t *count)
{
    CUresult rc = fake_enter("cuStreamGetCaptureInfo", "stream=%p", (void *)stream);
    fake_capture *c = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && !status)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = fake_stream_check(stream);
    if (rc == CUDA_SUCCESS && (c = capturing(stream))) {
        size_t n = c->frontier.count;
        free(c->info_nodes);
        free(c->info_edges);
        c->info_nodes = n ? calloc(n, sizeof *c->info_nodes) : NULL;
        c->info_edges = n ? calloc(n, sizeof *c->info_edges) : NULL;
        if (n && (!c->info_nodes || !c->info_edges))
            rc = CUDA_ERROR_OUT_OF_MEMORY;
        for (size_t i = 0; rc == CUDA_SUCCESS && i < n; i++) {
            c->info_nodes[i] = (CUgraphNode)c->frontier.items[i].node;
            c->info_edges[i] = c->frontier.items[i].data;
        }
    }
    if (rc == CUDA_SUCCESS) {
        *status = status_of(c);
        if (c && id)
            *id = c->session->id;
        if (c && graph)
            *graph = (CUgraph)c->session->graph;
        if (c && deps)
            *deps = c->info_nodes;
        if (c && edges)
            *edges = c->info_edges;
        if (c && count)
            *count = c->frontier.count;
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
    fake_capture *c = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && (flags > CU_STREAM_SET_CAPTURE_DEPENDENCIES || (count && !deps)))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = fake_stream_check(stream);
    if (rc == CUDA_SUCCESS && !(c = capturing(stream)))
        rc = CUDA_ERROR_ILLEGAL_STATE;
    if (rc == CUDA_SUCCESS && c->session->invalidated)
        rc = CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
    for (size_t i = 0; rc == CUDA_SUCCESS && i < count; i++)
        if (fake_vec_find(&c->session->graph->nodes, deps[i]) < 0)
            rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && flags == CU_STREAM_SET_CAPTURE_DEPENDENCIES)
        c->frontier.count = 0;
    for (size_t i = 0; rc == CUDA_SUCCESS && i < count; i++)
        if (frontier_add(&c->frontier, (fake_node *)deps[i], edges ? &edges[i] : NULL) != 0)
            rc = CUDA_ERROR_OUT_OF_MEMORY;
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

const proc_entry fake_procs_capture[] = {
    {"cuStreamBeginCapture", 10010, 99999, (void *)f_cuStreamBeginCapture},
    {"cuStreamBeginCaptureToGraph", 12030, 99999, (void *)f_cuStreamBeginCaptureToGraph},
    {"cuStreamBeginRecaptureToGraph", 13030, 99999, (void *)f_cuStreamBeginRecaptureToGraph},
    {"cuStreamEndCapture", 10000, 99999, (void *)f_cuStreamEndCapture},
    {"cuStreamIsCapturing", 10000, 99999, (void *)f_cuStreamIsCapturing},
    {"cuStreamGetCaptureInfo", 12030, 99999, (void *)f_cuStreamGetCaptureInfo},
    {"cuStreamUpdateCaptureDependencies", 12030, 99999,
     (void *)f_cuStreamUpdateCaptureDependencies},
    {"cuThreadExchangeStreamCaptureMode", 10010, 99999,
     (void *)f_cuThreadExchangeStreamCaptureMode},
    {NULL, 0, 0, NULL},
};
