// mul, sigmoid, scale and fill: the CPU backend against a float64 oracle,
// every other backend against the CPU backend (bounds.hpp).
#include <cfloat>
#include <cmath>
#include <limits>

#include "bounds.hpp"
#include "support.hpp"

namespace porta::test {
namespace {

// Lengths: 1, primes, around every vector width and work-group size, large.
const uint64_t kLengths[] = {
    1, 2, 3, 4, 5, 7, 8, 13, 31, 61, 64, 127, 255, 256, 257, 1021, 4099, 65537, (1u << 20) + 3};

struct Devices {
  porta::Device dut = porta::open(backend_under_test());
  std::optional<porta::Device> cpu;
  Devices() {
    if (!testing_cpu() && backend_available("cpu")) cpu = porta::open("cpu");
  }
};

Devices& devices() {
  static Devices d;
  return d;
}

// Uploads `host` at element `offset` of a buffer with one spare element after it.
porta::Buffer upload_at(porta::Device& dev, const std::vector<float>& host, uint64_t offset) {
  porta::Buffer b = dev.buffer((host.size() + offset + 1) * sizeof(float));
  std::vector<float> padded(host.size() + offset + 1, -7.0f);
  std::copy(host.begin(), host.end(), padded.begin() + static_cast<long>(offset));
  b.write(std::span<const float>(padded));
  return b;
}

std::vector<float> read_at(const porta::Buffer& b, uint64_t offset, uint64_t n) {
  std::vector<float> all = b.to_vector<float>();
  return std::vector<float>(all.begin() + static_cast<long>(offset),
                            all.begin() + static_cast<long>(offset + n));
}

std::vector<float> run_mul(porta::Device& dev, const std::vector<float>& a, const std::vector<float>& b,
                           uint64_t off_a, uint64_t off_b, uint64_t off_o) {
  const uint64_t n = a.size();
  porta::Buffer ba = upload_at(dev, a, off_a), bb = upload_at(dev, b, off_b);
  porta::Buffer bo = upload_at(dev, std::vector<float>(n, NAN), off_o);
  porta::Stream s = dev.stream();
  porta::ops::mul(s, porta::Tensor(ba, {n}, off_a), porta::Tensor(bb, {n}, off_b),
                  porta::Tensor(bo, {n}, off_o));
  s.sync();
  std::vector<float> all = bo.to_vector<float>();
  EXPECT_EQ(all.back(), -7.0f) << "mul wrote past the end of its output view";
  if (off_o) {
    EXPECT_EQ(all[off_o - 1], -7.0f) << "mul wrote before its output view";
  }
  return std::vector<float>(all.begin() + static_cast<long>(off_o), all.end() - 1);
}

void expect_same_bits(const std::vector<float>& got, const std::vector<float>& want,
                      const std::string& what) {
  ASSERT_EQ(got.size(), want.size());
  size_t bad = 0;
  for (size_t i = 0; i < got.size() && bad < 5; ++i)
    if (std::memcmp(&got[i], &want[i], 4) != 0) {
      ADD_FAILURE() << what << ": element " << i << " is " << got[i] << ", expected " << want[i];
      ++bad;
    }
}

TEST(Mul, CorrectlyRoundedAtEveryLengthAndOffset) {
  auto& d = devices();
  if (!testing_cpu() && !d.cpu) GTEST_SKIP() << "the CPU backend (the reference) is unavailable";
  // Offsets: all aligned (vec4 path + scalar tail), each one unaligned (scalar path).
  const uint64_t offsets[][3] = {{0, 0, 0}, {4, 8, 12}, {1, 0, 0}, {0, 3, 0}, {0, 0, 2}, {5, 6, 7}};
  for (uint64_t n : kLengths)
    for (const auto& off : offsets) {
      std::vector<float> a = random_floats(n, n * 7 + off[0], -1e3f, 1e3f);
      std::vector<float> b = random_floats(n, n * 11 + off[1], -1e3f, 1e3f);
      std::vector<float> got = run_mul(d.dut, a, b, off[0], off[1], off[2]);
      std::vector<float> want(n);
      if (testing_cpu()) {
        for (uint64_t i = 0; i < n; ++i) want[i] = static_cast<float>(static_cast<double>(a[i]) * b[i]);
      } else {
        want = run_mul(*d.cpu, a, b, off[0], off[1], off[2]);
      }
      expect_same_bits(got, want,
                       "mul n=" + std::to_string(n) + " offsets " + std::to_string(off[0]) + "," +
                           std::to_string(off[1]) + "," + std::to_string(off[2]));
    }
}

TEST(Mul, InPlace) {
  auto& d = devices();
  const uint64_t n = 1001;
  std::vector<float> a = random_floats(n, 1), b = random_floats(n, 2);
  porta::Buffer ba = d.dut.upload(a), bb = d.dut.upload(b);
  porta::Stream s = d.dut.stream();
  porta::ops::mul(s, porta::Tensor(ba, {n}), porta::Tensor(bb, {n}), porta::Tensor(ba, {n}));
  s.sync();
  std::vector<float> got = ba.to_vector<float>();
  for (uint64_t i = 0; i < n; ++i)
    ASSERT_EQ(got[i], static_cast<float>(static_cast<double>(a[i]) * b[i])) << i;
}

std::vector<float> run_sigmoid(porta::Device& dev, const std::vector<float>& x, uint64_t off) {
  const uint64_t n = x.size();
  porta::Buffer bx = upload_at(dev, x, off), bo = upload_at(dev, std::vector<float>(n, -1.0f), off);
  porta::Stream s = dev.stream();
  porta::ops::sigmoid(s, porta::Tensor(bx, {n}, off), porta::Tensor(bo, {n}, off));
  s.sync();
  return read_at(bo, off, n);
}

double exact_sigmoid(double x) { return x >= 0 ? 1 / (1 + std::exp(-x)) : std::exp(x) / (1 + std::exp(x)); }

TEST(Sigmoid, WithinBoundAtEveryLength) {
  auto& d = devices();
  if (!testing_cpu() && !d.cpu) GTEST_SKIP() << "the CPU backend (the reference) is unavailable";
  for (uint64_t n : kLengths) {
    std::vector<float> x = random_floats(n, n, -80.0f, 80.0f);
    const uint64_t off = n % 3;
    std::vector<float> got = run_sigmoid(d.dut, x, off);
    std::vector<float> ref = testing_cpu() ? std::vector<float>() : run_sigmoid(*d.cpu, x, off);
    double worst = 0;
    size_t bad = 0;
    for (uint64_t i = 0; i < n && bad < 5; ++i) {
      const double err =
          testing_cpu() ? ulp_error(got[i], exact_sigmoid(x[i])) : ulp_distance(got[i], ref[i]);
      const double bound = testing_cpu() ? kSigmoidUlp : 2 * kSigmoidUlp;
      worst = std::max(worst, err);
      if (err > bound) {
        ADD_FAILURE() << "sigmoid(" << x[i] << ") = " << got[i] << ", " << err << " ulp from "
                      << (testing_cpu() ? "exact" : "the CPU backend") << " (bound " << bound << ")";
        ++bad;
      }
    }
    RecordProperty("worst_ulp_n" + std::to_string(n), std::to_string(worst));
  }
}

TEST(Sigmoid, FiniteOverTheWholeRange) {
  auto& d = devices();
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> x = {0.0f,   -0.0f,   1e-30f,   -1e-30f, 88.0f, -88.0f, 100.0f, -100.0f, 1e30f,
                                -1e30f, FLT_MAX, -FLT_MAX, inf,     -inf,  NAN,    1e-45f, 17.0f,   -17.0f};
  std::vector<float> got = run_sigmoid(d.dut, x, 0);
  for (size_t i = 0; i < x.size(); ++i) {
    SCOPED_TRACE("sigmoid(" + std::to_string(x[i]) + ") = " + std::to_string(got[i]));
    if (std::isnan(x[i])) {
      EXPECT_TRUE(std::isnan(got[i]));
      continue;
    }
    ASSERT_TRUE(std::isfinite(got[i]));
    EXPECT_GE(got[i], 0.0f);
    EXPECT_LE(got[i], 1.0f);
    if (x[i] >= 100) {
      EXPECT_EQ(got[i], 1.0f);
    }
    if (x[i] <= -100) {
      EXPECT_LE(got[i], 1e-38f);  // exact value or flushed to 0
    }
    if (x[i] == 0) {
      EXPECT_EQ(got[i], 0.5f);
    }
  }
  EXPECT_EQ(got[12], 1.0f);  // +inf
  EXPECT_EQ(got[13], 0.0f);  // -inf
}

TEST(Scale, CorrectlyRoundedAndInPlace) {
  auto& d = devices();
  for (uint64_t n : {1ull, 5ull, 257ull, 65537ull}) {
    std::vector<float> x = random_floats(n, n + 3);
    porta::Buffer bx = d.dut.upload(x), bo = d.dut.buffer(n * 4);
    porta::Stream s = d.dut.stream();
    porta::ops::scale(s, porta::Tensor(bx, {n}), 0.3f, porta::Tensor(bo, {n}));
    porta::ops::scale(s, porta::Tensor(bx, {n}), -3.0f, porta::Tensor(bx, {n}));
    s.sync();
    std::vector<float> o = bo.to_vector<float>(), inplace = bx.to_vector<float>();
    for (uint64_t i = 0; i < n; ++i) {
      ASSERT_EQ(o[i], static_cast<float>(0.3f * static_cast<double>(x[i]))) << i;
      ASSERT_EQ(inplace[i], static_cast<float>(-3.0 * x[i])) << i;
    }
  }
}

TEST(Fill, WritesOnlyItsView) {
  auto& d = devices();
  const uint64_t n = 1000, off = 3;
  porta::Buffer b = upload_at(d.dut, std::vector<float>(n, 1.0f), off);
  porta::Stream s = d.dut.stream();
  porta::ops::fill(s, porta::Tensor(b, {10, 10}, off), 2.5f);
  s.sync();
  std::vector<float> all = b.to_vector<float>();
  for (uint64_t i = 0; i < all.size(); ++i) {
    const float want = i < off ? -7.0f : i < off + 100 ? 2.5f : i < off + n ? 1.0f : -7.0f;
    ASSERT_EQ(all[i], want) << i;
  }
}

}  // namespace
}  // namespace porta::test
