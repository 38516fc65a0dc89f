// What Vulkan drivers do that porta works around, shown with the smallest
// kernel that shows it, on whatever Vulkan device is present. Each test states
// the behaviour porta assumes for the device (a flag the plugin reports) and
// checks it against what the driver does, so a driver that changes, or one
// porta misjudges, fails here rather than in an op's answer.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "vulkan_fixture.hpp"

namespace porta::test {
namespace {

class VulkanDriver : public VulkanPluginTest {};

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

// OpSMod of every sign pair, as scalars and vectors, 32- and 64-bit: a[i] %
// b[i] (int) into r[0..3], the same as an ivec4 into r[4..7], as int64_t
// into r64[0..3] and as an i64vec2 into r64[4..7] (pairs 0 and 1).
const char* const kSMod = R"(#version 450
#extension GL_ARB_gpu_shader_int64 : require
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Words { int a[4]; int b[4]; int r[8]; };
layout(set = 0, binding = 1) buffer Longs { int64_t r64[8]; };
void main() {
  for (int i = 0; i < 4; ++i) r[i] = a[i] % b[i];
  ivec4 v = ivec4(a[0], a[1], a[2], a[3]) % ivec4(b[0], b[1], b[2], b[3]);
  for (int i = 0; i < 4; ++i) r[4 + i] = v[i];
  for (int i = 0; i < 4; ++i) r64[i] = int64_t(a[i]) % int64_t(b[i]);
  i64vec2 w = i64vec2(a[0], a[1]) % i64vec2(b[0], b[1]);
  r64[4] = w.x;
  r64[5] = w.y;
  r64[6] = 0;
  r64[7] = 0;
}
)";

// llvmpipe (Mesa 22.3) computes OpSMod as OpSRem: -7 % 3 gives -1 (the
// dividend's sign), not 2 (the divisor's). The plugin reports that as
// PORTA_DEVICE_FLAG_SMOD_AS_SREM and rewrites OpSMod (capabilities.cpp); the
// rewritten module passes spirv-tools' validator there and the validation
// layer here. With PORTA_VULKAN_DISABLE=smod-fix (ctest vulkan.driver.smod_raw)
// the module goes to the driver as it is, and the answers must be OpSRem's
// exactly where the flag is set.
TEST_F(VulkanDriver, SModAsSRemIsReportedWhereTheDriverComputesIt) {
  if (!(info.features & PORTA_FEATURE_INT64)) GTEST_SKIP() << info.name << " has no int64 (shaderInt64)";
  const char* disabled = std::getenv("PORTA_VULKAN_DISABLE");
  const bool raw = disabled && std::strstr(disabled, "smod-fix");
  const bool flagged = (info.flags & PORTA_DEVICE_FLAG_SMOD_AS_SREM) != 0;
  auto source = glsl(kSMod, "smod");
  porta_plugin_kernel k = kernel(*source);
  const std::vector<int32_t> a = {-7, -7, 7, 7}, b = {3, -3, -3, 3};
  std::vector<int32_t> words(16, 0x5a5a5a5a);
  std::copy(a.begin(), a.end(), words.begin());
  std::copy(b.begin(), b.end(), words.begin() + 4);
  porta_plugin_buffer w = buffer(words.size() * 4), l = buffer(8 * 8);
  write(w, words.data(), words.size() * 4);
  dispatch(k, 1, 1, 1, {w, l}, nullptr, 0);
  std::vector<int64_t> longs(8);
  read(w, words.data(), words.size() * 4);
  read(l, longs.data(), longs.size() * 8);
  sync();
  const int32_t smod[4] = {2, -1, -2, 1}, srem[4] = {-1, -1, 1, 1};
  const bool srem_seen = raw && flagged;  // what this run must give
  const int32_t* want = srem_seen ? srem : smod;
  for (int i = 0; i < 4; ++i) {
    SCOPED_TRACE(std::to_string(a[i]) + " % " + std::to_string(b[i]) + (raw ? " (raw driver)" : " (porta)"));
    const char* what = srem_seen ? "OpSRem's answer (PORTA_DEVICE_FLAG_SMOD_AS_SREM is reported)"
                                 : "OpSMod's answer (the divisor's sign)";
    EXPECT_EQ(words[8 + i], want[i]) << info.name << ": int, want " << what;
    EXPECT_EQ(words[12 + i], want[i]) << info.name << ": ivec4, want " << what;
    EXPECT_EQ(longs[i], want[i]) << info.name << ": int64_t, want " << what;
    if (i < 2) {
      EXPECT_EQ(longs[4 + i], want[i]) << info.name << ": i64vec2, want " << what;
    }
  }
}

}  // namespace
}  // namespace porta::test
