// The progress line porta-logreg shows while it trains: iteration, loss,
// samples per second and the time left, rewritten in place on stderr when
// stderr is a terminal, and nothing at all when it is not (a log or a pipe
// gets the report only).
#pragma once

#include <chrono>
#include <cstdint>

namespace logreg_tool {

class Progress {
 public:
  // `samples` rows per iteration, `iterations` in all.
  Progress(uint64_t samples, uint64_t iterations);
  ~Progress();
  bool shown() const { return shown_; }
  // After `done` iterations, the latest loss `loss`.
  void update(uint64_t done, float loss);

 private:
  uint64_t samples_, iterations_;
  bool shown_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace logreg_tool
