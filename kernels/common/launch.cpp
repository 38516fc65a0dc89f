#include "launch.hpp"

#include <algorithm>
#include <cstring>

#include "embedded_spirv.hpp"

namespace porta::ops {

porta::Kernel builtin_kernel(const OpCall& call, const char* name,
                             std::initializer_list<porta_spec_constant> specs) {
  const EmbeddedSpirv* spirv = nullptr;
  for (size_t i = 0; i < kEmbeddedSpirvCount; ++i)
    if (!std::strcmp(kEmbeddedSpirv[i].name, name)) spirv = &kEmbeddedSpirv[i];
  if (!spirv)
    call.fail(PORTA_ERROR_INTERNAL, "no built-in kernel named '%s' was compiled into libporta", name);
  porta_kernel_descriptor descriptor{};
  descriptor.struct_size = sizeof descriptor;
  descriptor.source_kind = PORTA_KERNEL_SOURCE_SPIRV;
  descriptor.source = spirv->words;
  descriptor.source_size = spirv->word_count * sizeof(uint32_t);
  descriptor.name = name;
  descriptor.specs = specs.begin();
  descriptor.spec_count = static_cast<uint32_t>(specs.size());
  descriptor.flags = PORTA_KERNEL_FLAG_REUSE;
  porta_kernel kernel = nullptr;
  const porta_status status = porta_kernel_create(call.device.handle(), &descriptor, &kernel);
  if (status != PORTA_SUCCESS)
    call.fail(status, "built-in kernel '%s': %s", name, last_error_cause(status).c_str());
  return porta::Kernel(kernel);
}

void dispatch(const OpCall& call, const porta::Kernel& kernel, uint32_t groups_x, uint32_t groups_y,
              std::initializer_list<porta_buffer> buffers, const void* push, uint32_t push_size) {
  const uint32_t groups[3] = {groups_x, groups_y, 1};
  const porta_status status = porta_stream_dispatch(call.stream, kernel.handle(), groups, buffers.begin(),
                                                    static_cast<uint32_t>(buffers.size()), push, push_size);
  if (status != PORTA_SUCCESS) throw porta::Error(status, std::string(call.op) + ": " + porta_last_error());
}

porta::Buffer scratch_buffer(const OpCall& call, uint64_t bytes) {
  porta_buffer buffer = nullptr;
  const porta_status status = porta_buffer_create(call.device.handle(), bytes, &buffer);
  if (status != PORTA_SUCCESS)
    throw porta::Error(status, std::string(call.op) + ": workspace: " + porta_last_error());
  return porta::Buffer(buffer);
}

uint32_t workgroup_size(const porta_device_info& info, uint32_t preferred) {
  const uint32_t limit = std::min(info.limits.max_workgroup_invocations, info.limits.max_workgroup_size[0]);
  uint32_t size = preferred;
  while (size > 1 && size > limit) size /= 2;
  return size;
}

uint32_t grid_groups(const porta_device_info& info, uint64_t n, uint32_t workgroup) {
  // Enough groups to keep every core busy; past that a grid-stride loop does
  // the rest with less launch overhead.
  const uint64_t target = cpu_like(info) ? 256 : 65535;
  uint64_t groups = (n + workgroup - 1) / workgroup;
  groups = std::min<uint64_t>({groups, target, info.limits.max_workgroup_count[0]});
  return static_cast<uint32_t>(std::max<uint64_t>(groups, 1));
}

uint32_t elementwise_groups(const porta_device_info& info, uint64_t n, uint32_t workgroup) {
  if (!cpu_like(info)) return grid_groups(info, n, workgroup);
  const uint64_t groups =
      std::min<uint64_t>((n + workgroup - 1) / workgroup, info.limits.max_workgroup_count[0]);
  return static_cast<uint32_t>(std::max<uint64_t>(groups, 1));
}

}  // namespace porta::ops
