// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// porta-requires: int64
// what: 64-bit / and % for int64_t (truncating division, % with the divisor's sign) and uint64_t, divisors never zero
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { uint a[]; };
layout(binding = 1) readonly buffer B { uint b[]; };
layout(binding = 2) writeonly buffer Out { i64vec2 y[]; };
layout(binding = 3) writeonly buffer OutU { u64vec2 z[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  int64_t x = (int64_t(a[i]) - 32l) * 0x00F0F0F0F0F0Fl;
  int64_t d = ((int64_t(b[i]) - 32l) * 0x10001l) | 1l;
  y[i] = i64vec2(x / d, x % d);
  uint64_t ux = 0xFFFFFFFFFFFFFFFFul - uint64_t(a[i]) * 0x0101010101010101ul;
  uint64_t ud = uint64_t(b[i]) * 0x100000001ul + 3ul;
  z[i] = u64vec2(ux / ud, ux % ud);
}
