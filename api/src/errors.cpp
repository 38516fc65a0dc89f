// Errors: the thread-local last error of the C API and the exception guard.
#include "errors.hpp"

#include <cstdarg>
#include <mutex>
#include <new>
#include <string>

#include "log.hpp"
#include "porta/interop.h"
#include "porta_common/format.hpp"

namespace porta::core {
namespace {

thread_local std::string last_error_message;  // "STATUS_NAME: cause"
thread_local std::string last_error_cause_text;

// porta_set_error_callback's callback; read on every failure, set rarely.
std::mutex error_callback_mutex;
porta_error_callback error_callback = nullptr;
void* error_callback_user_data = nullptr;

}  // namespace

porta_status report_error(porta_status status, const std::string& message) {
  set_last_error(status, message);
  porta_error_callback callback;
  void* user_data;
  {
    std::lock_guard lock(error_callback_mutex);
    callback = error_callback;
    user_data = error_callback_user_data;
  }
  if (callback) callback(status, last_error_message.c_str(), user_data);
  return status;
}

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

porta_status report_current_exception() noexcept {
  try {
    throw;
  } catch (const Failure& f) {
    return report_error(f.status, f.what());
  } catch (const std::bad_alloc&) {
    return report_error(PORTA_ERROR_OUT_OF_MEMORY, "out of host memory");
  } catch (const std::exception& e) {
    return report_error(PORTA_ERROR_INTERNAL, e.what());
  } catch (...) {
    return report_error(PORTA_ERROR_INTERNAL, "unknown exception");
  }
}

}  // namespace porta::core

extern "C" void porta_set_error_callback(porta_error_callback callback, void* user_data) {
  std::lock_guard lock(porta::core::error_callback_mutex);
  porta::core::error_callback = callback;
  porta::core::error_callback_user_data = user_data;
}

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
    case PORTA_ERROR_TIMEOUT:
      return "PORTA_ERROR_TIMEOUT";
    case PORTA_ERROR_OUT_OF_BOUNDS:
      return "PORTA_ERROR_OUT_OF_BOUNDS";
  }
  return "PORTA_ERROR_UNKNOWN";
}

extern "C" const char* porta_feature_name(uint64_t single_feature_bit) {
  return porta_feature_name_inline(single_feature_bit);
}
