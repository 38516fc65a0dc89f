// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: bitCount, bitfieldReverse, findLSB, findMSB (signed: highest bit unlike the sign; -1 for 0 and -1)
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { uint a[]; };
layout(binding = 1) writeonly buffer Out { ivec4 y[]; };
layout(binding = 2) writeonly buffer Out2 { ivec4 w[]; };
layout(binding = 3) writeonly buffer OutU { uvec4 z[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint u = a[i] == 0u ? 0u : a[i] * 0x0F1E2D3Cu;
  int s = int(u) - int(i);
  y[i] = ivec4(bitCount(u), bitCount(s), findLSB(u), findLSB(s));
  w[i] = ivec4(findMSB(u), findMSB(s), findMSB(0), findMSB(-1 - int(a[i])));
  z[i] = uvec4(bitfieldReverse(u), uint(bitfieldReverse(s)), uvec2(bitCount(uvec2(u, ~u))));
}
