// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// porta-requires: int64
// what: 64-bit add, sub, mul and negation on int64_t/uint64_t wrap modulo 2^64; products above 2^32
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { uint a[]; };
layout(binding = 1) writeonly buffer Out { int64_t y[]; };
layout(binding = 2) writeonly buffer OutU { uint64_t z[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  int64_t x = int64_t(a[i]) - 32l;
  int64_t big = x * 0x123456789ABCl;
  y[i] = big * big + (0x7FFFFFFFFFFFFFF0l + int64_t(a[i])) - x;
  uint64_t u = uint64_t(a[i]) * 0x9E3779B97F4A7C15ul;
  z[i] = u * u + (0ul - uint64_t(a[i]));
}
