// porta-conformance: --groups 1,1,1 --inputs auto --elements 256
// porta-requires: int16 storage-16bit
// what: bfloat16 as uint16_t storage with the conversions of translator/runtime/porta_bfloat16.glsl: float -> bf16 round to nearest even (exact ties, both directions), overflow to infinity, NaN kept, bf16 -> float exact; bf16 arithmetic in float rounded on store; two per uint: bit-exact
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 64) in;

uint porta_bf16_from_float(float x) {
  uint u = floatBitsToUint(x);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (u >> 16) | 0x40u;
  return (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;
}

// A bfloat16 (the low 16 bits of `b`) as float: exact.
float porta_bf16_to_float(uint b) { return uintBitsToFloat(b << 16); }

// Two bfloat16 in one uint (x in the low half), as packHalf2x16 does for half.
uint porta_pack_bf16x2(vec2 v) { return porta_bf16_from_float(v.x) | (porta_bf16_from_float(v.y) << 16); }
vec2 porta_unpack_bf16x2(uint p) { return vec2(porta_bf16_to_float(p & 0xffffu), porta_bf16_to_float(p >> 16)); }

layout(binding = 0) readonly buffer In { float a[]; };
layout(binding = 1) writeonly buffer Bf16 { uint16_t h[]; };
layout(binding = 2) writeonly buffer Out { vec4 f[]; };
layout(binding = 3) writeonly buffer Packed { uint p[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  // Exact ties (the dropped half is 0x8000) above odd and even bf16 values,
  // a value just past a tie, the largest finite float (rounds to infinity),
  // and a NaN.
  float tie = uintBitsToFloat(0x3f808000u + (i << 16));
  float past = uintBitsToFloat(0x40208001u + (i << 17));
  float special = i % 3u == 0u ? uintBitsToFloat(0x7f7fffffu) : i % 3u == 1u ? uintBitsToFloat(0x7fc00001u) : -tie;
  uint x = porta_bf16_from_float(a[i] * 3.14159274);
  uint y = porta_bf16_from_float(a[(i + 1u) & 63u] - 0.3);
  // bf16 arithmetic: widen, compute in float, round once.
  uint z = porta_bf16_from_float(porta_bf16_to_float(x) * porta_bf16_to_float(y) + 1.0);
  h[4u * i] = uint16_t(x);
  h[4u * i + 1u] = uint16_t(porta_bf16_from_float(tie));
  h[4u * i + 2u] = uint16_t(porta_bf16_from_float(past));
  h[4u * i + 3u] = uint16_t(porta_bf16_from_float(special));
  f[i] = vec4(porta_bf16_to_float(x), porta_bf16_to_float(y), porta_bf16_to_float(z),
              float(z >> 8));
  p[i] = porta_pack_bf16x2(porta_unpack_bf16x2(porta_pack_bf16x2(vec2(a[i], -a[i] * 0.7))) * 2.0);
}
