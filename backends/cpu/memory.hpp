// Buffers are 64-byte aligned host memory: one cache line, and enough for the
// widest vector loads generated code may use.
#pragma once

#include <cstdint>

#include "porta/plugin.h"

struct porta_plugin_buffer_t {
  void* data;
  uint64_t size;
};

namespace porta::cpu {

constexpr uint64_t kBufferAlignment = 64;

porta_plugin_buffer buffer_create(uint64_t size);
void buffer_destroy(porta_plugin_buffer buffer);

}  // namespace porta::cpu
