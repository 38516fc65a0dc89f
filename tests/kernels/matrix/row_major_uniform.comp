// porta-conformance: --groups 1,1,1 --inputs auto --elements 64
// what: row_major mat2x4 and mat3 in a std140 uniform block (row stride 16), used in products
#version 450
layout(local_size_x = 64) in;

layout(std140, row_major, binding = 0) uniform U { mat2x4 a; mat3 b; } u;
layout(std430, binding = 1) readonly buffer In { vec2 x[]; };
layout(std430, binding = 2) writeonly buffer Out { vec4 y[]; };

// Inputs rounded to multiples of 1/8: every product and sum below is exact, so the
// result does not depend on summation order or on fused multiply-add.
float q8(float v) { return floor(v * 8.0) * 0.125; }
vec4 q8(vec4 v) { return floor(v * 8.0) * 0.125; }
vec3 q8(vec3 v) { return floor(v * 8.0) * 0.125; }
vec2 q8(vec2 v) { return floor(v * 8.0) * 0.125; }

void main() {
  uint i = gl_GlobalInvocationID.x;
  mat2x4 a = mat2x4(q8(u.a[0]), q8(u.a[1]));
  mat3 b = mat3(q8(u.b[0]), q8(u.b[1]), q8(u.b[2]));
  vec4 r = a * q8(x[i]);
  y[i] = r + vec4(b * r.xyz, 0.0);
}
