// Target opencl: translated kernels run on the OpenCL device with the ABI the
// OpenCL backend uses (buffers in binding order, push constants as one struct
// by value), checked against host computations; and what the target refuses.
#include <gtest/gtest.h>

#include <algorithm>

#include "opencl_harness.hpp"
#include "porta_translator/translator.hpp"
#include "support/kernel_cases.hpp"
#include "support/matmul_case.hpp"

namespace pt = porta::translator;

namespace {

using porta::test::bytes_of;
using porta::test::KernelCase;
using porta::test::push_of;
using porta::test::values_of;

class OpenclRun : public ::testing::Test {
 protected:
  static porta::test::OpenclHarness& cl() {
    static porta::test::OpenclHarness harness;
    return harness;
  }
  void SetUp() override {
    if (!cl().available()) GTEST_SKIP() << cl().reason();
  }

  // Translates `glsl` with `specs` and runs it; fails the test on any error.
  // `optimize` false: the validated module as glslang wrote it, without
  // spirv-opt's inlining.
  void run(const std::string& glsl, const std::vector<pt::SpecValue>& specs, std::array<uint32_t, 3> groups,
           std::vector<std::vector<uint8_t>*> buffers, const std::vector<uint8_t>& push = {},
           bool optimize = true) {
    std::vector<uint32_t> spirv = pt::compile_glsl(glsl, "kernel.comp");
    if (optimize)
      spirv = pt::prepare(spirv);
    else
      pt::validate(spirv);
    const pt::KernelSignature signature = pt::reflect(spirv, specs);
    const pt::Translation translation = pt::translate(spirv, {pt::Target::OpenCL, specs});
    source = translation.source;
    ASSERT_EQ(push.size(), signature.push_constant_size) << "the test's push-constant struct";
    const std::string error = cl().run(translation.source, translation.entry_point, groups.data(),
                                       signature.local_size, buffers, push);
    ASSERT_EQ(error, "") << source;
  }

  // Runs `c` and checks its buffers.
  void run(KernelCase c, bool optimize = true) {
    std::vector<pt::SpecValue> specs;
    for (const porta::test::SpecBits& spec : c.specs) specs.push_back({spec.id, spec.bits});
    std::vector<std::vector<uint8_t>*> buffers;
    for (std::vector<uint8_t>& b : c.buffers) buffers.push_back(&b);
    SCOPED_TRACE(c.name + (optimize ? "" : " as glslang wrote it"));
    run(c.glsl, specs, c.groups, buffers, c.push, optimize);
    if (HasFatalFailure()) return;
    c.check(c.buffers);
  }

  std::string source;
};

TEST_F(OpenclRun, SaxpyWithPushConstantsAndNonContiguousBindings) { run(porta::test::saxpy_case()); }

TEST_F(OpenclRun, SharedMemoryReductionWithSpecConstantWorkGroupSize) {
  run(porta::test::reduce_sum_case(128));
  EXPECT_NE(source.find("__local float partial[128];"), std::string::npos) << source;
}

TEST_F(OpenclRun, SpecConstantsFixWorkGroupSizeAndValues) { run(porta::test::spec_constants_case(32)); }

TEST_F(OpenclRun, ConstantsFromSpecConstantsInTwoFunctionsKeepApart) {
  // Each function's `group` is computed from a spec constant; the translation
  // must keep three values apart, not reuse one name for all of them.
  for (bool optimize : {true, false}) {
    run(porta::test::constants_in_two_functions_case(), optimize);
    if (HasFatalFailure()) return;
  }
}

TEST_F(OpenclRun, IntegerDivisionByZeroAndBitFunctionsMatchTheOtherTargets) {
  run(porta::test::integer_division_and_bits_case());
}

TEST_F(OpenclRun, FloatFunctionsAndVectors) { run(porta::test::float_functions_and_vectors_case()); }

TEST_F(OpenclRun, VectorMathAndSwizzles) { run(porta::test::vector_math_case()); }

TEST_F(OpenclRun, IntegerBitOperations) { run(porta::test::integer_bits_case()); }

TEST_F(OpenclRun, AtomicsOnBuffersAndSharedMemory) {
  const char* glsl = R"(#version 450
layout(local_size_x = 64) in;
layout(binding = 0) buffer Counters { uint count; uint maxbits; int slots[]; };
layout(binding = 1) writeonly buffer Tickets { uint tickets[]; };
shared uint group_count;
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (gl_LocalInvocationIndex == 0u) group_count = 0u;
  barrier();
  atomicAdd(group_count, 1u);
  tickets[i] = atomicAdd(count, 1u);
  atomicMax(maxbits, uint(bitCount(i)));
  atomicMin(slots[i % 4u], -int(i));
  atomicCompSwap(slots[4], 0, 42);
  barrier();
  if (gl_LocalInvocationIndex == 0u) atomicAdd(slots[5], int(group_count));
}
)";
  const uint32_t groups = 4, n = groups * 64;
  std::vector<int32_t> counters = {0, 0, 0, 0, 0, 0, 0, 0};
  std::vector<uint32_t> tickets(n, 0);
  auto bc = bytes_of(counters), bt = bytes_of(tickets);
  run(glsl, {}, {groups, 1, 1}, {&bc, &bt});
  counters = values_of<int32_t>(bc);
  tickets = values_of<uint32_t>(bt);
  EXPECT_EQ(counters[0], int32_t(n));
  EXPECT_EQ(counters[1], 8);  // bitCount(255)
  for (uint32_t s = 0; s < 4; ++s) EXPECT_EQ(counters[2 + s], -int32_t(n - 4 + s)) << s;
  EXPECT_EQ(counters[6], 42);
  EXPECT_EQ(counters[7], int32_t(n));
  std::sort(tickets.begin(), tickets.end());
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(tickets[i], i);
}

TEST_F(OpenclRun, StructsKeepTheirStd430Layout) {
  const char* glsl = R"(#version 450
layout(local_size_x = 4) in;
struct Particle { vec4 position; float mass; uint id; };   // std430 stride 32
layout(binding = 0) readonly buffer In { Particle particles[]; };
layout(binding = 1) writeonly buffer Out { vec3 moved[]; };  // std430 stride 16
layout(push_constant) uniform Params { vec4 offset; float scale; vec2 extra; } p;  // extra at 24
void main() {
  uint i = gl_GlobalInvocationID.x;
  Particle q = particles[i];
  moved[i] = q.position.xyz * p.scale * q.mass + p.offset.xyz + vec3(p.extra, float(q.id));
}
)";
  struct Particle {
    float position[4];
    float mass;
    uint32_t id;
    uint32_t pad[2];
  };
  std::vector<Particle> particles(4);
  for (uint32_t i = 0; i < 4; ++i)
    particles[i] = {{float(i), 1.0f, -1.0f, 9.0f}, 0.5f * float(i + 1), 100 + i, {}};
  std::vector<float> moved(16, -1.0f);
  auto bp = bytes_of(particles), bm = bytes_of(moved);
  struct {
    float offset[4];
    float scale;
    float pad;
    float extra[2];
  } push = {{1.0f, 2.0f, 3.0f, 0.0f}, 2.0f, 0.0f, {0.5f, 0.25f}};
  run(glsl, {}, {1, 1, 1}, {&bp, &bm}, push_of(push));
  moved = values_of<float>(bm);
  for (uint32_t i = 0; i < 4; ++i) {
    const Particle& q = particles[i];
    EXPECT_EQ(moved[i * 4 + 0], q.position[0] * 2.0f * q.mass + 1.0f + 0.5f) << i;
    EXPECT_EQ(moved[i * 4 + 1], q.position[1] * 2.0f * q.mass + 2.0f + 0.25f) << i;
    EXPECT_EQ(moved[i * 4 + 2], q.position[2] * 2.0f * q.mass + 3.0f + float(q.id)) << i;
  }
}

TEST_F(OpenclRun, PushConstantsEndingBeforeTheirAlignmentArePacked) {
  const char* glsl = R"(#version 450
layout(local_size_x = 1) in;
layout(binding = 0) writeonly buffer Out { vec4 o[]; };
layout(push_constant) uniform Params { vec4 v; float s; } p;  // 20 bytes in std430
void main() { o[0] = p.v * p.s; }
)";
  std::vector<float> o(4, 0.0f);
  auto bo = bytes_of(o);
  struct {
    float v[4];
    float s;
  } push = {{1.0f, 2.0f, 3.0f, 4.0f}, 0.5f};
  run(glsl, {}, {1, 1, 1}, {&bo}, push_of(push));
  EXPECT_NE(source.find("__attribute__((packed))"), std::string::npos) << source;
  o = values_of<float>(bo);
  EXPECT_EQ(o, (std::vector<float>{0.5f, 1.0f, 1.5f, 2.0f}));
}

// porta-translate --readable: matmul's readable OpenCL C (its helper
// functions inlined, nothing else optimised) computes the exact result.
TEST_F(OpenclRun, ReadableMatmulComputesTheExactResult) {
  using porta::test::MatmulCase;
  const std::vector<uint32_t> spirv = pt::prepare(
      pt::compile_glsl(MatmulCase::glsl(PORTA_SOURCE_DIR), "matmul.comp"), {true, pt::Target::OpenCL});
  for (uint32_t prefetch : {0u, 2u}) {
    SCOPED_TRACE("PREFETCH " + std::to_string(prefetch));
    const std::vector<pt::SpecValue> specs = MatmulCase::specs(prefetch);
    const pt::Translation translation = pt::translate(spirv, {pt::Target::OpenCL, specs});
    MatmulCase m;
    std::vector<uint8_t> a = bytes_of(m.a), b = bytes_of(m.b), c = bytes_of(m.c);
    const uint32_t groups[3] = {m.groups_x(), m.groups_y(), 1};
    ASSERT_EQ(cl().run(translation.source, translation.entry_point, groups,
                       pt::reflect(spirv, specs).local_size, {&a, &b, &c, &a}, push_of(m.params)),
              "")
        << translation.source;
    EXPECT_EQ(values_of<float>(c), m.expected);
  }
}

// Refusals name the feature.
void expect_refused(const char* glsl, const std::string& feature) {
  const std::vector<uint32_t> spirv = pt::prepare(pt::compile_glsl(glsl, "kernel.comp"));
  try {
    pt::translate(spirv, {pt::Target::OpenCL, {}});
    ADD_FAILURE() << "translated a kernel that needs " << feature;
  } catch (const pt::Error& e) {
    EXPECT_EQ(e.kind, pt::Error::Kind::UnsupportedFeature);
    EXPECT_NE(std::string(e.what()).find(feature), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("opencl"), std::string::npos) << e.what();
  }
}

// A member in a vec3's fourth slot is read by byte offset now: TypesOpencl.*.
// Subgroup operations translate (tests/subgroups); float atomic add is a
// compare-exchange loop (tests/instructions).
// Work-items writing different components of one shared or buffer vec4
// (vector_components.comp): each store names its scalar alone, through a
// pointer (a store of the whole vector by each item would overwrite the
// others' components, as NVIDIA's OpenCL compiler did with `t[i].y = v`).
TEST_F(OpenclRun, ItemsWriteTheirOwnComponentsOfVectors) {
  run(porta::test::vector_components_case());
  if (HasFailure()) return;
  EXPECT_NE(source.find("((__local float*)&"), std::string::npos) << source;
  EXPECT_NE(source.find("((__global float*)&"), std::string::npos) << source;
  for (const char* component : {".x = ", ".y = ", ".z = ", ".w = "})
    EXPECT_EQ(source.find(component), std::string::npos) << source;
}

TEST(OpenclRefusal, OtherExtendedInstructionSets) {
  expect_refused(R"(#version 450
#extension GL_EXT_spirv_intrinsics : require
layout(local_size_x = 1) in;
layout(binding = 0) buffer D { float d[]; };
spirv_instruction(set = "SPV_AMD_shader_trinary_minmax", id = 1) float fmin3(float a, float b, float c);
void main() { d[0] = fmin3(d[0], d[1], d[2]); }
)",
                 "SPV_AMD_shader_trinary_minmax FMin3AMD");
}

// float16_t is float rounded to half on this target (translator/README.md);
// what that cannot keep exact is refused by name.
TEST(OpenclRefusal, WhatFloat16CannotKeepExact) {
  // Joined at run time (`+`), so that all_test_kernels() takes it for a piece of a kernel.
  auto kernel = [](const char* body) {
    return "#version 450\n"
           "#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require\n"
           "#extension GL_EXT_shader_16bit_storage : require\n"
           "layout(local_size_x = 1) in;\n" +
           std::string(body);
  };
  const std::pair<const char*, const char*> kernels[] = {
      {"layout(binding = 0) buffer D { f16vec2 d[]; };\n"
       "void main() { f16mat2 m = f16mat2(d[0], d[1]); d[2] = m * d[3]; }",
       "float16_t matrices"},
      {"struct P { float16_t a; float16_t b; };\nlayout(binding = 0) buffer D { P p[]; };\n"
       "void main() { P q = p[0]; q.a = q.a + q.b; p[1] = q; }",
       "a struct or array holding float16_t"},
      {"layout(binding = 0) buffer D { float16_t h[]; };\nlayout(binding = 1) buffer E { double e[]; };\n"
       "void main() { h[0] = float16_t(e[0] * 3.0lf); }",
       "float64 to float16_t conversion"},
  };
  for (const auto& [body, refusal] : kernels) expect_refused(kernel(body).c_str(), refusal);
}

}  // namespace
