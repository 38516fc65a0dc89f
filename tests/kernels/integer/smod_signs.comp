// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: int % is OpSMod: the result takes the divisor's sign (-7 % 3 == 2, 7 % -3 == -2), scalars and ivec4
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { int a[]; };
layout(binding = 1) readonly buffer B { int b[]; };
layout(binding = 2) writeonly buffer Out { ivec4 y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  int x = a[i] - 32;          // [-32, 31]
  int d = (b[i] - 32) | 1;    // odd, never zero, either sign
  ivec4 xs = ivec4(x, -x, x * 3, -7);
  ivec4 ds = ivec4(d, d, -d, 3);
  y[i] = xs % ds;
}
