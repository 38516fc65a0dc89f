// Instruction semantics on the backend under test (PORTA_TEST_BACKEND): each
// kernel of kernels/ runs on inputs made here, and every word it writes is
// compared with what SPIR-V (and, where SPIR-V leaves it open, porta's
// documented choice) says, computed on the host. Integers are exact.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "porta/porta.hpp"
#include "support/backend_under_test.hpp"

namespace {

using Words = std::vector<uint32_t>;

std::string kernel_source(const std::string& name) {
  std::ifstream file(std::string(PORTA_INSTRUCTION_KERNELS) + "/" + name);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

// Deterministic words covering both signs and every bit.
Words random_words(size_t count, uint32_t seed) {
  Words words(count);
  uint64_t state = 0x9e3779b97f4a7c15ull * (seed + 1);
  for (auto& w : words) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    w = static_cast<uint32_t>(state >> 11);
  }
  return words;
}

int32_t s32(uint32_t w) { return static_cast<int32_t>(w); }
uint32_t u32(int64_t v) { return static_cast<uint32_t>(v); }

void expect_words(const Words& got, const Words& want) {
  ASSERT_EQ(got.size(), want.size());
  int reported = 0;
  for (size_t i = 0; i < want.size() && reported < 20; ++i)
    if (got[i] != want[i]) {
      ADD_FAILURE() << "word " << i << ": got 0x" << std::hex << got[i] << " (" << std::dec << s32(got[i])
                    << "), want 0x" << std::hex << want[i] << " (" << std::dec << s32(want[i]) << ")";
      ++reported;
    }
}

class Instructions : public ::testing::Test {
 protected:
  porta::Device device = porta::test::open_under_test();

  // Runs `name` on `groups` with `input` at binding 0 (when not empty) and an
  // output of `output_words` zero words after it; returns the output.
  Words run(const std::string& name, uint32_t groups, const Words& input, size_t output_words,
            const std::vector<porta::SpecConstant>& specs = {}) {
    porta::Kernel kernel = device.kernel(porta::glsl(kernel_source(name), name), specs);
    porta::Stream stream = device.stream();
    std::vector<porta::Buffer> buffers;
    if (!input.empty()) buffers.push_back(device.upload(input));
    buffers.push_back(device.upload(Words(output_words, 0u)));
    stream.dispatch_bytes(kernel, {groups}, porta::Span<const porta::Buffer>(buffers.data(), buffers.size()),
                          nullptr, 0);
    stream.sync();
    Words out(output_words);
    buffers.back().read(out);
    return out;
  }

  // Runs `name` as one group of 64 items over random_words(64, seed) and
  // expects, item after item, the words `item_words(i, a)` gives for item i.
  void expect_items(const std::string& name, uint32_t seed,
                    const std::function<Words(uint32_t i, const Words& a)>& item_words) {
    const Words a = random_words(64, seed);
    Words want;
    for (uint32_t i = 0; i < 64; ++i) {
      const Words w = item_words(i, a);
      want.insert(want.end(), w.begin(), w.end());
    }
    expect_words(run(name, 1, a, want.size()), want);
  }
};

// OpSMod: the result takes the divisor's sign.
int32_t smod(int32_t x, int32_t y) {
  const int32_t r = x % y;
  return r != 0 && ((r < 0) != (y < 0)) ? r + y : r;
}

TEST_F(Instructions, IntegerModuloTakesTheDivisorsSign) {
  expect_items("integer_mod.comp", 7, [](uint32_t i, const Words& a) -> Words {
    const int32_t x = s32(a[i]);
    int32_t y = s32(a[(i + 1) % 64]) >> 20;
    if (y == 0 || y == -1) y = 7;
    return {u32(smod(x, 3)), u32(smod(x, -5)), u32(smod(x, y)),
            u32(x / y),      u32(x / -3),      a[i] % static_cast<uint32_t>(y)};
  });
}

TEST_F(Instructions, SModOfSmallValues) {
  const Words r = run("smod_lavapipe.comp", 1, {u32(-7)}, 4);
  expect_words(r, {2u, u32(-1), u32(-2), 1u});
}

// porta takes a shift amount modulo the bit width (OpenCL C's rule; SPIR-V
// leaves amounts >= the width undefined).
TEST_F(Instructions, ShiftAmountsAreTakenModuloTheWidth) {
  expect_items("shifts.comp", 11, [](uint32_t i, const Words& a) -> Words {
    const int32_t x = s32(a[i]);
    const uint32_t s = (i < 32 ? i : a[(i + 1) % 64] & 63u) & 31u;
    const uint32_t vx = a[i] << s, vy = (a[i] ^ 0x5a5au) << 3;
    return {a[i] << s, u32(x >> s), a[i] >> s, vx ^ vy, (a[i] >> s) + (7u >> s), a[i] << 31};
  });
}

TEST_F(Instructions, SignedArithmeticWraps) {
  expect_items("wrap.comp", 5, [](uint32_t i, const Words& a) -> Words {
    const uint32_t x = i == 0 ? 0x80000000u : i == 1 ? 0x7fffffffu : a[i];
    const uint32_t y = a[(i + 1) % 64];
    return {x + y,
            x - y,
            x * y,
            0u - x,
            s32(x) < 0 ? 0u - x : x,
            x * 65537u + 0x7fffffffu,
            u32(int32_t(float(s32(0u - (x + 1u))) * 0.5f)),
            u32(std::min(s32(0u - (x ^ 1u)), 5)),
            u32(s32(0u - (x | 2u)) / 3)};
  });
}

int32_t find_msb(int32_t x) {
  const uint32_t u = static_cast<uint32_t>(x < 0 ? ~x : x);
  return u == 0 ? -1 : 31 - __builtin_clz(u);
}
int32_t find_umsb(uint32_t u) { return u == 0 ? -1 : 31 - __builtin_clz(u); }
int32_t find_lsb(uint32_t u) { return u == 0 ? -1 : __builtin_ctz(u); }
uint32_t extract_u(uint32_t v, int offset, int bits) {
  return bits == 0 ? 0u : (v >> offset) & (bits == 32 ? ~0u : (1u << bits) - 1u);
}
int32_t extract_s(uint32_t v, int offset, int bits) {
  if (bits == 0) return 0;
  return s32(v << (32 - offset - bits)) >> (32 - bits);
}
uint32_t insert(uint32_t base, uint32_t value, int offset, int bits) {
  const uint32_t mask = (bits == 32 ? ~0u : (1u << bits) - 1u) << offset;
  return (base & ~mask) | ((value << offset) & mask);
}
uint32_t reverse(uint32_t v) {
  uint32_t r = 0;
  for (int b = 0; b < 32; ++b) r |= ((v >> b) & 1u) << (31 - b);
  return r;
}

TEST_F(Instructions, BitOperationsOnScalarsAndVectors) {
  expect_items("bits.comp", 13, [](uint32_t i, const Words& a) -> Words {
    const uint32_t u = i == 0 ? 0u : i == 1 ? ~0u : a[i];
    const int32_t x = s32(u);
    const uint32_t y = a[(i + 1) % 64];
    const int offset = int(i % 17), bits = int(i % 16);
    Words w = {u32(__builtin_popcount(u)),
               u32(find_lsb(u)),
               u32(find_msb(x)),
               u32(find_umsb(u)),
               u32(extract_s(u, offset, bits)),
               extract_u(u, offset, bits),
               insert(u, y, offset, bits),
               reverse(u),
               u32(extract_s(u, offset, bits) ^ extract_s(y, offset, bits)),
               insert(u, y, offset, bits) + insert(~u, y, offset, bits) * 3u + insert(5u, y, offset, bits),
               reverse(u) ^ reverse(y)};
    const int32_t cx = __builtin_popcount(u) + find_lsb(u) + find_msb(x);
    const int32_t cy = __builtin_popcount(y) + find_lsb(0u) + find_msb(s32(y));
    w.push_back(u32(cx * 100 + cy));
    return w;
  });
}

TEST_F(Instructions, ExpressionsKeepTheirGrouping) {
  const Words a = random_words(64, 3);
  const Words r = run("float_grouping.comp", 1, a, 8 * 64);
  for (uint32_t i = 0; i < 64; ++i) {
    const int32_t q = s32(a[i]) >> 8;
    const float x = float(q) / 256.0f, y = float(s32(a[(i + 1) % 64]) >> 24) + 0.5f, c = 1.5f;
    auto fract = [](float v) { return v - std::floor(v); };
    auto mod = [](float v, float m) { return v - m * std::floor(v / m); };
    auto sign = [](int32_t v) { return (v > 0) - (v < 0); };
    const float want[8] = {fract(x) * c,
                           mod(x, y) * c,
                           c * mod(x, y) - mod(y, 0.75f),
                           float(sign(q) * 3),
                           float(find_lsb(uint32_t(q)) * 2),
                           float(s32(insert(uint32_t(q), 5u, 2, 3)) * 3),
                           fract(x) * c - fract(y) * c,
                           -fract(x)};
    for (int k = 0; k < 8; ++k) {
      const float got = std::bit_cast<float>(r[8 * i + k]);
      // mod divides: GLSL allows 2.5 ulp for x / y, which |x| < 2^23 magnifies.
      EXPECT_NEAR(got, want[k], 1e-3f * (1.0f + std::fabs(want[k]))) << "item " << i << " value " << k;
    }
  }
}

TEST_F(Instructions, ExpectIsItsValue) {
  Words v = random_words(64, 17);
  for (auto& w : v) w = u32(s32(w) >> 12);
  const Words in = v;
  porta::Kernel kernel =
      device.kernel(porta::glsl(kernel_source("expect_assume.comp"), "expect_assume.comp"));
  porta::Buffer buffer = device.upload(v);
  porta::Stream stream = device.stream();
  stream.dispatch(kernel, {1}, {buffer});
  stream.sync();
  buffer.read(v);
  Words want(64);
  for (size_t i = 0; i < 64; ++i) want[i] = in[i] * 2u + 1u;
  expect_words(v, want);
}

// Float functions: the backend under test against the CPU backend (whose
// C++ is itself compared with the C library on the host) within the kernel's
// tolerance in ulp.
uint32_t ulp_distance(uint32_t a, uint32_t b) {
  auto ordered = [](uint32_t w) {
    return (w & 0x80000000u) ? 0x80000000u - (w & 0x7fffffffu) : w + 0x80000000u;
  };
  const uint32_t x = ordered(a), y = ordered(b);
  return x > y ? x - y : y - x;
}

struct FloatKernel {
  const char* name;
  uint32_t ulp;
  size_t output_words;
};

class FloatFunctions : public Instructions, public ::testing::WithParamInterface<FloatKernel> {};

TEST_P(FloatFunctions, AgreeWithTheCpuBackend) {
  const auto [name, ulp, words] = GetParam();
  const Words a = random_words(64, 21);
  const Words got = run(name, 1, a, words);
  if (porta::test::testing_cpu()) return;  // ran; the other backends compare with it
  porta::Device cpu = porta::open("cpu");
  std::swap(device, cpu);
  const Words want = run(name, 1, a, words);
  std::swap(device, cpu);
  int reported = 0;
  for (size_t i = 0; i < words && reported < 20; ++i) {
    const bool both_nan =
        std::isnan(std::bit_cast<float>(got[i])) && std::isnan(std::bit_cast<float>(want[i]));
    if (!both_nan && ulp_distance(got[i], want[i]) > ulp) {
      ADD_FAILURE() << name << " word " << i << ": " << std::bit_cast<float>(got[i]) << ", the CPU backend "
                    << std::bit_cast<float>(want[i]) << " (" << ulp_distance(got[i], want[i]) << " ulp > "
                    << ulp << ")";
      ++reported;
    }
  }
}

// Atomics whose results do not depend on the order of the work-items: every
// word equals the CPU backend's, and on the CPU backend the host's sums.
TEST_F(Instructions, AtomicsOnBuffersAndSharedMemory) {
  const Words input = random_words(4 * 64, 9);
  const std::vector<std::pair<const char*, std::pair<size_t, Words>>> kernels = {
      {"atomics.comp", {16, input}},
      {"atomics_int64.comp", {12, random_words(4 * 64 * 2, 9)}},
      {"atomic_float_add.comp", {2, {}}}};
  for (const auto& [name, buffers] : kernels) {
    const porta::KernelSource source = porta::glsl(kernel_source(name), name);
    auto dispatch = [&](porta::Device& on) {
      porta::Kernel kernel = on.kernel(source);
      porta::Stream stream = on.stream();
      std::vector<porta::Buffer> bound = {on.upload(Words(buffers.first, 0u))};
      if (!buffers.second.empty()) bound.push_back(on.upload(buffers.second));
      stream.dispatch_bytes(kernel, {4}, porta::Span<const porta::Buffer>(bound.data(), bound.size()),
                            nullptr, 0);
      stream.sync();
      Words out(buffers.first);
      bound[0].read(out);
      return out;
    };
    Words got;
    try {
      got = dispatch(device);
    } catch (const porta::Error& e) {
      // A device without 64-bit or float atomics refuses the kernel, naming the feature.
      const std::string message = e.what();
      ASSERT_NE(message.find("needs atomic-"), std::string::npos) << message;
      std::printf("%s: refused as it should be: %s\n", name, message.c_str());
      continue;
    }
    if (std::string(name) == "atomic_float_add.comp")
      // 4 groups x 64 items add 0.5; each group adds 8 x (0 + 0.25 + ... + 1.75).
      expect_words(got, {0x43000000u /* 128 */, 0x43600000u /* 224 */});
    if (porta::test::testing_cpu()) {
      if (std::string(name) == "atomics.comp") {
        uint32_t sum = 0, ones = 0;
        for (uint32_t i = 0; i < 256; ++i) sum += (input[i] >> 8) & 0xffu, ones |= 1u << (i % 32);
        EXPECT_EQ(got[0], sum);
        EXPECT_EQ(got[4], ones);
        EXPECT_EQ(got[6], 256u);
        EXPECT_EQ(got[3], 0u);
      }
      continue;
    }
    porta::Device cpu = porta::open("cpu");
    SCOPED_TRACE(name);
    expect_words(got, dispatch(cpu));
  }
}

TEST_F(Instructions, ExtendedArithmeticStructResults) {
  expect_items("struct_results.comp", 33, [](uint32_t i, const Words& a) -> Words {
    const uint32_t x = a[i], y = a[(i + 5) % 64];
    const uint64_t product = uint64_t(x) * y;
    const int64_t signed_product = int64_t(s32(x)) * s32(y);
    auto add = [](uint32_t p, uint32_t q, uint32_t& carry) {
      carry = p + q < p;
      return p + q;
    };
    uint32_t c0, c1, c2;
    const uint32_t sum = add(x, y, c0);
    const uint32_t s2x = add(x, y, c1), s2y = add(y, x * 3u, c2);
    const int64_t h0 = int64_t(s32(x)) * -3, h1 = int64_t(s32(y)) * s32(x);
    const uint32_t mixed =
        uint32_t(uint64_t(h0) >> 32) ^ uint32_t(uint64_t(h1) >> 32) ^ uint32_t(h0) ^ uint32_t(h1);
    return {sum ^ (c0 << 31),
            (x - y) ^ (uint32_t(x < y) << 30),
            uint32_t(product >> 32),
            uint32_t(product),
            uint32_t(uint64_t(signed_product) >> 32),
            uint32_t(signed_product),
            s2x + s2y * 7u + c1 * 11u + c2 * 13u,
            mixed};
  });
}

// SPIR-V's OpSRem (the dividend's sign, C's %) next to OpSMod, and
// GLSL.std.450's NMin/NMax/NClamp, which take the other operand for a NaN.
TEST_F(Instructions, SRemAndNanAwareMinMax) {
  const Words a = random_words(64, 35);
  const Words r = run("nonstandard_ops.comp", 1, a, 4 * 64);
  for (uint32_t i = 0; i < 64; ++i) {
    const int32_t x = s32(a[i]);
    int32_t y = (s32(a[(i + 1) % 64]) >> 24) | 1;
    if (y == -1) y = 3;
    SCOPED_TRACE(i);
    EXPECT_EQ(s32(r[4 * i + 0]), x % y);
    EXPECT_EQ(s32(r[4 * i + 1]), smod(x, y));
    const float f = i % 4 == 0 ? NAN : float(x >> 16);
    const float nmin = std::isnan(f) ? 3.0f : std::fmin(f, 3.0f),
                nmax = std::isnan(f) ? -3.0f : std::fmax(f, -3.0f);
    EXPECT_EQ(s32(r[4 * i + 2]), int32_t(nmin + nmax));
    // NClamp of NaN: min(max(NaN, lo), hi) with NaN-aware min/max gives lo.
    EXPECT_EQ(s32(r[4 * i + 3]), std::isnan(f) ? -100 : int32_t(std::fmin(std::fmax(f, -100.0f), 100.0f)));
  }
}

// The twelve float comparisons (OpFOrdEqual ... OpFUnordGreaterThanEqual):
// ordered ones false, unordered ones true, where a side is NaN. C's == is
// ordered and its != unordered, so two of them are not their operators
// (scalars and vectors).
TEST_F(Instructions, OrderedAndUnorderedComparisons) {
  const Words a = random_words(128, 36);
  const Words r = run("float_comparisons.comp", 1, a, 64);
  const auto operand = [](uint32_t bits, uint32_t other) {
    return bits % 4 == 0 ? NAN : bits % 4 == 1 ? float(other % 5) : float(bits % 5);
  };
  for (uint32_t i = 0; i < 64; ++i) {
    const float x = operand(a[2 * i], a[2 * i + 1]), y = operand(a[2 * i + 1], a[2 * i]);
    const bool nan = std::isnan(x) || std::isnan(y);
    const bool results[] = {!nan && x == y, nan || x == y, !nan && x != y, nan || x != y,
                            !nan && x < y,  nan || x < y,  !nan && x > y,  nan || x > y,
                            !nan && x <= y, nan || x <= y, !nan && x >= y, nan || x >= y};
    uint32_t expected = 0;
    for (uint32_t bit = 0; bit < 12; ++bit) expected |= uint32_t(results[bit]) << bit;
    expected |= uint32_t(nan || x == y) << 12 | uint32_t(!nan && x != y) << 13;  // on vectors
    EXPECT_EQ(r[i], expected) << i << ": " << x << " against " << y;
  }
}

// Pack and unpack: every word equals the CPU backend's (porta_glsl.hpp's
// functions, round to nearest even); on the CPU backend, the unorm packing
// against the host.
TEST_F(Instructions, PackAndUnpack) {
  const Words a = random_words(64, 31);
  const Words got = run("pack_unpack.comp", 1, a, 12 * 64);
  if (porta::test::testing_cpu()) {
    for (uint32_t i = 0; i < 64; ++i) {
      uint32_t packed = 0;
      for (int c = 0; c < 4; ++c) {
        const float v = (float((a[i] >> (8 * c)) & 0xffu) + 0.25f) / 255.0f;
        packed |= uint32_t(std::nearbyint(std::fmin(std::fmax(v, 0.0f), 1.0f) * 255.0f)) << (8 * c);
      }
      EXPECT_EQ(got[12 * i + 0], packed) << i;
      EXPECT_EQ(got[12 * i + 11], a[i]) << i;  // unpack then pack again
    }
    return;
  }
  porta::Device cpu = porta::open("cpu");
  std::swap(device, cpu);
  const Words want = run("pack_unpack.comp", 1, a, 12 * 64);
  std::swap(device, cpu);
  expect_words(got, want);
}

TEST_F(Instructions, MixIsGlslsFormula) {
  const Words q = random_words(64, 41);
  const Words r = run("mix.comp", 1, q, 128);
  for (uint32_t i = 0; i < 64; ++i) {
    const float x = i % 8 == 0 ? INFINITY : float(s32(q[i]) >> 12) / 16.0f;
    const float y = float(s32(q[(i + 1) % 64]) >> 12) / 16.0f, a = float(i % 5) * 0.25f;
    auto mix = [](float p, float q, float t) { return p * (1.0f - t) + q * t; };
    const float want[2] = {mix(x, y, a), mix(x, y, a) + mix(y, -x, 0.5f)};
    for (int k = 0; k < 2; ++k) {
      const float got = std::bit_cast<float>(r[2 * i + k]);
      if (std::isinf(want[k]) || std::isnan(want[k])) {
        // 1 - a is 0 for a = 1: inf * 0 is NaN by GLSL's formula too.
        EXPECT_TRUE(std::isnan(want[k]) ? std::isnan(got) : got == want[k]) << i << " " << k << ": " << got;
      } else {
        EXPECT_NEAR(got, want[k], 4e-6f * (1.0f + std::fabs(want[k]))) << i << " " << k;
      }
    }
  }
}

TEST_F(Instructions, SmallIntegersWrapInConversions) {
  const Words a = random_words(64, 45);
  Words r;
  try {
    r = run("small_integers.comp", 1, a, 128);
  } catch (const porta::Error& e) {
    const std::string message = e.what();
    ASSERT_NE(message.find("needs int"), std::string::npos) << message;
    GTEST_SKIP() << message;
  }
  Words want;
  for (uint32_t i = 0; i < 64; ++i) {
    const int32_t x = s32(a[i]);
    const int16_t s = int16_t(x);
    const uint16_t us = uint16_t(x >> 3);
    const int8_t b = int8_t(x >> 5);
    const uint8_t ub = uint8_t(x >> 7);
    const int16_t t = int16_t(s * 3 + b);
    want.push_back(u32(int32_t(t) + int32_t(us) * 2));
    want.push_back(u32(int32_t(ub) - int32_t(b) - 7 + 44));
  }
  expect_words(r, want);
}

// Float to integer: truncation in range; porta's translated targets
// saturate out of range and give 0 for NaN (SPIR-V: undefined).
int32_t saturate_int(float v) {
  if (v != v) return 0;
  if (v <= -2147483648.0f) return INT32_MIN;
  if (v >= 2147483648.0f) return INT32_MAX;
  return int32_t(v);
}
uint32_t saturate_uint(float v) {
  if (v != v || v <= 0.0f) return 0;
  if (v >= 4294967296.0f) return UINT32_MAX;
  return uint32_t(v);
}

TEST_F(Instructions, FloatToIntegerSaturates) {
  const float values[16] = {0.0f, -0.75f, 3.99f, -3.99f, 2147483520.0f, 2147483648.0f, -2147483648.0f, -3e9f,
                            3e9f, 4e9f,   5e9f,  -1e30f, 1e30f,         INFINITY,      -INFINITY,      NAN};
  Words input(16);
  std::memcpy(input.data(), values, sizeof(values));
  const bool in_range_only = porta::test::backend_name_under_test() == "vulkan";
  const Words r = run("float_to_int.comp", 1, input, 64);
  for (uint32_t i = 0; i < 16; ++i) {
    const float v = values[i];
    // Vulkan drivers compile the SPIR-V themselves: only values in range are defined there.
    if (in_range_only && !(v > -2147483648.0f && v < 2147483648.0f && v > -1.0f)) continue;
    SCOPED_TRACE(v);
    EXPECT_EQ(r[4 * i + 0], u32(saturate_int(v)));
    EXPECT_EQ(r[4 * i + 1], saturate_uint(v));
    EXPECT_EQ(r[4 * i + 2], u32(saturate_int(v) ^ saturate_int(-v)));
    EXPECT_EQ(r[4 * i + 3], saturate_uint(v));
  }
}

// The same to 8- and 16-bit integers, from float and from float16_t: each
// saturates to the narrow type's own range.
template <class I>
int32_t saturate_narrow(float v) {
  const float lo = static_cast<float>(std::numeric_limits<I>::min()),
              hi = static_cast<float>(std::numeric_limits<I>::max());
  if (v != v) return 0;
  return v <= lo ? int32_t(lo) : v >= hi ? int32_t(hi) : int32_t(I(v));
}

TEST_F(Instructions, FloatToNarrowIntegerSaturates) {
  // Exact in half too (or infinite there), so both sources give one answer.
  const float values[16] = {0.0f,   -0.75f,    3.75f,    -3.75f,   127.5f, 128.0f,    -129.0f,  255.5f,
                            256.0f, -32768.0f, 32768.0f, 40000.0f, 1e30f,  -INFINITY, INFINITY, NAN};
  Words input(16);
  std::memcpy(input.data(), values, sizeof(values));
  if (porta::test::backend_name_under_test() == "vulkan")
    GTEST_SKIP() << "out-of-range conversions are undefined in SPIR-V; Vulkan drivers compile it themselves";
  const Words r = run("float_to_narrow_int.comp", 1, input, 64);
  for (uint32_t i = 0; i < 16; ++i) {
    const float v = values[i];
    const float h = std::fabs(v) > 65504.0f && !std::isnan(v) ? std::copysign(INFINITY, v) : v;
    SCOPED_TRACE(v);
    // The kernel's int arithmetic wraps: so does uint32_t's.
    auto pair = [](int32_t low, int32_t high, uint32_t scale) { return u32(low) + scale * u32(high); };
    EXPECT_EQ(r[4 * i + 0], pair(saturate_narrow<int16_t>(v), saturate_narrow<int16_t>(h), 65536u));
    EXPECT_EQ(r[4 * i + 1], pair(saturate_narrow<uint16_t>(v), saturate_narrow<uint16_t>(h), 65536u));
    EXPECT_EQ(r[4 * i + 2], pair(saturate_narrow<int8_t>(v), saturate_narrow<int8_t>(h), 256u));
    EXPECT_EQ(r[4 * i + 3], pair(saturate_narrow<uint8_t>(v), saturate_narrow<uint8_t>(h), 256u));
  }
}

// Spec constants of every kind, with the values given and with the defaults.
TEST_F(Instructions, SpecConstantsOfEveryKind) {
  struct Case {
    std::vector<porta::SpecConstant> specs;
    uint32_t group, n, m, k, flag;
    float scale;
  };
  const Case cases[] = {{{{0, 16u}, {1, 3u}, {2, -5}, {3, true}, {4, 2.5f}}, 16, 3, 7, uint32_t(-5), 1, 2.5f},
                        {{}, 1, 4, 9, 2, 0, 1.0f}};
  for (const Case& c : cases) {
    SCOPED_TRACE("work-group size " + std::to_string(c.group));
    const uint32_t items = 2 * c.group;
    const Words r = run("spec_constants.comp", 2, {}, 8 * items, c.specs);
    Words want;
    for (uint32_t g = 0; g < items; ++g) {
      const uint32_t l = g % c.group;
      want.insert(want.end(), {c.group, c.m + c.n * 100u + c.m * 10000u, 0u - c.k + c.k * 3u, c.flag,
                               uint32_t(float(c.m - 1) * c.scale * 2.0f), c.n - 1 + l + c.n * 1000u,
                               (l + 1) % c.group * 3u, c.m});
    }
    expect_words(r, want);
  }
}

// The tolerances of the kernels' porta-conformance lines: Vulkan allows 4096
// ulp for the atan2-based inverse functions, and drivers may fuse a * b + c.
INSTANTIATE_TEST_SUITE_P(Kernels, FloatFunctions,
                         ::testing::Values(FloatKernel{"glsl_std450.comp", 256, 32 * 64},
                                           FloatKernel{"glsl_std450_inverse_trig.comp", 4096, 6 * 64},
                                           FloatKernel{"composite_constants.comp", 4, 4 * 64}));

TEST_F(Instructions, SharedNullInitializerReadsZeroInEveryGroup) {
  const Words r = run("shared_null_initializer.comp", 4, {}, 4);
  // 1 + ... + 32 from the total, 8 + 8 from two counters, in each group.
  expect_words(r, {544u, 544u, 544u, 544u});
}

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  porta::test::skip_process_if_unavailable();
  return RUN_ALL_TESTS();
}
