// porta-conformance: --groups 1,1,1 --inputs auto --elements 64
// what: std430 struct {ivec3; uint; uvec3; int} (each 3-vector followed by a scalar in its fourth word)
#version 450
layout(local_size_x = 64) in;

struct T { ivec3 a; uint b; uvec3 c; int d; };
layout(std430, binding = 0) readonly buffer In { T t[]; };
layout(std430, binding = 1) writeonly buffer Out { T o[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  T v = t[i];
  o[i] = T(v.a - ivec3(v.c), v.b + uint(v.d), uvec3(v.a) + v.b, v.a.x * v.d);
}
