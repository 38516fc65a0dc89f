// Kernels that more than one runner executes — the translator's targets in
// process (tests/translator: cpp; tests/translator_opencl: OpenCL C on the
// OpenCL device) and the public API on each backend (tests/api) — each with
// its inputs and the host computation it must match, kept once. Their GLSL
// lives in tests/support/kernels/ (and tests/translator/kernels/), which
// all_test_kernels() reads too.
//
// A runner makes the kernel with `specs`, gives it `buffers` in binding order
// and `push`, runs `groups` work-groups, and hands the buffers as they came
// back to `check`, which adds the test's failures.
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "support/test_kernels.hpp"

namespace porta::test {

template <class T>
std::vector<uint8_t> bytes_of(const std::vector<T>& values) {
  std::vector<uint8_t> out(values.size() * sizeof(T));
  std::memcpy(out.data(), values.data(), out.size());
  return out;
}

template <class T>
std::vector<T> values_of(const std::vector<uint8_t>& bytes) {
  std::vector<T> out(bytes.size() / sizeof(T));
  std::memcpy(out.data(), bytes.data(), out.size() * sizeof(T));
  return out;
}

// A push-constant struct (or value) as the bytes a dispatch takes.
template <class T>
std::vector<uint8_t> push_of(const T& value) {
  std::vector<uint8_t> out(sizeof(T));
  std::memcpy(out.data(), &value, sizeof(T));
  return out;
}

inline uint32_t float_bits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof(bits));
  return bits;
}

struct SpecBits {
  uint32_t id;
  uint32_t bits;
};

struct KernelCase {
  std::string name;  // the kernel's file name, for messages
  std::string glsl;
  std::vector<SpecBits> specs;
  std::array<uint32_t, 3> groups{1, 1, 1};
  std::vector<std::vector<uint8_t>> buffers;  // in binding order
  std::vector<uint8_t> push;
  std::function<void(const std::vector<std::vector<uint8_t>>& buffers)> check;
};

namespace kernel_cases_detail {

// The GLSL of `file` under the repository (`PORTA_SOURCE_DIR`).
inline std::string kernel_source(const std::string& file) {
  const std::string text = test_kernels_detail::read_text(std::string(PORTA_SOURCE_DIR) + "/" + file);
  if (text.empty()) ADD_FAILURE() << "no kernel at " << PORTA_SOURCE_DIR << "/" << file;
  return text;
}

inline KernelCase make(const std::string& file) {
  KernelCase c;
  c.name = file.substr(file.rfind('/') + 1);
  c.glsl = kernel_source(file);
  return c;
}

}  // namespace kernel_cases_detail

// saxpy.comp: 1000 of 1024 elements, the rest left as they were.
inline KernelCase saxpy_case() {
  KernelCase c = kernel_cases_detail::make("tests/support/kernels/saxpy.comp");
  const uint32_t n = 1000;
  std::vector<float> x(1024), y(1024), out(1024, -7.0f);
  for (uint32_t i = 0; i < 1024; ++i) {
    x[i] = 0.5f * float(i);
    y[i] = 3.0f - float(i % 17);
  }
  struct {
    uint32_t n;
    float alpha;
  } push = {n, 1.25f};
  c.groups = {16, 1, 1};
  c.buffers = {bytes_of(x), bytes_of(y), bytes_of(out)};
  c.push = push_of(push);
  c.check = [x, y, n](const std::vector<std::vector<uint8_t>>& buffers) {
    const std::vector<float> out = values_of<float>(buffers[2]);
    for (uint32_t i = 0; i < 1024; ++i)
      ASSERT_EQ(out[i], i < n ? 1.25f * x[i] + y[i] : -7.0f)
          << (i < n ? "item " : "early return wrote ") << i;
  };
  return c;
}

// reduce_sum.comp with work groups of `group_size` (a spec constant that
// also sizes the shared array): one sum per group, of small integers (exact in
// any order), the elements past n counting as zero.
inline KernelCase reduce_sum_case(uint32_t group_size) {
  KernelCase c = kernel_cases_detail::make("tests/translator/kernels/reduce_sum.comp");
  const uint32_t groups = 8, n = groups * group_size - group_size / 2 - 3;
  std::vector<float> in(groups * group_size), sums(groups, -1.0f);
  for (size_t i = 0; i < in.size(); ++i) in[i] = float(i % 13);
  c.specs = {{0, group_size}};
  c.groups = {groups, 1, 1};
  c.buffers = {bytes_of(in), bytes_of(sums)};
  c.push = push_of(n);
  c.check = [in, n, group_size, groups](const std::vector<std::vector<uint8_t>>& buffers) {
    const std::vector<float> sums = values_of<float>(buffers[1]);
    for (uint32_t g = 0; g < groups; ++g) {
      float expected = 0;
      for (uint32_t i = g * group_size; i < (g + 1) * group_size; ++i) expected += i < n ? in[i] : 0.0f;
      EXPECT_EQ(sums[g], expected) << "group " << g;
    }
  };
  return c;
}

// spec_constants.comp with work groups of `group_size`, scale 2.5 and offset
// -4 over 256 elements.
inline KernelCase spec_constants_case(uint32_t group_size) {
  KernelCase c = kernel_cases_detail::make("tests/support/kernels/spec_constants.comp");
  std::vector<float> v(256);
  for (size_t i = 0; i < v.size(); ++i) v[i] = float(i);
  c.specs = {{0, group_size}, {1, float_bits(2.5f)}, {2, static_cast<uint32_t>(-4)}};
  c.groups = {256 / group_size, 1, 1};
  c.buffers = {bytes_of(v)};
  c.check = [group_size](const std::vector<std::vector<uint8_t>>& buffers) {
    const std::vector<float> v = values_of<float>(buffers[0]);
    for (size_t i = 0; i < v.size(); ++i)
      ASSERT_EQ(v[i], float(i) * 2.5f - 4.0f + float(group_size))
          << "work groups of " << group_size << ", item " << i;
  };
  return c;
}

// constants_in_two_functions.comp: each function's `group` is computed from a
// spec constant; the translation must keep the three values apart, not reuse
// one name for all of them.
inline KernelCase constants_in_two_functions_case() {
  KernelCase c = kernel_cases_detail::make("tests/support/kernels/constants_in_two_functions.comp");
  c.specs = {{0, 4}, {1, 5}};
  c.groups = {2, 1, 1};
  c.buffers = {bytes_of(std::vector<uint32_t>(8, 0))};
  c.check = [](const std::vector<std::vector<uint8_t>>& buffers) {
    for (uint32_t x : values_of<uint32_t>(buffers[0])) ASSERT_EQ(x, 8u + 20u * 100u + 9u * 10000u);
  };
  return c;
}

// integer_division_and_bits.comp: x / 0 and x % 0 are 0, INT_MIN / -1 wraps
// and INT_MIN % -1 is 0 (checked_div/rem of porta_glsl.hpp); GLSL's % on int
// is OpSMod, whose result takes the sign of the divisor.
inline KernelCase integer_division_and_bits_case() {
  KernelCase c = kernel_cases_detail::make("tests/support/kernels/integer_division_and_bits.comp");
  const std::vector<int32_t> a = {7, -7, 7, INT_MIN, 0, -1, 0x12345678, 1 << 20};
  const std::vector<int32_t> b = {2, 2, 0, -1, 0, 3, -5, 0};
  c.buffers = {bytes_of(a), bytes_of(b), bytes_of(std::vector<int32_t>(a.size() * 13, 99))};
  c.check = [a, b](const std::vector<std::vector<uint8_t>>& buffers) {
    const std::vector<int32_t> o = values_of<int32_t>(buffers[2]);
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
    auto div = [](int32_t x, int32_t y) -> int32_t {
      if (y == 0) return 0;
      if (y == -1) return int32_t(0u - uint32_t(x));
      return x / y;
    };
    auto rem = [](int32_t x, int32_t y) -> int32_t {
      int32_t r = y == 0 || y == -1 ? 0 : x % y;
      return r != 0 && (r < 0) != (y < 0) ? r + y : r;
    };
    for (size_t i = 0; i < a.size(); ++i) {
      const int32_t x = a[i], y = b[i];
      const uint32_t ux = uint32_t(x), uy = uint32_t(y);
      const int32_t* r = &o[i * 13];
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
      uint32_t reversed = 0;
      for (int bit = 0; bit < 32; ++bit) reversed |= ((ux >> bit) & 1u) << (31 - bit);
      EXPECT_EQ(uint32_t(r[12]), reversed) << i;
    }
  };
  return c;
}

// float_functions_and_vectors.comp on four vec4s with halves, negatives,
// zero and whole numbers.
inline KernelCase float_functions_and_vectors_case() {
  KernelCase c = kernel_cases_detail::make("tests/support/kernels/float_functions_and_vectors.comp");
  const std::vector<float> a = {1.25f, -2.75f, 7.5f, -7.5f, -0.5f, 3.5f,   -4.0f, 4.0f,
                                0.0f,  9.0f,   -1.f, 1.0f,  100.f, -0.25f, 2.0f,  -2.0f};
  c.buffers = {bytes_of(a), bytes_of(std::vector<float>(a.size() * 4, 0.0f))};
  c.check = [a](const std::vector<std::vector<uint8_t>>& buffers) {
    const std::vector<float> o = values_of<float>(buffers[1]);
    auto glsl_mod = [](float p, float q) { return p - q * std::floor(p / q); };
    for (size_t i = 0; i < 4; ++i) {
      const float* x = &a[i * 4];
      const float* r = &o[i * 16];
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
  };
  return c;
}

// vector_math.comp on 64 vec4s of sin(i) * 2, against float64 (the first two
// outputs, within 1e-5 relative) and exact float arithmetic.
inline KernelCase vector_math_case() {
  KernelCase c = kernel_cases_detail::make("tests/support/kernels/vector_math.comp");
  const uint32_t n = 64;
  std::vector<float> p(n * 4);
  for (size_t i = 0; i < p.size(); ++i) p[i] = std::sin(float(i)) * 2.0f;
  c.groups = {n / 16, 1, 1};
  c.buffers = {bytes_of(p), std::vector<uint8_t>(n * 16), std::vector<uint8_t>(n * 16),
               std::vector<uint8_t>(n * 8)};
  c.check = [p, n](const std::vector<std::vector<uint8_t>>& buffers) {
    const std::vector<float> r = values_of<float>(buffers[1]), y = values_of<float>(buffers[2]),
                             z = values_of<float>(buffers[3]);
    auto near = [](float got, double want) { return std::fabs(got - want) <= 1e-5 * (1 + std::fabs(want)); };
    for (uint32_t i = 0; i < n; ++i) {
      const double v0 = p[4 * i], v1 = p[4 * i + 1], v2 = p[4 * i + 2], v3 = p[4 * i + 3];
      const double a0 = v0 * 2 + v2, a1 = v1 * 2 + v3;
      const double dot = v0 * v2 + v1 * v3, len = std::sqrt(v0 * v0 + v1 * v1 + v2 * v2 + v3 * v3);
      const double reversed[4] = {len + 1, dot + 1, a1 + 1, a0 + 1};
      for (int k = 0; k < 4; ++k)
        EXPECT_PRED2(near, y[4 * i + k], reversed[k]) << "y, item " << i << " component " << k;
      EXPECT_FLOAT_EQ(z[2 * i], std::max<float>(p[4 * i + 1], 0.5f) - std::fabs(p[4 * i + 2])) << i;
      EXPECT_FLOAT_EQ(z[2 * i + 1], std::max<float>(p[4 * i], 0.5f) - std::fabs(p[4 * i + 3])) << i;
      // q.zw = q.wz * 2; q.xyz += vec3(q.xy, 1).zxy * 0.5
      const double x = v0 + 0.5, qy = v1 + v0 * 0.5, qz = v3 * 2 + v1 * 0.5, qw = v2 * 2;
      const double dx = std::max(x - 0.25, 0.0), dy = std::max(qy - 0.25, 0.0);
      const double result[4] = {std::sqrt(x * x + qy * qy) + qw * 0.5, (x * qz + qy * qw) + qz * 0.5,
                                std::min(qz, 1.5) + std::fabs(dx - dy) + qy * 0.5,
                                std::min(std::max(qw, -1.0), 1.0) + x * 0.5};
      for (int k = 0; k < 4; ++k)
        EXPECT_PRED2(near, r[4 * i + k], result[k]) << "r, item " << i << " component " << k;
    }
  };
  return c;
}

// vector_components.comp in 16 groups of 256: every item's components of the
// shared and the buffer vectors kept (one OpenCL compiler stored `t[i].y = v`
// as the whole vector, so items overwrote each other's components).
inline KernelCase vector_components_case() {
  KernelCase c = kernel_cases_detail::make("tests/support/kernels/vector_components.comp");
  const uint32_t n = 16 * 256;
  c.groups = {16, 1, 1};
  c.buffers = {std::vector<uint8_t>(n * 4), std::vector<uint8_t>(n * 4)};
  c.check = [n](const std::vector<std::vector<uint8_t>>& buffers) {
    const std::vector<float> o = values_of<float>(buffers[0]), v = values_of<float>(buffers[1]);
    for (uint32_t g = 0; g < n; ++g) {
      const uint32_t i = g % 256;
      ASSERT_EQ(o[g], float(i) + 1000.0f * float(2 * i)) << "shared vectors, item " << g;
      ASSERT_EQ(v[g], float(3 * g)) << "buffer vectors, item " << g;
    }
  };
  return c;
}

// integer_bits.comp on 64 values: 0, INT_MIN's bits, all ones and a spread
// of others.
inline KernelCase integer_bits_case() {
  KernelCase c = kernel_cases_detail::make("tests/support/kernels/integer_bits.comp");
  const uint32_t n = 64;
  std::vector<uint32_t> u(n);
  for (uint32_t i = 0; i < n; ++i) u[i] = uint32_t(i * 2654435761u) ^ uint32_t(i << 20);
  u[0] = 0;
  u[1] = 0x80000000u;
  u[2] = 0xFFFFFFFFu;
  c.groups = {n / 16, 1, 1};
  c.buffers = {bytes_of(u), std::vector<uint8_t>(11 * 4 * n), std::vector<uint8_t>(2 * 4 * n)};
  c.check = [u, n](const std::vector<std::vector<uint8_t>>& buffers) {
    const std::vector<uint32_t> r = values_of<uint32_t>(buffers[1]);
    const std::vector<int32_t> ri = values_of<int32_t>(buffers[2]);
    auto msb = [](uint32_t x) { return x ? 31 - __builtin_clz(x) : -1; };
    auto lsb = [](uint32_t x) { return x ? __builtin_ctz(x) : -1; };
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t x = u[i];
      const int32_t sx = int32_t(x);
      const uint32_t signed_field = uint32_t(int32_t(x << (32 - 3 - 5)) >> (32 - 5));
      const uint32_t inserted = (x & ~(7u << 28)) | (5u << 28);
      const uint32_t expected[11] = {
          (x << 3) ^ (x >> 5),
          (x & 0xF0F0F0F0u) | (~x & 0x0F0F0F0Fu),
          uint32_t(__builtin_popcount(x)),
          31u - __builtin_clz(x | 1u),
          x * 2654435761u + 12345u,
          x / 7u + x % 7u,
          (x >> 4) & 0xFFu,
          uint32_t(__builtin_ctz(x | 0x80000000u)),
          uint32_t(msb(x)) ^ (uint32_t(lsb(x)) << 8) ^ (uint32_t(msb(sx < 0 ? ~x : x)) << 16),
          ((x >> 4) & 0xFFu) | (signed_field << 8) | inserted,
          uint32_t(sx >> 2) + (x << 5) + x / 3u + (~x & 0xFFu)};
      for (int k = 0; k < 11; ++k) EXPECT_EQ(r[11 * i + k], expected[k]) << "item " << i << " result " << k;
      const int32_t s = int32_t(x - 2000000000u);
      const uint32_t magnitude = s < 0 ? 0u - uint32_t(s) : uint32_t(s);
      EXPECT_EQ(ri[2 * i], s / 13 + int32_t(magnitude % 13u)) << i;
      EXPECT_EQ(ri[2 * i + 1], s >> 3) << i;
    }
  };
  return c;
}

}  // namespace porta::test
