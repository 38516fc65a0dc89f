// Built-in kernels: made per device on first use from the SPIR-V embedded at
// build time, kept in DeviceState::builtin_kernels, queued through the public
// porta_stream_dispatch so ops get its checks and its recording.
#include <cstring>

#include "handle_registry.hpp"
#include "kernel_builder.hpp"
#include "ops.hpp"

namespace porta::ops {

using core::format;

std::shared_ptr<KernelState> builtin_kernel(const Call& call, const char* name,
                                            std::initializer_list<porta_spec_constant> specs) {
  std::string key = name;
  for (const auto& s : specs) key += format("|%u=%u", s.id, s.bits);
  DeviceState& device = *call.device;
  std::lock_guard lock(device.builtin_mutex);
  auto found = device.builtin_kernels.find(key);
  if (found != device.builtin_kernels.end()) return found->second;

  const EmbeddedSpirv* spirv = nullptr;
  for (size_t i = 0; i < kEmbeddedSpirvCount; ++i)
    if (!std::strcmp(kEmbeddedSpirv[i].name, name)) spirv = &kEmbeddedSpirv[i];
  if (!spirv) call.fail(PORTA_ERROR_INTERNAL, "no built-in kernel named '%s' was compiled into libporta", name);
  std::vector<uint32_t> words(spirv->words, spirv->words + spirv->word_count);
  std::vector<porta_spec_constant> values(specs);
  std::shared_ptr<KernelState> kernel;
  try {
    kernel = core::build_kernel(call.device, &words, nullptr, name, values.data(),
                                static_cast<uint32_t>(values.size()));
  } catch (const core::Failure& e) {
    call.fail(e.status, "built-in kernel '%s': %s", name, e.what());
  }
  // The table lives in the device: an owning reference back would keep the
  // device alive forever (core.hpp).
  kernel->device = DeviceRef(DeviceRef(), &device);
  device.builtin_kernels.emplace(key, kernel);
  return kernel;
}

namespace {

// A kernel handle for one call, registered so porta_stream_dispatch accepts it.
struct TemporaryHandle {
  explicit TemporaryHandle(std::shared_ptr<KernelState> state) {
    handle.state = std::move(state);
    core::register_handle(&handle, "kernel");
  }
  ~TemporaryHandle() { core::unregister_handle(&handle); }
  porta_kernel_t handle;
};

}  // namespace

void dispatch(const Call& call, const std::shared_ptr<KernelState>& kernel, uint32_t groups_x, uint32_t groups_y,
              std::initializer_list<porta_buffer> buffers, const void* push, uint32_t push_size) {
  TemporaryHandle handle(kernel);
  const uint32_t groups[3] = {groups_x, groups_y, 1};
  std::vector<porta_buffer> list(buffers);
  porta_status status = porta_stream_dispatch(call.stream, &handle.handle, groups, list.data(),
                                              static_cast<uint32_t>(list.size()), push, push_size);
  if (status != PORTA_SUCCESS) throw core::Failure(status, std::string(call.op) + ": " + porta_last_error());
}

ScratchBuffer::ScratchBuffer(const Call& call, uint64_t bytes) {
  porta_device_t device{call.device};
  core::register_handle(&device, "device");
  porta_status status = porta_buffer_create(&device, bytes, &buffer);
  core::unregister_handle(&device);
  if (status != PORTA_SUCCESS)
    throw core::Failure(status, std::string(call.op) + ": workspace: " + porta_last_error());
}

ScratchBuffer::~ScratchBuffer() { porta_buffer_destroy(buffer); }

bool cpu_like(const DeviceState& device) {
  return device.info.type == PORTA_DEVICE_CPU || porta_cpu_backend(device);
}

bool porta_cpu_backend(const DeviceState& device) { return std::strcmp(device.info.backend, "cpu") == 0; }

uint32_t workgroup_size(const DeviceState& device, uint32_t preferred) {
  const uint32_t limit = std::min(device.info.limits.max_workgroup_invocations, device.info.limits.max_workgroup_size[0]);
  uint32_t size = preferred;
  while (size > 1 && size > limit) size /= 2;
  return size;
}

uint32_t grid_groups(const DeviceState& device, uint64_t n, uint32_t workgroup) {
  // Enough groups to keep every core busy; past that a grid-stride loop does
  // the rest with less launch overhead.
  const uint64_t target = cpu_like(device) ? 256 : 65535;
  uint64_t groups = (n + workgroup - 1) / workgroup;
  groups = std::min<uint64_t>({groups, target, device.info.limits.max_workgroup_count[0]});
  return static_cast<uint32_t>(std::max<uint64_t>(groups, 1));
}

}  // namespace porta::ops
