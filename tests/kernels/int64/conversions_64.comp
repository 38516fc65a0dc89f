// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// porta-requires: int64
// what: int32 <-> int64 (sign extension, truncation), uint64 <-> uvec2 (packUint2x32, unpackUint2x32), int64 -> float rounding
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { int a[]; };
layout(binding = 1) writeonly buffer Out { i64vec2 y[]; };
layout(binding = 2) writeonly buffer OutI { ivec4 z[]; };
layout(binding = 3) writeonly buffer OutF { vec2 f[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  int s = (a[i] - 32) * 0x01000193;
  int64_t wide = int64_t(s);                 // sign extended
  uint64_t zext = uint64_t(uint(s));         // zero extended
  uint64_t packed = packUint2x32(uvec2(uint(s), uint(a[i])));
  y[i] = i64vec2(wide, int64_t(zext) + int64_t(packed));
  uvec2 parts = unpackUint2x32(packed * 3ul);
  z[i] = ivec4(int(wide * 0x100000003l), int(zext >> 16), ivec2(parts));
  f[i] = vec2(float(wide * 0x10000001l), float(zext << 20));
}
