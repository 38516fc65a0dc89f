// porta-conformance: --groups 1,1,1 --inputs auto --elements 64
// what: mat2 +, -, scalar *, matrixCompMult, negation and ++ on matrices
#version 450
layout(local_size_x = 64) in;

layout(std430, binding = 0) readonly buffer A { mat2 a[]; };
layout(std430, binding = 1) readonly buffer B { mat2 b[]; };
layout(std430, binding = 2) writeonly buffer Out { mat2 c[]; };

// Inputs rounded to multiples of 1/8: every product and sum below is exact, so the
// result does not depend on summation order or on fused multiply-add.
float q8(float v) { return floor(v * 8.0) * 0.125; }
vec4 q8(vec4 v) { return floor(v * 8.0) * 0.125; }
vec3 q8(vec3 v) { return floor(v * 8.0) * 0.125; }
vec2 q8(vec2 v) { return floor(v * 8.0) * 0.125; }

void main() {
  uint i = gl_GlobalInvocationID.x;
  mat2 x = mat2(q8(a[i][0]), q8(a[i][1]));
  mat2 y = mat2(q8(b[i][0]), q8(b[i][1]));
  mat2 z = matrixCompMult(x, y) + (x - y) * 0.5 - (-y);
  z++;
  c[i] = z * 2.0;
}
