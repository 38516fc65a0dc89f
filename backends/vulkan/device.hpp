// An open Vulkan device: the VkDevice, its compute queue (submissions
// serialised by a mutex, so streams of several threads share it), the memory
// types porta uses, and the "lost" state that makes every later call fail
// cleanly instead of waiting on a device that will never answer.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "instance.hpp"
#include "memory.hpp"

namespace porta::vk {

class Device {
 public:
  Device(const PhysicalDevice& physical, const porta_plugin_device_options& options);
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  const PhysicalDevice& physical;
  const std::string& label() const { return physical.label; }
  const VkPhysicalDeviceLimits& limits() const { return physical.properties.limits; }

  VkDevice handle = VK_NULL_HANDLE;
  DeviceFunctions fn;
  VkQueue queue = VK_NULL_HANDLE;
  bool timeline = false;
  bool push_descriptor = false;
  bool timestamps = false;
  // PORTA_VULKAN_PIPELINE_STATS=1 on a device with
  // VK_KHR_pipeline_executable_properties: each kernel's pipeline logs the
  // driver's statistics of it (registers, spills, ... as the driver names them).
  bool pipeline_stats = false;
  std::set<std::string> enabled_extensions;  // what kernels may use (capabilities.hpp)
  uint32_t device_memory_type = 0;
  uint32_t staging_memory_type = 0;
  bool device_memory_host_visible = false;  // UMA or resizable BAR: buffers are used through memcpy
  // And cached for the host (UMA): reads too. Uncached (a BAR) reads one bus
  // round trip per load, so reads go through staging the GPU writes instead.
  bool device_memory_host_cached = false;
  uint64_t block_size = 64ull << 20;
  // How long a wait polls before it blocks: the device's work runs on other
  // hardware (a GPU), so polling costs a host core and nothing else, while a
  // blocking wait adds the driver's interrupt and the thread's wake-up (a few
  // hundred microseconds on a virtual machine) to every step; on a CPU device
  // (lavapipe) polling would take cores from the work itself.
  std::chrono::microseconds spin_budget{0};
  uint64_t timeout_ns = 0;
  bool timeout_option = false;         // timeout_ns is porta/robust.h's limit, not PORTA_VULKAN_TIMEOUT_MS
  bool robust_buffer_access2 = false;  // a robust device with VK_EXT_robustness2's robustBufferAccess2
  // VK_EXT_external_memory_host's minImportedHostPointerAlignment; 0: host memory cannot be
  // imported (no extension, or PORTA_VULKAN_DISABLE=host-import).
  uint64_t host_import_alignment = 0;

  std::unique_ptr<MemoryPool> memory;
  std::unique_ptr<StagingPool> staging;

  // Throws the failure that `result` of `call` means; a lost device is remembered.
  void check(VkResult result, const char* call);
  // Throws DEVICE_LOST when the device was lost (or timed out) in an earlier call.
  void ensure_alive(const char* call) const;
  // Marks the device lost and throws DEVICE_LOST with `reason`.
  [[noreturn]] void lose(const std::string& reason);
  bool lost() const { return lost_.load(); }
  // Destroys an object now, or, once the device is lost (its work may still be running
  // after a timeout), when the device is closed and idle.
  void release(std::function<void()> destroy);

  // vkQueueSubmit under the queue's mutex.
  void submit(const VkSubmitInfo* submits, uint32_t count, VkFence fence, const char* call);
  // Wait with the configured timeout; a timeout marks the device lost.
  // `what` names the wait in a timeout's message, followed by the kernels it
  // waited for where `kernels` is given (that text is built only then).
  void wait_fence(VkFence fence, const char* what, const std::vector<std::string>* kernels = nullptr);
  void wait_timeline(VkSemaphore semaphore, uint64_t value, const char* what,
                     const std::vector<std::string>* kernels = nullptr);

 private:
  void choose_memory_types();
  std::string timeout_reason(const char* what, const std::vector<std::string>* kernels) const;
  std::mutex queue_mutex_;
  std::atomic<bool> lost_{false};
  mutable std::mutex lost_mutex_;
  std::string lost_reason_;
  std::mutex graveyard_mutex_;
  std::vector<std::function<void()>> graveyard_;
};

}  // namespace porta::vk
