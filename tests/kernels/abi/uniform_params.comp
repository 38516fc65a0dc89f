// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: a uniform block (std140, read-only) of scalars parameterises a storage-buffer computation
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) uniform Params {
  float scale;
  float bias;
  uint stride;
  int shift;
} params;
layout(binding = 1) readonly buffer In { float x[]; };
layout(binding = 2) writeonly buffer Out { float y[]; };

// Inputs rounded to multiples of 1/8: the products and sums below are exact, so a
// fused multiply-add and a separate multiply and add give the same bits.
float q8(float v) { return floor(v * 8.0) * 0.125; }

void main() {
  uint i = gl_GlobalInvocationID.x;
  // stride and shift are auto integers in [0,64): keep the index inside the 256 elements.
  uint j = (i * (params.stride | 1u) + uint(params.shift)) & 255u;
  y[i] = q8(x[j]) * q8(params.scale) + params.bias;
}
