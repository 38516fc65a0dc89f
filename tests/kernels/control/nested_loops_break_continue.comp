// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: nested for loops with data-dependent break and continue at both levels
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { int x[]; };
layout(binding = 1) writeonly buffer Out { int y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  int v = x[i];
  int acc = 0;
  for (int a = 0; a < 16; ++a) {
    if (((a + v) & 3) == 0) continue;
    for (int b = 0; b < 16; ++b) {
      if (b > a) break;
      if (((a * b + v) % 5) == 0) continue;
      acc += a * 16 + b;
      if (acc > 4000 + v * 10) break;
    }
    if (acc > 6000) break;
  }
  y[i] = acc;
}
