#version 450
// Integer division and remainder, signed and unsigned, by zero and
// INT_MIN / -1 among them (porta defines both: 0 and a wrap), and the bit
// functions, thirteen results per item.
layout(local_size_x = 8) in;
layout(binding = 0) readonly buffer A { int a[]; };
layout(binding = 1) readonly buffer B { int b[]; };
layout(binding = 2) writeonly buffer O { int o[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  int x = a[i], y = b[i];
  uint ux = uint(x), uy = uint(y);
  ivec2 v = ivec2(x, y + 1) / ivec2(y, 0);
  o[i * 13u + 0u] = x / y;
  o[i * 13u + 1u] = x % y;
  o[i * 13u + 2u] = int(ux / uy);
  o[i * 13u + 3u] = int(ux % uy);
  o[i * 13u + 4u] = v.x + v.y;
  o[i * 13u + 5u] = findMSB(x);
  o[i * 13u + 6u] = findLSB(x | 0x40000000);
  o[i * 13u + 7u] = bitCount(ux);
  o[i * 13u + 8u] = findMSB(ux);
  o[i * 13u + 9u] = bitfieldExtract(x, 4, 8);
  o[i * 13u + 10u] = int(bitfieldExtract(ux, 28, 4));
  o[i * 13u + 11u] = abs(x);
  o[i * 13u + 12u] = int(bitfieldReverse(ux));
}
