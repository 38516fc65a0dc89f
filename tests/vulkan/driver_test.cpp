// What Vulkan drivers do that porta works around, shown with the smallest
// kernel that shows it, on whatever Vulkan device is present. Each test states
// the behaviour porta assumes for the device (a flag the plugin reports) and
// checks it against what the driver does, so a driver that changes, or one
// porta misjudges, fails here rather than in an op's answer.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "harness/plugin_fixture.hpp"

namespace porta::test {
namespace {

const char* const kValidation = "vulkan validation:";

const Plugin& vulkan_plugin() {
  return plugin_at(path_from_env("PORTA_TEST_VULKAN_PLUGIN", PORTA_TEST_VULKAN_PLUGIN));
}

class VulkanDriver : public PluginTest {
 protected:
  void SetUp() override {
    ASSERT_TRUE(vulkan_plugin().available()) << vulkan_plugin().reason;
    validation_before_ = TestHost::count_logged(kValidation);
    open(vulkan_plugin(), 0);
  }
  void TearDown() override {
    PluginTest::TearDown();
    EXPECT_EQ(TestHost::count_logged(kValidation), validation_before_) << "validation messages were logged";
  }
  int validation_before_ = 0;
};

// Two loops one after the other, each of n iterations that add 1 read from
// memory (so no compiler can count them without running them); the sums say
// how many iterations each loop made.
const char* const kTwoLoops = R"(#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Counts { uint counts[]; };  // [2] = 1 on input
layout(push_constant) uniform Params { uint n; } p;
void main() {
  uint first = 0u;
  for (uint i = 0u; i < p.n; ++i) first += counts[2];
  uint second = 0u;
  for (uint i = 0u; i < p.n; ++i) second += counts[2];
  counts[0] = first;
  counts[1] = second;
}
)";

// llvmpipe (lavapipe) gives each invocation one loop counter for all its loops
// and leaves every loop once PORTA_LOOP_LIMIT_ITERATIONS iterations have been
// made, without an error: here the first loop runs in full, the second stops
// where the budget ends. The plugin reports that as PORTA_DEVICE_FLAG_LOOP_LIMIT,
// and launchers (kernels/logreg_step) split their work to stay below it.
TEST_F(VulkanDriver, LoopLimitIsReportedWhereTheDriverEndsLoopsEarly) {
  const uint32_t n = 40000;  // one loop fits the limit, two do not
  auto source = glsl(kTwoLoops, "two_loops");
  porta_plugin_kernel k = kernel(*source);
  porta_plugin_buffer b = buffer(3 * sizeof(uint32_t));
  const std::vector<uint32_t> input = {0xdeadbeef, 0xdeadbeef, 1};
  write(b, input.data(), input.size() * sizeof(uint32_t));
  struct {
    uint32_t n;
  } push{n};
  dispatch(k, 1, {b}, push);
  std::vector<uint32_t> counts(3);
  read(b, counts.data(), counts.size() * sizeof(uint32_t));
  sync();
  const bool limited = (info.flags & PORTA_DEVICE_FLAG_LOOP_LIMIT) != 0;
  EXPECT_EQ(counts[0], n) << info.name << ": the first loop alone is below any limit";
  if (limited) {
    // The loops stop within a few iterations of the limit (the driver counts
    // at each loop's end).
    const uint32_t total = counts[0] + counts[1];
    EXPECT_LT(counts[1], n) << info.name
                            << " reports PORTA_DEVICE_FLAG_LOOP_LIMIT but ran both loops in full";
    EXPECT_GE(total + 2, PORTA_LOOP_LIMIT_ITERATIONS) << info.name << ": the loops stopped before the limit";
    EXPECT_LE(total, PORTA_LOOP_LIMIT_ITERATIONS + 2) << info.name << ": the loops ran past the limit";
  } else {
    EXPECT_EQ(counts[1], n) << info.name << " ended a loop early (after " << counts[0] + counts[1]
                            << " iterations in all) but does not report PORTA_DEVICE_FLAG_LOOP_LIMIT";
  }
}

}  // namespace
}  // namespace porta::test
