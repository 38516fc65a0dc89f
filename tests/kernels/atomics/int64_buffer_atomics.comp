// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// porta-requires: int64 atomic-int64
// what: 64-bit atomicAdd, atomicMin, atomicMax, atomicOr on uint64_t/int64_t buffer words, values above 2^32
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_atomic_int64 : require
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { uint x[]; };
layout(binding = 1) buffer Acc { uint64_t sum; int64_t smin; int64_t smax; uint64_t bits; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint64_t v = uint64_t(x[i]) << 33;
  atomicAdd(sum, v + 1ul);
  int64_t s = (int64_t(x[i]) - 32l) * 0x100000001l;
  atomicMin(smin, s);
  atomicMax(smax, s);
  atomicOr(bits, 1ul << (x[i] & 63u));
}
