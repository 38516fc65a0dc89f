// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: memoryBarrierShared() + barrier() between phases, and groupMemoryBarrier(); a shared flag array guards a second exchange
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { int x[]; };
layout(binding = 1) writeonly buffer Out { int y[]; };

shared int data[64];
shared uint ready[64];

void main() {
  uint l = gl_LocalInvocationID.x, i = gl_GlobalInvocationID.x;
  data[l] = x[i] * 2 - 64;
  ready[l] = 1u;
  memoryBarrierShared();
  barrier();
  int partner = data[(l + 32u) & 63u];
  uint flag = ready[(l + 32u) & 63u];
  groupMemoryBarrier();
  barrier();
  data[l] = partner + int(flag);
  memoryBarrierShared();
  barrier();
  y[i] = data[63u - l] - data[l];
}
