/*
 * fake_internal.h - what the fake driver's files share: fakecuda.c (call log, failure injection,
 * common checks, cuGetProcAddress, the test API), fake_image.c (reading cubins and PTX) and the
 * area files fake_<area>.c that hold the entry points (fake_device.c, fake_module.c, ...).
 * Not seen by tests.
 */
#ifndef MINICUDART_FAKE_INTERNAL_H
#define MINICUDART_FAKE_INTERNAL_H

#include <cuda.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "fakecuda.h"
/* The types, codes and enumerators of CUDA 13.1-13.5 that the 13.0 headers lack. */
#include "fake_cuda135.h"

typedef struct fake_param {
    uint32_t offset;
    uint32_t size;
} fake_param;

struct fake_module;

/* A kernel of a loaded module; its address is the CUfunction handed out. */
typedef struct fake_kernel {
    char *name;
    fake_param *params;          /* sorted by ordinal */
    unsigned param_count;
    uint32_t param_size;         /* bytes of the parameter buffer (last offset + size) */
    uint32_t max_threads;        /* from __launch_bounds__, 0 when absent */
    uint64_t shared_size;        /* static shared memory */
    struct fake_module *module;
} fake_kernel;

/* Host storage of a module global (the "device address" cuModuleGetGlobal hands out). */
typedef struct fake_global {
    char *name;
    unsigned char *storage;
    size_t size;
    int managed;                 /* PTX .attribute(.managed) (cubins: not modelled, 0) */
} fake_global;

typedef struct fake_module {
    int jit;                     /* loaded from PTX */
    unsigned sm;                 /* cubin SM or PTX .target */
    unsigned char *image;        /* our own copy (cubin bytes or NUL-terminated PTX) */
    size_t image_size;
    fake_kernel *kernels;
    unsigned kernel_count;
    fake_global *globals;
    unsigned global_count, global_cap;
    void *ctx;                   /* the fake_ctx it was loaded into */
    int dead;                    /* unloaded, or its context was reset */
    int freed;                   /* dead by cuModuleUnload or cuLibraryUnload, not by a reset:
                                  * its functions are freed (fake_launch_run) */
} fake_module;

/* Loads `image` (cubin ELF or NUL-terminated PTX text) into m, which must be zeroed.  Returns 0,
 * or a CUresult (200 INVALID_IMAGE, 218 INVALID_PTX) with a message in err. */
int fake_image_load(fake_module *m, const void *image, char *err, size_t errcap);

/* Finds or materialises the global `name` of m.  Returns NULL when the image has no such
 * variable. */
fake_global *fake_image_global(fake_module *m, const char *name);

/* Whether module m (cubin or PTX) may load on the fake's device: CUDA_SUCCESS, or
 * NO_BINARY_FOR_GPU / INVALID_PTX with a message in err (fake_module.c, like the next one). */
CUresult fake_module_check_target(const fake_module *m, char *err, size_t cap);
/* Writes msg into the CU_JIT_ERROR_LOG_BUFFER among a load's JIT options, if there is one. */
void fake_jit_error_log(unsigned n, const CUjit_option *opts, void **vals, const char *msg);

/* The function of a library's kernel (a CUkernel) in the current context's base (a green
 * context's is its primary's), loading the library there if it is not yet: what
 * cuKernelGetFunction gives, for the places that take a CUkernel (kernel nodes).  Not logged. */
CUresult fake_kernel_function(CUkernel kernel, CUfunction *func);

/* Frees what fake_image_load allocated (not m itself). */
void fake_image_free(fake_module *m);

/* Aligned, zeroed host allocation of at least `size` bytes (256-byte aligned, like the driver). */
void *fake_aligned_alloc(size_t size);

/* ---- the fake driver's state, shared by fakecuda.c and the per-area files fake_<area>.c ---- */

#define FAKE_INIT_AUTO ((CUresult)-1)
/* The default of FAKECUDA_DRIVER_VERSION (fake_g.driver_version): what cuDriverGetVersion
 * answers and the newest version cuGetProcAddress hands entries out for.  13000 is the H200's
 * driver 580; entry points of newer drivers (their `since` above it) are then not found. */
#define FAKE_DRIVER_VERSION 13000
#define FAKE_SM_COUNT 132           /* FAKECUDA_SMS: an H200's multiprocessors */

typedef struct fake_ctx {
    CUdevice device;
    unsigned refcount;
    unsigned flags;
    int active;
    CUresult poison;            /* sticky error, CUDA_SUCCESS when healthy */
    CUresult lost;              /* the sticky error that lost the device for good, if any */
    unsigned long long id;      /* cuCtxGetId: new at every (re)activation */
    /* A green context's CUcontext (fake_green.c): the device's primary context, whose memory,
     * modules and sticky state it shares, and the green context it stands for.  NULL for
     * primary and created contexts. */
    struct fake_ctx *primary;
    void *green;
} fake_ctx;

#define FAKE_EXTRA_CONTEXTS 4     /* contexts made by fake_create_context (like cuCtxCreate) */

typedef struct fake_alloc {
    unsigned char *ptr;
    size_t size;
    int managed;
    fake_ctx *ctx;
    /* Memory the allocation does not own (a buffer mapped from imported memory, fake_external.c):
     * freeing it calls release instead of free(ptr), and the range is not kept reserved. */
    void (*release)(struct fake_alloc *a);
    void *owner;
    /* IPC (fake_ipc.c): with FAKECUDA_IPC=1 a block lives in a MAP_SHARED memfd (memfd >= 0,
     * else -1 or 0 with shared == 0), so another process can map it through /proc/<pid>/fd. */
    int shared;
    int memfd;
    unsigned long long serial;  /* names the memfd: tells a reused fd from the exported block */
    int ipc_opened;             /* mapped by cuIpcOpenMemHandle: closed, never cuMemFree'd */
    unsigned ipc_refs;          /* opens not yet closed */
    unsigned owner_pid;         /* of an opened or imported block: the exporter */
    int owner_fd;
    void *residency;            /* managed memory: where prefetches put it (fake_residency.c) */
} fake_alloc;

typedef struct fake_failure {
    char name[48];
    unsigned remaining;         /* calls until the failing one; 1 = the next */
    CUresult code;
} fake_failure;

typedef struct fake_host_impl {
    char name[FAKE_NAME_MAX];
    fake_host_kernel fn;
} fake_host_impl;

/* A growable array of pointers. */
typedef struct ptr_vec {
    void **items;
    size_t count, cap;
} ptr_vec;

typedef struct fake_state {
    pthread_mutex_t lock;       /* held between fake_enter and fake_leave */
    int device_count;
    unsigned sm;
    unsigned sm_count;          /* multiprocessors of each device (FAKECUDA_SMS) */
    int driver_version;         /* FAKECUDA_DRIVER_VERSION */
    CUresult init_result;
    int initialized;
    fake_ctx ctx[FAKE_MAX_DEVICES];
    fake_ctx extra[FAKE_EXTRA_CONTEXTS];
    int extra_count;
    unsigned long long next_ctx_id;
    ptr_vec allocs, modules, calls, launches, failures, host_kernels;
    char log_path[1024];
} fake_state;

extern fake_state fake_g;

int fake_vec_push(ptr_vec *v, void *item);
void fake_vec_remove(ptr_vec *v, size_t index);

/* Every entry point starts with fake_enter (takes the lock, logs the call, applies an injected
 * failure) and ends with fake_leave (records the result, drops the lock). */
CUresult fake_enter(const char *name, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
CUresult fake_leave(CUresult rc);
int fake_is_sticky(CUresult code);
/* The log entry of the call between fake_enter and fake_leave on this thread (its args may be
 * appended to), or NULL when it could not be logged. */
fake_call *fake_current_call(void);

/* Drops the lock in the middle of an entry point, for a user callback that may call back into
 * the driver (cuStreamEndCapture's recapture callbacks), and takes it back: the call's log entry
 * is the one fake_leave then completes. */
fake_call *fake_suspend_call(void);
void fake_resume_call(fake_call *call);

/* This thread's current context (cuCtxGetCurrent/cuCtxSetCurrent, fake_device.c), NULL if none. */
fake_ctx *fake_current_ctx(void);
void fake_set_current_ctx(fake_ctx *ctx);
/* The context that owns memory, modules and sticky state for ctx: its primary context for a
 * green context's CUcontext, else ctx itself. */
fake_ctx *fake_ctx_base(fake_ctx *ctx);
/* Whether ctx can be used: active, and for a green context's, its primary too. */
int fake_ctx_live(const fake_ctx *ctx);
/* The context a CUcontext handle names (primary, created, or a green context's, live or not),
 * or NULL for anything else, a CUgreenCtx included (fake_device.c). */
fake_ctx *fake_ctx_from_handle(CUcontext handle);
/* The CUcontext of a green context (fake_green.c), or NULL when handle is not one. */
fake_ctx *fake_green_ctx_of(CUcontext handle);
/* The CUcontext of the green context `green` (live or not), or NULL when it is not one. */
fake_ctx *fake_ctx_of_green(CUgreenCtx green);
/* Destroys a context's resources (its allocations retired, its modules dead) and deactivates
 * it; a sticky error it held loses the device for good.  A primary context's reset or last
 * release (fake_device.c). */
void fake_ctx_destroy(fake_ctx *ctx);

/* Checks, with the lock held. */
CUresult fake_need_init(void);
CUresult fake_need_device(CUdevice dev);
CUresult fake_need_ctx(fake_ctx **out);           /* current, active and not poisoned */
fake_module *fake_find_module(CUmodule handle);
fake_kernel *fake_find_kernel(CUfunction handle);
CUresult fake_live_kernel(CUfunction func, fake_kernel **out);   /* not unloaded (fake_module.c) */
fake_alloc *fake_find_alloc(const void *ptr, size_t *index);   /* the allocation holding ptr */
int fake_is_device_range(const unsigned char *p, size_t n);   /* inside one live allocation */
int fake_is_retired(const void *p, size_t n);   /* touches freed device memory (kept reserved) */
/* Inside one allocation or module global, or page-locked host memory (fake_memory.c). */
int fake_is_device_reachable(const void *p, size_t n);
/* cuMemcpy3D's copy (arrays included), with the lock held: a graph's memcpy node with an array
 * operand runs through it. */
CUresult fake_copy_3d(const CUDA_MEMCPY3D *c);
CUresult fake_mem_alloc(CUdeviceptr *dptr, size_t bytes, int managed);
/* Frees an allocation at once (not kept reserved), through its release hook if it has one. */
void fake_alloc_drop(fake_alloc *a);

/* IPC (fake_ipc.c).  With FAKECUDA_IPC=1, fake_ipc_block gives a's host memory from a shared
 * memfd (0, or -1 when IPC is off or it failed: then the caller allocates as usual);
 * fake_block_release frees a block either way. */
int fake_ipc_block(fake_alloc *a, size_t bytes);
void fake_block_release(fake_alloc *a);
/* Events (fake_stream.c) for IPC: an event's flags; a new event of ctx, already complete. */
int fake_event_flags(CUevent event, unsigned *flags);
CUresult fake_event_new_complete(fake_ctx *ctx, unsigned flags, CUevent *out);
/* Pools (fake_mempool.c) for IPC. */
typedef struct fake_pool_info {
    CUdevice device;
    unsigned handle_types;      /* CUmemPoolProps.handleTypes at creation */
    int imported;               /* made by cuMemPoolImportFromShareableHandle */
    unsigned owner_pid;         /* imported: the exporter's pid and pool id */
    unsigned long long owner_id;
} fake_pool_info;
int fake_pool_get_info(CUmemoryPool pool, fake_pool_info *out);     /* 0: a live pool */
CUmemoryPool fake_pool_of_block(CUdeviceptr ptr);                   /* NULL: none */
CUresult fake_pool_import(const fake_pool_info *info, CUmemoryPool *out);

/* Launches (fake_module.c, with the lock held): validation, parameter packing, and the whole
 * recorded launch that cuLaunchKernel does, for the other launch entry points to share.
 * fake_launch_run drops the lock (through fake_leave) and runs the host implementation, if any. */
CUresult fake_launch_check_dims(const fake_kernel *k, const unsigned grid[3],
                                const unsigned block[3], unsigned shm);
CUresult fake_launch_pack(const fake_kernel *k, void **params, void **extra, unsigned char *out,
                          int *used_extra);
fake_host_kernel fake_host_kernel_for(const char *name);
CUresult fake_launch_run(CUresult rc, CUfunction func, const unsigned grid[3],
                         const unsigned block[3], unsigned shm, CUstream stream, void **params,
                         void **extra);

/* Streams (fake_stream.c): whether a stream handle is usable in the current context; 0, 0x1 and
 * 0x2 always are.  A stream of a green context is usable wherever its primary context is
 * (fake_green.c says why).  fake_stream_check says why not: CUDA_ERROR_INVALID_HANDLE, or
 * CUDA_ERROR_STREAM_DETACHED for a stream whose green context was destroyed. */
int fake_stream_is_valid(CUstream stream);
CUresult fake_stream_check(CUstream stream);
/* Events (fake_stream.c): whether a handle is a live event; marking one recorded and complete
 * as cuEventRecord does (a graph's event record node at launch). */
int fake_event_is_live(CUevent event);
/* cuEventCreate's work, with the lock held (cuEventCreateFromEGLSync makes one too). */
CUresult fake_event_new(CUevent *phEvent, unsigned flags);
void fake_event_mark_recorded(CUevent event);

/* The lock without logging a call: for work done between entry points (a graph launch runs its
 * nodes after fake_leave and takes the lock again for each one's bookkeeping). */
void fake_lock(void);
void fake_unlock(void);

/* Graph allocations (fake_mempool.c): whether [p, p+n) lies inside one; they count as device
 * memory. */
int fake_gmem_contains(const unsigned char *p, size_t n);

/* Stream capture (fake_capture.c), with the lock held.  Each fake_capture_<work> returns 1 when
 * `stream` is capturing: the work became a node of the capture graph (or failed; *rc says) and
 * must not run; 0 when the caller should do the work itself. */
int fake_capture_kernel(CUstream stream, const CUDA_KERNEL_NODE_PARAMS *p, CUresult *rc);
int fake_capture_copy(CUstream stream, const CUDA_MEMCPY3D *copy, CUresult *rc);
int fake_capture_memset(CUstream stream, const CUDA_MEMSET_NODE_PARAMS *set, CUresult *rc);
/* sync_mode: cuLaunchHostFunc_v2's (0 for cuLaunchHostFunc), kept in the node. */
int fake_capture_host(CUstream stream, CUhostFn fn, void *user_data, unsigned sync_mode,
                      CUresult *rc);
/* type: CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL or _WAIT (fake_external.c's parameters). */
int fake_capture_extsem(CUstream stream, CUgraphNodeType type, const CUexternalSemaphore *sems,
                        const void *params, unsigned count, CUresult *rc);
int fake_capture_alloc(CUstream stream, CUdevice device, size_t bytes, CUdeviceptr *dptr,
                       CUresult *rc);
int fake_capture_free(CUstream stream, CUdeviceptr dptr, CUresult *rc);
/* cuEventRecord(WithFlags): on a capturing stream, stores the capture's frontier in the event
 * (or, with CU_EVENT_RECORD_EXTERNAL, adds an event record node); otherwise forgets any
 * frontier the event held and returns 0. */
int fake_capture_event_record(CUevent event, CUstream stream, unsigned flags, CUresult *rc);
/* cuStreamWaitEvent: joins, merges or adds an event wait node (see fake_capture.c). */
int fake_capture_wait_event(CUstream stream, CUevent event, CUresult *rc);
/* A synchronous wait on a capturing stream, or on an event recorded in a capture, invalidates
 * the capture: CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED; else CUDA_SUCCESS. */
CUresult fake_capture_sync_stream(CUstream stream);
CUresult fake_capture_sync_event(CUevent event);
/* Recording an event of, or waiting in, a whole context (cuCtxRecordEvent, cuGreenCtxWaitEvent,
 * ...) while one of its streams captures: those captures are invalidated and the answer is
 * CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED.  family: streams of ctx and of the green contexts of
 * its primary (a primary context's own record or wait covers them); else ctx's streams only. */
CUresult fake_capture_sync_ctx(const fake_ctx *ctx, int family);

/* Green contexts and device resources (fake_green.c, fake_resource.c), with the lock held. */
/* The multiprocessors work in ctx may use: a green context's, or the whole device's. */
unsigned fake_ctx_sm_count(const fake_ctx *ctx);
/* What work on `stream` runs on: its SM count, and its green context (0 when none). */
unsigned fake_stream_sms(CUstream stream, uintptr_t *green);
/* A primary context was reset (fake_ctx_destroy): its green contexts die with it. */
void fake_green_primary_gone(fake_ctx *primary);
/* Retains / releases device dev's primary context for a green context, as
 * cuDevicePrimaryCtxRetain / Release do (fake_device.c). */
CUresult fake_primary_retain(CUdevice dev);
void fake_primary_release(CUdevice dev);
/* The SM resource of a context, a green context or the device (`sms`, `min`, `align`). */
void fake_resource_sm(CUdevResource *out, CUdevice dev, unsigned sms, unsigned min,
                      unsigned align);
/* The minimum partition and alignment of SM resources on the fake's device (its SM). */
void fake_resource_granularity(unsigned *min, unsigned *align);
/* A descriptor from cuDevResourceGenerateDesc: its device and SMs, or -1 if not one. */
int fake_desc_get(CUdevResourceDesc desc, CUdevice *dev, unsigned *sms, unsigned *min,
                  unsigned *align);
/* The stream records (fake_stream.c) the green area needs: a new stream of ctx, and the context
 * of a stream (NULL for the special handles and unknown ones). */
CUresult fake_stream_new_in(fake_ctx *ctx, unsigned flags, int priority, CUstream *out);
fake_ctx *fake_stream_ctx(CUstream stream);

/* Managed memory residency (fake_residency.c): where [p, p+n) of a managed allocation is now
 * (a prefetch to loc; a discard: CU_MEM_LOCATION_TYPE_NONE), and freeing a's record. */
void fake_residency_set(CUdeviceptr p, size_t n, CUmemLocation loc);
void fake_residency_free(fake_alloc *a);

/* ---- per-area entry point tables ------------------------------------------------------------ */

typedef struct proc_entry {
    const char *name;
    int since;                  /* first CUDA version with this signature */
    int until;                  /* last version it is handed out for (a newer signature follows) */
    void *fn;
} proc_entry;

/* Each area file fake_<area>.c defines its table, ended by an entry whose name is NULL;
 * cuGetProcAddress_v2 (fakecuda.c) searches them all, with fakecuda.c's own (basic memory). */
extern const proc_entry fake_procs_device[];     /* init, devices, primary and current contexts */
extern const proc_entry fake_procs_module[];     /* modules, function queries, cuLaunchKernel */
extern const proc_entry fake_procs_stream[];     /* streams, events, callbacks (fake_stream.c) */
extern const proc_entry fake_procs_memory[];     /* host, managed, async and 2D/3D memory */
extern const proc_entry fake_procs_array[];      /* arrays, textures, surfaces */
extern const proc_entry fake_procs_array_props[]; /* planes, sparse layouts, requirements */
extern const proc_entry fake_procs_batch[];      /* batches of copies, prefetches, discards */
extern const proc_entry fake_procs_function[];   /* function attributes, occupancy, launches */
extern const proc_entry fake_procs_graph[];      /* graphs, nodes, topology, user objects */
extern const proc_entry fake_procs_graph_node[]; /* node parameters of every kind */
extern const proc_entry fake_procs_graph_objects[]; /* conditional handles, user objects */
extern const proc_entry fake_procs_graph_exec[]; /* executable graphs (fake_graph_exec.c) */
extern const proc_entry fake_procs_capture[];    /* stream capture (fake_capture.c) */
extern const proc_entry fake_procs_mempool[];    /* pools, async allocation, graph memory */
extern const proc_entry fake_procs_query[];      /* range attributes, device capabilities */
extern const proc_entry fake_procs_notify[];     /* async notifications, logs, bank size */
extern const proc_entry fake_procs_library[];    /* libraries and their kernels (fake_library.c) */
extern const proc_entry fake_procs_link[];       /* JIT linker, export tables (fake_link.c) */
extern const proc_entry fake_procs_graphics[];   /* GL resources, mapping (fake_graphics.c) */
extern const proc_entry fake_procs_graphics_egl[]; /* EGL, EGLStreams, VDPAU */
extern const proc_entry fake_procs_external[];   /* imported memory and semaphores, their nodes */
extern const proc_entry fake_procs_ipc[];        /* IPC memory, events, pool sharing */
extern const proc_entry fake_procs_resource[];   /* device resources, splits, descriptors */
extern const proc_entry fake_procs_green[];      /* green contexts, their streams and events */
extern const proc_entry fake_procs_graph_info[]; /* graph and node ids, generic node params */
extern const proc_entry fake_procs_residency[];  /* managed memory location info */

#endif
