#include "memory.hpp"

#include <cstdlib>
#include <memory>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "device.hpp"

namespace porta::cpu {

porta_plugin_buffer buffer_create(uint64_t size) {
  // Buffers of a huge page or more start on one and ask for huge pages
  // (where transparent huge pages are on "madvise"): a kernel streaming
  // through hundreds of MiB then walks a 2 MiB page per 512 of 4 KiB, and
  // takes a TLB miss per 2 MiB rather than per 4 KiB.
  const uint64_t alignment = size >= kHugePageBytes ? kHugePageBytes : kBufferAlignment;
  // aligned_alloc wants a multiple of the alignment; the tail is never read.
  uint64_t rounded = (size + alignment - 1) / alignment * alignment;
  auto buffer = std::make_unique<porta_plugin_buffer_t>(porta_plugin_buffer_t{nullptr, size});
  if (rounded >= size && rounded <= SIZE_MAX) buffer->data = std::aligned_alloc(alignment, rounded);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (buffer->data && alignment == kHugePageBytes) madvise(buffer->data, rounded, MADV_HUGEPAGE);  // advice only
#endif
  if (!buffer->data) {
    plugin::fail(PORTA_ERROR_OUT_OF_MEMORY, "%s: cannot allocate %llu bytes of host memory",
                 where("buffer_create").c_str(), static_cast<unsigned long long>(size));
  }
  return buffer.release();
}

void buffer_destroy(porta_plugin_buffer buffer) {
  if (!buffer) return;
  if (buffer->owned) std::free(buffer->data);
  delete buffer;
}

porta_plugin_buffer buffer_import(const porta_native_memory& memory) {
  if (memory.kind != PORTA_NATIVE_MEMORY_HOST)
    plugin::fail(PORTA_ERROR_UNSUPPORTED,
                 "%s: the cpu backend imports host memory only, not native GPU memory",
                 where("buffer_import").c_str());
  return new porta_plugin_buffer_t{memory.host_pointer, memory.bytes, false};
}

void buffer_native(const porta_plugin_buffer_t& buffer, porta_native_memory& memory) {
  memory.kind = PORTA_NATIVE_MEMORY_HOST;
  memory.host_pointer = buffer.data;
  memory.bytes = buffer.size;
}

}  // namespace porta::cpu
