// porta-conformance: --groups 16,1,1 --inputs auto --elements 1024
// what: matrix-vector product with one work-group per row: strided partial dot products reduced in shared memory (A 16x64)
#version 450
layout(local_size_x = 32) in;

layout(binding = 0) readonly buffer A { float a[]; };
layout(binding = 1) readonly buffer X { float x[]; };
layout(binding = 2) writeonly buffer Y { float y[]; };

shared float partial[32];

// Inputs rounded to multiples of 1/8: every product and sum below is exact, so the
// result does not depend on the order of additions or on fused multiply-add.
float q8(float v) { return floor(v * 8.0) * 0.125; }

void main() {
  uint l = gl_LocalInvocationID.x, row = gl_WorkGroupID.x;
  partial[l] = q8(a[row * 64u + l]) * q8(x[l]) + q8(a[row * 64u + l + 32u]) * q8(x[l + 32u]);
  barrier();
  for (uint s = 16u; s > 0u; s >>= 1) {
    if (l < s) partial[l] += partial[l + s];
    barrier();
  }
  if (l == 0u) y[row] = partial[0];
}
