// porta-conformance: --groups 2,2,2 --inputs auto --elements 512
// what: a 4x4x4 work-group over a 3D grid with a shared 3D array; gl_LocalInvocationIndex, gl_WorkGroupID and gl_NumWorkGroups in all three dimensions
#version 450
layout(local_size_x = 4, local_size_y = 4, local_size_z = 4) in;

layout(binding = 0) readonly buffer In { uint x[]; };
layout(binding = 1) writeonly buffer Out { uvec2 y[]; };

shared uint cube[4][4][4];

void main() {
  uvec3 l = gl_LocalInvocationID, g = gl_GlobalInvocationID;
  uvec3 size = gl_NumWorkGroups * gl_WorkGroupSize;  // 8x8x8
  uint i = (g.z * size.y + g.y) * size.x + g.x;
  cube[l.z][l.y][l.x] = x[i];
  barrier();
  uint mirrored = cube[3u - l.z][l.y][3u - l.x];
  uint group = (gl_WorkGroupID.z * gl_NumWorkGroups.y + gl_WorkGroupID.y) * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  y[i] = uvec2(mirrored + gl_LocalInvocationIndex * 100u, group);
}
