// The translator's tensor-core lowering (translator/README.md, "Tensor
// cores"): which modules map onto mma.sync, what target cuda makes of them,
// and that no other target runs a module lowered for them (its multiply-adds
// are placeholders there: a wrong answer, never allowed).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "porta_translator/translator.hpp"

namespace {

namespace tr = porta::translator;

std::vector<uint32_t> spirv(const std::string& name, const char* dir = PORTA_COOPMAT_SPIRV) {
  std::ifstream in(std::string(dir) + "/" + name + ".spv", std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), words.size() * 4);
  EXPECT_GT(words.size(), 5u) << name;
  return words;
}

tr::TranslateOptions target_options(tr::Target target) {
  tr::TranslateOptions options;
  options.target = target;
  return options;
}

std::vector<uint32_t> for_tensor_cores(const std::vector<uint32_t>& words) {
  tr::PrepareOptions options;
  options.tensor_cores = true;
  return tr::prepare(words, options);
}

TEST(TensorCores, Float16AndInt8MatricesMapAndTargetCudaCallsMmaSync) {
  for (const char* name : {"gemm_f16", "f16_elementwise", "int8_signed_muladd"}) {
    EXPECT_EQ(tr::tensor_core_mismatch(spirv(name)), "") << name;
    const std::string source =
        tr::translate(for_tensor_cores(spirv(name)), target_options(tr::Target::Cuda)).source;
    EXPECT_NE(source.find("porta_mma_sync<"), std::string::npos) << name;
  }
  // A 32 x 16 x 32 multiply-add: two tiles of rows, columns and K.
  const std::string source =
      tr::translate(for_tensor_cores(spirv("f16_elementwise")), target_options(tr::Target::Cuda)).source;
  EXPECT_NE(source.find("porta_mma_sync<coopmat32x16_accumulator, 32, 16, 32>("), std::string::npos);
  // Signed A, unsigned B: each operand's signedness reaches mma.sync.
  const std::string int8 =
      tr::translate(for_tensor_cores(spirv("int8_muladd")), target_options(tr::Target::Cuda)).source;
  EXPECT_NE(int8.find("porta_mma_sync<coopmat16x16_accumulator, 16, 16, 32, true, false>("),
            std::string::npos);
}

// Workgroup-scope matrices: on tensor cores only through sm_90's warpgroup
// MMA (gemm_workgroup in groups of 128 items, not 96); elsewhere, spread over
// the group where its size is known (every store its own item's elements, the
// multiply-add through two shared arrays between work-group barriers), else
// whole in each item, with a work-group barrier before each store
// (workgroup_in_place, its group sized by spec constant 0).
TEST(WorkgroupMatrices, WarpgroupsOnSm90ElseSpreadOrWholeInEachItem) {
  std::vector<uint32_t> words = spirv("gemm_workgroup");
  EXPECT_TRUE(tr::uses_workgroup_matrices(words));
  EXPECT_FALSE(tr::uses_workgroup_matrices(spirv("gemm_f16")));
  EXPECT_NE(tr::tensor_core_mismatch(words, {{0, 128}})
                .find("a matrix of Workgroup scope (mma.sync's fragments are "
                      "one subgroup's; wgmma, sm_90's, takes a warpgroup's)"),
            std::string::npos);
  // sm_90's warpgroup MMA: groups of 128 items map (A and C of 64 rows), 96 do not.
  EXPECT_EQ(tr::tensor_core_mismatch(words, {{0, 128}}, false, true), "");
  EXPECT_NE(tr::tensor_core_mismatch(words, {{0, 96}}, false, true)
                .find("in work-groups of 96 items (wgmma takes warpgroups of 128)"),
            std::string::npos);
  tr::PrepareOptions options;
  options.tensor_cores = true;
  options.warpgroups = true;
  options.specs = {{0, 128}};
  const std::string source =
      tr::translate(tr::prepare(words, options), target_options(tr::Target::Cuda)).source;
  EXPECT_NE(source.find("porta_wgmma<coopmat64x32_accumulator, 64, 32, 16>("), std::string::npos);
  words = spirv("workgroup_in_place");
  struct Counts {
    int workgroup_barriers = 0, shared_arrays = 0, local_index = 0, literal_size = 0;
  };
  const auto count = [](const std::vector<uint32_t>& module) {
    Counts c;
    std::vector<uint32_t> twos;  // constants of value 2: Workgroup scope
    for (size_t at = 5; at < module.size(); at += module[at] >> 16) {
      const uint32_t opcode = module[at] & 0xffff;
      const uint32_t* o = &module[at + 1];
      if (opcode == 43 && o[2] == 2) twos.push_back(o[1]);  // OpConstant 2
      if (opcode == 224 && std::count(twos.begin(), twos.end(), o[0]))
        ++c.workgroup_barriers;                                       // OpControlBarrier
      if (opcode == 59 && o[2] == 4) ++c.shared_arrays;               // OpVariable Workgroup
      if (opcode == 71 && o[1] == 11 && o[2] == 29) ++c.local_index;  // BuiltIn LocalInvocationIndex
      if (opcode == 16 && o[1] == 17) c.literal_size = int(o[2]);     // LocalSize
    }
    return c;
  };
  const Counts whole = count(tr::lower_cooperative_matrix(words));
  EXPECT_EQ(whole.shared_arrays, 0);
  EXPECT_EQ(whole.local_index, 0);
  EXPECT_EQ(whole.workgroup_barriers, 1);  // before the store
  for (uint32_t items : {128u, 96u}) {
    const Counts spread = count(tr::lower_cooperative_matrix(words, {{0, items}}, true));
    EXPECT_EQ(spread.shared_arrays, 2) << items;
    EXPECT_EQ(spread.local_index, 1) << items;
    EXPECT_EQ(spread.workgroup_barriers, 2) << items;  // in the multiply-add, none before the store
    EXPECT_EQ(spread.literal_size, int(items));
  }
}

// What `work` refuses (UnsupportedFeature) contains `expected`.
template <class Work>
void expect_refused(Work work, const std::string& expected) {
  try {
    work();
    ADD_FAILURE() << "accepted; expected a refusal saying: " << expected;
  } catch (const tr::Error& e) {
    EXPECT_EQ(e.kind, tr::Error::Kind::UnsupportedFeature);
    EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
  }
}

// A work-group size from spec constants: the values the kernel is translated
// with decide, and the lowered module has that size as literals.
TEST(TensorCores, SpecSizedWorkGroupsTakeTheTranslationsValues) {
  const std::vector<uint32_t> words = spirv("gemm_f16_shared");
  EXPECT_EQ(tr::tensor_core_mismatch(words), "");  // the default, 64
  EXPECT_EQ(tr::tensor_core_mismatch(words, {{0, 96}, {1, 3}}), "");
  EXPECT_NE(tr::tensor_core_mismatch(words, {{0, 48}}).find("work-groups of 48 invocations"),
            std::string::npos);
  tr::PrepareOptions options;
  options.tensor_cores = true;
  options.specs = {{0, 96}, {1, 3}};
  const std::vector<uint32_t> lowered = tr::prepare(words, options);
  uint32_t size[3] = {};
  tr::resolve_local_size(tr::reflect(lowered), {}, size);
  EXPECT_EQ(size[0] * size[1] * size[2], 96u);
  tr::TranslateOptions translate = target_options(tr::Target::Cuda);
  translate.specs = options.specs;
  const std::string source = tr::translate(lowered, translate).source;
  EXPECT_NE(source.find("porta_mma_sync<"), std::string::npos);
  // The staged slices through porta_cuda.h's fragment loads (ldmatrix), the
  // accumulator's store likewise; their arrays start on 16 bytes.
  EXPECT_NE(source.find("porta_fragment_load<coopmat16x16_a, 16, 16, 0, false>("), std::string::npos)
      << source;
  EXPECT_NE(source.find("porta_fragment_load<coopmat16x16_b, 16, 16, 1, false>("), std::string::npos);
  EXPECT_NE(source.find("porta_fragment_store<16, 16, 2, true>("), std::string::npos);
  EXPECT_NE(source.find("alignas(16) float16_t sa["), std::string::npos);
  expect_refused(
      [&] {
        tr::lower_cooperative_matrix_to_warp_fragments(words, {{0, 48}});
      },
      "work-groups of 48 invocations");
}

// float32 A and B map at TF32 (m16n8k8) only where the kernel allows it.
TEST(TensorCores, Float32MatricesMapAtTf32OnlyWhereAllowed) {
  const std::vector<uint32_t> words = spirv("gemm_f32");
  EXPECT_NE(tr::tensor_core_mismatch(words).find("only where the kernel allows TF32"), std::string::npos);
  EXPECT_EQ(tr::tensor_core_mismatch(words, {}, true), "");
  tr::PrepareOptions options;
  options.tensor_cores = true;
  options.tf32 = true;
  const std::string source =
      tr::translate(tr::prepare(words, options), target_options(tr::Target::Cuda)).source;
  EXPECT_NE(source.find("porta_mma_sync<coopmat16x16_accumulator, 16, 16, 16>("), std::string::npos)
      << source;
  // A float16 accumulator has no TF32 instruction.
  EXPECT_EQ(tr::tensor_core_mismatch(spirv("gemm_f16"), {}, true), "");
}

TEST(TensorCores, WhatDoesNotMapSaysWhy) {
  EXPECT_NE(tr::tensor_core_mismatch(spirv("gemm_f32")).find("a 16x16 float32 A matrix"), std::string::npos);
  EXPECT_NE(tr::tensor_core_mismatch(spirv("elementwise")).find("a 16x32 int32 A matrix"), std::string::npos);
  expect_refused([] { tr::lower_cooperative_matrix_to_warp_fragments(spirv("gemm_f32")); },
                 "tensor cores cannot run a 16x16 float32 A matrix");
}

TEST(TensorCores, OtherTargetsRefuseTheTensorCoreLowering) {
  const std::vector<uint32_t> lowered = for_tensor_cores(spirv("gemm_f16"));
  for (tr::Target target : {tr::Target::Cpp, tr::Target::OpenCL})
    expect_refused([&] { tr::translate(lowered, target_options(target)); },
                   "cooperative matrices lowered for tensor cores");
}

// porta's bfloat16 GEMM variant (matmul_coop_bf16, the float16 variant's
// module with SPV_KHR_bfloat16 matrices): its interface reads as the float16
// variant's, spec constants applied too, and asks for bfloat16; the translated
// targets lower it (bfloat16 as uint16_t bits), on CUDA's tensor cores as
// mma.sync's bf16 products.
TEST(BfloatMatrices, InterfaceReadsAndTranslatedTargetsLowerThem) {
  if (!std::ifstream(std::string(PORTA_KERNELS_SPIRV) + "/matmul_coop_bf16.spv"))
    GTEST_SKIP() << "matmul_coop_bf16 is not built (no spirv-as beside spirv-val; kernels/CMakeLists.txt)";
  const std::vector<uint32_t> words = spirv("matmul_coop_bf16", PORTA_KERNELS_SPIRV);
  const std::vector<uint32_t> f16_words = spirv("matmul_coop_f16", PORTA_KERNELS_SPIRV);
  const std::vector<tr::SpecValue> gemm_specs = {{0, 128}, {1, 2}, {2, 2},  {3, 4},  {4, 4}, {5, 32},
                                                 {6, 1},   {7, 1}, {10, 1}, {11, 1}, {12, 1}};
  for (const std::vector<tr::SpecValue>& specs :
       {std::vector<tr::SpecValue>{}, {{0, 128}, {5, 32}, {7, 2}}}) {
    const tr::KernelSignature bf16 = tr::reflect(words, specs);
    const tr::KernelSignature f16 = tr::reflect(f16_words, specs);
    ASSERT_EQ(bf16.buffers.size(), 4u);
    EXPECT_EQ(bf16.buffers.size(), f16.buffers.size());
    EXPECT_EQ(bf16.push_constant_size, f16.push_constant_size);
    EXPECT_EQ(bf16.shared_memory_bytes, f16.shared_memory_bytes);
    EXPECT_EQ(bf16.local_size[0], f16.local_size[0]);
    EXPECT_TRUE(bf16.required_features & PORTA_FEATURE_BF16);
    EXPECT_TRUE(bf16.required_features & PORTA_FEATURE_COOPERATIVE_MATRIX);
    EXPECT_FALSE(f16.required_features & PORTA_FEATURE_BF16);
  }
  // Lowered per invocation (cpu, OpenCL): valid SPIR-V for Debian's tools
  // (prepare() validates it), which translates.
  for (tr::Target target : {tr::Target::Cpp, tr::Target::OpenCL}) {
    tr::PrepareOptions options;
    options.target = target;
    EXPECT_NO_THROW(tr::translate(tr::prepare(words, options), target_options(target)))
        << tr::target_name(target);
  }
  // On tensor cores: the same fragments as float16's, mma.sync of uint16_t bits.
  EXPECT_EQ(tr::tensor_core_mismatch(words, gemm_specs), "");
  tr::PrepareOptions options;
  options.tensor_cores = true;
  options.specs = gemm_specs;
  const std::string source =
      tr::translate(tr::prepare(words, options), target_options(tr::Target::Cuda)).source;
  EXPECT_NE(source.find("porta_mma_sync<"), std::string::npos);
  EXPECT_NE(source.find("uint16_t"), std::string::npos);
}

// The module with its float16 type declared as SPV_KHR_bfloat16's bfloat16
// (as kernels/matmul/bfloat16_variant.py does, without its checks): what the
// translated targets refuse, they refuse by name.
std::vector<uint32_t> as_bfloat16(const std::vector<uint32_t>& words) {
  std::vector<uint32_t> out(words.begin(), words.begin() + 5);
  bool capability = false;
  for (size_t at = 5; at < words.size();) {
    const uint32_t length = words[at] >> 16, opcode = words[at] & 0xffff;
    if (opcode == 22 /* OpTypeFloat */ && length == 3 && words[at + 2] == 16) {
      out.insert(out.end(), {(4u << 16) | 22u, words[at + 1], 16u, 0u});
    } else {
      out.insert(out.end(), words.begin() + at, words.begin() + at + length);
      if (opcode == 17 /* OpCapability */ && !capability) {
        out.insert(out.end(), {(2u << 16) | 17u, 5116u, (2u << 16) | 17u, 5118u});
        capability = true;
      }
    }
    at += length;
  }
  return out;
}

TEST(BfloatMatrices, ArithmeticOnBfloat16IsRefusedByName) {
  // Matrices: f16_elementwise scales float16 matrices by a float16 value.
  expect_refused([&] { (void)tr::lower_cooperative_matrix(as_bfloat16(spirv("f16_elementwise"))); },
                 "/f16_elementwise.comp:24 computes with bfloat16 values");
  // Scalars: a product of two bfloat16 values, named with its line.
  const std::vector<uint32_t> scalar = tr::compile_glsl(R"(#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 1) in;
layout(binding = 0) buffer B { float16_t b[]; };
void main() {
  b[1] = b[0] * b[0];
}
)",
                                                        "square.comp");
  expect_refused([&] { (void)tr::prepare(as_bfloat16(scalar)); }, "OpFMul at square.comp:7");
  // A spec constant converted to bfloat16 (OpSpecConstantOp FConvert): not a move of bits.
  const std::vector<uint32_t> spec = tr::compile_glsl(R"(#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 1) in;
layout(constant_id = 0) const float S = 2.0;
const float16_t H = float16_t(S);
layout(binding = 0) buffer B { float16_t b[]; };
void main() {
  b[0] = H;
}
)",
                                                      "spec.comp");
  expect_refused([&] { (void)tr::prepare(as_bfloat16(spec)); }, "bfloat16: a spec-constant operation");
}

}  // namespace
