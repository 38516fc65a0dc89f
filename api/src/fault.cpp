// Fault injection and lost devices (fault.hpp, porta/fault.h).
#include "fault.hpp"

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

#include "errors.hpp"
#include "handle_registry.hpp"
#include "porta/fault.h"

namespace porta::core {

namespace {

// The faults in force: the Nth event of each kind fails (0: never).
struct FaultPlan {
  uint64_t alloc = 0, dispatch = 0, lost = 0;
  std::string device_prefix;            // device:S; empty: every device
  const DeviceState* device = nullptr;  // porta_fault_inject's device
  uint64_t allocs_seen = 0, dispatches_seen = 0;
  std::string spec;  // as written, for messages
};

std::mutex& plan_mutex() {
  static std::mutex m;
  return m;
}

// Reads "alloc:N,dispatch:N,lost:N,device:S"; throws INVALID_ARGUMENT naming
// the bad item.
FaultPlan parse(const std::string& spec, const char* source) {
  FaultPlan plan;
  plan.spec = spec;
  size_t start = 0;
  while (start < spec.size()) {
    size_t end = spec.find(',', start);
    if (end == std::string::npos) end = spec.size();
    const std::string item = spec.substr(start, end - start);
    start = end + 1;
    const size_t colon = item.find(':');
    const std::string key = item.substr(0, colon);
    const std::string value = colon == std::string::npos ? "" : item.substr(colon + 1);
    if (key == "device" && !value.empty()) {
      // A selector may itself hold ':' and ','-free text: take the rest of the item.
      plan.device_prefix = value;
      continue;
    }
    uint64_t* target = key == "alloc"      ? &plan.alloc
                       : key == "dispatch" ? &plan.dispatch
                       : key == "lost"     ? &plan.lost
                                           : nullptr;
    char* tail = nullptr;
    const unsigned long long n = value.empty() ? 0 : std::strtoull(value.c_str(), &tail, 10);
    if (!target || value.empty() || *tail || n == 0 || value[0] == '-')
      fail(PORTA_ERROR_INVALID_ARGUMENT,
           "%s: '%s' in '%s' is not alloc:N, dispatch:N, lost:N (N >= 1) or device:SELECTOR", source,
           item.c_str(), spec.c_str());
    *target = n;
  }
  return plan;
}

FaultPlan& plan() {
  // PORTA_FAULT is read once, on first use; a bad value is reported then and ignored.
  static FaultPlan* p = [] {
    auto* fresh = new FaultPlan();  // outlives static destructors, like the handle registry
    const char* env = std::getenv("PORTA_FAULT");
    if (env && *env) {
      try {
        *fresh = parse(env, "PORTA_FAULT");
      } catch (const Failure& f) {
        std::fprintf(stderr, "porta: %s; fault injection is off\n", f.what());
      }
    }
    return fresh;
  }();
  return *p;
}

bool applies(const FaultPlan& p, const DeviceState& device) {
  if (p.device && p.device != &device) return false;
  return p.device_prefix.empty() || device.label.compare(0, p.device_prefix.size(), p.device_prefix) == 0;
}

}  // namespace

void fault_point(DeviceState& device, FaultPoint point, const char* call, const char* what,
                 const char* name) {
  porta_status status = PORTA_SUCCESS;
  std::string message;
  {
    std::lock_guard lock(plan_mutex());
    FaultPlan& p = plan();
    if ((!p.alloc && !p.dispatch && !p.lost) || !applies(p, device)) return;
    if (point == FaultPoint::alloc) {
      const uint64_t n = ++p.allocs_seen;
      if (n == p.alloc) {
        status = PORTA_ERROR_OUT_OF_MEMORY;
        message = format("allocation %llu failed (fault injected: %s)", static_cast<unsigned long long>(n),
                         p.spec.c_str());
      }
    } else {
      const uint64_t n = ++p.dispatches_seen;
      if (n == p.lost) {
        status = PORTA_ERROR_DEVICE_LOST;
        message = format("the device was lost at dispatch %llu (fault injected: %s)",
                         static_cast<unsigned long long>(n), p.spec.c_str());
      } else if (n == p.dispatch) {
        status = PORTA_ERROR_BACKEND;
        message = format("dispatch %llu failed (fault injected: %s)", static_cast<unsigned long long>(n),
                         p.spec.c_str());
      }
    }
  }
  if (status == PORTA_SUCCESS) return;
  if (status == PORTA_ERROR_DEVICE_LOST) {
    // As check_plugin() marks a device a backend reports lost.
    std::lock_guard lock(device.lost_mutex);
    if (!device.lost) device.lost_cause = message;
    device.lost = true;
  }
  fail(status, "%s on %s: %s%s%s%s: %s", call, device.label.c_str(), what, name ? " '" : "", name ? name : "",
       name ? "'" : "", message.c_str());
}

}  // namespace porta::core

using namespace porta::core;

extern "C" {

porta_status porta_fault_inject(porta_device device, const char* spec) {
  clear_last_error();
  return guard([&] {
    if (device) check_handle(device, "device", "porta_fault_inject");
    FaultPlan fresh = parse(spec ? spec : "", "porta_fault_inject");
    fresh.device = device ? device->state.get() : nullptr;
    std::lock_guard lock(plan_mutex());
    plan() = std::move(fresh);
  });
}

uint64_t porta_live_handle_count(void) { return live_handle_count(); }

}  // extern "C"
