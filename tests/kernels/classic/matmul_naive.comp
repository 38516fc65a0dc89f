// porta-conformance: --groups 2,2,1 --inputs auto --elements 1024
// what: naive matrix multiply C = A * B of 32x32 row-major matrices, one output per invocation (entries in 1/8 steps: exact)
#version 450
layout(local_size_x = 16, local_size_y = 16) in;

layout(binding = 0) readonly buffer A { float a[]; };
layout(binding = 1) readonly buffer B { float b[]; };
layout(binding = 2) writeonly buffer C { float c[]; };

// Inputs rounded to multiples of 1/8: every product and sum below is exact, so the
// result does not depend on the order of additions or on fused multiply-add.
float q8(float v) { return floor(v * 8.0) * 0.125; }

void main() {
  uint col = gl_GlobalInvocationID.x, row = gl_GlobalInvocationID.y;
  float acc = 0.0;
  for (uint k = 0u; k < 32u; ++k) acc += q8(a[row * 32u + k]) * q8(b[k * 32u + col]);
  c[row * 32u + col] = acc;
}
