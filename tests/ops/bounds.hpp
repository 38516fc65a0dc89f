// Error bounds of porta's ops, written down once beside each op
// (kernels/NAME/bound.hpp; float32, u = 2^-24), and how the tests measure
// errors against them. The CPU backend is checked against a float64 oracle
// within these bounds; every other backend is checked against the CPU backend
// within twice the bound
// (both lie within the bound of the exact value), except where the bound says
// the result is correctly rounded: then both must be equal.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "add/bound.hpp"
#include "common/rounding.hpp"
#include "matmul/bound.hpp"
#include "mul/bound.hpp"
#include "sigmoid/bound.hpp"

namespace porta::test {

using ops::gamma_n;
using ops::kAddUlp;
using ops::kMulUlp;
using ops::kSigmoidUlp;
using ops::kUnitRoundoff;
using ops::matmul_bound;

// Distance in units in the last place of float `got` from the exact `want`.
inline double ulp_error(float got, double want) {
  if (std::isnan(got) || std::isnan(want)) return std::isnan(got) && std::isnan(want) ? 0 : INFINITY;
  if (got == want) return 0;
  int e = 0;
  std::frexp(want, &e);  // want = f * 2^e, 0.5 <= |f| < 1
  const double ulp = std::ldexp(1.0, std::max(e - 24, -149));
  return std::fabs(static_cast<double>(got) - want) / ulp;
}

// Distance in ulps between two floats (same sign assumed near each other).
inline double ulp_distance(float a, float b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b) ? 0 : INFINITY;
  int32_t ia, ib;
  std::memcpy(&ia, &a, 4);
  std::memcpy(&ib, &b, 4);
  if (ia < 0) ia = INT32_MIN - ia;
  if (ib < 0) ib = INT32_MIN - ib;
  return std::fabs(static_cast<double>(ia) - static_cast<double>(ib));
}

}  // namespace porta::test
