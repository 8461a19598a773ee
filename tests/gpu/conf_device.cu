// conf_device.cu - device configuration: flags (the sequence of SEMANTICS.md section 0), limits,
// cache preference, the shared memory bank size, peer queries, PCI bus ids, reset and
// re-initialisation, the valid device list, async notifications and the driver's log, bad
// arguments.  The same program under NVIDIA's runtime and minicudart, compared line by line.
#include <cuda_profiler_api.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <thread>

#include "gpu_check.h"

// cudaDeviceGet/SetSharedMemConfig are deprecated, and still part of the API under test.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

static int ok = 1;

static void probe(const char *what, cudaError_t e)
{
    cudaError_t last = cudaGetLastError();
    printf("%-52s -> " ERR_FMT ", last " ERR_FMT "\n", what, ERR_ARGS(e), ERR_ARGS(last));
}

static void expect(const char *what, bool good)
{
    printf("%-52s %s\n", what, good ? "ok" : "WRONG");
    ok &= good;
}

__global__ void k_write(int *out, int value)
{
    out[threadIdx.x] = value;
}

static void flags_line(const char *when)
{
    unsigned flags = 0;
    cudaError_t e = cudaGetDeviceFlags(&flags);
    printf("cudaGetDeviceFlags %-36s -> " ERR_FMT ", flags 0x%x\n", when, ERR_ARGS(e), flags);
}

static void limit_round_trip(const char *name, cudaLimit limit, size_t value)
{
    size_t before = 0, after = 0;
    CHECK(cudaDeviceGetLimit(&before, limit));
    probe(name, cudaDeviceSetLimit(limit, value));
    CHECK(cudaDeviceGetLimit(&after, limit));
    printf("%s: before %zu, set %zu, read %zu\n", name, before, value, after);
}

static void shared_mem_config_lines(void)
{
    cudaSharedMemConfig config = (cudaSharedMemConfig)7;
    probe("cudaDeviceGetSharedMemConfig", cudaDeviceGetSharedMemConfig(&config));
    printf("shared memory bank size initially %d\n", (int)config);
    probe("cudaDeviceSetSharedMemConfig(EightByte)",
          cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeEightByte));
    config = (cudaSharedMemConfig)7;
    probe("cudaDeviceGetSharedMemConfig after EightByte", cudaDeviceGetSharedMemConfig(&config));
    printf("shared memory bank size after EightByte %d\n", (int)config);
    probe("cudaDeviceSetSharedMemConfig(FourByte)",
          cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeFourByte));
    probe("cudaDeviceSetSharedMemConfig(Default)",
          cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeDefault));
    probe("cudaDeviceSetSharedMemConfig(3)", cudaDeviceSetSharedMemConfig((cudaSharedMemConfig)3));
    config = (cudaSharedMemConfig)7;
    CHECK(cudaDeviceGetSharedMemConfig(&config));
    printf("shared memory bank size at the end %d\n", (int)config);
}

// Devices are printed relative to the count ("last" is count - 1), so that the transcript is
// the same on machines with one GPU or several.
static const char *which(int device, int count)
{
    return device == count - 1 ? "last" : device == 0 ? "0" : device < 0 ? "none" : "other";
}

// A fresh thread has chosen no device: the valid device list decides which one it works on.
static void valid_devices_thread(int count)
{
    int last[] = {count - 1};
    probe("cudaSetValidDevices({last}, 1) in a fresh thread", cudaSetValidDevices(last, 1));
    int device = -1;
    probe("cudaGetDevice before any work", cudaGetDevice(&device));
    printf("device before any work: %s\n", which(device, count));
    probe("cudaFree(NULL) (first work of the thread)", cudaFree(NULL));
    device = -1;
    CHECK(cudaGetDevice(&device));
    printf("device after the first work: %s\n", which(device, count));
    int beyond[] = {count};
    probe("cudaSetValidDevices({count}, 1)", cudaSetValidDevices(beyond, 1));
    probe("cudaSetValidDevices(NULL, 1)", cudaSetValidDevices(NULL, 1));
    int many[17] = {0};
    probe("cudaSetValidDevices(list, count + 1)", cudaSetValidDevices(many, count + 1));
    probe("cudaSetValidDevices(NULL, 0)", cudaSetValidDevices(NULL, 0));
    device = -1;
    CHECK(cudaGetDevice(&device));
    printf("device after len 0: %s\n", which(device, count));
}

// The list of one thread, seen from another that has chosen no device either.
static void valid_devices_other_thread(int count)
{
    int last[] = {count - 1};
    CHECK(cudaSetValidDevices(last, 1));
    int seen = -1;
    std::thread other([&] { cudaGetDevice(&seen); });
    other.join();
    printf("another fresh thread's device: %s\n", which(seen, count));
    CHECK(cudaSetValidDevices(NULL, 0));
}

static int notifications;

static void on_notification(cudaAsyncNotificationInfo_t *, void *, cudaAsyncCallbackHandle_t)
{
    notifications++;
}

static void async_notification_lines(void)
{
    cudaAsyncCallbackHandle_t handle = NULL;
    probe("cudaDeviceRegisterAsyncNotification(0)",
          cudaDeviceRegisterAsyncNotification(0, on_notification, NULL, &handle));
    printf("async notification handle set: %s\n", handle ? "yes" : "no");
    probe("cudaDeviceUnregisterAsyncNotification(0)",
          cudaDeviceUnregisterAsyncNotification(0, handle));
    // Unregistering twice crashes NVIDIA's runtime: conf_misuse_device has that case.
}

static int log_messages;

static void on_log(void *, cudaLogLevel, char *, size_t)
{
    log_messages++;
}

// Only stable facts: return codes, whether sizes are plausible; never the log text.
static void log_lines(void)
{
    cudaLogsCallbackHandle handle = NULL;
    probe("cudaLogsRegisterCallback", cudaLogsRegisterCallback(on_log, NULL, &handle));
    printf("log callback handle set: %s\n", handle ? "yes" : "no");
    cudaLogIterator start = 0;
    probe("cudaLogsCurrent", cudaLogsCurrent(&start, 0));
    probe("cudaSetDevice(99) (something to log)", cudaSetDevice(99));

    static char buffer[25600 + 1];
    size_t size = sizeof buffer;
    cudaLogIterator it = start;
    cudaError_t e = cudaLogsDumpToMemory(&it, buffer, &size, 0);
    probe("cudaLogsDumpToMemory(from the start)", e);
    printf("dump size below the capacity and NUL-terminated: %s\n",
           size < sizeof buffer && buffer[size] == '\0' ? "yes" : "no");
    printf("iterator not behind the start: %s\n", it >= start ? "yes" : "no");
    size = sizeof buffer;
    probe("cudaLogsDumpToMemory(NULL iterator)", cudaLogsDumpToMemory(NULL, buffer, &size, 0));
    printf("whole dump size below the capacity: %s\n", size < sizeof buffer ? "yes" : "no");

    char path[] = "/tmp/conf_device_logs_XXXXXX";
    int fd = mkstemp(path);
    if (fd >= 0)
        close(fd);
    it = start;
    probe("cudaLogsDumpToFile(from the start)", cudaLogsDumpToFile(&it, path, 0));
    printf("dump file exists: %s\n", access(path, F_OK) == 0 ? "yes" : "no");
    unlink(path);

    probe("cudaLogsUnregisterCallback", cudaLogsUnregisterCallback(handle));
    // Unregistering twice crashes NVIDIA's runtime: conf_misuse_device has that case.
}

int main(void)
{
    gpu_require("conf_device");

    // Flags, in the order measured on the H200.
    flags_line("before initialisation");
    probe("cudaSetDeviceFlags(ScheduleBlockingSync) before init",
          cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync));
    int *d = NULL;
    CHECK(cudaMalloc(&d, 256 * sizeof(int)));
    flags_line("after cudaMalloc");
    probe("cudaSetDeviceFlags(ScheduleSpin) on the active context",
          cudaSetDeviceFlags(cudaDeviceScheduleSpin));
    flags_line("after ScheduleSpin");
    probe("cudaSetDeviceFlags(0x100)", cudaSetDeviceFlags(0x100));
    probe("cudaSetDevice(99)", cudaSetDevice(99));
    probe("cudaInitDevice(99, 0, 0)", cudaInitDevice(99, 0, 0));
    probe("cudaInitDevice(0, 0, 0)", cudaInitDevice(0, 0, 0));

    // Limits.
    limit_round_trip("cudaLimitStackSize", cudaLimitStackSize, 4096);
    limit_round_trip("cudaLimitMallocHeapSize", cudaLimitMallocHeapSize, 64u << 20);
    limit_round_trip("cudaLimitPrintfFifoSize", cudaLimitPrintfFifoSize, 2u << 20);
    probe("cudaDeviceSetLimit(limit 99)", cudaDeviceSetLimit((cudaLimit)99, 1));

    // Cache preference.
    cudaFuncCache cache = cudaFuncCachePreferNone;
    CHECK(cudaDeviceGetCacheConfig(&cache));
    printf("cache config initially %d\n", (int)cache);
    probe("cudaDeviceSetCacheConfig(PreferShared)",
          cudaDeviceSetCacheConfig(cudaFuncCachePreferShared));
    CHECK(cudaDeviceGetCacheConfig(&cache));
    printf("cache config after set %d\n", (int)cache);
    CHECK(cudaDeviceSetCacheConfig(cudaFuncCachePreferNone));
    probe("cudaCtxResetPersistingL2Cache", cudaCtxResetPersistingL2Cache());

    shared_mem_config_lines();

    // Peers: device 0 against itself.
    int can = -1;
    probe("cudaDeviceCanAccessPeer(0, 0)", cudaDeviceCanAccessPeer(&can, 0, 0));
    printf("canAccessPeer(0, 0) = %d\n", can);
    probe("cudaDeviceCanAccessPeer(0, 99)", cudaDeviceCanAccessPeer(&can, 0, 99));
    probe("cudaDeviceEnablePeerAccess(0, 0)", cudaDeviceEnablePeerAccess(0, 0));
    probe("cudaDeviceDisablePeerAccess(0)", cudaDeviceDisablePeerAccess(0));
    probe("cudaDeviceEnablePeerAccess(99, 0)", cudaDeviceEnablePeerAccess(99, 0));
    int value = -1;
    probe("cudaDeviceGetP2PAttribute(AccessSupported, 0, 0)",
          cudaDeviceGetP2PAttribute(&value, cudaDevP2PAttrAccessSupported, 0, 0));

    // PCI bus id round trip.
    char bus_id[32] = "";
    CHECK(cudaDeviceGetPCIBusId(bus_id, (int)sizeof bus_id, 0));
    int by_id = -1;
    CHECK(cudaDeviceGetByPCIBusId(&by_id, bus_id));
    printf("PCI bus id round trip: equal %s\n", by_id == 0 ? "yes" : "no");
    ok &= by_id == 0;
    probe("cudaDeviceGetPCIBusId(device 99)", cudaDeviceGetPCIBusId(bus_id, 32, 99));

    // cudaChooseDevice with a capability every supported GPU has.
    cudaDeviceProp prop;
    memset(&prop, 0, sizeof prop);
    prop.major = 7;
    int chosen = -1;
    probe("cudaChooseDevice(major 7)", cudaChooseDevice(&chosen, &prop));
    printf("chosen device %d\n", chosen);

    // Capability queries: the 1D linear texture width of a few formats, atomic capabilities.
    const struct { const char *name; cudaChannelFormatDesc desc; } formats[] = {
        {"uchar", cudaCreateChannelDesc<unsigned char>()},
        {"float", cudaCreateChannelDesc<float>()},
        {"float4", cudaCreateChannelDesc<float4>()},
    };
    for (const auto &f : formats) {
        size_t width = 0;
        cudaError_t e = cudaDeviceGetTexture1DLinearMaxWidth(&width, &f.desc, 0);
        printf("cudaDeviceGetTexture1DLinearMaxWidth(%-6s) -> " ERR_FMT ", width %zu\n", f.name,
               ERR_ARGS(e), width);
    }
    const cudaAtomicOperation ops[] = {
        cudaAtomicOperationIntegerAdd, cudaAtomicOperationIntegerMin, cudaAtomicOperationAnd,
        cudaAtomicOperationExchange, cudaAtomicOperationCAS, cudaAtomicOperationFloatAdd,
    };
    const unsigned n_ops = sizeof ops / sizeof *ops;
    unsigned caps[sizeof ops / sizeof *ops] = {0};
    probe("cudaDeviceGetHostAtomicCapabilities",
          cudaDeviceGetHostAtomicCapabilities(caps, ops, n_ops, 0));
    for (unsigned i = 0; i < n_ops; i++)
        printf("host atomic operation %d: capabilities 0x%x\n", (int)ops[i], caps[i]);
    int devices = 0;
    CHECK(cudaGetDeviceCount(&devices));
    if (devices > 1) {
        probe("cudaDeviceGetP2PAtomicCapabilities(0, 1)",
              cudaDeviceGetP2PAtomicCapabilities(caps, ops, n_ops, 0, 1));
        for (unsigned i = 0; i < n_ops; i++)
            printf("peer atomic operation %d: capabilities 0x%x\n", (int)ops[i], caps[i]);
    }

    // Profiler (no profiler attached).
    probe("cudaProfilerStart", cudaProfilerStart());
    probe("cudaProfilerStop", cudaProfilerStop());

    // Reset, then the runtime initialises the device again on its own.
    probe("cudaDeviceReset", cudaDeviceReset());
    flags_line("after cudaDeviceReset");
    int *d2 = NULL;
    CHECK(cudaMalloc(&d2, 256 * sizeof(int)));
    k_write<<<1, 256>>>(d2, 42);
    probe("kernel after reset", cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    int h[256];
    CHECK(cudaMemcpy(h, d2, sizeof h, cudaMemcpyDeviceToHost));
    bool all = true;
    for (int i = 0; i < 256; i++)
        all &= h[i] == 42;
    expect("kernel result after reset", all);
    size_t stack = 0;
    CHECK(cudaDeviceGetLimit(&stack, cudaLimitStackSize));
    printf("stack size after reset %zu\n", stack);
    CHECK(cudaFree(d2));

    // The valid device list: in fresh threads, then in this one, whose device is chosen.
    int count = 0;
    CHECK(cudaGetDeviceCount(&count));
    std::thread fresh(valid_devices_thread, count);
    fresh.join();
    valid_devices_other_thread(count);
    int first[] = {0};
    probe("cudaSetValidDevices({0}, 1) after initialisation", cudaSetValidDevices(first, 1));
    CHECK(cudaSetValidDevices(NULL, 0));

    async_notification_lines();
    log_lines();
    printf("conf_device: %s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
