// The Vulkan backend's check of cooperative matrices against what a device
// lists (backends/vulkan/cooperative_matrix.cpp), with lists as drivers give
// them: no device here has VK_KHR_cooperative_matrix, so the lists are made up
// in the shape NVIDIA's drivers report (float16 and int8 inputs).
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
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

std::vector<uint32_t> spirv(const std::string& name, const char* dir) {
  std::ifstream in(std::string(dir) + "/" + name + ".spv", std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), words.size() * 4);
  return words;
}

// The refusal's message, "" when the module passes. The module: tests/coopmat's
// kernel of that name, or porta's own in `dir` (PORTA_KERNELS_SPIRV).
std::string refusal(const std::vector<CooperativeMatrixPropertiesKHR>& listed, const std::string& kernel,
                    const char* dir = PORTA_COOPMAT_SPIRV) {
  const std::vector<uint32_t> words = spirv(kernel, dir);
  EXPECT_GT(words.size(), 5u) << kernel << " in " << dir;
  try {
    porta::vk::check_cooperative_matrices(listed, "vulkan device 0 (GPU)", words.data(), words.size(), "k");
  } catch (const porta::plugin::Failure& f) {
    EXPECT_EQ(f.status, PORTA_ERROR_UNSUPPORTED);
    return f.what();
  }
  return "";
}

TEST(VulkanCooperativeMatrixList, AnUnlistedMultiplyAddIsRefusedNamingItAndTheList) {
  const std::string why = refusal(kNvidiaLike, "gemm_f32");
  EXPECT_NE(why.find("the cooperative-matrix multiply-add 16x16x16 float32 x float32 + float32 -> float32 at "
                     "Subgroup scope is not one vulkan device 0 (GPU) lists"),
            std::string::npos)
      << why;
  EXPECT_NE(why.find("it lists: 16x16x16 float16 x float16 + float32 -> float32 at Subgroup scope;"),
            std::string::npos)
      << why;
}

TEST(VulkanCooperativeMatrixList, AListedMultiplyAddPasses) {
  std::vector<CooperativeMatrixPropertiesKHR> listed = kNvidiaLike;
  listed.push_back(entry(16, 16, 16, kF32, kF32));
  EXPECT_EQ(refusal(listed, "gemm_f32"), "");
}

TEST(VulkanCooperativeMatrixList, TheInt8ShapeNvidiaListsPasses) {
  EXPECT_EQ(refusal(kNvidiaLike, "int8_signed_muladd"), "");
  // Unsigned B is another multiply-add, which this list lacks.
  const std::string why = refusal(kNvidiaLike, "int8_muladd");
  EXPECT_NE(why.find("16x16x32 int8 x uint8 + int32 -> int32"), std::string::npos) << why;
}

// float16_t A and B with a float accumulator converted to float16_t: listed.
TEST(VulkanCooperativeMatrixList, TheFloat16ShapesNvidiaListsPass) {
  EXPECT_EQ(refusal(kNvidiaLike, "gemm_f16"), "");
  // 32 rows are in no multiply-add NVIDIA lists (tensor cores on CUDA take them).
  const std::string why = refusal(kNvidiaLike, "f16_elementwise");
  EXPECT_NE(why.find("32x16x32 float16 x float16 + float16 -> float16"), std::string::npos) << why;
}

TEST(VulkanCooperativeMatrixList, AMatrixInNoListedMultiplyAddIsRefused) {
  // The integer multiply-add is listed; the float accumulators of the
  // element-wise kernel are in none.
  const std::string why = refusal({entry(16, 8, 32, kS32, kS32)}, "elementwise");
  EXPECT_NE(why.find("the cooperative matrix 16x16 of float32, use accumulator, at Subgroup scope is in no "
                     "multiply-add vulkan device 0 (GPU) lists"),
            std::string::npos)
      << why;
  EXPECT_EQ(
      refusal({entry(16, 8, 32, kS32, kS32), entry(16, 16, 16, kF32, kF32), entry(16, 8, 16, kF32, kF32)},
              "elementwise"),
      "");
}

// VK_NV_cooperative_matrix2's flexible dimensions: workgroup_in_place's
// Workgroup-scope 64x32x16 product runs where a listed granularity divides
// it, in work-groups of the listed size only.
TEST(VulkanCooperativeMatrixList, WorkgroupScopeNeedsAFlexibleEntryOfTheGroupSize) {
  const std::vector<uint32_t> words = spirv("workgroup_in_place", PORTA_COOPMAT_SPIRV);
  const auto why =
      [&](const std::vector<porta::vk::CooperativeMatrixFlexibleDimensionsPropertiesNV>& flexible,
          uint32_t invocations) -> std::string {
    try {
      porta::vk::check_cooperative_matrices(kNvidiaLike, "vulkan device 0 (GPU)", words.data(), words.size(),
                                            "k", flexible, invocations);
    } catch (const porta::plugin::Failure& f) {
      EXPECT_EQ(f.status, PORTA_ERROR_UNSUPPORTED);
      return f.what();
    }
    return "";
  };
  porta::vk::CooperativeMatrixFlexibleDimensionsPropertiesNV entry{};
  entry.sType = porta::vk::kStructureTypeCooperativeMatrixFlexibleDimensionsPropertiesNV;
  entry.MGranularity = entry.NGranularity = entry.KGranularity = 16;
  entry.AType = entry.BType = kF16;
  entry.CType = entry.ResultType = kF32;
  entry.scope = 2;
  entry.workgroupInvocations = 128;
  // Subgroup-scope shapes alone: refused, naming the product.
  std::string text = why({}, 128);
  EXPECT_NE(text.find("64x32x16 float16 x float16 + float32 -> float32 at Workgroup scope in work-groups of "
                      "128 is not one vulkan device 0 (GPU) lists"),
            std::string::npos)
      << text;
  EXPECT_EQ(why({entry}, 128), "");
  // Another group size, or a granularity that does not divide 32 columns.
  text = why({entry}, 256);
  EXPECT_NE(text.find("in work-groups of 256 is not one"), std::string::npos) << text;
  EXPECT_NE(text.find("multiples of 16x16x16 float16 x float16 + float32 -> float32 at Workgroup scope in "
                      "work-groups of 128"),
            std::string::npos)
      << text;
  entry.NGranularity = 64;
  EXPECT_NE(why({entry}, 128), "");
  // gemm_workgroup's sizes are spec constants (1-3), read with the kernel's
  // values: 256 columns are a multiple of 64, 32 (the default) are not.
  const std::vector<uint32_t> sized = spirv("gemm_workgroup", PORTA_COOPMAT_SPIRV);
  const auto sized_why = [&](const std::map<uint32_t, uint32_t>& specs) -> std::string {
    try {
      porta::vk::check_cooperative_matrices(kNvidiaLike, "vulkan device 0 (GPU)", sized.data(), sized.size(),
                                            "k", {entry}, 128, specs);
    } catch (const porta::plugin::Failure& f) {
      return f.what();
    }
    return "";
  };
  EXPECT_EQ(sized_why({{2, 256}}), "");
  text = sized_why({});
  EXPECT_NE(text.find("64x32x16 float16"), std::string::npos) << text;
}

TEST(VulkanCooperativeMatrixList, ADeviceListingNothingRefusesAll) {
  const std::string why = refusal({}, "gemm_f32");
  EXPECT_NE(why.find("(it lists: none)"), std::string::npos) << why;
}

// porta's cooperative-matrix GEMM (kernels/matmul/matmul_coop.comp, built by
// kernels/): the launcher runs a variant where this check passes and falls
// back to matmul.comp where it refuses.
TEST(GemmCoopmatList, Float16VariantRunsOnTheShapeNvidiaLists) {
  EXPECT_EQ(refusal(kNvidiaLike, "matmul_coop_f16", PORTA_KERNELS_SPIRV), "");
}

TEST(GemmCoopmatList, Float16VariantIsRefusedWithoutItsShape) {
  const std::vector<CooperativeMatrixPropertiesKHR> listed = {entry(16, 8, 16, kF16, kF32),
                                                              entry(16, 16, 16, kF16, kF16)};
  const std::string why = refusal(listed, "matmul_coop_f16", PORTA_KERNELS_SPIRV);
  EXPECT_NE(why.find("16x16x16 float16 x float16 + float32 -> float32 at Subgroup scope is not one"),
            std::string::npos)
      << why;
}

// No float32 inputs in NVIDIA's list: bfloat16 and TF32 GEMMs fall back to
// matmul.comp there; a device listing them runs the variant.
TEST(GemmCoopmatList, Float32VariantNeedsFloat32Inputs) {
  const std::string why = refusal(kNvidiaLike, "matmul_coop_f32", PORTA_KERNELS_SPIRV);
  EXPECT_NE(why.find("16x16x16 float32 x float32 + float32 -> float32 at Subgroup scope is not one"),
            std::string::npos)
      << why;
  std::vector<CooperativeMatrixPropertiesKHR> listed = kNvidiaLike;
  listed.push_back(entry(16, 16, 16, kF32, kF32));
  EXPECT_EQ(refusal(listed, "matmul_coop_f32", PORTA_KERNELS_SPIRV), "");
}

// The bfloat16 variant (the float16 one's module with bfloat16 matrices):
// refused where the device lists only float16 shapes, run where it lists
// 16x16x16 bfloat16 into float32 (NVIDIA's drivers with VK_KHR_shader_bfloat16).
TEST(GemmCoopmatList, Bfloat16VariantNeedsBfloat16Matrices) {
  if (!std::ifstream(std::string(PORTA_KERNELS_SPIRV) + "/matmul_coop_bf16.spv"))
    GTEST_SKIP() << "matmul_coop_bf16 is not built (no spirv-as beside spirv-val; kernels/CMakeLists.txt)";
  const std::string why = refusal(kNvidiaLike, "matmul_coop_bf16", PORTA_KERNELS_SPIRV);
  EXPECT_NE(why.find("16x16x16 bfloat16 x bfloat16 + float32 -> float32 at Subgroup scope is not one"),
            std::string::npos)
      << why;
  std::vector<CooperativeMatrixPropertiesKHR> listed = kNvidiaLike;
  listed.push_back(entry(16, 16, 16, porta::vk::kComponentBfloat16, kF32));
  EXPECT_EQ(refusal(listed, "matmul_coop_bf16", PORTA_KERNELS_SPIRV), "");
}

}  // namespace
