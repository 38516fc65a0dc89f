// porta-conformance: --groups 2,1,1 --inputs auto --elements 128
// what: scalar block layout: a vec3 array has stride 12 (tightly packed)
#version 450
#extension GL_EXT_scalar_block_layout : require
layout(local_size_x = 64) in;

layout(scalar, binding = 0) readonly buffer In { vec3 a[]; };
layout(scalar, binding = 1) writeonly buffer Out { vec3 b[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  b[i] = cross(a[i], vec3(1.0, 0.5, 0.25)) + a[(i + 1u) & 127u];
}
