#include "range_allocator.hpp"

namespace porta::vk {

RangeAllocator::RangeAllocator(uint64_t capacity) : capacity_(capacity) {
  if (capacity > 0) free_.emplace(0, capacity);
}

std::optional<uint64_t> RangeAllocator::allocate(uint64_t size, uint64_t alignment) {
  if (size == 0) size = 1;
  if (alignment == 0) alignment = 1;
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    const uint64_t start = it->first;
    const uint64_t length = it->second;
    const uint64_t aligned = (start + alignment - 1) & ~(alignment - 1);
    if (aligned < start || aligned - start > length || length - (aligned - start) < size) continue;
    const uint64_t head = aligned - start;
    const uint64_t tail = length - head - size;
    free_.erase(it);
    // The alignment gap before the range and the rest after it stay free.
    if (head > 0) free_.emplace(start, head);
    if (tail > 0) free_.emplace(aligned + size, tail);
    used_ += size;
    return aligned;
  }
  return std::nullopt;
}

void RangeAllocator::free(uint64_t offset, uint64_t size) {
  if (size == 0) size = 1;
  used_ -= size;
  auto next = free_.lower_bound(offset);
  if (next != free_.end() && offset + size == next->first) {
    size += next->second;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == offset) {
      prev->second += size;
      return;
    }
  }
  free_.emplace(offset, size);
}

}  // namespace porta::vk
