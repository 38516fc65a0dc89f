// porta-conformance: --groups 4,1,1 --inputs auto --elements 64
// what: atomics on members of a std140 buffer whose layout is not the target's (a counter after a padded float array)
#version 450
layout(local_size_x = 16) in;
layout(std140, binding = 0) buffer Counters { float weights[4]; uint count; int total; uint hist[4]; } c;
void main() {
  uint i = gl_GlobalInvocationID.x;
  atomicAdd(c.count, 1u);
  atomicAdd(c.total, int(c.weights[i % 4u]));
  atomicMax(c.hist[i % 4u], i);
}
