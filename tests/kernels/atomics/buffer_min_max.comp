// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: atomicMin/atomicMax on int (signed compare of negatives) and uint (unsigned compare) buffer words
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { int x[]; };
layout(binding = 1) buffer Extremes { int smin; int smax; uint umin; uint umax; int per_group_min[4]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  int v = (x[i] - 32) * 1000 + int(i);
  atomicMin(smin, v);
  atomicMax(smax, v);
  atomicMin(umin, uint(v));  // negative values are huge unsigned
  atomicMax(umax, uint(v));
  atomicMin(per_group_min[gl_WorkGroupID.x], v);
}
