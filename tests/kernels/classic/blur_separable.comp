// porta-conformance: --groups 2,2,1 --inputs auto --elements 1024
// what: separable binomial blur [1 4 6 4 1]/16 on a 32x32 image: horizontal pass into a shared tile with halo rows, barrier, vertical pass (exact)
#version 450
layout(local_size_x = 16, local_size_y = 16) in;

layout(binding = 0) readonly buffer Img { float img[]; };
layout(binding = 1) writeonly buffer Out { float o[]; };

shared float rows[20][16];  // 16 rows plus 2 halo rows above and below

const float W[5] = float[5](0.0625, 0.25, 0.375, 0.25, 0.0625);

// Inputs rounded to multiples of 1/8: every product and sum below is exact, so the
// result does not depend on the order of additions or on fused multiply-add.
float q8(float v) { return floor(v * 8.0) * 0.125; }

float at(int x, int y) { return q8(img[clamp(y, 0, 31) * 32 + clamp(x, 0, 31)]); }

float horizontal(int x, int y) {
  float s = 0.0;
  for (int k = 0; k < 5; ++k) s += W[k] * at(x + k - 2, y);
  return s;
}

void main() {
  ivec2 l = ivec2(gl_LocalInvocationID.xy), g = ivec2(gl_GlobalInvocationID.xy);
  rows[l.y + 2][l.x] = horizontal(g.x, g.y);
  if (l.y < 2) rows[l.y][l.x] = horizontal(g.x, g.y - 2);
  if (l.y >= 14) rows[l.y + 4][l.x] = horizontal(g.x, g.y + 2);
  barrier();
  float s = 0.0;
  for (int k = 0; k < 5; ++k) s += W[k] * rows[l.y + k][l.x];
  o[g.y * 32 + g.x] = s;
}
