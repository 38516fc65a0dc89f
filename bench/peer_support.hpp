// What the C++ side of every peer shares: answering through the table's
// character buffers, failures as answers, timing with the host clock, and the
// one symbol a peer library exports.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace porta::bench {

// Writes `text` into a caller's buffer of `capacity` bytes, cut to fit.
inline void copy_text(char* out, size_t capacity, const std::string& text) {
  if (capacity) std::snprintf(out, capacity, "%s", text.c_str());
}

// Why a peer's call failed: what answering() writes to the table's `error`.
struct PeerFailure {
  std::string what;
};

// Runs `body` and answers with its status; a PeerFailure it throws answers 2,
// its reason written to `error`.
template <class Body>
int answering(char* error, size_t error_capacity, Body body) {
  try {
    return body();
  } catch (const PeerFailure& f) {
    copy_text(error, error_capacity, f.what);
    return 2;
  }
}

// The thread count a host peer is opened with (its open() hint; none: 1), or
// 0 with the reason written to `error`.
inline int thread_count(const char* hint, char* error, size_t error_capacity) {
  const int threads = hint && *hint ? std::atoi(hint) : 1;
  if (threads >= 1) return threads;
  copy_text(error, error_capacity,
            std::string("thread count '") + (hint ? hint : "") + "' is not a positive number");
  return 0;
}

// Runs `body` `warmup` times, then `runs` times more, each of those timed with
// the host clock into samples[i] (milliseconds). `body` must end its work
// before it returns.
template <class Body>
void time_host_clock(uint32_t warmup, uint32_t runs, double* samples, Body body) {
  for (uint32_t i = 0; i < warmup; ++i) body();
  for (uint32_t i = 0; i < runs; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    body();
    samples[i] = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  }
}

}  // namespace porta::bench

// Defines porta_bench_peer_get(), the symbol porta-bench looks up in a peer
// library, returning `table`.
#define PORTA_BENCH_PEER_EXPORT(table)                                                                   \
  extern "C" __attribute__((visibility("default"))) const porta_bench_peer* porta_bench_peer_get(void) { \
    return &(table);                                                                                     \
  }
