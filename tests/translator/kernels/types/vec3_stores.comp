// porta-conformance: --groups 1,1,1 --inputs auto --elements 8
// what: stores of whole 3-component vectors into std430 buffers (alone with stride 16, and two in a struct), which must leave the 4 bytes after each vector as they were
#version 450
layout(local_size_x = 8) in;
struct Pair { vec3 a; vec3 b; };
layout(std430, binding = 0) readonly buffer In { ivec4 x[8]; };
layout(std430, binding = 1) buffer U { uvec3 u[8]; };
layout(std430, binding = 2) buffer P { Pair pairs[8]; Pair whole[8]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  uvec3 w = uvec3(x[i].xyz) * 2u + 1u;
  u[i] = w / uvec3(3u) + (7u - w);
  vec3 f = vec3(x[i].yzw) * 0.5;
  pairs[i].a = f + 1.0;
  pairs[i].b = f.zxy * f;
  whole[i] = Pair(f - 2.0, vec3(w));
}
