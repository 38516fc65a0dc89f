// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: signed vs unsigned comparisons of the same bits (OpSLessThan vs OpULessThan), ?: and mix on bvec selections
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { int a[]; };
layout(binding = 1) readonly buffer B { int b[]; };
layout(binding = 2) writeonly buffer Out { ivec4 y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  int x = a[i] - 32, q = b[i] - 32;
  bool slt = x < q;
  bool ult = uint(x) < uint(q);
  ivec2 pick = mix(ivec2(x, q), ivec2(q, x), bvec2(slt, ult));
  y[i] = ivec4(int(slt) + 2 * int(ult), pick, x >= q ? x - q : q * 2);
}
