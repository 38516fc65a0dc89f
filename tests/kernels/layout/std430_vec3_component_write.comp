// porta-conformance: --groups 2,1,1 --inputs auto --elements 128
// what: single-component writes into std430 vec3 elements (dynamic component index) touch only that word
#version 450
layout(local_size_x = 64) in;

layout(std430, binding = 0) buffer Data { vec3 v[]; };
layout(std430, binding = 1) readonly buffer Sel { uint sel[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  int c = int(sel[i] % 3u);
  v[i][c] = v[i][c] * 4.0 - 1.0;
}
