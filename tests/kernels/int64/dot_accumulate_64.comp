// porta-conformance: --groups 1,1,1 --inputs auto --elements 64
// porta-requires: int64
// what: a 64-bit accumulation of 32x32-bit products that overflow 32 bits (a row of a big integer matrix product)
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { uint a[]; };
layout(binding = 1) readonly buffer B { uint b[]; };
layout(binding = 2) writeonly buffer Out { int64_t y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  int64_t acc = 0l;
  for (uint k = 0u; k < 64u; ++k) {
    int x = int(a[(i + k) & 63u] * 0x01F3u) - 0x4000;
    int q = int(b[k] * 0x7F0Bu) - 0x100000;
    acc += int64_t(x) * int64_t(q);
  }
  y[i] = acc;
}
