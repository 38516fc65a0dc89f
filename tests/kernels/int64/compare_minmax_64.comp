// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// porta-requires: int64
// what: 64-bit comparisons (signed vs unsigned of the same bits), min, max, clamp, abs, sign on values beyond 32 bits
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { uint a[]; };
layout(binding = 1) readonly buffer B { uint b[]; };
layout(binding = 2) writeonly buffer Out { i64vec4 y[]; };
layout(binding = 3) writeonly buffer Flags { uint f[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  int64_t x = (int64_t(a[i]) - 32l) << 35, q = (int64_t(b[i]) - 32l) << 34;
  y[i] = i64vec4(min(x, q), max(x, q), clamp(x, -0x100000000l, 0x300000000l), abs(x) * sign(q));
  uint64_t ux = uint64_t(x), uq = uint64_t(q);
  f[i] = uint(x < q) | uint(ux < uq) << 1 | uint(x == q) << 2 | uint(min(ux, uq) == uint64_t(min(x, q))) << 3;
}
