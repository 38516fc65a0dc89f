// float32 rounding-error analysis the ops' error bounds (kernels/*/bound.hpp)
// are written in. Header-only and free of porta's API: tests, conformance and
// the examples include it as they are.
#pragma once

#include <cmath>

namespace porta::ops {

// u = 2^-24, the unit roundoff of float32.
inline const double kUnitRoundoff = std::ldexp(1.0, -24);

// gamma_n = n u / (1 - n u): the bound of a sum or dot product of n terms
// taken in any order (Higham, Accuracy and Stability, 3.1).
inline double gamma_n(double n) { return n * kUnitRoundoff / (1.0 - n * kUnitRoundoff); }

}  // namespace porta::ops
