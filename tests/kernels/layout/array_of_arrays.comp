// porta-conformance: --groups 1,1,1 --inputs auto --elements 64
// what: two-dimensional arrays in std430 (float[4][8]) and std140 (float[2][4], inner stride 16)
#version 450
layout(local_size_x = 64) in;

layout(std430, binding = 0) readonly buffer A { float grid[4][8]; };
layout(std140, binding = 1) uniform B { float small[2][4]; };
layout(std430, binding = 2) writeonly buffer Out { float y[]; };

// Inputs rounded to multiples of 1/8: the products and sums below are exact, so a
// fused multiply-add and a separate multiply and add give the same bits.
float q8(float v) { return floor(v * 8.0) * 0.125; }

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint r = (i >> 3) & 3u, c = i & 7u;
  y[i] = q8(grid[r][c]) * q8(small[i & 1u][(i >> 1) & 3u]) + grid[3u - r][7u - c];
}
