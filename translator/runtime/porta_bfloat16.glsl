// bfloat16 in GLSL: storage as 16-bit words, arithmetic in float.
//
// glslang 12 (Debian 12) has no bfloat16 type, and few devices have one
// (SPV_KHR_bfloat16, which porta's translated targets refuse by name). A
// bfloat16 is the top half of a float: converting it to float is exact (a
// shift), converting a float to it rounds to nearest even. Kernels keep
// bfloat16 data in uint16_t arrays (GL_EXT_shader_16bit_storage) or two to a
// uint, compute in float and round when they store. Paste these functions
// into a kernel (porta's GLSL front end resolves no #include); they need
// nothing beyond GLSL 4.50, and run the same on every backend.

// The bfloat16 nearest to `x`, ties to even, in the low 16 bits; infinities
// stay infinities, a NaN stays a (quiet) NaN, overflow rounds to infinity.
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
