// matmul: the CPU backend against a float64 oracle, every other backend
// against the CPU backend, within gamma_{K+2} (|alpha| |A||B| + |beta| |C|)
// (bounds.hpp), over sizes 1, primes, non-multiples of every tile (4, 32, 64,
// 16-deep slices) and larger, all four transposes, alpha/beta, strides.
// kernels/matmul/matmul.comp also runs with the tilings the launcher gives GPUs
// (which CPU-type devices never get), against the float64 oracle.
#include <cmath>
#include <fstream>
#include <sstream>
#include <utility>

#include "bounds.hpp"
#include "support.hpp"

namespace porta::test {
namespace {

struct Case {
  uint64_t m, n, k;
  bool ta = false, tb = false;
  float alpha = 1.0f, beta = 0.0f;
  uint64_t pad = 0;  // extra elements per row of every operand (row stride > row length)
  uint64_t offset = 0;
};

struct Operands {
  std::vector<float> a, b, c;  // stored layouts, rows padded
  uint64_t lda, ldb, ldc;
  uint64_t a_rows, a_cols, b_rows, b_cols;
};

Operands make(const Case& t, uint64_t seed) {
  Operands o;
  o.a_rows = t.ta ? t.k : t.m;
  o.a_cols = t.ta ? t.m : t.k;
  o.b_rows = t.tb ? t.n : t.k;
  o.b_cols = t.tb ? t.k : t.n;
  o.lda = o.a_cols + t.pad;
  o.ldb = o.b_cols + t.pad;
  o.ldc = t.n + t.pad;
  o.a = random_floats(t.offset + o.a_rows * o.lda, seed, -1, 1);
  o.b = random_floats(t.offset + o.b_rows * o.ldb, seed + 1, -1, 1);
  o.c = random_floats(t.offset + t.m * o.ldc, seed + 2, -1, 1);
  return o;
}

porta::Tensor view(const porta::Buffer& b, uint64_t rows, uint64_t cols, uint64_t ld, uint64_t offset) {
  const uint64_t shape[2] = {rows, cols};
  const int64_t strides[2] = {static_cast<int64_t>(ld), 1};
  return porta::Tensor(b, shape, strides, offset);
}

std::vector<float> run(porta::Device& dev, const Case& t, const Operands& o) {
  porta::Buffer a = dev.upload(o.a), b = dev.upload(o.b), c = dev.upload(o.c);
  porta::Stream s = dev.stream();
  porta::ops::matmul(s, view(a, o.a_rows, o.a_cols, o.lda, t.offset),
                     view(b, o.b_rows, o.b_cols, o.ldb, t.offset), view(c, t.m, t.n, o.ldc, t.offset),
                     t.alpha, t.beta, t.ta, t.tb);
  s.sync();
  return c.to_vector<float>();
}

std::string describe(const Case& t) {
  return "M=" + std::to_string(t.m) + " N=" + std::to_string(t.n) + " K=" + std::to_string(t.k) +
         " ta=" + std::to_string(t.ta) + " tb=" + std::to_string(t.tb) + " alpha=" + std::to_string(t.alpha) +
         " beta=" + std::to_string(t.beta) + " pad=" + std::to_string(t.pad);
}

// `got` within the bound of the float64 result, or, given `ref` (the CPU
// backend's result), within twice the bound of `ref`; C's padding untouched.
void expect_close(const Case& t, const Operands& o, const std::vector<float>& got,
                  const std::vector<float>* ref) {
  int bad = 0;
  for (uint64_t i = 0; i < t.m; ++i)
    for (uint64_t j = 0; j < t.n; ++j) {
      double exact = 0, abs_ab = 0;
      for (uint64_t p = 0; p < t.k; ++p) {
        double av = t.ta ? o.a[t.offset + p * o.lda + i] : o.a[t.offset + i * o.lda + p];
        double bv = t.tb ? o.b[t.offset + j * o.ldb + p] : o.b[t.offset + p * o.ldb + j];
        exact += av * bv;
        abs_ab += std::fabs(av * bv);
      }
      const uint64_t at = t.offset + i * o.ldc + j;
      const double c_old = o.c[at];
      exact = t.alpha * exact + (t.beta == 0 ? 0.0 : t.beta * c_old);
      const double bound = matmul_bound(t.k, abs_ab, t.alpha, t.beta, c_old);
      const double err =
          ref ? std::fabs(static_cast<double>(got[at]) - (*ref)[at]) : std::fabs(got[at] - exact);
      const double limit = ref ? 2 * bound : bound;
      if (!(err <= limit) && bad++ < 5)
        ADD_FAILURE() << "C[" << i << "][" << j << "] = " << got[at] << ", exact " << exact << ", error "
                      << err << " > bound " << limit;
    }
  // Padding between rows and before the offset is left alone.
  for (uint64_t at = 0; at < got.size(); ++at) {
    const bool inside = at >= t.offset && (at - t.offset) % o.ldc < t.n && (at - t.offset) / o.ldc < t.m;
    if (!inside) {
      ASSERT_EQ(got[at], o.c[at]) << "matmul wrote outside C at element " << at;
    }
  }
}

void check(const Case& t, uint64_t seed) {
  SCOPED_TRACE(describe(t));
  Operands o = make(t, seed);
  porta::Device dut = porta::open(backend_under_test());
  std::vector<float> got = run(dut, t, o);
  if (testing_cpu()) return expect_close(t, o, got, nullptr);
  if (!backend_available("cpu")) GTEST_SKIP() << "the CPU backend (the reference) is unavailable";
  porta::Device cpu = porta::open("cpu");
  std::vector<float> ref = run(cpu, t, o);
  expect_close(t, o, got, &ref);
}

// matmul.comp's specialization constants (LX, LY, BK, TM, TN, PREFETCH, FMA,
// and VEC4, which applies where the case's vec4s are aligned).
struct Tiling {
  uint32_t lx, ly, bk, tm, tn, prefetch, fma, vec4 = 0;
};

// Whether every vec4 of A and B is aligned (VEC4 may be set), as the launcher decides.
bool aligned(const Case& t, const Operands& o) {
  return t.offset % 4 == 0 && o.lda % 4 == 0 && o.ldb % 4 == 0;
}

// Runs kernels/matmul/matmul.comp from its source with `tiling`, dispatched the way
// kernels/matmul/matmul.cpp does.
std::vector<float> run_tiling(porta::Device& dev, const porta::Kernel& kernel, const Tiling& tiling,
                              const Case& t, const Operands& o) {
  porta::Buffer a = dev.upload(o.a), b = dev.upload(o.b), c = dev.upload(o.c);
  struct {
    uint32_t m, n, k, lda, ldb, ldc, a_offset, b_offset, c_offset, trans_a, trans_b;
    float alpha, beta;
    uint32_t a_batch, b_batch, c_batch, row_groups, bias_offset;
  } push{uint32_t(t.m),
         uint32_t(t.n),
         uint32_t(t.k),
         uint32_t(o.lda),
         uint32_t(o.ldb),
         uint32_t(o.ldc),
         uint32_t(t.offset),
         uint32_t(t.offset),
         uint32_t(t.offset),
         t.ta ? 1u : 0u,
         t.tb ? 1u : 0u,
         t.alpha,
         t.beta,
         0,
         0,
         0,
         0,
         0};
  const uint64_t bm = uint64_t(tiling.tm) * tiling.ly, bn = uint64_t(tiling.tn) * tiling.lx;
  push.row_groups = uint32_t((t.m + bm - 1) / bm);
  porta::Stream s = dev.stream();
  s.dispatch(kernel, {uint32_t((t.n + bn - 1) / bn), push.row_groups, 1}, {a, b, c, a}, push);
  s.sync();
  return c.to_vector<float>();
}

TEST(Matmul, SmallAndPrimeSizes) {
  const uint64_t sizes[] = {1, 2, 3, 5, 7, 13, 17, 31, 33};
  uint64_t seed = 1;
  for (uint64_t m : sizes)
    for (uint64_t n : {1ull, 7ull, 33ull})
      for (uint64_t k : {1ull, 5ull, 17ull}) check({m, n, k, false, false, 1.0f, 0.0f}, seed++);
}

TEST(Matmul, NonMultiplesOfEveryTile) {
  uint64_t seed = 100;
  for (const Case& t : {Case{63, 65, 15}, Case{65, 63, 17}, Case{97, 101, 103}, Case{129, 31, 47},
                        Case{64, 64, 16}, Case{257, 259, 33}, Case{300, 280, 129}})
    check(t, seed++);
}

TEST(Matmul, Transposes) {
  uint64_t seed = 200;
  for (bool ta : {false, true})
    for (bool tb : {false, true}) {
      check({37, 29, 41, ta, tb, 1.0f, 0.0f}, seed++);
      check({1, 67, 3, ta, tb, 1.0f, 0.0f}, seed++);
      check({258, 260, 19, ta, tb, 1.0f, 0.0f}, seed++);
    }
}

TEST(Matmul, AlphaBetaStridesOffsets) {
  check({45, 38, 23, false, false, 0.5f, 2.0f}, 300);
  check({45, 38, 23, true, true, -1.5f, 0.25f, 3, 5}, 301);
  check({70, 9, 130, false, true, 2.0f, 1.0f, 1, 2}, 302);
  check({5, 5, 0, false, false, 1.0f, 0.5f, 0, 1}, 303);  // K = 0: C = beta C
  // K over several of the CPU kernel's 256-deep slices, each added to C after
  // the first applied alpha and beta (matmul_cpu.comp), its last shallower
  // than its depth unrolling, and M and N past whole panels.
  check({19, 70, 600, true, false, -0.75f, 0.5f, 2, 3}, 304);
  check({70, 19, 515, false, true, 1.25f, -2.0f, 1, 0}, 305);
}

TEST(Matmul, Large) { check({513, 511, 257, false, false, 1.0f, 0.0f}, 400); }

// The GPU tilings (16 x 16 items of 4 x 4, 4 x 8 and 8 x 8, BK 16 and 8; 8 x 8
// and 16 x 8 items) with every PREFETCH, with and without FMA, over sizes
// that leave partial blocks and slices (1, primes, non-multiples of 128),
// exact multiples (the unchecked loads), all four transposes, alpha/beta,
// strides and offsets. Each C element sums its products in the same order
// whatever the tiling, so the float64 bound applies as it does to the CPU
// backend.
TEST(Matmul, GpuTilingsFromSource) {
  std::ifstream in(std::string(PORTA_KERNELS_DIR) + "/matmul/matmul.comp");
  std::stringstream text;
  text << in.rdbuf();
  ASSERT_TRUE(in) << "cannot read " << PORTA_KERNELS_DIR << "/matmul/matmul.comp";
  porta::Device dev = porta::open(backend_under_test());
  std::vector<Tiling> tilings;
  const std::pair<uint32_t, uint32_t> items[] = {{4, 8}, {8, 8}, {4, 4}};              // TM x TN
  const std::pair<uint32_t, uint32_t> schedules[] = {{0, 0}, {1, 1}, {2, 0}, {2, 1}};  // PREFETCH, FMA
  for (const auto& [prefetch, fma] : schedules)
    for (const auto& [tm, tn] : items) tilings.push_back({16, 16, 16, tm, tn, prefetch, fma});
  for (const Tiling& t :
       {Tiling{16, 16, 8, 8, 8, 2, 1}, Tiling{8, 8, 16, 4, 4, 2, 1}, Tiling{16, 8, 8, 8, 8, 1, 0},
        Tiling{8, 8, 16, 8, 8, 2, 1}, Tiling{16, 8, 16, 8, 8, 2, 1}, Tiling{16, 16, 8, 8, 8, 1, 1}})
    tilings.push_back(t);
  // 16-byte global loads, with A row-major by depths (bit 1) or not.
  for (uint32_t vec4 : {1u, 3u})
    for (const Tiling& t : {Tiling{16, 16, 16, 8, 8, 2, 1, vec4}, Tiling{16, 16, 8, 4, 8, 2, 1, vec4},
                            Tiling{16, 8, 16, 8, 8, 1, 1, vec4}, Tiling{8, 8, 16, 4, 4, 0, 0, vec4}})
      tilings.push_back(t);
  std::vector<Case> cases = {Case{1, 1, 1},
                             Case{7, 13, 5},
                             Case{128, 128, 32},
                             Case{256, 128, 48},
                             Case{131, 127, 37},
                             Case{67, 260, 16},
                             Case{130, 131, 17},
                             Case{45, 38, 23, true, true, -1.5f, 0.25f, 3, 5},
                             Case{128, 128, 33, false, true, 2.0f, 1.0f, 4, 8},
                             Case{5, 5, 0, false, false, 1.0f, 0.5f, 0, 1}};
  for (bool ta : {false, true})
    for (bool tb : {false, true}) {
      cases.push_back({129, 133, 41, ta, tb});
      cases.push_back({128, 256, 64, ta, tb});
    }
  uint64_t seed = 500;
  for (const Tiling& tiling : tilings) {
    SCOPED_TRACE("tiling " + std::to_string(tiling.lx) + "x" + std::to_string(tiling.ly) + "," +
                 std::to_string(tiling.bk) + "," + std::to_string(tiling.tm) + "x" +
                 std::to_string(tiling.tn) + ",prefetch " + std::to_string(tiling.prefetch) + ",fma " +
                 std::to_string(tiling.fma) + ",vec4 " + std::to_string(tiling.vec4));
    porta::Kernel kernel = dev.kernel(porta::glsl(text.str(), "matmul"), {{0u, tiling.lx},
                                                                          {1u, tiling.ly},
                                                                          {2u, tiling.bk},
                                                                          {3u, tiling.tm},
                                                                          {4u, tiling.tn},
                                                                          {5u, tiling.prefetch},
                                                                          {6u, tiling.fma},
                                                                          {10u, tiling.vec4}});
    for (const Case& t : cases) {
      SCOPED_TRACE(describe(t));
      Operands o = make(t, seed++);
      if (tiling.vec4 && !aligned(t, o)) continue;  // the launcher never sets VEC4 there
      expect_close(t, o, run_tiling(dev, kernel, tiling, t, o), nullptr);
    }
  }
}

TEST(Matmul, BetaZeroDoesNotReadC) {
  porta::Device dev = porta::open(backend_under_test());
  const uint64_t m = 35, n = 37, k = 9;
  std::vector<float> a = random_floats(m * k, 1), b = random_floats(k * n, 2);
  porta::Buffer ba = dev.upload(a), bb = dev.upload(b), bc = dev.upload(std::vector<float>(m * n, NAN));
  porta::Stream s = dev.stream();
  porta::ops::matmul(s, porta::Tensor(ba, {m, k}), porta::Tensor(bb, {k, n}), porta::Tensor(bc, {m, n}), 1.0f,
                     0.0f);
  s.sync();
  for (float v : bc.to_vector<float>()) ASSERT_TRUE(std::isfinite(v)) << "NaN from C's old content reached C";
}

}  // namespace
}  // namespace porta::test
