// The objects behind the C handles (porta_device, porta_buffer, ...). A handle
// owns a shared reference to its state; every state keeps its device alive, so
// callers may destroy handles in any order.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "porta/interop.h"
#include "porta/plugin.h"
#include "porta/porta.h"

namespace porta::core {
struct Plugin;
struct KernelBoundsReport;
struct BoundsRecord;
}  // namespace porta::core

// A stream destroyed while its work waited for a framework's event
// (porta_stream_wait_native_event) that had not come: porta_stream_destroy
// does not wait for that work (left_work.cpp). The plugin stream stays until
// `end`, recorded after the work, has passed.
struct LeftStream {
  uint64_t serial = 0;
  porta_plugin_stream handle = nullptr;
  porta_plugin_event end = nullptr;
};

// An object let go while left work was pending: freed (its plugin object
// destroyed, foreign memory released) once every LeftStream up to `serial`
// has finished, as that work may still use it.
struct DeferredRelease {
  uint64_t serial = 0;
  std::string what;  // "a buffer of N bytes", for the report when it is never freed
  std::function<void()> release;
};

struct DeviceState {
  porta::core::Plugin* plugin = nullptr;
  const porta_plugin_api* api = nullptr;
  porta_plugin_device handle = nullptr;
  porta_device_info info{};
  std::string label;  // "backend:index (name)" for messages
  // porta/robust.h: the options the device was opened with, and whether it
  // is lost (a plugin said PORTA_ERROR_DEVICE_LOST): every later call on it
  // fails with `lost_cause`, and nothing is handed back to its plugin.
  bool robust = false;
  bool bounds_report = false;  // PORTA_ROBUST_REPORT: translated kernels record what goes out of bounds
  uint64_t timeout_ms = 0;
  std::atomic<bool> lost{false};
  std::mutex lost_mutex;
  std::string lost_cause;
  std::mutex io_mutex;  // the device's own stream for porta_buffer_read/write
  porta_plugin_stream io_stream = nullptr;
  // Kernels made with PORTA_KERNEL_FLAG_REUSE (the ops' built-in kernels among
  // them), keyed by reuse key or source and spec values
  // (c_api_kernel_create.cpp). Their KernelState::device must not own this
  // device (a cycle): make it with the aliasing constructor,
  // DeviceRef(DeviceRef(), this). ~DeviceState clears the table before
  // closing the device.
  std::mutex reused_mutex;
  std::map<std::string, std::shared_ptr<struct KernelState>> reused_kernels;
  // A framework's allocator for porta_buffer_create (porta_device_set_allocator).
  std::mutex allocator_mutex;
  porta_allocator allocator{};
  // Work left by destroyed streams and what waits for it (left_work.cpp).
  // Nothing here owns the device: the objects' releases capture no DeviceRef.
  std::mutex left_mutex;
  std::vector<LeftStream> left_streams;
  std::vector<DeferredRelease> deferred;
  uint64_t left_serial = 0;
  std::atomic<bool> has_left_work{false};
  // Keeps the plugin stream `stream` until `end` (recorded after its work) has passed.
  void leave_stream(porta_plugin_stream stream, porta_plugin_event end);
  // Runs `release` once the left work pending now has finished, or now
  // (returns false, the caller runs it) when there is none.
  bool defer_release(const std::string& what, std::function<void()>& release);
  // Destroys the left streams whose work has finished, and runs the
  // releases that waited for them; never blocks.
  void release_left_work();
  // At close: satisfies what the plugin can of the events left work waits
  // for, waits a bounded time, and reports what is left. False: work is
  // left, and the device must not be closed under it.
  bool finish_left_work();
  ~DeviceState();
};
using DeviceRef = std::shared_ptr<DeviceState>;

struct porta_device_t {
  DeviceRef state;
};

// A range of a buffer mapped into host memory (porta_buffer_map).
struct Mapping {
  uint64_t offset = 0, bytes = 0;
  std::unique_ptr<unsigned char[]> staging;  // null where the buffer is mapped in place
};

struct BufferState {
  DeviceRef device;
  porta_plugin_buffer handle = nullptr;
  uint64_t size = 0;
  // Foreign memory: what gives it back once the plugin buffer is gone (a
  // release callback, an allocator's free, a DLPack deleter).
  std::function<void()> on_release;
  std::mutex mappings_mutex;
  std::map<void*, Mapping> mappings;  // keyed by the pointer porta_buffer_map gave
  ~BufferState();
};

struct porta_buffer_t {
  std::shared_ptr<BufferState> state;
};

// One buffer parameter as the dispatch check needs it.
struct KernelBufferParameter {
  uint32_t set = 0, binding = 0, array_index = 0;
  bool is_array = false;  // one element of an array of blocks
  std::string name;
  uint64_t min_size = 0;  // bytes the block's fixed part needs
};

struct KernelInterface {
  std::string name;
  uint32_t buffer_count = 0;
  std::vector<KernelBufferParameter> buffers;  // parameter order
  uint32_t push_constant_size = 0;             // the block the kernel declares: what callers pass
  uint32_t device_push_constant_size = 0;      // the part the optimised kernel reads: what the backend gets
  uint32_t workgroup_size[3] = {1, 1, 1};
};

struct KernelState {
  DeviceRef device;
  porta_plugin_kernel handle = nullptr;
  KernelInterface interface;
  // PORTA_ROBUST_REPORT: the kernel takes a record buffer after its own
  // (bounds_report.hpp); null for a kernel that does not report.
  std::shared_ptr<const porta::core::KernelBoundsReport> bounds_report;
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
  // The records its reporting dispatches write, checked by the sync after each replay.
  std::vector<std::shared_ptr<porta::core::BoundsRecord>> bounds_records;
};

// A point in a stream's queued work (a plugin event) and how many of the
// stream's in_flight objects were queued before it.
struct InFlightMark {
  porta_plugin_event event = nullptr;
  size_t objects = 0;
};

struct porta_stream_t {
  DeviceRef device;
  uint64_t serial = 0;  // unique in the process, unlike the address of a destroyed stream
  porta_plugin_stream handle = nullptr;
  std::unique_ptr<porta_sequence_t> recording;  // the sequence being recorded, if any
  // Objects used by work queued since the last sync stay alive until it ends,
  // or until the device has passed a mark after them (plugins with
  // event_query): a stream that is never synced, such as a framework's stream
  // that a custom operator queues on, does not keep all it ever used.
  std::vector<std::shared_ptr<void>> in_flight;
  std::deque<InFlightMark> marks;  // oldest first
  // A framework's event was waited for (porta_stream_wait_native_event) since the last sync.
  bool native_waits = false;
  // Records of reporting dispatches queued since the last sync (bounds_report.hpp).
  std::vector<std::shared_ptr<porta::core::BoundsRecord>> bounds_records;
};

struct porta_event_t {
  DeviceRef device;
  uint64_t stream_serial = 0;  // the stream it was recorded on
  porta_plugin_event handle = nullptr;
};

namespace porta::core {

// Calls a plugin function; a failure becomes a Failure with context. A
// PORTA_ERROR_DEVICE_LOST marks the device lost.
void check_plugin(porta_status status, DeviceState& device, const char* call);
// Fails with PORTA_ERROR_DEVICE_LOST, saying why, once the device is lost.
void check_not_lost(DeviceState& device, const char* call);

}  // namespace porta::core
