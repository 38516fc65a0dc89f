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
