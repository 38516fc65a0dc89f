// Buffers over foreign memory (porta/interop.h), as the rest of the core needs them.
#pragma once

#include <functional>
#include <memory>

#include "handles.hpp"

namespace porta::core {

// A buffer over `memory` on `device`, checked (kind, size, alignment, the
// plugin's support) and named after `call` in refusals. `release` runs once
// the plugin buffer is gone; on failure it does not run.
std::shared_ptr<BufferState> import_memory(const DeviceRef& device, const porta_native_memory& memory,
                                           const char* call, std::function<void()> release);

// A buffer of `size` bytes from the device's allocator hook, or null when the
// device has none (porta_device_set_allocator).
std::shared_ptr<BufferState> allocate_with_hook(const DeviceRef& device, uint64_t size);

}  // namespace porta::core
