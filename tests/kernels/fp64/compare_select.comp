// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// porta-requires: fp64
// what: double comparisons that float cannot tell apart (values 2^-40 apart), ?: on doubles and isnan/isinf on double bit patterns
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { float a[]; };
layout(binding = 1) writeonly buffer Out { uint y[]; };
layout(binding = 2) writeonly buffer OutD { double z[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  double x = double(a[i]);
  double near = x + ldexp(1.0lf, -40);
  bool dless = x < near, fless = float(x) < float(near);
  double inf = packDouble2x32(uvec2(0u, 0x7FF00000u)), nan = packDouble2x32(uvec2(1u, 0x7FF80000u));
  y[i] = uint(dless) | uint(fless) << 1 | uint(isinf(inf)) << 2 | uint(isnan(nan)) << 3 | uint(isnan(x)) << 4;
  z[i] = dless ? near - x : x;
}
