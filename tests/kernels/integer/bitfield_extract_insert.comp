// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: bitfieldExtract (signed: sign-extends; unsigned: zero-extends) and bitfieldInsert with offsets/bits from data
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { uint a[]; };
layout(binding = 1) writeonly buffer Out { ivec4 y[]; };
layout(binding = 2) writeonly buffer OutU { uvec4 z[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint word = a[i] * 0x2F3B7A1Du;
  int off = int(a[i] & 15u);
  int bits = int((a[i] >> 2) & 15u) + 1;  // offset + bits <= 31
  int sw = int(word);
  y[i] = ivec4(bitfieldExtract(sw, off, bits), bitfieldExtract(sw, 0, 32), bitfieldExtract(sw, off, 0),
               bitfieldInsert(sw, -1, off, bits));
  z[i] = uvec4(bitfieldExtract(word, off, bits), bitfieldInsert(word, 0u, off, bits),
               bitfieldInsert(0xFFFFFFFFu, word, 8, 8), bitfieldExtract(uvec2(word), 31, 1).x);
}
