// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: tree reduction with interleaved addressing (stride doubling, l % (2*s) == 0), one int sum per work-group
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { int x[]; };
layout(binding = 1) writeonly buffer Out { int sums[]; };

shared int partial[64];

void main() {
  uint l = gl_LocalInvocationID.x;
  partial[l] = x[gl_GlobalInvocationID.x] - 32;
  barrier();
  for (uint s = 1u; s < 64u; s *= 2u) {
    if (l % (2u * s) == 0u) partial[l] += partial[l + s];
    barrier();
  }
  if (l == 0u) sums[gl_WorkGroupID.x] = partial[0];
}
