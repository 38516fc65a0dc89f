// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: a 64x64 -> 128-bit unsigned multiply built from umulExtended partial products and uaddCarry
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { uvec2 a[]; };
layout(binding = 1) readonly buffer B { uvec2 b[]; };
layout(binding = 2) writeonly buffer Out { uvec4 y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  uvec2 x = a[i] * uvec2(0xDEADBEEFu, 0xCAFEF00Du);  // (lo, hi) words
  uvec2 q = b[i] * uvec2(0x8BADF00Du, 0xFEEDFACEu);
  uint h00, l00, h01, l01, h10, l10, h11, l11;
  umulExtended(x.x, q.x, h00, l00);
  umulExtended(x.x, q.y, h01, l01);
  umulExtended(x.y, q.x, h10, l10);
  umulExtended(x.y, q.y, h11, l11);
  uint c1, c2, c3, c4, c5, c6;
  uint w1 = uaddCarry(h00, l01, c1);
  w1 = uaddCarry(w1, l10, c2);
  uint w2 = uaddCarry(h01, h10, c3);
  w2 = uaddCarry(w2, l11, c4);
  w2 = uaddCarry(w2, c1 + c2, c5);
  uint w3 = h11 + c3 + c4 + c5;
  y[i] = uvec4(l00, w1, w2, w3);
}
