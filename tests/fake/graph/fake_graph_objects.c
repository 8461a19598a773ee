/*
 * fake_graph_objects.c - the fake driver's conditional handles and user objects (see
 * fake_graph.h).
 *
 * What it models:
 *   - A conditional handle belongs to the graph it was made for (and to the graphs nested in
 *     it); its value starts at the default, a launch resets it to the default when it was made
 *     with CU_GRAPH_COND_ASSIGN_DEFAULT, and fake_set_conditional (the test API's stand-in for
 *     cudaGraphSetConditional) changes it while a graph runs.
 *   - User objects are reference counted; graphs hold references (released when they go, a
 *     clone and an executable graph get their own).  A destructor runs when the count reaches
 *     zero, after the fake's lock is dropped (the real driver runs it on an internal thread), so
 *     it may call back into the driver.
 */
#include <stdlib.h>
#include <string.h>

#include "graph/fake_graph.h"

static ptr_vec conds;                  /* live conditional handles */

/* ---- conditional handles -------------------------------------------------------------------- */

CUresult fake_cond_check(CUgraphConditionalHandle handle, fake_cond **out)
{
    if (!handle)
        return CUDA_ERROR_INVALID_VALUE;
    if (fake_vec_find(&conds, (void *)(uintptr_t)handle) < 0)
        return CUDA_ERROR_INVALID_VALUE;
    *out = (fake_cond *)(uintptr_t)handle;
    return CUDA_SUCCESS;
}

void fake_cond_put(fake_cond *c)
{
    if (--c->refs)
        return;
    fake_vec_remove(&conds, (size_t)fake_vec_find(&conds, c));
    free(c);
}

/* ctx: NULL or the current context (handles are per context: a green context's counts as its
 * primary's); flags 0 or CU_GRAPH_COND_ASSIGN_DEFAULT.  The value starts at the default either
 * way. */
static CUresult CUDAAPI f_cuGraphConditionalHandleCreate(CUgraphConditionalHandle *handle,
                                                         CUgraph graph, CUcontext ctx,
                                                         unsigned int value, unsigned int flags)
{
    CUresult rc = fake_enter("cuGraphConditionalHandleCreate",
                             "graph=%p ctx=%p default=%u flags=%u", (void *)graph, (void *)ctx,
                             value, flags);
    fake_graph *g = NULL;
    fake_ctx *cur = NULL;
    fake_cond *c = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(&cur);
    if (rc == CUDA_SUCCESS && (!handle || (flags & ~(unsigned)CU_GRAPH_COND_ASSIGN_DEFAULT) ||
                               (ctx && fake_ctx_base(fake_ctx_from_handle(ctx)) !=
                                           fake_ctx_base(cur))))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = fake_graph_check(graph, &g);
    if (rc == CUDA_SUCCESS && (!(c = calloc(1, sizeof *c)) || fake_vec_push(&conds, c) != 0)) {
        free(c);
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    }
    if (rc == CUDA_SUCCESS && fake_vec_push(&g->conds, c) != 0) {
        fake_vec_remove(&conds, conds.count - 1);
        free(c);
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    }
    if (rc == CUDA_SUCCESS) {
        *c = (fake_cond){ g, fake_ctx_base(cur), value, flags, value, 1 };
        *handle = (CUgraphConditionalHandle)(uintptr_t)c;
    }
    return fake_leave(rc);
}

/* The test API's stand-in for cudaGraphSetConditional (device code cannot run here): called by
 * a host kernel implementation during a graph launch, when the lock is not held. */
__attribute__((visibility("default"))) void fake_set_conditional(uint64_t handle, unsigned value)
{
    fake_lock();
    fake_cond *c = NULL;
    if (fake_cond_check((CUgraphConditionalHandle)handle, &c) == CUDA_SUCCESS)
        c->value = value;
    fake_unlock();
}

/* ---- user objects --------------------------------------------------------------------------- */

typedef struct fake_uobj {
    void *ptr;
    CUhostFn destroy;
    unsigned refs;
} fake_uobj;

static ptr_vec uobjs, uobj_dying;      /* live ones; count at zero, destructor not yet run */

void fake_uobj_release(fake_uobj *o, unsigned count)
{
    o->refs -= count;
    if (o->refs)
        return;
    fake_vec_remove(&uobjs, (size_t)fake_vec_find(&uobjs, o));
    if (fake_vec_push(&uobj_dying, o) != 0)
        free(o);                       /* out of memory: the destructor is lost */
}

void fake_uobj_flush(void)
{
    fake_lock();
    ptr_vec dying = uobj_dying;
    uobj_dying = (ptr_vec){ NULL, 0, 0 };
    fake_unlock();
    for (size_t i = 0; i < dying.count; i++) {
        fake_uobj *o = dying.items[i];
        o->destroy(o->ptr);
        free(o);
    }
    free(dying.items);
}

CUresult fake_leave_flush(CUresult rc)
{
    fake_leave(rc);
    fake_uobj_flush();
    return rc;
}

static int graph_add_uref(fake_graph *g, fake_uobj *o, unsigned count)
{
    for (size_t i = 0; i < g->uref_count; i++)
        if (g->urefs[i].obj == o) {
            g->urefs[i].count += count;
            return 0;
        }
    if (g->uref_count == g->uref_cap) {
        size_t cap = g->uref_cap ? 2 * g->uref_cap : 4;
        fake_uref *r = realloc(g->urefs, cap * sizeof *r);
        if (!r)
            return -1;
        g->urefs = r;
        g->uref_cap = cap;
    }
    g->urefs[g->uref_count++] = (fake_uref){ o, count };
    return 0;
}

int fake_graph_retain_urefs(fake_graph *into, const fake_graph *from)
{
    for (size_t i = 0; i < from->uref_count; i++) {
        if (graph_add_uref(into, from->urefs[i].obj, from->urefs[i].count) != 0)
            return -1;
        from->urefs[i].obj->refs += from->urefs[i].count;
    }
    return 0;
}

static CUresult uobj_check(CUuserObject handle, fake_uobj **out)
{
    if (!handle)
        return CUDA_ERROR_INVALID_VALUE;
    if (fake_vec_find(&uobjs, handle) < 0)
        return CUDA_ERROR_INVALID_HANDLE;
    *out = (fake_uobj *)handle;
    return CUDA_SUCCESS;
}

#define UOBJ_MAX_COUNT 0x7fffffffu     /* cuda.h: counts must not be larger than INT_MAX */

static CUresult CUDAAPI f_cuUserObjectCreate(CUuserObject *out, void *ptr, CUhostFn destroy,
                                             unsigned int count, unsigned int flags)
{
    CUresult rc = fake_enter("cuUserObjectCreate", "ptr=%p destroy=%s count=%u flags=%u", ptr,
                             destroy ? "set" : "NULL", count, flags);
    fake_uobj *o = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && (!out || !destroy || !count || count > UOBJ_MAX_COUNT ||
                               flags != CU_USER_OBJECT_NO_DESTRUCTOR_SYNC))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && (!(o = calloc(1, sizeof *o)) || fake_vec_push(&uobjs, o) != 0)) {
        free(o);
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    }
    if (rc == CUDA_SUCCESS) {
        *o = (fake_uobj){ ptr, destroy, count };
        *out = (CUuserObject)o;
    }
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuUserObjectRetain(CUuserObject object, unsigned int count)
{
    CUresult rc = fake_enter("cuUserObjectRetain", "object=%p count=%u", (void *)object, count);
    fake_uobj *o = NULL;
    if (rc == CUDA_SUCCESS)
        rc = uobj_check(object, &o);
    if (rc == CUDA_SUCCESS && (!count || count > UOBJ_MAX_COUNT - o->refs))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        o->refs += count;
    return fake_leave(rc);
}

/* Releasing more than the object has is CUDA_ERROR_INVALID_VALUE (undefined on the driver). */
static CUresult CUDAAPI f_cuUserObjectRelease(CUuserObject object, unsigned int count)
{
    CUresult rc = fake_enter("cuUserObjectRelease", "object=%p count=%u", (void *)object, count);
    fake_uobj *o = NULL;
    if (rc == CUDA_SUCCESS)
        rc = uobj_check(object, &o);
    if (rc == CUDA_SUCCESS && (!count || count > o->refs))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        fake_uobj_release(o, count);
    return fake_leave_flush(rc);
}

/* CU_GRAPH_USER_OBJECT_MOVE hands the caller's references to the graph; without it the graph
 * takes new ones. */
static CUresult CUDAAPI f_cuGraphRetainUserObject(CUgraph graph, CUuserObject object,
                                                  unsigned int count, unsigned int flags)
{
    CUresult rc = fake_enter("cuGraphRetainUserObject", "graph=%p object=%p count=%u flags=%u",
                             (void *)graph, (void *)object, count, flags);
    fake_graph *g = NULL;
    fake_uobj *o = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_graph_check(graph, &g);
    if (rc == CUDA_SUCCESS)
        rc = uobj_check(object, &o);
    if (rc == CUDA_SUCCESS && (!count || count > UOBJ_MAX_COUNT - o->refs ||
                               (flags & ~(unsigned)CU_GRAPH_USER_OBJECT_MOVE) ||
                               ((flags & CU_GRAPH_USER_OBJECT_MOVE) && count > o->refs)))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && graph_add_uref(g, o, count) != 0)
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    if (rc == CUDA_SUCCESS && !(flags & CU_GRAPH_USER_OBJECT_MOVE))
        o->refs += count;
    return fake_leave(rc);
}

/* Releasing more than the graph holds is CUDA_ERROR_INVALID_VALUE. */
static CUresult CUDAAPI f_cuGraphReleaseUserObject(CUgraph graph, CUuserObject object,
                                                   unsigned int count)
{
    CUresult rc = fake_enter("cuGraphReleaseUserObject", "graph=%p object=%p count=%u",
                             (void *)graph, (void *)object, count);
    fake_graph *g = NULL;
    fake_uobj *o = NULL;
    size_t at = 0;
    if (rc == CUDA_SUCCESS)
        rc = fake_graph_check(graph, &g);
    if (rc == CUDA_SUCCESS)
        rc = uobj_check(object, &o);
    while (rc == CUDA_SUCCESS && at < g->uref_count && g->urefs[at].obj != o)
        at++;
    if (rc == CUDA_SUCCESS && (!count || at == g->uref_count || count > g->urefs[at].count))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS) {
        if (!(g->urefs[at].count -= count))
            g->urefs[at] = g->urefs[--g->uref_count];
        fake_uobj_release(o, count);
    }
    return fake_leave_flush(rc);
}

const proc_entry fake_procs_graph_objects[] = {
    {"cuGraphConditionalHandleCreate", 12030, 99999, (void *)f_cuGraphConditionalHandleCreate},
    {"cuUserObjectCreate", 11030, 99999, (void *)f_cuUserObjectCreate},
    {"cuUserObjectRetain", 11030, 99999, (void *)f_cuUserObjectRetain},
    {"cuUserObjectRelease", 11030, 99999, (void *)f_cuUserObjectRelease},
    {"cuGraphRetainUserObject", 11030, 99999, (void *)f_cuGraphRetainUserObject},
    {"cuGraphReleaseUserObject", 11030, 99999, (void *)f_cuGraphReleaseUserObject},
    {NULL, 0, 0, NULL},
};
