// porta-conformance: --groups 4,1,1 --inputs auto --elements 256 --tolerance-ulp 2
// what: packUnorm4x8, packSnorm4x8, packUnorm2x16, packSnorm2x16 and their unpacks (inputs steer clear of rounding ties)
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { vec4 x[]; };
layout(binding = 1) readonly buffer Bits { uint bits[]; };
layout(binding = 2) writeonly buffer Out { uvec4 packed[]; };
layout(binding = 3) writeonly buffer Out2 { vec4 unpacked[]; };
layout(binding = 4) writeonly buffer Out3 { vec4 unpacked2[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  // Code k plus a quarter step: far from the tie between k and k+1.
  vec4 u8 = (floor(abs(x[i]) * 100.0) + 0.25) / 255.0;
  vec4 s8 = (floor(x[i] * 50.0) + 0.25) / 127.0;
  vec2 u16 = (floor(abs(x[i].xy) * 30000.0) + 0.25) / 65535.0;
  vec2 s16 = (floor(x[i].zw * 16000.0) + 0.25) / 32767.0;
  packed[i] = uvec4(packUnorm4x8(u8), packSnorm4x8(s8), packUnorm2x16(u16), packSnorm2x16(s16));
  uint w = bits[i] * 0x01030507u;
  unpacked[i] = unpackUnorm4x8(w) + unpackSnorm4x8(w ^ 0x80808080u) + 2.0;
  unpacked2[i] = vec4(unpackUnorm2x16(w), unpackSnorm2x16(~w)) + 2.0;
}
