/*
 * vulkan_min.h - the few Vulkan types, values, structures and entry points conf_vulkan.cu uses,
 * declared by hand: the GPU machines and CI have no Vulkan headers, and the program opens
 * libvulkan.so.1 with dlopen.  Values and layouts are those of vulkan_core.h (Khronos
 * Vulkan-Headers); flag and enum parameters are spelled as their underlying integer types.
 * 64-bit platforms only (non-dispatchable handles are pointers there).
 */
#ifndef MINICUDART_VULKAN_MIN_H
#define MINICUDART_VULKAN_MIN_H

#include <stdint.h>

typedef int32_t VkResult;
typedef uint32_t VkBool32;
typedef uint32_t VkFlags;
typedef uint64_t VkDeviceSize;
typedef int32_t VkStructureType;
// Dispatchable handles are pointers; the non-dispatchable ones too on 64-bit platforms.
typedef struct VkInstance_T *VkInstance;
typedef struct VkPhysicalDevice_T *VkPhysicalDevice;
typedef struct VkDevice_T *VkDevice;
typedef struct VkQueue_T *VkQueue;
typedef struct VkCommandBuffer_T *VkCommandBuffer;
typedef struct VkDeviceMemory_T *VkDeviceMemory;
typedef struct VkBuffer_T *VkBuffer;
typedef struct VkSemaphore_T *VkSemaphore;
typedef struct VkFence_T *VkFence;
typedef struct VkCommandPool_T *VkCommandPool;

enum : int32_t {
    VK_SUCCESS = 0,
    VK_TIMEOUT = 2,
    VK_INCOMPLETE = 5,
};
enum : int32_t {
    VK_STRUCTURE_TYPE_APPLICATION_INFO = 0,
    VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO = 1,
    VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO = 2,
    VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO = 3,
    VK_STRUCTURE_TYPE_SUBMIT_INFO = 4,
    VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO = 5,
    VK_STRUCTURE_TYPE_FENCE_CREATE_INFO = 8,
    VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO = 9,
    VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO = 12,
    VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO = 39,
    VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO = 40,
    VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO = 42,
    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2 = 1000059000,
    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2 = 1000059001,
    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES = 1000071004,
    VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO = 1000072000,
    VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO = 1000072002,
    VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR = 1000074002,
    VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_CREATE_INFO = 1000077000,
    VK_STRUCTURE_TYPE_SEMAPHORE_GET_FD_INFO_KHR = 1000079001,
    VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO = 1000127001,
    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES = 1000207000,
    VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO = 1000207002,
    VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO = 1000207004,
    VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO = 1000207005,
};
enum : uint32_t {
    VK_API_VERSION_1_1 = (1u << 22) | (1u << 12),   // VK_MAKE_API_VERSION(0, 1, 1, 0)
    VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT = 0x1,
    VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT = 0x2,
    VK_MEMORY_PROPERTY_HOST_COHERENT_BIT = 0x4,
    VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT = 0x10,
    VK_MEMORY_PROPERTY_PROTECTED_BIT = 0x20,
    VK_QUEUE_GRAPHICS_BIT = 0x1,
    VK_QUEUE_COMPUTE_BIT = 0x2,
    VK_BUFFER_USAGE_TRANSFER_SRC_BIT = 0x1,
    VK_BUFFER_USAGE_TRANSFER_DST_BIT = 0x2,
    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT = 0x20,
    VK_SHARING_MODE_EXCLUSIVE = 0,
    VK_COMMAND_BUFFER_LEVEL_PRIMARY = 0,
    VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT = 0x1,
    VK_PIPELINE_STAGE_ALL_COMMANDS_BIT = 0x10000,
    VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT = 0x1,
    VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT = 0x1,
    VK_SEMAPHORE_TYPE_BINARY = 0,
    VK_SEMAPHORE_TYPE_TIMELINE = 1,
};
static const uint64_t VK_WHOLE_SIZE = ~0ull;

typedef struct VkApplicationInfo {
    VkStructureType sType;
    const void *pNext;
    const char *pApplicationName;
    uint32_t applicationVersion;
    const char *pEngineName;
    uint32_t engineVersion;
    uint32_t apiVersion;
} VkApplicationInfo;
typedef struct VkInstanceCreateInfo {
    VkStructureType sType;
    const void *pNext;
    VkFlags flags;
    const VkApplicationInfo *pApplicationInfo;
    uint32_t enabledLayerCount;
    const char *const *ppEnabledLayerNames;
    uint32_t enabledExtensionCount;
    const char *const *ppEnabledExtensionNames;
} VkInstanceCreateInfo;
// VkPhysicalDeviceProperties: only its head is read; `rest` is larger than the real tail
// (VkPhysicalDeviceLimits and VkPhysicalDeviceSparseProperties, 532 bytes), so a driver that
// writes the whole structure stays inside it.
typedef struct VkPhysicalDevicePropertiesHead {
    uint32_t apiVersion;
    uint32_t driverVersion;
    uint32_t vendorID;
    uint32_t deviceID;
    uint32_t deviceType;
    char deviceName[256];
    uint8_t pipelineCacheUUID[16];
    alignas(8) unsigned char rest[1024];
} VkPhysicalDevicePropertiesHead;
typedef struct VkPhysicalDeviceProperties2 {
    VkStructureType sType;
    void *pNext;
    VkPhysicalDevicePropertiesHead properties;
} VkPhysicalDeviceProperties2;
typedef struct VkPhysicalDeviceIDProperties {
    VkStructureType sType;
    void *pNext;
    uint8_t deviceUUID[16];
    uint8_t driverUUID[16];
    uint8_t deviceLUID[8];
    uint32_t deviceNodeMask;
    VkBool32 deviceLUIDValid;
} VkPhysicalDeviceIDProperties;
// VkPhysicalDeviceFeatures is 55 VkBool32; only written by the driver here (a query), so more
// room than that is harmless.
typedef struct VkPhysicalDeviceFeatures2 {
    VkStructureType sType;
    void *pNext;
    VkBool32 features[64];
} VkPhysicalDeviceFeatures2;
typedef struct VkPhysicalDeviceTimelineSemaphoreFeatures {
    VkStructureType sType;
    void *pNext;
    VkBool32 timelineSemaphore;
} VkPhysicalDeviceTimelineSemaphoreFeatures;
typedef struct VkQueueFamilyProperties {
    VkFlags queueFlags;
    uint32_t queueCount;
    uint32_t timestampValidBits;
    uint32_t minImageTransferGranularity[3];   // VkExtent3D
} VkQueueFamilyProperties;
typedef struct VkExtensionProperties {
    char extensionName[256];
    uint32_t specVersion;
} VkExtensionProperties;
typedef struct VkMemoryType {
    VkFlags propertyFlags;
    uint32_t heapIndex;
} VkMemoryType;
typedef struct VkMemoryHeap {
    VkDeviceSize size;
    VkFlags flags;
} VkMemoryHeap;
typedef struct VkPhysicalDeviceMemoryProperties {
    uint32_t memoryTypeCount;
    VkMemoryType memoryTypes[32];
    uint32_t memoryHeapCount;
    VkMemoryHeap memoryHeaps[16];
} VkPhysicalDeviceMemoryProperties;
typedef struct VkDeviceQueueCreateInfo {
    VkStructureType sType;
    const void *pNext;
    VkFlags flags;
    uint32_t queueFamilyIndex;
    uint32_t queueCount;
    const float *pQueuePriorities;
} VkDeviceQueueCreateInfo;
typedef struct VkDeviceCreateInfo {
    VkStructureType sType;
    const void *pNext;
    VkFlags flags;
    uint32_t queueCreateInfoCount;
    const VkDeviceQueueCreateInfo *pQueueCreateInfos;
    uint32_t enabledLayerCount;
    const char *const *ppEnabledLayerNames;
    uint32_t enabledExtensionCount;
    const char *const *ppEnabledExtensionNames;
    const void *pEnabledFeatures;   // const VkPhysicalDeviceFeatures *; always NULL here
} VkDeviceCreateInfo;
typedef struct VkBufferCreateInfo {
    VkStructureType sType;
    const void *pNext;
    VkFlags flags;
    VkDeviceSize size;
    VkFlags usage;
    uint32_t sharingMode;
    uint32_t queueFamilyIndexCount;
    const uint32_t *pQueueFamilyIndices;
} VkBufferCreateInfo;
typedef struct VkExternalMemoryBufferCreateInfo {
    VkStructureType sType;
    const void *pNext;
    VkFlags handleTypes;
} VkExternalMemoryBufferCreateInfo;
typedef struct VkMemoryRequirements {
    VkDeviceSize size;
    VkDeviceSize alignment;
    uint32_t memoryTypeBits;
} VkMemoryRequirements;
typedef struct VkMemoryAllocateInfo {
    VkStructureType sType;
    const void *pNext;
    VkDeviceSize allocationSize;
    uint32_t memoryTypeIndex;
} VkMemoryAllocateInfo;
typedef struct VkExportMemoryAllocateInfo {
    VkStructureType sType;
    const void *pNext;
    VkFlags handleTypes;
} VkExportMemoryAllocateInfo;
typedef struct VkMemoryDedicatedAllocateInfo {
    VkStructureType sType;
    const void *pNext;
    void *image;   // VkImage, VK_NULL_HANDLE here
    VkBuffer buffer;
} VkMemoryDedicatedAllocateInfo;
typedef struct VkMemoryGetFdInfoKHR {
    VkStructureType sType;
    const void *pNext;
    VkDeviceMemory memory;
    uint32_t handleType;
} VkMemoryGetFdInfoKHR;
typedef struct VkCommandPoolCreateInfo {
    VkStructureType sType;
    const void *pNext;
    VkFlags flags;
    uint32_t queueFamilyIndex;
} VkCommandPoolCreateInfo;
typedef struct VkCommandBufferAllocateInfo {
    VkStructureType sType;
    const void *pNext;
    VkCommandPool commandPool;
    uint32_t level;
    uint32_t commandBufferCount;
} VkCommandBufferAllocateInfo;
typedef struct VkCommandBufferBeginInfo {
    VkStructureType sType;
    const void *pNext;
    VkFlags flags;
    const void *pInheritanceInfo;
} VkCommandBufferBeginInfo;
typedef struct VkSubmitInfo {
    VkStructureType sType;
    const void *pNext;
    uint32_t waitSemaphoreCount;
    const VkSemaphore *pWaitSemaphores;
    const VkFlags *pWaitDstStageMask;
    uint32_t commandBufferCount;
    const VkCommandBuffer *pCommandBuffers;
    uint32_t signalSemaphoreCount;
    const VkSemaphore *pSignalSemaphores;
} VkSubmitInfo;
typedef struct VkFenceCreateInfo {
    VkStructureType sType;
    const void *pNext;
    VkFlags flags;
} VkFenceCreateInfo;
typedef struct VkSemaphoreCreateInfo {
    VkStructureType sType;
    const void *pNext;
    VkFlags flags;
} VkSemaphoreCreateInfo;
typedef struct VkExportSemaphoreCreateInfo {
    VkStructureType sType;
    const void *pNext;
    VkFlags handleTypes;
} VkExportSemaphoreCreateInfo;
typedef struct VkSemaphoreTypeCreateInfo {
    VkStructureType sType;
    const void *pNext;
    uint32_t semaphoreType;
    uint64_t initialValue;
} VkSemaphoreTypeCreateInfo;
typedef struct VkSemaphoreGetFdInfoKHR {
    VkStructureType sType;
    const void *pNext;
    VkSemaphore semaphore;
    uint32_t handleType;
} VkSemaphoreGetFdInfoKHR;
typedef struct VkSemaphoreWaitInfo {
    VkStructureType sType;
    const void *pNext;
    VkFlags flags;
    uint32_t semaphoreCount;
    const VkSemaphore *pSemaphores;
    const uint64_t *pValues;
} VkSemaphoreWaitInfo;
typedef struct VkSemaphoreSignalInfo {
    VkStructureType sType;
    const void *pNext;
    VkSemaphore semaphore;
    uint64_t value;
} VkSemaphoreSignalInfo;

// The entry points conf_vulkan.cu resolves through vkGetInstanceProcAddr / vkGetDeviceProcAddr.
// Allocation callbacks are always NULL (const void *).
struct VulkanFunctions {
    void *(*GetInstanceProcAddr)(VkInstance, const char *);
    VkResult (*EnumerateInstanceVersion)(uint32_t *);
    VkResult (*CreateInstance)(const VkInstanceCreateInfo *, const void *, VkInstance *);
    void (*DestroyInstance)(VkInstance, const void *);
    VkResult (*EnumeratePhysicalDevices)(VkInstance, uint32_t *, VkPhysicalDevice *);
    void (*GetPhysicalDeviceProperties)(VkPhysicalDevice, VkPhysicalDevicePropertiesHead *);
    void (*GetPhysicalDeviceProperties2)(VkPhysicalDevice, VkPhysicalDeviceProperties2 *);
    void (*GetPhysicalDeviceFeatures2)(VkPhysicalDevice, VkPhysicalDeviceFeatures2 *);
    void (*GetPhysicalDeviceQueueFamilyProperties)(VkPhysicalDevice, uint32_t *,
                                                   VkQueueFamilyProperties *);
    void (*GetPhysicalDeviceMemoryProperties)(VkPhysicalDevice, VkPhysicalDeviceMemoryProperties *);
    VkResult (*EnumerateDeviceExtensionProperties)(VkPhysicalDevice, const char *, uint32_t *,
                                                   VkExtensionProperties *);
    VkResult (*CreateDevice)(VkPhysicalDevice, const VkDeviceCreateInfo *, const void *,
                             VkDevice *);
    void *(*GetDeviceProcAddr)(VkDevice, const char *);
    // device level
    void (*DestroyDevice)(VkDevice, const void *);
    VkResult (*DeviceWaitIdle)(VkDevice);
    void (*GetDeviceQueue)(VkDevice, uint32_t, uint32_t, VkQueue *);
    VkResult (*CreateBuffer)(VkDevice, const VkBufferCreateInfo *, const void *, VkBuffer *);
    void (*DestroyBuffer)(VkDevice, VkBuffer, const void *);
    void (*GetBufferMemoryRequirements)(VkDevice, VkBuffer, VkMemoryRequirements *);
    VkResult (*AllocateMemory)(VkDevice, const VkMemoryAllocateInfo *, const void *,
                               VkDeviceMemory *);
    void (*FreeMemory)(VkDevice, VkDeviceMemory, const void *);
    VkResult (*BindBufferMemory)(VkDevice, VkBuffer, VkDeviceMemory, VkDeviceSize);
    VkResult (*MapMemory)(VkDevice, VkDeviceMemory, VkDeviceSize, VkDeviceSize, VkFlags, void **);
    void (*UnmapMemory)(VkDevice, VkDeviceMemory);
    VkResult (*GetMemoryFdKHR)(VkDevice, const VkMemoryGetFdInfoKHR *, int *);
    VkResult (*CreateCommandPool)(VkDevice, const VkCommandPoolCreateInfo *, const void *,
                                  VkCommandPool *);
    void (*DestroyCommandPool)(VkDevice, VkCommandPool, const void *);
    VkResult (*AllocateCommandBuffers)(VkDevice, const VkCommandBufferAllocateInfo *,
                                       VkCommandBuffer *);
    void (*FreeCommandBuffers)(VkDevice, VkCommandPool, uint32_t, const VkCommandBuffer *);
    VkResult (*BeginCommandBuffer)(VkCommandBuffer, const VkCommandBufferBeginInfo *);
    VkResult (*EndCommandBuffer)(VkCommandBuffer);
    void (*CmdFillBuffer)(VkCommandBuffer, VkBuffer, VkDeviceSize, VkDeviceSize, uint32_t);
    VkResult (*QueueSubmit)(VkQueue, uint32_t, const VkSubmitInfo *, VkFence);
    VkResult (*CreateFence)(VkDevice, const VkFenceCreateInfo *, const void *, VkFence *);
    void (*DestroyFence)(VkDevice, VkFence, const void *);
    VkResult (*WaitForFences)(VkDevice, uint32_t, const VkFence *, VkBool32, uint64_t);
    VkResult (*CreateSemaphore)(VkDevice, const VkSemaphoreCreateInfo *, const void *,
                                VkSemaphore *);
    void (*DestroySemaphore)(VkDevice, VkSemaphore, const void *);
    VkResult (*GetSemaphoreFdKHR)(VkDevice, const VkSemaphoreGetFdInfoKHR *, int *);
    // VK_KHR_timeline_semaphore (NULL without it)
    VkResult (*WaitSemaphoresKHR)(VkDevice, const VkSemaphoreWaitInfo *, uint64_t);
    VkResult (*SignalSemaphoreKHR)(VkDevice, const VkSemaphoreSignalInfo *);
    VkResult (*GetSemaphoreCounterValueKHR)(VkDevice, VkSemaphore, uint64_t *);
};

#endif
