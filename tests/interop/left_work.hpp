// What the tests of work left by destroyed streams share (porta/interop.h's
// porta_stream_destroy rule): host memory that says when porta released it,
// the messages porta sends to a log sink and an error callback, and a clock.
#pragma once

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>

#include "porta/interop.hpp"

namespace left_work {

using Clock = std::chrono::steady_clock;

inline double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Page-aligned host memory imported as a porta buffer whose release porta reports.
struct ReleasedMemory {
  explicit ReleasedMemory(size_t floats) : bytes(floats * 4) {
    data = static_cast<float*>(std::aligned_alloc(4096, (bytes + 4095) / 4096 * 4096));
    for (size_t i = 0; i < floats; ++i) data[i] = 1.0f;
  }
  ~ReleasedMemory() {
    if (!leaked) std::free(data);
  }
  porta::Buffer import(const porta::Device& device) {
    porta_native_memory m{};
    m.struct_size = sizeof m;
    m.kind = PORTA_NATIVE_MEMORY_HOST;
    m.host_pointer = data;
    m.bytes = bytes;
    m.release = [](void* flag) { static_cast<std::atomic<bool>*>(flag)->store(true); };
    m.release_user_data = &released;
    return porta::import_native(device, m);
  }
  size_t bytes;
  float* data;
  std::atomic<bool> released{false};
  bool leaked = false;  // held by a device porta left open: not freed
};

// Calls on the device's streams until porta has released `memory` (it
// notices finished left work on such calls), for at most `limit` seconds.
inline bool released_after_calls(const porta::Device& device, const ReleasedMemory& memory, double limit) {
  const auto start = Clock::now();
  while (!memory.released.load() && seconds_since(start) < limit) {
    device.stream().sync();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return memory.released.load();
}

// The left-work scenario every backend shares: a stream waits for the
// framework's event (`wait(stream)`), queues a kernel on imported memory and
// is destroyed; the destroy returns at once, the memory stays until the
// event comes (`signal()`) and the work has run, then porta releases it.
template <class Wait, class Signal>
void check_left_work(const porta::Device& device, Wait wait, Signal signal) {
  ReleasedMemory memory(256);
  {
    porta::Buffer b = memory.import(device);
    porta::Stream s = device.stream();
    const auto queued = Clock::now();
    wait(s);
    porta::ops::scale(s, porta::Tensor(b, {256}), 2.0f, porta::Tensor(b, {256}));
    EXPECT_LT(seconds_since(queued), 2.0) << "queueing the work waited for the framework's event";
    const auto start = Clock::now();
    s = porta::Stream();
    EXPECT_LT(seconds_since(start), 2.0) << "the destroy waited for the framework's event";
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_FALSE(memory.released.load()) << "released while the left work may still use it";
  EXPECT_EQ(memory.data[0], 1.0f) << "porta's work ran before the framework's event";
  signal();
  EXPECT_TRUE(released_after_calls(device, memory, 10.0)) << "the left work's memory was never released";
  EXPECT_EQ(memory.data[0], 2.0f);
  EXPECT_EQ(memory.data[255], 2.0f);
}

// porta's log messages and reported errors while it lives.
struct Messages {
  Messages() {
    porta_set_log_sink(
        [](porta_log_level, const char* m, void* self) { static_cast<Messages*>(self)->add(m); }, this);
    porta_set_error_callback(
        [](porta_status, const char* m, void* self) { static_cast<Messages*>(self)->add(m); }, this);
  }
  ~Messages() {
    porta_set_log_sink(nullptr, nullptr);
    porta_set_error_callback(nullptr, nullptr);
  }
  void add(const char* m) {
    std::lock_guard lock(mutex);
    text += m;
    text += '\n';
  }
  std::string all() {
    std::lock_guard lock(mutex);
    return text;
  }
  std::mutex mutex;
  std::string text;
};

// A stream of `device` waits for a framework's event (`wait(stream)`),
// fills `memory` with 2 and is destroyed; then the device is closed. Returns
// what porta said meanwhile, and the close's time in `took`.
template <class Wait>
std::string close_with_left_work(porta::Device& device, ReleasedMemory& memory, Wait wait, double& took) {
  Messages messages;
  {
    porta::Buffer b = memory.import(device);
    porta::Stream s = device.stream();
    wait(s);
    s.fill(b, 2.0f);
  }
  const auto start = Clock::now();
  device = porta::Device();
  took = seconds_since(start);
  return messages.all();
}

// A close whose left work waits for an event porta cannot satisfy: it waited
// its bounded time (the device's limit, 0.5 s in these tests), said it
// leaves the device open, and kept the memory the work may still use.
inline void expect_left_open(double took, const std::string& said, const ReleasedMemory& memory) {
  EXPECT_GE(took, 0.4) << "the close did not wait for the left work";
  EXPECT_LT(took, 5.0);
  EXPECT_NE(said.find("leaves the device open"), std::string::npos) << said;
  EXPECT_FALSE(memory.released.load()) << "memory released under work that may still run";
  EXPECT_EQ(memory.data[0], 1.0f) << "porta's work ran before the framework's event";
}

// Waits up to 10 s for the left work to fill `memory` once the framework's event came.
inline void expect_left_work_runs(const ReleasedMemory& memory) {
  const auto waited = Clock::now();
  while (memory.data[0] != 2.0f && seconds_since(waited) < 10.0)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  EXPECT_EQ(memory.data[0], 2.0f);
}

}  // namespace left_work
