// porta-conformance: --groups 1,1,1 --inputs auto --elements 64
// what: std140 uniform mat2 (column stride 16, not 8) and mat3, plus a mat2 array (stride 32)
#version 450
layout(local_size_x = 64) in;

layout(std140, binding = 0) uniform U { mat2 a; mat3 b; mat2 arr[2]; } u;
layout(std430, binding = 1) writeonly buffer Out { vec4 y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint k = i & 1u;
  y[i] = vec4(u.a[k], u.b[i % 3u].yz) + vec4(u.arr[k][1], u.arr[1u - k][0]);
}
