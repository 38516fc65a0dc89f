// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: atomicCompSwap claims empty shared set slots (every contender stores the same key), so the set and the count of successful swaps (distinct keys) are order-free
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer Keys { uint keys[]; };
layout(binding = 1) writeonly buffer Sets { uint sets[]; };  // 64 slots per work-group
layout(binding = 2) buffer Distinct { uint distinct[4]; };

shared uint slot[64];

void main() {
  uint l = gl_LocalInvocationID.x, i = gl_GlobalInvocationID.x;
  slot[l] = 0u;  // empty
  barrier();
  uint k = keys[i] & 63u;
  if (atomicCompSwap(slot[k], 0u, k + 1u) == 0u) atomicAdd(distinct[gl_WorkGroupID.x], 1u);
  barrier();
  sets[i] = slot[l];
}
