// porta-conformance: --groups 1,1,1 --inputs auto --elements 64
// what: members with explicit layout(offset = N) (gaps between them) are read at exactly those offsets
#version 450
layout(local_size_x = 64) in;

layout(std430, binding = 0) readonly buffer In {
  layout(offset = 0) float a;
  layout(offset = 16) vec2 b;
  layout(offset = 32) int c;
  layout(offset = 44) float d;
  layout(offset = 64) float e[16];
} src;
layout(std430, binding = 1) writeonly buffer Out { float y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  y[i] = src.a + src.b.x * 2.0 + src.b.y * 4.0 + float(src.c) * 8.0 + src.d * 16.0 + src.e[i & 15u];
}
