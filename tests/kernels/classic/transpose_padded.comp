// porta-conformance: --groups 2,2,1 --inputs auto --elements 1024
// what: tiled transpose with a padded shared tile (16x17, avoiding bank conflicts) and each invocation moving 4 rows of a 32x32 int matrix
#version 450
layout(local_size_x = 16, local_size_y = 4) in;

layout(binding = 0) readonly buffer In { int a[]; };
layout(binding = 1) writeonly buffer Out { int t[]; };

shared int tile[16][17];

void main() {
  uvec2 l = gl_LocalInvocationID.xy, w = gl_WorkGroupID.xy;
  uint x = w.x * 16u + l.x;
  for (uint r = l.y; r < 16u; r += 4u) tile[r][l.x] = a[(w.y * 16u + r) * 32u + x];
  barrier();
  uint tx = w.y * 16u + l.x;
  for (uint r = l.y; r < 16u; r += 4u) t[(w.x * 16u + r) * 32u + tx] = tile[l.x][r];
}
