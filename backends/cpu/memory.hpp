// Buffers are 64-byte aligned host memory: one cache line, and enough for the
// widest vector loads generated code may use.
#pragma once

#include <cstdint>

#include "porta/plugin.h"

struct porta_plugin_buffer_t {
  void* data;
  uint64_t size;
  bool owned = true;  // false: imported host memory, the caller's to free
};

namespace porta::cpu {

constexpr uint64_t kBufferAlignment = 64;
constexpr uint64_t kHugePageBytes = uint64_t(2) << 20;  // x86-64's and aarch64's usual huge page

porta_plugin_buffer buffer_create(uint64_t size);
void buffer_destroy(porta_plugin_buffer buffer);
// Host memory used in place (porta/interop.h): every buffer here is host memory.
porta_plugin_buffer buffer_import(const porta_native_memory& memory);
void buffer_native(const porta_plugin_buffer_t& buffer, porta_native_memory& memory);

}  // namespace porta::cpu
