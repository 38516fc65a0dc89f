#include "kernel.hpp"

#include <cstring>
#include <memory>
#include <string_view>

#include "builtin.hpp"
#include "compiler.hpp"
#include "device.hpp"

namespace porta::cpu {

porta_plugin_kernel kernel_create(const porta_kernel_desc& desc) {
  const char* name = desc.name ? desc.name : "(unnamed)";
  std::string_view source(desc.source, desc.source_size);
  if (!source.empty() && source.back() == '\0') source.remove_suffix(1);

  const porta_cpu_kernel_entry* entry = nullptr;
  uint64_t stack_bytes = 0;
  if (const BuiltinKernel* builtin = find_builtin(source.data(), source.size())) {
    IsaLevel level;
    entry = builtin_entry(*builtin, &level);
    plugin::log(PORTA_LOG_DEBUG, std::string("cpu: kernel '") + name + "' is built in (" + builtin->name +
                                     ", " + isa_level_name(level) + " variant)");
  } else {
    const CompiledKernel compiled = compile_kernel(desc, source);
    entry = compiled.entry;
    stack_bytes = compiled.stack_bytes;
  }
  if (std::memcmp(entry->workgroup_size, desc.workgroup_size, sizeof desc.workgroup_size) != 0) {
    plugin::fail(PORTA_ERROR_INTERNAL,
                 "%s: kernel '%s': translated work-group size %ux%ux%u differs from the reflected %ux%ux%u",
                 where("kernel_create").c_str(), name, entry->workgroup_size[0], entry->workgroup_size[1],
                 entry->workgroup_size[2], desc.workgroup_size[0], desc.workgroup_size[1],
                 desc.workgroup_size[2]);
  }
  uint32_t invocations = entry->workgroup_size[0] * entry->workgroup_size[1] * entry->workgroup_size[2];
  return new porta_plugin_kernel_t{entry, name, invocations, stack_bytes};
}

}  // namespace porta::cpu
