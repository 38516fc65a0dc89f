// porta-conformance: --groups 1,1,1 --inputs auto --elements 64
// what: layout(align = N) and layout(offset = N) on std430 members: each member sits at the next multiple of its alignment
#version 450
layout(local_size_x = 64) in;

layout(std430, binding = 0) readonly buffer In {
  float a;
  layout(align = 16) float b;      // offset 16
  layout(align = 32) vec2 c;       // offset 32
  layout(offset = 48, align = 16) int d;
  layout(align = 64) float e[4];   // offset 64
} src;
layout(std430, binding = 1) writeonly buffer Out { float y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  y[i] = src.a + src.b * 2.0 + src.c[i & 1u] * 4.0 + float(src.d) * 8.0 + src.e[i & 3u];
}
