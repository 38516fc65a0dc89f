// porta-conformance: --groups 1,1,1 --inputs auto --elements 32
// what: scalar layout mat3 (column stride 12, matrix stride 36) read and written
#version 450
#extension GL_EXT_scalar_block_layout : require
layout(local_size_x = 32) in;

layout(scalar, binding = 0) readonly buffer In { mat3 m[]; };
layout(scalar, binding = 1) writeonly buffer Out { mat3 t[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  t[i] = transpose(m[i]) + m[(i + 1u) & 31u];
}
