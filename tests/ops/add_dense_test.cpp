// add (NumPy broadcasting) and dense (y = act(x W^T + b), fused): every
// backend against a float64 oracle. add is one correctly rounded float add,
// so the expected result is the host's own float sum, bit for bit; dense is
// within gemm's bound (kernels/matmul/bound.hpp).
#include <cmath>
#include <vector>

#include "add/bound.hpp"
#include "matmul/bound.hpp"
#include "support.hpp"

namespace porta::test {
namespace {

porta::Device& device() {
  static porta::Device d = porta::open(backend_under_test());
  return d;
}

// a (shape sa) + b (shape sb) into out (shape so), all contiguous; the expected
// element of out is a[ia] + b[ib] with NumPy's index rules.
void check_broadcast(std::vector<uint64_t> sa, std::vector<uint64_t> sb, std::vector<uint64_t> so,
                     uint64_t seed) {
  auto count = [](const std::vector<uint64_t>& s) {
    uint64_t n = 1;
    for (uint64_t d : s) n *= d;
    return n;
  };
  const std::vector<float> a = random_floats(count(sa), seed), b = random_floats(count(sb), seed + 1);
  auto& dev = device();
  porta::Buffer ba = dev.upload(a), bb = dev.upload(b), bo = dev.buffer(count(so) * 4 + 4);
  bo.write(std::vector<float>(count(so) + 1, -7.0f));
  porta::Stream s = dev.stream();
  porta::ops::add(s, porta::Tensor(ba, porta::Span<const uint64_t>(sa.data(), sa.size()), {}),
                  porta::Tensor(bb, porta::Span<const uint64_t>(sb.data(), sb.size()), {}),
                  porta::Tensor(bo, porta::Span<const uint64_t>(so.data(), so.size()), {}));
  s.sync();
  const std::vector<float> got = bo.to_vector<float>();
  // Index of out element i in an operand of shape `sx` (aligned from the last dimension).
  auto index_in = [&](const std::vector<uint64_t>& sx, uint64_t i) {
    uint64_t idx = 0, step = 1, rem = i;
    for (size_t d = so.size(); d-- > 0;) {
      const uint64_t coordinate = rem % so[d];
      rem /= so[d];
      const size_t dx = d + sx.size() - so.size();
      if (d + sx.size() < so.size()) continue;
      if (sx[dx] != 1) idx += coordinate * step;
      step *= sx[dx];
    }
    return idx;
  };
  for (uint64_t i = 0; i < count(so); ++i)
    ASSERT_EQ(got[i], a[index_in(sa, i)] + b[index_in(sb, i)]) << "out element " << i;
  EXPECT_EQ(got[count(so)], -7.0f) << "add wrote past out";
}

TEST(Add, SameShapeIsCorrectlyRounded) {
  static_assert(porta::ops::kAddUlp == 0.5);
  for (uint64_t n : {1u, 3u, 4u, 5u, 255u, 257u, 4099u, 65537u}) check_broadcast({n}, {n}, {n}, n);
  check_broadcast({7, 9}, {7, 9}, {7, 9}, 11);
}

TEST(Add, BroadcastsLikeNumPy) {
  check_broadcast({37, 29}, {29}, {37, 29}, 1);               // a bias row over every row
  check_broadcast({29}, {37, 29}, {37, 29}, 2);               // the row first
  check_broadcast({37, 1}, {37, 29}, {37, 29}, 3);            // a column over every column
  check_broadcast({37, 29}, {1}, {37, 29}, 4);                // a scalar
  check_broadcast({5, 1}, {1, 6}, {5, 6}, 5);                 // an outer sum
  check_broadcast({2, 3, 4}, {3, 1}, {2, 3, 4}, 6);           // rank 3
  check_broadcast({2, 1, 3, 4}, {5, 1, 1}, {2, 5, 3, 4}, 7);  // rank 4, both broadcast
}

TEST(Add, StridedAndInPlace) {
  auto& dev = device();
  const uint64_t m = 13, n = 7;
  const std::vector<float> a = random_floats(m * n, 21), bias = random_floats(n, 22);
  porta::Buffer ba = dev.upload(a), bb = dev.upload(bias), bt = dev.buffer(m * n * 4);
  porta::Stream s = dev.stream();
  // out = a^T + bias[:, None]: a seen through its transposed strides.
  const uint64_t shape_t[] = {n, m}, shape_col[] = {n, 1};
  const int64_t strides_t[] = {1, int64_t(n)};
  porta::ops::add(s, porta::Tensor(ba, shape_t, strides_t), porta::Tensor(bb, shape_col, {}),
                  porta::Tensor(bt, {n, m}));
  // In place: a += bias (a row over every row).
  porta::ops::add(s, porta::Tensor(ba, {m, n}), porta::Tensor(bb, {n}), porta::Tensor(ba, {m, n}));
  s.sync();
  const std::vector<float> t = bt.to_vector<float>(), in_place = ba.to_vector<float>();
  for (uint64_t i = 0; i < m; ++i)
    for (uint64_t j = 0; j < n; ++j) {
      ASSERT_EQ(t[j * m + i], a[i * n + j] + bias[j]) << i << "," << j;
      ASSERT_EQ(in_place[i * n + j], a[i * n + j] + bias[j]) << i << "," << j;
    }
}

// dense against the float64 oracle at gemm's bound.
void check_dense(uint64_t batch, uint64_t in, uint64_t out, bool bias, porta_gemm_activation act, bool vector,
                 uint64_t seed) {
  const std::vector<float> x = random_floats(batch * in, seed), w = random_floats(out * in, seed + 1),
                           b = random_floats(out, seed + 2);
  auto& dev = device();
  porta::Buffer bx = dev.upload(x), bw = dev.upload(w), bb = dev.upload(b), by = dev.buffer(batch * out * 4);
  porta::Stream s = dev.stream();
  const porta::Tensor tb(bb, {out});
  if (vector)
    porta::ops::dense(s, porta::Tensor(bx, {in}), porta::Tensor(bw, {out, in}), bias ? &tb : nullptr,
                      porta::Tensor(by, {out}), act);
  else
    porta::ops::dense(s, porta::Tensor(bx, {batch, in}), porta::Tensor(bw, {out, in}), bias ? &tb : nullptr,
                      porta::Tensor(by, {batch, out}), act);
  s.sync();
  const std::vector<float> y = by.to_vector<float>();
  for (uint64_t r = 0; r < batch; ++r)
    for (uint64_t o = 0; o < out; ++o) {
      double z = bias ? b[o] : 0.0, abs_ab = 0;
      for (uint64_t k = 0; k < in; ++k) {
        z += double(x[r * in + k]) * w[o * in + k];
        abs_ab += std::fabs(double(x[r * in + k]) * w[o * in + k]);
      }
      const double bound =
          porta::ops::gemm_bound(act, z, porta::ops::gemm_sum_bound(in, abs_ab, 1, 0, 0, bias ? b[o] : 0.0));
      ASSERT_LE(std::fabs(y[r * out + o] - porta::ops::activate(act, z)), bound)
          << "y[" << r << "][" << o << "] batch " << batch << " in " << in << " out " << out;
    }
}

TEST(Dense, FusedBiasAndActivationWithinGemmBound) {
  check_dense(1, 1, 1, true, PORTA_GEMM_ACTIVATION_SIGMOID, false, 1);
  check_dense(37, 29, 13, true, PORTA_GEMM_ACTIVATION_SIGMOID, false, 2);
  check_dense(64, 100, 10, true, PORTA_GEMM_ACTIVATION_RELU, false, 3);
  check_dense(5, 300, 7, false, PORTA_GEMM_ACTIVATION_NONE, false, 4);
  check_dense(3, 17, 65, true, PORTA_GEMM_ACTIVATION_GELU_TANH, false, 5);
}

TEST(Dense, OneSampleAsAVector) { check_dense(1, 33, 9, true, PORTA_GEMM_ACTIVATION_SIGMOID, true, 6); }

TEST(Dense, RefusesMismatchedShapes) {
  auto& dev = device();
  porta::Buffer b = dev.buffer(4096);
  porta::Stream s = dev.stream();
  try {
    porta::ops::dense(s, porta::Tensor(b, {4, 3}), porta::Tensor(b, {2, 3}, 12), nullptr,
                      porta::Tensor(b, {4, 3}, 24));
    FAIL() << "y of the wrong shape was accepted";
  } catch (const porta::Error& e) {
    EXPECT_EQ(e.status(), PORTA_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(e.what()).find("operand 'y' is [4, 3]; expected [4, 2]"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace porta::test
