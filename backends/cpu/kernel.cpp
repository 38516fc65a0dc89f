#include "kernel.hpp"

#include <cstring>
#include <memory>
#include <string_view>

#include "builtin.hpp"
#include "compiler.hpp"
#include "device.hpp"

namespace porta::cpu {

namespace {

const char* feature_name(uint64_t bit) {
  switch (bit) {
    case PORTA_FEATURE_FP16:
      return "fp16";
    case PORTA_FEATURE_FP64:
      return "fp64";
    case PORTA_FEATURE_INT8:
      return "int8";
    case PORTA_FEATURE_INT16:
      return "int16";
    case PORTA_FEATURE_INT64:
      return "int64";
    case PORTA_FEATURE_STORAGE_16BIT:
      return "16-bit storage";
    case PORTA_FEATURE_STORAGE_8BIT:
      return "8-bit storage";
    case PORTA_FEATURE_BF16:
      return "bfloat16";
    case PORTA_FEATURE_SUBGROUPS:
      return "subgroups";
    case PORTA_FEATURE_ATOMIC_INT32:
      return "32-bit integer atomics";
    case PORTA_FEATURE_ATOMIC_INT64:
      return "64-bit integer atomics";
    case PORTA_FEATURE_ATOMIC_FLOAT32:
      return "float atomics";
    case PORTA_FEATURE_COOPERATIVE_MATRIX:
      return "cooperative matrix";
    case PORTA_FEATURE_TIMELINE_SEMAPHORE:
      return "timeline semaphores";
    default:
      return "unknown feature";
  }
}

}  // namespace

porta_plugin_kernel kernel_create(const porta_kernel_desc& desc) {
  const char* name = desc.name ? desc.name : "(unnamed)";
  if (!desc.source) {
    plugin::fail(PORTA_ERROR_INVALID_ARGUMENT, "%s: kernel '%s': no translated C++ source",
                 where("kernel_create").c_str(), name);
  }
  const porta_device_info& info = device_info();
  uint64_t missing = desc.required_features & ~info.features;
  if (missing) {
    uint64_t bit = missing & (~missing + 1);
    plugin::fail(PORTA_ERROR_UNSUPPORTED, "%s: kernel '%s' needs %s, which this device does not support",
                 where("kernel_create").c_str(), name, feature_name(bit));
  }
  if (desc.shared_memory_bytes > info.limits.max_shared_memory_bytes) {
    plugin::fail(
        PORTA_ERROR_UNSUPPORTED, "%s: kernel '%s' declares %u bytes of shared memory; the limit is %u",
        where("kernel_create").c_str(), name, desc.shared_memory_bytes, info.limits.max_shared_memory_bytes);
  }
  std::string_view source(desc.source, desc.source_size);
  if (!source.empty() && source.back() == '\0') source.remove_suffix(1);

  const porta_cpu_kernel_entry* entry = nullptr;
  if (const BuiltinKernel* builtin = find_builtin(source.data(), source.size())) {
    IsaLevel level;
    entry = builtin_entry(*builtin, &level);
    plugin::log(PORTA_LOG_DEBUG, std::string("cpu: kernel '") + name + "' is built in (" + builtin->name +
                                     ", " + isa_level_name(level) + " variant)");
  } else {
    entry = compile_kernel(desc, source);
  }
  if (std::memcmp(entry->workgroup_size, desc.workgroup_size, sizeof desc.workgroup_size) != 0) {
    plugin::fail(PORTA_ERROR_INTERNAL,
                 "%s: kernel '%s': translated work-group size %ux%ux%u differs from the reflected %ux%ux%u",
                 where("kernel_create").c_str(), name, entry->workgroup_size[0], entry->workgroup_size[1],
                 entry->workgroup_size[2], desc.workgroup_size[0], desc.workgroup_size[1],
                 desc.workgroup_size[2]);
  }
  uint32_t invocations = entry->workgroup_size[0] * entry->workgroup_size[1] * entry->workgroup_size[2];
  return new porta_plugin_kernel_t{entry, name, invocations};
}

}  // namespace porta::cpu
