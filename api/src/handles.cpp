// Releasing the objects behind the C handles, and plugin calls on a device.
#include "handles.hpp"

#include <string>

#include "errors.hpp"

DeviceState::~DeviceState() {
  reused_kernels.clear();
  if (io_stream) {
    api->stream_sync(io_stream);
    api->stream_destroy(io_stream);
  }
  if (handle) api->device_close(handle);
}

BufferState::~BufferState() {
  if (handle) device->api->buffer_destroy(handle);
  if (on_release) on_release();
}

KernelState::~KernelState() {
  if (handle) device->api->kernel_destroy(handle);
}

namespace porta::core {

void check_plugin(porta_status status, const DeviceState& device, const char* call) {
  if (status == PORTA_SUCCESS) return;
  // The plugin's message was recorded through host->set_error; add context.
  std::string cause = last_error_cause();
  if (cause.empty()) cause = "the backend gave no reason";
  fail(status, "%s: %s: %s", device.label.c_str(), call, cause.c_str());
}

}  // namespace porta::core
