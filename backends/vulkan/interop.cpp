#include "interop.hpp"

#include <unistd.h>

#include <memory>

#include "device.hpp"
#include "stream.hpp"

namespace porta::vk {

using plugin::fail;
using plugin::format;

namespace {

constexpr VkExternalMemoryHandleTypeFlagBits kHostAllocation =
    VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT;

// The memory type an import of `host` may use that the host sees coherently
// (porta reads and writes host-addressable buffers with memcpy, no flushes).
uint32_t host_import_type(Device& device, void* host, uint32_t buffer_types) {
  VkMemoryHostPointerPropertiesEXT props =
      make<VkMemoryHostPointerPropertiesEXT>(VK_STRUCTURE_TYPE_MEMORY_HOST_POINTER_PROPERTIES_EXT);
  device.check(device.fn.vkGetMemoryHostPointerPropertiesEXT(device.handle, kHostAllocation, host, &props),
               "vkGetMemoryHostPointerPropertiesEXT");
  const uint32_t allowed = props.memoryTypeBits & buffer_types;
  const VkMemoryPropertyFlags wanted =
      VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  const VkPhysicalDeviceMemoryProperties& mem = device.physical.memory;
  for (uint32_t t = 0; t < mem.memoryTypeCount; ++t)
    if ((allowed & (1u << t)) && (mem.memoryTypes[t].propertyFlags & wanted) == wanted) return t;
  fail(PORTA_ERROR_UNSUPPORTED,
       "vulkan: %s: host memory at %p: no host-coherent memory type can import it (types the pointer allows: "
       "0x%x, a storage buffer: 0x%x)",
       device.label().c_str(), host, props.memoryTypeBits, buffer_types);
}

}  // namespace

uint64_t host_import_alignment_of(const PhysicalDevice& p) {
  Instance& in = instance();
  if (!p.has(VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME) || in.is_disabled("host-import")) return 0;
  VkPhysicalDeviceExternalMemoryHostPropertiesEXT host =
      make<VkPhysicalDeviceExternalMemoryHostPropertiesEXT>(
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_MEMORY_HOST_PROPERTIES_EXT);
  VkPhysicalDeviceProperties2 props =
      make<VkPhysicalDeviceProperties2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2);
  props.pNext = &host;
  in.fn.vkGetPhysicalDeviceProperties2(p.handle, &props);
  return host.minImportedHostPointerAlignment;
}

Buffer* import_host_buffer(Device& device, const porta_native_memory& memory) {
  const char* dev = device.label().c_str();
  const uint64_t alignment = device.host_import_alignment;
  if (!alignment)
    fail(PORTA_ERROR_UNSUPPORTED,
         "vulkan: %s: host memory cannot be used in place: the device has no VK_EXT_external_memory_host%s",
         dev, instance().is_disabled("host-import") ? " (PORTA_VULKAN_DISABLE=host-import)" : "");
  const uintptr_t at = reinterpret_cast<uintptr_t>(memory.host_pointer);
  if (at % alignment)
    fail(PORTA_ERROR_UNSUPPORTED,
         "vulkan: %s: host memory at %p is not on the device's import alignment: VK_EXT_external_memory_host "
         "imports from a multiple of minImportedHostPointerAlignment = %llu bytes (allocate with "
         "aligned_alloc(%llu, ...) or mmap)",
         dev, memory.host_pointer, static_cast<unsigned long long>(alignment),
         static_cast<unsigned long long>(alignment));
  // Vulkan imports whole blocks of the alignment. The rest of the last block
  // is mapped memory when the block is at most a page (protection is by
  // page); beyond that, the caller's size must be whole blocks.
  const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  if (memory.bytes % alignment && alignment > page)
    fail(PORTA_ERROR_UNSUPPORTED,
         "vulkan: %s: %llu bytes of host memory: the device imports blocks of %llu bytes "
         "(minImportedHostPointerAlignment, above the page size %llu): the size must be a multiple of it",
         dev, static_cast<unsigned long long>(memory.bytes), static_cast<unsigned long long>(alignment),
         static_cast<unsigned long long>(page));
  const uint64_t span = (memory.bytes + alignment - 1) / alignment * alignment;

  auto buffer = std::make_unique<Buffer>();
  buffer->device = &device;
  buffer->size = memory.bytes;
  VkExternalMemoryBufferCreateInfo external =
      make<VkExternalMemoryBufferCreateInfo>(VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO);
  external.handleTypes = kHostAllocation;
  VkBufferCreateInfo info = make<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
  info.pNext = &external;
  info.size = memory.bytes;
  info.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
               VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  device.check(device.fn.vkCreateBuffer(device.handle, &info, nullptr, &buffer->handle), "vkCreateBuffer");
  try {
    VkMemoryRequirements req;
    device.fn.vkGetBufferMemoryRequirements(device.handle, buffer->handle, &req);
    if (req.size > span)
      fail(PORTA_ERROR_UNSUPPORTED,
           "vulkan: %s: a buffer of %llu bytes needs %llu bytes of memory, more than the %llu bytes of host "
           "memory imported",
           dev, static_cast<unsigned long long>(memory.bytes), static_cast<unsigned long long>(req.size),
           static_cast<unsigned long long>(span));
    VkImportMemoryHostPointerInfoEXT import =
        make<VkImportMemoryHostPointerInfoEXT>(VK_STRUCTURE_TYPE_IMPORT_MEMORY_HOST_POINTER_INFO_EXT);
    import.handleType = kHostAllocation;
    import.pHostPointer = memory.host_pointer;
    VkMemoryAllocateInfo alloc = make<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
    alloc.pNext = &import;
    alloc.allocationSize = span;
    alloc.memoryTypeIndex = host_import_type(device, memory.host_pointer, req.memoryTypeBits);
    device.check(device.fn.vkAllocateMemory(device.handle, &alloc, nullptr, &buffer->allocation.memory),
                 format("vkAllocateMemory (importing %llu bytes of host memory at %p)",
                        static_cast<unsigned long long>(span), memory.host_pointer)
                     .c_str());
    buffer->allocation.size = span;  // a dedicated allocation (block null), never mapped: freed, not unmapped
    VkResult r = device.fn.vkBindBufferMemory(device.handle, buffer->handle, buffer->allocation.memory, 0);
    if (r != VK_SUCCESS) {
      device.fn.vkFreeMemory(device.handle, buffer->allocation.memory, nullptr);
      device.check(r, "vkBindBufferMemory");
    }
  } catch (...) {
    device.fn.vkDestroyBuffer(device.handle, buffer->handle, nullptr);
    throw;
  }
  // The host reads and writes it directly (Stream::write/read's memcpy path).
  buffer->host = static_cast<uint8_t*>(memory.host_pointer);
  return buffer.release();
}

// ---- a framework's semaphores in a stream's order ----

namespace {

VkSemaphore semaphore_of(Device& device, const void* native_event, const char* call) {
  const auto* point = static_cast<const porta_vk_semaphore*>(native_event);
  if (point->struct_size < sizeof(porta_vk_semaphore))
    fail(PORTA_ERROR_INVALID_ARGUMENT,
         "vulkan: %s: %s: a Vulkan stream's native event is a porta_vk_semaphore* whose struct_size is "
         "sizeof(porta_vk_semaphore) = %zu; got %u",
         device.label().c_str(), call, sizeof(porta_vk_semaphore), point->struct_size);
  if (!point->semaphore)
    fail(PORTA_ERROR_INVALID_ARGUMENT, "vulkan: %s: %s: the porta_vk_semaphore's semaphore is null",
         device.label().c_str(), call);
  if (point->value && !device.timeline)
    fail(PORTA_ERROR_UNSUPPORTED,
         "vulkan: %s: %s: timeline value %llu given, but the device has no timeline semaphores (a binary "
         "semaphore takes value 0)",
         device.label().c_str(), call, static_cast<unsigned long long>(point->value));
  return reinterpret_cast<VkSemaphore>(point->semaphore);
}

}  // namespace

void Stream::wait_semaphore(const void* native_event) {
  const char* call = "stream_wait_native_event";
  device_.ensure_alive(call);
  const VkSemaphore semaphore = semaphore_of(device_, native_event, call);
  flush();  // what was queued before does not wait
  waits_.push_back(semaphore);
  wait_values_.push_back(static_cast<const porta_vk_semaphore*>(native_event)->value);
  wait_stages_.push_back(VK_PIPELINE_STAGE_ALL_COMMANDS_BIT);
  waited_.emplace_back(semaphore, wait_values_.back());
}

void Stream::release_native_waits() {
  std::string binary;
  for (const auto& [semaphore, value] : waited_) {
    const unsigned long long handle = reinterpret_cast<uint64_t>(semaphore);
    if (!value) {
      binary += format("%s0x%llx", binary.empty() ? "" : ", ", handle);
      continue;
    }
    uint64_t reached = 0;
    device_.check(device_.fn.vkGetSemaphoreCounterValue(device_.handle, semaphore, &reached),
                  "vkGetSemaphoreCounterValue");
    if (reached >= value) continue;
    // The semaphore is of porta's VkDevice, which is closing: the framework
    // can no longer signal it, and the queue cannot drain without it.
    VkSemaphoreSignalInfo signal = make<VkSemaphoreSignalInfo>(VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO);
    signal.semaphore = semaphore;
    signal.value = value;
    device_.check(device_.fn.vkSignalSemaphore(device_.handle, &signal), "vkSignalSemaphore");
    plugin::log(
        PORTA_LOG_WARN,
        format("vulkan: %s: the device is closing while a destroyed stream's work waits for a "
               "framework's timeline semaphore 0x%llx to reach %llu (it is at %llu): porta signalled it",
               device_.label().c_str(), handle, static_cast<unsigned long long>(value),
               static_cast<unsigned long long>(reached)));
  }
  if (!binary.empty())
    fail(PORTA_ERROR_UNSUPPORTED,
         "vulkan: %s: the work waits for a framework's binary semaphore (%s), which porta cannot signal: the "
         "host signals only timeline semaphores, and a queue's signal would come after the work that waits",
         device_.label().c_str(), binary.c_str());
}

void Stream::signal_semaphore(const void* native_event) {
  const char* call = "stream_signal_native_event";
  device_.ensure_alive(call);
  VkSemaphore semaphore = semaphore_of(device_, native_event, call);
  const uint64_t value = static_cast<const porta_vk_semaphore*>(native_event)->value;
  flush();  // the stream's work (and any waits) goes first; a signal covers all that came before it
  VkSubmitInfo info = make<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
  info.signalSemaphoreCount = 1;
  info.pSignalSemaphores = &semaphore;
  VkTimelineSemaphoreSubmitInfo values =
      make<VkTimelineSemaphoreSubmitInfo>(VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO);
  values.signalSemaphoreValueCount = 1;
  values.pSignalSemaphoreValues = &value;
  if (value) info.pNext = &values;
  device_.submit(&info, 1, VK_NULL_HANDLE, "vkQueueSubmit (signalling a framework's semaphore)");
}

void Stream::attach_waits(VkSubmitInfo& info, VkTimelineSemaphoreSubmitInfo& values) const {
  if (waits_.empty()) return;
  const uint32_t n = static_cast<uint32_t>(waits_.size());
  info.waitSemaphoreCount = n;
  info.pWaitSemaphores = waits_.data();
  info.pWaitDstStageMask = wait_stages_.data();
  values.waitSemaphoreValueCount = n;  // binary semaphores' values are ignored
  values.pWaitSemaphoreValues = wait_values_.data();
}

void Stream::clear_waits() {
  waits_.clear();
  wait_values_.clear();
  wait_stages_.clear();
}

}  // namespace porta::vk
