// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: gl_WorkGroupSize (a composite constant) in arithmetic and in an array size, with a fixed local size
#version 450
layout(local_size_x = 32, local_size_y = 2) in;

layout(binding = 0) readonly buffer In { uint x[]; };
layout(binding = 1) writeonly buffer Out { uint y[]; };

shared uint row_sum[gl_WorkGroupSize.y];

void main() {
  uint lx = gl_LocalInvocationID.x, ly = gl_LocalInvocationID.y;
  uint i = gl_WorkGroupID.x * (gl_WorkGroupSize.x * gl_WorkGroupSize.y) + gl_LocalInvocationIndex;
  if (lx == 0u) row_sum[ly] = 0u;
  barrier();
  atomicAdd(row_sum[ly], x[i]);
  barrier();
  y[i] = row_sum[ly] * gl_WorkGroupSize.x + row_sum[1u - ly];
}
