// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: a shared bool array written by each invocation and read by others after a barrier
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { uint y[]; };

shared bool positive[64];
shared bvec2 pair[64];

void main() {
  uint l = gl_LocalInvocationID.x, i = gl_GlobalInvocationID.x;
  positive[l] = x[i] > 0.0;
  pair[l] = bvec2(x[i] > 1.0, x[i] < -1.0);
  barrier();
  uint n = 0u;
  for (uint k = 0u; k < 8u; ++k) n += positive[(l + k) & 63u] ? 1u : 0u;
  bvec2 other = pair[63u - l];
  y[i] = n + (other.x ? 100u : 0u) + (other.y ? 1000u : 0u);
}
