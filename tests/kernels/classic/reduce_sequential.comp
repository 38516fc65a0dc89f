// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: tree reduction with sequential addressing (stride halving, contiguous active invocations) of floats in 1/8 steps
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float sums[]; };

shared float partial[64];

// Inputs rounded to multiples of 1/8: every sum below is exact, so the result does
// not depend on the order of additions or on fused multiply-add.
float q8(float v) { return floor(v * 8.0) * 0.125; }

void main() {
  uint l = gl_LocalInvocationID.x;
  partial[l] = q8(x[gl_GlobalInvocationID.x]);
  barrier();
  for (uint s = 32u; s > 0u; s >>= 1) {
    if (l < s) partial[l] += partial[l + s];
    barrier();
  }
  if (l == 0u) sums[gl_WorkGroupID.x] = partial[0];
}
