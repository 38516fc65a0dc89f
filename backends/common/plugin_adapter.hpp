// The one way a backend becomes a porta plugin. A backend describes itself in
// one struct of C++ types and static functions; Adapter<Backend> fills the
// porta_plugin_api table from it by name, turns handles into the backend's
// objects and back, runs every entry inside guard() (an exception becomes a
// status and one set_error call), and leaves the recording entries null when
// the backend does not record. PORTA_PLUGIN_ENTRY(Backend) exports the table.
//
// The core validates every argument before it calls a plugin (handles, sizes,
// ranges, buffer counts, push-constant sizes, device indexes, limits and
// features): a backend only checks what its runtime alone knows.
//
// The backend's object types are the ones its entries make (device_open,
// buffer_create, kernel_create, stream_create, event_record,
// stream_end_record); a backend whose objects are the plugin handle structs
// themselves (porta_plugin_device_t, ...) names them by deriving from
// HandleObjects.
//
// struct Backend {
//   static constexpr const char* name = "...";
//   static constexpr porta_kernel_language language = PORTA_LANGUAGE_...;
//
//   static void init();                       // throws Failure: the backend is unavailable
//   static void shutdown();
//   static uint32_t device_count();
//   static porta_device_info device_info(uint32_t index);  // or a const reference
//   static Device* device_open(uint32_t index, const porta_plugin_device_options& options);
//   static void device_close(Device* device);
//   static Buffer* buffer_create(Device& device, uint64_t size);
//   static void buffer_destroy(Buffer* buffer);
//   static Kernel* kernel_create(Device& device, const porta_kernel_desc& desc);
//   static void kernel_destroy(Kernel* kernel);
//   static Stream* stream_create(Device& device);
//   static void stream_destroy(Stream* stream);
//   static void stream_write(Stream&, Buffer& dst, uint64_t offset, const void* src, uint64_t size);
//   static void stream_read(Stream&, Buffer& src, uint64_t offset, void* dst, uint64_t size);
//   static void stream_copy(Stream&, Buffer& src, uint64_t src_offset, Buffer& dst, uint64_t dst_offset,
//                           uint64_t size);
//   static void stream_fill(Stream&, Buffer& dst, uint64_t offset, uint64_t size, uint32_t pattern);
//   static void stream_dispatch(Stream&, Kernel&, const uint32_t groups[3], BufferList<Buffer> buffers,
//                               const void* push, uint32_t push_size);
//   static void stream_sync(Stream&);
//   static Event* event_record(Stream&);
//   static double event_elapsed_ms(Event& start, Event& end);
//   static void event_destroy(Event* event);
//
//   // Recorded sequences, optional (all or none; without them the core
//   // records and replays the calls itself):
//   static void stream_begin_record(Stream&);
//   static Sequence* stream_end_record(Stream&);
//   static void stream_replay(Stream&, Sequence&);
//   static void sequence_destroy(Sequence* sequence);
//
//   // Interop (porta/interop.h), each optional (a missing one is refused by
//   // the core as unsupported on this backend):
//   static Buffer* buffer_import(Device&, const porta_native_memory&);  // never frees the memory
//   static void buffer_native(Buffer&, porta_native_memory&);
//   static void device_native(Device&, porta_native_device&);
//   static Stream* stream_wrap_native(Device&, void* native_stream);    // never destroys it
//   static void* stream_native(Stream&);
//   static void stream_wait_native_event(Stream&, void* native_event);
//   static void stream_signal_native_event(Stream&, void* native_event);
//   static bool event_query(Event&);  // the work before it has finished (never blocks)
//   static void stream_wait_event(Stream&, Event&);  // later work waits for the event, not the host
//   static void stream_release_native_waits(Stream&);  // at close: satisfy the framework's events it can
//   static Event* event_mark(Stream&);  // an event never timed, for the core's marks (else event_record)
// };
#pragma once

#include <concepts>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "plugin_support.hpp"

namespace porta::plugin {

// A plugin handle as the backend's object (and back): the handle types are
// opaque pointers that only ever point at the backend's own objects.
template <class T, class Handle>
T* object(Handle handle) {
  return reinterpret_cast<T*>(handle);
}
template <class Handle, class T>
Handle handle(T* object) {
  return reinterpret_cast<Handle>(object);
}

// The buffers of a dispatch as the backend's objects, read in place from the
// binding array the core passes. Parameter i is the range [offset(i),
// offset(i) + bytes(i)) of buffer [i]; the kernel sees it as the whole buffer.
template <class Buffer>
class BufferList {
 public:
  BufferList(const porta_plugin_binding* bindings, uint32_t count) : bindings_(bindings), count_(count) {}
  uint32_t size() const { return count_; }
  Buffer& operator[](uint32_t i) const { return *object<Buffer>(bindings_[i].buffer); }
  uint64_t offset(uint32_t i) const { return bindings_[i].offset; }
  uint64_t bytes(uint32_t i) const { return bindings_[i].size; }

 private:
  const porta_plugin_binding* bindings_;
  uint32_t count_;
};

// The object types of a backend whose objects are the plugin handle structs.
struct HandleObjects {
  using Device = porta_plugin_device_t;
  using Buffer = porta_plugin_buffer_t;
  using Kernel = porta_plugin_kernel_t;
  using Stream = porta_plugin_stream_t;
  using Event = porta_plugin_event_t;
  using Sequence = porta_plugin_sequence_t;
};

// The object type an entry makes (it returns a pointer to it).
template <class Made>
using Object = std::remove_pointer_t<Made>;

template <class B, class Stream>
concept Records = requires(Stream& stream) {
  B::stream_begin_record(stream);
  B::stream_replay(stream, *B::stream_end_record(stream));
  B::sequence_destroy(B::stream_end_record(stream));
};

template <class B>
class Adapter {
  using Device = Object<decltype(B::device_open(0, std::declval<const porta_plugin_device_options&>()))>;
  using Buffer = Object<decltype(B::buffer_create(std::declval<Device&>(), 0))>;
  using Kernel =
      Object<decltype(B::kernel_create(std::declval<Device&>(), std::declval<const porta_kernel_desc&>()))>;
  using Stream = Object<decltype(B::stream_create(std::declval<Device&>()))>;
  using Event = Object<decltype(B::event_record(std::declval<Stream&>()))>;
  template <class S = Stream>  // only named where the backend records
  using Sequence = Object<decltype(B::stream_end_record(std::declval<S&>()))>;

  static Device& device(porta_plugin_device d) { return *object<Device>(d); }
  static Buffer& buffer(porta_plugin_buffer b) { return *object<Buffer>(b); }
  static Stream& stream(porta_plugin_stream s) { return *object<Stream>(s); }

  // A destroy entry cannot report a status: a failure is only recorded.
  template <class F>
  static void release(F&& body) noexcept {
    guard(static_cast<F&&>(body));
  }

  static porta_status init(const porta_host_api* h) {
    host() = h;
    return guard([] { B::init(); });
  }
  static void shutdown() {
    release([] { B::shutdown(); });
  }
  static uint32_t device_count() {
    uint32_t n = 0;
    guard([&] { n = B::device_count(); });
    return n;
  }
  static porta_status device_info(uint32_t index, porta_device_info* info) {
    return guard([&] { *info = B::device_info(index); });
  }
  static porta_status device_open(uint32_t index, porta_plugin_device* out) {
    const porta_plugin_device_options options{};
    return guard([&] { *out = handle<porta_plugin_device>(B::device_open(index, options)); });
  }
  static porta_status device_open_options(uint32_t index, const porta_plugin_device_options* options,
                                          porta_plugin_device* out) {
    return guard([&] { *out = handle<porta_plugin_device>(B::device_open(index, *options)); });
  }
  static void device_close(porta_plugin_device d) {
    release([&] { B::device_close(object<Device>(d)); });
  }

  static porta_status buffer_create(porta_plugin_device d, uint64_t size, porta_plugin_buffer* out) {
    return guard([&] { *out = handle<porta_plugin_buffer>(B::buffer_create(device(d), size)); });
  }
  static void buffer_destroy(porta_plugin_buffer b) {
    release([&] { B::buffer_destroy(object<Buffer>(b)); });
  }

  static porta_status kernel_create(porta_plugin_device d, const porta_kernel_desc* desc,
                                    porta_plugin_kernel* out) {
    return guard([&] { *out = handle<porta_plugin_kernel>(B::kernel_create(device(d), *desc)); });
  }
  static void kernel_destroy(porta_plugin_kernel k) {
    release([&] { B::kernel_destroy(object<Kernel>(k)); });
  }

  static porta_status stream_create(porta_plugin_device d, porta_plugin_stream* out) {
    return guard([&] { *out = handle<porta_plugin_stream>(B::stream_create(device(d))); });
  }
  static void stream_destroy(porta_plugin_stream s) {
    release([&] { B::stream_destroy(object<Stream>(s)); });
  }

  static porta_status stream_write(porta_plugin_stream s, porta_plugin_buffer dst, uint64_t offset,
                                   const void* src, uint64_t size) {
    return guard([&] { B::stream_write(stream(s), buffer(dst), offset, src, size); });
  }
  static porta_status stream_read(porta_plugin_stream s, porta_plugin_buffer src, uint64_t offset, void* dst,
                                  uint64_t size) {
    return guard([&] { B::stream_read(stream(s), buffer(src), offset, dst, size); });
  }
  static porta_status stream_copy(porta_plugin_stream s, porta_plugin_buffer src, uint64_t src_offset,
                                  porta_plugin_buffer dst, uint64_t dst_offset, uint64_t size) {
    return guard([&] { B::stream_copy(stream(s), buffer(src), src_offset, buffer(dst), dst_offset, size); });
  }
  static porta_status stream_fill(porta_plugin_stream s, porta_plugin_buffer dst, uint64_t offset,
                                  uint64_t size, uint32_t pattern) {
    return guard([&] { B::stream_fill(stream(s), buffer(dst), offset, size, pattern); });
  }
  static porta_status stream_dispatch(porta_plugin_stream s, porta_plugin_kernel k, const uint32_t groups[3],
                                      const porta_plugin_binding* buffers, uint32_t buffer_count,
                                      const void* push, uint32_t push_size) {
    return guard([&] {
      B::stream_dispatch(stream(s), *object<Kernel>(k), groups, BufferList<Buffer>(buffers, buffer_count),
                         push, push_size);
    });
  }
  static porta_status stream_sync(porta_plugin_stream s) {
    return guard([&] { B::stream_sync(stream(s)); });
  }

  static porta_status event_record(porta_plugin_stream s, porta_plugin_event* out) {
    return guard([&] { *out = handle<porta_plugin_event>(B::event_record(stream(s))); });
  }
  static porta_status event_elapsed_ms(porta_plugin_event start, porta_plugin_event end, double* ms) {
    return guard([&] { *ms = B::event_elapsed_ms(*object<Event>(start), *object<Event>(end)); });
  }
  static void event_destroy(porta_plugin_event e) {
    release([&] { B::event_destroy(object<Event>(e)); });
  }

  // Recording entries exist only for a backend that records (see Records).
  static porta_status stream_begin_record(porta_plugin_stream s) requires Records<B, Stream> {
    return guard([&] { B::stream_begin_record(stream(s)); });
  }
  static porta_status stream_end_record(porta_plugin_stream s,
                                        porta_plugin_sequence* out) requires Records<B, Stream> {
    return guard([&] { *out = handle<porta_plugin_sequence>(B::stream_end_record(stream(s))); });
  }
  static porta_status stream_replay(porta_plugin_stream s,
                                    porta_plugin_sequence q) requires Records<B, Stream> {
    return guard([&] { B::stream_replay(stream(s), *object<Sequence<>>(q)); });
  }
  static void sequence_destroy(porta_plugin_sequence q) requires Records<B, Stream> {
    release([&] { B::sequence_destroy(object<Sequence<>>(q)); });
  }

  // Interop entries: each exists where the backend has its function; the
  // table gets null for the others (the `if constexpr` in interop()).
  static porta_status buffer_import(porta_plugin_device d, const porta_native_memory* m,
                                    porta_plugin_buffer* out) {
    return guard([&] { *out = handle<porta_plugin_buffer>(B::buffer_import(device(d), *m)); });
  }
  static porta_status buffer_native(porta_plugin_buffer b, porta_native_memory* m) {
    return guard([&] { B::buffer_native(buffer(b), *m); });
  }
  static porta_status device_native(porta_plugin_device d, porta_native_device* n) {
    return guard([&] { B::device_native(device(d), *n); });
  }
  static porta_status stream_wrap_native(porta_plugin_device d, void* native, porta_plugin_stream* out) {
    return guard([&] { *out = handle<porta_plugin_stream>(B::stream_wrap_native(device(d), native)); });
  }
  static porta_status stream_native(porta_plugin_stream s, void** native) {
    return guard([&] { *native = B::stream_native(stream(s)); });
  }
  static porta_status stream_wait_native_event(porta_plugin_stream s, void* event) {
    return guard([&] { B::stream_wait_native_event(stream(s), event); });
  }
  static porta_status stream_signal_native_event(porta_plugin_stream s, void* event) {
    return guard([&] { B::stream_signal_native_event(stream(s), event); });
  }
  static porta_status event_mark(porta_plugin_stream s, porta_plugin_event* out) {
    return guard([&] { *out = handle<porta_plugin_event>(B::event_mark(stream(s))); });
  }
  static porta_status event_query(porta_plugin_event e, int* done) {
    return guard([&] { *done = B::event_query(*object<Event>(e)) ? 1 : 0; });
  }
  static porta_status stream_wait_event(porta_plugin_stream s, porta_plugin_event e) {
    return guard([&] { B::stream_wait_event(stream(s), *object<Event>(e)); });
  }
  static porta_status stream_release_native_waits(porta_plugin_stream s) {
    return guard([&] { B::stream_release_native_waits(stream(s)); });
  }

  struct Interop {
    decltype(porta_plugin_api::buffer_import) buffer_import = nullptr;
    decltype(porta_plugin_api::buffer_native) buffer_native = nullptr;
    decltype(porta_plugin_api::device_native) device_native = nullptr;
    decltype(porta_plugin_api::stream_wrap_native) stream_wrap_native = nullptr;
    decltype(porta_plugin_api::stream_native) stream_native = nullptr;
    decltype(porta_plugin_api::stream_wait_native_event) stream_wait_native_event = nullptr;
    decltype(porta_plugin_api::stream_signal_native_event) stream_signal_native_event = nullptr;
    decltype(porta_plugin_api::event_query) event_query = nullptr;
    decltype(porta_plugin_api::stream_wait_event) stream_wait_event = nullptr;
    decltype(porta_plugin_api::stream_release_native_waits) stream_release_native_waits = nullptr;
    decltype(porta_plugin_api::event_mark) event_mark = nullptr;
  };
  static constexpr Interop interop() {
    Interop i;
    if constexpr (requires(Device & d, const porta_native_memory& m) { B::buffer_import(d, m); })
      i.buffer_import = buffer_import;
    if constexpr (requires(Buffer & b, porta_native_memory & m) { B::buffer_native(b, m); })
      i.buffer_native = buffer_native;
    if constexpr (requires(Device & d, porta_native_device & n) { B::device_native(d, n); })
      i.device_native = device_native;
    if constexpr (requires(Device & d, void* p) { B::stream_wrap_native(d, p); })
      i.stream_wrap_native = stream_wrap_native;
    if constexpr (requires(Stream & s) { B::stream_native(s); }) i.stream_native = stream_native;
    if constexpr (requires(Stream & s, void* e) { B::stream_wait_native_event(s, e); })
      i.stream_wait_native_event = stream_wait_native_event;
    if constexpr (requires(Stream & s, void* e) { B::stream_signal_native_event(s, e); })
      i.stream_signal_native_event = stream_signal_native_event;
    if constexpr (requires(Event & e) { B::event_query(e); }) i.event_query = event_query;
    if constexpr (requires(Stream & s, Event & e) { B::stream_wait_event(s, e); })
      i.stream_wait_event = stream_wait_event;
    if constexpr (requires(Stream & s) { B::stream_release_native_waits(s); })
      i.stream_release_native_waits = stream_release_native_waits;
    if constexpr (requires(Stream & s) { B::event_mark(s); }) i.event_mark = event_mark;
    return i;
  }

  // The recording entries, or null ones for a backend that does not record.
  struct Recording {
    decltype(porta_plugin_api::stream_begin_record) begin = nullptr;
    decltype(porta_plugin_api::stream_end_record) end = nullptr;
    decltype(porta_plugin_api::stream_replay) replay = nullptr;
    decltype(porta_plugin_api::sequence_destroy) destroy = nullptr;
  };
  static constexpr Recording recording() {
    if constexpr (Records<B, Stream>)
      return {stream_begin_record, stream_end_record, stream_replay, sequence_destroy};
    else
      return {};
  }

 public:
  static constexpr porta_plugin_api table = {
      .abi_version = PORTA_PLUGIN_ABI_VERSION,
      .name = B::name,
      .language = B::language,
      .init = init,
      .shutdown = shutdown,
      .device_count = device_count,
      .device_info = device_info,
      .device_open = device_open,
      .device_close = device_close,
      .buffer_create = buffer_create,
      .buffer_destroy = buffer_destroy,
      .kernel_create = kernel_create,
      .kernel_destroy = kernel_destroy,
      .stream_create = stream_create,
      .stream_destroy = stream_destroy,
      .stream_write = stream_write,
      .stream_read = stream_read,
      .stream_copy = stream_copy,
      .stream_fill = stream_fill,
      .stream_dispatch = stream_dispatch,
      .stream_sync = stream_sync,
      .event_record = event_record,
      .event_elapsed_ms = event_elapsed_ms,
      .event_destroy = event_destroy,
      .stream_begin_record = recording().begin,
      .stream_end_record = recording().end,
      .stream_replay = recording().replay,
      .sequence_destroy = recording().destroy,
      .buffer_import = interop().buffer_import,
      .buffer_native = interop().buffer_native,
      .device_native = interop().device_native,
      .stream_wrap_native = interop().stream_wrap_native,
      .stream_native = interop().stream_native,
      .stream_wait_native_event = interop().stream_wait_native_event,
      .stream_signal_native_event = interop().stream_signal_native_event,
      .device_open_options = device_open_options,
      .event_query = interop().event_query,
      .stream_wait_event = interop().stream_wait_event,
      .stream_release_native_waits = interop().stream_release_native_waits,
      .event_mark = interop().event_mark,
  };
};

}  // namespace porta::plugin

// Exports `Backend`'s table as the plugin's one C symbol.
#define PORTA_PLUGIN_ENTRY(Backend)                                                 \
  extern "C" PORTA_PLUGIN_EXPORT const porta_plugin_api* porta_plugin_entry(void) { \
    return &::porta::plugin::Adapter<Backend>::table;                               \
  }
