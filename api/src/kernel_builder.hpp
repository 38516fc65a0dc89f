// From GLSL or SPIR-V to a plugin kernel for one device.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "handles.hpp"
#include "porta/porta.h"

namespace porta::core {

// The largest kernel source porta takes: far above any real kernel, so a larger
// size is a wrong length, which copying would turn into an unclear failure or
// a read far past the caller's memory.
constexpr uint64_t kMaxKernelSourceBytes = uint64_t{1} << 30;

// The checks every kernel entry point makes before it reads a source of
// `count` units of `unit` bytes: not null, not empty (unless `may_be_empty`),
// at most kMaxKernelSourceBytes, and an array for spec_count constants. The
// messages name `call` and its parameters `source_name` and `count_name`.
void check_kernel_source(const void* source, size_t count, size_t unit, const porta_spec_constant* specs,
                         uint32_t spec_count, const char* call, const char* source_name,
                         const char* count_name, bool may_be_empty = false);

// Builds a kernel: front end, reflection, limits, translation, plugin.
std::shared_ptr<KernelState> build_kernel(const DeviceRef& device, const std::vector<uint32_t>* spirv,
                                          const std::string* glsl, const std::string& name,
                                          const porta_spec_constant* specs, uint32_t spec_count,
                                          const porta_spec_constant64* specs64 = nullptr,
                                          uint32_t spec64_count = 0, bool allow_tf32 = false);

}  // namespace porta::core
