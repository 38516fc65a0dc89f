// The CPU backend's plugin table: each entry turns C++ failures into a status
// (plugin::guard) and hands the work to the file that owns the concern.
#include "../common/plugin_support.hpp"
#include "device.hpp"
#include "kernel.hpp"
#include "memory.hpp"
#include "stream.hpp"

namespace porta::cpu {
namespace {

using plugin::guard;

porta_status init(const porta_host_api* host) {
  plugin::host() = host;
  return guard([] { device_init(); });
}

void shutdown() {}

uint32_t device_count() { return 1; }

porta_status device_info(uint32_t index, porta_device_info* info) {
  return guard([&] {
    if (index != 0)
      plugin::fail(PORTA_ERROR_NOT_FOUND, "cpu: device_info: no device %u (there is one)", index);
    *info = cpu::device_info();
  });
}

porta_status device_open(uint32_t index, porta_plugin_device* device) {
  return guard([&] {
    if (index != 0)
      plugin::fail(PORTA_ERROR_NOT_FOUND, "cpu: device_open: no device %u (there is one)", index);
    *device = new porta_plugin_device_t{shared_pool()};
  });
}

void device_close(porta_plugin_device device) { delete device; }

porta_status buffer_create(porta_plugin_device, uint64_t size, porta_plugin_buffer* buffer) {
  return guard([&] { *buffer = cpu::buffer_create(size); });
}

void buffer_destroy(porta_plugin_buffer buffer) { cpu::buffer_destroy(buffer); }

porta_status kernel_create(porta_plugin_device, const porta_kernel_desc* desc, porta_plugin_kernel* kernel) {
  return guard([&] { *kernel = cpu::kernel_create(*desc); });
}

void kernel_destroy(porta_plugin_kernel kernel) { delete kernel; }

porta_status stream_create(porta_plugin_device device, porta_plugin_stream* stream) {
  return guard([&] { *stream = cpu::stream_create(device); });
}

void stream_destroy(porta_plugin_stream stream) { delete stream; }

porta_status stream_write(porta_plugin_stream s, porta_plugin_buffer dst, uint64_t offset, const void* src,
                          uint64_t size) {
  return guard([&] { cpu::stream_write(s, dst, offset, src, size); });
}

porta_status stream_read(porta_plugin_stream s, porta_plugin_buffer src, uint64_t offset, void* dst,
                         uint64_t size) {
  return guard([&] { cpu::stream_read(s, src, offset, dst, size); });
}

porta_status stream_copy(porta_plugin_stream s, porta_plugin_buffer src, uint64_t src_offset,
                         porta_plugin_buffer dst, uint64_t dst_offset, uint64_t size) {
  return guard([&] { cpu::stream_copy(s, src, src_offset, dst, dst_offset, size); });
}

porta_status stream_fill(porta_plugin_stream s, porta_plugin_buffer dst, uint64_t offset, uint64_t size,
                         uint32_t pattern) {
  return guard([&] { cpu::stream_fill(s, dst, offset, size, pattern); });
}

porta_status stream_dispatch(porta_plugin_stream s, porta_plugin_kernel kernel, const uint32_t groups[3],
                             const porta_plugin_buffer* buffers, uint32_t buffer_count, const void* push,
                             uint32_t push_size) {
  return guard([&] { cpu::stream_dispatch(s, kernel, groups, buffers, buffer_count, push, push_size); });
}

// Work runs when it is queued, so there is never anything left to wait for.
porta_status stream_sync(porta_plugin_stream) { return PORTA_SUCCESS; }

porta_status event_record(porta_plugin_stream s, porta_plugin_event* event) {
  return guard([&] { *event = cpu::event_record(s); });
}

porta_status event_elapsed_ms(porta_plugin_event start, porta_plugin_event end, double* ms) {
  return guard([&] { *ms = cpu::event_elapsed_ms(start, end); });
}

void event_destroy(porta_plugin_event event) { delete event; }

porta_status stream_begin_record(porta_plugin_stream s) {
  return guard([&] { cpu::stream_begin_record(s); });
}

porta_status stream_end_record(porta_plugin_stream s, porta_plugin_sequence* sequence) {
  return guard([&] { *sequence = cpu::stream_end_record(s); });
}

porta_status stream_replay(porta_plugin_stream s, porta_plugin_sequence sequence) {
  return guard([&] { cpu::stream_replay(s, sequence); });
}

void sequence_destroy(porta_plugin_sequence sequence) { delete sequence; }

const porta_plugin_api kApi = {
    PORTA_PLUGIN_ABI_VERSION,
    "cpu",
    PORTA_LANGUAGE_CPP,
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
}  // namespace porta::cpu

extern "C" PORTA_PLUGIN_EXPORT const porta_plugin_api* porta_plugin_entry(void) { return &porta::cpu::kApi; }
