// Error bound of mul (and scale): one IEEE multiply, correctly rounded
// (0.5 ulp), so every backend gives the same bits. Inputs and results are kept
// in the normal range by the tests: GPUs may flush subnormals to zero.
#pragma once

namespace porta::ops {

constexpr double kMulUlp = 0.5;

}  // namespace porta::ops
