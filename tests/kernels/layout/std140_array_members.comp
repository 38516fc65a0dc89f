// porta-conformance: --groups 1,1,1 --inputs auto --elements 8
// what: std140 arrays of float and vec2 (ArrayStride 16) in a storage buffer, read and written
#version 450
layout(local_size_x = 8) in;
layout(std140, binding = 0) buffer Params { float scale[8]; vec2 offs[8]; } params;
layout(std430, binding = 1) buffer Out { float o[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  o[i] = params.scale[i] * 3.0 + params.offs[i].y;
  params.scale[i] = float(i) + 0.5;
  params.offs[i].x = -float(i);
}
