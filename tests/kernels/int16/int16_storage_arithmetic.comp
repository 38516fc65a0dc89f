// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// porta-requires: int16 storage-16bit
// what: int16_t/uint16_t and i16vec2/u16vec4 in storage buffers (2-byte elements), 16-bit multiply and add wrap-around, division and remainder signs, min/max/clamp on 16-bit vectors, a 16-bit spec constant
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 64) in;
layout(constant_id = 0) const int16_t kBias = int16_t(-1234);

layout(std430, binding = 0) readonly buffer In { i16vec2 a[]; };
layout(std430, binding = 1) writeonly buffer Out { u16vec4 r[]; };
layout(std430, binding = 2) writeonly buffer Signed { int16_t s[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  i16vec2 v = a[i] - i16vec2(int16_t(32));
  int16_t p = v.x * int16_t(1021) + kBias;  // wraps
  int16_t q = (v.y == int16_t(0) ? int16_t(7) : v.y);
  u16vec4 u = u16vec4(uint16_t(p), uint16_t(p / q), uint16_t(p % q), uint16_t(60000) + uint16_t(i * 97u));
  r[i] = clamp(u, u16vec4(uint16_t(100)), u16vec4(uint16_t(65000))) ^ u16vec4(uint16_t(0x5a5a));
  s[i] = max(min(v.x * v.y, int16_t(300)), int16_t(-300)) + int16_t(i);
}
