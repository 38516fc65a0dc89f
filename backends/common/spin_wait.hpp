// Waiting for the device: poll briefly, then block. A small submission
// finishes within microseconds, while a blocking wait adds the driver's
// interrupt and the thread's wake-up (tens of microseconds) to every round
// trip. The poll is bounded, so a long wait never burns a core, and it yields
// between polls, so a device that runs on the same cores (lavapipe, PoCL)
// keeps running.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

namespace porta::plugin {

// How long a wait polls before it blocks: on devices that run on the host's
// cores (lavapipe, PoCL) briefly; on GPUs as long as a step of a training
// loop may take, since a thread woken from a blocking wait starts the next
// step some 100 us late (a 1 ms step of porta/parallel.h on an H200: 1.24
// against 1.09 ms). The poll yields, so it keeps no core from other threads
// that are ready to run (porta's CPU backend beside a GPU), where a driver's
// own spinning wait does.
inline constexpr std::chrono::microseconds kSpinBudget{100};
inline constexpr std::chrono::microseconds kGpuSpinBudget{20000};

// Returns once `done()` is true, polling it for at most `budget`; then calls
// `block()`, which waits until the work is done. Either may throw.
template <class Done, class Block>
void spin_then_block(Done&& done, Block&& block, std::chrono::microseconds budget = kSpinBudget) {
  const auto until = std::chrono::steady_clock::now() + budget;
  do {
    if (done()) return;
    std::this_thread::yield();
  } while (std::chrono::steady_clock::now() < until);
  block();
}

// The same with a limit (porta/robust.h's watchdog, for runtimes whose waits
// take none): polls `done()`, sleeping up to a millisecond between polls once
// the spin budget is spent; true once done, false when `limit_ms` passed first.
template <class Done>
bool wait_with_limit(Done&& done, uint64_t limit_ms, std::chrono::microseconds budget = kSpinBudget) {
  const auto start = std::chrono::steady_clock::now();
  const auto spin_until = start + budget, until = start + std::chrono::milliseconds(limit_ms);
  std::chrono::microseconds nap{10};
  for (;;) {
    if (done()) return true;
    const auto now = std::chrono::steady_clock::now();
    if (now >= until) return false;
    if (now < spin_until) {
      std::this_thread::yield();
    } else {
      std::this_thread::sleep_for(nap);
      nap = std::min(nap * 2, std::chrono::microseconds(1000));
    }
  }
}

// "kernel 'a'", "kernels 'a', 'b'": the kernels of work queued since the last
// sync, for a watchdog's message; `names` is kept short by the caller.
inline std::string kernels_phrase(const std::vector<std::string>& names) {
  if (names.empty()) return "work without kernels";
  std::string text = names.size() == 1 ? "kernel " : "kernels ";
  for (size_t i = 0; i < names.size(); ++i) text += (i ? ", '" : "'") + names[i] + "'";
  return text;
}

// Notes a dispatched kernel's name for kernels_phrase(): each name once, at most 8.
inline void note_kernel(std::vector<std::string>& names, const std::string& name) {
  for (const std::string& n : names)
    if (n == name) return;
  if (names.size() < 8) names.push_back(name);
}

}  // namespace porta::plugin
