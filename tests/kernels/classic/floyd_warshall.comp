// porta-conformance: --groups 1,1,1 --inputs auto --elements 256
// what: all-pairs shortest paths (Floyd-Warshall, all 16 pivots) on a 16-node graph with integer weights, in shared memory
#version 450
layout(local_size_x = 16, local_size_y = 16) in;

layout(binding = 0) readonly buffer W { uint w[]; };
layout(binding = 1) writeonly buffer D { uint dist[]; };

shared uint d[16][16];

void main() {
  uvec2 p = gl_LocalInvocationID.xy;
  uint weight = w[p.y * 16u + p.x];
  d[p.y][p.x] = p.x == p.y ? 0u : (weight % 5u == 0u ? 100000u : weight + 1u);  // some edges missing
  barrier();
  for (uint k = 0u; k < 16u; ++k) {
    uint via = d[p.y][k] + d[k][p.x];
    barrier();
    d[p.y][p.x] = min(d[p.y][p.x], via);
    barrier();
  }
  dist[p.y * 16u + p.x] = d[p.y][p.x];
}
