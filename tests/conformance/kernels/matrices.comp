#version 450
// Column- and row-major matrices, an array of arrays and a std140 uniform
// block: --layout shows where each scalar is.
layout(local_size_x = 4) in;
struct Cell { mat2x3 cm; ivec2 ij; };
layout(set = 0, binding = 0, std430) buffer Data {
  layout(row_major) mat3x2 rm;
  layout(column_major) mat3 cm3;
  float grid[2][3];
  Cell cells[];
} d;
layout(set = 1, binding = 0, std140) uniform Params { float scale; vec3 dir; float g[2]; } u;
void main() {
  uint i = gl_GlobalInvocationID.x;
  d.cells[i].ij += ivec2(d.grid[1][2] * u.scale + d.rm[2][1] + d.cm3[1][2] + u.g[1]);
}
