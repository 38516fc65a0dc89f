// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: Euclid's gcd and an integer power by squaring (loops driven by %, / and shifts)
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { uint a[]; };
layout(binding = 1) readonly buffer B { uint b[]; };
layout(binding = 2) writeonly buffer Out { uvec2 y[]; };

uint gcd(uint x, uint y) {
  while (y != 0u) {
    uint t = x % y;
    x = y;
    y = t;
  }
  return x;
}

uint ipow(uint base, uint e) {
  uint r = 1u;
  while (e > 0u) {
    if ((e & 1u) != 0u) r *= base;
    base *= base;
    e >>= 1;
  }
  return r;
}

void main() {
  uint i = gl_GlobalInvocationID.x;
  y[i] = uvec2(gcd(a[i] * 12u + 6u, b[i] * 18u + 4u), ipow(a[i] + 3u, b[i]));
}
