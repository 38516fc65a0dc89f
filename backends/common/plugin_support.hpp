// What every backend plugin needs and none should write twice: reporting an
// error through the host, turning C++ exceptions into statuses at the ABI
// boundary, loading a vendor runtime with dlopen, filling fixed C strings.
#pragma once

#include <dlfcn.h>

#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <exception>
#include <new>
#include <stdexcept>
#include <string>

#include "porta/plugin.h"
#include "porta_common/format.hpp"

namespace porta::plugin {

// The host table given to init(); set once by the plugin.
inline const porta_host_api*& host() {
  static const porta_host_api* table = nullptr;
  return table;
}

// A failure inside a plugin: status + complete message (backend, device, call, cause).
struct Failure : std::runtime_error {
  Failure(porta_status status, const std::string& message) : std::runtime_error(message), status(status) {}
  porta_status status;
};

using common::format;
using common::vformat;

[[noreturn, gnu::format(printf, 2, 3)]] inline void fail(porta_status status, const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  std::string s = vformat(fmt, args);
  va_end(args);
  throw Failure(status, s);
}

inline void log(porta_log_level level, const std::string& message) {
  if (host() && host()->log) host()->log(level, message.c_str());
}

// Run `body` at the ABI boundary: exceptions become a status plus set_error.
template <class F>
porta_status guard(F&& body) noexcept {
  try {
    body();
    return PORTA_SUCCESS;
  } catch (const Failure& f) {
    if (host()) host()->set_error(f.status, f.what());
    return f.status;
  } catch (const std::bad_alloc&) {
    if (host()) host()->set_error(PORTA_ERROR_OUT_OF_MEMORY, "out of host memory");
    return PORTA_ERROR_OUT_OF_MEMORY;
  } catch (const std::exception& e) {
    if (host()) host()->set_error(PORTA_ERROR_INTERNAL, e.what());
    return PORTA_ERROR_INTERNAL;
  } catch (...) {
    if (host()) host()->set_error(PORTA_ERROR_INTERNAL, "unknown exception in plugin");
    return PORTA_ERROR_INTERNAL;
  }
}

// Copy into a fixed-size C string field, always NUL-terminated.
template <size_t N>
void copy_string(char (&dst)[N], const std::string& src) {
  size_t n = src.size() < N - 1 ? src.size() : N - 1;
  std::memcpy(dst, src.data(), n);
  dst[n] = '\0';
}

// porta_device_info::pci_bus_id from the address's parts, as "dddd:bb:dd.f".
inline void set_pci_bus_id(porta_device_info& info, uint32_t domain, uint32_t bus, uint32_t device,
                           uint32_t function) {
  std::snprintf(info.pci_bus_id, sizeof info.pci_bus_id, "%04x:%02x:%02x.%x", domain & 0xffffu, bus & 0xffu,
                device & 0x1fu, function & 0x7u);
}

// A vendor runtime opened with dlopen. Stays loaded until the process exits
// (objects may outlive any handle), so there is no dlclose.
class Library {
 public:
  // Tries each name in turn; false (with reason()) if none loads.
  bool open(std::initializer_list<const char*> names) {
    reason_.clear();
    for (const char* name : names) {
      handle_ = dlopen(name, RTLD_NOW | RTLD_LOCAL);
      if (handle_) {
        name_ = name;
        return true;
      }
      const char* e = dlerror();
      if (!reason_.empty()) reason_ += "; ";
      reason_ += e ? e : name;
    }
    return false;
  }
  // Resolves a symbol into a function pointer; throws Failure(UNAVAILABLE) if missing.
  template <class Fn>
  void load(Fn& fn, const char* symbol) {
    fn = reinterpret_cast<Fn>(dlsym(handle_, symbol));
    if (!fn) fail(PORTA_ERROR_UNAVAILABLE, "%s has no symbol %s", name_.c_str(), symbol);
  }
  // As load(), but a missing symbol leaves fn null.
  template <class Fn>
  void load_optional(Fn& fn, const char* symbol) {
    fn = reinterpret_cast<Fn>(dlsym(handle_, symbol));
  }
  const std::string& reason() const { return reason_; }
  const std::string& name() const { return name_; }
  void* handle() const { return handle_; }

 private:
  void* handle_ = nullptr;
  std::string name_;
  std::string reason_;
};

}  // namespace porta::plugin
