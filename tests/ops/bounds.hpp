// Error bounds of porta's ops, written down once (float32, u = 2^-24). The
// CPU backend is checked against a float64 oracle within these bounds; every
// other backend is checked against the CPU backend within twice the bound
// (both lie within the bound of the exact value), except where the bound says
// the result is correctly rounded: then both must be equal.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

namespace porta::test {

inline const double kUnitRoundoff = std::ldexp(1.0, -24);

// gamma_n = n u / (1 - n u): the bound of a sum or dot product of n terms
// taken in any order (Higham, Accuracy and Stability, 3.1).
inline double gamma_n(double n) { return n * kUnitRoundoff / (1.0 - n * kUnitRoundoff); }

// mul and scale: one IEEE multiply, correctly rounded (0.5 ulp). Inputs and
// results are kept in the normal range: GPUs may flush subnormals to zero.
constexpr double kMulUlp = 0.5;

// sigmoid: exp (OpenCL and CUDA promise <= 3 ulp for expf), one add and one
// divide (<= 2.5 ulp in OpenCL without correctly rounded division): for
// x >= 0, 1/(1+e) inherits e's error damped by e/(1+e) <= 1; for x < 0,
// e/(1+e) inherits it twice. 2*3 + 2 rounding = 8 ulp, for results >= 2^-126
// (|x| <= 80). Outside that range the checks are qualitative: finite, in
// [0, 1], and the right limit.
constexpr double kSigmoidUlp = 8.0;

// matmul: each C_ij is a K-term dot product plus the alpha and beta products
// and one add: |C - exact| <= gamma_{K+2} (|alpha| (|A||B|)_ij + |beta| |C_ij|).
inline double matmul_bound(uint64_t k, double abs_ab, double alpha, double beta, double c_old) {
  return gamma_n(static_cast<double>(k) + 2) * (std::fabs(alpha) * abs_ab + std::fabs(beta) * std::fabs(c_old));
}

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
