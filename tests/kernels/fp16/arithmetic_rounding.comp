// porta-conformance: --groups 4,1,1 --inputs auto --elements 256 --tolerance-ulp 0
// porta-requires: fp16 storage-16bit
// what: float16_t + - * / sqrt, negation and comparisons, each correctly rounded to half (products of k/256 inputs need up to 16 bits, so every result rounds): bit-exact
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { float16_t a[]; };
layout(binding = 1) readonly buffer In2 { float16_t c[]; };
layout(binding = 2) writeonly buffer Out { f16vec4 r[]; };
layout(binding = 3) writeonly buffer Out2 { f16vec4 s[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  float16_t x = a[i], y = c[i] + float16_t(0.125);
  precise float16_t sum = x + y;
  precise float16_t difference = x - y * float16_t(3.0);
  precise float16_t product = x * y;
  precise float16_t quotient = x / (abs(y) + float16_t(0.0625));
  r[i] = f16vec4(sum, difference, product, quotient);
  float16_t root = sqrt(abs(x) * float16_t(7.0));
  float16_t bigger = x > y ? x : y;
  float16_t both = (x <= y && x != float16_t(0.0)) ? -x : x;
  s[i] = f16vec4(root, bigger, both, float16_t(1.0) / float16_t(3.0));
}
