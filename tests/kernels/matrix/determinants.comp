// porta-conformance: --groups 1,1,1 --inputs auto --elements 32
// what: determinant of mat2, mat3 and mat4 (GLSL.std.450 Determinant) on exactly representable entries
#version 450
layout(local_size_x = 32) in;

struct In { mat2 a; mat3 b; mat4 c; };
layout(std430, binding = 0) readonly buffer Src { In s[]; };
layout(std430, binding = 1) writeonly buffer Out { vec4 y[]; };

// Inputs rounded to multiples of 1/8: every product and sum below is exact, so the
// result does not depend on summation order or on fused multiply-add.
float q8(float v) { return floor(v * 8.0) * 0.125; }
vec4 q8(vec4 v) { return floor(v * 8.0) * 0.125; }
vec3 q8(vec3 v) { return floor(v * 8.0) * 0.125; }
vec2 q8(vec2 v) { return floor(v * 8.0) * 0.125; }

void main() {
  uint i = gl_GlobalInvocationID.x;
  In v = s[i];
  mat2 a = mat2(q8(v.a[0]), q8(v.a[1]));
  mat3 b = mat3(q8(v.b[0]), q8(v.b[1]), q8(v.b[2]));
  mat4 c = mat4(q8(v.c[0]), q8(v.c[1]), q8(v.c[2]), q8(v.c[3]));
  y[i] = vec4(determinant(a), determinant(b), determinant(c), 0.0);
}
