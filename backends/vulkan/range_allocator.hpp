// Best-fit free-list allocator of byte ranges inside one memory block. It
// knows nothing of Vulkan: the memory pool places buffers inside large
// VkDeviceMemory blocks with it, so small buffers do not each cost a driver
// allocation (drivers cap allocations at maxMemoryAllocationCount, often 4096).
#pragma once

#include <cstdint>
#include <map>
#include <optional>

namespace porta::vk {

class RangeAllocator {
 public:
  explicit RangeAllocator(uint64_t capacity);

  // Offset of `size` bytes aligned to `alignment` (a power of two), or nothing if no free range fits.
  std::optional<uint64_t> allocate(uint64_t size, uint64_t alignment);
  // Returns a range given by allocate(); neighbours are merged.
  void free(uint64_t offset, uint64_t size);

  uint64_t capacity() const { return capacity_; }
  uint64_t used() const { return used_; }
  bool empty() const { return used_ == 0; }

 private:
  uint64_t capacity_;
  uint64_t used_ = 0;
  void insert(uint64_t offset, uint64_t size);
  void erase(std::map<uint64_t, uint64_t>::iterator it);

  std::map<uint64_t, uint64_t> free_;          // offset -> size, never adjacent
  std::multimap<uint64_t, uint64_t> by_size_;  // size -> offset: best fit in O(log n) with many holes
};

}  // namespace porta::vk
