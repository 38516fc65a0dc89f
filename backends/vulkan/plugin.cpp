// The Vulkan backend as a porta plugin. Objects a device still uses are
// destroyed through Device::release, once the GPU has finished with them.
#include "../common/plugin_adapter.hpp"
#include "interop.hpp"
#include "stream.hpp"

namespace porta::vk {

struct Backend {
  static constexpr const char* name = "vulkan";
  static constexpr porta_kernel_language language = PORTA_LANGUAGE_SPIRV;

  static void init() { init_instance(); }
  static void shutdown() { shutdown_instance(); }
  static uint32_t device_count() {
    return has_instance() ? static_cast<uint32_t>(instance().devices.size()) : 0;
  }
  static const porta_device_info& device_info(uint32_t index) { return instance().devices[index].info; }
  static Device* device_open(uint32_t index, const porta_plugin_device_options& options) {
    return new Device(instance().devices[index], options);
  }
  static void device_close(Device* device) { delete device; }

  static Buffer* buffer_create(Device& device, uint64_t size) {
    device.ensure_alive("buffer_create");
    return create_buffer(device, size, MemoryKind::kDevice);
  }
  static void buffer_destroy(Buffer* b) {
    b->device->release([b] { destroy_buffer(b); });
  }
  static Buffer* buffer_import(Device& device, const porta_native_memory& memory) {
    device.ensure_alive("buffer_import");
    if (memory.kind == PORTA_NATIVE_MEMORY_HOST) return import_host_buffer(device, memory);
    return import_buffer(device, memory);
  }
  static void buffer_native(Buffer& b, porta_native_memory& memory) { describe_buffer(b, memory); }
  static void device_native(Device& device, porta_native_device& native) {
    native.vk_instance = instance().handle;
    native.vk_physical_device = device.physical.handle;
    native.vk_device = device.handle;
    native.vk_queue = device.queue;
    native.vk_queue_family = device.physical.queue_family;
  }
  static Kernel* kernel_create(Device& device, const porta_kernel_desc& desc) {
    device.ensure_alive("kernel_create");
    return create_kernel(device, desc);
  }
  static void kernel_destroy(Kernel* k) {
    k->device->release([k] { destroy_kernel(k); });
  }

  static Stream* stream_create(Device& device) {
    device.ensure_alive("stream_create");
    return new Stream(device);
  }
  // porta's VkDevice has one queue: a framework sharing the device submits to it too.
  static Stream* stream_wrap_native(Device& device, void* native_queue) {
    device.ensure_alive("stream_wrap_native");
    if (native_queue != static_cast<void*>(device.queue))
      plugin::fail(PORTA_ERROR_INVALID_ARGUMENT,
                   "vulkan: %s: stream_wrap_native: VkQueue %p is not porta's queue %p (family %u; "
                   "porta_native_device's vk_queue, the only queue of porta's VkDevice)",
                   device.label().c_str(), native_queue, static_cast<void*>(device.queue),
                   device.physical.queue_family);
    return new Stream(device);
  }
  static void* stream_native(Stream& s) { return s.device().queue; }
  static void stream_wait_native_event(Stream& s, void* event) { s.wait_semaphore(event); }
  static void stream_signal_native_event(Stream& s, void* event) { s.signal_semaphore(event); }
  static void stream_release_native_waits(Stream& s) { s.release_native_waits(); }
  static void stream_destroy(Stream* s) {
    s->device().release([s] { delete s; });
  }
  static void stream_write(Stream& s, Buffer& dst, uint64_t offset, const void* src, uint64_t size) {
    s.write(&dst, offset, src, size);
  }
  static void stream_read(Stream& s, Buffer& src, uint64_t offset, void* dst, uint64_t size) {
    s.read(&src, offset, dst, size);
  }
  static void stream_copy(Stream& s, Buffer& src, uint64_t src_offset, Buffer& dst, uint64_t dst_offset,
                          uint64_t size) {
    s.copy(&src, src_offset, &dst, dst_offset, size);
  }
  static void stream_fill(Stream& s, Buffer& dst, uint64_t offset, uint64_t size, uint32_t pattern) {
    s.fill(&dst, offset, size, pattern);
  }
  static void stream_dispatch(Stream& s, Kernel& kernel, const uint32_t groups[3],
                              plugin::BufferList<Buffer> buffers, const void* push, uint32_t push_size) {
    s.dispatch(&kernel, groups, buffers, push, push_size);
  }
  static void stream_sync(Stream& s) { s.sync(); }

  static Event* event_record(Stream& s) { return s.record_event(); }
  static double event_elapsed_ms(Event& start, Event& end) { return vk::event_elapsed_ms(start, end); }
  static void stream_wait_event(Stream& s, Event& event) { s.wait_event(event); }
  static bool event_query(Event& event) { return vk::event_query(event); }
  static void event_destroy(Event* e) {
    e->device->release([e] { delete e; });
  }

  static void stream_begin_record(Stream& s) { s.begin_record(); }
  static Sequence* stream_end_record(Stream& s) { return s.end_record(); }
  static void stream_replay(Stream& s, Sequence& sequence) { s.replay(&sequence); }
  static void sequence_destroy(Sequence* q) {
    q->device->release([q] { delete q; });
  }
};

}  // namespace porta::vk

PORTA_PLUGIN_ENTRY(porta::vk::Backend)
