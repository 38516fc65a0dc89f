// porta-conformance: --groups 1,1,1 --inputs auto --elements 32 --tolerance-ulp 64
// what: inverse of diagonally dominant mat2/mat3/mat4 (MatrixInverse); outputs offset by 1 to stay away from zero; 64 ulp for the divisions and elimination order
#version 450
layout(local_size_x = 32) in;

struct In { mat2 a; mat3 b; mat4 c; };
layout(std430, binding = 0) readonly buffer Src { In s[]; };
layout(std430, binding = 1) writeonly buffer Out { In y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  // Off-diagonal entries in [-0.5, 0.5], diagonal 4: well conditioned.
  In v = s[i];
  mat2 a = mat2(4.0) + mat2(v.a[0], v.a[1]) * 0.25;
  mat3 b = mat3(4.0) + mat3(v.b[0], v.b[1], v.b[2]) * 0.125;
  mat4 c = mat4(4.0) + mat4(v.c[0], v.c[1], v.c[2], v.c[3]) * 0.125;
  y[i].a = inverse(a) + mat2(vec2(1.0), vec2(1.0));
  y[i].b = inverse(b) + mat3(vec3(1.0), vec3(1.0), vec3(1.0));
  y[i].c = inverse(c) + mat4(vec4(1.0), vec4(1.0), vec4(1.0), vec4(1.0));
}
