// porta-conformance: --groups 2,1,1 --inputs auto --elements 128
// what: a float array in a uniform block has std140 stride 16, not 4; every element read must be the declared one
#version 450
layout(local_size_x = 64) in;

layout(std140, binding = 0) uniform Coeffs {
  float c[8];
  int count;
} coeffs;
layout(binding = 1) writeonly buffer Out { float y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  float v = coeffs.c[i & 7u];
  y[i] = v + float(coeffs.count) * 0.5;
}
