// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: 1D 7-point stencil (radius 3) with a shared tile plus halo loaded by the edge invocations; zero outside the array
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float y[]; };

const float W[7] = float[7](0.125, -0.25, 0.5, 1.0, 0.5, -0.25, 0.125);

shared float tile[64 + 6];

// Inputs rounded to multiples of 1/8: every product and sum below is exact, so the
// result does not depend on the order of additions or on fused multiply-add.
float q8(float v) { return floor(v * 8.0) * 0.125; }

float load(int k) { return k >= 0 && k < 256 ? q8(x[k]) : 0.0; }

void main() {
  uint l = gl_LocalInvocationID.x;
  int g = int(gl_GlobalInvocationID.x);
  tile[l + 3u] = load(g);
  if (l < 3u) {
    tile[l] = load(g - 3);
    tile[l + 67u] = load(g + 64);
  }
  barrier();
  float s = 0.0;
  for (int k = 0; k < 7; ++k) s += W[k] * tile[l + uint(k)];
  y[g] = s;
}
