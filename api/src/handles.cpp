// Releasing the objects behind the C handles, and plugin calls on a device.
#include "handles.hpp"

#include <string>

#include "errors.hpp"

// A lost device's objects are not handed back to its plugin: its runtime may
// still be running the kernel that was lost (a GPU kernel cannot be stopped
// portably), and waiting for it would hang. They are left to the process's end.
DeviceState::~DeviceState() {
  reused_kernels.clear();
  if (lost) return;
  if (!finish_left_work()) return;  // the device stays open under that work (reported)
  if (io_stream) {
    api->stream_sync(io_stream);
    api->stream_destroy(io_stream);
  }
  if (handle) api->device_close(handle);
}

BufferState::~BufferState() {
  if (device->lost) return;            // the lost device's kernel may still use the memory
  if (device->has_left_work.load()) {  // work a destroyed stream left may still use it
    std::function<void()> release = [api = device->api, handle = handle, on_release = std::move(on_release)] {
      if (handle) api->buffer_destroy(handle);
      if (on_release) on_release();
    };
    if (!device->defer_release(
            porta::core::format("a buffer of %llu bytes", static_cast<unsigned long long>(size)), release))
      release();
    return;
  }
  if (handle) device->api->buffer_destroy(handle);
  if (on_release) on_release();
}

KernelState::~KernelState() {
  if (!handle || device->lost) return;
  if (device->has_left_work.load()) {
    std::function<void()> release = [api = device->api, handle = handle] { api->kernel_destroy(handle); };
    if (device->defer_release("kernel '" + interface.name + "'", release)) return;
  }
  device->api->kernel_destroy(handle);
}

namespace porta::core {

void check_plugin(porta_status status, DeviceState& device, const char* call) {
  if (status == PORTA_SUCCESS) return;
  // The plugin's message was recorded through host->set_error; add context.
  std::string cause = last_error_cause();
  if (cause.empty()) cause = "the backend gave no reason";
  if (status == PORTA_ERROR_DEVICE_LOST) {
    std::lock_guard lock(device.lost_mutex);
    if (!device.lost) device.lost_cause = std::string(call) + ": " + cause;
    device.lost = true;
  }
  fail(status, "%s: %s: %s", device.label.c_str(), call, cause.c_str());
}

void check_not_lost(DeviceState& device, const char* call) {
  if (!device.lost) return;
  std::lock_guard lock(device.lost_mutex);
  fail(PORTA_ERROR_DEVICE_LOST, "%s: %s is lost (%s); every call on it fails: open the device again", call,
       device.label.c_str(), device.lost_cause.c_str());
}

}  // namespace porta::core
