// The Vulkan entry points the plugin uses, loaded at run time from the loader
// (libvulkan.so.1) so that libporta-vulkan.so links nothing of Vulkan's.
// Global and instance functions come from vkGetInstanceProcAddr, device
// functions from vkGetDeviceProcAddr (one table per VkDevice, which skips the
// loader's trampolines).
#pragma once

#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>

#include <cstdint>
#include <string>

#include "plugin_support.hpp"

namespace porta::vk {

#define PORTA_VK_GLOBAL_FUNCTIONS(X)        \
  X(vkCreateInstance)                       \
  X(vkEnumerateInstanceExtensionProperties) \
  X(vkEnumerateInstanceLayerProperties)

#define PORTA_VK_INSTANCE_FUNCTIONS(X)        \
  X(vkDestroyInstance)                        \
  X(vkEnumeratePhysicalDevices)               \
  X(vkGetPhysicalDeviceProperties)            \
  X(vkGetPhysicalDeviceProperties2)           \
  X(vkGetPhysicalDeviceFeatures2)             \
  X(vkGetPhysicalDeviceMemoryProperties)      \
  X(vkGetPhysicalDeviceQueueFamilyProperties) \
  X(vkEnumerateDeviceExtensionProperties)     \
  X(vkCreateDevice)                           \
  X(vkGetDeviceProcAddr)

#define PORTA_VK_DEVICE_FUNCTIONS(X) \
  X(vkDestroyDevice)                 \
  X(vkGetDeviceQueue)                \
  X(vkDeviceWaitIdle)                \
  X(vkQueueSubmit)                   \
  X(vkQueueWaitIdle)                 \
  X(vkCreateBuffer)                  \
  X(vkDestroyBuffer)                 \
  X(vkGetBufferMemoryRequirements)   \
  X(vkAllocateMemory)                \
  X(vkFreeMemory)                    \
  X(vkMapMemory)                     \
  X(vkUnmapMemory)                   \
  X(vkBindBufferMemory)              \
  X(vkCreateShaderModule)            \
  X(vkDestroyShaderModule)           \
  X(vkCreateDescriptorSetLayout)     \
  X(vkDestroyDescriptorSetLayout)    \
  X(vkCreatePipelineLayout)          \
  X(vkDestroyPipelineLayout)         \
  X(vkCreatePipelineCache)           \
  X(vkDestroyPipelineCache)          \
  X(vkGetPipelineCacheData)          \
  X(vkCreateComputePipelines)        \
  X(vkDestroyPipeline)               \
  X(vkCreateDescriptorPool)          \
  X(vkDestroyDescriptorPool)         \
  X(vkResetDescriptorPool)           \
  X(vkAllocateDescriptorSets)        \
  X(vkUpdateDescriptorSets)          \
  X(vkCreateCommandPool)             \
  X(vkDestroyCommandPool)            \
  X(vkAllocateCommandBuffers)        \
  X(vkFreeCommandBuffers)            \
  X(vkResetCommandBuffer)            \
  X(vkBeginCommandBuffer)            \
  X(vkEndCommandBuffer)              \
  X(vkCmdBindPipeline)               \
  X(vkCmdBindDescriptorSets)         \
  X(vkCmdPushConstants)              \
  X(vkCmdDispatch)                   \
  X(vkCmdCopyBuffer)                 \
  X(vkCmdFillBuffer)                 \
  X(vkCmdUpdateBuffer)               \
  X(vkCmdPipelineBarrier)            \
  X(vkCmdResetQueryPool)             \
  X(vkCmdWriteTimestamp)             \
  X(vkCreateQueryPool)               \
  X(vkDestroyQueryPool)              \
  X(vkGetQueryPoolResults)           \
  X(vkCreateFence)                   \
  X(vkDestroyFence)                  \
  X(vkResetFences)                   \
  X(vkWaitForFences)                 \
  X(vkGetFenceStatus)                \
  X(vkCreateSemaphore)               \
  X(vkDestroySemaphore)

// Present only when the device has the feature or extension; checked before use.
#define PORTA_VK_OPTIONAL_DEVICE_FUNCTIONS(X) \
  X(vkWaitSemaphores)                         \
  X(vkGetSemaphoreCounterValue)               \
  X(vkSignalSemaphore)                        \
  X(vkCmdPushDescriptorSetKHR)                \
  X(vkGetMemoryHostPointerPropertiesEXT)      \
  X(vkGetPipelineExecutablePropertiesKHR)     \
  X(vkGetPipelineExecutableStatisticsKHR)

#define PORTA_VK_DECLARE(name) PFN_##name name = nullptr;

struct GlobalFunctions {
  PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr = nullptr;
  PFN_vkEnumerateInstanceVersion vkEnumerateInstanceVersion = nullptr;  // absent in Vulkan 1.0 loaders
  PORTA_VK_GLOBAL_FUNCTIONS(PORTA_VK_DECLARE)
};

struct InstanceFunctions {
  PORTA_VK_INSTANCE_FUNCTIONS(PORTA_VK_DECLARE)
  PFN_vkCreateDebugUtilsMessengerEXT vkCreateDebugUtilsMessengerEXT = nullptr;
  PFN_vkDestroyDebugUtilsMessengerEXT vkDestroyDebugUtilsMessengerEXT = nullptr;
};

struct DeviceFunctions {
  PORTA_VK_DEVICE_FUNCTIONS(PORTA_VK_DECLARE)
  PORTA_VK_OPTIONAL_DEVICE_FUNCTIONS(PORTA_VK_DECLARE)
};

// A zeroed Vulkan structure with its sType set.
template <class T>
T make(VkStructureType type) {
  T value{};
  value.sType = type;
  return value;
}

// "VK_ERROR_OUT_OF_DEVICE_MEMORY" etc.
const char* result_name(VkResult result);

// The porta status a VkResult stands for.
porta_status result_status(VkResult result);

// Throws Failure(result_status(r)) with "vulkan: <device>: <call>: <VkResult name>" unless r is
// VK_SUCCESS. `device` may be empty for instance-level calls.
void check(VkResult result, const std::string& device, const char* call);

// The Vulkan version as "1.3.230".
std::string version_string(uint32_t version);

}  // namespace porta::vk
