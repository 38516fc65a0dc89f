// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// porta-requires: fp64
// what: GLSL.std.450 on doubles: floor, ceil, trunc, fract, roundEven, abs, sign, min, max, clamp, mix, step, fma (exact)
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { float a[]; };
layout(binding = 1) readonly buffer B { float b[]; };
layout(binding = 2) writeonly buffer Out { dvec4 y[]; };
layout(binding = 3) writeonly buffer Out2 { dvec4 z[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  double x = double(a[i]) * 16.0lf, q = double(b[i]);
  y[i] = dvec4(floor(x), ceil(x), trunc(x), fract(x));
  double t = floor(abs(q) * 4.0lf) * 0.125lf;  // [0, 1] in 1/8 steps
  z[i] = dvec4(roundEven(floor(x) + 0.5lf) + abs(x) * sign(q), clamp(x, -3.0lf, 5.0lf) + min(x, q) + max(x, -q),
               mix(floor(x), ceil(x), t) + step(q, x), fma(x, q, t));
}
