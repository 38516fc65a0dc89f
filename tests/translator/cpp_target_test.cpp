// Target cpp: real kernels translated, compiled warning-free and run against
// host computations.
#include <gtest/gtest.h>
#include <sys/mman.h>

#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "kernel_runner.hpp"
#include "support/kernel_cases.hpp"

namespace pt = porta::translator;
using porta::test::CompiledKernel;
using porta::test::KernelCase;
using porta::test::spirv_of;

namespace {

#define ASSERT_BUILT(kernel) ASSERT_TRUE((kernel).ok()) << (kernel).error()

// Runs `c` (optimised, or as glslang wrote it) and checks its buffers; returns
// the kernel, for a test's checks of the translation itself, or null when it
// did not build (a failure of the test).
std::unique_ptr<CompiledKernel> run_case(KernelCase c, bool optimize = true) {
  SCOPED_TRACE(c.name + (optimize ? "" : " as glslang wrote it"));
  std::vector<pt::SpecValue> specs;
  for (const porta::test::SpecBits& spec : c.specs) specs.push_back({spec.id, spec.bits});
  auto kernel = std::make_unique<CompiledKernel>(spirv_of(c.glsl, optimize), specs);
  if (!kernel->ok()) {
    ADD_FAILURE() << c.name << " did not build: " << kernel->error();
    return nullptr;
  }
  std::vector<CompiledKernel::Buffer> buffers;
  for (std::vector<uint8_t>& b : c.buffers) buffers.emplace_back(b);
  kernel->dispatch(c.groups[0], c.groups[1], c.groups[2], buffers, c.push.empty() ? nullptr : c.push.data(),
                   static_cast<uint32_t>(c.push.size()));
  c.check(c.buffers);
  return kernel;
}

}  // namespace

TEST(CppTarget, SaxpyWithPushConstantsAndNonContiguousBindings) {
  for (bool optimize : {true, false}) {
    std::unique_ptr<CompiledKernel> kernel = run_case(porta::test::saxpy_case(), optimize);
    ASSERT_TRUE(kernel);
    EXPECT_EQ(kernel->entry().abi_version, PORTA_CPU_KERNEL_ABI_VERSION);
    EXPECT_EQ(kernel->entry().workgroup_size[0], 64u);
    EXPECT_EQ(kernel->entry().uses_barrier, 0u);
  }
}

TEST(CppTarget, SpecConstantsFixWorkGroupSizeAndValues) {
  const KernelCase c = porta::test::spec_constants_case(32);
  std::unique_ptr<CompiledKernel> kernel = run_case(c);
  ASSERT_TRUE(kernel);
  EXPECT_EQ(kernel->entry().workgroup_size[0], 32u);
  EXPECT_NE(kernel->source().find("constexpr float scale = 2.5f;"), std::string::npos) << kernel->source();

  // Defaults when no values are given: local_size_x = 1.
  CompiledKernel defaults(spirv_of(c.glsl));
  ASSERT_BUILT(defaults);
  EXPECT_EQ(defaults.entry().workgroup_size[0], 1u);
}

TEST(CppTarget, ConstantsFromSpecConstantsInTwoFunctionsKeepApart) {
  // Both `group` constants are computed from a spec constant, so they are
  // declared at namespace scope in the translation: they must get two names.
  for (bool optimize : {true, false}) run_case(porta::test::constants_in_two_functions_case(), optimize);
}

TEST(CppTarget, TreeReductionWithSharedMemoryAndBarrierInLoop) {
  std::unique_ptr<CompiledKernel> kernel = run_case(porta::test::reduce_sum_case(64));
  ASSERT_TRUE(kernel);
  EXPECT_EQ(kernel->entry().uses_barrier, 1u);
  EXPECT_EQ(kernel->entry().shared_memory_bytes, 64u * 4);
}

TEST(CppTarget, SharedAtomicsHistogram) {
  const char* source = R"(#version 450
layout(local_size_x = 32) in;
layout(binding = 0) readonly buffer Values { uint values[]; };
layout(binding = 1) buffer Bins { uint bins[16]; uint total; } hist;
shared uint local_bins[16];
void main() {
  uint l = gl_LocalInvocationIndex;
  if (l < 16) local_bins[l] = 0;
  barrier();
  atomicAdd(local_bins[values[gl_GlobalInvocationID.x] % 16], 1u);
  barrier();
  if (l < 16) atomicAdd(hist.bins[l], local_bins[l]);
  if (l == 0) atomicAdd(hist.total, gl_WorkGroupSize.x);
}
)";
  CompiledKernel kernel(spirv_of(source));
  ASSERT_BUILT(kernel);
  std::vector<uint32_t> values(4 * 32), bins(17, 0), expected(17, 0);
  for (size_t i = 0; i < values.size(); ++i) {
    values[i] = uint32_t(i * 7 + i / 5);
    expected[values[i] % 16]++;
  }
  expected[16] = 128;
  kernel.dispatch(4, 1, 1, {values, bins});
  EXPECT_EQ(bins, expected);
}

TEST(CppTarget, VectorMathAndSwizzles) { run_case(porta::test::vector_math_case()); }

TEST(CppTarget, IntegerBitOperations) { run_case(porta::test::integer_bits_case()); }

TEST(CppTarget, LoopsBranchesEarlyReturnAndHelperTakingVec2) {
  const char* source = R"(#version 450
layout(local_size_x = 8) in;
layout(binding = 0) buffer Grid { vec2 pts[]; } grid;
layout(binding = 3) writeonly buffer Iter { int iterations[]; } iters;
layout(push_constant) uniform P { int max_iter; uint count; } pc;
int escape(vec2 c) {
  vec2 z = vec2(0.0);
  for (int k = 0; k < pc.max_iter; ++k) {
    if (dot(z, z) > 4.0) return k;
    z = vec2(z.x * z.x - z.y * z.y, 2.0 * z.x * z.y) + c;
  }
  return pc.max_iter;
}
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= pc.count) return;
  int n = escape(grid.pts[i]);
  switch (n % 3) {
    case 0: grid.pts[i].x = -1.0; break;
    case 1: grid.pts[i].y += 1.0; break;
    default: break;
  }
  iters.iterations[i] = n;
}
)";
  for (bool optimize : {true, false}) {
    CompiledKernel kernel(spirv_of(source, optimize));
    ASSERT_BUILT(kernel);
    if (!optimize) {
      EXPECT_NE(kernel.source().find("int escape(vec2 c)"), std::string::npos) << kernel.source();
    }
    const uint32_t count = 60;
    std::vector<float> pts(64 * 2), expected_pts;
    for (int i = 0; i < 64; ++i) {
      pts[i * 2] = -2.0f + 0.05f * float(i);
      pts[i * 2 + 1] = 0.6f - 0.02f * float(i);
    }
    expected_pts = pts;
    std::vector<int32_t> iterations(64, -5);
    struct {
      int32_t max_iter;
      uint32_t count;
    } push = {50, count};
    kernel.dispatch(8, 1, 1, {pts, iterations}, &push, sizeof(push));
    for (uint32_t i = 0; i < 64; ++i) {
      if (i >= count) {
        EXPECT_EQ(iterations[i], -5);
        continue;
      }
      const float cx = expected_pts[i * 2], cy = expected_pts[i * 2 + 1];
      float zx = 0, zy = 0;
      int n = 50;
      for (int k = 0; k < 50; ++k) {
        if (zx * zx + zy * zy > 4.0f) {
          n = k;
          break;
        }
        const float nx = zx * zx - zy * zy + cx, ny = 2.0f * zx * zy + cy;
        zx = nx;
        zy = ny;
      }
      EXPECT_EQ(iterations[i], n) << i;
      const float ex = n % 3 == 0 ? -1.0f : cx, ey = n % 3 == 1 ? cy + 1.0f : cy;
      EXPECT_EQ(pts[i * 2], ex) << i;
      EXPECT_EQ(pts[i * 2 + 1], ey) << i;
    }
  }
}

TEST(CppTarget, StructElementsFixedMembersAndBufferAtomics) {
  const char* source = R"(#version 450
layout(local_size_x = 32) in;
struct Particle { vec2 pos; vec2 vel; float mass; };
layout(binding = 0) buffer Particles { uint count; float dt; Particle items[]; } particles;
layout(binding = 1) buffer Stats { uint heavy; int min_x; uint hist[8]; } stats;
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= particles.count) return;
  Particle p = particles.items[i];
  p.pos += p.vel * particles.dt;
  particles.items[i] = p;
  if (p.mass > 2.0) atomicAdd(stats.heavy, 1u);
  atomicMin(stats.min_x, int(floor(p.pos.x)));
  atomicAdd(stats.hist[i % 8], 1u);
}
)";
  CompiledKernel kernel(spirv_of(source));
  ASSERT_BUILT(kernel);
  struct Particle {
    float pos[2], vel[2], mass, pad;
  };
  static_assert(sizeof(Particle) == 24);
  const uint32_t count = 50;
  std::vector<uint8_t> particles(8 + 64 * sizeof(Particle));
  const float dt = 0.5f;
  std::memcpy(&particles[0], &count, 4);
  std::memcpy(&particles[4], &dt, 4);
  std::vector<Particle> expected(64);
  for (int i = 0; i < 64; ++i) {
    Particle p{{float(i), -float(i)}, {1.0f - 0.1f * float(i), 2.0f}, float(i % 5), 0.0f};
    std::memcpy(&particles[8 + i * sizeof(Particle)], &p, sizeof(p));
    expected[i] = p;
  }
  std::vector<int32_t> stats(10, 0);
  stats[1] = INT_MAX;
  kernel.dispatch(2, 1, 1, {particles, stats});
  uint32_t heavy = 0;
  int32_t min_x = INT_MAX;
  for (uint32_t i = 0; i < count; ++i) {
    Particle& e = expected[i];
    e.pos[0] += e.vel[0] * dt;
    e.pos[1] += e.vel[1] * dt;
    heavy += e.mass > 2.0f;
    min_x = std::min(min_x, int32_t(std::floor(e.pos[0])));
    Particle got;
    std::memcpy(&got, &particles[8 + i * sizeof(Particle)], sizeof(got));
    EXPECT_EQ(got.pos[0], e.pos[0]) << i;
    EXPECT_EQ(got.pos[1], e.pos[1]) << i;
    EXPECT_EQ(got.mass, e.mass) << i;
  }
  EXPECT_EQ(uint32_t(stats[0]), heavy);
  EXPECT_EQ(stats[1], min_x);
  for (int b = 0; b < 8; ++b) EXPECT_EQ(stats[2 + b], int32_t((count + 7 - b) / 8)) << b;
}

TEST(CppTarget, Vec3InStructPacksWithFloat) {
  const char* source = R"(#version 450
layout(local_size_x = 4) in;
struct Sphere { vec3 center; float radius; };
layout(binding = 0) readonly buffer Spheres { Sphere spheres[]; };
layout(binding = 1) writeonly buffer Volumes { float volume[]; };
void main() {
  Sphere s = spheres[gl_GlobalInvocationID.x];
  volume[gl_GlobalInvocationID.x] = s.radius * s.radius * s.radius * 4.0 + s.center.z;
}
)";
  CompiledKernel kernel(spirv_of(source));
  ASSERT_BUILT(kernel);
  std::vector<float> spheres(8 * 4), volume(8);
  for (int i = 0; i < 32; ++i) spheres[i] = float(i) * 0.5f;
  kernel.dispatch(2, 1, 1, {spheres, volume});
  for (int i = 0; i < 8; ++i) {
    const float r = spheres[i * 4 + 3];
    EXPECT_EQ(volume[i], r * r * r * 4.0f + spheres[i * 4 + 2]) << i;
  }
}

TEST(CppTarget, Vec3ArrayIsReadAtItsStride16) {
  // A std430 vec3 array has 16-byte elements where C++'s vec3 takes 12: the
  // buffer is byte-addressed (translator/src/buffer_layout.cpp).
  const char* source = R"(#version 450
layout(local_size_x = 1) in;
layout(binding = 0) buffer Points { vec3 points[]; };
void main() { points[gl_GlobalInvocationID.x] *= 2.0; }
)";
  CompiledKernel kernel(spirv_of(source));
  ASSERT_BUILT(kernel);
  std::vector<float> points(12);
  for (size_t i = 0; i < points.size(); ++i) points[i] = float(i);
  kernel.dispatch(3, 1, 1, {points});
  for (size_t i = 0; i < points.size(); ++i)
    ASSERT_EQ(points[i], i % 4 == 3 ? float(i) : 2.0f * float(i)) << i << "\n" << kernel.source();
}

TEST(CppTarget, IntegerDivisionByZeroAndBitFunctionsMatchTheOtherTargets) {
  run_case(porta::test::integer_division_and_bits_case());
}

TEST(CppTarget, FloatFunctionsAndVectorsMatchTheOtherTargets) {
  run_case(porta::test::float_functions_and_vectors_case());
}

TEST(CppTarget, MathFunctionsMatchTheCLibrary) {
  const char* source = R"(#version 450
layout(local_size_x = 8) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float y[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  float v = x[i];
  float a = abs(v) + 0.5;
  y[i * 8 + 0] = exp(v) + exp2(v);
  y[i * 8 + 1] = log(a) + log2(a);
  y[i * 8 + 2] = pow(a, 1.7) + sqrt(a) + inversesqrt(a);
  y[i * 8 + 3] = sin(v) + cos(v) + tan(v * 0.3);
  y[i * 8 + 4] = atan(v, a) + atan(v) + tanh(v) + sinh(v * 0.5);
  y[i * 8 + 5] = floor(v) + ceil(v) + fract(v) + mod(v, 0.7) + sign(v) + trunc(v);
  y[i * 8 + 6] = mix(v, a, 0.3) + step(0.1, v) + smoothstep(-1.0, 1.0, v) + fma(v, a, 1.0);
  y[i * 8 + 7] = uintBitsToFloat(floatBitsToUint(v) ^ 0x80000000u) + float(isnan(v)) + float(isinf(v));
}
)";
  CompiledKernel kernel(spirv_of(source));
  ASSERT_BUILT(kernel);
  std::vector<float> x(16), y(16 * 8);
  for (int i = 0; i < 16; ++i) x[i] = -2.3f + 0.37f * float(i);
  kernel.dispatch(2, 1, 1, {x, y});
  for (int i = 0; i < 16; ++i) {
    const float v = x[i], a = std::fabs(v) + 0.5f;
    const float t = std::min(std::max((v + 1.0f) / 2.0f, 0.0f), 1.0f);
    const float expected[8] = {
        std::exp(v) + std::exp2(v),
        std::log(a) + std::log2(a),
        std::pow(a, 1.7f) + std::sqrt(a) + 1.0f / std::sqrt(a),
        std::sin(v) + std::cos(v) + std::tan(v * 0.3f),
        std::atan2(v, a) + std::atan(v) + std::tanh(v) + std::sinh(v * 0.5f),
        std::floor(v) + std::ceil(v) + (v - std::floor(v)) + (v - 0.7f * std::floor(v / 0.7f)) +
            (v > 0   ? 1.0f
             : v < 0 ? -1.0f
                     : 0.0f) +
            std::trunc(v),
        v * 0.7f + a * 0.3f + (v < 0.1f ? 0.0f : 1.0f) + t * t * (3.0f - 2.0f * t) + std::fma(v, a, 1.0f),
        -v};
    for (int c = 0; c < 8; ++c)
      EXPECT_NEAR(y[i * 8 + c], expected[c], 2e-6f * (1.0f + std::fabs(expected[c])))
          << "x=" << v << " c=" << c;
  }
}

// Bit casts of whole vectors (a uvec4 read as a vec4 and back), and
// float-to-int conversions that saturate (NaN gives 0); 32-bit ones compare
// as floats, the others as doubles.
TEST(CppTarget, VectorBitCastsAndSaturatingConversions) {
  const char* source = R"(#version 450
layout(local_size_x = 8) in;
layout(binding = 0) readonly buffer In { uvec4 bits[]; };
layout(binding = 1) readonly buffer Floats { float f[]; };
layout(binding = 2) writeonly buffer Out { vec4 v[]; };
layout(binding = 3) writeonly buffer Back { uvec4 back[]; };
layout(binding = 4) writeonly buffer Ints { ivec2 n[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  v[i] = intBitsToFloat(floatBitsToInt(uintBitsToFloat(bits[i]) * 2.0));
  back[i] = floatBitsToUint(uintBitsToFloat(bits[i]));
  n[i] = ivec2(int(f[i]), int(uint(f[i])));
}
)";
  CompiledKernel kernel(spirv_of(source));
  ASSERT_BUILT(kernel);
  const float cases[8] = {1.5f, -2.5f, 3e9f, -3e9f, 5e9f, std::nanf(""), 2147483520.0f, -2147483648.0f};
  std::vector<uint32_t> bits(8 * 4), back(8 * 4);
  std::vector<float> f(cases, cases + 8), v(8 * 4);
  std::vector<int32_t> n(8 * 2);
  for (int i = 0; i < 8 * 4; ++i) {
    const float value = 0.25f * float(i) - 3.0f;
    std::memcpy(&bits[i], &value, 4);
  }
  kernel.dispatch(1, 1, 1, {bits, f, v, back, n});
  for (int i = 0; i < 8 * 4; ++i) {
    EXPECT_EQ(v[i], 2.0f * (0.25f * float(i) - 3.0f)) << i;
    EXPECT_EQ(back[i], bits[i]) << i;
  }
  // int(x) and uint(x) saturate at the type's ends; NaN gives 0.
  const int32_t want_int[8] = {1, -2, INT32_MAX, INT32_MIN, INT32_MAX, 0, 2147483520, INT32_MIN};
  const uint32_t want_uint[8] = {1u, 0u, 3000000000u, 0u, UINT32_MAX, 0u, 2147483520u, 0u};
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(n[i * 2], want_int[i]) << "int(" << cases[i] << ")";
    EXPECT_EQ(uint32_t(n[i * 2 + 1]), want_uint[i]) << "uint(" << cases[i] << ")";
  }
}

TEST(CppTarget, BuiltInsInTwoDimensions) {
  const char* source = R"(#version 450
layout(local_size_x = 4, local_size_y = 2) in;
layout(binding = 0) writeonly buffer Ids { uvec4 ids[]; };
void main() {
  uvec3 g = gl_GlobalInvocationID;
  uint linear = g.y * (gl_NumWorkGroups.x * gl_WorkGroupSize.x) + g.x;
  ids[linear] = uvec4(gl_LocalInvocationIndex, gl_WorkGroupID.x * 10u + gl_WorkGroupID.y,
                      gl_LocalInvocationID.x + 100u * gl_LocalInvocationID.y, gl_NumWorkGroups.x * 1000u + gl_NumWorkGroups.y);
}
)";
  CompiledKernel kernel(spirv_of(source));
  ASSERT_BUILT(kernel);
  const uint32_t gx = 3, gy = 2, width = gx * 4, height = gy * 2;
  std::vector<uint32_t> ids(width * height * 4, 0xdeadu);
  kernel.dispatch(gx, gy, 1, {ids});
  for (uint32_t y = 0; y < height; ++y)
    for (uint32_t x = 0; x < width; ++x) {
      const uint32_t* id = &ids[(y * width + x) * 4];
      EXPECT_EQ(id[0], (x % 4) + 4 * (y % 2));
      EXPECT_EQ(id[1], (x / 4) * 10 + y / 2);
      EXPECT_EQ(id[2], (x % 4) + 100 * (y % 2));
      EXPECT_EQ(id[3], gx * 1000 + gy);
    }
}

TEST(CppTarget, LocalArraysAndConstantTables) {
  const char* source = R"(#version 450
layout(local_size_x = 4) in;
const float weights[5] = float[](0.1, 0.2, 0.4, 0.2, 0.1);
layout(binding = 0) readonly buffer Signal { float s[]; };
layout(binding = 1) writeonly buffer Smoothed { float o[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  float window[5];
  for (int k = 0; k < 5; ++k) window[k] = s[i + uint(k)];
  float copy[5] = window;
  float acc = 0.0;
  for (int k = 0; k < 5; ++k) acc += copy[k] * weights[k];
  o[i] = acc + weights[i % 5u];
}
)";
  for (bool optimize : {true, false}) {
    CompiledKernel kernel(spirv_of(source, optimize));
    ASSERT_BUILT(kernel);
    std::vector<float> s(20), o(16);
    for (int i = 0; i < 20; ++i) s[i] = float(i * i % 7);
    kernel.dispatch(4, 1, 1, {s, o});
    const float w[5] = {0.1f, 0.2f, 0.4f, 0.2f, 0.1f};
    for (int i = 0; i < 16; ++i) {
      float acc = 0.0f;
      for (int k = 0; k < 5; ++k) acc += s[i + k] * w[k];
      EXPECT_NEAR(o[i], acc + w[i % 5], 1e-6f) << i;
    }
  }
}

TEST(CppTarget, FunctionsWithOutParametersStructsArraysAndPrivateGlobals) {
  const char* source = R"(#version 450
layout(local_size_x = 4) in;
layout(binding = 0) buffer B { vec4 v[]; };
struct Pair { float a; int b; };
void split(in vec4 x, out vec2 lo, inout vec2 hi) { lo = x.xy; hi += x.zw; }
Pair make(float s) { Pair p; p.a = s; p.b = int(s); return p; }
float sum(float arr[3]) { return arr[0] + arr[1] + arr[2]; }
uint g_counter = 3u;
void bump() { g_counter += 1u; }
void main() {
  uint i = gl_GlobalInvocationID.x;
  vec2 lo, hi = vec2(1.0);
  split(v[i], lo, hi);
  Pair p = make(lo.x);
  float arr[3] = float[](lo.y, hi.x, hi.y);
  bump();
  vec4 r = vec4(sum(arr), float(p.b), p.a, float(g_counter));
  r.yx = r.xy;
  bvec2 c = lessThan(lo, hi);
  r.zw = mix(r.zw, vec2(0.0), c);
  if (!all(c) && any(not(c))) r.x = -r.x;
  v[i] = r;
}
)";
  for (bool optimize : {true, false}) {
    CompiledKernel kernel(spirv_of(source, optimize));
    ASSERT_BUILT(kernel);
    std::vector<float> v(8 * 4);
    for (size_t i = 0; i < v.size(); ++i) v[i] = float(int(i * 5 % 11) - 4) * 0.75f;
    const std::vector<float> in = v;
    kernel.dispatch(2, 1, 1, {v});
    for (int i = 0; i < 8; ++i) {
      const float x = in[i * 4], y = in[i * 4 + 1], z = in[i * 4 + 2], w = in[i * 4 + 3];
      const bool cx = x < 1.0f + z, cy = y < 1.0f + w;
      float r[4] = {float(int(x)), y + (1.0f + z) + (1.0f + w), cx ? 0.0f : x, cy ? 0.0f : 4.0f};
      if (!(cx && cy)) r[0] = -r[0];
      for (int c = 0; c < 4; ++c) EXPECT_EQ(v[i * 4 + c], r[c]) << "item " << i << " component " << c;
    }
  }
}

TEST(CppTarget, NamesThatAreCppKeywordsAreRenamed) {
  const char* source = R"(#version 450
layout(local_size_x = 1) in;
layout(binding = 0) buffer Explicit { float new[]; } friend;
layout(push_constant) uniform virtual { float delete; } operator;
float char(float signed) { return signed * 2.0; }
void main() { float auto = friend.new[0]; friend.new[0] = char(auto) + operator.delete; }
)";
  CompiledKernel kernel(spirv_of(source, false));
  ASSERT_BUILT(kernel);
  float value = 1.5f, push = 2.0f;
  kernel.dispatch(1, 1, 1, {&value}, &push, sizeof(push));
  EXPECT_EQ(value, 5.0f);
}

// Private vec4s that are only loaded and stored whole, or read by component,
// are declared as vec4_register (held in vector registers); one whose
// component is written, or that goes whole to a function, stays a vec4. Both
// must compute the same values.
TEST(CppTarget, PrivateVec4AccumulatorsAreHeldAsRegisters) {
  const char* source = R"(#version 450
#extension GL_EXT_control_flow_attributes : require
layout(local_size_x = 4) in;
layout(binding = 0) readonly buffer In { vec4 x[]; };
layout(binding = 1) writeonly buffer Out { float o[]; };
vec4 acc[2][3];
void main() {
  uint i = gl_GlobalInvocationID.x;
  vec4 single = vec4(0.5);
  vec4 written = vec4(0.0);
  [[unroll]] for (uint r = 0u; r < 2u; ++r)
    [[unroll]] for (uint q = 0u; q < 3u; ++q) acc[r][q] = vec4(float(r), float(q), 0.0, 1.0);
  for (uint k = 0u; k < 5u; ++k) {
    vec4 v = x[i * 5u + k];
    [[unroll]] for (uint r = 0u; r < 2u; ++r)
      [[unroll]] for (uint q = 0u; q < 3u; ++q) acc[r][q] = fma(v, vec4(float(r + q + 1u)), acc[r][q]);
    single = single * v + acc[1][2];
    written[k % 4u] += v.w;
  }
  float s = single.x + single.y * 2.0 + single.z * 3.0 + single[i % 4u];
  [[unroll]] for (uint r = 0u; r < 2u; ++r)
    [[unroll]] for (uint q = 0u; q < 3u; ++q) s += acc[r][q].x - acc[r][q].w + acc[r][q][i % 4u];
  o[i] = s + written.x + written.w;
}
)";
  // The same computation on the host, vec4 by vec4 as the kernel rounds it.
  auto expected = [](const std::vector<float>& x, uint32_t i) {
    float acc[2][3][4], single[4] = {0.5f, 0.5f, 0.5f, 0.5f}, written[4] = {0, 0, 0, 0};
    for (int r = 0; r < 2; ++r)
      for (int q = 0; q < 3; ++q) {
        const float init[4] = {float(r), float(q), 0.0f, 1.0f};
        for (int c = 0; c < 4; ++c) acc[r][q][c] = init[c];
      }
    for (uint32_t k = 0; k < 5; ++k) {
      const float* v = &x[(i * 5 + k) * 4];
      for (int r = 0; r < 2; ++r)
        for (int q = 0; q < 3; ++q)
          for (int c = 0; c < 4; ++c) acc[r][q][c] = std::fma(v[c], float(r + q + 1), acc[r][q][c]);
      for (int c = 0; c < 4; ++c) {
        const float product = single[c] * v[c];
        single[c] = product + acc[1][2][c];
      }
      written[k % 4] += v[3];
    }
    float s = single[0] + single[1] * 2.0f + single[2] * 3.0f + single[i % 4];
    for (int r = 0; r < 2; ++r)
      for (int q = 0; q < 3; ++q) {
        s += acc[r][q][0] - acc[r][q][3] + acc[r][q][i % 4];
      }
    return s + written[0] + written[3];
  };
  std::vector<float> x(8 * 5 * 4);
  for (size_t n = 0; n < x.size(); ++n) x[n] = float(int(n * 7 % 13) - 6) * 0.375f;
  for (bool optimize : {true, false}) {
    CompiledKernel kernel(spirv_of(source, optimize));
    ASSERT_BUILT(kernel);
    // Unoptimized, acc stays a private global (a work-item member, not a
    // local); optimized, it becomes locals, one per element.
    const std::string& text = kernel.source();
    if (optimize) {
      EXPECT_NE(text.find("porta_glsl::vec4_register _"), std::string::npos) << text;
    }
    EXPECT_NE(text.find("porta_glsl::vec4_register single"), std::string::npos) << text;
    EXPECT_EQ(text.find("porta_glsl::vec4_register written"), std::string::npos) << text;
    std::vector<float> o(8, -1.0f);
    kernel.dispatch(2, 1, 1, {x, o});
    for (uint32_t i = 0; i < 8; ++i)
      EXPECT_EQ(o[i], expected(x, i)) << "item " << i << (optimize ? " (optimized)" : "");
  }
}

// A kernel without barriers runs its items as the lanes of an `omp simd`
// loop (the form GCC vectorises, with masked loads and stores for the tail):
// items past n store nothing, and a buffer bound twice (in place) reads
// each element before its own item overwrites it.
TEST(CppTarget, BarrierFreeItemsRunAsSimdLanes) {
  const char* source = R"(#version 450
layout(local_size_x = 64) in;
layout(push_constant) uniform P { uint n; } p;
layout(binding = 0) readonly buffer A { float a[]; };
layout(binding = 1) readonly buffer B { float b[]; };
layout(binding = 2) writeonly buffer C { float c[]; };
void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i >= p.n) return;  // the tail: masked lanes
  c[i] = a[i] * b[i] + float(i);
}
)";
  CompiledKernel kernel(spirv_of(source));
  ASSERT_BUILT(kernel);
  EXPECT_NE(kernel.source().find("#pragma omp simd"), std::string::npos) << kernel.source();
  const uint32_t n = 1000, groups = (n + 63) / 64;
  std::vector<float> a(groups * 64), b(groups * 64), c(groups * 64, -1.0f);
  for (uint32_t i = 0; i < a.size(); ++i) a[i] = 0.25f * float(i) - 7.0f, b[i] = 3.0f - 0.5f * float(i);
  kernel.dispatch(groups, 1, 1, {a, b, c}, &n, sizeof n);
  for (uint32_t i = 0; i < c.size(); ++i) {
    const float expected = i < n ? a[i] * b[i] + float(i) : -1.0f;
    ASSERT_EQ(c[i], expected) << "item " << i;
  }
  std::vector<float> in_place = a;
  kernel.dispatch(groups, 1, 1, {in_place, b, in_place}, &n, sizeof n);
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(in_place[i], a[i] * b[i] + float(i)) << "item " << i;
}

// gl_GlobalInvocationID.x is a uint that wraps past 2^32 invocations; the
// SIMD loop assumes it does not only below that, and the last groups of the
// widest grid still wrap as GLSL says.
TEST(CppTarget, GlobalInvocationIdWrapsInTheLastGroups) {
  const char* source = R"(#version 450
layout(local_size_x = 64) in;
layout(binding = 0) writeonly buffer Ids { uint ids[]; };
void main() { ids[gl_LocalInvocationID.x] = gl_GlobalInvocationID.x + 3u; }
)";
  CompiledKernel kernel(spirv_of(source));
  ASSERT_BUILT(kernel);
  // 2^26 - 2: the last group assumed; 2^26 - 1 ends at 2^32 - 1; 2^26 starts again at 0.
  for (uint32_t group : {0u, 5u, (1u << 26) - 2u, (1u << 26) - 1u, 1u << 26, (1u << 28) + 3u}) {
    std::vector<uint32_t> ids(64, 0xdeadu);
    void* buffers[] = {ids.data()};
    const uint64_t sizes[] = {ids.size() * 4};
    porta_cpu_group_args args{};
    args.buffers = buffers;
    args.buffer_sizes = sizes;
    args.buffer_count = 1;
    args.group_id[0] = group;
    args.num_groups[0] = 0x7fffffffu;
    args.num_groups[1] = args.num_groups[2] = 1;
    kernel.entry().run_group(&args);
    for (uint32_t x = 0; x < 64; ++x) ASSERT_EQ(ids[x], uint32_t(group * 64u + x + 3u)) << "group " << group;
  }
}

// With bounds checks, a group whose last item passes every check of an
// access indexed by gl_GlobalInvocationID.x alone runs with those checks
// folded away; other groups check each item. At the edges each item still
// gets what its own check says: views that end inside the first group, inside
// the second, inside an element (a member 4 bytes into its block), and an
// int index, which turns negative past 2^31 where the uint would not.
TEST(CppTarget, GroupsWhoseLastItemIsInBoundsRunWithoutChecks) {
  const char* source = R"(#version 450
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer In { uint head; float x[]; };
layout(binding = 1) writeonly buffer Out { float o[]; };
layout(binding = 2) writeonly buffer Signed { float s[]; };
void main() {
  const uint i = gl_GlobalInvocationID.x;
  o[i] = x[i] + 1.0;
  s[int(i)] = 2.0;
}
)";
  CompiledKernel kernel(spirv_of(source), {}, true);
  ASSERT_BUILT(kernel);
  EXPECT_NE(kernel.source().find("bool porta_group_in_bounds() const"), std::string::npos) << kernel.source();
  EXPECT_NE(kernel.source().find("(porta_items_in_bounds || "), std::string::npos) << kernel.source();
  auto run = [&](uint32_t group, void* const* buffers, const uint64_t* sizes) {
    porta_cpu_group_args args{};
    args.buffers = const_cast<void**>(buffers);
    args.buffer_sizes = sizes;
    args.buffer_count = 3;
    args.group_id[0] = group;
    args.num_groups[0] = 1u << 26;
    args.num_groups[1] = args.num_groups[2] = 1;
    kernel.entry().run_group(&args);
  };
  const float sentinel = -7.0f;
  // x holds 100 whole elements and half of the 101st; o ends at `o_end` elements.
  for (uint32_t o_end : {50u, 90u, 128u}) {
    std::vector<float> in(1 + 128, 0.0f), o(128, sentinel), signed_out(128, sentinel);
    for (uint32_t n = 0; n < 128; ++n) in[1 + n] = float(n);
    void* buffers[] = {in.data(), o.data(), signed_out.data()};
    const uint64_t sizes[] = {4 + 100 * 4 + 2, o_end * 4u, 128 * 4};
    for (uint32_t group : {0u, 1u}) run(group, buffers, sizes);
    for (uint32_t n = 0; n < 128; ++n) {
      const float expected = n >= o_end ? sentinel : n < 100 ? float(n) + 1.0f : 1.0f;
      ASSERT_EQ(o[n], expected) << "item " << n << ", o of " << o_end << " elements";
      ASSERT_EQ(signed_out[n], 2.0f) << "item " << n;
    }
  }
  // s of 9 GiB (reserved, not committed): the group below 2^31 writes its
  // elements; the one from 2^31, negative as ints, writes nothing.
  const uint64_t bytes = 9ull << 30;
  void* large =
      mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (large == MAP_FAILED) GTEST_SKIP() << "no 9 GiB of address space for the int index past 2^31";
  std::unique_ptr<void, std::function<void(void*)>> unmap(large, [&](void* p) { munmap(p, bytes); });
  std::vector<float> in(2, 0.0f), o(1, sentinel);
  void* buffers[] = {in.data(), o.data(), large};
  const uint64_t sizes[] = {8, 4, bytes};
  const float* s = static_cast<const float*>(large);
  for (uint32_t group : {(1u << 25) - 1u, 1u << 25}) run(group, buffers, sizes);
  for (uint64_t n = (1ull << 31) - 64; n < (1ull << 31) + 64; ++n)
    ASSERT_EQ(s[n], n < (1ull << 31) ? 2.0f : 0.0f) << "element " << n;
  EXPECT_EQ(o[0], sentinel);
}

// With bounds checks, 64-bit indices that no buffer reaches are out of
// bounds: a negative int64, and a uint64 whose byte offset would wrap (2^62
// floats are 2^64 bytes: 0 wrapped). GLSL indexes with 32 bits only, so the
// module is SPIR-V assembly, as other front ends write it (three unnamed
// buffers of one block type, too).
TEST(CppTarget, SixtyFourBitIndicesPastEveryBufferAreOutOfBounds) {
  std::ifstream file(PORTA_SOURCE_DIR "/tests/robust/sixty_four_bit_indices.spvasm");
  const std::string text{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
  ASSERT_FALSE(text.empty()) << "tests/robust/sixty_four_bit_indices.spvasm";
  CompiledKernel kernel(pt::prepare(porta::test::assemble(text, SPV_ENV_VULKAN_1_1)), {}, true);
  ASSERT_BUILT(kernel);
  struct Push {
    int64_t s;
    uint64_t u;
  };
  const std::vector<float> x = {10.0f, 11.0f, 12.0f, 13.0f};
  for (const Push push :
       {Push{2, 1}, Push{-1, 1ull << 62}, Push{INT64_MIN, ~0ull}, Push{3, (1ull << 62) + 1}}) {
    std::vector<float> in = x, o(2, -1.0f), w(4, -1.0f);
    kernel.dispatch(1, 1, 1, {in, o, w}, &push, sizeof push);
    const bool s_in = push.s >= 0 && push.s < 4, u_in = push.u < 4;
    EXPECT_EQ(o[0], s_in ? x[push.s] + 1.0f : 1.0f) << "s " << push.s;
    EXPECT_EQ(o[1], u_in ? x[push.u] + 1.0f : 1.0f) << "u " << push.u;
    for (uint64_t i = 0; i < 4; ++i) {
      const float expected = s_in && i == uint64_t(push.s) ? 7.0f : u_in && i == push.u ? 8.0f : -1.0f;
      EXPECT_EQ(w[i], expected) << "w[" << i << "], s " << push.s << ", u " << push.u;
    }
  }
}

// exp and exp2 of a float are plain double arithmetic in porta_glsl.hpp (so
// the SIMD loop vectorises them): within 0.51 ulp of the exact value on a
// sample of every range (an exhaustive run over all 2^32 floats gave 0.5032
// at worst), overflow to inf, underflow to the rounded subnormal or 0, NaN.
TEST(CppTarget, ExpAndExp2OfFloatAreWithinAboutHalfAnUlp) {
  const char* source = R"(#version 450
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float y[]; };
layout(push_constant) uniform P { uint n; } p;
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < p.n) {
    y[2 * i] = exp(x[i]);
    y[2 * i + 1] = exp2(x[i]);
  }
}
)";
  CompiledKernel kernel(spirv_of(source));
  ASSERT_BUILT(kernel);
  std::vector<float> x;
  for (uint64_t bits = 0; bits <= 0xffffffffu; bits += 4099) {
    float v;
    const uint32_t b = uint32_t(bits);
    std::memcpy(&v, &b, sizeof v);
    x.push_back(v);
  }
  for (float v : {0.0f, -0.0f, 1.0f, -1.0f, 88.72283f, 88.72284f, 89.0f, -87.33654f, -103.97208f, -103.97209f,
                  127.0f, 128.0f, -126.0f, -149.0f, -149.5f, -150.0f, INFINITY, -INFINITY, NAN})
    x.push_back(v);
  const uint32_t n = uint32_t(x.size()), groups = (n + 63) / 64;
  x.resize(size_t(groups) * 64, 0.0f);
  std::vector<float> y(x.size() * 2);
  kernel.dispatch(groups, 1, 1, {x, y}, &n, sizeof n);
  // The error of `got` in units in the last place of the float nearest `exact`.
  auto ulps = [](float got, double exact) {
    if (std::isnan(exact)) return std::isnan(got) ? 0.0 : INFINITY;
    const float nearest = float(exact);
    if (std::isinf(nearest)) return got == nearest ? 0.0 : INFINITY;
    const double ulp = std::fabs(exact) < 0x1p-126 ? 0x1p-149 : std::ldexp(1.0, std::ilogb(nearest) - 23);
    return std::fabs(double(got) - exact) / ulp;
  };
  for (uint32_t i = 0; i < n; ++i) {
    ASSERT_LE(ulps(y[2 * i], std::exp(double(x[i]))), 0.51) << "exp(" << x[i] << ") = " << y[2 * i];
    ASSERT_LE(ulps(y[2 * i + 1], std::exp2(double(x[i]))), 0.51) << "exp2(" << x[i] << ") = " << y[2 * i + 1];
  }
}
