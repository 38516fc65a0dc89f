// porta-conformance: --groups 4,4,1 --inputs auto --elements 1024
// what: shared-memory tiled transpose of a 32x32 matrix in 8x8 tiles (coalesced reads and writes)
#version 450
layout(local_size_x = 8, local_size_y = 8) in;

layout(binding = 0) readonly buffer In { float a[]; };
layout(binding = 1) writeonly buffer Out { float t[]; };

shared float tile[8][8];

void main() {
  uvec2 l = gl_LocalInvocationID.xy, w = gl_WorkGroupID.xy;
  uvec2 src = w * 8u + l;
  tile[l.y][l.x] = a[src.y * 32u + src.x];
  barrier();
  uvec2 dst = w.yx * 8u + l;
  t[dst.y * 32u + dst.x] = tile[l.x][l.y];
}
