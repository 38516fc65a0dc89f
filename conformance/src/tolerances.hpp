// The tolerance of every built-in op, one row per op and dtype, each with the
// error bound it comes from. The bounds themselves are written once, beside
// each op (kernels/NAME/bound.hpp, gathered for the tests in
// tests/ops/bounds.hpp); this table only says which
// bound each op answers to and how it is measured. Nothing here is ever
// widened to make a device pass.
//
// Every case is judged twice: porta's CPU backend against a float64 oracle
// (within the bound), and the device under test against the CPU backend
// (within reference_factor times the bound: both lie within the bound of the
// exact value; a factor of 0 means the two must agree bit for bit, which is
// what a correctly rounded result demands).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

#include "bounds.hpp"             // tests/ops: kMulUlp, kSigmoidUlp, matmul_bound, ulp_error, ulp_distance
#include "logreg_step/bound.hpp"  // kernels/logreg_step: agreement_tolerance
#include "porta/porta.h"

namespace porta::conformance {

enum class BoundKind {
  kExact,             // a copy of a value: the same bits (any NaN for NaN)
  kCorrectlyRounded,  // one IEEE operation: <= 0.5 ulp from exact, the same bits across backends
  kUlp,               // within `ulps` of exact; 2 * ulps across backends
  kAbsolute,          // an absolute bound per element, computed from the operands (dot products, sums)
};

struct Tolerance {
  const char* op;
  porta_dtype dtype;
  BoundKind kind;
  double ulps;              // kCorrectlyRounded / kUlp: the bound in ulps against the exact value
  double reference_factor;  // against the CPU backend: this times the bound (0: same bits)
  const char* unit;         // what errors are measured in
  const char* source;       // where the bound comes from
};

inline const Tolerance kTolerances[] = {
    {"fill", PORTA_DTYPE_FLOAT32, BoundKind::kExact, 0, 0, "ulp",
     "a store of the given value: the same bits everywhere"},
    {"scale", PORTA_DTYPE_FLOAT32, BoundKind::kCorrectlyRounded, test::kMulUlp, 0, "ulp",
     "one IEEE multiply (bounds.hpp kMulUlp): <= 0.5 ulp from exact, so the same bits on every backend"},
    {"mul", PORTA_DTYPE_FLOAT32, BoundKind::kCorrectlyRounded, test::kMulUlp, 0, "ulp",
     "one IEEE multiply (bounds.hpp kMulUlp): <= 0.5 ulp from exact, so the same bits on every backend"},
    {"add", PORTA_DTYPE_FLOAT32, BoundKind::kCorrectlyRounded, test::kAddUlp, 0, "ulp",
     "one IEEE add (kernels/add/bound.hpp kAddUlp): <= 0.5 ulp from exact, so the same bits on every "
     "backend; "
     "broadcasting only picks which elements meet"},
    {"sigmoid", PORTA_DTYPE_FLOAT32, BoundKind::kUlp, test::kSigmoidUlp, 2, "ulp",
     "exp (<= 3 ulp) through add and divide (bounds.hpp kSigmoidUlp = 8 ulp) for x >= -80; below, results "
     "under 2^-115: finite, in [0, sigmoid(-80)], -inf -> 0, NaN -> NaN"},
    {"matmul", PORTA_DTYPE_FLOAT32, BoundKind::kAbsolute, 0, 2, "abs",
     "gamma_{K+2} (|alpha| (|A||B|)_ij + |beta| |C_ij|) (bounds.hpp matmul_bound, Higham 3.1)"},
    {"gemm", PORTA_DTYPE_FLOAT32, BoundKind::kAbsolute, 0, 2, "abs",
     "gamma_{K+3} (|alpha| (|A||B|)_ij + |beta| |C_ij| + |bias_j|), then the activation's slope and its "
     "own rounding (bounds.hpp gemm_bound); float16 and bfloat16 inputs are exact in float32, the same "
     "bound"},
    {"dense", PORTA_DTYPE_FLOAT32, BoundKind::kAbsolute, 0, 2, "abs",
     "gemm's bound with alpha 1 and beta 0: gamma_{K+3} ((|x||W^T|)_ij + |b_j|), then the activation's slope "
     "and its own rounding (bounds.hpp gemm_bound): dense is that GEMM with its epilogue"},
    {"fp16", PORTA_DTYPE_FLOAT16, BoundKind::kCorrectlyRounded, 0.5, 0, "ulp",
     "one IEEE binary16 operation or conversion (+ - * / fma sqrt, float16_t(float)): <= 0.5 ulp of "
     "half from exact, the same bits on every backend; to float and to int exact"},
    {"bf16", PORTA_DTYPE_BFLOAT16, BoundKind::kCorrectlyRounded, 0.5, 0, "ulp",
     "float -> bfloat16 rounds to nearest even (porta_bfloat16.glsl), bfloat16 -> float is exact, and "
     "an operation on two bfloat16 in float then rounded once: <= 0.5 ulp of bfloat16, the same bits "
     "everywhere"},
    {"int8", PORTA_DTYPE_INT8, BoundKind::kExact, 0, 0, "ulp", "integers that wrap around: exact"},
    {"int16", PORTA_DTYPE_INT16, BoundKind::kExact, 0, 0, "ulp", "integers that wrap around: exact"},
    {"logreg_step", PORTA_DTYPE_FLOAT32, BoundKind::kAbsolute, 0, 2, "abs",
     "one step: E per weight, bias and loss (tolerance.hpp agreement_tolerance / 2) plus the rounding of "
     "w - lr dw (2u|w|); 2E between backends"},
};

// The IEEE binary16 nearest to `v` (ties to even; past the range infinity).
inline uint16_t half_bits(double v) {
  const uint16_t sign = std::signbit(v) ? 0x8000u : 0u;
  const double a = std::fabs(v);
  if (std::isnan(v)) return static_cast<uint16_t>(sign | 0x7e00u);
  if (a >= 65520.0) return static_cast<uint16_t>(sign | 0x7c00u);
  if (a < 0x1p-14) return static_cast<uint16_t>(sign | static_cast<uint16_t>(std::nearbyint(a * 0x1p24)));
  int e = 0;
  const double f = std::frexp(a, &e);                  // a = f 2^e, f in [0.5, 1)
  const double q = std::nearbyint(std::ldexp(f, 11));  // 1024..2048, ties to even
  return static_cast<uint16_t>(sign |
                               ((static_cast<uint32_t>(e + 14) << 10) + static_cast<uint32_t>(q) - 1024u));
}
inline double half_value(uint16_t h) {
  const int e = (h >> 10) & 31, m = h & 1023;
  const double v = e == 31  ? (m ? NAN : INFINITY)
                   : e == 0 ? std::ldexp(m, -24)
                            : std::ldexp(m + 1024, e - 25);
  return (h & 0x8000u) ? -v : v;
}
// `v` rounded to nearest even in `dtype` (float16, bfloat16; float32 otherwise), as a float.
inline float round_to(porta_dtype dtype, double v) {
  if (dtype == PORTA_DTYPE_FLOAT16) return static_cast<float>(half_value(half_bits(v)));
  if (dtype == PORTA_DTYPE_BFLOAT16 && std::isfinite(v)) {
    const double a = std::fabs(v);
    int e = 0;
    std::frexp(a, &e);
    const double ulp = std::ldexp(1.0, std::max(e - 8, -133));
    const double r = std::nearbyint(a / ulp) * ulp;  // exact scaling by a power of two
    return static_cast<float>(std::copysign(r, v));  // past FLT_MAX: infinity
  }
  return static_cast<float>(v);
}
// |got - exact| in ulps of `dtype` at `exact`.
inline double ulp_error_in(porta_dtype dtype, float got, double exact) {
  if (dtype != PORTA_DTYPE_FLOAT16 && dtype != PORTA_DTYPE_BFLOAT16) return test::ulp_error(got, exact);
  if (std::isnan(got) || std::isnan(exact)) return std::isnan(got) && std::isnan(exact) ? 0 : INFINITY;
  if (static_cast<double>(got) == exact) return 0;
  int e = 0;
  std::frexp(exact, &e);
  const double ulp = dtype == PORTA_DTYPE_FLOAT16 ? std::ldexp(1.0, std::max(e - 11, -24))
                                                  : std::ldexp(1.0, std::max(e - 8, -133));
  return std::fabs(static_cast<double>(got) - exact) / ulp;
}

inline const Tolerance& tolerance_of(const std::string& op, porta_dtype dtype = PORTA_DTYPE_FLOAT32) {
  for (const auto& t : kTolerances)
    if (op == t.op && dtype == t.dtype) return t;
  // The type cases have one row each, named after their type.
  for (const auto& t : kTolerances)
    if (op == t.op && dtype == PORTA_DTYPE_FLOAT32) return t;
  // Ops without a row cannot be judged; the case tables only name ops with one.
  static const Tolerance none{"", PORTA_DTYPE_FLOAT32, BoundKind::kExact, 0, 0, "bits", "bit-exact (no row)"};
  return none;
}

}  // namespace porta::conformance
