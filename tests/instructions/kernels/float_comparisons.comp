#version 450
#extension GL_EXT_spirv_intrinsics : require
// porta-conformance: --groups 1,1,1 --buffer random:36:512 --buffer zeros:256
// what: the twelve float comparisons, ordered and unordered, on pairs with NaNs; each result a bit of r[i] (bit 0 OpFOrdEqual ... bit 11 OpFUnordGreaterThanEqual; 12 and 13 OpFUnordEqual and OpFOrdNotEqual on vectors)
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { uint a[]; };
layout(std430, binding = 1) writeonly buffer Out { uint r[]; };
spirv_instruction(id = 180) bool ford_eq(float a, float b);
spirv_instruction(id = 181) bool funord_eq(float a, float b);
spirv_instruction(id = 182) bool ford_ne(float a, float b);
spirv_instruction(id = 183) bool funord_ne(float a, float b);
spirv_instruction(id = 184) bool ford_lt(float a, float b);
spirv_instruction(id = 185) bool funord_lt(float a, float b);
spirv_instruction(id = 186) bool ford_gt(float a, float b);
spirv_instruction(id = 187) bool funord_gt(float a, float b);
spirv_instruction(id = 188) bool ford_le(float a, float b);
spirv_instruction(id = 189) bool funord_le(float a, float b);
spirv_instruction(id = 190) bool ford_ge(float a, float b);
spirv_instruction(id = 191) bool funord_ge(float a, float b);
spirv_instruction(id = 181) bvec2 funord_eq2(vec2 a, vec2 b);
spirv_instruction(id = 182) bvec2 ford_ne2(vec2 a, vec2 b);
// A quarter NaN, a quarter equal to the other side, the rest small integers.
float operand(uint bits, uint other) {
  if (bits % 4u == 0u) return uintBitsToFloat(0x7fc00000u);
  if (bits % 4u == 1u) return float(other % 5u);
  return float(bits % 5u);
}
void main() {
  const uint i = gl_GlobalInvocationID.x;
  const float x = operand(a[2u * i], a[2u * i + 1u]), y = operand(a[2u * i + 1u], a[2u * i]);
  uint m = 0u;
  m |= uint(ford_eq(x, y)) << 0u;
  m |= uint(funord_eq(x, y)) << 1u;
  m |= uint(ford_ne(x, y)) << 2u;
  m |= uint(funord_ne(x, y)) << 3u;
  m |= uint(ford_lt(x, y)) << 4u;
  m |= uint(funord_lt(x, y)) << 5u;
  m |= uint(ford_gt(x, y)) << 6u;
  m |= uint(funord_gt(x, y)) << 7u;
  m |= uint(ford_le(x, y)) << 8u;
  m |= uint(funord_le(x, y)) << 9u;
  m |= uint(ford_ge(x, y)) << 10u;
  m |= uint(funord_ge(x, y)) << 11u;
  // The two whose C operators differ, on vectors: component 0 compares x with y.
  m |= uint(funord_eq2(vec2(x, y), vec2(y, x)).x) << 12u;
  m |= uint(ford_ne2(vec2(x, y), vec2(y, x)).x) << 13u;
  r[i] = m;
}
