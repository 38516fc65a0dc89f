// The CUDA backend's entry point: the porta_plugin_api table. Each entry turns
// handles into the plugin's objects and exceptions into statuses.
#include "cuda_plugin.hpp"

namespace porta::cuda {
namespace {

using plugin::guard;

template <class T, class H>
T* as(H handle) {
  return reinterpret_cast<T*>(handle);
}

porta_status init(const porta_host_api* host) {
  plugin::host() = host;
  return guard([] { enumerate_devices(); });
}

void shutdown() { forget_devices(); }

uint32_t count() { return device_count(); }

porta_status info(uint32_t index, porta_device_info* out) {
  return guard([&] { device_info(index, out); });
}

porta_status open(uint32_t index, porta_plugin_device* out) {
  return guard([&] { *out = reinterpret_cast<porta_plugin_device>(device_open(index)); });
}

void close(porta_plugin_device device) {
  guard([&] { device_close(as<Device>(device)); });
}

porta_status buffer_new(porta_plugin_device device, uint64_t size, porta_plugin_buffer* out) {
  return guard(
      [&] { *out = reinterpret_cast<porta_plugin_buffer>(buffer_create(as<Device>(device), size)); });
}

void buffer_free(porta_plugin_buffer buffer) {
  guard([&] { buffer_destroy(as<Buffer>(buffer)); });
}

porta_status kernel_new(porta_plugin_device device, const porta_kernel_desc* desc, porta_plugin_kernel* out) {
  return guard(
      [&] { *out = reinterpret_cast<porta_plugin_kernel>(kernel_create(as<Device>(device), desc)); });
}

void kernel_free(porta_plugin_kernel kernel) {
  guard([&] { kernel_destroy(as<Kernel>(kernel)); });
}

porta_status stream_new(porta_plugin_device device, porta_plugin_stream* out) {
  return guard([&] { *out = reinterpret_cast<porta_plugin_stream>(stream_create(as<Device>(device))); });
}

void stream_free(porta_plugin_stream stream) {
  guard([&] { stream_destroy(as<Stream>(stream)); });
}

porta_status write(porta_plugin_stream stream, porta_plugin_buffer dst, uint64_t offset, const void* src,
                   uint64_t size) {
  return guard([&] { stream_write(as<Stream>(stream), as<Buffer>(dst), offset, src, size); });
}

porta_status read(porta_plugin_stream stream, porta_plugin_buffer src, uint64_t offset, void* dst,
                  uint64_t size) {
  return guard([&] { stream_read(as<Stream>(stream), as<Buffer>(src), offset, dst, size); });
}

porta_status copy(porta_plugin_stream stream, porta_plugin_buffer src, uint64_t src_offset,
                  porta_plugin_buffer dst, uint64_t dst_offset, uint64_t size) {
  return guard([&] {
    stream_copy(as<Stream>(stream), as<Buffer>(src), src_offset, as<Buffer>(dst), dst_offset, size);
  });
}

porta_status fill(porta_plugin_stream stream, porta_plugin_buffer dst, uint64_t offset, uint64_t size,
                  uint32_t pattern) {
  return guard([&] { stream_fill(as<Stream>(stream), as<Buffer>(dst), offset, size, pattern); });
}

porta_status dispatch(porta_plugin_stream stream, porta_plugin_kernel kernel, const uint32_t groups[3],
                      const porta_plugin_buffer* buffers, uint32_t buffer_count, const void* push,
                      uint32_t push_size) {
  return guard([&] {
    stream_dispatch(as<Stream>(stream), as<Kernel>(kernel), groups, buffers, buffer_count, push, push_size);
  });
}

porta_status sync(porta_plugin_stream stream) {
  return guard([&] { stream_sync(as<Stream>(stream)); });
}

porta_status record_event(porta_plugin_stream stream, porta_plugin_event* out) {
  return guard([&] { *out = reinterpret_cast<porta_plugin_event>(event_record(as<Stream>(stream))); });
}

porta_status elapsed(porta_plugin_event start, porta_plugin_event end, double* ms) {
  return guard([&] { *ms = event_elapsed_ms(as<Event>(start), as<Event>(end)); });
}

void event_free(porta_plugin_event event) {
  guard([&] { event_destroy(as<Event>(event)); });
}

porta_status begin_record(porta_plugin_stream stream) {
  return guard([&] { stream_begin_record(as<Stream>(stream)); });
}

porta_status end_record(porta_plugin_stream stream, porta_plugin_sequence* out) {
  return guard(
      [&] { *out = reinterpret_cast<porta_plugin_sequence>(stream_end_record(as<Stream>(stream))); });
}

porta_status replay(porta_plugin_stream stream, porta_plugin_sequence sequence) {
  return guard([&] { stream_replay(as<Stream>(stream), as<Sequence>(sequence)); });
}

void sequence_free(porta_plugin_sequence sequence) {
  guard([&] { sequence_destroy(as<Sequence>(sequence)); });
}

const porta_plugin_api kApi = {
    PORTA_PLUGIN_ABI_VERSION,
    "cuda",
    PORTA_LANGUAGE_CUDA,
    init,
    shutdown,
    count,
    info,
    open,
    close,
    buffer_new,
    buffer_free,
    kernel_new,
    kernel_free,
    stream_new,
    stream_free,
    write,
    read,
    copy,
    fill,
    dispatch,
    sync,
    record_event,
    elapsed,
    event_free,
    begin_record,
    end_record,
    replay,
    sequence_free,
};

}  // namespace
}  // namespace porta::cuda

extern "C" PORTA_PLUGIN_EXPORT const porta_plugin_api* porta_plugin_entry(void) { return &porta::cuda::kApi; }
