// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: umulExtended (OpUMulExtended): high and low words of 32x32-bit unsigned products, scalar and uvec2
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { uint a[]; };
layout(binding = 1) readonly buffer B { uint b[]; };
layout(binding = 2) writeonly buffer Out { uvec4 y[]; };
layout(binding = 3) writeonly buffer Out2 { uvec4 z[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint x = a[i] * 0x9E3779B9u + 0x80000000u;
  uint q = b[i] * 0x7FEB352Du + 1u;
  uint hi, lo;
  umulExtended(x, q, hi, lo);
  uvec2 hv, lv;
  umulExtended(uvec2(x, 0xFFFFFFFFu), uvec2(0xFFFFFFFFu, q), hv, lv);
  y[i] = uvec4(hi, lo, hv);
  z[i] = uvec4(lv, lo == x * q ? 1u : 0u, hi ^ lo);
}
