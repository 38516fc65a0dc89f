// porta-conformance: --groups 4,1,1 --inputs auto --elements 256 --tolerance-ulp 0
// porta-requires: fp16 storage-16bit int16
// what: float16_t to and from float, int, uint, int16_t (rounding to nearest even, overflow to infinity, float->int truncation in range), and float16BitsToUint16 / uint16BitsToFloat16: bit-exact
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { float a[]; };
layout(binding = 1) writeonly buffer Halves { f16vec4 h[]; };
layout(binding = 2) writeonly buffer Ints { ivec4 n[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  // a[i] is k/256: scaled so that some values need rounding, some overflow.
  float wide = a[i] * 1234.5678 + float(i) * 0.000244140625;
  float16_t rounded = float16_t(wide);
  float16_t huge = float16_t(wide * 64.0);             // past 65504 for |wide| > 1023.5: infinity
  float16_t tiny = float16_t(wide * 0.00000011920929);  // subnormal halves
  float16_t from_int = float16_t(int(i) * 37 - 4000);
  h[i] = f16vec4(rounded, huge, tiny, from_int);
  uint16_t bits = float16BitsToUint16(rounded);
  float16_t back = uint16BitsToFloat16(bits ^ uint16_t(0x8000));
  n[i] = ivec4(int(rounded), int(bits), int(float(back) * 4.0), int(int16_t(float16_t(float(i) - 128.5))));
}
