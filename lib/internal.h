/*
 * internal.h - the runtime's table of contents: every function one file of lib/ offers another.
 *
 * The rooms of the launch path, in the order a `k<<<g, b, shm, s>>>(args)` walks them:
 *
 *   register.c  before main: nvcc's constructors record fatbins, kernels and variables
 *   launch.c    the call site: push/pop configuration, __cudaGetKernel, __cudaLaunchKernel
 *   device.c    which device and primary context this thread works on (lazy initialisation)
 *   module.c    first use on a device: choose the image, decompress it, load it, find the kernel
 *   driver.c    every driver entry point, resolved once through cuGetProcAddress
 *   errors.c    CUresult -> cudaError_t, the per-thread last error, sticky errors
 *   trace.c     MINICUDART_TRACE=1: each step as it happens
 *   memory.c    cudaMalloc and friends, symbols (__device__/__constant__ variables)
 *
 * Internal names carry the prefix rt_; every CUDA name is public, everything else hidden.
 */
#ifndef MINICUDART_INTERNAL_H
#define MINICUDART_INTERNAL_H

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime_api.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cuda135.h"
#include "fatbin.h"

#define RT_API __attribute__((visibility("default")))
#define RT_HIDDEN __attribute__((visibility("hidden")))

/* ---- driver.c: the one table of driver entry points ---------------------------------------- */

struct rt_driver {
#define DRIVER_FN(name, version) PFN_##name##_v##version name;
#define DRIVER_FN_OPTIONAL(name, version) PFN_##name##_v##version name;
#define DRIVER_FN_PTDS(name, version) PFN_##name##_v##version##_ptds name##_ptds;
#define DRIVER_FN_PTSZ(name, version) PFN_##name##_v##version##_ptsz name##_ptsz;
#define DRIVER_FN_NEWER(field, name, version) PFN_##name##_v##version field;
#include "driver_api.def"
#undef DRIVER_FN
#undef DRIVER_FN_OPTIONAL
#undef DRIVER_FN_PTDS
#undef DRIVER_FN_PTSZ
#undef DRIVER_FN_NEWER
    int version;                  /* cuDriverGetVersion, e.g. 13000 */
};

/* The table, filled once.  Valid only after rt_driver_load() returned cudaSuccess. */
extern struct rt_driver rt_drv;

/* Loads the driver library, resolves every entry point, calls cuInit(0); once per process,
 * thread-safe.  Returns the same error on every call if that first attempt failed. */
cudaError_t rt_driver_load(void);
/* The driver library rt_driver_load opens: MINICUDART_DRIVER, else libcuda.so.1. */
const char *rt_driver_path(void);
/* An optional entry point (DRIVER_FN_OPTIONAL), asked after rt_driver_load: cudaSuccess when the
 * driver has it (present), else cudaErrorNotSupported, with "<api>: the driver has no <entry>: not
 * implemented" in the trace. */
cudaError_t rt_driver_optional(bool present, const char *api, const char *entry);
/* The same for an entry of a driver newer than 13.0 that a 13.5 function needs and cannot do
 * without: cudaErrorCallRequiresNewerDriver (NVIDIA's 13.5 runtime's answer on such a driver),
 * with the reason in the trace. */
cudaError_t rt_driver_newer(bool present, const char *api, const char *entry);

/* The runtime ABI minicudart implements: NVIDIA's CUDA 13.5 (cudaRuntimeGetVersion), whichever
 * toolkit's headers it was built with. */
#define RT_RUNTIME_VERSION 13050

/* ---- errors.c ------------------------------------------------------------------------------- */

cudaError_t rt_error_from_cu(CUresult r);
bool rt_error_is_sticky(cudaError_t e);
const char *rt_error_name(cudaError_t e);

/* Records e as the calling thread's last error (when it is not cudaSuccess), traces it with the
 * name of the API call that raised it, and returns it.  Every public entry point leaves through
 * this, so the last-error rules hold by construction.  Success, the common case on the launch
 * path, costs a compare: the call happens only for a failure. */
cudaError_t rt_exit_error(const char *api, cudaError_t e);
static inline cudaError_t rt_exit(const char *api, cudaError_t e)
{
    return e == cudaSuccess ? e : rt_exit_error(api, e);
}
#define RT_RETURN(e) return rt_exit(__func__, (e))

/* Set while the process is exiting: later calls answer cudaErrorCudartUnloading. */
extern atomic_bool rt_unloading;
/* Set by the first registration or driver load: some CUDA call reached this runtime (the exit
 * notice of `minicudart run` says when none did: lifetime.c). */
extern atomic_bool rt_reached;

/* ---- summary.c ------------------------------------------------------------------------------ */

/* MINICUDART_SUMMARY=1: counted as the program runs, printed at exit.  Off, each counting point
 * costs a relaxed load and a branch. */
struct rt_kernel;
extern atomic_int rt_summary_level;
bool rt_summary_read_env(void);
static inline bool rt_summary_on(void)
{
    int level = atomic_load_explicit(&rt_summary_level, memory_order_relaxed);
    return level < 0 ? rt_summary_read_env() : level == 1;
}
void rt_summary_load(int kind, uint64_t ns);       /* kind: 0 SASS, 1 PTX, 2 JIT-linked */
void rt_summary_launch(struct rt_kernel *k, dim3 grid, dim3 block);
void rt_summary_error(cudaError_t e);
void rt_summary_alloc(size_t bytes);
void rt_summary_free(size_t bytes);

/* Runtime calls by function, with their host time.  Every public entry point begins with
 * RT_ENTER(): a record of its own (static, listed on first use) and a clock that the compiler
 * stops at every return, through the cleanup attribute, so that no return path escapes it.  A
 * public function called from inside another is not counted again: the outermost call owns the
 * time.  Off, entry costs the relaxed load and branch of rt_summary_on, exit a compare. */
struct rt_call_stat {
    const char *name;
    atomic_ullong calls, ticks;   /* ticks of summary.c's clock, turned into ns at exit */
    atomic_bool listed;
    struct rt_call_stat *next;
};
struct rt_call_clock {
    struct rt_call_stat *stat;    /* NULL: the summary is off */
    uint64_t t0;                  /* 0: a nested call */
};
struct rt_call_clock rt_call_begin_counted(struct rt_call_stat *s);
void rt_call_end_counted(struct rt_call_clock *c);
static inline struct rt_call_clock rt_call_begin(struct rt_call_stat *s)
{
    if (!rt_summary_on())
        return (struct rt_call_clock){ NULL, 0 };
    return rt_call_begin_counted(s);
}
static inline void rt_call_end(struct rt_call_clock *c)
{
    if (c->stat)
        rt_call_end_counted(c);
}
#define RT_ENTER()                                                                                \
    static struct rt_call_stat rt_call_stat_ = { .name = __func__ };                              \
    struct rt_call_clock rt_call_clock_ __attribute__((cleanup(rt_call_end))) =                   \
        rt_call_begin(&rt_call_stat_)

/* ---- trace.c -------------------------------------------------------------------------------- */

extern atomic_int rt_trace_level;       /* -1 not read yet, 0 off, 1 text, 2 JSON timeline */
void rt_trace_init(void);
void rt_trace_emit(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline bool rt_tracing(void)
{
    int level = atomic_load_explicit(&rt_trace_level, memory_order_relaxed);
    if (level < 0) {
        rt_trace_init();
        level = atomic_load_explicit(&rt_trace_level, memory_order_relaxed);
    }
    return level > 0;
}
#define RT_TRACE(...) do { if (rt_tracing()) rt_trace_emit(__VA_ARGS__); } while (0)
uint64_t rt_now_ns(void);

/* Spans of the JSON timeline (MINICUDART_TRACE=FILE.json):
 *     uint64_t t0 = rt_span_begin();
 *     ... the step ...
 *     RT_SPAN_END(t0, "module load", "\"device\":%d", d->ordinal);
 * args_fmt gives the members of the event's "args" object (JSON, no braces).  With the timeline
 * off, rt_span_begin answers 0 and the end is a compare. */
static inline uint64_t rt_span_begin(void)
{
    return rt_tracing() && atomic_load_explicit(&rt_trace_level, memory_order_relaxed) == 2
               ? rt_now_ns() : 0;
}
void rt_span_emit(uint64_t t0, const char *name, const char *args_fmt, ...)
    __attribute__((format(printf, 3, 4)));
#define RT_SPAN_END(t0, ...) do { if (t0) rt_span_emit((t0), __VA_ARGS__); } while (0)
void rt_json_escape(char *out, size_t cap, const char *s);   /* the inside of a JSON string */

/* ---- register.c ----------------------------------------------------------------------------- */

typedef struct rt_module rt_module;
typedef struct rt_kernel rt_kernel;
typedef struct rt_var rt_var;

/* Per-device state of a module; rebuilt when the device's context generation moves on. */
typedef struct rt_module_dev {
    uint64_t generation;          /* the device generation this state belongs to; 0 = none */
    CUmodule module;
    cudaError_t error;            /* why loading failed (cached), or cudaSuccess */
    void *image;                  /* decompressed image, owned; NULL when the payload was used */
    const uint8_t *cubin;         /* the loaded cubin (for .nv.info), NULL for PTX */
    size_t cubin_size;
    const char *ptx;              /* the PTX text JIT-compiled (for parameter counts), NULL for
                                   * a cubin; in `image` or in the registered fatbin */
    size_t ptx_size;
    ptx_entries ptx_index;        /* every entry of `ptx` with its count, read at the first
                                   * kernel's (module.c: rt_param_count); owned */
    bool ptx_indexed;             /* ptx_index has been read (it may be empty) */
    bool from_library;            /* module is the library's (rt_module.library): not ours to
                                   * unload */
} rt_module_dev;

/* A host variable that device code of the module references as an extern symbol
 * (__cudaRegisterHostVar): the loader relocates `name` to `address` (CU_JIT_GLOBAL_SYMBOL_*). */
typedef struct rt_host_var {
    const char *name;
    void *address;
    struct rt_host_var *next;
} rt_host_var;

struct rt_module {
    void **handle;                /* what __cudaRegisterFatBinary returned; *handle == this */
    const void *wrapper;
    fatbin_wrapper fw;
    bool wrapper_ok;
    bool has_managed;
    bool has_table;               /* __cudaRegisterUnifiedTable gave `table` */
    CUlibraryHostUniversalFunctionAndDataTable table;
    rt_host_var *host_vars;
    unsigned host_var_count;
    /* Modules with __managed__ variables or a unified table are loaded once for every device
     * with cuLibraryLoadData (module_link.c), as NVIDIA's runtime does; `library_image` is the
     * offset of the fatbin entry it was loaded from (devices that choose another entry load
     * their own module). */
    CUlibrary library;
    size_t library_image;
    /* The module's image loaded once more as a library, for the graph nodes that name another
     * context than the one its module is loaded in (module.c: rt_kernel_context_free). */
    CUlibrary kernel_library;
    bool ended;                   /* __cudaRegisterFatBinaryEnd seen */
    bool in_program;              /* the main program's, not a shared library's */
    atomic_bool unregistered;
    bool unloaded;                /* its library was unloaded (dlclose): names are gone */
    rt_kernel *kernels;           /* registration order, reversed */
    rt_var *vars;
    rt_module_dev *dev;           /* [rt_slot_count], allocated at first load */
    rt_module *next;
};

typedef struct rt_param_layout {
    uint32_t count;
    uint32_t size;                /* bytes of the packed buffer */
    struct { uint32_t offset, size; } param[];
} rt_param_layout;

typedef struct rt_kernel_dev {
    _Atomic(CUfunction) function; /* published last: non-NULL means the rest is valid */
    atomic_ullong generation;     /* read without the lock on the launch path */
    rt_param_layout *layout;      /* NULL when no layout is known: launch passes args through */
    rt_param_layout *retired;     /* the layout before the last reset, kept for late readers */
} rt_kernel_dev;

#define RT_KERNEL_MAGIC 0x6b65726eu   /* "kern": tells our handles from other pointers */

/* One registered kernel.  Its address is the cudaKernel_t that __cudaGetKernel hands out:
 * process-wide, device-independent, valid before any device exists and after cudaDeviceReset.
 *
 * Or one kernel of a library loaded with cudaLibraryLoadData / cudaLibraryLoadFromFile
 * (library.c): then module and host_fun are NULL, library_kernel is the driver's CUkernel, and
 * that CUkernel -- not the record's address -- is the kernel's cudaKernel_t, as with NVIDIA's
 * runtime (its documentation lets a program cast one into the other).  The record is found from
 * the CUkernel through the same table as a host stub, so every path that takes a `func` takes
 * both kinds with one lookup; module.c resolves a library kernel with cuKernelGetFunction instead
 * of loading a module. */
struct rt_kernel {
    uint32_t magic;
    rt_module *module;
    const void *host_fun;
    const char *name;             /* mangled device name, owned by the host image (a library
                                   * kernel's is a copy, owned by the record) */
    CUkernel library_kernel;      /* a library's kernel: the driver's handle; NULL otherwise */
    atomic_ullong launches;       /* counted under MINICUDART_SUMMARY only (summary.c) */
    dim3 last_grid, last_block;
    _Atomic(rt_kernel_dev *) dev; /* [rt_slot_count], allocated at first launch */
    rt_kernel *next;
};

/* Whether a record can be resolved and launched: a registered kernel or a library kernel. */
static inline bool rt_kernel_usable(const rt_kernel *k)
{
    return k && (__atomic_load_n(&k->module, __ATOMIC_ACQUIRE) || k->library_kernel);
}

/* The cudaKernel_t of a kernel: the record for a registered one, the CUkernel for a library's. */
static inline cudaKernel_t rt_kernel_handle(const rt_kernel *k)
{
    return k->library_kernel ? (cudaKernel_t)k->library_kernel : (cudaKernel_t)k;
}

struct rt_var {
    rt_module *module;
    const void *host_var;         /* the host shadow (or, when managed, the pointer slot) */
    const char *name;
    size_t size;
    bool constant, managed;
    rt_var *next;
};

/* Finds the kernel registered for a host stub pointer, or a kernel handle of ours; NULL if
 * neither.  Lock-free: this is on the launch path. */
rt_kernel *rt_kernel_find(const void *host_fun_or_handle);
/* The cudaKernel_t of k, made known to rt_kernel_find first (register.c). */
cudaKernel_t rt_kernel_hand_out(rt_kernel *k);
rt_var *rt_var_find(const void *host_var);
/* Makes rt_kernel_find(key) answer k (a library kernel, key its CUkernel), replacing a key left
 * by an unloaded library whose address the driver handed out again.  False when memory ran
 * out. */
bool rt_kernel_publish(const void *key, rt_kernel *k);
/* Makes rt_kernel_find(key) answer NULL again (the library of that kernel was unloaded). */
void rt_kernel_withdraw(const void *key);
/* Calls fn for every live module (under the registry lock). */
void rt_module_foreach(void (*fn)(rt_module *m, void *user), void *user);
/* The same, with the modules unregistered at exit too (not those of an unloaded library): the
 * exit summary runs after nvcc's exit handlers have unregistered the program's. */
void rt_module_foreach_at_exit(void (*fn)(rt_module *m, void *user), void *user);
/* Takes (true) or drops (false) the registry lock around fork, so that a child never inherits
 * it held by a thread that did not follow. */
void rt_registry_lock_for_fork(bool lock);

/* ---- early_init.c: MINICUDART_EARLY_INIT ------------------------------------------------- */

/* At every fatbin registration: the first one starts the driver (and device 0's primary context)
 * on a background thread when MINICUDART_EARLY_INIT asks for it.  Otherwise one load. */
void rt_early_init_start(void);
/* Before the runtime retains a primary context: waits for that thread, if it runs. */
void rt_early_init_wait(void);
/* After the runtime's retain: gives back the thread's, so the runtime holds one as without it. */
void rt_early_init_release(void);

/* ---- lifetime.c: exit, dlclose, fork ------------------------------------------------------- */

/* Set in a child forked after the driver was initialised: calls answer
 * cudaErrorInitializationError. */
extern atomic_bool rt_forked;
/* Whether an address lies in the main program (not in a shared library). */
bool rt_address_in_program(const void *address);
/* Unloads a module whose library is being unloaded from every context it was loaded into. */
void rt_module_unload(rt_module *m);
/* Drops what cudaFuncSetAttribute and its kin recorded for k, whose record is freed (function.c). */
void rt_function_forget(const rt_kernel *k);

/* ---- device.c ------------------------------------------------------------------------------- */

/* One context the runtime works in: a device's primary context (slots 0 .. rt_device_count-1,
 * slot i for device i), or a context someone else created with the driver API and made current
 * (the slots after those).  Per-context state (loaded modules, resolved kernels) is kept per
 * slot, indexed by rt_slot_index. */
typedef struct rt_device {
    CUdevice cu;
    int ordinal;                  /* the device number users see */
    unsigned sm;                  /* major * 10 + minor, e.g. 90 */
    _Atomic(CUcontext) context;   /* retained primary (or the foreign) context; NULL until used:
                                   * set under device.c's lock, read on every call without it */
    unsigned long long context_id; /* cuCtxGetId of a foreign context: tells a reused address */
    atomic_bool foreign;          /* not a primary context: never retained, reset or released
                                   * (read without the lock on every call) */
    bool flags_reset;             /* reset since the flags were last set: MapHost not reported */
    atomic_ullong generation;     /* bumped at every (re)initialisation of the context */
    _Atomic cudaError_t sticky;   /* a sticky error seen on this device, or cudaSuccess */
} rt_device;

extern int rt_device_count;       /* devices */
extern int rt_slot_count;         /* devices + slots for foreign contexts: size per-context arrays */
extern rt_device *rt_devices;     /* [rt_slot_count] */

static inline size_t rt_slot_index(const rt_device *d)
{
    return (size_t)(d - rt_devices);
}

/* Loads the driver, cuInit, and lists the devices, once (the lazy start; early_init.c runs it
 * ahead); the same answer on every call.  cudaErrorInitializationError in a forked child. */
cudaError_t rt_devices_init(void);

/* Makes sure the calling thread has a current context (the primary context of its device,
 * initialised on first use) and returns that device.  This is the lazy initialisation of the
 * runtime: every call that does CUDA work starts here. */
cudaError_t rt_context_enter(rt_device **out);

/* Retains d's primary context (if it is not active) without making it current; modules that
 * load with a context (managed variables, EAGER) are loaded into it. */
cudaError_t rt_device_activate(rt_device *d);
/* cudaGLSetGLDevice, cudaVDPAUSetVDPAUDevice: cudaSetDevice before the runtime has started,
 * cudaErrorSetOnActiveProcess after. */
cudaError_t rt_set_interop_device(int device);
/* Which of our devices (rt_devices index) is the driver's device `cu`; -1 if none. */
int rt_device_of_cu(CUdevice cu);

/* Records a sticky error when e is one: against device d, whose context was current for the
 * call, or against the context the error really came from when d's is healthy (a stream, event
 * or peer copy of another device).  Costs a compare unless e is sticky. */
void rt_device_note_error(rt_device *d, cudaError_t e);

/* The result of a driver call made after rt_context_enter, as the runtime reports it: translated,
 * and recorded against the device when sticky. */
static inline cudaError_t rt_driver_result(rt_device *d, CUresult r)
{
    if (r == CUDA_SUCCESS)        /* inline: spares every successful call two calls */
        return cudaSuccess;
    cudaError_t e = rt_error_from_cu(r);
    rt_device_note_error(d, e);
    return e;
}

/* ---- handles.c: what cudaDeviceReset destroys --------------------------------------------- */

typedef enum rt_handle_kind {
    RT_HANDLE_STREAM, RT_HANDLE_EVENT, RT_HANDLE_GRAPH_EXEC, RT_HANDLE_ARRAY,
    RT_HANDLE_MIPMAPPED_ARRAY, RT_HANDLE_EXTERNAL_MEMORY, RT_HANDLE_EXTERNAL_SEMAPHORE,
} rt_handle_kind;

/* Records a handle the runtime made in device d's current context (not for a foreign one). */
void rt_handle_add(rt_handle_kind kind, const void *handle, rt_device *d);
/* Forgets a handle: called just before the driver destroys it (its address may come back). */
void rt_handle_remove(const void *handle);
/* Whether handle is one the runtime made in a context a cudaDeviceReset has destroyed since:
 * the calls that take one answer an error instead of handing the driver a dangling handle.
 * Handles the runtime did not make are never stale. */
bool rt_handle_stale_slow(rt_handle_kind kind, const void *handle);
/* Set (for good) by the first cudaDeviceReset of an active primary context: until then no
 * handle can be stale, and the check is one load, inline (cudaGraphLaunch and the stream calls
 * make it on every call). */
extern atomic_bool rt_device_was_reset;
static inline bool rt_handle_stale(rt_handle_kind kind, const void *handle)
{
    return atomic_load_explicit(&rt_device_was_reset, memory_order_acquire) &&
           rt_handle_stale_slow(kind, handle);
}

/* ---- module.c ------------------------------------------------------------------------------- */

/* Loads module m on device d (once per context generation) and binds its managed variables. */
cudaError_t rt_module_ensure(rt_module *m, rt_device *d, rt_module_dev **out);
/* Frees what md owns (the decompressed or linked image, the PTX entry table) and leaves md
 * empty but for its generation and error; the driver's module is the caller's business. */
void rt_module_dev_release(rt_module_dev *md);
/* Resolves kernel k on device d: loads its module if needed, gets the CUfunction and the
 * parameter layout. */
cudaError_t rt_kernel_resolve_slow(rt_kernel *k, rt_device *d, rt_kernel_dev **out);
/* The launch path's check, inline: resolved for this device in its current generation. */
static inline cudaError_t rt_kernel_resolve(rt_kernel *k, rt_device *d, rt_kernel_dev **out)
{
    rt_kernel_dev *all = atomic_load_explicit(&k->dev, memory_order_acquire);
    if (all) {
        rt_kernel_dev *kd = &all[rt_slot_index(d)];
        if (atomic_load_explicit(&kd->function, memory_order_acquire) &&
            atomic_load_explicit(&kd->generation, memory_order_relaxed) ==
                atomic_load_explicit(&d->generation, memory_order_acquire)) {
            *out = kd;
            return cudaSuccess;
        }
    }
    return rt_kernel_resolve_slow(k, d, out);
}
/* The context-independent handle of kernel k (a CUkernel), for a graph node that names a context
 * of its own: the library's own kernel, or the one of the module's image (the one chosen for
 * device d) loaded as a library at the first such node.  A CUfunction belongs to the context of
 * its module, and the driver refuses it in a node of another context (measured on the H200: a
 * kernel node with a green context's ctx instantiates only with a CUkernel). */
cudaError_t rt_kernel_context_free(rt_kernel *k, rt_device *d, CUkernel *out);
/* Loads every module now (CUDA_MODULE_LOADING=EAGER), or only those that have managed
 * variables, right after a context is initialised. */
void rt_module_load_at_init(rt_device *d);
/* Device address and size of a registered variable on device d. */
cudaError_t rt_var_address(rt_var *v, rt_device *d, CUdeviceptr *ptr, size_t *size);

/* ---- streams -------------------------------------------------------------------------------- */

/* The driver stream for a runtime stream.  Streams are the driver's own handles; 0,
 * cudaStreamLegacy (0x1) and cudaStreamPerThread (0x2) pass unchanged, except that in a _ptsz /
 * _ptds entry point 0 means this thread's per-thread stream. */
static inline CUstream rt_stream(cudaStream_t stream, bool per_thread)
{
    return per_thread && !stream ? CU_STREAM_PER_THREAD : (CUstream)stream;
}

/* ---- launch.c ------------------------------------------------------------------------------- */

/* The common launch: validates, resolves the kernel on the current device, lays out the
 * parameters and calls cuLaunchKernel.  per_thread: stream 0 means the per-thread stream. */
cudaError_t rt_launch(rt_kernel *k, dim3 grid, dim3 block, void **args, size_t shared,
                      cudaStream_t stream, bool per_thread);

/* ---- the compiler-emitted entry points (prototypes of the toolkit's crt/host_runtime.h) ---- */

RT_API void **__cudaRegisterFatBinary(void *fatCubin);
RT_API void __cudaRegisterFatBinaryEnd(void **fatCubinHandle);
RT_API void __cudaUnregisterFatBinary(void **fatCubinHandle);
RT_API void __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun, char *deviceFun,
                                   const char *deviceName, int thread_limit, uint3 *tid,
                                   uint3 *bid, dim3 *bDim, dim3 *gDim, int *wSize);
RT_API void __cudaRegisterVar(void **fatCubinHandle, char *hostVar, char *deviceAddress,
                              const char *deviceName, int ext, size_t size, int constant,
                              int global);
RT_API void __cudaRegisterManagedVar(void **fatCubinHandle, void **hostVarPtrAddress,
                                     char *deviceAddress, const char *deviceName, int ext,
                                     size_t size, int constant, int global);
RT_API char __cudaInitModule(void **fatCubinHandle);
/* Exported by NVIDIA's runtime, declared nowhere, never emitted by nvcc 13.0 (register.c). */
RT_API void __cudaRegisterHostVar(void **fatCubinHandle, const char *deviceName, char *hostVar,
                                  size_t size);
RT_API void __cudaRegisterUnifiedTable(void **fatCubinHandle, void *functionTable,
                                       size_t functionWindowSize, void *dataTable,
                                       size_t dataWindowSize);
RT_API unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                            struct CUstream_st *stream);
RT_API cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem,
                                              void *stream);
RT_API cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *hostFun);
RT_API cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
                                      void **args, size_t sharedMem, cudaStream_t stream);
RT_API cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
                                           void **args, size_t sharedMem, cudaStream_t stream);
RT_API cudaError_t cudaMemcpy_ptds(void *dst, const void *src, size_t count,
                                   enum cudaMemcpyKind kind);
RT_API cudaError_t cudaMemset_ptds(void *devPtr, int value, size_t count);
RT_API cudaError_t cudaMemcpyToSymbol_ptds(const void *symbol, const void *src, size_t count,
                                           size_t offset, enum cudaMemcpyKind kind);
RT_API cudaError_t cudaMemcpyFromSymbol_ptds(void *dst, const void *symbol, size_t count,
                                             size_t offset, enum cudaMemcpyKind kind);
RT_API cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim,
                                         void **args, size_t sharedMem, cudaStream_t stream);

#endif
