// The OpenCL backend as a porta plugin: its objects and the file that does
// each entry's work (device, memory, kernel, stream).
#include "../common/plugin_adapter.hpp"
#include "opencl.hpp"

namespace porta::opencl {

struct Backend : plugin::HandleObjects {
  static constexpr const char* name = "opencl";
  static constexpr porta_kernel_language language = PORTA_LANGUAGE_OPENCL_C;

  static void init() {
    load_runtime();
    enumerate_devices();
  }
  static void shutdown() { clear_devices(); }
  static uint32_t device_count() { return static_cast<uint32_t>(devices().size()); }
  static const porta_device_info& device_info(uint32_t index) { return devices()[index].info; }
  static Device* device_open(uint32_t index, const porta_plugin_device_options& options) {
    return opencl::device_open(index, options);
  }
  static void device_close(Device* device) { opencl::device_close(device); }

  static Buffer* buffer_create(Device& device, uint64_t size) { return opencl::buffer_create(device, size); }
  static void buffer_destroy(Buffer* buffer) { opencl::buffer_destroy(buffer); }
  static Kernel* kernel_create(Device& device, const porta_kernel_desc& desc) {
    return opencl::kernel_create(device, desc);
  }
  static void kernel_destroy(Kernel* kernel) { opencl::kernel_destroy(kernel); }

  static Stream* stream_create(Device& device) { return opencl::stream_create(device); }
  static void stream_destroy(Stream* s) { opencl::stream_destroy(s); }
  static void stream_write(Stream& s, Buffer& dst, uint64_t offset, const void* src, uint64_t size) {
    opencl::stream_write(s, dst, offset, src, size);
  }
  static void stream_read(Stream& s, Buffer& src, uint64_t offset, void* dst, uint64_t size) {
    opencl::stream_read(s, src, offset, dst, size);
  }
  static void stream_copy(Stream& s, Buffer& src, uint64_t src_offset, Buffer& dst, uint64_t dst_offset,
                          uint64_t size) {
    opencl::stream_copy(s, src, src_offset, dst, dst_offset, size);
  }
  static void stream_fill(Stream& s, Buffer& dst, uint64_t offset, uint64_t size, uint32_t pattern) {
    opencl::stream_fill(s, dst, offset, size, pattern);
  }
  static void stream_dispatch(Stream& s, Kernel& kernel, const uint32_t groups[3],
                              plugin::BufferList<Buffer> buffers, const void* push, uint32_t push_size) {
    opencl::stream_dispatch(s, kernel, groups, buffers, push, push_size);
  }
  static void stream_sync(Stream& s) { opencl::stream_sync(s); }

  static Event* event_record(Stream& s) { return opencl::event_record(s); }
  static Event* event_mark(Stream& s) { return opencl::event_mark(s); }
  static double event_elapsed_ms(Event& start, Event& end) { return opencl::event_elapsed_ms(start, end); }
  static void event_destroy(Event* event) { opencl::event_destroy(event); }

  static void stream_begin_record(Stream& s) { opencl::stream_begin_record(s); }
  static Sequence* stream_end_record(Stream& s) { return opencl::stream_end_record(s); }
  static void stream_replay(Stream& s, Sequence& sequence) { opencl::stream_replay(s, sequence); }
  static void sequence_destroy(Sequence* sequence) { opencl::sequence_destroy(sequence); }

  static Buffer* buffer_import(Device& device, const porta_native_memory& memory) {
    return opencl::buffer_import(device, memory);
  }
  static void buffer_native(Buffer& buffer, porta_native_memory& memory) {
    opencl::buffer_native(buffer, memory);
  }
  static void device_native(Device& device, porta_native_device& native) {
    opencl::device_native(device, native);
  }
  static Stream* stream_wrap_native(Device& device, void* queue) {
    return opencl::stream_wrap_native(device, queue);
  }
  // The queue handed out is the stream's for good: it moves to its timed
  // queue first, so that a later timed event leaves the framework's view alone.
  static void* stream_native(Stream& s) {
    opencl::use_timed_queue(s);
    return s.queue;
  }
  static void stream_wait_native_event(Stream& s, void* event) { opencl::stream_wait_native_event(s, event); }
  static void stream_signal_native_event(Stream& s, void* event) {
    opencl::stream_signal_native_event(s, event);
  }
  static void stream_release_native_waits(Stream& s) { opencl::stream_release_native_waits(s); }
  static bool event_query(Event& event) { return opencl::event_query(event); }
  static void stream_wait_event(Stream& s, Event& event) { opencl::stream_wait_event(s, event); }
};

}  // namespace porta::opencl

PORTA_PLUGIN_ENTRY(porta::opencl::Backend)
