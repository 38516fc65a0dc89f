// porta-conformance: --groups 2,1,1 --inputs auto --elements 128
// what: writing bool and bvec members into a buffer stores 1 for true and 0 for false in each 32-bit word
#version 450
layout(local_size_x = 64) in;

struct Flags { bool positive; bvec2 big; bvec3 order; bool last; };
layout(std430, binding = 0) readonly buffer In { vec4 x[]; };
layout(std430, binding = 1) writeonly buffer Out { Flags f[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  vec4 v = x[i];
  f[i].positive = v.x > 0.0;
  f[i].big = greaterThan(abs(v.yz), vec2(1.0));
  f[i].order = lessThan(v.xyz, v.yzw);
  f[i].last = (i & 1u) == 0u;
}
