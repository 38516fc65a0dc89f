// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// porta-requires: fp64
// what: double <-> int, uint, float conversions (truncation toward zero, rounding to nearest), large integers exact in double
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { int a[]; };
layout(binding = 1) readonly buffer F { float f[]; };
layout(binding = 2) writeonly buffer Out { dvec2 y[]; };
layout(binding = 3) writeonly buffer OutI { ivec4 z[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  int big = (a[i] - 32) * 0x0FEDCBA9;
  double d = double(big) * 4.0lf + double(f[i]);
  y[i] = dvec2(d, double(uint(big)));
  z[i] = ivec4(int(d * 0.25lf), int(-d * 1e-3lf), int(uint(abs(d) * 1e-2lf)), int(float(d) == float(d * 1.0lf)));
}
