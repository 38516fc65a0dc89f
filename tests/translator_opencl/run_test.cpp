// Target opencl: translated kernels run on the OpenCL device with the ABI the
// OpenCL backend uses (buffers in binding order, push constants as one struct
// by value), checked against host computations; and what the target refuses.
#include <gtest/gtest.h>

#include <climits>
#include <cmath>
#include <cstring>

#include "opencl_harness.hpp"
#include "porta_translator/translator.hpp"
#include "support/matmul_case.hpp"
#include "support/shared_kernels.hpp"

namespace pt = porta::translator;

namespace {

template <class T>
std::vector<uint8_t> bytes_of(const std::vector<T>& values) {
  std::vector<uint8_t> out(values.size() * sizeof(T));
  std::memcpy(out.data(), values.data(), out.size());
  return out;
}

template <class T>
std::vector<T> values_of(const std::vector<uint8_t>& bytes) {
  std::vector<T> out(bytes.size() / sizeof(T));
  std::memcpy(out.data(), bytes.data(), bytes.size());
  return out;
}

template <class T>
std::vector<uint8_t> push_of(const T& value) {
  std::vector<uint8_t> out(sizeof(T));
  std::memcpy(out.data(), &value, sizeof(T));
  return out;
}

uint32_t float_bits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof(bits));
  return bits;
}

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

  std::string source;
};

TEST_F(OpenclRun, SaxpyWithPushConstantsAndNonContiguousBindings) {
  const uint32_t n = 1000;
  std::vector<float> x(1024), y(1024), out(1024, -7.0f);
  for (uint32_t i = 0; i < 1024; ++i) {
    x[i] = 0.5f * float(i);
    y[i] = 3.0f - float(i % 17);
  }
  auto bx = bytes_of(x), by = bytes_of(y), bo = bytes_of(out);
  struct {
    uint32_t n;
    float alpha;
  } push = {n, 1.25f};
  run(porta::test::kSaxpy, {}, {16, 1, 1}, {&bx, &by, &bo}, push_of(push));
  out = values_of<float>(bo);
  for (uint32_t i = 0; i < 1024; ++i) ASSERT_EQ(out[i], i < n ? 1.25f * x[i] + y[i] : -7.0f) << i;
}

TEST_F(OpenclRun, SharedMemoryReductionWithSpecConstantWorkGroupSize) {
  const char* glsl = R"(#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const float SCALE = 1.0;
layout(binding = 0) readonly buffer In { float data[]; } src;
layout(binding = 1) writeonly buffer Out { float sums[]; } dst;
layout(push_constant) uniform P { uint n; } pc;
shared float partial[gl_WorkGroupSize.x];
void main() {
  uint l = gl_LocalInvocationID.x;
  uint i = gl_GlobalInvocationID.x;
  partial[l] = i < pc.n ? src.data[i] * SCALE : 0.0;
  barrier();
  for (uint stride = gl_WorkGroupSize.x / 2; stride > 0; stride >>= 1) {
    if (l < stride) partial[l] += partial[l + stride];
    barrier();
  }
  if (l == 0) dst.sums[gl_WorkGroupID.x] = partial[0];
}
)";
  const uint32_t n = 1000, wg = 128, groups = 8;
  std::vector<float> in(wg * groups), sums(groups, -1.0f);
  for (uint32_t i = 0; i < in.size(); ++i) in[i] = float(i % 7);
  auto bi = bytes_of(in), bs = bytes_of(sums);
  run(glsl, {{0, wg}, {1, float_bits(2.0f)}}, {groups, 1, 1}, {&bi, &bs}, push_of(n));
  EXPECT_NE(source.find("__local float partial[128];"), std::string::npos) << source;
  sums = values_of<float>(bs);
  for (uint32_t g = 0; g < groups; ++g) {
    float expected = 0;
    for (uint32_t i = g * wg; i < (g + 1) * wg; ++i) expected += i < n ? 2.0f * in[i] : 0.0f;
    EXPECT_EQ(sums[g], expected) << g;
  }
}

TEST_F(OpenclRun, ConstantsFromSpecConstantsInTwoFunctionsKeepApart) {
  // Each function's `group` is computed from a spec constant; the translation
  // must keep three values apart, not reuse one name for all of them.
  for (bool optimize : {true, false}) {
    SCOPED_TRACE(optimize ? "optimised" : "as glslang wrote it");
    auto bytes = bytes_of(std::vector<uint32_t>(8, 0));
    run(porta::test::kConstantsInTwoFunctions, {{0, 4}, {1, 5}}, {2, 1, 1}, {&bytes}, {}, optimize);
    if (HasFatalFailure()) return;
    for (uint32_t x : values_of<uint32_t>(bytes)) ASSERT_EQ(x, 8u + 20u * 100u + 9u * 10000u) << source;
  }
}

TEST_F(OpenclRun, IntegerDivisionByZeroAndBitFunctionsMatchTheOtherTargets) {
  const char* glsl = R"(#version 450
layout(local_size_x = 8) in;
layout(binding = 0) readonly buffer A { int a[]; };
layout(binding = 1) readonly buffer B { int b[]; };
layout(binding = 2) writeonly buffer O { int o[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  int x = a[i], y = b[i];
  uint ux = uint(x), uy = uint(y);
  ivec2 v = ivec2(x, y + 1) / ivec2(y, 0);
  o[i * 12u + 0u] = x / y;
  o[i * 12u + 1u] = x % y;
  o[i * 12u + 2u] = int(ux / uy);
  o[i * 12u + 3u] = int(ux % uy);
  o[i * 12u + 4u] = v.x + v.y;
  o[i * 12u + 5u] = findMSB(x);
  o[i * 12u + 6u] = findLSB(x | 0x40000000);
  o[i * 12u + 7u] = bitCount(ux);
  o[i * 12u + 8u] = findMSB(ux);
  o[i * 12u + 9u] = bitfieldExtract(x, 4, 8);
  o[i * 12u + 10u] = int(bitfieldExtract(ux, 28, 4));
  o[i * 12u + 11u] = abs(x);
}
)";
  const std::vector<int32_t> a = {7, -7, 7, INT_MIN, 0, -1, 0x12345678, 1 << 20};
  const std::vector<int32_t> b = {2, 2, 0, -1, 0, 3, -5, 0};
  std::vector<int32_t> o(a.size() * 12, 99);
  auto ba = bytes_of(a), bb = bytes_of(b), bo = bytes_of(o);
  run(glsl, {}, {1, 1, 1}, {&ba, &bb, &bo});
  o = values_of<int32_t>(bo);
  auto msb = [](int32_t x) {
    uint32_t u = x < 0 ? ~uint32_t(x) : uint32_t(x);
    int r = -1;
    for (int bit = 0; bit < 32; ++bit)
      if (u >> bit & 1u) r = bit;
    return r;
  };
  auto lsb = [](uint32_t u) {
    for (int bit = 0; bit < 32; ++bit)
      if (u >> bit & 1u) return bit;
    return -1;
  };
  auto umsb = [](uint32_t u) {
    int r = -1;
    for (int bit = 0; bit < 32; ++bit)
      if (u >> bit & 1u) r = bit;
    return r;
  };
  // x / 0 and x % 0 are 0, INT_MIN / -1 wraps, INT_MIN % -1 is 0 (checked_div/rem of porta_glsl.hpp).
  auto div = [](int32_t x, int32_t y) -> int32_t {
    if (y == 0) return 0;
    if (y == -1) return int32_t(0u - uint32_t(x));
    return x / y;
  };
  // GLSL's % on int is OpSMod: the result takes the sign of the divisor.
  auto rem = [](int32_t x, int32_t y) -> int32_t {
    int32_t r = y == 0 || y == -1 ? 0 : x % y;
    return r != 0 && (r < 0) != (y < 0) ? r + y : r;
  };
  for (size_t i = 0; i < a.size(); ++i) {
    const int32_t x = a[i], y = b[i];
    const uint32_t ux = uint32_t(x), uy = uint32_t(y);
    const int32_t* r = &o[i * 12];
    EXPECT_EQ(r[0], div(x, y)) << i;
    EXPECT_EQ(r[1], rem(x, y)) << i;
    EXPECT_EQ(r[2], int32_t(uy ? ux / uy : 0u)) << i;
    EXPECT_EQ(r[3], int32_t(uy ? ux % uy : 0u)) << i;
    EXPECT_EQ(r[4], div(x, y) + div(y + 1, 0)) << i;
    EXPECT_EQ(r[5], msb(x)) << i;
    EXPECT_EQ(r[6], lsb(ux | 0x40000000u)) << i;
    EXPECT_EQ(r[7], __builtin_popcount(ux)) << i;
    EXPECT_EQ(r[8], umsb(ux)) << i;
    EXPECT_EQ(r[9], int32_t(ux << 20) >> 24) << i;
    EXPECT_EQ(r[10], int32_t(ux >> 28)) << i;
    EXPECT_EQ(r[11], x == INT_MIN ? INT_MIN : std::abs(x)) << i;
  }
}

TEST_F(OpenclRun, FloatFunctionsAndVectors) {
  const char* glsl = R"(#version 450
layout(local_size_x = 4) in;
layout(binding = 0) readonly buffer A { vec4 a[]; };
layout(binding = 1) writeonly buffer O { vec4 o[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  vec4 x = a[i];
  o[i * 4u + 0u] = vec4(fract(x.xy), mod(x.z, 3.0), mod(x.w, -3.0));
  o[i * 4u + 1u] = vec4(inversesqrt(abs(x.x) + 1.0), clamp(x.y, -1.0, 1.0), step(0.0, x.z), sign(x.w));
  o[i * 4u + 2u] = vec4(uintBitsToFloat(floatBitsToUint(x.x) ^ 0x80000000u), float(int(x.y)), float(uint(abs(x.z))), mix(x.x, x.y, 0.25));
  o[i * 4u + 3u] = vec4(x.wz, min(x.x, x.y), max(x.z, x.w));
}
)";
  const std::vector<float> a = {1.25f, -2.75f, 7.5f, -7.5f, -0.5f, 3.5f,   -4.0f, 4.0f,
                                0.0f,  9.0f,   -1.f, 1.0f,  100.f, -0.25f, 2.0f,  -2.0f};
  std::vector<float> o(a.size() * 4, 0.0f);
  auto ba = bytes_of(a), bo = bytes_of(o);
  run(glsl, {}, {1, 1, 1}, {&ba, &bo});
  o = values_of<float>(bo);
  for (size_t i = 0; i < 4; ++i) {
    const float* x = &a[i * 4];
    const float* r = &o[i * 16];
    auto glsl_mod = [](float p, float q) { return p - q * std::floor(p / q); };
    EXPECT_FLOAT_EQ(r[0], x[0] - std::floor(x[0])) << i;
    EXPECT_FLOAT_EQ(r[1], x[1] - std::floor(x[1])) << i;
    EXPECT_FLOAT_EQ(r[2], glsl_mod(x[2], 3.0f)) << i;
    EXPECT_FLOAT_EQ(r[3], glsl_mod(x[3], -3.0f)) << i;
    EXPECT_NEAR(r[4], 1.0f / std::sqrt(std::fabs(x[0]) + 1.0f), 1e-6f) << i;
    EXPECT_EQ(r[5], std::fmin(std::fmax(x[1], -1.0f), 1.0f)) << i;
    EXPECT_EQ(r[6], x[2] < 0.0f ? 0.0f : 1.0f) << i;
    EXPECT_EQ(r[7], x[3] > 0 ? 1.0f : x[3] < 0 ? -1.0f : 0.0f) << i;
    EXPECT_EQ(r[8], -x[0]) << i;
    EXPECT_EQ(r[9], float(int(x[1]))) << i;
    EXPECT_EQ(r[10], float(uint32_t(std::fabs(x[2])))) << i;
    EXPECT_FLOAT_EQ(r[11], x[0] + (x[1] - x[0]) * 0.25f) << i;
    EXPECT_EQ(r[12], x[3]) << i;
    EXPECT_EQ(r[13], x[2]) << i;
    EXPECT_EQ(r[14], std::min(x[0], x[1])) << i;
    EXPECT_EQ(r[15], std::max(x[2], x[3])) << i;
  }
}

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
                       pt::reflect(spirv, specs).local_size, {&a, &b, &c}, push_of(m.params)),
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

}  // namespace
