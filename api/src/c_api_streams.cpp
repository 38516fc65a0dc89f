// C API: streams, their operations, recorded sequences and events.
#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "bounds_report.hpp"
#include "errors.hpp"
#include "fault.hpp"
#include "handle_registry.hpp"
#include "handles.hpp"
#include "log.hpp"

using namespace porta::core;

namespace {

const char* kAxis = "xyz";

void check_range(const BufferState& b, uint64_t offset, uint64_t size, const char* call, const char* which) {
  // offset + size may wrap around: say so rather than print a range that ends before it begins.
  if (size > UINT64_MAX - offset)
    fail(PORTA_ERROR_INVALID_ARGUMENT,
         "%s on %s: %s offset + size overflows (%llu + %llu): past the end of the buffer (%llu bytes)", call,
         b.device->label.c_str(), which, static_cast<unsigned long long>(offset),
         static_cast<unsigned long long>(size), static_cast<unsigned long long>(b.size));
  if (offset > b.size || size > b.size - offset)
    fail(PORTA_ERROR_INVALID_ARGUMENT,
         "%s on %s: %s range [%llu, %llu) is past the end of the buffer (%llu bytes)", call,
         b.device->label.c_str(), which, static_cast<unsigned long long>(offset),
         static_cast<unsigned long long>(offset) + static_cast<unsigned long long>(size),
         static_cast<unsigned long long>(b.size));
}

void check_same_device(const DeviceRef& a, const DeviceRef& b, const char* call, const char* what) {
  if (a != b)
    fail(PORTA_ERROR_INVALID_HANDLE, "%s: %s belongs to %s, but the stream belongs to %s", call, what,
         b->label.c_str(), a->label.c_str());
}

porta_stream_t& stream_of(porta_stream stream, const char* call) {
  check_handle(stream, "stream", call);
  check_not_lost(*stream->device, call);
  return *stream;
}

// `argument` is the parameter's name in porta.h, `what` the buffer's role in words.
BufferState& buffer_on(porta_stream_t& s, porta_buffer buffer, const char* call, const char* argument,
                       const char* what) {
  check_handle(buffer, "buffer", call, argument);
  check_same_device(s.device, buffer->state->device, call, what);
  return *buffer->state;
}

// The host memory of a transfer of `size` bytes is null: src of a write, dst of a read.
[[noreturn]] void fail_null_host(const char* call, bool write, uint64_t size) {
  fail(PORTA_ERROR_INVALID_ARGUMENT, "%s: %s is null (the host memory to %s, %llu bytes)", call,
       write ? "src" : "dst", write ? "write from" : "read into", static_cast<unsigned long long>(size));
}

bool native_recording(const DeviceState& d) {
  return d.api->stream_begin_record && d.api->stream_end_record && d.api->stream_replay &&
         d.api->sequence_destroy;
}

// in_flight objects between two marks: a mark costs an event per so many objects.
constexpr size_t kObjectsPerMark = 32;

// Lets go of the objects of work the device has finished (the marks it has
// passed), without waiting; the device's later objects stay.
void release_finished(porta_stream_t& s) {
  auto query = s.device->api->event_query;
  size_t finished = 0;
  while (query && !s.marks.empty()) {
    int done = 0;
    if (query(s.marks.front().event, &done) != PORTA_SUCCESS || !done) break;  // a failure shows at sync
    finished = s.marks.front().objects;
    s.device->api->event_destroy(s.marks.front().event);
    s.marks.pop_front();
  }
  if (finished == 0) return;
  s.in_flight.erase(s.in_flight.begin(), s.in_flight.begin() + static_cast<std::ptrdiff_t>(finished));
  for (InFlightMark& m : s.marks) m.objects -= finished;
}

// An event the core only queries, never times: event_mark where the plugin
// has it (its timed events may cost the stream something), else event_record.
porta_status mark(const porta_plugin_api& api, porta_plugin_stream stream, porta_plugin_event* event) {
  return api.event_mark ? api.event_mark(stream, event) : api.event_record(stream, event);
}

// Marks the work queued so far once enough objects came since the last mark.
void mark_in_flight(porta_stream_t& s) {
  const porta_plugin_api& api = *s.device->api;
  if (!api.event_query ||
      s.in_flight.size() - (s.marks.empty() ? 0 : s.marks.back().objects) < kObjectsPerMark)
    return;
  porta_plugin_event event = nullptr;
  if (mark(api, s.handle, &event) == PORTA_SUCCESS)
    s.marks.push_back({event, s.in_flight.size()});
  else
    clear_last_error();  // no mark: the objects stay until the sync
}

// What a failure of a queued operation names ("write", "dispatch 'NAME'"),
// made into text only when something failed: a queued operation builds no
// string and allocates nothing for its name.
struct OpName {
  const char* what;
  const std::string* name = nullptr;
  std::string text() const { return name ? std::string(what) + " '" + *name + "'" : std::string(what); }
};

// Before an operation is queued: lets go of the objects of finished work.
void begin_submit(porta_stream_t& s) {
  if (!s.recording) release_finished(s);
}

// Keeps `object` alive while the queued work (or the sequence being recorded) may use it.
void keep(porta_stream_t& s, const std::shared_ptr<void>& object) {
  (s.recording ? s.recording->keep_alive : s.in_flight).push_back(object);
}

// Issues an operation: `issue()` calls the plugin now, with what the caller
// has at hand; when the core records this stream, `record()` makes the
// recorded op instead, which owns copies of what it uses.
template <class Issue, class Record>
void submit(porta_stream_t& s, const OpName& name, Issue&& issue, Record&& record) {
  if (s.recording && !native_recording(*s.device)) {
    s.recording->ops.push_back(record());
    return;
  }
  if (s.device->lost) check_not_lost(*s.device, name.text().c_str());
  clear_last_error();
  const porta_status status = issue();
  if (status != PORTA_SUCCESS) check_plugin(status, *s.device, name.text().c_str());
  if (!s.recording) mark_in_flight(s);
}

// The stream's marks go (its work has finished, or the stream is gone).
void drop_marks(porta_stream_t& s) {
  for (const InFlightMark& m : s.marks) s.device->api->event_destroy(m.event);
  s.marks.clear();
}

// porta_stream_destroy of a stream that waited for a framework's event: true
// when its work has not finished (the event may never come), and the plugin
// stream is left to the device (left_work.cpp) instead of waited for.
bool leave_waiting_work(porta_stream_t& s) {
  const porta_plugin_api& api = *s.device->api;
  if (!api.event_record || !api.event_query) return false;
  porta_plugin_event end = nullptr;
  int done = 0;
  if (mark(api, s.handle, &end) != PORTA_SUCCESS || api.event_query(end, &done) != PORTA_SUCCESS ||
      done) {
    clear_last_error();  // the sync that follows says what failed
    if (end) api.event_destroy(end);
    return false;
  }
  drop_marks(s);
  s.device->leave_stream(s.handle, end);
  log(PORTA_LOG_INFO, s.device->label +
                          ": stream destroyed while its work waits for a framework's event; porta frees what "
                          "that work uses once it has run");
  return true;
}

// porta_stream_wait_event where the plugin has no stream_wait_event: the
// host waits until the event's work has finished, so that all the stream
// queues afterwards follows it. Without event_query there is no way to tell.
void wait_on_host(DeviceState& device, porta_plugin_event event) {
  const porta_plugin_api& api = *device.api;
  if (!api.event_query)
    fail(PORTA_ERROR_UNSUPPORTED,
         "porta_stream_wait_event: the %s plugin has neither stream_wait_event nor event_query (%s)",
         api.name, device.label.c_str());
  auto pause = std::chrono::microseconds(10);
  for (;;) {
    int done = 0;
    check_plugin(api.event_query(event, &done), device, "event_query");
    if (done) return;
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(1000));
  }
}

// porta_stream_write and porta_stream_read: `host` is the source of a write
// and the destination of a read.
porta_status stream_transfer(porta_stream stream, porta_buffer buffer, uint64_t offset, void* host,
                             uint64_t size, bool write, const char* call) {
  clear_last_error();
  return guard([&] {
    auto& s = stream_of(stream, call);
    auto& b = buffer_on(s, buffer, call, write ? "dst" : "src",
                        write ? "the destination buffer" : "the source buffer");
    check_range(b, offset, size, call, write ? "destination" : "source");
    if (size == 0) return;
    if (!host) fail_null_host(call, write, size);
    const porta_plugin_api* api = s.device->api;
    porta_plugin_stream ps = s.handle;
    porta_plugin_buffer pb = b.handle;
    auto issue = [=] {
      return write ? api->stream_write(ps, pb, offset, host, size)
                   : api->stream_read(ps, pb, offset, host, size);
    };
    begin_submit(s);
    keep(s, buffer->state);
    submit(s, {write ? "write" : "read"}, issue, [&] { return RecordedOp(issue); });
  });
}

// porta_stream_dispatch and porta_stream_dispatch_bindings: `binding(i)` is
// parameter i's porta_binding, read only after the count and array are checked.
template <class BindingOf>
porta_status dispatch(const char* call, porta_stream stream, porta_kernel kernel, const uint32_t groups[3],
                      bool bindings_given, uint32_t binding_count, BindingOf binding, const void* push,
                      uint32_t push_size) {
  clear_last_error();
  return guard([&] {
    auto& s = stream_of(stream, call);
    check_handle(kernel, "kernel", call);
    const KernelState& k = *kernel->state;
    check_same_device(s.device, k.device, call, ("kernel '" + k.interface.name + "'").c_str());
    const std::string& name = k.interface.name;
    if (!groups) fail(PORTA_ERROR_INVALID_ARGUMENT, "%s '%s': groups is null", call, name.c_str());
    const porta_device_info& info = s.device->info;
    const auto& lim = info.limits;
    for (int i = 0; i < 3; ++i) {
      if (groups[i] == 0)
        fail(PORTA_ERROR_INVALID_ARGUMENT, "%s '%s': group count %c is 0; every dimension needs at least 1",
             call, name.c_str(), kAxis[i]);
      if (groups[i] > lim.max_workgroup_count[i])
        fail(PORTA_ERROR_INVALID_ARGUMENT, "%s '%s': group count %c = %u exceeds %s's limit of %u", call,
             name.c_str(), kAxis[i], groups[i], s.device->label.c_str(), lim.max_workgroup_count[i]);
    }
    if (binding_count != k.interface.buffer_count)
      fail(PORTA_ERROR_INVALID_ARGUMENT, "%s '%s': %u buffers given; the kernel has %u buffer parameters",
           call, name.c_str(), binding_count, k.interface.buffer_count);
    if (binding_count && !bindings_given)
      fail(PORTA_ERROR_INVALID_ARGUMENT, "%s '%s': %s is null", call, name.c_str(),
           std::strcmp(call, "porta_stream_dispatch") ? "bindings" : "buffers");
    if (push_size != k.interface.push_constant_size)
      fail(PORTA_ERROR_INVALID_ARGUMENT,
           "%s '%s': %u bytes of push constants given; the kernel's block is %u bytes", call, name.c_str(),
           push_size, k.interface.push_constant_size);
    if (push_size && !push)
      fail(PORTA_ERROR_INVALID_ARGUMENT, "%s '%s': push constants are null", call, name.c_str());

    // This thread's list keeps its capacity: a dispatch allocates nothing here.
    thread_local std::vector<porta_plugin_binding> handles;
    handles.resize(binding_count);
    for (uint32_t i = 0; i < binding_count; ++i) {
      // The buffer's name in a message is built only when it is wrong: this
      // runs for every buffer of every dispatch.
      const KernelBufferParameter& parameter = k.interface.buffers[i];
      const auto what = [&] {
        const std::string element = parameter.is_array ? format("[%u]", parameter.array_index) : "";
        return format("buffer %u ('%s%s', set %u, binding %u%s) of kernel '%s'", i, parameter.name.c_str(),
                      element.c_str(), parameter.set, parameter.binding, element.c_str(), name.c_str());
      };
      const porta_binding b = binding(i);
      if (!is_live(b.buffer, "buffer"))
        check_handle(b.buffer, "buffer", (std::string(call) + ": " + what()).c_str());
      const BufferState& state = *b.buffer->state;
      if (state.device != s.device) check_same_device(s.device, state.device, call, what().c_str());
      if (b.offset != 0 || b.size != 0) check_range(state, b.offset, b.size, call, what().c_str());
      const uint64_t size = b.size ? b.size : state.size - b.offset;
      if (size == 0)
        fail(PORTA_ERROR_INVALID_ARGUMENT,
             "%s: %s is bound at offset %llu, the end of its %llu-byte buffer: no bytes", call,
             what().c_str(), static_cast<unsigned long long>(b.offset),
             static_cast<unsigned long long>(state.size));
      if (b.offset % info.binding_offset_alignment != 0)
        fail(PORTA_ERROR_INVALID_ARGUMENT,
             "%s: %s is bound at offset %llu, not a multiple of %s's binding_offset_alignment (%llu bytes)",
             call, what().c_str(), static_cast<unsigned long long>(b.offset), s.device->label.c_str(),
             static_cast<unsigned long long>(info.binding_offset_alignment));
      if (size > info.max_binding_bytes)
        fail(PORTA_ERROR_UNSUPPORTED,
             "%s: %s binds %llu bytes, more than %s's max_binding_bytes (%llu bytes): bind ranges of the "
             "buffer "
             "(porta_stream_dispatch_bindings)",
             call, what().c_str(), static_cast<unsigned long long>(size), s.device->label.c_str(),
             static_cast<unsigned long long>(info.max_binding_bytes));
      // A kernel reads its block's fixed members wherever it likes: a smaller
      // range would be read out of bounds on every backend.
      if (size < parameter.min_size)
        fail(PORTA_ERROR_INVALID_ARGUMENT, "%s: %s is %llu bytes; its block needs at least %llu bytes", call,
             what().c_str(), static_cast<unsigned long long>(size),
             static_cast<unsigned long long>(parameter.min_size));
      handles[i] = {state.handle, b.offset, size};
    }
    begin_submit(s);
    keep(s, kernel->state);
    for (uint32_t i = 0; i < binding_count; ++i) keep(s, binding(i).buffer->state);
    // PORTA_ROBUST=report: the dispatch's own record, read by the sync after it.
    if (k.bounds_report) {
      auto record = make_bounds_record(s.device, kernel->state, handles);
      handles.push_back({record->buffer->handle, 0, record->buffer->size});
      keep(s, record->buffer);
      (s.recording ? s.recording->bounds_records : s.bounds_records).push_back(std::move(record));
    }
    const uint32_t device_push = k.interface.device_push_constant_size;
    const void* push_data = push && device_push ? push : nullptr;
    const uint32_t push_bytes = push ? device_push : 0;
    const std::array<uint32_t, 3> g{groups[0], groups[1], groups[2]};
    const porta_plugin_api* api = s.device->api;
    porta_plugin_stream ps = s.handle;
    porta_plugin_kernel pk = k.handle;
    fault_point(*s.device, FaultPoint::dispatch, call, "dispatch", name.c_str());
    submit(
        s, {"dispatch", &name},
        [&] {
          return api->stream_dispatch(ps, pk, g.data(), handles.data(), static_cast<uint32_t>(handles.size()),
                                      push_data, push_bytes);
        },
        [&] {
          std::vector<porta_plugin_binding> bound(handles);
          std::vector<uint8_t> bytes(static_cast<const uint8_t*>(push_data),
                                     static_cast<const uint8_t*>(push_data) + (push_data ? push_bytes : 0));
          return RecordedOp([=] {
            return api->stream_dispatch(ps, pk, g.data(), bound.data(), static_cast<uint32_t>(bound.size()),
                                        bytes.empty() ? nullptr : bytes.data(),
                                        static_cast<uint32_t>(bytes.size()));
          });
        });
  });
}

}  // namespace

extern "C" {

porta_status porta_stream_create(porta_device device, porta_stream* stream) {
  clear_last_error();
  return guard([&] {
    check_handle(device, "device", "porta_stream_create");
    if (!stream) fail(PORTA_ERROR_INVALID_ARGUMENT, "porta_stream_create: stream is null");
    *stream = nullptr;
    device->state->release_left_work();
    auto s = std::make_unique<porta_stream_t>();
    s->device = device->state;
    static std::atomic<uint64_t> streams_made{0};
    s->serial = ++streams_made;
    check_not_lost(*s->device, "porta_stream_create");
    check_plugin(s->device->api->stream_create(s->device->handle, &s->handle), *s->device, "stream_create");
    register_handle(s.get(), "stream");
    *stream = s.release();
  });
}

void porta_stream_destroy(porta_stream stream) {
  if (!release_handle(stream, "stream", "porta_stream_destroy")) return;
  const DeviceRef device = stream->device;
  const auto& api = device->api;
  if (device->lost) {  // handles.cpp says why nothing goes back to the plugin
    delete stream;
    return;
  }
  if (stream->recording && native_recording(*device)) {
    porta_plugin_sequence seq = nullptr;
    if (api->stream_end_record(stream->handle, &seq) == PORTA_SUCCESS && seq) api->sequence_destroy(seq);
  }
  if (!(stream->native_waits && leave_waiting_work(*stream))) {
    if (api->stream_sync(stream->handle) != PORTA_SUCCESS)
      log(PORTA_LOG_WARN, device->label + ": stream destroyed with failed work: " + porta_last_error());
    drop_marks(*stream);
    api->stream_destroy(stream->handle);
  }
  delete stream;  // objects that left work uses wait for it (DeviceState::defer_release)
  device->release_left_work();
}

porta_status porta_stream_write(porta_stream stream, porta_buffer dst, uint64_t offset, const void* src,
                                uint64_t size) {
  return stream_transfer(stream, dst, offset, const_cast<void*>(src), size, true, "porta_stream_write");
}

porta_status porta_stream_read(porta_stream stream, porta_buffer src, uint64_t offset, void* dst,
                               uint64_t size) {
  return stream_transfer(stream, src, offset, dst, size, false, "porta_stream_read");
}

porta_status porta_stream_copy(porta_stream stream, porta_buffer src, uint64_t src_offset, porta_buffer dst,
                               uint64_t dst_offset, uint64_t size) {
  clear_last_error();
  return guard([&] {
    auto& s = stream_of(stream, "porta_stream_copy");
    auto& a = buffer_on(s, src, "porta_stream_copy", "src", "the source buffer");
    auto& b = buffer_on(s, dst, "porta_stream_copy", "dst", "the destination buffer");
    check_range(a, src_offset, size, "porta_stream_copy", "source");
    check_range(b, dst_offset, size, "porta_stream_copy", "destination");
    if (size == 0) return;
    if (&a == &b && src_offset < dst_offset + size && dst_offset < src_offset + size)
      fail(PORTA_ERROR_INVALID_ARGUMENT, "porta_stream_copy: source and destination ranges overlap");
    auto api = s.device->api;
    auto ps = s.handle;
    auto pa = a.handle;
    auto pb = b.handle;
    auto issue = [=] { return api->stream_copy(ps, pa, src_offset, pb, dst_offset, size); };
    begin_submit(s);
    keep(s, src->state);
    keep(s, dst->state);
    submit(s, {"copy"}, issue, [&] { return RecordedOp(issue); });
  });
}

porta_status porta_stream_fill(porta_stream stream, porta_buffer dst, uint64_t offset, uint64_t size,
                               uint32_t pattern) {
  clear_last_error();
  return guard([&] {
    auto& s = stream_of(stream, "porta_stream_fill");
    auto& b = buffer_on(s, dst, "porta_stream_fill", "dst", "the destination buffer");
    check_range(b, offset, size, "porta_stream_fill", "destination");
    if (offset % 4 || size % 4)
      fail(PORTA_ERROR_INVALID_ARGUMENT,
           "porta_stream_fill: offset (%llu) and size (%llu) must be multiples of 4",
           static_cast<unsigned long long>(offset), static_cast<unsigned long long>(size));
    if (size == 0) return;
    auto api = s.device->api;
    auto ps = s.handle;
    auto pb = b.handle;
    auto issue = [=] { return api->stream_fill(ps, pb, offset, size, pattern); };
    begin_submit(s);
    keep(s, dst->state);
    submit(s, {"fill"}, issue, [&] { return RecordedOp(issue); });
  });
}

porta_status porta_stream_dispatch(porta_stream stream, porta_kernel kernel, const uint32_t groups[3],
                                   const porta_buffer* buffers, uint32_t buffer_count, const void* push,
                                   uint32_t push_size) {
  return dispatch(
      "porta_stream_dispatch", stream, kernel, groups, buffers != nullptr, buffer_count,
      [&](uint32_t i) {
        return porta_binding{buffers[i], 0, 0};
      },
      push, push_size);
}

porta_status porta_stream_dispatch_bindings(porta_stream stream, porta_kernel kernel,
                                            const uint32_t groups[3], const porta_binding* bindings,
                                            uint32_t binding_count, const void* push, uint32_t push_size) {
  return dispatch(
      "porta_stream_dispatch_bindings", stream, kernel, groups, bindings != nullptr, binding_count,
      [&](uint32_t i) { return bindings[i]; }, push, push_size);
}

porta_status porta_stream_sync(porta_stream stream) {
  clear_last_error();
  return guard([&] {
    auto& s = stream_of(stream, "porta_stream_sync");
    if (s.recording)
      fail(PORTA_ERROR_INVALID_ARGUMENT, "porta_stream_sync: the stream is recording a sequence");
    check_not_lost(*s.device, "porta_stream_sync");
    porta_status status = s.device->api->stream_sync(s.handle);
    // Work on a lost device may still use its objects: they stay.
    if (status != PORTA_ERROR_DEVICE_LOST) {
      drop_marks(s);
      s.in_flight.clear();
      s.native_waits = false;  // the framework's events came
      s.device->release_left_work();
    }
    if (status != PORTA_SUCCESS) s.bounds_records.clear();
    check_plugin(status, *s.device, "sync");
    check_bounds_records(s, "porta_stream_sync");
  });
}

// ---- recorded sequences -----------------------------------------------------

porta_status porta_stream_begin_record(porta_stream stream) {
  clear_last_error();
  return guard([&] {
    auto& s = stream_of(stream, "porta_stream_begin_record");
    if (s.recording) fail(PORTA_ERROR_INVALID_ARGUMENT, "porta_stream_begin_record: already recording");
    if (native_recording(*s.device))
      check_plugin(s.device->api->stream_begin_record(s.handle), *s.device, "begin_record");
    s.recording = std::make_unique<porta_sequence_t>();
    s.recording->device = s.device;
  });
}

porta_status porta_stream_end_record(porta_stream stream, porta_sequence* sequence) {
  clear_last_error();
  return guard([&] {
    auto& s = stream_of(stream, "porta_stream_end_record");
    if (!sequence) fail(PORTA_ERROR_INVALID_ARGUMENT, "porta_stream_end_record: sequence is null");
    *sequence = nullptr;
    if (!s.recording)
      fail(PORTA_ERROR_INVALID_ARGUMENT, "porta_stream_end_record: the stream is not recording");
    std::unique_ptr<porta_sequence_t> seq = std::move(s.recording);
    if (native_recording(*s.device))
      check_plugin(s.device->api->stream_end_record(s.handle, &seq->handle), *s.device, "end_record");
    register_handle(seq.get(), "sequence");
    *sequence = seq.release();
  });
}

porta_status porta_stream_replay(porta_stream stream, porta_sequence sequence) {
  clear_last_error();
  return guard([&] {
    auto& s = stream_of(stream, "porta_stream_replay");
    check_handle(sequence, "sequence", "porta_stream_replay");
    check_same_device(s.device, sequence->device, "porta_stream_replay", "the sequence");
    if (s.recording)
      fail(PORTA_ERROR_INVALID_ARGUMENT, "porta_stream_replay: the stream is recording a sequence");
    for (const auto& o : sequence->keep_alive) s.in_flight.push_back(o);
    for (const auto& r : sequence->bounds_records) s.bounds_records.push_back(r);
    if (sequence->handle) {
      check_plugin(s.device->api->stream_replay(s.handle, sequence->handle), *s.device, "replay");
      return;
    }
    for (const auto& op : sequence->ops) check_plugin(op(), *s.device, "replay");
  });
}

void porta_sequence_destroy(porta_sequence sequence) {
  if (!release_handle(sequence, "sequence", "porta_sequence_destroy")) return;
  DeviceState& d = *sequence->device;
  if (sequence->handle && !d.lost) {
    // A replay on a stream destroyed with left work may still run it.
    std::function<void()> release = [api = d.api, handle = sequence->handle] {
      api->sequence_destroy(handle);
    };
    if (!d.has_left_work.load() || !d.defer_release("a recorded sequence", release)) release();
  }
  delete sequence;
}

// ---- events -----------------------------------------------------------------

porta_status porta_event_record(porta_stream stream, porta_event* event) {
  clear_last_error();
  return guard([&] {
    auto& s = stream_of(stream, "porta_event_record");
    if (!event) fail(PORTA_ERROR_INVALID_ARGUMENT, "porta_event_record: event is null");
    *event = nullptr;
    if (s.recording)
      fail(PORTA_ERROR_INVALID_ARGUMENT, "porta_event_record: the stream is recording a sequence");
    auto e = std::make_unique<porta_event_t>();
    e->device = s.device;
    e->stream_serial = s.serial;
    check_plugin(s.device->api->event_record(s.handle, &e->handle), *s.device, "event_record");
    register_handle(e.get(), "event");
    *event = e.release();
  });
}

porta_status porta_event_elapsed_ms(porta_event start, porta_event end, double* ms) {
  clear_last_error();
  return guard([&] {
    const char* call = "porta_event_elapsed_ms";
    check_handle(start, "event", call, "start");
    check_handle(end, "event", call, "end");
    check_not_lost(*start->device, call);
    if (!ms) fail(PORTA_ERROR_INVALID_ARGUMENT, "%s: ms is null", call);
    if (start->device != end->device)
      fail(PORTA_ERROR_INVALID_HANDLE, "%s: start belongs to %s, but end belongs to %s", call,
           start->device->label.c_str(), end->device->label.c_str());
    // Clocks of two streams (two queues) need not agree: Vulkan promises
    // comparable timestamps within one queue only.
    if (start->stream_serial != end->stream_serial)
      fail(PORTA_ERROR_INVALID_ARGUMENT,
           "%s: start and end were recorded on different streams; time events of one stream", call);
    check_plugin(start->device->api->event_elapsed_ms(start->handle, end->handle, ms), *start->device,
                 "event_elapsed");
  });
}

porta_status porta_stream_wait_event(porta_stream stream, porta_event event) {
  clear_last_error();
  return guard([&] {
    const char* call = "porta_stream_wait_event";
    auto& s = stream_of(stream, call);
    check_handle(event, "event", call, "event");
    if (event->device != s.device)
      fail(PORTA_ERROR_INVALID_HANDLE,
           "%s: event was recorded on a stream of %s, but the stream belongs to %s; a stream waits only "
           "for events of its own device",
           call, event->device->label.c_str(), s.device->label.c_str());
    if (s.recording)
      fail(PORTA_ERROR_INVALID_ARGUMENT, "%s: the stream is recording a sequence; wait before begin_record",
           call);
    const porta_plugin_api& api = *s.device->api;
    if (api.stream_wait_event) {
      check_plugin(api.stream_wait_event(s.handle, event->handle), *s.device, "stream_wait_event");
      return;
    }
    wait_on_host(*s.device, event->handle);
  });
}

void porta_event_destroy(porta_event event) {
  if (!release_handle(event, "event", "porta_event_destroy")) return;
  event->device->api->event_destroy(event->handle);
  delete event;
}

// ---- synchronous transfers through the device's own stream -----------------

static porta_status transfer(porta_buffer buffer, uint64_t offset, void* host, uint64_t size, bool write,
                             const char* call) {
  clear_last_error();
  return guard([&] {
    check_handle(buffer, "buffer", call);
    BufferState& b = *buffer->state;
    check_range(b, offset, size, call, write ? "destination" : "source");
    if (size == 0) return;
    if (!host) fail_null_host(call, write, size);
    DeviceState& d = *b.device;
    check_not_lost(d, call);
    std::lock_guard lock(d.io_mutex);
    if (!d.io_stream) check_plugin(d.api->stream_create(d.handle, &d.io_stream), d, "stream_create");
    porta_status st = write ? d.api->stream_write(d.io_stream, b.handle, offset, host, size)
                            : d.api->stream_read(d.io_stream, b.handle, offset, host, size);
    check_plugin(st, d, write ? "write" : "read");
    check_plugin(d.api->stream_sync(d.io_stream), d, "sync");
  });
}

porta_status porta_buffer_write(porta_buffer buffer, uint64_t offset, const void* src, uint64_t size) {
  return transfer(buffer, offset, const_cast<void*>(src), size, true, "porta_buffer_write");
}

porta_status porta_buffer_read(porta_buffer buffer, uint64_t offset, void* dst, uint64_t size) {
  return transfer(buffer, offset, dst, size, false, "porta_buffer_read");
}

}  // extern "C"
