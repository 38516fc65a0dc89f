// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: atomicAdd and atomicAdd of negated values (subtraction) on int accumulators going negative; uint wrap-around
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { int x[]; };
layout(binding = 1) buffer Acc { int acc[4]; int down; uint wrap; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  int v = x[i] - 32;
  atomicAdd(acc[i & 3u], v);
  atomicAdd(down, -(v * v) - 1);
  atomicAdd(wrap, 0xFFFFFFF0u + uint(x[i]));  // wraps modulo 2^32 on every add
}
