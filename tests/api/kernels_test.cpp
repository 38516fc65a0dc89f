// GLSL kernels through the public C++ API on the backend under test, each
// result checked against an exact or float64 host computation.
#include <cmath>
#include <cstring>
#include <numeric>
#include <random>

#include "support/device_test.hpp"
#include "support/kernel_cases.hpp"
#include "test_support.hpp"

namespace {

class Kernels : public porta::test::DeviceTest {
 protected:
  // Runs `c` on the device under test and checks its buffers; returns the kernel.
  porta::Kernel run(porta::test::KernelCase c) {
    std::vector<porta::SpecConstant> specs;
    for (const porta::test::SpecBits& spec : c.specs) specs.emplace_back(spec.id, spec.bits);
    SCOPED_TRACE(c.name);
    porta::Kernel k = dev.kernel(porta::glsl(c.glsl, c.name), specs);
    std::vector<porta::Buffer> buffers;
    for (const std::vector<uint8_t>& b : c.buffers) buffers.push_back(dev.upload(b));
    stream.dispatch_bytes(k, {c.groups[0], c.groups[1], c.groups[2]},
                          porta::Span<const porta::Buffer>(buffers.data(), buffers.size()),
                          c.push.empty() ? nullptr : c.push.data(), static_cast<uint32_t>(c.push.size()));
    for (size_t i = 0; i < buffers.size(); ++i) c.buffers[i] = read<uint8_t>(buffers[i], c.buffers[i].size());
    c.check(c.buffers);
    return k;
  }
};

std::vector<float> random_floats(size_t n, uint32_t seed, float lo = -4, float hi = 4) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(n);
  for (auto& x : v) x = d(rng);
  return v;
}

TEST_F(Kernels, SeveralBuffersAndPushConstants) {
  const char* src = R"(#version 450
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer A { float a[]; };
layout(binding = 1) readonly buffer B { float b[]; };
layout(binding = 2) readonly buffer C { float c[]; };
layout(binding = 3) writeonly buffer O { float o[]; };
layout(push_constant) uniform P { uint n; float alpha; float beta; } p;
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= p.n) return;
  o[i] = p.alpha * a[i] * b[i] + p.beta * c[i];
})";
  const uint32_t n = 1000;
  auto a = random_floats(n, 1), b = random_floats(n, 2), c = random_floats(n, 3);
  auto k = dev.kernel(porta::glsl(src, "axpby"));
  EXPECT_EQ(k.buffer_count(), 4u);
  EXPECT_EQ(k.push_constant_size(), 12u);
  auto ba = dev.upload(a), bb = dev.upload(b), bc = dev.upload(c);
  auto bo = dev.buffer(n * 4);
  struct {
    uint32_t n;
    float alpha, beta;
  } push{n, 1.5f, -0.25f};
  stream.dispatch(k, {(n + 63) / 64}, {ba, bb, bc, bo}, push);
  auto o = read<float>(bo, n);
  for (uint32_t i = 0; i < n; ++i) {
    double want = 1.5 * a[i] * b[i] + -0.25 * c[i];
    EXPECT_NEAR(o[i], want, 1e-5 * (1 + std::fabs(want))) << i;
  }
}

TEST_F(Kernels, SpecConstantsIncludingWorkgroupSize) {
  for (uint32_t wg : {1u, 32u, 128u}) {
    porta::Kernel k = run(porta::test::spec_constants_case(wg));
    EXPECT_EQ(k.workgroup_size()[0], wg);
  }
  // Defaults apply when nothing is given: local_size_x_id without a default literal is 1.
  auto k = dev.kernel(porta::glsl(porta::test::spec_constants_case(1).glsl, "spec-defaults"));
  EXPECT_EQ(k.workgroup_size()[0], 1u);
}

TEST_F(Kernels, SharedMemoryTreeReduction) {
  const char* src = R"(#version 450
layout(local_size_x = 128) in;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float sums[]; };
shared float partial[128];
void main() {
  uint l = gl_LocalInvocationID.x;
  partial[l] = x[gl_GlobalInvocationID.x];
  barrier();
  for (uint stride = 64; stride > 0; stride >>= 1) {
    if (l < stride) partial[l] += partial[l + stride];
    barrier();
  }
  if (l == 0) sums[gl_WorkGroupID.x] = partial[0];
})";
  const uint32_t groups = 37, n = groups * 128;
  auto x = random_floats(n, 7, 0, 1);
  auto k = dev.kernel(porta::glsl(src, "reduce"));
  auto bx = dev.upload(x);
  auto bs = dev.buffer(groups * 4);
  stream.dispatch(k, {groups}, {bx, bs});
  auto s = read<float>(bs, groups);
  for (uint32_t g = 0; g < groups; ++g) {
    double want = 0, abs_sum = 0;
    for (uint32_t i = 0; i < 128; ++i) {
      want += x[g * 128 + i];
      abs_sum += std::fabs(x[g * 128 + i]);
    }
    // Pairwise summation of 128 terms: |error| ≤ γ_7 · Σ|x|.
    double bound = 7 * 0x1p-24 / (1 - 7 * 0x1p-24) * abs_sum;
    EXPECT_NEAR(s[g], want, bound) << g;
  }
}

TEST_F(Kernels, BarrierInsideLoopShiftsThroughSharedMemory) {
  // Each step every item reads its neighbour's value written before the barrier:
  // a rotation that is only right if all items pass each barrier together.
  const char* src = R"(#version 450
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { uint v[]; };
layout(push_constant) uniform P { uint steps; };
shared uint ring[64];
void main() {
  uint l = gl_LocalInvocationID.x;
  uint mine = v[gl_GlobalInvocationID.x];
  for (uint s = 0; s < steps; ++s) {
    ring[l] = mine;
    barrier();
    mine = ring[(l + 1) % 64];
    barrier();
  }
  v[gl_GlobalInvocationID.x] = mine;
})";
  const uint32_t groups = 5, steps = 13;
  std::vector<uint32_t> v(groups * 64);
  std::iota(v.begin(), v.end(), 0u);
  auto k = dev.kernel(porta::glsl(src, "rotate"));
  auto b = dev.upload(v);
  stream.dispatch(k, {groups}, {b}, steps);
  auto o = read<uint32_t>(b, v.size());
  for (uint32_t g = 0; g < groups; ++g)
    for (uint32_t l = 0; l < 64; ++l) ASSERT_EQ(o[g * 64 + l], g * 64 + (l + steps) % 64) << g << " " << l;
}

TEST_F(Kernels, VectorMath) {
  if (porta::test::on_oclgrind(dev) && porta::test::oclgrind_checks_uninitialized())
    GTEST_SKIP() << "oclgrind 21.10 crashes (SIGSEGV) on this kernel's vector code when "
                    "OCLGRIND_UNINITIALIZED=1; api.opencl.oclgrind_races_bounds runs it with that check off";
  run(porta::test::vector_math_case());
}

TEST_F(Kernels, ItemsWriteTheirOwnComponentsOfVectors) {
  if (porta::test::on_oclgrind(dev))
    GTEST_SKIP() << "oclgrind 21.10 reports write-write races between the item that stores a vector's "
                    "component 0 (a float store its compiler marks 16-byte aligned) and those storing the "
                    "others, and loses a component, with or without this translation's scalar stores; "
                    "PoCL runs it in api.opencl";
  run(porta::test::vector_components_case());
}

TEST_F(Kernels, IntegerArithmeticAndBitOperations) { run(porta::test::integer_bits_case()); }

TEST_F(Kernels, LoopsBranchesEarlyReturnAndHelperFunction) {
  const char* src = R"(#version 450
layout(local_size_x = 8) in;
layout(binding = 0) buffer Data { int v[]; };
int collatz_steps(int x) {
  int steps = 0;
  while (x != 1 && steps < 1000) {
    if ((x & 1) == 0) x /= 2; else x = 3 * x + 1;
    steps++;
  }
  return steps;
}
void main() {
  uint i = gl_GlobalInvocationID.x;
  int x = v[i];
  if (x <= 0) { v[i] = -1; return; }
  int acc = 0;
  for (int k = 0; k < 4; ++k) {
    if (k == 2) continue;
    acc += collatz_steps(x + k);
  }
  v[i] = acc;
})";
  const uint32_t n = 40;
  std::vector<int32_t> v(n);
  for (uint32_t i = 0; i < n; ++i) v[i] = static_cast<int32_t>(i) - 3;
  auto k = dev.kernel(porta::glsl(src, "collatz"));
  auto b = dev.upload(v);
  stream.dispatch(k, {n / 8}, {b});
  auto o = read<int32_t>(b, n);
  auto steps = [](int x) {
    int s = 0;
    while (x != 1 && s < 1000) {
      x = (x % 2 == 0) ? x / 2 : 3 * x + 1;
      ++s;
    }
    return s;
  };
  for (uint32_t i = 0; i < n; ++i) {
    int x = v[i];
    int want = x <= 0 ? -1 : steps(x) + steps(x + 1) + steps(x + 3);
    EXPECT_EQ(o[i], want) << i;
  }
}

// The kind of compute shader people write for Vulkan (Kompute-style): blocks
// with any names, non-contiguous bindings, a float spec constant used in
// arithmetic, local_size_x = 1, helper functions taking vec2.
TEST_F(Kernels, KomputeStyleShaderRunsUnchanged) {
  const char* src = R"(#version 450
layout (local_size_x = 1) in;
layout(set = 0, binding = 0) buffer buf_in_a { float in_a[]; };
layout(set = 0, binding = 3) buffer buf_in_b { float in_b[]; };
layout(set = 0, binding = 7) buffer buf_out_algo { float out_algo[]; };
layout(constant_id = 0) const float m = 0;
float scaled_dot(vec2 p, vec2 q) { return dot(p, q) * m; }
void main() {
  uint index = gl_GlobalInvocationID.x;
  vec2 p = vec2(in_a[index], in_b[index]);
  out_algo[index] = scaled_dot(p, vec2(1.0, 2.0)) + m;
})";
  auto a = random_floats(17, 21), b = random_floats(17, 22);
  auto k = dev.kernel(porta::glsl(src, "kompute"), {{0, 2.5f}});
  auto ba = dev.upload(a), bb = dev.upload(b);
  auto bo = dev.buffer(17 * 4);
  stream.dispatch(k, {17}, {ba, bb, bo});
  auto o = read<float>(bo, 17);
  for (int i = 0; i < 17; ++i) {
    double want = (a[i] + 2.0 * b[i]) * 2.5 + 2.5;
    EXPECT_NEAR(o[i], want, 1e-5 * (1 + std::fabs(want))) << i;
  }
}

TEST_F(Kernels, SpirvWordsRunLikeGlsl) {
  // The same kernel given as SPIR-V words (compiled by glslc at build time).
  std::vector<uint32_t> words;
  {
    FILE* f = std::fopen(porta::test::spirv_path("scale.spv").c_str(), "rb");
    ASSERT_NE(f, nullptr);
    uint32_t w;
    while (std::fread(&w, 4, 1, f) == 1) words.push_back(w);
    std::fclose(f);
  }
  auto k = dev.kernel(porta::spirv(words, "scale.spv"));
  std::vector<float> v = {1, 2, 3, 4};
  auto b = dev.upload(v);
  stream.dispatch(k, {4}, {b}, 3.0f);
  EXPECT_EQ(read<float>(b, 4), (std::vector<float>{3, 6, 9, 12}));
}

}  // namespace

namespace {

TEST_F(Kernels, DeclaredButUnusedPushConstantsAreStillTheInterface) {
  const char* src = R"(#version 450
layout(local_size_x = 4) in;
layout(binding = 0) buffer D { uint v[]; };
layout(push_constant) uniform P { uint unused; float also_unused; };
void main() { v[gl_GlobalInvocationID.x] = 5u; })";
  auto k = dev.kernel(porta::glsl(src, "unused-push"));
  EXPECT_EQ(k.push_constant_size(), 8u);
  auto b = dev.buffer(16);
  struct {
    uint32_t a;
    float b;
  } push{1, 2};
  stream.dispatch(k, {1}, {b}, push);
  EXPECT_EQ(read<uint32_t>(b, 4), (std::vector<uint32_t>{5, 5, 5, 5}));
}

// Not a test of porta: run only by the oclgrind self-check entries
// (PORTA_TEST_OCLGRIND_SELF_CHECK=1), which expect oclgrind to report this
// kernel's out-of-bounds read and its write-write race on y[0], proving that
// the oclgrind entries' fail regex catches real reports. Its input comes from
// a host write, so the uninitialised-value checker has nothing to say.
TEST_F(Kernels, OclgrindSeesOutOfBoundsReadAndRace) {
  if (!std::getenv("PORTA_TEST_OCLGRIND_SELF_CHECK")) GTEST_SKIP() << "only for the oclgrind self-check";
  if (!porta::test::on_oclgrind(dev)) GTEST_SKIP() << "needs the Oclgrind device, not " << dev.name();
  const char* src = R"(#version 450
layout(local_size_x = 16) in;
layout(binding = 0) readonly buffer In { uint x[]; };
layout(binding = 1) writeonly buffer Out { uint y[]; };
layout(push_constant) uniform P { uint shift; };
void main() { y[0] = x[gl_GlobalInvocationID.x + shift]; })";
  auto k = dev.kernel(porta::glsl(src, "overrun_and_race"));
  std::vector<uint32_t> values(16);
  std::iota(values.begin(), values.end(), 1u);  // different values: oclgrind ignores races of equal writes
  auto x = dev.upload(values);
  auto y = dev.upload(std::vector<uint32_t>(16, 0));
  stream.dispatch(k, {1}, {x, y}, 4u);
  stream.sync();
}

}  // namespace
