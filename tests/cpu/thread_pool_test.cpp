#include "thread_pool.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

namespace porta::cpu {
namespace {

TEST(ThreadPool, EveryIndexExactlyOnce) {
  ThreadPool pool(4);
  for (uint64_t count : {1ull, 3ull, 1000ull, 100003ull}) {
    std::vector<std::atomic<int>> hits(count);
    pool.parallel_for(count, 7, [&](uint64_t b, uint64_t e) {
      for (uint64_t i = b; i < e; ++i) ++hits[i];
    });
    for (uint64_t i = 0; i < count; ++i) ASSERT_EQ(hits[i].load(), 1) << i;
  }
}

TEST(ThreadPool, ExceptionReachesTheCaller) {
  ThreadPool pool(3);
  EXPECT_THROW(pool.parallel_for(1000, 1,
                                 [](uint64_t b, uint64_t) {
                                   if (b == 500) throw std::runtime_error("boom");
                                 }),
               std::runtime_error);
  // The pool stays usable.
  std::atomic<uint64_t> sum{0};
  pool.parallel_for(100, 3, [&](uint64_t b, uint64_t e) {
    for (uint64_t i = b; i < e; ++i) sum += i;
  });
  EXPECT_EQ(sum.load(), 4950u);
}

TEST(ThreadPool, JobsFromSeveralThreads) {
  ThreadPool pool(3);
  std::atomic<uint64_t> total{0};
  std::vector<std::thread> submitters;
  for (int t = 0; t < 4; ++t) {
    submitters.emplace_back([&] {
      for (int j = 0; j < 200; ++j) pool.parallel_for(64, 4, [&](uint64_t b, uint64_t e) { total += e - b; });
    });
  }
  for (auto& s : submitters) s.join();
  EXPECT_EQ(total.load(), 4u * 200 * 64);
}

}  // namespace
}  // namespace porta::cpu
