// porta-conformance: --groups 2,1,1 --inputs auto --elements 128
// what: matrices in shared memory: each invocation stores a mat2, then reads its neighbour's after a barrier
#version 450
layout(local_size_x = 64) in;

layout(std430, binding = 0) readonly buffer In { mat2 a[]; };
layout(std430, binding = 1) writeonly buffer Out { mat2 y[]; };

shared mat2 tile[64];

// Inputs rounded to multiples of 1/8: every product and sum below is exact, so the
// result does not depend on summation order or on fused multiply-add.
float q8(float v) { return floor(v * 8.0) * 0.125; }
vec4 q8(vec4 v) { return floor(v * 8.0) * 0.125; }
vec3 q8(vec3 v) { return floor(v * 8.0) * 0.125; }
vec2 q8(vec2 v) { return floor(v * 8.0) * 0.125; }

void main() {
  uint l = gl_LocalInvocationID.x, i = gl_GlobalInvocationID.x;
  tile[l] = mat2(q8(a[i][0]), q8(a[i][1]));
  barrier();
  y[i] = tile[l] * tile[(l + 1u) & 63u];
}
