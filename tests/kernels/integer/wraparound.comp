// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: 32-bit add, sub, mul and negation wrap modulo 2^32 for int and uint (no undefined overflow)
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { int a[]; };
layout(binding = 1) writeonly buffer Out { ivec4 y[]; };
layout(binding = 2) writeonly buffer OutU { uvec4 z[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  int x = 0x7FFFFFF0 + a[i];                 // overflows for a > 15
  int m = (a[i] + 1) * 0x10000001;
  int lo = -0x7FFFFFFF - 1 - a[i];           // INT_MIN minus a: wraps to large positives
  y[i] = ivec4(x, m * m, lo, -(-0x7FFFFFFF - 1) + a[i]);
  uint u = uint(a[i]);
  z[i] = uvec4(0u - u, 0xFFFFFFFFu + u, u * 0x9E3779B9u, (u + 0xFFFFFF00u) * (u + 0x80000000u));
}
