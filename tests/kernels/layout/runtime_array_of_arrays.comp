// porta-conformance: --groups 2,1,1 --inputs auto --elements 8
// what: a runtime array of arrays (vec2 grid[][3], std430) and a runtime array of structs holding arrays, indexed dynamically
#version 450
layout(local_size_x = 4) in;
struct Cell { float weight; uint tags[3]; };
layout(std430, binding = 0) readonly buffer Grid { vec2 grid[][3]; };
layout(std430, binding = 1) buffer Cells { Cell cells[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  uint k = i % 3u;
  vec2 g = grid[i][k] + grid[i][(k + 1u) % 3u];
  cells[i].weight = g.x * g.y;
  cells[i].tags[k] = uint(i * 10u + k);
}
