// Subgroup operations are native on Vulkan, but which kinds a device runs,
// and in which stages, it says in VkPhysicalDeviceSubgroupProperties: a
// kernel whose SPIR-V declares a GroupNonUniform capability the device does
// not support in compute shaders is refused here, naming the kind, before
// the driver sees it.
#include <cstring>

#include "kernel.hpp"

namespace porta::vk {

void check_subgroup_operations(const Device& device, const porta_kernel_desc& desc, const char* name) {
  // SPIR-V's capability numbers (OpCapability = 17) and the operation each needs.
  struct Kind {
    uint32_t capability;
    VkSubgroupFeatureFlagBits operation;
    const char* what;
  };
  static constexpr Kind kKinds[] = {
      {61, VK_SUBGROUP_FEATURE_BASIC_BIT, "basic"},
      {62, VK_SUBGROUP_FEATURE_VOTE_BIT, "vote"},
      {63, VK_SUBGROUP_FEATURE_ARITHMETIC_BIT, "arithmetic"},
      {64, VK_SUBGROUP_FEATURE_BALLOT_BIT, "ballot"},
      {65, VK_SUBGROUP_FEATURE_SHUFFLE_BIT, "shuffle"},
      {66, VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT, "shuffle relative"},
      {67, VK_SUBGROUP_FEATURE_CLUSTERED_BIT, "clustered"},
      {68, VK_SUBGROUP_FEATURE_QUAD_BIT, "quad"},
  };
  const uint32_t* words = desc.spirv;
  const VkPhysicalDeviceSubgroupProperties& subgroup = device.physical.subgroup;
  for (size_t at = 5; at < desc.spirv_words;) {
    const uint32_t length = words[at] >> 16, opcode = words[at] & 0xffffu;
    if (length == 0 || at + length > desc.spirv_words) break;
    if (opcode == 17 && length >= 2) {
      for (const Kind& kind : kKinds) {
        if (kind.capability != words[at + 1]) continue;
        if (!(subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT))
          plugin::fail(PORTA_ERROR_UNSUPPORTED,
                       "vulkan: %s: kernel '%s' uses subgroup operations, which the device does not support "
                       "in compute shaders (VkPhysicalDeviceSubgroupProperties::supportedStages)",
                       device.label().c_str(), name);
        if (!(subgroup.supportedOperations & kind.operation))
          plugin::fail(
              PORTA_ERROR_UNSUPPORTED,
              "vulkan: %s: kernel '%s' uses %s subgroup operations (GL_KHR_shader_subgroup_*), which "
              "the device does not support (VkPhysicalDeviceSubgroupProperties::supportedOperations)",
              device.label().c_str(), name, kind.what);
      }
    }
    // Capabilities come first in a module: stop at the first other instruction after them.
    if (opcode != 17 && at > 5) break;
    at += length;
  }
}

}  // namespace porta::vk
