#version 450
// porta-conformance: --groups 1,1,1 --buffer pattern:4f800000:64 --buffer zeros:256
// what: float and float16_t to int16_t, uint16_t, int8_t, uint8_t: in range it truncates; out of range porta saturates to the narrow type's range and NaN gives 0 on its translated targets (SPIR-V leaves it undefined)
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
layout(local_size_x = 16) in;
layout(std430, binding = 0) readonly buffer In { float x[]; };
layout(std430, binding = 1) writeonly buffer Out { int r[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  float v = x[i];
  float16_t h = float16_t(v);  // past 65504: infinity
  r[4 * i + 0] = int(int16_t(v)) + 65536 * int(int16_t(h));
  r[4 * i + 1] = int(uint16_t(v)) + 65536 * int(uint16_t(h));
  r[4 * i + 2] = int(int8_t(v)) + 256 * int(int8_t(h));
  r[4 * i + 3] = int(uint8_t(v)) + 256 * int(uint8_t(h));
}
