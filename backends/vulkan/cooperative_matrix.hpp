// VK_KHR_cooperative_matrix: each matrix type and multiply-add of a module
// must be one the device lists (vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR,
// PhysicalDevice::cooperative_matrices): sizes, component types, scope and
// saturation. What it does not list is refused (UNSUPPORTED), naming the
// matrix or the multiply-add, the device and what it lists. Matrices sized by
// spec constants are left to the driver.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "instance.hpp"

namespace porta::vk {

constexpr uint32_t kComponentBfloat16 = 1000141000;  // VK_COMPONENT_TYPE_BFLOAT16_KHR

// "16x16x16 float16 x float16 + float32 -> float32 at Subgroup scope; ...", or "none".
std::string describe_cooperative_matrices(const std::vector<CooperativeMatrixPropertiesKHR>& listed);

void check_cooperative_matrices(const std::vector<CooperativeMatrixPropertiesKHR>& listed,
                                const std::string& device, const uint32_t* words, size_t count,
                                const std::string& where);

}  // namespace porta::vk
