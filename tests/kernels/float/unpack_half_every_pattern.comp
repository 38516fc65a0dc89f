// porta-conformance: --groups 512,1,1 --buffer zeros:262144
// what: unpackHalf2x16 of every half bit pattern but NaN: zeros, subnormals, normals and infinities of both signs, each exact in float
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) writeonly buffer Out { uint r[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  // Patterns 2i and 2i + 1, the low half first; NaN patterns (exponent 31,
  // mantissa not 0), whose payload GLSL leaves open, become infinities.
  uvec2 h = uvec2(2u * i, 2u * i + 1u);
  h = mix(h, h & 0xfc00u, greaterThan(h & 0x7c00u, uvec2(0x7bffu)));
  vec2 f = unpackHalf2x16(h.x | (h.y << 16));
  r[2u * i] = floatBitsToUint(f.x);
  r[2u * i + 1u] = floatBitsToUint(f.y);
}
