// C API: backends, devices, buffers, kernels.
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "errors.hpp"
#include "fault.hpp"
#include "handle_registry.hpp"
#include "handles.hpp"
#include "interop.hpp"
#include "kernel_builder.hpp"
#include "log.hpp"
#include "porta/version.h"
#include "registry.hpp"
#include "robust.hpp"
#include "selection.hpp"

using namespace porta::core;

namespace {

// select_device(), its refusal named after `call`.
Selection select_with_call(const std::string& selector, const char* call) {
  try {
    return select_device(selector);
  } catch (const Failure& f) {
    fail(f.status, "%s: %s", call, f.what());
  }
}

// What `read` returns from a live handle; zero, with the last error set,
// from any other.
template <class Object, class Read>
auto read_handle(Object* handle, const char* kind, const char* call, Read read) {
  decltype(read(*handle)) value{};
  guard([&] {
    check_handle(handle, kind, call);
    value = read(*handle);
  });
  return value;
}

}  // namespace

extern "C" {

const char* porta_version(void) { return PORTA_VERSION_STRING; }

uint32_t porta_backend_count(void) {
  uint32_t n = 0;
  guard([&] { n = static_cast<uint32_t>(Registry::get().plugins().size()); });
  return n;
}

porta_status porta_backend_get(uint32_t index, const char** name, int* available, const char** reason) {
  return guard([&] {
    const auto& plugins = Registry::get().plugins();
    if (index >= plugins.size())
      fail(PORTA_ERROR_INVALID_ARGUMENT, "porta_backend_get: index %u out of range (%zu backends)", index,
           plugins.size());
    if (name) *name = plugins[index]->name.c_str();
    if (available) *available = plugins[index]->available ? 1 : 0;
    if (reason) *reason = plugins[index]->reason.c_str();
  });
}

uint32_t porta_device_count(void) {
  uint32_t n = 0;
  guard([&] { n = static_cast<uint32_t>(Registry::get().ordered_devices().size()); });
  return n;
}

porta_status porta_device_get_info(uint32_t index, porta_device_info* info) {
  return guard([&] {
    const auto& devices = Registry::get().ordered_devices();
    if (!info) fail(PORTA_ERROR_INVALID_ARGUMENT, "porta_device_get_info: info is null");
    if (index >= devices.size())
      fail(PORTA_ERROR_INVALID_ARGUMENT, "porta_device_get_info: index %u out of range (%zu devices)", index,
           devices.size());
    *info = *devices[index];
  });
}

static porta_status open_device(const char* selector, const porta_device_options* options,
                                porta_device* device, const char* call) {
  clear_last_error();
  return guard([&] {
    if (!device) fail(PORTA_ERROR_INVALID_ARGUMENT, "%s: device is null", call);
    *device = nullptr;
    const Robustness robustness = resolve_robustness(options, call);
    Selection s = select_with_call(selector ? selector : "", call);
    auto state = std::make_shared<DeviceState>();
    state->plugin = s.plugin;
    state->api = s.plugin->api;
    state->info = *s.info;
    state->label = format("%s:%u (%s)", s.info->backend, s.info->index, s.info->name);
    state->robust = robustness.robust;
    state->bounds_report = robustness.report;
    state->timeout_ms = robustness.timeout_ms;
    // A report comes from the core's bounds-checked translations, or on a
    // device that runs SPIR-V, from modules the core instruments (the
    // driver's robust buffer access alone would drop accesses without a word).
    if (state->api->device_open_options) {
      const porta_plugin_device_options plugin_options{robustness.robust ? 1u : 0u, robustness.timeout_ms};
      check_plugin(state->api->device_open_options(s.info->index, &plugin_options, &state->handle), *state,
                   "device_open");
    } else {
      if (robustness.timeout_ms)
        fail(PORTA_ERROR_UNSUPPORTED,
             "%s: %s has no watchdog (its plugin predates porta/robust.h); unset "
             "PORTA_TIMEOUT or give timeout_seconds < 0",
             call, state->label.c_str());
      // Translated languages get bounds-checked source from the core; SPIR-V needs the driver.
      if (robustness.robust && state->api->language == PORTA_LANGUAGE_SPIRV)
        fail(PORTA_ERROR_UNSUPPORTED, "%s: %s cannot be opened robust (its plugin predates porta/robust.h)",
             call, state->label.c_str());
      check_plugin(state->api->device_open(s.info->index, &state->handle), *state, "device_open");
    }
    log(PORTA_LOG_INFO,
        "using " + state->label + ": " + s.why +
            (robustness.report   ? "; robust buffer access, accesses out of bounds reported"
             : robustness.robust ? "; robust buffer access"
                                 : "") +
            (robustness.timeout_ms
                 ? format("; dispatch limit %llu ms", static_cast<unsigned long long>(robustness.timeout_ms))
                 : std::string()));
    auto* handle = new porta_device_t{std::move(state)};
    hand_out(handle, "device", device);
  });
}

porta_status porta_device_open(const char* selector, porta_device* device) {
  return open_device(selector, nullptr, device, "porta_device_open");
}

porta_status porta_device_open_with_options(const char* selector, const porta_device_options* options,
                                            porta_device* device) {
  return open_device(selector, options, device, "porta_device_open_with_options");
}

porta_status porta_device_get_robustness(porta_device device, uint32_t* robust, double* timeout_seconds) {
  clear_last_error();
  return guard([&] {
    check_handle(device, "device", "porta_device_get_robustness");
    if (robust) *robust = device->state->bounds_report ? 2 : device->state->robust ? 1 : 0;
    if (timeout_seconds) *timeout_seconds = static_cast<double>(device->state->timeout_ms) / 1000.0;
  });
}

void porta_device_close(porta_device device) {
  if (release_handle(device, "device", "porta_device_close")) delete device;
}

static porta_status query_info(porta_device device, porta_device_info* info, const char* call) {
  clear_last_error();
  return guard([&] {
    check_handle(device, "device", call);
    check_not_lost(*device->state, call);
    if (!info) fail(PORTA_ERROR_INVALID_ARGUMENT, "%s: info is null", call);
    *info = device->state->info;
  });
}

porta_status porta_device_query_info(porta_device device, porta_device_info* info) {
  return query_info(device, info, "porta_device_query_info");
}

porta_status porta_device_info_get(porta_device device, porta_device_info* info) {
  return query_info(device, info, "porta_device_info_get");
}

// ---- buffers ----------------------------------------------------------------

porta_status porta_buffer_create(porta_device device, uint64_t size, porta_buffer* buffer) {
  clear_last_error();
  return guard([&] {
    check_handle(device, "device", "porta_buffer_create");
    if (!buffer) fail(PORTA_ERROR_INVALID_ARGUMENT, "porta_buffer_create: buffer is null");
    *buffer = nullptr;
    const DeviceRef& dev = device->state;
    if (size == 0)
      fail(PORTA_ERROR_INVALID_ARGUMENT, "porta_buffer_create on %s: size is 0 bytes", dev->label.c_str());
    if (dev->info.limits.max_buffer_bytes && size > dev->info.limits.max_buffer_bytes)
      fail(PORTA_ERROR_OUT_OF_MEMORY,
           "porta_buffer_create on %s: %llu bytes exceeds the device's largest buffer (%llu bytes)",
           dev->label.c_str(), static_cast<unsigned long long>(size),
           static_cast<unsigned long long>(dev->info.limits.max_buffer_bytes));
    check_not_lost(*dev, "porta_buffer_create");
    // An allocation through the caller's allocator hook counts as one too.
    const std::string what = format("buffer_create (%llu bytes)", static_cast<unsigned long long>(size));
    fault_point(*dev, FaultPoint::alloc, "porta_buffer_create", what.c_str());
    auto state = allocate_with_hook(dev, size);
    if (!state) {
      state = std::make_shared<BufferState>();
      state->device = dev;
      state->size = size;
      check_plugin(dev->api->buffer_create(dev->handle, size, &state->handle), *dev, what.c_str());
    }
    auto* handle = new porta_buffer_t{std::move(state)};
    hand_out(handle, "buffer", buffer);
  });
}

void porta_buffer_destroy(porta_buffer buffer) {
  if (release_handle(buffer, "buffer", "porta_buffer_destroy")) delete buffer;
}

uint64_t porta_buffer_size(porta_buffer buffer) {
  return read_handle(buffer, "buffer", "porta_buffer_size", [](porta_buffer_t& b) { return b.state->size; });
}

// ---- kernels ----------------------------------------------------------------

static porta_status make_kernel(porta_device device, const std::vector<uint32_t>* spirv,
                                const std::string* glsl, const char* name, const porta_spec_constant* specs,
                                uint32_t spec_count, porta_kernel* kernel, const char* call) {
  check_handle(device, "device", call);
  check_not_lost(*device->state, call);
  if (!kernel) fail(PORTA_ERROR_INVALID_ARGUMENT, "%s: kernel is null", call);
  *kernel = nullptr;
  auto state = build_kernel(device->state, spirv, glsl, name && *name ? name : "kernel", specs, spec_count);
  auto* handle = new porta_kernel_t{std::move(state)};
  hand_out(handle, "kernel", kernel);
  return PORTA_SUCCESS;
}

porta_status porta_kernel_create_glsl(porta_device device, const char* source, size_t size, const char* name,
                                      const porta_spec_constant* specs, uint32_t spec_count,
                                      porta_kernel* kernel) {
  clear_last_error();
  return guard([&] {
    check_kernel_source(source, size, 1, specs, spec_count, "porta_kernel_create_glsl", "source", "size");
    std::string text(source, size);
    make_kernel(device, nullptr, &text, name, specs, spec_count, kernel, "porta_kernel_create_glsl");
  });
}

porta_status porta_kernel_create_spirv(porta_device device, const uint32_t* words, size_t word_count,
                                       const char* name, const porta_spec_constant* specs,
                                       uint32_t spec_count, porta_kernel* kernel) {
  clear_last_error();
  return guard([&] {
    check_kernel_source(words, word_count, sizeof(uint32_t), specs, spec_count, "porta_kernel_create_spirv",
                        "words", "word_count");
    std::vector<uint32_t> spirv(words, words + word_count);
    make_kernel(device, &spirv, nullptr, name, specs, spec_count, kernel, "porta_kernel_create_spirv");
  });
}

void porta_kernel_destroy(porta_kernel kernel) {
  if (release_handle(kernel, "kernel", "porta_kernel_destroy")) delete kernel;
}

uint32_t porta_kernel_buffer_count(porta_kernel kernel) {
  return read_handle(kernel, "kernel", "porta_kernel_buffer_count",
                     [](porta_kernel_t& k) { return k.state->interface.buffer_count; });
}

uint32_t porta_kernel_push_constant_size(porta_kernel kernel) {
  return read_handle(kernel, "kernel", "porta_kernel_push_constant_size",
                     [](porta_kernel_t& k) { return k.state->interface.push_constant_size; });
}

void porta_kernel_workgroup_size(porta_kernel kernel, uint32_t size[3]) {
  guard([&] {
    check_handle(kernel, "kernel", "porta_kernel_workgroup_size");
    if (!size) fail(PORTA_ERROR_INVALID_ARGUMENT, "porta_kernel_workgroup_size: size is null");
    std::memcpy(size, kernel->state->interface.workgroup_size, 3 * sizeof(uint32_t));
  });
}

}  // extern "C"
