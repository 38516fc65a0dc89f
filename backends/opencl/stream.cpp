// Streams: one in-order, profiling command queue each. Every operation is a
// closure that enqueues itself, so a recorded sequence is just the list of
// closures, replayed in order.
#include <cstring>
#include <memory>

#include "../common/plugin_support.hpp"
#include "opencl.hpp"

namespace porta::opencl {

namespace {

// Runs the operation now, or keeps it when the stream is recording.
void submit(porta_plugin_stream_t& stream, StreamOp op) {
  if (stream.recording) {
    stream.recorded.push_back(std::move(op));
  } else {
    op(stream);
  }
}

// A range of a buffer as a kernel argument: the buffer itself when the range
// is all of it, else a sub-buffer (released when the last operation holding
// it goes; the queue keeps it alive for commands already enqueued).
std::shared_ptr<_cl_mem> bound_range(const porta_plugin_buffer_t& buffer, uint64_t offset, uint64_t size) {
  if (offset == 0 && size == buffer.size) return std::shared_ptr<_cl_mem>(buffer.mem, [](cl_mem) {});
  cl_buffer_region region{offset, size};
  cl_int status = CL_SUCCESS;
  cl_mem sub =
      cl().clCreateSubBuffer(buffer.mem, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &status);
  check(status,
        buffer.device->where + plugin::format(": %llu bytes at offset %llu",
                                              static_cast<unsigned long long>(size),
                                              static_cast<unsigned long long>(offset)),
        "clCreateSubBuffer");
  return std::shared_ptr<_cl_mem>(sub, [](cl_mem mem) { cl().clReleaseMemObject(mem); });
}

void dispatch(porta_plugin_stream_t& stream, porta_plugin_kernel_t& kernel, const uint32_t groups[3],
              const std::vector<std::shared_ptr<_cl_mem>>& buffers, const std::vector<cl_ulong>& sizes,
              const std::vector<unsigned char>& push) {
  const std::string where = stream.device->where + ": kernel '" + kernel.name + "'";
  size_t global[3], local[3];
  for (int d = 0; d < 3; ++d) {
    local[d] = kernel.local_size[d];
    global[d] = size_t{groups[d]} * local[d];
  }
  std::lock_guard lock(kernel.launch_mutex);
  cl_uint arg = 0;
  for (const auto& range : buffers) {
    cl_mem mem = range.get();
    cl_int status = cl().clSetKernelArg(kernel.kernel, arg, sizeof(cl_mem), &mem);
    if (status != CL_SUCCESS) check(status, where + plugin::format(": buffer %u", arg), "clSetKernelArg");
    ++arg;
  }
  // The translated entry point takes the push constants as one struct by value
  // after the buffers; a size mismatch here means the struct layouts disagree.
  if (!push.empty()) {
    cl_int status = cl().clSetKernelArg(kernel.kernel, arg, push.size(), push.data());
    if (status != CL_SUCCESS)
      check(status, where + plugin::format(": push constants (%zu bytes) as argument %u", push.size(), arg),
            "clSetKernelArg");
    ++arg;
  }
  // Then the buffers' sizes, one struct by value (porta_buffer_sizes), for .length().
  if (!sizes.empty()) {
    cl_int status = cl().clSetKernelArg(kernel.kernel, arg, sizes.size() * sizeof(cl_ulong), sizes.data());
    if (status != CL_SUCCESS)
      check(status, where + plugin::format(": buffer sizes as argument %u", arg), "clSetKernelArg");
  }
  check(cl().clEnqueueNDRangeKernel(stream.queue, kernel.kernel, 3, nullptr, global, local, 0, nullptr,
                                    nullptr),
        where + plugin::format(": %ux%ux%u groups of %zux%zux%zu", groups[0], groups[1], groups[2], local[0],
                               local[1], local[2]),
        "clEnqueueNDRangeKernel");
}

}  // namespace

porta_plugin_stream_t* stream_create(porta_plugin_device_t& device) {
  cl_int status = CL_SUCCESS;
  cl_command_queue queue =
      cl().clCreateCommandQueue(device.context, device.entry->device, CL_QUEUE_PROFILING_ENABLE, &status);
  check(status, device.where, "clCreateCommandQueue");
  auto* stream = new porta_plugin_stream_t;
  stream->device = &device;
  stream->queue = queue;
  return stream;
}

void stream_destroy(porta_plugin_stream_t* stream) {
  cl().clFinish(stream->queue);
  cl().clReleaseCommandQueue(stream->queue);
  delete stream;
}

void stream_write(porta_plugin_stream_t& stream, porta_plugin_buffer_t& dst, uint64_t offset, const void* src,
                  uint64_t size) {
  submit(stream, [=, dst = &dst](porta_plugin_stream_t& s) {
    check(cl().clEnqueueWriteBuffer(s.queue, dst->mem, CL_FALSE, offset, size, src, 0, nullptr, nullptr),
          s.device->where, "clEnqueueWriteBuffer");
  });
}

void stream_read(porta_plugin_stream_t& stream, porta_plugin_buffer_t& src, uint64_t offset, void* dst,
                 uint64_t size) {
  submit(stream, [=, src = &src](porta_plugin_stream_t& s) {
    check(cl().clEnqueueReadBuffer(s.queue, src->mem, CL_FALSE, offset, size, dst, 0, nullptr, nullptr),
          s.device->where, "clEnqueueReadBuffer");
  });
}

void stream_copy(porta_plugin_stream_t& stream, porta_plugin_buffer_t& src, uint64_t src_offset,
                 porta_plugin_buffer_t& dst, uint64_t dst_offset, uint64_t size) {
  submit(stream, [=, src = &src, dst = &dst](porta_plugin_stream_t& s) {
    check(cl().clEnqueueCopyBuffer(s.queue, src->mem, dst->mem, src_offset, dst_offset, size, 0, nullptr,
                                   nullptr),
          s.device->where, "clEnqueueCopyBuffer");
  });
}

void stream_fill(porta_plugin_stream_t& stream, porta_plugin_buffer_t& dst, uint64_t offset, uint64_t size,
                 uint32_t pattern) {
  submit(stream, [=, dst = &dst](porta_plugin_stream_t& s) {
    check(cl().clEnqueueFillBuffer(s.queue, dst->mem, &pattern, sizeof pattern, offset, size, 0, nullptr,
                                   nullptr),
          s.device->where, "clEnqueueFillBuffer");
  });
}

void stream_dispatch(porta_plugin_stream_t& stream, porta_plugin_kernel_t& kernel, const uint32_t groups[3],
                     plugin::BufferList<porta_plugin_buffer_t> buffers, const void* push,
                     uint32_t push_size) {
  std::vector<std::shared_ptr<_cl_mem>> mems;
  std::vector<cl_ulong> sizes;
  for (uint32_t i = 0; i < buffers.size(); ++i) {
    mems.push_back(bound_range(buffers[i], buffers.offset(i), buffers.bytes(i)));
    sizes.push_back(buffers.bytes(i));
  }
  std::vector<unsigned char> bytes;
  if (push_size)
    bytes.assign(static_cast<const unsigned char*>(push),
                 static_cast<const unsigned char*>(push) + push_size);
  const uint32_t g[3] = {groups[0], groups[1], groups[2]};
  submit(stream,
         [=, kernel = &kernel, mems = std::move(mems), sizes = std::move(sizes), bytes = std::move(bytes)](
             porta_plugin_stream_t& s) { dispatch(s, *kernel, g, mems, sizes, bytes); });
}

void stream_sync(porta_plugin_stream_t& stream) {
  check(cl().clFinish(stream.queue), stream.device->where, "clFinish");
}

porta_plugin_event_t* event_record(porta_plugin_stream_t& stream) {
  // On an in-order queue a marker completes when everything before it has.
  cl_event event = nullptr;
  check(cl().clEnqueueMarkerWithWaitList(stream.queue, 0, nullptr, &event), stream.device->where,
        "clEnqueueMarkerWithWaitList");
  return new porta_plugin_event_t{event, stream.device->where};
}

double event_elapsed_ms(porta_plugin_event_t& start, porta_plugin_event_t& end) {
  cl_ulong t0 = 0, t1 = 0;
  check(cl().clGetEventProfilingInfo(start.event, CL_PROFILING_COMMAND_END, sizeof t0, &t0, nullptr),
        start.where, "clGetEventProfilingInfo(start)");
  check(cl().clGetEventProfilingInfo(end.event, CL_PROFILING_COMMAND_END, sizeof t1, &t1, nullptr), end.where,
        "clGetEventProfilingInfo(end)");
  return (static_cast<double>(t1) - static_cast<double>(t0)) * 1e-6;
}

void event_destroy(porta_plugin_event_t* event) {
  cl().clReleaseEvent(event->event);
  delete event;
}

void stream_begin_record(porta_plugin_stream_t& stream) {
  stream.recording = true;
  stream.recorded.clear();
}

porta_plugin_sequence_t* stream_end_record(porta_plugin_stream_t& stream) {
  auto sequence = std::make_unique<porta_plugin_sequence_t>();
  sequence->ops = std::move(stream.recorded);
  stream.recorded.clear();
  stream.recording = false;
  return sequence.release();
}

void stream_replay(porta_plugin_stream_t& stream, porta_plugin_sequence_t& sequence) {
  for (const StreamOp& op : sequence.ops) op(stream);
}

void sequence_destroy(porta_plugin_sequence_t* sequence) { delete sequence; }

}  // namespace porta::opencl
