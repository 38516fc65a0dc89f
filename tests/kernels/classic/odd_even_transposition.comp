// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: odd-even transposition sort of 64 ints per work-group (64 alternating compare-exchange phases)
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { int x[]; };
layout(binding = 1) writeonly buffer Out { int y[]; };

shared int v[64];

void main() {
  uint l = gl_LocalInvocationID.x, i = gl_GlobalInvocationID.x;
  v[l] = x[i] - 32;
  barrier();
  for (uint phase = 0u; phase < 64u; ++phase) {
    uint first = phase & 1u;
    if ((l & 1u) == first && l + 1u < 64u) {
      int a = v[l], b = v[l + 1u];
      if (a > b) {
        v[l] = b;
        v[l + 1u] = a;
      }
    }
    barrier();
  }
  y[i] = v[l];
}
