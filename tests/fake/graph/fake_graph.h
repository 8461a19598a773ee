/*
 * fake_graph.h - what the graph files of the fake driver share (fake_graph.c: graphs, nodes,
 * topology; fake_graph_objects.c: conditional handles and user objects; fake_graph_node.c: node
 * parameters of every kind; fake_graph_exec.c:
 * executable graphs; fake_capture.c: stream capture and recapture; fake_mempool.c: pools and
 * graph memory; fake_graph_info.c: ids and generic parameters of 13.1-13.4).
 * Not seen by tests.  Everything here is used with fake_g.lock held unless said otherwise.
 */
#ifndef MINICUDART_FAKE_GRAPH_H
#define MINICUDART_FAKE_GRAPH_H

#include "fake_internal.h"

typedef struct fake_graph fake_graph;
typedef struct fake_node fake_node;

/* One incoming edge of a node: where it comes from, and its CUgraphEdgeData. */
typedef struct fake_dep {
    fake_node *node;
    CUgraphEdgeData data;
} fake_dep;

typedef struct dep_vec {
    fake_dep *items;
    size_t count, cap;
} dep_vec;

/* Host memory behind a graph allocation (a mem alloc node's fixed address).  Shared by the node
 * and its copy in an executable graph (refs); `live` between the run of its alloc node and its
 * free, `reserved` once a launch has mapped it (until cuDeviceGraphMemTrim finds it unused). */
typedef struct fake_gmem {
    unsigned char *ptr;
    size_t size;
    CUdevice device;
    unsigned refs;
    int live, reserved;
} fake_gmem;

/* A conditional handle (cuGraphConditionalHandleCreate); CUgraphConditionalHandle is its
 * address.  Held by the graph it was made for and by every conditional node using it. */
typedef struct fake_cond {
    fake_graph *graph;                 /* NULL once that graph is destroyed */
    fake_ctx *ctx;
    unsigned default_value, flags, value;
    unsigned refs;
} fake_cond;

#define FAKE_NODE_ATTR_MAX 16          /* CUlaunchAttributeID values kept per kernel node */

struct fake_node {
    CUgraphNodeType type;
    fake_graph *graph;
    dep_vec deps;                      /* incoming edges */
    const fake_node *origin;           /* the node it was cloned from (compared, never read) */
    int enabled;                       /* cuGraphNodeSetEnabled (executable graphs) */
    unsigned local_id;                 /* cuGraphNodeGetLocalId: its place in the graph's order */
    CUcontext ctx;                     /* current when it was made (kernel, memcpy, memset) */
    CUcontext pref_ctx;                /* 13.5's preferred context of a host / event / extsem */
    unsigned host_sync;                /* a host node's CUhostTaskSyncMode (13.1) */
    /* kernel */
    fake_kernel *kernel;
    unsigned grid[3], block[3], shm;
    unsigned char *params;             /* packed, kernel->param_size + 1 bytes */
    int used_extra;
    void **user_params, **user_extra;  /* what the caller passed, handed back by GetParams */
    void **arg_ptrs;                   /* node-owned kernelParams into `params` (captured nodes) */
    CUlaunchAttributeValue attr[FAKE_NODE_ATTR_MAX];
    /* memcpy, memset, host, child graph, events */
    CUDA_MEMCPY3D copy;
    CUDA_MEMSET_NODE_PARAMS set;
    CUDA_HOST_NODE_PARAMS host;
    fake_graph *child;                 /* owned */
    CUevent event;
    /* mem alloc / mem free */
    CUDA_MEM_ALLOC_NODE_PARAMS alloc;  /* accessDescs points at `access` */
    CUmemAccessDesc *access;
    fake_gmem *gmem;
    CUdeviceptr free_ptr;
    /* conditional */
    fake_cond *cond;
    CUgraphConditionalNodeType cond_type;
    unsigned cond_size;
    fake_graph **bodies;               /* owned */
    CUgraph *body_handles;             /* the array handed out in phGraph_out */
    /* external semaphore signal / wait (fake_external.c) */
    CUexternalSemaphore *ext_sems;     /* owned, ext_count */
    void *ext_params;                  /* owned: ext_count signal or wait parameters */
    unsigned ext_count;
};

typedef struct fake_uref {
    struct fake_uobj *obj;
    unsigned count;
} fake_uref;

struct fake_graph {
    ptr_vec nodes;                     /* insertion order */
    unsigned id;                       /* cuGraphGetId: one process-wide sequence (fake_graph_info.c) */
    unsigned next_local;               /* the local id of its next node */
    const fake_node *owner;            /* the child-graph or conditional node owning it */
    int registered;                    /* a user-side graph, in the live-handle registry */
    ptr_vec conds;                     /* fake_cond * made for this graph */
    fake_uref *urefs;                  /* user object references it holds */
    size_t uref_count, uref_cap;
    unsigned instances;                /* live executable graphs made from it */
};

typedef struct fake_exec {
    fake_graph *graph;                 /* owned clone */
    unsigned id;                       /* cuGraphExecGetId: from the graphs' sequence */
    fake_graph *source;                /* the graph it was instantiated from, NULL once gone */
    cuuint64_t flags;
    int uploaded;
} fake_exec;

/* fake_graph.c: registries and checks. */
extern ptr_vec fake_graphs, fake_execs;
int fake_vec_find(const ptr_vec *v, const void *item);
CUresult fake_graph_check(CUgraph handle, fake_graph **out);
CUresult fake_exec_check(CUgraphExec handle, fake_exec **out);
CUresult fake_node_check(CUgraphNode handle, fake_node **out);

/* fake_graph.c: graphs and nodes.  fake_graph_new registers the graph when `registered`. */
fake_graph *fake_graph_new(int registered);
void fake_graph_free(fake_graph *g);
void fake_node_free(fake_node *n);
/* A deep copy; for_exec: the copy inside an executable graph (not registered, and conditional
 * nodes allowed).  CUDA_ERROR_NOT_SUPPORTED for a user clone of a graph with memory or
 * conditional nodes, as cuda.h says. */
CUresult fake_graph_clone(const fake_graph *g, int for_exec, const fake_node *owner,
                          fake_graph **out);
/* Bit 1: has mem alloc/free nodes; bit 2: has conditional nodes (recursively). */
int fake_graph_kinds(const fake_graph *g);
/* A new node of `type` with incoming edges (not yet in g; checks the edges). */
CUresult fake_node_new(fake_graph *g, const fake_dep *deps, size_t count, CUgraphNodeType type,
                       fake_node **out);
CUresult fake_node_new_h(fake_graph *g, const CUgraphNode *deps, const CUgraphEdgeData *data,
                         size_t count, CUgraphNodeType type, fake_node **out);
CUresult fake_node_commit(fake_graph *g, fake_node *n, CUgraphNode *out);
int fake_dep_push(dep_vec *v, fake_node *node, const CUgraphEdgeData *data);
/* Points n->arg_ptrs at each argument inside n->params (a kernelParams array it owns). */
int fake_node_arg_ptrs(fake_node *n);
/* The node of `g` (or of a graph nested in it) cloned from `node`. */
fake_node *fake_node_in_clone(const fake_graph *g, const fake_node *node);

/* fake_graph_info.c: ids from one process-wide sequence (graphs and executable graphs); the
 * generic parameters of a node as cuGraphNodeGetParams gives them (13.5's layout; pointers
 * into the node); whether two nodes of one type have the same parameters (recapture). */
unsigned fake_graph_next_id(void);
void fake_node_get_generic(const fake_node *n, CUgraphNodeParams *p);
int fake_node_params_equal(const fake_node *a, const fake_node *b);
/* cuGraphAddNode's work (fake_graph_node.c): the new node in *made too. */
CUresult fake_graph_add_node(CUgraphNode *node, CUgraph graph, const CUgraphNode *deps,
                             const CUgraphEdgeData *data, size_t count, CUgraphNodeParams *p,
                             fake_node **made);

/* fake_graph_objects.c: conditional handles and user objects. */
CUresult fake_cond_check(CUgraphConditionalHandle handle, fake_cond **out);
void fake_cond_put(fake_cond *c);
int fake_graph_retain_urefs(fake_graph *into, const fake_graph *from);
/* Runs the destructors of user objects whose count reached zero; call WITHOUT the lock. */
void fake_uobj_flush(void);
void fake_uobj_release(struct fake_uobj *o, unsigned count);
CUresult fake_leave_flush(CUresult rc);

/* fake_graph_node.c: parameters of each kind (validated, then stored into n). */
CUresult fake_node_kernel(fake_node *n, const CUDA_KERNEL_NODE_PARAMS *p);
CUresult fake_node_memcpy(fake_node *n, const CUDA_MEMCPY3D *c);
CUresult fake_node_memset(fake_node *n, const CUDA_MEMSET_NODE_PARAMS *s);
CUresult fake_node_host(fake_node *n, const CUDA_HOST_NODE_PARAMS *h);
CUresult fake_node_event(fake_node *n, CUevent e);
CUresult fake_node_alloc(fake_node *n, CUDA_MEM_ALLOC_NODE_PARAMS *p);
CUresult fake_node_mem_free(fake_node *n, CUdeviceptr dptr);
/* fake_external.c: an external semaphore node's semaphores and parameters (n->type says
 * signal or wait; params points at count CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS or ..._WAIT_PARAMS),
 * copied into n; a copy of them for a clone; what a launch does for the node. */
CUresult fake_node_extsem(fake_node *n, const CUexternalSemaphore *sems, const void *params,
                          unsigned count);
int fake_node_extsem_copy(fake_node *into, const fake_node *from);
void fake_node_extsem_run(const fake_node *n);
/* Generic parameters (cuGraphNodeSetParams / cuGraphExecNodeSetParams) on an existing node. */
CUresult fake_node_set_generic(fake_node *n, CUgraphNodeParams *p);
/* Whether `from` can replace `into` in place, and the copy of its parameters. */
CUresult fake_graph_update_check(const fake_graph *into, const fake_graph *from,
                                 CUgraphExecUpdateResultInfo *info);
CUresult fake_graph_update_apply(fake_graph *into, const fake_graph *from);

/* fake_mempool.c: graph allocations. */
CUresult fake_gmem_new(size_t size, CUdevice device, fake_gmem **out);
void fake_gmem_put(fake_gmem *m);
fake_gmem *fake_gmem_at(CUdeviceptr start);            /* the block starting there */
void fake_gmem_mark(fake_gmem *m, int live);           /* a launch runs its alloc / free */
CUresult fake_pool_props_check(const CUmemPoolProps *props);

#endif
