// Device memory: buffers placed inside large VkDeviceMemory blocks (one driver
// allocation serves many small buffers), dedicated allocations for large ones,
// and a pool of host-visible staging chunks that transfers reuse.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "range_allocator.hpp"
#include "vulkan_api.hpp"

namespace porta::vk {

class Device;

enum class MemoryKind {
  kDevice,   // storage buffers of kernels
  kStaging,  // host-visible, coherent: transfers between host and device buffers
};

struct MemoryBlock {
  VkDeviceMemory memory = VK_NULL_HANDLE;
  uint32_t type = 0;
  void* mapped = nullptr;  // whole block mapped persistently when host-visible
  RangeAllocator ranges;
  explicit MemoryBlock(uint64_t size) : ranges(size) {}
};

struct Allocation {
  VkDeviceMemory memory = VK_NULL_HANDLE;
  uint64_t offset = 0;
  uint64_t size = 0;
  void* mapped = nullptr;
  MemoryBlock* block = nullptr;  // null: a dedicated allocation
};

class MemoryPool {
 public:
  explicit MemoryPool(Device& device) : device_(device) {}
  ~MemoryPool();
  MemoryPool(const MemoryPool&) = delete;
  MemoryPool& operator=(const MemoryPool&) = delete;

  Allocation allocate(const VkMemoryRequirements& requirements, uint32_t type, bool host_visible);
  void free(const Allocation& allocation);

 private:
  Allocation allocate_dedicated(uint64_t size, uint32_t type, bool host_visible);
  Device& device_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<MemoryBlock>> blocks_;
};

struct Buffer {
  Device* device = nullptr;
  VkBuffer handle = VK_NULL_HANDLE;
  uint64_t size = 0;
  Allocation allocation;
  // Where the host reads and writes the buffer directly (device-local memory that is
  // also host-visible: UMA drivers, resizable BAR, and every staging buffer), else null.
  uint8_t* host = nullptr;
  bool foreign = false;  // a framework's VkBuffer and memory (import_buffer): never destroyed or freed here
};

// Throws Failure: OUT_OF_MEMORY (naming the limit) when `size` exceeds what the device allows.
Buffer* create_buffer(Device& device, uint64_t size, MemoryKind kind);
void destroy_buffer(Buffer* buffer);
// A framework's VkBuffer bound to its VkDeviceMemory (porta/interop.h), used
// as it is; other kinds of memory are refused, naming what the backend takes.
Buffer* import_buffer(Device& device, const porta_native_memory& memory);
// The VkBuffer and memory behind a buffer (host_pointer where persistently mapped).
void describe_buffer(const Buffer& buffer, porta_native_memory& memory);

// Host-visible chunks of a fixed size that streams borrow for transfers and give back once
// the transfer has completed, so a 256 MiB copy goes through a few MiB of staging.
class StagingPool {
 public:
  static constexpr uint64_t kChunkSize = 16ull << 20;
  static constexpr size_t kKeepFree = 8;  // chunks kept for reuse; more are released

  explicit StagingPool(Device& device) : device_(device) {}
  ~StagingPool();
  StagingPool(const StagingPool&) = delete;
  StagingPool& operator=(const StagingPool&) = delete;

  Buffer* acquire();
  void release(Buffer* chunk);

 private:
  Device& device_;
  std::mutex mutex_;
  std::vector<Buffer*> free_;
};

}  // namespace porta::vk
