// The porta plugin ABI for Vulkan: each entry turns its handles back into the
// plugin's objects and runs inside guard(), which reports failures through the
// host. The work itself lives in instance, device, memory, kernel and stream.
#include "stream.hpp"

namespace porta::vk {
namespace {

using plugin::guard;

Device* as_device(porta_plugin_device d) { return reinterpret_cast<Device*>(d); }
Buffer* as_buffer(porta_plugin_buffer b) { return reinterpret_cast<Buffer*>(b); }
Kernel* as_kernel(porta_plugin_kernel k) { return reinterpret_cast<Kernel*>(k); }
Stream* as_stream(porta_plugin_stream s) { return reinterpret_cast<Stream*>(s); }
Event* as_event(porta_plugin_event e) { return reinterpret_cast<Event*>(e); }
Sequence* as_sequence(porta_plugin_sequence s) { return reinterpret_cast<Sequence*>(s); }

const PhysicalDevice& physical(uint32_t index) {
  if (!has_instance()) plugin::fail(PORTA_ERROR_UNAVAILABLE, "vulkan: the backend is not initialised");
  const auto& devices = instance().devices;
  if (index >= devices.size())
    plugin::fail(PORTA_ERROR_NOT_FOUND, "vulkan: no device %u (there are %zu)", index, devices.size());
  return devices[index];
}

porta_status init(const porta_host_api* host) {
  plugin::host() = host;
  return guard([] { init_instance(); });
}

void shutdown() { shutdown_instance(); }

uint32_t device_count() { return has_instance() ? static_cast<uint32_t>(instance().devices.size()) : 0; }

porta_status device_info(uint32_t index, porta_device_info* info) {
  return guard([&] { *info = physical(index).info; });
}

porta_status device_open(uint32_t index, porta_plugin_device* device) {
  return guard([&] { *device = reinterpret_cast<porta_plugin_device>(new Device(physical(index))); });
}

void device_close(porta_plugin_device device) { delete as_device(device); }

porta_status buffer_create(porta_plugin_device device, uint64_t size, porta_plugin_buffer* buffer) {
  return guard([&] {
    Device* d = as_device(device);
    d->ensure_alive("buffer_create");
    *buffer = reinterpret_cast<porta_plugin_buffer>(create_buffer(*d, size, MemoryKind::kDevice));
  });
}

void buffer_destroy(porta_plugin_buffer buffer) {
  Buffer* b = as_buffer(buffer);
  if (b) b->device->release([b] { destroy_buffer(b); });
}

porta_status kernel_create(porta_plugin_device device, const porta_kernel_desc* desc,
                           porta_plugin_kernel* kernel) {
  return guard([&] {
    Device* d = as_device(device);
    d->ensure_alive("kernel_create");
    *kernel = reinterpret_cast<porta_plugin_kernel>(create_kernel(*d, *desc));
  });
}

void kernel_destroy(porta_plugin_kernel kernel) {
  Kernel* k = as_kernel(kernel);
  if (k) k->device->release([k] { destroy_kernel(k); });
}

porta_status stream_create(porta_plugin_device device, porta_plugin_stream* stream) {
  return guard([&] {
    Device* d = as_device(device);
    d->ensure_alive("stream_create");
    *stream = reinterpret_cast<porta_plugin_stream>(new Stream(*d));
  });
}

void stream_destroy(porta_plugin_stream stream) {
  Stream* s = as_stream(stream);
  if (s) s->device().release([s] { delete s; });
}

porta_status stream_write(porta_plugin_stream s, porta_plugin_buffer dst, uint64_t offset, const void* src,
                          uint64_t size) {
  return guard([&] { as_stream(s)->write(as_buffer(dst), offset, src, size); });
}

porta_status stream_read(porta_plugin_stream s, porta_plugin_buffer src, uint64_t offset, void* dst,
                         uint64_t size) {
  return guard([&] { as_stream(s)->read(as_buffer(src), offset, dst, size); });
}

porta_status stream_copy(porta_plugin_stream s, porta_plugin_buffer src, uint64_t src_offset,
                         porta_plugin_buffer dst, uint64_t dst_offset, uint64_t size) {
  return guard([&] { as_stream(s)->copy(as_buffer(src), src_offset, as_buffer(dst), dst_offset, size); });
}

porta_status stream_fill(porta_plugin_stream s, porta_plugin_buffer dst, uint64_t offset, uint64_t size,
                         uint32_t pattern) {
  return guard([&] { as_stream(s)->fill(as_buffer(dst), offset, size, pattern); });
}

porta_status stream_dispatch(porta_plugin_stream s, porta_plugin_kernel kernel, const uint32_t groups[3],
                             const porta_plugin_buffer* buffers, uint32_t buffer_count, const void* push,
                             uint32_t push_size) {
  return guard(
      [&] { as_stream(s)->dispatch(as_kernel(kernel), groups, buffers, buffer_count, push, push_size); });
}

porta_status stream_sync(porta_plugin_stream s) {
  return guard([&] { as_stream(s)->sync(); });
}

porta_status event_record(porta_plugin_stream s, porta_plugin_event* event) {
  return guard([&] { *event = reinterpret_cast<porta_plugin_event>(as_stream(s)->record_event()); });
}

porta_status event_elapsed_ms(porta_plugin_event start, porta_plugin_event end, double* ms) {
  return guard([&] { *ms = vk::event_elapsed_ms(*as_event(start), *as_event(end)); });
}

void event_destroy(porta_plugin_event event) {
  Event* e = as_event(event);
  if (e) e->device->release([e] { delete e; });
}

porta_status stream_begin_record(porta_plugin_stream s) {
  return guard([&] { as_stream(s)->begin_record(); });
}

porta_status stream_end_record(porta_plugin_stream s, porta_plugin_sequence* sequence) {
  return guard([&] { *sequence = reinterpret_cast<porta_plugin_sequence>(as_stream(s)->end_record()); });
}

porta_status stream_replay(porta_plugin_stream s, porta_plugin_sequence sequence) {
  return guard([&] { as_stream(s)->replay(as_sequence(sequence)); });
}

void sequence_destroy(porta_plugin_sequence sequence) {
  Sequence* q = as_sequence(sequence);
  if (q) q->device->release([q] { delete q; });
}

const porta_plugin_api kApi = {
    PORTA_PLUGIN_ABI_VERSION,
    "vulkan",
    PORTA_LANGUAGE_SPIRV,
    init,
    shutdown,
    device_count,
    device_info,
    device_open,
    device_close,
    buffer_create,
    buffer_destroy,
    kernel_create,
    kernel_destroy,
    stream_create,
    stream_destroy,
    stream_write,
    stream_read,
    stream_copy,
    stream_fill,
    stream_dispatch,
    stream_sync,
    event_record,
    event_elapsed_ms,
    event_destroy,
    stream_begin_record,
    stream_end_record,
    stream_replay,
    sequence_destroy,
};

}  // namespace
}  // namespace porta::vk

extern "C" PORTA_PLUGIN_EXPORT const porta_plugin_api* porta_plugin_entry(void) { return &porta::vk::kApi; }
