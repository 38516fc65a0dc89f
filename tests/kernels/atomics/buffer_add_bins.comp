// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: atomicAdd on a 16-bin uint buffer (order-independent sums; bins start from their input values)
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer Keys { uint keys[]; };
layout(binding = 1) buffer Bins { uint bins[16]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint k = keys[i];
  atomicAdd(bins[k & 15u], 1u);
  atomicAdd(bins[(k >> 4) & 15u], k);
}
