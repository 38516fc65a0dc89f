#include "device.hpp"

#include <algorithm>
#include <vector>

#include "../common/spin_wait.hpp"
#include "capabilities.hpp"
#include "interop.hpp"

namespace porta::vk {

using plugin::fail;
using plugin::format;

Device::Device(const PhysicalDevice& p, const porta_plugin_device_options& options) : physical(p) {
  Instance& in = instance();
  // porta/robust.h's limit, else PORTA_VULKAN_TIMEOUT_MS's (a minute by default).
  timeout_ns = options.timeout_ms ? options.timeout_ms * 1000ull * 1000ull : in.timeout_ns;
  timeout_option = options.timeout_ms != 0;
  timeline = p.timeline;
  push_descriptor = p.push_descriptor;
  timestamps = p.timestamp_valid_bits != 0;

  // Every extension a kernel may need that the device has (capabilities.cpp),
  // with every feature of the device: prepare_module then refuses exactly
  // what the device lacks.
  std::vector<const char*> extensions;
  if (push_descriptor) extensions.push_back(VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
  for (const char* optional : wanted_device_extensions())
    if (p.has(optional)) extensions.push_back(optional);
  if (p.has("VK_KHR_portability_subset")) extensions.push_back("VK_KHR_portability_subset");
  if (p.has(kMaintenance8Extension)) extensions.push_back(kMaintenance8Extension);
  const uint64_t host_alignment = host_import_alignment_of(p);
  if (host_alignment) extensions.push_back(VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME);
  enabled_extensions.insert(extensions.begin(), extensions.end());

  FeatureChain features(p);
  in.fn.vkGetPhysicalDeviceFeatures2(p.handle, &features.core);
  if (!timeline) features.v12.timelineSemaphore = VK_FALSE;
  if (!p.exact_remainders) features.maintenance8.maintenance8 = VK_FALSE;  // PORTA_VULKAN_DISABLE
  // Robust access costs speed: only on a robust device (porta/robust.h),
  // with robustness2's robustBufferAccess2 (reads out of bounds give 0, not
  // any value of the buffer) where the driver has it. Device creation changes
  // only then.
  features.core.features.robustBufferAccess = options.robust ? VK_TRUE : VK_FALSE;
  features.v13.robustImageAccess = VK_FALSE;
  VkPhysicalDeviceRobustness2FeaturesEXT robustness2{};
  robustness2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT;
  if (options.robust && p.has(VK_EXT_ROBUSTNESS_2_EXTENSION_NAME)) {
    VkPhysicalDeviceFeatures2 query =
        make<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
    query.pNext = &robustness2;
    in.fn.vkGetPhysicalDeviceFeatures2(p.handle, &query);
    robustness2.pNext = nullptr;
    robustness2.robustImageAccess2 = VK_FALSE;
    robustness2.nullDescriptor = VK_FALSE;
    if (robustness2.robustBufferAccess2) {
      extensions.push_back(VK_EXT_ROBUSTNESS_2_EXTENSION_NAME);
      enabled_extensions.insert(VK_EXT_ROBUSTNESS_2_EXTENSION_NAME);
      robustness2.pNext = features.core.pNext;
      features.core.pNext = &robustness2;
    }
  }
  robust_buffer_access2 = robustness2.robustBufferAccess2 == VK_TRUE && options.robust;
  // The driver's statistics of each pipeline, on request (a diagnostic).
  VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR executables{};
  executables.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR;
  if (in.pipeline_stats && p.has(VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME)) {
    extensions.push_back(VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
    enabled_extensions.insert(VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
    executables.pipelineExecutableInfo = VK_TRUE;
    executables.pNext = features.core.pNext;
    features.core.pNext = &executables;
  } else if (in.pipeline_stats) {
    plugin::log(PORTA_LOG_WARN, format("vulkan: %s: PORTA_VULKAN_PIPELINE_STATS=1, but the driver has no "
                                       "VK_KHR_pipeline_executable_properties: no pipeline statistics",
                                       p.properties.deviceName));
  }

  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info =
      make<VkDeviceQueueCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO);
  queue_info.queueFamilyIndex = p.queue_family;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;
  VkDeviceCreateInfo info = make<VkDeviceCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO);
  info.pNext = &features.core;
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &queue_info;
  info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();
  check(in.fn.vkCreateDevice(p.handle, &info, nullptr, &handle), "vkCreateDevice");

  auto load = [&](auto& fn, const char* name, bool required) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(in.fn.vkGetDeviceProcAddr(handle, name));
    if (!fn && required)
      fail(PORTA_ERROR_UNAVAILABLE, "vulkan: %s: the driver has no %s", label().c_str(), name);
  };
  try {
#define PORTA_VK_LOAD_DEVICE(name) load(fn.name, #name, true);
#define PORTA_VK_LOAD_OPTIONAL(name) load(fn.name, #name, false);
    PORTA_VK_DEVICE_FUNCTIONS(PORTA_VK_LOAD_DEVICE)
    PORTA_VK_OPTIONAL_DEVICE_FUNCTIONS(PORTA_VK_LOAD_OPTIONAL)
#undef PORTA_VK_LOAD_DEVICE
#undef PORTA_VK_LOAD_OPTIONAL
    if (timeline && (!fn.vkWaitSemaphores || !fn.vkGetSemaphoreCounterValue)) timeline = false;
    if (push_descriptor && !fn.vkCmdPushDescriptorSetKHR) push_descriptor = false;
    if (fn.vkGetMemoryHostPointerPropertiesEXT) host_import_alignment = host_alignment;
    pipeline_stats = executables.pipelineExecutableInfo && fn.vkGetPipelineExecutablePropertiesKHR &&
                     fn.vkGetPipelineExecutableStatisticsKHR;
    fn.vkGetDeviceQueue(handle, p.queue_family, 0, &queue);
    choose_memory_types();
  } catch (...) {
    auto destroy =
        reinterpret_cast<PFN_vkDestroyDevice>(in.fn.vkGetDeviceProcAddr(handle, "vkDestroyDevice"));
    if (destroy) destroy(handle, nullptr);
    throw;
  }
  memory = std::make_unique<MemoryPool>(*this);
  staging = std::make_unique<StagingPool>(*this);
  spin_budget =
      p.properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU ? plugin::kSpinBudget : plugin::kGpuSpinBudget;
  plugin::log(PORTA_LOG_INFO,
              format("vulkan: opened %s: queue family %u, memory type %u for buffers%s, %s, %s",
                     label().c_str(), p.queue_family, device_memory_type,
                     !device_memory_host_visible ? ""
                     : device_memory_host_cached ? " (host-visible: no staging)"
                                                 : " (host-visible, uncached: reads staged)",
                     timeline ? "timeline semaphores" : "fences",
                     push_descriptor ? "push descriptors" : "descriptor pools"));
}

Device::~Device() {
  // A lost device answers at once; a live one finishes its work before its objects go.
  fn.vkDeviceWaitIdle(handle);
  for (auto& destroy : graveyard_) destroy();
  graveyard_.clear();
  staging.reset();
  memory.reset();
  fn.vkDestroyDevice(handle, nullptr);
}

void Device::choose_memory_types() {
  const VkPhysicalDeviceMemoryProperties& mem = physical.memory;
  const bool allow_uma = !instance().is_disabled("uma");
  auto heap_of = [&](uint32_t t) { return mem.memoryHeaps[mem.memoryTypes[t].heapIndex]; };
  uint64_t largest_local = 0;
  for (uint32_t i = 0; i < mem.memoryHeapCount; ++i)
    if (mem.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
      largest_local = std::max<uint64_t>(largest_local, mem.memoryHeaps[i].size);

  int device_type = -1, host_visible_local = -1, staging_type = -1, staging_cached = -1;
  const VkMemoryPropertyFlags host_bits =
      VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  for (uint32_t i = 0; i < mem.memoryTypeCount; ++i) {
    const VkMemoryPropertyFlags f = mem.memoryTypes[i].propertyFlags;
    // Protected or lazily allocated memory cannot back storage buffers the host fills.
    if (f & (VK_MEMORY_PROPERTY_PROTECTED_BIT | VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT)) continue;
    const bool local = f & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
    const bool host = (f & host_bits) == host_bits;
    if (local && device_type < 0) device_type = static_cast<int>(i);
    // Host-visible device memory is used directly only when it is all of device memory
    // (UMA, resizable BAR), not the 256 MiB BAR window of a discrete GPU.
    if (local && host && host_visible_local < 0 && heap_of(i).size >= largest_local)
      host_visible_local = static_cast<int>(i);
    if (host && staging_type < 0) staging_type = static_cast<int>(i);
    if (host && (f & VK_MEMORY_PROPERTY_HOST_CACHED_BIT) && staging_cached < 0)
      staging_cached = static_cast<int>(i);
  }
  if (device_type < 0) device_type = staging_type;  // a driver without device-local memory
  if (device_type < 0 || staging_type < 0)
    fail(PORTA_ERROR_UNSUPPORTED, "vulkan: %s: no host-visible coherent memory type", label().c_str());
  if (allow_uma && host_visible_local >= 0) {
    device_type = host_visible_local;
    device_memory_host_visible = true;
    device_memory_host_cached =
        mem.memoryTypes[device_type].propertyFlags & VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
  }
  device_memory_type = static_cast<uint32_t>(device_type);
  // Cached memory makes reads back to the host fast; writes are fine either way.
  staging_memory_type = static_cast<uint32_t>(staging_cached >= 0 ? staging_cached : staging_type);
  // Small heaps (integrated GPUs with a little carve-out) get smaller blocks.
  block_size =
      std::min<uint64_t>(64ull << 20, std::max<uint64_t>(heap_of(device_memory_type).size / 16, 1ull << 20));
}

void Device::release(std::function<void()> destroy) {
  if (!lost()) return destroy();
  std::lock_guard<std::mutex> lock(graveyard_mutex_);
  graveyard_.push_back(std::move(destroy));
}

void Device::check(VkResult result, const char* call) {
  if (result == VK_SUCCESS) return;
  if (result == VK_ERROR_DEVICE_LOST) lose(format("%s: VK_ERROR_DEVICE_LOST", call));
  vk::check(result, label(), call);
}

void Device::ensure_alive(const char* call) const {
  if (!lost_.load()) return;
  std::lock_guard<std::mutex> lock(lost_mutex_);
  fail(PORTA_ERROR_DEVICE_LOST, "vulkan: %s: %s: the device was lost earlier (%s)", label().c_str(), call,
       lost_reason_.c_str());
}

void Device::lose(const std::string& reason) {
  {
    std::lock_guard<std::mutex> lock(lost_mutex_);
    if (!lost_.load()) lost_reason_ = reason;
    lost_.store(true);
  }
  plugin::log(PORTA_LOG_ERROR, format("vulkan: %s: device lost: %s", label().c_str(), reason.c_str()));
  fail(PORTA_ERROR_DEVICE_LOST, "vulkan: %s: %s", label().c_str(), reason.c_str());
}

void Device::submit(const VkSubmitInfo* submits, uint32_t count, VkFence fence, const char* call) {
  VkResult r;
  {
    std::lock_guard<std::mutex> lock(queue_mutex_);
    r = fn.vkQueueSubmit(queue, count, submits, fence);
  }
  check(r, call);
}

std::string Device::timeout_reason(const char* what_call, const std::vector<std::string>* kernels) const {
  const std::string what =
      kernels ? std::string(what_call) + " (waiting for " + plugin::kernels_phrase(*kernels) + ")"
              : what_call;
  // Vulkan cannot stop a running dispatch: the device is lost to porta.
  return format(
      "%s did not finish within %.3f s (%s); Vulkan cannot stop a running kernel, so the device is lost",
      what.c_str(), static_cast<double>(timeout_ns) / 1e9,
      timeout_option ? "PORTA_TIMEOUT" : "PORTA_VULKAN_TIMEOUT_MS");
}

void Device::wait_fence(VkFence fence, const char* what, const std::vector<std::string>* kernels) {
  VkResult r = VK_SUCCESS;
  plugin::spin_then_block(
      [&] {
        r = fn.vkGetFenceStatus(handle, fence);
        return r != VK_NOT_READY;
      },
      [&] { r = fn.vkWaitForFences(handle, 1, &fence, VK_TRUE, timeout_ns); }, spin_budget);
  if (r == VK_TIMEOUT) lose(timeout_reason(what, kernels));
  check(r, "vkWaitForFences");
}

void Device::wait_timeline(VkSemaphore semaphore, uint64_t value, const char* what,
                           const std::vector<std::string>* kernels) {
  VkSemaphoreWaitInfo info = make<VkSemaphoreWaitInfo>(VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO);
  info.semaphoreCount = 1;
  info.pSemaphores = &semaphore;
  info.pValues = &value;
  VkResult r = VK_SUCCESS;
  plugin::spin_then_block(
      [&] {
        uint64_t reached = 0;
        r = fn.vkGetSemaphoreCounterValue(handle, semaphore, &reached);
        return r != VK_SUCCESS || reached >= value;
      },
      [&] { r = fn.vkWaitSemaphores(handle, &info, timeout_ns); }, spin_budget);
  if (r == VK_TIMEOUT) lose(timeout_reason(what, kernels));
  check(r, "vkWaitSemaphores");
}

}  // namespace porta::vk
