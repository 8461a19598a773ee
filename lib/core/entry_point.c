/*
 * entry_point.c - cudaGetDriverEntryPoint and cudaGetDriverEntryPointByVersion: a program's way
 * to reach driver functions without linking libcuda (CCCL, PyTorch and cuBLAS-style libraries
 * use it).
 *
 * Both forward to the driver's cuGetProcAddress_v2, which the runtime itself was resolved
 * through; driver_function.def asks the driver for that function by name like any other entry
 * point.  The runtime flags equal the driver's (cudaEnableDefault 0 = CU_GET_PROC_ADDRESS_DEFAULT,
 * cudaEnableLegacyStream 1, cudaEnablePerThreadDefaultStream 2), and so do the query results.
 * cudaEnableDefault means "per-thread if the caller was built with --default-stream per-thread":
 * such callers reach the _ptsz entry points, so there it becomes the per-thread flag.
 *
 * cudaGetDriverEntryPoint asks for the ABI of the runtime's own version, 13.5's, as NVIDIA's 13.5
 * runtime does (on a driver of 13.1 or newer, cuLaunchHostFunc then comes with 13.1's sync mode),
 * but never for more than the driver's version: driver 580 (13.0) answers
 * CUDA_ERROR_INVALID_VALUE to any request above 13000 (measured on the H200).
 *
 * A symbol the driver lacks is not an error: cudaSuccess, *funcPtr = NULL and the reason in
 * *driverStatus, as NVIDIA documents.
 */
#include "core/core.h"

_Static_assert((int)cudaEnableLegacyStream == CU_GET_PROC_ADDRESS_LEGACY_STREAM &&
               (int)cudaEnablePerThreadDefaultStream ==
                   CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM,
               "entry point flags differ");
_Static_assert((int)cudaDriverEntryPointSymbolNotFound == CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND &&
               (int)cudaDriverEntryPointVersionNotSufficent ==
                   CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT,
               "entry point query results differ");

/* cudaVersion for "the runtime's own version" (see the top of the file), resolved once the driver's
 * version is known. */
#define RT_ENTRY_RUNTIME_VERSION UINT32_MAX

static cudaError_t rt_entry_point(const char *symbol, void **funcPtr, unsigned cudaVersion,
                                  unsigned long long flags,
                                  enum cudaDriverEntryPointQueryResult *status, bool per_thread)
{
    if (!symbol || !funcPtr || flags > cudaEnablePerThreadDefaultStream)
        return cudaErrorInvalidValue;
    cudaError_t e = rt_driver_load();
    if (e != cudaSuccess)
        return e;
    if (cudaVersion == RT_ENTRY_RUNTIME_VERSION)
        cudaVersion = rt_drv.version < RT_RUNTIME_VERSION ? (unsigned)rt_drv.version
                                                          : RT_RUNTIME_VERSION;
    if (flags == cudaEnableDefault && per_thread)
        flags = CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM;
    CUdriverProcAddressQueryResult found = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    *funcPtr = NULL;
    CUresult r = rt_drv.cuGetProcAddress(symbol, funcPtr, (int)cudaVersion, flags, &found);
    RT_TRACE("driver entry point %s (version %u, flags %llu): %p, status %d, result %d", symbol,
             cudaVersion, flags, *funcPtr, (int)found, (int)r);
    if (r != CUDA_SUCCESS) {
        *funcPtr = NULL;
        return rt_error_from_cu(r);
    }
    if (status)
        *status = (enum cudaDriverEntryPointQueryResult)found;
    return cudaSuccess;
}

/* The one body of cudaGetDriverEntryPoint, cudaGetDriverEntryPoint_ptsz,
 * cudaGetDriverEntryPointByVersion and cudaGetDriverEntryPointByVersion_ptsz (RT_FORWARD). */
static cudaError_t rt_entry_point_api(const char *symbol, void **funcPtr, unsigned cudaVersion,
                                      unsigned long long flags,
                                      enum cudaDriverEntryPointQueryResult *status,
                                      bool per_thread, rt_api self)
{
    RT_ENTER_AS(self);
    RT_RETURN(rt_entry_point(symbol, funcPtr, cudaVersion, flags, status, per_thread));
}

RT_API cudaError_t cudaGetDriverEntryPoint(const char *symbol, void **funcPtr,
                                           unsigned long long flags,
                                           enum cudaDriverEntryPointQueryResult *driverStatus)
{
    RT_FORWARD(rt_entry_point_api(symbol, funcPtr, RT_ENTRY_RUNTIME_VERSION, flags, driverStatus,
                                  false, RT_SELF));
}

RT_API cudaError_t cudaGetDriverEntryPoint_ptsz(const char *symbol, void **funcPtr,
                                                unsigned long long flags,
                                                enum cudaDriverEntryPointQueryResult *status)
{
    RT_FORWARD(rt_entry_point_api(symbol, funcPtr, RT_ENTRY_RUNTIME_VERSION, flags, status, true,
                                  RT_SELF));
}

RT_API cudaError_t cudaGetDriverEntryPointByVersion(
    const char *symbol, void **funcPtr, unsigned int cudaVersion, unsigned long long flags,
    enum cudaDriverEntryPointQueryResult *driverStatus)
{
    RT_FORWARD(rt_entry_point_api(symbol, funcPtr, cudaVersion, flags, driverStatus, false,
                                  RT_SELF));
}

RT_API cudaError_t cudaGetDriverEntryPointByVersion_ptsz(
    const char *symbol, void **funcPtr, unsigned int cudaVersion, unsigned long long flags,
    enum cudaDriverEntryPointQueryResult *status)
{
    RT_FORWARD(rt_entry_point_api(symbol, funcPtr, cudaVersion, flags, status, true, RT_SELF));
}

/* ---- the undeclared entry points of this area ----------------------------------------------- */

/* cudaGetExportTable hands out the driver's export tables: for a table the driver has, NVIDIA's
 * runtime answers with the very pointer cuGetExportTable gives; for an unknown id, or a NULL
 * argument, cudaErrorInvalidValue with *ppExportTable = NULL (all measured on the H200:
 * tests/gpu/conf_hidden.cu).  Tools and libraries built on the runtime use it to reach the
 * driver's private interfaces; minicudart has no tables of its own to add. */
RT_API cudaError_t cudaGetExportTable(const void **ppExportTable,
                                      const cudaUUID_t *pExportTableId)
{
    RT_ENTER();
    if (!ppExportTable || !pExportTableId)
        RT_RETURN_UNINIT(cudaErrorInvalidValue);      /* before the driver, as NVIDIA's */
    *ppExportTable = NULL;
    cudaError_t e = rt_driver_load();
    if (e != cudaSuccess)
        RT_RETURN(e);
    CUresult r = rt_drv.cuGetExportTable(ppExportTable, (const CUuuid *)pExportTableId);
    RT_TRACE("export table %02x%02x%02x%02x...: %p, result %d",
             (unsigned char)pExportTableId->bytes[0], (unsigned char)pExportTableId->bytes[1],
             (unsigned char)pExportTableId->bytes[2], (unsigned char)pExportTableId->bytes[3],
             *ppExportTable, (int)r);
    if (r != CUDA_SUCCESS)
        *ppExportTable = NULL;
    RT_RETURN(rt_error_from_cu(r));
}

/* NVIDIA's __cudaGetProcAddress is two instructions: it returns 0 and touches nothing, not even
 * the last error.  Nothing calls it; minicudart answers the same, and says so in the trace. */
RT_API void *__cudaGetProcAddress(void);
RT_API void *__cudaGetProcAddress(void)
{
    RT_ENTER();
    RT_TRACE("__cudaGetProcAddress: returns NULL, as NVIDIA's runtime does");
    RT_RETURN_VALUE(NULL);
}

/*
 * CUDA 13.5 exports three functions that no header of 13.5 declares and no documentation
 * describes: their arguments are unknown, so they cannot be implemented.  NVIDIA's runtime
 * answers cudaErrorCallRequiresNewerDriver for them on driver 580 (H200, all-zero arguments);
 * minicudart answers that they are not implemented, and reads no argument.  The names are
 * exported so that a program built against NVIDIA's 13.5 library that names them still loads.
 */
static cudaError_t rt_undeclared(rt_api self)
{
    RT_ENTER_AS(self);
    RT_TRACE_LAZY("%s: declared by no header of CUDA 13.5, its arguments unknown: "
                  "not implemented", rt_api_name(self));
    RT_RETURN(cudaErrorNotSupported);
}
#define RT_UNDECLARED(name)                                                                   \
    RT_API cudaError_t name(void);                                                            \
    RT_API cudaError_t name(void) { RT_FORWARD(rt_undeclared(RT_SELF)); }
RT_UNDECLARED(cudaSubgridCreate)
RT_UNDECLARED(cudaSubgridWorkerGridCreate)
RT_UNDECLARED(cudaSubgridWorksetCreate)
