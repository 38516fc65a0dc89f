// porta-conformance: --groups 1,1,1 --inputs auto --elements 64
// what: matrix constructors: from a scalar (diagonal), from larger and smaller matrices, from mixed vectors and scalars
#version 450
layout(local_size_x = 64) in;

layout(std430, binding = 0) readonly buffer In { vec4 x[]; };
layout(std430, binding = 1) writeonly buffer Out { mat4 y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  vec4 v = x[i];
  mat4 big = mat4(v, v.yzwx, v.zwxy, v.wxyz);
  mat3 cut = mat3(big);
  mat2 small = mat2(v.x, v.y, v.z, v.w);
  mat4 grown = mat4(small);
  mat4 back = mat4(cut);
  mat4 diag = mat4(v.x);
  mat2x3 mixed = mat2x3(v.xy, v.z, v.w, 1.0, v.x);
  y[i] = grown + back + diag + mat4(mat3(mixed[0], mixed[1], vec3(0.5)));
}
