// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// porta-requires: int64
// what: 64-bit << and >> (arithmetic for int64_t, logical for uint64_t) with amounts 0..63, and 32-bit halves
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { uint a[]; };
layout(binding = 1) writeonly buffer Out { i64vec2 y[]; };
layout(binding = 2) writeonly buffer OutU { u64vec2 z[]; };
layout(binding = 3) writeonly buffer Halves { uvec2 h[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint k = (a[i] * 7u) & 63u;
  int64_t s = (int64_t(a[i]) - 32l) * 0x0123456789ABCDEl;
  uint64_t u = uint64_t(s);
  y[i] = i64vec2(s >> k, s << k);
  z[i] = u64vec2(u >> k, (u << (63u - k)) | (u >> 1));
  h[i] = uvec2(uint(u >> 32), uint(u));
}
