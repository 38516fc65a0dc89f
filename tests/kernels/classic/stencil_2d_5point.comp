// porta-conformance: --groups 2,2,1 --inputs auto --elements 1024
// what: 2D 5-point Laplacian on a 32x32 grid with a shared 18x18 tile (halo loaded by edge invocations), clamped borders
#version 450
layout(local_size_x = 16, local_size_y = 16) in;

layout(binding = 0) readonly buffer In { float u[]; };
layout(binding = 1) writeonly buffer Out { float v[]; };

shared float tile[18][18];

// Inputs rounded to multiples of 1/8: every product and sum below is exact, so the
// result does not depend on the order of additions or on fused multiply-add.
float q8(float v) { return floor(v * 8.0) * 0.125; }

float at(int x, int y) { return q8(u[clamp(y, 0, 31) * 32 + clamp(x, 0, 31)]); }

void main() {
  ivec2 l = ivec2(gl_LocalInvocationID.xy), g = ivec2(gl_GlobalInvocationID.xy);
  tile[l.y + 1][l.x + 1] = at(g.x, g.y);
  if (l.x == 0) tile[l.y + 1][0] = at(g.x - 1, g.y);
  if (l.x == 15) tile[l.y + 1][17] = at(g.x + 1, g.y);
  if (l.y == 0) tile[0][l.x + 1] = at(g.x, g.y - 1);
  if (l.y == 15) tile[17][l.x + 1] = at(g.x, g.y + 1);
  barrier();
  float c = tile[l.y + 1][l.x + 1];
  v[g.y * 32 + g.x] = tile[l.y][l.x + 1] + tile[l.y + 2][l.x + 1] + tile[l.y + 1][l.x] + tile[l.y + 1][l.x + 2] - 4.0 * c;
}
