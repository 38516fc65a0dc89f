// porta-conformance: --groups 1,1,1 --inputs auto --elements 16
// what: swizzles of local vectors as the operands of conversions and integer division (in C++ a swizzle is a proxy that must take the vector overloads)
#version 450
layout(local_size_x = 16) in;
layout(std430, binding = 0) readonly buffer In { vec4 v[16]; };
layout(std430, binding = 1) writeonly buffer Out { ivec4 o[16]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  vec3 a = v[i].xyz * 4.0;
  vec3 b = v[(i + 1u) % 16u].zyx * 4.0;
  bvec2 e = equal(ivec2(a.xy), ivec2(b.xy));
  ivec3 q = ivec3(a) + ivec3(int(i) + 1, 7, -3);
  ivec2 d = q.xy / q.yz;
  ivec2 s = q.xz / q.xz;
  uvec2 u = uvec2(b.yz + 12.0);
  o[i] = ivec4(int(e.x) + 2 * int(e.y), d.x + d.y * 1000, s.x * 10 + s.y, int(u.x * 100u + u.y));
}
