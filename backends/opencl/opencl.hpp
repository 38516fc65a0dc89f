// The OpenCL plugin's objects. Each porta handle is one of these structs; the
// files device.cpp, memory.cpp, kernel.cpp and stream.cpp each own one concern.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "../common/plugin_adapter.hpp"
#include "../common/small_transfers.hpp"
#include "runtime.hpp"

namespace porta::opencl {

// cl_khr_command_buffer's entry points, where a device has the extension
// (command_buffer.cpp): a recorded run of dispatches replays as one enqueue.
struct CommandBufferApi {
  clCreateCommandBufferKHR_fn create = nullptr;
  clCommandNDRangeKernelKHR_fn ndrange = nullptr;
  clFinalizeCommandBufferKHR_fn finalize = nullptr;
  clEnqueueCommandBufferKHR_fn enqueue = nullptr;
  clReleaseCommandBufferKHR_fn release = nullptr;
  clGetCommandBufferInfoKHR_fn info = nullptr;
  // CL_COMMAND_BUFFER_CAPABILITY_SIMULTANEOUS_USE_KHR: a command buffer may
  // be enqueued again before its last enqueue has finished.
  bool simultaneous = false;
  cl_command_queue_properties required_queue_properties = 0;
};

// One OpenCL device found at init(), with what kernel creation and dispatch check.
struct DeviceEntry {
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  porta_device_info info{};
  std::string driver_version;    // CL_DRIVER_VERSION
  std::string platform_version;  // CL_PLATFORM_VERSION
  uint32_t pointer_bytes = 8;    // CL_DEVICE_ADDRESS_BITS / 8: size of a __global pointer argument
  uint32_t max_parameter_bytes = 0;
  std::string extensions;    // CL_DEVICE_EXTENSIONS
  std::string opencl_c_std;  // the newest -cl-std= its compiler takes: "CL1.2", "CL2.0" or "CL3.0"
  // CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT: float division and sqrt rounded as
  // IEEE-754 asks where the program is built to have them so.
  bool exact_divide_sqrt = false;
  CommandBufferApi command_buffers;    // `create` null: no usable cl_khr_command_buffer
  std::string command_buffers_absent;  // why, for the log
};

// Whether the space-separated `extensions` list `name` (whole words only).
bool has_extension(const std::string& extensions, const char* name);

const std::vector<DeviceEntry>& devices();
void enumerate_devices();
void clear_devices();

// "device 'NAME'" for messages.
std::string describe(const DeviceEntry& entry);

}  // namespace porta::opencl

struct porta_plugin_device_t {
  const porta::opencl::DeviceEntry* entry;
  cl_context context;
  std::string where;        // "device 'NAME'"
  uint64_t timeout_ms = 0;  // per dispatch (porta/robust.h); 0: none
  // A queue of the device's own that places new buffers (buffer_create),
  // made at the first; under place_mutex.
  cl_command_queue place_queue = nullptr;
  std::mutex place_mutex;
  // Recorded dispatches replay through cl_khr_command_buffer; null where they
  // do not (command_buffers_for()).
  const porta::opencl::CommandBufferApi* command_buffers = nullptr;
};

struct porta_plugin_buffer_t {
  porta_plugin_device_t* device;
  cl_mem mem;
  uint64_t size;
  uint64_t id;           // unique in the process: a released cl_mem's handle may come back for another buffer
  void* host = nullptr;  // imported host memory the cl_mem uses (CL_MEM_USE_HOST_PTR), else null
};

struct porta_plugin_kernel_t {
  porta_plugin_device_t* device;
  cl_program program;
  cl_kernel kernel;
  std::string name;
  std::string entry_point;
  size_t local_size[3];
  // Kernel arguments are state of the cl_kernel: setting them and enqueueing must
  // not interleave between threads dispatching the same kernel.
  std::mutex launch_mutex;
  // The bytes each argument was last set to (buffers by their id), under
  // launch_mutex: a dispatch sets only the arguments that changed.
  std::vector<std::vector<unsigned char>> last_args;
};

// A stream operation: enqueues itself on the stream's queue, throws Failure on error.
// Direct execution and sequence replay run the same closures.
using StreamOp = std::function<void(porta_plugin_stream_t&)>;

namespace porta::opencl {
// A recorded dispatch's kernel and arguments, by value (stream.cpp).
struct RecordedDispatch;

struct RecordedOp {
  StreamOp run;
  std::shared_ptr<const RecordedDispatch> dispatch;  // set when the op is a dispatch
};

// A run of consecutive recorded dispatches, ops [begin, end) of a sequence,
// recorded into one command buffer against the recording stream's queue.
struct CommandBufferRun {
  size_t begin = 0, end = 0;
  cl_command_buffer_khr buffer = nullptr;
  cl_command_queue queue = nullptr;  // retained: a sequence may outlive its stream
  std::vector<cl_kernel> kernels;    // one per command, its arguments set once
  std::vector<std::string> names;    // the kernels', for the watchdog's message, at most 8
};
}  // namespace porta::opencl

struct porta_plugin_stream_t {
  porta_plugin_device_t* device;
  cl_command_queue queue;
  bool recording = false;
  std::vector<porta::opencl::RecordedOp> recorded;
  bool wrapped = false;                      // a framework's queue (stream_wrap_native)
  bool profiling = false;                    // the queue times its commands (use_timed_queue)
  cl_mem small_mem = nullptr;                // CL_MEM_ALLOC_HOST_PTR, mapped for good: pinned host memory
  porta::plugin::SmallTransfers small;       // in small_mem's mapping
  std::vector<std::string> pending_kernels;  // dispatched since the last sync, for the watchdog's message
  // The event of the last command enqueued, where porta asked for one (a
  // read's): a sync waits for it instead of enqueueing a marker. Null once
  // anything else is enqueued (note_enqueued).
  cl_event tail = nullptr;
  // A framework's events waited for since the last sync (retained), for
  // stream_release_native_waits' message.
  std::vector<cl_event> waited;
};

struct porta_plugin_sequence_t {
  std::vector<porta::opencl::RecordedOp> ops;
  const porta::opencl::CommandBufferApi* api = nullptr;  // of `runs`
  std::vector<porta::opencl::CommandBufferRun> runs;     // in order of `begin`
  ~porta_plugin_sequence_t();
};

struct porta_plugin_event_t {
  cl_event event;
  std::string where;
  bool timed;  // on a profiling queue
};

// What plugin.cpp puts into the plugin table, one group per file. Failures
// throw plugin::Failure.
namespace porta::opencl {
porta_plugin_device_t* device_open(uint32_t index, const porta_plugin_device_options& options);
void device_close(porta_plugin_device_t* device);

porta_plugin_buffer_t* buffer_create(porta_plugin_device_t& device, uint64_t size);
void buffer_destroy(porta_plugin_buffer_t* buffer);

porta_plugin_kernel_t* kernel_create(porta_plugin_device_t& device, const porta_kernel_desc& desc);
void kernel_destroy(porta_plugin_kernel_t* kernel);

porta_plugin_stream_t* stream_create(porta_plugin_device_t& device);
void stream_destroy(porta_plugin_stream_t* stream);
void stream_write(porta_plugin_stream_t& stream, porta_plugin_buffer_t& dst, uint64_t offset, const void* src,
                  uint64_t size);
void stream_read(porta_plugin_stream_t& stream, porta_plugin_buffer_t& src, uint64_t offset, void* dst,
                 uint64_t size);
void stream_copy(porta_plugin_stream_t& stream, porta_plugin_buffer_t& src, uint64_t src_offset,
                 porta_plugin_buffer_t& dst, uint64_t dst_offset, uint64_t size);
void stream_fill(porta_plugin_stream_t& stream, porta_plugin_buffer_t& dst, uint64_t offset, uint64_t size,
                 uint32_t pattern);
void stream_dispatch(porta_plugin_stream_t& stream, porta_plugin_kernel_t& kernel, const uint32_t groups[3],
                     plugin::BufferList<porta_plugin_buffer_t> buffers, const void* push, uint32_t push_size);
void stream_sync(porta_plugin_stream_t& stream);
// Called after each command enqueued on the stream's queue, with the
// command's event or null: keeps `stream.tail` exact.
void note_enqueued(porta_plugin_stream_t& stream, cl_event event = nullptr);
// Moves the stream to a profiling queue, if it is not on one, for good:
// event_record's events are timed. The new queue starts after everything
// queued on the old one. A framework's queue (wrapped) stays as it is.
void use_timed_queue(porta_plugin_stream_t& stream);
porta_plugin_event_t* event_record(porta_plugin_stream_t& stream);
porta_plugin_event_t* event_mark(porta_plugin_stream_t& stream);
double event_elapsed_ms(porta_plugin_event_t& start, porta_plugin_event_t& end);
void event_destroy(porta_plugin_event_t* event);
void stream_begin_record(porta_plugin_stream_t& stream);
porta_plugin_sequence_t* stream_end_record(porta_plugin_stream_t& stream);
void stream_replay(porta_plugin_stream_t& stream, porta_plugin_sequence_t& sequence);
void sequence_destroy(porta_plugin_sequence_t* sequence);

// cl_khr_command_buffer (command_buffer.cpp).
// Fills entry.command_buffers, or entry.command_buffers_absent with the reason.
void find_command_buffers(DeviceEntry& entry);
// The device's command buffers where recorded sequences use them: on GPUs, or
// as PORTA_OPENCL_COMMAND_BUFFERS (1 or 0) says; null otherwise.
const CommandBufferApi* command_buffers_for(const DeviceEntry& entry);
// Records each run of consecutive dispatches of `sequence` into a command
// buffer on `stream`'s queue; a run the driver refuses stays as its ops
// (logged at debug).
void build_command_buffers(porta_plugin_stream_t& stream, porta_plugin_sequence_t& sequence);
// Replays ops [run.begin, run.end) as one enqueue; false when it cannot now
// (another queue, or the buffer still running and not simultaneous): the
// caller then runs the ops.
bool replay_command_buffer(porta_plugin_stream_t& stream, const porta_plugin_sequence_t& sequence,
                           const CommandBufferRun& run);
// Records `dispatch` into `run.buffer` after sync point `*last` (none when
// `first`), leaving its own sync point in `*last` (stream.cpp, beside the
// plain dispatch it mirrors). The command gets a cl_kernel of its own, kept
// in `run.kernels`: some drivers (PoCL 3.1) read a command's arguments from
// its kernel when the buffer runs rather than when it is recorded.
void record_dispatch(const CommandBufferApi& api, CommandBufferRun& run, porta_plugin_stream_t& stream,
                     const RecordedDispatch& dispatch, bool first, cl_sync_point_khr* last);
const std::string& dispatch_kernel_name(const RecordedDispatch& dispatch);

// Interop (interop.cpp): foreign memory, native handles, queues and events.
porta_plugin_buffer_t* buffer_import(porta_plugin_device_t& device, const porta_native_memory& memory);
void buffer_native(porta_plugin_buffer_t& buffer, porta_native_memory& memory);
void device_native(porta_plugin_device_t& device, porta_native_device& native);
porta_plugin_stream_t* stream_wrap_native(porta_plugin_device_t& device, void* queue);
void stream_wait_native_event(porta_plugin_stream_t& stream, void* event);
void stream_signal_native_event(porta_plugin_stream_t& stream, void* event);
void stream_release_native_waits(porta_plugin_stream_t& stream);
// Lets go of the framework's events the stream waited for.
void release_waited(porta_plugin_stream_t& stream);
// Whether the work before an event_record marker has finished (never blocks).
bool event_query(porta_plugin_event_t& event);
// Later work on `stream` waits for the work before an event_record marker (device-side).
void stream_wait_event(porta_plugin_stream_t& stream, porta_plugin_event_t& event);
}  // namespace porta::opencl
