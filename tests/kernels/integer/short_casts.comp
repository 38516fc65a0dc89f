// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: narrowing through bit operations: 16-bit and 8-bit sign extension and truncation written with masks and shifts
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { uint a[]; };
layout(binding = 1) writeonly buffer Out { ivec4 y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint w = a[i] * 0x00C0FFEEu + 0x7F80u;
  int s16 = (int(w) << 16) >> 16;
  int s8 = (int(w) << 24) >> 24;
  int u16 = int(w & 0xFFFFu);
  int hi = int(w) >> 16;
  y[i] = ivec4(s16, s8, u16, (hi << 16) + s16 == int(w) ? 1 : 0);
}
