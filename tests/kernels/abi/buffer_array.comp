// porta-conformance: --groups 2,1,1 --inputs auto --elements 128
// what: an array of three storage buffers at one binding is three consecutive parameters, indexed by constants
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer Part { float v[]; } parts[3];
layout(binding = 1) writeonly buffer Out { float y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  y[i] = parts[0].v[i] + 2.0 * parts[1].v[i] + 4.0 * parts[2].v[i];
}
