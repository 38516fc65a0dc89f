#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
// porta-conformance: --groups 1,1,1 --buffer random:45:256 --buffer zeros:512
// porta-requires: int16 int8
// what: 16- and 8-bit integer arithmetic in registers, with conversions (GLSL's int16_t(x), uint8_t(x)) that wrap, as C casts on OpenCL
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { int a[]; };
layout(std430, binding = 1) writeonly buffer Out { int r[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  int x = a[i];
  int16_t s = int16_t(x);
  uint16_t us = uint16_t(x >> 3);
  int8_t b = int8_t(x >> 5);
  uint8_t ub = uint8_t(x >> 7);
  int16_t t = s * int16_t(3) + int16_t(b);
  r[2u * i] = int(t) + int(us) * 2;
  r[2u * i + 1u] = int(ub) - int(b) + int(int16_t(-7)) + int(uint8_t(300));
}
