// VK_KHR_cooperative_matrix: each matrix type and multiply-add of a module
// must be one the device lists (vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR,
// PhysicalDevice::cooperative_matrices): sizes, component types, scope and
// saturation; or, on a device with VK_NV_cooperative_matrix2, one of its
// flexible dimensions (PhysicalDevice::flexible_matrices: sizes that are
// multiples of the listed granularity, Workgroup scope only in work-groups of
// the listed size). What it does not list is refused (UNSUPPORTED), naming
// the matrix or the multiply-add, the device and what it lists. Sizes from
// spec constants are read with the kernel's values.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "instance.hpp"

namespace porta::vk {

constexpr uint32_t kComponentBfloat16 = 1000141000;  // VK_COMPONENT_TYPE_BFLOAT16_KHR

// "16x16x16 float16 x float16 + float32 -> float32 at Subgroup scope; ...;
// multiples of 16x16x16 float16 x float16 + float32 -> float32 at Workgroup
// scope in work-groups of 256", or "none".
std::string describe_cooperative_matrices(
    const std::vector<CooperativeMatrixPropertiesKHR>& listed,
    const std::vector<CooperativeMatrixFlexibleDimensionsPropertiesNV>& flexible = {});

// `invocations`: the kernel's work-group size (items in all), which
// Workgroup-scope matrices must match; 0: not known. `specs`: the kernel's
// spec-constant values by SpecId, for matrices sized by spec constants
// (missing ids: their defaults).
void check_cooperative_matrices(
    const std::vector<CooperativeMatrixPropertiesKHR>& listed, const std::string& device,
    const uint32_t* words, size_t count, const std::string& where,
    const std::vector<CooperativeMatrixFlexibleDimensionsPropertiesNV>& flexible = {},
    uint32_t invocations = 0, const std::map<uint32_t, uint32_t>& specs = {});

}  // namespace porta::vk
