#version 450
// porta-conformance: --groups 4,1,1 --buffer zeros:8
// porta-requires: atomic-float32
// what: atomicAdd on floats in a buffer and in shared memory, with the old value read; sums of small multiples of 1/4 are exact in any order
#extension GL_EXT_shader_atomic_float : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Sums { float total; float groups; };
shared float group_sum;
void main() {
  uint l = gl_LocalInvocationID.x;
  if (l == 0u) group_sum = 0.0;
  barrier();
  float before = atomicAdd(group_sum, float(l % 8u) * 0.25);
  atomicAdd(total, before >= 0.0 ? 0.5 : 1000.0);
  barrier();
  if (l == 0u) atomicAdd(groups, group_sum);
}
