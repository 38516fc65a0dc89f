// porta-conformance: --groups 1,1,1 --inputs auto --elements 256 --tolerance-ulp 2
// porta-requires: fp16 storage-16bit
// what: fma on float16_t (rounded once), floor/ceil/fract/round, exp2/log2/sin on half, isnan/isinf from 1/0 and 0/0 (Vulkan: exp2/log2 within 2 ulp of half, sin within 2^-7 absolute: 2 ulp)
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { f16vec4 a[]; };
layout(binding = 1) writeonly buffer Out { f16vec4 r[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  f16vec4 v = a[i];
  float16_t f = fma(v.x, v.y, v.z);
  float16_t g = fma(v.x * float16_t(17.0), v.y, float16_t(-0.0009765625));
  r[3u * i] = f16vec4(f, g, floor(v.w * float16_t(3.3)), ceil(v.w * float16_t(3.3)));
  r[3u * i + 1u] = f16vec4(fract(v.z * float16_t(5.0)), round(v.y * float16_t(10.0)), exp2(v.x), log2(abs(v.y) + float16_t(1.0)));
  float16_t zero = v.x - v.x;
  float16_t inf = float16_t(1.0) / zero;
  r[3u * i + 2u] = f16vec4(sin(v.z), isinf(inf) ? float16_t(1.0) : float16_t(0.0), isnan(zero / zero) ? float16_t(1.0) : float16_t(0.0), -inf);
}
