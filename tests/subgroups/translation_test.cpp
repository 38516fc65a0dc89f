// What the translator makes of subgroup operations, target by target: the
// CPU's sites and loop counters (and nothing of them in kernels without
// subgroup operations), the OpenCL extensions each kind of operation
// enables, and the refusals.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "porta_translator/translator.hpp"

namespace {

namespace pt = porta::translator;

std::string translated(const std::string& glsl, pt::Target target, bool readable = false,
                       uint32_t subgroup_size = 0) {
  const std::vector<uint32_t> spirv =
      pt::prepare(pt::compile_glsl(glsl, "kernel.comp"), {.readable = readable, .target = target});
  return pt::translate(spirv, {target, {}, subgroup_size}).source;
}

// A kernel of 64 work-items with the GL_KHR_shader_subgroup_* extensions
// named in `extensions` ("arithmetic clustered"), one buffer D { element d[]; }
// and `main` as its body.
std::string kernel(const std::string& extensions, const std::string& element, const std::string& main) {
  std::string glsl = "#version 450\n";
  for (size_t at = 0; at < extensions.size();) {
    const size_t end = std::min(extensions.find(' ', at), extensions.size());
    glsl += "#extension GL_KHR_shader_subgroup_" + extensions.substr(at, end - at) + " : require\n";
    at = end + 1;
  }
  return glsl + "layout(local_size_x = 64) in;\nlayout(binding = 0) buffer D { " + element +
         " d[]; };\nvoid main() {\n" + main + "\n}\n";
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Each of `parts` is in `text`.
void expect_has(const std::string& text, std::initializer_list<std::string> parts) {
  for (const std::string& part : parts) EXPECT_TRUE(has(text, part)) << "no '" << part << "' in:\n" << text;
}

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
  const std::string cpp = translated(kernel("arithmetic", "uint", R"(
  uint acc = subgroupAdd(1u);
  for (uint i = 0u; i < d[0]; ++i)
    for (uint j = 0u; j < gl_SubgroupInvocationID; ++j)
      acc += subgroupMax(j);
  d[gl_GlobalInvocationID.x] = acc;)"),
                                     pt::Target::Cpp, true);
  expect_has(cpp,
             {"subgroupAdd<uint>({0u}, 1u)", "subgroupMax<uint>({1u, porta_loop_0, 2u, porta_loop_1, 3u}"});
  EXPECT_TRUE(has(cpp, "porta_loop_1 = 0u;")) << cpp;  // reset where the inner loop ends
}

TEST(SubgroupTranslation, OpenclEnablesTheExtensionsOfTheOperationsUsed) {
  const std::string shuffle =
      translated(kernel("shuffle", "vec2",
                        "d[gl_GlobalInvocationID.x] = subgroupShuffleXor(d[gl_GlobalInvocationID.x], 1u);"),
                 pt::Target::OpenCL);
  // No pragma: these extensions take none (clang warns of one).
  expect_has(shuffle, {"// requires OpenCL extension: cl_khr_subgroups\n",
                       "// requires OpenCL extension: cl_khr_subgroup_shuffle\n"});
  EXPECT_FALSE(has(shuffle, "#pragma OPENCL EXTENSION")) << shuffle;
  EXPECT_FALSE(has(shuffle, "cl_khr_subgroup_ballot")) << shuffle;
  // A vector goes component by component.
  EXPECT_TRUE(has(shuffle, "sub_group_shuffle_xor(")) << shuffle;

  const std::string arithmetic = translated(
      kernel("arithmetic clustered", "int",
             "d[gl_GlobalInvocationID.x] = subgroupExclusiveMin(d[0]) + subgroupClusteredAdd(d[1], 4u);"),
      pt::Target::OpenCL);
  // The non-uniform forms: exact where control flow diverges.
  expect_has(arithmetic, {"sub_group_non_uniform_scan_exclusive_min(", "sub_group_clustered_reduce_add(",
                          "extension: cl_khr_subgroup_non_uniform_arithmetic\n",
                          "extension: cl_khr_subgroup_clustered_reduce\n"});
}

TEST(SubgroupTranslation, CudaUsesTheActiveLanesOfTheWarp) {
  const std::string cuda =
      translated(kernel("ballot", "uvec4",
                        "d[gl_GlobalInvocationID.x] = subgroupBallot(d[0].x > gl_SubgroupInvocationID);"),
                 pt::Target::Cuda);
  expect_has(cuda, {"subgroupBallot(", "__ballot_sync(__activemask(), value)"});
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

TEST(SubgroupTranslation, OpenclSubgroupsOfOneWorkItemNeedNoExtension) {
  // Every kind of operation, for a device whose subgroups have one work-item.
  const std::string opencl =
      translated(kernel("vote ballot arithmetic shuffle shuffle_relative clustered quad", "int", R"(
  const uint i = gl_GlobalInvocationID.x;
  const uvec4 b = subgroupBallot(d[i] > 0);
  d[i] = subgroupExclusiveMin(d[i]) + subgroupExclusiveMax(d[i]) + subgroupClusteredAdd(d[i], 4u) +
         subgroupShuffleXor(d[i], 1u) + subgroupShuffleDown(d[i], 2u) + subgroupQuadSwapDiagonal(d[i]) +
         int(subgroupBallotExclusiveBitCount(b) + subgroupBallotFindMSB(b)) + int(subgroupAllEqual(d[i])) +
         int(subgroupBallotBitExtract(b, i)) + int(gl_SubgroupSize + gl_SubgroupInvocationID + gl_NumSubgroups + gl_SubgroupID);
  if (subgroupElect()) subgroupBarrier();
  const vec2 f = subgroupExclusiveMin(vec2(d[i], 1.0));
  if (subgroupAllEqual(f)) d[i] = 0;)"),
                 pt::Target::OpenCL, false, 1);
  EXPECT_FALSE(has(opencl, "sub_group_")) << opencl;
  EXPECT_FALSE(has(opencl, "requires OpenCL extension")) << opencl;
  expect_has(opencl, {"// Subgroups of one work-item", "const uint gl_SubgroupSize = (uint)(1u);",
                      "const uint gl_SubgroupInvocationID = (uint)(0u);"});
  EXPECT_TRUE(
      has(opencl,
          "const uint gl_NumSubgroups = (uint)(get_local_size(0) * get_local_size(1) * get_local_size(2));"))
      << opencl;
  // Exclusive scans: the identity of the operation and type, splat for a vector.
  expect_has(opencl, {"((int)(INT_MAX))", "((int)(INT_MIN))", "((float2)(INFINITY))"});
  // A ballot has bit 0 alone; any ballot's bit is read exactly.
  expect_has(opencl, {" ? 1u : 0u, 0u, 0u, 0u))", "bool porta_ballot_bit_extract(uint4 ballot, uint index)"});
  // A float equals itself unless it is NaN, as the other backends compare.
  expect_has(opencl, {"(!any(isnan(", "mem_fence(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);"});

  // Without the size, the same kernel needs the extensions.
  const std::string native =
      translated(kernel("arithmetic", "int", "d[0] = subgroupExclusiveMin(d[1]);"), pt::Target::OpenCL);
  EXPECT_TRUE(has(native, "// requires OpenCL extension: cl_khr_subgroup_non_uniform_arithmetic\n"))
      << native;
}

TEST(SubgroupTranslation, CpuAndCudaRefuseSubgroupsOfOneInvocation) {
  const std::string with = kernel("arithmetic", "uint", "d[0] = subgroupAdd(d[1]);");
  const std::string without = kernel("", "uint", "d[gl_GlobalInvocationID.x] = 1u;");
  for (pt::Target target : {pt::Target::Cpp, pt::Target::Cuda}) {
    // A kernel without subgroup operations does not care.
    EXPECT_FALSE(translated(without, target, false, 1).empty()) << pt::target_name(target);
    try {
      translated(with, target, false, 1);
      ADD_FAILURE() << pt::target_name(target) << " translated for subgroups of one invocation";
    } catch (const pt::Error& e) {
      EXPECT_EQ(e.kind, pt::Error::Kind::UnsupportedFeature);
      EXPECT_TRUE(has(e.what(), "subgroups of one invocation")) << e.what();
    }
  }
}

}  // namespace
