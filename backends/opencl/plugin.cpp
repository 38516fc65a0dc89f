// The plugin table libporta loads: libporta-opencl.so's only export.
#include "../common/plugin_support.hpp"
#include "opencl.hpp"

namespace porta::opencl {
namespace {

porta_status init(const porta_host_api* host) {
  plugin::host() = host;
  return plugin::guard([] {
    load_runtime();
    enumerate_devices();
  });
}

void shutdown() { clear_devices(); }

uint32_t device_count() { return static_cast<uint32_t>(devices().size()); }

porta_status device_info(uint32_t index, porta_device_info* info) {
  return plugin::guard([&] {
    if (index >= devices().size())
      plugin::fail(PORTA_ERROR_NOT_FOUND, "opencl: no device %u (%zu devices)", index, devices().size());
    *info = devices()[index].info;
  });
}

const porta_plugin_api kTable = {
    PORTA_PLUGIN_ABI_VERSION,
    "opencl",
    PORTA_LANGUAGE_OPENCL_C,
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
}  // namespace porta::opencl

extern "C" PORTA_PLUGIN_EXPORT const porta_plugin_api* porta_plugin_entry(void) {
  return &porta::opencl::kTable;
}
