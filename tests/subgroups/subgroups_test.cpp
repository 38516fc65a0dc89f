// Subgroup operations through the public API on the backend under test
// (PORTA_TEST_BACKEND). The kernels of kernels/ give results that do not
// depend on the subgroup size, so every backend must give the same ones; the
// CPU backend's 32 lanes are checked lane by lane; a device without subgroup
// operations refuses them by feature.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "porta/porta.hpp"
#include "support/backend_under_test.hpp"
#include "support/device_test.hpp"

namespace {

using porta::test::testing_cpu;

std::string read_kernel(const std::string& name) {
  std::ifstream in(std::string(PORTA_SUBGROUP_KERNELS) + "/" + name);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

class Subgroups : public porta::test::DeviceTest {
 protected:
  bool supported() const { return (dev.info().features & PORTA_FEATURE_SUBGROUPS) != 0; }

  // The kernel, or null with the skip reason where the device refuses it as
  // unsupported (a kind of subgroup operation it lacks, by name).
  std::unique_ptr<porta::Kernel> kernel_or_skip_reason(const std::string& source, const std::string& name,
                                                       std::string& reason) {
    try {
      return std::make_unique<porta::Kernel>(dev.kernel(porta::glsl(source, name)));
    } catch (const porta::Error& e) {
      if (e.status() != PORTA_ERROR_UNSUPPORTED) throw;
      reason = e.what();
      return nullptr;
    }
  }

  // Runs a kernel of kernels/ whose one buffer gets a flag word per
  // invocation (4 groups of 128), each bit a check that failed.
  // A device may refuse a kind of operation it lacks; the refusal must name
  // `kind` (the device's subgroup features allow no other reason). A device
  // with subgroups of one work-item refuses none, and an OpenCL device none
  // of what `opencl_core` kernels use (basic, vote, ballot, arithmetic): it
  // has their extensions or runs subgroups of one work-item.
  void expect_all_checks_pass(const std::string& file, const std::string& kind = "subgroup",
                              bool opencl_core = false) {
    if (!supported()) GTEST_SKIP() << dev.name() << " has no subgroup operations";
    std::string reason;
    auto kernel = kernel_or_skip_reason(read_kernel(file), file, reason);
    if (!kernel) {
      EXPECT_NE(dev.info().limits.subgroup_size, 1u) << "refused with subgroups of one work-item: " << reason;
      EXPECT_FALSE(opencl_core && porta::test::backend_name_under_test() == "opencl") << reason;
      EXPECT_NE(reason.find(kind), std::string::npos) << reason;
      GTEST_SKIP() << reason;
    }
    const uint32_t n = 4 * 128;
    // Not zero beforehand: an invocation that wrote nothing is a failure too.
    porta::Buffer flags = dev.upload(std::vector<uint32_t>(n, 0xdeadbeefu));
    stream.dispatch(*kernel, {4}, {flags});
    const std::vector<uint32_t> result = read<uint32_t>(flags, n);
    const uint32_t size = dev.info().limits.subgroup_size;
    for (uint32_t i = 0; i < n; ++i)
      ASSERT_EQ(result[i], 0u) << file << ": invocation " << i << " failed checks 0x" << std::hex << result[i]
                               << std::dec << " (device subgroup size " << size << ")";
  }
};

TEST_F(Subgroups, UniformOperationsAreAsVulkanDefinesThem) {
  expect_all_checks_pass("uniform_operations.comp");
}

TEST_F(Subgroups, DivergentOperationsTakeExactlyTheActiveInvocations) {
  expect_all_checks_pass("divergent_operations.comp", "subgroup", true);
}

TEST_F(Subgroups, ClusteredReductions) { expect_all_checks_pass("clustered_operations.comp", "clustered"); }

TEST_F(Subgroups, GroupTotalsDoNotDependOnTheSubgroupSize) {
  if (!supported()) GTEST_SKIP() << dev.name() << " has no subgroup operations";
  const uint32_t groups = 8, n = groups * 128;
  std::mt19937 rng(11);
  std::vector<int32_t> values(n);
  for (auto& v : values) v = int32_t(rng());
  auto kernel = dev.kernel(porta::glsl(read_kernel("group_totals.comp"), "group_totals.comp"));
  porta::Buffer in = dev.upload(values);
  porta::Buffer out = dev.buffer(groups * 16);
  stream.dispatch(kernel, {groups}, {in, out});
  const std::vector<int32_t> totals = read<int32_t>(out, groups * 4);
  for (uint32_t g = 0; g < groups; ++g) {
    uint32_t sum = 0, positives = 0;
    int32_t most = INT32_MIN;
    for (uint32_t i = g * 128; i < (g + 1) * 128; ++i) {
      sum += uint32_t(values[i]);  // GLSL's int addition wraps
      most = std::max(most, values[i]);
      positives += values[i] > 0;
    }
    EXPECT_EQ(totals[g * 4 + 0], int32_t(sum)) << "group " << g;
    EXPECT_EQ(totals[g * 4 + 1], most) << "group " << g;
    EXPECT_EQ(totals[g * 4 + 2], int32_t(positives)) << "group " << g;
    EXPECT_EQ(totals[g * 4 + 3], 1) << "group " << g << ": broadcast of the first lane";
  }
}

TEST_F(Subgroups, WorkgroupPrefixSumAndBallotCompaction) {
  if (!supported()) GTEST_SKIP() << dev.name() << " has no subgroup operations";
  const uint32_t groups = 8, n = groups * 128;
  std::mt19937 rng(17);
  std::vector<int32_t> values(n);
  for (auto& v : values) v = int32_t(rng() % 2001) - 1000;
  porta::Buffer in = dev.upload(values);

  auto scan = dev.kernel(porta::glsl(read_kernel("workgroup_prefix_sum.comp"), "workgroup_prefix_sum.comp"));
  porta::Buffer prefix = dev.buffer(n * 4);
  stream.dispatch(scan, {groups}, {in, prefix});
  const std::vector<int32_t> sums = read<int32_t>(prefix, n);
  for (uint32_t g = 0; g < groups; ++g) {
    int32_t running = 0;
    for (uint32_t i = g * 128; i < (g + 1) * 128; ++i) {
      running += values[i];
      ASSERT_EQ(sums[i], running) << "index " << i;
    }
  }

  auto compact = dev.kernel(porta::glsl(read_kernel("ballot_compaction.comp"), "ballot_compaction.comp"));
  porta::Buffer kept = dev.upload(std::vector<int32_t>(n, -7));
  porta::Buffer counts = dev.buffer(groups * 4);
  stream.dispatch(compact, {groups}, {in, kept, counts});
  const std::vector<int32_t> out = read<int32_t>(kept, n);
  const std::vector<uint32_t> count = read<uint32_t>(counts, groups);
  for (uint32_t g = 0; g < groups; ++g) {
    std::vector<int32_t> want;
    for (uint32_t i = g * 128; i < (g + 1) * 128; ++i)
      if (values[i] > 0) want.push_back(values[i]);
    EXPECT_EQ(count[g], want.size()) << "group " << g;
    want.resize(128, 0);
    for (uint32_t i = 0; i < 128; ++i)
      ASSERT_EQ(out[g * 128 + i], want[i]) << "group " << g << ", element " << i;
  }
}

TEST_F(Subgroups, FloatGroupSumsAreWithinTheBoundOfAnyOrder) {
  if (!supported()) GTEST_SKIP() << dev.name() << " has no subgroup operations";
  const char* source = R"(#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 256) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float sums[]; };
shared float partial[256];
void main() {
  const float s = subgroupAdd(x[gl_GlobalInvocationID.x]);
  if (subgroupElect()) partial[gl_SubgroupID] = s;
  barrier();
  if (gl_LocalInvocationIndex == 0u) {
    float total = 0.0;
    for (uint i = 0u; i < gl_NumSubgroups; ++i) total += partial[i];
    sums[gl_WorkGroupID.x] = total;
  }
})";
  const uint32_t groups = 16, n = groups * 256;
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> d(-2, 2);
  std::vector<float> x(n);
  for (auto& v : x) v = d(rng);
  auto kernel = dev.kernel(porta::glsl(source, "float_sum"));
  porta::Buffer in = dev.upload(x);
  porta::Buffer out = dev.buffer(groups * 4);
  stream.dispatch(kernel, {groups}, {in, out});
  const std::vector<float> sums = read<float>(out, groups);
  for (uint32_t g = 0; g < groups; ++g) {
    double want = 0, abs_sum = 0;
    for (uint32_t i = g * 256; i < (g + 1) * 256; ++i) {
      want += x[i];
      abs_sum += std::fabs(x[i]);
    }
    // 255 additions in an order Vulkan leaves open: |error| <= γ_255 · Σ|x|.
    const double u = 0x1p-24, bound = 255 * u / (1 - 255 * u) * abs_sum;
    EXPECT_NEAR(sums[g], want, bound) << "group " << g;
  }
}

TEST_F(Subgroups, BarriersAndSubgroupOperationsInterleave) {
  if (!supported()) GTEST_SKIP() << dev.name() << " has no subgroup operations";
  // Values rotate through shared memory between barriers, with subgroup
  // operations (some in one branch only) between the barriers.
  const char* source = R"(#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 96) in;
layout(binding = 0) buffer Data { uint v[]; };
shared uint ring[96];
void main() {
  const uint l = gl_LocalInvocationIndex;
  uint value = v[gl_GlobalInvocationID.x];
  for (uint round = 0u; round < 5u; ++round) {
    ring[l] = value;
    barrier();
    value = ring[(l + 7u) % 96u] + (subgroupAdd(1u) == subgroupBallotBitCount(subgroupBallot(true)) ? 1u : 0u);
    if (value % 2u == 0u) value += subgroupBallotBitCount(subgroupBallot(true)) -
                                  subgroupAdd(1u);  // 0: both count the active lanes
    barrier();
  }
  v[gl_GlobalInvocationID.x] = value;
})";
  const uint32_t groups = 3, n = groups * 96;
  std::vector<uint32_t> v(n);
  for (uint32_t i = 0; i < n; ++i) v[i] = i * 13u + 1u;
  auto kernel = dev.kernel(porta::glsl(source, "interleave"));
  porta::Buffer data = dev.upload(v);
  stream.dispatch(kernel, {groups}, {data});
  const std::vector<uint32_t> result = read<uint32_t>(data, n);
  for (uint32_t g = 0; g < groups; ++g)
    for (uint32_t l = 0; l < 96; ++l) {
      // After 5 rounds item l holds the value of item (l + 35) % 96, plus 5.
      const uint32_t want = v[g * 96 + (l + 35) % 96] + 5u;
      ASSERT_EQ(result[g * 96 + l], want) << "group " << g << ", item " << l;
    }
}

TEST_F(Subgroups, DevicesWithoutThemRefuseByFeature) {
  if (supported()) GTEST_SKIP() << dev.name() << " has subgroup operations";
  try {
    dev.kernel(porta::glsl(read_kernel("group_totals.comp"), "group_totals.comp"));
    ADD_FAILURE() << "a device without subgroups accepted a kernel with subgroup operations";
  } catch (const porta::Error& e) {
    EXPECT_EQ(e.status(), PORTA_ERROR_UNSUPPORTED) << e.what();
    EXPECT_NE(std::string(e.what()).find("subgroups"), std::string::npos) << e.what();
  }
}

// The size a device reports is the size its kernels see.
TEST_F(Subgroups, KernelsSeeTheReportedSubgroupSize) {
  if (!supported()) GTEST_SKIP() << dev.name() << " has no subgroup operations";
  const uint32_t reported = dev.info().limits.subgroup_size;
  if (reported == 0) GTEST_SKIP() << dev.name() << " reports no subgroup size (its kernels' vary)";
  auto kernel = dev.kernel(porta::glsl(R"(#version 450
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x = 64) in;
layout(binding = 0) writeonly buffer Out { uint sizes[]; };
void main() { sizes[gl_GlobalInvocationID.x] = gl_SubgroupSize; })",
                                       "subgroup_size"));
  porta::Buffer out = dev.upload(std::vector<uint32_t>(128, 0xdeadbeefu));
  stream.dispatch(kernel, {2}, {out});
  const std::vector<uint32_t> sizes = read<uint32_t>(out, 128);
  for (uint32_t i = 0; i < 128; ++i) ASSERT_EQ(sizes[i], reported) << "invocation " << i;
}

// ---- subgroups of one work-item (OpenCL devices without cl_khr_subgroup_*) ----

// Every operation at its exact meaning for a subgroup whose only invocation
// is the work-item itself, value by value.
TEST_F(Subgroups, SubgroupsOfOneWorkItemGiveEachOperationItsSingleInvocationMeaning) {
  if (dev.info().limits.subgroup_size != 1)
    GTEST_SKIP() << dev.name() << " does not run subgroups of one work-item";
  ASSERT_TRUE(supported());
  const char* source = R"(#version 450
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#extension GL_KHR_shader_subgroup_clustered : require
#extension GL_KHR_shader_subgroup_quad : require
layout(local_size_x = 8, local_size_y = 3) in;
layout(binding = 0) readonly buffer In { int x[]; };
layout(binding = 1) writeonly buffer Out { uint o[]; };
const uint kSlots = 40u;
void main() {
  const uint i = gl_GlobalInvocationID.y * 16u + gl_GlobalInvocationID.x, base = i * kSlots;
  const int v = x[i];
  const uint u = uint(v);
  const float f = float(v) * 0.25;
  const bool p = v > 0;
  o[base + 0u] = gl_SubgroupSize;
  o[base + 1u] = gl_SubgroupInvocationID;
  o[base + 2u] = gl_NumSubgroups;
  o[base + 3u] = gl_SubgroupID;
  o[base + 4u] = uint(subgroupElect()) | uint(subgroupAll(p)) << 1 | uint(subgroupAny(p)) << 2 |
                 uint(subgroupAllEqual(u)) << 3 | uint(subgroupAllEqual(vec2(f, 1.0))) << 4;
  const uvec4 b = subgroupBallot(p);
  o[base + 5u] = b.x;
  o[base + 6u] = b.y | b.z | b.w;
  o[base + 7u] = subgroupBallotBitCount(b) | subgroupBallotInclusiveBitCount(b) << 8 |
                 subgroupBallotExclusiveBitCount(b) << 16 | uint(subgroupInverseBallot(b)) << 24;
  o[base + 8u] = subgroupBallotFindLSB(b);
  o[base + 9u] = subgroupBallotFindMSB(b);
  // Any ballot, bit by bit: the bit of `u` in the third word.
  o[base + 10u] = uint(subgroupBallotBitExtract(uvec4(0u, 0u, u, 0u), 64u + u % 32u)) |
                  uint(subgroupBallotBitExtract(uvec4(u, 0u, 0u, 0u), 5u)) << 1;
  o[base + 11u] = gl_SubgroupEqMask.x | gl_SubgroupGeMask.x << 1 | gl_SubgroupGtMask.x << 2 |
                  gl_SubgroupLeMask.x << 3 | gl_SubgroupLtMask.x << 4;
  o[base + 12u] = gl_SubgroupEqMask.y | gl_SubgroupGeMask.z | gl_SubgroupLeMask.w;
  // Reductions and inclusive scans: the own value.
  o[base + 13u] = uint(subgroupAdd(v)) ^ uint(subgroupMul(v)) ^ uint(subgroupMin(v)) ^ uint(subgroupMax(v)) ^
                  subgroupAnd(u) ^ subgroupOr(u) ^ subgroupXor(u) ^ uint(subgroupInclusiveAdd(v)) ^
                  subgroupInclusiveMax(u) ^ uint(subgroupClusteredAdd(v, 1u));
  o[base + 14u] = floatBitsToUint(subgroupAdd(f) + subgroupInclusiveMul(f) + subgroupMax(f));
  // Exclusive scans: the operation's identity.
  o[base + 15u] = uint(subgroupExclusiveAdd(v));
  o[base + 16u] = uint(subgroupExclusiveMul(v));
  o[base + 17u] = uint(subgroupExclusiveMin(v));
  o[base + 18u] = uint(subgroupExclusiveMax(v));
  o[base + 19u] = subgroupExclusiveMin(u);
  o[base + 20u] = subgroupExclusiveMax(u);
  o[base + 21u] = subgroupExclusiveAnd(u);
  o[base + 22u] = subgroupExclusiveOr(u) | subgroupExclusiveXor(u);
  o[base + 23u] = floatBitsToUint(subgroupExclusiveMin(f));
  o[base + 24u] = floatBitsToUint(subgroupExclusiveMax(f));
  o[base + 25u] = floatBitsToUint(subgroupExclusiveAdd(f));
  o[base + 26u] = floatBitsToUint(subgroupExclusiveMul(f));
  o[base + 27u] = uint(subgroupExclusiveAnd(p)) | uint(subgroupExclusiveOr(p)) << 1 |
                  uint(subgroupExclusiveXor(p)) << 2 | uint(subgroupInclusiveAnd(p)) << 3;
  const ivec2 e = subgroupExclusiveMin(ivec2(v, -v)), m = subgroupExclusiveMax(ivec2(v, -v));
  o[base + 28u] = uint(e.x);
  o[base + 29u] = uint(e.y);
  o[base + 30u] = uint(m.x);
  o[base + 31u] = uint(m.y);
  // Reading invocation 0, the own one.
  o[base + 32u] = uint(subgroupBroadcast(v, 0u)) ^ uint(subgroupBroadcastFirst(v)) ^ uint(subgroupShuffle(v, 0u)) ^
                  uint(subgroupShuffleXor(v, 0u)) ^ uint(subgroupShuffleUp(v, 0u)) ^
                  uint(subgroupShuffleDown(v, 0u)) ^ uint(subgroupQuadBroadcast(v, 0u));
  const vec3 s = subgroupShuffle(vec3(f, 2.0 * f, -f), gl_SubgroupInvocationID);
  o[base + 33u] = floatBitsToUint(s.x + s.y + s.z);
  subgroupBarrier();
  subgroupMemoryBarrier();
  o[base + 34u] = 0x600du;
  // A component of a result straight away (the cast is parenthesised whole).
  o[base + 35u] = uint(subgroupExclusiveMax(ivec2(v, 1)).y);
  o[base + 36u] = subgroupBallot(v > 1).x;
}
)";
  const uint32_t groups_x = 2, groups_y = 2, n = 16 * 6, slots = 40;
  std::vector<int32_t> x(n);
  std::mt19937 rng(29);
  for (auto& v : x) v = int32_t(rng() % 2001) - 1000;
  x[0] = 0;
  x[1] = 1;
  x[2] = -1;
  auto kernel = dev.kernel(porta::glsl(source, "single_invocation"));
  porta::Buffer in = dev.upload(x);
  porta::Buffer out = dev.upload(std::vector<uint32_t>(n * slots, 0xdeadbeefu));
  stream.dispatch(kernel, {groups_x, groups_y, 1}, {in, out});
  const std::vector<uint32_t> o = read<uint32_t>(out, n * slots);
  auto bits = [](float f) {
    uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
  };
  for (uint32_t gy = 0; gy < 6; ++gy)
    for (uint32_t gx = 0; gx < 16; ++gx) {
      const uint32_t i = gy * 16 + gx, local = (gy % 3) * 8 + gx % 8;
      const uint32_t* r = &o[i * slots];
      const int32_t v = x[i];
      const uint32_t u = uint32_t(v);
      const float f = float(v) * 0.25f;
      const uint32_t p = v > 0;
      SCOPED_TRACE("invocation " + std::to_string(i) + ", value " + std::to_string(v));
      EXPECT_EQ(r[0], 1u);
      EXPECT_EQ(r[1], 0u);
      EXPECT_EQ(r[2], 24u) << "one subgroup per work-item";
      EXPECT_EQ(r[3], local);
      EXPECT_EQ(r[4], 1u | p << 1 | p << 2 | 1u << 3 | 1u << 4);
      EXPECT_EQ(r[5], p) << "a ballot has bit 0 alone";
      EXPECT_EQ(r[6], 0u);
      EXPECT_EQ(r[7], p | p << 8 | 0u << 16 | p << 24);
      EXPECT_EQ(r[8], p ? 0u : 0xffffffffu);
      EXPECT_EQ(r[9], p ? 0u : 0xffffffffu);
      EXPECT_EQ(r[10], (u >> (u % 32) & 1u) | (u >> 5 & 1u) << 1);
      EXPECT_EQ(r[11], 1u | 1u << 1 | 0u << 2 | 1u << 3 | 0u << 4);
      EXPECT_EQ(r[12], 0u);
      EXPECT_EQ(r[13], u ^ u ^ u ^ u ^ u ^ u ^ u ^ u ^ u ^ u);
      EXPECT_EQ(r[14], bits(f + f + f));
      EXPECT_EQ(r[15], 0u);
      EXPECT_EQ(r[16], 1u);
      EXPECT_EQ(r[17], uint32_t(INT32_MAX));
      EXPECT_EQ(r[18], uint32_t(INT32_MIN));
      EXPECT_EQ(r[19], UINT32_MAX);
      EXPECT_EQ(r[20], 0u);
      EXPECT_EQ(r[21], UINT32_MAX);
      EXPECT_EQ(r[22], 0u);
      EXPECT_EQ(r[23], bits(INFINITY));
      EXPECT_EQ(r[24], bits(-INFINITY));
      EXPECT_EQ(r[25], bits(0.0f));
      EXPECT_EQ(r[26], bits(1.0f));
      EXPECT_EQ(r[27], 1u | 0u << 1 | 0u << 2 | p << 3);
      EXPECT_EQ(r[28], uint32_t(INT32_MAX));
      EXPECT_EQ(r[29], uint32_t(INT32_MAX));
      EXPECT_EQ(r[30], uint32_t(INT32_MIN));
      EXPECT_EQ(r[31], uint32_t(INT32_MIN));
      EXPECT_EQ(r[32], u ^ u ^ u ^ u ^ u ^ u ^ u);
      EXPECT_EQ(r[33], bits(f + 2.0f * f + -f));
      EXPECT_EQ(r[34], 0x600du);
      EXPECT_EQ(r[35], uint32_t(INT32_MIN));
      EXPECT_EQ(r[36], uint32_t(v > 1));
    }
}

// ---- the CPU backend's own subgroups: 32 lanes of consecutive items ----

TEST_F(Subgroups, CpuLanesAreConsecutiveItemsAndScansAddInLaneOrder) {
  if (!testing_cpu()) GTEST_SKIP() << "the CPU backend's subgroup layout";
  const porta::DeviceInfo info = dev.info();
  ASSERT_TRUE(info.features & PORTA_FEATURE_SUBGROUPS);
  ASSERT_EQ(info.limits.subgroup_size, 32u);
  // 80 items: two subgroups of 32 and one of 16.
  const char* source = R"(#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
layout(local_size_x = 80) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { uvec4 ids[]; };
layout(binding = 2) writeonly buffer Scans { vec4 scans[]; };
void main() {
  const uint i = gl_GlobalInvocationID.x;
  const float v = x[i];
  ids[i] = uvec4(gl_SubgroupSize, gl_NumSubgroups, gl_SubgroupID, gl_SubgroupInvocationID);
  scans[i] = vec4(subgroupInclusiveAdd(v), subgroupExclusiveAdd(v), subgroupAdd(v),
                  uintBitsToFloat(subgroupBallot(v > 0.0).x));
  if (subgroupShuffleDown(i, 1u) != i + 1u && gl_SubgroupInvocationID != 31u && i % 80u != 79u)
    scans[i].w = 12345.0;
})";
  const uint32_t groups = 2, n = groups * 80;
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> d(-1, 1);
  std::vector<float> x(n);
  for (auto& v : x) v = d(rng) * std::ldexp(1.0f, int(rng() % 20) - 10);  // mixed magnitudes
  auto kernel = dev.kernel(porta::glsl(source, "cpu_lanes"));
  porta::Buffer in = dev.upload(x);
  porta::Buffer ids = dev.buffer(n * 16), scans = dev.buffer(n * 16);
  stream.dispatch(kernel, {groups}, {in, ids, scans});
  const std::vector<uint32_t> id = read<uint32_t>(ids, n * 4);
  const std::vector<float> scan = read<float>(scans, n * 4);
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t local = i % 80, subgroup = local / 32, lane = local % 32, first = i - lane;
    const uint32_t lanes = subgroup == 2 ? 16 : 32;
    ASSERT_EQ(id[i * 4 + 0], 32u) << i;
    ASSERT_EQ(id[i * 4 + 1], 3u) << i;
    ASSERT_EQ(id[i * 4 + 2], subgroup) << i;
    ASSERT_EQ(id[i * 4 + 3], lane) << i;
    // Lane order, one float addition at a time: the same bits as this loop.
    float inclusive = 0, exclusive = 0, total = 0;
    uint32_t ballot = 0;
    for (uint32_t l = 0; l < lanes; ++l) {
      const float v = x[first + l];
      total = l == 0 ? v : total + v;
      if (l < lane) exclusive = l == 0 ? v : exclusive + v;
      if (l <= lane) inclusive = l == 0 ? v : inclusive + v;
      if (v > 0) ballot |= 1u << l;
    }
    EXPECT_EQ(scan[i * 4 + 0], inclusive) << i;
    EXPECT_EQ(scan[i * 4 + 1], exclusive) << i;
    EXPECT_EQ(scan[i * 4 + 2], total) << i;
    uint32_t ballot_bits;
    std::memcpy(&ballot_bits, &scan[i * 4 + 3], 4);
    EXPECT_EQ(ballot_bits, ballot) << i;
  }
}

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  porta::test::skip_process_if_unavailable();
  return RUN_ALL_TESTS();
}
