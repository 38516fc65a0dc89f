// porta-conformance: --groups 1,1,1 --inputs auto --elements 32
// what: non-square products: mat2x4 * mat3x2 = mat3x4, mat4x3 * vec4, vec3 * mat4x3 (every shape of OpMatrixTimes*)
#version 450
layout(local_size_x = 32) in;

struct In { mat2x4 a; mat3x2 b; mat4x3 c; vec4 v; vec3 w; };
struct Res { mat3x4 ab; vec3 cv; vec4 wc; };
layout(std430, binding = 0) readonly buffer Src { In src[]; };
layout(std430, binding = 1) writeonly buffer Dst { Res dst[]; };

// Inputs rounded to multiples of 1/8: every product and sum below is exact, so the
// result does not depend on summation order or on fused multiply-add.
float q8(float v) { return floor(v * 8.0) * 0.125; }
vec4 q8(vec4 v) { return floor(v * 8.0) * 0.125; }
vec3 q8(vec3 v) { return floor(v * 8.0) * 0.125; }
vec2 q8(vec2 v) { return floor(v * 8.0) * 0.125; }

void main() {
  uint i = gl_GlobalInvocationID.x;
  In s = src[i];
  mat2x4 a = mat2x4(q8(s.a[0]), q8(s.a[1]));
  mat3x2 b = mat3x2(q8(s.b[0]), q8(s.b[1]), q8(s.b[2]));
  mat4x3 c = mat4x3(q8(s.c[0]), q8(s.c[1]), q8(s.c[2]), q8(s.c[3]));
  dst[i].ab = a * b;
  dst[i].cv = c * q8(s.v);
  dst[i].wc = q8(s.w) * c;
}
