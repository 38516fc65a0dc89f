// Kernels: a compute pipeline built from the SPIR-V and the interface libporta
// reflected (storage buffers at set 0, one push-constant block, specialization
// constants), with its VkPipelineCache kept in porta's kernel cache.
#pragma once

#include <string>
#include <vector>

#include "device.hpp"

namespace porta::vk {

struct Kernel {
  Device* device = nullptr;
  std::string name;
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
  std::vector<uint32_t> bindings;  // binding of each buffer parameter, in parameter order
  uint32_t push_constant_size = 0;
};

// Throws UNSUPPORTED (naming the limit or feature), INVALID_KERNEL or COMPILE.
Kernel* create_kernel(Device& device, const porta_kernel_desc& desc);
void destroy_kernel(Kernel* kernel);

}  // namespace porta::vk
