// Kernels: a compute pipeline built from the SPIR-V and the interface libporta
// reflected (storage and uniform buffers at any descriptor set, arrays of
// them, one push-constant block, specialization constants), with its
// VkPipelineCache kept in porta's kernel cache.
#pragma once

#include <string>
#include <vector>

#include "device.hpp"

namespace porta::vk {

// Where one buffer parameter goes: a descriptor of a set.
struct KernelBuffer {
  uint32_t set = 0, binding = 0, array_index = 0;
  VkDescriptorType type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
};

// One descriptor set of the pipeline layout: sets 0..the highest one a
// buffer uses, those in between empty.
struct KernelSet {
  VkDescriptorSetLayout layout = VK_NULL_HANDLE;
  uint32_t storage = 0, uniform = 0;  // descriptors of each type (descriptor pool sizes)
  // Written with vkCmdPushDescriptorSetKHR rather than allocated: a pipeline
  // layout may have one such set, so only a kernel whose buffers are all in
  // one set (within maxPushDescriptors) uses them.
  bool push = false;
};

struct Kernel {
  Device* device = nullptr;
  std::string name;
  std::vector<KernelSet> sets;  // none for a kernel without buffers
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
  std::vector<KernelBuffer> buffers;  // in parameter order
  uint32_t push_constant_size = 0;
};

// Throws UNSUPPORTED (naming the limit or feature), INVALID_KERNEL or COMPILE.
Kernel* create_kernel(Device& device, const porta_kernel_desc& desc);
void destroy_kernel(Kernel* kernel);

}  // namespace porta::vk
