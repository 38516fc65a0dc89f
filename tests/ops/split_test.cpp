// Ops on buffers larger than the device binds (porta_device_info's
// max_binding_bytes): the elementwise ops split into pieces that bind ranges,
// what cannot be split is refused naming the limit. The ctest entries
// ops.split.BACKEND lower the limit with PORTA_MAX_BINDING_BYTES, so that
// every backend splits small buffers (and elementwise_test.cpp runs split
// too); ops.large.vulkan runs mul and sigmoid over 2^28 floats (1 GiB) where
// the device itself binds less (lavapipe: 128 MiB).
#include <cmath>
#include <cstring>

#include "bounds.hpp"
#include "support.hpp"

namespace porta::test {
namespace {

uint64_t lowered_limit() {
  const char* env = std::getenv("PORTA_MAX_BINDING_BYTES");
  return env ? std::strtoull(env, nullptr, 0) : 0;
}

double exact_sigmoid(double x) { return x >= 0 ? 1 / (1 + std::exp(-x)) : std::exp(x) / (1 + std::exp(x)); }

// Elements enough that views of them, with the offsets below, span several
// pieces; 0 when the device binds buffers far larger than a test should make.
uint64_t elements_over_limit(const porta::Device& dev) {
  const uint64_t limit = dev.info().max_binding_bytes;
  if (limit > (64ull << 20)) return 0;
  return 3 * limit / sizeof(float) + 1237;
}

// Tests of ops on operands over the device's limit; skipped where it is large.
class SplitOps : public ::testing::Test {
 protected:
  void SetUp() override {
    n_elements = elements_over_limit(dev);
    if (n_elements == 0)
      GTEST_SKIP() << "the device binds " << dev.info().max_binding_bytes << " bytes; nothing to split";
  }
  porta::Device dev = porta::open(backend_under_test());
  uint64_t n_elements = 0;
};

TEST(Split, DeviceReportsTheLoweredLimit) {
  if (!lowered_limit()) GTEST_SKIP() << "runs under PORTA_MAX_BINDING_BYTES (ctest ops.split.*)";
  porta::Device dev = porta::open(backend_under_test());
  const porta_device_info info = dev.info();
  EXPECT_LE(info.max_binding_bytes, lowered_limit());
  EXPECT_GT(info.binding_offset_alignment, 0u);
}

// Offsets that put the views' first elements on and off the vec4 and the
// binding alignment; every result is compared with the host's, bit for bit
// (a float multiply is correctly rounded everywhere) or within sigmoid's bound.
TEST_F(SplitOps, ElementwiseOpsAcrossPieces) {
  const uint64_t n = n_elements;
  const std::vector<float> a = random_floats(n, 1), b = random_floats(n, 2);
  struct Offsets {
    uint64_t a, b, out;
  };
  for (const Offsets off : {Offsets{0, 0, 0}, Offsets{4, 8, 12}, Offsets{1, 2, 3}, Offsets{3, 0, 5}}) {
    SCOPED_TRACE("offsets " + std::to_string(off.a) + ", " + std::to_string(off.b) + ", " +
                 std::to_string(off.out));
    const uint64_t total = n + 16;
    auto upload = [&](const std::vector<float>& v, uint64_t at) {
      std::vector<float> padded(total, -7.0f);
      std::copy(v.begin(), v.end(), padded.begin() + static_cast<long>(at));
      porta::Buffer buffer = dev.buffer(total * sizeof(float));
      buffer.write(padded);
      return buffer;
    };
    porta::Buffer ba = upload(a, off.a), bb = upload(b, off.b),
                  bo = upload(std::vector<float>(n, NAN), off.out);
    porta::Stream s = dev.stream();
    porta::ops::mul(s, porta::Tensor(ba, {n}, off.a), porta::Tensor(bb, {n}, off.b),
                    porta::Tensor(bo, {n}, off.out));
    s.sync();
    std::vector<float> got = bo.to_vector<float>();
    size_t bad = 0;
    for (uint64_t i = 0; i < total && bad < 5; ++i) {
      const bool inside = i >= off.out && i < off.out + n;
      const float want = inside ? a[i - off.out] * b[i - off.out] : -7.0f;
      if (std::memcmp(&got[i], &want, 4) != 0) {
        ADD_FAILURE() << "mul: element " << i << " of the output buffer is " << got[i] << ", expected "
                      << want;
        ++bad;
      }
    }
    // scale in place, then fill a view, on the output buffer.
    porta::ops::scale(s, porta::Tensor(bo, {n}, off.out), -1.5f, porta::Tensor(bo, {n}, off.out));
    s.sync();
    std::vector<float> scaled = bo.to_vector<float>();
    bad = 0;
    for (uint64_t i = off.out; i < off.out + n && bad < 5; ++i) {
      const float want = got[i] * -1.5f;
      if (std::memcmp(&scaled[i], &want, 4) != 0) {
        ADD_FAILURE() << "scale: element " << i << " is " << scaled[i] << ", expected " << want;
        ++bad;
      }
    }
    porta::ops::sigmoid(s, porta::Tensor(ba, {n}, off.a), porta::Tensor(bo, {n}, off.out));
    s.sync();
    std::vector<float> sig = bo.to_vector<float>();
    bad = 0;
    for (uint64_t i = 0; i < n && bad < 5; ++i) {
      const double err = ulp_error(sig[off.out + i], exact_sigmoid(a[i]));
      if (err > kSigmoidUlp) {
        ADD_FAILURE() << "sigmoid(" << a[i] << ") at element " << i << " is " << sig[off.out + i] << ", "
                      << err << " ulp from exact (bound " << kSigmoidUlp << ")";
        ++bad;
      }
    }
    porta::ops::fill(s, porta::Tensor(bo, {n - 3}, off.out + 1), 0.25f);
    s.sync();
    std::vector<float> filled = bo.to_vector<float>();
    EXPECT_EQ(filled[off.out], sig[off.out]) << "fill wrote before its view";
    EXPECT_EQ(filled[off.out + n - 2], sig[off.out + n - 2]) << "fill wrote past its view";
    bad = 0;
    for (uint64_t i = off.out + 1; i < off.out + n - 2 && bad < 5; ++i)
      if (filled[i] != 0.25f) {
        ADD_FAILURE() << "fill: element " << i << " is " << filled[i];
        ++bad;
      }
  }
}

// matmul splits the rows of A and C; small integers keep every sum exact, so
// the pieces must give the unsplit product bit for bit.
TEST_F(SplitOps, MatmulSplitsRowsOfAAndC) {
  const uint64_t k = 24, n = 20, m = n_elements / k + 5;
  std::vector<float> ha(m * k), hb(k * n), want(m * n, 0.0f);
  for (uint64_t i = 0; i < ha.size(); ++i) ha[i] = static_cast<float>(static_cast<int>(i % 7) - 3);
  for (uint64_t i = 0; i < hb.size(); ++i) hb[i] = static_cast<float>(static_cast<int>(i % 5) - 2);
  for (uint64_t r = 0; r < m; ++r)
    for (uint64_t j = 0; j < n; ++j)
      for (uint64_t q = 0; q < k; ++q) want[r * n + j] += ha[r * k + q] * hb[q * n + j];
  // A one element into its buffer: pieces start off the alignment.
  std::vector<float> padded(m * k + 1, 0.0f);
  std::copy(ha.begin(), ha.end(), padded.begin() + 1);
  porta::Buffer a = dev.buffer(padded.size() * 4), b = dev.buffer(hb.size() * 4), c = dev.buffer(m * n * 4);
  a.write(padded);
  b.write(hb);
  porta::Stream s = dev.stream();
  porta::ops::matmul(s, porta::Tensor(a, {m, k}, 1), porta::Tensor(b, {k, n}), porta::Tensor(c, {m, n}));
  s.sync();
  const std::vector<float> got = c.to_vector<float>();
  size_t bad = 0;
  for (uint64_t i = 0; i < got.size() && bad < 5; ++i)
    if (got[i] != want[i]) {
      ADD_FAILURE() << "C[" << i / n << "][" << i % n << "] is " << got[i] << ", expected " << want[i];
      ++bad;
    }
}

// B is bound whole: one larger than the device binds is refused, naming the
// limit and the device.
TEST_F(SplitOps, MatmulWithBLargerThanTheLimitIsRefusedNamingIt) {
  const uint64_t m = 2, n = 2, k = n_elements / n + 1;
  porta::Buffer a = dev.buffer(m * k * 4), b = dev.buffer(k * n * 4), c = dev.buffer(m * n * 4);
  porta::Stream s = dev.stream();
  try {
    porta::ops::matmul(s, porta::Tensor(a, {m, k}), porta::Tensor(b, {k, n}), porta::Tensor(c, {m, n}));
    s.sync();
    ADD_FAILURE() << "a matmul with a " << k * n * 4 << "-byte B ran on a device that binds "
                  << dev.info().max_binding_bytes << " bytes";
  } catch (const porta::Error& e) {
    EXPECT_EQ(e.status(), PORTA_ERROR_UNSUPPORTED) << e.what();
    EXPECT_NE(std::string(e.what()).find("max_binding_bytes"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(dev.info().name), std::string::npos) << e.what();
  }
}

// 2^28 floats (1 GiB per buffer): mul then sigmoid, where the device binds
// less than a buffer (lavapipe: 128 MiB). PORTA_TEST_LARGE=1 (ctest label
// `large`) runs it: it needs 2 GiB of device memory and 1 GiB of host memory.
TEST(Large, MulAndSigmoidOverAGibibyte) {
  if (!std::getenv("PORTA_TEST_LARGE")) GTEST_SKIP() << "runs with PORTA_TEST_LARGE=1 (ctest -L large)";
  porta::Device dev = porta::open(backend_under_test());
  const uint64_t n = 1ull << 28, bytes = n * sizeof(float);
  if (dev.info().limits.max_buffer_bytes < bytes)
    GTEST_SKIP() << "the device's largest buffer is " << dev.info().limits.max_buffer_bytes << " bytes";
  RecordProperty("max_binding_bytes", std::to_string(dev.info().max_binding_bytes));
  // x[i] takes 2^16 values that repeat with a period no piece size divides.
  std::vector<float> host(n);
  for (uint64_t i = 0; i < n; ++i)
    host[i] = static_cast<float>(static_cast<int>(i % 65521) - 32760) / 4096.0f;
  porta::Buffer x = dev.buffer(bytes), y = dev.buffer(bytes);
  x.write(host);
  porta::Stream s = dev.stream();
  porta::ops::mul(s, porta::Tensor(x, {n}), porta::Tensor(x, {n}), porta::Tensor(y, {n}));
  porta::ops::sigmoid(s, porta::Tensor(y, {n}), porta::Tensor(x, {n}));
  s.sync();
  std::vector<float> sq(n);
  y.read(sq);
  size_t bad = 0;
  for (uint64_t i = 0; i < n && bad < 5; ++i) {
    const float want = host[i] * host[i];
    if (std::memcmp(&sq[i], &want, 4) != 0) {
      ADD_FAILURE() << "mul: element " << i << " is " << sq[i] << ", expected " << want;
      ++bad;
    }
  }
  x.read(host);
  bad = 0;
  for (uint64_t i = 0; i < n && bad < 5; ++i) {
    const double err = ulp_error(host[i], exact_sigmoid(sq[i]));
    if (err > kSigmoidUlp) {
      ADD_FAILURE() << "sigmoid(" << sq[i] << ") at element " << i << " is " << host[i] << ", " << err
                    << " ulp from exact (bound " << kSigmoidUlp << ")";
      ++bad;
    }
  }
}

}  // namespace
}  // namespace porta::test
