// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: atomicCompSwap on the invocation's own slot: a matching compare swaps, a mismatching one does not; both return the old value
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) buffer Slots { int slots[]; };
layout(binding = 1) writeonly buffer Out { ivec2 returned[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  int cur = slots[i];
  int r1 = atomicCompSwap(slots[i], cur + 1, -5);      // no match: unchanged
  int r2 = atomicCompSwap(slots[i], cur, cur * 2 - 7);  // match: swapped
  returned[i] = ivec2(r1, r2);
}
