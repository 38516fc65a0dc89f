// porta-conformance: --groups 1,1,1 --inputs auto --elements 64
// what: mat3 * mat3 (OpMatrixTimesMatrix); std430 mat3 columns have stride 16
#version 450
layout(local_size_x = 64) in;

layout(std430, binding = 0) readonly buffer A { mat3 a[]; };
layout(std430, binding = 1) readonly buffer B { mat3 b[]; };
layout(std430, binding = 2) writeonly buffer Out { mat3 c[]; };

// Inputs rounded to multiples of 1/8: every product and sum below is exact, so the
// result does not depend on summation order or on fused multiply-add.
float q8(float v) { return floor(v * 8.0) * 0.125; }
vec4 q8(vec4 v) { return floor(v * 8.0) * 0.125; }
vec3 q8(vec3 v) { return floor(v * 8.0) * 0.125; }
vec2 q8(vec2 v) { return floor(v * 8.0) * 0.125; }

void main() {
  uint i = gl_GlobalInvocationID.x;
  mat3 x = mat3(q8(a[i][0]), q8(a[i][1]), q8(a[i][2]));
  mat3 y = mat3(q8(b[i][0]), q8(b[i][1]), q8(b[i][2]));
  c[i] = x * y;
}
