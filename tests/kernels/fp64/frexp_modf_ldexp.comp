// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// porta-requires: fp64
// what: frexp, modf and ldexp on doubles, beyond float range (exponents to 2^300)
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { float a[]; };
layout(binding = 1) readonly buffer E { int e[]; };
layout(binding = 2) writeonly buffer Out { dvec4 y[]; };
layout(binding = 3) writeonly buffer OutE { int z[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  double x = ldexp(double(a[i]), e[i] * 5 - 20);  // up to about 2^300
  int ex;
  double m = frexp(x, ex);
  double whole;
  double frac = modf(double(a[i]) * 1000.0lf, whole);
  y[i] = dvec4(m, frac, whole, ldexp(m, ex - 300));
  z[i] = ex;
}
