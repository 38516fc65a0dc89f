#version 450
// porta-conformance: --groups 1,1,1 --buffer random:33:256 --buffer zeros:2048
// what: uaddCarry, usubBorrow, umulExtended, imulExtended (OpIAddCarry, OpISubBorrow, OpUMulExtended, OpSMulExtended struct results), scalar and vector, and modf/frexp struct results
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { uint a[]; };
layout(std430, binding = 1) writeonly buffer Out { uint r[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  uint x = a[i], y = a[(i + 5u) % 64u];
  uint o = 8u * i;
  uint carry, borrow, hi, lo;
  r[o + 0] = uaddCarry(x, y, carry) ^ (carry << 31);
  r[o + 1] = usubBorrow(x, y, borrow) ^ (borrow << 30);
  umulExtended(x, y, hi, lo);
  r[o + 2] = hi;
  r[o + 3] = lo;
  int shi, slo;
  imulExtended(int(x), int(y), shi, slo);
  r[o + 4] = uint(shi);
  r[o + 5] = uint(slo);
  uvec2 c2, s2 = uaddCarry(uvec2(x, y), uvec2(y, x * 3u), c2);
  r[o + 6] = s2.x + s2.y * 7u + c2.x * 11u + c2.y * 13u;
  ivec2 h2, l2;
  imulExtended(ivec2(x, y), ivec2(-3, int(x)), h2, l2);
  r[o + 7] = uint(h2.x ^ h2.y ^ l2.x ^ l2.y);
}
