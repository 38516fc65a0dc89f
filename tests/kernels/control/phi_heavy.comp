// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: values merged from many branches (OpPhi after if/else and loops), swapping variables in loops
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { int x[]; };
layout(binding = 1) writeonly buffer Out { ivec4 y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  int v = x[i];
  int a = v, b = v * 2 + 1, c = 0;
  for (int k = 0; k < 10; ++k) {
    int t = a;
    a = b;
    b = t + k;  // rotation through the loop header's phis
    if ((a & 1) == 0) c += a;
    else if ((b & 2) == 0) c -= b;
    else c ^= k;
  }
  int d = v > 32 ? (v > 48 ? 3 : 2) : (v > 16 ? 1 : 0);
  y[i] = ivec4(a, b, c, d);
}
