// porta-conformance: --groups 1,1,1 --inputs auto --elements 4096
// what: matrix-vector product y = A x + y0 with one 64-wide row per invocation (A 64x64; x the first 64 elements of its buffer)
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { float a[]; };
layout(binding = 1) readonly buffer X { float x[]; };
layout(binding = 2) buffer Y { float y[]; };

// Inputs rounded to multiples of 1/8: every product and sum below is exact, so the
// result does not depend on the order of additions or on fused multiply-add.
float q8(float v) { return floor(v * 8.0) * 0.125; }

void main() {
  uint row = gl_GlobalInvocationID.x;
  float acc = 0.0;
  for (uint k = 0u; k < 64u; ++k) acc += q8(a[row * 64u + k]) * q8(x[k]);
  y[row] = acc + q8(y[row]);
}
