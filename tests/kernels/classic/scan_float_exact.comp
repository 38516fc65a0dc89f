// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: inclusive scan of floats in 1/8 steps (Hillis-Steele; exact, so any add order agrees) and the exclusive scan derived from it
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { vec2 y[]; };

shared float buf[2][64];

// Inputs rounded to multiples of 1/8: every sum below is exact, so the result does
// not depend on the order of additions or on fused multiply-add.
float q8(float v) { return floor(v * 8.0) * 0.125; }

void main() {
  uint l = gl_LocalInvocationID.x, i = gl_GlobalInvocationID.x;
  float own = q8(x[i]);
  uint src = 0u;
  buf[0][l] = own;
  barrier();
  for (uint off = 1u; off < 64u; off <<= 1) {
    float v = buf[src][l];
    if (l >= off) v += buf[src][l - off];
    buf[1u - src][l] = v;
    src = 1u - src;
    barrier();
  }
  y[i] = vec2(buf[src][l], buf[src][l] - own);
}
