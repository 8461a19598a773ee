/*
 * exit.c - the way out of every public call: its error stored as the calling thread's last
 * error, and the driver's failure answered first.
 *
 * Every public entry point leaves through rt_exit (core.h), which calls rt_exit_error here for a
 * failure: the slot is per thread, a success never clears it, and only cudaGetLastError resets
 * it.  The version queries are here too: with rt_exit_uninit they are the calls NVIDIA's runtime
 * answers without a driver.  This file sits above driver.c, which it asks for the driver's
 * failure, and errors.c, which names the errors: neither calls back.
 */
#include "core/core.h"

/* The external definition of this inline helper of core/core.h (RT_INLINE, core/core.h). */
extern inline cudaError_t rt_exit(cudaError_t e);

static _Thread_local cudaError_t rt_last_error = cudaSuccess;

static cudaError_t rt_error_store(cudaError_t e)
{
    rt_last_error = e;
    if (rt_summary_on())
        rt_summary_error(e, rt_error_name(e));
    /* Lazy: every failing call passes here, and the name is a search of the error table. */
    RT_TRACE_LAZY("error %s (%d) from %s", rt_error_name(e), (int)e, rt_call_name());
    return e;
}

/* NVIDIA's runtime initialises the driver before it looks at a call's arguments: with no driver
 * library, or one whose cuInit failed, every call answers that failure whatever its arguments
 * (cudaGetDeviceCount(NULL) and cudaGraphGetId(NULL, NULL) alike answer
 * cudaErrorInsufficientDriver with no libcuda, function by function: tests/abi/nodriver_test.sh;
 * and cudaErrorNoDevice on the H200 with CUDA_VISIBLE_DEVICES empty, where cuInit fails).
 * minicudart checks most arguments first, which costs nothing on the paths that succeed; so an
 * error is answered here, on its way out, as the driver's failure when there is one.  The driver is loaded at most once (rt_driver_load), and
 * only a failing call of a program that had not used the driver yet pays for the load.  The few
 * calls NVIDIA answers before initialising leave through rt_exit_uninit instead. */
cudaError_t rt_error_record(cudaError_t e)
{
    /* The trace said why the driver is not usable when it was loaded ("driver: ..."). */
    cudaError_t init = rt_driver_failure();
    return rt_error_store(init != cudaSuccess ? init : e);
}

/* The error is recorded while the call is still open, so that its line names the call. */
cudaError_t rt_exit_error(cudaError_t e)
{
    e = rt_error_record(e);
    rt_call_end();
    return e;
}

cudaError_t rt_exit_invalid_value(void)
{
    return rt_exit_error(cudaErrorInvalidValue);
}

cudaError_t rt_exit_uninit(cudaError_t e)
{
    if (e != cudaSuccess)
        e = rt_error_store(e);
    rt_call_end();
    return e;
}

/* With no usable driver NVIDIA's runtime answers its failure here too, every time, whatever
 * error was stored (a cudaRuntimeGetVersion(NULL) before, say). */
RT_API cudaError_t cudaGetLastError(void)
{
    RT_ENTER_HOT();
    cudaError_t e = rt_last_error;
    rt_last_error = cudaSuccess;
    cudaError_t init = rt_driver_failure();
    RT_RETURN_VALUE(init != cudaSuccess ? init : e);
}

RT_API cudaError_t cudaPeekAtLastError(void)
{
    RT_ENTER_HOT();
    cudaError_t init = rt_driver_failure();
    RT_RETURN_VALUE(init != cudaSuccess ? init : rt_last_error);
}

/* ---- the versions ---------------------------------------------------------------------------- */

RT_API cudaError_t cudaDriverGetVersion(int *driverVersion)
{
    RT_ENTER();
    if (!driverVersion)
        RT_RETURN_UNINIT(cudaErrorInvalidValue);
    /* With no driver NVIDIA's runtime answers 0 and success; a driver that loaded but failed
     * cuInit still reports its version. */
    rt_driver_load();
    *driverVersion = rt_drv.version;
    RT_RETURN(cudaSuccess);
}

RT_API cudaError_t cudaRuntimeGetVersion(int *runtimeVersion)
{
    RT_ENTER();
    if (!runtimeVersion)
        RT_RETURN_UNINIT(cudaErrorInvalidValue);
    *runtimeVersion = RT_RUNTIME_VERSION;
    RT_RETURN(cudaSuccess);
}
