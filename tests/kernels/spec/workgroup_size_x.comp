// porta-conformance: --groups 8,1,1 --inputs auto --elements 256 --spec 0=32
// what: the work-group size from a specialization constant (local_size_x_id, 64 by default, 32 here): gl_WorkGroupSize and the global ids follow it
#version 450
layout(local_size_x_id = 0) in;

layout(binding = 0) readonly buffer In { uint x[]; };
layout(binding = 1) writeonly buffer Out { uvec4 y[]; };

shared uint tile[gl_WorkGroupSize.x];

void main() {
  uint l = gl_LocalInvocationID.x, i = gl_GlobalInvocationID.x;
  tile[l] = x[i];
  barrier();
  uint partner = tile[gl_WorkGroupSize.x - 1u - l];
  y[i] = uvec4(partner, gl_WorkGroupSize.x, gl_WorkGroupID.x * gl_WorkGroupSize.x + l, i);
}
