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
layout(binding = 0) uniform sampler2D tex;
layout(binding = 1) buffer O { vec4 o[]; };
void main() { o[0] = textureLod(tex, vec2(0), 0.0); }
)")
                .find("image 'tex'"),
            std::string::npos);
  // An unsized array of blocks needs descriptor indexing.
  EXPECT_NE(error_of(R"(#version 450
#extension GL_EXT_nonuniform_qualifier : require
layout(local_size_x = 1) in;
layout(binding = 0) buffer B { float x[]; } many[];
void main() { many[nonuniformEXT(gl_GlobalInvocationID.x)].x[0] = 1.0; }
)")
                .find("'many' (set 0, binding 0) is a runtime-sized array of blocks"),
            std::string::npos);
}

// The ABI's parameter order: (set, binding, array element), whatever order
// the source declares them in; uniform and storage blocks alike.
TEST(Reflect, ParametersBySetBindingAndArrayElement) {
  const pt::KernelSignature s = reflect_glsl(R"(#version 450
layout(local_size_x = 1) in;
layout(set = 2, binding = 0) writeonly buffer Late { float late[]; };
layout(set = 1, binding = 4) readonly buffer Many { uint header; float x[]; } many[3];
layout(set = 0, binding = 7, std140) uniform Params { vec4 scale; float bias; uint n; } params;
layout(set = 1, binding = 1) buffer Mid { float mid[]; };
void main() {
  late[0] = many[0].x[0] + many[1].x[1] + many[2].x[2] + mid[0] * params.scale.x + params.bias + float(params.n);
}
)");
  struct Expected {
    uint32_t set, binding, array_index;
    pt::BufferKind kind;
    const char* name;
    pt::Access access;
    uint64_t min_size;
  };
  const Expected expected[] = {
      {0, 7, 0, pt::BufferKind::Uniform, "params", pt::Access::Read, 24},
      {1, 1, 0, pt::BufferKind::Storage, "Mid", pt::Access::ReadWrite, 0},
      {1, 4, 0, pt::BufferKind::Storage, "many", pt::Access::Read, 4},
      {1, 4, 1, pt::BufferKind::Storage, "many", pt::Access::Read, 4},
      {1, 4, 2, pt::BufferKind::Storage, "many", pt::Access::Read, 4},
      {2, 0, 0, pt::BufferKind::Storage, "Late", pt::Access::Write, 0},
  };
  ASSERT_EQ(s.buffers.size(), std::size(expected));
  for (size_t i = 0; i < std::size(expected); ++i) {
    SCOPED_TRACE("parameter " + std::to_string(i));
    const pt::BufferBinding& b = s.buffers[i];
    EXPECT_EQ(b.set, expected[i].set);
    EXPECT_EQ(b.binding, expected[i].binding);
    EXPECT_EQ(b.array_index, expected[i].array_index);
    EXPECT_EQ(b.kind, expected[i].kind);
    EXPECT_EQ(b.name, expected[i].name);
    EXPECT_EQ(b.access, expected[i].access);
    EXPECT_EQ(b.min_size, expected[i].min_size);
  }
}

// Blocks declared at one binding are views of one parameter: what any view
// does, and the largest fixed part.
TEST(Reflect, BlocksAliasingOneBindingAreOneParameter) {
  const pt::KernelSignature s = reflect_glsl(R"(#version 450
layout(local_size_x = 1) in;
layout(binding = 3) readonly buffer Words { uint count; uint pad; uint words[]; } as_words;
layout(binding = 3) writeonly buffer Floats { float values[]; } as_floats;
layout(binding = 1) readonly buffer In { float x[]; };
void main() { as_floats.values[as_words.count] = x[as_words.words[0]]; }
)");
  ASSERT_EQ(s.buffers.size(), 2u);
  EXPECT_EQ(s.buffers[0].binding, 1u);
  EXPECT_EQ(s.buffers[1].binding, 3u);
  EXPECT_EQ(s.buffers[1].access, pt::Access::ReadWrite);
  EXPECT_EQ(s.buffers[1].min_size, 8u);
  // A uniform and a storage block cannot share a descriptor.
  try {
    reflect_glsl(R"(#version 450
layout(local_size_x = 1) in;
layout(binding = 0) uniform U { float u; } ubo;
layout(binding = 0) buffer S { float s[]; } ssbo;
void main() { ssbo.s[0] = ubo.u; }
)");
    ADD_FAILURE() << "a uniform and a storage block at one binding were accepted";
  } catch (const pt::Error& e) {
    EXPECT_NE(std::string(e.what()).find("one is a uniform and one a storage buffer"), std::string::npos)
        << e.what();
  }
}

TEST(Reflect, UniformBlocksAreReadOnlyStd140) {
  const pt::KernelSignature s = reflect_glsl(R"(#version 450
layout(local_size_x = 1) in;
layout(binding = 0) uniform Params { float a; vec3 v; float b; vec2 w; } params;
layout(binding = 1) buffer Out { float o[]; };
void main() { o[0] = params.a + params.v.y + params.b + params.w.x; }
)");
  ASSERT_EQ(s.buffers.size(), 2u);
  EXPECT_EQ(s.buffers[0].kind, pt::BufferKind::Uniform);
  EXPECT_EQ(s.buffers[0].access, pt::Access::Read);
  // std140: a at 0, v at 16, b at 28, w at 32: 40 bytes.
  EXPECT_EQ(s.buffers[0].min_size, 40u);
}

TEST(Reflect, KernelWithoutBuffers) {
  const pt::KernelSignature s = reflect_glsl(R"(#version 450
layout(local_size_x = 16) in;
shared float t[16];
void main() { t[gl_LocalInvocationIndex] = 1.0; barrier(); }
)",
                                             /*optimize=*/false);  // spirv-opt drops stores nothing reads
  EXPECT_TRUE(s.buffers.empty());
  EXPECT_EQ(s.shared_memory_bytes, 64u);
  EXPECT_NE(pt::describe(s).find("buffers (parameter order):\n  none"), std::string::npos) << pt::describe(s);
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
  EXPECT_NE(text.find("binding 5: out_data (writeonly, at least 0 bytes)"), std::string::npos) << text;
  EXPECT_NE(text.find("offset 16, size 16: vec4 color"), std::string::npos) << text;
}
