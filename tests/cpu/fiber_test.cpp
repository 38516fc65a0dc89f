// The fiber scheduler on its own: barrier semantics, early return, and many
// groups at once on several threads.
#include "fiber.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

namespace porta::cpu {
namespace {

// A kernel-like body: each item writes its slot, waits, then reads its
// neighbours' slots, `rounds` times over in a loop, so any item passing a
// barrier early would read a stale value.
struct RingShift {
  const porta_cpu_scheduler* scheduler;
  uint32_t count;
  int rounds;
  std::vector<int> slots;
  std::vector<int> result;
  std::atomic<int> errors{0};

  static void item(void* self, uint32_t i) {
    auto& s = *static_cast<RingShift*>(self);
    int value = static_cast<int>(i);
    for (int r = 0; r < s.rounds; ++r) {
      s.slots[i] = value;
      s.scheduler->barrier(s.scheduler->self);
      int from_left = s.slots[(i + s.count - 1) % s.count];
      s.scheduler->barrier(s.scheduler->self);  // nobody overwrites before all have read
      value = from_left;
    }
    s.result[i] = value;
  }
};

void run_ring(FiberScheduler& scheduler, uint32_t count, int rounds) {
  RingShift ring{scheduler.abi(), count, rounds, std::vector<int>(count, -1), std::vector<int>(count, -1)};
  scheduler.abi()->run_items(scheduler.abi()->self, count, &RingShift::item, &ring);
  for (uint32_t i = 0; i < count; ++i) {
    // After r shifts by one, item i holds the index r places to its left.
    int expected = static_cast<int>((i + count * rounds - rounds) % count);
    ASSERT_EQ(ring.result[i], expected) << "item " << i;
  }
}

TEST(FiberScheduler, BarrierInLoopAcross256Items) { run_ring(FiberScheduler::for_this_thread(), 256, 37); }

TEST(FiberScheduler, OneItemNeedsNoFiber) { run_ring(FiberScheduler::for_this_thread(), 1, 5); }

TEST(FiberScheduler, MaximumGroupOf1024Items) { run_ring(FiberScheduler::for_this_thread(), 1024, 3); }

TEST(FiberScheduler, ReusedForManyGroups) {
  FiberScheduler& s = FiberScheduler::for_this_thread();
  for (uint32_t n : {2u, 64u, 3u, 256u, 7u}) run_ring(s, n, 4);
}

struct EarlyReturn {
  const porta_cpu_scheduler* scheduler;
  std::vector<int> passes;
  static void item(void* self, uint32_t i) {
    auto& s = *static_cast<EarlyReturn*>(self);
    // Odd items leave at once; even items go on through barriers. GLSL calls
    // this undefined; here it must simply finish.
    if (i % 2) return;
    for (int r = 0; r < 10; ++r) {
      s.scheduler->barrier(s.scheduler->self);
      ++s.passes[i];
    }
  }
};

TEST(FiberScheduler, EarlyReturnDoesNotDeadlock) {
  FiberScheduler& s = FiberScheduler::for_this_thread();
  EarlyReturn er{s.abi(), std::vector<int>(100, 0)};
  s.abi()->run_items(s.abi()->self, 100, &EarlyReturn::item, &er);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(er.passes[i], i % 2 ? 0 : 10);
}

struct DeepStack {
  const porta_cpu_scheduler* scheduler;
  std::vector<double> out;
  static void item(void* self, uint32_t i) {
    auto& s = *static_cast<DeepStack*>(self);
    // A kernel's private arrays live on the fiber stack: use a good part of it.
    volatile double local[2048];
    for (int k = 0; k < 2048; ++k) local[k] = i + k;
    s.scheduler->barrier(s.scheduler->self);
    double sum = 0;
    for (int k = 0; k < 2048; ++k) sum += local[k];
    s.out[i] = sum;
  }
};

TEST(FiberScheduler, PrivateArraysSurviveBarriers) {
  FiberScheduler& s = FiberScheduler::for_this_thread();
  DeepStack d{s.abi(), std::vector<double>(128)};
  s.abi()->run_items(s.abi()->self, 128, &DeepStack::item, &d);
  for (int i = 0; i < 128; ++i) EXPECT_EQ(d.out[i], 2048.0 * i + 2047.0 * 2048 / 2);
}

TEST(FiberScheduler, ManyGroupsInParallel) {
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      FiberScheduler& s = FiberScheduler::for_this_thread();
      for (int g = 0; g < 50; ++g) {
        uint32_t count = 32 + 32 * ((t + g) % 8);
        RingShift ring{s.abi(), count, 5, std::vector<int>(count), std::vector<int>(count)};
        s.abi()->run_items(s.abi()->self, count, &RingShift::item, &ring);
        for (uint32_t i = 0; i < count; ++i)
          if (ring.result[i] != static_cast<int>((i + count * 5 - 5) % count)) ++failures;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
}

}  // namespace
}  // namespace porta::cpu
