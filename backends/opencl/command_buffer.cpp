// Recorded sequences through cl_khr_command_buffer: each run of consecutive
// dispatches in a sequence is recorded once into a command buffer (kernel
// arguments captured then), and a replay enqueues it with one call instead of
// one clEnqueueNDRangeKernel per dispatch. Writes, reads, copies and fills stay
// closures (host memory cannot be in a command buffer). Where the device lacks
// the extension, the driver refuses a buffer, or a replay cannot use it (on
// another stream, or while the buffer is still running and the device does not
// allow simultaneous use), the run's ops are replayed one by one as before.
#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "../common/plugin_support.hpp"
#include "../common/spin_wait.hpp"
#include "opencl.hpp"

namespace porta::opencl {

namespace {

template <class Fn>
bool load_entry(cl_platform_id platform, Fn& fn, const char* name) {
  fn = reinterpret_cast<Fn>(cl().clGetExtensionFunctionAddressForPlatform(platform, name));
  return fn != nullptr;
}

// What a run holds, released unless it was handed on.
void release_run(const CommandBufferApi& api, CommandBufferRun& run) {
  if (run.buffer) api.release(run.buffer);
  for (cl_kernel k : run.kernels) cl().clReleaseKernel(k);
  if (run.queue) cl().clReleaseCommandQueue(run.queue);
  run = {};
}

}  // namespace

void find_command_buffers(DeviceEntry& entry) {
  if (!has_extension(entry.extensions, "cl_khr_command_buffer")) {
    entry.command_buffers_absent = "the device does not list cl_khr_command_buffer";
    return;
  }
  CommandBufferApi api;
  const char* missing = nullptr;
  if (!load_entry(entry.platform, api.create, "clCreateCommandBufferKHR"))
    missing = "clCreateCommandBufferKHR";
  if (!load_entry(entry.platform, api.ndrange, "clCommandNDRangeKernelKHR"))
    missing = "clCommandNDRangeKernelKHR";
  if (!load_entry(entry.platform, api.finalize, "clFinalizeCommandBufferKHR"))
    missing = "clFinalizeCommandBufferKHR";
  if (!load_entry(entry.platform, api.enqueue, "clEnqueueCommandBufferKHR"))
    missing = "clEnqueueCommandBufferKHR";
  if (!load_entry(entry.platform, api.release, "clReleaseCommandBufferKHR"))
    missing = "clReleaseCommandBufferKHR";
  if (!load_entry(entry.platform, api.info, "clGetCommandBufferInfoKHR"))
    missing = "clGetCommandBufferInfoKHR";
  if (missing) {
    entry.command_buffers_absent = std::string("the platform has no ") + missing;
    return;
  }
  cl_device_command_buffer_capabilities_khr capabilities = 0;
  if (cl().clGetDeviceInfo(entry.device, CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR, sizeof capabilities,
                           &capabilities, nullptr) != CL_SUCCESS ||
      cl().clGetDeviceInfo(entry.device, CL_DEVICE_COMMAND_BUFFER_REQUIRED_QUEUE_PROPERTIES_KHR,
                           sizeof api.required_queue_properties, &api.required_queue_properties,
                           nullptr) != CL_SUCCESS) {
    entry.command_buffers_absent = "clGetDeviceInfo refused the command-buffer capabilities";
    return;
  }
  // porta's streams are in-order queues, profiling ones where asked
  // (use_timed_queue): a device that needs other queue properties for its
  // command buffers cannot take them.
  if (api.required_queue_properties & ~cl_command_queue_properties{CL_QUEUE_PROFILING_ENABLE}) {
    entry.command_buffers_absent =
        plugin::format("its command buffers need queue properties 0x%llx",
                       static_cast<unsigned long long>(api.required_queue_properties));
    return;
  }
  api.simultaneous = (capabilities & CL_COMMAND_BUFFER_CAPABILITY_SIMULTANEOUS_USE_KHR) != 0;
  entry.command_buffers = api;
}

const CommandBufferApi* command_buffers_for(const DeviceEntry& entry) {
  if (!entry.command_buffers.create) return nullptr;
  // PORTA_OPENCL_COMMAND_BUFFERS=1 or 0 decides; by default GPUs use them.
  // PoCL 3.1 on the CPU took 14.7 us per replayed empty dispatch through a
  // command buffer against 1.8 us through clEnqueueNDRangeKernel (porta-bench's
  // OpenCL floor, bench/README.md), so CPU-type devices do not.
  const char* env = std::getenv("PORTA_OPENCL_COMMAND_BUFFERS");
  if (env && *env) return std::strcmp(env, "0") == 0 ? nullptr : &entry.command_buffers;
  return entry.info.type == PORTA_DEVICE_CPU ? nullptr : &entry.command_buffers;
}

void build_command_buffers(porta_plugin_stream_t& stream, porta_plugin_sequence_t& sequence) {
  const CommandBufferApi* api = stream.device->command_buffers;
  if (!api || stream.wrapped) return;  // a framework's queue may have other properties
  if (api->required_queue_properties & CL_QUEUE_PROFILING_ENABLE) use_timed_queue(stream);
  sequence.api = api;
  const std::vector<RecordedOp>& ops = sequence.ops;
  for (size_t begin = 0; begin < ops.size();) {
    if (!ops[begin].dispatch) {
      ++begin;
      continue;
    }
    size_t end = begin;
    while (end < ops.size() && ops[end].dispatch) ++end;
    CommandBufferRun run;
    run.begin = begin;
    run.end = end;
    try {
      cl_command_buffer_properties_khr simultaneous[] = {CL_COMMAND_BUFFER_FLAGS_KHR,
                                                         CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR, 0};
      cl_int status = CL_SUCCESS;
      run.buffer = api->create(1, &stream.queue, api->simultaneous ? simultaneous : nullptr, &status);
      check(status, stream.device->where, "clCreateCommandBufferKHR");
      check(cl().clRetainCommandQueue(stream.queue), stream.device->where, "clRetainCommandQueue");
      run.queue = stream.queue;
      cl_sync_point_khr last = 0;
      for (size_t i = begin; i < end; ++i) {
        record_dispatch(*api, run, stream, *ops[i].dispatch, i == begin, &last);
        plugin::note_kernel(run.names, dispatch_kernel_name(*ops[i].dispatch));
      }
      check(api->finalize(run.buffer), stream.device->where, "clFinalizeCommandBufferKHR");
      sequence.runs.push_back(std::move(run));
      plugin::log(PORTA_LOG_DEBUG, plugin::format("opencl: %s: %zu recorded dispatches in one command buffer",
                                                  stream.device->where.c_str(), end - begin));
    } catch (const plugin::Failure& f) {
      release_run(*api, run);
      plugin::log(PORTA_LOG_DEBUG, plugin::format("opencl: %zu recorded dispatches replay one by one: %s",
                                                  end - begin, f.what()));
    }
    begin = end;
  }
}

bool replay_command_buffer(porta_plugin_stream_t& stream, const porta_plugin_sequence_t& sequence,
                           const CommandBufferRun& run) {
  if (run.queue != stream.queue) return false;
  const CommandBufferApi& api = *sequence.api;
  if (!api.simultaneous) {
    cl_command_buffer_state_khr state = CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR;
    if (api.info(run.buffer, CL_COMMAND_BUFFER_STATE_KHR, sizeof state, &state, nullptr) != CL_SUCCESS ||
        state != CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR)
      return false;  // still running from the last replay: its dispatches go one by one
  }
  // Its event spares the sync that usually follows a replay a marker, as a read's does.
  cl_event event = nullptr;
  const cl_int status = api.enqueue(0, nullptr, run.buffer, 0, nullptr, stream.wrapped ? nullptr : &event);
  if (status != CL_SUCCESS) return false;  // nothing was enqueued: the ops run instead
  note_enqueued(stream, event);
  for (const std::string& name : run.names) plugin::note_kernel(stream.pending_kernels, name);
  return true;
}

}  // namespace porta::opencl

porta_plugin_sequence_t::~porta_plugin_sequence_t() {
  for (porta::opencl::CommandBufferRun& run : runs) {
    // Its kernels and the dispatches' sub-buffers go with the sequence: a
    // buffer still running finishes first.
    cl_command_buffer_state_khr state = CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR;
    if (api->info(run.buffer, CL_COMMAND_BUFFER_STATE_KHR, sizeof state, &state, nullptr) != CL_SUCCESS ||
        state == CL_COMMAND_BUFFER_STATE_PENDING_KHR)
      porta::opencl::cl().clFinish(run.queue);
    porta::opencl::release_run(*api, run);
  }
}
