// C API: the device a stream or buffer belongs to, whether a buffer is one of
// a device's, and whether two device handles name one opened device. What an
// op written on the public API needs to check its operands and make its
// kernels and workspaces.
#include "errors.hpp"
#include "handle_registry.hpp"
#include "handles.hpp"
#include "kernel_builder.hpp"

using namespace porta::core;

namespace {

// A new handle of the device that `object` (a stream or a buffer) belongs to.
template <class Handle, class DeviceOf>
porta_status device_of(Handle object, const char* kind, const char* call, porta_device* device,
                       DeviceOf device_state) {
  clear_last_error();
  return guard([&] {
    check_handle(object, kind, call);
    if (!device) fail(PORTA_ERROR_INVALID_ARGUMENT, "%s: device is null", call);
    hand_out(new porta_device_t{device_state(*object)}, "device", device);
  });
}

void check_device(porta_buffer buffer, porta_device device, uint64_t* size) {
  const char* call = "porta_buffer_check_device";
  check_handle(buffer, "buffer", call);
  check_handle(device, "device", call);
  const DeviceState& owner = *buffer->state->device;
  if (&owner != device->state.get())
    fail(PORTA_ERROR_INVALID_HANDLE, "%s: the buffer belongs to %s, but the device given is %s", call,
         owner.label.c_str(), device->state->label.c_str());
  if (size) *size = buffer->state->size;
}

}  // namespace

extern "C" {

porta_status porta_stream_get_device(porta_stream stream, porta_device* device) {
  return device_of(stream, "stream", "porta_stream_get_device", device,
                   [](const porta_stream_t& s) { return s.device; });
}

porta_status porta_buffer_get_device(porta_buffer buffer, porta_device* device) {
  return device_of(buffer, "buffer", "porta_buffer_get_device", device,
                   [](const porta_buffer_t& b) { return b.state->device; });
}

porta_status porta_buffer_check_device(porta_buffer buffer, porta_device device, uint64_t* size) {
  clear_last_error();
  // guard() takes a std::function, which holds a lambda of up to two pointers
  // without allocating: ops check every operand, so the arguments go as one.
  const struct {
    porta_buffer buffer;
    porta_device device;
    uint64_t* size;
  } args{buffer, device, size};
  return guard([&args] { check_device(args.buffer, args.device, args.size); });
}

int porta_device_equal(porta_device a, porta_device b) {
  int equal = 0;
  guard([&] {
    check_handle(a, "device", "porta_device_equal", "a");
    check_handle(b, "device", "porta_device_equal", "b");
    equal = a->state == b->state ? 1 : 0;
  });
  return equal;
}

}  // extern "C"
