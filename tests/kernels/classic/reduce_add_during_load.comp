// porta-conformance: --groups 2,1,1 --inputs auto --elements 512
// what: reduction where each invocation first adds several elements while loading (grid-stride), then a shared tree with an unrolled tail
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
  uint stride = gl_NumWorkGroups.x * 64u;
  float acc = 0.0;
  for (uint k = gl_GlobalInvocationID.x; k < 512u; k += stride) acc += q8(x[k]);
  partial[l] = acc;
  barrier();
  if (l < 32u) partial[l] += partial[l + 32u];
  barrier();
  if (l < 16u) partial[l] += partial[l + 16u];
  barrier();
  if (l < 8u) partial[l] += partial[l + 8u];
  barrier();
  if (l < 4u) partial[l] += partial[l + 4u];
  barrier();
  if (l < 2u) partial[l] += partial[l + 2u];
  barrier();
  if (l == 0u) sums[gl_WorkGroupID.x] = partial[0] + partial[1];
}
