// Interop (porta/interop.h) on OpenCL: a framework's cl_mem and command queue
// used as they are (porta retains them and releases only its own reference),
// host memory through CL_MEM_USE_HOST_PTR where the device shares the host's
// memory, and the framework's cl_events waited for and user events signalled
// in queue order.
#include <atomic>
#include <memory>

#include "../common/plugin_support.hpp"
#include "opencl.hpp"

namespace porta::opencl {

namespace {

using ull = unsigned long long;

template <class T>
T mem_value(cl_mem mem, cl_mem_info what, const std::string& where) {
  T value{};
  check(cl().clGetMemObjectInfo(mem, what, sizeof value, &value, nullptr), where, "clGetMemObjectInfo");
  return value;
}

template <class T>
T event_value(cl_event event, cl_event_info what, const std::string& where) {
  T value{};
  check(cl().clGetEventInfo(event, what, sizeof value, &value, nullptr), where, "clGetEventInfo");
  return value;
}

// `what`'s cl_context must be the device's: porta's kernels and queues live there.
void require_context(const porta_plugin_device_t& device, cl_context theirs, const char* what) {
  if (theirs != device.context)
    plugin::fail(PORTA_ERROR_INVALID_ARGUMENT,
                 "opencl: %s: %s belongs to another cl_context (%p); porta's device uses cl_context %p "
                 "(porta_device_native): make it there",
                 device.where.c_str(), what, static_cast<void*>(theirs), static_cast<void*>(device.context));
}

porta_plugin_buffer_t* wrap(porta_plugin_device_t& device, cl_mem mem, uint64_t size, void* host) {
  static std::atomic<uint64_t> next_id{uint64_t(1) << 62};  // apart from buffer_create's ids
  return new porta_plugin_buffer_t{&device, mem, size, next_id++, host};
}

porta_plugin_buffer_t* import_host(porta_plugin_device_t& device, const porta_native_memory& memory) {
  cl_bool unified = CL_FALSE;
  check(cl().clGetDeviceInfo(device.entry->device, CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof unified, &unified,
                             nullptr),
        device.where, "clGetDeviceInfo");
  // A device with memory of its own would copy (CL_MEM_USE_HOST_PTR allows it): not in place.
  if (!unified && device.entry->info.type != PORTA_DEVICE_CPU)
    plugin::fail(PORTA_ERROR_UNSUPPORTED,
                 "opencl: %s: host memory can be used in place only on a device that shares the host's "
                 "memory (CL_DEVICE_HOST_UNIFIED_MEMORY); this one would copy it",
                 device.where.c_str());
  cl_uint align_bits = 0;
  check(cl().clGetDeviceInfo(device.entry->device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits,
                             &align_bits, nullptr),
        device.where, "clGetDeviceInfo");
  const uint64_t align = align_bits / 8 ? align_bits / 8 : 1;
  // An unaligned pointer makes some drivers (PoCL) keep a copy beside it.
  if (reinterpret_cast<uintptr_t>(memory.host_pointer) % align)
    plugin::fail(PORTA_ERROR_INVALID_ARGUMENT,
                 "opencl: %s: host pointer %p is not aligned to the device's %llu bytes "
                 "(CL_DEVICE_MEM_BASE_ADDR_ALIGN); it would be copied, not used in place",
                 device.where.c_str(), memory.host_pointer, static_cast<ull>(align));
  cl_int status = CL_SUCCESS;
  cl_mem mem = cl().clCreateBuffer(device.context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, memory.bytes,
                                   memory.host_pointer, &status);
  check(status, device.where, "clCreateBuffer(CL_MEM_USE_HOST_PTR)");
  return wrap(device, mem, memory.bytes, memory.host_pointer);
}

porta_plugin_buffer_t* import_cl_mem(porta_plugin_device_t& device, const porta_native_memory& memory) {
  cl_mem mem = static_cast<cl_mem>(memory.cl_mem);
  require_context(device, mem_value<cl_context>(mem, CL_MEM_CONTEXT, device.where), "the cl_mem");
  const size_t size = mem_value<size_t>(mem, CL_MEM_SIZE, device.where);
  if (memory.bytes > size)
    plugin::fail(PORTA_ERROR_INVALID_ARGUMENT, "opencl: %s: %llu bytes of a cl_mem of %llu bytes",
                 device.where.c_str(), static_cast<ull>(memory.bytes), static_cast<ull>(size));
  check(cl().clRetainMemObject(mem), device.where, "clRetainMemObject");
  return wrap(device, mem, memory.bytes, nullptr);
}

}  // namespace

porta_plugin_buffer_t* buffer_import(porta_plugin_device_t& device, const porta_native_memory& memory) {
  switch (memory.kind) {
    case PORTA_NATIVE_MEMORY_HOST:
      return import_host(device, memory);
    case PORTA_NATIVE_MEMORY_CL_MEM:
      return import_cl_mem(device, memory);
    default:
      plugin::fail(PORTA_ERROR_UNSUPPORTED,
                   "opencl: %s: the opencl backend imports host memory and cl_mem, not CUDA or Vulkan memory",
                   device.where.c_str());
  }
}

void buffer_native(porta_plugin_buffer_t& buffer, porta_native_memory& memory) {
  memory.kind = PORTA_NATIVE_MEMORY_CL_MEM;
  memory.cl_mem = buffer.mem;
  memory.bytes = buffer.size;
  memory.host_pointer = buffer.host;
}

void device_native(porta_plugin_device_t& device, porta_native_device& native) {
  native.cl_platform = device.entry->platform;
  native.cl_device = device.entry->device;
  native.cl_context = device.context;
}

porta_plugin_stream_t* stream_wrap_native(porta_plugin_device_t& device, void* native) {
  cl_command_queue queue = static_cast<cl_command_queue>(native);
  cl_context context = nullptr;
  check(cl().clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof context, &context, nullptr), device.where,
        "clGetCommandQueueInfo");
  require_context(device, context, "the cl_command_queue");
  cl_device_id on = nullptr;
  check(cl().clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof on, &on, nullptr), device.where,
        "clGetCommandQueueInfo");
  if (on != device.entry->device)
    plugin::fail(PORTA_ERROR_INVALID_ARGUMENT, "opencl: %s: the cl_command_queue is for another device",
                 device.where.c_str());
  cl_command_queue_properties props = 0;
  check(cl().clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof props, &props, nullptr), device.where,
        "clGetCommandQueueInfo");
  // porta's streams are in order; an out-of-order queue would reorder its operations.
  if (props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)
    plugin::fail(PORTA_ERROR_INVALID_ARGUMENT,
                 "opencl: %s: the cl_command_queue is out of order; a porta stream needs an in-order queue",
                 device.where.c_str());
  check(cl().clRetainCommandQueue(queue), device.where, "clRetainCommandQueue");
  auto* stream = new porta_plugin_stream_t;
  stream->device = &device;
  stream->queue = queue;  // stream_destroy releases the reference taken here
  stream->wrapped = true;
  stream->profiling = (props & CL_QUEUE_PROFILING_ENABLE) != 0;
  return stream;
}

void stream_wait_native_event(porta_plugin_stream_t& stream, void* native) {
  cl_event event = static_cast<cl_event>(native);
  require_context(*stream.device, event_value<cl_context>(event, CL_EVENT_CONTEXT, stream.device->where),
                  "the cl_event");
  check(cl().clEnqueueBarrierWithWaitList(stream.queue, 1, &event, nullptr), stream.device->where,
        "clEnqueueBarrierWithWaitList");
  note_enqueued(stream);
  if (cl().clRetainEvent(event) == CL_SUCCESS) stream.waited.push_back(event);
}

void release_waited(porta_plugin_stream_t& stream) {
  for (cl_event event : stream.waited) cl().clReleaseEvent(event);
  stream.waited.clear();
}

void stream_release_native_waits(porta_plugin_stream_t& stream) {
  // A user event is the framework's to complete, and it may still do so: the
  // cl_context lives on while the framework holds the event.
  std::string pending;
  for (cl_event event : stream.waited) {
    cl_int state = CL_COMPLETE;
    cl().clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof state, &state, nullptr);
    if (state > CL_COMPLETE)
      pending += plugin::format("%s%p", pending.empty() ? "" : ", ", static_cast<void*>(event));
  }
  if (!pending.empty())
    plugin::fail(
        PORTA_ERROR_UNSUPPORTED,
        "opencl: %s: the work waits for a framework's cl_event (%s) that is not complete; porta does "
        "not complete a framework's event",
        stream.device->where.c_str(), pending.c_str());
}

void stream_wait_event(porta_plugin_stream_t& stream, porta_plugin_event_t& event) {
  // A marker another queue waits for must have been flushed to the device
  // (clFlush of its queue), or the wait may never end.
  check(cl().clFlush(event_value<cl_command_queue>(event.event, CL_EVENT_COMMAND_QUEUE, event.where)),
        event.where, "clFlush");
  // The barrier keeps the event until it has passed: the caller may release it.
  check(cl().clEnqueueBarrierWithWaitList(stream.queue, 1, &event.event, nullptr), stream.device->where,
        "clEnqueueBarrierWithWaitList");
}

bool event_query(porta_plugin_event_t& event) {
  const cl_int status = event_value<cl_int>(event.event, CL_EVENT_COMMAND_EXECUTION_STATUS, event.where);
  if (status < 0)
    plugin::fail(PORTA_ERROR_BACKEND, "opencl: %s: the work before an event failed (execution status %d)",
                 event.where.c_str(), status);
  if (status == CL_COMPLETE) return true;
  // Commands may wait in the queue until a flush: let them start, so a later query can say done.
  cl().clFlush(event_value<cl_command_queue>(event.event, CL_EVENT_COMMAND_QUEUE, event.where));
  return false;
}

void stream_signal_native_event(porta_plugin_stream_t& stream, void* native) {
  const std::string& where = stream.device->where;
  cl_event user = static_cast<cl_event>(native);
  require_context(*stream.device, event_value<cl_context>(user, CL_EVENT_CONTEXT, where), "the cl_event");
  if (event_value<cl_command_type>(user, CL_EVENT_COMMAND_TYPE, where) != CL_COMMAND_USER)
    plugin::fail(PORTA_ERROR_INVALID_ARGUMENT,
                 "opencl: %s: only a user event (clCreateUserEvent) can be signalled; this cl_event is a "
                 "command's",
                 where.c_str());
  cl_event marker = nullptr;
  check(cl().clEnqueueMarkerWithWaitList(stream.queue, 0, nullptr, &marker), where,
        "clEnqueueMarkerWithWaitList");
  note_enqueued(stream);
  check(cl().clRetainEvent(user), where, "clRetainEvent");
  // When the marker completes (or fails), so does the user event. porta lets
  // go of the marker (which holds the queue) first: once the framework sees
  // its event complete, porta holds nothing of its queue. (The runtime may
  // still hold the finished marker a moment longer: PoCL drops its own
  // reference after the callbacks return.)
  auto complete = [](cl_event marker_event, cl_int status, void* data) {
    cl_event user_event = static_cast<cl_event>(data);
    cl().clReleaseEvent(marker_event);
    cl().clSetUserEventStatus(user_event, status < 0 ? status : CL_COMPLETE);
    cl().clReleaseEvent(user_event);
  };
  const cl_int set = cl().clSetEventCallback(marker, CL_COMPLETE, complete, user);
  if (set != CL_SUCCESS) {
    cl().clReleaseEvent(user);
    cl().clReleaseEvent(marker);
    check(set, where, "clSetEventCallback");
  }
  check(cl().clFlush(stream.queue), where, "clFlush");
}

}  // namespace porta::opencl
