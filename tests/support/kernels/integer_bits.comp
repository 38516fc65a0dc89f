#version 450
// Unsigned and signed shifts, masks, wrapping multiplication, division and
// remainder of non-negative values, and the bit functions (findMSB/findLSB of
// zero and of negative values, signed bitfieldExtract, bitfieldInsert):
// eleven unsigned and two signed results per item, defined by GLSL on every
// target. (bitfieldReverse is in integer_division_and_bits.comp: oclgrind,
// which runs the API's tests, cannot run it.)
layout(local_size_x = 16) in;
layout(binding = 0) readonly buffer In { uint u[]; };
layout(binding = 1) writeonly buffer Out { uint r[]; };
layout(binding = 2) writeonly buffer OutI { int ri[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  uint x = u[i];
  int sx = int(x);
  r[11 * i + 0] = (x << 3) ^ (x >> 5);
  r[11 * i + 1] = x & 0xF0F0F0F0u | ~x & 0x0F0F0F0Fu;
  r[11 * i + 2] = uint(bitCount(x));
  r[11 * i + 3] = uint(findMSB(x | 1u));
  r[11 * i + 4] = x * 2654435761u + 12345u;
  r[11 * i + 5] = x / 7u + x % 7u;
  r[11 * i + 6] = bitfieldExtract(x, 4, 8);
  r[11 * i + 7] = uint(findLSB(x | 0x80000000u));
  r[11 * i + 8] = uint(findMSB(x)) ^ (uint(findLSB(x)) << 8) ^ (uint(findMSB(sx)) << 16);
  r[11 * i + 9] = bitfieldExtract(x, 4, 8) | (uint(bitfieldExtract(sx, 3, 5)) << 8) | bitfieldInsert(x, 5u, 28, 3);
  r[11 * i + 10] = uint(sx >> 2) + (x << 5) + x / 3u + (~x & 0xffu);
  int s = sx - 2000000000;
  // GLSL leaves % undefined for negative operands (drivers differ); / truncates.
  ri[2 * i + 0] = s / 13 + int(uint(abs(s)) % 13u);
  ri[2 * i + 1] = s >> 3;
}
