// porta-conformance: --groups 4,1,1 --inputs auto --elements 256 --spec 0=16
// what: a shared array sized by a specialization constant (8 by default, 16 here); .length() follows the constant
#version 450
layout(local_size_x = 64) in;

layout(constant_id = 0) const int N = 8;

layout(binding = 0) readonly buffer In { int x[]; };
layout(binding = 1) writeonly buffer Out { int y[]; };

shared int tile[N];

void main() {
  uint l = gl_LocalInvocationID.x, i = gl_GlobalInvocationID.x;
  if (l < uint(tile.length())) tile[l] = x[i] * 2;
  barrier();
  int s = 0;
  for (int k = 0; k < tile.length(); ++k) s += tile[k];
  y[i] = s + int(l) % tile.length();
}
