// SPIR-V → KernelSignature.
#include <gtest/gtest.h>

#include <cstring>
#include <iterator>
#include <string>

#include "porta/porta.h"
#include "porta_translator/translator.hpp"

namespace pt = porta::translator;

namespace {

pt::KernelSignature reflect_glsl(const std::string& source, bool optimize = true) {
  std::vector<uint32_t> spirv = pt::compile_glsl(source, "kernel.comp");
  if (optimize) spirv = pt::prepare(spirv);
  return pt::reflect(spirv);
}

std::string error_of(const std::string& source) {
  try {
    reflect_glsl(source);
  } catch (const pt::Error& e) {
    EXPECT_EQ(e.kind, pt::Error::Kind::UnsupportedFeature) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "no error";
  return "";
}

const char* kInterface = R"(#version 450
layout(local_size_x = 8, local_size_y = 4) in;
layout(set = 0, binding = 5) writeonly buffer Out { vec4 result[]; } out_data;
layout(set = 0, binding = 0) readonly buffer Weights { float w[]; } weights;
layout(set = 0, binding = 2) buffer State { uint counter; float values[]; } state;
layout(push_constant) uniform Params {
  uint n;
  float alpha;
  vec2 shift;
  vec4 color;
  int steps[3];
} params;
void main() {
  uint i = gl_GlobalInvocationID.x;
  float v = weights.w[i] * params.alpha + params.shift.x + float(params.steps[2]);
  state.values[i] = v;
  atomicAdd(state.counter, 1u);
  out_data.result[i] = params.color * v + float(params.n);
}
)";

}  // namespace

TEST(Reflect, BuffersInBindingOrderWithAccess) {
  const pt::KernelSignature s = reflect_glsl(kInterface);
  EXPECT_EQ(s.entry_point, "main");
  const struct {
    uint32_t binding;
    const char* name;
    pt::Access access;
  } expected[] = {{0, "weights", pt::Access::Read},
                  {2, "state", pt::Access::ReadWrite},
                  {5, "out_data", pt::Access::Write}};
  ASSERT_EQ(s.buffers.size(), std::size(expected));
  for (size_t i = 0; i < std::size(expected); ++i) {
    EXPECT_EQ(s.buffers[i].set, 0u) << expected[i].name;
    EXPECT_EQ(s.buffers[i].binding, expected[i].binding) << expected[i].name;
    EXPECT_EQ(s.buffers[i].name, expected[i].name);
    EXPECT_EQ(s.buffers[i].access, expected[i].access) << expected[i].name;
  }
  EXPECT_EQ(s.local_size[0], 8u);
  EXPECT_EQ(s.local_size[1], 4u);
  EXPECT_EQ(s.local_size[2], 1u);
  EXPECT_EQ(s.local_size_spec_id[0], -1);
  EXPECT_FALSE(s.uses_barrier);
  EXPECT_EQ(s.shared_memory_bytes, 0u);
  EXPECT_TRUE(s.required_features & PORTA_FEATURE_ATOMIC_INT32);
  EXPECT_FALSE(s.required_features & PORTA_FEATURE_FP16);
}

TEST(Reflect, PushConstantLayoutFromOffsets) {
  const pt::KernelSignature s = reflect_glsl(kInterface);
  ASSERT_EQ(s.push_constants.size(), 5u);
  const struct {
    const char* name;
    const char* type;
    uint32_t offset, size;
  } expected[] = {{"n", "uint", 0, 4},
                  {"alpha", "float", 4, 4},
                  {"shift", "vec2", 8, 8},
                  {"color", "vec4", 16, 16},
                  {"steps", "int[3]", 32, 12}};
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(s.push_constants[i].name, expected[i].name);
    EXPECT_EQ(s.push_constants[i].type, expected[i].type);
    EXPECT_EQ(s.push_constants[i].offset, expected[i].offset) << expected[i].name;
    EXPECT_EQ(s.push_constants[i].size, expected[i].size) << expected[i].name;
  }
  EXPECT_EQ(s.push_constant_size, 44u);
}

TEST(Reflect, SpecConstantsAndWorkGroupSizeIds) {
  const char* source = R"(#version 450
layout(local_size_x_id = 4, local_size_y = 2, local_size_z_id = 6) in;
layout(constant_id = 1) const float m = 0;
layout(constant_id = 2) const int offset = -3;
layout(constant_id = 3) const bool enabled = true;
layout(binding = 0) buffer B { float b[]; };
void main() {
  if (enabled) b[gl_GlobalInvocationID.x] = m * float(gl_GlobalInvocationID.x + uint(offset)) + float(gl_WorkGroupSize.x);
}
)";
  const pt::KernelSignature s = reflect_glsl(source);
  EXPECT_EQ(s.local_size_spec_id[0], 4);
  EXPECT_EQ(s.local_size_spec_id[1], -1);
  EXPECT_EQ(s.local_size_spec_id[2], 6);
  EXPECT_EQ(s.local_size[0], 1u);
  EXPECT_EQ(s.local_size[1], 2u);
  // The work-group size ids come last, named after the size they set, with
  // the size's default (1 where the layout gives only the id).
  const struct {
    uint32_t id;
    const char* name;
    pt::ScalarType type;
    uint32_t default_bits;
  } expected[] = {{1, "m", pt::ScalarType::Float, 0},
                  {2, "offset", pt::ScalarType::Int, static_cast<uint32_t>(-3)},
                  {3, "enabled", pt::ScalarType::Bool, 1},
                  {4, "local_size_x", pt::ScalarType::UInt, 1},
                  {6, "local_size_z", pt::ScalarType::UInt, 1}};
  ASSERT_EQ(s.spec_constants.size(), std::size(expected));
  for (size_t i = 0; i < std::size(expected); ++i) {
    EXPECT_EQ(s.spec_constants[i].id, expected[i].id) << expected[i].name;
    EXPECT_EQ(s.spec_constants[i].name, expected[i].name);
    EXPECT_EQ(s.spec_constants[i].type, expected[i].type) << expected[i].name;
    EXPECT_EQ(s.spec_constants[i].default_bits, expected[i].default_bits) << expected[i].name;
  }

  uint32_t size[3];
  pt::resolve_local_size(s, {{4, 64}, {6, 2}, {1, 0}}, size);
  EXPECT_EQ(size[0], 64u);
  EXPECT_EQ(size[1], 2u);
  EXPECT_EQ(size[2], 2u);
}

TEST(Reflect, SharedMemoryAndBarrier) {
  const char* source = R"(#version 450
layout(local_size_x_id = 0) in;
layout(binding = 0) buffer B { float b[]; };
shared float tile[gl_WorkGroupSize.x];
shared uvec2 pairs[16];
void main() {
  uint l = gl_LocalInvocationID.x;
  tile[l] = b[gl_GlobalInvocationID.x];
  pairs[l % 16] = uvec2(l);
  barrier();
  b[gl_GlobalInvocationID.x] = tile[(l + 1) % gl_WorkGroupSize.x] + float(pairs[0].y);
}
)";
  std::vector<uint32_t> spirv = pt::prepare(pt::compile_glsl(source, "k.comp"));
  const pt::KernelSignature s = pt::reflect(spirv);
  EXPECT_TRUE(s.uses_barrier);
  EXPECT_EQ(s.shared_memory_bytes, 8u + 16 * 8);  // default local_size_x = 1; uvec2 aligns to 8
  const pt::KernelSignature specialised = pt::reflect(spirv, {{0, 128}});
  EXPECT_EQ(specialised.shared_memory_bytes, 128u * 4 + 16 * 8);
  EXPECT_EQ(specialised.local_size[0], 128u);
}

TEST(Reflect, SharedArraysOfArraysCountEachElementOnce) {
  const char* source = R"(#version 450
layout(local_size_x = 16, local_size_y = 16) in;
layout(binding = 0) buffer B { float b[]; };
shared float grid[2][16][16];
shared uint flag[4][256];
void main() {
  uvec2 l = gl_LocalInvocationID.xy;
  grid[1][l.y][l.x] = b[l.y * 16u + l.x];
  flag[l.x % 4u][l.y] = l.x;
  barrier();
  b[l.y * 16u + l.x] = grid[1][l.x][l.y] + float(flag[l.y % 4u][l.x]);
}
)";
  const pt::KernelSignature s = pt::reflect(pt::prepare(pt::compile_glsl(source, "k.comp")));
  EXPECT_EQ(s.shared_memory_bytes, 2u * 16 * 16 * 4 + 4u * 256 * 4);
}

TEST(Reflect, RejectsWhatKernelsCannotTake) {
  EXPECT_NE(error_of(R"(#version 450
layout(local_size_x = 1) in;
layout(set = 1, binding = 3) buffer Elsewhere { float x[]; } elsewhere;
void main() { elsewhere.x[0] = 1.0; }
)")
                .find("'elsewhere' is at set 1, binding 3"),
            std::string::npos);
  EXPECT_NE(error_of(R"(#version 450
layout(local_size_x = 1) in;
layout(binding = 0) uniform sampler2D tex;
layout(binding = 1) buffer O { vec4 o[]; };
void main() { o[0] = textureLod(tex, vec2(0), 0.0); }
)")
                .find("image 'tex'"),
            std::string::npos);
  EXPECT_NE(error_of(R"(#version 450
layout(local_size_x = 1) in;
layout(binding = 0) uniform U { float u; } ubo;
layout(binding = 1) buffer O { float o[]; };
void main() { o[0] = ubo.u; }
)")
                .find("uniform buffer 'ubo'"),
            std::string::npos);
  EXPECT_NE(error_of(R"(#version 450
layout(local_size_x = 1) in;
layout(binding = 0) buffer A { float a[]; } first;
layout(binding = 0) buffer B { float b[]; } second;
void main() { first.a[0] = second.b[1]; }
)")
                .find("share binding 0"),
            std::string::npos);
}

TEST(Reflect, FeaturesFromCapabilities) {
  const pt::KernelSignature s = reflect_glsl(R"(#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 32) in;
layout(binding = 0) buffer B { uint64_t v[]; };
void main() { v[gl_GlobalInvocationID.x] += uint64_t(subgroupAdd(1u)); }
)");
  EXPECT_TRUE(s.required_features & PORTA_FEATURE_INT64);
  EXPECT_TRUE(s.required_features & PORTA_FEATURE_SUBGROUPS);
}

TEST(Reflect, DescribeIsReadable) {
  const std::string text = pt::describe(reflect_glsl(kInterface));
  EXPECT_NE(text.find("binding 5: out_data (writeonly)"), std::string::npos) << text;
  EXPECT_NE(text.find("offset 16, size 16: vec4 color"), std::string::npos) << text;
}
