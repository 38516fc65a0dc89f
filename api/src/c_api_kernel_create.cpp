// C API: porta_kernel_create (descriptor-based kernel creation) and the
// device's table of reused kernels (PORTA_KERNEL_FLAG_REUSE, found by source
// or by the caller's reuse_key), which the ops use for their built-in kernels,
// and any framework for its own.
//
// Lifetime: the table lives in the device (DeviceState::reused_kernels) and
// its kernels must not own the device (a cycle), so their KernelState::device
// is a non-owning alias. Each handle handed out owns the device itself beside
// the kernel, so a handle keeps its device alive as every porta handle does.
#include <algorithm>
#include <cstring>

#include "errors.hpp"
#include "fault.hpp"
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

// The table key: what makes two kernels the same. With a reuse_key, the key
// and the specialization constants (sorted by id); without, the source kind,
// name, constants and the source itself. Asked for on every call of an op, so
// written into the thread's own buffer: no allocation once it has grown.
// Not inlined: inlined, the compiler looks the thread-local up again at every
// use of the buffer.
[[gnu::noinline]] std::string& thread_key_buffer() {
  thread_local std::string buffer;
  return buffer;
}

const std::string& reuse_key(const porta_kernel_descriptor& d, const std::string& name) {
  std::string& key = thread_key_buffer();
  key.clear();
  const porta_spec_constant* specs = d.specs;
  std::vector<porta_spec_constant> sorted;
  auto by_id = [](const porta_spec_constant& a, const porta_spec_constant& b) { return a.id < b.id; };
  if (!std::is_sorted(d.specs, d.specs + d.spec_count, by_id)) {
    sorted.assign(d.specs, d.specs + d.spec_count);
    std::sort(sorted.begin(), sorted.end(), by_id);
    specs = sorted.data();
  }
  const auto append_specs = [&] {
    for (uint32_t i = 0; i < d.spec_count; ++i) {
      key.append(reinterpret_cast<const char*>(&specs[i].id), sizeof specs[i].id);
      key.append(reinterpret_cast<const char*>(&specs[i].bits), sizeof specs[i].bits);
    }
    // 64-bit values after the 32-bit ones, as 12-byte records in the caller's order.
    for (uint32_t i = 0; i < d.spec64_count; ++i) {
      key.append(reinterpret_cast<const char*>(&d.specs64[i].id), sizeof d.specs64[i].id);
      key.append(reinterpret_cast<const char*>(&d.specs64[i].bits), sizeof d.specs64[i].bits);
    }
  };
  // A key or a name ends at its NUL; the constants are whole 8-byte records,
  // counted where the source follows them.
  if (d.flags & PORTA_KERNEL_FLAG_ALLOW_TF32) key += 'T';  // another translation of the same source
  if (d.reuse_key && *d.reuse_key) {
    key += 'K';
    key.append(d.reuse_key, std::strlen(d.reuse_key) + 1);
    append_specs();
    return key;
  }
  key.reserve(name.size() + 8 * d.spec_count + d.source_size + 8);
  key += d.source_kind == PORTA_KERNEL_SOURCE_GLSL ? 'G' : 'S';
  key.append(name.c_str(), name.size() + 1);
  key.append(reinterpret_cast<const char*>(&d.spec_count), sizeof d.spec_count);
  key.append(reinterpret_cast<const char*>(&d.spec64_count), sizeof d.spec64_count);
  append_specs();
  key.append(static_cast<const char*>(d.source), d.source_size);
  return key;
}

std::shared_ptr<KernelState> build(const DeviceRef& device, const porta_kernel_descriptor& d,
                                   const std::string& name) {
  if (d.source_kind == PORTA_KERNEL_SOURCE_GLSL) {
    std::string text(static_cast<const char*>(d.source), d.source_size);
    return build_kernel(device, nullptr, &text, name, d.specs, d.spec_count, d.specs64, d.spec64_count,
                        d.flags & PORTA_KERNEL_FLAG_ALLOW_TF32);
  }
  const auto* words = static_cast<const uint32_t*>(d.source);
  std::vector<uint32_t> spirv(words, words + d.source_size / sizeof(uint32_t));
  return build_kernel(device, &spirv, nullptr, name, d.specs, d.spec_count, d.specs64, d.spec64_count,
                      d.flags & PORTA_KERNEL_FLAG_ALLOW_TF32);
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
  const std::string& key = reuse_key(d, name);
  DeviceState& state = *device;
  std::lock_guard lock(state.reused_mutex);
  auto found = state.reused_kernels.find(key);
  if (found != state.reused_kernels.end()) return owning(device, found->second);
  std::string stored = key;
  std::shared_ptr<KernelState> kernel = build(device, d, name);
  kernel->device = DeviceRef(DeviceRef(), &state);
  state.reused_kernels.emplace(std::move(stored), kernel);
  return owning(device, std::move(kernel));
}

void create_kernel(porta_device device, const porta_kernel_descriptor* descriptor, porta_kernel* kernel) {
  const char* call = "porta_kernel_create";
  check_handle(device, "device", call);
  check_not_lost(*device->state, call);
  if (!kernel) fail(PORTA_ERROR_INVALID_ARGUMENT, "%s: kernel is null", call);
  *kernel = nullptr;
  const porta_kernel_descriptor d = read_descriptor(descriptor, call);
  if (d.source_kind != PORTA_KERNEL_SOURCE_GLSL && d.source_kind != PORTA_KERNEL_SOURCE_SPIRV)
    fail(PORTA_ERROR_INVALID_ARGUMENT, "%s: source_kind %d is not a porta_kernel_source_kind", call,
         static_cast<int>(d.source_kind));
  // A reuse_key names a kernel the device may have built already: its source may be left out.
  const bool keyed = (d.flags & PORTA_KERNEL_FLAG_REUSE) && d.reuse_key && *d.reuse_key;
  check_kernel_source(d.source, d.source_size, 1, d.specs, d.spec_count, call, "source", "source_size",
                      keyed);
  if (d.spec64_count && !d.specs64)
    fail(PORTA_ERROR_INVALID_ARGUMENT, "%s: spec64_count is %u but specs64 is null", call, d.spec64_count);
  if (d.source_kind == PORTA_KERNEL_SOURCE_SPIRV && d.source_size % sizeof(uint32_t))
    fail(PORTA_ERROR_INVALID_ARGUMENT, "%s: %zu bytes of SPIR-V are not whole 32-bit words", call,
         d.source_size);
  const uint32_t known = PORTA_KERNEL_FLAG_REUSE | PORTA_KERNEL_FLAG_ALLOW_TF32;
  if (d.flags & ~known) fail(PORTA_ERROR_INVALID_ARGUMENT, "%s: unknown flags 0x%x", call, d.flags & ~known);
  if (d.reuse_key && *d.reuse_key && !(d.flags & PORTA_KERNEL_FLAG_REUSE))
    fail(PORTA_ERROR_INVALID_ARGUMENT, "%s: reuse_key '%s' is set but PORTA_KERNEL_FLAG_REUSE is not", call,
         d.reuse_key);
  const std::string name = d.name && *d.name ? d.name : "kernel";
  auto state =
      d.flags & PORTA_KERNEL_FLAG_REUSE ? reused(device->state, d, name) : build(device->state, d, name);
  auto* handle = new porta_kernel_t{std::move(state)};
  register_handle(handle, "kernel");
  *kernel = handle;
}

}  // namespace

extern "C" porta_status porta_kernel_create(porta_device device, const porta_kernel_descriptor* descriptor,
                                            porta_kernel* kernel) {
  clear_last_error();
  // guard() takes a std::function, which holds a lambda of up to two pointers
  // without allocating: an op asks on every call, so the arguments go as one.
  const struct {
    porta_device device;
    const porta_kernel_descriptor* descriptor;
    porta_kernel* kernel;
  } args{device, descriptor, kernel};
  return guard([&args] { create_kernel(args.device, args.descriptor, args.kernel); });
}
