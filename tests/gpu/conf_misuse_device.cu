// conf_misuse_device.cu - invalid inputs to the device, device configuration, version, error and
// driver entry point functions, one case each (the runner and the line format: misuse.h).
// Ordinals are written relative to the device count (`count` is the first invalid one), so the
// transcript does not depend on how many GPUs the machine has.
#include <cuda_profiler_api.h>

#include "misuse.h"

// cudaGetDriverEntryPoint and cudaDeviceGet/SetSharedMemConfig are deprecated, and still part of
// the API under test.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

// The per-thread-default-stream variants; the toolkit declares them only in such builds.
extern "C" {
cudaError_t CUDARTAPI cudaGetDriverEntryPoint_ptsz(const char *symbol, void **funcPtr,
                                                   unsigned long long flags,
                                                   enum cudaDriverEntryPointQueryResult *status);
cudaError_t CUDARTAPI cudaGetDriverEntryPointByVersion_ptsz(
    const char *symbol, void **funcPtr, unsigned int cudaVersion, unsigned long long flags,
    enum cudaDriverEntryPointQueryResult *status);
}

static int count;                     // devices; also the first invalid ordinal
static int value;
static size_t size_out;
static char text[64];
static void *fn;
static cudaDriverEntryPointQueryResult status;
static cudaDeviceProp prop;

static char log_buffer[64];
static cudaLogIterator log_iterator;
static cudaAsyncCallbackHandle_t async_handle;
static cudaLogsCallbackHandle log_handle;

static void ignore_notification(cudaAsyncNotificationInfo_t *, void *, cudaAsyncCallbackHandle_t)
{
}

static void ignore_log(void *, cudaLogLevel, char *, size_t)
{
}

static void setup(void)
{
    CHECK(cudaGetDeviceCount(&count));
    CHECK(cudaFree(NULL));            // the context exists before the first case
    memset(&prop, 0, sizeof prop);
}

// Says whether an entry point query found a function, and its status (never the address).
static cudaError_t entry_point_result(cudaError_t e)
{
    misuse_note("found_%s_status_%d", fn ? "yes" : "no", (int)status);
    return e;
}

static const misuse_case cases[] = {
    // ---- devices ----
    {"cudaGetDeviceCount.null_count", [] { return cudaGetDeviceCount(NULL); }},
    {"cudaSetDevice.negative", [] { return cudaSetDevice(-1); }},
    {"cudaSetDevice.count", [] { return cudaSetDevice(count); }},
    {"cudaSetDevice.huge", [] { return cudaSetDevice(1 << 30); }},
    {"cudaGetDevice.null_device", [] { return cudaGetDevice(NULL); }},
    {"cudaSetDeviceFlags.unknown_bit", [] { return cudaSetDeviceFlags(0x1000); }},
    {"cudaSetDeviceFlags.spin_and_yield", [] { return cudaSetDeviceFlags(0x3); }},
    {"cudaSetDeviceFlags.schedule_mask_all", [] { return cudaSetDeviceFlags(0x7); }},
    {"cudaGetDeviceFlags.null_flags", [] { return cudaGetDeviceFlags(NULL); }},
    {"cudaInitDevice.negative", [] { return cudaInitDevice(-1, 0, 0); }},
    {"cudaInitDevice.count", [] { return cudaInitDevice(count, 0, 0); }},
    {"cudaInitDevice.unknown_flags", [] { return cudaInitDevice(0, 0, 0x10); }},
    {"cudaInitDevice.invalid_device_flags",
     [] { return cudaInitDevice(0, 0x1000, cudaInitDeviceFlagsAreValid); }},
    {"cudaDeviceGetAttribute.null_value",
     [] { return cudaDeviceGetAttribute(NULL, cudaDevAttrWarpSize, 0); }},
    {"cudaDeviceGetAttribute.unknown_attribute",
     [] { return cudaDeviceGetAttribute(&value, (cudaDeviceAttr)100000, 0); }},
    {"cudaDeviceGetAttribute.negative_device",
     [] { return cudaDeviceGetAttribute(&value, cudaDevAttrWarpSize, -1); }},
    {"cudaDeviceGetAttribute.device_count",
     [] { return cudaDeviceGetAttribute(&value, cudaDevAttrWarpSize, count); }},
    {"cudaGetDeviceProperties.null_prop", [] { return cudaGetDeviceProperties(NULL, 0); }},
    {"cudaGetDeviceProperties.negative_device", [] { return cudaGetDeviceProperties(&prop, -1); }},
    {"cudaGetDeviceProperties.device_count", [] { return cudaGetDeviceProperties(&prop, count); }},
    // ---- the valid device list (the thread's device is chosen already: setup) ----
    {"cudaSetValidDevices.null_list", [] { return cudaSetValidDevices(NULL, 1); }},
    {"cudaSetValidDevices.negative_len",
     [] {
         int list[] = {0};
         return cudaSetValidDevices(list, -1);
     }},
    {"cudaSetValidDevices.len_over_count",
     [] {
         int list[17] = {0};
         return cudaSetValidDevices(list, count + 1);
     },
     [] { cudaSetValidDevices(NULL, 0); }},
    {"cudaSetValidDevices.ordinal_count",
     [] {
         int list[] = {count};
         return cudaSetValidDevices(list, 1);
     },
     [] { cudaSetValidDevices(NULL, 0); }},
    {"cudaSetValidDevices.ordinal_negative",
     [] {
         int list[] = {-1};
         return cudaSetValidDevices(list, 1);
     },
     [] { cudaSetValidDevices(NULL, 0); }},
    {"cudaSetValidDevices.null_list_len_0", [] { return cudaSetValidDevices(NULL, 0); }},
    // ---- the shared memory bank size ----
    {"cudaDeviceGetSharedMemConfig.null_config", [] { return cudaDeviceGetSharedMemConfig(NULL); }},
    {"cudaDeviceSetSharedMemConfig.unknown_config",
     [] { return cudaDeviceSetSharedMemConfig((cudaSharedMemConfig)3); }},
    {"cudaDeviceSetSharedMemConfig.negative_config",
     [] { return cudaDeviceSetSharedMemConfig((cudaSharedMemConfig)-1); }},
    // ---- async notifications ----
    {"cudaDeviceRegisterAsyncNotification.null_callback",
     [] { return cudaDeviceRegisterAsyncNotification(0, NULL, NULL, &async_handle); }},
    {"cudaDeviceRegisterAsyncNotification.null_handle",
     [] { return cudaDeviceRegisterAsyncNotification(0, ignore_notification, NULL, NULL); }},
    {"cudaDeviceRegisterAsyncNotification.device_count",
     [] {
         return cudaDeviceRegisterAsyncNotification(count, ignore_notification, NULL,
                                                    &async_handle);
     }},
    {"cudaDeviceRegisterAsyncNotification.negative_device",
     [] {
         return cudaDeviceRegisterAsyncNotification(-1, ignore_notification, NULL, &async_handle);
     }},
    {"cudaDeviceUnregisterAsyncNotification.null_handle",
     [] { return cudaDeviceUnregisterAsyncNotification(0, NULL); }},
    {"cudaDeviceUnregisterAsyncNotification.bogus_handle",
     [] {
         return cudaDeviceUnregisterAsyncNotification(
             0, (cudaAsyncCallbackHandle_t)misuse_host_page);
     }},
    {"cudaDeviceUnregisterAsyncNotification.device_count",
     [] {
         async_handle = NULL;
         cudaDeviceRegisterAsyncNotification(0, ignore_notification, NULL, &async_handle);
         misuse_clear();
         return cudaDeviceUnregisterAsyncNotification(count, async_handle);
     },
     [] { cudaDeviceUnregisterAsyncNotification(0, async_handle); }},
    {"cudaDeviceUnregisterAsyncNotification.twice",
     [] {
         async_handle = NULL;
         cudaDeviceRegisterAsyncNotification(0, ignore_notification, NULL, &async_handle);
         cudaDeviceUnregisterAsyncNotification(0, async_handle);
         misuse_clear();
         return cudaDeviceUnregisterAsyncNotification(0, async_handle);
     }},
    // ---- the driver's log ----
    {"cudaLogsRegisterCallback.null_callback",
     [] { return cudaLogsRegisterCallback(NULL, NULL, &log_handle); }},
    {"cudaLogsUnregisterCallback.null_handle", [] { return cudaLogsUnregisterCallback(NULL); }},
    {"cudaLogsUnregisterCallback.bogus_handle",
     [] { return cudaLogsUnregisterCallback((cudaLogsCallbackHandle)misuse_host_page); }},
    {"cudaLogsUnregisterCallback.twice",
     [] {
         log_handle = NULL;
         cudaLogsRegisterCallback(ignore_log, NULL, &log_handle);
         cudaLogsUnregisterCallback(log_handle);
         misuse_clear();
         return cudaLogsUnregisterCallback(log_handle);
     }},
    {"cudaLogsCurrent.null_iterator", [] { return cudaLogsCurrent(NULL, 0); }},
    {"cudaLogsCurrent.flags_1", [] { return cudaLogsCurrent(&log_iterator, 1); }},
    {"cudaLogsDumpToFile.null_path", [] { return cudaLogsDumpToFile(NULL, NULL, 0); }},
    {"cudaLogsDumpToFile.flags_1",
     [] { return cudaLogsDumpToFile(NULL, "/tmp/conf_misuse_device.log", 1); }},
    {"cudaLogsDumpToFile.unwritable_path",
     [] { return cudaLogsDumpToFile(NULL, "/nonexistent-dir/logs.txt", 0); }},
    {"cudaLogsDumpToMemory.null_buffer",
     [] {
         size_out = sizeof log_buffer;
         return cudaLogsDumpToMemory(NULL, NULL, &size_out, 0);
     }},
    {"cudaLogsDumpToMemory.null_size",
     [] { return cudaLogsDumpToMemory(NULL, log_buffer, NULL, 0); }},
    {"cudaLogsDumpToMemory.flags_1",
     [] {
         size_out = sizeof log_buffer;
         return cudaLogsDumpToMemory(NULL, log_buffer, &size_out, 1);
     }},
    // Nothing logged since the iterator was taken: the size that comes back says so.
    {"cudaLogsDumpToMemory.size_0_nothing_new",
     [] {
         cudaLogsCurrent(&log_iterator, 0);
         size_out = 0;
         cudaError_t e = cudaLogsDumpToMemory(&log_iterator, log_buffer, &size_out, 0);
         misuse_note("size_%zu", size_out);
         return e;
     }},
    {"cudaLogsDumpToMemory.size_1_nothing_new",
     [] {
         cudaLogsCurrent(&log_iterator, 0);
         size_out = 1;
         cudaError_t e = cudaLogsDumpToMemory(&log_iterator, log_buffer, &size_out, 0);
         misuse_note("size_%zu", size_out);
         return e;
     }},
    // ---- capability queries ----
    {"cudaDeviceGetTexture1DLinearMaxWidth.null_width",
     [] {
         cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
         return cudaDeviceGetTexture1DLinearMaxWidth(NULL, &f, 0);
     }},
    {"cudaDeviceGetTexture1DLinearMaxWidth.null_desc",
     [] { return cudaDeviceGetTexture1DLinearMaxWidth(&size_out, NULL, 0); }},
    {"cudaDeviceGetTexture1DLinearMaxWidth.device_count",
     [] {
         cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
         return cudaDeviceGetTexture1DLinearMaxWidth(&size_out, &f, count);
     }},
    {"cudaDeviceGetTexture1DLinearMaxWidth.three_channels",
     [] {
         cudaChannelFormatDesc f = cudaCreateChannelDesc(8, 8, 8, 0, cudaChannelFormatKindSigned);
         return cudaDeviceGetTexture1DLinearMaxWidth(&size_out, &f, 0);
     }},
    {"cudaDeviceGetHostAtomicCapabilities.null_capabilities",
     [] {
         cudaAtomicOperation op = cudaAtomicOperationIntegerAdd;
         return cudaDeviceGetHostAtomicCapabilities(NULL, &op, 1, 0);
     }},
    {"cudaDeviceGetHostAtomicCapabilities.null_operations",
     [] {
         unsigned caps = 0;
         return cudaDeviceGetHostAtomicCapabilities(&caps, NULL, 1, 0);
     }},
    {"cudaDeviceGetHostAtomicCapabilities.count_0",
     [] {
         unsigned caps = 0;
         cudaAtomicOperation op = cudaAtomicOperationIntegerAdd;
         return cudaDeviceGetHostAtomicCapabilities(&caps, &op, 0, 0);
     }},
    {"cudaDeviceGetHostAtomicCapabilities.unknown_operation",
     [] {
         unsigned caps = 0;
         cudaAtomicOperation op = (cudaAtomicOperation)99;
         return cudaDeviceGetHostAtomicCapabilities(&caps, &op, 1, 0);
     }},
    {"cudaDeviceGetHostAtomicCapabilities.device_count",
     [] {
         unsigned caps = 0;
         cudaAtomicOperation op = cudaAtomicOperationIntegerAdd;
         return cudaDeviceGetHostAtomicCapabilities(&caps, &op, 1, count);
     }},
    {"cudaDeviceGetP2PAtomicCapabilities.null_capabilities",
     [] {
         cudaAtomicOperation op = cudaAtomicOperationIntegerAdd;
         return cudaDeviceGetP2PAtomicCapabilities(NULL, &op, 1, 0, count - 1);
     }},
    {"cudaDeviceGetP2PAtomicCapabilities.same_device",
     [] {
         unsigned caps = 0;
         cudaAtomicOperation op = cudaAtomicOperationIntegerAdd;
         return cudaDeviceGetP2PAtomicCapabilities(&caps, &op, 1, 0, 0);
     }},
    {"cudaDeviceGetP2PAtomicCapabilities.device_count",
     [] {
         unsigned caps = 0;
         cudaAtomicOperation op = cudaAtomicOperationIntegerAdd;
         return cudaDeviceGetP2PAtomicCapabilities(&caps, &op, 1, 0, count);
     }},

    // ---- limits and cache preference ----
    {"cudaDeviceSetLimit.unknown_limit", [] { return cudaDeviceSetLimit((cudaLimit)99, 0); }},
    {"cudaDeviceSetLimit.stack_1TB",
     [] { return cudaDeviceSetLimit(cudaLimitStackSize, (size_t)1 << 40); }},
    {"cudaDeviceGetLimit.null_value", [] { return cudaDeviceGetLimit(NULL, cudaLimitStackSize); }},
    {"cudaDeviceGetLimit.unknown_limit",
     [] { return cudaDeviceGetLimit(&size_out, (cudaLimit)99); }},
    {"cudaDeviceSetCacheConfig.unknown_config",
     [] { return cudaDeviceSetCacheConfig((cudaFuncCache)99); }},
    {"cudaDeviceGetCacheConfig.null_config", [] { return cudaDeviceGetCacheConfig(NULL); }},

    // ---- peers ----
    {"cudaDeviceCanAccessPeer.null_result", [] { return cudaDeviceCanAccessPeer(NULL, 0, 0); }},
    {"cudaDeviceCanAccessPeer.peer_count",
     [] { return cudaDeviceCanAccessPeer(&value, 0, count); }},
    {"cudaDeviceCanAccessPeer.negative_device",
     [] { return cudaDeviceCanAccessPeer(&value, -1, 0); }},
    {"cudaDeviceCanAccessPeer.itself",
     [] {
         value = -1;
         cudaError_t e = cudaDeviceCanAccessPeer(&value, 0, 0);
         misuse_note("value_%d", value);
         return e;
     }},
    {"cudaDeviceEnablePeerAccess.itself", [] { return cudaDeviceEnablePeerAccess(0, 0); }},
    {"cudaDeviceEnablePeerAccess.peer_count",
     [] { return cudaDeviceEnablePeerAccess(count, 0); }},
    {"cudaDeviceEnablePeerAccess.flags_1", [] { return cudaDeviceEnablePeerAccess(0, 1); }},
    {"cudaDeviceDisablePeerAccess.itself", [] { return cudaDeviceDisablePeerAccess(0); }},
    {"cudaDeviceDisablePeerAccess.peer_count",
     [] { return cudaDeviceDisablePeerAccess(count); }},
    {"cudaDeviceGetP2PAttribute.null_value",
     [] { return cudaDeviceGetP2PAttribute(NULL, cudaDevP2PAttrAccessSupported, 0, 0); }},
    {"cudaDeviceGetP2PAttribute.same_device",
     [] { return cudaDeviceGetP2PAttribute(&value, cudaDevP2PAttrAccessSupported, 0, 0); }},
    {"cudaDeviceGetP2PAttribute.device_count",
     [] { return cudaDeviceGetP2PAttribute(&value, cudaDevP2PAttrAccessSupported, 0, count); }},
    {"cudaDeviceGetP2PAttribute.unknown_attribute",
     [] { return cudaDeviceGetP2PAttribute(&value, (cudaDeviceP2PAttr)99, 0, count); }},

    // ---- profiler: no inputs; stopping what never started ----
    {"cudaProfilerStop.never_started", [] { return cudaProfilerStop(); }},
    {"cudaProfilerStart.twice",
     [] {
         cudaProfilerStart();
         misuse_clear();
         return cudaProfilerStart();
     },
     [] { cudaProfilerStop(); }},

    // ---- PCI bus ids, choosing a device, RDMA flush ----
    {"cudaDeviceGetPCIBusId.null_buffer", [] { return cudaDeviceGetPCIBusId(NULL, 16, 0); }},
    {"cudaDeviceGetPCIBusId.length_0", [] { return cudaDeviceGetPCIBusId(text, 0, 0); }},
    {"cudaDeviceGetPCIBusId.length_negative", [] { return cudaDeviceGetPCIBusId(text, -1, 0); }},
    {"cudaDeviceGetPCIBusId.length_2", [] { return cudaDeviceGetPCIBusId(text, 2, 0); }},
    {"cudaDeviceGetPCIBusId.device_count",
     [] { return cudaDeviceGetPCIBusId(text, (int)sizeof text, count); }},
    {"cudaDeviceGetByPCIBusId.null_device",
     [] { return cudaDeviceGetByPCIBusId(NULL, "0000:00:00.0"); }},
    {"cudaDeviceGetByPCIBusId.null_id", [] { return cudaDeviceGetByPCIBusId(&value, NULL); }},
    {"cudaDeviceGetByPCIBusId.empty_id", [] { return cudaDeviceGetByPCIBusId(&value, ""); }},
    {"cudaDeviceGetByPCIBusId.garbage_id",
     [] { return cudaDeviceGetByPCIBusId(&value, "not a bus id"); }},
    {"cudaDeviceGetByPCIBusId.absent_id",
     [] { return cudaDeviceGetByPCIBusId(&value, "ffff:ff:1f.7"); }},
    {"cudaChooseDevice.null_device", [] { return cudaChooseDevice(NULL, &prop); }},
    {"cudaChooseDevice.null_prop", [] { return cudaChooseDevice(&value, NULL); }},
    {"cudaDeviceFlushGPUDirectRDMAWrites.unknown_target",
     [] {
         return cudaDeviceFlushGPUDirectRDMAWrites((cudaFlushGPUDirectRDMAWritesTarget)7,
                                                   cudaFlushGPUDirectRDMAWritesToOwner);
     }},
    {"cudaDeviceFlushGPUDirectRDMAWrites.unknown_scope",
     [] {
         return cudaDeviceFlushGPUDirectRDMAWrites(
             cudaFlushGPUDirectRDMAWritesTargetCurrentDevice,
             (cudaFlushGPUDirectRDMAWritesScope)7);
     }},

    // ---- versions and errors ----
    {"cudaDriverGetVersion.null_version", [] { return cudaDriverGetVersion(NULL); }},
    {"cudaRuntimeGetVersion.null_version", [] { return cudaRuntimeGetVersion(NULL); }},
    {"cudaGetErrorName.unknown_code",
     [] {
         misuse_note("%s", cudaGetErrorName((cudaError_t)12345));
         return MISUSE_VOID;
     }},
    {"cudaGetErrorName.negative_code",
     [] {
         misuse_note("%s", cudaGetErrorName((cudaError_t)-5));
         return MISUSE_VOID;
     }},
    {"cudaGetErrorString.unknown_code",
     [] {
         misuse_note("%s", cudaGetErrorString((cudaError_t)12345));
         return MISUSE_VOID;
     }},
    {"cudaGetErrorString.negative_code",
     [] {
         misuse_note("%s", cudaGetErrorString((cudaError_t)-5));
         return MISUSE_VOID;
     }},
    // The last error is cleared before each case: these read an empty slot.
    {"cudaGetLastError.nothing_stored", [] { return cudaGetLastError(); }},
    {"cudaPeekAtLastError.nothing_stored", [] { return cudaPeekAtLastError(); }},

    // ---- driver entry points ----
    {"cudaGetDriverEntryPoint.null_symbol",
     [] { return cudaGetDriverEntryPoint(NULL, &fn, cudaEnableDefault, &status); }},
    {"cudaGetDriverEntryPoint.null_function",
     [] { return cudaGetDriverEntryPoint("cuInit", NULL, cudaEnableDefault, &status); }},
    {"cudaGetDriverEntryPoint.unknown_flags",
     [] { return cudaGetDriverEntryPoint("cuInit", &fn, 0x10, &status); }},
    {"cudaGetDriverEntryPoint.unknown_symbol",
     [] {
         fn = NULL;
         status = (cudaDriverEntryPointQueryResult)-1;
         return entry_point_result(
             cudaGetDriverEntryPoint("cuNoSuchFunction", &fn, cudaEnableDefault, &status));
     }},
    {"cudaGetDriverEntryPoint.empty_symbol",
     [] {
         fn = NULL;
         status = (cudaDriverEntryPointQueryResult)-1;
         return entry_point_result(cudaGetDriverEntryPoint("", &fn, cudaEnableDefault, &status));
     }},
    {"cudaGetDriverEntryPoint_ptsz.null_symbol",
     [] { return cudaGetDriverEntryPoint_ptsz(NULL, &fn, cudaEnableDefault, &status); }},
    {"cudaGetDriverEntryPoint_ptsz.unknown_flags",
     [] { return cudaGetDriverEntryPoint_ptsz("cuInit", &fn, 0x10, &status); }},
    {"cudaGetDriverEntryPointByVersion.null_symbol",
     [] { return cudaGetDriverEntryPointByVersion(NULL, &fn, 13000, cudaEnableDefault, &status); }},
    {"cudaGetDriverEntryPointByVersion.null_function",
     [] {
         return cudaGetDriverEntryPointByVersion("cuInit", NULL, 13000, cudaEnableDefault,
                                                 &status);
     }},
    {"cudaGetDriverEntryPointByVersion.version_0",
     [] {
         fn = NULL;
         status = (cudaDriverEntryPointQueryResult)-1;
         return entry_point_result(
             cudaGetDriverEntryPointByVersion("cuInit", &fn, 0, cudaEnableDefault, &status));
     }},
    {"cudaGetDriverEntryPointByVersion.version_too_old",
     [] {
         fn = NULL;
         status = (cudaDriverEntryPointQueryResult)-1;
         return entry_point_result(cudaGetDriverEntryPointByVersion(
             "cuStreamGetCaptureInfo", &fn, 1000, cudaEnableDefault, &status));
     }},
    {"cudaGetDriverEntryPointByVersion.unknown_flags",
     [] { return cudaGetDriverEntryPointByVersion("cuInit", &fn, 13000, 0x10, &status); }},
    {"cudaGetDriverEntryPointByVersion_ptsz.null_function",
     [] {
         return cudaGetDriverEntryPointByVersion_ptsz("cuInit", NULL, 13000, cudaEnableDefault,
                                                      &status);
     }},
    {"cudaGetDriverEntryPointByVersion_ptsz.unknown_symbol",
     [] {
         fn = NULL;
         status = (cudaDriverEntryPointQueryResult)-1;
         return entry_point_result(cudaGetDriverEntryPointByVersion_ptsz(
             "cuNoSuchFunction", &fn, 13000, cudaEnableDefault, &status));
     }},
};

int main(int argc, char **argv)
{
    return misuse_main("conf_misuse_device", argc, argv, setup, cases, MISUSE_COUNT(cases));
}
