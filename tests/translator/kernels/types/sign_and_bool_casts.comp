// porta-conformance: --groups 1,1,1 --inputs auto --elements 16
// porta-requires: int64
// what: bvec3(ivec3) (an integer comparison with a zero of the other signedness) and sign() of a 64-bit integer
#version 450
#extension GL_ARB_gpu_shader_int64 : require
layout(local_size_x = 16) in;
layout(std430, binding = 0) readonly buffer In { ivec4 a[16]; };
layout(std430, binding = 1) writeonly buffer Out { int64_t s[16]; ivec4 o[16]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  ivec4 v = (a[i] & 3) - 1;
  bvec3 b = bvec3(v.xyz);
  bvec2 c = bvec2(uvec2(v.zw));
  int64_t w = int64_t(v.x) * 5000000000l - int64_t(v.y);
  s[i] = sign(w) * 7l;
  o[i] = ivec4(ivec3(b), int(c.x) + 2 * int(c.y));
}
