/*
 * fake_external.c - imported ("external") memory and semaphores, and the graph nodes that signal
 * and wait on them, for the fake driver.
 *
 * Memory: only CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD is served.  The fd is mapped (mmap,
 * MAP_SHARED), so a test's memfd acts as the exporting API's memory: what the test writes into the
 * memfd is what a copy from a mapped buffer reads.  As with the real driver, a successful import
 * owns the fd (closed here).  A mapped buffer is an allocation of fake_g.allocs whose storage is
 * the mapping (the copies accept it; cuMemFree releases it); the mapping lives until the memory
 * object is destroyed and every buffer is freed.  A mapped mipmapped array is an ordinary fake
 * mipmapped array whose level 0 is filled from the mapping when it is made (a snapshot: later
 * writes on either side are not shared; enough for the tests of the translation).
 *
 * Semaphores: only CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD, modelled as a counter: a signal
 * sets the value to the fence value it passes, and signals and waits are counted (a wait never
 * blocks).  Other handle types of either kind answer CUDA_ERROR_NOT_SUPPORTED, as a machine
 * without Win32, D3D or NvSci does; unknown ones CUDA_ERROR_INVALID_VALUE.
 * cuDeviceGetNvSciSyncAttributes answers CUDA_ERROR_NOT_SUPPORTED (no NvSci here).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "memory/fake_array.h"
#include "graph/fake_graph.h"

#define FAKE_EXPORT __attribute__((visibility("default")))

_Static_assert(sizeof(CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS) ==
                   sizeof(CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS),
               "a node stores either kind of parameters in the same room");
#define FAKE_EXTSEM_PARAMS_SIZE sizeof(CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS)

typedef struct fake_extmem {
    unsigned char *map;
    size_t size;
    unsigned refs;               /* the object itself (until destroyed) + each mapped buffer */
} fake_extmem;

typedef struct fake_extsem {
    unsigned long long value;    /* the last signalled fence value */
    unsigned long long waited;   /* the fence value of the last wait */
    unsigned signals, waits;
} fake_extsem;

static ptr_vec memories, semaphores;   /* live (not destroyed) objects */

static int all_zero(const unsigned *words, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (words[i])
            return 0;
    return 1;
}

static fake_extmem *find_memory(CUexternalMemory handle, size_t *index)
{
    int at = fake_vec_find(&memories, handle);
    if (at >= 0 && index)
        *index = (size_t)at;
    return at >= 0 ? (fake_extmem *)handle : NULL;
}

static fake_extsem *find_semaphore(CUexternalSemaphore handle)
{
    return fake_vec_find(&semaphores, handle) >= 0 ? (fake_extsem *)handle : NULL;
}

static void memory_put(fake_extmem *m)
{
    if (--m->refs)
        return;
    munmap(m->map, m->size);
    free(m);
}

/* Whether fd is open (the real driver would also ask whether it is one of its exports). */
static int fd_usable(int fd)
{
    return fd >= 0 && fcntl(fd, F_GETFD) != -1;
}

/* ---- memory --------------------------------------------------------------------------------- */

static CUresult import_memory(CUexternalMemory *out, const CUDA_EXTERNAL_MEMORY_HANDLE_DESC *d)
{
    if (!out || !d)
        return CUDA_ERROR_INVALID_VALUE;
    if (d->type >= CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32 &&
        d->type <= CU_EXTERNAL_MEMORY_HANDLE_TYPE_NVSCIBUF)
        return CUDA_ERROR_NOT_SUPPORTED;
    if (d->type != CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD ||
        (d->flags & ~CUDA_EXTERNAL_MEMORY_DEDICATED) ||
        !all_zero(d->reserved, sizeof d->reserved / sizeof *d->reserved) || d->size == 0)
        return CUDA_ERROR_INVALID_VALUE;
    struct stat st;
    if (!fd_usable(d->handle.fd) || fstat(d->handle.fd, &st) != 0 ||
        (unsigned long long)st.st_size < d->size)
        return CUDA_ERROR_INVALID_VALUE;
    fake_extmem *m = calloc(1, sizeof *m);
    if (!m)
        return CUDA_ERROR_OUT_OF_MEMORY;
    m->size = (size_t)d->size;
    m->map = mmap(NULL, m->size, PROT_READ | PROT_WRITE, MAP_SHARED, d->handle.fd, 0);
    if (m->map == MAP_FAILED || fake_vec_push(&memories, m) != 0) {
        if (m->map != MAP_FAILED)
            munmap(m->map, m->size);
        free(m);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    m->refs = 1;
    close(d->handle.fd);          /* a successful import owns the fd */
    *out = (CUexternalMemory)m;
    return CUDA_SUCCESS;
}

static CUresult CUDAAPI f_cuImportExternalMemory(CUexternalMemory *out,
                                                 const CUDA_EXTERNAL_MEMORY_HANDLE_DESC *d)
{
    CUresult rc = fake_enter("cuImportExternalMemory", "type=%d fd=%d size=%llu flags=0x%x",
                             d ? (int)d->type : -1, d ? d->handle.fd : -1, d ? d->size : 0,
                             d ? d->flags : 0);
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS)
        rc = import_memory(out, d);
    return fake_leave(rc);
}

/* A buffer freed (cuMemFree, or its context reset): the mapping loses a reference. */
static void buffer_release(fake_alloc *a)
{
    memory_put(a->owner);
}

/* Whether [offset, offset + size) lies inside m (size > 0). */
static int memory_range_ok(const fake_extmem *m, unsigned long long offset,
                           unsigned long long size)
{
    return size && offset <= m->size && size <= m->size - offset;
}

static CUresult CUDAAPI f_cuExternalMemoryGetMappedBuffer(CUdeviceptr *dptr,
                                                          CUexternalMemory handle,
                                                          const CUDA_EXTERNAL_MEMORY_BUFFER_DESC *d)
{
    CUresult rc = fake_enter("cuExternalMemoryGetMappedBuffer",
                             "extMem=%p offset=%llu size=%llu flags=0x%x", (void *)handle,
                             d ? d->offset : 0, d ? d->size : 0, d ? d->flags : 0);
    fake_ctx *ctx = NULL;
    fake_extmem *m = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(&ctx);
    if (rc == CUDA_SUCCESS && (!dptr || !d))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && !(m = find_memory(handle, NULL)))
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS &&
        (d->flags || !all_zero(d->reserved, sizeof d->reserved / sizeof *d->reserved) ||
         !memory_range_ok(m, d->offset, d->size)))
        rc = CUDA_ERROR_INVALID_VALUE;
    fake_alloc *a = NULL;
    if (rc == CUDA_SUCCESS && !(a = calloc(1, sizeof *a)))
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    if (rc == CUDA_SUCCESS) {
        a->ptr = m->map + d->offset;
        a->size = (size_t)d->size;
        a->ctx = fake_ctx_base(ctx);
        a->release = buffer_release;
        a->owner = m;
        if (fake_vec_push(&fake_g.allocs, a) != 0) {
            free(a);
            rc = CUDA_ERROR_OUT_OF_MEMORY;
        }
    }
    if (rc == CUDA_SUCCESS) {
        m->refs++;
        *dptr = (CUdeviceptr)(uintptr_t)a->ptr;
    }
    return fake_leave(rc);
}

/* The array is made first (its descriptor checked as cuMipmappedArrayCreate checks it), then
 * level 0 is filled from the mapping, if it fits there. */
static CUresult map_mipmap(CUmipmappedArray *out, fake_extmem *m,
                           const CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC *d)
{
    if (!all_zero(d->reserved, sizeof d->reserved / sizeof *d->reserved) || d->offset >= m->size)
        return CUDA_ERROR_INVALID_VALUE;
    CUmipmappedArray handle = NULL;
    CUresult rc = fake_mipmap_create(&handle, &d->arrayDesc, d->numLevels);
    if (rc != CUDA_SUCCESS)
        return rc;
    unsigned char *storage = NULL;
    size_t width_bytes = 0, height = 0, depth = 0;
    fake_array_lookup((CUarray)fake_mipmap_find(handle)->level[0], &storage, &width_bytes,
                      &height, &depth);
    unsigned long long bytes = (unsigned long long)width_bytes * height * depth;
    if (bytes > m->size - d->offset) {
        fake_mipmap_drop(handle);
        return CUDA_ERROR_INVALID_VALUE;
    }
    memcpy(storage, m->map + d->offset, (size_t)bytes);
    *out = handle;
    return CUDA_SUCCESS;
}

static CUresult CUDAAPI f_cuExternalMemoryGetMappedMipmappedArray(
    CUmipmappedArray *out, CUexternalMemory handle,
    const CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC *d)
{
    CUresult rc = fake_enter("cuExternalMemoryGetMappedMipmappedArray",
                             "extMem=%p offset=%llu Width=%zu Height=%zu Depth=%zu Format=0x%x "
                             "NumChannels=%u Flags=0x%x numLevels=%u", (void *)handle,
                             d ? d->offset : 0, d ? d->arrayDesc.Width : 0,
                             d ? d->arrayDesc.Height : 0, d ? d->arrayDesc.Depth : 0,
                             d ? (unsigned)d->arrayDesc.Format : 0,
                             d ? d->arrayDesc.NumChannels : 0, d ? d->arrayDesc.Flags : 0,
                             d ? d->numLevels : 0);
    fake_extmem *m = NULL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && (!out || !d))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && !(m = find_memory(handle, NULL)))
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS)
        rc = map_mipmap(out, m, d);
    return fake_leave(rc);
}

/* Buffers mapped from it stay usable until freed (the mapping outlives the object). */
static CUresult CUDAAPI f_cuDestroyExternalMemory(CUexternalMemory handle)
{
    CUresult rc = fake_enter("cuDestroyExternalMemory", "extMem=%p", (void *)handle);
    fake_extmem *m = NULL;
    size_t index = 0;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && !(m = find_memory(handle, &index)))
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS) {
        fake_vec_remove(&memories, index);
        memory_put(m);
    }
    return fake_leave(rc);
}

/* ---- semaphores ----------------------------------------------------------------------------- */

static CUresult import_semaphore(CUexternalSemaphore *out,
                                 const CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC *d)
{
    if (!out || !d)
        return CUDA_ERROR_INVALID_VALUE;
    if (d->type >= CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32 &&
        d->type <= CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_WIN32)
        return CUDA_ERROR_NOT_SUPPORTED;
    if (d->type != CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD || d->flags ||
        !all_zero(d->reserved, sizeof d->reserved / sizeof *d->reserved) ||
        !fd_usable(d->handle.fd))
        return CUDA_ERROR_INVALID_VALUE;
    fake_extsem *s = calloc(1, sizeof *s);
    if (!s || fake_vec_push(&semaphores, s) != 0) {
        free(s);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    close(d->handle.fd);          /* a successful import owns the fd */
    *out = (CUexternalSemaphore)s;
    return CUDA_SUCCESS;
}

static CUresult CUDAAPI f_cuImportExternalSemaphore(CUexternalSemaphore *out,
                                                    const CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC *d)
{
    CUresult rc = fake_enter("cuImportExternalSemaphore", "type=%d fd=%d flags=0x%x",
                             d ? (int)d->type : -1, d ? d->handle.fd : -1, d ? d->flags : 0);
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS)
        rc = import_semaphore(out, d);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuDestroyExternalSemaphore(CUexternalSemaphore handle)
{
    CUresult rc = fake_enter("cuDestroyExternalSemaphore", "extSem=%p", (void *)handle);
    int at = -1;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && (at = fake_vec_find(&semaphores, handle)) < 0)
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS) {
        fake_vec_remove(&semaphores, (size_t)at);
        free(handle);
    }
    return fake_leave(rc);
}

/* The values of a signal or wait, "v0,v1,..." (the first few), for the call log. */
static void format_values(char *out, size_t cap, const void *params, unsigned count)
{
    out[0] = 0;
    for (unsigned i = 0; params && i < count && i < 8; i++) {
        const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *p =
            (const void *)((const char *)params + i * FAKE_EXTSEM_PARAMS_SIZE);
        size_t used = strlen(out);
        snprintf(out + used, cap - used, "%s%llu", i ? "," : "", p->params.fence.value);
    }
}

/* Checks a signal's or a wait's semaphores and parameters: every semaphore live (invalid_handle
 * answered otherwise), flags among `allowed`, reserved words zero. */
static CUresult check_semaphores(const CUexternalSemaphore *sems, const void *params,
                                 unsigned count, unsigned allowed, CUresult invalid_handle)
{
    if (count && (!sems || !params))
        return CUDA_ERROR_INVALID_VALUE;
    for (unsigned i = 0; i < count; i++) {
        const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *p =
            (const void *)((const char *)params + i * FAKE_EXTSEM_PARAMS_SIZE);
        if (!find_semaphore(sems[i]))
            return invalid_handle;
        if ((p->flags & ~allowed) || !all_zero(p->reserved, sizeof p->reserved / sizeof *p->reserved))
            return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

static void run_signal(const CUexternalSemaphore *sems, const void *params, unsigned count)
{
    for (unsigned i = 0; i < count; i++) {
        fake_extsem *s = find_semaphore(sems[i]);
        const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *p =
            (const void *)((const char *)params + i * FAKE_EXTSEM_PARAMS_SIZE);
        if (s) {
            s->value = p->params.fence.value;
            s->signals++;
        }
    }
}

static void run_wait(const CUexternalSemaphore *sems, const void *params, unsigned count)
{
    for (unsigned i = 0; i < count; i++) {
        fake_extsem *s = find_semaphore(sems[i]);
        const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS *p =
            (const void *)((const char *)params + i * FAKE_EXTSEM_PARAMS_SIZE);
        if (s) {
            s->waited = p->params.fence.value;
            s->waits++;
        }
    }
}

/* cuSignalExternalSemaphoresAsync / cuWaitExternalSemaphoresAsync: on a capturing stream the
 * work becomes a node of the capture. */
static CUresult semaphores_async(const char *name, CUgraphNodeType type,
                                 const CUexternalSemaphore *sems, const void *params,
                                 unsigned count, CUstream stream)
{
    char values[160];
    format_values(values, sizeof values, params, count);
    CUresult rc = fake_enter(name, "count=%u stream=%p values=%s", count, (void *)stream, values);
    int signal = type == CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL;
    if (rc == CUDA_SUCCESS)
        rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS)
        rc = fake_stream_check(stream);
    if (rc == CUDA_SUCCESS)
        rc = check_semaphores(sems, params, count,
                              signal ? CUDA_EXTERNAL_SEMAPHORE_SIGNAL_SKIP_NVSCIBUF_MEMSYNC
                                     : CUDA_EXTERNAL_SEMAPHORE_WAIT_SKIP_NVSCIBUF_MEMSYNC,
                              CUDA_ERROR_INVALID_HANDLE);
    if (rc == CUDA_SUCCESS && fake_capture_extsem(stream, type, sems, params, count, &rc))
        return fake_leave(rc);
    if (rc == CUDA_SUCCESS) {
        if (signal)
            run_signal(sems, params, count);
        else
            run_wait(sems, params, count);
    }
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuSignalExternalSemaphoresAsync(
    const CUexternalSemaphore *sems, const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *params,
    unsigned count, CUstream stream)
{
    return semaphores_async("cuSignalExternalSemaphoresAsync", CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL,
                            sems, params, count, stream);
}

static CUresult CUDAAPI f_cuWaitExternalSemaphoresAsync(
    const CUexternalSemaphore *sems, const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS *params,
    unsigned count, CUstream stream)
{
    return semaphores_async("cuWaitExternalSemaphoresAsync", CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT,
                            sems, params, count, stream);
}

/* No NvSci on this machine: the answer of a driver without it. */
static CUresult CUDAAPI f_cuDeviceGetNvSciSyncAttributes(void *list, CUdevice dev, int flags)
{
    CUresult rc = fake_enter("cuDeviceGetNvSciSyncAttributes", "list=%p dev=%d flags=%d", list,
                             (int)dev, flags);
    if (rc == CUDA_SUCCESS)
        rc = fake_need_device(dev);
    if (rc == CUDA_SUCCESS && !list)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = CUDA_ERROR_NOT_SUPPORTED;
    return fake_leave(rc);
}

/* ---- graph nodes ---------------------------------------------------------------------------- */

CUresult fake_node_extsem(fake_node *n, const CUexternalSemaphore *sems, const void *params,
                          unsigned count)
{
    int signal = n->type == CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL;
    CUresult rc = check_semaphores(sems, params, count,
                                   signal ? CUDA_EXTERNAL_SEMAPHORE_SIGNAL_SKIP_NVSCIBUF_MEMSYNC
                                          : CUDA_EXTERNAL_SEMAPHORE_WAIT_SKIP_NVSCIBUF_MEMSYNC,
                                   CUDA_ERROR_INVALID_VALUE);
    if (rc != CUDA_SUCCESS)
        return rc;
    CUexternalSemaphore *s = NULL;
    void *p = NULL;
    if (count && (!(s = malloc(count * sizeof *s)) || !(p = malloc(count * FAKE_EXTSEM_PARAMS_SIZE)))) {
        free(s);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    if (count) {
        memcpy(s, sems, count * sizeof *s);
        memcpy(p, params, count * FAKE_EXTSEM_PARAMS_SIZE);
    }
    free(n->ext_sems);
    free(n->ext_params);
    n->ext_sems = s;
    n->ext_params = p;
    n->ext_count = count;
    return CUDA_SUCCESS;
}

int fake_node_extsem_copy(fake_node *into, const fake_node *from)
{
    CUexternalSemaphore *s = NULL;
    void *p = NULL;
    unsigned count = from->ext_count;
    if (from->ext_sems && count) {
        if (!(s = malloc(count * sizeof *s)) || !(p = malloc(count * FAKE_EXTSEM_PARAMS_SIZE))) {
            free(s);
            return -1;
        }
        memcpy(s, from->ext_sems, count * sizeof *s);
        memcpy(p, from->ext_params, count * FAKE_EXTSEM_PARAMS_SIZE);
    }
    if (into != from) {
        free(into->ext_sems);
        free(into->ext_params);
    }
    into->ext_sems = s;
    into->ext_params = p;
    into->ext_count = s ? count : 0;
    return 0;
}

void fake_node_extsem_run(const fake_node *n)
{
    if (n->type == CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL)
        run_signal(n->ext_sems, n->ext_params, n->ext_count);
    else
        run_wait(n->ext_sems, n->ext_params, n->ext_count);
}

static CUresult add_node(CUgraphNode *node, CUgraph graph, const CUgraphNode *deps, size_t count,
                         CUgraphNodeType type, const CUexternalSemaphore *sems,
                         const void *params, unsigned sem_count)
{
    fake_graph *g = NULL;
    fake_node *n = NULL;
    CUresult rc = fake_need_ctx(NULL);
    if (rc == CUDA_SUCCESS && !node)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = fake_graph_check(graph, &g);
    if (rc == CUDA_SUCCESS)
        rc = fake_node_new_h(g, deps, NULL, count, type, &n);
    if (rc == CUDA_SUCCESS && (rc = fake_node_extsem(n, sems, params, sem_count)) != CUDA_SUCCESS)
        fake_node_free(n);
    if (rc == CUDA_SUCCESS)
        rc = fake_node_commit(g, n, node);
    return rc;
}

/* The node of a user graph, of the given type (else CUDA_ERROR_INVALID_VALUE). */
static CUresult node_of(CUgraphNode node, CUgraphNodeType type, fake_node **n)
{
    CUresult rc = fake_node_check(node, n);
    if (rc == CUDA_SUCCESS && (*n)->type != type)
        rc = CUDA_ERROR_INVALID_VALUE;
    return rc;
}

/* The copy inside an executable graph of a node of the given type. */
static CUresult exec_node_of(CUgraphExec exec, CUgraphNode node, CUgraphNodeType type,
                             fake_node **n)
{
    fake_exec *x = NULL;
    CUresult rc = fake_exec_check(exec, &x);
    if (rc == CUDA_SUCCESS && (!node || !(*n = fake_node_in_clone(x->graph, (const fake_node *)node)) ||
                               (*n)->type != type))
        rc = CUDA_ERROR_INVALID_VALUE;
    return rc;
}

#define NODE_LOG(p)                                                                           \
    char values[160];                                                                         \
    format_values(values, sizeof values, (p) ? (p)->paramsArray : NULL,                      \
                  (p) ? (p)->numExtSems : 0)

static CUresult CUDAAPI f_cuGraphAddExternalSemaphoresSignalNode(
    CUgraphNode *node, CUgraph graph, const CUgraphNode *deps, size_t count,
    const CUDA_EXT_SEM_SIGNAL_NODE_PARAMS *p)
{
    NODE_LOG(p);
    CUresult rc = fake_enter("cuGraphAddExternalSemaphoresSignalNode",
                             "graph=%p deps=%zu count=%u values=%s", (void *)graph, count,
                             p ? p->numExtSems : 0, values);
    if (rc == CUDA_SUCCESS && !p)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = add_node(node, graph, deps, count, CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL,
                      p->extSemArray, p->paramsArray, p->numExtSems);
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphAddExternalSemaphoresWaitNode(
    CUgraphNode *node, CUgraph graph, const CUgraphNode *deps, size_t count,
    const CUDA_EXT_SEM_WAIT_NODE_PARAMS *p)
{
    NODE_LOG(p);
    CUresult rc = fake_enter("cuGraphAddExternalSemaphoresWaitNode",
                             "graph=%p deps=%zu count=%u values=%s", (void *)graph, count,
                             p ? p->numExtSems : 0, values);
    if (rc == CUDA_SUCCESS && !p)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = add_node(node, graph, deps, count, CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT,
                      p->extSemArray, p->paramsArray, p->numExtSems);
    return fake_leave(rc);
}

/* GetParams hands back the node's own arrays, valid until its parameters change. */
static CUresult CUDAAPI f_cuGraphExternalSemaphoresSignalNodeGetParams(
    CUgraphNode node, CUDA_EXT_SEM_SIGNAL_NODE_PARAMS *out)
{
    CUresult rc = fake_enter("cuGraphExternalSemaphoresSignalNodeGetParams", "node=%p",
                             (void *)node);
    fake_node *n = NULL;
    if (rc == CUDA_SUCCESS && !out)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = node_of(node, CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL, &n);
    if (rc == CUDA_SUCCESS)
        *out = (CUDA_EXT_SEM_SIGNAL_NODE_PARAMS){ n->ext_sems, n->ext_params, n->ext_count };
    return fake_leave(rc);
}

static CUresult CUDAAPI f_cuGraphExternalSemaphoresWaitNodeGetParams(
    CUgraphNode node, CUDA_EXT_SEM_WAIT_NODE_PARAMS *out)
{
    CUresult rc = fake_enter("cuGraphExternalSemaphoresWaitNodeGetParams", "node=%p",
                             (void *)node);
    fake_node *n = NULL;
    if (rc == CUDA_SUCCESS && !out)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = node_of(node, CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT, &n);
    if (rc == CUDA_SUCCESS)
        *out = (CUDA_EXT_SEM_WAIT_NODE_PARAMS){ n->ext_sems, n->ext_params, n->ext_count };
    return fake_leave(rc);
}

/* SetParams on a user graph's node (in_exec 0) or on its copy in an executable graph, whose
 * number of semaphores cannot change (cuda.h). */
static CUresult set_node(const char *name, int in_exec, CUgraphExec exec, CUgraphNode node,
                         CUgraphNodeType type, const CUexternalSemaphore *sems,
                         const void *params, unsigned count, int have_params)
{
    char values[160];
    format_values(values, sizeof values, params, count);
    CUresult rc = fake_enter(name, "exec=%p node=%p count=%u values=%s", (void *)exec,
                             (void *)node, count, values);
    fake_node *n = NULL;
    if (rc == CUDA_SUCCESS && !have_params)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = in_exec ? exec_node_of(exec, node, type, &n) : node_of(node, type, &n);
    if (rc == CUDA_SUCCESS && in_exec && count != n->ext_count)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS)
        rc = fake_node_extsem(n, sems, params, count);
    return fake_leave(rc);
}

#define SET_ARGS(p) (p) ? (p)->extSemArray : NULL, (p) ? (const void *)(p)->paramsArray : NULL, \
                    (p) ? (p)->numExtSems : 0, (p) != NULL

static CUresult CUDAAPI f_cuGraphExternalSemaphoresSignalNodeSetParams(
    CUgraphNode node, const CUDA_EXT_SEM_SIGNAL_NODE_PARAMS *p)
{
    return set_node("cuGraphExternalSemaphoresSignalNodeSetParams", 0, NULL, node,
                    CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL, SET_ARGS(p));
}

static CUresult CUDAAPI f_cuGraphExternalSemaphoresWaitNodeSetParams(
    CUgraphNode node, const CUDA_EXT_SEM_WAIT_NODE_PARAMS *p)
{
    return set_node("cuGraphExternalSemaphoresWaitNodeSetParams", 0, NULL, node,
                    CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT, SET_ARGS(p));
}

static CUresult CUDAAPI f_cuGraphExecExternalSemaphoresSignalNodeSetParams(
    CUgraphExec exec, CUgraphNode node, const CUDA_EXT_SEM_SIGNAL_NODE_PARAMS *p)
{
    return set_node("cuGraphExecExternalSemaphoresSignalNodeSetParams", 1, exec, node,
                    CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL, SET_ARGS(p));
}

static CUresult CUDAAPI f_cuGraphExecExternalSemaphoresWaitNodeSetParams(
    CUgraphExec exec, CUgraphNode node, const CUDA_EXT_SEM_WAIT_NODE_PARAMS *p)
{
    return set_node("cuGraphExecExternalSemaphoresWaitNodeSetParams", 1, exec, node,
                    CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT, SET_ARGS(p));
}

const proc_entry fake_procs_external[] = {
    {"cuImportExternalMemory", 10000, 99999, (void *)f_cuImportExternalMemory},
    {"cuExternalMemoryGetMappedBuffer", 10000, 99999, (void *)f_cuExternalMemoryGetMappedBuffer},
    {"cuExternalMemoryGetMappedMipmappedArray", 10000, 99999,
     (void *)f_cuExternalMemoryGetMappedMipmappedArray},
    {"cuDestroyExternalMemory", 10000, 99999, (void *)f_cuDestroyExternalMemory},
    {"cuImportExternalSemaphore", 10000, 99999, (void *)f_cuImportExternalSemaphore},
    {"cuSignalExternalSemaphoresAsync", 10000, 99999, (void *)f_cuSignalExternalSemaphoresAsync},
    {"cuWaitExternalSemaphoresAsync", 10000, 99999, (void *)f_cuWaitExternalSemaphoresAsync},
    {"cuDestroyExternalSemaphore", 10000, 99999, (void *)f_cuDestroyExternalSemaphore},
    {"cuDeviceGetNvSciSyncAttributes", 10020, 99999, (void *)f_cuDeviceGetNvSciSyncAttributes},
    {"cuGraphAddExternalSemaphoresSignalNode", 11020, 99999,
     (void *)f_cuGraphAddExternalSemaphoresSignalNode},
    {"cuGraphExternalSemaphoresSignalNodeGetParams", 11020, 99999,
     (void *)f_cuGraphExternalSemaphoresSignalNodeGetParams},
    {"cuGraphExternalSemaphoresSignalNodeSetParams", 11020, 99999,
     (void *)f_cuGraphExternalSemaphoresSignalNodeSetParams},
    {"cuGraphAddExternalSemaphoresWaitNode", 11020, 99999,
     (void *)f_cuGraphAddExternalSemaphoresWaitNode},
    {"cuGraphExternalSemaphoresWaitNodeGetParams", 11020, 99999,
     (void *)f_cuGraphExternalSemaphoresWaitNodeGetParams},
    {"cuGraphExternalSemaphoresWaitNodeSetParams", 11020, 99999,
     (void *)f_cuGraphExternalSemaphoresWaitNodeSetParams},
    {"cuGraphExecExternalSemaphoresSignalNodeSetParams", 11020, 99999,
     (void *)f_cuGraphExecExternalSemaphoresSignalNodeSetParams},
    {"cuGraphExecExternalSemaphoresWaitNodeSetParams", 11020, 99999,
     (void *)f_cuGraphExecExternalSemaphoresWaitNodeSetParams},
    {NULL, 0, 0, NULL},
};

/* ---- the test API --------------------------------------------------------------------------- */

/* Live imported memory objects and semaphores. */
FAKE_EXPORT void fake_external_live(size_t *memories_out, size_t *semaphores_out);
FAKE_EXPORT void fake_external_live(size_t *memories_out, size_t *semaphores_out)
{
    fake_lock();
    if (memories_out)
        *memories_out = memories.count;
    if (semaphores_out)
        *semaphores_out = semaphores.count;
    fake_unlock();
}

/* A live semaphore's counter: the last signalled value, the last waited-for value, and how many
 * signals and waits ran.  Returns 0, or -1 when handle is not a live semaphore. */
FAKE_EXPORT int fake_extsem_state(uintptr_t handle, unsigned long long *value,
                                  unsigned long long *waited, unsigned *signals, unsigned *waits);
FAKE_EXPORT int fake_extsem_state(uintptr_t handle, unsigned long long *value,
                                  unsigned long long *waited, unsigned *signals, unsigned *waits)
{
    fake_lock();
    const fake_extsem *s = find_semaphore((CUexternalSemaphore)handle);
    if (s) {
        *value = s->value;
        *waited = s->waited;
        *signals = s->signals;
        *waits = s->waits;
    }
    fake_unlock();
    return s ? 0 : -1;
}
