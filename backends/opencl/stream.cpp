// Streams: one in-order, profiling command queue each. Every operation is a
// closure that enqueues itself, so a recorded sequence is just the list of
// closures, replayed in order.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "../common/plugin_support.hpp"
#include "../common/spin_wait.hpp"
#include "opencl.hpp"

namespace porta::opencl {

namespace {

// Runs the operation now, or keeps it when the stream is recording: only a
// recording pays for a StreamOp.
template <class Op>
void submit(porta_plugin_stream_t& stream, Op&& op) {
  if (stream.recording) {
    stream.recorded.push_back({std::forward<Op>(op), nullptr});
  } else {
    op(stream);
  }
}

// Transfers go to the queue in pieces of at most 1 GiB, and fills into
// buffers larger than 4 GiB through sub-buffers of at most 1 GiB. NVIDIA's
// OpenCL (driver 580, H200) gets transfers of several GiB wrong: a single
// fill of 2^33 bytes never finishes, one of 2^34 bytes returns at once
// having written nothing, and a single copy of 2^33 + 4096 bytes fails the
// queue (CL_INVALID_COMMAND_QUEUE). In pieces of 1 GiB copies, writes and
// reads are right at that size, but a fill of any size into a buffer larger
// than 2^33 bytes still fails the queue; into a sub-buffer of at most 1 GiB
// of it, it is right (buffers of 2^33 + 4096 bytes and 16 GiB). A piece
// costs one more enqueue, microseconds against the ~0.3 ms a GPU takes to
// fill or copy a GiB.
struct TransferPieces {
  uint64_t max_bytes = uint64_t{1} << 30;        // of one command
  uint64_t max_direct_fill = uint64_t{1} << 32;  // a buffer's size up to which fills need no sub-buffer
};

// PORTA_OPENCL_PIECE_BYTES, a testing knob (README.md), lowers the piece to
// that many bytes (a multiple of 4) and the direct fill's limit to four
// pieces, so that small transfers take the paths of large ones.
const TransferPieces& transfer_pieces() {
  static const TransferPieces pieces = [] {
    TransferPieces p;
    const char* env = std::getenv("PORTA_OPENCL_PIECE_BYTES");
    if (!env || !*env) return p;
    char* end = nullptr;
    const unsigned long long value = std::strtoull(env, &end, 0);
    if (*end != '\0' || value == 0 || value % 4 != 0 || value > p.max_bytes) {
      plugin::log(PORTA_LOG_WARN, std::string("opencl: PORTA_OPENCL_PIECE_BYTES='") + env +
                                      "' is not a multiple of 4 between 4 and 2^30; ignored");
      return p;
    }
    p.max_bytes = value;
    p.max_direct_fill = 4 * value;
    return p;
  }();
  return pieces;
}

// Calls enqueue(offset, bytes) for each piece of [0, size) in order (once,
// with 0 bytes, for an empty transfer).
template <class Enqueue>
void in_pieces(uint64_t size, Enqueue enqueue) {
  const uint64_t most = transfer_pieces().max_bytes;
  uint64_t done = 0;
  do {
    const uint64_t bytes = std::min(most, size - done);
    enqueue(done, bytes);
    done += bytes;
  } while (done < size);
}

// A range of a buffer as a kernel argument: the buffer itself when the range
// is all of it, else a sub-buffer, kept in `owned` (released when the last
// operation holding it goes; the queue keeps it alive for commands already
// enqueued).
cl_mem bound_range(const porta_plugin_buffer_t& buffer, uint64_t offset, uint64_t size,
                   std::vector<std::shared_ptr<_cl_mem>>& owned) {
  if (offset == 0 && size == buffer.size) return buffer.mem;
  cl_buffer_region region{offset, size};
  cl_int status = CL_SUCCESS;
  cl_mem sub =
      cl().clCreateSubBuffer(buffer.mem, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &status);
  check(status,
        buffer.device->where + plugin::format(": %llu bytes at offset %llu",
                                              static_cast<unsigned long long>(size),
                                              static_cast<unsigned long long>(offset)),
        "clCreateSubBuffer");
  owned.emplace_back(sub, [](cl_mem mem) { cl().clReleaseMemObject(mem); });
  return sub;
}

// Sets argument `index` of `k` (`size` bytes at `value`) unless the last
// dispatch of the kernel left `key` there; `describe()` names the argument
// for a message. The caller holds k.launch_mutex.
template <class Describe>
void set_arg(const porta_plugin_stream_t& stream, porta_plugin_kernel_t& k, cl_uint index, size_t size,
             const void* value, const void* key, size_t key_size, Describe describe) {
  if (k.last_args.size() <= index) k.last_args.resize(index + 1);
  std::vector<unsigned char>& last = k.last_args[index];
  const auto* bytes = static_cast<const unsigned char*>(key);
  if (key_size && last.size() == key_size && std::equal(bytes, bytes + key_size, last.begin())) return;
  last.clear();  // unknown unless the call succeeds
  cl_int status = cl().clSetKernelArg(k.kernel, index, size, value);
  if (status != CL_SUCCESS)
    check(status, stream.device->where + ": kernel '" + k.name + "': " + describe(), "clSetKernelArg");
  last.assign(bytes, bytes + key_size);
}

// A dispatch as a recorded sequence keeps it: what it binds, by value.
struct DispatchArgs {
  std::vector<cl_mem> mems;
  std::vector<std::shared_ptr<_cl_mem>> sub_buffers;  // those of `mems` made for this dispatch
  // The buffers' ids, which key the kernel's argument cache; 0 for a
  // sub-buffer, made for this dispatch and set every time.
  std::vector<uint64_t> ids;
  std::vector<cl_ulong> sizes;
  std::vector<unsigned char> push;
  uint32_t groups[3];
  void clear() {
    mems.clear();
    sub_buffers.clear();
    ids.clear();
    sizes.clear();
    push.clear();
  }
};

void work_sizes(const porta_plugin_kernel_t& kernel, const DispatchArgs& a, size_t global[3],
                size_t local[3]) {
  for (int d = 0; d < 3; ++d) {
    local[d] = kernel.local_size[d];
    global[d] = size_t{a.groups[d]} * local[d];
  }
}

// Calls set(index, size, value, key, key_size, describe) for each argument
// of a dispatch: `key` (key_size bytes) stands for the value in the kernel's
// argument cache, key_size 0 for a value never to be matched again.
template <class Set>
void for_each_arg(const DispatchArgs& a, Set set) {
  cl_uint arg = 0;
  for (size_t i = 0; i < a.mems.size(); ++i, ++arg) {
    auto describe = [&] { return plugin::format("buffer %u", arg); };
    // A sub-buffer goes with its dispatch: never matched again.
    set(arg, sizeof(cl_mem), &a.mems[i], &a.ids[i], a.ids[i] != 0 ? sizeof(uint64_t) : 0, describe);
  }
  // The translated entry point takes the push constants as one struct by value
  // after the buffers; a size mismatch here means the struct layouts disagree.
  if (!a.push.empty()) {
    set(arg, a.push.size(), a.push.data(), a.push.data(), a.push.size(),
        [&] { return plugin::format("push constants (%zu bytes) as argument %u", a.push.size(), arg); });
    ++arg;
  }
  // Then the buffers' sizes, one struct by value (porta_buffer_sizes), for .length().
  if (!a.sizes.empty()) {
    const size_t bytes = a.sizes.size() * sizeof(cl_ulong);
    set(arg, bytes, a.sizes.data(), a.sizes.data(), bytes,
        [&] { return plugin::format("buffer sizes as argument %u", arg); });
  }
}

std::string describe_groups(const porta_plugin_kernel_t& kernel, const DispatchArgs& a,
                            const size_t local[3]) {
  return ": kernel '" + kernel.name + "'" +
         plugin::format(": %ux%ux%u groups of %zux%zux%zu", a.groups[0], a.groups[1], a.groups[2], local[0],
                        local[1], local[2]);
}

void dispatch(porta_plugin_stream_t& stream, porta_plugin_kernel_t& kernel, const DispatchArgs& a) {
  plugin::note_kernel(stream.pending_kernels, kernel.name);
  size_t global[3], local[3];
  work_sizes(kernel, a, global, local);
  std::lock_guard lock(kernel.launch_mutex);
  for_each_arg(
      a, [&](cl_uint index, size_t size, const void* value, const void* key, size_t key_size, auto describe) {
        set_arg(stream, kernel, index, size, value, key, key_size, describe);
      });
  cl_int status = cl().clEnqueueNDRangeKernel(stream.queue, kernel.kernel, 3, nullptr, global, local, 0,
                                              nullptr, nullptr);
  if (status == CL_SUCCESS) note_enqueued(stream);
  if (status != CL_SUCCESS)
    check(status, stream.device->where + describe_groups(kernel, a, local), "clEnqueueNDRangeKernel");
}

}  // namespace

struct RecordedDispatch {
  porta_plugin_kernel_t* kernel;
  DispatchArgs args;
};

void record_dispatch(const CommandBufferApi& api, CommandBufferRun& run, porta_plugin_stream_t& stream,
                     const RecordedDispatch& d, bool first, cl_sync_point_khr* last) {
  const porta_plugin_kernel_t& kernel = *d.kernel;
  const std::string where = stream.device->where + ": kernel '" + kernel.name + "'";
  size_t global[3], local[3];
  work_sizes(kernel, d.args, global, local);
  cl_int status = CL_SUCCESS;
  cl_kernel own = cl().clCreateKernel(kernel.program, kernel.entry_point.c_str(), &status);
  check(status, where, "clCreateKernel");
  run.kernels.push_back(own);
  for_each_arg(d.args,
               [&](cl_uint index, size_t size, const void* value, const void*, size_t, auto describe) {
                 const cl_int set = cl().clSetKernelArg(own, index, size, value);
                 if (set != CL_SUCCESS) check(set, where + ": " + describe(), "clSetKernelArg");
               });
  // Each dispatch waits for the one before it: a stream is in order.
  const cl_sync_point_khr after = *last;
  check(api.ndrange(run.buffer, nullptr, nullptr, own, 3, nullptr, global, local, first ? 0 : 1,
                    first ? nullptr : &after, last, nullptr),
        stream.device->where + describe_groups(kernel, d.args, local), "clCommandNDRangeKernelKHR");
}

const std::string& dispatch_kernel_name(const RecordedDispatch& d) { return d.kernel->name; }

namespace {

// Room for `size` bytes in the stream's pinned memory for small transfers, or null.
char* small_space(porta_plugin_stream_t& s, uint64_t size) {
  // A framework's queue may be held up by its own events: no blocking map on it.
  if (s.wrapped) return nullptr;
  return s.small.take(size, [&] {
    const uint64_t bytes = porta::plugin::SmallTransfers::kBytes;
    cl_int status = CL_SUCCESS;
    cl_mem mem = cl().clCreateBuffer(s.device->context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes,
                                     nullptr, &status);
    check(status, s.device->where, "clCreateBuffer (pinned memory for small transfers)");
    void* host = cl().clEnqueueMapBuffer(s.queue, mem, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0,
                                         nullptr, nullptr, &status);
    if (status != CL_SUCCESS) {
      cl().clReleaseMemObject(mem);
      check(status, s.device->where, "clEnqueueMapBuffer (pinned memory for small transfers)");
    }
    s.small_mem = mem;
    return host;
  });
}

}  // namespace

// A stream starts on a queue that does not time its commands: on NVIDIA's
// OpenCL a profiling queue added 15 us to each round trip (256 B up, one
// dispatch, 256 B back: 31 against 16 us on an H200). Its first timed event
// moves it to one that does (use_timed_queue).
porta_plugin_stream_t* stream_create(porta_plugin_device_t& device) {
  cl_int status = CL_SUCCESS;
  cl_command_queue queue = cl().clCreateCommandQueue(device.context, device.entry->device, 0, &status);
  check(status, device.where, "clCreateCommandQueue");
  auto* stream = new porta_plugin_stream_t;
  stream->device = &device;
  stream->queue = queue;
  return stream;
}

void use_timed_queue(porta_plugin_stream_t& stream) {
  if (stream.profiling || stream.wrapped) return;
  const std::string& where = stream.device->where;
  cl_int status = CL_SUCCESS;
  cl_command_queue timed = cl().clCreateCommandQueue(stream.device->context, stream.device->entry->device,
                                                     CL_QUEUE_PROFILING_ENABLE, &status);
  check(status, where, "clCreateCommandQueue (a profiling queue for timed events)");
  // The new queue waits for the old one's last command; the old queue,
  // flushed and released, runs what it holds and goes.
  cl_event last = nullptr;
  status = cl().clEnqueueMarkerWithWaitList(stream.queue, 0, nullptr, &last);
  if (status == CL_SUCCESS) status = cl().clFlush(stream.queue);
  if (status == CL_SUCCESS) status = cl().clEnqueueBarrierWithWaitList(timed, 1, &last, nullptr);
  if (last) cl().clReleaseEvent(last);
  if (status != CL_SUCCESS) {
    cl().clReleaseCommandQueue(timed);
    check(status, where, "moving the stream to a profiling queue");
  }
  cl().clReleaseCommandQueue(stream.queue);
  stream.queue = timed;
  stream.profiling = true;
  note_enqueued(stream);
}

void stream_destroy(porta_plugin_stream_t* stream) {
  note_enqueued(*stream);
  release_waited(*stream);
  if (stream->small_mem) {
    cl().clEnqueueUnmapMemObject(stream->queue, stream->small_mem, stream->small.host(), 0, nullptr, nullptr);
    cl().clFinish(stream->queue);
    cl().clReleaseMemObject(stream->small_mem);
  }
  cl().clFinish(stream->queue);
  cl().clReleaseCommandQueue(stream->queue);
  delete stream;
}

void stream_write(porta_plugin_stream_t& stream, porta_plugin_buffer_t& dst, uint64_t offset, const void* src,
                  uint64_t size) {
  submit(stream, [=, dst = &dst](porta_plugin_stream_t& s) {
    const void* from = src;
    if (char* pinned = small_space(s, size)) from = std::memcpy(pinned, src, size);
    in_pieces(size, [&](uint64_t at, uint64_t bytes) {
      check(cl().clEnqueueWriteBuffer(s.queue, dst->mem, CL_FALSE, offset + at, bytes,
                                      static_cast<const char*>(from) + at, 0, nullptr, nullptr),
            s.device->where, "clEnqueueWriteBuffer");
    });
    note_enqueued(s);
  });
}

void stream_read(porta_plugin_stream_t& stream, porta_plugin_buffer_t& src, uint64_t offset, void* dst,
                 uint64_t size) {
  submit(stream, [=, src = &src](porta_plugin_stream_t& s) {
    char* pinned = small_space(s, size);
    if (!pinned && s.small.read_pending_into(dst, size)) stream_sync(s);  // that read must land first
    // A sync usually follows a read: its event spares that sync a marker (not
    // on a framework's queue, where the framework may enqueue after it).
    cl_event event = nullptr;
    char* to = pinned ? pinned : static_cast<char*>(dst);
    in_pieces(size, [&](uint64_t at, uint64_t bytes) {
      const bool last = at + bytes == size;
      check(cl().clEnqueueReadBuffer(s.queue, src->mem, CL_FALSE, offset + at, bytes, to + at, 0, nullptr,
                                     last && !s.wrapped ? &event : nullptr),
            s.device->where, "clEnqueueReadBuffer");
    });
    note_enqueued(s, event);
    if (pinned) s.small.copy_out_later(dst, pinned, size);
  });
}

void stream_copy(porta_plugin_stream_t& stream, porta_plugin_buffer_t& src, uint64_t src_offset,
                 porta_plugin_buffer_t& dst, uint64_t dst_offset, uint64_t size) {
  submit(stream, [=, src = &src, dst = &dst](porta_plugin_stream_t& s) {
    in_pieces(size, [&](uint64_t at, uint64_t bytes) {
      check(cl().clEnqueueCopyBuffer(s.queue, src->mem, dst->mem, src_offset + at, dst_offset + at, bytes, 0,
                                     nullptr, nullptr),
            s.device->where, "clEnqueueCopyBuffer");
    });
    note_enqueued(s);
  });
}

void stream_fill(porta_plugin_stream_t& stream, porta_plugin_buffer_t& dst, uint64_t offset, uint64_t size,
                 uint32_t pattern) {
  submit(stream, [=, dst = &dst](porta_plugin_stream_t& s) {
    const bool direct = dst->size <= transfer_pieces().max_direct_fill;
    const uint64_t align = s.device->entry->info.binding_offset_alignment;  // a sub-buffer's origin
    in_pieces(size, [&](uint64_t at, uint64_t bytes) {
      cl_mem mem = dst->mem;
      uint64_t from = offset + at;
      std::vector<std::shared_ptr<_cl_mem>> sub;  // released once enqueued; the queue keeps it
      if (!direct && bytes > 0) {
        const uint64_t origin = from / align * align;
        mem = bound_range(*dst, origin, from + bytes - origin, sub);
        from -= origin;
      }
      check(cl().clEnqueueFillBuffer(s.queue, mem, &pattern, sizeof pattern, from, bytes, 0, nullptr, nullptr),
            s.device->where, "clEnqueueFillBuffer");
    });
    note_enqueued(s);
  });
}

void stream_dispatch(porta_plugin_stream_t& stream, porta_plugin_kernel_t& kernel, const uint32_t groups[3],
                     plugin::BufferList<porta_plugin_buffer_t> buffers, const void* push,
                     uint32_t push_size) {
  // Outside a recording the arguments go into this thread's scratch space,
  // which keeps its capacity: a dispatch allocates nothing on the host.
  thread_local DispatchArgs scratch;
  DispatchArgs recorded;
  DispatchArgs& a = stream.recording ? recorded : scratch;
  struct Clear {
    DispatchArgs& a;
    ~Clear() { a.clear(); }  // releases this dispatch's sub-buffers
  } clear{scratch};
  for (uint32_t i = 0; i < buffers.size(); ++i) {
    const bool whole = buffers.offset(i) == 0 && buffers.bytes(i) == buffers[i].size;
    a.mems.push_back(bound_range(buffers[i], buffers.offset(i), buffers.bytes(i), a.sub_buffers));
    a.ids.push_back(whole ? buffers[i].id : 0);
    a.sizes.push_back(buffers.bytes(i));
  }
  if (push_size)
    a.push.assign(static_cast<const unsigned char*>(push),
                  static_cast<const unsigned char*>(push) + push_size);
  std::copy(groups, groups + 3, a.groups);
  if (!stream.recording) return dispatch(stream, kernel, a);
  auto kept = std::make_shared<const RecordedDispatch>(RecordedDispatch{&kernel, std::move(a)});
  stream.recorded.push_back(
      {[kept](porta_plugin_stream_t& s) { dispatch(s, *kept->kernel, kept->args); }, kept});
}

void note_enqueued(porta_plugin_stream_t& stream, cl_event event) {
  if (stream.tail) cl().clReleaseEvent(stream.tail);
  stream.tail = event;
}

namespace {

// Waits for the queue: for the event of its last command (which completes
// once everything before it on the in-order queue has) on a GPU, in
// clFinish on a CPU-type device; under the watchdog by polling the event.
void wait_idle(porta_plugin_stream_t& stream) {
  const std::string& where = stream.device->where;
  // The last command's event where there is one (it completes once everything
  // before it on the in-order queue has), else a marker's.
  cl_event marker = stream.tail;
  stream.tail = nullptr;
  if (!marker)
    check(cl().clEnqueueMarkerWithWaitList(stream.queue, 0, nullptr, &marker), where,
          "clEnqueueMarkerWithWaitList");
  cl_int flushed = cl().clFlush(stream.queue);
  cl_int status = CL_SUCCESS, state = CL_QUEUED;
  auto done = [&] {
    status = cl().clGetEventInfo(marker, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof state, &state, nullptr);
    return status != CL_SUCCESS || state <= CL_COMPLETE;  // done, or a negative error code
  };
  if (flushed == CL_SUCCESS) {
    // A CPU-type device (PoCL) runs on the cores a poll would take, and each
    // poll takes its locks: there clFinish comes first (a round trip on PoCL
    // on two shared cores: 48 against 76 us, medians of five runs each), and
    // the marker's status after it.
    // Without a watchdog a GPU's sync waits in clWaitForEvents, which on
    // NVIDIA's OpenCL answers as soon as polling the event does (H200 round
    // trips, two runs: 14.2 and 17.4 us waiting, 18.4 and 16.5 us polling).
    const bool gpu = stream.device->entry->info.type != PORTA_DEVICE_CPU;
    if (gpu && stream.device->timeout_ms) {
      plugin::spin_then_block(done, [] {});
    } else if (gpu) {
      cl().clWaitForEvents(1, &marker);  // a failed command shows in the event's status
      done();
    } else if (!stream.device->timeout_ms && cl().clFinish(stream.queue) == CL_SUCCESS) {
      done();
    }
  }
  check(flushed, where, "clFlush");
  if (status == CL_SUCCESS && state > CL_COMPLETE && stream.device->timeout_ms) {
    // The watchdog (porta/robust.h): OpenCL cannot stop a kernel, so one
    // past the limit leaves the device lost (the core then hands nothing back).
    const bool finished = plugin::wait_with_limit(done, stream.device->timeout_ms);
    if (!finished)
      plugin::fail(
          PORTA_ERROR_DEVICE_LOST,
          "opencl: %s: %s did not finish within %.3f s (PORTA_TIMEOUT); OpenCL cannot stop a running "
          "kernel, so the device is lost",
          where.c_str(), plugin::kernels_phrase(stream.pending_kernels).c_str(),
          static_cast<double>(stream.device->timeout_ms) / 1000.0);
  }
  cl().clReleaseEvent(marker);
  stream.pending_kernels.clear();
  check(status, where, "clGetEventInfo");
  if (state == CL_COMPLETE) return;
  check(cl().clFinish(stream.queue), where, "clFinish");
  if (state < 0) check(state, where, "a command before stream_sync");
}

}  // namespace

void stream_sync(porta_plugin_stream_t& stream) {
  try {
    wait_idle(stream);
  } catch (...) {
    stream.small.finish(false);
    throw;
  }
  stream.small.finish(true);
  release_waited(stream);  // they have come
}

porta_plugin_event_t* event_record(porta_plugin_stream_t& stream) {
  use_timed_queue(stream);
  return event_mark(stream);
}

porta_plugin_event_t* event_mark(porta_plugin_stream_t& stream) {
  // On an in-order queue a marker completes when everything before it has.
  cl_event event = nullptr;
  check(cl().clEnqueueMarkerWithWaitList(stream.queue, 0, nullptr, &event), stream.device->where,
        "clEnqueueMarkerWithWaitList");
  note_enqueued(stream);
  return new porta_plugin_event_t{event, stream.device->where, stream.profiling};
}

double event_elapsed_ms(porta_plugin_event_t& start, porta_plugin_event_t& end) {
  if (!start.timed || !end.timed)
    plugin::fail(PORTA_ERROR_UNSUPPORTED,
                 "opencl: %s: the events' stream wraps a framework's cl_command_queue made without "
                 "CL_QUEUE_PROFILING_ENABLE, which cannot time its commands",
                 start.where.c_str());
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
  build_command_buffers(stream, *sequence);
  return sequence.release();
}

void stream_replay(porta_plugin_stream_t& stream, porta_plugin_sequence_t& sequence) {
  auto run = sequence.runs.begin();
  for (size_t i = 0; i < sequence.ops.size();) {
    if (run != sequence.runs.end() && run->begin == i) {
      const size_t end = run->end;
      if (replay_command_buffer(stream, sequence, *run++)) {
        i = end;
        continue;
      }
    }
    sequence.ops[i++].run(stream);
  }
}

void sequence_destroy(porta_plugin_sequence_t* sequence) { delete sequence; }

}  // namespace porta::opencl
