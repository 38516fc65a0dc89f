// porta-conformance: --groups 1,1,1 --inputs auto --elements 64
// what: dynamic column and component indices into matrices in buffers and in registers, reads and writes
#version 450
layout(local_size_x = 64) in;

layout(std430, binding = 0) buffer M { mat4 m[]; };
layout(std430, binding = 1) readonly buffer Idx { uint idx[]; };
layout(std430, binding = 2) writeonly buffer Out { vec4 y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint c = idx[i] & 3u, r = (idx[i] >> 2) & 3u;
  mat4 a = m[i];
  a[c][r] = 8.0;
  a[r] = a[c].wzyx;
  y[i] = a[c] + a[r] + vec4(a[3u - c][r]);
  m[i][r][c] = -1.0;
}
