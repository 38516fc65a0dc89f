// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: atomicAnd, atomicOr, atomicXor on uint and int words (commutative, so the final value is order-free)
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { uint x[]; };
layout(binding = 1) buffer Masks { uint all_and; uint any_or; uint parity; int signed_or; uint seen[8]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint v = x[i];
  atomicAnd(all_and, ~(1u << (v & 31u)));
  atomicOr(any_or, 1u << (v & 31u));
  atomicXor(parity, v * 0x01010101u);
  atomicOr(signed_or, -int(v & 3u) << 8);
  atomicOr(seen[i & 7u], 1u << (v >> 1));
}
