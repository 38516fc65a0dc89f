// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: parenthesised integer grouping the target language's precedence would change (shifts vs +, & vs ==, ^ vs |, unary minus of differences, nested ?:)
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { int a[]; };
layout(binding = 1) writeonly buffer Out { ivec4 y[]; };
layout(binding = 2) writeonly buffer Out2 { ivec4 z[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  int x = a[i], s = a[(i + 1u) & 255u] & 7, t = a[(i + 2u) & 255u];
  y[i] = ivec4(x << (s + 1), (x << s) + 1, (x & 3) == 1 ? 1 : 0, x ^ (t | 5));
  z[i] = ivec4(-(x - t), x - (t - s), (x > t ? x : t) * (s < 3 ? -1 : 2), (x ^ t) | (s & (x >> 1)));
}
