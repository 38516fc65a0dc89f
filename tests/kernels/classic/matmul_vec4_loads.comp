// porta-conformance: --groups 1,1,1 --inputs auto --elements 256
// what: matrix multiply of 16x16 matrices stored as vec4 rows (vectorised loads, dot products of vec4 slices)
#version 450
layout(local_size_x = 16, local_size_y = 16) in;

layout(binding = 0) readonly buffer A { vec4 a[]; };   // 16 rows of 4 vec4
layout(binding = 1) readonly buffer BT { vec4 bt[]; }; // B transposed, same shape
layout(binding = 2) writeonly buffer C { float c[]; };

vec4 q8(vec4 v) { return floor(v * 8.0) * 0.125; }  // exact products and sums

void main() {
  uint col = gl_LocalInvocationID.x, row = gl_LocalInvocationID.y;
  float acc = 0.0;
  for (uint k = 0u; k < 4u; ++k) acc += dot(q8(a[row * 4u + k]), q8(bt[col * 4u + k]));
  c[row * 16u + col] = acc;
}
