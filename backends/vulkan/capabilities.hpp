// What a SPIR-V module asks of a Vulkan device. Its OpCapability, OpExtension
// and float-controls execution modes are mapped to the device's features,
// properties and extensions: a module that needs one the opened device lacks
// is refused before the driver sees it, naming the capability, what Vulkan
// calls the feature, and the device. Instructions that change nothing a
// kernel computes (OpExpectKHR, OpAssumeTrueKHR, non-semantic instructions)
// are taken out where the device did not enable their extension. OpSRem and
// OpSMod are built from OpSDiv where the device did not enable maintenance8,
// and FMix as GLSL's formula (rewrites.cpp).
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "instance.hpp"

namespace porta::vk {

// Device extensions porta enables wherever the device has them: those whose
// features (FeatureChain) and SPIR-V extensions a kernel may need.
const std::vector<const char*>& wanted_device_extensions();

// The module's words as they go to vkCreateShaderModule: checked against the
// device opened with `enabled` extensions, legalised where that is exact.
// Throws UNSUPPORTED when the device lacks what the module needs.
// `invocations`: the kernel's work-group size (items in all, spec constants
// applied), which its Workgroup-scope cooperative matrices must be listed for;
// `specs`: its spec-constant values by SpecId (matrices sized by them).
std::vector<uint32_t> prepare_module(const PhysicalDevice& device, const std::set<std::string>& enabled,
                                     const uint32_t* words, size_t count, const std::string& kernel,
                                     uint32_t invocations, const std::map<uint32_t, uint32_t>& specs = {});

}  // namespace porta::vk
