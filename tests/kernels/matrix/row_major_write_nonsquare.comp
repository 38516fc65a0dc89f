// porta-conformance: --groups 1,1,1 --inputs auto --elements 96
// what: writes a row_major mat3x2 and a column_major mat3x2 built from the same values (different bytes)
#version 450
layout(local_size_x = 32) in;

layout(std430, binding = 0) readonly buffer In { vec2 x[]; };
layout(std430, binding = 1) buffer RowMajor { layout(row_major) mat3x2 r[]; };
layout(std430, binding = 2) writeonly buffer ColumnMajor { layout(column_major) mat3x2 c[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  mat3x2 m = mat3x2(x[3u * i], x[3u * i + 1u], x[3u * i + 2u] * 2.0);
  r[i] = m;
  c[i] = m;
  r[i][1][0] = -x[3u * i].y;
}
