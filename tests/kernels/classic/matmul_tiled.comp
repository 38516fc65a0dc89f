// porta-conformance: --groups 4,4,1 --inputs auto --elements 1024
// what: tiled matrix multiply of 32x32 matrices with 8x8 shared tiles of A and B (barriers between tile loads and use)
#version 450
layout(local_size_x = 8, local_size_y = 8) in;

layout(binding = 0) readonly buffer A { float a[]; };
layout(binding = 1) readonly buffer B { float b[]; };
layout(binding = 2) writeonly buffer C { float c[]; };

shared float ta[8][8];
shared float tb[8][8];

// Inputs rounded to multiples of 1/8: every product and sum below is exact, so the
// result does not depend on the order of additions or on fused multiply-add.
float q8(float v) { return floor(v * 8.0) * 0.125; }

void main() {
  uvec2 l = gl_LocalInvocationID.xy;
  uint col = gl_GlobalInvocationID.x, row = gl_GlobalInvocationID.y;
  float acc = 0.0;
  for (uint t = 0u; t < 32u; t += 8u) {
    ta[l.y][l.x] = q8(a[row * 32u + t + l.x]);
    tb[l.y][l.x] = q8(b[(t + l.y) * 32u + col]);
    barrier();
    for (uint k = 0u; k < 8u; ++k) acc += ta[l.y][k] * tb[k][l.x];
    barrier();
  }
  c[row * 32u + col] = acc;
}
