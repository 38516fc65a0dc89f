// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: usubBorrow (OpISubBorrow) chains a 128-bit subtraction; uvec3 form; borrow is 1 when x < y
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { uvec4 a[]; };
layout(binding = 1) readonly buffer B { uvec4 b[]; };
layout(binding = 2) writeonly buffer Diff { uvec4 d[]; };
layout(binding = 3) writeonly buffer Borrows { uvec4 w[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  uvec4 x = a[i] * 0x01000193u;
  uvec4 y = b[i] * 0x01000193u;
  uvec4 r;
  uint borrow = 0u, b0, b1;
  for (int k = 0; k < 4; ++k) {
    r[k] = usubBorrow(x[k], y[k], b0);
    r[k] = usubBorrow(r[k], borrow, b1);
    borrow = b0 | b1;
  }
  d[i] = r;
  uvec3 bv;
  uvec3 rv = usubBorrow(x.xyz, y.yzx, bv);
  w[i] = uvec4(bv, borrow + rv.x + rv.y + rv.z);
}
