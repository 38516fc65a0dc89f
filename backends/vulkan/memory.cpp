#include "memory.hpp"

#include <algorithm>

#include "device.hpp"

namespace porta::vk {

using plugin::fail;
using plugin::format;

namespace {

std::string bytes(uint64_t n) {
  if (n >= (1ull << 30))
    return format("%llu bytes (%.2f GiB)", static_cast<unsigned long long>(n), n / 1073741824.0);
  if (n >= (1ull << 20))
    return format("%llu bytes (%.1f MiB)", static_cast<unsigned long long>(n), n / 1048576.0);
  return format("%llu bytes", static_cast<unsigned long long>(n));
}

}  // namespace

MemoryPool::~MemoryPool() {
  for (auto& block : blocks_) {
    if (block->mapped) device_.fn.vkUnmapMemory(device_.handle, block->memory);
    device_.fn.vkFreeMemory(device_.handle, block->memory, nullptr);
  }
}

Allocation MemoryPool::allocate_dedicated(uint64_t size, uint32_t type, bool host_visible) {
  VkMemoryAllocateInfo info = make<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
  info.allocationSize = size;
  info.memoryTypeIndex = type;
  Allocation a;
  a.size = size;
  device_.check(device_.fn.vkAllocateMemory(device_.handle, &info, nullptr, &a.memory),
                format("vkAllocateMemory of %s", bytes(size).c_str()).c_str());
  if (host_visible) {
    VkResult r = device_.fn.vkMapMemory(device_.handle, a.memory, 0, VK_WHOLE_SIZE, 0, &a.mapped);
    if (r != VK_SUCCESS) {
      device_.fn.vkFreeMemory(device_.handle, a.memory, nullptr);
      device_.check(r, "vkMapMemory");
    }
  }
  return a;
}

Allocation MemoryPool::allocate(const VkMemoryRequirements& req, uint32_t type, bool host_visible) {
  if (!(req.memoryTypeBits & (1u << type)))
    fail(PORTA_ERROR_BACKEND, "vulkan: %s: buffers cannot live in memory type %u (allowed types 0x%x)",
         device_.label().c_str(), type, req.memoryTypeBits);
  // Large buffers get their own allocation: placing them in blocks would waste
  // the blocks' tails and keep big blocks alive.
  if (req.size > device_.block_size / 2) return allocate_dedicated(req.size, type, host_visible);

  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& block : blocks_) {
    // Staging and device buffers may share a memory type but not a block: only staging blocks are mapped.
    if (block->type != type || (block->mapped != nullptr) != host_visible) continue;
    if (auto offset = block->ranges.allocate(req.size, req.alignment)) {
      Allocation a;
      a.memory = block->memory;
      a.offset = *offset;
      a.size = req.size;
      a.block = block.get();
      a.mapped = block->mapped ? static_cast<uint8_t*>(block->mapped) + *offset : nullptr;
      return a;
    }
  }
  Allocation whole = allocate_dedicated(device_.block_size, type, host_visible);
  auto block = std::make_unique<MemoryBlock>(device_.block_size);
  block->memory = whole.memory;
  block->type = type;
  block->mapped = whole.mapped;
  auto offset = block->ranges.allocate(req.size, req.alignment);
  Allocation a;
  a.memory = block->memory;
  a.offset = *offset;  // a fresh block always fits a request of at most half its size
  a.size = req.size;
  a.block = block.get();
  a.mapped = block->mapped ? static_cast<uint8_t*>(block->mapped) + *offset : nullptr;
  blocks_.push_back(std::move(block));
  return a;
}

void MemoryPool::free(const Allocation& a) {
  if (!a.block) {
    if (a.mapped) device_.fn.vkUnmapMemory(device_.handle, a.memory);
    device_.fn.vkFreeMemory(device_.handle, a.memory, nullptr);
    return;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  a.block->ranges.free(a.offset, a.size);
  if (!a.block->ranges.empty()) return;
  // Keep one empty block of each type so alternating create/destroy does not thrash
  // the driver; release the others.
  const bool another_empty = std::any_of(blocks_.begin(), blocks_.end(), [&](const auto& b) {
    return b.get() != a.block && b->type == a.block->type &&
           (b->mapped == nullptr) == (a.block->mapped == nullptr) && b->ranges.empty();
  });
  if (!another_empty) return;
  auto it = std::find_if(blocks_.begin(), blocks_.end(), [&](const auto& b) { return b.get() == a.block; });
  if ((*it)->mapped) device_.fn.vkUnmapMemory(device_.handle, (*it)->memory);
  device_.fn.vkFreeMemory(device_.handle, (*it)->memory, nullptr);
  blocks_.erase(it);
}

Buffer* create_buffer(Device& device, uint64_t size, MemoryKind kind) {
  const bool staging = kind == MemoryKind::kStaging;
  const uint32_t type = staging ? device.staging_memory_type : device.device_memory_type;
  const bool host_visible = staging || device.device_memory_host_visible;
  const PhysicalDevice& p = device.physical;
  const VkMemoryHeap& heap = p.memory.memoryHeaps[p.memory.memoryTypes[type].heapIndex];
  const char* what = staging ? "staging buffer" : "buffer";
  // Refuse what the driver would refuse (or crash on) with the limit named.
  if (size > heap.size)
    fail(PORTA_ERROR_OUT_OF_MEMORY, "vulkan: %s: %s of %s is larger than its memory heap %u (%s)",
         device.label().c_str(), what, bytes(size).c_str(), p.memory.memoryTypes[type].heapIndex,
         bytes(heap.size).c_str());
  if (size > p.max_allocation)
    fail(PORTA_ERROR_OUT_OF_MEMORY, "vulkan: %s: %s of %s exceeds maxMemoryAllocationSize (%s)",
         device.label().c_str(), what, bytes(size).c_str(), bytes(p.max_allocation).c_str());
  if (size > p.max_buffer)
    fail(PORTA_ERROR_UNSUPPORTED, "vulkan: %s: %s of %s exceeds maxBufferSize (%s)", device.label().c_str(),
         what, bytes(size).c_str(), bytes(p.max_buffer).c_str());

  auto buffer = std::make_unique<Buffer>();
  buffer->device = &device;
  buffer->size = size;
  VkBufferCreateInfo info = make<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
  info.size = size;
  // Any buffer may be handed to a kernel as a storage or a uniform block.
  info.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
               (staging ? 0 : VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  device.check(device.fn.vkCreateBuffer(device.handle, &info, nullptr, &buffer->handle), "vkCreateBuffer");
  try {
    VkMemoryRequirements req;
    device.fn.vkGetBufferMemoryRequirements(device.handle, buffer->handle, &req);
    buffer->allocation = device.memory->allocate(req, type, host_visible);
    VkResult r = device.fn.vkBindBufferMemory(device.handle, buffer->handle, buffer->allocation.memory,
                                              buffer->allocation.offset);
    if (r != VK_SUCCESS) {
      device.memory->free(buffer->allocation);
      device.check(r, "vkBindBufferMemory");
    }
  } catch (...) {
    device.fn.vkDestroyBuffer(device.handle, buffer->handle, nullptr);
    throw;
  }
  buffer->host = static_cast<uint8_t*>(buffer->allocation.mapped);
  return buffer.release();
}

void destroy_buffer(Buffer* buffer) {
  if (!buffer) return;
  if (buffer->foreign) {
    delete buffer;
    return;
  }
  Device& device = *buffer->device;
  device.fn.vkDestroyBuffer(device.handle, buffer->handle, nullptr);
  device.memory->free(buffer->allocation);
  delete buffer;
}

Buffer* import_buffer(Device& device, const porta_native_memory& memory) {
  // Host memory is import_host_buffer's (interop.cpp).
  if (memory.kind != PORTA_NATIVE_MEMORY_VK_BUFFER)
    fail(
        PORTA_ERROR_UNSUPPORTED,
        "vulkan: %s: the vulkan backend imports a VkBuffer with its VkDeviceMemory, or host memory, not CUDA "
        "or OpenCL memory",
        device.label().c_str());
  // The buffer must be made on porta's VkDevice (porta_device_native): Vulkan
  // cannot tell a handle of another device apart without undefined behaviour,
  // so what it can check is the size the buffer itself needs.
  VkMemoryRequirements req;
  device.fn.vkGetBufferMemoryRequirements(device.handle, reinterpret_cast<VkBuffer>(memory.vk_buffer), &req);
  if (memory.bytes > req.size)
    fail(PORTA_ERROR_INVALID_ARGUMENT, "vulkan: %s: %s of a VkBuffer of %s", device.label().c_str(),
         bytes(memory.bytes).c_str(), bytes(req.size).c_str());
  auto buffer = std::make_unique<Buffer>();
  buffer->device = &device;
  buffer->handle = reinterpret_cast<VkBuffer>(memory.vk_buffer);
  buffer->size = memory.bytes;
  buffer->allocation.memory = reinterpret_cast<VkDeviceMemory>(memory.vk_memory);
  buffer->allocation.offset = memory.vk_memory_offset;
  buffer->allocation.size = memory.bytes;
  buffer->foreign = true;
  return buffer.release();
}

void describe_buffer(const Buffer& buffer, porta_native_memory& memory) {
  memory.kind = PORTA_NATIVE_MEMORY_VK_BUFFER;
  memory.vk_buffer = reinterpret_cast<uint64_t>(buffer.handle);
  memory.vk_memory = reinterpret_cast<uint64_t>(buffer.allocation.memory);
  memory.vk_memory_offset = buffer.allocation.offset;
  memory.bytes = buffer.size;
  memory.host_pointer = buffer.host;
}

StagingPool::~StagingPool() {
  for (Buffer* chunk : free_) destroy_buffer(chunk);
}

Buffer* StagingPool::acquire() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!free_.empty()) {
      Buffer* chunk = free_.back();
      free_.pop_back();
      return chunk;
    }
  }
  return create_buffer(device_, kChunkSize, MemoryKind::kStaging);
}

void StagingPool::release(Buffer* chunk) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (free_.size() < kKeepFree) {
      free_.push_back(chunk);
      return;
    }
  }
  destroy_buffer(chunk);
}

}  // namespace porta::vk
