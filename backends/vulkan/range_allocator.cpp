#include "range_allocator.hpp"

namespace porta::vk {

RangeAllocator::RangeAllocator(uint64_t capacity) : capacity_(capacity) {
  if (capacity > 0) insert(0, capacity);
}

void RangeAllocator::insert(uint64_t offset, uint64_t size) {
  free_.emplace(offset, size);
  by_size_.emplace(size, offset);
}

void RangeAllocator::erase(std::map<uint64_t, uint64_t>::iterator it) {
  auto [first, last] = by_size_.equal_range(it->second);
  for (auto s = first; s != last; ++s) {
    if (s->second == it->first) {
      by_size_.erase(s);
      break;
    }
  }
  free_.erase(it);
}

std::optional<uint64_t> RangeAllocator::allocate(uint64_t size, uint64_t alignment) {
  if (size == 0) size = 1;
  if (alignment == 0) alignment = 1;
  // The smallest hole that fits; holes only a little larger than `size` may still
  // fail on alignment, so walk up until one fits (any of size + alignment - 1 does).
  for (auto s = by_size_.lower_bound(size); s != by_size_.end(); ++s) {
    const uint64_t start = s->second;
    const uint64_t length = s->first;
    const uint64_t aligned = (start + alignment - 1) & ~(alignment - 1);
    const uint64_t head = aligned - start;
    if (head > length || length - head < size) continue;
    const uint64_t tail = length - head - size;
    erase(free_.find(start));
    // The alignment gap before the range and the rest after it stay free.
    if (head > 0) insert(start, head);
    if (tail > 0) insert(aligned + size, tail);
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
    auto after = std::next(next);
    erase(next);
    next = after;
  }
  if (next != free_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == offset) {
      offset = prev->first;
      size += prev->second;
      erase(prev);
    }
  }
  insert(offset, size);
}

}  // namespace porta::vk
