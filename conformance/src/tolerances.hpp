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
    {"sigmoid", PORTA_DTYPE_FLOAT32, BoundKind::kUlp, test::kSigmoidUlp, 2, "ulp",
     "exp (<= 3 ulp) through add and divide (bounds.hpp kSigmoidUlp = 8 ulp) for x >= -80; below, results "
     "under 2^-115: finite, in [0, sigmoid(-80)], -inf -> 0, NaN -> NaN"},
    {"matmul", PORTA_DTYPE_FLOAT32, BoundKind::kAbsolute, 0, 2, "abs",
     "gamma_{K+2} (|alpha| (|A||B|)_ij + |beta| |C_ij|) (bounds.hpp matmul_bound, Higham 3.1)"},
    {"gemm", PORTA_DTYPE_FLOAT32, BoundKind::kAbsolute, 0, 2, "abs",
     "gamma_{K+3} (|alpha| (|A||B|)_ij + |beta| |C_ij| + |bias_j|), then the activation's slope and its "
     "own rounding (bounds.hpp gemm_bound); float16 and bfloat16 inputs are exact in float32, the same "
     "bound"},
    {"logreg_step", PORTA_DTYPE_FLOAT32, BoundKind::kAbsolute, 0, 2, "abs",
     "one step: E per weight, bias and loss (tolerance.hpp agreement_tolerance / 2) plus the rounding of "
     "w - lr dw (2u|w|); 2E between backends"},
};

inline const Tolerance& tolerance_of(const std::string& op, porta_dtype dtype = PORTA_DTYPE_FLOAT32) {
  for (const auto& t : kTolerances)
    if (op == t.op && dtype == t.dtype) return t;
  // Ops without a row cannot be judged; the case tables only name ops with one.
  static const Tolerance none{"", PORTA_DTYPE_FLOAT32, BoundKind::kExact, 0, 0, "bits", "bit-exact (no row)"};
  return none;
}

}  // namespace porta::conformance
