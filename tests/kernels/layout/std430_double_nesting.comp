// porta-conformance: --groups 1,1,1 --inputs auto --elements 32
// what: std430 runtime array of structs holding arrays of structs holding vec2 (strides 8, 24, 56)
#version 450
layout(local_size_x = 32) in;

struct Leaf { vec2 v; float w; };
struct Node { float key; Leaf leaves[2]; float pad; };
layout(std430, binding = 0) readonly buffer In { Node n[]; };
layout(std430, binding = 1) writeonly buffer Out { vec2 y[]; };

// Inputs rounded to multiples of 1/8: the products and sums below are exact, so a
// fused multiply-add and a separate multiply and add give the same bits.
float q8(float v) { return floor(v * 8.0) * 0.125; }

void main() {
  uint i = gl_GlobalInvocationID.x;
  Node a = n[i];
  vec2 v0 = floor(a.leaves[0].v * 8.0) * 0.125, v1 = floor(a.leaves[1].v * 8.0) * 0.125;
  y[i] = v0 * q8(a.leaves[1].w) + v1 * q8(a.leaves[0].w) + vec2(a.key, a.pad);
}
