// instrument_bounds_report(): the modules a Vulkan device runs with
// PORTA_ROBUST=report validate, check what they should, and refuse what
// cannot be checked. (robust.report.<backend> runs them: tests/robust.)
#include <gtest/gtest.h>

#include <spirv-tools/libspirv.hpp>
#include <spirv.hpp>
#include <string>
#include <vector>

#include "kernel_runner.hpp"
#include "porta_translator/translator.hpp"

namespace pt = porta::translator;

namespace {

using porta::test::assemble;

// How many instructions of `opcode` the module has.
size_t count(const std::vector<uint32_t>& spirv, uint32_t opcode) {
  size_t n = 0;
  for (size_t at = 5; at < spirv.size() && (spirv[at] >> 16); at += spirv[at] >> 16)
    n += (spirv[at] & 0xffff) == opcode;
  return n;
}

// Two compute entry points over one buffer (SPIR-V 1.0: a Uniform BufferBlock).
const char* kTwoEntries = R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %double_it "double_it" %gid
               OpEntryPoint GLCompute %negate "negate" %gid
               OpExecutionMode %double_it LocalSize 32 1 1
               OpExecutionMode %negate LocalSize 64 1 1
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %arr ArrayStride 4
               OpMemberDecorate %Data 0 Offset 0
               OpDecorate %Data BufferBlock
               OpDecorate %data DescriptorSet 0
               OpDecorate %data Binding 0
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
      %float = OpTypeFloat 32
     %uint_0 = OpConstant %uint 0
    %float_2 = OpConstant %float 2
        %v3u = OpTypeVector %uint 3
 %ptr_in_v3u = OpTypePointer Input %v3u
        %gid = OpVariable %ptr_in_v3u Input
        %arr = OpTypeRuntimeArray %float
       %Data = OpTypeStruct %arr
   %ptr_data = OpTypePointer Uniform %Data
       %data = OpVariable %ptr_data Uniform
  %ptr_float = OpTypePointer Uniform %float
  %double_it = OpFunction %void None %fn
         %l1 = OpLabel
         %g1 = OpLoad %v3u %gid
         %i1 = OpCompositeExtract %uint %g1 0
         %p1 = OpAccessChain %ptr_float %data %uint_0 %i1
         %x1 = OpLoad %float %p1
         %y1 = OpFMul %float %x1 %float_2
               OpStore %p1 %y1
               OpReturn
               OpFunctionEnd
     %negate = OpFunction %void None %fn
         %l2 = OpLabel
         %g2 = OpLoad %v3u %gid
         %i2 = OpCompositeExtract %uint %g2 0
         %j2 = OpIAdd %uint %i2 %uint_0
         %p2 = OpInBoundsAccessChain %ptr_float %data %uint_0 %j2
         %x2 = OpLoad %float %p2
         %y2 = OpFNegate %float %x2
               OpStore %p2 %y2
               OpReturn
               OpFunctionEnd
)";

TEST(BoundsInstrument, EveryEntryPointIsCheckedAndTheModuleValidates) {
  const pt::BoundsInstrumentation r = pt::instrument_bounds_report(assemble(kTwoEntries));
  EXPECT_NO_THROW(pt::validate(r.spirv));
  // The record: the binding after the kernel's own, in its set.
  EXPECT_EQ(r.record_set, 0u);
  EXPECT_EQ(r.record_binding, 1u);
  // A load and a store in each entry point: four guarded accesses, two sites.
  EXPECT_EQ(count(r.spirv, spv::OpFunctionCall), 4u);
  ASSERT_EQ(r.sites.size(), 2u);
  EXPECT_FALSE(r.sites[0].write);
  EXPECT_TRUE(r.sites[1].write);
  EXPECT_EQ(r.sites[0].stride, 4u);
  EXPECT_EQ(count(r.spirv, spv::OpEntryPoint), 2u);
}

TEST(BoundsInstrument, AFunctionTakingABufferPointerIsRefused) {
  std::string text = kTwoEntries;
  // negate's body moved into a helper that takes the element's pointer.
  const std::string helper = R"(
   %fn_ptr = OpTypeFunction %void %ptr_float
   %helper = OpFunction %void None %fn_ptr
    %param = OpFunctionParameter %ptr_float
       %l3 = OpLabel
       %x3 = OpLoad %float %param
               OpReturn
               OpFunctionEnd
)";
  text.replace(text.find("  %double_it = OpFunction"), 0, helper.substr(0, helper.find("   %helper")));
  text += helper.substr(helper.find("   %helper"));
  try {
    (void)pt::instrument_bounds_report(assemble(text));
    ADD_FAILURE() << "not refused";
  } catch (const pt::Error& e) {
    EXPECT_EQ(e.kind, pt::Error::Kind::UnsupportedFeature);
    EXPECT_NE(std::string(e.what()).find("accesses out of bounds cannot be reported"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("OpFunctionParameter"), std::string::npos) << e.what();
  }
}

// 8- and 16-bit values a module can only load, store and convert: no phi and
// no constant of their type may appear, and the module validates.
TEST(BoundsInstrument, StorageOnlyNarrowTypesValidate) {
  const char* source = R"(#version 450
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_8bit_storage : require
layout(local_size_x = 64) in;
struct P { float16_t x; float16_t y; };
layout(std430, binding = 0) readonly buffer Halves { float16_t h[]; };
layout(std430, binding = 1) readonly buffer Pairs { P p[]; };
layout(std430, binding = 2) readonly buffer Bytes { uint8_t b[]; };
layout(std430, binding = 3) readonly buffer Vectors { i8vec4 v[]; };
layout(std430, binding = 4) buffer Out { float o[]; };
layout(std430, binding = 5) buffer Copies { float16_t c[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  o[i] = float(h[i + 1u]) + float(p[i].y) + float(uint(b[i])) + float(ivec4(v[i]).w);
  c[i] = h[i + 2u];
})";
  const std::vector<uint32_t> spirv = pt::prepare(pt::compile_glsl(source, "narrow.comp"));
  const pt::BoundsInstrumentation r = pt::instrument_bounds_report(spirv);
  EXPECT_NO_THROW(pt::validate(r.spirv));
  EXPECT_GE(count(r.spirv, spv::OpFunctionCall), 6u);
}

}  // namespace
