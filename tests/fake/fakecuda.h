/*
 * fakecuda.h - the inspection and control API of the fake CUDA driver (libfakecuda.so).
 *
 * The fake is a test double for libcuda.so.1: it exports cuGetProcAddress_v2 and hands out its
 * own implementation of every entry point in lib/core/driver_api.def.  Everything happens in host
 * memory: device pointers are host pointers, a module is a parsed copy of the cubin or PTX text,
 * and a launch is recorded (and, when a test registered one, run by a host implementation of the
 * kernel).  It is never shipped and never talks to a GPU.
 *
 * Tests reach this API through the same library instance the runtime loaded: dlopen the path in
 * MINICUDART_DRIVER and dlsym the names below (tests/e2e/fake_api.h does that through the
 * FAKECUDA_API list).
 *
 * Environment, read when the library is loaded:
 *   FAKECUDA_DEVICES      number of devices (default 1, at most FAKE_MAX_DEVICES)
 *   FAKECUDA_SM           compute capability as a number, e.g. 90 (default), 100, 75
 *   FAKECUDA_INIT_RESULT  CUresult that cuInit returns (e.g. 100 = NO_DEVICE); unset: 0, or
 *                         100 when FAKECUDA_DEVICES=0
 *   FAKECUDA_FAIL         "name:nth:code[,name:nth:code...]": as fake_fail_call
 *   FAKECUDA_LOG          path: the call log is written there at exit
 *   FAKECUDA_HIDE         "name[,name...]": entry points cuGetProcAddress reports as not found
 *   FAKECUDA_DRIVER_VERSION  the modelled driver's version (default 13000, the H200's driver
 *                         580): cuDriverGetVersion answers it, cuGetProcAddress refuses newer
 *                         versions (CUDA_ERROR_INVALID_VALUE) and does not find entries newer
 *                         than it (those of 13.1-13.5 at 13000); 13050 models a 13.5 driver
 *   FAKECUDA_SMS          multiprocessors of each device (default 132): the attribute, and the
 *                         SM resource of the device (cuDeviceGetDevResource)
 */
#ifndef MINICUDART_FAKECUDA_H
#define MINICUDART_FAKECUDA_H

#include <stddef.h>
#include <stdint.h>

#define FAKE_MAX_DEVICES 8
#define FAKE_NAME_MAX 256
/* The one export table the fake's cuGetExportTable knows (fake_link.c). */
#define FAKE_EXPORT_TABLE_ID \
    {{ 'm', 'i', 'n', 'i', 'c', 'u', 'd', 'a', 'r', 't', '-', 'f', 'a', 'k', 'e', '!' }}

/* One recorded driver call.  `result` is the CUresult the call returned (an int, so that this
 * header does not need cuda.h). */
typedef struct fake_call {
    char name[48];
    char args[208];
    int result;
} fake_call;

/* One accepted cuLaunchKernel. */
typedef struct fake_launch {
    char kernel[FAKE_NAME_MAX];  /* mangled name */
    unsigned grid[3];
    unsigned block[3];
    unsigned shared_mem;
    uintptr_t stream;            /* raw: 0, 0x1 legacy, 0x2 per-thread */
    int used_extra;              /* 1: CU_LAUNCH_PARAM_BUFFER_POINTER form; 0: kernelParams */
    unsigned char *params;       /* the packed parameter bytes (padding zero in kernelParams form) */
    size_t params_size;          /* the kernel's parameter-buffer size */
    uintptr_t module;            /* CUmodule of the kernel */
    unsigned module_sm;          /* cubin SM, or the PTX .target */
    int module_jit;              /* 1 when the module was loaded from PTX */
    unsigned sm_count;           /* SMs the launch may use: its stream's (green) context's */
    uintptr_t green_ctx;         /* the CUgreenCtx of its stream's context, 0 when none */
} fake_launch;

/* A host implementation of a kernel: called once per launch with the packed parameter buffer;
 * it loops over blocks and threads itself. */
typedef void (*fake_host_kernel)(const void *params, size_t size, const unsigned grid[3],
                                 const unsigned block[3]);

/* X-macro of the exported API: X(return type, name, parameter list). */
#define FAKECUDA_API(X)                                                                     \
    X(size_t, fake_call_count, (void))                                                      \
    X(const fake_call *, fake_call_at, (size_t index))                                      \
    X(size_t, fake_count_calls, (const char *name))                                         \
    X(size_t, fake_launch_count, (void))                                                    \
    X(const fake_launch *, fake_launch_at, (size_t index))                                  \
    X(const fake_launch *, fake_last_launch, (void))                                        \
    X(void, fake_reset_log, (void))                                                         \
    X(void, fake_fail_call, (const char *name, unsigned nth, int code))                     \
    X(void, fake_register_host_kernel, (const char *name, fake_host_kernel fn))             \
    X(void, fake_set_device_count, (int count))                                             \
    X(void, fake_set_sm, (unsigned sm))                                                     \
    X(void, fake_set_init_result, (int code))                                               \
    X(void *, fake_global_storage, (const char *name, size_t *size))                        \
    X(int, fake_module_has_kernel, (uintptr_t module, const char *name))                    \
    X(size_t, fake_live_allocations, (void))                                                \
    X(void, fake_dump_log, (void *file))                                                    \
    X(uintptr_t, fake_create_context, (int device))                                       \
    X(void, fake_poison_context, (int device, int code))                                  \
    X(void, fake_set_conditional, (uint64_t handle, unsigned value))                        \
    X(void, fake_set_driver_version, (int version))                                         \
    X(void, fake_set_sm_count, (unsigned count))                                            \
    X(size_t, fake_green_count, (void))                                                     \
    X(unsigned, fake_primary_retains, (int device))                                         \
    X(int, fake_stream_sm_count, (uintptr_t stream))                                        \
    X(int, fake_set_residency, (uint64_t ptr, size_t size, int type, int id))

#define FAKECUDA_DECLARE(ret, name, params) ret name params;
FAKECUDA_API(FAKECUDA_DECLARE)
#undef FAKECUDA_DECLARE

/*
 * Notes on the functions above:
 *   fake_call_at / fake_launch_at: NULL past the end; pointers stay valid until fake_reset_log.
 *   fake_count_calls: calls of that entry point since the last fake_reset_log.
 *   fake_fail_call: the nth call of `name` from now on (1-based) returns `code` without doing
 *     anything.  A sticky code (700, 702, 710, 714-719, 721) also poisons the current context:
 *     later context calls return it until cuDevicePrimaryCtxReset, as on a real driver.
 *   fake_global_storage: host storage of a module global (first loaded module that has it
 *     materialised through cuModuleGetGlobal); NULL when none.
 *   fake_live_allocations: cuMemAlloc/cuMemAllocManaged blocks not yet freed.
 *   cuMemGetInfo's free memory: 140 GiB less the live allocations and each live module's image
 *     and materialised globals, so that loading and unloading a module shows.
 *   fake_dump_log: writes the call log to a FILE * (stderr when NULL).
 *   fake_poison_context: device's primary context (active) breaks with the sticky `code`, as a
 *     kernel fault there would leave it, whichever context is current: its calls, and waits on
 *     its streams and events from other contexts, answer `code` until it is reset.
 *   fake_set_conditional: sets the value of a conditional handle (CUgraphConditionalHandle), as
 *     cudaGraphSetConditional does from device code; meant for a host kernel implementation
 *     that runs during a graph launch (the fake's lock is not held then), so that WHILE loops
 *     end.  An unknown handle is ignored.
 *   fake_set_driver_version / fake_set_sm_count: as FAKECUDA_DRIVER_VERSION / FAKECUDA_SMS, from
 *     now on (the runtime resolves its entry points once: set them before its first call).
 *   fake_green_count: green contexts created and not yet destroyed (nor killed by a reset of
 *     their primary context).
 *   fake_primary_retains: the retain count of device's primary context (each live green
 *     context holds one, as cuda.h says); 0 for an unknown device.
 *   fake_stream_sm_count: the SMs work on `stream` may use (its green context's, or the whole
 *     device's; 0, 0x1 and 0x2: the current context's), -1 for an unknown or destroyed stream.
 *   fake_set_residency: marks [ptr, ptr+size) of a managed allocation resident at a location
 *     (a CUmemLocationType and id; CU_MEM_LOCATION_TYPE_NONE: nowhere), as a first touch by the
 *     host or a kernel would, for cuMemGetLocationInfo; 0, or -1 when the range is not inside
 *     one managed allocation.  Otherwise a managed allocation is on its context's device until
 *     prefetched elsewhere (fake_residency.c).
 */

#endif
