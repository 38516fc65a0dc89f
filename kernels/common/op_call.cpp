#include "op_call.hpp"

#include <cstdarg>

#include "porta_common/format.hpp"

namespace porta::ops {

void OpCall::fail(porta_status status, const char* fmt, ...) const {
  va_list args;
  va_start(args, fmt);
  const std::string cause = common::vformat(fmt, args);
  va_end(args);
  throw porta::Error(status, std::string(op) + " on " + device_label(info) + ": " + cause);
}

std::string device_label(const porta_device_info& info) {
  return std::string(info.backend) + ":" + std::to_string(info.index) + " (" + info.name + ")";
}

std::string last_error_cause(porta_status status) {
  std::string message = porta_last_error();
  const std::string prefix = std::string(porta_status_name(status)) + ": ";
  if (message.compare(0, prefix.size(), prefix) == 0) message.erase(0, prefix.size());
  return message;
}

void refuse_handle(porta_status status, const char* call, const std::string& context) {
  std::string cause = last_error_cause(status);
  const std::string prefix = std::string(call) + ": ";
  if (cause.compare(0, prefix.size(), prefix) == 0) cause.erase(0, prefix.size());
  throw porta::Error(status, context + ": " + cause);
}

OpCall begin_call(porta_stream stream, const char* op) {
  porta_device device = nullptr;
  const porta_status status = porta_stream_get_device(stream, &device);
  if (status != PORTA_SUCCESS) refuse_handle(status, "porta_stream_get_device", op);
  OpCall call;
  call.op = op;
  call.stream = stream;
  call.device.reset(device);
  porta_device_query_info(device, &call.info);
  return call;
}

OpCall begin_device_call(porta_device device, const char* op) {
  OpCall call;
  call.op = op;
  const porta_status status = porta_device_query_info(device, &call.info);
  if (status != PORTA_SUCCESS) refuse_handle(status, "porta_device_query_info", op);
  return call;
}

}  // namespace porta::ops
