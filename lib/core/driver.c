/*
 * driver.c - the driver entry points, resolved once.
 *
 * The runtime has no link-time dependency on libcuda.  It dlopens "libcuda.so.1" (or the library
 * named by MINICUDART_DRIVER, e.g. the test suite's fake driver), takes cuGetProcAddress_v2 from
 * it, and asks it for every function of driver_api.def at the ABI version this code was written
 * against.  That is what NVIDIA's runtime does too, and it means a newer driver keeps handing us
 * the signatures we call.  The table is filled once, under pthread_once.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"

struct rt_driver rt_drv;

static pthread_once_t rt_driver_once = PTHREAD_ONCE_INIT;
static cudaError_t rt_driver_status = cudaErrorInitializationError;

/* driver_api.def as data, without a pointer or an offset: the names, front coded in one string
 * (driver_names.h, written from the .def files by tools/gen_driver_names.py), and per entry two
 * bytes: its ABI version in tens, whether it is asked for with the per-thread-default-stream
 * flag, and whether it may be missing.  Entry i's pointer is the i-th of struct rt_driver, whose
 * fields are the same .def rows in the same order, all pointers to functions (checked below).
 * (A loop over data, not a call per entry: the table is on every program's start-up path and in
 * every statically linked binary; stored so, it is 3.5 KB smaller than as names and rows.) */
#include "driver_names.h"

enum { RT_ROW_PER_THREAD = 1 << 14, RT_ROW_OPTIONAL = 1 << 15 };
#define RT_ROW(version, flags) (uint16_t)((version) / 10 | (flags)),
static const uint16_t rt_driver_rows[] = {
#define DRIVER_FN(name, version) RT_ROW(version, 0)
#define DRIVER_FN_OPTIONAL(name, version) RT_ROW(version, RT_ROW_OPTIONAL)
#define DRIVER_FN_PTDS(name, version) RT_ROW(version, RT_ROW_PER_THREAD)
#define DRIVER_FN_PTSZ(name, version) RT_ROW(version, RT_ROW_PER_THREAD)
#define DRIVER_FN_NEWER(field, name, version) RT_ROW(version, RT_ROW_OPTIONAL)
#include "driver_api.def"
#undef DRIVER_FN
#undef DRIVER_FN_OPTIONAL
#undef DRIVER_FN_PTDS
#undef DRIVER_FN_PTSZ
#undef DRIVER_FN_NEWER
};
#undef RT_ROW

/* Every version fits the row: a multiple of ten below 163,840. */
#define RT_ROW_FITS(version) \
    _Static_assert((version) % 10 == 0 && (version) / 10 < RT_ROW_PER_THREAD, "ABI " #version);
#define DRIVER_FN(name, version) RT_ROW_FITS(version)
#define DRIVER_FN_OPTIONAL(name, version) RT_ROW_FITS(version)
#define DRIVER_FN_PTDS(name, version) RT_ROW_FITS(version)
#define DRIVER_FN_PTSZ(name, version) RT_ROW_FITS(version)
#define DRIVER_FN_NEWER(field, name, version) RT_ROW_FITS(version)
#include "driver_api.def"
#undef DRIVER_FN
#undef DRIVER_FN_OPTIONAL
#undef DRIVER_FN_PTDS
#undef DRIVER_FN_PTSZ
#undef DRIVER_FN_NEWER
#undef RT_ROW_FITS

enum { RT_DRIVER_ENTRIES = sizeof rt_driver_rows / sizeof rt_driver_rows[0] };
_Static_assert(RT_DRIVER_ENTRIES == RT_DRIVER_NAME_COUNT,
               "driver_names.h is not the .def files': run tools/gen_driver_names.py");
/* One pointer per row before `version`, none of another size: entry i's slot is pointer i. */
_Static_assert(offsetof(struct rt_driver, version) == RT_DRIVER_ENTRIES * sizeof(void *),
               "struct rt_driver is not one function pointer per row of the .def files");

/* The pointer of entry i in rt_drv. */
static void **rt_driver_slot(size_t i)
{
    return (void **)&rt_drv + i;
}

/* The name after the one in `name` (the buffer holds the previous name, which this one shares
 * its first byte's count of characters with); returns where the next one begins. */
static const char *rt_driver_next_name(const char *coded, char name[RT_DRIVER_NAME_SIZE])
{
    size_t keep = (unsigned char)*coded++;
    size_t rest = strlen(coded) + 1;
    memcpy(name + keep, coded, rest);
    return coded + rest;
}

/* A symbol the driver lacks comes back as CUDA_SUCCESS with a NULL pointer, so both the result
 * and the pointer are checked. */
bool rt_driver_resolve(PFN_cuGetProcAddress_v12000 get, const char *name, int version,
                       cuuint64_t flags, bool optional, void **slot)
{
    CUdriverProcAddressQueryResult status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    CUresult r = get(name, slot, version, flags, &status);
    if (r == CUDA_SUCCESS && *slot && status == CU_GET_PROC_ADDRESS_SUCCESS)
        return true;
    *slot = NULL;
    RT_TRACE("driver: %s (ABI %d) not available (result %d, status %d)%s", name, version, (int)r,
             (int)status, optional ? ", optional" : "");
    return optional;
}

/* cuGetProcAddress answers a request for ABI version V with the newest version of the symbol
 * that is not above V.  So a driver older than an optional entry's ABI hands back an older
 * signature under the same name when it has one (asked for cuLaunchHostFunc at 13010, driver
 * 580 answers its 3-argument cuLaunchHostFunc of 10000).  No driver has an ABI newer than
 * itself, so every optional entry above the driver's version is dropped: the runtime then
 * answers as for a missing entry, instead of calling a function with the wrong signature. */
static void rt_driver_drop_newer(int version)
{
    const char *coded = rt_driver_names;
    char name[RT_DRIVER_NAME_SIZE];
    for (size_t i = 0; i < RT_DRIVER_ENTRIES; i++) {
        coded = rt_driver_next_name(coded, name);
        int abi = rt_driver_rows[i] % RT_ROW_PER_THREAD * 10;
        void **slot = rt_driver_slot(i);
        if ((rt_driver_rows[i] & RT_ROW_OPTIONAL) && abi > version && *slot) {
            RT_TRACE("driver: %s (ABI %d) is newer than the driver (%d): not used", name, abi,
                     version);
            *slot = NULL;
        }
    }
}

/* Runs at exit before the handlers and static destructors registered earlier (atexit is
 * last-in, first-out): nvcc's __cudaUnregisterFatBinary, and the destructors of objects made
 * before the runtime was first used.  From then on calls answer cudaErrorCudartUnloading, as
 * NVIDIA's runtime does, instead of reaching a driver that may be going down. */
static void rt_mark_unloading(void)
{
    atomic_store(&rt_unloading, true);
    RT_TRACE("process exiting: later calls answer cudaErrorCudartUnloading");
}

const char *rt_driver_path(void)
{
    const char *path = getenv("MINICUDART_DRIVER");
    return path && *path ? path : "libcuda.so.1";
}

static cudaError_t rt_driver_load_once(void)
{
    atexit(rt_mark_unloading);
    const char *path = rt_driver_path();
    uint64_t span = rt_span_begin();
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (span) {
        char quoted[512];
        rt_json_escape(quoted, sizeof quoted, path);
        rt_span_emit(span, "dlopen driver", "\"path\":\"%s\",\"ok\":%s", quoted,
                     lib ? "true" : "false");
    }
    if (!lib) {
        RT_TRACE_LAZY("driver: cannot load %s: %s", path, dlerror());
        return cudaErrorInsufficientDriver;
    }
    PFN_cuGetProcAddress_v12000 get =
        (PFN_cuGetProcAddress_v12000)(uintptr_t)dlsym(lib, "cuGetProcAddress_v2");
    if (!get) {
        RT_TRACE("driver: %s has no cuGetProcAddress_v2: older than CUDA 12.0", path);
        return cudaErrorInsufficientDriver;
    }

    span = rt_span_begin();
    bool complete = true;
    const char *coded = rt_driver_names;
    char name[RT_DRIVER_NAME_SIZE];
    for (size_t i = 0; i < RT_DRIVER_ENTRIES; i++) {
        coded = rt_driver_next_name(coded, name);
        uint16_t row = rt_driver_rows[i];
        complete &= rt_driver_resolve(get, name, row % RT_ROW_PER_THREAD * 10,
                                      row & RT_ROW_PER_THREAD
                                          ? CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM
                                          : CU_GET_PROC_ADDRESS_DEFAULT,
                                      row & RT_ROW_OPTIONAL, rt_driver_slot(i));
    }

    int version = 0;
    if (rt_drv.cuDriverGetVersion)
        rt_drv.cuDriverGetVersion(&version);
    rt_drv.version = version;
    rt_driver_drop_newer(version);
    RT_SPAN_END(span, "cuGetProcAddress", "\"entries\":%d,\"version\":%d",
                (int)RT_DRIVER_ENTRIES, version);
    if (rt_drv.cuInit)
        atomic_store(&rt_driver_resolved, true);     /* a fork from now on: lifetime.c */
    if (!complete || version < RT_DRIVER_MIN_VERSION) {
        RT_TRACE("driver: %s is version %d; %d or newer, with every entry of driver_api.def, "
                 "is needed", path, version, RT_DRIVER_MIN_VERSION);
        return cudaErrorInsufficientDriver;
    }

    span = rt_span_begin();
    CUresult r = rt_drv.cuInit(0);
    RT_SPAN_END(span, "cuInit", "\"result\":%d", (int)r);
    if (r != CUDA_SUCCESS) {
        cudaError_t e = rt_error_from_cu(r);
        RT_TRACE("driver: cuInit failed: %s (%d)", rt_error_name(e), (int)r);
        return e;
    }
    RT_TRACE("driver: %s, version %d.%d, %s", path, version / 1000, version % 1000 / 10,
             rt_drv.cuFuncGetParamInfo ? "cuFuncGetParamInfo available"
                                        : "no cuFuncGetParamInfo: layouts from .nv.info");
    return cudaSuccess;
}

static void rt_driver_once_fn(void)
{
    atomic_store_explicit(&rt_reached, true, memory_order_relaxed);   /* a CUDA call came */
    rt_driver_status = rt_driver_load_once();
}

cudaError_t rt_driver_load(void)
{
    pthread_once(&rt_driver_once, rt_driver_once_fn);
    return rt_driver_status;
}

cudaError_t rt_driver_failure(void)
{
    if (atomic_load_explicit(&rt_unloading, memory_order_relaxed))
        return cudaSuccess;
    return rt_driver_load();
}

cudaError_t rt_driver_optional(bool present, const char *entry)
{
    if (present)
        return cudaSuccess;
    RT_TRACE("%s: the driver has no %s: not implemented", rt_call_name(), entry);
    return cudaErrorNotSupported;
}

cudaError_t rt_driver_newer(bool present, const char *entry)
{
    if (present)
        return cudaSuccess;
    RT_TRACE("%s: the driver (%d) has no %s: a newer driver is needed, as NVIDIA's "
             "runtime says", rt_call_name(), rt_drv.version, entry);
    return cudaErrorCallRequiresNewerDriver;
}
