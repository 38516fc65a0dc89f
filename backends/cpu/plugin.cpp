// The CPU backend as a porta plugin: its objects and the file that does each
// entry's work (device, memory, kernel, stream).
#include "../common/plugin_adapter.hpp"
#include "device.hpp"
#include "kernel.hpp"
#include "memory.hpp"
#include "stream.hpp"

namespace porta::cpu {

struct Backend : plugin::HandleObjects {
  static constexpr const char* name = "cpu";
  static constexpr porta_kernel_language language = PORTA_LANGUAGE_CPP;

  static void init() { device_init(); }
  static void shutdown() {}
  static uint32_t device_count() { return 1; }
  static const porta_device_info& device_info(uint32_t) { return cpu::device_info(); }
  // Translated kernels check their accesses whatever `robust` says (the core
  // asks for it); the watchdog stops a dispatch through its loops' polls.
  static Device* device_open(uint32_t, const porta_plugin_device_options& options) {
    return new Device{shared_pool(), options.timeout_ms};
  }
  static void device_close(Device* device) { delete device; }

  static Buffer* buffer_create(Device&, uint64_t size) { return cpu::buffer_create(size); }
  static void buffer_destroy(Buffer* buffer) { cpu::buffer_destroy(buffer); }
  static Buffer* buffer_import(Device&, const porta_native_memory& memory) {
    return cpu::buffer_import(memory);
  }
  static void buffer_native(Buffer& buffer, porta_native_memory& memory) {
    cpu::buffer_native(buffer, memory);
  }
  // Host memory needs no handles: only the api name (the core's).
  static void device_native(Device&, porta_native_device&) {}
  static Kernel* kernel_create(Device&, const porta_kernel_desc& desc) { return cpu::kernel_create(desc); }
  static void kernel_destroy(Kernel* kernel) { delete kernel; }

  static Stream* stream_create(Device& device) { return cpu::stream_create(&device); }
  static void stream_destroy(Stream* stream) { delete stream; }
  static void stream_write(Stream& s, Buffer& dst, uint64_t offset, const void* src, uint64_t size) {
    cpu::stream_write(&s, &dst, offset, src, size);
  }
  static void stream_read(Stream& s, Buffer& src, uint64_t offset, void* dst, uint64_t size) {
    cpu::stream_read(&s, &src, offset, dst, size);
  }
  static void stream_copy(Stream& s, Buffer& src, uint64_t src_offset, Buffer& dst, uint64_t dst_offset,
                          uint64_t size) {
    cpu::stream_copy(&s, &src, src_offset, &dst, dst_offset, size);
  }
  static void stream_fill(Stream& s, Buffer& dst, uint64_t offset, uint64_t size, uint32_t pattern) {
    cpu::stream_fill(&s, &dst, offset, size, pattern);
  }
  static void stream_dispatch(Stream& s, Kernel& kernel, const uint32_t groups[3],
                              plugin::BufferList<Buffer> buffers, const void* push, uint32_t push_size) {
    cpu::stream_dispatch(s, kernel, groups, buffers, push, push_size);
  }
  // Work runs when it is queued, so there is never anything left to wait for.
  static void stream_sync(Stream&) {}

  static Event* event_record(Stream& s) { return cpu::event_record(&s); }
  static double event_elapsed_ms(Event& start, Event& end) { return cpu::event_elapsed_ms(&start, &end); }
  static void event_destroy(Event* event) { delete event; }
  static bool event_query(Event& event) { return event.mark->reached; }
  static void stream_wait_event(Stream&, Event& event) { cpu::stream_wait_event(&event); }

  static void stream_begin_record(Stream& s) { cpu::stream_begin_record(&s); }
  static Sequence* stream_end_record(Stream& s) { return cpu::stream_end_record(&s); }
  static void stream_replay(Stream& s, Sequence& sequence) { cpu::stream_replay(&s, &sequence); }
  static void sequence_destroy(Sequence* sequence) { delete sequence; }
};

}  // namespace porta::cpu

PORTA_PLUGIN_ENTRY(porta::cpu::Backend)
