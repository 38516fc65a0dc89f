// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: a float maximum by an atomicCompSwap loop on the float's bits (the maximum does not depend on order)
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) buffer Result { uint max_bits; uint min_bits; };

void atomic_max_float(float v) {
  uint cur = atomicAdd(max_bits, 0u);
  while (true) {
    if (uintBitsToFloat(cur) >= v) return;
    uint seen = atomicCompSwap(max_bits, cur, floatBitsToUint(v));
    if (seen == cur) return;
    cur = seen;
  }
}

void atomic_min_float(float v) {
  uint cur = atomicAdd(min_bits, 0u);
  while (true) {
    if (uintBitsToFloat(cur) <= v) return;
    uint seen = atomicCompSwap(min_bits, cur, floatBitsToUint(v));
    if (seen == cur) return;
    cur = seen;
  }
}

void main() {
  uint i = gl_GlobalInvocationID.x;
  // The result words start as small integers (tiny positive floats): both still converge.
  atomic_max_float(x[i]);
  atomic_min_float(x[i]);
}
