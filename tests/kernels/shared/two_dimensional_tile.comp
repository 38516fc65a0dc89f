// porta-conformance: --groups 2,2,1 --inputs auto --elements 256
// what: a two-dimensional shared array indexed by gl_LocalInvocationID.xy in an 8x8 work-group; each cell reads its 4 neighbours (clamped)
#version 450
layout(local_size_x = 8, local_size_y = 8) in;

layout(binding = 0) readonly buffer In { int x[]; };
layout(binding = 1) writeonly buffer Out { int y[]; };

shared int tile[8][8];

void main() {
  uvec2 l = gl_LocalInvocationID.xy, g = gl_GlobalInvocationID.xy;
  uint i = g.y * 16u + g.x;
  tile[l.y][l.x] = x[i];
  barrier();
  int up = tile[max(int(l.y) - 1, 0)][l.x], down = tile[min(l.y + 1u, 7u)][l.x];
  int left = tile[l.y][max(int(l.x) - 1, 0)], right = tile[l.y][min(l.x + 1u, 7u)];
  y[i] = 4 * tile[l.y][l.x] - up - down - left - right;
}
