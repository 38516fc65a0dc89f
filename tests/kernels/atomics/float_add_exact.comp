// porta-conformance: --groups 1,1,1 --inputs auto --elements 128
// porta-requires: atomic-float32
// what: atomicAdd on float buffer words (GL_EXT_shader_atomic_float) of values in 1/8 steps onto zeroed words, so every order gives the same sum
#version 450
#extension GL_EXT_shader_atomic_float : require
layout(local_size_x = 128) in;

layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) buffer Acc { float total; float parts[4]; };

void main() {
  uint l = gl_LocalInvocationID.x;
  // One work-group: the zeroing is ordered before every add by the barrier. Multiples of 1/8 below 2 in
  // magnitude: sums of up to 128 of them are exact, in any order.
  if (l < 5u) {
    if (l == 4u) total = 0.0;
    else parts[l] = 0.0;
  }
  memoryBarrierBuffer();
  barrier();
  float v = floor(x[l] * 8.0) * 0.125;
  atomicAdd(parts[l & 3u], v);
  atomicAdd(total, v * 0.5);
}
