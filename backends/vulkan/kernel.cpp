#include "kernel.hpp"

#include <cstdlib>
#include <cstring>

#include "capabilities.hpp"

namespace porta::vk {

using plugin::fail;
using plugin::format;

namespace {

// The core checks the limits porta_device_info reports; this one it does not know.
void check_limits(const Device& device, const porta_kernel_desc& desc, const char* name) {
  const VkPhysicalDeviceLimits& lim = device.limits();
  if (desc.buffer_count > lim.maxPerStageDescriptorStorageBuffers)
    fail(PORTA_ERROR_UNSUPPORTED,
         "vulkan: %s: kernel '%s': %u storage buffers exceed maxPerStageDescriptorStorageBuffers = %u",
         device.label().c_str(), name, desc.buffer_count, lim.maxPerStageDescriptorStorageBuffers);
}

// The identity of the driver's pipeline-cache format, added to the core's key.
std::string cache_key(const Device& device, const porta_kernel_desc& desc) {
  const VkPhysicalDeviceProperties& p = device.physical.properties;
  uint64_t h = 1469598103934665603ull;  // FNV-1a
  auto mix = [&h](const void* data, size_t n) {
    for (size_t i = 0; i < n; ++i) h = (h ^ static_cast<const uint8_t*>(data)[i]) * 1099511628211ull;
  };
  mix(p.pipelineCacheUUID, VK_UUID_SIZE);
  mix(&p.driverVersion, sizeof p.driverVersion);
  mix(&p.vendorID, sizeof p.vendorID);
  mix(&p.deviceID, sizeof p.deviceID);
  return format("vk-%s-%016llx", desc.cache_key ? desc.cache_key : "nokey",
                static_cast<unsigned long long>(h));
}

// Cache data from disk is only handed to the driver when its header says it was
// written by this very driver and device; anything else is ignored and rebuilt.
bool cache_data_matches(const Device& device, const void* data, size_t size) {
  if (size < 16 + VK_UUID_SIZE) return false;
  uint32_t header[4];
  std::memcpy(header, data, sizeof header);
  const VkPhysicalDeviceProperties& p = device.physical.properties;
  return header[0] >= 16 + VK_UUID_SIZE && header[0] <= size &&
         header[1] == VK_PIPELINE_CACHE_HEADER_VERSION_ONE && header[2] == p.vendorID &&
         header[3] == p.deviceID &&
         std::memcmp(static_cast<const uint8_t*>(data) + 16, p.pipelineCacheUUID, VK_UUID_SIZE) == 0;
}

void create_pipeline(Device& device, Kernel& k, const porta_kernel_desc& desc) {
  // Refuses, before the driver sees it, a module that needs what the device lacks.
  const std::vector<uint32_t> spirv =
      prepare_module(device.physical, device.enabled_extensions, desc.spirv, desc.spirv_words, k.name);
  const porta_host_api* host = plugin::host();
  const std::string key = cache_key(device, desc);
  void* cached = nullptr;
  size_t cached_size = 0;
  bool have_cache =
      desc.cache_key && host && host->cache_load && host->cache_load(key.c_str(), &cached, &cached_size);
  if (have_cache && !cache_data_matches(device, cached, cached_size)) {
    plugin::log(PORTA_LOG_DEBUG,
                format("vulkan: ignoring pipeline cache entry %s (other driver or corrupt)", key.c_str()));
    have_cache = false;
  }
  VkPipelineCacheCreateInfo cache_info =
      make<VkPipelineCacheCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO);
  if (have_cache) {
    cache_info.initialDataSize = cached_size;
    cache_info.pInitialData = cached;
  }
  VkPipelineCache cache = VK_NULL_HANDLE;
  VkResult r = device.fn.vkCreatePipelineCache(device.handle, &cache_info, nullptr, &cache);
  std::free(cached);
  device.check(r, "vkCreatePipelineCache");

  VkShaderModule module = VK_NULL_HANDLE;
  VkShaderModuleCreateInfo module_info =
      make<VkShaderModuleCreateInfo>(VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
  module_info.codeSize = spirv.size() * sizeof(uint32_t);
  module_info.pCode = spirv.data();
  r = device.fn.vkCreateShaderModule(device.handle, &module_info, nullptr, &module);
  if (r != VK_SUCCESS) {
    device.fn.vkDestroyPipelineCache(device.handle, cache, nullptr);
    if (r == VK_ERROR_INVALID_SHADER_NV || r == VK_ERROR_UNKNOWN)
      fail(PORTA_ERROR_INVALID_KERNEL, "vulkan: %s: kernel '%s': vkCreateShaderModule: %s",
           device.label().c_str(), k.name.c_str(), result_name(r));
    device.check(r, "vkCreateShaderModule");
  }

  std::vector<VkSpecializationMapEntry> entries(desc.spec_count);
  std::vector<uint32_t> values(desc.spec_count);
  for (uint32_t i = 0; i < desc.spec_count; ++i) {
    entries[i] = {desc.specs[i].id, i * 4u, 4};
    values[i] = desc.specs[i].bits;
  }
  VkSpecializationInfo spec{};
  spec.mapEntryCount = desc.spec_count;
  spec.pMapEntries = entries.data();
  spec.dataSize = values.size() * sizeof(uint32_t);
  spec.pData = values.data();

  VkComputePipelineCreateInfo info =
      make<VkComputePipelineCreateInfo>(VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO);
  info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = module;
  info.stage.pName = desc.entry_point ? desc.entry_point : "main";
  info.stage.pSpecializationInfo = desc.spec_count ? &spec : nullptr;
  info.layout = k.layout;
  r = device.fn.vkCreateComputePipelines(device.handle, cache, 1, &info, nullptr, &k.pipeline);
  device.fn.vkDestroyShaderModule(device.handle, module, nullptr);
  if (r == VK_SUCCESS && !have_cache && desc.cache_key && host && host->cache_store) {
    size_t size = 0;
    if (device.fn.vkGetPipelineCacheData(device.handle, cache, &size, nullptr) == VK_SUCCESS && size > 0) {
      std::vector<uint8_t> data(size);
      if (device.fn.vkGetPipelineCacheData(device.handle, cache, &size, data.data()) == VK_SUCCESS)
        host->cache_store(key.c_str(), data.data(), size);
    }
  }
  device.fn.vkDestroyPipelineCache(device.handle, cache, nullptr);
  if (r != VK_SUCCESS) {
    k.pipeline = VK_NULL_HANDLE;
    if (vk::result_status(r) == PORTA_ERROR_BACKEND || r == VK_ERROR_INVALID_SHADER_NV)
      fail(PORTA_ERROR_COMPILE,
           "vulkan: %s: kernel '%s': the driver rejected the pipeline: vkCreateComputePipelines: %s",
           device.label().c_str(), k.name.c_str(), result_name(r));
    device.check(r, "vkCreateComputePipelines");
  }
}

}  // namespace

Kernel* create_kernel(Device& device, const porta_kernel_desc& desc) {
  auto k = std::make_unique<Kernel>();
  k->device = &device;
  k->name = desc.name ? desc.name : (desc.entry_point ? desc.entry_point : "kernel");
  if (!desc.spirv || desc.spirv_words < 5)
    fail(PORTA_ERROR_INVALID_KERNEL, "vulkan: %s: kernel '%s': no SPIR-V given", device.label().c_str(),
         k->name.c_str());
  check_limits(device, desc, k->name.c_str());
  k->push_constant_size = desc.push_constant_size;

  std::vector<VkDescriptorSetLayoutBinding> bindings(desc.buffer_count);
  for (uint32_t i = 0; i < desc.buffer_count; ++i) {
    bindings[i] = {};
    bindings[i].binding = desc.buffers[i].binding;
    bindings[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    bindings[i].descriptorCount = 1;
    bindings[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    k->bindings.push_back(desc.buffers[i].binding);
  }
  try {
    VkDescriptorSetLayoutCreateInfo set_info =
        make<VkDescriptorSetLayoutCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO);
    set_info.flags = device.push_descriptor ? VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR : 0;
    set_info.bindingCount = desc.buffer_count;
    set_info.pBindings = bindings.data();
    device.check(device.fn.vkCreateDescriptorSetLayout(device.handle, &set_info, nullptr, &k->set_layout),
                 "vkCreateDescriptorSetLayout");
    VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, desc.push_constant_size};
    VkPipelineLayoutCreateInfo layout_info =
        make<VkPipelineLayoutCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
    layout_info.setLayoutCount = 1;
    layout_info.pSetLayouts = &k->set_layout;
    layout_info.pushConstantRangeCount = desc.push_constant_size ? 1 : 0;
    layout_info.pPushConstantRanges = &range;
    device.check(device.fn.vkCreatePipelineLayout(device.handle, &layout_info, nullptr, &k->layout),
                 "vkCreatePipelineLayout");
    create_pipeline(device, *k, desc);
  } catch (...) {
    destroy_kernel(k.release());
    throw;
  }
  return k.release();
}

void destroy_kernel(Kernel* k) {
  if (!k) return;
  Device& d = *k->device;
  if (k->pipeline) d.fn.vkDestroyPipeline(d.handle, k->pipeline, nullptr);
  if (k->layout) d.fn.vkDestroyPipelineLayout(d.handle, k->layout, nullptr);
  if (k->set_layout) d.fn.vkDestroyDescriptorSetLayout(d.handle, k->set_layout, nullptr);
  delete k;
}

}  // namespace porta::vk
