// The free-list allocator that places buffers inside memory blocks.
#include "range_allocator.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace porta::vk {
namespace {

TEST(RangeAllocator, AlignsAndFillsTheBlock) {
  RangeAllocator a(1024);
  auto x = a.allocate(10, 1);
  auto y = a.allocate(10, 256);
  ASSERT_TRUE(x && y);
  EXPECT_EQ(*x, 0u);
  EXPECT_EQ(*y, 256u);
  EXPECT_EQ(a.used(), 20u);
  // The gap left by alignment is still usable.
  auto z = a.allocate(100, 4);
  ASSERT_TRUE(z);
  EXPECT_EQ(*z, 12u);
  EXPECT_FALSE(a.allocate(2000, 1));
}

TEST(RangeAllocator, MergesFreedNeighbours) {
  RangeAllocator a(300);
  auto x = a.allocate(100, 1), y = a.allocate(100, 1), z = a.allocate(100, 1);
  ASSERT_TRUE(x && y && z);
  EXPECT_FALSE(a.allocate(1, 1));
  a.free(*x, 100);
  a.free(*z, 100);
  EXPECT_FALSE(a.allocate(150, 1));
  a.free(*y, 100);
  EXPECT_TRUE(a.empty());
  auto all = a.allocate(300, 1);
  ASSERT_TRUE(all);
  EXPECT_EQ(*all, 0u);
}

TEST(RangeAllocator, RandomAllocationsNeverOverlap) {
  RangeAllocator a(1 << 20);
  std::mt19937 rng(42);
  struct Range {
    uint64_t offset, size;
  };
  std::vector<Range> live;
  for (int step = 0; step < 20000; ++step) {
    if (!live.empty() && rng() % 3 == 0) {
      size_t i = rng() % live.size();
      a.free(live[i].offset, live[i].size);
      live.erase(live.begin() + static_cast<long>(i));
      continue;
    }
    uint64_t size = 1 + rng() % 4096, align = 1ull << (rng() % 9);
    if (auto off = a.allocate(size, align)) {
      ASSERT_EQ(*off % align, 0u);
      for (const Range& r : live) ASSERT_TRUE(*off + size <= r.offset || r.offset + r.size <= *off);
      live.push_back({*off, size});
    }
  }
  for (const Range& r : live) a.free(r.offset, r.size);
  EXPECT_TRUE(a.empty());
  EXPECT_TRUE(a.allocate(1 << 20, 1));
}

}  // namespace
}  // namespace porta::vk
