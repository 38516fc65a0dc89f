// The Vulkan plugin enables what a module declares and refuses what the
// device lacks (backends/vulkan/capabilities.cpp): a module whose capability
// the device does not have is refused before the driver sees it, with the
// capability, the Vulkan feature and the device named; instructions that
// change no result (SPV_KHR_expect_assume) run where the device lacks their
// extension; kernels whose features the device has build. ctest runs this
// under the validation layer: any message fails it.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "vulkan_fixture.hpp"

namespace porta::test {
namespace {

class VulkanCapabilities : public VulkanPluginTest {};

std::vector<uint32_t> read_spirv(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), words.size() * 4);
  return words;
}

// spirv/expect_assume.spvasm, assembled by the build: OpAssumeTrueKHR and
// OpExpectKHR in a kernel that doubles and increments the first n words.
TEST_F(VulkanCapabilities, ExpectAssumeRunsWithOrWithoutTheExtension) {
  const std::vector<uint32_t> spirv = read_spirv(PORTA_TEST_SPIRV_DIR "/expect_assume.spv");
  ASSERT_GT(spirv.size(), 5u) << "no SPIR-V at " PORTA_TEST_SPIRV_DIR "/expect_assume.spv";
  porta_kernel_buffer_desc data{};
  data.binding = 0;
  data.access = PORTA_ACCESS_READ_WRITE;
  porta_kernel_desc desc{};
  desc.spirv = spirv.data();
  desc.spirv_words = spirv.size();
  desc.entry_point = "main";
  desc.name = "expect_assume";
  desc.buffer_count = 1;
  desc.buffers = &data;
  desc.push_constant_size = 4;
  desc.workgroup_size[0] = 64;
  desc.workgroup_size[1] = desc.workgroup_size[2] = 1;
  porta_plugin_kernel k = kernel(desc);
  ASSERT_NE(k, nullptr);

  const uint32_t words = 256, n = 200;
  std::vector<uint32_t> input(words);
  for (uint32_t i = 0; i < words; ++i) input[i] = i * 7 + 3;
  porta_plugin_buffer b = buffer(words * 4);
  write(b, input.data(), words * 4);
  struct {
    uint32_t n;
  } push{n};
  dispatch(k, words / 64, {b}, push);
  std::vector<uint32_t> got(words);
  read(b, got.data(), words * 4);
  sync();
  for (uint32_t i = 0; i < words; ++i) ASSERT_EQ(got[i], i < n ? input[i] * 2 + 1 : input[i]) << "word " << i;
}

// What a device lacks is refused with the capability, the feature and the
// device named; where the device has it, the same kernel builds.
struct Lacking {
  const char* what;
  const char* glsl;
  const char* capability;
  const char* feature;
};

const Lacking kLacking[] = {
    {"clustered subgroup operations", R"(#version 450
#extension GL_KHR_shader_subgroup_clustered : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { uint d[]; };
void main() { d[gl_GlobalInvocationID.x] = subgroupClusteredAdd(d[gl_GlobalInvocationID.x], 4u); }
)",
     "GroupNonUniformClustered", "VK_SUBGROUP_FEATURE_CLUSTERED_BIT"},
    {"16-bit float atomic add", R"(#version 450
#extension GL_EXT_shader_atomic_float2 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { float16_t sum; };
void main() { atomicAdd(sum, float16_t(1.0)); }
)",
     "AtomicFloat16AddEXT", "shaderBufferFloat16AtomicAdd"},
};

TEST_F(VulkanCapabilities, RefusesWhatTheDeviceLacksNamingIt) {
  int refused = 0;
  for (const Lacking& l : kLacking) {
    SCOPED_TRACE(l.what);
    auto source = glsl(l.glsl, "lacking");
    porta_plugin_kernel k = nullptr;
    const porta_status status = try_kernel(source->desc(), &k);
    if (status == PORTA_SUCCESS) continue;  // the device has it
    ++refused;
    EXPECT_EQ(status, PORTA_ERROR_UNSUPPORTED) << error();
    const std::string message = error();
    EXPECT_NE(message.find(l.capability), std::string::npos) << message;
    EXPECT_NE(message.find(l.feature), std::string::npos) << message;
    EXPECT_NE(message.find(info.name), std::string::npos) << message;
  }
  // lavapipe has neither: there the refusals are what is tested.
  if (std::string(info.name).find("llvmpipe") != std::string::npos) {
    EXPECT_EQ(refused, static_cast<int>(std::size(kLacking))) << info.name << " was expected to lack both";
  }
}

// Kernels whose capabilities map to features: each builds where the device has
// them (lavapipe has all of these), or is refused naming what it lacks.
const char* const kHaving[] = {
    R"(#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_atomic_int64 : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { uint64_t v[]; };
void main() { atomicAdd(v[0], uint64_t(gl_GlobalInvocationID.x)); }
)",
    R"(#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { uint v[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  v[i] = subgroupAdd(v[i]) + subgroupBallotBitCount(subgroupBallot(v[i] > 3u));
}
)",
    R"(#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_atomic_float : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { float16_t h[64]; uint8_t b[64]; float sum; };
void main() {
  uint i = gl_LocalInvocationID.x;
  h[i] = h[i] * float16_t(2.0);
  b[i] = b[i] + uint8_t(1);
  atomicAdd(sum, 1.0);
}
)",
};

TEST_F(VulkanCapabilities, BuildsWhatTheDeviceHas) {
  const bool llvmpipe = std::string(info.name).find("llvmpipe") != std::string::npos;
  for (const char* source : kHaving) {
    SCOPED_TRACE(source);
    auto k = glsl(source, "having");
    porta_plugin_kernel out = nullptr;
    const porta_status status = try_kernel(k->desc(), &out);
    if (llvmpipe || status != PORTA_ERROR_UNSUPPORTED) {
      EXPECT_EQ(status, PORTA_SUCCESS) << error();
    } else {
      EXPECT_NE(error().find("does not have"), std::string::npos) << error();
    }
  }
}

}  // namespace
}  // namespace porta::test
