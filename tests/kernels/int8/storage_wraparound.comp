// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// porta-requires: int8 storage-8bit
// what: int8_t/uint8_t and i8vec4/u8vec4 in storage buffers (1-byte elements, byte-exact layout: a uint8_t after an i8vec4 at offset 4), 8-bit + - * wrap-around, arithmetic and logical shifts, sign and zero extension, int8 from int truncation
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_8bit_storage : require
layout(local_size_x = 64) in;

struct Bytes {
  i8vec4 v;   // offset 0
  uint8_t u;  // offset 4
  int8_t s;   // offset 5
};
layout(std430, binding = 0) readonly buffer In { uint8_t a[]; };
layout(std430, binding = 1) writeonly buffer Out { Bytes outs[]; };
layout(std430, binding = 2) writeonly buffer Wide { ivec4 w[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint8_t x = a[i] * uint8_t(5) + uint8_t(200);  // wraps past 255
  int8_t y = int8_t(x);                         // negative above 127
  i8vec4 v = i8vec4(y, y * int8_t(3), y - int8_t(100), -y);
  Bytes b;
  b.v = v + i8vec4(int8_t(i));
  b.u = uint8_t(x >> uint8_t(3)) | uint8_t(x << uint8_t(5));
  b.s = int8_t(y >> int8_t(2));
  outs[i] = b;
  w[i] = ivec4(int(y), int(x), int(b.v.w) * 1000, int(uint8_t(int(i) * 77 - 5000)));
}
