// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// porta-requires: fp64
// what: a tree reduction of doubles in shared memory (fixed pairing, so the same roundings on every backend)
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { float a[]; };
layout(binding = 1) writeonly buffer Out { double sums[]; };

shared double partial[64];

void main() {
  uint l = gl_LocalInvocationID.x, i = gl_GlobalInvocationID.x;
  partial[l] = double(a[i]) * double(a[i] + 1.0);
  barrier();
  for (uint stride = 32u; stride > 0u; stride >>= 1) {
    if (l < stride) partial[l] += partial[l + stride];
    barrier();
  }
  if (l == 0u) sums[gl_WorkGroupID.x] = partial[0];
}
