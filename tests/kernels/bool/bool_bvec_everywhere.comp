// porta-conformance: --groups 2,1,1 --inputs auto --elements 16
// what: bool and bvec in locals, shared memory, struct members, function results, any/all/not, bvec select (mix), and a bool member of a buffer block
#version 450
layout(local_size_x = 8) in;
struct Flags { bool big; bvec2 signs; };
layout(std430, binding = 0) buffer In { vec4 v[]; };
layout(std430, binding = 1) buffer Out { uint flags; uint o[]; };
shared bool positive[8];
bool in_range(float x) { return x > -1.0 && x < 1.0; }
void main() {
  uint i = gl_GlobalInvocationID.x, l = gl_LocalInvocationID.x;
  vec4 x = v[i];
  bvec4 gt = greaterThan(x, vec4(0.0));
  positive[l] = gt.x;
  barrier();
  Flags f;
  f.big = any(greaterThan(abs(x), vec4(2.0)));
  f.signs = not(gt.yz);
  bvec4 picked = equal(gt, bvec4(true, false, true, false));
  vec4 m = mix(vec4(-1.0), x, lessThanEqual(x, vec4(0.5)));
  uint bits = uint(all(gt)) | uint(any(gt)) << 1 | uint(f.big) << 2 | uint(f.signs.x) << 3 |
              uint(f.signs.y) << 4 | uint(in_range(x.w)) << 5 | uint(positive[(l + 1u) % 8u]) << 6 |
              uint(all(picked)) << 7 | uint(any(not(picked))) << 8 | uint(m.x == -1.0) << 9 | uint(m.z == x.z) << 10 |
              uint(gt.x == gt.y) << 11 | uint(gt.y != f.signs.x) << 12;
  o[i] = bits;
  if (i == 0u) flags = uint(true);
}
