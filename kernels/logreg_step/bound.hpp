// Error bound of logreg_step, and how far two porta backends may disagree
// after training logistic regression with it: written down once, used by
// porta-logreg --backend all, tests/ops and porta-conformance.
//
// One step computes g_j = (1/m) sum_i X_ij r_i with r_i = sigmoid(z_i) - y_i,
// z_i = sum_j X_ij w_j + b. A conforming backend differs from exact arithmetic
// (u = 2^-24, gamma_n = n u / (1 - n u)) by at most
//   sums over the m rows (any order):         gamma_{m+2} * S_j
//   sigmoid (exp, add, divide; <= 8 ulp):      8u * S_j
//   z through sigmoid' <= 1/4 (d + 1 terms):   gamma_{d+1} * Z / 4 * S_j
// where S_j = (1/m) sum_i |X_ij| and Z = max_i (sum_j |X_ij w_j| + |b|). Two
// backends each within E of exact differ by at most 2E per step. Gradient
// descent on the convex logistic loss with lr below 2/L is non-expansive, so
// step differences add up: after K steps |w - w'| <= K lr 2E (b likewise,
// with S = 1). The loss differs through w and b (its gradient is bounded by
// max S_j and 1) plus its own sum: 2 gamma_{m+2} (loss + 1).
// These are worst-case bounds; the observed differences are printed beside them.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "common/rounding.hpp"

namespace porta::logreg {

using ops::gamma_n;

struct Tolerance {
  double w = 0;  // per weight
  double b = 0;
  double loss = 0;
};

// x is m x d row-major; w and b are a reference run's result, loss its final loss.
inline Tolerance agreement_tolerance(const std::vector<float>& x, uint64_t m, uint64_t d,
                                     const std::vector<float>& w, float b, float loss, uint64_t iterations,
                                     double lr) {
  const double u = ops::kUnitRoundoff;
  double s_max = 0, z_max = 0;
  std::vector<double> s(d, 0.0);
  for (uint64_t i = 0; i < m; ++i) {
    double z = std::fabs(b);
    for (uint64_t j = 0; j < d; ++j) {
      s[j] += std::fabs(x[i * d + j]);
      z += std::fabs(static_cast<double>(x[i * d + j]) * w[j]);
    }
    z_max = std::max(z_max, z);
  }
  for (double& v : s) s_max = std::max(s_max, v / static_cast<double>(m));
  const double per_unit =
      gamma_n(static_cast<double>(m) + 2) + 8 * u + gamma_n(static_cast<double>(d) + 1) * z_max / 4;
  Tolerance t;
  t.w = static_cast<double>(iterations) * std::fabs(lr) * 2 * per_unit * s_max;
  t.b = static_cast<double>(iterations) * std::fabs(lr) * 2 * per_unit;
  t.loss = s_max * t.w * static_cast<double>(d) + t.b +
           2 * gamma_n(static_cast<double>(m) + 2) * (std::fabs(loss) + 1);
  return t;
}

}  // namespace porta::logreg
