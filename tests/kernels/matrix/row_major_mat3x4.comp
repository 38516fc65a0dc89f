// porta-conformance: --groups 1,1,1 --inputs auto --elements 4
// what: a row-major mat3x4 array in a buffer (MatrixStride 16) times a vector, one element read and written
#version 450
layout(local_size_x = 4) in;
layout(std430, binding = 0) buffer M { layout(row_major) mat3x4 m[]; };
layout(std430, binding = 1) readonly buffer X { vec4 x[]; };
layout(std430, binding = 2) writeonly buffer Y { vec4 y[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  y[i] = m[i] * x[i].xyz;
  m[i][2][1] = 10.0 + float(i);
}
