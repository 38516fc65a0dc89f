// Work that destroyed streams left waiting for a framework's event
// (porta/interop.h's porta_stream_destroy rule). Such an event may come much
// later or never, so porta_stream_destroy does not wait for it: the plugin
// stream is kept until an event recorded after its work has passed, and the
// buffers and kernels let go meanwhile (with the release callbacks of foreign
// memory) are freed only after that work, which may still use them. Finished
// work is noticed without waiting on later calls on the device's streams.
// At close, what can never finish must not hang the process: the plugin
// satisfies what it can from the host, the core waits a bounded time, and
// what is still pending is reported and left allocated (a device is never
// destroyed under running work).
#include <algorithm>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "errors.hpp"
#include "handles.hpp"
#include "log.hpp"

using namespace porta::core;

namespace {

// How long a device's close waits for left work: its dispatch limit
// (porta/robust.h) where it has one, else this.
constexpr uint64_t kLeftWorkWaitMs = 10000;

}  // namespace

void DeviceState::leave_stream(porta_plugin_stream stream, porta_plugin_event end) {
  std::lock_guard lock(left_mutex);
  left_streams.push_back({++left_serial, stream, end});
  has_left_work.store(true);
}

bool DeviceState::defer_release(const std::string& what, std::function<void()>& release) {
  std::lock_guard lock(left_mutex);
  if (left_streams.empty()) return false;
  deferred.push_back({left_serial, what, std::move(release)});
  return true;
}

void DeviceState::release_left_work() {
  if (!has_left_work.load()) return;
  std::vector<LeftStream> finished;
  std::vector<std::function<void()>> ready;
  {
    std::lock_guard lock(left_mutex);
    for (auto it = left_streams.begin(); it != left_streams.end();) {
      int done = 0;
      // A failed query means failed work: over, as far as its objects go.
      if (api->event_query(it->end, &done) != PORTA_SUCCESS) done = 1;
      if (!done) {
        ++it;
        continue;
      }
      finished.push_back(*it);
      it = left_streams.erase(it);
    }
    uint64_t oldest_pending = UINT64_MAX;
    for (const LeftStream& l : left_streams) oldest_pending = std::min(oldest_pending, l.serial);
    for (auto it = deferred.begin(); it != deferred.end();) {
      if (it->serial >= oldest_pending) {
        ++it;
        continue;
      }
      ready.push_back(std::move(it->release));
      it = deferred.erase(it);
    }
    has_left_work.store(!left_streams.empty() || !deferred.empty());
  }
  // Outside the lock: a release may call a framework's callback, which may call porta.
  for (const LeftStream& l : finished) {
    api->event_destroy(l.end);
    api->stream_destroy(l.handle);
  }
  for (auto& release : ready) release();
}

bool DeviceState::finish_left_work() {
  release_left_work();
  std::vector<porta_plugin_stream> pending;
  {
    std::lock_guard lock(left_mutex);
    for (const LeftStream& l : left_streams) pending.push_back(l.handle);
  }
  if (pending.empty()) return true;

  // What the host can do so that the work finishes; what it cannot, the plugin names.
  std::vector<std::string> waits;
  for (porta_plugin_stream stream : pending) {
    if (!api->stream_release_native_waits) {
      waits.push_back(format("%s cannot satisfy a framework's event from the host", api->name));
      continue;
    }
    clear_last_error();
    if (api->stream_release_native_waits(stream) != PORTA_SUCCESS) waits.push_back(last_error_cause());
  }
  clear_last_error();

  const uint64_t limit_ms = timeout_ms ? timeout_ms : kLeftWorkWaitMs;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(limit_ms);
  auto pause = std::chrono::microseconds(100);
  for (;;) {
    release_left_work();
    if (!has_left_work.load()) return true;
    if (std::chrono::steady_clock::now() >= deadline) break;
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(20000));
  }

  std::string left;
  size_t streams = 0;
  {
    std::lock_guard lock(left_mutex);
    streams = left_streams.size();
    for (const DeferredRelease& d : deferred) left += (left.empty() ? "" : ", ") + d.what;
  }
  std::string why;
  for (const std::string& w : waits) why += (why.empty() ? "" : "; ") + w;
  if (why.empty()) why = "the framework's events were satisfied, but the work did not finish";
  const std::string message = format(
      "%s: closed while the work of %zu destroyed stream%s still waits for a framework's event "
      "(porta_stream_wait_native_event) that has not come: %s. After waiting %.3f s porta leaves the device "
      "open rather than destroy it under that work: the device, its streams%s%s stay allocated until the "
      "process ends",
      label.c_str(), streams, streams == 1 ? "" : "s", why.c_str(), static_cast<double>(limit_ms) / 1000.0,
      left.empty() ? "" : " and ", left.c_str());
  log(PORTA_LOG_ERROR, message);
  report_error(PORTA_ERROR_TIMEOUT, message);
  return false;
}
