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
  // `kind` (the device's subgroup features allow no other reason).
  void expect_all_checks_pass(const std::string& file, const std::string& kind = "subgroup") {
    if (!supported()) GTEST_SKIP() << dev.name() << " has no subgroup operations";
    std::string reason;
    auto kernel = kernel_or_skip_reason(read_kernel(file), file, reason);
    if (!kernel) {
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
  expect_all_checks_pass("divergent_operations.comp");
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
