// C API: porta_kernel_create (descriptor-based kernel creation) and the
// device's table of reused kernels (PORTA_KERNEL_FLAG_REUSE), which the ops
// use for their built-in kernels, and any framework for its own.
//
// Lifetime: the table lives in the device (DeviceState::builtin_kernels) and
// its kernels must not own the device (a cycle), so their KernelState::device
// is a non-owning alias. Each handle handed out owns the device itself beside
// the kernel, so a handle keeps its device alive as every porta handle does.
#include <algorithm>
#include <cstring>

#include "errors.hpp"
#include "handle_registry.hpp"
#include "handles.hpp"
#include "kernel_builder.hpp"

using namespace porta::core;

namespace {

// The fields of the first porta_kernel_descriptor, up to and including flags.
constexpr size_t kDescriptorV1Size = offsetof(porta_kernel_descriptor, flags) + sizeof(uint32_t);

// The descriptor as this version knows it: fields past the caller's
// struct_size are zero; fields past ours must be.
porta_kernel_descriptor read_descriptor(const porta_kernel_descriptor* given, const char* call) {
  if (!given) fail(PORTA_ERROR_INVALID_ARGUMENT, "%s: descriptor is null", call);
  if (given->struct_size < kDescriptorV1Size)
    fail(PORTA_ERROR_INVALID_ARGUMENT, "%s: descriptor struct_size is %u; it must be at least %zu", call,
         given->struct_size, kDescriptorV1Size);
  porta_kernel_descriptor d{};
  std::memcpy(&d, given, std::min<size_t>(given->struct_size, sizeof d));
  const auto* bytes = reinterpret_cast<const unsigned char*>(given);
  for (size_t i = sizeof d; i < given->struct_size; ++i)
    if (bytes[i])
      fail(PORTA_ERROR_UNSUPPORTED,
           "%s: the descriptor (%u bytes) sets fields this porta version (%zu bytes) does not know", call,
           given->struct_size, sizeof d);
  return d;
}

// The table key: everything that makes two kernels the same. Built on every
// call of an op, so without formatting.
std::string reuse_key(const porta_kernel_descriptor& d, const std::string& name) {
  std::vector<porta_spec_constant> specs(d.specs, d.specs + d.spec_count);
  auto by_id = [](const porta_spec_constant& a, const porta_spec_constant& b) { return a.id < b.id; };
  if (!std::is_sorted(specs.begin(), specs.end(), by_id)) std::sort(specs.begin(), specs.end(), by_id);
  std::string key;
  key.reserve(name.size() + 24 * specs.size() + d.source_size + 32);
  key += std::to_string(static_cast<int>(d.source_kind));
  key += '|';
  key += name;
  key += '|';
  for (const auto& s : specs) {
    key += std::to_string(s.id);
    key += '=';
    key += std::to_string(s.bits);
    key += '|';
  }
  key += std::to_string(d.source_size);
  key += '|';
  key.append(static_cast<const char*>(d.source), d.source_size);
  return key;
}

std::shared_ptr<KernelState> build(const DeviceRef& device, const porta_kernel_descriptor& d,
                                   const std::string& name) {
  if (d.source_kind == PORTA_KERNEL_SOURCE_GLSL) {
    std::string text(static_cast<const char*>(d.source), d.source_size);
    return build_kernel(device, nullptr, &text, name, d.specs, d.spec_count);
  }
  const auto* words = static_cast<const uint32_t*>(d.source);
  std::vector<uint32_t> spirv(words, words + d.source_size / sizeof(uint32_t));
  return build_kernel(device, &spirv, nullptr, name, d.specs, d.spec_count);
}

// A kernel of the device's table, held the way a handle must hold it: the
// handle's pointer is the table's kernel, its owner also owns the device.
std::shared_ptr<KernelState> owning(const DeviceRef& device, std::shared_ptr<KernelState> kernel) {
  struct Owner {
    DeviceRef device;
    std::shared_ptr<KernelState> kernel;
  };
  auto owner = std::make_shared<Owner>(Owner{device, std::move(kernel)});
  return std::shared_ptr<KernelState>(owner, owner->kernel.get());
}

std::shared_ptr<KernelState> reused(const DeviceRef& device, const porta_kernel_descriptor& d,
                                    const std::string& name) {
  const std::string key = reuse_key(d, name);
  DeviceState& state = *device;
  std::lock_guard lock(state.builtin_mutex);
  auto found = state.builtin_kernels.find(key);
  if (found != state.builtin_kernels.end()) return owning(device, found->second);
  std::shared_ptr<KernelState> kernel = build(device, d, name);
  kernel->device = DeviceRef(DeviceRef(), &state);
  state.builtin_kernels.emplace(key, kernel);
  return owning(device, std::move(kernel));
}

}  // namespace

extern "C" porta_status porta_kernel_create(porta_device device, const porta_kernel_descriptor* descriptor,
                                            porta_kernel* kernel) {
  clear_last_error();
  return guard([&] {
    const char* call = "porta_kernel_create";
    check_handle(device, "device", call);
    if (!kernel) fail(PORTA_ERROR_INVALID_ARGUMENT, "%s: kernel is null", call);
    *kernel = nullptr;
    const porta_kernel_descriptor d = read_descriptor(descriptor, call);
    if (d.source_kind != PORTA_KERNEL_SOURCE_GLSL && d.source_kind != PORTA_KERNEL_SOURCE_SPIRV)
      fail(PORTA_ERROR_INVALID_ARGUMENT, "%s: source_kind %d is not a porta_kernel_source_kind", call,
           static_cast<int>(d.source_kind));
    if (!d.source && d.source_size) fail(PORTA_ERROR_INVALID_ARGUMENT, "%s: source is null", call);
    if (d.source_kind == PORTA_KERNEL_SOURCE_SPIRV && d.source_size % sizeof(uint32_t))
      fail(PORTA_ERROR_INVALID_ARGUMENT, "%s: %zu bytes of SPIR-V are not whole 32-bit words", call,
           d.source_size);
    if (d.spec_count && !d.specs)
      fail(PORTA_ERROR_INVALID_ARGUMENT, "%s: %u specialization constants but a null array", call,
           d.spec_count);
    if (d.flags & ~static_cast<uint32_t>(PORTA_KERNEL_FLAG_REUSE))
      fail(PORTA_ERROR_INVALID_ARGUMENT, "%s: unknown flags 0x%x", call,
           d.flags & ~static_cast<uint32_t>(PORTA_KERNEL_FLAG_REUSE));
    const std::string name = d.name && *d.name ? d.name : "kernel";
    auto state =
        d.flags & PORTA_KERNEL_FLAG_REUSE ? reused(device->state, d, name) : build(device->state, d, name);
    auto* handle = new porta_kernel_t{std::move(state)};
    register_handle(handle, "kernel");
    *kernel = handle;
  });
}
