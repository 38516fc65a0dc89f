// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: packHalf2x16/unpackHalf2x16 on values exactly representable in half, and half bit patterns from integers
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { vec2 x[]; };
layout(binding = 1) readonly buffer Bits { uint bits[]; };
layout(binding = 2) writeonly buffer Out { uint packed[]; };
layout(binding = 3) writeonly buffer Out2 { vec4 unpacked[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  vec2 v = floor(x[i] * 64.0) * (1.0 / 64.0);  // 1/64 steps in [-2, 2]: exact in half
  packed[i] = packHalf2x16(v);
  // Normal half patterns: exponent 1..30, any mantissa and sign.
  uint h = ((bits[i] % 30u + 1u) << 10) | (bits[i] * 37u & 0x3FFu) | ((i & 1u) << 15);
  unpacked[i] = vec4(unpackHalf2x16(h | (h << 16)), unpackHalf2x16(packHalf2x16(v.yx)));
}
