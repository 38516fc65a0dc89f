// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// porta-requires: int64 atomic-int64
// what: 64-bit atomicCompSwap and atomicExchange on each invocation's own uint64_t slot
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_atomic_int64 : require
layout(local_size_x = 64) in;

layout(binding = 0) buffer Slots { uint64_t slot[]; };
layout(binding = 1) writeonly buffer Out { uint64_t old[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint64_t cur = slot[i];
  uint64_t a = atomicCompSwap(slot[i], cur, cur + 0x123456789ul);
  uint64_t b = atomicExchange(slot[i], a ^ 0xFFFF0000FFFF0000ul);
  old[i] = a + (b << 1);
}
