// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: unsigned / and % (OpUDiv, OpUMod) on values with the top bit set, where signed division would differ
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { uint a[]; };
layout(binding = 1) readonly buffer B { uint b[]; };
layout(binding = 2) writeonly buffer Out { uvec4 y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint x = 0xFFFFFFFFu - a[i] * 0x01010101u;  // large, top bit set
  uint d = b[i] + 1u;
  y[i] = uvec4(x / d, x % d, (x >> 1) / (d * 3u), uvec2(x, a[i]) % uvec2(d + 5u));
}
