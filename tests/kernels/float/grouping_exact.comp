// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: parenthesised grouping that changes the value (a - (b - c), a / (b / c), -(a - b) * c, nested ?: in sums) on exact operands
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { vec4 a[]; };
layout(binding = 1) writeonly buffer Out { vec4 y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  vec4 v = floor(a[i] * 8.0);  // integers in [-16, 16]
  float p = v.x, q = v.y, r = v.z, s = v.w;
  float g1 = p - (q - r);             // not p - q - r
  float g2 = 64.0 / (4.0 / 2.0);      // 32, not 8
  float g3 = 10.5 - (2.0 - (q > 0.0 ? 0.125 : 0.5));
  float g4 = -(p - q) * (r + 2.0);
  float g5 = (p + (q > r ? 1.0 : -1.0)) * (s - (p - 8.0));
  y[i] = vec4(g1, g2 + g3, g4, g5 * 0.5 - (r - (s - p)));
}
