// What the translator makes of subgroup operations, target by target: the
// CPU's sites and loop counters (and nothing of them in kernels without
// subgroup operations), the OpenCL extensions each kind of operation
// enables, and the refusals.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "porta_translator/translator.hpp"

namespace {

namespace pt = porta::translator;

std::string translated(const std::string& glsl, pt::Target target, bool readable = false) {
  const std::vector<uint32_t> spirv =
      pt::prepare(pt::compile_glsl(glsl, "kernel.comp"), {.readable = readable, .target = target});
  return pt::translate(spirv, {target, {}}).source;
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(SubgroupTranslation, KernelsWithoutSubgroupOperationsGetNoneOfTheirMachinery) {
  // A loop and a barrier: what the CPU's subgroup machinery would count.
  const std::string cpp = translated(R"(#version 450
layout(local_size_x = 64) in;
layout(binding = 0) buffer D { float d[]; };
shared float s[64];
void main() {
  float acc = 0.0;
  for (uint k = 0u; k < 8u; ++k) { s[gl_LocalInvocationIndex] = d[k]; barrier(); acc += s[(gl_LocalInvocationIndex + k) % 64u]; barrier(); }
  d[gl_GlobalInvocationID.x] = acc;
})",
                                     pt::Target::Cpp);
  EXPECT_FALSE(has(cpp, "porta_loop_")) << cpp;
  EXPECT_FALSE(has(cpp, "porta_subgroup")) << cpp;
  EXPECT_TRUE(has(cpp, "porta_scheduler->barrier(porta_scheduler->self);")) << cpp;
}

TEST(SubgroupTranslation, CpuSitesCarryTheIterationsOfTheLoopsAroundThem) {
  const std::string cpp = translated(R"(#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 64) in;
layout(binding = 0) buffer D { uint d[]; };
void main() {
  uint acc = subgroupAdd(1u);
  for (uint i = 0u; i < d[0]; ++i)
    for (uint j = 0u; j < gl_SubgroupInvocationID; ++j)
      acc += subgroupMax(j);
  d[gl_GlobalInvocationID.x] = acc;
})",
                                     pt::Target::Cpp, true);
  EXPECT_TRUE(has(cpp, "subgroupAdd<uint>({0u}, 1u)")) << cpp;
  EXPECT_TRUE(has(cpp, "subgroupMax<uint>({1u, porta_loop_0, 2u, porta_loop_1, 3u}")) << cpp;
  EXPECT_TRUE(has(cpp, "porta_loop_1 = 0u;")) << cpp;  // reset where the inner loop ends
}

TEST(SubgroupTranslation, OpenclEnablesTheExtensionsOfTheOperationsUsed) {
  const std::string shuffle = translated(R"(#version 450
#extension GL_KHR_shader_subgroup_shuffle : require
layout(local_size_x = 64) in;
layout(binding = 0) buffer D { vec2 d[]; };
void main() { d[gl_GlobalInvocationID.x] = subgroupShuffleXor(d[gl_GlobalInvocationID.x], 1u); })",
                                         pt::Target::OpenCL);
  // No pragma: these extensions take none (clang warns of one).
  EXPECT_TRUE(has(shuffle, "// requires OpenCL extension: cl_khr_subgroups\n")) << shuffle;
  EXPECT_TRUE(has(shuffle, "// requires OpenCL extension: cl_khr_subgroup_shuffle\n")) << shuffle;
  EXPECT_FALSE(has(shuffle, "#pragma OPENCL EXTENSION")) << shuffle;
  EXPECT_FALSE(has(shuffle, "cl_khr_subgroup_ballot")) << shuffle;
  // A vector goes component by component.
  EXPECT_TRUE(has(shuffle, "sub_group_shuffle_xor(")) << shuffle;

  const std::string arithmetic = translated(R"(#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_clustered : require
layout(local_size_x = 64) in;
layout(binding = 0) buffer D { int d[]; };
void main() { d[gl_GlobalInvocationID.x] = subgroupExclusiveMin(d[0]) + subgroupClusteredAdd(d[1], 4u); })",
                                            pt::Target::OpenCL);
  // The non-uniform forms: exact where control flow diverges.
  EXPECT_TRUE(has(arithmetic, "sub_group_non_uniform_scan_exclusive_min(")) << arithmetic;
  EXPECT_TRUE(has(arithmetic, "sub_group_clustered_reduce_add(")) << arithmetic;
  EXPECT_TRUE(has(arithmetic, "extension: cl_khr_subgroup_non_uniform_arithmetic\n")) << arithmetic;
  EXPECT_TRUE(has(arithmetic, "extension: cl_khr_subgroup_clustered_reduce\n")) << arithmetic;
}

TEST(SubgroupTranslation, CudaUsesTheActiveLanesOfTheWarp) {
  const std::string cuda = translated(R"(#version 450
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 64) in;
layout(binding = 0) buffer D { uvec4 d[]; };
void main() { d[gl_GlobalInvocationID.x] = subgroupBallot(d[0].x > gl_SubgroupInvocationID); })",
                                      pt::Target::Cuda);
  EXPECT_TRUE(has(cuda, "subgroupBallot(")) << cuda;
  EXPECT_TRUE(has(cuda, "__ballot_sync(__activemask(), value)")) << cuda;
}

TEST(SubgroupTranslation, CpuInlinesOrRefusesOperationsInHelperFunctions) {
  const char* glsl = R"(#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 64) in;
layout(binding = 0) buffer D { uint d[]; };
uint total(uint x) { return subgroupAdd(x); }
void main() { d[gl_GlobalInvocationID.x] = total(d[gl_GlobalInvocationID.x]); })";
  // Readable, for target cpp, a module with subgroup operations is inlined.
  const std::string readable = translated(glsl, pt::Target::Cpp, true);
  EXPECT_TRUE(has(readable, "subgroupAdd<uint>({0u}")) << readable;
  EXPECT_FALSE(has(readable, "uint total(")) << readable;
  // Not inlined at all (SPIR-V as it comes), the operation is refused by name.
  try {
    pt::translate(pt::compile_glsl(glsl, "kernel.comp"), {pt::Target::Cpp, {}});
    ADD_FAILURE() << "translated a subgroup operation in a helper function";
  } catch (const pt::Error& e) {
    EXPECT_EQ(e.kind, pt::Error::Kind::UnsupportedFeature);
    EXPECT_TRUE(has(e.what(), "outside the entry point")) << e.what();
  }
}

}  // namespace
