// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: an integer dot product of 8-bit values packed in words, unpacked with shifts and sign extension
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { uint a[]; };
layout(binding = 1) readonly buffer B { uint b[]; };
layout(binding = 2) writeonly buffer Out { int y[]; };

int sbyte(uint w, uint k) { return int(w << (24u - 8u * k)) >> 24; }

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint wa = a[i] * 0x04C11DB7u, wb = b[i] * 0x1EDC6F41u;
  int acc = 0;
  for (uint k = 0u; k < 4u; ++k) acc += sbyte(wa, k) * sbyte(wb, k);
  y[i] = acc;
}
