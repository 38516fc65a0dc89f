// libporta's internals: the objects behind the C handles, the plugin registry,
// errors, logging and the kernel cache. Nothing here is public.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "porta/plugin.h"
#include "porta/porta.h"

namespace porta::core {

// ---- errors -----------------------------------------------------------------

// A failure with its status and a complete message. Thrown inside libporta and
// turned into a porta_status + porta_last_error() at the C boundary.
struct Failure : std::runtime_error {
  Failure(porta_status status, const std::string& message) : std::runtime_error(message), status(status) {}
  porta_status status;
};

[[noreturn, gnu::format(printf, 2, 3)]] void fail(porta_status status, const char* fmt, ...);
[[gnu::format(printf, 1, 2)]] std::string format(const char* fmt, ...);

void set_last_error(porta_status status, const std::string& message);
void clear_last_error();
// The message of the last error without its status name.
const std::string& last_error_cause();

// Runs `body` at the C boundary: exceptions become the returned status.
porta_status guard(const std::function<void()>& body) noexcept;

// ---- logging ----------------------------------------------------------------

porta_log_level log_level();
void log(porta_log_level level, const std::string& message);

// ---- kernel cache -----------------------------------------------------------

// Empty when the cache is off (PORTA_CACHE=0) or no directory can be made.
const std::string& cache_dir();
bool cache_load(const std::string& key, std::vector<uint8_t>& data);
bool cache_store(const std::string& key, const void* data, size_t size);
std::string hash_hex(const void* data, size_t size, const std::string& salt = {});

// ---- plugins ----------------------------------------------------------------

struct Plugin {
  std::string name;  // from the file name until the table says otherwise
  std::string path;
  const porta_plugin_api* api = nullptr;
  bool available = false;
  std::string reason;  // why not available
  std::vector<porta_device_info> devices;
};

// Loads every plugin once, in the documented search order.
class Registry {
 public:
  static Registry& get();
  const std::vector<std::unique_ptr<Plugin>>& plugins() const { return plugins_; }
  // All devices of available plugins in the default preference order.
  const std::vector<const porta_device_info*>& ordered_devices() const { return ordered_; }
  Plugin* find(const std::string& name) const;
  // Folders searched, in order.
  const std::vector<std::string>& search_path() const { return search_path_; }

 private:
  Registry();
  void load_folder(const std::string& folder);
  void load_plugin(const std::string& path, const std::string& name);
  std::vector<std::unique_ptr<Plugin>> plugins_;
  std::vector<const porta_device_info*> ordered_;
  std::vector<std::string> search_path_;
};

// Resolves a selector ("" → PORTA_BACKEND/PORTA_DEVICE → best) to one device;
// `why` says how it was chosen.
struct Selection {
  Plugin* plugin = nullptr;
  const porta_device_info* info = nullptr;
  std::string why;
};
Selection select_device(const std::string& selector);

}  // namespace porta::core

// ---- the objects behind the C handles ---------------------------------------

struct DeviceState {
  porta::core::Plugin* plugin = nullptr;
  const porta_plugin_api* api = nullptr;
  porta_plugin_device handle = nullptr;
  porta_device_info info{};
  std::string label;  // "backend:index (name)" for messages
  std::mutex io_mutex;  // the device's own stream for porta_buffer_read/write
  porta_plugin_stream io_stream = nullptr;
  // Built-in kernels made for this device, keyed by name and spec values.
  // Their KernelState::device must not own this device (a cycle): make it with
  // the aliasing constructor, DeviceRef(DeviceRef(), this). ~DeviceState
  // clears the table before closing the device.
  std::mutex builtin_mutex;
  std::map<std::string, std::shared_ptr<struct KernelState>> builtin_kernels;
  ~DeviceState();
};
using DeviceRef = std::shared_ptr<DeviceState>;

struct porta_device_t {
  DeviceRef state;
};

struct BufferState {
  DeviceRef device;
  porta_plugin_buffer handle = nullptr;
  uint64_t size = 0;
  ~BufferState();
};

struct porta_buffer_t {
  std::shared_ptr<BufferState> state;
};

struct KernelInterface {
  std::string name;
  uint32_t buffer_count = 0;
  std::vector<uint32_t> bindings;
  uint32_t push_constant_size = 0;         // the block the kernel declares: what callers pass
  uint32_t device_push_constant_size = 0;  // the part the optimised kernel reads: what the backend gets
  uint32_t workgroup_size[3] = {1, 1, 1};
};

struct KernelState {
  DeviceRef device;
  porta_plugin_kernel handle = nullptr;
  KernelInterface interface;
  ~KernelState();
};

struct porta_kernel_t {
  std::shared_ptr<KernelState> state;
};

// One recorded operation when the core itself records a sequence (plugins
// whose table has no recording entries).
using RecordedOp = std::function<porta_status()>;

struct porta_sequence_t {
  DeviceRef device;
  porta_plugin_sequence handle = nullptr;  // recorded by the plugin
  std::vector<RecordedOp> ops;             // recorded by the core
  // Buffers and kernels the recorded work uses live as long as the sequence.
  std::vector<std::shared_ptr<void>> keep_alive;
};

struct porta_stream_t {
  DeviceRef device;
  porta_plugin_stream handle = nullptr;
  std::unique_ptr<porta_sequence_t> recording;  // the sequence being recorded, if any
  // Objects used by work queued since the last sync stay alive until it ends.
  std::vector<std::shared_ptr<void>> in_flight;
};

struct porta_event_t {
  DeviceRef device;
  porta_plugin_event handle = nullptr;
};

namespace porta::core {

// Handle registry: every live handle is registered so the C API can tell a
// null, destroyed or foreign handle from a live one and say so.
void register_handle(const void* handle, const char* kind);
void unregister_handle(const void* handle);
// Throws INVALID_HANDLE unless `handle` is live and of `kind`.
void check_handle(const void* handle, const char* kind, const char* call);

// Calls a plugin function; a failure becomes a Failure with context.
void check_plugin(porta_status status, const DeviceState& device, const char* call);

// Builds a kernel: front end, reflection, limits, translation, plugin.
std::shared_ptr<KernelState> build_kernel(const DeviceRef& device, const std::vector<uint32_t>* spirv, const std::string* glsl,
                             const std::string& name, const porta_spec_constant* specs, uint32_t spec_count);

}  // namespace porta::core
