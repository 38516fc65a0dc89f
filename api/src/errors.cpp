// Errors: the thread-local last error of the C API and the exception guard.
#include <cstdarg>
#include <cstdio>
#include <new>
#include <unordered_map>

#include "core.hpp"

namespace porta::core {
namespace {

thread_local std::string last_error_message;  // "STATUS_NAME: cause"
thread_local std::string last_error_cause_text;

std::string vformat(const char* fmt, va_list args) {
  va_list copy;
  va_copy(copy, args);
  int n = std::vsnprintf(nullptr, 0, fmt, copy);
  va_end(copy);
  std::string out(n > 0 ? static_cast<size_t>(n) : 0, '\0');
  if (n > 0) std::vsnprintf(out.data(), out.size() + 1, fmt, args);
  return out;
}

}  // namespace

std::string format(const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  std::string s = vformat(fmt, args);
  va_end(args);
  return s;
}

void fail(porta_status status, const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  std::string s = vformat(fmt, args);
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

// ---- handles ----------------------------------------------------------------

namespace {
std::mutex& handle_mutex() {
  static std::mutex m;
  return m;
}
std::unordered_map<const void*, const char*>& handles() {
  static auto* map = new std::unordered_map<const void*, const char*>();  // outlives static destructors
  return *map;
}
}  // namespace

void register_handle(const void* handle, const char* kind) {
  std::lock_guard lock(handle_mutex());
  handles()[handle] = kind;
}

void unregister_handle(const void* handle) {
  std::lock_guard lock(handle_mutex());
  handles().erase(handle);
}

void check_handle(const void* handle, const char* kind, const char* call) {
  if (!handle) fail(PORTA_ERROR_INVALID_HANDLE, "%s: the %s handle is null", call, kind);
  std::lock_guard lock(handle_mutex());
  auto it = handles().find(handle);
  if (it == handles().end())
    fail(PORTA_ERROR_INVALID_HANDLE, "%s: the %s handle %p is not live (destroyed, or never made by porta)", call,
         kind, handle);
  if (std::string(it->second) != kind)
    fail(PORTA_ERROR_INVALID_HANDLE, "%s: expected a %s handle, got a %s handle", call, kind, it->second);
}

void check_plugin(porta_status status, const DeviceState& device, const char* call) {
  if (status == PORTA_SUCCESS) return;
  // The plugin's message was recorded through host->set_error; add context.
  std::string cause = last_error_cause();
  if (cause.empty()) cause = "the backend gave no reason";
  fail(status, "%s: %s: %s", device.label.c_str(), call, cause.c_str());
}

}  // namespace porta::core

extern "C" const char* porta_last_error(void) { return porta::core::last_error_message.c_str(); }

extern "C" const char* porta_status_name(porta_status status) {
  switch (status) {
    case PORTA_SUCCESS: return "PORTA_SUCCESS";
    case PORTA_ERROR_INVALID_ARGUMENT: return "PORTA_ERROR_INVALID_ARGUMENT";
    case PORTA_ERROR_INVALID_HANDLE: return "PORTA_ERROR_INVALID_HANDLE";
    case PORTA_ERROR_NOT_FOUND: return "PORTA_ERROR_NOT_FOUND";
    case PORTA_ERROR_UNAVAILABLE: return "PORTA_ERROR_UNAVAILABLE";
    case PORTA_ERROR_UNSUPPORTED: return "PORTA_ERROR_UNSUPPORTED";
    case PORTA_ERROR_INVALID_KERNEL: return "PORTA_ERROR_INVALID_KERNEL";
    case PORTA_ERROR_COMPILE: return "PORTA_ERROR_COMPILE";
    case PORTA_ERROR_OUT_OF_MEMORY: return "PORTA_ERROR_OUT_OF_MEMORY";
    case PORTA_ERROR_DEVICE_LOST: return "PORTA_ERROR_DEVICE_LOST";
    case PORTA_ERROR_BACKEND: return "PORTA_ERROR_BACKEND";
    case PORTA_ERROR_INTERNAL: return "PORTA_ERROR_INTERNAL";
  }
  return "PORTA_ERROR_UNKNOWN";
}

extern "C" const char* porta_feature_name(uint64_t single_feature_bit) {
  return porta_feature_name_inline(single_feature_bit);
}
