// porta-conformance: --groups 1,1,1 --inputs auto --elements 64
// what: an array of two uniform blocks (consecutive parameters, each std140)
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) uniform Scale { vec4 s; } scales[2];
layout(binding = 1) readonly buffer In { vec4 x[]; };
layout(binding = 2) writeonly buffer Out { vec4 y[]; };

// Inputs rounded to multiples of 1/8: the products and sums below are exact, so a
// fused multiply-add and a separate multiply and add give the same bits.
float q8(float v) { return floor(v * 8.0) * 0.125; }

void main() {
  uint i = gl_GlobalInvocationID.x;
  y[i] = vec4(q8(x[i].x), q8(x[i].y), q8(x[i].z), q8(x[i].w)) * floor(scales[0].s * 8.0) * 0.125 + scales[1].s;
}
