// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// porta-requires: int64
// what: 64-bit &, |, ^, ~ and a popcount / leading-zero loop over all 64 bits
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { uint a[]; };
layout(binding = 1) writeonly buffer Out { u64vec2 y[]; };
layout(binding = 2) writeonly buffer Counts { uvec2 c[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint64_t u = (uint64_t(a[i]) * 0x0F0F0F0F0F0F0F0Ful) ^ (uint64_t(i) << 40);
  y[i] = u64vec2(~u & 0xFFFF0000FFFF0000ul, (u | 0x8000000000000001ul) ^ (u >> 7));
  uint pop = 0u, lead = 64u;
  for (uint k = 0u; k < 64u; ++k) {
    if (((u >> k) & 1ul) != 0ul) {
      pop++;
      lead = 63u - k;
    }
  }
  c[i] = uvec2(pop, lead);
}
