// What Vulkan drivers do that porta works around, shown with the smallest
// kernel that shows it, on whatever Vulkan device is present. Each test states
// the behaviour porta assumes for the device (a flag the plugin reports) and
// checks it against what the driver does, so a driver that changes, or one
// porta misjudges, fails here rather than in an op's answer.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
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

// Signed remainders of every sign pair, the lowest int and zero, as
// scalars and vectors, 32- and 64-bit: for pair i, r[i] = a[i] % b[i] (GLSL's
// %, OpSMod), r[8 + i] the same through an ivec4, s[i] = OpSRem, and r64 /
// s64 the same on int64_t.
const char* const kRemainders = R"(#version 450
#extension GL_ARB_gpu_shader_int64 : require
#extension GL_EXT_spirv_intrinsics : require
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Words { int a[8]; int b[8]; int r[16]; int s[8]; };
layout(set = 0, binding = 1) buffer Longs { int64_t r64[8]; int64_t s64[8]; };
spirv_instruction(id = 138) int srem(int x, int y);
spirv_instruction(id = 138) int64_t srem(int64_t x, int64_t y);
void main() {
  for (int i = 0; i < 8; ++i) {
    r[i] = a[i] % b[i];
    s[i] = srem(a[i], b[i]);
    r64[i] = int64_t(a[i]) % int64_t(b[i]);
    s64[i] = srem(int64_t(a[i]), int64_t(b[i]));
  }
  for (int h = 0; h < 8; h += 4) {
    ivec4 v = ivec4(a[h], a[h + 1], a[h + 2], a[h + 3]) % ivec4(b[h], b[h + 1], b[h + 2], b[h + 3]);
    for (int i = 0; i < 4; ++i) r[8 + h + i] = v[i];
  }
}
)";

// OpSRem: the dividend's sign.
int64_t srem(int64_t a, int64_t b) { return a % b; }
// OpSMod: the divisor's sign.
int64_t smod(int64_t a, int64_t b) {
  const int64_t r = srem(a, b);
  return r != 0 && ((r ^ b) < 0) ? r + b : r;
}

// The Vulkan SPIR-V environment leaves OpSRem and OpSMod undefined for
// negative operands unless VK_KHR_maintenance8 is enabled, and drivers differ:
// NVIDIA's computes unsigned remainders, llvmpipe (Mesa 22.3) computes OpSMod
// as OpSRem. porta enables maintenance8 where the device has it and otherwise
// builds both from OpSDiv (rewrites.cpp); the rewritten module passes
// spirv-tools' validator and the validation layer here. Either way the
// answers are SPIR-V's, exactly. With PORTA_VULKAN_DISABLE=remainder-fix
// (ctest vulkan.driver.remainder_raw) the module goes to the driver as it is,
// and OpSMod must give OpSRem's answers exactly where
// PORTA_DEVICE_FLAG_SMOD_AS_SREM is reported.
TEST_F(VulkanDriver, SignedRemaindersAreExact) {
  if (!(info.features & PORTA_FEATURE_INT64)) GTEST_SKIP() << info.name << " has no int64 (shaderInt64)";
  const char* disabled = std::getenv("PORTA_VULKAN_DISABLE");
  const bool raw = disabled && std::strstr(disabled, "remainder-fix");
  const bool flagged = (info.flags & PORTA_DEVICE_FLAG_SMOD_AS_SREM) != 0;
  if (raw && !flagged)
    GTEST_SKIP() << info.name
                 << ": the driver's own remainders of negative operands are undefined without "
                    "VK_KHR_maintenance8 and no flag says what they are: nothing to check";
  auto source = glsl(kRemainders, "remainders");
  porta_plugin_kernel k = kernel(*source);
  const int32_t lowest = INT32_MIN;
  const std::vector<int32_t> a = {-7, -7, 7, 7, lowest, lowest, 0, -1}, b = {3, -3, -3, 3, -2, 7, -5, 2};
  std::vector<int32_t> words(40, 0x5a5a5a5a);
  std::copy(a.begin(), a.end(), words.begin());
  std::copy(b.begin(), b.end(), words.begin() + 8);
  porta_plugin_buffer w = buffer(words.size() * 4), l = buffer(16 * 8);
  write(w, words.data(), words.size() * 4);
  dispatch(k, 1, 1, 1, {w, l}, nullptr, 0);
  std::vector<int64_t> longs(16);
  read(w, words.data(), words.size() * 4);
  read(l, longs.data(), longs.size() * 8);
  sync();
  const char* what = raw ? "OpSRem's answer (the driver as it is; PORTA_DEVICE_FLAG_SMOD_AS_SREM is reported)"
                         : "OpSMod's answer (the divisor's sign)";
  for (size_t i = 0; i < a.size(); ++i) {
    SCOPED_TRACE(std::to_string(a[i]) + " % " + std::to_string(b[i]) + (raw ? " (raw driver)" : " (porta)"));
    const int64_t mod = raw ? srem(a[i], b[i]) : smod(a[i], b[i]), rem = srem(a[i], b[i]);
    EXPECT_EQ(words[16 + i], mod) << info.name << ": int %, want " << what;
    EXPECT_EQ(words[24 + i], mod) << info.name << ": ivec4 %, want " << what;
    EXPECT_EQ(longs[i], raw ? srem(a[i], b[i]) : smod(a[i], b[i]))
        << info.name << ": int64_t %, want " << what;
    if (raw) continue;  // the driver's own OpSRem of negative operands is undefined
    EXPECT_EQ(words[32 + i], rem) << info.name << ": int OpSRem, want the dividend's sign";
    EXPECT_EQ(longs[8 + i], rem) << info.name << ": int64_t OpSRem, want the dividend's sign";
  }
}

}  // namespace
}  // namespace porta::test
