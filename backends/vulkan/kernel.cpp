#include "kernel.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>

#include "capabilities.hpp"

namespace porta::vk {

using plugin::fail;
using plugin::format;

namespace {

// PORTA_VULKAN_PIPELINE_STATS=1: the driver's statistics of each executable
// of the kernel's pipeline, one line each at info level ("vulkan: DEVICE:
// kernel 'NAME': pipeline statistics of EXECUTABLE: Registers 128, ..."), as
// the driver names them.
void log_pipeline_statistics(const Device& device, const Kernel& k) {
  VkPipelineInfoKHR pipeline = make<VkPipelineInfoKHR>(VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR);
  pipeline.pipeline = k.pipeline;
  uint32_t count = 0;
  if (device.fn.vkGetPipelineExecutablePropertiesKHR(device.handle, &pipeline, &count, nullptr) != VK_SUCCESS)
    return;
  std::vector<VkPipelineExecutablePropertiesKHR> executables(
      count, make<VkPipelineExecutablePropertiesKHR>(VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR));
  if (device.fn.vkGetPipelineExecutablePropertiesKHR(device.handle, &pipeline, &count, executables.data()) !=
      VK_SUCCESS)
    return;
  for (uint32_t e = 0; e < count; ++e) {
    VkPipelineExecutableInfoKHR which =
        make<VkPipelineExecutableInfoKHR>(VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR);
    which.pipeline = k.pipeline;
    which.executableIndex = e;
    uint32_t n = 0;
    if (device.fn.vkGetPipelineExecutableStatisticsKHR(device.handle, &which, &n, nullptr) != VK_SUCCESS)
      continue;
    std::vector<VkPipelineExecutableStatisticKHR> stats(
        n, make<VkPipelineExecutableStatisticKHR>(VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR));
    if (device.fn.vkGetPipelineExecutableStatisticsKHR(device.handle, &which, &n, stats.data()) != VK_SUCCESS)
      continue;
    std::string line;
    for (const VkPipelineExecutableStatisticKHR& st : stats) {
      line += line.empty() ? "" : ", ";
      line += st.name;
      switch (st.format) {
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR:
          line += st.value.b32 ? " yes" : " no";
          break;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR:
          line += " " + std::to_string(st.value.i64);
          break;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR:
          line += " " + std::to_string(st.value.u64);
          break;
        default:
          line += " " + format("%g", st.value.f64);
          break;
      }
    }
    plugin::log(PORTA_LOG_INFO,
                format("vulkan: %s: kernel '%s': pipeline statistics of %s: %s", device.label().c_str(),
                       k.name.c_str(), executables[e].name, line.empty() ? "none given" : line.c_str()));
  }
}

// The core checks the limits porta_device_info reports; these it does not know.
void check_limits(const Device& device, const porta_kernel_desc& desc, const char* name) {
  const VkPhysicalDeviceLimits& lim = device.limits();
  uint32_t storage = 0, uniform = 0, sets = 0;
  for (uint32_t i = 0; i < desc.buffer_count; ++i) {
    (desc.buffers[i].kind == PORTA_BUFFER_KIND_UNIFORM ? uniform : storage)++;
    sets = std::max(sets, desc.buffers[i].set + 1);
  }
  if (storage > lim.maxPerStageDescriptorStorageBuffers)
    fail(PORTA_ERROR_UNSUPPORTED,
         "vulkan: %s: kernel '%s': %u storage buffers exceed maxPerStageDescriptorStorageBuffers = %u",
         device.label().c_str(), name, storage, lim.maxPerStageDescriptorStorageBuffers);
  if (uniform > lim.maxPerStageDescriptorUniformBuffers)
    fail(PORTA_ERROR_UNSUPPORTED,
         "vulkan: %s: kernel '%s': %u uniform buffers exceed maxPerStageDescriptorUniformBuffers = %u",
         device.label().c_str(), name, uniform, lim.maxPerStageDescriptorUniformBuffers);
  if (sets > lim.maxBoundDescriptorSets)
    fail(PORTA_ERROR_UNSUPPORTED, "vulkan: %s: kernel '%s' uses descriptor set %u; the device binds %u sets",
         device.label().c_str(), name, sets - 1, lim.maxBoundDescriptorSets);
}

// The descriptor sets of a kernel's buffers: one layout per set from 0 to the
// highest used (empty ones in between), a binding per (set, binding) whose
// descriptorCount is the length of an array of blocks.
void create_set_layouts(Device& device, Kernel& k, const porta_kernel_desc& desc) {
  std::vector<std::vector<VkDescriptorSetLayoutBinding>> bindings;
  for (uint32_t i = 0; i < desc.buffer_count; ++i) {
    const porta_kernel_buffer_desc& b = desc.buffers[i];
    const VkDescriptorType type = b.kind == PORTA_BUFFER_KIND_UNIFORM ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER
                                                                      : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    k.buffers.push_back({b.set, b.binding, b.array_index, type});
    if (b.set >= bindings.size()) {
      bindings.resize(b.set + 1);
      k.sets.resize(b.set + 1);
    }
    (type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER ? k.sets[b.set].uniform : k.sets[b.set].storage)++;
    auto& set = bindings[b.set];
    auto same = std::find_if(set.begin(), set.end(),
                             [&](const VkDescriptorSetLayoutBinding& x) { return x.binding == b.binding; });
    if (same != set.end()) {  // the next element of an array of blocks
      same->descriptorCount = std::max(same->descriptorCount, b.array_index + 1);
      continue;
    }
    VkDescriptorSetLayoutBinding binding{};
    binding.binding = b.binding;
    binding.descriptorType = type;
    binding.descriptorCount = b.array_index + 1;
    binding.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    set.push_back(binding);
  }
  // Push descriptors fit one set of a pipeline layout, and VkPhysicalDevice-
  // PushDescriptorPropertiesKHR guarantees at least 32 of them.
  uint32_t used_sets = 0;
  for (const auto& set : bindings) used_sets += set.empty() ? 0 : 1;
  if (device.push_descriptor && used_sets == 1 && desc.buffer_count <= 32) k.sets.back().push = true;
  for (size_t s = 0; s < k.sets.size(); ++s) {
    VkDescriptorSetLayoutCreateInfo info =
        make<VkDescriptorSetLayoutCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO);
    info.flags = k.sets[s].push ? VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR : 0;
    info.bindingCount = static_cast<uint32_t>(bindings[s].size());
    info.pBindings = bindings[s].data();
    device.check(device.fn.vkCreateDescriptorSetLayout(device.handle, &info, nullptr, &k.sets[s].layout),
                 "vkCreateDescriptorSetLayout");
  }
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
  std::map<uint32_t, uint32_t> specs;
  for (uint32_t i = 0; i < desc.spec_count; ++i) specs[desc.specs[i].id] = desc.specs[i].bits;
  const std::vector<uint32_t> spirv =
      prepare_module(device.physical, device.enabled_extensions, desc.spirv, desc.spirv_words, k.name,
                     desc.workgroup_size[0] * desc.workgroup_size[1] * desc.workgroup_size[2], specs);
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

  // Each value at its type's size (8 for 64-bit constants), in an 8-byte slot.
  std::vector<VkSpecializationMapEntry> entries(desc.spec_count);
  std::vector<uint64_t> values(desc.spec_count);
  for (uint32_t i = 0; i < desc.spec_count; ++i) {
    const porta_kernel_spec_value& v = desc.specs[i];
    entries[i] = {v.id, i * 8u, v.size ? v.size : 4};
    values[i] = uint64_t(v.high_bits) << 32 | v.bits;  // little-endian: the low bytes first
  }
  VkSpecializationInfo spec{};
  spec.mapEntryCount = desc.spec_count;
  spec.pMapEntries = entries.data();
  spec.dataSize = values.size() * sizeof(uint64_t);
  spec.pData = values.data();

  VkComputePipelineCreateInfo info =
      make<VkComputePipelineCreateInfo>(VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO);
  info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = module;
  info.stage.pName = desc.entry_point ? desc.entry_point : "main";
  info.stage.pSpecializationInfo = desc.spec_count ? &spec : nullptr;
  info.layout = k.layout;
  if (device.pipeline_stats) info.flags |= VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
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
  if (device.pipeline_stats) log_pipeline_statistics(device, k);
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

  try {
    create_set_layouts(device, *k, desc);
    VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, desc.push_constant_size};
    VkPipelineLayoutCreateInfo layout_info =
        make<VkPipelineLayoutCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
    std::vector<VkDescriptorSetLayout> set_layouts;
    for (const KernelSet& set : k->sets) set_layouts.push_back(set.layout);
    layout_info.setLayoutCount = static_cast<uint32_t>(set_layouts.size());
    layout_info.pSetLayouts = set_layouts.data();
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
  for (const KernelSet& set : k->sets)
    if (set.layout) d.fn.vkDestroyDescriptorSetLayout(d.handle, set.layout, nullptr);
  delete k;
}

}  // namespace porta::vk
