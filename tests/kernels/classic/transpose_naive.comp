// porta-conformance: --groups 2,2,1 --inputs auto --elements 1024
// what: naive matrix transpose of a 32x32 float matrix (coalesced reads, strided writes)
#version 450
layout(local_size_x = 16, local_size_y = 16) in;

layout(binding = 0) readonly buffer In { float a[]; };
layout(binding = 1) writeonly buffer Out { float t[]; };

void main() {
  uvec2 g = gl_GlobalInvocationID.xy;
  t[g.x * 32u + g.y] = a[g.y * 32u + g.x];
}
