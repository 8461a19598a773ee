// conf_vulkan.cu - external memory and semaphores exported by Vulkan and imported by CUDA
// (issue 16), compared line by line between NVIDIA's runtime and minicudart.  conf_external
// can only import what the CUDA driver itself exports; this program imports what another API
// made, the case the external-memory calls exist for:
//   - a 1 MiB VkBuffer with a dedicated, exportable allocation (OPAQUE_FD), once in a
//     HOST_VISIBLE|HOST_COHERENT memory type (the host writes a pattern through vkMapMemory, a
//     kernel transforms it in place through cudaExternalMemoryGetMappedBuffer, the host reads the
//     result through the same mapping) and once in a DEVICE_LOCAL type (vkCmdFillBuffer writes,
//     the kernel transforms, cudaMemcpy reads back);
//   - a binary VkSemaphore exported as OPAQUE_FD: CUDA signals, a Vulkan queue waits (fence with
//     a timeout); then a Vulkan queue signals and a CUDA stream waits;
//   - where the device offers VK_KHR_timeline_semaphore, a timeline semaphore imported as
//     cudaExternalSemaphoreHandleTypeTimelineSemaphoreFd: CUDA signals 5, vkWaitSemaphores waits
//     for 5; the host signals 7 with vkSignalSemaphore and a CUDA stream waits for 7.
// Every CUDA call prints its code and the last error after it; data checks print ok/FAIL; Vulkan
// failures print the VkResult number.  What this machine cannot do (no libvulkan.so.1, no ICD,
// no physical device with CUDA device 0's UUID, a missing extension) prints one "skip: ..." line
// and exits 0, the same under both runtimes.  Never pointers, fds, timings or memory-type indices.
//
// No Vulkan headers are needed: libvulkan.so.1 is opened with dlopen, and the few types, values
// and structures used are declared in vulkan_min.h, as vulkan_core.h (Vulkan-Headers) defines them.
// gpu-libs: -ldl
#include "gpu_check.h"
#include "vulkan_min.h"

#include <stdint.h>
#include <unistd.h>

static VulkanFunctions vk;

static VkInstance instance;
static VkPhysicalDevice physical;
static VkDevice device;
static VkQueue queue;
static VkCommandPool pool;
static bool timeline;
static VkPhysicalDeviceMemoryProperties memory_properties;

static const uint64_t FIVE_SECONDS_NS = 5000000000ull;

// ---- printing ------------------------------------------------------------------------------------

static int failures;

// A CUDA call's code and the last error after it; when `want` is not -1 the code must match.
static void probe(const char *what, cudaError_t got, int want)
{
    cudaError_t last = cudaGetLastError();
    printf("%-62s -> " ERR_FMT ", last " ERR_FMT "\n", what, ERR_ARGS(got), ERR_ARGS(last));
    if (want >= 0 && (int)got != want) {
        printf("  expected %d\n", want);
        failures++;
    }
}

static void check(const char *what, bool ok)
{
    printf("check %-56s : %s\n", what, ok ? "ok" : "FAIL");
    if (!ok)
        failures++;
}

// A Vulkan call that must succeed once the device exists: a failure is printed and counted.
static bool vk_ok(const char *what, VkResult r)
{
    if (r == VK_SUCCESS)
        return true;
    printf("vulkan %s -> VkResult %d\n", what, (int)r);
    failures++;
    return false;
}

// "<prefix>: <what>" in one of a few rotating buffers, for the lines of one case.
static const char *at(const char *prefix, const char *what)
{
    static char text[4][128];
    static unsigned next;
    char *out = text[next++ % 4];
    snprintf(out, sizeof text[0], "%s: %s", prefix, what);
    return out;
}

// ---- Vulkan start and stop -----------------------------------------------------------------------

#define INSTANCE_FN(name) (*(void **)&vk.name = vk.GetInstanceProcAddr(instance, "vk" #name))
#define DEVICE_FN(name) (*(void **)&vk.name = vk.GetDeviceProcAddr(device, "vk" #name))

static bool has_extension(const VkExtensionProperties *list, uint32_t n, const char *name)
{
    for (uint32_t i = 0; i < n; i++)
        if (strcmp(list[i].extensionName, name) == 0)
            return true;
    return false;
}

// Returns NULL when `device` is the Vulkan device of CUDA device 0 (the same UUID), else why not.
static const char *vk_start(const unsigned char uuid[16])
{
    static char why[160];
    // The NVIDIA ICD of the GPU machines lies outside the loader's default search path.
    const char *icd = "/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json";
    if (!getenv("VK_DRIVER_FILES") && !getenv("VK_ICD_FILENAMES") && access(icd, R_OK) == 0)
        setenv("VK_DRIVER_FILES", icd, 0);
    void *lib = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return "libvulkan.so.1 cannot be loaded";
    *(void **)&vk.GetInstanceProcAddr = dlsym(lib, "vkGetInstanceProcAddr");
    if (!vk.GetInstanceProcAddr)
        return "libvulkan.so.1 lacks vkGetInstanceProcAddr";
    uint32_t version = 0;
    if (INSTANCE_FN(EnumerateInstanceVersion) &&
        (vk.EnumerateInstanceVersion(&version) != VK_SUCCESS || version < VK_API_VERSION_1_1))
        return "the Vulkan loader is older than 1.1";
    if (!INSTANCE_FN(CreateInstance))
        return "the loader lacks vkCreateInstance";
    VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO, NULL, "conf_vulkan", 1, NULL, 0,
                             VK_API_VERSION_1_1};
    VkInstanceCreateInfo ici = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, NULL, 0, &app, 0, NULL,
                                0, NULL};
    VkResult r = vk.CreateInstance(&ici, NULL, &instance);
    if (r != VK_SUCCESS) {
        instance = NULL;
        snprintf(why, sizeof why, "vkCreateInstance(1.1) -> VkResult %d", (int)r);
        return why;
    }
    if (!INSTANCE_FN(DestroyInstance) || !INSTANCE_FN(EnumeratePhysicalDevices) ||
        !INSTANCE_FN(GetPhysicalDeviceProperties) || !INSTANCE_FN(GetPhysicalDeviceProperties2) ||
        !INSTANCE_FN(GetPhysicalDeviceFeatures2) ||
        !INSTANCE_FN(GetPhysicalDeviceQueueFamilyProperties) ||
        !INSTANCE_FN(GetPhysicalDeviceMemoryProperties) ||
        !INSTANCE_FN(EnumerateDeviceExtensionProperties) || !INSTANCE_FN(CreateDevice) ||
        !INSTANCE_FN(GetDeviceProcAddr))
        return "the instance lacks a Vulkan 1.1 function";

    // The physical device with CUDA device 0's UUID (Properties2 needs a 1.1 device).
    VkPhysicalDevice list[16];
    uint32_t count = 16;
    r = vk.EnumeratePhysicalDevices(instance, &count, list);
    if (r != VK_SUCCESS && r != VK_INCOMPLETE) {
        snprintf(why, sizeof why, "vkEnumeratePhysicalDevices -> VkResult %d", (int)r);
        return why;
    }
    if (count == 0)
        return "no Vulkan physical device";
    physical = NULL;
    for (uint32_t i = 0; i < count && !physical; i++) {
        static VkPhysicalDevicePropertiesHead head;
        vk.GetPhysicalDeviceProperties(list[i], &head);
        if (head.apiVersion < VK_API_VERSION_1_1)
            continue;
        VkPhysicalDeviceIDProperties id;
        memset(&id, 0, sizeof id);
        id.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES;
        static VkPhysicalDeviceProperties2 p2;
        memset(&p2, 0, sizeof p2);
        p2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
        p2.pNext = &id;
        vk.GetPhysicalDeviceProperties2(list[i], &p2);
        if (memcmp(id.deviceUUID, uuid, 16) == 0)
            physical = list[i];
    }
    if (!physical)
        return "no Vulkan 1.1 physical device has CUDA device 0's UUID";
    printf("vulkan: the physical device with CUDA device 0's UUID found\n");

    // A queue family that can run vkCmdFillBuffer and semaphore waits.
    VkQueueFamilyProperties families[32];
    uint32_t nfamilies = 32;
    vk.GetPhysicalDeviceQueueFamilyProperties(physical, &nfamilies, families);
    uint32_t family = UINT32_MAX;
    for (uint32_t i = 0; i < nfamilies && family == UINT32_MAX; i++)
        if (families[i].queueCount > 0 &&
            (families[i].queueFlags & (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT)))
            family = i;
    if (family == UINT32_MAX)
        return "no graphics or compute queue family";

    uint32_t next = 0;
    r = vk.EnumerateDeviceExtensionProperties(physical, NULL, &next, NULL);
    static VkExtensionProperties exts[1024];
    if (next > 1024)
        next = 1024;
    if (r == VK_SUCCESS)
        r = vk.EnumerateDeviceExtensionProperties(physical, NULL, &next, exts);
    if (r != VK_SUCCESS && r != VK_INCOMPLETE) {
        snprintf(why, sizeof why, "vkEnumerateDeviceExtensionProperties -> VkResult %d", (int)r);
        return why;
    }
    if (!has_extension(exts, next, "VK_KHR_external_memory_fd"))
        return "the device lacks VK_KHR_external_memory_fd";
    if (!has_extension(exts, next, "VK_KHR_external_semaphore_fd"))
        return "the device lacks VK_KHR_external_semaphore_fd";
    const char *enable[3] = {"VK_KHR_external_memory_fd", "VK_KHR_external_semaphore_fd",
                             "VK_KHR_timeline_semaphore"};
    VkPhysicalDeviceTimelineSemaphoreFeatures tf = {
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES, NULL, 0};
    if (has_extension(exts, next, "VK_KHR_timeline_semaphore")) {
        VkPhysicalDeviceFeatures2 f2;
        memset(&f2, 0, sizeof f2);
        f2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
        f2.pNext = &tf;
        vk.GetPhysicalDeviceFeatures2(physical, &f2);
        tf.pNext = NULL;
    }
    timeline = tf.timelineSemaphore != 0;

    const float priority = 1.0f;
    VkDeviceQueueCreateInfo qci = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, NULL, 0, family, 1,
                                   &priority};
    VkDeviceCreateInfo dci = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, timeline ? &tf : NULL, 0, 1,
                              &qci, 0, NULL, timeline ? 3u : 2u, enable, NULL};
    r = vk.CreateDevice(physical, &dci, NULL, &device);
    if (r != VK_SUCCESS) {
        device = NULL;
        snprintf(why, sizeof why, "vkCreateDevice(external fd extensions) -> VkResult %d", (int)r);
        return why;
    }
    if (!DEVICE_FN(DestroyDevice) || !DEVICE_FN(DeviceWaitIdle) || !DEVICE_FN(GetDeviceQueue) ||
        !DEVICE_FN(CreateBuffer) || !DEVICE_FN(DestroyBuffer) ||
        !DEVICE_FN(GetBufferMemoryRequirements) || !DEVICE_FN(AllocateMemory) ||
        !DEVICE_FN(FreeMemory) || !DEVICE_FN(BindBufferMemory) || !DEVICE_FN(MapMemory) ||
        !DEVICE_FN(UnmapMemory) || !DEVICE_FN(GetMemoryFdKHR) || !DEVICE_FN(CreateCommandPool) ||
        !DEVICE_FN(DestroyCommandPool) || !DEVICE_FN(AllocateCommandBuffers) ||
        !DEVICE_FN(FreeCommandBuffers) || !DEVICE_FN(BeginCommandBuffer) ||
        !DEVICE_FN(EndCommandBuffer) || !DEVICE_FN(CmdFillBuffer) || !DEVICE_FN(QueueSubmit) ||
        !DEVICE_FN(CreateFence) || !DEVICE_FN(DestroyFence) || !DEVICE_FN(WaitForFences) ||
        !DEVICE_FN(CreateSemaphore) || !DEVICE_FN(DestroySemaphore) ||
        !DEVICE_FN(GetSemaphoreFdKHR))
        return "the device lacks a function of Vulkan 1.1 or of the fd extensions";
    if (timeline && (!DEVICE_FN(WaitSemaphoresKHR) || !DEVICE_FN(SignalSemaphoreKHR) ||
                     !DEVICE_FN(GetSemaphoreCounterValueKHR)))
        timeline = false;
    vk.GetDeviceQueue(device, family, 0, &queue);
    vk.GetPhysicalDeviceMemoryProperties(physical, &memory_properties);
    VkCommandPoolCreateInfo pci = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, NULL, 0, family};
    r = vk.CreateCommandPool(device, &pci, NULL, &pool);
    if (r != VK_SUCCESS) {
        pool = NULL;
        snprintf(why, sizeof why, "vkCreateCommandPool -> VkResult %d", (int)r);
        return why;
    }
    printf("vulkan: a device with external memory and semaphore fds; timeline semaphores: %s\n",
           timeline ? "yes" : "no");
    return NULL;
}

static void vk_stop(void)
{
    // A skip may come before every device function was resolved.
    if (device && vk.DeviceWaitIdle)
        vk.DeviceWaitIdle(device);
    if (device && pool)
        vk.DestroyCommandPool(device, pool, NULL);
    if (device && vk.DestroyDevice)
        vk.DestroyDevice(device, NULL);
    if (instance && vk.DestroyInstance)
        vk.DestroyInstance(instance, NULL);
}

// One vkQueueSubmit (optionally one command buffer, one wait, one signal) with a fence, and a
// wait of at most five seconds for it.  Prints "<what>: ok" or the VkResult; after a timeout the
// program stops.
static bool submit_and_wait(const char *what, VkCommandBuffer cmd, VkSemaphore wait,
                            VkSemaphore signal)
{
    VkFenceCreateInfo fci = {VK_STRUCTURE_TYPE_FENCE_CREATE_INFO, NULL, 0};
    VkFence fence = NULL;
    if (!vk_ok(at(what, "vkCreateFence"), vk.CreateFence(device, &fci, NULL, &fence)))
        return false;
    const VkFlags stage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
    VkSubmitInfo si = {VK_STRUCTURE_TYPE_SUBMIT_INFO, NULL, wait ? 1u : 0u, &wait, &stage,
                       cmd ? 1u : 0u, &cmd, signal ? 1u : 0u, &signal};
    VkResult r = vk.QueueSubmit(queue, 1, &si, fence);
    if (r == VK_SUCCESS)
        r = vk.WaitForFences(device, 1, &fence, 1, FIVE_SECONDS_NS);
    if (r == VK_TIMEOUT) {
        // The queue may never finish: leave at once rather than hang in the teardown.
        printf("%s: the fence was not signalled within 5 s\n", what);
        _exit(1);
    }
    vk.DestroyFence(device, fence, NULL);
    if (r != VK_SUCCESS) {
        printf("%s: VkResult %d\n", what, (int)r);
        failures++;
        return false;
    }
    printf("%s: ok\n", what);
    return true;
}

// cudaStreamSynchronize, but never waiting more than five seconds for a semaphore that does not
// come: the stream is polled first.  How many polls answered cudaErrorNotReady depends on timing,
// so the last error they may leave is cleared, not printed.
static void finish_stream(cudaStream_t s, const char *what)
{
    cudaError_t e = cudaErrorNotReady;
    for (int i = 0; i < 5000 && (e = cudaStreamQuery(s)) == cudaErrorNotReady; i++)
        usleep(1000);
    cudaGetLastError();
    if (e == cudaErrorNotReady) {
        printf("%s: the stream still waits after 5 s\n", what);
        _exit(1);
    }
    probe(what, cudaStreamSynchronize(s), cudaSuccess);
}

// ---- memory ----------------------------------------------------------------------------------------

__global__ void transform(unsigned *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = p[i] * 3u + (unsigned)i;
}

// The first memory type of `bits` with all of `want` and none of `avoid`, or -1.
static int memory_type(uint32_t bits, VkFlags want, VkFlags avoid)
{
    for (uint32_t i = 0; i < memory_properties.memoryTypeCount && i < 32; i++) {
        VkFlags f = memory_properties.memoryTypes[i].propertyFlags;
        if ((bits & (1u << i)) && (f & want) == want && !(f & avoid))
            return (int)i;
    }
    return -1;
}

// vkCmdFillBuffer over the whole buffer, submitted and waited for.
static bool vulkan_fill(const char *label, VkBuffer buffer, uint32_t value)
{
    VkCommandBufferAllocateInfo ai = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, NULL, pool,
                                      VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
    VkCommandBuffer cmd = NULL;
    if (!vk_ok(at(label, "vkAllocateCommandBuffers"), vk.AllocateCommandBuffers(device, &ai, &cmd)))
        return false;
    VkCommandBufferBeginInfo bi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, NULL,
                                   VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT, NULL};
    bool ok = vk_ok(at(label, "vkBeginCommandBuffer"), vk.BeginCommandBuffer(cmd, &bi));
    if (ok) {
        vk.CmdFillBuffer(cmd, buffer, 0, VK_WHOLE_SIZE, value);
        ok = vk_ok(at(label, "vkEndCommandBuffer"), vk.EndCommandBuffer(cmd));
    }
    if (ok)
        ok = submit_and_wait(at(label, "vkCmdFillBuffer submitted and its fence waited for"), cmd,
                             NULL, NULL);
    vk.FreeCommandBuffers(device, pool, 1, &cmd);
    return ok;
}

// A 1 MiB buffer in an exportable dedicated allocation, imported into CUDA and transformed there
// by a kernel.  host_visible: the host writes and reads through vkMapMemory; otherwise Vulkan
// fills it on the device and CUDA reads it back.
static void memory_round_trip(bool host_visible)
{
    const char *label = host_visible ? "memory host-visible" : "memory device-local";
    const VkDeviceSize bytes = 1 << 20;
    const int n = (int)(bytes / sizeof(unsigned));
    VkExternalMemoryBufferCreateInfo ebi = {VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO,
                                            NULL, VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT};
    VkBufferCreateInfo bci = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, &ebi, 0, bytes,
                              VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                  VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                              VK_SHARING_MODE_EXCLUSIVE, 0, NULL};
    VkBuffer buffer = NULL;
    if (!vk_ok(at(label, "vkCreateBuffer(external OPAQUE_FD)"),
               vk.CreateBuffer(device, &bci, NULL, &buffer)))
        return;
    VkMemoryRequirements req;
    vk.GetBufferMemoryRequirements(device, buffer, &req);
    const VkFlags never = VK_MEMORY_PROPERTY_PROTECTED_BIT | VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT;
    int type = host_visible
                   ? memory_type(req.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                                         VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, never)
                   : memory_type(req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT,
                                 never | VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
    if (type < 0 && !host_visible)
        type = memory_type(req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, never);
    if (type < 0) {
        printf("%s: skip: no memory type of this kind for an external buffer\n", label);
        vk.DestroyBuffer(device, buffer, NULL);
        return;
    }
    VkMemoryDedicatedAllocateInfo dedicated = {VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO,
                                               NULL, NULL, buffer};
    VkExportMemoryAllocateInfo exported = {VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO,
                                           &dedicated, VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT};
    VkMemoryAllocateInfo mai = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, &exported, req.size,
                                (uint32_t)type};
    VkDeviceMemory memory = NULL;
    VkResult r = vk.AllocateMemory(device, &mai, NULL, &memory);
    if (r != VK_SUCCESS) {
        printf("%s: skip: vkAllocateMemory(dedicated, exportable) -> VkResult %d\n", label, (int)r);
        vk.DestroyBuffer(device, buffer, NULL);
        return;
    }
    printf("%s: a dedicated exportable allocation of 1 MiB\n", label);
    bool ok = vk_ok(at(label, "vkBindBufferMemory"), vk.BindBufferMemory(device, buffer, memory, 0));
    unsigned *host = NULL;
    if (ok && host_visible) {
        ok = vk_ok(at(label, "vkMapMemory"),
                   vk.MapMemory(device, memory, 0, VK_WHOLE_SIZE, 0, (void **)&host));
        for (int i = 0; ok && i < n; i++)
            host[i] = 0x1000u + (unsigned)i * 7u;
    } else if (ok) {
        ok = vulkan_fill(label, buffer, 0xA5A5A5A5u);
    }
    int fd = -1;
    VkMemoryGetFdInfoKHR gfi = {VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR, NULL, memory,
                                VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT};
    if (ok)
        ok = vk_ok(at(label, "vkGetMemoryFdKHR"), vk.GetMemoryFdKHR(device, &gfi, &fd));
    if (ok) {
        cudaExternalMemoryHandleDesc d;
        memset(&d, 0, sizeof d);
        d.type = cudaExternalMemoryHandleTypeOpaqueFd;
        d.handle.fd = fd;
        d.size = req.size;
        d.flags = cudaExternalMemoryDedicated;
        cudaExternalMemory_t ext = NULL;
        cudaError_t e = cudaImportExternalMemory(&ext, &d);
        probe(at(label, "cudaImportExternalMemory(OpaqueFd, dedicated)"), e, cudaSuccess);
        if (e != cudaSuccess) {
            close(fd);   // a successful import owns the fd; a failed one does not
        } else {
            cudaExternalMemoryBufferDesc bd;
            memset(&bd, 0, sizeof bd);
            bd.offset = 0;
            bd.size = bytes;
            unsigned *p = NULL;
            probe(at(label, "cudaExternalMemoryGetMappedBuffer(0, 1 MiB)"),
                  cudaExternalMemoryGetMappedBuffer((void **)&p, ext, &bd), cudaSuccess);
            if (p) {
                transform<<<(n + 255) / 256, 256>>>(p, n);
                probe(at(label, "kernel launch"), cudaGetLastError(), cudaSuccess);
                probe(at(label, "cudaDeviceSynchronize"), cudaDeviceSynchronize(), cudaSuccess);
                bool same = true;
                if (host_visible) {
                    for (int i = 0; i < n; i++)
                        same = same && host[i] == (0x1000u + (unsigned)i * 7u) * 3u + (unsigned)i;
                    check(at(label, "the host mapping shows what the kernel wrote"), same);
                } else {
                    static unsigned back[1 << 18];
                    probe(at(label, "cudaMemcpy back"),
                          cudaMemcpy(back, p, bytes, cudaMemcpyDeviceToHost), cudaSuccess);
                    for (int i = 0; i < n; i++)
                        same = same && back[i] == 0xA5A5A5A5u * 3u + (unsigned)i;
                    check(at(label, "the kernel read Vulkan's fill and wrote"), same);
                }
                probe(at(label, "cudaFree(mapped buffer)"), cudaFree(p), cudaSuccess);
            }
            probe(at(label, "cudaDestroyExternalMemory"), cudaDestroyExternalMemory(ext),
                  cudaSuccess);
        }
    }
    if (host)
        vk.UnmapMemory(device, memory);
    vk.FreeMemory(device, memory, NULL);
    vk.DestroyBuffer(device, buffer, NULL);
}

// ---- semaphores ----------------------------------------------------------------------------------

// An exportable semaphore (binary, or timeline starting at 0), exported and imported into CUDA.
// Returns false (printed) when any step fails; *sem is then destroyed already.
static bool semaphore_pair(const char *label, bool is_timeline, VkSemaphore *sem,
                           cudaExternalSemaphore_t *ext)
{
    VkSemaphoreTypeCreateInfo tci = {VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO, NULL,
                                     VK_SEMAPHORE_TYPE_TIMELINE, 0};
    VkExportSemaphoreCreateInfo esci = {VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_CREATE_INFO,
                                        is_timeline ? &tci : NULL,
                                        VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT};
    VkSemaphoreCreateInfo sci = {VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, &esci, 0};
    *sem = NULL;
    *ext = NULL;
    if (!vk_ok(at(label, "vkCreateSemaphore(exportable OPAQUE_FD)"),
               vk.CreateSemaphore(device, &sci, NULL, sem)))
        return false;
    VkSemaphoreGetFdInfoKHR gfi = {VK_STRUCTURE_TYPE_SEMAPHORE_GET_FD_INFO_KHR, NULL, *sem,
                                   VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT};
    int fd = -1;
    if (!vk_ok(at(label, "vkGetSemaphoreFdKHR"), vk.GetSemaphoreFdKHR(device, &gfi, &fd))) {
        vk.DestroySemaphore(device, *sem, NULL);
        return false;
    }
    cudaExternalSemaphoreHandleDesc d;
    memset(&d, 0, sizeof d);
    d.type = is_timeline ? cudaExternalSemaphoreHandleTypeTimelineSemaphoreFd
                         : cudaExternalSemaphoreHandleTypeOpaqueFd;
    d.handle.fd = fd;
    cudaError_t e = cudaImportExternalSemaphore(ext, &d);
    probe(at(label, is_timeline ? "cudaImportExternalSemaphore(TimelineSemaphoreFd)"
                                : "cudaImportExternalSemaphore(OpaqueFd)"),
          e, cudaSuccess);
    if (e != cudaSuccess) {
        close(fd);
        vk.DestroySemaphore(device, *sem, NULL);
        return false;
    }
    return true;
}

static void binary_semaphore(void)
{
    const char *label = "binary semaphore";
    VkSemaphore sem;
    cudaExternalSemaphore_t ext;
    if (!semaphore_pair(label, false, &sem, &ext))
        return;
    cudaStream_t s = NULL;
    CHECK(cudaStreamCreate(&s));
    cudaExternalSemaphoreSignalParams sp;
    memset(&sp, 0, sizeof sp);
    cudaError_t e = cudaSignalExternalSemaphoresAsync(&ext, &sp, 1, s);
    probe(at(label, "cudaSignalExternalSemaphoresAsync"), e, cudaSuccess);
    // A Vulkan wait on a binary semaphore needs a pending signal, or it may never return.
    if (e == cudaSuccess)
        submit_and_wait(at(label, "a Vulkan queue waits for CUDA's signal"), NULL, sem, NULL);
    finish_stream(s, at(label, "cudaStreamSynchronize after the signal"));

    // The other way: Vulkan signals, the CUDA stream waits, then a kernel-free sync.
    if (submit_and_wait(at(label, "a Vulkan queue signals"), NULL, NULL, sem)) {
        cudaExternalSemaphoreWaitParams wp;
        memset(&wp, 0, sizeof wp);
        probe(at(label, "cudaWaitExternalSemaphoresAsync"),
              cudaWaitExternalSemaphoresAsync(&ext, &wp, 1, s), cudaSuccess);
        finish_stream(s, at(label, "cudaStreamSynchronize after the wait"));
    }
    probe(at(label, "cudaDestroyExternalSemaphore"), cudaDestroyExternalSemaphore(ext),
          cudaSuccess);
    CHECK(cudaStreamDestroy(s));
    vk.DeviceWaitIdle(device);
    vk.DestroySemaphore(device, sem, NULL);
}

static void timeline_semaphore(void)
{
    const char *label = "timeline semaphore";
    if (!timeline) {
        printf("%s: skip: the device lacks VK_KHR_timeline_semaphore\n", label);
        return;
    }
    VkSemaphore sem;
    cudaExternalSemaphore_t ext;
    if (!semaphore_pair(label, true, &sem, &ext))
        return;
    cudaStream_t s = NULL;
    CHECK(cudaStreamCreate(&s));
    cudaExternalSemaphoreSignalParams sp;
    memset(&sp, 0, sizeof sp);
    sp.params.fence.value = 5;
    cudaError_t e = cudaSignalExternalSemaphoresAsync(&ext, &sp, 1, s);
    probe(at(label, "cudaSignalExternalSemaphoresAsync(value 5)"), e, cudaSuccess);
    const uint64_t five = 5;
    VkSemaphoreWaitInfo wi = {VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO, NULL, 0, 1, &sem, &five};
    VkResult r = vk.WaitSemaphoresKHR(device, &wi, FIVE_SECONDS_NS);
    printf("%s: vkWaitSemaphores(5, 5 s): %s\n", label,
           r == VK_SUCCESS ? "ok" : r == VK_TIMEOUT ? "timeout" : "failed");
    if (r != VK_SUCCESS) {
        printf("  VkResult %d\n", (int)r);
        failures++;
    }
    finish_stream(s, at(label, "cudaStreamSynchronize after the signal"));
    uint64_t value = 0;
    if (vk_ok(at(label, "vkGetSemaphoreCounterValue"),
              vk.GetSemaphoreCounterValueKHR(device, sem, &value)))
        printf("%s: counter after CUDA's signal: %llu\n", label, (unsigned long long)value);

    VkSemaphoreSignalInfo si = {VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO, NULL, sem, 7};
    if (vk_ok(at(label, "vkSignalSemaphore(7)"), vk.SignalSemaphoreKHR(device, &si))) {
        cudaExternalSemaphoreWaitParams wp;
        memset(&wp, 0, sizeof wp);
        wp.params.fence.value = 7;
        probe(at(label, "cudaWaitExternalSemaphoresAsync(value 7)"),
              cudaWaitExternalSemaphoresAsync(&ext, &wp, 1, s), cudaSuccess);
        finish_stream(s, at(label, "cudaStreamSynchronize after the wait"));
    }
    value = 0;
    if (vk_ok(at(label, "vkGetSemaphoreCounterValue"),
              vk.GetSemaphoreCounterValueKHR(device, sem, &value)))
        printf("%s: counter at the end: %llu\n", label, (unsigned long long)value);
    probe(at(label, "cudaDestroyExternalSemaphore"), cudaDestroyExternalSemaphore(ext),
          cudaSuccess);
    CHECK(cudaStreamDestroy(s));
    vk.DestroySemaphore(device, sem, NULL);
}

int main(void)
{
    gpu_require("conf_vulkan");
    CHECK(cudaSetDevice(0));
    CHECK(cudaFree(0));
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    const char *why = vk_start((const unsigned char *)prop.uuid.bytes);
    if (why) {
        printf("skip: %s\n", why);
        vk_stop();
        return 0;
    }
    memory_round_trip(true);
    memory_round_trip(false);
    binary_semaphore();
    timeline_semaphore();
    vk_stop();
    CHECK(cudaDeviceSynchronize());
    printf("conf_vulkan: %s\n", failures ? "FAIL" : "PASS");
    return failures ? 1 : 0;
}
