// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: atomicExchange on each invocation's own slot: the returned old value and the stored new one are fixed
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) buffer Slots { uint slots[]; };
layout(binding = 1) writeonly buffer Old { uint old[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint prev = atomicExchange(slots[i], i * 3u + 1u);
  uint prev2 = atomicExchange(slots[i], prev + 100u);
  old[i] = prev * 1000u + prev2;
}
