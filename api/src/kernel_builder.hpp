// From GLSL or SPIR-V to a plugin kernel for one device.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "handles.hpp"
#include "porta/porta.h"

namespace porta::core {

// Builds a kernel: front end, reflection, limits, translation, plugin.
std::shared_ptr<KernelState> build_kernel(const DeviceRef& device, const std::vector<uint32_t>* spirv,
                                          const std::string* glsl, const std::string& name,
                                          const porta_spec_constant* specs, uint32_t spec_count);

}  // namespace porta::core
