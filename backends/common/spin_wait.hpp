// Waiting for the device: poll briefly, then block. A small submission
// finishes within microseconds, while a blocking wait adds the driver's
// interrupt and the thread's wake-up (tens of microseconds) to every round
// trip. The poll is bounded, so a long wait never burns a core, and it yields
// between polls, so a device that runs on the same cores (lavapipe, PoCL)
// keeps running.
#pragma once

#include <chrono>
#include <thread>

namespace porta::plugin {

// How long a wait polls before it blocks.
inline constexpr std::chrono::microseconds kSpinBudget{100};

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

}  // namespace porta::plugin
