// porta-conformance: --groups 1,1,1 --inputs auto --elements 64
// what: vec4 * mat4 (OpVectorTimesMatrix: dot with each column)
#version 450
layout(local_size_x = 64) in;

layout(std430, binding = 0) readonly buffer M { mat4 m[]; };
layout(std430, binding = 1) readonly buffer V { vec4 v[]; };
layout(std430, binding = 2) writeonly buffer Out { vec4 y[]; };

// Inputs rounded to multiples of 1/8: every product and sum below is exact, so the
// result does not depend on summation order or on fused multiply-add.
float q8(float v) { return floor(v * 8.0) * 0.125; }
vec4 q8(vec4 v) { return floor(v * 8.0) * 0.125; }
vec3 q8(vec3 v) { return floor(v * 8.0) * 0.125; }
vec2 q8(vec2 v) { return floor(v * 8.0) * 0.125; }

void main() {
  uint i = gl_GlobalInvocationID.x;
  mat4 a = m[i];
  mat4 b = mat4(q8(a[0]), q8(a[1]), q8(a[2]), q8(a[3]));
  y[i] = q8(v[i]) * b;
}
