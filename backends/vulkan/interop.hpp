// Framework interop on Vulkan (porta/interop.h) beyond a framework's own
// VkBuffer (memory.cpp): host memory used in place through
// VK_EXT_external_memory_host. A framework's VkSemaphores are the stream's
// (Stream::wait_semaphore / signal_semaphore, in interop.cpp).
#pragma once

#include "memory.hpp"

namespace porta::vk {

struct PhysicalDevice;

// minImportedHostPointerAlignment where the device has VK_EXT_external_memory_host
// (and PORTA_VULKAN_DISABLE does not name "host-import"), else 0.
uint64_t host_import_alignment_of(const PhysicalDevice& physical);

// A buffer over the caller's host memory (the whole blocks of the import
// alignment that the range touches), used in place and never freed here.
// Throws UNSUPPORTED naming the extension or the alignment the device needs.
Buffer* import_host_buffer(Device& device, const porta_native_memory& memory);

}  // namespace porta::vk
