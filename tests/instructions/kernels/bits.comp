#version 450
// porta-conformance: --groups 1,1,1 --buffer random:13:256 --buffer zeros:3072
// what: bitCount, findLSB, findMSB (signed and unsigned), bitfieldExtract/Insert and bitfieldReverse on scalars and vectors
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { int a[]; };
layout(std430, binding = 1) writeonly buffer Out { int r[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  int x = i == 0u ? 0 : i == 1u ? -1 : a[i];
  int y = a[(i + 1u) % 64u];
  uint u = uint(x);
  int offset = int(i % 17u), bits = int(i % 16u);
  r[12 * i + 0] = bitCount(x);
  r[12 * i + 1] = findLSB(x);
  r[12 * i + 2] = findMSB(x);
  r[12 * i + 3] = findMSB(u);
  r[12 * i + 4] = bitfieldExtract(x, offset, bits);
  r[12 * i + 5] = int(bitfieldExtract(u, offset, bits));
  r[12 * i + 6] = bitfieldInsert(x, y, offset, bits);
  r[12 * i + 7] = bitfieldReverse(x);
  ivec2 e = bitfieldExtract(ivec2(x, y), offset, bits);
  r[12 * i + 8] = e.x ^ e.y;
  uvec3 f = bitfieldInsert(uvec3(u, ~u, 5u), uvec3(y), offset, bits);
  r[12 * i + 9] = int(f.x + f.y * 3u + f.z);
  uvec2 g = bitfieldReverse(uvec2(u, uint(y)));
  r[12 * i + 10] = int(g.x ^ g.y);
  ivec2 c = bitCount(ivec2(x, y)) + findLSB(uvec2(u, 0u)) + findMSB(ivec2(x, y));
  r[12 * i + 11] = c.x * 100 + c.y;
}
