// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// porta-requires: int16 int8
// what: narrowing and widening casts through int16_t, uint16_t, int8_t, uint8_t (truncation, sign and zero extension) and 16-bit arithmetic wrap-around
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { int a[]; };
layout(binding = 1) writeonly buffer Out { ivec4 y[]; };
layout(binding = 2) writeonly buffer Out2 { ivec4 z[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  int w = (a[i] - 32) * 0x01234567;
  int16_t s16 = int16_t(w);
  uint16_t u16 = uint16_t(w);
  int8_t s8 = int8_t(w);
  uint8_t u8 = uint8_t(w);
  int16_t sum16 = s16 + int16_t(30000);  // wraps in 16 bits
  uint16_t prod16 = u16 * uint16_t(3);
  y[i] = ivec4(int(s16), int(u16), int(s8), int(u8));
  z[i] = ivec4(int(sum16), int(prod16), int(int8_t(s16 >> int16_t(3))), int(uint16_t(s8)));
}
