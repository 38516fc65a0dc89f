// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: atomicAdd on shared counters zeroed by one invocation, read by all after a barrier
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { uint x[]; };
layout(binding = 1) writeonly buffer Out { uint y[]; };

shared uint counts[4];
shared int signed_sum;

void main() {
  uint l = gl_LocalInvocationID.x, i = gl_GlobalInvocationID.x;
  if (l < 4u) counts[l] = 0u;
  if (l == 0u) signed_sum = 0;
  barrier();
  atomicAdd(counts[x[i] & 3u], 1u);
  atomicAdd(signed_sum, int(x[i]) - 32);
  barrier();
  y[i] = counts[l & 3u] * 1000u + uint(signed_sum + 4096);
}
