#include "memory.hpp"

#include <cstdlib>
#include <memory>

#include "device.hpp"

namespace porta::cpu {

porta_plugin_buffer buffer_create(uint64_t size) {
  // aligned_alloc wants a multiple of the alignment; the tail is never read.
  uint64_t rounded = (size + kBufferAlignment - 1) / kBufferAlignment * kBufferAlignment;
  auto buffer = std::make_unique<porta_plugin_buffer_t>(porta_plugin_buffer_t{nullptr, size});
  if (rounded >= size && rounded <= SIZE_MAX) buffer->data = std::aligned_alloc(kBufferAlignment, rounded);
  if (!buffer->data) {
    plugin::fail(PORTA_ERROR_OUT_OF_MEMORY, "%s: cannot allocate %llu bytes of host memory",
                 where("buffer_create").c_str(), static_cast<unsigned long long>(size));
  }
  return buffer.release();
}

void buffer_destroy(porta_plugin_buffer buffer) {
  if (!buffer) return;
  std::free(buffer->data);
  delete buffer;
}

}  // namespace porta::cpu
