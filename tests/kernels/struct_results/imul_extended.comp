// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: imulExtended (OpSMulExtended): signed 64-bit products of negative and positive 32-bit ints, scalar and ivec3
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { int a[]; };
layout(binding = 1) readonly buffer B { int b[]; };
layout(binding = 2) writeonly buffer Out { ivec4 y[]; };
layout(binding = 3) writeonly buffer Out2 { ivec4 z[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  int x = (a[i] - 32) * 0x0DEADBEF;
  int q = (b[i] - 31) * 0x01234567;
  int hi, lo;
  imulExtended(x, q, hi, lo);
  ivec3 hv, lv;
  imulExtended(ivec3(x, -x, 0x7FFFFFFF), ivec3(q, q, -0x7FFFFFFF - 1), hv, lv);
  y[i] = ivec4(hi, lo, hv.xy);
  z[i] = ivec4(hv.z, lv);
}
