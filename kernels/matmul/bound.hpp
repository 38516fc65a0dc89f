// Error bound of matmul: each C_ij is a K-term dot product plus the alpha and
// beta products and one add:
//   |C - exact| <= gamma_{K+2} (|alpha| (|A||B|)_ij + |beta| |C_ij|).
#pragma once

#include <cmath>
#include <cstdint>

#include "common/rounding.hpp"

namespace porta::ops {

inline double matmul_bound(uint64_t k, double abs_ab, double alpha, double beta, double c_old) {
  return gamma_n(static_cast<double>(k) + 2) *
         (std::fabs(alpha) * abs_ab + std::fabs(beta) * std::fabs(c_old));
}

}  // namespace porta::ops

namespace porta::ops {

// gemm with a bias and an activation (porta_gemm_activation's values: 0 none,
// 1 relu, 2 sigmoid, 3 gelu-tanh). z = alpha op(A) op(B) + beta C + bias adds
// one more term to the sum:
//   |z~ - z| <= gamma_{K+3} (|alpha| (|A||B|)_ij + |beta| |C_ij| + |bias_j|).
// 16-bit inputs convert to float32 exactly, so the bound is the same for them
// (the exact values being those of the 16-bit inputs).
inline double gemm_sum_bound(uint64_t k, double abs_ab, double alpha, double beta, double c_old,
                             double bias) {
  return gamma_n(static_cast<double>(k) + 3) *
         (std::fabs(alpha) * abs_ab + std::fabs(beta) * std::fabs(c_old) + std::fabs(bias));
}

// How far act moves per unit of z (its largest slope): an error e in z
// becomes at most slope * e. gelu-tanh's derivative peaks near 1.129.
inline double activation_slope(int activation) {
  return activation == 2 ? 0.25 : activation == 3 ? 1.13 : 1.0;
}

// act's own rounding at z, in float32 ulps of its result. exp's accuracy is
// Vulkan's for GLSL exp, the loosest of the backends: 3 + 2|x| ulp. sigmoid =
// 1/(1 + e) or e/(1 + e) with e = exp(-|z|): e's error at most twice, an add
// and a divide (2.5 ulp without correctly rounded division): 10 + 4|z|. gelu =
// z sigmoid(s), s = 2 sqrt(2/pi) (z + 0.044715 z^3): s carries about 7
// roundings (its terms share a sign, so they do not cancel), which sigmoid's
// slope (1 - sigmoid(s)) <= 1 turns into 7|s| ulp of the result, sigmoid's
// 10 + 4|s| and the final multiply: 11 + 11|s|.
inline double activation_ulps(int activation, double z) {
  if (activation == 2) return 10 + 4 * std::fabs(z);
  if (activation == 3) return 11 + 11 * std::fabs(2 * 0.7978845608 * (z + 0.044715 * z * z * z));
  return 0;
}

// The reference activation, in double.
inline double activate(int activation, double z) {
  if (activation == 1) return z < 0 ? 0 : z;
  if (activation == 2) return 1 / (1 + std::exp(-z));
  if (activation == 3) return 0.5 * z * (1 + std::tanh(0.7978845608028654 * (z + 0.044715 * z * z * z)));
  return z;
}

// |computed - act(z)| for a computed z within gemm_sum_bound `sum_bound` of z;
// results below float32's normal range may also be off by its smallest normal.
inline double gemm_bound(int activation, double z, double sum_bound) {
  const double act = std::fabs(activate(activation, z));
  return activation_slope(activation) * sum_bound +
         activation_ulps(activation, z) * kUnitRoundoff * 2 * (act + sum_bound) + std::ldexp(1.0, -126);
}

}  // namespace porta::ops
