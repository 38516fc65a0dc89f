// Ops on buffers larger than the device binds (porta_device_info's
// max_binding_bytes) and on views beyond the kernels' 32-bit indices (2^31 - 1
// elements): the elementwise ops and the logistic-regression step split into
// pieces that bind ranges, what cannot be split is refused naming the limit.
// The ctest entries ops.split.BACKEND lower the binding limit with
// PORTA_MAX_BINDING_BYTES, and ops.index.BACKEND the index limit with
// PORTA_MAX_INDEX_ELEMENTS, so that every backend splits small buffers (and
// elementwise_test.cpp runs split too); ops.large.vulkan runs mul and sigmoid
// over 2^28 floats (1 GiB) where the device itself binds less (lavapipe:
// 128 MiB), and ops.large.index.cpu a gradient and a step on int8 X of more
// than 2^31 elements.
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

// PORTA_MAX_INDEX_ELEMENTS (ops.index.*): the elements a kernel indexes from a
// binding's start, lowered from 2^31 - 1; 0 when not lowered.
uint64_t lowered_index_limit() {
  const char* env = std::getenv("PORTA_MAX_INDEX_ELEMENTS");
  return env ? std::strtoull(env, nullptr, 0) : 0;
}

double exact_sigmoid(double x) { return x >= 0 ? 1 / (1 + std::exp(-x)) : std::exp(x) / (1 + std::exp(x)); }

// Elements enough that views of them, with the offsets below, span several
// pieces; 0 when the device binds buffers far larger than a test should make.
uint64_t elements_over_limit(const porta::Device& dev) {
  uint64_t limit = dev.info().max_binding_bytes / sizeof(float);
  if (lowered_index_limit()) limit = std::min(limit, lowered_index_limit());
  if (limit > (16ull << 20)) return 0;
  return 3 * limit + 1237;
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
// the pieces must give the unsplit product bit for bit. Its views must stay
// within 32-bit indices: beyond (ops.index.*) it is refused, naming the limit.
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
  if (lowered_index_limit()) {
    try {
      porta::ops::matmul(s, porta::Tensor(a, {m, k}, 1), porta::Tensor(b, {k, n}), porta::Tensor(c, {m, n}));
      ADD_FAILURE() << "a matmul on A of " << m * k << " elements ran with the index limit lowered to "
                    << lowered_index_limit();
    } catch (const porta::Error& e) {
      EXPECT_EQ(e.status(), PORTA_ERROR_UNSUPPORTED) << e.what();
      EXPECT_NE(std::string(e.what()).find(std::to_string(lowered_index_limit()) + " elements"),
                std::string::npos)
          << e.what();
    }
    return;
  }
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
    const std::string limit =
        lowered_index_limit() ? std::to_string(lowered_index_limit()) : "max_binding_bytes";
    EXPECT_NE(std::string(e.what()).find(limit), std::string::npos) << e.what();
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

// add on same-shape contiguous views splits like mul (bit for bit: one
// correctly rounded add); broadcasting binds whole buffers, so a broadcast
// beyond the kernels' 32-bit indices (ops.index.*) is refused, naming the limit.
TEST_F(SplitOps, AddSplitsSameShapesAndRefusesBroadcastsBeyondIndices) {
  const uint64_t n = n_elements;
  const std::vector<float> a = random_floats(n, 5), b = random_floats(n, 6);
  porta::Buffer ba = dev.buffer(n * 4), bb = dev.buffer(n * 4), bo = dev.buffer((n + 3) * 4);
  ba.write(a);
  bb.write(b);
  porta::Stream s = dev.stream();
  porta::ops::add(s, porta::Tensor(ba, {n}), porta::Tensor(bb, {n}), porta::Tensor(bo, {n}, 3));
  s.sync();
  const std::vector<float> got = bo.to_vector<float>();
  size_t bad = 0;
  for (uint64_t i = 0; i < n && bad < 5; ++i) {
    const float want = a[i] + b[i];
    if (std::memcmp(&got[i + 3], &want, 4) != 0) {
      ADD_FAILURE() << "add: element " << i << " is " << got[i + 3] << ", expected " << want;
      ++bad;
    }
  }
  if (!lowered_index_limit()) return;
  const uint64_t cols = 16, rows = n / cols;
  try {
    porta::ops::add(s, porta::Tensor(ba, {rows, cols}), porta::Tensor(bb, {cols}),
                    porta::Tensor(bo, {rows, cols}));
    ADD_FAILURE() << "a broadcast add over " << rows * cols
                  << " elements ran with the index limit lowered to " << lowered_index_limit();
  } catch (const porta::Error& e) {
    EXPECT_EQ(e.status(), PORTA_ERROR_UNSUPPORTED) << e.what();
    EXPECT_NE(std::string(e.what()).find("at most " + std::to_string(lowered_index_limit()) + " elements"),
              std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("broadcasting binds it whole"), std::string::npos) << e.what();
  }
}

// A gradient and a step on int8 X of 2^31 + 2^18 elements (2 GiB and a bit),
// past the kernels' 32-bit indices: the op splits X into pieces that each
// bind a range. PORTA_TEST_LARGE=1 (ctest ops.large.index.cpu, label `large`)
// runs it: about 4.3 GB of host memory on the CPU backend.
//
// With w = 0 and b = 0 every z is 0 and every residual r = 1/2 - y is +-1/2;
// X holds small integers (scale 1), two per row at columns that a hash of the
// row picks. Every partial sum of X^T r and of r is then a multiple of 1/2
// below 2^23 in magnitude, exact in float32 in any order: the sums must equal
// the float64 reference over all rows bit for bit, so a piece left out, taken
// twice or read at a wrong offset shows. The loss (ln 2 per row) is checked
// within bound.hpp's error bound.
TEST(Large, LogregOnInt8XBeyond32BitIndices) {
  if (!std::getenv("PORTA_TEST_LARGE")) GTEST_SKIP() << "runs with PORTA_TEST_LARGE=1 (ctest -L large)";
  porta::Device dev = porta::open(backend_under_test());
  const uint64_t d = 256, m = (uint64_t{1} << 31) / d + 1024, n = m * d;
  if (dev.info().limits.max_buffer_bytes < n)
    GTEST_SKIP() << "the device's largest buffer is " << dev.info().limits.max_buffer_bytes << " bytes";
  ASSERT_GT(n, uint64_t{1} << 31);
  auto mix = [](uint64_t v) {  // splitmix64's finaliser
    v = (v ^ (v >> 30)) * 0xbf58476d1ce4e5b9ull;
    v = (v ^ (v >> 27)) * 0x94d049bb133111ebull;
    return v ^ (v >> 31);
  };
  std::vector<int8_t> x(n, 0);
  std::vector<float> y(m);
  std::vector<double> want(d + 2, 0.0);
  for (uint64_t i = 0; i < m; ++i) {
    const uint64_t h = mix(i + 1);
    y[i] = static_cast<float>(h & 1);
    const double r = 0.5 - y[i];
    for (const uint64_t k : {uint64_t{0}, uint64_t{1}}) {
      const uint64_t j = (h >> (8 + 16 * k)) % d;
      const int q = static_cast<int>((h >> (40 + 8 * k)) % 7) - 3;
      x[i * d + j] = static_cast<int8_t>(x[i * d + j] + q);
      want[j] += q * r;
    }
    want[d] += r;
  }
  porta::Buffer bx = dev.buffer(n), by = dev.buffer(m * 4), bw = dev.buffer(d * 4), bb = dev.buffer(4),
                scale = dev.buffer(d * 4), sums = dev.buffer((d + 2) * 4), loss = dev.buffer(4);
  bx.write(x);
  x = {};
  by.write(y);
  bw.write(std::vector<float>(d, 0.0f));
  bb.write(std::vector<float>{0.0f});
  scale.write(std::vector<float>(d, 1.0f));
  sums.write(std::vector<float>(d + 2, 0.0f));
  const porta::Tensor tx(bx, {m, d}, 0, PORTA_DTYPE_INT8), ty(by, {m}), tw(bw, {d}), tb(bb, {1}),
      ts(scale, {d});
  porta::Stream s = dev.stream();
  porta::ops::logreg_gradient(s, tx, &ts, ty, tw, tb, porta::Tensor(sums, {d + 2}));
  s.sync();
  const std::vector<float> got = sums.to_vector<float>();
  for (uint64_t j = 0; j <= d; ++j)
    EXPECT_EQ(got[j], want[j]) << (j < d ? "sum of x r, column " : "sum of r ") << j;
  const double loss_want = static_cast<double>(m) * std::log(2.0);
  const double per_unit = gamma_n(static_cast<double>(m) + 2) + 8 * kUnitRoundoff + gamma_n(d + 1.0) * 8;
  EXPECT_NEAR(got[d + 1], loss_want, per_unit * static_cast<double>(m)) << "sum of the losses";
  // The step from the same sums: w = -lr * (sum / m), b likewise, in float32.
  const float lr = 0.5f;
  porta::ops::logreg_step_scaled(s, tx, &ts, ty, tw, tb, lr, porta::Tensor(loss, {1}));
  s.sync();
  const std::vector<float> w = bw.to_vector<float>(), b = bb.to_vector<float>();
  for (uint64_t j = 0; j <= d; ++j) {
    const float step = -(lr * (static_cast<float>(want[j]) / static_cast<float>(m)));
    EXPECT_EQ(j < d ? w[j] : b[0], step) << (j < d ? "weight " : "bias ") << j;
  }
}

}  // namespace
}  // namespace porta::test
