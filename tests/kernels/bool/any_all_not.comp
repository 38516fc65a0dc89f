// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: any, all and not on bvec2/3/4 built from comparisons (equal, notEqual, lessThanEqual, greaterThanEqual)
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { ivec4 a[]; };
layout(binding = 1) readonly buffer B { ivec4 b[]; };
layout(binding = 2) writeonly buffer Out { uint y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  ivec4 p = a[i] & 7, q = b[i] & 7;
  bvec4 eq = equal(p, q);
  bvec4 ne = notEqual(p, q);
  bvec3 le = lessThanEqual(p.xyz, q.xyz);
  bvec2 ge = greaterThanEqual(uvec2(p.xy), uvec2(q.zw));
  uint r = uint(any(eq)) | uint(all(ne)) << 1 | uint(any(not(le))) << 2 | uint(all(ge)) << 3;
  r |= uint(eq == not(ne)) << 4 | uint(all(equal(le, bvec3(true)))) << 5;
  y[i] = r;
}
