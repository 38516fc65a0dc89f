// Running one case of a built-in op: seeded inputs of the case's value class,
// outputs filled with the unwritten-NaN pattern, the op on the device under
// test and on the CPU backend, the float64 oracle, then judge().
#include <algorithm>
#include <cfloat>
#include <chrono>
#include <cmath>
#include <cstring>
#include <new>
#include <random>

#include "gemm_operands.hpp"
#include "kernel_io.hpp"
#include "porta/quantize.hpp"
#include "suite.hpp"
#include "tolerances.hpp"

namespace porta::conformance {
namespace {

using Floats = std::vector<float>;

float ftz(float x) { return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x; }

// Draws values of one class. `role` varies the mix between operands.
class Draw {
 public:
  Draw(uint64_t seed, Values v) : rng_(seed), values_(v) {}

  float operator()(int role = 0) {
    switch (values_) {
      case Values::kNormal:
        return uniform(-1e3f, 1e3f);
      case Values::kNegative:
        return -std::exp2(uniform(-20, 20)) * uniform(1, 2);
      case Values::kTiny:
        return sign() * std::ldexp(uniform(1, 2), pick(-126, -100));
      case Values::kHuge:
        return sign() * std::ldexp(uniform(1, 2), pick(100, 127));
      case Values::kZeros:
        return pick(0, 2) == 0 ? uniform(-1e3f, 1e3f) : sign() * 0.0f;
      case Values::kDenormal: {
        const int c = pick(0, 3);
        if (c == 0) return uniform(-1e3f, 1e3f);
        if (c == 1) return sign() * std::ldexp(uniform(1, 2), pick(-126, -110));
        return sign() * std::ldexp(uniform(1, 2), pick(-149, -127));  // subnormal
      }
      case Values::kInf: {
        const int c = pick(0, 4);
        return c == 0 ? INFINITY : c == 1 ? -INFINITY : c == 2 && role == 1 ? 0.0f : uniform(-1e3f, 1e3f);
      }
      case Values::kNan: {
        const int c = pick(0, 4);
        return c == 0 ? std::nanf("") : c == 1 ? -std::nanf("") : c == 2 ? INFINITY : uniform(-1e3f, 1e3f);
      }
      case Values::kMixed: {
        static const Values classes[] = {Values::kNormal, Values::kNegative, Values::kTiny, Values::kHuge,
                                         Values::kZeros,  Values::kDenormal, Values::kInf,  Values::kNan};
        Draw inner(rng_(), classes[pick(0, 7)]);
        return inner(role);
      }
      case Values::kInfNan:
      case Values::kSaturated:
        return uniform(-1, 1);  // the op's runner places the special values
    }
    return 0;
  }
  float uniform(float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(rng_); }
  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  float sign() { return pick(0, 1) ? 1.0f : -1.0f; }
  std::mt19937_64& rng() { return rng_; }

 private:
  std::mt19937_64 rng_;
  Values values_;
};

// A buffer's contents: the unwritten pattern everywhere, `values` at `offset`,
// one guard element past the end.
Floats laid_out(const Floats& values, uint64_t offset, uint64_t size) {
  Floats out(std::max<uint64_t>(size, offset + values.size()) + 1, unwritten());
  std::copy(values.begin(), values.end(), out.begin() + static_cast<long>(offset));
  return out;
}

Output contiguous_output(std::string name, Floats before, uint64_t offset, uint64_t n) {
  Output o;
  o.name = std::move(name);
  o.inside.assign(before.size(), 0);
  std::fill(o.inside.begin() + static_cast<long>(offset), o.inside.begin() + static_cast<long>(offset + n),
            1);
  o.exact.assign(before.size(), 0);
  o.before = std::move(before);
  const std::string label = o.name;
  o.where = [label, offset](uint64_t i) { return label + "[" + std::to_string(i - offset) + "]"; };
  return o;
}

// Runs `op` on a device: uploads `inputs`, returns the outputs' buffers after it.
using DeviceRun = std::function<std::vector<Floats>(porta::Device&)>;

void run_on_both(Devices& d, const DeviceRun& run, std::vector<Output>& outputs) {
  std::vector<Floats> got = run(d.dut);
  for (size_t i = 0; i < outputs.size(); ++i) outputs[i].dut = std::move(got[i]);
  if (d.ref) {
    std::vector<Floats> ref = run(*d.ref);
    for (size_t i = 0; i < outputs.size(); ++i) outputs[i].ref = std::move(ref[i]);
  }
}

porta::Buffer upload(porta::Device& dev, const Floats& host) { return dev.upload(host); }

// ---- elementwise ops ----------------------------------------------------------

std::vector<Output> run_fill(Devices& d, const Case& c, uint64_t) {
  const uint64_t off = c.off[2];
  Output o = contiguous_output("out", laid_out({}, 0, off + c.n), off, c.n);
  for (uint64_t i = off; i < off + c.n; ++i) o.exact[i] = c.scalar;
  if (c.values == Values::kDenormal) o.flushed.assign(o.before.size(), ftz(c.scalar));
  std::vector<Output> outputs{o};
  const std::vector<uint64_t> shape = c.shape.empty() ? std::vector<uint64_t>{c.n} : c.shape;
  run_on_both(
      d,
      [&](porta::Device& dev) {
        porta::Buffer b = upload(dev, outputs[0].before);
        porta::Stream s = dev.stream();
        porta::ops::fill(s, porta::Tensor(b, shape, {}, off), c.scalar);
        s.sync();
        return std::vector<Floats>{b.to_vector<float>()};
      },
      outputs);
  return outputs;
}

// mul, scale and sigmoid: inputs a (and b), output out (or a itself, in place).
std::vector<Output> run_unary_binary(Devices& d, const Case& c, uint64_t seed) {
  const bool binary = c.op == "mul" || c.op == "add";
  Draw draw(seed, c.values);
  Floats a(c.n), b(binary ? c.n : 0);
  for (auto& v : a) v = draw(0);
  for (auto& v : b) v = draw(1);
  const uint64_t out_off = c.in_place ? c.off[0] : c.off[2];
  Floats a_host = laid_out(a, c.off[0], 0), b_host = binary ? laid_out(b, c.off[1], 0) : Floats();
  Output o = contiguous_output("out", c.in_place ? a_host : laid_out({}, 0, out_off + c.n), out_off, c.n);
  if (c.values == Values::kDenormal || c.values == Values::kTiny || c.values == Values::kMixed)
    o.flushed = o.before;
  if (c.op == "sigmoid") o.qualitative_max.assign(o.before.size(), NAN);
  const float smallest = std::nextafter(static_cast<float>(std::exp(-80.0) / (1 + std::exp(-80.0))), 1.0f);
  for (uint64_t i = 0; i < c.n; ++i) {
    const uint64_t at = out_off + i;
    const double x = a[i];
    if (c.op == "add") {
      o.exact[at] = x + static_cast<double>(b[i]);  // exact in double
      if (!o.flushed.empty())
        o.flushed[at] = ftz(static_cast<float>(static_cast<double>(ftz(a[i])) + ftz(b[i])));
    } else if (c.op == "mul") {
      o.exact[at] = x * static_cast<double>(b[i]);  // exact in double
      if (!o.flushed.empty())
        o.flushed[at] = ftz(static_cast<float>(static_cast<double>(ftz(a[i])) * ftz(b[i])));
    } else if (c.op == "scale") {
      o.exact[at] = x * static_cast<double>(c.scalar);
      if (!o.flushed.empty())
        o.flushed[at] = ftz(static_cast<float>(static_cast<double>(ftz(a[i])) * ftz(c.scalar)));
    } else {  // sigmoid
      o.exact[at] = x >= 0 ? 1 / (1 + std::exp(-x)) : std::exp(x) / (1 + std::exp(x));
      if (x < -80) o.qualitative_max[at] = std::isinf(a[i]) ? 0.0f : smallest;
    }
  }
  std::vector<Output> outputs{o};
  run_on_both(
      d,
      [&](porta::Device& dev) {
        porta::Buffer ba = upload(dev, a_host);
        porta::Buffer bb = binary ? upload(dev, b_host) : porta::Buffer();
        porta::Buffer bo = c.in_place ? ba : upload(dev, outputs[0].before);
        porta::Stream s = dev.stream();
        porta::Tensor ta(ba, {c.n}, c.off[0]), to(bo, {c.n}, out_off);
        if (c.op == "mul")
          porta::ops::mul(s, ta, porta::Tensor(bb, {c.n}, c.off[1]), to);
        else if (c.op == "add")
          porta::ops::add(s, ta, porta::Tensor(bb, {c.n}, c.off[1]), to);
        else if (c.op == "scale")
          porta::ops::scale(s, ta, c.scalar, to);
        else
          porta::ops::sigmoid(s, ta, to);
        s.sync();
        return std::vector<Floats>{bo.to_vector<float>()};
      },
      outputs);
  return outputs;
}

// add with broadcasting: a (m x n) + b (a row, a column or one element) into
// out (m x n), or into a itself.
std::vector<Output> run_add_broadcast(Devices& d, const Case& c, uint64_t seed) {
  Draw draw(seed, c.values);
  const uint64_t m = c.m, n = c.n;
  const uint64_t b_count = c.broadcast == 1 ? n : c.broadcast == 2 ? m : 1;
  Floats a(m * n), b(b_count);
  for (auto& v : a) v = draw(0);
  for (auto& v : b) v = draw(1);
  Floats a_host = laid_out(a, 0, 0);
  Output o = contiguous_output("out", c.in_place ? a_host : laid_out({}, 0, m * n), 0, m * n);
  for (uint64_t i = 0; i < m; ++i)
    for (uint64_t j = 0; j < n; ++j) {
      const float bv = b[c.broadcast == 1 ? j : c.broadcast == 2 ? i : 0];
      o.exact[i * n + j] = static_cast<double>(a[i * n + j]) + bv;
    }
  std::vector<Output> outputs{o};
  run_on_both(
      d,
      [&](porta::Device& dev) {
        porta::Buffer ba = upload(dev, a_host), bb = upload(dev, b);
        porta::Buffer bo = c.in_place ? ba : upload(dev, outputs[0].before);
        porta::Stream s = dev.stream();
        const porta::Tensor tb = c.broadcast == 1   ? porta::Tensor(bb, {n})
                                 : c.broadcast == 2 ? porta::Tensor(bb, {m, 1})
                                                    : porta::Tensor(bb, {1});
        porta::ops::add(s, porta::Tensor(ba, {m, n}), tb, porta::Tensor(bo, {m, n}));
        s.sync();
        return std::vector<Floats>{bo.to_vector<float>()};
      },
      outputs);
  return outputs;
}

// ---- matmul and gemm ----------------------------------------------------------------

// A float32 matrix.
porta::Tensor matrix(const porta::Buffer& b, uint64_t rows, uint64_t cols, uint64_t ld, uint64_t offset) {
  return test::matrix_view(b, PORTA_DTYPE_FLOAT32, 0, rows, cols, ld, 0, offset);
}

// A and B's values as stored: float32, or 16-bit elements two to a word.
porta::Buffer upload_input(porta::Device& dev, const Floats& host, porta_dtype dtype) {
  return dtype == PORTA_DTYPE_FLOAT32 ? dev.upload(host) : dev.upload(test::pack16(host, dtype));
}

// matmul, and gemm (a batch, 16-bit inputs, the bias and activation): both
// cases share the oracle; gemm's bound adds the bias term and the activation.
std::vector<Output> run_matmul(Devices& d, const Case& c, uint64_t seed) {
  const uint64_t m = c.m, n = c.n, k = c.k, off = c.off[0];
  const uint64_t a_rows = c.trans_a ? k : m, a_cols = c.trans_a ? m : k;
  const uint64_t b_rows = c.trans_b ? n : k, b_cols = c.trans_b ? k : n;
  const uint64_t lda = a_cols + c.pad, ldb = b_cols + c.pad, ldc = n + c.pad;
  const uint64_t batches = std::max<uint64_t>(c.batch, 1);
  // Each batch's matrix lies its span plus the padding after the last.
  auto span = [](uint64_t rows, uint64_t cols, uint64_t ld) { return rows ? (rows - 1) * ld + cols : 0; };
  const uint64_t sa = span(a_rows, a_cols, lda) + c.pad, sb = span(b_rows, b_cols, ldb) + c.pad,
                 sc = span(m, n, ldc) + c.pad;
  // Dot products stay in the normal range for every class (tiny: 2^-60 squared,
  // huge: 2^55 squared), so the bound needs no underflow term.
  Draw draw(seed, c.values);
  auto element = [&](Draw& dr) -> float {
    switch (c.values) {
      case Values::kNegative:
        return -dr.uniform(0, 2);
      case Values::kTiny:
        return dr.sign() * std::ldexp(dr.uniform(1, 2), -61);
      case Values::kHuge:
        return dr.sign() * std::ldexp(dr.uniform(1, 2), 55);
      case Values::kZeros:
        return dr.pick(0, 2) == 0 ? dr.uniform(-1, 1) : dr.sign() * 0.0f;
      default:
        return dr.uniform(-1, 1);
    }
  };
  // A and B hold values of the input type only (16-bit: no NaN padding).
  auto matrix_host = [&](uint64_t rows, uint64_t cols, uint64_t ld, uint64_t stride, bool fill_inside,
                         porta_dtype dtype) {
    Floats h(off + (batches - 1) * stride + span(rows, cols, ld) + 1,
             dtype == PORTA_DTYPE_FLOAT32 ? unwritten() : 0.0f);
    if (fill_inside)
      for (uint64_t q = 0; q < batches; ++q)
        for (uint64_t i = 0; i < rows; ++i)
          for (uint64_t j = 0; j < cols; ++j)
            h[off + q * stride + i * ld + j] = test::representable(element(draw), dtype);
    return h;
  };
  Floats a = matrix_host(a_rows, a_cols, lda, sa, true, c.input),
         b = matrix_host(b_rows, b_cols, ldb, sb, true, c.input);
  Floats c0 = matrix_host(m, n, ldc, sc, c.beta != 0, PORTA_DTYPE_FLOAT32);
  Floats bias(off + n);
  for (uint64_t j = 0; j < n; ++j) bias[off + j] = draw.uniform(-1, 1);
  if (c.values == Values::kInfNan) {
    // A few specials: a row of A with +inf, a column of B with -inf, one NaN, an inf times a zero.
    auto at_a = [&](uint64_t i, uint64_t p) -> float& {
      return a[off + (c.trans_a ? p * lda + i : i * lda + p)];
    };
    auto at_b = [&](uint64_t p, uint64_t j) -> float& {
      return b[off + (c.trans_b ? j * ldb + p : p * ldb + j)];
    };
    if (m > 3 && n > 3 && k > 3) {
      at_a(1, 2) = INFINITY;
      at_b(0, 3) = -INFINITY;
      at_a(2, 1) = NAN;
      at_a(3, 0) = INFINITY;
      for (uint64_t j = 0; j < n; ++j) at_b(0, j) = j % 2 ? 0.0f : at_b(0, j);
      if (c.beta != 0) c0[off + 0 * ldc + 1] = NAN;
    }
  }
  Output o;
  o.name = "C";
  o.before = c0;
  o.inside.assign(c0.size(), 0);
  o.exact.assign(c0.size(), 0);
  o.bound.assign(c0.size(), 0);
  o.flush_allowance.assign(c0.size(), 0);
  // A device that flushes denormals to zero moves each of the 2K + 3 roundings
  // of an element that lands below FLT_MIN by less than FLT_MIN (scaled by
  // alpha after the sum), and drops products and beta * C terms with a
  // denormal operand entirely.
  auto denormal = [](double v) { return v != 0 && std::fabs(v) < FLT_MIN; };
  const double alpha_abs = std::fabs(static_cast<double>(c.alpha));
  const bool gemm = c.op == "gemm" || c.op == "dense";
  for (uint64_t q = 0; q < batches; ++q)
    for (uint64_t i = 0; i < m; ++i)
      for (uint64_t j = 0; j < n; ++j) {
        double exact = 0, abs_ab = 0, dropped = 0;
        for (uint64_t p = 0; p < k; ++p) {
          const double av = a[off + q * sa + (c.trans_a ? p * lda + i : i * lda + p)];
          const double bv = b[off + q * sb + (c.trans_b ? j * ldb + p : p * ldb + j)];
          exact += av * bv;
          abs_ab += std::fabs(av * bv);
          if (denormal(av) || denormal(bv)) dropped += std::fabs(av * bv);
        }
        const uint64_t at = off + q * sc + i * ldc + j;
        const double c_old = c.beta == 0 ? 0.0 : c0[at];
        const double bj = c.bias ? bias[off + j] : 0.0;
        o.inside[at] = 1;
        const double z = static_cast<double>(c.alpha) * exact +
                         (c.beta == 0 ? 0.0 : static_cast<double>(c.beta) * c_old) + bj;
        o.exact[at] = gemm ? ops::activate(c.activation, z) : z;
        o.bound[at] = gemm ? ops::gemm_bound(c.activation, z,
                                             ops::gemm_sum_bound(k, abs_ab, c.alpha, c.beta, c_old, bj))
                           : test::matmul_bound(k, abs_ab, c.alpha, c.beta, c_old);
        o.flush_allowance[at] = (2.0 * k + 3) * FLT_MIN * std::max(1.0, alpha_abs) + alpha_abs * dropped +
                                (denormal(c_old) ? std::fabs(static_cast<double>(c.beta) * c_old) : 0.0);
      }
  o.where = [off, ldc, sc, batched = c.batch != 0](uint64_t at) {
    const uint64_t q = (at - off) / sc, in = (at - off) % sc;
    return "C" + (batched ? "[" + std::to_string(q) + "]" : std::string()) + "[" + std::to_string(in / ldc) +
           "][" + std::to_string(in % ldc) + "]";
  };
  std::vector<Output> outputs{o};
  run_on_both(
      d,
      [&](porta::Device& dev) {
        porta::Buffer ba = upload_input(dev, a, c.input), bb = upload_input(dev, b, c.input),
                      bc = upload(dev, c0);
        porta::Stream s = dev.stream();
        if (c.op == "dense") {
          const porta::Tensor tbias(upload(dev, bias), {n}, off);
          porta::ops::dense(s, matrix(ba, a_rows, a_cols, lda, off), matrix(bb, b_rows, b_cols, ldb, off),
                            c.bias ? &tbias : nullptr, matrix(bc, m, n, ldc, off),
                            static_cast<porta_gemm_activation>(c.activation));
        } else if (!gemm) {
          porta::ops::matmul(s, matrix(ba, a_rows, a_cols, lda, off), matrix(bb, b_rows, b_cols, ldb, off),
                             matrix(bc, m, n, ldc, off), c.alpha, c.beta, c.trans_a, c.trans_b);
        } else {
          const porta::Tensor tbias(upload(dev, bias), {n}, off);
          porta::ops::GemmOptions options;
          options.alpha = c.alpha;
          options.beta = c.beta;
          options.trans_a = c.trans_a;
          options.trans_b = c.trans_b;
          options.bias = c.bias ? &tbias : nullptr;
          options.activation = static_cast<porta_gemm_activation>(c.activation);
          porta::ops::gemm(s, test::matrix_view(ba, c.input, c.batch, a_rows, a_cols, lda, sa, off),
                           test::matrix_view(bb, c.input, c.batch, b_rows, b_cols, ldb, sb, off),
                           test::matrix_view(bc, PORTA_DTYPE_FLOAT32, c.batch, m, n, ldc, sc, off), options);
        }
        s.sync();
        return std::vector<Floats>{bc.to_vector<float>()};
      },
      outputs);
  return outputs;
}

// ---- logreg_step ------------------------------------------------------------------

std::vector<Output> run_logreg(Devices& d, const Case& c, uint64_t seed) {
  const uint64_t m = c.m, dim = c.n, ldx = dim + c.pad, off = c.off[0];
  Draw draw(seed, Values::kNormal);
  const float spread = c.values == Values::kSaturated ? 40.0f : 1.0f;
  Floats x(m * dim), y(m), w0(dim);
  for (auto& v : x) v = c.values == Values::kZeros ? 0.0f : draw.uniform(-spread, spread);
  for (auto& v : w0) v = draw.uniform(-0.5f, 0.5f) * (c.values == Values::kSaturated ? 4.0f : 1.0f);
  for (auto& v : y) v = draw.pick(0, 1) ? 1.0f : 0.0f;
  const float b0 = 0.125f;
  Floats x_host(off + m * ldx + 1, unwritten());
  for (uint64_t i = 0; i < m; ++i)
    for (uint64_t j = 0; j < dim; ++j) x_host[off + i * ldx + j] = x[i * dim + j];
  // Narrow X: stored as its type, and the oracle takes it as stored.
  const porta::EncodedMatrix narrow = porta::encode_matrix(x.data(), m, dim, c.x_dtype);
  if (c.x_dtype != PORTA_DTYPE_FLOAT32) x = narrow.decoded();

  // The oracle: one step in float64.
  std::vector<double> dw(dim, 0.0);
  double db = 0, loss = 0;
  for (uint64_t i = 0; i < m; ++i) {
    double z = b0;
    for (uint64_t j = 0; j < dim; ++j) z += static_cast<double>(x[i * dim + j]) * w0[j];
    const double yhat = z >= 0 ? 1 / (1 + std::exp(-z)) : std::exp(z) / (1 + std::exp(z));
    const double r = yhat - y[i];
    for (uint64_t j = 0; j < dim; ++j) dw[j] += x[i * dim + j] * r;
    db += r;
    loss += std::max(z, 0.0) + std::log1p(std::exp(-std::fabs(z))) - y[i] * z;
  }
  std::vector<double> w_exact(dim);
  for (uint64_t j = 0; j < dim; ++j) w_exact[j] = w0[j] - c.lr * dw[j] / static_cast<double>(m);
  const double b_exact = b0 - c.lr * db / static_cast<double>(m);
  const double loss_exact = loss / static_cast<double>(m);
  Floats w_round(dim);
  for (uint64_t j = 0; j < dim; ++j) w_round[j] = static_cast<float>(w_exact[j]);
  // tolerance.hpp gives 2E (two backends, one step); against the exact step the bound is E.
  const porta::logreg::Tolerance tol = porta::logreg::agreement_tolerance(
      x, m, dim, w_round, static_cast<float>(b_exact), static_cast<float>(loss_exact), 1, c.lr);
  const double u = test::kUnitRoundoff;

  Output ow = contiguous_output("w", laid_out(w0, 1, 0), 1, dim);
  Output ob = contiguous_output("b", laid_out({b0}, 1, 0), 1, 1);
  Output ol = contiguous_output("loss", laid_out({}, 0, 2), 1, 1);
  for (Output* o : {&ow, &ob, &ol}) o->bound.assign(o->before.size(), 0);
  for (uint64_t j = 0; j < dim; ++j) {
    ow.exact[1 + j] = w_exact[j];
    ow.bound[1 + j] = tol.w / 2 + 2 * u * std::fabs(w_exact[j]);
  }
  ob.exact[1] = b_exact;
  ob.bound[1] = tol.b / 2 + 2 * u * std::fabs(b_exact);
  ol.exact[1] = loss_exact;
  ol.bound[1] = tol.loss / 2;
  std::vector<Output> outputs{ow, ob, ol};
  run_on_both(
      d,
      [&](porta::Device& dev) {
        const bool narrow_x = c.x_dtype != PORTA_DTYPE_FLOAT32;
        porta::Buffer bx = narrow_x ? dev.upload(narrow.bytes) : upload(dev, x_host), by = upload(dev, y),
                      bw = upload(dev, outputs[0].before), bb = upload(dev, outputs[1].before),
                      bl = upload(dev, outputs[2].before);
        porta::Buffer bs = upload(dev, narrow.scale.empty() ? Floats{0} : narrow.scale);
        porta::Stream s = dev.stream();
        porta::Tensor w(bw, {dim}, 1), b(bb, {1}, 1), l(bl, {1}, 1), scale(bs, {dim});
        const porta::Tensor tx = narrow_x ? narrow.tensor(bx) : matrix(bx, m, dim, ldx, off);
        const porta::Tensor* x_scale = narrow.scale.empty() ? nullptr : &scale;
        if (c.workspace) {
          const uint64_t bytes = porta::ops::logreg_workspace_bytes(dev, m, dim);
          porta::Buffer ws = upload(dev, Floats(bytes / 4 + 1, unwritten()));
          porta::Tensor wt(ws, {bytes / 4});
          porta::ops::logreg_step_scaled(s, tx, x_scale, porta::Tensor(by, {m}), w, b, c.lr, l, &wt);
        } else {
          porta::ops::logreg_step_scaled(s, tx, x_scale, porta::Tensor(by, {m}), w, b, c.lr, l);
        }
        s.sync();
        return std::vector<Floats>{bw.to_vector<float>(), bb.to_vector<float>(), bl.to_vector<float>()};
      },
      outputs);
  return outputs;
}

}  // namespace

CaseResult run_timed(Devices& d, const std::string& op, const std::string& name,
                     const std::function<void(CaseResult&)>& body) {
  CaseResult r;
  const porta::DeviceInfo info = d.dut.info();
  r.backend = info.backend;
  r.device = info.name;
  r.device_index = static_cast<int>(info.index);
  r.op = op;
  r.name = name;
  const auto start = std::chrono::steady_clock::now();
  try {
    body(r);
  } catch (const porta::Error& e) {
    // A feature or limit the device lacks, or memory it does not have, is a skip; anything else fails.
    // A dispatch past its limit (PORTA_TIMEOUT, porta/robust.h) hung.
    const bool skip = e.status() == PORTA_ERROR_UNSUPPORTED || e.status() == PORTA_ERROR_OUT_OF_MEMORY;
    const bool hang = e.status() == PORTA_ERROR_TIMEOUT ||
                      (e.status() == PORTA_ERROR_DEVICE_LOST &&
                       std::string(e.what()).find("PORTA_TIMEOUT") != std::string::npos);
    r.outcome = skip ? Outcome::kSkip : hang ? Outcome::kHang : Outcome::kFail;
    r.detail = error_text(e);
  } catch (const std::exception& e) {
    r.outcome = Outcome::kFail;
    r.detail = e.what();
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

CaseResult run_case(Devices& d, const Case& c, uint64_t run_seed) {
  return run_timed(d, c.op, c.name, [&](CaseResult& r) {
    r.seed = run_seed;
    r.elements = c.elements();
    const uint64_t seed = case_seed(run_seed, c.op, c.name);
    try {
      if (!d.ref && !d.ref_unavailable.empty()) {
        r.outcome = Outcome::kSkip;
        r.detail = "the CPU backend (the reference) is unavailable: " + d.ref_unavailable;
      } else {
        std::vector<Output> outputs;
        if (c.op == "fill")
          outputs = run_fill(d, c, seed);
        else if (c.op == "add" && c.broadcast)
          outputs = run_add_broadcast(d, c, seed);
        else if (c.op == "matmul" || c.op == "gemm" || c.op == "dense")
          outputs = run_matmul(d, c, seed);
        else if (c.op == "logreg_step")
          outputs = run_logreg(d, c, seed);
        else if (!type_cases(c.op).empty())
          outputs = run_type_case(d, c, seed);
        else
          outputs = run_unary_binary(d, c, seed);
        judge(c.op, outputs, r);
      }
    } catch (const std::bad_alloc&) {
      r.outcome = Outcome::kSkip;
      r.detail = "out of host memory for this case's data";
    }
  });
}

}  // namespace porta::conformance
