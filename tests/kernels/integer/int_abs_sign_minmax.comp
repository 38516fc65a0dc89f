// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: GLSL.std.450 SAbs, SSign, SMin/SMax/UMin/UMax, SClamp/UClamp on mixed-sign data
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { int a[]; };
layout(binding = 1) readonly buffer B { int b[]; };
layout(binding = 2) writeonly buffer Out { ivec4 y[]; };
layout(binding = 3) writeonly buffer OutU { uvec4 z[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  int x = a[i] - 32, q = b[i] - 32;
  y[i] = ivec4(abs(x) * sign(q), min(x, q), max(x, -q), clamp(x * 3, -20, 17));
  uint u = uint(x), v = uint(q);  // negative values become large unsigned ones
  z[i] = uvec4(min(u, v), max(u, v), clamp(u, 10u, 0x80000000u), uint(sign(ivec2(x, q)).y + 1));
}
