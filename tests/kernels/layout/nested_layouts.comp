// porta-conformance: --groups 1,1,1 --inputs auto --elements 4
// what: std140 arrays of arrays, nested structs with arrays, explicit layout(offset=) members
#version 450
layout(local_size_x = 4) in;
struct Inner { float a; vec2 b; };
struct Outer { Inner inner[2]; float t; };
layout(std140, binding = 0) buffer G { float g[3][2]; Outer outer[2]; };
layout(std430, binding = 1) buffer E { layout(offset = 4) float a; layout(offset = 32) vec4 b; float c[]; } e;
void main() {
  uint i = gl_GlobalInvocationID.x;
  e.c[i] = g[i % 3u][i >> 1] + outer[i & 1u].inner[(i >> 1) & 1u].b.y + outer[1].t + e.a + e.b[i];
  if (i == 1u) g[1][1] = 5.0;
  outer[0].inner[1].a = e.b.w;
}
