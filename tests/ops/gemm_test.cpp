// gemm: C = act(alpha op(A) op(B) + beta C + bias) over strided batches, with
// float32, float16 and bfloat16 inputs, on every backend against a float64
// oracle within gemm_bound (kernels/matmul/bound.hpp: gamma_{K+3} of the sum,
// then the activation's slope and rounding). Inputs are drawn from values the
// input type holds exactly, so the oracle sees what the kernel reads. Sizes
// 1, primes and non-multiples of the tiles, all four transposes, batches
// with a shared (rank-2) or per-batch A and B, padded rows and batches,
// offsets (odd ones for the 16-bit types: elements in the upper half of a word).
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "bounds.hpp"
#include "gemm_operands.hpp"
#include "support.hpp"

namespace porta::test {
namespace {

using ops::gemm_bound;
using ops::gemm_sum_bound;

struct Case {
  uint64_t m, n, k;
  porta_dtype input = PORTA_DTYPE_FLOAT32;
  bool ta = false, tb = false;
  uint64_t batch = 0;                       // 0: rank-2 C; else rank-3 C of this many matrices
  bool shared_a = false, shared_b = false;  // rank-2 A (B) used by every batch
  float alpha = 1.0f, beta = 0.0f;
  bool bias = false;
  porta_gemm_activation act = PORTA_GEMM_ACTIVATION_NONE;
  uint64_t pad = 0, offset = 0;
  bool tf32 = false;  // PORTA_GEMM_COMPUTE_ALLOW_TF32
};

std::string describe(const Case& t) {
  const char* input = t.input == PORTA_DTYPE_FLOAT16    ? "f16"
                      : t.input == PORTA_DTYPE_BFLOAT16 ? "bf16"
                                                        : "f32";
  return "M=" + std::to_string(t.m) + " N=" + std::to_string(t.n) + " K=" + std::to_string(t.k) + " " +
         input + " ta=" + std::to_string(t.ta) + " tb=" + std::to_string(t.tb) +
         " batch=" + std::to_string(t.batch) + (t.shared_a ? " shared A" : "") +
         (t.shared_b ? " shared B" : "") + " alpha=" + std::to_string(t.alpha) +
         " beta=" + std::to_string(t.beta) + (t.bias ? " bias" : "") + " act=" + std::to_string(t.act) +
         " pad=" + std::to_string(t.pad) + " offset=" + std::to_string(t.offset);
}

// One operand: its values (what the kernel reads) and its stored bits.
struct Matrix {
  std::vector<double> values;  // element e of the buffer
  porta::Buffer buffer;
  porta::Tensor view;
};

// A buffer of `elements` elements of `dtype` with values drawn from what the
// type holds exactly: multiples of 2^-10 in [-1, 1] (float16), of 2^-7
// (bfloat16), any float32 in [-1, 1].
Matrix make(porta::Device& dev, porta_dtype dtype, uint64_t elements, uint64_t seed) {
  Matrix m;
  std::vector<float> f = random_floats(elements, seed, -1, 1);
  if (dtype == PORTA_DTYPE_FLOAT32) {
    m.values.assign(f.begin(), f.end());
    m.buffer = dev.upload(f);
    return m;
  }
  for (float& v : f) {
    v = representable(v, dtype);
    m.values.push_back(v);
  }
  m.buffer = dev.upload(pack16(f, dtype));
  return m;
}

void check(porta::Device& dev, const Case& t, uint64_t seed) {
  SCOPED_TRACE(describe(t));
  const uint64_t batches = std::max<uint64_t>(t.batch, 1);
  const uint64_t a_rows = t.ta ? t.k : t.m, a_cols = t.ta ? t.m : t.k;
  const uint64_t b_rows = t.tb ? t.n : t.k, b_cols = t.tb ? t.k : t.n;
  const uint64_t lda = a_cols + t.pad, ldb = b_cols + t.pad, ldc = t.n + t.pad;
  // Batches lie a padded matrix apart.
  const uint64_t sa = a_rows * lda + t.pad, sb = b_rows * ldb + t.pad, sc = t.m * ldc + t.pad;
  const uint64_t na = t.shared_a ? 1 : batches, nb = t.shared_b ? 1 : batches;
  Matrix a = make(dev, t.input, t.offset + na * sa, seed);
  Matrix b = make(dev, t.input, t.offset + nb * sb, seed + 1);
  Matrix c = make(dev, PORTA_DTYPE_FLOAT32, t.offset + batches * sc, seed + 2);
  Matrix bias = make(dev, PORTA_DTYPE_FLOAT32, t.offset + t.n, seed + 3);
  const std::vector<float> c_old = c.buffer.to_vector<float>();
  a.view = matrix_view(a.buffer, t.input, t.shared_a ? 0 : t.batch, a_rows, a_cols, lda, sa, t.offset);
  b.view = matrix_view(b.buffer, t.input, t.shared_b ? 0 : t.batch, b_rows, b_cols, ldb, sb, t.offset);
  c.view = matrix_view(c.buffer, PORTA_DTYPE_FLOAT32, t.batch, t.m, t.n, ldc, sc, t.offset);
  bias.view = porta::Tensor(bias.buffer, {t.n}, t.offset);
  porta::ops::GemmOptions options;
  options.alpha = t.alpha;
  options.beta = t.beta;
  options.trans_a = t.ta;
  options.trans_b = t.tb;
  options.bias = t.bias ? &bias.view : nullptr;
  options.activation = t.act;
  options.compute = t.tf32 ? PORTA_GEMM_COMPUTE_ALLOW_TF32 : PORTA_GEMM_COMPUTE_DEFAULT;
  porta::Stream s = dev.stream();
  try {
    porta::ops::gemm(s, a.view, b.view, c.view, options);
  } catch (const porta::Error& e) {
    // PORTA_GEMM_KERNEL=coopmat (ops.gemm_coopmat.*) forces the
    // cooperative-matrix kernel; a device that cannot run its variant refuses
    // by name, which is a skip here (the entry without the knob tests the
    // device's own choice).
    const char* knob = std::getenv("PORTA_GEMM_KERNEL");
    if (knob && std::string(knob) == "coopmat" && e.status() == PORTA_ERROR_UNSUPPORTED)
      GTEST_SKIP() << describe(t) << ": " << e.what();
    throw;
  }
  s.sync();
  const std::vector<float> got = c.buffer.to_vector<float>();
  int bad = 0;
  std::vector<bool> inside(got.size(), false);
  for (uint64_t q = 0; q < batches; ++q)
    for (uint64_t i = 0; i < t.m; ++i)
      for (uint64_t j = 0; j < t.n; ++j) {
        const uint64_t a0 = t.offset + (t.shared_a ? 0 : q * sa), b0 = t.offset + (t.shared_b ? 0 : q * sb);
        double exact = 0, abs_ab = 0;
        for (uint64_t p = 0; p < t.k; ++p) {
          const double av = a.values[a0 + (t.ta ? p * lda + i : i * lda + p)];
          const double bv = b.values[b0 + (t.tb ? j * ldb + p : p * ldb + j)];
          exact += av * bv;
          abs_ab += std::fabs(av * bv);
        }
        const uint64_t at = t.offset + q * sc + i * ldc + j;
        inside[at] = true;
        const double old = c_old[at], bj = t.bias ? bias.values[t.offset + j] : 0.0;
        const double z = t.alpha * exact + (t.beta == 0 ? 0.0 : t.beta * old) + bj;
        const double want = ops::activate(t.act, z);
        // TF32 keeps 10 mantissa bits of each input: each product may be
        // off by about 2^-10 of its size (2^-9 bounds it), on top of the
        // float32 bound that a device without a TF32 path meets.
        const double tf32 = t.tf32 ? std::ldexp(1.0, -9) * std::fabs(t.alpha) * abs_ab : 0.0;
        const double limit =
            gemm_bound(t.act, z, gemm_sum_bound(t.k, abs_ab, t.alpha, t.beta, old, bj) + tf32);
        const double err = std::fabs(got[at] - want);
        if (!(err <= limit) && bad++ < 5)
          ADD_FAILURE() << "C[" << q << "][" << i << "][" << j << "] = " << got[at] << ", exact " << want
                        << ", error " << err << " > bound " << limit;
      }
  for (uint64_t at = 0; at < got.size(); ++at)
    if (!inside[at]) {
      ASSERT_EQ(got[at], c_old[at]) << "gemm wrote outside C at element " << at;
    }
}

const porta_dtype kInputs[] = {PORTA_DTYPE_FLOAT32, PORTA_DTYPE_FLOAT16, PORTA_DTYPE_BFLOAT16};

TEST(Gemm, InputTypesSizesAndTransposes) {
  porta::Device dev = porta::open(backend_under_test());
  uint64_t seed = 1;
  for (porta_dtype input : kInputs) {
    for (const Case& t :
         {Case{1, 1, 1}, Case{7, 13, 5}, Case{33, 31, 17}, Case{65, 63, 129}, Case{130, 67, 33}})
      check(dev, {t.m, t.n, t.k, input}, seed++);
    for (bool ta : {false, true})
      for (bool tb : {false, true}) check(dev, {37, 29, 41, input, ta, tb}, seed++);
    // Odd offsets and row strides: 16-bit elements in either half of a word.
    check(dev,
          {45, 38, 23, input, true, false, 0, false, false, -1.5f, 0.25f, false, PORTA_GEMM_ACTIVATION_NONE,
           3, 5},
          seed++);
  }
}

// Shapes whose rows are whole 16-byte runs (16-bit K and N multiples of 8),
// each transpose: the cooperative-matrix kernel's 16-byte loads and their
// prefetch, over several blocks and slices with partial ones at the edges
// (ops.gemm_coop_tile.*: the tiling GPUs take, on this machine's devices).
TEST(Gemm, WholeRunsAndTransposes) {
  porta::Device dev = porta::open(backend_under_test());
  uint64_t seed = 50;
  for (porta_dtype input : {PORTA_DTYPE_FLOAT16, PORTA_DTYPE_BFLOAT16})
    for (bool ta : {false, true})
      for (bool tb : {false, true}) {
        check(dev, {40, 56, 72, input, ta, tb}, seed++);
        check(dev, {136, 144, 88, input, ta, tb, 0, false, false, 1.0f, 0.5f}, seed++);
      }
}

TEST(Gemm, StridedBatches) {
  porta::Device dev = porta::open(backend_under_test());
  uint64_t seed = 100;
  for (porta_dtype input : kInputs) {
    check(dev, {19, 23, 11, input, false, false, 3}, seed++);
    check(
        dev,
        {19, 23, 11, input, true, true, 4, false, false, 0.5f, 2.0f, false, PORTA_GEMM_ACTIVATION_NONE, 1, 1},
        seed++);
    check(dev, {66, 35, 20, input, false, true, 2, true, false}, seed++);             // one A for every batch
    check(dev, {17, 70, 9, input, true, false, 3, false, true, 1.0f, 1.0f}, seed++);  // one B
    check(dev, {5, 5, 3, input, false, false, 1}, seed++);                            // a batch of one
  }
}

TEST(Gemm, BiasAndActivations) {
  porta::Device dev = porta::open(backend_under_test());
  uint64_t seed = 200;
  // Every activation, with and without a bias, over both input widths; each
  // combination is a kernel of its own, so not all of them (compiling them
  // is what takes time on CPU-type devices).
  const struct {
    porta_dtype input;
    bool bias;
    porta_gemm_activation act;
  } combinations[] = {{PORTA_DTYPE_FLOAT32, true, PORTA_GEMM_ACTIVATION_NONE},
                      {PORTA_DTYPE_FLOAT32, false, PORTA_GEMM_ACTIVATION_RELU},
                      {PORTA_DTYPE_FLOAT32, true, PORTA_GEMM_ACTIVATION_SIGMOID},
                      {PORTA_DTYPE_FLOAT32, true, PORTA_GEMM_ACTIVATION_GELU_TANH},
                      {PORTA_DTYPE_BFLOAT16, true, PORTA_GEMM_ACTIVATION_RELU},
                      {PORTA_DTYPE_BFLOAT16, false, PORTA_GEMM_ACTIVATION_GELU_TANH}};
  for (const auto& [input, bias, act] : combinations) {
    check(dev, {41, 37, 29, input, false, false, 0, false, false, 2.0f, 0.0f, bias, act}, seed++);
    check(dev, {23, 19, 35, input, true, true, 2, false, false, 1.0f, 0.5f, bias, act, 2, 3}, seed++);
  }
  // Deep K: where the device limits loops (lavapipe: about 21000 deep with
  // its tile), K is split over dispatches and the epilogue runs once, after
  // the last slice.
  check(dev,
        {9, 7, 50000, PORTA_DTYPE_FLOAT16, false, false, 2, false, false, 0.01f, 1.0f, true,
         PORTA_GEMM_ACTIVATION_SIGMOID},
        seed++);
}

TEST(Gemm, TF32IsAcceptedAndAtLeastFloat32Accurate) {
  porta::Device dev = porta::open(backend_under_test());
  Case t{21, 18, 300};
  t.tf32 = true;
  check(dev, t, 300);
  check(dev,
        {33, 17, 65, PORTA_DTYPE_FLOAT32, true, true, 2, false, false, 1.0f, 0.5f, true,
         PORTA_GEMM_ACTIVATION_RELU, 0, 0, true},
        301);
}

TEST(Gemm, RefusesWhatItCannotDo) {
  porta::Device dev = porta::open(backend_under_test());
  porta::Stream s = dev.stream();
  porta::Buffer a = dev.buffer(64), b = dev.buffer(64), c = dev.buffer(64), odd = dev.buffer(6);
  const auto refuses = [&](porta_status status, const char* words, auto&& call) {
    try {
      call();
      ADD_FAILURE() << "accepted; expected a refusal saying '" << words << "'";
    } catch (const porta::Error& e) {
      EXPECT_EQ(e.status(), status) << e.what();
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("porta_ops_gemm"), std::string::npos) << e.what();
    }
  };
  using porta::Tensor;
  refuses(PORTA_ERROR_UNSUPPORTED, "A and B must be float32, float16 or bfloat16", [&] {
    porta::ops::gemm(s, Tensor(a, {2, 2}, 0, PORTA_DTYPE_INT8), Tensor(b, {2, 2}, 0, PORTA_DTYPE_INT8),
                     Tensor(c, {2, 2}));
  });
  refuses(PORTA_ERROR_INVALID_ARGUMENT, "A and B must have one dtype", [&] {
    porta::ops::gemm(s, Tensor(a, {2, 2}, 0, PORTA_DTYPE_FLOAT16), Tensor(b, {2, 2}), Tensor(c, {2, 2}));
  });
  refuses(PORTA_ERROR_UNSUPPORTED, "operand 'C' is float16", [&] {
    porta::ops::gemm(s, Tensor(a, {2, 2}, 0, PORTA_DTYPE_FLOAT16), Tensor(b, {2, 2}, 0, PORTA_DTYPE_FLOAT16),
                     Tensor(c, {2, 2}, 0, PORTA_DTYPE_FLOAT16));
  });
  refuses(PORTA_ERROR_INVALID_ARGUMENT, "pad the buffer to a multiple of 4 bytes", [&] {
    porta::ops::gemm(s, Tensor(odd, {1, 3}, 0, PORTA_DTYPE_FLOAT16),
                     Tensor(b, {3, 2}, 0, PORTA_DTYPE_FLOAT16), Tensor(c, {1, 2}));
  });
  refuses(PORTA_ERROR_INVALID_ARGUMENT, "a rank-3 A or B has C's batch size", [&] {
    porta::ops::gemm(s, Tensor(a, {3, 2, 2}), Tensor(b, {2, 2}), Tensor(c, {2, 2, 2}));
  });
  refuses(PORTA_ERROR_INVALID_ARGUMENT, "its matrices overlap", [&] {
    const uint64_t shape[3] = {2, 2, 2};
    const int64_t strides[3] = {2, 2, 1};
    porta::ops::gemm(s, Tensor(a, {2, 2}), Tensor(b, {2, 2}), Tensor(c, shape, strides));
  });
  porta::Tensor short_bias(c, {3});
  porta::ops::GemmOptions with_bias;
  with_bias.bias = &short_bias;
  refuses(PORTA_ERROR_INVALID_ARGUMENT, "it must be [2]", [&] {
    porta::ops::gemm(s, Tensor(a, {2, 2}), Tensor(b, {2, 2}), Tensor(dev.buffer(16), {2, 2}), with_bias);
  });
  porta::ops::GemmOptions bad_act;
  bad_act.activation = static_cast<porta_gemm_activation>(9);
  refuses(PORTA_ERROR_INVALID_ARGUMENT, "not a porta_gemm_activation", [&] {
    porta::ops::gemm(s, Tensor(a, {2, 2}), Tensor(b, {2, 2}), Tensor(c, {2, 2}), bad_act);
  });
}

}  // namespace
}  // namespace porta::test
