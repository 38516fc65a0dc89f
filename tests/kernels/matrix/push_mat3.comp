// porta-conformance: --groups 1,1,1 --inputs auto --elements 4
// what: push constants holding a mat3 (std430 MatrixStride 16) and a float after it
#version 450
layout(local_size_x = 4) in;
layout(push_constant) uniform P { mat3 rot; float s; } pc;
layout(std430, binding = 0) buffer V { vec4 v[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  v[i].xyz = pc.rot * v[i].xyz * pc.s;
}
