// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// porta-requires: fp64
// what: double add, sub, mul of float inputs (products of floats are exact in double, so fused or not agree) and double -> float rounding
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { float a[]; };
layout(binding = 1) readonly buffer B { float b[]; };
layout(binding = 2) writeonly buffer Out { double y[]; };
layout(binding = 3) writeonly buffer OutF { vec2 f[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  double x = double(a[i]), q = double(b[i]);
  double p = x * q;              // exact
  y[i] = p + x - q * 0.5lf;
  f[i] = vec2(float(p), float(x + q * 0.0009765625lf));
}
