// porta-conformance: --groups 1,1,1 --inputs auto --elements 256
// what: 8 Jacobi iterations for the 2D Laplace equation on a 16x16 grid in shared memory (fixed boundary, average of 4 neighbours)
#version 450
layout(local_size_x = 16, local_size_y = 16) in;

layout(binding = 0) readonly buffer In { float u[]; };
layout(binding = 1) writeonly buffer Out { float v[]; };

shared float grid[2][16][16];

void main() {
  uvec2 p = gl_LocalInvocationID.xy;
  grid[0][p.y][p.x] = u[p.y * 16u + p.x];
  barrier();
  bool interior = p.x > 0u && p.x < 15u && p.y > 0u && p.y < 15u;
  uint src = 0u;
  for (int it = 0; it < 8; ++it) {
    float next = grid[src][p.y][p.x];
    // (up + down) + (left + right), then a scaling by a power of two: no product feeds an add.
    if (interior)
      next = ((grid[src][p.y - 1u][p.x] + grid[src][p.y + 1u][p.x]) + (grid[src][p.y][p.x - 1u] + grid[src][p.y][p.x + 1u])) * 0.25;
    grid[1u - src][p.y][p.x] = next;
    src = 1u - src;
    barrier();
  }
  v[p.y * 16u + p.x] = grid[src][p.y][p.x];
}
