// The per-dispatch watchdog (porta/robust.h): one thread per process that
// sets a flag once a deadline passes. A backend arms it around the work it
// waits for and reads the flag (or is woken through it) to stop waiting.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <thread>

namespace porta::plugin {

class Watchdog {
 public:
  using Clock = std::chrono::steady_clock;

  // While alive, sets `*flag` to 1 (relaxed) once `limit_ms` have passed.
  // limit_ms 0: nothing happens.
  class Armed {
   public:
    Armed(uint32_t* flag, uint64_t limit_ms) : flag_(flag) {
      if (limit_ms) key_ = instance().arm(Clock::now() + std::chrono::milliseconds(limit_ms), flag);
    }
    ~Armed() {
      if (key_) instance().disarm(key_);
    }
    Armed(const Armed&) = delete;
    Armed& operator=(const Armed&) = delete;
    bool fired() const { return __atomic_load_n(flag_, __ATOMIC_RELAXED) != 0; }

   private:
    uint32_t* flag_;
    uint64_t key_ = 0;
  };

 private:
  static Watchdog& instance() {
    // Never destroyed: plugins stay loaded until the process exits, and a
    // dispatch may still disarm during exit.
    static Watchdog* watchdog = new Watchdog;
    return *watchdog;
  }
  Watchdog() {
    std::thread([this] { run(); }).detach();
  }
  uint64_t arm(Clock::time_point deadline, uint32_t* flag) {
    std::lock_guard lock(mutex_);
    const uint64_t key = ++last_key_;
    deadlines_[key] = {deadline, flag};
    wake_.notify_one();
    return key;
  }
  void disarm(uint64_t key) {
    std::lock_guard lock(mutex_);
    deadlines_.erase(key);
  }
  void run() {
    std::unique_lock lock(mutex_);
    for (;;) {
      if (deadlines_.empty()) {
        wake_.wait(lock);
        continue;
      }
      auto earliest = deadlines_.begin();
      for (auto it = deadlines_.begin(); it != deadlines_.end(); ++it)
        if (it->second.first < earliest->second.first) earliest = it;
      if (Clock::now() >= earliest->second.first) {
        __atomic_store_n(earliest->second.second, 1u, __ATOMIC_RELAXED);
        deadlines_.erase(earliest);
        continue;
      }
      wake_.wait_until(lock, earliest->second.first);
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::map<uint64_t, std::pair<Clock::time_point, uint32_t*>> deadlines_;
  uint64_t last_key_ = 0;
};

}  // namespace porta::plugin
