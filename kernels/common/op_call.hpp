// One op call: the stream it queues on, that stream's device, and how an op
// reports a refusal. Launchers throw porta::Error; the C API (porta_ops_*)
// turns it into a porta_status and porta_last_error() at its boundary.
#pragma once

#include <memory>
#include <string>

#include "porta/porta.hpp"

namespace porta::ops {

// A device handle the call owns and closes. Not porta::Device: an op call is
// short and never shares it, so it needs no shared count to allocate.
struct DeviceCloser {
  void operator()(porta_device device) const { porta_device_close(device); }
};
using DeviceHandle = std::unique_ptr<porta_device_t, DeviceCloser>;

struct OpCall {
  const char* op = "";            // the C entry point's name, first in every message
  porta_stream stream = nullptr;  // null for calls about a device alone
  DeviceHandle device;            // a handle of the stream's device (empty for device calls)
  porta_device_info info{};
  // Dispatches the op has queued so far (launch.hpp's dispatch()): a failure
  // after the first says what stays queued.
  mutable uint32_t dispatches = 0;
  // Throws porta::Error with "<op> on <device_label(info)>: <message>".
  [[noreturn, gnu::format(printf, 3, 4)]] void fail(porta_status status, const char* fmt, ...) const;
};

// The call on `stream`; refuses a stream handle that is not live.
OpCall begin_call(porta_stream stream, const char* op);
// A call about `device` alone (workspace sizes); refuses a dead device handle.
OpCall begin_device_call(porta_device device, const char* op);

// The label porta uses for a device in messages: "backend:index (name)".
std::string device_label(const porta_device_info& info);

// The cause of the last failed porta call on this thread: porta_last_error()
// without its leading status name.
std::string last_error_cause(porta_status status);

// Rethrows the failure of `call` (a porta_* call that refused a handle the op
// was given) as the op's own: "<context>: <cause without 'call: '>".
[[noreturn]] void refuse_handle(porta_status status, const char* call, const std::string& context);

}  // namespace porta::ops
