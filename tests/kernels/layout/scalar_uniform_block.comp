// porta-conformance: --groups 1,1,1 --inputs auto --elements 64
// what: a uniform block with scalar layout: a float array has stride 4 and a vec3 follows at offset 16
#version 450
#extension GL_EXT_scalar_block_layout : require
layout(local_size_x = 64) in;

layout(scalar, binding = 0) uniform U { float w[4]; vec3 v; float s; } u;
layout(std430, binding = 1) readonly buffer In { float x[]; };
layout(std430, binding = 2) writeonly buffer Out { float y[]; };

// Inputs rounded to multiples of 1/8: the products and sums below are exact, so a
// fused multiply-add and a separate multiply and add give the same bits.
float q8(float v) { return floor(v * 8.0) * 0.125; }

void main() {
  uint i = gl_GlobalInvocationID.x;
  y[i] = q8(x[i]) * q8(u.w[i & 3u]) + u.v[i % 3u] + u.s;
}
