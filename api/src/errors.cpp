// Errors: the thread-local last error of the C API and the exception guard.
#include "errors.hpp"

#include <cstdarg>
#include <new>
#include <string>

#include "log.hpp"
#include "porta_common/format.hpp"

namespace porta::core {
namespace {

thread_local std::string last_error_message;  // "STATUS_NAME: cause"
thread_local std::string last_error_cause_text;

}  // namespace

void fail(porta_status status, const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  std::string s = common::vformat(fmt, args);
  va_end(args);
  throw Failure(status, s);
}

void set_last_error(porta_status status, const std::string& message) {
  last_error_cause_text = message;
  last_error_message = std::string(porta_status_name(status)) + ": " + message;
  log(PORTA_LOG_DEBUG, last_error_message);
}

void clear_last_error() {
  last_error_message.clear();
  last_error_cause_text.clear();
}

const std::string& last_error_cause() { return last_error_cause_text; }

porta_status guard(const std::function<void()>& body) noexcept {
  try {
    body();
    return PORTA_SUCCESS;
  } catch (const Failure& f) {
    set_last_error(f.status, f.what());
    return f.status;
  } catch (const std::bad_alloc&) {
    set_last_error(PORTA_ERROR_OUT_OF_MEMORY, "out of host memory");
    return PORTA_ERROR_OUT_OF_MEMORY;
  } catch (const std::exception& e) {
    set_last_error(PORTA_ERROR_INTERNAL, e.what());
    return PORTA_ERROR_INTERNAL;
  } catch (...) {
    set_last_error(PORTA_ERROR_INTERNAL, "unknown exception");
    return PORTA_ERROR_INTERNAL;
  }
}

}  // namespace porta::core

extern "C" const char* porta_last_error(void) { return porta::core::last_error_message.c_str(); }

extern "C" const char* porta_status_name(porta_status status) {
  switch (status) {
    case PORTA_SUCCESS:
      return "PORTA_SUCCESS";
    case PORTA_ERROR_INVALID_ARGUMENT:
      return "PORTA_ERROR_INVALID_ARGUMENT";
    case PORTA_ERROR_INVALID_HANDLE:
      return "PORTA_ERROR_INVALID_HANDLE";
    case PORTA_ERROR_NOT_FOUND:
      return "PORTA_ERROR_NOT_FOUND";
    case PORTA_ERROR_UNAVAILABLE:
      return "PORTA_ERROR_UNAVAILABLE";
    case PORTA_ERROR_UNSUPPORTED:
      return "PORTA_ERROR_UNSUPPORTED";
    case PORTA_ERROR_INVALID_KERNEL:
      return "PORTA_ERROR_INVALID_KERNEL";
    case PORTA_ERROR_COMPILE:
      return "PORTA_ERROR_COMPILE";
    case PORTA_ERROR_OUT_OF_MEMORY:
      return "PORTA_ERROR_OUT_OF_MEMORY";
    case PORTA_ERROR_DEVICE_LOST:
      return "PORTA_ERROR_DEVICE_LOST";
    case PORTA_ERROR_BACKEND:
      return "PORTA_ERROR_BACKEND";
    case PORTA_ERROR_INTERNAL:
      return "PORTA_ERROR_INTERNAL";
  }
  return "PORTA_ERROR_UNKNOWN";
}

extern "C" const char* porta_feature_name(uint64_t single_feature_bit) {
  return porta_feature_name_inline(single_feature_bit);
}
