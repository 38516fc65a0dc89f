// porta's cooperative-matrix GEMM (kernels/matmul/matmul_coop.comp) against
// the lists of shapes a Vulkan device reports, through the Vulkan backend's own
// check (backends/vulkan/cooperative_matrix.cpp): the lists are made up in the
// shape NVIDIA's drivers report (float16 and int8 inputs, no float32 ones), as
// no device here has VK_KHR_cooperative_matrix. The launcher runs a variant
// where the check passes and falls back to matmul.comp where it refuses.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "cooperative_matrix.hpp"
#include "porta/porta.h"

namespace {

using porta::vk::CooperativeMatrixPropertiesKHR;

constexpr uint32_t kF16 = 0, kF32 = 1, kS8 = 3, kS32 = 5, kSubgroup = 3;

CooperativeMatrixPropertiesKHR entry(uint32_t m, uint32_t n, uint32_t k, uint32_t a, uint32_t c) {
  CooperativeMatrixPropertiesKHR p{};
  p.sType = porta::vk::kStructureTypeCooperativeMatrixPropertiesKHR;
  p.MSize = m, p.NSize = n, p.KSize = k;
  p.AType = p.BType = a;
  p.CType = p.ResultType = c;
  p.scope = kSubgroup;
  return p;
}

const std::vector<CooperativeMatrixPropertiesKHR> kNvidiaLike = {
    entry(16, 16, 16, kF16, kF32), entry(16, 8, 16, kF16, kF32), entry(16, 16, 16, kF16, kF16),
    entry(16, 16, 32, kS8, kS32), entry(16, 8, 32, kS8, kS32)};

std::vector<uint32_t> spirv(const std::string& name) {
  std::ifstream in(std::string(PORTA_KERNELS_SPIRV) + "/" + name + ".spv", std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), words.size() * 4);
  return words;
}

// The refusal's message, "" when the module passes.
std::string refusal(const std::vector<CooperativeMatrixPropertiesKHR>& listed, const std::string& kernel) {
  const std::vector<uint32_t> words = spirv(kernel);
  EXPECT_GT(words.size(), 5u) << kernel << " was not found in " << PORTA_KERNELS_SPIRV;
  try {
    porta::vk::check_cooperative_matrices(listed, "vulkan device 0 (GPU)", words.data(), words.size(),
                                          kernel);
  } catch (const porta::plugin::Failure& f) {
    EXPECT_EQ(f.status, PORTA_ERROR_UNSUPPORTED);
    return f.what();
  }
  return "";
}

TEST(GemmCoopmatList, Float16VariantRunsOnTheShapeNvidiaLists) {
  EXPECT_EQ(refusal(kNvidiaLike, "matmul_coop_f16"), "");
}

TEST(GemmCoopmatList, Float16VariantIsRefusedWithoutItsShape) {
  const std::vector<CooperativeMatrixPropertiesKHR> listed = {entry(16, 8, 16, kF16, kF32),
                                                              entry(16, 16, 16, kF16, kF16)};
  const std::string why = refusal(listed, "matmul_coop_f16");
  EXPECT_NE(why.find("16x16x16 float16 x float16 + float32 -> float32 at Subgroup scope is not one"),
            std::string::npos)
      << why;
}

// No float32 inputs in NVIDIA's list: bfloat16 and TF32 GEMMs fall back to
// matmul.comp there; a device listing them runs the variant.
TEST(GemmCoopmatList, Float32VariantNeedsFloat32Inputs) {
  const std::string why = refusal(kNvidiaLike, "matmul_coop_f32");
  EXPECT_NE(why.find("16x16x16 float32 x float32 + float32 -> float32 at Subgroup scope is not one"),
            std::string::npos)
      << why;
  std::vector<CooperativeMatrixPropertiesKHR> listed = kNvidiaLike;
  listed.push_back(entry(16, 16, 16, kF32, kF32));
  EXPECT_EQ(refusal(listed, "matmul_coop_f32"), "");
}

}  // namespace
