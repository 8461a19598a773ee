/*
 * load/load.h - the third layer: what nvcc's constructors register, and the modules, kernels and
 * variables loaded from it on each device.  The order of the seed's path:
 *
 *   register.c      before main: nvcc's constructors record fatbins, kernels and variables
 *   image.c         first use on a device: choose the fatbin entry, decompress it; a kernel's
 *                   parameter layout (.nv.info, the PTX, the driver)
 *   module_link.c   the load options, the library of a module, JIT linking of -rdc images
 *   module.c        load the image, resolve a kernel, unload a closed library's modules
 *   function.c      cudaFuncSetAttribute and kin: attributes remembered across devices
 *   library.c       cudaLibraryLoad*: kernels of libraries the program loads itself
 *
 * Below: device/ and core/.  Within the layer register.c calls down into module.c (it hands a
 * module to the loader and takes it back at dlclose), never into function.c: what function.c
 * keeps for a kernel it drops through the hook below.
 */
#ifndef MINICUDART_LOAD_H
#define MINICUDART_LOAD_H

#include "device/device.h"
#include "fatbin.h"

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
    cubin cubin_view;             /* `cubin` opened, and its table of kernels, read at the first */
    cubin_kernels cubin_index;    /* kernel's look-up (image.c: rt_cubin_kernel); owned */
    bool cubin_indexed;           /* tried; cubin_view.image is NULL when it could not be read */
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
    atomic_bool unloaded;         /* its library was unloaded (dlclose): names are gone; set
                                   * before the unload, which launches check (module_use.c) */
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
RT_INLINE bool rt_kernel_usable(const rt_kernel *k)
{
    return k && (__atomic_load_n(&k->module, __ATOMIC_ACQUIRE) || k->library_kernel);
}

/* The cudaKernel_t of a kernel: the record for a registered one, the CUkernel for a library's. */
RT_INLINE cudaKernel_t rt_kernel_handle(const rt_kernel *k)
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
/* Drops what cudaFuncSetAttribute and its kin recorded for k, whose record is freed: function.c
 * installs it when it first records something (until then there is nothing to drop). */
typedef void rt_kernel_forget_hook(const rt_kernel *k);
void rt_registry_set_forget_hook(rt_kernel_forget_hook *hook);

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
RT_INLINE cudaError_t rt_kernel_resolve(rt_kernel *k, rt_device *d, rt_kernel_dev **out)
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
/* Unloads a module whose library is being unloaded from every context it was loaded into. */
void rt_module_unload(rt_module *m);
/* Whether CUDA_MODULE_LOADING=EAGER asks for every module at context start (image.c). */
bool rt_module_eager(void);
/* Device address and size of a registered variable on device d. */
cudaError_t rt_var_address(rt_var *v, rt_device *d, CUdeviceptr *ptr, size_t *size);


/* ---- module_use.c: the launches in flight, which an unload waits for ----------------------- */

enum { RT_MODULE_HOLD_DEPTH = 4 };
/* A thread's marks: the modules its launches in flight use, innermost last. */
typedef struct rt_module_user {
    _Atomic(rt_module *) held[RT_MODULE_HOLD_DEPTH];
    unsigned depth;               /* the thread's own */
    atomic_bool taken;            /* by a live thread */
    struct rt_module_user *next;  /* the list of every record, never shortened */
} rt_module_user;
typedef struct rt_module_held {
    rt_module_user *user;
    unsigned slot;
} rt_module_held;
/* Marks module m as in use by this thread's launch until rt_module_release: its unload waits.
 * cudaErrorInvalidResourceHandle when m's library is being unloaded (nothing held then);
 * cudaErrorMemoryAllocation or cudaErrorNotSupported when no mark could be made. */
cudaError_t rt_module_hold(rt_module *m, rt_module_held *held);
RT_INLINE void rt_module_release(const rt_module_held *held)
{
    atomic_store_explicit(&held->user->held[held->slot], NULL, memory_order_release);
    held->user->depth--;
}
/* Returns when no launch of another thread holds m (m->unloaded set first), or after a bound
 * that module_use.c explains. */
void rt_module_wait_users(rt_module *m);

/* ---- library.c ------------------------------------------------------------------------------- */

/* A launch of a library's kernel holds the libraries' use lock from the look-up of its
 * CUfunction to the return of the driver's launch: the driver frees the CUfunction with its
 * library, and a launch with a freed one crashes inside the driver (H200, driver 580: a read of
 * address 0x68).  cudaLibraryUnload takes the lock for writing, so it waits for the launches in
 * flight, and every launch after it finds the kernel withdrawn.  True: held, and k is still
 * published (launch it, then release); false: not held, k's library was unloaded. */
bool rt_library_kernel_hold(const rt_kernel *k);
void rt_library_kernel_release(void);

/* ---- function.c ------------------------------------------------------------------------------ */

/* The cudaFuncAttribute values a program may set: 8..15 equal the CUfunction_attribute values
 * they set (function.c checks it); 13.5's cudaFuncAttributeSharedMemoryMode (16) sets the
 * driver's CU_FUNC_ATTRIBUTE_SHARED_MEMORY_MODE, which is 17 (the driver's 16 is the read-only
 * CU_FUNC_ATTRIBUTE_DEVICE_NODE_UPDATE_SUPPORTED). */
RT_INLINE bool rt_fn_attr_settable(int attr)
{
    return attr >= cudaFuncAttributeMaxDynamicSharedMemorySize &&
           attr <= (int)cudaFuncAttributeSharedMemoryMode;
}
RT_INLINE CUfunction_attribute rt_fn_driver_attr(int attr)
{
    return attr == (int)cudaFuncAttributeSharedMemoryMode ? CU_FUNC_ATTRIBUTE_SHARED_MEMORY_MODE
                                                          : (CUfunction_attribute)attr;
}

/* Applies the attributes cudaFuncSetAttribute / cudaFuncSetCacheConfig recorded for k to its
 * CUfunction on device d, once per context generation.  NVIDIA applies them to the kernel on
 * every device; minicudart resolves a kernel per device lazily, so every path that resolves one
 * calls this before using the function.  Cheap when nothing was ever set. */
cudaError_t rt_function_apply(rt_kernel *k, rt_device *d, rt_kernel_dev *kd);

/* cudaKernelSetAttributeForDevice on a registered kernel: sets attribute attr (a settable
 * cudaFuncAttribute, checked by the caller) on k's function on device d (a primary-context slot),
 * and remembers it for d below cudaFuncSetAttribute's settings. */
cudaError_t rt_function_set_for_device(rt_kernel *k, rt_device *d, int attr, int value);

/* What NVIDIA's runtime answers for a `func` that names no registered kernel, in the launches and
 * the attribute and occupancy functions: cudaErrorInvalidDeviceFunction for NULL,
 * cudaErrorInvalidResourceHandle for any other pointer (both measured on the H200).
 * (cudaGetKernel, __cudaGetKernel and cudaGetFuncBySymbol answer the former for both; a graph
 * kernel node has 13.5's answer, rt_graph_kernel_unknown in graph/graph_params.c.) */
RT_INLINE cudaError_t rt_kernel_unknown(const void *func)
{
    return func ? cudaErrorInvalidResourceHandle : cudaErrorInvalidDeviceFunction;
}

/* Resolves the kernel behind `func` (a host stub or a cudaKernel_t) on the thread's device, with
 * its remembered attributes applied.  An unknown `func` is rt_kernel_unknown's answer. */
cudaError_t rt_function_resolve(const void *func, rt_device **d, rt_kernel **k, CUfunction *f);

/* ---- the registration entry points nvcc emits (prototypes of crt/host_runtime.h) ------------ */

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

#endif
