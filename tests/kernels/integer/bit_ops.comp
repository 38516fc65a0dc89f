// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: &, |, ^, ~ on int, uint and ivec/uvec, with negative values and constants
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { int a[]; };
layout(binding = 1) readonly buffer B { uint b[]; };
layout(binding = 2) writeonly buffer Out { ivec4 y[]; };
layout(binding = 3) writeonly buffer OutU { uvec4 z[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  int x = (a[i] - 32) * 0x00FF00FF;
  uint u = b[i] * 0x11111111u;
  y[i] = ivec4(x & 0x0F0F0F0F, x | -256, x ^ ~x, ~x);
  uvec2 v = uvec2(u, ~u) & uvec2(0xF00Fu, 0xFFFF0000u);
  z[i] = uvec4(v, u ^ uint(x), ~(u | 1u));
}
