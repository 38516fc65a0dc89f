// Error bound of sigmoid: exp (OpenCL and CUDA promise <= 3 ulp for expf),
// one add and one divide (<= 2.5 ulp in OpenCL without correctly rounded
// division): for x >= 0, 1/(1+e) inherits e's error damped by e/(1+e) <= 1;
// for x < 0, e/(1+e) inherits it twice. 2*3 + 2 rounding = 8 ulp, for results
// >= 2^-126 (|x| <= 80). Outside that range the checks are qualitative:
// finite, in [0, 1], and the right limit.
#pragma once

namespace porta::ops {

constexpr double kSigmoidUlp = 8.0;

}  // namespace porta::ops
